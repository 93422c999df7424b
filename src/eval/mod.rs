//! Evaluation: line patterns per point, combined over the four directions into a point class
//! and a point value; the position's value is the sum of point values of both sides.

pub mod params;
pub mod pattern;

use pattern::{Pat, B4, F3, F4, F5, PAT_COUNT};
use std::sync::OnceLock;

/// What a stone of one colour on an empty point would make, over all four directions.
pub type Class = u8;
pub const C_NONE: Class = 0;
/// Makes one open three.
pub const C_THREE: Class = 1;
/// Makes two open threes.
pub const C_DOUBLE_THREE: Class = 2;
/// Makes a (closed) four.
pub const C_FOUR: Class = 3;
/// Makes a four and an open three at once.
pub const C_FOUR_THREE: Class = 4;
/// Makes an open four or two fours: a win unless the opponent can answer with fours.
pub const C_OPEN_FOUR: Class = 5;
/// Makes a five.
pub const C_FIVE: Class = 6;
pub const CLASS_COUNT: usize = 7;

/// A point's four line patterns packed as nibbles (direction d at bits 4d..4d+4).
pub type PatKey = u16;

/// Class and value of every packed pattern key.
pub struct PointTables {
    pub class: Box<[Class]>,
    pub value: Box<[i32]>,
}

pub fn point_tables() -> &'static PointTables {
    static TABLES: OnceLock<PointTables> = OnceLock::new();
    TABLES.get_or_init(build_point_tables)
}

/// Splits a packed key into its four direction patterns.
pub fn unpack(key: PatKey) -> [Pat; 4] {
    [0, 1, 2, 3].map(|d| ((key >> (4 * d)) & 0xF) as Pat)
}

fn build_point_tables() -> PointTables {
    let n = 1 << 16;
    let mut class = vec![C_NONE; n].into_boxed_slice();
    let mut value = vec![0i32; n].into_boxed_slice();
    for key in 0..n {
        let pats = unpack(key as PatKey);
        if pats.iter().any(|&p| p as usize >= PAT_COUNT) {
            continue;
        }
        let c = classify(&pats);
        class[key] = c;
        let lines: i32 = pats.iter().map(|&p| params::PATTERN_VALUE[p as usize]).sum();
        value[key] = lines + params::CLASS_BONUS[c as usize];
    }
    PointTables { class, value }
}

fn classify(pats: &[Pat; 4]) -> Class {
    let count = |p: Pat| pats.iter().filter(|&&x| x == p).count();
    let (fives, open_fours, fours, threes) = (count(F5), count(F4), count(B4), count(F3));
    if fives > 0 {
        C_FIVE
    } else if open_fours > 0 || fours >= 2 {
        C_OPEN_FOUR
    } else if fours == 1 && threes > 0 {
        C_FOUR_THREE
    } else if fours == 1 {
        C_FOUR
    } else if threes >= 2 {
        C_DOUBLE_THREE
    } else if threes == 1 {
        C_THREE
    } else {
        C_NONE
    }
}

#[cfg(test)]
mod tests {
    use super::pattern::*;
    use super::*;

    fn key(p: [Pat; 4]) -> usize {
        (p[0] as usize) | (p[1] as usize) << 4 | (p[2] as usize) << 8 | (p[3] as usize) << 12
    }

    #[test]
    fn classes_combine_directions() {
        let t = point_tables();
        assert_eq!(t.class[key([F5, NONE, NONE, NONE])], C_FIVE);
        assert_eq!(t.class[key([B4, B4, NONE, NONE])], C_OPEN_FOUR);
        assert_eq!(t.class[key([NONE, F4, B2, NONE])], C_OPEN_FOUR);
        assert_eq!(t.class[key([B4, F3, NONE, NONE])], C_FOUR_THREE);
        assert_eq!(t.class[key([B4, B3, F2, NONE])], C_FOUR);
        assert_eq!(t.class[key([F3, F3, NONE, NONE])], C_DOUBLE_THREE);
        assert_eq!(t.class[key([F3, B3, NONE, NONE])], C_THREE);
        assert_eq!(t.class[key([F2, F2, B3, B1])], C_NONE);
    }

    #[test]
    fn stronger_points_are_worth_more() {
        let t = point_tables();
        let v = |p| t.value[key(p)];
        assert!(v([F5, NONE, NONE, NONE]) > v([F4, NONE, NONE, NONE]));
        assert!(v([F4, NONE, NONE, NONE]) > v([B4, F3, NONE, NONE]));
        assert!(v([B4, F3, NONE, NONE]) > v([F3, F3, NONE, NONE]));
        assert!(v([F3, F3, NONE, NONE]) > v([F3, NONE, NONE, NONE]));
        assert!(v([F3, NONE, NONE, NONE]) > v([F2, NONE, NONE, NONE]));
        assert!(v([F2, NONE, NONE, NONE]) > v([NONE, NONE, NONE, NONE]));
    }
}
