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

/// The nets in the binary (`src/eval/nets/`, see its README for how each was trained).
const BUILT_IN: &[BuiltIn] = &[];

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
}
