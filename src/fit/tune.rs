//! Fitting the evaluation weights to game results (`pbrain-gorin tune GAMES.jsonl`).
//!
//! The evaluation is linear in per-point counts: for each side, how many (empty point,
//! direction) pairs hold each line pattern and how many empty points hold each combined class.
//! Positions are taken from finished games (the side to move, the eventual winner), leaving out
//! those already decided by a five point, an open four or a continuous-four win. A logistic
//! model `P(win) = 1 / (1 + exp(-eval / SCALE))` is fitted by gradient descent (Adam) on the
//! log loss, starting from the current weights; the scale is fixed first so that the current
//! weights fit best, which keeps the search's margins meaningful.
//!
//! Besides those counts, each side has one weight per point shape (`eval::shape`, the four
//! patterns as a multiset), a correction on top of the linear value, kept small by an L2
//! penalty so that rare shapes stay near the linear value. Every tenth position is held out
//! and its log loss reported, so a richer fit shows whether it generalises.
//!
//! A record may instead carry `"target": p`: the probability that the side to move in the
//! position after its moves wins, as a stronger engine judged it. Such a record gives that one
//! position with `p` as its soft label; a teacher's judgement of a position is far less noisy
//! than the result of the game it came from.

use crate::board::Board;
use crate::eval::{combo, params, shape, Class, Forbid, CLASS_COUNT, COMBO_COUNT, SHAPE_COUNT};
use crate::pattern::{Pat, B2, NONE, PAT_COUNT};
use crate::search::threat::{Solver, ThreatCache};
use crate::types::{Color, Rule};
use anyhow::{bail, Context, Result};

/// Weights per side: line patterns, then classes, then combinations.
pub(super) const SIDE: usize = PAT_COUNT + CLASS_COUNT + COMBO_COUNT;
/// Where a side's combination weights start.
pub(super) const COMBOS: usize = PAT_COUNT + CLASS_COUNT;
/// Own weights, opponent weights, tempo.
pub(super) const PARAMS: usize = 2 * SIDE + 1;
/// All weights: the above, then the own and the opponent's shape corrections.
pub(super) const ALL: usize = PARAMS + 2 * SHAPE_COUNT;
/// L2 penalty on the shape corrections (per unit of mean log loss). Held-out log loss on the
/// 80,697 teacher positions: 0.5455 at 1e-7, 0.5459 at 1e-6, 0.5475 at 1e-5 (0.5577 without
/// shapes).
pub(super) const SHAPE_L2: f64 = 1e-7;
/// Plies at the start of a game that say little about the result.
const SKIP_PLIES: usize = 6;

pub(super) struct Sample {
    pub(super) features: [f32; PARAMS],
    /// Shape counts as (index into the shape weights, count): own, then the opponent's.
    pub(super) shapes: Vec<(u16, f32)>,
    /// The side to move's result: 1 won, 0 lost, or a teacher's probability between.
    pub(super) won: f32,
    /// Stones on the board (the net's output bucket).
    pub(super) stones: u16,
}

/// What a record says about its positions.
#[derive(Copy, Clone, Debug, PartialEq)]
enum Label {
    /// A finished game: every position is labelled with its winner.
    Winner(Color),
    /// One position (after the moves), with the side to move's winning probability.
    Target(f32),
}

/// Runs the fit and prints the weights as Rust constants.
pub fn run(args: &[String]) -> Result<()> {
    let path = args.first().context("usage: pbrain-gorin tune GAMES.jsonl [iterations [scale]]")?;
    let iterations: usize = match args.get(1) {
        Some(n) => n.parse().context("iterations")?,
        None => 2000,
    };
    let (games, samples, held_out, rule) = load(path)?;
    let mut w = current_weights(params::for_rule(rule));
    for (i, x) in w.iter_mut().enumerate() {
        if fixed(i) {
            *x = 0.0;
        }
    }
    let scale = match args.get(2) {
        Some(k) => k.parse().context("scale")?,
        None => best_scale(&samples, &w),
    };
    let before = (loss(&samples, &w, scale), loss(&held_out, &w, scale));
    fit(&samples, &mut w, scale, iterations);
    let after = (loss(&samples, &w, scale), loss(&held_out, &w, scale));
    println!(
        "// {games} records, {} positions, scale {scale:.0}: log loss {:.5} -> {:.5}",
        samples.len(),
        before.0,
        after.0
    );
    println!("// {} held-out positions: log loss {:.5} -> {:.5}", held_out.len(), before.1, after.1);
    print_weights(&w, rule);
    Ok(())
}

