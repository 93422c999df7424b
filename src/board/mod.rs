//! The board: stones on a padded grid, make/undo, Zobrist key, and the per-point line patterns
//! that evaluation and move ordering read, all kept up to date incrementally.
//!
//! The board also keeps the evaluation's sums — each side's point values and the net's
//! first-layer sums over the empty points, read from the tables of `crate::eval` below it — as
//! Stockfish's position keeps its accumulators; `evaluate` reads them. Where a trained net is
//! chosen (`eval::gnn::select`), the board keeps that net's sums instead, one per side to move.
//!
//! Cells live on a grid padded with `PAD` wall cells on every side (the right padding of one
//! row doubles as the left padding of the next), so a walk of up to five steps from any board
//! point in any direction stays inside the array and meets walls instead of needing bounds
//! checks.

mod zobrist;

use crate::eval::gnn::{self, kernel::Sums as GnnSums, Gnn};
use crate::eval::net::{self, NET_HIDDEN};
use crate::eval::{params, point_tables, Class, Forbid, PatKey, PointEval, PointTables, CLASS_COUNT};
use crate::pattern::{self, cell, slot, LineRule, BLACK, EMPTY, HALF, WALL, WHITE};
use crate::types::{Color, End, Pos, Rule};
use std::sync::Arc;
pub use zobrist::splitmix64;

/// Largest supported board side.
pub const MAX_SIZE: usize = 32;
/// Smallest supported board side.
pub const MIN_SIZE: usize = 5;
/// Wall cells around the board.
pub const PAD: usize = HALF;
/// Cells in the largest padded grid.
pub const MAX_CELLS: usize = (MAX_SIZE + 2 * PAD) * (MAX_SIZE + PAD) + PAD;
/// Length of the per-cell arrays: a power of two, so that an index masked with `SLOT_MASK`
/// needs no bounds check in the stone updates (most of the engine's time).
const SLOTS: usize = MAX_CELLS.next_power_of_two();
const SLOT_MASK: usize = SLOTS - 1;

/// Smallest rectangle holding every stone played so far (it may only grow between undos).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Bounds {
    min_x: i32,
    min_y: i32,
    max_x: i32,
    max_y: i32,
}

impl Bounds {
    const EMPTY: Bounds = Bounds { min_x: i32::MAX, min_y: i32::MAX, max_x: i32::MIN, max_y: i32::MIN };

    fn include(&mut self, x: i32, y: i32) {
        self.min_x = self.min_x.min(x);
        self.min_y = self.min_y.min(y);
        self.max_x = self.max_x.max(x);
        self.max_y = self.max_y.max(y);
    }
}

const CLASS_SLOTS: usize = CLASS_COUNT.next_power_of_two();

#[inline]
fn class_slot(class: Class) -> usize {
    class as usize & (CLASS_SLOTS - 1)
}

/// What a move changed that its undo puts back as it was, instead of recomputing it (an
/// undo used to cost as much as the move; most of the engine's time is these two).
#[derive(Copy, Clone, Debug)]
struct Undo {
    pos: Pos,
    bounds: Bounds,
    /// Length of `trail` before the move: the entries above it are the keys it changed.
    trail: u32,
    class_counts: [[u16; CLASS_SLOTS]; 2],
    five_xor: [usize; 2],
    /// Whether the move updated the sums, which were then saved on `sums`.
    valued: bool,
}

/// The classic evaluation's sums before a valued move.
#[derive(Copy, Clone, Debug)]
struct Sums {
    totals: [[i32; 2]; 2],
    acc: [[i32; 2 * NET_HIDDEN]; 2],
}

/// How far (in points) around a stone empty points become move candidates.
const CANDIDATE_SQUARE: i32 = 2;
const CANDIDATE_LINE: i32 = 3;

