//! Move generation and ordering.
//!
//! When the opponent threatens to make an open four (or a double four), only moves that can
//! matter are generated: points where the opponent could make a four or better (this includes
//! every block of an open three and of a split three, and in renju the points forbidden to
//! black on its three's line) and our own fours, which force a reply first. Otherwise every
//! candidate near the stones is generated.

use super::policy;
use crate::board::Board;
use crate::eval::{Class, Forbid};
use crate::pattern;
use crate::rules::renju::ForbiddenPoints;
use crate::types::{Color, Pos, Rule};

/// A move and its ordering score.
#[derive(Copy, Clone, Debug)]
pub struct Scored {
    pub pos: Pos,
    pub score: i32,
}

/// Ordering bonuses above any pattern value.
pub const TT_MOVE_BONUS: i32 = 1 << 28;
const KILLER_BONUS: i32 = 300;
/// The counter move's bonus, in renju only: two logits of the fitted ordering (softmax
/// temperature 100), below a killer's three. The ordering was fitted to freestyle games, and in
/// renju, where forbidden points change which answers hold, what the search has seen refute a
/// move is worth more: in renju self-play (`renju_26_openings.txt`, 300 games each, Elo over
/// 150 pairs) +29 +/- 26 at 100 ms and +19 +/- 26 at 300 ms. In freestyle and standard it
/// displaced better-ordered moves: -17 +/- 23 and -9 +/- 20 at 100 ms.
const COUNTER_BONUS: i32 = 200;
const _: () = assert!(COUNTER_BONUS > 0 && COUNTER_BONUS < KILLER_BONUS);

/// Moves that cut nodes off earlier in the search, which the ordering puts forward: the
/// killers of the node's ply and the counter move, the reply that last refuted the
/// opponent's last move wherever it was played (a defence that held against a stone holds
/// against it again, whatever was played in between).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Refuters {
    pub killers: [Pos; 2],
    pub counter: Pos,
}

impl Refuters {
    pub const NONE: Refuters = Refuters { killers: [Pos::NONE; 2], counter: Pos::NONE };
}

/// Whether the opponent of the side to move threatens to win by an open four next move.
pub fn under_three_threat(b: &Board, them: Color) -> bool {
    b.class_count(them, Class::OpenFour) > 0
}

/// Whether the side to move may play `p` (renju's black may not play a forbidden point).
pub fn is_legal(b: &mut Board, p: Pos) -> bool {
    let us = b.side_to_move();
    legal_for(b, p, us)
}

/// Whether `color` may play the empty point `p`, whoever is to move.
pub fn legal_for(b: &mut Board, p: Pos, color: Color) -> bool {
    b.is_empty(p) && (b.forbid_hint(p, color) == Forbid::Legal || !b.is_forbidden(p))
}

/// Whether the side to move is renju's black, whose moves may be forbidden.
fn renju_black(b: &Board) -> bool {
    b.rule() == Rule::Renju && b.side_to_move() == Color::Black
}

/// Whether `p` can matter when the opponent threatens an open four: a four or better for
/// either side there (see the module's comment).
fn meets_threat(b: &Board, p: Pos, us: Color) -> bool {
    b.class(p, us) >= Class::Four || blocks_four_line(b, p, us.opp())
}

/// Whether a stone of the other side at `p` takes a point where `color` would make a four or
/// better. Renju's black has no class on a point forbidden to it (a double four there), yet
/// that point still lies on its three's line, and white may block there: without this
/// test the search never tried such blocks and the threat solver took black's threes for
/// wins that white answers there.
pub fn blocks_four_line(b: &Board, p: Pos, color: Color) -> bool {
    b.class(p, color) >= Class::Four
        || (b.forbid_hint(p, color) == Forbid::Forbidden
            && b.patterns(p, color).iter().any(|&q| q == pattern::B4 || q == pattern::F4 || q == pattern::D4))
}

/// Drops renju black's forbidden points from a move list (nothing to do in other rules).
fn drop_forbidden(b: &mut Board, out: &mut Vec<Scored>) {
    if renju_black(b) {
        out.retain(|m| legal_for(b, m.pos, Color::Black));
    }
}

