//! Evaluation weights, all in one place so tuning touches one file.
//!
//! A point's value is the potential it holds for one side: the sum of its line patterns plus a
//! bonus for the combination they form. The position's value for the side to move is its own
//! point total minus the opponent's (weighed by the opponent tables: the side to move acts
//! first, so the same shape is worth a different amount to each side), plus a tempo bonus.
//!
//! The weights below ones through fours and the class bonuses were fitted by
//! `pbrain-gorin tune` (logistic regression on 207,682 quiet positions of the 7,327 decided
//! Gomocup 2016 games in `shared/data`; log loss 0.648 with the hand-set weights, 0.619 fitted,
//! scale 950). Own fives, open fours and double fours in a line are rare in quiet positions and
//! keep their hand-set values. The small weights of ones matter: every stone gives many points
//! a one.

use super::pattern::PAT_COUNT;
use super::CLASS_COUNT;

/// Value of a point per line pattern it would make, indexed by `pattern::Pat`:
/// none, B1, F1, B2, F2, B3, F3, B4, F4, F5, overline, double four in a line.
pub const PATTERN_VALUE: [i32; PAT_COUNT] = [0, 0, 0, 0, 17, 22, 67, 65, 300, 1200, 0, 300];

/// Extra value of a point per combined class, indexed by `Class`:
/// none, three, double three, four, four-three, open four, five.
pub const CLASS_BONUS: [i32; CLASS_COUNT] = [0, 28, 220, 25, 350, 300, 0];

/// The same, for the opponent's points as the side to move sees them.
pub const OPPONENT_PATTERN_VALUE: [i32; PAT_COUNT] = [0, 0, 0, 0, 16, 19, 57, 85, 207, 1050, 0, 371];
pub const OPPONENT_CLASS_BONUS: [i32; CLASS_COUNT] = [0, 20, 151, 18, 377, 229, 0];

/// The side to move gets to realise its potential first.
pub const TEMPO: i32 = 260;