#[derive(Clone)]
pub struct Board {
    width: usize,
    height: usize,
    stride: usize,
    rule: Rule,
    dirs: [isize; 4],
    cells: Box<[u8; SLOTS]>,
    /// Per cell and direction: the 20-bit code of its ten line neighbours.
    codes: Box<[[u32; 4]; SLOTS]>,
    /// Per cell and colour: the four line patterns packed as nibbles.
    keys: Box<[[PatKey; 2]; SLOTS]>,
    /// Per cell: how many stones are near enough to make it a move candidate.
    near: Box<[u8; SLOTS]>,
    near_offsets: Vec<isize>,
    /// Per line code: the pattern it gives black (low nibble) and white (high nibble).
    lines: &'static [u8],
    /// Points on each side of a cell that its codes follow (`pattern::reach`): the rest of
    /// the twenty bits stay empty.
    reach: usize,
    points: [&'static PointTables; 2],
    /// Per colour: sums over empty cells of the point values as the side to move's potential
    /// and as the opponent's (the evaluation weighs them differently).
    totals: [[i32; 2]; 2],
    /// Per colour and role (0: as the side to move, 1: as the opponent): the sums over empty
    /// cells of the net's first-layer rows for their shapes.
    acc: [[i32; 2 * NET_HIDDEN]; 2],
    net_rows: &'static [net::Row],
    /// The evaluation weights of the board's rule (its tempo and net).
    weights: &'static params::Weights,
    /// The trained net `evaluate` uses instead of the classic evaluation, if any.
    gnn: Option<Arc<Gnn>>,
    /// Per side to move (that side's view): the sums over every point of the net's `h`,
    /// less `gnn_pending`.
    gnn_sums: [GnnSums; 2],
    /// The last valued move's changes to `gnn_sums`, not yet added: they are added together
    /// (`Gnn::apply`), when `evaluate` or the next move needs them, and a sixth of them
    /// never are (the position is left before either).
    gnn_pending: Vec<gnn::Change>,
    /// The same for a lines net (`gnn_lines`).
    gnn_line_pending: Vec<gnn::LineChange>,
    /// Whether `gnn` is a lines net: it follows the points' line codes, not their shapes.
    gnn_lines: bool,
    /// Per line window: its class from black's view and from white's (`gnn::lines`).
    line_classes: &'static [[u16; 2]],
    /// Number of empty cells of each class, per colour (padded to a power of two, so that a
    /// masked class indexes it without a bounds check).
    class_counts: [[u16; CLASS_SLOTS]; 2],
    /// Per colour: the XOR of the indices of its five points, which names the point itself
    /// when there is only one (the usual case), so finding it needs no scan.
    five_xor: [usize; 2],
    key: u64,
    side: Color,
    stones: usize,
    bounds: Bounds,
    history: Vec<Undo>,
    /// Empty points' keys as they were before the moves of `history` changed them.
    trail: Vec<(u16, [PatKey; 2])>,
    /// The sums before each valued move of `history`.
    sums: Vec<Sums>,
    /// The net's sums before each valued move of `history` while there is a net (the
    /// classic evaluation does not copy them to and fro).
    gnn_saved: Vec<[GnnSums; 2]>,
}

impl Board {
    /// A new empty board. Sizes outside `MIN_SIZE..=MAX_SIZE` are clamped; callers validate.
    pub fn new(width: usize, height: usize, rule: Rule) -> Board {
        let width = width.clamp(MIN_SIZE, MAX_SIZE);
        let height = height.clamp(MIN_SIZE, MAX_SIZE);
        let stride = width + PAD;
        let s = stride as isize;
        let mut near_offsets = Vec::new();
        for dy in -CANDIDATE_LINE..=CANDIDATE_LINE {
            for dx in -CANDIDATE_LINE..=CANDIDATE_LINE {
                let in_square = dx.abs() <= CANDIDATE_SQUARE && dy.abs() <= CANDIDATE_SQUARE;
                let on_line = dx == 0 || dy == 0 || dx.abs() == dy.abs();
                if (dx, dy) != (0, 0) && (in_square || on_line) {
                    near_offsets.push(dy as isize * s + dx as isize);
                }
            }
        }
        let renju = rule == Rule::Renju;
        let black_lines =
            if renju { LineRule::RenjuBlack } else { LineRule::Five(rule.five_rule(Color::Black)) };
        let white_lines = LineRule::Five(rule.five_rule(Color::White));
        let lines = pattern::pair_table(black_lines, white_lines);
        let reach = pattern::reach(black_lines, white_lines);
        let points = [point_tables(rule, renju), point_tables(rule, false)];
        let gnn = gnn::select::net_for(rule, width, height).filter(|n| n.searchable());
        let mut board = Board {
            width,
            height,
            stride,
            rule,
            dirs: [1, s, s + 1, s - 1],
            cells: Box::new([WALL; SLOTS]),
            codes: Box::new([[0; 4]; SLOTS]),
            keys: Box::new([[0; 2]; SLOTS]),
            near: Box::new([0; SLOTS]),
            near_offsets,
            lines,
            reach,
            points,
            totals: [[0; 2]; 2],
            acc: [[0; 2 * NET_HIDDEN]; 2],
            net_rows: params::net_rows(rule),
            weights: params::for_rule(rule),
            gnn_lines: gnn.as_ref().is_some_and(|n| n.lines),
            gnn,
            gnn_sums: [[0; gnn::kernel::DIM]; 2],
            gnn_pending: Vec::with_capacity(128),
            gnn_line_pending: Vec::with_capacity(64),
            line_classes: gnn::lines::classes(),
            class_counts: [[0; CLASS_SLOTS]; 2],
            five_xor: [0; 2],
            key: 0,
            side: Color::Black,
            stones: 0,
            bounds: Bounds::EMPTY,
            history: Vec::with_capacity(width * height),
            trail: Vec::new(),
            sums: Vec::new(),
            gnn_saved: Vec::new(),
        };
        for y in 0..height {
            for x in 0..width {
                let i = board.index(x, y);
                board.cells[i] = EMPTY;
            }
        }
        board.rebuild_patterns();
        board
    }

