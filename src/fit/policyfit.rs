//! Fitting the move-ordering scores of `search/policy.rs` to strong players' choices
//! (`pbrain-gorin tune-policy GAMES.jsonl [epochs]`).
//!
//! Over the candidates of a position, the ordering score (see `policy::score`) is a softmax
//! model of the move the player chose, fitted by Adam on the cross entropy. The fit starts
//! from the evaluation's point values for both sides (which ordered the moves before) and no
//! other terms. Every tenth game is held out; the reports give the share of its positions whose
//! chosen move is ordered first, and within the first few, since late moves are reduced and,
//! near the leaves, pruned.

use super::tune;
use crate::board::Board;
use crate::eval::{point_tables, shape, CLASS_COUNT, SHAPE_COUNT};
use crate::pattern::PAT_COUNT;
use crate::search::movepick::{self, five_point, Scored};
use crate::search::policy::{distance_bucket, Recent, DIST_BUCKETS};
use crate::types::{Pos, Rule};
use anyhow::{bail, Context, Result};

const OWN: usize = 0;
const OPP: usize = SHAPE_COUNT;
const NEAR_LAST: usize = 2 * SHAPE_COUNT;
const NEAR_PREV: usize = NEAR_LAST + DIST_BUCKETS;
/// Per direction, the pair (own line pattern, opponent's line pattern) at the point.
const PAIR: usize = NEAR_PREV + DIST_BUCKETS;
/// The pair (own class, opponent's class) at the point.
const CLASSES: usize = PAIR + PAT_COUNT * PAT_COUNT;
const TOTAL: usize = CLASSES + CLASS_COUNT * CLASS_COUNT;
/// No shape (a point the side may not play): no weight.
const NO: u16 = crate::eval::net::NO_SHAPE;
/// Adam step in score units, and the pull of the weights back to where they started.
const RATE: f64 = 0.5;
const L2: f64 = 1e-6;
const BATCH: usize = 256;

/// One candidate: its own shape, the opponent's shape there, its distance buckets.
#[derive(Copy, Clone)]
struct Cand {
    own: u16,
    opp: u16,
    last: u8,
    prev: u8,
    pairs: [u8; 4],
    classes: u8,
    /// The evaluation after the move, for the side that made it.
    after: f32,
}

struct Position {
    cands: Vec<Cand>,
    /// Which candidate was played.
    chosen: usize,
}

pub fn run(args: &[String]) -> Result<()> {
    let path = args.first().context("usage: pbrain-gorin tune-policy GAMES.jsonl [epochs]")?;
    let epochs: usize = args.get(1).map_or(Ok(30), |n| n.parse()).context("epochs")?;
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
    let (mut train, mut held) = (Vec::new(), Vec::new());
    let mut games = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let Some((size, moves)) = parse(line) else { continue };
        let out = if games % 10 == 0 { &mut held } else { &mut train };
        games += 1;
        collect(size, &moves, out);
    }
    if train.is_empty() || held.is_empty() {
        bail!("no positions in {path}");
    }
    let mut w = start();
    let scale = best_scale(&train, &w);
    eprintln!("{games} games, {} positions fitted, {} held out, scale {scale}", train.len(), held.len());
    let show = |what: &str, w: &[f64]| {
        let (tl, ta) = measure(&train, w, scale);
        let (hl, ha) = measure(&held, w, scale);
        eprintln!("{what}: loss {tl:.4} top-1 {ta:.4}; held out loss {hl:.4} top-1 {ha:.4}");
    };
    show("the policy in policy_params.rs", &current());
    show("start (the evaluation's point values)", &w);
    let one_ply = |ps: &[Position]| {
        let best = ps
            .iter()
            .filter(|p| {
                p.cands.iter().enumerate().all(|(i, c)| i == p.chosen || c.after < p.cands[p.chosen].after)
            })
            .count();
        best as f64 / ps.len() as f64
    };
    eprintln!("one-ply evaluation: top-1 {:.4}, held out {:.4}", one_ply(&train), one_ply(&held));
    fit(&train, &mut w, scale, epochs, |e, w| show(&format!("epoch {e}"), w));
    print_source(&w, games, train.len());
    Ok(())
}

