//! The engine's GNN1 forward pass (`src/eval/gnn.rs`) against the trainer's integer reference
//! (`scripts/train/reference.py`) on the committed fixture (`scripts/train/fixture/`): every
//! value and every policy logit of every position must be equal, bit for bit. Runs without
//! Python or torch: the reference's outputs are in `expected.json`.

mod json;

use gorin::datagen::read_records;
use gorin::eval::gnn::{Gnn, Point};
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
