//! The engine's GNN1 forward pass (`src/eval/gnn.rs`) against the trainer's integer reference
//! (`scripts/train/reference.py`) on the committed fixture (`scripts/train/fixture/`): every
//! value and every policy logit of every position must be equal, bit for bit. Runs without
//! Python or torch: the reference's outputs are in `expected.json`.

mod json;

use gorin::datagen::read_records;
use gorin::eval::gnn::{Gnn, Header, Point};
use json::Json;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/train/fixture").join(name)
}

fn read(name: &str) -> Vec<u8> {
    let path = fixture(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// One GRN1 record as the net sees it.
struct Position {
    width: usize,
    height: usize,
    points: Vec<Point>,
}

/// The records of a GRN1 file, each turned into net inputs (`records.inputs`).
fn positions(data: &[u8]) -> Vec<Position> {
    let (_, records) = read_records(data).expect("the fixture's positions read");
    records.into_iter().map(|r| Position { width: r.width, height: r.height, points: r.points() }).collect()
}

#[test]
fn the_forward_pass_matches_the_reference_bit_for_bit() {
    let net = Gnn::from_bytes(&read("net.gnn1")).expect("the fixture's net reads");
    let text = String::from_utf8(read("expected.json")).expect("UTF-8");
    let expected = Json::parse(&text).expect("expected.json parses");
    let outputs = expected.get("outputs").array();
    let positions = positions(&read("positions.grn1"));
    assert_eq!(positions.len(), outputs.len(), "one output per record");
    assert!(!positions.is_empty());
    for (i, (pos, want)) in positions.iter().zip(outputs).enumerate() {
        assert_eq!(
            (pos.width, pos.height),
            (want.get("width").int() as usize, want.get("height").int() as usize)
        );
        let got = net.forward(&pos.points).expect("the fixture's inputs are in range");
        assert_eq!(i64::from(got.value), want.get("value").int(), "position {i}: value");
        let policy = want.get("policy").array();
        assert_eq!(got.policy.len(), policy.len(), "position {i}: points");
        for (p, (g, w)) in got.policy.iter().zip(policy).enumerate() {
            let w = match w {
                Json::Null => None,
                n => Some(n.int()),
            };
            assert_eq!(g.map(i64::from), w, "position {i}, point {p}: policy");
        }
    }
}

/// The records of a GRN1 file with the line classes of their GLF1 side file, as a lines net
/// sees them (`records.line_inputs`).
fn line_positions(data: &[u8], lines: &[u8]) -> Vec<Position> {
    assert_eq!(&lines[..4], b"GLF1");
    let mut at = 12;
    let (_, records) = read_records(data).expect("the fixture's positions read");
    let out = records
        .into_iter()
        .map(|r| {
            let me = r.to_move;
            let points = r
                .cells
                .iter()
                .map(|&cell| {
                    let classes: [u16; 4] = std::array::from_fn(|k| {
                        u16::from_le_bytes([lines[at + 2 * k], lines[at + 2 * k + 1]])
                    });
                    at += 8;
                    match cell {
                        0 => Point::Lines(classes),
                        c if c == me => Point::OwnStone,
                        _ => Point::OppStone,
                    }
                })
                .collect();
            Position { width: r.width, height: r.height, points }
        })
        .collect();
    assert_eq!(at, lines.len(), "the side file holds exactly the records' classes");
    out
}

#[test]
fn the_lines_forward_pass_matches_the_reference_bit_for_bit() {
    let net = Gnn::from_bytes(&read("lines.gnn1")).expect("the fixture's lines net reads");
    assert!(net.lines);
    let text = String::from_utf8(read("expected_lines.json")).expect("UTF-8");
    let expected = Json::parse(&text).expect("expected_lines.json parses");
    let outputs = expected.get("outputs").array();
    let positions = line_positions(&read("positions.grn1"), &read("positions.glf1"));
    assert_eq!(positions.len(), outputs.len(), "one output per record");
    let mut policies = 0;
    for (i, (pos, want)) in positions.iter().zip(outputs).enumerate() {
        let got = net.forward(&pos.points).expect("the fixture's classes are in range");
        assert_eq!(i64::from(got.value), want.get("value").int(), "position {i}: value");
        for (p, (g, w)) in got.policy.iter().zip(want.get("policy").array()).enumerate() {
            let w = match w {
                Json::Null => None,
                n => Some(n.int()),
            };
            assert_eq!(g.map(i64::from), w, "position {i}, point {p}: policy");
            policies += usize::from(w.is_some());
        }
    }
    assert!(policies > 100);
}

#[test]
fn a_changed_weight_changes_the_outputs() {
    // The comparison above can fail: one embedding number off by one moves some output.
    let mut bytes = read("net.gnn1");
    let positions = positions(&read("positions.grn1"));
    let net = Gnn::from_bytes(&bytes).expect("reads");
    let before: Vec<_> = positions.iter().map(|p| net.forward(&p.points).expect("in range")).collect();
    let mut changed = false;
    // The first emb_own numbers, one at a time, until one matters.
    for at in (24..24 + 2 * 64).step_by(2) {
        let old = i16::from_le_bytes([bytes[at], bytes[at + 1]]);
        bytes[at..at + 2].copy_from_slice(&(old.wrapping_add(1)).to_le_bytes());
        let other = Gnn::from_bytes(&bytes).expect("still reads");
        changed =
            positions.iter().zip(&before).any(|(p, b)| other.forward(&p.points).expect("in range") != *b);
        bytes[at..at + 2].copy_from_slice(&old.to_le_bytes());
        if changed {
            break;
        }
    }
    assert!(changed, "no output moved when a weight moved by one");
}

#[test]
fn the_fixtures_net_truncated_is_an_error() {
    let bytes = read("net.gnn1");
    for len in (0..bytes.len()).step_by(7) {
        assert!(Gnn::from_bytes(&bytes[..len]).is_err(), "{len} of {} bytes accepted", bytes.len());
    }
}

/// A GNN1 file the search can use (D = 32, the engine's shape count) with pseudo-random
/// weights from `seed`: embeddings over the whole i16 range the trainer allows, so that both
/// clamps of the activation and the i16 saturation of the fast kernel are exercised.
fn random_searchable_net(seed: u64, flags: u8, d: u16) -> Vec<u8> {
    let (s, h) = (gorin::eval::SHAPE_COUNT as u32, 8u16);
    let mut state = seed;
    let mut next = move |range: i64| {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((state >> 33) as i64 % (2 * range + 1)) - range
    };
    let mut payload = Vec::new();
    for _ in 0..2 * (s as usize + 2) * d as usize {
        payload.extend_from_slice(&(next(1500) as i16).to_le_bytes());
    }
    let mut i16s = |n: usize, range: i64, out: &mut Vec<u8>| {
        for _ in 0..n {
            out.extend_from_slice(&(next(range) as i16).to_le_bytes());
        }
    };
    i16s(d as usize, 300, &mut payload);
    payload.extend_from_slice(&7i32.to_le_bytes());
    i16s(h as usize * d as usize, 60, &mut payload);
    for j in 0..h as i32 {
        payload.extend_from_slice(&(j * 1000 - 3000).to_le_bytes());
    }
    i16s(h as usize, 900, &mut payload);
    payload.extend_from_slice(&(-11i32).to_le_bytes());
    Header { dim: d, shape_count: s, hidden: h, q_act: 10, q_weight: 10, flags: flags.into() }.file(&payload)
}

/// The board's incremental net value against the reference forward pass over the position's
/// record inputs, after every move and every undo of a random walk, in every rule (renju's
/// black features include its forbidden points), for both widths the search's kernels take.
#[test]
fn the_boards_incremental_sums_give_the_reference_value() {
    use std::sync::Arc;
    for dim in [32, 16] {
        incremental_sums_give_the_reference_value(Arc::new(
            Gnn::from_bytes(&random_searchable_net(5, 0, dim)).expect("reads"),
        ));
    }
}

fn incremental_sums_give_the_reference_value(net: std::sync::Arc<Gnn>) {
    use gorin::board::Board;
    use gorin::datagen::gnn_points;
    use gorin::eval::gnn::VALUE_UNITS;
    use gorin::types::Rule;
    assert!(net.searchable(), "D = {}", net.dim);
    let expect = |b: &Board| {
        let logit = net.forward(&gnn_points(b)).expect("in range").value;
        ((i64::from(logit) * i64::from(VALUE_UNITS)) >> net.q_act) as i32
    };
    let mut seed = 99u64;
    let mut checked = 0;
    for (rule, size) in [(Rule::Freestyle, 15), (Rule::Renju, 15), (Rule::Standard, 20), (Rule::CaroExact, 9)]
    {
        let mut b = Board::new(size, size, rule);
        b.set_net(Some(net.clone()));
        assert_eq!(b.evaluate(), expect(&b), "{rule:?}: empty board");
        // The board adds a move's changes to its sums only when it is evaluated or the next
        // move is made, so a third of the positions go unevaluated: moves and undos on top of
        // pending changes must come out the same.
        let mut values = vec![expect(&b)];
        for step in 0..400 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let undo = (seed >> 60) < 5 && b.stone_count() > 0;
            if undo || b.stone_count() + 10 >= size * size {
                b.undo();
                values.pop();
            } else {
                let mut empty = Vec::new();
                b.for_each_empty(|p| empty.push(p));
                // Mostly near the last stones, so that shapes build up.
                let near: Vec<_> = empty
                    .iter()
                    .copied()
                    .filter(|&p| {
                        b.last_move().is_some_and(|q| {
                            let ((px, py), (qx, qy)) = (b.xy(p), b.xy(q));
                            px.abs_diff(qx).max(py.abs_diff(qy)) <= 2
                        })
                    })
                    .collect();
                let from = if near.is_empty() || (seed >> 40).is_multiple_of(4) { &empty } else { &near };
                b.make(from[(seed >> 20) as usize % from.len()]);
                values.push(expect(&b));
            }
            if !(seed >> 8).is_multiple_of(3) {
                assert_eq!(b.evaluate(), *values.last().expect("a value per ply"), "{rule:?} step {step}");
                checked += 1;
            }
        }
        while b.stone_count() > 0 {
            b.undo();
            values.pop();
        }
        assert_eq!(b.evaluate(), values[0], "{rule:?}: every move taken back");
    }
    assert!(checked >= 1000, "{checked} positions checked");
}

/// A residual net (header flag 1) adds its value to the classic evaluation: after every move of
/// a walk, the board's value is the classic board's plus the reference net value in units.
#[test]
fn a_residual_net_corrects_the_classic_evaluation() {
    use gorin::board::Board;
    use gorin::datagen::gnn_points;
    use gorin::eval::gnn::VALUE_UNITS;
    use gorin::types::Rule;
    use std::sync::Arc;
    let net = Arc::new(Gnn::from_bytes(&random_searchable_net(8, 1, 32)).expect("reads"));
    assert!(net.residual);
    let mut b = Board::new(15, 15, Rule::Freestyle);
    b.set_net(Some(net.clone()));
    let mut classic = Board::new(15, 15, Rule::Freestyle);
    classic.set_net(None);
    let mut moved = false;
    for (x, y) in [(7, 7), (8, 8), (7, 8), (9, 9), (7, 9), (6, 6), (10, 10), (5, 5)] {
        let p = b.pos(x, y).expect("on board");
        b.make(p);
        classic.make(p);
        let logit = net.forward(&gnn_points(&b)).expect("in range").value;
        let correction = ((i64::from(logit) * i64::from(VALUE_UNITS)) >> net.q_act) as i32;
        assert_eq!(b.evaluate(), classic.evaluate() + correction, "after {x},{y}");
        moved |= correction != 0;
    }
    assert!(moved, "the correction was zero throughout");
}
