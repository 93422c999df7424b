//! Iterative-deepening principal-variation search.
//!
//! The search never prints: each finished iteration is handed to a callback, and the result
//! is returned to the caller (the engine), which owns the protocol.

pub mod movepick;
pub mod policy;
pub mod smp;
pub mod threat;
pub mod time;
pub mod tt;

use crate::board::{Board, MAX_CELLS};
use crate::eval::Class;
use crate::types::{Color, Pos, Rule};
use movepick::{
    five_point, generate, generate_unordered, is_legal, open_four_point, pick_next, Refuters, Scored,
};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};
use threat::{Solver, ThreatCache};
use time::Stability;
use tt::{score_from_tt, score_to_tt, Bound, Tt, WIN_THRESHOLD};

/// Score of a five made at the root; a win `n` plies away scores `WIN - n`.
pub const WIN: i32 = 30_000;
const INF: i32 = 31_000;
pub const MAX_PLY: usize = 128;
pub const MAX_DEPTH: i32 = 64;
/// Nodes between two looks at the clock and the stop flag.
const CHECK_INTERVAL: u64 = 1024;
const ASPIRATION: i32 = 60;
/// The VCF at the search's leaves: fours it may chain, fours tried per node below the first
/// (see `Solver::narrow`), and the nodes it may spend. A complete VCF at every leaf took three
/// quarters of the nodes in late middle games, where fours abound.
const LEAF_VCF_DEPTH: i32 = 12;
const LEAF_VCF_WIDTH: usize = 2;
const LEAF_VCF_NODES: u64 = 200;
/// Root threat search: the VCF's nodes and share of the hard limit (see `root_threat_win`),
/// then the VCT's threats deep, nodes, and share. Most threat wins are found in a few thousand
/// nodes; a long fruitless look only costs depth.
const ROOT_VCF_NODES: u64 = 400_000;
const ROOT_VCF_SHARE: u32 = 10;
const ROOT_VCT_DEPTH: i32 = 5;
const ROOT_VCT_NODES: u64 = 12_000;
const ROOT_VCT_SHARE: u32 = 24;
/// After the search: how many of our best moves are checked against the opponent's threat
/// wins, the nodes for each check, and the share of the hard limit kept back for it (the
/// check usually ends at once, so little is kept back; it may run on to the hard limit).
const DEFENCE_CANDIDATES: usize = 4;
const DEFENCE_VCT_DEPTH: i32 = 4;
const DEFENCE_VCT_NODES: u64 = 20_000;
const DEFENCE_SHARE: u32 = 32;
/// Slots (log2) of the threat solvers' failure caches.
const VCF_CACHE_BITS: u32 = 18;
const VCT_CACHE_BITS: u32 = 16;

/// What bounds one search.
pub struct Limits<'a> {
    /// When the command that asked for the move arrived.
    pub start: Instant,
    /// Past this, start no new iteration.
    pub soft: Duration,
    /// Past this, stop at once.
    pub hard: Duration,
    pub max_depth: i32,
    pub max_nodes: u64,
    /// Polled with the clock: true when the manager asked us to stop (or to quit). Helper
    /// threads poll it too, hence `Sync`.
    pub stop: &'a (dyn Fn() -> bool + Sync),
}

/// One finished iteration, as reported to the caller.
#[derive(Clone, Debug)]
pub struct Iteration {
    pub depth: i32,
    pub sel_depth: i32,
    pub score: i32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Pos>,
}

/// What a search found: the move, its score, how deep and how many nodes, and the line.
#[derive(Clone, Debug)]
pub struct SearchResult {
    pub best: Pos,
    pub score: i32,
    pub depth: i32,
    pub nodes: u64,
    pub pv: Vec<Pos>,
}

/// How a node continues after a forced block (the block costs no depth).
#[derive(Copy, Clone)]
enum Next {
    Search { depth: i32, pv: bool },
    Leaf,
}

/// Search state that lives across the nodes of one search.
pub struct Searcher<'a> {
    tt: &'a Tt,
    limits: Limits<'a>,
    nodes: u64,
    sel_depth: i32,
    aborted: bool,
    killers: Vec<[Pos; 2]>,
    history: Vec<i32>,
    /// Per side to move and the opponent's last move: the reply that last cut a node off
    /// (`movepick::Refuters`).
    counters: Vec<Pos>,
    pv: Vec<[Pos; MAX_PLY]>,
    pv_len: [usize; MAX_PLY + 1],
    move_lists: Vec<Vec<Scored>>,
    /// Each node's static value on the current line, `NO_EVAL` where none was taken: a node
    /// compares its own with its grandparent's to tell whether the side to move is improving.
    evals: Vec<i32>,
    /// In caro a block can turn the other end of an open four into a five blocked at both
    /// ends, so an open four is not a sure win there.
    open_four_wins: bool,
    /// Root moves not to consider (the n-best search asks for the next best move).
    excluded: Vec<Pos>,
    /// Weaker levels: a pseudo-random offset of up to this much on every static value, fixed
    /// per position and `noise_seed`, so the choice among near-equal moves varies by game.
    noise: i32,
    noise_seed: u64,
    vcf_cache: ThreatCache,
    vct_cache: ThreatCache,
    /// The leaves' narrow VCF fails where a complete one may not, so it keeps its own cache.
    leaf_cache: ThreatCache,
    /// Nodes spent in the threat solvers (not counted in `nodes`).
    threat_nodes: u64,
    /// `nodes()` at which the clock is looked at next.
    next_poll: u64,
    /// Threat sequences (VCT) are sure only where an open three must be answered.
    threat_space: bool,
    rule: Rule,
    /// Threads to search with, this one included (see `smp`).
    threads: usize,
    role: smp::Role,
    /// Per ply: the table move a singular-extension test leaves out (`Pos::NONE` outside one).
    skipped: [Pos; MAX_PLY + 1],
    /// Nodes the helper threads of this search have visited (published every poll).
    helper_nodes: Arc<AtomicU64>,
    /// A helper's own nodes already added to `helper_nodes`.
    published: u64,
}

