//! Renju forbidden points for black (RIF rules).
//!
//! A black move is forbidden when it makes an overline, a double four, or a double three,
//! unless it makes an exact five, which always wins. The line patterns decide the first two
//! and flag the candidates of the third (`eval::Forbid`). A three counts only if it is *real*:
//! some point completing it to a straight four must itself be legal for black once the three
//! is on the board, which may need the same question about that point — so the check recurses,
//! playing the stones on the board and undoing them.

use crate::board::Board;
use crate::eval::Forbid;
use crate::pattern::{F3, F4, OL};
use crate::types::{Color, Pos, Rule};

/// Why a point is forbidden.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Foul {
    DoubleThree,
    DoubleFour,
    Overline,
}

impl Foul {
    pub fn name(self) -> &'static str {
        match self {
            Foul::DoubleThree => "double_three",
            Foul::DoubleFour => "double_four",
            Foul::Overline => "overline",
        }
    }
}

/// Nesting of "is the completing point legal?" questions followed before a point is assumed
/// legal. Real positions need two or three; the bound only guards against pathological ones.
const MAX_NESTING: u32 = 8;

/// Renju's forbidden points, asked of a board. A trait, so that the board (below the rules)
/// knows nothing of them; callers import it.
pub trait ForbiddenPoints {
    /// Whether black may not play the empty point `p` (false in other rules, and for
    /// occupied or off-board points).
    fn is_forbidden(&mut self, p: Pos) -> bool;

    /// Why black may not play `p`, if it may not.
    fn foul(&mut self, p: Pos) -> Option<Foul>;

    /// Every forbidden point of the position, in board order.
    fn forbidden_points(&mut self) -> Vec<Pos>;
}

impl ForbiddenPoints for Board {
    fn is_forbidden(&mut self, p: Pos) -> bool {
        self.foul(p).is_some()
    }

    fn foul(&mut self, p: Pos) -> Option<Foul> {
        foul_nested(self, p, 0)
    }

    fn forbidden_points(&mut self) -> Vec<Pos> {
        if self.rule() != Rule::Renju {
            return Vec::new();
        }
        let mut empties = Vec::new();
        self.for_each_empty(|p| empties.push(p));
        empties.into_iter().filter(|&p| self.is_forbidden(p)).collect()
    }
}

fn foul_nested(b: &mut Board, p: Pos, nesting: u32) -> Option<Foul> {
    if b.rule() != Rule::Renju || !b.is_empty(p) {
        return None;
    }
    match b.forbid_hint(p, Color::Black) {
        Forbid::Forbidden if b.patterns(p, Color::Black).contains(&OL) => Some(Foul::Overline),
        Forbid::Forbidden => Some(Foul::DoubleFour),
        Forbid::CheckThrees if real_threes(b, p, nesting) >= 2 => Some(Foul::DoubleThree),
        _ => None,
    }
}

/// Counts (up to two) the real threes black makes by playing `p`.
fn real_threes(b: &mut Board, p: Pos, nesting: u32) -> usize {
    let lines = b.patterns(p, Color::Black);
    let side = b.side_to_move();
    b.set_side_to_move(Color::Black);
    // Only patterns are read here, never the evaluation.
    b.make_unvalued(p);
    let mut real = 0;
    for (d, &pat) in lines.iter().enumerate() {
        if pat == F3 && three_is_real(b, p, d, nesting) {
            real += 1;
            if real == 2 {
                break;
            }
        }
    }
    b.undo_unvalued();
    b.set_side_to_move(side);
    real
}

/// With black's stone on `p`, whether some point on line `d` makes a straight four there
/// and is itself legal.
fn three_is_real(b: &mut Board, p: Pos, d: usize, nesting: u32) -> bool {
    (-4..=4).filter(|&k| k != 0).any(|k| {
        let q = b.step(p, d, k);
        b.is_empty(q)
            && b.patterns(q, Color::Black)[d] == F4
            && (nesting >= MAX_NESTING || foul_nested(b, q, nesting + 1).is_none())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fouls(text: &str) -> Vec<((usize, usize), Foul)> {
        let mut b = Board::from_ascii(text, Rule::Renju);
        let mut out = Vec::new();
        for p in b.forbidden_points() {
            let foul = b.foul(p).unwrap();
            out.push((b.xy(p), foul));
        }
        out
    }

    #[test]
    fn simple_double_three() {
        let text = "\
.........
.........
...x.....
...x.....
.........
.....xx..
.........
.........
.........";
        // (3,5) makes two open threes: the column and the row.
        assert!(fouls(text).contains(&((3, 5), Foul::DoubleThree)), "{:?}", fouls(text));
    }

    #[test]
    fn double_four_and_overline() {
        let text = "\
..........
..xxx.....
..........
.....x....
.....x....
.....x....
..........
xxx.xx....
..........
..........";
        let f = fouls(text);
        // (5,1): row four (xxx.x? no: x x x at 2..4 then (5,1) makes xxxx) and column 1..5 four.
        assert!(f.contains(&((5, 1), Foul::DoubleFour)) || f.contains(&((5, 2), Foul::DoubleFour)), "{f:?}");
        // (3,7) joins xxx and xx into six.
        assert!(f.contains(&((3, 7), Foul::Overline)), "{f:?}");
    }

    #[test]
    fn a_five_is_never_forbidden() {
        // (4,1) makes an exact five on row 1, and fours on the column and the diagonal.
        let text = "\
...........
xxxx.......
...xx......
..x.x......
.x..x......
...........
...........";
        let mut b = Board::from_ascii(text, Rule::Renju);
        let p = b.pos(4, 1).unwrap();
        assert!(b.makes_five(p, Color::Black));
        assert_eq!(b.foul(p), None);
        // Without the row the same point is a double four.
        let mut b = Board::from_ascii(&text.replace("xxxx.......", "..........."), Rule::Renju);
        assert_eq!(b.foul(p), Some(Foul::DoubleFour));
    }

    #[test]
    fn pseudo_three_is_not_counted() {
        // Column three at x=4 (rows 3..5) can only become a straight four at (4,2) or (4,6);
        // white blocks (4,1) and (4,7) make both straight fours impossible... so build a
        // three whose completing point is itself an overline point instead.
        let text = "\
...............
...............
...............
...............
....x..........
....x..........
...............
..xx.x.........
...............
....o..........
...............
...............";
        let mut b = Board::from_ascii(text, Rule::Renju);
        let p = b.pos(4, 7).unwrap();
        // Row 7: xx.x with p makes xxxx -> a four, column: x x . x -> three; a four-three is legal.
        assert_eq!(b.foul(p), None);
    }

    #[test]
    fn gomoku_rules_forbid_nothing() {
        let mut b = Board::from_ascii(
            "...x...\n...x...\n.......\n.xx.x..\n.......\n.......\n.......",
            Rule::Freestyle,
        );
        assert!(b.forbidden_points().is_empty());
    }
}