/// The quiet positions of a file of records: how many records, the positions fitted, every
/// tenth position held out, and the rule of the records (their weight set: one per file).
pub(super) fn load(path: &str) -> Result<(usize, Vec<Sample>, Vec<Sample>, Rule)> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
    let mut samples = Vec::new();
    let mut cache = ThreatCache::new(16);
    let mut games = 0;
    let mut first_rule = None;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let Some((size, rule, moves, label)) = parse_game(line) else { continue };
        let first = *first_rule.get_or_insert(rule);
        if params::set_index(rule) != params::set_index(first) {
            bail!(
                "{path}: {} and {} records evaluate with different weights: fit them apart",
                first.name(),
                rule.name()
            );
        }
        games += 1;
        match label {
            Label::Winner(winner) => collect(size, rule, &moves, winner, &mut cache, &mut samples),
            Label::Target(p) => collect_position(size, rule, &moves, p, &mut cache, &mut samples),
        }
    }
    if samples.is_empty() {
        bail!("no positions in {path}");
    }
    let (held_out, samples): (Vec<_>, Vec<_>) =
        samples.into_iter().enumerate().partition(|(i, _)| i % 10 == 0);
    let held_out = held_out.into_iter().map(|(_, s)| s).collect();
    let samples = samples.into_iter().map(|(_, s)| s).collect();
    Ok((games, samples, held_out, first_rule.unwrap_or(Rule::Freestyle)))
}

/// A record: board size, rule, moves in order, label.
type Game = (usize, Rule, Vec<(i64, i64)>, Label);

/// One JSONL record (`None` for games without a five, for targets outside 0..=1 and for rules
/// not known). `"rule"` is an `INFO rule` number (teacher files) or a rule's name (the Gomocup
/// set); a record without it is freestyle, as the first teacher files were.
fn parse_game(line: &str) -> Option<Game> {
    let size = number_after(line, "\"size\":")? as usize;
    let rule = match line.split("\"rule\":").nth(1).map(str::trim_start) {
        None => Rule::Freestyle,
        Some(named) if named.starts_with('"') => {
            Rule::ALL.into_iter().find(|r| named[1..].starts_with(&format!("{}\"", r.name())))?
        }
        Some(_) => Rule::from_info_value(number_after(line, "\"rule\":")? as u64)?,
    };
    let label = if let Some(rest) = line.split("\"target\":").nth(1) {
        let text: String = rest
            .trim_start()
            .chars()
            .take_while(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | '-'))
            .collect();
        let p: f32 = text.parse().ok()?;
        if !(0.0..=1.0).contains(&p) {
            return None;
        }
        Label::Target(p)
    } else {
        match line.split("\"winner\":").nth(1)?.trim_start() {
            w if w.starts_with("\"black\"") => Label::Winner(Color::Black),
            w if w.starts_with("\"white\"") => Label::Winner(Color::White),
            _ => return None,
        }
    };
    let moves = coordinates(line.split("\"moves\":").nth(1)?)?;
    Some((size, rule, moves, label))
}

/// The `[[x, y], ...]` list at the start of `list` (`None` if it does not end with `]]`).
pub(super) fn coordinates(list: &str) -> Option<Vec<(i64, i64)>> {
    let end = list.find("]]")?;
    let nums: Vec<i64> = list[..end]
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .filter_map(|s| s.parse().ok())
        .collect();
    Some(nums.chunks_exact(2).map(|c| (c[0], c[1])).collect())
}

pub(super) fn number_after(line: &str, key: &str) -> Option<i64> {
    let rest = line.split(key).nth(1)?.trim_start();
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().ok()
}

fn collect(
    size: usize,
    rule: Rule,
    moves: &[(i64, i64)],
    winner: Color,
    cache: &mut ThreatCache,
    out: &mut Vec<Sample>,
) {
    let mut b = Board::new(size, size, rule);
    for (ply, &(x, y)) in moves.iter().enumerate() {
        let Some(p) = b.pos(x, y).filter(|&p| b.is_empty(p)) else { return };
        if ply >= SKIP_PLIES && quiet(&mut b, cache) {
            let us = b.side_to_move();
            out.push(sample(&b, (us == winner) as u8 as f32));
        }
        b.make(p);
    }
}

