//! Evaluation weights, all in one place so tuning touches one file.
//!
//! A point's value is the potential it holds for one side: the sum of its line patterns plus a
//! bonus for the class they form and one for the combination below it (`eval::Combo`: what
//! the point prepares, such as two open twos or a closed three beside an open two). The position's value for the side to move is its own
//! point total minus the opponent's (weighed by the opponent tables: the side to move acts
//! first, so the same shape is worth a different amount to each side), plus a tempo bonus.
//!
//! A point's shape (`eval::shape`: its four patterns as a multiset) adds one more
//! correction per side, which tells apart shapes the sums treat alike.
//!
//! The weights below ones through fours, the class, combination and shape values were fitted
//! by `pbrain-gorin tune` to a stronger engine's judgement rather than to game results:
//! 105,578 positions drawn from the Gomocup 2016 games and from Gorin's match games, each
//! evaluated by Rapfi (classical evaluation, 20,000 nodes, `scripts/teacher.py`), its
//! evaluation turned into a winning probability by the logistic scale that best fits the
//! games' results (450). 75,576 of them are quiet; every tenth of those was held out, and its
//! log loss went from 0.5585 (the previous weights, no shapes) to 0.5457. A game's result
//! labels its positions with the play of the rest of the game as much as with the positions
//! themselves; the teacher's judgement is a far less noisy label. Self-play at 20,000 nodes a
//! move: teacher weights without shapes against weights fitted to results 226-165-9 over 400
//! games (+53 +/- 34 Elo); these, with shapes, against the teacher weights without shapes
//! 411-369-20 over 800 games (+18 +/- 24).
//! Own fives, open fours and double fours in a line are rare in quiet positions and keep their
//! hand-set values. The small weights of ones matter: every stone gives many points a one.
//!
//! The net of `net.rs` adds a correction on top of this linear value; it was fitted after
//! these weights and must be refitted when they change (`pbrain-gorin tune-net`).

use super::net::{self, NetWeights, Row, FREESTYLE_NET};
use super::{CLASS_COUNT, COMBO_COUNT, SHAPE_COUNT};
use crate::pattern::PAT_COUNT;
use crate::types::Rule;
use std::sync::OnceLock;

/// One rule's evaluation weights. The rules differ in what their patterns lead to (an overline
/// wins or not; a closed four near one may be dead), so a teacher judging under each rule gives
/// each its own fit (`pbrain-gorin tune` fits the set of its records' rule and prints it).
pub struct Weights {
    /// Value of a point per line pattern it would make, indexed by `pattern::Pat`:
    /// none, B1, F1, B2, F2, B3, F3, B4, F4, F5, overline, double four in a line.
    pub pattern: [i32; PAT_COUNT],
    /// Extra value of a point per combined class, indexed by `Class`:
    /// none, three, double three, four, four-three, open four, five.
    pub class: [i32; CLASS_COUNT],
    /// Extra value of a point per combination, indexed by `Combo`: none, two twos, three and
    /// two, two threes, open three and two, open three and three, four and two, four and three.
    pub combo: [i32; COMBO_COUNT],
    /// The same, for the opponent's points as the side to move sees them.
    pub opponent_pattern: [i32; PAT_COUNT],
    pub opponent_class: [i32; CLASS_COUNT],
    pub opponent_combo: [i32; COMBO_COUNT],
    /// The side to move gets to realise its potential first.
    pub tempo: i32,
    /// Corrections per point shape (`eval::shape`), own and as the opponent's, added to the
    /// linear value above.
    pub shape: [i16; SHAPE_COUNT],
    pub opponent_shape: [i16; SHAPE_COUNT],
    /// The net's correction on top of the linear value: fitted to the same records after
    /// these weights, so it belongs to them.
    pub net: &'static NetWeights,
}