/// Futility pruning and razoring: deepest node, and margins per depth (in evaluation units:
/// 650 is one logit of winning odds, see `eval::params`).
/// Self-play at 300 ms (160 games each, 40 openings with a random stone): margins 150/300
/// against none +44 ± 54 Elo, 250/500 against 150/300 +26 ± 54, 400/800 against 250/500
/// 44.5 of 101. Futility down to depth 6 (razoring kept at 2) against depth 3, fixed 60K
/// nodes, 800 games: 409-374-17, +15 ± 24 Elo; a deep node far above beta rarely comes back.
/// Where the side to move is improving (its static value above its own two plies up), the
/// margin is a ply's less (Rapfi's and Stockfish's): against the search without it,
/// `--random-plies 2`, 300 games each, standard +14 +/- 24 at 100 ms and +9 +/- 16 at 300 ms,
/// freestyle +15 +/- 23 at 100 ms; +13 +/- 12 Elo over all 450 pairs.
const FUTILITY_DEPTH: i32 = 6;
const RAZOR_DEPTH: i32 = 2;
const FUTILITY_MARGIN: i32 = 250;
const RAZOR_MARGIN: i32 = 500;

/// Singular extension with multi-cut (Stockfish's and Rapfi's): at a node of at least
/// `SINGULAR_DEPTH` whose table move holds a lower bound (or an exact score) from a search at
/// most `SINGULAR_SLACK` plies shallower, the other moves are searched at half the depth against
/// a bound `SINGULAR_MARGIN` a ply below the table's score. When all of them fail low, the
/// table move is the only good one and is searched a ply deeper (threat lines, where one attack
/// or one defence works, go deeper this way); when even without it the node reaches that bound
/// and the bound is at or above beta, the node is cut (two moves beat beta).
/// Self-play against the search without it, freestyle at 100 ms a move: +32 +/- 28 Elo (600
/// games); in renju (measured on c2295b5's search, the same but for the speed-ups of 4991fb4)
/// +16 +/- 28 at 100 ms (600) and +17 +/- 33 at 300 ms (400). Without the multi-cut it was
/// even in freestyle at 300 ms (-1 +/- 39). It also proves more of the renju wins Rapfi finds
/// within a move (README, Strength).
const SINGULAR_DEPTH: i32 = 8;
const SINGULAR_MARGIN: i32 = 4;
const SINGULAR_SLACK: i32 = 3;

/// Fail-high reduction: at a non-PV node whose static value is this much a ply above beta
/// (and the opponent threatens nothing), moves other than fours are searched a ply shallower.
/// Self-play against the search without it, `--random-plies 2`, 300 games each (Elo over 150
/// pairs): standard +9 +/- 23 at 100 ms, +15 +/- 20 and +9 +/- 18 at 300 ms; freestyle
/// +19 +/- 23 and renju +4 +/- 26 at 100 ms; all 1,500 games +11 +/- 10 over 750 pairs.
/// `bench 13` searches 0.56 of the nodes.
const FAIL_HIGH_MARGIN: i32 = 60;

/// `Searcher::evals` where a node took no static value.
const NO_EVAL: i32 = i32::MIN;

fn futility_margin(depth: i32) -> i32 {
    FUTILITY_MARGIN * depth
}

fn razor_margin(depth: i32) -> i32 {
    RAZOR_MARGIN * depth
}

/// How many moves a node two plies or more below the root searches (PentaZen's rule): where
/// a four or an open three stands on the board, the few moves that answer or outdo it come
/// first and the cap is small, which lets forcing lines run deep; a quiet position keeps more.
/// A node whose moves searched so far all lose searches on.
fn move_cap(depth: i32, busy: bool) -> usize {
    let d = (depth.max(1) as f64).sqrt();
    if busy {
        ((5.0 * d - 2.0).round() as usize).clamp(3, 8)
    } else {
        ((15.0 * d - 12.0).round() as usize).clamp(3, 32)
    }
}

/// How many moves a quiet node (no four or open three on the board) one ply or more below the
/// root searches at most: 3 + depth^1.32, Rapfi's move-count limit, well under `move_cap`'s at
/// middle depths (9 against 18 at depth 4) and applied one ply higher. The moves it drops come
/// after the table's move, the killers and the best-ordered points; the depth it frees goes to
/// the lines that matter. In self-play at 100 ms a move (300 games each, against the move cap
/// alone): freestyle +40 +/- 40 Elo, standard +34 +/- 40; renju even. A tighter 0.7 of it
/// lost (-24 +/- 39); 0.8 of it where the static value is not above its value two plies up
/// (Rapfi halves it there) was even against this one (-4 and +6 +/- 39, freestyle and renju).
fn quiet_move_limit(depth: i32) -> usize {
    (3.0 + (depth.max(1) as f64).powf(1.32)).round() as usize
}