/// Board size and every move (opening stones first) of one JSONL game record.
pub(super) fn parse(line: &str) -> Option<(usize, Vec<(i64, i64)>)> {
    let size = tune::number_after(line, "\"size\":")? as usize;
    let mut moves = Vec::new();
    for key in ["\"opening\":", "\"moves\":"] {
        let Some(list) = line.split(key).nth(1) else { continue };
        let list = list.trim_start();
        if !list.starts_with("[]") {
            moves.extend(tune::coordinates(list)?);
        }
    }
    Some((size, moves))
}

/// Replays a game on a freestyle board and calls `f` with each position from ply `from` on
/// that no five decides, the move played there and the generated candidates (ordered as the
/// search would, without killers or history). The board is as before `f` when it returns.
pub(super) fn for_each_choice(
    size: usize,
    moves: &[(i64, i64)],
    from: usize,
    mut f: impl FnMut(&mut Board, Pos, &[Scored]),
) {
    let mut b = Board::new(size, size, Rule::Freestyle);
    let history = vec![0; crate::board::MAX_CELLS];
    let mut list = Vec::new();
    for (ply, &(x, y)) in moves.iter().enumerate() {
        let Some(p) = b.pos(x, y).filter(|&p| b.is_empty(p)) else { return };
        let us = b.side_to_move();
        if ply >= from && five_point(&b, us).is_none() && five_point(&b, us.opp()).is_none() {
            movepick::generate(&mut b, &mut list, &movepick::Refuters::NONE, &history, Pos::NONE);
            f(&mut b, p, &list);
        }
        b.make(p);
    }
}

/// `ln(sum(exp(x)))` of scores, computed without overflow.
pub(super) fn log_sum_exp(x: &[f64]) -> f64 {
    let max = x.iter().cloned().fold(f64::MIN, f64::max);
    max + x.iter().map(|v| (v - max).exp()).sum::<f64>().ln()
}

/// The positions of one game where the move played is among the generated candidates and
/// no five decides it.
fn collect(size: usize, moves: &[(i64, i64)], out: &mut Vec<Position>) {
    for_each_choice(size, moves, 2, |b, p, list| {
        let Some(chosen) = list.iter().position(|m| m.pos == p).filter(|_| list.len() > 1) else { return };
        let recent = Recent::of(b);
        let cands = list
            .iter()
            .map(|m| {
                let mut c = candidate(b, m.pos, &recent);
                b.make(m.pos);
                c.after = -b.evaluate() as f32;
                b.undo();
                c
            })
            .collect();
        out.push(Position { cands, chosen });
    });
}

/// The features `policy::score` reads of the candidate `p` for the side to move.
fn candidate(b: &Board, p: Pos, recent: &Recent) -> Cand {
    let us = b.side_to_move();
    let (po, pt) = (b.patterns(p, us), b.patterns(p, us.opp()));
    let pairs = [0, 1, 2, 3].map(|d| (po[d].index() * PAT_COUNT + pt[d].index()) as u8);
    let classes = (b.sure_class(p, us) as usize * CLASS_COUNT + b.sure_class(p, us.opp()) as usize) as u8;
    let (x, y) = b.xy(p);
    Cand {
        own: b.shape(p, us),
        opp: b.shape(p, us.opp()),
        last: distance_bucket(x, y, recent.last) as u8,
        prev: distance_bucket(x, y, recent.prev) as u8,
        pairs,
        classes,
        after: 0.0,
    }
}

