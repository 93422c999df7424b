//! The trainer's net (GNN1, `scripts/train/`): reads a GNN1 weight file and computes its integer
//! forward pass, value and per-point policy logits, bit for bit as `scripts/train/reference.py`
//! (the spec; the format and the arithmetic are documented in `scripts/train/README.md`).
//!
//! Below the board: the inputs are plain per-point values (`Point`), each an empty point's two
//! shape indices from the side to move's view or a stone of either side, as GRN1 records carry
//! them (`Point::from_record`). The board keeps the sums of step 1 for both sides to move as
//! stones come and go (`kernel`), so the search pays for steps 3 to 5 only; `select` names the
//! net each rule and board size uses.

pub mod kernel;
pub mod lines;
pub mod select;

use crate::eval::SHAPE_COUNT;
use crate::types::Color;
pub use kernel::{Change, LineChange};
use kernel::{Kernel, Sums, DIM};
use std::fmt;

pub const MAGIC: &[u8; 4] = b"GNN1";
/// Evaluation units of a value logit of 1: the scale of the trainer's value target
/// (`--value-scale`, sigmoid(search value / 600)), so that the net speaks the search's units.
pub const VALUE_UNITS: i32 = 600;
pub const VERSION: u16 = 1;
/// Bytes of the header; the arrays follow.
pub const HEADER_BYTES: usize = 24;
/// The one value output version 1 knows.
const OUTPUTS: u16 = 1;
/// Header flag: the value is a correction added to the classic evaluation (`--residual`).
pub const FLAG_RESIDUAL: u16 = 1;
/// Header flag: a lines net. Its points read the four line classes of `lines` (`shape_count`
/// is their number) through one table instead of two shape indices through two; every table
/// entry lies within +/-`LINE_ENTRY_MAX` and row 0 is zero.
pub const FLAG_LINES: u16 = 2;
/// Largest table entry of a lines net: four sum exactly in i16.
pub const LINE_ENTRY_MAX: i16 = 8191;
/// Largest scale exponents accepted: with activations at most 2^20 a sum over the largest
/// board (32 x 32 = 2^10 points) still fits i32. The trainer writes 10 and 10.
const MAX_Q: u8 = 20;

/// What a GNN1 header holds besides the magic, the version, the output count and the
/// payload's length: the sizes, the scale exponents and the flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    pub dim: u16,
    pub shape_count: u32,
    pub hidden: u16,
    pub q_act: u8,
    pub q_weight: u8,
    pub flags: u16,
}

impl Header {
    /// A whole GNN1 file: this header, then `payload`, the arrays in file order. The trainer
    /// writes the nets that ship (scripts/train/gnn.py); this writes the nets tests make.
    pub fn file(&self, payload: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_BYTES + payload.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&self.dim.to_le_bytes());
        out.extend_from_slice(&self.shape_count.to_le_bytes());
        out.extend_from_slice(&self.hidden.to_le_bytes());
        out.extend_from_slice(&OUTPUTS.to_le_bytes());
        out.extend_from_slice(&[self.q_act, self.q_weight]);
        out.extend_from_slice(&self.flags.to_le_bytes());
        out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        out.extend_from_slice(payload);
        out
    }
}

/// A GNN1 file that cannot be used; the message says why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GnnError(String);

impl fmt::Display for GnnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GNN1: {}", self.0)
    }
}

impl std::error::Error for GnnError {}

fn error<T>(message: String) -> Result<T, GnnError> {
    Err(GnnError(message))
}

/// One point of the board as the net sees it, from the side to move's view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Point {
    /// An empty point: its shape index for the side to move and for the other side.
    Empty { own: u16, opp: u16 },
    /// An empty point of a lines net: its four line classes from the side to move's view.
    Lines([u16; 4]),
    /// A stone of the side to move (table row S in both tables).
    OwnStone,
    /// A stone of the other side (table row S + 1 in both tables).
    OppStone,
}

impl Point {
    /// A point from a GRN1 record's fields (`records.inputs`): its cell (`None` empty), its
    /// features (shape for black, shape for white) and the side to move.
    pub fn from_record(cell: Option<Color>, features: [u16; 2], to_move: Color) -> Point {
        match cell {
            None if to_move == Color::Black => Point::Empty { own: features[0], opp: features[1] },
            None => Point::Empty { own: features[1], opp: features[0] },
            Some(c) if c == to_move => Point::OwnStone,
            Some(_) => Point::OppStone,
        }
    }
}