/// Whether either side has a four or an open three on the board.
fn is_busy(b: &Board) -> bool {
    [Color::Black, Color::White]
        .iter()
        .any(|&c| b.class_count(c, Class::Five) > 0 || b.class_count(c, Class::OpenFour) > 0)
}

/// Plies taken off a move searched `index`-th (from 0) at `depth`: growing with both,
/// as the product of their logarithms, one less on the principal variation, and always
/// leaving the move at least one ply.
fn reduction(depth: i32, index: usize, pv: bool) -> i32 {
    if depth < 3 || index == 0 {
        return 0;
    }
    let r = ((depth as f64).ln() * ((index + 1) as f64).ln() / 2.0).round() as i32;
    (r - pv as i32).clamp(0, depth - 2)
}

/// Quiet moves searched at a shallow node before the rest are skipped.
fn late_move_limit(depth: i32) -> usize {
    (3 + depth * depth) as usize
}

/// Whether a score says the game is decided.
pub fn is_decisive(score: i32) -> bool {
    score.abs() >= WIN_THRESHOLD
}

impl<'a> Searcher<'a> {
    pub fn new(tt: &'a Tt, limits: Limits<'a>, rule: Rule) -> Searcher<'a> {
        Searcher {
            tt,
            limits,
            nodes: 0,
            sel_depth: 0,
            aborted: false,
            killers: vec![[Pos::NONE; 2]; MAX_PLY + 1],
            history: vec![0; MAX_CELLS],
            counters: vec![Pos::NONE; 2 * MAX_CELLS],
            pv: vec![[Pos::NONE; MAX_PLY]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            move_lists: (0..=MAX_PLY).map(|_| Vec::with_capacity(256)).collect(),
            evals: vec![NO_EVAL; MAX_PLY + 1],
            open_four_wins: !matches!(rule, Rule::CaroOverline | Rule::CaroExact),
            excluded: Vec::new(),
            noise: 0,
            noise_seed: 0,
            vcf_cache: ThreatCache::new(VCF_CACHE_BITS),
            vct_cache: ThreatCache::new(VCT_CACHE_BITS),
            leaf_cache: ThreatCache::new(VCF_CACHE_BITS),
            threat_nodes: 0,
            next_poll: CHECK_INTERVAL,
            threat_space: !matches!(rule, Rule::CaroOverline | Rule::CaroExact),
            rule,
            threads: 1,
            role: smp::Role::Main,
            skipped: [Pos::NONE; MAX_PLY + 1],
            helper_nodes: Arc::new(AtomicU64::new(0)),
            published: 0,
        }
    }

    /// Searches with `n` threads in all (at least one): this one and `n - 1` helpers.
    pub fn with_threads(mut self, n: usize) -> Self {
        self.threads = n.max(1);
        self
    }

    /// Leaves these moves out at the root.
    pub fn excluding(mut self, moves: &[Pos]) -> Self {
        self.excluded = moves.to_vec();
        self
    }

    /// Adds up to `amplitude` of position-keyed noise to static values (levels below full).
    pub fn with_noise(mut self, amplitude: i32, seed: u64) -> Self {
        self.noise = amplitude.max(0);
        self.noise_seed = seed;
        self
    }

    /// The static value a table entry keeps for its position, which spares computing it
    /// again (with a net, a leaf that finds it also skips adding its move's changes to the
    /// net's sums). Weaker levels' noise is keyed by the game, and the table outlives games.
    fn table_eval(&self, hit: &tt::Hit) -> Option<i32> {
        (hit.eval != tt::NO_EVAL && self.noise == 0).then_some(hit.eval)
    }

    fn static_value(&self, b: &mut Board) -> i32 {
        let v = b.evaluate();
        if self.noise == 0 {
            return v;
        }
        let mut state = b.key() ^ self.noise_seed;
        let r = crate::board::splitmix64(&mut state);
        v + (r % (2 * self.noise as u64 + 1)) as i32 - self.noise
    }

    /// Nodes visited: the search's and the threat solvers', on every thread of the search.
    pub fn nodes(&self) -> u64 {
        match self.role {
            smp::Role::Main => self.own_nodes() + self.helper_nodes.load(Relaxed),
            smp::Role::Helper(_) => self.own_nodes(),
        }
    }

    /// Nodes visited on this thread.
    fn own_nodes(&self) -> u64 {
        self.nodes + self.threat_nodes
    }

