//! Evaluation weights, all in one place so tuning touches one file.
//!
//! A point's value is the potential it holds for one side: the sum of its line patterns plus a
//! bonus for the class they form and one for the combination below it (`eval::Combo`: what
//! the point prepares, such as two open twos or a closed three beside an open two). The position's value for the side to move is its own
//! point total minus the opponent's (weighed by the opponent tables: the side to move acts
//! first, so the same shape is worth a different amount to each side), plus a tempo bonus.
//!
//! The weights below ones through fours and the class and combination bonuses were fitted by
//! `pbrain-gorin tune` to a stronger engine's judgement rather than to game results: 80,697
//! positions drawn from the Gomocup 2016 games and from Gorin's match games, each evaluated by
//! Rapfi (classical evaluation, 20,000 nodes, `scripts/teacher.py`), its evaluation turned into a
//! winning probability by the logistic scale that best fits the games' results (450); 57,977 of
//! them are quiet. A game's result labels its positions with the play of the rest of the game
//! as much as with the positions themselves; the teacher's judgement is a far less noisy label
//! (the previous weights were fitted to results). Self-play at 20,000 nodes a
//! move against the previous weights: 226-165-9 over 400 games, +53 +/- 34 Elo (fitted to game
//! results with the same features plus Gorin's own games: +19 +/- 34). Own fives, open fours and
//! double fours in a line are rare in quiet positions and keep their hand-set values. The
//! small weights of ones matter: every stone gives many points a one.

use super::pattern::PAT_COUNT;
use super::{CLASS_COUNT, COMBO_COUNT};

/// Value of a point per line pattern it would make, indexed by `pattern::Pat`:
/// none, B1, F1, B2, F2, B3, F3, B4, F4, F5, overline, double four in a line.
pub const PATTERN_VALUE: [i32; PAT_COUNT] = [0, 0, 0, 0, 9, 17, 41, 84, 300, 1200, 0, 300];

/// Extra value of a point per combined class, indexed by `Class`:
/// none, three, double three, four, four-three, open four, five.
pub const CLASS_BONUS: [i32; CLASS_COUNT] = [0, 37, 176, 44, 350, 300, 0];

/// Extra value of a point per combination, indexed by `Combo`: none, two twos, three and
/// two, two threes, open three and two, open three and three, four and two, four and three.
pub const COMBO_BONUS: [i32; COMBO_COUNT] = [0, 30, 48, 62, 84, 91, 170, 102];

/// The same, for the opponent's points as the side to move sees them.
pub const OPPONENT_PATTERN_VALUE: [i32; PAT_COUNT] = [0, 0, 0, 0, 6, 16, 104, 133, 220, 1050, 0, 82];
pub const OPPONENT_CLASS_BONUS: [i32; CLASS_COUNT] = [0, -45, 16, -16, 559, 326, 0];
pub const OPPONENT_COMBO_BONUS: [i32; COMBO_COUNT] = [0, 32, 39, 50, 74, 86, 166, 223];

/// The side to move gets to realise its potential first.
pub const TEMPO: i32 = 379;