/// The forward pass's result: logits at scale 2^q_act.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Output {
    /// The logit of the side to move's expected score.
    pub value: i32,
    /// A logit per point in input order; `None` on occupied points (not moves).
    pub policy: Vec<Option<i32>>,
}

/// A GNN1 net: the header's sizes and scales and the arrays in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gnn {
    pub shape_count: usize,
    pub dim: usize,
    pub hidden: usize,
    pub q_act: u32,
    pub q_weight: u32,
    /// The value corrects the classic evaluation instead of replacing it (`FLAG_RESIDUAL`).
    pub residual: bool,
    /// A lines net (`FLAG_LINES`): `emb_own` is its one table, `emb_opp` is empty.
    pub lines: bool,
    kernel: Kernel,
    /// (S + 2) x D, row-major: row = shape index, S own stone, S + 1 other stone.
    emb_own: Vec<i16>,
    emb_opp: Vec<i16>,
    policy_w: Vec<i16>,
    policy_b: i32,
    /// H x D, row j = hidden unit j.
    value1_w: Vec<i16>,
    value1_b: Vec<i32>,
    value2_w: Vec<i16>,
    value2_b: i32,
}

/// Reads little-endian numbers from the front of a byte slice, failing at its end.
struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
}

impl Bytes<'_> {
    fn take<const N: usize>(&mut self, what: &str) -> Result<[u8; N], GnnError> {
        match self.data.get(self.at..self.at + N) {
            Some(b) => {
                self.at += N;
                let mut out = [0; N];
                out.copy_from_slice(b);
                Ok(out)
            }
            None => error(format!("truncated at {what} (offset {}, {} bytes)", self.at, self.data.len())),
        }
    }

    fn u8(&mut self, what: &str) -> Result<u8, GnnError> {
        self.take::<1>(what).map(|b| b[0])
    }

    fn u16(&mut self, what: &str) -> Result<u16, GnnError> {
        self.take(what).map(u16::from_le_bytes)
    }

    fn u32(&mut self, what: &str) -> Result<u32, GnnError> {
        self.take(what).map(u32::from_le_bytes)
    }

    fn i16s(&mut self, count: usize, what: &str) -> Result<Vec<i16>, GnnError> {
        (0..count).map(|_| self.take(what).map(i16::from_le_bytes)).collect()
    }

    fn i32s(&mut self, count: usize, what: &str) -> Result<Vec<i32>, GnnError> {
        (0..count).map(|_| self.take(what).map(i32::from_le_bytes)).collect()
    }
}

/// Hidden units the search's value path keeps on the stack; a wider net takes `value_head`.
const MAX_HIDDEN: usize = 64;

/// Division of numbers below 2^25 by a fixed divisor of at most 1024 as a multiply and a
/// shift (Granlund and Montgomery's round-up method: with `l` = ceil(log2 n) and
/// `m` = ceil(2^(25 + l) / n), `(x m) >> (25 + l)` is `x / n` for every x < 2^25), so that the
/// value's 32 means cost one division.
struct Reciprocal {
    m: u64,
    shift: u32,
}

impl Reciprocal {
    const BITS: u32 = 25;

    fn new(n: u32) -> Reciprocal {
        debug_assert!((1..=1024).contains(&n));
        let l = 32 - (n - 1).leading_zeros();
        let shift = Self::BITS + l;
        Reciprocal { m: (1u64 << shift).div_ceil(u64::from(n)), shift }
    }

    #[inline]
    fn of(&self, x: u32) -> u32 {
        debug_assert!(x < 1 << Self::BITS);
        ((u64::from(x) * self.m) >> self.shift) as u32
    }
}

/// `x / 2^shift` rounded half up: `(x + 2^(shift-1)) >> shift`, an arithmetic (floor) shift.
/// The sum is taken in i64: `check_bounds` keeps `x` within i32, not `x` plus the half.
fn shift_round(x: i32, shift: u32) -> i32 {
    ((i64::from(x) + (1i64 << (shift - 1))) >> shift) as i32
}

