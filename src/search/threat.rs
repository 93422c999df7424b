//! Threat-space solvers: VCF (victory by continuous fours) and VCT (victory by continuous
//! threats: open threes and fours).
//!
//! Both are AND-OR searches for the side to move (the attacker). The attacker only makes
//! threats; the defender gets every reply that can matter, so a win found is a proof:
//! - after a four, the defender must take the five point (each one, if there are several);
//! - after an open three, the defender may block at any point where the attacker would make a
//!   four or better (renju's black included where the point is forbidden to it), or answer
//!   with a four of its own, and wins outright if it has a VCF.
//!
//! Failures are remembered in a direct-mapped cache keyed by position and remaining depth
//! (a failure at depth d is a failure at every depth up to d); successes are rare and end the
//! search. A node budget bounds every call; running out counts as "not found" and is never
//! cached.

use super::movepick::{blocks_four_line, five_point, legal_for, open_four_point};
use crate::board::Board;
use crate::eval::Class;
use crate::types::{Color, Pos, Rule};
use std::time::Instant;

/// Attacker fours a VCF may chain (the defender's replies are not counted).
pub const VCF_DEPTH: i32 = 24;
/// Nodes between two looks at the clock.
const CLOCK_INTERVAL: u64 = 256;
const DEPTH_BITS: u64 = 0x3F;

/// Positions (with the depth searched) where a solver proved there is no win.
pub struct ThreatCache {
    slots: Box<[u64]>,
    mask: usize,
}

impl ThreatCache {
    /// A cache of `2^bits` slots (8 bytes each).
    pub fn new(bits: u32) -> ThreatCache {
        let n = 1usize << bits;
        ThreatCache { slots: vec![0; n].into_boxed_slice(), mask: n - 1 }
    }

    pub fn bytes(&self) -> usize {
        self.slots.len() * 8
    }

    pub fn clear(&mut self) {
        self.slots.fill(0);
    }

    fn failed(&self, key: u64, depth: i32) -> bool {
        let s = self.slots[key as usize & self.mask];
        s != 0 && (s & !DEPTH_BITS) == (key & !DEPTH_BITS) && (s & DEPTH_BITS) as i32 >= depth
    }

    fn store_failure(&mut self, key: u64, depth: i32) {
        let slot = &mut self.slots[key as usize & self.mask];
        *slot = (key & !DEPTH_BITS) | depth.clamp(0, DEPTH_BITS as i32) as u64;
    }
}

/// A found win: the attacker's and defender's moves in order (the first is the move to play).
/// It ends with the attacker's five, or (renju) with a four that black may not block.
#[derive(Clone, Debug, Default)]
pub struct Proof {
    pub line: Vec<Pos>,
}

/// Longest line a solver follows (a VCF of `VCF_DEPTH` fours is 48 plies; a VCT adds its
/// threats and the blocks of the defender's fours). A longer one ends the run as if out of
/// budget: nothing is proved either way, and no failure is cached.
const MAX_LINE: usize = 160;

/// The moves of the line being searched, in a fixed array: the search builds a solver at
/// many of its leaves, and this keeps that free of allocation.
struct Line {
    moves: [Pos; MAX_LINE],
    len: usize,
}

impl Line {
    fn new() -> Line {
        Line { moves: [Pos::NONE; MAX_LINE], len: 0 }
    }

    fn as_slice(&self) -> &[Pos] {
        &self.moves[..self.len]
    }

    /// Adds `p`; false when the line is full.
    fn push(&mut self, p: Pos) -> bool {
        if self.len == MAX_LINE {
            return false;
        }
        self.moves[self.len] = p;
        self.len += 1;
        true
    }

    fn pop(&mut self) {
        self.len -= 1;
    }

    fn clear(&mut self) {
        self.len = 0;
    }

    /// The move `back` places from the end (1: the last).
    fn back(&self, back: usize) -> Pos {
        self.moves[self.len - back]
    }
}