    /// Searches the position for the side to move and returns the best move found. The board
    /// must have at least one empty point; it is returned unchanged.
    pub fn run(&mut self, b: &mut Board, mut report: impl FnMut(&Iteration)) -> SearchResult {
        let us = b.side_to_move();
        let fallback = self.fallback_move(b);
        // Decisions that need no search: take a five, block the only five of the opponent.
        if let Some(p) = five_point(b, us).filter(|p| !self.excluded.contains(p)) {
            return self.proved(self.single(p, WIN - 1), &mut report);
        }
        if let Some(p) = five_point(b, us.opp()).filter(|p| !self.excluded.contains(p)) {
            if !is_legal(b, p) {
                // Renju: black cannot block on a forbidden point; the game is lost.
                return self.single(fallback, -(WIN - 2));
            }
            let mut probe = b.clone();
            probe.make(p);
            let more = five_point(&probe, us.opp()).is_some();
            return self.single(p, if more { -(WIN - 2) } else { 0 });
        }
        if self.excluded.is_empty() {
            if let Some(win) = self.root_threat_win(b) {
                return self.proved(win, &mut report);
            }
        }
        let mut root = Vec::new();
        generate(b, &mut root, &Refuters::NONE, &self.history, Pos::NONE);
        root.retain(|m| !self.excluded.contains(&m.pos));
        if root.is_empty() && !self.excluded.is_empty() {
            // Everything worth a look is excluded: any other legal move, scored by the eval.
            let mut rest = Vec::new();
            b.for_each_candidate(|p| rest.push(p));
            root = rest
                .into_iter()
                .filter(|p| !self.excluded.contains(p))
                .map(|p| Scored { pos: p, score: 0 })
                .collect();
            root.retain(|m| is_legal(b, m.pos));
        }
        if root.is_empty() {
            return self.single(fallback, 0);
        }
        if root.len() == 1 {
            return self.single(root[0].pos, 0);
        }
        // Time kept back for checking the chosen move against the opponent's threat wins.
        let full_hard = self.limits.hard;
        let defence = if self.threat_space && self.excluded.is_empty() {
            full_hard.saturating_sub(self.limits.start.elapsed()) / DEFENCE_SHARE
        } else {
            Duration::ZERO
        };
        self.limits.hard = full_hard.saturating_sub(defence);
        self.limits.soft = self.limits.soft.min(self.limits.hard);
        let mut best = if self.threads > 1 {
            self.deepen_with_helpers(b, &mut root, &mut report)
        } else {
            self.deepen(b, &mut root, &mut report)
        };
        self.limits.hard = full_hard;
        log::debug!("nodes {} in the search, {} in the threat solvers", self.nodes, self.threat_nodes);
        if defence > Duration::ZERO && !is_decisive(best.score) && !self.stopped() {
            self.avoid_threat_losses(b, &mut best, &root);
        }
        best.nodes = self.nodes();
        if !is_legal(b, best.best) {
            best.best = fallback;
        }
        best
    }

    /// Iterative deepening over the root moves; returns the result of the last finished
    /// iteration (or the best move a cut-short iteration had already proved better).
    fn deepen(
        &mut self,
        b: &mut Board,
        root: &mut [Scored],
        report: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        let mut best =
            SearchResult { best: root[0].pos, score: 0, depth: 0, nodes: 0, pv: vec![root[0].pos] };
        // Scores of the last two iterations: leaves alternate between the sides with the
        // depth, and the side to move's tempo makes odd and even depths differ, so the window
        // is centred on the iteration of the same parity.
        let mut prev_score = [0; 2];
        let mut wins_in_a_row = 0;
        let mut stability = Stability::default();
        let mut last_best = Pos::NONE;
        for depth in 1..=self.limits.max_depth.clamp(1, MAX_DEPTH) {
            if self.skips(depth) {
                continue;
            }
            self.sel_depth = 0;
            let centre = prev_score[depth as usize % 2];
            let (mut lo, mut hi) = if depth >= 5 && !is_decisive(centre) {
                (centre - ASPIRATION, centre + ASPIRATION)
            } else {
                (-INF, INF)
            };
            let (score, done) = loop {
                let first = root[0].pos;
                let (score, best_here) = self.root_search(b, root, lo, hi, depth);
                // A move that beat the standing best in a finished sub-search becomes the
                // standing best, even before its iteration ends: a pass that fails high puts
                // it first for the re-search, so a re-search cut short still plays it. Only a
                // pass that began with the standing best compared its move to it.
                if let Some(p) = best_here.filter(|_| first == best.best) {
                    best.best = p;
                    best.pv = self.pv[0][..self.pv_len[0]].to_vec();
                }
                if self.aborted {
                    break (score, false);
                }
                if score <= lo && lo > -INF {
                    lo = (lo - 4 * ASPIRATION).max(-INF);
                } else if score >= hi && hi < INF {
                    hi = (hi + 4 * ASPIRATION).min(INF);
                } else {
                    break (score, true);
                }
            };
            if !done {
                break;
            }
            // Scores of one parity compare (see `prev_score`).
            let drop = prev_score[depth as usize % 2] - score;
            stability.observe(depth, last_best != Pos::NONE && self.pv[0][0] != last_best, drop);
            last_best = self.pv[0][0];
            prev_score[depth as usize % 2] = score;
            best = SearchResult {
                best: self.pv[0][0],
                score,
                depth,
                nodes: self.nodes(),
                pv: self.pv[0][..self.pv_len[0]].to_vec(),
            };
            report(&Iteration {
                depth,
                sel_depth: self.sel_depth.max(depth),
                score,
                nodes: self.nodes(),
                elapsed: self.limits.start.elapsed(),
                pv: best.pv.clone(),
            });
            // A proven result stops the search once no shorter line can exist, or once a win
            // has held for two iterations (the answer comes at once; a deeper look would only
            // look for a shorter win).
            wins_in_a_row = if score >= WIN_THRESHOLD { wins_in_a_row + 1 } else { 0 };
            let settled = (is_decisive(score) && WIN - score.abs() <= depth) || wins_in_a_row >= 2;
            let soft = stability.soft(self.limits.soft, self.limits.hard);
            if settled || self.limits.start.elapsed() >= soft {
                break;
            }
        }
        best
    }

