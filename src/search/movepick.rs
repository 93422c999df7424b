//! Move generation and ordering.
//!
//! When the opponent threatens to make an open four (or a double four), only moves that can
//! matter are generated: points where the opponent could make a four or better (this includes
//! every block of an open three and of a split three) and our own fours, which force a reply
//! first. Otherwise every candidate near the stones is generated.

use crate::board::{Board, Color, Pos};
use crate::eval::{C_FOUR, C_OPEN_FOUR};

/// A move and its ordering score.
#[derive(Copy, Clone, Debug)]
pub struct Scored {
    pub pos: Pos,
    pub score: i32,
}

/// Ordering bonuses above any pattern value.
pub const TT_MOVE_BONUS: i32 = 1 << 28;
const KILLER_BONUS: i32 = 300;

/// Whether the opponent of the side to move threatens to win by an open four next move.
pub fn under_three_threat(b: &Board, them: Color) -> bool {
    b.class_count(them, C_OPEN_FOUR) > 0
}

/// Fills `out` with the moves worth searching for the side to move, scored for ordering.
pub fn generate(b: &Board, out: &mut Vec<Scored>, killers: &[Pos; 2], history: &[i32], tt_move: Pos) {
    out.clear();
    let us = b.side_to_move();
    let them = us.opp();
    let defending = under_three_threat(b, them);
    b.for_each_candidate(|p| {
        if defending && b.class(p, us) < C_FOUR && b.class(p, them) < C_FOUR {
            return;
        }
        let mut score = b.point_value(p, us) + b.point_value(p, them) * 7 / 8;
        if p == tt_move {
            score += TT_MOVE_BONUS;
        } else if killers.contains(&p) {
            score += KILLER_BONUS;
        }
        score += history[p.index()] / 64;
        out.push(Scored { pos: p, score });
    });
    // Ties broken by position keep the order, and so `bench`, deterministic.
    out.sort_unstable_by(|a, b| b.score.cmp(&a.score).then(a.pos.cmp(&b.pos)));
}

/// Our moves that make a four (for the threat quiescence), most valuable first.
pub fn generate_fours(b: &Board, out: &mut Vec<Scored>) {
    out.clear();
    let us = b.side_to_move();
    b.for_each_candidate(|p| {
        if b.class(p, us) >= C_FOUR {
            out.push(Scored { pos: p, score: b.point_value(p, us) });
        }
    });
    out.sort_unstable_by(|a, b| b.score.cmp(&a.score).then(a.pos.cmp(&b.pos)));
}

/// The point where `color` would make a five, if any.
pub fn five_point(b: &Board, color: Color) -> Option<Pos> {
    let mut found = None;
    b.for_each_candidate(|p| {
        if found.is_none() && b.class(p, color) == crate::eval::C_FIVE {
            found = Some(p);
        }
    });
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;

    fn moves(text: &str) -> Vec<(usize, usize)> {
        let b = Board::from_ascii(text, Rule::Freestyle);
        let mut out = Vec::new();
        generate(&b, &mut out, &[Pos::NONE; 2], &vec![0; crate::board::MAX_CELLS], Pos::NONE);
        out.iter().map(|s| b.xy(s.pos)).collect()
    }

    #[test]
    fn open_three_restricts_moves_to_defences() {
        // White (o) has an open three on row 4; black to move has nothing.
        let m = moves(
            "...........\n\
             ...........\n\
             ........x..\n\
             ...........\n\
             ...ooo.....\n\
             ...........\n\
             .x.........\n\
             ...........\n\
             ......x....\n\
             ...........\n\
             ...........",
        );
        let mut sorted = m.clone();
        sorted.sort();
        assert_eq!(sorted, vec![(1, 4), (2, 4), (6, 4), (7, 4)]);
    }

    #[test]
    fn finds_five_point() {
        let b = Board::from_ascii(
            ".......\n.xxxx..\n.oooo..\n.......\n.......\n.......\n.......",
            Rule::Freestyle,
        );
        assert_eq!(b.side_to_move(), Color::Black);
        assert_eq!(five_point(&b, Color::Black).map(|p| b.xy(p)), Some((0, 1)));
        assert!(five_point(&b, Color::White).is_some());
    }
}