/// One solver run: caches, budget and the line being built.
pub struct Solver<'a> {
    vcf_cache: &'a mut ThreatCache,
    vct_cache: Option<&'a mut ThreatCache>,
    nodes: u64,
    budget: u64,
    deadline: Option<Instant>,
    stop: Option<&'a dyn Fn() -> bool>,
    aborted: bool,
    path: Line,
    proof: Vec<Pos>,
    /// Move and reply lists of finished VCT nodes, for the next ones to reuse.
    threat_lists: Vec<Vec<(Class, i32, Pos)>>,
    reply_lists: Vec<Vec<Pos>>,
    /// Below the first four, the most fours an attacker node tries (`None`: every four on the
    /// board); see `narrow`.
    width: Option<usize>,
}

impl<'a> Solver<'a> {
    /// A VCF-only solver with a node budget.
    pub fn vcf(cache: &'a mut ThreatCache, budget: u64) -> Solver<'a> {
        Solver {
            vcf_cache: cache,
            vct_cache: None,
            nodes: 0,
            budget,
            deadline: None,
            stop: None,
            aborted: false,
            path: Line::new(),
            proof: Vec::new(),
            threat_lists: Vec::new(),
            reply_lists: Vec::new(),
            width: None,
        }
    }

    /// A VCT solver (it uses VCF inside, with its own cache for each).
    pub fn vct(vcf_cache: &'a mut ThreatCache, vct_cache: &'a mut ThreatCache, budget: u64) -> Solver<'a> {
        let mut s = Solver::vcf(vcf_cache, budget);
        s.vct_cache = Some(vct_cache);
        s
    }

    /// A quick, incomplete VCF (PentaZen's leaf check): below the first four, only the
    /// `width` likeliest fours on the lines through the attacker's last four are tried. A
    /// failure then proves nothing, so a narrow solver needs a cache of its own.
    pub fn narrow(mut self, width: usize) -> Self {
        self.width = Some(width.max(1));
        self
    }

    /// Also give up at this instant (if any).
    pub fn until(mut self, deadline: Option<Instant>) -> Self {
        self.deadline = deadline;
        self
    }

    /// Also give up when `stop` says so (polled with the clock).
    pub fn stopping(mut self, stop: &'a dyn Fn() -> bool) -> Self {
        self.stop = Some(stop);
        self
    }

    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the last search ran out of nodes or time (so "not found" proves nothing).
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// A continuous-four win for the side to move, if one exists within `VCF_DEPTH` fours.
    pub fn find_vcf(&mut self, b: &mut Board) -> Option<Proof> {
        self.start();
        self.vcf_node(b, VCF_DEPTH).then(|| self.take_proof())
    }

    /// Whether the side to move wins by continuous fours (no line kept).
    pub fn has_vcf(&mut self, b: &mut Board) -> bool {
        self.start();
        self.vcf_node(b, VCF_DEPTH)
    }

    /// Plies to the five of a continuous-four win of at most `depth` fours, if there is one.
    pub fn vcf_plies(&mut self, b: &mut Board, depth: i32) -> Option<usize> {
        self.start();
        self.vcf_node(b, depth).then_some(self.proof.len())
    }

    /// The shortest continuous-four win (in fours), by iterative deepening.
    pub fn shortest_vcf(&mut self, b: &mut Board) -> Option<Proof> {
        self.start();
        self.deepening(b, VCF_DEPTH, Self::vcf_node)
    }

    /// `node` at depth 1, 2, ... `max_depth` until it proves a win or runs out of budget.
    fn deepening(
        &mut self,
        b: &mut Board,
        max_depth: i32,
        node: fn(&mut Self, &mut Board, i32) -> bool,
    ) -> Option<Proof> {
        for depth in 1..=max_depth {
            if node(self, b, depth) {
                return Some(self.take_proof());
            }
            if self.aborted {
                break;
            }
        }
        None
    }