/// The position after `moves`, labelled `p` for its side to move (if it is quiet).
fn collect_position(
    size: usize,
    rule: Rule,
    moves: &[(i64, i64)],
    p: f32,
    cache: &mut ThreatCache,
    out: &mut Vec<Sample>,
) {
    let mut b = Board::new(size, size, rule);
    for &(x, y) in moves {
        let Some(pos) = b.pos(x, y).filter(|&pos| b.is_empty(pos)) else { return };
        b.make(pos);
    }
    if quiet(&mut b, cache) {
        out.push(sample(&b, p));
    }
}

/// Whether the position is undecided at a glance: no five to make or block, no open four or
/// four-three for the side to move, no win by fours.
fn quiet(b: &mut Board, cache: &mut ThreatCache) -> bool {
    let us = b.side_to_move();
    let them = us.opp();
    if b.class_count(us, Class::Five) + b.class_count(them, Class::Five) > 0
        || b.class_count(us, Class::OpenFour) + b.class_count(us, Class::FourThree) > 0
    {
        return false;
    }
    !Solver::vcf(cache, 2_000).has_vcf(b)
}

/// The linear features one point gives `side` (0 the side to move, 1 the opponent): its four
/// line patterns, its class and its combination; `netfit` reads the same for its inputs.
pub(super) fn point_features(pats: &[Pat; 4], class: Class, side: usize) -> [usize; 6] {
    let base = side * SIDE;
    let p = |d: usize| base + pats[d].index();
    [p(0), p(1), p(2), p(3), base + PAT_COUNT + class as usize, base + COMBOS + combo(pats, class) as usize]
}

pub(super) fn sample(b: &Board, won: f32) -> Sample {
    let mut f = [0f32; PARAMS];
    let mut counts = vec![0f32; 2 * SHAPE_COUNT];
    let us = b.side_to_move();
    b.for_each_empty(|p| {
        for (side, color) in [(0, us), (1, us.opp())] {
            // A forbidden point, and renju black's point of two open threes, has no value
            // at all (see `build_point_tables`).
            if b.forbid_hint(p, color) != Forbid::Legal {
                continue;
            }
            let pats = b.patterns(p, color);
            counts[side * SHAPE_COUNT + shape(&pats)] += 1.0;
            for i in point_features(&pats, b.class(p, color), side) {
                f[i] += 1.0;
            }
        }
    });
    f[2 * SIDE] = 1.0;
    let shapes = counts.iter().enumerate().filter(|(_, &c)| c > 0.0).map(|(i, &c)| (i as u16, c)).collect();
    Sample { features: f, shapes, won, stones: b.stone_count() as u16 }
}

/// The weights of one set as the fit's vector (the opponent's negated: the fit adds them).
pub(super) fn current_weights(set: &params::Weights) -> Vec<f64> {
    let mut w = vec![0f64; ALL];
    let sides = [
        (1.0, &set.pattern, &set.class, &set.combo),
        (-1.0, &set.opponent_pattern, &set.opponent_class, &set.opponent_combo),
    ];
    for (side, (sign, pats, classes, combos)) in sides.into_iter().enumerate() {
        for p in 0..PAT_COUNT {
            w[side * SIDE + p] = sign * pats[p] as f64;
        }
        for c in 0..CLASS_COUNT {
            w[side * SIDE + PAT_COUNT + c] = sign * classes[c] as f64;
        }
        for m in 0..COMBO_COUNT {
            w[side * SIDE + COMBOS + m] = sign * combos[m] as f64;
        }
    }
    w[2 * SIDE] = set.tempo as f64;
    for k in 0..SHAPE_COUNT {
        w[PARAMS + k] = set.shape[k] as f64;
        w[PARAMS + SHAPE_COUNT + k] = -set.opponent_shape[k] as f64;
    }
    w
}

pub(super) fn eval(s: &Sample, w: &[f64]) -> f64 {
    let linear: f64 = s.features.iter().zip(w).map(|(&f, &w)| f as f64 * w).sum();
    linear + s.shapes.iter().map(|&(i, c)| c as f64 * w[PARAMS + i as usize]).sum::<f64>()
}

