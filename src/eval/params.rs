//! Evaluation weights, all in one place so tuning touches one file.
//!
//! A point's value is the potential it holds for one side: the sum of its line patterns plus a
//! bonus for the class they form and one for the combination below it (`eval::Combo`: what
//! the point prepares, such as two open twos or a closed three beside an open two). The position's value for the side to move is its own
//! point total minus the opponent's (weighed by the opponent tables: the side to move acts
//! first, so the same shape is worth a different amount to each side), plus a tempo bonus.
//!
//! The weights below ones through fours and the class and combination bonuses were fitted by
//! `pbrain-gorin tune` (logistic regression on 207,678 quiet positions of the 7,327 decided
//! Gomocup 2016 games in `shared/data`, scale 650: log loss 0.620 with the previous weights,
//! which had no combinations, 0.612 now). Self-play at 300 ms against the previous weights:
//! 96-63-1 over 160 games, +73 +/- 55 Elo. Own fives, open fours and double fours in a line are rare in quiet positions and
//! keep their hand-set values. The small weights of ones matter: every stone gives many points
//! a one.

use super::pattern::PAT_COUNT;
use super::{CLASS_COUNT, COMBO_COUNT};

/// Value of a point per line pattern it would make, indexed by `pattern::Pat`:
/// none, B1, F1, B2, F2, B3, F3, B4, F4, F5, overline, double four in a line.
pub const PATTERN_VALUE: [i32; PAT_COUNT] = [0, 0, 0, 0, 9, 20, 51, 59, 300, 1200, 0, 300];

/// Extra value of a point per combined class, indexed by `Class`:
/// none, three, double three, four, four-three, open four, five.
pub const CLASS_BONUS: [i32; CLASS_COUNT] = [0, 19, 264, 19, 350, 300, 0];

/// Extra value of a point per combination, indexed by `Combo`: none, two twos, three and
/// two, two threes, open three and two, open three and three, four and two, four and three.
pub const COMBO_BONUS: [i32; COMBO_COUNT] = [0, 26, 27, -15, 94, 39, 130, 118];

/// The same, for the opponent's points as the side to move sees them.
pub const OPPONENT_PATTERN_VALUE: [i32; PAT_COUNT] = [0, 0, 0, 0, 8, 22, 80, 80, 197, 1050, 0, 397];
pub const OPPONENT_CLASS_BONUS: [i32; CLASS_COUNT] = [0, -10, 109, -1, 373, 254, 0];
pub const OPPONENT_COMBO_BONUS: [i32; COMBO_COUNT] = [0, 30, 11, -32, 43, 30, 133, 166];

/// The side to move gets to realise its potential first.
pub const TEMPO: i32 = 352;
