//! Fitting the evaluation's net (`pbrain-gorin tune-net RECORDS.jsonl [epochs [scale [warm]]]`).
//!
//! The net is a correction on top of the linear evaluation, which stays fixed: its inputs are
//! the same per-point counts `tune` fits (line patterns, classes, combinations, shapes, for
//! the side to move and for the opponent), each divided by its mean where present, then one
//! hidden layer of `NET_HIDDEN` ReLUs and a linear output in evaluation units. It is fitted
//! by mini-batch Adam on the same log loss, so that it learns what the linear sum cannot:
//! how the points' potentials combine (two threats that need two answers, a strong point
//! that the opponent's shape already neutralises).
//!
//! Every input is a function of a point's shape, so after the fit the input scaling and the
//! first layer fold into one row of `NET_HIDDEN` numbers per (role, shape): the board sums
//! them over its empty points as stones come and go, and the evaluation only applies the
//! hidden layer. The rows, biases and output weights are printed, quantised, as the Rust
//! source of the records' weight set's `NetWeights` (`FREESTYLE_NET` in
//! `src/eval/net_params.rs`; another set's beside its weights).

use super::tune::{self, Sample, ALL, PARAMS, SIDE};
use crate::board::splitmix64;
use crate::eval::net::{self, NET_BUCKETS, NET_HIDDEN};
use crate::eval::{classify, params, shape, unpack, SHAPE_COUNT};
use crate::pattern::PAT_COUNT;
use crate::types::Rule;
use anyhow::{bail, Context, Result};
use std::fmt::Write;

const BATCH: usize = 256;
const RATE: f64 = 2e-3;
const L2: f64 = 1e-6;
/// Fixed-point scales of the printed rows and biases, and of the output weights: the ones
/// `net::output` reads them with.
const ROW_SCALE: f64 = net::ROW_SCALE as f64;
const OUT_SCALE: f64 = net::OUT_SCALE as f64;

/// A sample's inputs: (index, count) for every non-zero count, dense features then shapes.
type Inputs = Vec<(usize, f32)>;

/// The net: first layer `w[input * NET_HIDDEN + j]`, then the hidden biases, the output
/// weights and the output bias, in one vector (so one Adam state covers all).
struct Net {
    p: Vec<f64>,
    /// Per input: 1 / its mean count where present (0 for inputs never seen).
    scale_in: Vec<f64>,
}

const W: usize = ALL * NET_HIDDEN;
const BIAS: usize = W;
/// Output weights, one set of `NET_HIDDEN` per bucket, then one output bias per bucket.
const OUT: usize = W + NET_HIDDEN;
const OUT_BIAS: usize = OUT + NET_BUCKETS * NET_HIDDEN;
const TOTAL: usize = OUT_BIAS + NET_BUCKETS;

impl Net {
    /// The correction for one sample in output bucket `b`; `h` receives the hidden
    /// pre-activations.
    fn forward(&self, x: &Inputs, b: usize, h: &mut [f64; NET_HIDDEN]) -> f64 {
        h.copy_from_slice(&self.p[BIAS..BIAS + NET_HIDDEN]);
        for &(i, v) in x {
            let xv = v as f64 * self.scale_in[i];
            let row = &self.p[i * NET_HIDDEN..(i + 1) * NET_HIDDEN];
            for j in 0..NET_HIDDEN {
                h[j] += row[j] * xv;
            }
        }
        let relu = (0..NET_HIDDEN).filter(|&j| h[j] > 0.0);
        let out = OUT + b * NET_HIDDEN;
        self.p[OUT_BIAS + b] + relu.map(|j| h[j] * self.p[out + j]).sum::<f64>()
    }

    fn loss(&self, xs: &[Inputs], base: &[f64], samples: &[Sample], scale: f64) -> Loss {
        let mut h = [0f64; NET_HIDDEN];
        log_loss(samples, base, scale, |i, s| self.forward(&xs[i], net::bucket(s.stones as usize), &mut h))
    }
}

/// Mean log loss over all samples, and per output bucket (NaN for an empty bucket).
type Loss = (f64, [f64; NET_BUCKETS]);

