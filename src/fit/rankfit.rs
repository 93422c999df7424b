//! Fitting the evaluation to rank a position's moves the way strong players do
//! (`pbrain-gorin tune-rank GAMES.jsonl [epochs [temperature [rate [TEACHER.jsonl [weight]]]]]`).
//!
//! For each position of the games, the evaluation after each candidate move (for the side
//! that made it) is a softmax model of the move chosen; the linear weights and shape values
//! are fitted by Adam on its cross entropy. What decides a move is the difference between the
//! children of one position, which a fit to each position's own result does not target.
//!
//! Alone, that loss moves the evaluation's absolute values far from a position's winning
//! chances (teacher log loss 0.524 -> 0.615 on the records of `params.rs`), which the search's
//! margins and windows rely on. Teacher records (`tune`'s `target` format) add their log loss,
//! times `weight`, to keep the values calibrated while the ranks move. Only moves after which
//! the search would evaluate the position are ranked: no five to make or to stop, no open four.

use super::policyfit::log_sum_exp;
use super::tune::{self, Sample, ALL, PARAMS};
use crate::board::Board;
use crate::eval::{params, Class};
use crate::types::Pos;
use anyhow::{bail, Context, Result};

const USAGE: &str =
    "usage: pbrain-gorin tune-rank GAMES.jsonl [epochs [temperature [rate [TEACHER.jsonl [weight]]]]]";

/// Candidates kept per position (the best by move ordering, and the chosen one).
const KEEP: usize = 16;
/// Every how many positions one is used (memory: every child holds its features).
const STRIDE: usize = 3;

struct Choice {
    children: Vec<(Sample, f64)>,
    chosen: usize,
}

pub fn run(args: &[String]) -> Result<()> {
    let path = args.first().context(USAGE)?;
    let epochs: usize = args.get(1).map_or(Ok(10), |n| n.parse()).context("epochs")?;
    let temp: f64 = args.get(2).map_or(Ok(200.0), |n| n.parse()).context("temperature")?;
    let rate: f64 = args.get(3).map_or(Ok(0.5), |n| n.parse()).context("rate")?;
    // Teacher records keep the evaluation's absolute values calibrated while the ranks move.
    let teacher = match args.get(4) {
        Some(t) => {
            let (_, tr, he, rule) = tune::load(t)?;
            let net = |v: &[Sample]| {
                v.iter().map(|s| super::netfit::current_net(s, rule) as f64).collect::<Vec<_>>()
            };
            let (ntr, nhe) = (net(&tr), net(&he));
            Some((tr, ntr, he, nhe))
        }
        None => None,
    };
    let weight: f64 = args.get(5).map_or(Ok(4.0), |n| n.parse()).context("teacher weight")?;
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
    let (mut train, mut held) = (Vec::new(), Vec::new());
    let mut games = 0;
    let mut seen = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let Some((size, moves)) = super::policyfit::parse(line) else { continue };
        let out = if games % 10 == 0 { &mut held } else { &mut train };
        games += 1;
        collect(size, &moves, &mut seen, out);
    }
    if train.is_empty() || held.is_empty() {
        bail!("no positions in {path}");
    }
    eprintln!("{games} games, {} positions fitted, {} held out", train.len(), held.len());
    let mut w = tune::current_weights(&params::FREESTYLE);
    let show = |what: &str, w: &[f64]| {
        let (tl, ta) = measure(&train, w, temp);
        let (hl, ha) = measure(&held, w, temp);
        eprintln!("{what}: loss {tl:.4} top-1 {ta:.4}; held out loss {hl:.4} top-1 {ha:.4}");
        if let Some((tr, ntr, he, nhe)) = &teacher {
            eprintln!(
                "  teacher log loss {:.5}, held out {:.5}",
                teacher_loss(tr, ntr, w),
                teacher_loss(he, nhe, w)
            );
        }
    };
    show("start", &w);
    let fixed: Vec<bool> = (0..ALL).map(tune::fixed).collect();
    let mut adam = super::adam::Adam::new(ALL, 1e-9);
    let mut t = 0;
    for epoch in 1..=epochs {
        for batch in train.chunks(512) {
            let mut g = vec![0f64; ALL];
            for c in batch {
                let vals: Vec<f64> = c.children.iter().map(|(s, net)| value(s, *net, &w) / temp).collect();
                let log_z = log_sum_exp(&vals);
                for (i, (s, _)) in c.children.iter().enumerate() {
                    // value = -(eval of the child), so d loss / d w = -(p - y) / T * features.
                    let d =
                        -((vals[i] - log_z).exp() - (i == c.chosen) as u8 as f64) / temp / batch.len() as f64;
                    tune::add_gradient(&mut g, s, d);
                }
            }
            if let Some((tr, ntr, _, _)) = &teacher {
                // As many teacher positions per step as it takes to cover them once an epoch.
                let per = tr.len().div_ceil(train.len().div_ceil(512));
                let from = (t as usize * per) % tr.len();
                let n = per.min(tr.len() - from);
                for k in from..from + n {
                    let s = &tr[k];
                    let err = weight * (tune::sigmoid((tune::eval(s, &w) + ntr[k]) / SCALE) - s.won as f64)
                        / SCALE
                        / n as f64;
                    tune::add_gradient(&mut g, s, err);
                }
            }
            t += 1;
            adam.next_step();
            for k in (0..ALL).filter(|&k| !fixed[k]) {
                let gk = g[k] + if k >= PARAMS { tune::SHAPE_L2 * w[k] } else { 0.0 };
                adam.update(k, gk, rate, &mut w[k]);
            }
        }
        show(&format!("epoch {epoch}"), &w);
    }
    tune::print_weights(&w, crate::types::Rule::Freestyle);
    Ok(())
}

