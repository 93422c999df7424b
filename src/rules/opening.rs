//! Tournament opening rules (renju's Taraguchi-N and Soosõrv-N, and the five-move two-offer
//! rule of RIF 1996): where each opening stone may go, how many fifth moves may be offered, and
//! when two offered fifth moves are the same move (a symmetry of the board maps one position
//! onto the other).
//!
//! The rules themselves are written down in README.md ("Opening rules"); this module holds only
//! what a judge of them needs, so the engine's decisions and its checks of the manager's input
//! use the same geometry.

use crate::board::Board;
use crate::types::{Color, Pos};

/// The most fifth moves a rule name may allow (`TARAGUCHI<n>`, `SOOSORV<n>`); the RIF rules use
/// 10 and 8, and no board has room for many more offers that are all different.
pub const MAX_OFFERS: usize = 16;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OpeningRule {
    /// Taraguchi-N: stones 1 to 4 in growing central squares with a swap after each; then
    /// black offers N fifth moves, or plays one inside the 9x9 square (swap after it).
    Taraguchi(usize),
    /// Soosõrv-N: a canonical three-stone opening, swap; white's 4th anywhere with a declared
    /// number (1..=N) of fifth moves, swap; black offers that many fifth moves.
    Soosorv(usize),
    /// Five-move two-offer (RIF 1996): a canonical three-stone opening, swap; white's 4th
    /// anywhere; black offers two fifth moves.
    FiveTwo,
}

impl OpeningRule {
    /// Reads a rule name, any letter case: `TARAGUCHI10`, `SOOSORV8` (or `SOOSYRV8`, the common
    /// ASCII spelling), `RIF`; a dash before the number is allowed.
    pub fn parse(name: &str) -> Option<OpeningRule> {
        let upper = name.to_ascii_uppercase();
        if upper == "RIF" {
            return Some(OpeningRule::FiveTwo);
        }
        let count = |prefix: &str| -> Option<usize> {
            let n: usize = upper.strip_prefix(prefix)?.trim_start_matches('-').parse().ok()?;
            (1..=MAX_OFFERS).contains(&n).then_some(n)
        };
        count("TARAGUCHI")
            .map(OpeningRule::Taraguchi)
            .or_else(|| count("SOOSORV").or_else(|| count("SOOSYRV")).map(OpeningRule::Soosorv))
    }

    /// How far (in king steps from the centre point) the opening stone with this 0-based index
    /// may lie; `None` = anywhere. For Taraguchi the fifth (index 4) is the single fifth of the
    /// rule's first choice; offered fifths go anywhere.
    pub fn zone(self, index: usize) -> Option<usize> {
        match self {
            OpeningRule::Taraguchi(_) if index <= 4 => Some(index),
            // The 26 canonical openings: black in the centre, white touching it, black inside
            // the 5x5 square.
            OpeningRule::Soosorv(_) | OpeningRule::FiveTwo if index <= 2 => Some(index),
            _ => None,
        }
    }

    /// The numbers of fifth moves black may offer.
    pub fn offer_counts(self) -> std::ops::RangeInclusive<usize> {
        match self {
            OpeningRule::Taraguchi(n) => n..=n,
            OpeningRule::Soosorv(n) => 1..=n,
            OpeningRule::FiveTwo => 2..=2,
        }
    }
}

/// The board's centre point (on an even side, the point just past the middle, as `BEGIN`).
pub fn centre(board: &Board) -> (i64, i64) {
    (board.width() as i64 / 2, board.height() as i64 / 2)
}

/// Whether `p` lies inside the central square of half-side `radius` (0 = the centre point).
pub fn in_zone(board: &Board, p: Pos, radius: usize) -> bool {
    let (x, y) = board.xy(p);
    let (cx, cy) = centre(board);
    (x as i64 - cx).abs().max((y as i64 - cy).abs()) <= radius as i64
}

/// One of the eight symmetries of a square: an optional transpose (x and y exchanged), then
/// optional mirrors of x and of y. Together they are the dihedral group of the square.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Symmetry {
    pub transpose: bool,
    pub mirror_x: bool,
    pub mirror_y: bool,
}

