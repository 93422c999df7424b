//! Which net a board of a given rule and size evaluates with: none (the classic evaluation),
//! the nets built into the binary, or one file the user named. One choice per process, as the
//! protocol sets it (`INFO`), read when a board is made.

use super::Gnn;
use crate::types::Rule;
use std::sync::{Arc, OnceLock, RwLock};

/// What boards use.
#[derive(Clone, Debug)]
pub enum Choice {
    /// The classic evaluation (tables and the small net).
    Classic,
    /// The built-in net of the board's rule and nearest size, where there is one.
    BuiltIn,
    /// This net for every rule and size.
    File(Arc<Gnn>),
}

static CHOICE: RwLock<Option<Choice>> = RwLock::new(None);

/// The default while no built-in net has beaten the classic evaluation in a match.
const DEFAULT: Choice = Choice::Classic;

/// Sets what boards made from now on use.
pub fn set(choice: Choice) {
    *CHOICE.write().unwrap_or_else(|e| e.into_inner()) = Some(choice);
}

/// What boards use now.
pub fn current() -> Choice {
    CHOICE.read().unwrap_or_else(|e| e.into_inner()).clone().unwrap_or(DEFAULT)
}

/// The net a new board of `rule` and this size evaluates with (`None`: the classic one).
pub fn net_for(rule: Rule, width: usize, height: usize) -> Option<Arc<Gnn>> {
    match current() {
        Choice::Classic => None,
        Choice::BuiltIn => built_in(rule, width, height),
        Choice::File(net) => Some(net),
    }
}

/// A built-in net: its rule family and the board size it was trained on, and its file.
struct BuiltIn {
    rules: &'static [Rule],
    size: usize,
    bytes: &'static [u8],
}

/// The nets in the binary (`src/eval/nets/`, see its README for how each was trained). The
/// line patterns they read already follow each rule's five, so caro, which has no net of its
/// own, takes the freestyle nets; renju's black has its own shapes.
const BUILT_IN: &[BuiltIn] = &[
    BuiltIn {
        rules: &[Rule::Freestyle, Rule::CaroOverline, Rule::CaroExact],
        size: 15,
        bytes: include_bytes!("../nets/freestyle15.gnn1"),
    },
    BuiltIn { rules: &[Rule::Standard], size: 15, bytes: include_bytes!("../nets/standard15.gnn1") },
    BuiltIn { rules: &[Rule::Renju], size: 15, bytes: include_bytes!("../nets/renju15.gnn1") },
];

/// Every built-in net's file, for tests that check a property of each.
#[cfg(test)]
pub fn built_in_bytes() -> impl Iterator<Item = &'static [u8]> {
    BUILT_IN.iter().map(|b| b.bytes)
}

/// The built-in net for `rule` whose size is nearest this board's (ties: the larger), if the
/// rule has one.
pub fn built_in(rule: Rule, width: usize, height: usize) -> Option<Arc<Gnn>> {
    static NETS: OnceLock<Vec<Arc<Gnn>>> = OnceLock::new();
    let nets = NETS.get_or_init(|| {
        BUILT_IN
            .iter()
            .map(|n| Arc::new(Gnn::from_bytes(n.bytes).expect("a built-in net reads (tested)")))
            .collect()
    });
    let side = width.max(height);
    BUILT_IN
        .iter()
        .zip(nets)
        .filter(|(n, _)| n.rules.contains(&rule))
        .min_by_key(|(n, _)| (n.size.abs_diff(side), usize::MAX - n.size))
        .map(|(_, net)| net.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_nets_read_and_can_be_searched() {
        for n in BUILT_IN {
            let net = Gnn::from_bytes(n.bytes).expect("reads");
            assert!(net.searchable());
            assert_eq!(net.shape_count, crate::eval::SHAPE_COUNT);
        }
    }

    #[test]
    fn every_rule_and_size_has_the_nearest_built_in_net() {
        use Rule::*;
        let file = |name: &str| BUILT_IN.iter().position(|n| n.bytes == net_bytes(name)).expect("listed");
        for rule in [Freestyle, Standard, Renju, CaroOverline, CaroExact] {
            for size in [5, 15, 17, 18, 20, 32] {
                let net = built_in(rule, size, size).expect("a net for every rule");
                let want = match rule {
                    Renju => file("renju15"),
                    Standard => file("standard15"),
                    _ => file("freestyle15"),
                };
                let bytes = BUILT_IN[want].bytes;
                assert_eq!(*net, Gnn::from_bytes(bytes).expect("reads"), "{rule:?} {size}");
            }
        }
    }

    /// A built-in net's file by name, read from the tree (not through `BUILT_IN`).
    fn net_bytes(name: &str) -> &'static [u8] {
        match name {
            "freestyle15" => include_bytes!("../nets/freestyle15.gnn1"),
            "standard15" => include_bytes!("../nets/standard15.gnn1"),
            "renju15" => include_bytes!("../nets/renju15.gnn1"),
            _ => panic!("no net {name}"),
        }
    }
}
