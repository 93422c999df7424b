//! Tests on position and game files.
//!
//! Two kinds of file. The ones the repository ships (`protocol-tests/data/`, see its README:
//! made by `scripts/make_data.py` or under a licence that lets us ship them) are always read; a
//! missing one fails. Public collections whose licence does not let us ship them are read from
//! the folder `GORIN_DATA` names: without the variable those tests say so and pass, with it a
//! missing file fails (CI sets it in its second pass).

mod json;

use gorin::board::Board;
use gorin::rules::renju::ForbiddenPoints;
use gorin::types::{Color, Rule};
use json::Json;
use std::path::{Path, PathBuf};

fn shipped(name: &str) -> Vec<Json> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol-tests/data").join(name);
    assert!(path.is_file(), "shipped test data {} is missing", path.display());
    records(&path)
}

fn public(name: &str) -> Option<Vec<Json>> {
    let Some(dir) = std::env::var_os("GORIN_DATA").map(PathBuf::from) else {
        eprintln!("skipping {name}: GORIN_DATA is not set");
        return None;
    };
    let path = dir.join(name);
    assert!(path.is_file(), "test data {} is missing (GORIN_DATA={})", path.display(), dir.display());
    Some(records(&path))
}

fn records(path: &Path) -> Vec<Json> {
    let text = std::fs::read_to_string(path).expect("readable data file");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| Json::parse(l).unwrap_or_else(|e| panic!("{}:{}: {e}", path.display(), i + 1)))
        .collect()
}

fn point(v: &Json) -> (i64, i64) {
    let a = v.array();
    (a[0].int(), a[1].int())
}