    /// Recomputes every code, key, total and count from the cells (used once per new board).
    fn rebuild_patterns(&mut self) {
        self.totals = [[0; 2]; 2];
        self.acc = [[0; 2 * NET_HIDDEN]; 2];
        self.gnn_sums = [[0; gnn::kernel::DIM]; 2];
        self.gnn_pending.clear();
        self.gnn_line_pending.clear();
        self.class_counts = [[0; CLASS_SLOTS]; 2];
        self.five_xor = [0; 2];
        for y in 0..self.height {
            for x in 0..self.width {
                let i = self.index(x, y);
                for (d, &step) in self.dirs.iter().enumerate() {
                    let mut code = 0u32;
                    for k in -(self.reach as i32)..=self.reach as i32 {
                        if k != 0 {
                            let n = (i as isize + k as isize * step) as usize;
                            code |= (self.cells[n] as u32) << (2 * slot(k));
                        }
                    }
                    self.codes[i][d] = code;
                }
                self.refresh_keys(i);
                if self.cells[i] == EMPTY {
                    self.enter_totals(i);
                }
                self.gnn_enter(i);
            }
        }
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    pub fn rule(&self) -> Rule {
        self.rule
    }

    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Sets who moves next (positions set up stone by stone need it).
    pub fn set_side_to_move(&mut self, side: Color) {
        if side != self.side {
            self.key ^= zobrist::zobrist().white_to_move;
            self.side = side;
        }
    }

    pub fn key(&self) -> u64 {
        self.key
    }

    /// The key after the side to move plays `p`, without playing it.
    pub fn key_after(&self, p: Pos) -> u64 {
        let z = zobrist::zobrist();
        self.key ^ z.stones[self.side as usize][p.index()] ^ z.white_to_move
    }

    pub fn stone_count(&self) -> usize {
        self.stones
    }

    pub fn is_full(&self) -> bool {
        self.stones == self.width * self.height
    }

    fn index(&self, x: usize, y: usize) -> usize {
        (y + PAD) * self.stride + x + PAD
    }

    /// The point at column `x`, row `y`, or `None` off the board.
    pub fn pos(&self, x: i64, y: i64) -> Option<Pos> {
        let on = (0..self.width as i64).contains(&x) && (0..self.height as i64).contains(&y);
        on.then(|| Pos(self.index(x as usize, y as usize) as u16))
    }

    /// Column and row of a point.
    pub fn xy(&self, p: Pos) -> (usize, usize) {
        let i = p.index();
        (i % self.stride - PAD, i / self.stride - PAD)
    }

    /// Algebraic name (`h8`: letter = column, number = row from 1 at the top), or `x,y` on
    /// boards wider than the alphabet.
    pub fn pos_name(&self, p: Pos) -> String {
        if p == Pos::NONE {
            return "none".to_string();
        }
        let (x, y) = self.xy(p);
        if self.width <= 26 {
            format!("{}{}", (b'a' + x as u8) as char, y + 1)
        } else {
            format!("{x},{y}")
        }
    }

    pub fn get(&self, p: Pos) -> Option<Color> {
        match self.cells.get(p.index()) {
            Some(&BLACK) => Some(Color::Black),
            Some(&WHITE) => Some(Color::White),
            _ => None,
        }
    }

    pub fn is_empty(&self, p: Pos) -> bool {
        self.cells.get(p.index()) == Some(&EMPTY)
    }

    /// Moves in the order they were played or placed.
    pub fn moves(&self) -> impl DoubleEndedIterator<Item = Pos> + ExactSizeIterator + '_ {
        self.history.iter().map(|u| u.pos)
    }

    pub fn last_move(&self) -> Option<Pos> {
        self.history.last().map(|u| u.pos)
    }

    /// The side to move plays `p` (which must be empty and on the board).
    pub fn make(&mut self, p: Pos) {
        self.make_with(p, true);
    }

    /// `make` for the threat solvers, which read classes only: the evaluation's sums
    /// (`totals`, `acc`) stay as they were, so the position must not be evaluated before the
    /// matching `undo_unvalued` (balanced, that pair leaves the sums exact).
    pub fn make_unvalued(&mut self, p: Pos) {
        self.make_with(p, false);
    }

    /// `make`, updating the evaluation's sums or not (`valued`).
    fn make_with(&mut self, p: Pos, valued: bool) {
        debug_assert!(self.is_empty(p));
        self.history.push(Undo {
            pos: p,
            bounds: self.bounds,
            trail: self.trail.len() as u32,
            class_counts: self.class_counts,
            five_xor: self.five_xor,
            valued,
        });
        if valued {
            // The saved sums are whole, so that the undo leaves nothing pending.
            self.gnn_flush();
            self.sums.push(Sums { totals: self.totals, acc: self.acc });
            if self.gnn.is_some() {
                self.gnn_saved.push(self.gnn_sums);
            }
        }
        let (x, y) = self.xy(p);
        self.bounds.include(x as i32, y as i32);
        self.set_stone(p, cell(self.side), valued);
        self.key ^= zobrist::zobrist().stones[self.side as usize][p.index()];
        self.set_side_to_move(self.side.opp());
    }

    /// Puts a `color` stone on the empty point `p` as the next move of the record, whoever
    /// was to move (positions set up stone by stone); the other colour moves next.
    pub fn place(&mut self, p: Pos, color: Color) {
        self.set_side_to_move(color);
        self.make(p);
    }

    /// The same stones, in the same order and with the same side to move, under `rule`
    /// (pattern tables depend on the rule).
    pub fn with_rule(&self, rule: Rule) -> Board {
        let mut board = Board::new(self.width, self.height, rule);
        for (p, color) in self.played() {
            board.place(p, color);
        }
        board.set_side_to_move(self.side);
        board
    }