/// The weights the search orders by now: the evaluation's value of each shape for the side to
/// move and as the opponent's, no distance terms.
fn start() -> Vec<f64> {
    let mut w = vec![0f64; TOTAL];
    let t = point_tables(Rule::Freestyle, false);
    for key in 0..=u16::MAX {
        let pats = crate::eval::unpack(key);
        if pats.iter().any(|&x| x.index() >= PAT_COUNT) {
            continue;
        }
        let s = shape(&pats);
        let e = t.get(key);
        w[OWN + s] = e.value as f64;
        w[OPP + s] = e.threat as f64;
    }
    w
}

/// The weights in `policy_params.rs`.
fn current() -> Vec<f64> {
    use crate::search::policy::*;
    let tables: [&[i32]; 6] =
        [&POLICY_OWN, &POLICY_OPP, &POLICY_NEAR_LAST, &POLICY_NEAR_PREV, &POLICY_PAIR, &POLICY_CLASSES];
    tables.iter().flat_map(|t| t.iter().map(|&x| x as f64)).collect()
}

fn score(c: &Cand, w: &[f64]) -> f64 {
    let own = if c.own == NO { 0.0 } else { w[OWN + c.own as usize] };
    let opp = if c.opp == NO { 0.0 } else { w[OPP + c.opp as usize] };
    let pairs: f64 = c.pairs.iter().map(|&k| w[PAIR + k as usize]).sum();
    own + opp
        + w[NEAR_LAST + c.last as usize]
        + w[NEAR_PREV + c.prev as usize]
        + pairs
        + w[CLASSES + c.classes as usize]
}

/// Mean cross entropy of the chosen moves and the fraction scored first (ties count against).
fn measure(ps: &[Position], w: &[f64], scale: f64) -> (f64, f64) {
    let (mut loss, mut top) = (0.0, 0usize);
    let mut within = [0usize; RANKS.len()];
    let mut s = Vec::new();
    for p in ps {
        s.clear();
        s.extend(p.cands.iter().map(|c| score(c, w) / scale));
        loss += log_sum_exp(&s) - s[p.chosen];
        let rank = s.iter().enumerate().filter(|&(i, &x)| i != p.chosen && x >= s[p.chosen]).count();
        if rank == 0 {
            top += 1;
        }
        for (k, &n) in RANKS.iter().enumerate() {
            if rank < n {
                within[k] += 1;
            }
        }
    }
    let n = ps.len() as f64;
    eprintln!("  within the first {RANKS:?}: {:?}", within.map(|k| (k as f64 / n * 1000.0).round() / 1000.0));
    (loss / n, top as f64 / n)
}

const RANKS: [usize; 5] = [3, 4, 7, 12, 20];

/// The softmax temperature (in score units) that fits the starting weights best.
fn best_scale(ps: &[Position], w: &[f64]) -> f64 {
    let mut best = (f64::MAX, 100.0);
    for k in [10.0, 20.0, 30.0, 50.0, 70.0, 100.0, 150.0, 200.0, 300.0, 500.0] {
        let (l, _) = measure(ps, w, k);
        if l < best.0 {
            best = (l, k);
        }
    }
    best.1
}

fn fit(ps: &[Position], w: &mut [f64], scale: f64, epochs: usize, mut report: impl FnMut(usize, &[f64])) {
    let start = w.to_vec();
    let mut g = vec![0f64; TOTAL];
    let mut adam = super::adam::Adam::new(TOTAL, 1e-8);
    let mut state = 0x5EED_u64;
    let mut order: Vec<usize> = (0..ps.len()).collect();
    let mut touched = Vec::new();
    let mut s = Vec::new();
    for epoch in 1..=epochs {
        for k in (1..order.len()).rev() {
            order.swap(k, (crate::board::splitmix64(&mut state) % (k as u64 + 1)) as usize);
        }
        for batch in order.chunks(BATCH) {
            for &k in batch {
                let p = &ps[k];
                s.clear();
                s.extend(p.cands.iter().map(|c| score(c, w) / scale));
                let log_z = log_sum_exp(&s);
                for (i, c) in p.cands.iter().enumerate() {
                    let d =
                        ((s[i] - log_z).exp() - (i == p.chosen) as u8 as f64) / scale / batch.len() as f64;
                    let mut add = |q: usize| {
                        if g[q] == 0.0 {
                            touched.push(q);
                        }
                        g[q] += d;
                    };
                    if c.own != NO {
                        add(OWN + c.own as usize);
                    }
                    if c.opp != NO {
                        add(OPP + c.opp as usize);
                    }
                    add(NEAR_LAST + c.last as usize);
                    add(NEAR_PREV + c.prev as usize);
                    for &k in &c.pairs {
                        add(PAIR + k as usize);
                    }
                    add(CLASSES + c.classes as usize);
                }
            }
            adam.next_step();
            for q in touched.drain(..) {
                let gq = g[q] + L2 * (w[q] - start[q]);
                g[q] = 0.0;
                adam.update(q, gq, RATE, &mut w[q]);
            }
        }
        report(epoch, w);
    }
}

