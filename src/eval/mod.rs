//! Evaluation tables: what an empty point is worth to one side, from its four line patterns —
//! their class (what a stone there makes), renju's forbidden-point hint, their shape, and the
//! values the weights (`params.rs`) and the net's first layer (`net.rs`) give them, tabulated
//! per packed key. The position's value is the sum of point values of both sides.
//!
//! This sits below the board: the board keeps those sums over its empty points as stones come
//! and go (as Stockfish's position keeps its accumulators), and `Board::evaluate` reads them.

pub mod gnn;
pub mod net;
pub mod params;

use crate::pattern::{Pat, B3, B4, D4, F2, F3, F4, F5, OL, PAT_COUNT};
use crate::types::Rule;
use std::sync::OnceLock;

/// What a stone of one colour on an empty point would make, over all four directions,
/// ordered by strength (the search compares classes). One byte, as the `u8` it replaced.
#[repr(u8)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    #[default]
    None,
    /// Makes one open three.
    Three,
    /// Makes two open threes.
    DoubleThree,
    /// Makes a (closed) four.
    Four,
    /// Makes a four and an open three at once.
    FourThree,
    /// Makes an open four or two fours: a win unless the opponent can answer with fours.
    OpenFour,
    /// Makes a five.
    Five,
}
pub const CLASS_COUNT: usize = 7;

/// A point's four line patterns packed as nibbles (direction d at bits 4d..4d+4).
pub type PatKey = u16;

/// Whether a point is forbidden for renju's black, as far as its four line patterns tell.
#[repr(u8)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Forbid {
    #[default]
    Legal,
    /// An overline or a double four (and no five): forbidden whatever else is on the board.
    Forbidden,
    /// Two or more threes: forbidden only if at least two of them are real, which needs a look
    /// at the points that would complete them (see `rules::renju`).
    CheckThrees,
}

/// What a packed pattern key means for one side: class, value and (for renju's black)
/// forbidden status, in one record so that an update reads one place per key.
#[derive(Copy, Clone, Debug, Default)]
pub struct PointEval {
    /// The point's potential for the side to move. Sixteen bits keep a record at eight
    /// bytes and the table at 512 KiB (every stone reads up to eighty records); a profile
    /// found table misses a small share of the update's cost, so this is a small saving.
    pub value: i16,
    /// The same point's potential when it is the opponent's (what the side to move faces).
    pub threat: i16,
    pub class: Class,
    pub forbid: Forbid,
    /// The point's shape (`shape`), or `net::NO_SHAPE` where it has no value (forbidden).
    pub shape: u16,
}

impl PointEval {
    /// The class the move ordering counts: none on renju black's points of two open threes
    /// (`Forbid::CheckThrees`), which are forbidden unless one of the threes is false (rare),
    /// so white's block of such a point and black's attack there are no more urgent than
    /// their line patterns say. The threat searches read `class` and test the point in full.
    pub fn sure_class(&self) -> Class {
        match self.forbid {
            Forbid::CheckThrees => Class::None,
            _ => self.class,
        }
    }
}

/// The `PointEval` of every packed pattern key.
pub struct PointTables {
    entries: Box<[PointEval; KEYS]>,
}

/// Number of packed pattern keys.
const KEYS: usize = 1 << 16;

impl PointTables {
    #[inline]
    pub fn get(&self, key: PatKey) -> &PointEval {
        &self.entries[key as usize]
    }
}

/// The point tables of `rule`'s weights for gomoku lines (`renju_black` false) or for renju's
/// black.
pub fn point_tables(rule: Rule, renju_black: bool) -> &'static PointTables {
    static TABLES: [OnceLock<PointTables>; 2 * params::SETS.len()] =
        [const { OnceLock::new() }; 2 * params::SETS.len()];
    let set = params::set_index(rule);
    TABLES[2 * set + renju_black as usize].get_or_init(|| build_point_tables(params::SETS[set], renju_black))
}

/// Splits a packed key into its four direction patterns.
pub fn unpack(key: PatKey) -> [Pat; 4] {
    [0, 1, 2, 3].map(|d| Pat::from_nibble((key >> (4 * d)) as u8))
}