    /// The shortest threat win (in attacker threats) up to `max_depth` threats, by iterative
    /// deepening; `None` when there is none or the budget ran out. Needs a VCT solver.
    pub fn find_vct(&mut self, b: &mut Board, max_depth: i32) -> Option<Proof> {
        if let Some(p) = self.shortest_vcf(b) {
            return Some(p);
        }
        if self.aborted {
            return None;
        }
        self.deepening(b, max_depth, Self::vct_attack)
    }

    fn start(&mut self) {
        self.aborted = false;
        self.path.clear();
        self.proof.clear();
    }

    fn take_proof(&mut self) -> Proof {
        Proof { line: std::mem::take(&mut self.proof) }
    }

    /// Counts a node; true when the search must give up.
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.budget {
            self.aborted = true;
        } else if self.nodes.is_multiple_of(CLOCK_INTERVAL) {
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            if late || self.stop.is_some_and(|stop| stop()) {
                self.aborted = true;
            }
        }
        self.aborted
    }

    fn won_with(&mut self, last: Pos) {
        self.proof.clear();
        self.proof.extend_from_slice(self.path.as_slice());
        self.proof.push(last);
    }

    /// Whether the side to move has a five to make (recorded as the end of the proof).
    fn takes_five(&mut self, b: &Board) -> bool {
        let us = b.side_to_move();
        match five_point(b, us) {
            Some(p) => {
                self.won_with(p);
                true
            }
            None => false,
        }
    }

    /// Attacker (the side to move) to play a four.
    fn vcf_node(&mut self, b: &mut Board, depth: i32) -> bool {
        let us = b.side_to_move();
        let them = us.opp();
        if self.takes_five(b) {
            return true;
        }
        if self.tick() || depth <= 0 {
            return false;
        }
        let key = b.key();
        if self.vcf_cache.failed(key, depth) {
            return false;
        }
        let mut moves = [Pos::NONE; 64];
        let mut n = 0;
        if b.class_count(them, Class::Five) > 0 {
            // Their four must be blocked, and only a block that is also our four keeps the
            // sequence continuous.
            let Some(q) = five_point(b, them) else { return false };
            if b.class(q, us) >= Class::Four && legal_for(b, q, us) {
                moves[0] = q;
                n = 1;
            }
        } else {
            n = match self.width {
                // The path ends with the attacker's last four and the defender's block.
                Some(w) if self.path.as_slice().len() >= 2 => {
                    fours_near(b, self.path.back(2), us, &mut moves).min(w)
                }
                _ => fours_of(b, us, &mut moves),
            };
        }
        for &p in &moves[..n] {
            if self.after(b, p, |s, b| s.after_four(b, p, depth)) {
                return true;
            }
            if self.aborted {
                return false;
            }
        }
        self.vcf_cache.store_failure(key, depth);
        false
    }

    /// The defender to answer the attacker's four at `p`: it must take a five point.
    fn after_four(&mut self, b: &mut Board, p: Pos, depth: i32) -> bool {
        let defender = b.side_to_move();
        let attacker = defender.opp();
        let mut fives = [Pos::NONE; 8];
        let n = five_points_near(b, p, attacker, &mut fives);
        if n == 0 || b.class_count(defender, Class::Five) > 0 {
            return false;
        }
        self.every_reply_loses(b, &fives[..n], depth - 1, Self::vcf_node)
    }

    /// The defender tries each legal reply; true when every one leaves the attacker winning
    /// at `depth` by `next`. No legal reply at all (renju's black facing only forbidden
    /// points) is a win too, and the line ends with the attacker's last move.
    fn every_reply_loses(
        &mut self,
        b: &mut Board,
        replies: &[Pos],
        depth: i32,
        next: fn(&mut Self, &mut Board, i32) -> bool,
    ) -> bool {
        let defender = b.side_to_move();
        let mut any_reply = false;
        for &r in replies {
            if !legal_for(b, r, defender) {
                continue;
            }
            any_reply = true;
            if !self.after(b, r, |s, b| next(s, b, depth)) {
                return false;
            }
        }
        if !any_reply {
            self.proof.clear();
            self.proof.extend_from_slice(self.path.as_slice());
        }
        true
    }

    /// Plays `p` on the board and the line, runs `f`, and takes `p` back.
    fn after(&mut self, b: &mut Board, p: Pos, f: impl FnOnce(&mut Self, &mut Board) -> bool) -> bool {
        if !self.path.push(p) {
            self.aborted = true;
            return false;
        }
        b.make_unvalued(p);
        let result = f(self, b);
        self.path.pop();
        b.undo_unvalued();
        result
    }

    /// Attacker (the side to move) to play a threat; `depth` threats remain.
    fn vct_attack(&mut self, b: &mut Board, depth: i32) -> bool {
        let us = b.side_to_move();
        let them = us.opp();
        if self.takes_five(b) {
            return true;
        }
        if self.tick() {
            return false;
        }
        if b.class_count(them, Class::Five) > 0 {
            // The defender answered with a four: block it, then the defender is to move
            // again with whatever threats we still hold.
            let Some(q) = five_point(b, them) else { return false };
            if !legal_for(b, q, us) {
                return false;
            }
            return self.after(b, q, |s, b| s.vct_defend(b, depth));
        }
        if self.vcf_node(b, VCF_DEPTH) {
            return true;
        }
        // Against their open three only fours are fast enough, and VCF has tried those.
        if depth <= 0 || self.aborted || b.class_count(them, Class::OpenFour) > 0 {
            return false;
        }
        let key = b.key();
        if self.vct_cache.as_ref().is_some_and(|c| c.failed(key, depth)) {
            return false;
        }
        let mut moves = self.threat_lists.pop().unwrap_or_default();
        moves.clear();
        b.for_each_candidate(|p| {
            let c = b.class(p, us);
            if c >= Class::Three && c != Class::Five {
                moves.push((c, b.point_value(p, us), p));
            }
        });
        moves.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
        let mut won = false;
        for &(_, _, p) in &moves {
            if !legal_for(b, p, us) {
                continue;
            }
            if self.after(b, p, |s, b| s.vct_defend(b, depth - 1)) {
                won = true;
                break;
            }
            if self.aborted {
                break;
            }
        }
        self.threat_lists.push(moves);
        if !won && !self.aborted {
            if let Some(c) = self.vct_cache.as_mut() {
                c.store_failure(key, depth);
            }
        }
        won
    }

    /// The defender to move against the attacker's threats; true when every reply loses.
    fn vct_defend(&mut self, b: &mut Board, depth: i32) -> bool {
        if b.class_count(b.side_to_move(), Class::Five) > 0 || self.tick() {
            return false;
        }
        let mut replies = self.reply_lists.pop().unwrap_or_default();
        replies.clear();
        let lost = self.every_listed_reply_loses(b, depth, &mut replies);
        self.reply_lists.push(replies);
        lost
    }

    /// `vct_defend` once its node is counted: lists in `replies` the defender's answers to
    /// the threat and tries them.
    fn every_listed_reply_loses(&mut self, b: &mut Board, depth: i32, replies: &mut Vec<Pos>) -> bool {
        let defender = b.side_to_move();
        let attacker = defender.opp();
        if b.class_count(attacker, Class::Five) > 0 {
            b.for_each_candidate(|p| {
                if b.class(p, attacker) == Class::Five {
                    replies.push(p);
                }
            });
        } else if has_open_four_point(b, attacker) {
            // The defender's own continuous fours come first and refute the threat.
            if self.vcf_node(b, VCF_DEPTH) {
                return false;
            }
            if self.aborted {
                return false;
            }
            b.for_each_candidate(|p| {
                if blocks_four_line(b, p, attacker) || b.class(p, defender) >= Class::Four {
                    replies.push(p);
                }
            });
            // A reply that is neither a four nor leaves the attacker without an open four
            // loses at once (the open four has two five points; the defender has no five to
            // make): only the others need a proof. One is kept when none is left, so that the
            // proof line plays on to the five.
            let first = replies.first().copied();
            replies.retain(|&p| {
                if b.class(p, defender) >= Class::Four {
                    return true;
                }
                b.make_unvalued(p);
                let stops = !has_open_four_point(b, attacker);
                b.undo_unvalued();
                stops
            });
            if replies.is_empty() {
                replies.extend(first);
            }
        } else {
            return false; // no threat: the defender has a free move
        }
        self.every_reply_loses(b, replies, depth, Self::vct_attack)
    }
}