/// The freestyle weights (documented at the top), also used by renju and caro.
pub const FREESTYLE: Weights = Weights {
    pattern: [0, 0, 0, 0, 17, 25, 37, 87, 300, 1200, 0, 300],
    class: [0, 29, 210, 47, 350, 300, 0],
    combo: [0, 10, 28, 60, 112, 104, 156, 204],
    opponent_pattern: [0, 0, 0, 0, 26, 39, 103, 152, 217, 1050, 0, 47],
    opponent_class: [0, -57, -16, -22, 585, 394, 0],
    opponent_combo: [0, -4, 2, 13, 60, 80, 138, 235],
    tempo: 289,
    shape: [
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, -7, -20, 2, -25, -22, -22, -9, -13, -16, -11, -19, -26, -13, -2, -3, 9, -30, 1, -5, 25, -33, -33,
        19, -4, -3, -17, 0, 8, -6, 21, 34, 19, -16, -4, -83, -33, -32, -17, -13, -13, -19, -12, -19, -9, 16,
        -11, -23, -10, -21, -11, 16, -9, -2, -2, 10, -36, -21, -18, -15, -5, 5, -13, 10, -9, 16, 14, 19, 17,
        8, -16, -69, -37, -51, -57, -14, 11, -42, -13, -5, 9, 35, 73, 29, 36, 31, -13, 58, -9, 155, 63, -114,
        -52, -54, -63, -108, -35, -9, 4, 8, 27, 21, -23, 21, -4, 28, 39, 50, 44, 90, 28, 1, -26, -21, -98,
        -9, -43, -50, 41, -27, -70, 15, 194, 5, -73, -85, -3, -102, 4, -72, 14, 4, 11, 17, -33, -20, -38,
        102, 27, -61, -19, 111, 160, 147, -158, -58, 8, 79, 52, 51, -110, 45, -60, -147, 358, -96, -272,
        -103, 181, 2, -194, -187, -71, 3, -15, -22, -90, 185, 193, 220, -100, 4, -101, -21, 65, 0, -94, -99,
        -35, -7, -51, -23, -18, 5, 37, 75, -46, -11, 3, -13, 42, 85, 20, 51, 87, 51, -124, -54, -85, -9, -6,
        35, 44, -4, 26, 131, 68, 105, 130, -39, -22, -157, -162, -92, -161, -70, -12, -90, -47, 40, 201, 14,
        144, 52, 108, 231, 3, -114, 61, 106, 134, 29, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    ],
    opponent_shape: [
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, -20, -42, -21, -56, -30, -28, -32, -22, -23, -29, -30, -37, -20, -19, -13, -4, -26, -16, -12, 15,
        -36, -36, 0, -14, -20, -15, -16, 2, -17, 3, -9, 5, -18, -21, -95, -30, -41, -49, -79, -42, -35, -29,
        -28, -24, -19, -23, -25, -25, -42, -18, -11, -31, -13, -24, 27, -44, -39, -26, -13, -13, -9, -17,
        -14, -14, -10, -2, 2, -6, 21, -41, -70, -48, -45, -28, -14, 6, -53, -3, -18, 6, 11, 24, 20, -28, 81,
        -81, 73, -44, -60, 167, 76, -31, -59, -49, -151, -20, -34, -32, 23, 11, 27, -33, 14, -10, 32, 42, 55,
        47, 48, 77, 19, -47, -32, -59, -16, -15, -11, 8, 40, 3, 30, 69, 21, 13, 4, -5, -83, -47, -76, 17, 12,
        20, -9, 22, -4, 34, 27, 11, 3, 74, -16, 80, -70, -3, -15, 83, 57, -51, 76, -35, 73, 38, 23, 167, 86,
        -18, 25, 99, 125, 134, -206, -195, 46, -19, 68, -53, 27, 77, -12, -297, -31, -96, -62, 0, 0, -87,
        -69, -33, 25, -47, -25, -2, -3, 14, 25, -28, 1, -6, 5, 36, 80, 67, 63, 49, 89, -124, -50, -126, -40,
        -16, -11, 42, 19, 36, 79, 17, 97, 97, 103, 182, -157, -87, -96, -69, -50, 11, -87, -22, -55, 78, 38,
        67, 155, 29, 161, 72, -44, 51, 83, 42, 61, -160, -204, -251, -76, -78, 42, -121, -22, 101, 62, 125,
        -47, 158, 83, 128, -62, -27, 98, 109, 147, 13, -1, 2, 84, -46, 0, 0, 0, -225, 74, 153, -2, 48, 254,
        -264, 44, 13, 16, 87, 118, -96, -19, 10, -171, 13, -123, 51, -27, 39, 16, 34, 0, 0, 0, 0, 0, 0, 0, 0,
        -5, 0, 0, 0, 0, -137, -138, -304, -295, -223, -259, -239, -155, -238, -193, -52, -76, -156, -100,
        -33, -11, 114, 14, -20, 76, 75, -24, -66, -33, -108, -44, 196, 140, 100, 213, 353, -120, -29, 353,
        15, -29, 20, -136, 44, 39, 170, 167, 120, 79, 250, 266, 121, 191, 286, 52, 151, 175, 46, -30, 68, 0,
        113, -235, -51, 20, -40, 82, 74, -44, 149, 253, 34, -5, -34, 54, -3, 118, 32, -34, 123, -21, -16,
        -39, 16, 0, 0, 0, 0, 0, 24, 75, 16, 1, -90, -205, 156, 55, 17, -39, 0, 0, -107, 3, 0, 0, 0, 1, 1, 0,
        0, 0, 15, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 11, 0, 0, 0, 0, 0,
        0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9, 49, -169, 25, -82, -135,
        -14, -23, -77, 0, 48, -53, -48, -85, 61, 4, 4, 64, 56, -2, 58, -22, -12, 13, -7, 23, 102, 3, 121, 16,
        -15, 3, -15, 31, 0, -116, 125, 0, 20, 34, 0, -22, 1, 15, 17, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -17, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0,
    ],
    net: &FREESTYLE_NET,
};

include!("params_standard.rs");

/// The weight sets, in the order `set_index` numbers them, and the names `tune` prints them by.
pub const SETS: [&Weights; 2] = [&FREESTYLE, &STANDARD];
pub const SET_NAMES: [&str; 2] = ["FREESTYLE", "STANDARD"];

/// Which weight set a rule evaluates with.
pub fn set_index(rule: Rule) -> usize {
    match rule {
        Rule::Standard => 1,
        Rule::Freestyle | Rule::Renju | Rule::CaroOverline | Rule::CaroExact => 0,
    }
}

/// The weights a rule evaluates with.
pub fn for_rule(rule: Rule) -> &'static Weights {
    SETS[set_index(rule)]
}

/// The first-layer rows of the net `rule` evaluates with (`net::expand_rows`), made once per
/// weight set.
pub fn net_rows(rule: Rule) -> &'static [Row] {
    static ROWS: [OnceLock<Vec<Row>>; SETS.len()] = [const { OnceLock::new() }; SETS.len()];
    let set = set_index(rule);
    ROWS[set].get_or_init(|| net::expand_rows(SETS[set].net))
}