impl Gnn {
    /// Reads a GNN1 file: checks magic, version, outputs = 1, flags, the scales, that
    /// the payload is exactly the arrays, and that no i32 sum of the forward pass can overflow.
    pub fn from_bytes(data: &[u8]) -> Result<Gnn, GnnError> {
        let mut r = Bytes { data, at: 0 };
        if data.len() < HEADER_BYTES {
            return error(format!("truncated header ({} of {HEADER_BYTES} bytes)", data.len()));
        }
        let magic: [u8; 4] = r.take("magic")?;
        if &magic != MAGIC {
            return error(format!("bad magic {magic:?} (expected {MAGIC:?})"));
        }
        let version = r.u16("version")?;
        if version != VERSION {
            return error(format!("version {version} (this reader knows {VERSION})"));
        }
        let dim = usize::from(r.u16("dim")?);
        let shape_count = r.u32("shape_count")? as usize;
        let hidden = usize::from(r.u16("hidden")?);
        let outputs = r.u16("outputs")?;
        let q_act = r.u8("q_act")?;
        let q_weight = r.u8("q_weight")?;
        let flags = r.u16("flags")?;
        let payload = r.u32("payload")? as usize;
        let known = FLAG_RESIDUAL | FLAG_LINES;
        if outputs != OUTPUTS || flags & !known != 0 {
            return error(format!(
                "outputs {outputs} / flags {flags} (expected {OUTPUTS} / {known} at most)"
            ));
        }
        let lines = flags & FLAG_LINES != 0;
        let tables = if lines { 1 } else { 2 };
        if q_act > MAX_Q || !(1..=MAX_Q).contains(&q_weight) {
            return error(format!("q_act {q_act} / q_weight {q_weight} (allowed 0..={MAX_Q} / 1..={MAX_Q})"));
        }
        // Sizes in u64 (a u32 shape_count times a u16 width cannot overflow it).
        let rows = shape_count as u64 + 2;
        let (d, h) = (dim as u64, hidden as u64);
        let need = tables * (2 * rows * d) + 2 * d + 4 + 2 * h * d + 4 * h + 2 * h + 4;
        if payload as u64 != need || (data.len() - HEADER_BYTES) as u64 != need {
            return error(format!(
                "{} bytes, header says {}, the arrays need {}",
                data.len(),
                HEADER_BYTES + payload,
                HEADER_BYTES as u64 + need
            ));
        }
        let table = (shape_count + 2) * dim;
        let net = Gnn {
            shape_count,
            dim,
            hidden,
            q_act: u32::from(q_act),
            q_weight: u32::from(q_weight),
            residual: flags & FLAG_RESIDUAL != 0,
            lines,
            kernel: Kernel::detect(),
            emb_own: r.i16s(table, "emb_own")?,
            emb_opp: if lines { Vec::new() } else { r.i16s(table, "emb_opp")? },
            policy_w: r.i16s(dim, "policy_w")?,
            policy_b: r.i32s(1, "policy_b")?[0],
            value1_w: r.i16s(hidden * dim, "value1_w")?,
            value1_b: r.i32s(hidden, "value1_b")?,
            value2_w: r.i16s(hidden, "value2_w")?,
            value2_b: r.i32s(1, "value2_b")?[0],
        };
        net.check_bounds()?;
        if lines {
            if net.emb_own.iter().any(|&x| x.abs() > LINE_ENTRY_MAX) {
                return error(format!("a lines table entry beyond +/-{LINE_ENTRY_MAX}"));
            }
            if net.emb_own.iter().take(dim).any(|&x| x != 0) {
                return error("a lines table whose row 0 is not zero".to_owned());
            }
        }
        Ok(net)
    }

    /// Steps 3 to 5: the value logit from the sums of `h` over all `n` points.
    fn value_head(&self, sums: &[i32], n: usize) -> i32 {
        let (dim, top) = (self.dim, 1i32 << self.q_act);
        // 3. The mean over all points, rounded half up (non-negative, integer division).
        let n = n as i32;
        let mean: Vec<i32> = sums.iter().map(|&s| (s + n / 2) / n).collect();
        // 4. D -> hidden, clipped ReLU; 5. hidden -> 1.
        let mut value = self.value2_b;
        for j in 0..self.hidden {
            let w = &self.value1_w[j * dim..(j + 1) * dim];
            let z: i32 = mean.iter().zip(w).map(|(&m, &w)| m * i32::from(w)).sum();
            let a = shift_round(self.value1_b[j] + z, self.q_weight).clamp(0, top);
            value += a * i32::from(self.value2_w[j]);
        }
        shift_round(value, self.q_weight)
    }