    /// The moves in order, each with its stone's colour.
    fn played(&self) -> impl Iterator<Item = (Pos, Color)> + '_ {
        self.moves().map(|p| (p, self.get(p).expect("a played stone")))
    }

    /// A board of this size and rule evaluating with `net`, with `moves` played on it in order
    /// and `side` to move: every state it saved for an undo is that board's own (a rare
    /// rebuild, not a search step).
    fn replayed(&self, net: Option<Arc<Gnn>>, moves: &[(Pos, Color)], side: Color) -> Board {
        let mut board = Board::new(self.width, self.height, self.rule);
        board.set_net(net);
        for &(p, color) in moves {
            board.place(p, color);
        }
        board.set_side_to_move(side);
        board
    }

    /// Takes back the last move.
    pub fn undo(&mut self) {
        self.undo_with(true);
    }

    /// Takes back a move of `make_unvalued`.
    pub fn undo_unvalued(&mut self) {
        self.undo_with(false);
    }

    fn undo_with(&mut self, valued: bool) {
        let Some(u) = self.history.pop() else { return };
        debug_assert_eq!(u.valued, valued, "undo of the other kind of move");
        let color = self.get(u.pos).expect("history names a stone");
        self.set_side_to_move(color);
        self.key ^= zobrist::zobrist().stones[color as usize][u.pos.index()];
        self.clear_stone(u.pos);
        // The stone's own keys did not change while it stood (only empty points' keys
        // follow their lines), so they are right for the empty point again.
        while self.trail.len() > u.trail as usize {
            let (n, keys) = self.trail.pop().expect("trail above the mark");
            self.keys[n as usize] = keys;
        }
        self.class_counts = u.class_counts;
        self.five_xor = u.five_xor;
        if u.valued {
            let sums = self.sums.pop().expect("sums of a valued move");
            self.totals = sums.totals;
            self.acc = sums.acc;
            if self.gnn.is_some() {
                self.gnn_sums = self.gnn_saved.pop().expect("net sums of a valued move");
            }
            self.gnn_pending.clear();
            self.gnn_line_pending.clear();
        }
        self.bounds = u.bounds;
    }

    /// Removes the stone at `p`, wherever it is in the move order; the side to move becomes
    /// its colour. Returns false when there is no stone there.
    pub fn take_back(&mut self, p: Pos) -> bool {
        if self.history.last().map(|u| u.pos) == Some(p) {
            self.undo();
            return true;
        }
        let Some(color) = self.get(p) else { return false };
        // The moves after `p` saved states that had `p` on the board: the others are replayed.
        let rest: Vec<(Pos, Color)> = self.played().filter(|&(q, _)| q != p).collect();
        *self = self.replayed(self.gnn.clone(), &rest, color);
        true
    }

    /// Puts a stone on the empty point `p` and brings every dependent code, key, total and
    /// count up to date, saving the keys it changes on `trail`. `valued`: whether the
    /// evaluation's sums follow (see `make_unvalued`).
    fn set_stone(&mut self, p: Pos, cell: u8, valued: bool) {
        // One copy per reach, so that the neighbour loop unrolls and the table index is a
        // constant shift.
        if self.reach == HALF {
            self.set_stone_within::<HALF>(p, cell, valued)
        } else {
            self.set_stone_within::<{ HALF - 1 }>(p, cell, valued)
        }
    }

    fn set_stone_within<const REACH: usize>(&mut self, p: Pos, cell: u8, valued: bool) {
        let i = p.index() & SLOT_MASK;
        self.stones += 1;
        self.leave_totals(i, valued);
        if valued {
            self.gnn_fill(i, cell);
        }
        self.cells[i] = cell;
        let lines = valued && self.gnn_lines;
        Self::each_line_neighbour::<REACH>(self, i, |b, n, d, shift| {
            let old = b.codes[n][d];
            let code = (old & !(3 << shift)) | (cell as u32) << shift;
            b.codes[n][d] = code;
            // Only empty points need their patterns: an occupied point's keep the values
            // they had when it was filled, which its undo needs again.
            if b.cells[n] == EMPTY {
                if lines {
                    b.gnn_line_move(n, d, old);
                }
                let both = b.lines[pattern::window_index(code, REACH)];
                b.update_key(n, d, both, valued);
            }
        });
        for o in 0..self.near_offsets.len() {
            let n = (i as isize + self.near_offsets[o]) as usize & SLOT_MASK;
            self.near[n] += 1;
        }
    }

    /// The undo's share of `set_stone`: the cell, its neighbours' codes and the candidate
    /// counts (keys, counts and sums are restored from what the move saved).
    fn clear_stone(&mut self, p: Pos) {
        let i = p.index() & SLOT_MASK;
        self.stones -= 1;
        self.cells[i] = EMPTY;
        let clear = |b: &mut Board, n: usize, d: usize, shift: u32| {
            b.codes[n][d] = (b.codes[n][d] & !(3 << shift)) | (EMPTY as u32) << shift;
        };
        if self.reach == HALF {
            Self::each_line_neighbour::<HALF>(self, i, clear);
        } else {
            Self::each_line_neighbour::<{ HALF - 1 }>(self, i, clear);
        }
        for o in 0..self.near_offsets.len() {
            let n = (i as isize + self.near_offsets[o]) as usize & SLOT_MASK;
            self.near[n] -= 1;
        }
    }