/// Adds `d` times the sample's features to the gradient of every weight (`eval` is linear).
pub(super) fn add_gradient(grad: &mut [f64], s: &Sample, d: f64) {
    for (g, &f) in grad.iter_mut().zip(&s.features) {
        *g += d * f as f64;
    }
    for &(i, c) in &s.shapes {
        grad[PARAMS + i as usize] += d * c as f64;
    }
}

pub(super) fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn loss(samples: &[Sample], w: &[f64], scale: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let p = sigmoid(eval(s, w) / scale).clamp(1e-9, 1.0 - 1e-9);
            let y = s.won as f64;
            -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
        })
        .sum();
    total / samples.len() as f64
}

fn best_scale(samples: &[Sample], w: &[f64]) -> f64 {
    let mut best = (f64::MAX, 100.0);
    for k in (1..=60).map(|i| i as f64 * 50.0) {
        let l = loss(samples, w, k);
        if l < best.0 {
            best = (l, k);
        }
    }
    best.1
}

/// Ones and lone twos are on hundreds of points: rounding their fitted weights to integers
/// would shift the evaluation by more than the fit gains, so they stay at 0 (with the class
/// and the combination "none", and the shapes of nothing better than closed twos) and the
/// other weights absorb them.
pub(super) fn fixed(i: usize) -> bool {
    if i >= PARAMS {
        return shape_best((i - PARAMS) % SHAPE_COUNT) <= B2;
    }
    i < 2 * SIDE && (i % SIDE <= 3 || i % SIDE == PAT_COUNT || i % SIDE == COMBOS)
}

/// The strongest pattern of shape `k`: shapes are ranked by their strongest pattern first,
/// so it is the last pattern whose lone shape does not rank above `k`.
fn shape_best(k: usize) -> Pat {
    (0..PAT_COUNT as u8).map(Pat::from_nibble).rfind(|&p| shape(&[p, NONE, NONE, NONE]) <= k).unwrap_or(NONE)
}

/// Adam on the log loss; NONE patterns keep weight 0 (they are the baseline).
fn fit(samples: &[Sample], w: &mut [f64], scale: f64, iterations: usize) {
    let mut adam = super::adam::Adam::new(ALL, 1e-9);
    let rate = 0.25;
    let fixed: Vec<bool> = (0..ALL).map(fixed).collect();
    for t in 1..=iterations {
        let mut grad = vec![0f64; ALL];
        for s in samples {
            add_gradient(&mut grad, s, sigmoid(eval(s, w) / scale) - s.won as f64);
        }
        adam.next_step();
        for i in 0..ALL {
            if fixed[i] {
                continue;
            }
            let mut g = grad[i] / samples.len() as f64;
            if i >= PARAMS {
                g += SHAPE_L2 * w[i];
            }
            adam.update(i, g, rate, &mut w[i]);
        }
        if t % 200 == 0 {
            eprintln!("iteration {t}: log loss {:.5}", loss(samples, w, scale));
        }
    }
}

