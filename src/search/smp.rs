//! Lazy SMP: helper threads run the same iterative deepening on their own copy of the board
//! and share nothing with the main thread but the transposition table, where their results
//! become cut-offs and move orders for everyone.
//!
//! The main thread owns the clock, the reports and the answer; helpers stop when it is done
//! (or when the manager stops the search), and it plays the move of the deepest iteration any
//! thread finished. They are diversified by skipping iterations on a
//! per-helper pattern, so two threads are rarely on the same depth and one runs ahead of the
//! other. Each helper has its own history, killers and threat caches: no locks, no shared
//! counters in the hot path (node counts are published once per poll).

use super::{Iteration, Limits, Scored, SearchResult, Searcher, MAX_DEPTH};
use crate::board::Board;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Stack of a helper thread: the same as the engine thread's (the search recurses up to
/// `MAX_PLY` plies, the threat solvers below that). Reserved, not committed: a search touches
/// well under a megabyte of it.
pub const HELPER_STACK: usize = 16 << 20;

/// Memory a helper thread may use, beyond the shared table: threat caches (4.5 MiB, zeroed
/// lazily), move lists, the board copy and the part of the stack a search touches.
pub const THREAD_MEMORY: u64 = 6 << 20;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Role {
    Main,
    /// Helper number `n`, from 1.
    Helper(usize),
}

/// Whether helper `n` skips the iteration at `depth`: helper 1 searches the even depths,
/// helper 2 the odd ones, later helpers blocks of two, three... depths in turn, each block
/// pattern offset by the helper's number.
pub fn skips(role: Role, depth: i32) -> bool {
    let Role::Helper(n) = role else { return false };
    let k = n as i32 - 1;
    let block = 1 + k / 2;
    let phase = k % (2 * block);
    ((depth + phase) / block) % 2 != 0
}

impl<'a> Searcher<'a> {
    pub(super) fn skips(&self, depth: i32) -> bool {
        skips(self.role, depth)
    }

    /// Adds this helper's nodes since the last call to the search's total.
    pub(super) fn publish_nodes(&mut self) {
        if let Role::Helper(_) = self.role {
            let own = self.own_nodes();
            self.helper_nodes.fetch_add(own - self.published, Relaxed);
            self.published = own;
        }
    }

    /// `deepen` on this thread while `threads - 1` helpers deepen the same root on others.
    /// A helper that cannot be started is done without (the search goes on with fewer).
    pub(super) fn deepen_with_helpers(
        &mut self,
        b: &mut Board,
        root: &mut [Scored],
        report: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        let done = AtomicBool::new(false);
        let parent_stop = self.limits.stop;
        let stop = || done.load(Relaxed) || parent_stop();
        let (tt, rule, start, hard) = (self.tt, self.rule, self.limits.start, self.limits.hard);
        let (noise, seed) = (self.noise, self.noise_seed);
        let excluded = self.excluded.clone();
        // The deepest iteration any helper finished: (depth, score, pv).
        let deepest: Mutex<Option<(i32, i32, Vec<crate::types::Pos>)>> = Mutex::new(None);
        let best = std::thread::scope(|scope| {
            for n in 1..self.threads {
                let mut board = b.clone();
                let mut moves = root.to_vec();
                let (stop, excluded, deepest) = (&stop, &excluded, &deepest);
                let shared = Arc::clone(&self.helper_nodes);
                let spawned = std::thread::Builder::new()
                    .name(format!("helper {n}"))
                    .stack_size(HELPER_STACK)
                    .spawn_scoped(scope, move || {
                        let limits = Limits {
                            start,
                            soft: Duration::MAX,
                            hard,
                            max_depth: MAX_DEPTH,
                            max_nodes: u64::MAX,
                            stop,
                        };
                        let mut helper =
                            Searcher::new(tt, limits, rule).excluding(excluded).with_noise(noise, seed);
                        helper.role = Role::Helper(n);
                        helper.helper_nodes = shared;
                        helper.deepen(&mut board, &mut moves, &mut |it| {
                            if let Ok(mut d) = deepest.lock() {
                                if d.as_ref().is_none_or(|(depth, _, _)| it.depth > *depth)
                                    && !it.pv.is_empty()
                                {
                                    *d = Some((it.depth, it.score, it.pv.clone()));
                                }
                            }
                        });
                        helper.publish_nodes();
                    });
                if let Err(e) = spawned {
                    log::warn!("helper thread {n} not started: {e}");
                    break;
                }
            }
            let best = self.deepen(b, root, report);
            done.store(true, Relaxed);
            best
        });
        // A helper that finished a deeper iteration than the main thread knows better (the
        // depth split makes this common: the helper on even depths is often one ahead).
        match deepest.into_inner().ok().flatten() {
            Some((depth, score, pv)) if depth > best.depth => {
                SearchResult { best: pv[0], score, depth, nodes: best.nodes, pv }
            }
            _ => best,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn main_thread_searches_every_depth() {
        assert!((1..=20).all(|d| !skips(Role::Main, d)));
    }

    #[test]
    fn first_two_helpers_split_the_depths_by_parity() {
        for d in 1..=20 {
            assert_eq!(skips(Role::Helper(1), d), d % 2 == 1, "depth {d}");
            assert_eq!(skips(Role::Helper(2), d), d % 2 == 0, "depth {d}");
        }
    }

    #[test]
    fn every_helper_searches_some_depths_and_skips_others() {
        for n in 1..=16 {
            let searched = (1..=24).filter(|&d| !skips(Role::Helper(n), d)).count();
            assert!((8..=16).contains(&searched), "helper {n} searches {searched} of 24");
        }
    }
}