/// The log loss of `base` plus a correction (`correction(index, sample)`) on the samples.
pub(super) fn log_loss(
    samples: &[Sample],
    base: &[f64],
    scale: f64,
    mut correction: impl FnMut(usize, &Sample) -> f64,
) -> Loss {
    let (mut sum, mut count) = ([0f64; NET_BUCKETS], [0usize; NET_BUCKETS]);
    for (i, (s, &b)) in samples.iter().zip(base).enumerate() {
        let k = net::bucket(s.stones as usize);
        let p = tune::sigmoid((b + correction(i, s)) / scale).clamp(1e-9, 1.0 - 1e-9);
        let y = s.won as f64;
        sum[k] -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
        count[k] += 1;
    }
    let total = sum.iter().sum::<f64>() / samples.len() as f64;
    (total, std::array::from_fn(|k| sum[k] / count[k] as f64))
}

fn inputs(s: &Sample) -> Inputs {
    let dense = s.features.iter().enumerate().filter(|(_, &f)| f != 0.0).map(|(i, &f)| (i, f));
    dense.chain(s.shapes.iter().map(|&(i, c)| (PARAMS + i as usize, c))).collect()
}

/// Runs the fit and prints the net of the records' weight set.
pub fn run(args: &[String]) -> Result<()> {
    let path = args.first().context("usage: pbrain-gorin tune-net RECORDS.jsonl [epochs [scale [warm]]]")?;
    let epochs: usize = args.get(1).map_or(Ok(80), |n| n.parse()).context("epochs")?;
    let scale: f64 = args.get(2).map_or(Ok(650.0), |k| k.parse()).context("scale")?;
    let (records, train, held, rule) = tune::load(path)?;
    let w = tune::current_weights(params::for_rule(rule));
    let warm = match args.get(3).map(String::as_str) {
        None => false,
        Some("warm") => true,
        Some(other) => bail!("unknown option {other:?} (only \"warm\": start from the rule's current net)"),
    };
    let net = fit(&train, &held, &w, scale, epochs, warm, rule);
    let text = source(&net, params::SET_NAMES[params::set_index(rule)]);
    println!(
        "// Fitted by `pbrain-gorin tune-net` ({records} records, {} positions, {epochs} epochs, scale {scale:.0}).",
        train.len()
    );
    print!("{text}");
    Ok(())
}

