//! Move-ordering scores: how likely a strong player is to choose a candidate point. A point
//! scores by its shape for the side to move, the opponent's shape there, the pair of line
//! patterns (own, opponent's) in each direction, the pair of classes, and its distance to each
//! of the last two moves. Fitted by `pbrain-gorin tune-policy` (`policyfit`) to strong players'
//! moves, in evaluation units (softmax temperature 100), so the search's killer and history
//! bonuses keep their weight.

use crate::board::Board;
use crate::eval::net::NO_SHAPE;
use crate::eval::{CLASS_COUNT, SHAPE_COUNT};
use crate::pattern::PAT_COUNT;
use crate::types::{Color, Pos};

/// Distance buckets to a recent move: 1, 2, 3, 4 or farther (Chebyshev distance), off the
/// move's four lines and then on them (a point in line with a move shares a pattern with it).
pub const DIST_BUCKETS: usize = 10;

include!("policy_params.rs");

/// The last two moves' coordinates, read once per node.
pub struct Recent {
    pub last: Option<(usize, usize)>,
    pub prev: Option<(usize, usize)>,
}

impl Recent {
    pub fn of(b: &Board) -> Recent {
        let mut moves = b.moves().rev();
        let last = moves.next().map(|p| b.xy(p));
        let prev = moves.next().map(|p| b.xy(p));
        Recent { last, prev }
    }
}

/// The distance bucket from `(x, y)` to `q` (the farthest when there is no `q`).
pub fn distance_bucket(x: usize, y: usize, q: Option<(usize, usize)>) -> usize {
    let Some((qx, qy)) = q else { return 4 };
    let (dx, dy) = (x.abs_diff(qx), y.abs_diff(qy));
    let on_line = dx == 0 || dy == 0 || dx == dy;
    dx.max(dy).clamp(1, 5) - 1 + 5 * on_line as usize
}

fn of_shape(table: &[i32; SHAPE_COUNT], shape: u16) -> i32 {
    if shape == NO_SHAPE {
        0
    } else {
        table[shape as usize]
    }
}

/// The ordering score of the empty point `p` for `us`, the side to move.
#[inline]
pub fn score(b: &Board, p: Pos, us: Color, recent: &Recent) -> i32 {
    let (x, y) = b.xy(p);
    let them = us.opp();
    let (own, opp) = (b.pattern_key(p, us), b.pattern_key(p, them));
    let pairs: i32 = (0..4)
        .map(|d| {
            POLICY_PAIR[((own >> (4 * d)) & 0xF) as usize * PAT_COUNT + ((opp >> (4 * d)) & 0xF) as usize]
        })
        .sum();
    pairs
        + POLICY_CLASSES[b.sure_class(p, us) as usize * CLASS_COUNT + b.sure_class(p, them) as usize]
        + of_shape(&POLICY_OWN, b.shape(p, us))
        + of_shape(&POLICY_OPP, b.shape(p, them))
        + POLICY_NEAR_LAST[distance_bucket(x, y, recent.last)]
        + POLICY_NEAR_PREV[distance_bucket(x, y, recent.prev)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Rule;

    #[test]
    fn distance_buckets_tell_lines_from_the_rest() {
        assert_eq!(distance_bucket(7, 7, None), 4);
        assert_eq!(distance_bucket(7, 7, Some((8, 8))), 5, "diagonal neighbour");
        assert_eq!(distance_bucket(7, 7, Some((7, 11))), 8, "four away on the column");
        assert_eq!(distance_bucket(7, 7, Some((8, 9))), 1, "a knight's move is off the lines");
        assert_eq!(distance_bucket(0, 0, Some((9, 0))), 9);
        assert_eq!(distance_bucket(0, 0, Some((9, 1))), 4);
    }

    #[test]
    fn a_point_making_an_open_three_outranks_a_quiet_one() {
        let mut b = Board::new(15, 15, Rule::Freestyle);
        for (x, y) in [(7, 7), (9, 9), (7, 8), (10, 10)] {
            let p = b.pos(x, y).unwrap();
            b.make(p);
        }
        let us = b.side_to_move();
        let recent = Recent::of(&b);
        let three = b.pos(7, 9).unwrap();
        let quiet = b.pos(5, 10).unwrap();
        assert!(score(&b, three, us, &recent) > score(&b, quiet, us, &recent));
        // Blocking white's three-to-be at (11, 11) beats the quiet point too.
        let block = b.pos(11, 11).unwrap();
        assert!(score(&b, block, us, &recent) > score(&b, quiet, us, &recent));
    }
}