/// Prints the weights as the Rust source of the set `rule` evaluates with (`params::Weights`).
pub(super) fn print_weights(w: &[f64], rule: Rule) {
    let ints = |from: usize, n: usize, sign: f64| -> Vec<i64> {
        (0..n).map(|k| (sign * w[from + k]).round() as i64).collect()
    };
    let name = params::SET_NAMES[params::set_index(rule)];
    println!("pub const {name}: Weights = Weights {{");
    for (side, prefix, sign) in [(0, "", 1.0), (1, "opponent_", -1.0)] {
        println!("    {prefix}pattern: {:?},", ints(side * SIDE, PAT_COUNT, sign));
        println!("    {prefix}class: {:?},", ints(side * SIDE + PAT_COUNT, CLASS_COUNT, sign));
        println!("    {prefix}combo: {:?},", ints(side * SIDE + COMBOS, COMBO_COUNT, sign));
    }
    println!("    tempo: {},", w[2 * SIDE].round() as i64);
    println!("    shape: {:?},", ints(PARAMS, SHAPE_COUNT, 1.0));
    println!("    opponent_shape: {:?},", ints(PARAMS + SHAPE_COUNT, SHAPE_COUNT, -1.0));
    // The set's net was fitted on top of the old weights: refit it (`tune-net`) on these.
    println!("    net: &{name}_NET,");
    println!("}};");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_game_record() {
        let line = r#"{"file": "x.psq", "rule": "freestyle", "size": 20, "moves": [[8, 1], [6, 1], [4, 10]], "result": {"event": "five", "ply": 3, "winner": "black"}}"#;
        let (size, rule, moves, label) = parse_game(line).expect("a decided game");
        assert_eq!((size, rule), (20, Rule::Freestyle));
        assert_eq!(moves, vec![(8, 1), (6, 1), (4, 10)]);
        assert_eq!(label, Label::Winner(Color::Black));
        let undecided = line.replace(r#""winner": "black""#, r#""winner": null"#);
        assert!(parse_game(&undecided).is_none());
        let renju = parse_game(&line.replace(r#""freestyle""#, r#""renju""#)).expect("a renju game");
        assert_eq!(renju.1, Rule::Renju);
        assert!(parse_game(&line.replace(r#""freestyle""#, r#""chess""#)).is_none());
    }

    #[test]
    fn reads_a_teacher_record() {
        let line = r#"{"size": 15, "moves": [[7, 7], [8, 8]], "target": 0.625}"#;
        let (size, rule, moves, label) = parse_game(line).expect("a labelled position");
        assert_eq!((size, rule, moves.len()), (15, Rule::Freestyle, 2));
        assert_eq!(label, Label::Target(0.625));
        assert!(parse_game(&line.replace("0.625", "1.5")).is_none());
        let mut samples = Vec::new();
        collect_position(size, rule, &moves, 0.625, &mut ThreatCache::new(10), &mut samples);
        assert_eq!(samples.len(), 1);
        assert_eq!(samples[0].won, 0.625);
        let standard = line.replace(r#""size": 15"#, r#""size": 15, "rule": 1"#);
        assert_eq!(parse_game(&standard).expect("a standard position").1, Rule::Standard);
        assert!(parse_game(&line.replace(r#""size": 15"#, r#""size": 15, "rule": 3"#)).is_none());
    }

    #[test]
    fn positions_follow_their_rule() {
        // Six in a row is a five in freestyle and nothing in standard: the point that would
        // make it must be valued differently, so the fit sees the rule's own patterns.
        let moves = [(3, 7), (3, 0), (4, 7), (4, 0), (6, 7), (6, 0), (7, 7), (7, 0), (8, 7), (9, 0)];
        let features = |rule| {
            let mut b = Board::new(15, 15, rule);
            for &(x, y) in &moves {
                b.make(b.pos(x, y).unwrap());
            }
            sample(&b, 0.5).features
        };
        assert_ne!(features(Rule::Freestyle), features(Rule::Standard));
    }

    #[test]
    fn only_shapes_above_closed_twos_are_fitted() {
        use crate::pattern::{B1, F2, F3, NONE};
        let weight = |pats: [Pat; 4]| PARAMS + shape(&pats);
        assert!(fixed(weight([NONE; 4])));
        assert!(fixed(weight([B2, B2, B1, NONE])));
        assert!(!fixed(weight([F2, NONE, NONE, NONE])));
        assert!(!fixed(weight([F3, F2, B1, NONE])));
        assert!(!fixed(weight([F3, F2, B1, NONE]) + SHAPE_COUNT));
        assert_eq!(shape_best(shape(&[B1, F3, NONE, F2])), F3);
    }

    #[test]
    fn features_reproduce_the_evaluation() {
        // The fit is only meaningful if its linear model is the engine's evaluation.
        // Each rule with a weight set of its own evaluates with that set.
        let moves = [(7, 7), (8, 8), (7, 8), (6, 8), (8, 6), (6, 6), (9, 5)];
        for rule in [Rule::Freestyle, Rule::Standard] {
            let mut b = Board::new(15, 15, rule);
            let w = current_weights(params::for_rule(rule));
            for &(x, y) in &moves {
                b.make(b.pos(x, y).unwrap());
                assert_eq!(
                    eval(&sample(&b, 0.0), &w).round() as i32,
                    b.evaluate() - b.net_value(),
                    "{rule:?}"
                );
            }
        }
    }
}