    /// Calls `f(board, n, d, shift)` for every point `n` on the board within `REACH` steps of
    /// point `i` along direction `d`, where `shift` is the place of `i` in `n`'s code.
    #[inline(always)]
    fn each_line_neighbour<const REACH: usize>(
        &mut self,
        i: usize,
        mut f: impl FnMut(&mut Board, usize, usize, u32),
    ) {
        for d in 0..4 {
            let step = self.dirs[d];
            for k in 1..=REACH as i32 {
                for (n, seen_at) in
                    [(i as isize - k as isize * step, k), (i as isize + k as isize * step, -k)]
                {
                    let n = n as usize & SLOT_MASK;
                    if self.cells[n] != WALL {
                        f(self, n, d, 2 * slot(seen_at));
                    }
                }
            }
        }
    }

    /// Refreshes direction `d` of an empty point's pattern key, keeping totals and counts.
    /// `both`: the line's patterns for black (low nibble) and white.
    #[inline]
    fn update_key(&mut self, n: usize, d: usize, both: u8, valued: bool) {
        let n = n & SLOT_MASK;
        let both = both as PatKey;
        let old = self.keys[n];
        let changed = (0..2).any(|c| (old[c] >> (4 * d)) & 0xF != (both >> (4 * c)) & 0xF);
        if !changed {
            return;
        }
        self.trail.push((n as u16, old));
        if valued && self.gnn.is_some() && !self.gnn_lines {
            let new = [0, 1].map(|c| (old[c] & !(0xF << (4 * d))) | ((both >> (4 * c)) & 0xF) << (4 * d));
            self.gnn_reshape(old, new);
        }
        for c in 0..2 {
            let t = self.points[c];
            let old = self.keys[n][c];
            let pat = (both >> (4 * c)) & 0xF;
            let new = (old & !(0xF << (4 * d))) | pat << (4 * d);
            if new != old {
                self.keys[n][c] = new;
                let (o, e) = (t.get(old), t.get(new));
                self.class_counts[c][class_slot(o.class)] -= 1;
                self.class_counts[c][class_slot(e.class)] += 1;
                if (o.class == Class::Five) != (e.class == Class::Five) {
                    self.five_xor[c] ^= n;
                }
                if valued {
                    self.totals[c][0] += e.value as i32 - o.value as i32;
                    self.totals[c][1] += e.threat as i32 - o.threat as i32;
                    if o.shape != e.shape {
                        self.net_move(c, o.shape, e.shape);
                    }
                }
            }
        }
    }

    #[inline]
    fn point_eval(&self, p: Pos, color: Color) -> &PointEval {
        self.points[color as usize].get(self.keys[p.index()][color as usize])
    }

    /// Both colours' patterns of a line code (black's in the low nibble).
    #[inline]
    fn line_byte(&self, code: u32) -> u8 {
        self.lines[pattern::window_index(code, self.reach)]
    }

    /// The pattern a line code gives colour `c`.
    #[inline]
    fn line_pattern(&self, code: u32, c: usize) -> PatKey {
        (self.line_byte(code) as PatKey >> (4 * c)) & 0xF
    }

    /// Both colours' pattern keys of point `i`, from its codes.
    fn refresh_keys(&mut self, i: usize) {
        for c in 0..2 {
            self.keys[i][c] =
                (0..4).fold(0, |key, d| key | self.line_pattern(self.codes[i][d], c) << (4 * d));
        }
    }

    fn leave_totals(&mut self, i: usize, valued: bool) {
        for c in 0..2 {
            let t = self.points[c];
            let e = t.get(self.keys[i][c]);
            self.class_counts[c][class_slot(e.class)] -= 1;
            if e.class == Class::Five {
                self.five_xor[c] ^= i;
            }
            if valued {
                self.totals[c][0] -= e.value as i32;
                self.totals[c][1] -= e.threat as i32;
                self.net_move(c, e.shape, net::NO_SHAPE);
            }
        }
    }

    /// Counts the empty point `i` into every total (the board's rebuild; an undo restores
    /// the totals its move saved instead).
    fn enter_totals(&mut self, i: usize) {
        for c in 0..2 {
            let t = self.points[c];
            let e = t.get(self.keys[i][c]);
            self.class_counts[c][class_slot(e.class)] += 1;
            if e.class == Class::Five {
                self.five_xor[c] ^= i;
            }
            self.totals[c][0] += e.value as i32;
            self.totals[c][1] += e.threat as i32;
            self.net_move(c, net::NO_SHAPE, e.shape);
        }
    }

    /// The trained nets' features of a point's keys (black's, white's): each its shape, or
    /// where the tables give none (renju black's forbidden points) the rank of its four line
    /// patterns. The training records carry the same (`feature`, written by `datagen`).
    #[inline]
    fn gnn_features(&self, keys: [PatKey; 2]) -> [usize; 2] {
        [0, 1].map(|c| match self.points[c].get(keys[c]).shape {
            net::NO_SHAPE => crate::eval::shape(&crate::eval::unpack(keys[c])),
            s => s as usize,
        })
    }