    /// Whether the manager asked us to stop (the clock aside).
    fn stopped(&self) -> bool {
        (self.limits.stop)()
    }

    /// The instant `share`-th of the hard limit after the start (none if out of range).
    fn deadline(&self, share: u32) -> Option<Instant> {
        self.limits.start.checked_add(self.limits.hard / share)
    }

    /// A win by continuous fours (shortest first) or, where threes must be answered, by
    /// threats; proved wins need no search. The VCF has a budget of its own, larger than
    /// the VCT's: a long VCF (25-30 plies) takes some 20,000 nodes to prove and the search
    /// rarely sees that deep, while a complete look that finds none costs over 12,000 nodes
    /// in only about one position in seventy.
    fn root_threat_win(&mut self, b: &mut Board) -> Option<SearchResult> {
        let stop = self.limits.stop;
        let deadline = self.deadline(ROOT_VCF_SHARE);
        let mut vcf = Solver::vcf(&mut self.vcf_cache, ROOT_VCF_NODES).until(deadline).stopping(stop);
        let mut proof = vcf.shortest_vcf(b);
        let vcf_complete = !vcf.aborted();
        let vcf_nodes = vcf.nodes();
        let mut vct_nodes = 0;
        if proof.is_none() && vcf_complete && self.threat_space {
            // The VCF's failures are cached, so the VCT's own first look at fours is quick.
            let deadline = Instant::now().checked_add(self.limits.hard / ROOT_VCT_SHARE);
            let mut vct = Solver::vct(&mut self.vcf_cache, &mut self.vct_cache, ROOT_VCT_NODES)
                .until(deadline)
                .stopping(stop);
            proof = vct.find_vct(b, ROOT_VCT_DEPTH);
            vct_nodes = vct.nodes();
        }
        self.threat_nodes += vcf_nodes + vct_nodes;
        log::debug!(
            "root threat search: {vcf_nodes} VCF and {vct_nodes} VCT nodes, {} ms, {}",
            self.limits.start.elapsed().as_millis(),
            if proof.is_some() {
                "win"
            } else if vcf_complete {
                "none"
            } else {
                "VCF out of budget"
            }
        );
        let line = proof?.line;
        let first = *line.first()?;
        if !is_legal(b, first) {
            return None;
        }
        Some(SearchResult {
            best: first,
            score: WIN - line.len() as i32,
            depth: 0,
            nodes: self.nodes(),
            pv: line,
        })
    }

    /// Our move must not leave the opponent a threat win the search was too shallow to see:
    /// the search's best moves are checked in order and the first that leaves none is played.
    /// When every one of them loses, the search's choice stands (it delays the loss longest).
    fn avoid_threat_losses(&mut self, b: &mut Board, best: &mut SearchResult, root: &[Scored]) {
        let deadline = self.deadline(1);
        let mut order = vec![best.best];
        order.extend(root.iter().map(|m| m.pos).filter(|&p| p != best.best));
        for (i, &p) in order.iter().take(DEFENCE_CANDIDATES).enumerate() {
            if deadline.is_some_and(|d| Instant::now() >= d) || self.stopped() {
                return;
            }
            b.make(p);
            let stop = self.limits.stop;
            let mut solver = Solver::vct(&mut self.vcf_cache, &mut self.vct_cache, DEFENCE_VCT_NODES)
                .until(deadline)
                .stopping(stop);
            let loses = solver.find_vct(b, DEFENCE_VCT_DEPTH).is_some();
            let unsure = solver.aborted();
            log::debug!("defence check {i}: {} nodes, loses {loses}, unsure {unsure}", solver.nodes());
            self.threat_nodes += solver.nodes();
            b.undo();
            if !loses && (i == 0 || !unsure) {
                if i > 0 {
                    best.best = p;
                    best.pv = vec![p];
                }
                return;
            }
        }
    }

    /// Reports a win proved before any search (a GUI shows it like an iteration: the proof's
    /// plies as the depth, its line as the PV) and returns it.
    fn proved(&self, win: SearchResult, report: &mut impl FnMut(&Iteration)) -> SearchResult {
        let plies = win.pv.len() as i32;
        report(&Iteration {
            depth: plies,
            sel_depth: plies,
            score: win.score,
            nodes: self.nodes(),
            elapsed: self.limits.start.elapsed(),
            pv: win.pv.clone(),
        });
        win
    }

    fn single(&self, p: Pos, score: i32) -> SearchResult {
        SearchResult { best: p, score, depth: 0, nodes: self.nodes(), pv: vec![p] }
    }