    /// Reads a GNN1 file the search can use (`searchable`); the error says why not.
    pub fn load_searchable(path: &str) -> Result<Gnn, String> {
        let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
        let net = Gnn::from_bytes(&bytes).map_err(|e| e.to_string())?;
        match net.unsearchable() {
            Some(why) => Err(why),
            None => Ok(net),
        }
    }

    /// Whether the search can keep this net's sums (`unsearchable` says why not).
    pub fn searchable(&self) -> bool {
        self.unsearchable().is_none()
    }

    /// Why the search cannot keep this net's sums, if it cannot: the kernels must take D
    /// (`kernel::supports`), the tables need a row for every shape the board's features name
    /// and every row, the stones' two included, must fit the u16 of a `Change`, and an
    /// activation must fit i16 (the kernels work in i16).
    pub fn unsearchable(&self) -> Option<String> {
        let most_shapes = usize::from(u16::MAX) - 1;
        if !kernel::supports(self.dim) {
            Some(format!("D = {} (the search needs {} or {})", self.dim, DIM, DIM / 2))
        } else if self.lines && self.shape_count != lines::CLASS_COUNT {
            Some(format!(
                "{} line classes (the board's windows have {})",
                self.shape_count,
                lines::CLASS_COUNT
            ))
        } else if !self.lines && self.shape_count < SHAPE_COUNT {
            Some(format!("{} shapes (the board's features need {SHAPE_COUNT})", self.shape_count))
        } else if self.shape_count > most_shapes {
            Some(format!("{} shapes (the search takes at most {most_shapes})", self.shape_count))
        } else if self.q_act > 14 {
            Some(format!("q_act {} (the search needs at most 14)", self.q_act))
        } else {
            None
        }
    }

    /// The table row of a stone of the side to move (`own`) or of the other side, in a view.
    pub fn stone_row(&self, own: bool) -> usize {
        if own {
            self.shape_count
        } else {
            self.shape_count + 1
        }
    }

    /// Adds each change's `h` differences to both views' sums (`Kernel::apply`). The net
    /// must be `searchable`; a row beyond its tables panics.
    #[inline]
    pub fn apply(&self, sums: &mut [Sums; 2], changes: &[Change]) {
        let top = (1i32 << self.q_act) as i16;
        self.kernel.apply(sums, &self.emb_own, &self.emb_opp, changes, self.dim, top);
    }

    /// `apply` for a lines net's changes.
    #[inline]
    pub fn apply_lines(&self, sums: &mut [Sums; 2], changes: &[LineChange]) {
        let top = (1i32 << self.q_act) as i16;
        self.kernel.apply_lines(sums, &self.emb_own, changes, self.dim, top);
    }

    /// `sums += h(rows)` for one point of a lines net (a board's rebuild).
    pub fn add_line_point(&self, sums: &mut Sums, rows: [u16; 4]) {
        let top = (1i32 << self.q_act) as i16;
        for (d, sum) in sums.iter_mut().take(self.dim).enumerate() {
            *sum += kernel::line_activation(&self.emb_own, rows, self.dim, d, top);
        }
    }

    /// `sums += h(rows)` for one point (a board's rebuild).
    pub fn add_point(&self, sums: &mut Sums, (own, opp): (usize, usize)) {
        let top = (1i32 << self.q_act) as i16;
        let dim = self.dim;
        for (d, sum) in sums.iter_mut().take(dim).enumerate() {
            *sum += kernel::activation(self.emb_own[own * dim + d], self.emb_opp[opp * dim + d], top);
        }
    }

