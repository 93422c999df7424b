//! Line patterns: what a stone on an empty point would make along one line.
//!
//! Every point keeps, per direction, a 20-bit code of the ten points around it (five on each
//! side, two bits each: empty, black, white, wall). A table indexed by that code says what
//! placing a stone of one colour on the point would make on that line: a five, an open four, a
//! four, an open three, ... The table is built once per (five rule, colour) by a memoised
//! recursion over the window, so the definitions below are exact within the window and need no
//! hand-written shape list:
//! - five: the run through the point wins under the rule;
//! - open four (F4): two different points would each complete a five through the point;
//! - four (B4): exactly one point would;
//! - open three (F3) / three (B3): some point would make an open four / a four;
//! - and so on down to ones.
//!
//! Eleven points are enough for exact fives: a run of exactly five through the centre always
//! has both of its end neighbours inside the window.

use crate::types::{Color, End, FiveRule};
use std::sync::OnceLock;

/// Cell states as stored in line codes and on the board.
pub const EMPTY: u8 = 0;
pub const BLACK: u8 = 1;
pub const WHITE: u8 = 2;
pub const WALL: u8 = 3;

/// The cell state of a `color` stone.
#[inline]
pub fn cell(color: Color) -> u8 {
    match color {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

/// Points on each side of the centre that a line code covers.
pub const HALF: usize = 5;
/// Number of neighbour slots in a code.
pub const SLOTS: usize = 2 * HALF;
/// Number of distinct codes.
pub const CODES: usize = 1 << (2 * SLOTS);

/// A line pattern: what a stone on a point makes along one line, ordered by strength (used
/// with `max`). Kept as the nibble that table bytes and packed keys store it in.
#[repr(transparent)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pat(u8);

impl Pat {
    /// The pattern in the low four bits of `bits` (a table byte's or a packed key's nibble;
    /// values from `PAT_COUNT` up name no pattern and occur only in unused keys).
    #[inline]
    pub const fn from_nibble(bits: u8) -> Pat {
        Pat(bits & 0xF)
    }

    /// The pattern's number, `0..PAT_COUNT` for real patterns: an index into weight tables.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

pub const NONE: Pat = Pat(0);
pub const B1: Pat = Pat(1);
pub const F1: Pat = Pat(2);
pub const B2: Pat = Pat(3);
pub const F2: Pat = Pat(4);
pub const B3: Pat = Pat(5);
pub const F3: Pat = Pat(6);
pub const B4: Pat = Pat(7);
pub const F4: Pat = Pat(8);
pub const F5: Pat = Pat(9);
/// A non-winning overline (exact-five rules): kept apart so renju can forbid it.
pub const OL: Pat = Pat(10);
/// Two fours in one line that are not one straight four (`x.xxx.x` with the centre inside):
/// as strong as an open four in gomoku, a forbidden double four for black in renju.
pub const D4: Pat = Pat(11);
/// Number of pattern classes (fits in a nibble).
pub const PAT_COUNT: usize = 12;

/// Which table: the five rule of one colour, or renju's black, whose threes must be able to
/// become a *straight* four.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LineRule {
    Five(FiveRule),
    RenjuBlack,
}

/// Slot of the neighbour at signed offset `k` (-5..=-1, 1..=5) in a line code.
#[inline]
pub const fn slot(k: i32) -> u32 {
    if k < 0 {
        (k + HALF as i32) as u32
    } else {
        (k + HALF as i32 - 1) as u32
    }
}

/// Number of line rules (tables are kept per rule).
const LINE_RULES: usize = 5;

fn rule_index(rule: LineRule) -> usize {
    match rule {
        LineRule::Five(FiveRule::Long) => 0,
        LineRule::Five(FiveRule::Exact) => 1,
        LineRule::Five(FiveRule::CaroLong) => 2,
        LineRule::Five(FiveRule::CaroExact) => 3,
        LineRule::RenjuBlack => 4,
    }
}

/// Points on each side of the centre that decide the patterns of the rules `black` and
/// `white`. Freestyle needs four: a run of five or more through the centre always has five
/// stones within four points of it, so the fifth point changes nothing. Exact fives, renju and
/// caro need the fifth to see an overline or a blocked end.
pub fn reach(black: LineRule, white: LineRule) -> usize {
    let long = LineRule::Five(FiveRule::Long);
    if black == long && white == long {
        HALF - 1
    } else {
        HALF
    }
}

/// Both colours' tables in one: the byte for a code holds black's pattern in its low nibble
/// and white's in its high one. Every stone updates up to forty codes, and one lookup each
/// instead of two halves the table memory the updates walk through. The table covers the
/// `reach` points on each side (`4^(2 reach)` entries: 64 KiB for freestyle, 1 MiB for the
/// other rules); it is indexed by the middle `2 reach` slots of a code (`window_index`). The
/// one-colour tables it is made from are dropped once it is built.
pub fn pair_table(black: LineRule, white: LineRule) -> &'static [u8] {
    const PAIRS: usize = LINE_RULES * LINE_RULES;
    static TABLES: [OnceLock<Box<[u8]>>; PAIRS] = [const { OnceLock::new() }; PAIRS];
    TABLES[rule_index(black) * LINE_RULES + rule_index(white)].get_or_init(|| {
        let (b, w) = (build(black, Color::Black), build(white, Color::White));
        let full: Box<[u8]> = b.iter().zip(w.iter()).map(|(&b, &w)| b | w << 4).collect();
        let reach = reach(black, white);
        if reach == HALF {
            return full;
        }
        (0..1u32 << (4 * reach)).map(|window| full[widen(window, reach) as usize]).collect()
    })
}

/// Where a full code's pattern is in a table of `reach` points each side.
#[inline]
pub fn window_index(code: u32, reach: usize) -> usize {
    let shift = 2 * (HALF - reach);
    (code >> shift) as usize & ((1 << (4 * reach)) - 1)
}

/// The full code whose middle `2 reach` slots are `window`: the points beyond are empty, or
/// walls where the window ends in a wall (walls run to the ends of a real code).
fn widen(window: u32, reach: usize) -> u32 {
    let outer = HALF - reach;
    let mut code = window << (2 * outer);
    let cell = |code: u32, s: usize| (code >> (2 * s)) & 3;
    for s in (0..outer).rev() {
        if cell(code, s + 1) == WALL as u32 {
            code |= (WALL as u32) << (2 * s);
        }
    }
    for s in SLOTS - outer..SLOTS {
        if cell(code, s - 1) == WALL as u32 {
            code |= (WALL as u32) << (2 * s);
        }
    }
    code
}

fn build(rule: LineRule, color: Color) -> Box<[u8]> {
    let own = cell(color);
    let mut memo = vec![u8::MAX; CODES].into_boxed_slice();
    for code in 0..CODES as u32 {
        if walls_at_ends(code) {
            classify(code, own, rule, &mut memo);
        }
    }
    for m in memo.iter_mut() {
        if *m == u8::MAX {
            *m = NONE.0;
        }
    }
    memo
}

/// Codes whose walls are not contiguous with the window ends cannot occur on a board.
fn walls_at_ends(code: u32) -> bool {
    let cell = |s: usize| ((code >> (2 * s)) & 3) as u8;
    let left_ok = (1..HALF).all(|s| cell(s) != WALL || cell(s - 1) == WALL);
    let right_ok = (HALF..SLOTS - 1).all(|s| cell(s) != WALL || cell(s + 1) == WALL);
    left_ok && right_ok
}

fn decode(code: u32, own: u8) -> [u8; SLOTS + 1] {
    let mut line = [EMPTY; SLOTS + 1];
    for s in 0..SLOTS {
        let at = if s < HALF { s } else { s + 1 };
        line[at] = ((code >> (2 * s)) & 3) as u8;
    }
    line[HALF] = own;
    line
}

fn classify(code: u32, own: u8, rule: LineRule, memo: &mut [u8]) -> Pat {
    let cached = memo[code as usize];
    if cached != u8::MAX {
        return Pat(cached);
    }
    let line = decode(code, own);
    let (len, ends) = run_through_centre(&line, own);
    let five_rule = match rule {
        LineRule::Five(r) => r,
        LineRule::RenjuBlack => FiveRule::Exact,
    };
    let pat = if five_rule.is_five(len, ends) {
        F5
    } else if len > 5 {
        OL
    } else {
        let mut five_slots = Vec::new();
        let mut best = NONE;
        for s in 0..SLOTS as u32 {
            if (code >> (2 * s)) & 3 != EMPTY as u32 {
                continue;
            }
            let next = classify(code | (own as u32) << (2 * s), own, rule, memo);
            if next == F5 {
                five_slots.push(s);
            } else {
                best = best.max(weaken(next, rule));
            }
        }
        match five_slots[..] {
            [] => best,
            [_] => B4,
            // Five points on both ends of four stones in a row: one straight four. The slots
            // skip the centre, so its two ends lie five slots apart minus one.
            [a, b] if b - a == 4 => F4,
            _ => D4,
        }
    };
    memo[code as usize] = pat.0;
    pat
}

/// The class one stone short of `pat`: what a point that can make `pat` is. In renju only a
/// straight four makes a three; two fours in a line are a forbidden shape for black.
fn weaken(pat: Pat, rule: LineRule) -> Pat {
    match pat {
        D4 if rule == LineRule::RenjuBlack => B3,
        D4 => F3,
        F4 => F3,
        B4 => B3,
        F3 => F2,
        B3 => B2,
        F2 => F1,
        B2 => B1,
        _ => NONE,
    }
}

fn run_through_centre(line: &[u8; SLOTS + 1], own: u8) -> (usize, (End, End)) {
    let mut lo = HALF;
    while lo > 0 && line[lo - 1] == own {
        lo -= 1;
    }
    let mut hi = HALF;
    while hi < SLOTS && line[hi + 1] == own {
        hi += 1;
    }
    let end = |at: Option<usize>| match at.map(|i| line[i]) {
        Some(c) if c != own && c != EMPTY && c != WALL => End::Opponent,
        _ => End::Open,
    };
    let left = end(lo.checked_sub(1));
    let right = end(if hi < SLOTS { Some(hi + 1) } else { None });
    (hi - lo + 1, (left, right))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pair_table_holds_both_colours() {
        let (black, white) = (LineRule::RenjuBlack, LineRule::Five(FiveRule::Long));
        let pair = pair_table(black, white);
        assert_eq!(reach(black, white), HALF);
        let (b, w) = (build(black, Color::Black), build(white, Color::White));
        assert_eq!(pair.len(), CODES);
        for code in (0..CODES).step_by(97) {
            assert_eq!((pair[code] & 0xF, pair[code] >> 4), (b[code], w[code]), "code {code:#x}");
        }
    }

    #[test]
    fn freestyle_window_matches_the_full_code() {
        let long = LineRule::Five(FiveRule::Long);
        assert_eq!(reach(long, long), HALF - 1);
        assert_eq!(reach(long, LineRule::Five(FiveRule::Exact)), HALF);
        assert_eq!(reach(LineRule::RenjuBlack, long), HALF);
        let (b, w) = (build(long, Color::Black), build(long, Color::White));
        let window = pair_table(long, long);
        assert_eq!(window.len(), 1 << 16);
        for code in 0..CODES as u32 {
            if walls_at_ends(code) {
                let at = window_index(code, HALF - 1);
                assert_eq!(window[at], b[code as usize] | w[code as usize] << 4, "code {code:#x}");
            }
        }
    }

    /// Encodes a line written as text, centre marked `*`: `x` own (black), `o` white,
    /// `.` empty, `|` wall. Exactly five characters must stand on each side of `*`.
    fn code_of(text: &str) -> u32 {
        let chars: Vec<char> = text.chars().collect();
        assert_eq!(chars.len(), SLOTS + 1, "{text}");
        assert_eq!(chars[HALF], '*');
        let mut code = 0u32;
        for (i, ch) in chars.iter().enumerate() {
            if i == HALF {
                continue;
            }
            let v = match ch {
                '.' => EMPTY,
                'x' => BLACK,
                'o' => WHITE,
                '|' => WALL,
                _ => panic!("bad char {ch}"),
            } as u32;
            let k = i as i32 - HALF as i32;
            code |= v << (2 * slot(k));
        }
        code
    }

    /// Black's pattern (the low nibble of the paired table, as the board reads it).
    fn pat(rule: FiveRule, text: &str) -> Pat {
        let five = LineRule::Five(rule);
        Pat::from_nibble(pair_table(five, five)[window_index(code_of(text), reach(five, five))])
    }

    fn renju(text: &str) -> Pat {
        Pat::from_nibble(
            pair_table(LineRule::RenjuBlack, LineRule::Five(FiveRule::Long))[code_of(text) as usize],
        )
    }

    #[test]
    fn renju_black_shapes() {
        assert_eq!(renju("...xx*x...."), F4);
        assert_eq!(renju("..x.x*x.x.."), D4);
        assert_eq!(renju("..xx.*x...."), B4);
        assert_eq!(renju("x.xx.*....."), B3);
        assert_eq!(renju("....x*x...."), F3);
        assert_eq!(renju("xxxxx*....."), OL);
        // A three whose straight fours would all touch another stone (an overline) is no
        // three under exact-five rules.
        assert_eq!(renju("x..xx*..x.."), B3);
        assert_eq!(pat(FiveRule::Exact, "x..xx*..x.."), B3);
        assert_eq!(pat(FiveRule::Long, "x..xx*..x.."), F3);
        assert_eq!(pat(FiveRule::Long, "..x.x*x.x.."), D4);
    }

    #[test]
    fn fives_per_rule() {
        assert_eq!(pat(FiveRule::Long, "..xxx*x...."), F5);
        assert_eq!(pat(FiveRule::Long, ".xxxx*x...."), F5);
        assert_eq!(pat(FiveRule::Exact, ".xxxx*x...."), OL);
        assert_eq!(pat(FiveRule::Exact, "..xxx*x...."), F5);
        assert_eq!(pat(FiveRule::Exact, "oxxxx*o...."), F5);
        assert_eq!(pat(FiveRule::CaroLong, "oxxxx*o...."), NONE);
        assert_eq!(pat(FiveRule::CaroLong, "|xxxx*o...."), F5);
        assert_eq!(pat(FiveRule::CaroLong, "xxxxx*o...."), F5);
        assert_eq!(pat(FiveRule::CaroExact, "xxxxx*o...."), OL);
    }

    #[test]
    fn fours_and_threes() {
        assert_eq!(pat(FiveRule::Long, "...xx*x...."), F4);
        assert_eq!(pat(FiveRule::Long, "..oxx*x...."), B4);
        assert_eq!(pat(FiveRule::Long, "...x.*xx..."), B4);
        assert_eq!(pat(FiveRule::Long, "x.xx.*.xx.x"), F3);
        assert_eq!(pat(FiveRule::Long, "....x*x...."), F3);
        assert_eq!(pat(FiveRule::Long, "...ox*x...."), B3);
        assert_eq!(pat(FiveRule::Long, "....x*....."), F2);
        assert_eq!(pat(FiveRule::Long, "|||x.*xx..."), B4);
        assert_eq!(pat(FiveRule::Long, "||||.*xx.o."), B3);
        // Two separate fives through the centre in one line: as good as an open four.
        assert_eq!(pat(FiveRule::Long, ".x.xx*.x..."), D4);
    }

    #[test]
    fn exact_five_sees_overline_blocks() {
        // xxxx.x with the centre in the gap makes six: not a five, not a four.
        assert_eq!(pat(FiveRule::Exact, "xxxxx*....."), OL);
        // Filling the left gap would make six: under exact rules only the right gap wins.
        assert_eq!(pat(FiveRule::Exact, "xx.xx*.x..."), B4);
        assert_eq!(pat(FiveRule::Long, "xx.xx*.x..."), D4);
    }

    #[test]
    fn white_table_mirrors_black() {
        let long = LineRule::Five(FiveRule::Long);
        let pair = pair_table(long, long);
        let b = |code: u32| pair[window_index(code, reach(long, long))] & 0xF;
        let w = |code: u32| pair[window_index(code, reach(long, long))] >> 4;
        let swap = |code: u32| {
            let mut out = 0;
            for s in 0..SLOTS {
                let v = (code >> (2 * s)) & 3;
                let v = match v as u8 {
                    BLACK => WHITE as u32,
                    WHITE => BLACK as u32,
                    _ => v,
                };
                out |= v << (2 * s);
            }
            out
        };
        for code in (0..CODES as u32).step_by(97) {
            assert_eq!(b(code), w(swap(code)), "code {code:#x}");
        }
    }
}