    /// Any legal move: a candidate near the stones if possible, else any empty point (in
    /// renju an empty point that is forbidden only if every one is).
    fn fallback_move(&self, b: &mut Board) -> Pos {
        let mut near = Vec::new();
        b.for_each_candidate(|p| near.push(p));
        let mut all = Vec::new();
        b.for_each_empty(|p| all.push(p));
        let first = all.first().copied().unwrap_or(Pos::NONE);
        near.into_iter().chain(all).find(|&p| is_legal(b, p)).unwrap_or(first)
    }

    /// One pass over the root moves; returns the score and the best move of the pass (if a
    /// sub-search finished and raised alpha). Moves are re-ordered best first for the next pass.
    fn root_search(
        &mut self,
        b: &mut Board,
        root: &mut [Scored],
        mut alpha: i32,
        beta: i32,
        depth: i32,
    ) -> (i32, Option<Pos>) {
        let mut best_score = -INF;
        let mut best_move = None;
        self.pv_len[0] = 0;
        for (i, m) in root.iter_mut().enumerate() {
            let p = m.pos;
            b.make(p);
            let score = if i == 0 {
                -self.negamax(b, -beta, -alpha, depth - 1, 1, true)
            } else {
                let s = -self.negamax(b, -alpha - 1, -alpha, depth - 1, 1, false);
                if s > alpha && s < beta && !self.aborted {
                    -self.negamax(b, -beta, -alpha, depth - 1, 1, true)
                } else {
                    s
                }
            };
            b.undo();
            if self.aborted {
                break;
            }
            // A move that failed low sorts below every scored one and behind those before it.
            m.score = if score > alpha { score } else { -INF - i as i32 };
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(p);
                    alpha = score;
                    self.update_pv(0, p);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        // Best first; the rest keep their relative order (stable sort).
        root.sort_by_key(|m| std::cmp::Reverse(m.score));
        (best_score, best_move)
    }

    fn update_pv(&mut self, ply: usize, p: Pos) {
        let child = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = p;
        for k in ply + 1..child {
            self.pv[ply][k] = self.pv[ply + 1][k];
        }
        self.pv_len[ply] = child;
    }

    fn poll(&mut self) {
        // Threat-solver nodes count too: leaves that each run a VCF must not stretch the
        // interval between two looks at the clock.
        let own = self.own_nodes();
        if own < self.next_poll {
            return;
        }
        self.next_poll = own + CHECK_INTERVAL;
        self.publish_nodes();
        if self.limits.start.elapsed() >= self.limits.hard
            || self.nodes() >= self.limits.max_nodes
            || (self.limits.stop)()
        {
            self.aborted = true;
        }
    }

    /// Checks that settle a node before any move is searched. Returns a score when the node
    /// is decided or forced, after playing out a forced block.
    fn threats(&mut self, b: &mut Board, alpha: i32, beta: i32, ply: usize, next: Next) -> Option<i32> {
        let us = b.side_to_move();
        let them = us.opp();
        let ply_i = ply as i32;
        if b.class_count(us, Class::Five) > 0 {
            return Some(WIN - ply_i - 1);
        }
        let their_fives = b.class_count(them, Class::Five);
        if their_fives >= 2 {
            // Two fives can only be blocked one at a time (both may be one point in rare
            // overlapping shapes, so check the point itself).
            let p = five_point(b, them)?;
            b.make(p);
            let still = five_point(b, them).is_some();
            b.undo();
            if still {
                return Some(-(WIN - ply_i - 2));
            }
        }
        if their_fives >= 1 {
            let p = five_point(b, them)?;
            if !is_legal(b, p) {
                return Some(-(WIN - ply_i - 2));
            }
            b.make(p);
            let score = match next {
                Next::Leaf => -self.leaf(b, -beta, -alpha, ply + 1),
                Next::Search { depth, pv } => -self.negamax(b, -beta, -alpha, depth, ply + 1, pv),
            };
            b.undo();
            if score > alpha && !self.aborted {
                self.update_pv(ply, p);
            }
            return Some(score);
        }
        // Renju's black may hold only forbidden open-four points; look for a legal one.
        let renju_black = b.rule() == Rule::Renju && us == Color::Black;
        if self.open_four_wins
            && b.class_count(us, Class::OpenFour) > 0
            && (!renju_black || open_four_point(b, us).is_some())
        {
            return Some(WIN - ply_i - 3);
        }
        // A four-three or a double three wins when the opponent cannot answer with a four: the
        // one reply can block only one of the two lines, and the other becomes an open four.
        // (Not for renju's black, whose open-four point may turn out forbidden.)
        if self.open_four_wins && !renju_black && !b.can_make_four(them) && self.has_double_threat(b) {
            return Some(WIN - ply_i - 5);
        }
        None
    }

    /// Whether the side to move has a four-three or double-three point.
    fn has_double_threat(&self, b: &Board) -> bool {
        let us = b.side_to_move();
        b.class_count(us, Class::FourThree) + b.class_count(us, Class::DoubleThree) > 0
    }

    fn negamax(
        &mut self,
        b: &mut Board,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        pv: bool,
    ) -> i32 {
        self.evals[ply] = NO_EVAL;
        if let Some(score) = self.enter_node(b, ply, MAX_PLY - 1) {
            return score;
        }
        let ply_i = ply as i32;
        alpha = alpha.max(-(WIN - ply_i));
        beta = beta.min(WIN - ply_i - 1);
        if alpha >= beta {
            return alpha;
        }
        if let Some(score) = self.threats(b, alpha, beta, ply, Next::Search { depth, pv }) {
            return score;
        }
        if depth <= 0 {
            return self.leaf(b, alpha, beta, ply);
        }

        let key = b.key();
        // Inside a singular-extension test the table speaks for the whole node, not for the
        // node without its table move: it is neither read nor written.
        let skipped = self.skipped[ply];
        let mut tt_move = Pos::NONE;
        let mut tt_eval = None;
        let mut singular_bound = None;
        if let Some(hit) = self.tt.probe(key).filter(|_| skipped == Pos::NONE) {
            tt_move = if b.is_empty(hit.mv) { hit.mv } else { Pos::NONE };
            tt_eval = self.table_eval(&hit);
            let score = score_from_tt(hit.score, ply_i);
            // A proved win holds at any depth (PentaZen's rule): the deeper search would only
            // look for a shorter one.
            let proved = score >= WIN_THRESHOLD;
            if !pv && (hit.depth >= depth || proved) && hit.bound.cuts(score, alpha, beta) {
                return score;
            }
            if depth >= SINGULAR_DEPTH
                && tt_move != Pos::NONE
                && !is_decisive(score)
                && hit.bound != Bound::Upper
                && hit.depth >= depth - SINGULAR_SLACK
            {
                singular_bound = Some(score - SINGULAR_MARGIN * depth);
            }
        }

        // No move from the table (the node was not searched before, or its entry was
        // replaced): a shallower look costs less and orders the next visit.
        if tt_move == Pos::NONE && depth >= 4 {
            depth -= 1;
        }
        let eval = tt_eval.unwrap_or_else(|| self.static_value(b));
        self.evals[ply] = eval;
        // The static value of a non-PV node that the opponent does not threaten: what futility,
        // razoring and the fail-high reduction weigh.
        let calm_eval =
            (!pv && !is_decisive(beta) && !movepick::under_three_threat(b, b.side_to_move().opp()))
                .then_some(eval);
        if let Some(eval) = calm_eval.filter(|_| !is_decisive(alpha)) {
            if let Some(score) = self.shallow_cut(b, eval, alpha, beta, depth, ply) {
                return score;
            }
        }

        // A node whose static value stands far above beta will most likely fail high whatever
        // it plays: its moves other than fours get a ply less (Rapfi's fail-high reduction).
        let likely_fail_high = depth >= 2 && calm_eval.is_some_and(|e| e >= beta + FAIL_HIGH_MARGIN * depth);

        let mut extend_tt_move = false;
        if let Some(bound) = singular_bound {
            self.skipped[ply] = tt_move;
            let others = self.negamax(b, bound - 1, bound, depth / 2, ply, false);
            self.skipped[ply] = Pos::NONE;
            if self.aborted {
                return 0;
            }
            if others < bound {
                extend_tt_move = true;
            } else if bound >= beta {
                return bound;
            }
            self.pv_len[ply] = ply;
        }
        let counter_slot = b.last_move().map(|l| b.side_to_move() as usize * MAX_CELLS + l.index());
        let refuters = Refuters {
            killers: self.killers[ply],
            counter: counter_slot.map_or(Pos::NONE, |s| self.counters[s]),
        };
        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        // The table's move goes first without generating the rest, which a cutoff spares.
        let mut generated = tt_move == Pos::NONE || !movepick::generates(b, tt_move);
        let first = Scored { pos: tt_move, score: movepick::TT_MOVE_BONUS };
        if generated {
            generate_unordered(b, &mut moves, &refuters, &self.history, tt_move);
            if moves.is_empty() {
                self.move_lists[ply] = moves;
                return b.evaluate();
            }
        } else {
            moves.clear();
            moves.push(first);
        }
        let us = b.side_to_move();
        let defending = movepick::under_three_threat(b, us.opp());
        // A defence against an open three costs its ply (unlike the block of a four): with the
        // small cap of busy nodes, forcing lines already run deep.
        let child = depth - 1;
        let alpha_orig = alpha;
        let mut best_score = -INF;
        let mut best_move = Pos::NONE;
        let busy = is_busy(b);
        let mut cap = if ply >= 2 { move_cap(depth, busy) } else { usize::MAX };
        if ply >= 1 && !busy {
            cap = cap.min(quiet_move_limit(depth));
        }
        let mut i = 0;
        loop {
            if i == moves.len() {
                if generated {
                    break;
                }
                generated = true;
                generate_unordered(b, &mut moves, &refuters, &self.history, tt_move);
                // The table's move, searched already, back to the front.
                match moves.iter().position(|m| m.pos == tt_move) {
                    Some(j) => moves.swap(0, j),
                    None => moves.insert(0, first),
                }
                if i == moves.len() {
                    break;
                }
            }
            if i >= cap && best_score > -WIN_THRESHOLD {
                break;
            }
            let p = pick_next(&mut moves, i).pos;
            if p == skipped {
                i += 1;
                continue;
            }
            let forcing = b.class(p, us) >= Class::Three;
            let quiet = !defending && !forcing;
            // Late quiet moves at shallow depth are rarely best once the ordering has spoken.
            if quiet && !pv && depth <= 3 && i >= late_move_limit(depth) && best_score > -WIN_THRESHOLD {
                i += 1;
                continue;
            }
            // Threats and defences are reduced too: the cap has already left only a few.
            let reduction = reduction(depth, i, pv);
            let child = child - (likely_fail_high && b.class(p, us) < Class::Four) as i32;
            self.tt.prefetch(b.key_after(p));
            b.make(p);
            let mut score;
            if i == 0 {
                let extension = (extend_tt_move && p == tt_move) as i32;
                score = -self.negamax(b, -beta, -alpha, child + extension, ply + 1, pv);
            } else {
                score = -self.negamax(b, -alpha - 1, -alpha, child - reduction, ply + 1, false);
                if score > alpha && reduction > 0 && !self.aborted {
                    score = -self.negamax(b, -alpha - 1, -alpha, child, ply + 1, false);
                }
                if score > alpha && score < beta && pv && !self.aborted {
                    score = -self.negamax(b, -beta, -alpha, child, ply + 1, true);
                }
            }
            b.undo();
            if self.aborted {
                self.move_lists[ply] = moves;
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = p;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, p);
                    if score >= beta {
                        self.reward(ply, p, depth);
                        if let Some(slot) = counter_slot {
                            self.counters[slot] = p;
                        }
                        break;
                    }
                }
            }
            i += 1;
        }
        self.move_lists[ply] = moves;
        if skipped != Pos::NONE {
            return best_score;
        }
        let bound = Bound::of(best_score, alpha_orig, beta);
        self.tt.store(key, best_move, score_to_tt(best_score, ply_i), eval, depth, bound);
        best_score
    }

    /// Shallow nodes far from the window, when the opponent threatens nothing (the caller's
    /// condition for `eval`, the static value): far above beta, the static value stands
    /// (futility, with a ply's less margin where the side to move is improving); far below
    /// alpha, only fours can still help, which the leaf's VCF looks for (razoring).
    fn shallow_cut(
        &mut self,
        b: &mut Board,
        eval: i32,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
    ) -> Option<i32> {
        if depth > FUTILITY_DEPTH {
            return None;
        }
        if eval - futility_margin(depth - self.improving(ply) as i32) >= beta {
            return Some(eval);
        }
        if depth <= RAZOR_DEPTH && eval + razor_margin(depth) < alpha {
            return Some(self.leaf(b, alpha, beta, ply));
        }
        None
    }

    /// Whether the static value at `ply` has risen since the same side's last move (where
    /// either is unknown, it counts as risen: prune less).
    fn improving(&self, ply: usize) -> bool {
        ply < 2 || self.evals[ply - 2] == NO_EVAL || self.evals[ply] > self.evals[ply - 2]
    }

    fn reward(&mut self, ply: usize, p: Pos, depth: i32) {
        let k = &mut self.killers[ply];
        if k[0] != p {
            k[1] = k[0];
            k[0] = p;
        }
        let h = &mut self.history[p.index()];
        *h = (*h + depth * depth).min(1 << 20);
    }

    /// Bookkeeping every node starts with; a score when the node ends here (aborted search,
    /// full board, or the ply limit).
    fn enter_node(&mut self, b: &mut Board, ply: usize, ply_limit: usize) -> Option<i32> {
        self.pv_len[ply] = ply;
        self.nodes += 1;
        self.poll();
        if self.aborted {
            return Some(0);
        }
        self.sel_depth = self.sel_depth.max(ply as i32);
        if b.is_full() {
            return Some(0);
        }
        (ply >= ply_limit).then(|| b.evaluate())
    }

    /// A leaf: the static value, unless the side to move has a continuous-four win that a
    /// quick, narrow VCF finds (PentaZen's leaf check; a search of every four here took most
    /// of the nodes and hid deeper wins from the main search).
    fn leaf(&mut self, b: &mut Board, alpha: i32, beta: i32, ply: usize) -> i32 {
        if let Some(score) = self.enter_node(b, ply, MAX_PLY - 2) {
            return score;
        }
        if let Some(score) = self.threats(b, alpha, beta, ply, Next::Leaf) {
            return score;
        }
        let mut tt_eval = None;
        if let Some(hit) = self.tt.probe(b.key()) {
            let score = score_from_tt(hit.score, ply as i32);
            if hit.bound.cuts(score, alpha, beta) {
                return score;
            }
            tt_eval = self.table_eval(&hit);
        }
        let stand = tt_eval.unwrap_or_else(|| self.static_value(b));
        let us = b.side_to_move();
        let four_makers = b.class_count(us, Class::Four) + b.class_count(us, Class::FourThree);
        if stand >= beta || four_makers == 0 {
            return stand;
        }
        let mut solver = Solver::vcf(&mut self.leaf_cache, LEAF_VCF_NODES).narrow(LEAF_VCF_WIDTH);
        let plies = solver.vcf_plies(b, LEAF_VCF_DEPTH);
        self.threat_nodes += solver.nodes();
        match plies {
            Some(n) => WIN - ply as i32 - n as i32,
            None => stand,
        }
    }
}

#[cfg(test)]
mod tests;