    /// The value logit (scale 2^q_act) of a board of `n` points whose view has these sums:
    /// `value_head`'s result, bit for bit (tested), without its allocation and divisions.
    /// The search calls it at every leaf.
    pub fn value(&self, sums: &Sums, n: usize) -> i32 {
        // The means must fit i16 (activations of at most 2^14) and the division's numerators
        // 2^25 (at most 1024 points); otherwise the definition answers.
        if !self.searchable() || !(1..=1024).contains(&n) || self.hidden > MAX_HIDDEN {
            return self.value_head(sums, n);
        }
        let mut mean = [0i16; DIM];
        let mean = &mut mean[..self.dim];
        let divide = Reciprocal::new(n as u32);
        for (m, &s) in mean.iter_mut().zip(sums) {
            debug_assert!((0..=1 << 24).contains(&s));
            *m = divide.of(s as u32 + n as u32 / 2) as i16;
        }
        let mut z = [0i32; MAX_HIDDEN];
        let z = &mut z[..self.hidden];
        self.kernel.dots(mean, &self.value1_w, z);
        let top = 1i32 << self.q_act;
        let mut value = self.value2_b;
        for ((&z, &b), &w) in z.iter().zip(&self.value1_b).zip(&self.value2_w) {
            let a = shift_round(b + z, self.q_weight).clamp(0, top);
            value += a * i32::from(w);
        }
        shift_round(value, self.q_weight)
    }

    /// The policy logit (scale 2^q_act) of an empty point with these (own, opp) table rows.
    pub fn policy(&self, own: usize, opp: usize) -> i32 {
        debug_assert!(self.searchable());
        let top = (1i32 << self.q_act) as i16;
        let dot: i32 = (0..self.dim)
            .map(|d| {
                let h = kernel::activation(
                    self.emb_own[own * self.dim + d],
                    self.emb_opp[opp * self.dim + d],
                    top,
                );
                h * i32::from(self.policy_w[d])
            })
            .sum();
        shift_round(self.policy_b + dot, self.q_weight)
    }

    /// Every dot product plus its bias fits i32 for activations in [0, 2^q_act]
    /// (`gnn.check_bounds`).
    fn check_bounds(&self) -> Result<(), GnnError> {
        let top = 1i64 << self.q_act;
        let worst =
            |w: &[i16], b: i32| w.iter().map(|&x| i64::from(x).abs()).sum::<i64>() * top + i64::from(b).abs();
        let mut layers = vec![("policy", worst(&self.policy_w, self.policy_b))];
        for (j, &b) in self.value1_b.iter().enumerate() {
            layers.push(("value layer 1", worst(&self.value1_w[j * self.dim..(j + 1) * self.dim], b)));
        }
        layers.push(("value layer 2", worst(&self.value2_w, self.value2_b)));
        match layers.into_iter().find(|&(_, w)| w > i64::from(i32::MAX)) {
            Some((what, w)) => error(format!("{what}: an i32 accumulator could overflow ({w})")),
            None => Ok(()),
        }
    }

    /// A point's sum of table rows before the activation: two rows of the two tables, or a
    /// lines net's four of its one (a stone's row and three zero rows).
    fn preactivation(&self, p: Point) -> Result<Vec<i32>, GnnError> {
        let dim = self.dim;
        let row = |table: &[i16], r: usize, d: usize| i32::from(table[r * dim + d]);
        if self.lines {
            let rows = match p {
                Point::Lines(c) if c.iter().all(|&c| usize::from(c) < self.shape_count) => c.map(usize::from),
                Point::Lines(c) => {
                    return error(format!("line class {:?} >= {}", c, self.shape_count));
                }
                Point::OwnStone => [self.shape_count, 0, 0, 0],
                Point::OppStone => [self.shape_count + 1, 0, 0, 0],
                Point::Empty { .. } => return error("a shape point given to a lines net".to_owned()),
            };
            return Ok((0..dim).map(|d| rows.iter().map(|&r| row(&self.emb_own, r, d)).sum()).collect());
        }
        let (own, opp) = self.rows(p)?;
        Ok((0..dim).map(|d| row(&self.emb_own, own, d) + row(&self.emb_opp, opp, d)).collect())
    }