/// Points where `color` makes a four or better (legal ones), open fours first.
fn fours_of(b: &mut Board, color: Color, out: &mut [Pos; 64]) -> usize {
    // The solvers call this at every node: no allocation, and no scan when the counts say
    // there is nothing to find.
    let count = b.four_point_count(color);
    if count == 0 {
        return 0;
    }
    let mut found = [(Class::None, 0, Pos::NONE); 64];
    if count > found.len() {
        // Only on a large, crowded board: all of them, so that the best still come first.
        let mut many = Vec::with_capacity(count);
        collect_fours(b, color, count, |f| many.push(f));
        return legal_in_order(b, &mut many, color, out);
    }
    let mut n = 0;
    collect_fours(b, color, count, |f| {
        found[n] = f;
        n += 1;
    });
    legal_in_order(b, &mut found[..n], color, out)
}

/// Calls `f` with (class, value, point) for the `count` points where `color` makes a four or
/// better, in board order (the rest of the scan looks no further).
fn collect_fours(b: &Board, color: Color, count: usize, mut f: impl FnMut((Class, i32, Pos))) {
    let mut seen = 0;
    b.for_each_candidate(|p| {
        if seen < count {
            let c = b.class(p, color);
            if c >= Class::Four {
                f((c, b.point_value(p, color), p));
                seen += 1;
            }
        }
    });
}

