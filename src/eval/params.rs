//! Evaluation weights, all in one place so tuning touches one file.
//!
//! A point's value is the potential it holds for one side: the sum of its line patterns plus a
//! bonus for the combination they form. The position's value for the side to move is its own
//! point total minus the opponent's, plus a tempo bonus.

use super::pattern::PAT_COUNT;
use super::CLASS_COUNT;

/// Value of a point per line pattern it would make, indexed by `pattern::Pat`:
/// none, B1, F1, B2, F2, B3, F3, B4, F4, F5, overline, double four in a line.
/// Ones and twos stay small: a lone stone gives some twenty points a "two" pattern, so larger
/// values made far-away moves look better than contact with the opponent's stones.
pub const PATTERN_VALUE: [i32; PAT_COUNT] = [0, 0, 1, 1, 4, 5, 36, 40, 300, 1200, 0, 300];

/// Extra value of a point per combined class, indexed by `Class`:
/// none, three, double three, four, four-three, open four, five.
pub const CLASS_BONUS: [i32; CLASS_COUNT] = [0, 0, 120, 0, 350, 300, 0];

/// The side to move gets to realise its potential first.
pub const TEMPO: i32 = 20;

/// Opponent potential counts this much (in 1/16) against the side to move: the side to move
/// acts first, so the opponent's points are slightly less urgent.
pub const OPPONENT_WEIGHT_16: i32 = 14;