    /// The table row of a point (both tables use the same row).
    fn rows(&self, p: Point) -> Result<(usize, usize), GnnError> {
        match p {
            Point::Lines(_) => error("a lines point given to a shapes net".to_owned()),
            Point::Empty { own, opp } => {
                let (own, opp) = (usize::from(own), usize::from(opp));
                if own >= self.shape_count || opp >= self.shape_count {
                    return error(format!(
                        "shape index {} >= shape_count {}",
                        own.max(opp),
                        self.shape_count
                    ));
                }
                Ok((own, opp))
            }
            Point::OwnStone => Ok((self.shape_count, self.shape_count)),
            Point::OppStone => Ok((self.shape_count + 1, self.shape_count + 1)),
        }
    }

    /// The integer forward pass (reference.py) over all points of a board, in any fixed order
    /// (the trainer's is row-major). Fails on an empty board list or a shape index beyond
    /// shape_count.
    pub fn forward(&self, points: &[Point]) -> Result<Output, GnnError> {
        if points.is_empty() {
            return error("no points".to_owned());
        }
        let (dim, top) = (self.dim, 1i32 << self.q_act);
        let mut sums = vec![0i32; dim];
        let mut policy = Vec::with_capacity(points.len());
        let mut h = vec![0i32; dim];
        for &p in points {
            // 1. The table rows summed, clipped to [0, 2^q_act] (clipped ReLU).
            let pre = self.preactivation(p)?;
            for d in 0..dim {
                h[d] = pre[d].clamp(0, top);
                sums[d] += h[d];
            }
            // 2. Policy on empty points: a dot product plus the bias, back to scale 2^q_act.
            policy.push(match p {
                Point::Empty { .. } | Point::Lines(_) => {
                    let dot: i32 = h.iter().zip(&self.policy_w).map(|(&x, &w)| x * i32::from(w)).sum();
                    Some(shift_round(self.policy_b + dot, self.q_weight))
                }
                _ => None,
            });
        }
        Ok(Output { value: self.value_head(&sums, points.len()), policy })
    }
}