/// Writes the legal points of `found` (class, value, point) to `out`, highest class first,
/// then highest value, then board order; returns how many.
fn legal_in_order(
    b: &mut Board,
    found: &mut [(Class, i32, Pos)],
    color: Color,
    out: &mut [Pos; 64],
) -> usize {
    found.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
    let mut n = 0;
    for &(_, _, p) in found.iter() {
        if n < out.len() && legal_for(b, p, color) {
            out[n] = p;
            n += 1;
        }
    }
    n
}

/// Whether `color` has a point that makes an open four it may legally play (only renju's
/// black needs the points looked at).
fn has_open_four_point(b: &mut Board, color: Color) -> bool {
    b.class_count(color, Class::OpenFour) > 0
        && (b.rule() != Rule::Renju || color == Color::White || open_four_point(b, color).is_some())
}

/// Legal points on the lines through `p` (within four steps) where `color` makes a four,
/// most valuable first (the order of `fours_of`).
fn fours_near(b: &mut Board, p: Pos, color: Color, out: &mut [Pos; 64]) -> usize {
    let mut found = [(Class::None, 0, Pos::NONE); 32];
    let mut n = 0;
    for d in 0..4 {
        for k in (-4..=4).filter(|&k| k != 0) {
            let q = b.step(p, d, k);
            if b.is_empty(q) && b.class(q, color) >= Class::Four {
                found[n] = (b.class(q, color), b.point_value(q, color), q);
                n += 1;
            }
        }
    }
    legal_in_order(b, &mut found[..n], color, out)
}

/// Distinct points on the lines through `p` (within four steps) where `color` makes a five.
fn five_points_near(b: &Board, p: Pos, color: Color, out: &mut [Pos; 8]) -> usize {
    let mut n = 0;
    for d in 0..4 {
        for k in (-4..=4).filter(|&k| k != 0) {
            let q = b.step(p, d, k);
            if n < out.len() && b.is_empty(q) && b.class(q, color) == Class::Five && !out[..n].contains(&q) {
                out[n] = q;
                n += 1;
            }
        }
    }
    n
}

#[cfg(test)]
mod tests;