/// Fits a net for records of `rule` on top of the linear weights `w`, starting from `rule`'s
/// current net when `warm`.
fn fit(
    train: &[Sample],
    held: &[Sample],
    w: &[f64],
    scale: f64,
    epochs: usize,
    warm: bool,
    rule: Rule,
) -> Net {
    let tr: Vec<Inputs> = train.iter().map(inputs).collect();
    let he: Vec<Inputs> = held.iter().map(inputs).collect();
    let base_tr: Vec<f64> = train.iter().map(|s| tune::eval(s, w)).collect();
    let base_he: Vec<f64> = held.iter().map(|s| tune::eval(s, w)).collect();
    let (mut sum, mut seen) = (vec![0f64; ALL], vec![0f64; ALL]);
    for &(i, v) in tr.iter().flatten() {
        sum[i] += v as f64;
        seen[i] += 1.0;
    }
    let scale_in = (0..ALL).map(|i| if seen[i] > 0.0 { seen[i] / sum[i] } else { 0.0 }).collect();
    let mut state = 0x5EED_u64;
    let mut p = vec![0f64; TOTAL];
    // Small random first layer, zero output: the fit starts from the linear evaluation.
    for x in &mut p[..W] {
        *x = ((splitmix64(&mut state) >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0) * 0.1;
    }
    let mut net = Net { p, scale_in };
    if warm {
        start_from_current(&mut net, rule);
    }
    let mut counts = [0usize; NET_BUCKETS];
    held.iter().for_each(|s| counts[net::bucket(s.stones as usize)] += 1);
    eprintln!("held-out positions per stone bucket: {counts:?}");
    let show = |what: &str, (fit, _): Loss, (held_loss, per): Loss| {
        let per: Vec<String> = per.iter().map(|l| format!("{l:.5}")).collect();
        eprintln!("{what}: log loss {fit:.5}, held out {held_loss:.5} (by bucket {})", per.join(" "));
    };
    let current =
        |samples: &[Sample], base: &[f64]| log_loss(samples, base, scale, |_, s| current_net(s, rule) as f64);
    show("the rule's current net", current(train, &base_tr), current(held, &base_he));
    let report = |net: &Net, what: &str| {
        show(what, net.loss(&tr, &base_tr, train, scale), net.loss(&he, &base_he, held, scale));
    };
    report(&net, "start");
    let mut adam = super::adam::Adam::new(TOTAL, 1e-8);
    let mut order: Vec<usize> = (0..tr.len()).collect();
    let mut grad = vec![0f64; TOTAL];
    let mut touched = vec![false; ALL];
    let mut h = [0f64; NET_HIDDEN];
    for epoch in 1..=epochs {
        for k in (1..order.len()).rev() {
            order.swap(k, (splitmix64(&mut state) % (k as u64 + 1)) as usize);
        }
        for batch in order.chunks(BATCH) {
            grad.fill(0.0);
            let mut rows = Vec::new();
            for &k in batch {
                let x = &tr[k];
                let b = net::bucket(train[k].stones as usize);
                let out = base_tr[k] + net.forward(x, b, &mut h);
                let g = (tune::sigmoid(out / scale) - train[k].won as f64) / scale / batch.len() as f64;
                grad[OUT_BIAS + b] += g;
                let outs = OUT + b * NET_HIDDEN;
                for j in (0..NET_HIDDEN).filter(|&j| h[j] > 0.0) {
                    grad[outs + j] += g * h[j];
                    let dh = g * net.p[outs + j];
                    grad[BIAS + j] += dh;
                    for &(i, c) in x {
                        grad[i * NET_HIDDEN + j] += dh * c as f64 * net.scale_in[i];
                    }
                }
                for &(i, _) in x {
                    if !std::mem::replace(&mut touched[i], true) {
                        rows.push(i);
                    }
                }
            }
            // Adam, on the first-layer rows this batch touched and on the rest of the net.
            adam.next_step();
            let mut step = |q: usize, p: &mut [f64]| {
                let g = grad[q] + L2 * p[q];
                adam.update(q, g, RATE, &mut p[q]);
            };
            for i in rows {
                touched[i] = false;
                (i * NET_HIDDEN..(i + 1) * NET_HIDDEN).for_each(|q| step(q, &mut net.p));
            }
            (BIAS..TOTAL).for_each(|q| step(q, &mut net.p));
        }
        report(&net, &format!("epoch {epoch}"));
    }
    net
}

/// Sets the net to the one `rule` evaluates with now, so that a fit refines it instead of starting
/// over (new records then add to what the old ones taught). Its rows become the shape
/// inputs' weights, the other inputs start at zero.
fn start_from_current(net: &mut Net, rule: Rule) {
    net.p[..W].fill(0.0);
    let rows = params::net_rows(rule);
    let now = params::for_rule(rule).net;
    for role in 0..2 {
        for (s, row) in rows.iter().enumerate().take(SHAPE_COUNT) {
            let i = PARAMS + role * SHAPE_COUNT + s;
            if net.scale_in[i] == 0.0 {
                continue;
            }
            for j in 0..NET_HIDDEN {
                net.p[i * NET_HIDDEN + j] = row[role * NET_HIDDEN + j] as f64 / ROW_SCALE / net.scale_in[i];
            }
        }
    }
    for j in 0..NET_HIDDEN {
        net.p[BIAS + j] = now.bias[j] as f64 / ROW_SCALE;
        for b in 0..NET_BUCKETS {
            net.p[OUT + b * NET_HIDDEN + j] = now.out[b][j] as f64 / OUT_SCALE;
        }
    }
    for b in 0..NET_BUCKETS {
        net.p[OUT_BIAS + b] = now.out_bias[b] as f64;
    }
}

/// The correction of `rule`'s current net for a sample, as the board computes it.
pub(super) fn current_net(s: &Sample, rule: Rule) -> i32 {
    let rows = params::net_rows(rule);
    let mut acc = [[0i32; 2 * NET_HIDDEN]; 2];
    for &(i, c) in &s.shapes {
        let (role, shape) = ((i as usize) / SHAPE_COUNT, (i as usize) % SHAPE_COUNT);
        for (a, r) in acc[role].iter_mut().zip(&rows[shape]) {
            *a += c as i32 * r;
        }
    }
    net::output(params::for_rule(rule).net, &acc[0], &acc[1], s.stones as usize)
}

/// The inputs a point of shape `s` gives role `role` (0 own, 1 opponent): its four patterns,
/// its class, its combination and its shape.
fn shape_inputs(pats: &[crate::pattern::Pat; 4], role: usize) -> Vec<usize> {
    let mut idx = tune::point_features(pats, classify(pats), role).to_vec();
    idx.push(PARAMS + role * SHAPE_COUNT + shape(pats));
    idx
}

/// One first-layer row per (role, shape), the input scaling folded in.
fn folded_rows(net: &Net) -> Vec<[f64; NET_HIDDEN]> {
    let mut rows = vec![[0f64; NET_HIDDEN]; 2 * SHAPE_COUNT];
    let mut done = vec![false; SHAPE_COUNT];
    for key in 0..=u16::MAX {
        let pats = unpack(key);
        if pats.iter().any(|&q| q.index() >= PAT_COUNT) || std::mem::replace(&mut done[shape(&pats)], true) {
            continue;
        }
        for role in 0..2 {
            let row = &mut rows[role * SHAPE_COUNT + shape(&pats)];
            for i in shape_inputs(&pats, role) {
                for (j, r) in row.iter_mut().enumerate() {
                    *r += net.scale_in[i] * net.p[i * NET_HIDDEN + j];
                }
            }
        }
    }
    rows
}

/// The net as the Rust source of a `NetWeights` constant named after the weight set `set`.
fn source(net: &Net, set: &str) -> String {
    let rows = folded_rows(net);
    // The tempo input is 1 in every position: a constant, folded into the hidden biases.
    let tempo = 2 * SIDE;
    let bias = (0..NET_HIDDEN).map(|j| net.p[BIAS + j] + net.scale_in[tempo] * net.p[tempo * NET_HIDDEN + j]);
    let q = |x: f64, k: f64| (x * k).round() as i64;
    let mut flat: Vec<i64> = rows.iter().flatten().map(|&x| q(x, ROW_SCALE)).collect();
    // A weight beyond i16 belongs to a rare shape that few positions pushed far; holding it
    // at the limit costs that shape a little, failing would cost the whole fit.
    let limit = i16::MAX as i64;
    let beyond = flat.iter().filter(|x| x.abs() > limit).count();
    if beyond > 0 {
        let worst = flat.iter().map(|x| x.abs()).max().unwrap_or(0);
        eprintln!(
            "{beyond} of {} row weights beyond i16 (largest {worst}) are held at +/-{limit}",
            flat.len()
        );
        flat.iter_mut().for_each(|x| *x = (*x).clamp(-limit, limit));
    }
    let mut out = String::new();
    let _ = writeln!(out, "pub const {set}_NET: NetWeights = NetWeights {{");
    let _ = writeln!(out, "    rows: &{flat:?},");
    let _ = writeln!(out, "    bias: {:?},", bias.map(|b| q(b, ROW_SCALE)).collect::<Vec<_>>());
    let outs: Vec<Vec<i64>> = (0..NET_BUCKETS)
        .map(|b| (0..NET_HIDDEN).map(|j| q(net.p[OUT + b * NET_HIDDEN + j], OUT_SCALE)).collect())
        .collect();
    let _ = writeln!(out, "    out: {outs:?},");
    let biases: Vec<i64> = (0..NET_BUCKETS).map(|b| net.p[OUT_BIAS + b].round() as i64).collect();
    let _ = writeln!(out, "    out_bias: {biases:?},");
    let _ = writeln!(out, "}};");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shape_gets_the_inputs_of_its_patterns() {
        use crate::pattern::{B1, F3, NONE};
        let pats = [F3, B1, NONE, NONE];
        let own = shape_inputs(&pats, 0);
        let opp = shape_inputs(&pats, 1);
        assert_eq!(own.len(), 7);
        assert!(own.contains(&F3.index()) && own.contains(&B1.index()));
        assert_eq!(own.iter().filter(|&&i| i == NONE.index()).count(), 2);
        assert!(opp.iter().all(|&i| (SIDE..2 * SIDE).contains(&i) || i >= PARAMS + SHAPE_COUNT));
        assert_eq!(*own.last().unwrap(), PARAMS + shape(&pats));
    }

    #[test]
    fn folded_rows_match_the_forward_pass() {
        // A net's hidden sums from folded rows must equal the sums from its inputs.
        let mut state = 7u64;
        let p = (0..TOTAL).map(|_| (splitmix64(&mut state) % 2001) as f64 / 1000.0 - 1.0).collect();
        let scale_in = (0..ALL).map(|i| 1.0 / (1 + i % 5) as f64).collect();
        let net = Net { p, scale_in };
        let rows = folded_rows(&net);
        let mut b = crate::board::Board::new(15, 15, crate::types::Rule::Freestyle);
        for (x, y) in [(7, 7), (8, 8), (7, 8), (6, 8), (8, 6)] {
            b.make(b.pos(x, y).unwrap());
        }
        let s = tune::sample(&b, 0.0);
        let mut h = [0f64; NET_HIDDEN];
        net.forward(&inputs(&s), 0, &mut h);
        let mut folded = [0f64; NET_HIDDEN];
        let us = b.side_to_move();
        b.for_each_empty(|p| {
            for (role, color) in [(0, us), (1, us.opp())] {
                let row = &rows[role * SHAPE_COUNT + shape(&b.patterns(p, color))];
                (0..NET_HIDDEN).for_each(|j| folded[j] += row[j]);
            }
        });
        let tempo = 2 * SIDE;
        for j in 0..NET_HIDDEN {
            let expect = h[j] - net.p[BIAS + j] - net.scale_in[tempo] * net.p[tempo * NET_HIDDEN + j];
            assert!(
                (folded[j] - expect).abs() < 1e-6 * (1.0 + expect.abs()),
                "{j}: {} vs {expect}",
                folded[j]
            );
        }
    }

    #[test]
    fn the_current_net_of_a_sample_is_the_boards() {
        // Every rule's board sums its own set's net; the fitter must read the same one.
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
            let mut b = crate::board::Board::new(15, 15, rule);
            for (n, (x, y)) in
                [(7, 7), (8, 8), (7, 8), (6, 8), (8, 6), (9, 9), (5, 9), (9, 5)].into_iter().enumerate()
            {
                b.make(b.pos(x, y).unwrap());
                let s = tune::sample(&b, 0.5);
                assert_eq!(current_net(&s, rule), b.net_value(), "{rule:?} after {} stones", n + 1);
            }
            assert_ne!(b.net_value(), 0, "the comparison says nothing if the net is silent");
        }
    }

    #[test]
    fn a_row_beyond_i16_is_held_at_the_limit() {
        // One shape input with a huge weight: its rows would overflow the printed i16.
        let mut p = vec![0f64; TOTAL];
        let big = PARAMS + 3;
        p[big * NET_HIDDEN] = 100.0;
        let net = Net { p, scale_in: vec![1.0; ALL] };
        let text = source(&net, "FREESTYLE");
        assert!(text.starts_with("pub const FREESTYLE_NET: NetWeights"));
        let rows = text.lines().find(|l| l.starts_with("    rows: &[")).expect("rows line");
        let list = &rows[rows.find("&[").expect("list") + 2..rows.rfind(']').expect("end")];
        let values: Vec<i64> = list.split(", ").map(|v| v.parse().expect("integer")).collect();
        assert_eq!(values.len(), 2 * SHAPE_COUNT * NET_HIDDEN);
        assert!(values.iter().all(|v| v.abs() <= i16::MAX as i64));
        assert!(values.contains(&(i16::MAX as i64)), "the oversized weight is kept at the limit");
    }
}