/// A lines net of width `dim` with random weights (tests): table entries within +/-`spread`,
/// row 0 zero, small dense weights.
#[cfg(test)]
pub fn random_lines_net(dim: usize, hidden: usize, spread: i16, residual: bool, seed: u64) -> Gnn {
    let mut state = seed;
    let mut next =
        |range: i32| (crate::board::splitmix64(&mut state) % (2 * range as u64 + 1)) as i32 - range;
    let mut payload = Vec::new();
    let i16s = |payload: &mut Vec<u8>, n: usize, range: i32, next: &mut dyn FnMut(i32) -> i32| {
        for _ in 0..n {
            payload.extend_from_slice(&(next(range) as i16).to_le_bytes());
        }
    };
    payload.extend(std::iter::repeat_n(0u8, 2 * dim));
    i16s(&mut payload, (lines::CLASS_COUNT + 1) * dim, i32::from(spread), &mut next);
    i16s(&mut payload, dim, 300, &mut next);
    payload.extend_from_slice(&next(1000).to_le_bytes());
    i16s(&mut payload, hidden * dim, 300, &mut next);
    for _ in 0..hidden {
        payload.extend_from_slice(&next(100_000).to_le_bytes());
    }
    i16s(&mut payload, hidden, 600, &mut next);
    payload.extend_from_slice(&next(1000).to_le_bytes());
    let flags = FLAG_LINES | if residual { FLAG_RESIDUAL } else { 0 };
    let header = Header {
        dim: dim as u16,
        shape_count: lines::CLASS_COUNT as u32,
        hidden: hidden as u16,
        q_act: 10,
        q_weight: 10,
        flags,
    };
    Gnn::from_bytes(&header.file(&payload)).expect("a valid lines net")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A GNN1 file with S = 2, D = 2, H = 1 and the given arrays' numbers in file order.
    fn tiny(q: u8, numbers: &[i32]) -> Vec<u8> {
        // emb_own, emb_opp (4 x 2 each), policy_w (2), policy_b, value1_w (2), value1_b,
        // value2_w (1), value2_b: i32 at the biases (positions 18, 21, 23), else i16.
        let mut payload = Vec::new();
        for (i, &x) in numbers.iter().enumerate() {
            if [18, 21, 23].contains(&i) {
                payload.extend_from_slice(&x.to_le_bytes());
            } else {
                payload.extend_from_slice(&(x as i16).to_le_bytes());
            }
        }
        Header { dim: 2, shape_count: 2, hidden: 1, q_act: q, q_weight: q, flags: 0 }.file(&payload)
    }

    /// The header writer gives back the built-in nets' files byte for byte.
    #[test]
    fn headers_write_what_files_hold() {
        for bytes in select::built_in_bytes() {
            let net = Gnn::from_bytes(bytes).expect("built-in net");
            let header = Header {
                dim: net.dim as u16,
                shape_count: net.shape_count as u32,
                hidden: net.hidden as u16,
                q_act: net.q_act as u8,
                q_weight: net.q_weight as u8,
                flags: if net.residual { FLAG_RESIDUAL } else { 0 } | if net.lines { FLAG_LINES } else { 0 },
            };
            assert_eq!(header.file(&bytes[HEADER_BYTES..]), bytes);
        }
    }

    /// Row r of both tables is (r, -r) scaled; weights 1; biases 0.
    fn tiny_numbers() -> Vec<i32> {
        let mut v: Vec<i32> = (0..4).flat_map(|r| [r * 100, -r * 100]).collect();
        v.extend(v.clone());
        v.extend([1024, 1024, 0, 1024, 1024, 0, 1024, 0]);
        v
    }

    #[test]
    fn a_tiny_net_computes_by_hand() {
        let net = Gnn::from_bytes(&tiny(10, &tiny_numbers())).expect("valid");
        let points = [Point::Empty { own: 1, opp: 0 }, Point::OwnStone, Point::OppStone];
        let out = net.forward(&points).expect("indices in range");
        // h: (100, 0), (400, 0), (600, 0); policy of the empty point 100; mean (367, 0);
        // a = 367; value = 367.
        assert_eq!(out, Output { value: 367, policy: vec![Some(100), None, None] });
    }

    #[test]
    fn reciprocal_division_is_exact() {
        let top = (1u32 << Reciprocal::BITS) - 1;
        let mut seed = 5u64;
        for n in 1..=1024u32 {
            let r = Reciprocal::new(n);
            // Both sides of every multiple near the ends, and random numbers between.
            let mut xs =
                vec![0, 1, n - 1, n, n + 1, top, top - 1, top - top % n, (top - top % n).saturating_sub(1)];
            xs.extend((0..200).map(|_| (crate::board::splitmix64(&mut seed) % u64::from(top + 1)) as u32));
            for x in xs {
                assert_eq!(r.of(x), x / n, "{x} / {n}");
            }
        }
    }

    /// The search keeps sums only for nets whose tables name every shape of the board and whose
    /// rows fit a `Change`'s u16.
    #[test]
    fn searchable_nets_have_every_shape_and_rows_that_fit_u16() {
        let net = Gnn::from_bytes(select::built_in_bytes().next().expect("a net")).expect("built-in net");
        assert!(net.searchable());
        for (shapes, ok) in [(SHAPE_COUNT - 1, false), (SHAPE_COUNT, true), (65534, true), (65535, false)] {
            let wider = Gnn { shape_count: shapes, ..net.clone() };
            assert_eq!(wider.searchable(), ok, "{shapes} shapes");
        }
    }

    /// The search's value path against the definition, on the built-in nets, with sums from
    /// empty to every point at the top activation.
    #[test]
    fn the_search_value_equals_the_value_head() {
        let mut seed = 9u64;
        for bytes in select::built_in_bytes() {
            let net = Gnn::from_bytes(bytes).expect("built-in net");
            assert!(net.searchable());
            let top = 1i64 << net.q_act;
            for round in 0..3000 {
                let n = [1, 25, 225, 400, 1024][round % 5] + (round / 5) % 7;
                let n = n.min(1024);
                let mut sums = [0i32; DIM];
                for s in sums.iter_mut() {
                    let r = crate::board::splitmix64(&mut seed);
                    // Mostly typical sums, some at the ends of the range.
                    *s = match r % 8 {
                        0 => 0,
                        1 => (n as i64 * top) as i32,
                        _ => ((r >> 8) % (n as u64 * top as u64 + 1)) as i32,
                    };
                }
                assert_eq!(net.value(&sums, n), net.value_head(&sums, n), "n {n} sums {sums:?}");
            }
        }
    }

    #[test]
    fn shift_round_rounds_half_up() {
        assert_eq!([-3, -2, -1, 1, 2, 3].map(|x| shift_round(x, 1)), [-1, -1, 0, 1, 1, 2]);
        assert_eq!(shift_round(i32::MAX, 10), 2_097_152);
    }

    #[test]
    fn lines_nets_read_and_refuse_what_the_search_could_not_sum() {
        let net = random_lines_net(16, 8, 2000, false, 1);
        assert!(net.lines && net.searchable());
        let header = Header {
            dim: 16,
            shape_count: lines::CLASS_COUNT as u32,
            hidden: 8,
            q_act: 10,
            q_weight: 10,
            flags: FLAG_LINES,
        };
        assert!(Gnn::from_bytes(&header.file(&[])).is_err(), "no arrays");
        // All zero: valid. Then a table entry beyond +/-8191, and a row 0 that is not zero.
        let mut good = vec![0u8; 2 * 16 * (lines::CLASS_COUNT + 2)];
        good.extend(std::iter::repeat_n(0u8, 2 * 16 + 4 + 2 * 8 * 16 + 4 * 8 + 2 * 8 + 4));
        assert!(Gnn::from_bytes(&header.file(&good)).is_ok());
        for (at, value) in [(2 * 16 * 5, 8192i16), (2 * 16 * 5, -8192), (2 * 3, 1)] {
            let mut bad = good.clone();
            bad[at..at + 2].copy_from_slice(&value.to_le_bytes());
            assert!(Gnn::from_bytes(&header.file(&bad)).is_err(), "entry {value} at byte {at}");
        }
        // Shape points are not a lines net's inputs, nor line points a shapes net's.
        assert!(net.forward(&[Point::Empty { own: 1, opp: 1 }]).is_err());
        assert!(net.forward(&[Point::Lines([1, 2, 3, lines::CLASS_COUNT as u16])]).is_err());
        let shapes = Gnn::from_bytes(&tiny(10, &tiny_numbers())).expect("valid");
        assert!(shapes.forward(&[Point::Lines([1, 1, 1, 1])]).is_err());
    }

    #[test]
    fn every_truncation_is_an_error() {
        let bytes = tiny(10, &tiny_numbers());
        for len in 0..bytes.len() {
            assert!(Gnn::from_bytes(&bytes[..len]).is_err(), "{len} bytes accepted");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(Gnn::from_bytes(&longer).is_err());
    }

    #[test]
    fn corrupt_headers_are_errors() {
        let bytes = tiny(10, &tiny_numbers());
        // magic, version, dim, shape_count, hidden, outputs, q_act, q_weight, flags, payload
        for (at, value) in
            [(0, b'X'), (4, 2), (6, 3), (8, 7), (12, 2), (14, 2), (16, 21), (17, 0), (18, 2), (20, 1)]
        {
            let mut bad = bytes.clone();
            bad[at] = value;
            assert!(Gnn::from_bytes(&bad).is_err(), "byte {at} = {value} accepted");
        }
        // Huge sizes: an error, not an allocation or an overflow.
        let mut bad = bytes.clone();
        bad[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        bad[6..8].copy_from_slice(&u16::MAX.to_le_bytes());
        assert!(Gnn::from_bytes(&bad).is_err());
    }

    #[test]
    fn a_net_that_could_overflow_is_refused() {
        let mut numbers = tiny_numbers();
        numbers[18] = i32::MAX; // policy bias
        assert!(Gnn::from_bytes(&tiny(10, &numbers)).is_err());
    }

    #[test]
    fn bad_inputs_are_errors() {
        let net = Gnn::from_bytes(&tiny(10, &tiny_numbers())).expect("valid");
        assert!(net.forward(&[]).is_err());
        assert!(net.forward(&[Point::Empty { own: 2, opp: 0 }]).is_err());
    }

    #[test]
    fn record_points_take_the_side_to_moves_view() {
        use Color::{Black, White};
        assert_eq!(Point::from_record(None, [3, 5], Black), Point::Empty { own: 3, opp: 5 });
        assert_eq!(Point::from_record(None, [3, 5], White), Point::Empty { own: 5, opp: 3 });
        assert_eq!(Point::from_record(Some(White), [0, 0], White), Point::OwnStone);
        assert_eq!(Point::from_record(Some(Black), [0, 0], White), Point::OppStone);
    }
}