/// The logistic scale of the evaluation (see `params`: 650 is one logit).
const SCALE: f64 = 650.0;

/// The teacher records' log loss with the linear weights `w` on top of the net's share.
fn teacher_loss(samples: &[Sample], net: &[f64], w: &[f64]) -> f64 {
    super::netfit::log_loss(samples, net, SCALE, |_, s| tune::eval(s, w)).0
}

/// The side that moved: minus the evaluation of the child for its side to move.
fn value(s: &Sample, net: f64, w: &[f64]) -> f64 {
    -(tune::eval(s, w) + net)
}

fn measure(cs: &[Choice], w: &[f64], temp: f64) -> (f64, f64) {
    let (mut loss, mut top) = (0.0, 0);
    for c in cs {
        let vals: Vec<f64> = c.children.iter().map(|(s, net)| value(s, *net, w) / temp).collect();
        loss += log_sum_exp(&vals) - vals[c.chosen];
        if vals.iter().enumerate().all(|(i, &x)| i == c.chosen || x < vals[c.chosen]) {
            top += 1;
        }
    }
    (loss / cs.len() as f64, top as f64 / cs.len() as f64)
}

/// Whether the position after `q` is one the search evaluates statically: no five to make
/// or block, no open four for the side to move then (the search settles those first).
fn quiet_after(b: &mut Board, q: Pos) -> bool {
    b.make(q);
    let us = b.side_to_move();
    let quiet = b.class_count(us, Class::Five)
        + b.class_count(us.opp(), Class::Five)
        + b.class_count(us, Class::OpenFour)
        == 0;
    b.undo();
    quiet
}

fn collect(size: usize, moves: &[(i64, i64)], seen: &mut usize, out: &mut Vec<Choice>) {
    super::policyfit::for_each_choice(size, moves, 4, |b, p, list| {
        *seen += 1;
        if !seen.is_multiple_of(STRIDE) || list.len() < 2 {
            return;
        }
        let quiet: Vec<Pos> = list.iter().map(|m| m.pos).filter(|&q| quiet_after(b, q)).collect();
        let mut keep: Vec<Pos> = quiet.iter().copied().take(KEEP).collect();
        if quiet.contains(&p) && !keep.contains(&p) {
            keep.push(p);
        }
        let Some(chosen) = keep.iter().position(|&q| q == p).filter(|_| keep.len() > 1) else { return };
        let children = keep
            .iter()
            .map(|&q| {
                b.make(q);
                let child = (tune::sample(b, 0.0), b.net_value() as f64);
                b.undo();
                child
            })
            .collect();
        out.push(Choice { children, chosen });
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Rule;

    #[test]
    fn only_moves_the_search_would_evaluate_are_ranked() {
        // Black (x) to move: (4, 3) makes a four, (6, 6) is quiet.
        let mut b = Board::from_ascii(
            "........\n........\n........\n.xxx....\n........\n..o.....\n...oo...\n........",
            Rule::Freestyle,
        );
        assert_eq!(b.side_to_move(), crate::types::Color::Black);
        let four = b.pos(4, 3).unwrap();
        assert!(!quiet_after(&mut b, four), "white must block the four");
        let quiet = b.pos(6, 6).unwrap();
        assert!(quiet_after(&mut b, quiet));
        assert_eq!(b.stone_count(), 6, "the board is given back as it was");
    }
}