/// Fills `out` with the moves worth searching for the side to move, scored for ordering,
/// best first.
pub fn generate(b: &mut Board, out: &mut Vec<Scored>, refuters: &Refuters, history: &[i32], tt_move: Pos) {
    generate_unordered(b, out, refuters, history, tt_move);
    out.sort_unstable_by(better);
}

/// The order of `generate`: higher score first, ties by position, so that the order (and
/// `bench`) is deterministic.
fn better(a: &Scored, b: &Scored) -> std::cmp::Ordering {
    b.score.cmp(&a.score).then(a.pos.cmp(&b.pos))
}

/// Moves `out[i..]`'s best move to `out[i]` and returns it: `generate`'s order, paid only
/// for the moves a node gets to (most nodes cut off or hit the move cap after a few).
pub fn pick_next(out: &mut [Scored], i: usize) -> Scored {
    let mut best = i;
    for j in i + 1..out.len() {
        if better(&out[j], &out[best]).is_lt() {
            best = j;
        }
    }
    out.swap(i, best);
    out[i]
}

/// Whether `generate` lists `p`: the table's move is searched before the others are
/// generated (it often cuts the node off, and scoring every candidate is a sixth of the
/// search's time), so it must be one of the moves the node would search anyway.
pub fn generates(b: &mut Board, p: Pos) -> bool {
    let us = b.side_to_move();
    b.is_candidate(p)
        && (!under_three_threat(b, us.opp()) || meets_threat(b, p, us))
        && (!renju_black(b) || legal_for(b, p, us))
}

/// `generate` without the ordering: take the moves with `pick_next`.
pub fn generate_unordered(
    b: &mut Board,
    out: &mut Vec<Scored>,
    refuters: &Refuters,
    history: &[i32],
    tt_move: Pos,
) {
    out.clear();
    let us = b.side_to_move();
    let defending = under_three_threat(b, us.opp());
    let recent = policy::Recent::of(b);
    let counter_bonus = if b.rule() == Rule::Renju { COUNTER_BONUS } else { 0 };
    b.for_each_candidate(|p| {
        if defending && !meets_threat(b, p, us) {
            return;
        }
        let mut score = policy::score(b, p, us, &recent);
        if p == tt_move {
            score += TT_MOVE_BONUS;
        } else if refuters.killers.contains(&p) {
            score += KILLER_BONUS;
        } else if p == refuters.counter {
            score += counter_bonus;
        }
        score += history[p.index()] / 64;
        out.push(Scored { pos: p, score });
    });
    drop_forbidden(b, out);
}

/// A point where `color` makes an open four (or, in gomoku, a double four) that it may
/// legally play: a win unless the other side has a four to answer with.
pub fn open_four_point(b: &mut Board, color: Color) -> Option<Pos> {
    let mut found = Vec::new();
    b.for_each_candidate(|p| {
        if b.class(p, color) == Class::OpenFour {
            found.push(p);
        }
    });
    found.into_iter().find(|&p| legal_for(b, p, color))
}