impl Symmetry {
    /// All eight, the identity first.
    pub fn all() -> [Symmetry; 8] {
        let mut out = [Symmetry { transpose: false, mirror_x: false, mirror_y: false }; 8];
        for (i, s) in out.iter_mut().enumerate() {
            *s = Symmetry { transpose: i & 4 != 0, mirror_x: i & 1 != 0, mirror_y: i & 2 != 0 };
        }
        out
    }

    /// Whether this maps a `width` x `height` board onto itself: a transpose needs a square
    /// board, so a rectangular board has only the four symmetries without one.
    pub fn fits(self, width: usize, height: usize) -> bool {
        !self.transpose || width == height
    }

    /// The image of point (x, y) on a `width` x `height` board (the symmetry must fit it).
    pub fn apply(self, width: usize, height: usize, x: usize, y: usize) -> (usize, usize) {
        let (x, y) = if self.transpose { (y, x) } else { (x, y) };
        let x = if self.mirror_x { width - 1 - x } else { x };
        let y = if self.mirror_y { height - 1 - y } else { y };
        (x, y)
    }
}

/// Whether the fifth moves `a` and `b` (stones of the side to move) are the same offer: some
/// symmetry of the board maps the whole position with `a` onto the whole position with `b`,
/// every stone onto a stone of its colour. `a == b` is the same offer (the identity).
pub fn same_offer(board: &Board, a: Pos, b: Pos) -> bool {
    let (w, h) = (board.width(), board.height());
    let side = board.side_to_move();
    let mut with_a: Vec<((usize, usize), Color)> =
        board.moves().map(|p| (board.xy(p), board.get(p).expect("a played stone"))).collect();
    with_a.push((board.xy(a), side));
    let colour_in_b = |xy: (usize, usize)| -> Option<Color> {
        if xy == board.xy(b) {
            return Some(side);
        }
        let p = board.pos(xy.0 as i64, xy.1 as i64)?;
        if p == a {
            return None;
        }
        board.get(p)
    };
    // The two stone sets have the same size and a symmetry is one-to-one, so mapping every
    // stone of one onto a like stone of the other maps the set onto the other set.
    Symmetry::all()
        .into_iter()
        .filter(|s| s.fits(w, h))
        .any(|s| with_a.iter().all(|&((x, y), c)| colour_in_b(s.apply(w, h, x, y)) == Some(c)))
}

/// The first two offers (by index, the earlier first) that are the same offer, if any.
pub fn repeated_offer(board: &Board, offers: &[Pos]) -> Option<(usize, usize)> {
    (0..offers.len())
        .flat_map(|j| (0..j).map(move |i| (i, j)))
        .find(|&(i, j)| same_offer(board, offers[i], offers[j]))
}