fn print_source(w: &[f64], games: usize, positions: usize) {
    let r = |a: &[f64]| a.iter().map(|x| x.round() as i32).collect::<Vec<_>>();
    println!("// Fitted by `pbrain-gorin tune-policy` ({games} games, {positions} positions).");
    println!("pub static POLICY_OWN: [i32; SHAPE_COUNT] = {:?};", r(&w[OWN..OWN + SHAPE_COUNT]));
    println!("pub static POLICY_OPP: [i32; SHAPE_COUNT] = {:?};", r(&w[OPP..OPP + SHAPE_COUNT]));
    println!("pub const POLICY_NEAR_LAST: [i32; DIST_BUCKETS] = {:?};", r(&w[NEAR_LAST..NEAR_PREV]));
    println!("pub const POLICY_NEAR_PREV: [i32; DIST_BUCKETS] = {:?};", r(&w[NEAR_PREV..PAIR]));
    println!("pub const POLICY_PAIR: [i32; PAT_COUNT * PAT_COUNT] = {:?};", r(&w[PAIR..CLASSES]));
    println!("pub const POLICY_CLASSES: [i32; CLASS_COUNT * CLASS_COUNT] = {:?};", r(&w[CLASSES..TOTAL]));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_gives_its_opening_then_its_moves() {
        let line = r#"{"size": 15, "opening": [[7, 7], [8, 8]], "moves": [[6, 6], [9, 9]], "winner": "p1"}"#;
        assert_eq!(parse(line), Some((15, vec![(7, 7), (8, 8), (6, 6), (9, 9)])));
        let game = r#"{"rule": "freestyle", "size": 20, "moves": [[1, 2], [3, 4]]}"#;
        assert_eq!(parse(game), Some((20, vec![(1, 2), (3, 4)])));
    }

    #[test]
    fn the_fitted_features_score_as_the_search_does() {
        let mut b = Board::new(15, 15, Rule::Freestyle);
        for (x, y) in [(7, 7), (8, 8), (7, 8), (6, 9), (8, 6), (9, 5), (5, 8)] {
            let p = b.pos(x, y).unwrap();
            b.make(p);
        }
        let (w, us, recent) = (current(), b.side_to_move(), Recent::of(&b));
        let mut n = 0;
        b.for_each_candidate(|p| {
            let fitted = score(&candidate(&b, p, &recent), &w);
            assert_eq!(
                fitted as i32,
                crate::search::policy::score(&b, p, us, &recent),
                "at {}",
                b.pos_name(p)
            );
            n += 1;
        });
        assert!(n > 20);
    }

    #[test]
    fn positions_keep_the_move_played_among_their_candidates() {
        let moves = [(7, 7), (8, 8), (7, 8), (6, 9), (8, 6), (9, 5), (5, 8)];
        let mut out = Vec::new();
        collect(15, &moves, &mut out);
        assert_eq!(out.len(), moves.len() - 2, "every position from the third ply");
        for p in &out {
            assert!(p.chosen < p.cands.len() && p.cands.len() > 1);
        }
    }
}