fn build_point_tables(w: &params::Weights, renju_black: bool) -> PointTables {
    // Built on the heap: the table is too large for a thread's stack.
    let mut entries: Box<[PointEval; KEYS]> =
        vec![PointEval::default(); KEYS].into_boxed_slice().try_into().expect("one record per key");
    for (key, e) in entries.iter_mut().enumerate() {
        e.shape = net::NO_SHAPE;
        let pats = unpack(key as PatKey);
        if pats.iter().any(|&p| p.index() >= PAT_COUNT) {
            continue;
        }
        let f = if renju_black { renju_forbid(&pats) } else { Forbid::Legal };
        e.forbid = f;
        if f == Forbid::Forbidden {
            continue; // black can never play there: no class, no potential
        }
        let c = if renju_black { classify_renju(&pats) } else { classify(&pats) };
        e.class = c;
        if f == Forbid::CheckThrees {
            // Most likely forbidden as well (see `PointEval::sure_class`): no potential,
            // though the class stays for the threat searches, which check the point.
            continue;
        }
        let m = combo(&pats, c) as usize;
        let s = shape(&pats);
        e.shape = s as u16;
        let lines: i32 = pats.iter().map(|&p| w.pattern[p.index()]).sum();
        let value = lines + w.class[c as usize] + w.combo[m] + w.shape[s] as i32;
        let lines: i32 = pats.iter().map(|&p| w.opponent_pattern[p.index()]).sum();
        let threat = lines + w.opponent_class[c as usize] + w.opponent_combo[m] + w.opponent_shape[s] as i32;
        e.value = i16::try_from(value).expect("point values fit sixteen bits");
        e.threat = i16::try_from(threat).expect("point values fit sixteen bits");
    }
    PointTables { entries }
}

/// Number of shapes: multisets of four line patterns.
pub const SHAPE_COUNT: usize = binomial(PAT_COUNT + 3, 4);

/// A point's shape: its four line patterns whatever their directions, as a rank among all
/// multisets of four (combinatorial number system: sorted `a >= b >= c >= d` is the set
/// `{a+3, b+2, c+1, d}`). The linear value above cannot tell, say, an open three beside two
/// open twos from one beside a closed three and a one; a correction per shape can.
pub fn shape(pats: &[Pat; 4]) -> usize {
    let mut s = pats.map(Pat::index);
    s.sort_unstable_by(|a, b| b.cmp(a));
    binomial(s[0] + 3, 4) + binomial(s[1] + 2, 3) + binomial(s[2] + 1, 2) + s[3]
}

/// `n` choose `k` (0 when `n < k`).
const fn binomial(n: usize, k: usize) -> usize {
    if n < k {
        return 0;
    }
    let mut r = 1;
    let mut i = 0;
    while i < k {
        r = r * (n - i) / (i + 1);
        i += 1;
    }
    r
}

/// Shapes a point holds below the class that decides the search: what it prepares. Named
/// by the patterns across two directions; each point gets the strongest that fits its class.
#[repr(u8)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Combo {
    None,
    /// Two open twos: the next stone there can make a double three.
    TwoTwo,
    /// A closed three and an open two: a four-three in two moves.
    ThreeTwo,
    /// Two closed threes: a double four in two moves.
    ThreeThree,
    /// An open three with an open two beside it.
    OpenThreeTwo,
    /// An open three with a closed three: the next move there threatens a four-three.
    OpenThreeThree,
    /// A four with an open two.
    FourTwo,
    /// A four with a closed three.
    FourThreeClosed,
}
pub const COMBO_COUNT: usize = 8;

/// The combination a point's four line patterns form (see `Combo`), given their class.
pub fn combo(pats: &[Pat; 4], class: Class) -> Combo {
    let c = |p| count(pats, p);
    let (twos, threes) = (c(F2), c(B3));
    match class {
        Class::Four if threes >= 1 => Combo::FourThreeClosed,
        Class::Four if twos >= 1 => Combo::FourTwo,
        Class::Three if threes >= 1 => Combo::OpenThreeThree,
        Class::Three if twos >= 1 => Combo::OpenThreeTwo,
        Class::None if threes >= 2 => Combo::ThreeThree,
        Class::None if threes >= 1 && twos >= 1 => Combo::ThreeTwo,
        Class::None if twos >= 2 => Combo::TwoTwo,
        _ => Combo::None,
    }
}

fn count(pats: &[Pat; 4], p: Pat) -> usize {
    pats.iter().filter(|&&x| x == p).count()
}