/// The 26 canonical renju openings (black in the centre, white on one of the eight points
/// around it, black inside the central 5x5 square), one of each class of symmetric ones, as
/// (white's, black's) offsets from the centre. White is directly above the centre (a "direct"
/// opening) or diagonally up-right ("indirect"); any canonical opening is a symmetry of one.
pub fn canonical_openings() -> Vec<[(i64, i64); 2]> {
    const FIELD: i64 = 5; // a board just large enough for the 5x5 square; the classes do not depend on it
    let mut board = Board::new(FIELD as usize, FIELD as usize, crate::types::Rule::Renju);
    let c = FIELD / 2;
    let mut out = Vec::new();
    for white in [(0, -1), (1, -1)] {
        board.place(board.pos(c, c).expect("centre"), Color::Black);
        board.place(board.pos(c + white.0, c + white.1).expect("inside"), Color::White);
        let mut kept: Vec<Pos> = Vec::new();
        for dy in -2..=2 {
            for dx in -2..=2 {
                let p = board.pos(c + dx, c + dy).expect("inside");
                if board.is_empty(p) && !kept.iter().any(|&q| same_offer(&board, q, p)) {
                    kept.push(p);
                    out.push([white, (dx, dy)]);
                }
            }
        }
        board.undo();
        board.undo();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Rule;

    fn at(b: &Board, x: i64, y: i64) -> Pos {
        b.pos(x, y).expect("on the board")
    }

    /// A 9x9 board with black stones on the orbit of (1, 2) under `s` (so `s` keeps it), black
    /// to move; and the symmetries that keep it.
    fn kept_by(s: Symmetry) -> (Board, Vec<Symmetry>) {
        const N: usize = 9;
        let mut orbit = vec![(1usize, 2usize)];
        loop {
            let &(x, y) = orbit.last().expect("non-empty");
            let next = s.apply(N, N, x, y);
            if orbit.contains(&next) {
                break;
            }
            orbit.push(next);
        }
        let mut b = Board::new(N, N, Rule::Freestyle);
        for &(x, y) in &orbit {
            b.place(at(&b, x as i64, y as i64), Color::Black);
        }
        b.set_side_to_move(Color::Black);
        let keepers = Symmetry::all()
            .into_iter()
            .filter(|t| orbit.iter().all(|&(x, y)| orbit.contains(&t.apply(N, N, x, y))))
            .collect();
        (b, keepers)
    }

    #[test]
    fn eight_distinct_symmetries() {
        let images: std::collections::HashSet<_> =
            Symmetry::all().iter().map(|s| s.apply(9, 9, 3, 0)).collect();
        assert_eq!(images.len(), 8);
        assert_eq!(Symmetry::all()[0].apply(9, 9, 3, 0), (3, 0), "the identity comes first");
    }

    #[test]
    fn each_symmetry_is_detected_and_nothing_else() {
        // For every symmetry s: in a position that s keeps, the offer p and its image s(p) are
        // the same offer; p and its image under a symmetry that keeps no part of the position
        // the same way are different offers. p = (3, 0) has eight distinct images on 9x9 and
        // none of them is a stone.
        let p = (3usize, 0usize);
        for s in Symmetry::all() {
            let (b, keepers) = kept_by(s);
            assert!(keepers.contains(&s));
            let offer = |xy: (usize, usize)| at(&b, xy.0 as i64, xy.1 as i64);
            let image = s.apply(9, 9, p.0, p.1);
            assert!(same_offer(&b, offer(p), offer(image)), "{s:?} not detected");
            for t in Symmetry::all() {
                let other = t.apply(9, 9, p.0, p.1);
                let expected = keepers.iter().any(|k| k.apply(9, 9, p.0, p.1) == other);
                assert_eq!(same_offer(&b, offer(p), offer(other)), expected, "kept by {s:?}, image by {t:?}");
            }
        }
        // A position kept by a mirror alone: the other seven images are different offers.
        let mirror = Symmetry { transpose: false, mirror_x: true, mirror_y: false };
        assert_eq!(kept_by(mirror).1.len(), 2);
    }

    #[test]
    fn colours_must_match() {
        // Black (2, 4) and white (6, 4) mirror each other in place but not in colour, so the
        // mirror images (3, 6) and (5, 6) are different offers.
        let b = Board::from_ascii(
            ".........\n.........\n.........\n.........\n..x...o..\n.........\n.........\n.........\n.........\n",
            Rule::Freestyle,
        );
        assert!(!same_offer(&b, at(&b, 3, 6), at(&b, 5, 6)));
        // The mirror in y keeps both stones: (3, 2) and (3, 6) are the same offer.
        assert!(same_offer(&b, at(&b, 3, 2), at(&b, 3, 6)));
    }

    #[test]
    fn renju_offers_in_an_asymmetric_position_are_distinct() {
        // An indirect opening with white's fourth move that no symmetry keeps; black to move.
        let b = Board::from_ascii(
            "...............\n...............\n...............\n...............\n...............\n\
             ...............\n........o......\n.......x.......\n......x.o......\n...............\n\
             ...............\n...............\n...............\n...............\n...............\n",
            Rule::Renju,
        );
        assert_eq!(b.side_to_move(), Color::Black);
        let offers: Vec<Pos> =
            [(8, 7), (7, 8), (6, 7), (7, 6), (9, 6), (5, 9), (9, 9), (6, 6), (7, 9), (8, 9)]
                .iter()
                .map(|&(x, y)| at(&b, x, y))
                .collect();
        assert_eq!(repeated_offer(&b, &offers), None);
        assert_eq!(repeated_offer(&b, &[offers[1], offers[2], offers[1]]), Some((0, 2)));
    }

    #[test]
    fn symmetric_offers_in_a_diagonal_opening() {
        // Black h8 and f6, white g7 (all on the main diagonal) and white i9: the transpose
        // keeps the position, so i8 and h9 are one offer; so are j8 and h10.
        let mut b = Board::from_ascii(
            "...............\n...............\n...............\n...............\n...............\n\
             ...............\n......o........\n.......x.......\n........o......\n...............\n\
             ...............\n...............\n...............\n...............\n...............\n",
            Rule::Renju,
        );
        b.place(at(&b, 5, 5), Color::Black);
        b.set_side_to_move(Color::Black);
        let (i8, h9, j8, h10) = (at(&b, 8, 7), at(&b, 7, 8), at(&b, 9, 7), at(&b, 7, 9));
        assert!(same_offer(&b, i8, h9));
        assert!(same_offer(&b, j8, h10));
        assert!(!same_offer(&b, i8, j8));
        assert_eq!(repeated_offer(&b, &[i8, j8, h9]), Some((0, 2)));
    }

    #[test]
    fn rectangular_boards_have_four_symmetries() {
        assert_eq!(Symmetry::all().into_iter().filter(|s| s.fits(9, 7)).count(), 4);
        let b = Board::new(9, 7, Rule::Freestyle);
        // (1, 0) and (0, 1) are transposes of each other, not a symmetry of a 9x7 board.
        assert!(!same_offer(&b, at(&b, 1, 0), at(&b, 0, 1)));
        assert!(same_offer(&b, at(&b, 1, 0), at(&b, 7, 6)));
    }

    #[test]
    fn twenty_six_canonical_openings() {
        let all = canonical_openings();
        assert_eq!(all.len(), 26);
        assert_eq!(all.iter().filter(|o| o[0] == (0, -1)).count(), 13);
        assert!(all.iter().all(|o| o[1].0.abs() <= 2 && o[1].1.abs() <= 2 && o[1] != (0, 0) && o[1] != o[0]));
    }

    #[test]
    fn rule_names_zones_and_counts() {
        assert_eq!(OpeningRule::parse("taraguchi10"), Some(OpeningRule::Taraguchi(10)));
        assert_eq!(OpeningRule::parse("Soosorv-8"), Some(OpeningRule::Soosorv(8)));
        assert_eq!(OpeningRule::parse("SOOSYRV8"), Some(OpeningRule::Soosorv(8)));
        assert_eq!(OpeningRule::parse("rif"), Some(OpeningRule::FiveTwo));
        for bad in ["", "TARAGUCHI", "TARAGUCHI0", "SOOSORV17", "SOOSORVX", "SWAP2"] {
            assert_eq!(OpeningRule::parse(bad), None, "{bad}");
        }
        assert_eq!(OpeningRule::Taraguchi(10).zone(3), Some(3));
        assert_eq!(OpeningRule::Taraguchi(10).zone(5), None);
        assert_eq!(OpeningRule::Soosorv(8).zone(3), None);
        assert_eq!(OpeningRule::Soosorv(8).offer_counts(), 1..=8);
        assert_eq!(OpeningRule::FiveTwo.offer_counts(), 2..=2);
        let b = Board::new(15, 15, Rule::Renju);
        assert!(in_zone(&b, at(&b, 7, 7), 0));
        assert!(in_zone(&b, at(&b, 4, 10), 3));
        assert!(!in_zone(&b, at(&b, 3, 10), 3));
    }
}