/// The point where `color` would make a five, if any (the first in board order when several).
pub fn five_point(b: &Board, color: Color) -> Option<Pos> {
    if b.class_count(color, Class::Five) == 0 {
        return None;
    }
    if let Some(p) = b.single_five_point(color) {
        return Some(p);
    }
    let mut found = None;
    b.for_each_candidate(|p| {
        if found.is_none() && b.class(p, color) == Class::Five {
            found = Some(p);
        }
    });
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(text: &str) -> Vec<(usize, usize)> {
        let mut b = Board::from_ascii(text, Rule::Freestyle);
        let mut out = Vec::new();
        generate(&mut b, &mut out, &Refuters::NONE, &vec![0; crate::board::MAX_CELLS], Pos::NONE);
        out.iter().map(|s| b.xy(s.pos)).collect()
    }

    /// The counter move comes forward by its bonus in renju (nothing in the other rules), a
    /// killer by more, and a point that is both gets the killer's bonus once; the other
    /// moves keep their scores.
    #[test]
    fn refuters_raise_their_moves_by_their_bonuses() {
        for (rule, bonus) in [(Rule::Renju, COUNTER_BONUS), (Rule::Freestyle, 0), (Rule::Standard, 0)] {
            let mut b = Board::from_ascii(
                "...........\n\
                 ...........\n\
                 ...........\n\
                 ....x......\n\
                 ...ox......\n\
                 ....o......\n\
                 ...........\n\
                 ...........\n\
                 ...........\n\
                 ...........\n\
                 ...........",
                rule,
            );
            let history = vec![0; crate::board::MAX_CELLS];
            let scores = |b: &mut Board, r: &Refuters| {
                let mut out = Vec::new();
                generate(b, &mut out, r, &history, Pos::NONE);
                out.iter().map(|m| (m.pos, m.score)).collect::<std::collections::HashMap<_, _>>()
            };
            let plain = scores(&mut b, &Refuters::NONE);
            // The two worst-ordered moves: the ones the bonuses must lift the furthest.
            let mut order: Vec<_> = plain.iter().map(|(&p, &s)| (s, p)).collect();
            order.sort();
            let (counter, killer) = (order[0].1, order[1].1);
            let raised = scores(&mut b, &Refuters { killers: [killer, Pos::NONE], counter });
            assert_eq!(raised[&counter], plain[&counter] + bonus, "{rule:?}");
            assert_eq!(raised[&killer], plain[&killer] + KILLER_BONUS, "{rule:?}");
            let both = scores(&mut b, &Refuters { killers: [counter, Pos::NONE], counter });
            assert_eq!(both[&counter], plain[&counter] + KILLER_BONUS, "{rule:?}");
            for (p, s) in &plain {
                if *p != counter && *p != killer {
                    assert_eq!(raised[p], *s, "{rule:?}");
                }
            }
        }
    }

    /// Black's point of two open threes is its best attack in gomoku, so white blocks it
    /// first; in renju the point is forbidden to black, and white's first move is elsewhere.
    #[test]
    fn white_does_not_rush_to_block_a_forbidden_double_three() {
        let text = "...........\n\
                    ...........\n\
                    ...........\n\
                    .....x.....\n\
                    .....x.....\n\
                    ...xx......\n\
                    ...........\n\
                    .o.......o.\n\
                    ...........\n\
                    ...o.......\n\
                    ...........";
        let first = |rule| {
            let mut b = Board::from_ascii(text, rule);
            assert_eq!(b.side_to_move(), Color::White);
            let point = b.pos(5, 5).unwrap();
            assert_eq!(b.class(point, Color::Black), Class::DoubleThree, "{rule:?}");
            let mut out = Vec::new();
            generate(&mut b, &mut out, &Refuters::NONE, &vec![0; crate::board::MAX_CELLS], Pos::NONE);
            (out[0].pos == point, b.forbid_hint(point, Color::Black))
        };
        assert_eq!(first(Rule::Freestyle), (true, Forbid::Legal));
        assert_eq!(first(Rule::Renju), (false, Forbid::CheckThrees));
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

#[cfg(test)]
mod renju_tests {
    use super::*;

    #[test]
    fn black_never_gets_a_forbidden_move() {
        // (3,5) would be a double three for black, who is to move.
        let text = "\
.........
.........
...x.....
...x...o.
.......o.
.....xx..
.......o.
.......o.
.........";
        let mut b = Board::from_ascii(text, Rule::Renju);
        assert_eq!(b.side_to_move(), Color::Black);
        let p = b.pos(3, 5).unwrap();
        assert!(b.is_forbidden(p));
        let mut out = Vec::new();
        generate(&mut b, &mut out, &Refuters::NONE, &vec![0; crate::board::MAX_CELLS], Pos::NONE);
        assert!(!out.is_empty());
        assert!(out.iter().all(|m| m.pos != p));
        assert!(!is_legal(&mut b, p));
        let mut free = Board::from_ascii(text, Rule::Freestyle);
        generate(&mut free, &mut out, &Refuters::NONE, &vec![0; crate::board::MAX_CELLS], Pos::NONE);
        assert!(out.iter().any(|m| m.pos == p));
    }
}

#[cfg(test)]
mod forbidden_block_tests {
    use super::*;

    /// White facing black's three may block on a point forbidden to black: here k8, where
    /// black would make a double four (the k column and row 8). Black has no class there, so
    /// the threat filter must look at the line patterns, not the class.
    #[test]
    fn white_may_block_a_three_on_blacks_forbidden_point() {
        let text = "\
o..............
...............
...............
...............
..........x....
..........x....
..........x....
........ox.xx..
..........o....
...............
...............
...............
...............
...............
o.............o";
        let mut b = Board::from_ascii(text, Rule::Renju);
        assert_eq!(b.side_to_move(), Color::White);
        let k8 = b.pos(10, 7).unwrap();
        let k4 = b.pos(10, 3).unwrap();
        assert!(under_three_threat(&b, Color::Black));
        assert!(b.is_forbidden(k8));
        assert!(blocks_four_line(&b, k8, Color::Black));
        let mut out = Vec::new();
        generate(&mut b, &mut out, &Refuters::NONE, &vec![0; crate::board::MAX_CELLS], Pos::NONE);
        assert!(out.iter().any(|m| m.pos == k4));
        assert!(out.iter().any(|m| m.pos == k8), "the block on the forbidden point is generated");
        assert!(generates(&mut b, k8));
        // A forbidden point off the three's line is still no answer to it.
        assert!(out.len() < 8, "{} moves", out.len());
    }
}

#[cfg(test)]
mod staging_tests {
    use super::*;
    use crate::board::splitmix64;

    /// The search plays the table's move before generating the rest only where `generates`
    /// says `generate` would list it: the two must agree on every point of every position,
    /// threats and renju's forbidden points included.
    #[test]
    fn generates_names_exactly_the_generated_moves() {
        let history = vec![0; crate::board::MAX_CELLS];
        let mut seed = 11u64;
        let (mut positions, mut defending, mut forbidden) = (0, 0, 0);
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::CaroOverline] {
            // Renju's forbidden points need crowded positions: more and longer games.
            let (games, width) = if rule == Rule::Renju { (40, 30) } else { (10, 4) };
            for _ in 0..games {
                let mut b = Board::new(15, 15, rule);
                b.make(b.pos(7, 7).unwrap());
                let mut out = Vec::new();
                for _ in 0..80 {
                    let us = b.side_to_move();
                    if b.class_count(us.opp(), Class::Five) > 0 || b.class_count(us, Class::Five) > 0 {
                        break;
                    }
                    generate(&mut b, &mut out, &Refuters::NONE, &history, Pos::NONE);
                    if out.is_empty() {
                        break;
                    }
                    positions += 1;
                    let under = under_three_threat(&b, us.opp());
                    defending += under as usize;
                    for y in 0..15 {
                        for x in 0..15 {
                            let p = b.pos(x, y).unwrap();
                            let listed = out.iter().any(|m| m.pos == p);
                            assert_eq!(generates(&mut b, p), listed, "{rule:?} at {:?}", b.xy(p));
                            if rule == Rule::Renju
                                && us == Color::Black
                                && b.is_candidate(p)
                                && !listed
                                && !under
                            {
                                forbidden += (!legal_for(&mut b, p, us)) as usize;
                            }
                        }
                    }
                    // Mostly good moves, so that threes and fours appear; in renju wider, so
                    // that black's lines cross.
                    let pick = (splitmix64(&mut seed) % out.len().min(width) as u64) as usize;
                    b.make(out[pick].pos);
                }
            }
        }
        assert!(positions > 500, "{positions} positions");
        assert!(defending > 10, "only {defending} positions under an open three");
        assert!(forbidden > 5, "{forbidden} forbidden points in quiet positions");
    }
}