    /// The feature of the empty point `p` for `color` that the trained nets read (see
    /// `gnn_features`).
    pub fn feature(&self, p: Pos, color: Color) -> u16 {
        self.gnn_features(self.keys[p.index()])[color as usize] as u16
    }

    /// The four line classes (`gnn::lines`) of the empty point `p` from `color`'s view, in
    /// direction order; the lines nets read them, and the training records' side files carry them.
    pub fn line_classes(&self, p: Pos, color: Color) -> [u16; 4] {
        self.window_classes(p.index()).map(|c| c[color as usize])
    }

    /// Point `i`'s four line windows' classes, each from black's view and from white's.
    #[inline]
    fn window_classes(&self, i: usize) -> [[u16; 2]; 4] {
        self.codes[i].map(|code| self.line_classes[pattern::window_index(code, gnn::lines::REACH)])
    }

    /// The (own, opp) table rows, in the view of side `v` to move, of a point holding `cell`
    /// whose features (for an empty point) are `f`.
    #[inline]
    fn gnn_rows(net: &Gnn, cell: u8, f: [usize; 2], v: usize) -> (usize, usize) {
        match cell {
            EMPTY => (f[v], f[1 - v]),
            _ => {
                let stone = net.stone_row((cell == BLACK) == (v == 0));
                (stone, stone)
            }
        }
    }

    /// The (own, opp) rows of a point holding `cell` with features `f`, in both views.
    #[inline]
    fn gnn_change_rows(net: &Gnn, cell: u8, f: [usize; 2]) -> [[u16; 2]; 2] {
        [0, 1].map(|v| {
            let (own, opp) = Self::gnn_rows(net, cell, f, v);
            [own as u16, opp as u16]
        })
    }

    /// An empty point's keys go from `old` to `new` (both colours): both views will follow.
    #[inline]
    fn gnn_reshape(&mut self, old: [PatKey; 2], new: [PatKey; 2]) {
        let Some(net) = &self.gnn else { return };
        let (from, to) = (self.gnn_features(old), self.gnn_features(new));
        if from != to {
            let (add, sub) = (Self::gnn_change_rows(net, EMPTY, to), Self::gnn_change_rows(net, EMPTY, from));
            self.gnn_pending.push(gnn::Change { add, sub });
        }
    }

    /// A lines net's rows of point `i` holding `cell`, in both views: an empty point's four
    /// line classes from its codes, a stone's row and three zero rows.
    #[inline]
    fn gnn_line_rows(&self, net: &Gnn, i: usize, cell: u8) -> [[u16; 4]; 2] {
        if cell != EMPTY {
            return [0, 1].map(|v| [net.stone_row((cell == BLACK) == (v == 0)) as u16, 0, 0, 0]);
        }
        let c = self.window_classes(i);
        [0, 1].map(|v| c.map(|c| c[v]))
    }

    /// The empty point `n`'s code in direction `d` was `old` and is now its current one: a
    /// lines net's sums will follow in both views.
    #[inline]
    fn gnn_line_move(&mut self, n: usize, d: usize, old: u32) {
        let reach = gnn::lines::REACH;
        let (from, to) = (pattern::window_index(old, reach), pattern::window_index(self.codes[n][d], reach));
        if from == to {
            return;
        }
        let Some(net) = &self.gnn else { return };
        let add = self.gnn_line_rows(net, n, EMPTY);
        let mut sub = add;
        for (v, rows) in sub.iter_mut().enumerate() {
            rows[d] = self.line_classes[from][v];
        }
        if add != sub {
            self.gnn_line_pending.push(gnn::LineChange { add, sub });
        }
    }

    /// The empty point `i` takes a stone (`cell`): in each view its row will be the stone's.
    fn gnn_fill(&mut self, i: usize, cell: u8) {
        let Some(net) = &self.gnn else { return };
        if self.gnn_lines {
            let (add, sub) = (self.gnn_line_rows(net, i, cell), self.gnn_line_rows(net, i, EMPTY));
            self.gnn_line_pending.push(gnn::LineChange { add, sub });
            return;
        }
        let f = self.gnn_features(self.keys[i]);
        let (add, sub) = (Self::gnn_change_rows(net, cell, f), Self::gnn_change_rows(net, EMPTY, f));
        self.gnn_pending.push(gnn::Change { add, sub });
    }

    /// Adds the pending changes to the net's sums.
    #[inline]
    fn gnn_flush(&mut self) {
        if self.gnn_pending.is_empty() && self.gnn_line_pending.is_empty() {
            return;
        }
        if let Some(net) = &self.gnn {
            if !self.gnn_pending.is_empty() {
                net.apply(&mut self.gnn_sums, &self.gnn_pending);
            }
            if !self.gnn_line_pending.is_empty() {
                net.apply_lines(&mut self.gnn_sums, &self.gnn_line_pending);
            }
        }
        self.gnn_pending.clear();
        self.gnn_line_pending.clear();
    }