/// Every case's forbidden points (a complete set, or one point's kind) against the board's.
fn check_forbidden_cases(cases: &[Json]) {
    let mut failures = Vec::new();
    for case in cases {
        let id = case.get("id").str();
        let size = case.try_get("size").map(|s| s.int() as usize).unwrap_or(15);
        let mut b = Board::new(size, size, Rule::Renju);
        for (key, color) in [("black", Color::Black), ("white", Color::White)] {
            for s in case.get(key).array() {
                let (x, y) = point(s);
                let p = b.pos(x, y).expect("stone on the board");
                b.set_side_to_move(color);
                b.make(p);
            }
        }
        b.set_side_to_move(Color::Black);
        let found = |b: &mut Board, x, y| {
            let p = b.pos(x, y).expect("point on the board");
            b.foul(p).map(|f| f.name().to_string())
        };
        match case.get("expected").str() {
            "complete_set" => {
                let mut want: Vec<(i64, i64, String)> = case
                    .get("forbidden")
                    .array()
                    .iter()
                    .map(|f| {
                        let (x, y) = point(f.get("point"));
                        (x, y, f.get("kind").str().to_string())
                    })
                    .collect();
                want.sort();
                let mut got: Vec<(i64, i64, String)> = b
                    .forbidden_points()
                    .into_iter()
                    .map(|p| {
                        let (x, y) = b.xy(p);
                        let kind = b.foul(p).expect("forbidden").name().to_string();
                        (x as i64, y as i64, kind)
                    })
                    .collect();
                got.sort();
                if got != want {
                    failures.push(format!("{id}: want {want:?}\n   got {got:?}\n{}", b.to_ascii()));
                }
            }
            "single_point" => {
                let (x, y) = point(case.get("point"));
                let want = case.get("kind").opt_str().map(String::from);
                let got = found(&mut b, x, y);
                if got != want {
                    failures.push(format!("{id}: point {x},{y} want {want:?} got {got:?}\n{}", b.to_ascii()));
                }
            }
            other => panic!("{id}: unknown expectation {other}"),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn renju_forbidden_cases_of_quintet() {
    let cases = shipped("renju_forbidden_quintet.jsonl");
    assert_eq!(cases.len(), 23, "the file has quintet's 23 cases");
    check_forbidden_cases(&cases);
}

#[test]
fn renju_forbidden_cases_of_self_play() {
    let cases = shipped("renju_forbidden_selfplay.jsonl");
    assert!(cases.len() >= 50, "only {} cases", cases.len());
    let kinds: Vec<&str> =
        cases.iter().flat_map(|c| c.get("forbidden").array()).map(|f| f.get("kind").str()).collect();
    for kind in ["double_three", "double_four"] {
        assert!(kinds.contains(&kind), "no {kind} among the cases");
    }
    check_forbidden_cases(&cases);
}

#[test]
fn renju_forbidden_cases_public() {
    let Some(cases) = public("renju_forbidden_cases.jsonl") else { return };
    assert_eq!(cases.len(), 35, "the file has 35 cases");
    check_forbidden_cases(&cases);
}

#[test]
fn gomocup_games_replay_with_the_five_at_the_last_move() {
    let Some(games) = public("gomocup2016_games.jsonl") else { return };
    assert!(games.len() > 7000);
    let mut failures = Vec::new();
    for g in &games {
        let file = g.get("file").str();
        let size = g.get("size").int() as usize;
        let mut b = Board::new(size, size, Rule::Freestyle);
        let moves = g.get("moves").array();
        let mut first_five = None;
        for (ply, m) in moves.iter().enumerate() {
            let (x, y) = point(m);
            let Some(p) = b.pos(x, y).filter(|&p| b.is_empty(p)) else {
                failures.push(format!("{file}: ply {} ({x},{y}) is not a legal point", ply + 1));
                break;
            };
            let color = b.side_to_move();
            let five = b.makes_five(p, color);
            b.make(p);
            if five && first_five.is_none() {
                first_five = Some(ply + 1);
                assert!(b.is_win_at(p), "{file}: is_win_at disagrees with makes_five");
            }
        }
        let want = match g.get("result").get("event").str() {
            "five" => Some(moves.len()),
            _ => None,
        };
        if first_five != want {
            failures.push(format!("{file}: first five at {first_five:?}, recorded {want:?}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} games failed:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}

/// Plays a solver's proof out: every move legal, ending in a five of the side to move.
fn proof_holds(b: &Board, line: &[gorin::types::Pos]) -> Result<(), String> {
    let mut b = b.clone();
    let attacker = b.side_to_move();
    for &p in line {
        let mover = b.side_to_move();
        if !gorin::search::movepick::legal_for(&mut b, p, mover) {
            let names: Vec<String> = line.iter().map(|&q| b.pos_name(q)).collect();
            return Err(format!("illegal move {} in the proof {names:?}", b.pos_name(p)));
        }
        b.make(p);
    }
    let Some(&last) = line.last().filter(|&&p| b.get(p) == Some(attacker)) else {
        return Err("the proof does not end with an attacker move".into());
    };
    if b.is_win_at(last) {
        return Ok(());
    }
    // Renju: a four whose five points black may not take.
    let mut fives = Vec::new();
    b.for_each_empty(|p| {
        if b.makes_five(p, attacker) {
            fives.push(p);
        }
    });
    if attacker == Color::White && !fives.is_empty() && fives.iter().all(|&p| b.is_forbidden(p)) {
        return Ok(());
    }
    Err("the proof ends in neither a five nor an unblockable four".into())
}

/// A puzzle's position; its `rule` (renju when the record names none).
fn puzzle_board(case: &Json) -> Board {
    let size = case.get("size").int() as usize;
    let rule = match case.try_get("rule").map(Json::str) {
        None | Some("renju") => Rule::Renju,
        Some("freestyle") => Rule::Freestyle,
        Some("standard") => Rule::Standard,
        Some(other) => panic!("{}: rule {other}", case.get("id").str()),
    };
    let mut b = Board::new(size, size, rule);
    for (key, color) in [("black", Color::Black), ("white", Color::White)] {
        for s in case.get(key).array() {
            let (x, y) = point(s);
            b.place(b.pos(x, y).expect("stone on the board"), color);
        }
    }
    let side = if case.get("to_move").str() == "black" { Color::Black } else { Color::White };
    b.set_side_to_move(side);
    b
}

/// The VCF solver proves at least 97% of the puzzles, the VCT solver as many of a sample, and
/// every proof plays out. Where a record lists every first move winning within its `fours`,
/// a proof no longer than that starts with one of them.
fn check_vcf_puzzles(cases: &[Json]) {
    use gorin::search::threat::{Solver, ThreatCache};
    let mut vcf_cache = ThreatCache::new(18);
    let mut vct_cache = ThreatCache::new(16);
    let (mut vcf_solved, mut vct_solved) = (0, 0);
    let mut failures = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let id = case.get("id").str();
        let mut b = puzzle_board(case);
        vcf_cache.clear();
        if let Some(proof) = Solver::vcf(&mut vcf_cache, 2_000_000).find_vcf(&mut b) {
            vcf_solved += 1;
            if let Err(e) = proof_holds(&b, &proof.line) {
                failures.push(format!("{id} (VCF): {e}\n{}", b.to_ascii()));
            }
            let listed: Vec<(i64, i64)> = case.get("winning_first_moves").array().iter().map(point).collect();
            let (x, y) = b.xy(proof.line[0]);
            let short = case.try_get("fours").is_some_and(|f| proof.line.len().div_ceil(2) as i64 <= f.int());
            if short && !listed.contains(&(x as i64, y as i64)) {
                failures.push(format!(
                    "{id}: the proof starts at {x},{y}, not among {listed:?}\n{}",
                    b.to_ascii()
                ));
            }
        }
        // VCT on a sample: its proofs mix threes and fours and must hold as well.
        if i % 5 == 0 {
            vcf_cache.clear();
            vct_cache.clear();
            let found = Solver::vct(&mut vcf_cache, &mut vct_cache, 2_000_000).find_vct(&mut b, 3);
            if let Some(proof) = found {
                vct_solved += 1;
                if let Err(e) = proof_holds(&b, &proof.line) {
                    failures.push(format!("{id} (VCT): {e}\n{}", b.to_ascii()));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    let n = cases.len();
    assert!(vcf_solved * 100 >= n * 97, "VCF solved {vcf_solved} of {n}");
    assert!(vct_solved * 100 >= n.div_ceil(5) * 97, "VCT solved {vct_solved} of {}", n.div_ceil(5));
    eprintln!("VCF solved {vcf_solved} of {n}; VCT solved {vct_solved} of {}", n.div_ceil(5));
}

#[test]
fn threat_solvers_prove_the_self_play_vcf_positions() {
    let cases = shipped("renju_vcf_selfplay.jsonl");
    assert!(cases.len() >= 100, "only {} positions", cases.len());
    check_vcf_puzzles(&cases);
}

#[test]
fn threat_solvers_prove_the_public_renju_vcf_puzzles() {
    let Some(cases) = public("renju_vcf_puzzles.jsonl") else { return };
    check_vcf_puzzles(&cases);
}

/// Every deep VCF position (any rule) still has its shortest VCF exactly `vcf_plies` long, the
/// solver's proof plays out and starts with the listed move: the file and the solver agree.
#[test]
fn deep_vcf_positions_keep_their_length() {
    use gorin::search::threat::{Solver, ThreatCache};
    let cases = shipped("deep_vcf_selfplay.jsonl");
    assert!(cases.len() >= 40, "only {} positions", cases.len());
    let mut cache = ThreatCache::new(20);
    let mut failures = Vec::new();
    for case in &cases {
        let id = case.get("id").str();
        let mut b = puzzle_board(case);
        cache.clear();
        let Some(proof) = Solver::vcf(&mut cache, 2_000_000).shortest_vcf(&mut b) else {
            failures.push(format!("{id}: no VCF found\n{}", b.to_ascii()));
            continue;
        };
        if proof.line.len() as i64 != case.get("vcf_plies").int() {
            failures.push(format!(
                "{id}: {} plies, the file says {}",
                proof.line.len(),
                case.get("vcf_plies").int()
            ));
        }
        let (x, y) = b.xy(proof.line[0]);
        let listed: Vec<(i64, i64)> = case.get("winning_first_moves").array().iter().map(point).collect();
        if !listed.contains(&(x as i64, y as i64)) {
            failures.push(format!("{id}: the proof starts at {x},{y}, not among {listed:?}"));
        }
        if let Err(e) = proof_holds(&b, &proof.line) {
            failures.push(format!("{id}: {e}\n{}", b.to_ascii()));
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}