/// Renju (RIF): a five always stands; otherwise an overline or two fours are forbidden, and
/// two threes are forbidden when both are real.
fn renju_forbid(pats: &[Pat; 4]) -> Forbid {
    let c = |p| count(pats, p);
    if c(F5) > 0 {
        Forbid::Legal
    } else if c(OL) > 0 || c(F4) + c(B4) + 2 * c(D4) >= 2 {
        Forbid::Forbidden
    } else if c(F3) >= 2 {
        Forbid::CheckThrees
    } else {
        Forbid::Legal
    }
}

/// Classes for renju's black on points that are not surely forbidden: only a straight four
/// is an open four (a double four is forbidden).
fn classify_renju(pats: &[Pat; 4]) -> Class {
    let c = |p| count(pats, p);
    if c(F5) > 0 {
        Class::Five
    } else if c(F4) > 0 {
        Class::OpenFour
    } else if c(B4) == 1 && c(F3) > 0 {
        Class::FourThree
    } else if c(B4) == 1 {
        Class::Four
    } else if c(F3) >= 2 {
        Class::DoubleThree
    } else if c(F3) == 1 {
        Class::Three
    } else {
        Class::None
    }
}

/// The class of a point's four line patterns under the gomoku rules (and for renju's white).
pub fn classify(pats: &[Pat; 4]) -> Class {
    let c = |p| count(pats, p);
    let (fives, open_fours, fours, threes) = (c(F5), c(F4) + c(D4), c(B4), c(F3));
    if fives > 0 {
        Class::Five
    } else if open_fours > 0 || fours >= 2 {
        Class::OpenFour
    } else if fours == 1 && threes > 0 {
        Class::FourThree
    } else if fours == 1 {
        Class::Four
    } else if threes >= 2 {
        Class::DoubleThree
    } else if threes == 1 {
        Class::Three
    } else {
        Class::None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::*;

    fn key(p: [Pat; 4]) -> PatKey {
        (0..4).fold(0, |key, d| key | (p[d].index() as PatKey) << (4 * d))
    }

    /// Renju black's point of two open threes is most likely forbidden: it is worth nothing
    /// to either side's total and orders as no class, though the threat searches still see
    /// its class. White's tables, and every gomoku rule's, keep the double three's worth.
    #[test]
    fn renju_black_double_three_points_count_for_nothing() {
        let k = key([F3, F3, NONE, NONE]);
        let black = point_tables(Rule::Renju, true).get(k);
        assert_eq!(black.forbid, Forbid::CheckThrees);
        assert_eq!((black.value, black.threat, black.shape), (0, 0, net::NO_SHAPE));
        assert_eq!((black.class, black.sure_class()), (Class::DoubleThree, Class::None));
        for (rule, renju_black) in [(Rule::Renju, false), (Rule::Freestyle, false)] {
            let e = point_tables(rule, renju_black).get(k);
            assert!(e.value > 0 && e.threat > 0, "{rule:?}");
            assert_eq!(e.sure_class(), Class::DoubleThree, "{rule:?}");
        }
        // One open three is no forbidden shape: black keeps its worth.
        let one = point_tables(Rule::Renju, true).get(key([F3, F2, NONE, NONE]));
        assert!(one.value > 0 && one.sure_class() == Class::Three);
    }

    #[test]
    fn renju_black_forbidden_shapes() {
        let t = point_tables(Rule::Renju, true);
        assert_eq!(t.get(key([B4, B4, NONE, NONE])).forbid, Forbid::Forbidden);
        assert_eq!(t.get(key([D4, NONE, NONE, NONE])).forbid, Forbid::Forbidden);
        assert_eq!(t.get(key([OL, F3, NONE, NONE])).forbid, Forbid::Forbidden);
        assert_eq!(t.get(key([F5, OL, B4, B4])).forbid, Forbid::Legal);
        assert_eq!(t.get(key([F3, F3, NONE, NONE])).forbid, Forbid::CheckThrees);
        assert_eq!(t.get(key([B4, F3, NONE, NONE])).forbid, Forbid::Legal);
        assert_eq!(t.get(key([B4, F3, NONE, NONE])).class, Class::FourThree);
        assert_eq!(t.get(key([F4, NONE, NONE, NONE])).class, Class::OpenFour);
        assert_eq!(t.get(key([B4, B4, NONE, NONE])).value, 0);
        let gomoku = point_tables(Rule::Freestyle, false);
        assert_eq!(gomoku.get(key([B4, B4, NONE, NONE])).forbid, Forbid::Legal);
        assert_eq!(gomoku.get(key([D4, NONE, NONE, NONE])).class, Class::OpenFour);
    }

    #[test]
    fn classes_combine_directions() {
        let t = point_tables(Rule::Freestyle, false);
        assert_eq!(t.get(key([F5, NONE, NONE, NONE])).class, Class::Five);
        assert_eq!(t.get(key([B4, B4, NONE, NONE])).class, Class::OpenFour);
        assert_eq!(t.get(key([NONE, F4, B2, NONE])).class, Class::OpenFour);
        assert_eq!(t.get(key([B4, F3, NONE, NONE])).class, Class::FourThree);
        assert_eq!(t.get(key([B4, B3, F2, NONE])).class, Class::Four);
        assert_eq!(t.get(key([F3, F3, NONE, NONE])).class, Class::DoubleThree);
        assert_eq!(t.get(key([F3, B3, NONE, NONE])).class, Class::Three);
        assert_eq!(t.get(key([F2, F2, B3, B1])).class, Class::None);
    }

    #[test]
    fn combinations_below_the_class() {
        let m = |p: [Pat; 4]| {
            let c = classify(&p);
            combo(&p, c)
        };
        assert_eq!(m([F2, F2, NONE, NONE]), Combo::TwoTwo);
        assert_eq!(m([B3, F2, B1, NONE]), Combo::ThreeTwo);
        assert_eq!(m([B3, B3, F2, NONE]), Combo::ThreeThree);
        assert_eq!(m([F3, F2, NONE, NONE]), Combo::OpenThreeTwo);
        assert_eq!(m([F3, B3, F2, NONE]), Combo::OpenThreeThree);
        assert_eq!(m([B4, F2, NONE, NONE]), Combo::FourTwo);
        assert_eq!(m([B4, B3, F2, NONE]), Combo::FourThreeClosed);
        // The class already says it all: four-three, double three, lone shapes.
        assert_eq!(m([B4, F3, F2, NONE]), Combo::None);
        assert_eq!(m([F3, F3, B3, NONE]), Combo::None);
        assert_eq!(m([F2, B2, B1, NONE]), Combo::None);
        let t = point_tables(Rule::Freestyle, false);
        let pats = [F2, F2, NONE, NONE];
        assert_eq!(
            t.get(key(pats)).value as i32,
            2 * params::FREESTYLE.pattern[F2.index()]
                + params::FREESTYLE.combo[Combo::TwoTwo as usize]
                + params::FREESTYLE.shape[shape(&pats)] as i32
        );
    }

    #[test]
    fn shapes_rank_every_multiset_once() {
        let mut seen = vec![false; SHAPE_COUNT];
        for key in 0..=PatKey::MAX {
            let pats = unpack(key);
            if pats.iter().any(|&p| p.index() >= PAT_COUNT) {
                continue;
            }
            let s = shape(&pats);
            let mut sorted = pats;
            sorted.sort_unstable();
            // Every order of the same four patterns is the same shape...
            assert_eq!(s, shape(&sorted));
            seen[s] = true;
        }
        // ...and the ranks cover 0..SHAPE_COUNT without a gap.
        assert!(seen.iter().all(|&x| x));
        assert_eq!(SHAPE_COUNT, 1365);
        assert_eq!(shape(&[NONE; 4]), 0);
        assert_ne!(shape(&[F3, F2, F2, NONE]), shape(&[F3, B3, B1, NONE]));
    }

    #[test]
    fn stronger_points_are_worth_more() {
        let t = point_tables(Rule::Freestyle, false);
        let v = |p| t.get(key(p)).value;
        assert!(v([F5, NONE, NONE, NONE]) > v([F4, NONE, NONE, NONE]));
        assert!(v([F4, NONE, NONE, NONE]) > v([B4, F3, NONE, NONE]));
        assert!(v([B4, F3, NONE, NONE]) > v([F3, F3, NONE, NONE]));
        assert!(v([F3, F3, NONE, NONE]) > v([F3, NONE, NONE, NONE]));
        assert!(v([F3, NONE, NONE, NONE]) > v([F2, NONE, NONE, NONE]));
        assert!(v([F2, NONE, NONE, NONE]) > v([NONE, NONE, NONE, NONE]));
    }
}