    /// Counts point `i` into the net's sums (the board's rebuild).
    fn gnn_enter(&mut self, i: usize) {
        let Some(net) = &self.gnn else { return };
        if self.gnn_lines {
            let rows = self.gnn_line_rows(net, i, self.cells[i]);
            for (v, rows) in rows.into_iter().enumerate() {
                net.add_line_point(&mut self.gnn_sums[v], rows);
            }
            return;
        }
        let f = self.gnn_features(self.keys[i]);
        for v in 0..2 {
            net.add_point(&mut self.gnn_sums[v], Self::gnn_rows(net, self.cells[i], f, v));
        }
    }

    /// Uses `net` (or the classic evaluation for `None`) from now on; a net that the search
    /// cannot keep sums for (`Gnn::searchable`) counts as `None`.
    pub fn set_net(&mut self, net: Option<Arc<Gnn>>) {
        let net = net.filter(|n| n.searchable());
        let same = match (&net, &self.gnn) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        };
        if same {
            // Nothing to redo (`static-eval` asks this of every record's board).
            return;
        }
        if !self.history.is_empty() {
            // The sums saved for undoing the moves so far are the old net's: the game is
            // replayed under the new one, so that an undo restores the new net's sums.
            let moves: Vec<(Pos, Color)> = self.played().collect();
            *self = self.replayed(net, &moves, self.side);
            return;
        }
        self.gnn = net;
        self.gnn_lines = self.gnn.as_ref().is_some_and(|n| n.lines);
        self.gnn_sums = [[0; gnn::kernel::DIM]; 2];
        self.gnn_pending.clear();
        self.gnn_line_pending.clear();
        for y in 0..self.height {
            for x in 0..self.width {
                let i = self.index(x, y);
                self.gnn_enter(i);
            }
        }
    }

    /// The trained net this board evaluates with, if any.
    pub fn net(&self) -> Option<&Arc<Gnn>> {
        self.gnn.as_ref()
    }

    /// Colour `c`'s net sums: one point's shape goes from `from` to `to`.
    #[inline]
    fn net_move(&mut self, c: usize, from: u16, to: u16) {
        let old = &self.net_rows[net::row_index(from)];
        let new = &self.net_rows[net::row_index(to)];
        let mut acc = self.acc[c];
        for j in 0..2 * NET_HIDDEN {
            acc[j] += new[j] - old[j];
        }
        self.acc[c] = acc;
    }

    /// The point `k` steps from `p` along direction `d` (0 horizontal, 1 vertical, 2 and 3
    /// diagonals). Up to five steps from a board point stay inside the padded grid, where
    /// off-board points read as walls (never empty).
    #[inline]
    pub fn step(&self, p: Pos, d: usize, k: i32) -> Pos {
        debug_assert!(k.abs() <= HALF as i32);
        Pos((p.index() as isize + self.dirs[d] * k as isize) as u16)
    }

    /// What `color` would make by playing the empty point `p`.
    #[inline]
    pub fn class(&self, p: Pos, color: Color) -> Class {
        self.point_eval(p, color).class
    }

    /// `class`, as the move ordering counts it (see `PointEval::sure_class`).
    #[inline]
    pub fn sure_class(&self, p: Pos, color: Color) -> Class {
        self.point_eval(p, color).sure_class()
    }

    /// Renju: what the line patterns alone say about black playing `p` (see `eval::Forbid`);
    /// always `Forbid::Legal` in other rules and for white.
    #[inline]
    pub fn forbid_hint(&self, p: Pos, color: Color) -> Forbid {
        self.point_eval(p, color).forbid
    }

    /// The potential `p` holds for `color`.
    #[inline]
    pub fn point_value(&self, p: Pos, color: Color) -> i32 {
        self.point_eval(p, color).value as i32
    }

    /// The shape of `p` for `color` (`eval::shape`; `NO_SHAPE` where it has no value).
    #[inline]
    pub fn shape(&self, p: Pos, color: Color) -> u16 {
        self.point_eval(p, color).shape
    }

    /// The four line patterns `color` would make at `p`, packed (see `eval::PatKey`).
    #[inline]
    pub fn pattern_key(&self, p: Pos, color: Color) -> crate::eval::PatKey {
        self.keys[p.index()][color as usize]
    }

    /// The four line patterns `color` would make at `p`.
    pub fn patterns(&self, p: Pos, color: Color) -> [pattern::Pat; 4] {
        crate::eval::unpack(self.keys[p.index()][color as usize])
    }

    /// How many empty points would give `color` a shape of `class`.
    #[inline]
    pub fn class_count(&self, color: Color, class: Class) -> u16 {
        self.class_counts[color as usize][class_slot(class)]
    }

    /// `color`'s five point when it has exactly one (`None` when it has none or several).
    #[inline]
    pub fn single_five_point(&self, color: Color) -> Option<Pos> {
        (self.class_count(color, Class::Five) == 1).then(|| Pos(self.five_xor[color as usize] as u16))
    }

    /// Whether `color` has any point that makes a four or better.
    #[inline]
    pub fn can_make_four(&self, color: Color) -> bool {
        self.four_point_count(color) > 0
    }

    /// How many empty points make a four or better for `color`.
    #[inline]
    pub fn four_point_count(&self, color: Color) -> usize {
        [Class::Four, Class::FourThree, Class::OpenFour, Class::Five]
            .iter()
            .map(|&c| self.class_count(color, c) as usize)
            .sum()
    }

    /// Static value for the side to move.
    pub fn evaluate(&mut self) -> i32 {
        self.gnn_flush();
        let Some(net) = &self.gnn else { return self.classic_value() };
        let logit = net.value(&self.gnn_sums[self.side as usize], self.width * self.height);
        let value = ((logit as i64 * gnn::VALUE_UNITS as i64) >> net.q_act) as i32;
        if net.residual {
            self.classic_value() + value
        } else {
            value
        }
    }

    /// The classic evaluation: point values and the small net over them.
    fn classic_value(&self) -> i32 {
        let own = self.totals[self.side as usize][0];
        let opp = self.totals[self.side.opp() as usize][1];
        own - opp + self.weights.tempo + self.net_value()
    }

    /// The net's share of `evaluate` (the rest is linear in the point features).
    pub fn net_value(&self) -> i32 {
        net::output(
            self.weights.net,
            &self.acc[self.side as usize],
            &self.acc[self.side.opp() as usize],
            self.stones,
        )
    }

    /// Calls `f` for every empty point near a stone (the whole board is empty: nothing).
    pub fn for_each_candidate(&self, mut f: impl FnMut(Pos)) {
        if self.stones == 0 {
            return;
        }
        let b = self.bounds;
        let (w, h) = (self.width as i32, self.height as i32);
        let reach = CANDIDATE_LINE;
        for y in (b.min_y - reach).max(0)..=(b.max_y + reach).min(h - 1) {
            let row = self.index(0, y as usize);
            for x in (b.min_x - reach).max(0)..=(b.max_x + reach).min(w - 1) {
                let i = row + x as usize;
                if self.cells[i] == EMPTY && self.near[i] > 0 {
                    f(Pos(i as u16));
                }
            }
        }
    }

    /// Whether `p` is one of the points `for_each_candidate` visits.
    #[inline]
    pub fn is_candidate(&self, p: Pos) -> bool {
        self.is_empty(p) && self.near[p.index() & SLOT_MASK] > 0
    }

    /// Calls `f` for every empty point on the board.
    pub fn for_each_empty(&self, mut f: impl FnMut(Pos)) {
        for y in 0..self.height {
            for x in 0..self.width {
                let i = self.index(x, y);
                if self.cells[i] == EMPTY {
                    f(Pos(i as u16));
                }
            }
        }
    }

    /// Whether `color` playing the empty point `p` makes a winning five, by a direct scan of
    /// the board (independent of the pattern tables, which tests compare against it).
    pub fn makes_five(&self, p: Pos, color: Color) -> bool {
        let rule = self.rule.five_rule(color);
        let own = cell(color);
        let opp = cell(color.opp());
        let i = p.index() as isize;
        self.dirs.iter().any(|&step| {
            let walk = |dir: isize| {
                let mut n = 0;
                let mut at = i + dir * step;
                while self.cells[at as usize] == own {
                    n += 1;
                    at += dir * step;
                }
                let end = if self.cells[at as usize] == opp { End::Opponent } else { End::Open };
                (n, end)
            };
            let (back, back_end) = walk(-1);
            let (fwd, fwd_end) = walk(1);
            rule.is_five(back + fwd + 1, (back_end, fwd_end))
        })
    }

    /// Whether the stone at `p` is part of a winning five for its colour.
    pub fn is_win_at(&self, p: Pos) -> bool {
        // `makes_five` never reads the point itself, so it judges the stone already there.
        self.get(p).is_some_and(|color| self.makes_five(p, color))
    }

    /// Reads a board from text: one row per line, `x` black, `o` white, `.` empty; spaces
    /// ignored. White moves next when black has one stone more, else black.
    pub fn from_ascii(text: &str, rule: Rule) -> Board {
        let rows: Vec<Vec<char>> = text
            .lines()
            .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
            .filter(|r| !r.is_empty())
            .collect();
        let height = rows.len();
        let width = rows.iter().map(|r| r.len()).max().unwrap_or(0);
        let mut board = Board::new(width, height, rule);
        let mut counts = [0usize; 2];
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.iter().enumerate() {
                let color = match ch {
                    'x' | 'X' => Color::Black,
                    'o' | 'O' => Color::White,
                    _ => continue,
                };
                let p = board.pos(x as i64, y as i64).expect("on board");
                board.place(p, color);
                counts[color as usize] += 1;
            }
        }
        let side = if counts[0] > counts[1] { Color::White } else { Color::Black };
        board.set_side_to_move(side);
        board
    }

    /// The board as text, in the format `from_ascii` reads.
    pub fn to_ascii(&self) -> String {
        let mut out = String::new();
        for y in 0..self.height {
            for x in 0..self.width {
                let p = Pos(self.index(x, y) as u16);
                out.push(match self.get(p) {
                    Some(Color::Black) => 'x',
                    Some(Color::White) => 'o',
                    None => '.',
                });
            }
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests;
