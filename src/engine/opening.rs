//! Tournament opening rules at the engine (`YXOPENINGSWAP`, `YXOPENINGMOVE`,
//! `YXOPENINGCHOOSE`): the position is checked against the rule, then decided with short
//! searches.
//!
//! Every decision compares search scores. A swap is taken when the side to move is judged
//! behind. A stone after which the opponent may swap goes where the position is judged closest
//! to even, since whoever holds the swap right gains from any imbalance. Offered fifth moves
//! are the best mutually different ones for black; the chooser takes the best for white.

use super::command::{BodyFault, Coord, OpeningAsk, OpeningFault, OpeningRequest, Refusal, Reply};
use super::Engine;
use crate::board::{splitmix64, Board};
use crate::rules::opening::{canonical_openings, centre, in_zone, repeated_offer, same_offer, OpeningRule};
use crate::rules::renju::ForbiddenPoints;
use crate::search::{SearchResult, WIN};
use crate::types::{Color, Pos};
use std::time::{Duration, Instant};

/// Candidate points judged for a stone after which the opponent may swap.
const PLACE_CANDIDATES: usize = 8;
/// Canonical openings judged when proposing the first three stones (of the 26, drawn per game
/// so that games differ).
const OPENING_CANDIDATES: usize = 6;
/// Candidate fifth moves judged beyond the number to offer, as some turn out to repeat others.
const OFFER_SLACK: usize = 4;
/// The score of an offer filled in because symmetry left too few judged ones: a point far
/// from the stones, as good as lost for black.
const FILLER: i32 = -WIN;
/// A candidate left unjudged when the command's time ran out counts as even.
const UNJUDGED: i32 = 0;
/// Below this much time left before the command's deadline no further search starts: the many
/// short searches of one decision each overrun their limit a little, and these add up.
const MIN_JUDGE: Duration = Duration::from_millis(3);

/// What the rule has the side to move do next, with so many stones on the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Step {
    /// Taraguchi's first stone: the centre.
    Centre,
    /// One of the 26 canonical three-stone openings.
    Canonical,
    /// One stone within `radius` of the centre (`None`: anywhere); `balance` when the
    /// opponent may swap after it.
    Stone { radius: Option<usize>, balance: bool },
    /// Soosõrv's fourth move and the number of fifth moves black must offer.
    Declare(usize),
    /// This many different fifth moves for white to choose from.
    Offer(usize),
    /// Taraguchi's black after four stones: ten (N) offers, one fifth inside 9x9, or a swap.
    TaraguchiFifth(usize),
}

/// The radius of Taraguchi's single fifth move (the central 9x9 square).
const TARAGUCHI_FIFTH_RADIUS: usize = 4;

fn step(
    rule: OpeningRule,
    ask: OpeningAsk,
    stones: usize,
    declared: Option<i64>,
) -> Result<Step, OpeningFault> {
    let no_such = OpeningFault::Stones { ask, rule, stones };
    let swap = ask == OpeningAsk::Swap;
    let needs_count = matches!(rule, OpeningRule::Soosorv(_)) && stones == 4;
    match (needs_count, declared) {
        (false, Some(_)) | (true, None) => return Err(OpeningFault::Declared { rule, stones, declared }),
        _ => {}
    }
    Ok(match (rule, stones) {
        // No swap before the first stone is placed.
        (_, 0) if swap => return Err(no_such),
        (OpeningRule::Taraguchi(_), 0) => Step::Centre,
        (OpeningRule::Taraguchi(_), 1..=3) => Step::Stone { radius: Some(stones), balance: true },
        (OpeningRule::Taraguchi(n), 4) if swap => Step::TaraguchiFifth(n),
        // After black's swap at four stones the new black places the single fifth.
        (OpeningRule::Taraguchi(_), 4) => Step::Stone { radius: Some(TARAGUCHI_FIFTH_RADIUS), balance: true },
        (OpeningRule::Taraguchi(_), 5) => Step::Stone { radius: None, balance: false },
        (OpeningRule::Soosorv(_) | OpeningRule::FiveTwo, 0) => Step::Canonical,
        (OpeningRule::Soosorv(n), 3) => Step::Declare(n),
        (OpeningRule::Soosorv(n), 4) => {
            let d = declared.unwrap_or(0);
            if d < 1 || d as usize > n {
                return Err(OpeningFault::Declared { rule, stones, declared });
            }
            Step::Offer(d as usize)
        }
        (OpeningRule::FiveTwo, 3) => Step::Stone { radius: None, balance: false },
        (OpeningRule::FiveTwo, 4) if !swap => Step::Offer(2),
        _ => return Err(no_such),
    })
}

impl Engine {
    /// One opening decision; the reply is `SWAP`, moves, offers, or `x,y n` (Soosõrv's fourth
    /// with its count). Afterwards the engine's board holds the position the decision leaves
    /// (offers are not stones), so the game can go on with `TURN`.
    pub(super) fn opening(&mut self, req: &OpeningRequest, seq: u64, arrived: Instant) {
        let checked = self.opening_position(req);
        let (mut board, offers) = match checked {
            Ok(found) => found,
            Err(refusal) => {
                self.say(Reply::Error(refusal));
                return;
            }
        };
        let deadline = arrived + self.command_budget();
        let reply = if req.ask == OpeningAsk::Choose {
            self.choose_offer(&mut board, &offers, deadline, seq)
        } else {
            let stones = board.stone_count();
            match step(req.rule, req.ask, stones, req.declared) {
                Ok(step) => self.opening_step(&mut board, step, req.ask == OpeningAsk::Swap, deadline, seq),
                Err(fault) => {
                    self.say(Reply::Error(Refusal::Opening(fault)));
                    return;
                }
            }
        };
        if self.signals.quitting() {
            return;
        }
        self.board = board;
        self.say(reply);
    }

    /// The body's stones as a board (zones checked), and for `Choose` the offered fifth moves
    /// (count and symmetry checked).
    fn opening_position(&self, req: &OpeningRequest) -> Result<(Board, Vec<Pos>), Refusal> {
        if let Some(e) = &req.body.error {
            return Err(Refusal::Body(BodyFault::Malformed(e.clone())));
        }
        let points: Vec<Coord> = req.body.stones.iter().map(|s| s.at).collect();
        const BEFORE_FIFTH: usize = 4;
        let (stones, offered) = if req.ask == OpeningAsk::Choose {
            let fault = OpeningFault::Stones { ask: req.ask, rule: req.rule, stones: points.len() };
            if points.len() <= BEFORE_FIFTH {
                return Err(Refusal::Opening(fault));
            }
            points.split_at(BEFORE_FIFTH)
        } else {
            (&points[..], &[][..])
        };
        let mut board = Board::new(self.board.width(), self.board.height(), self.rule);
        for (i, &at) in stones.iter().enumerate() {
            let Some(p) = board.pos(at.x, at.y).filter(|&p| board.is_empty(p)) else {
                return Err(Refusal::Opening(OpeningFault::Stone(at)));
            };
            if let Some(radius) = req.rule.zone(i) {
                if !in_zone(&board, p, radius) {
                    return Err(Refusal::Opening(OpeningFault::Zone { at, index: i, radius }));
                }
            }
            board.place(p, if i % 2 == 0 { Color::Black } else { Color::White });
        }
        if req.ask != OpeningAsk::Choose {
            return Ok((board, Vec::new()));
        }
        let rule = req.rule;
        if !rule.offer_counts().contains(&offered.len()) {
            return Err(Refusal::Opening(OpeningFault::Offers { rule, offers: offered.len() }));
        }
        // Soosõrv's chooser may repeat the declared count: it must match what was offered.
        match (rule, req.declared) {
            (_, None) => {}
            (OpeningRule::Soosorv(_), Some(d)) if d == offered.len() as i64 => {}
            (_, declared) => {
                return Err(Refusal::Opening(OpeningFault::Declared { rule, stones: BEFORE_FIFTH, declared }))
            }
        }
        let mut offers = Vec::with_capacity(offered.len());
        for &at in offered {
            match board.pos(at.x, at.y).filter(|&p| board.is_empty(p)) {
                Some(p) => offers.push(p),
                None => return Err(Refusal::Opening(OpeningFault::Stone(at))),
            }
        }
        if let Some((i, j)) = repeated_offer(&board, &offers) {
            return Err(Refusal::Opening(OpeningFault::Symmetric(offered[i], offered[j])));
        }
        Ok((board, offers))
    }

    /// A search of `board` for at most `each`, or `None` when the command's deadline leaves no
    /// time for one.
    fn judge_by(
        &mut self,
        board: &Board,
        each: Duration,
        deadline: Instant,
        seq: u64,
        exclude: &[Pos],
    ) -> Option<SearchResult> {
        let left = deadline.saturating_duration_since(Instant::now());
        (left >= MIN_JUDGE).then(|| self.judge(board, each.min(left), seq, exclude))
    }

    fn opening_step(
        &mut self,
        board: &mut Board,
        step: Step,
        may_swap: bool,
        deadline: Instant,
        seq: u64,
    ) -> Reply {
        let total = deadline.saturating_duration_since(Instant::now());
        match step {
            Step::Centre => {
                let (cx, cy) = centre(board);
                let p = board.pos(cx, cy).expect("the centre is on the board");
                board.make(p);
                Reply::Moves(vec![self.coord(p)])
            }
            Step::Canonical => self.propose_canonical(board, deadline, seq),
            Step::Stone { radius, balance } => {
                let searches = 1 + if balance { PLACE_CANDIDATES } else { 0 };
                let each = total / searches as u32;
                let outside = outside_zone(board, radius);
                let verdict =
                    self.judge_by(board, if balance { each } else { total }, deadline, seq, &outside);
                if may_swap && verdict.as_ref().is_some_and(|v| v.score < 0) {
                    return Reply::Swap;
                }
                let searched =
                    verdict.map(|v| v.best).filter(|&p| board.is_empty(p) && !outside.contains(&p));
                let p = match searched {
                    _ if balance => self.balanced_stone(board, radius, each, deadline, seq),
                    Some(p) => p,
                    None => zone_candidates(board, radius, 1)[0],
                };
                board.make(p);
                Reply::Moves(vec![self.coord(p)])
            }
            Step::Declare(most) => {
                let each = total / (1 + PLACE_CANDIDATES + most + OFFER_SLACK) as u32;
                if may_swap && self.judge_by(board, each, deadline, seq, &[]).is_some_and(|v| v.score < 0) {
                    return Reply::Swap;
                }
                let fourth = self.balanced_stone(board, None, each, deadline, seq);
                board.make(fourth);
                // Black will offer the declared number and white takes the worst of them for
                // black: declare one more than the fifths judged good for black, so that the
                // worst offer is about even.
                let good = self
                    .best_offers(board, most, each, deadline, seq)
                    .iter()
                    .filter(|&&(_, s)| s > 0)
                    .count();
                Reply::Declare { at: self.coord(fourth), offers: (good + 1).min(most) }
            }
            Step::Offer(count) => {
                let each = total / (count + OFFER_SLACK) as u32;
                let offers = self.best_offers(board, count, each, deadline, seq);
                let worst = offers.iter().map(|&(_, s)| s).min().unwrap_or(FILLER);
                if may_swap && worst < 0 {
                    return Reply::Swap;
                }
                Reply::Moves(offers.iter().map(|&(p, _)| self.coord(p)).collect())
            }
            Step::TaraguchiFifth(count) => {
                let each = total / (count + OFFER_SLACK + 1 + PLACE_CANDIDATES) as u32;
                let offers = self.best_offers(board, count, each, deadline, seq);
                let worst = offers.iter().map(|&(_, s)| s).min().unwrap_or(FILLER);
                if worst > 0 {
                    return Reply::Moves(offers.iter().map(|&(p, _)| self.coord(p)).collect());
                }
                let radius = Some(TARAGUCHI_FIFTH_RADIUS);
                let verdict = self.judge_by(board, each, deadline, seq, &outside_zone(board, radius));
                if verdict.is_some_and(|v| v.score < 0) {
                    return Reply::Swap;
                }
                let p = self.balanced_stone(board, radius, each, deadline, seq);
                board.make(p);
                Reply::Moves(vec![self.coord(p)])
            }
        }
    }

    /// White's choice among offered fifth moves: the one after which white (to move) is judged
    /// best; then white's sixth move in that position.
    fn choose_offer(&mut self, board: &mut Board, offers: &[Pos], deadline: Instant, seq: u64) -> Reply {
        let total = deadline.saturating_duration_since(Instant::now());
        let each = total / (offers.len() + 2) as u32;
        let mut best: Option<(i32, Pos)> = None;
        for &p in offers {
            board.make(p);
            let verdict = self.judge_by(board, each, deadline, seq, &[]);
            board.undo();
            let Some(score) = verdict.map(|v| v.score) else { break };
            if best.is_none_or(|(s, _)| score > s) {
                best = Some((score, p));
            }
        }
        let fifth = best.map_or(offers[0], |(_, p)| p);
        board.make(fifth);
        let sixth =
            self.judge_by(board, each * 2, deadline, seq, &[]).map(|v| v.best).filter(|&p| board.is_empty(p));
        let sixth = sixth.unwrap_or_else(|| zone_candidates(board, None, 1)[0]);
        board.make(sixth);
        Reply::Moves(vec![self.coord(fifth), self.coord(sixth)])
    }

    /// Three stones of a canonical opening, drawn for this game and turned by a symmetry,
    /// whose position (white to move) the search judges closest to even: the opponent may swap.
    fn propose_canonical(&mut self, board: &mut Board, deadline: Instant, seq: u64) -> Reply {
        let total = deadline.saturating_duration_since(Instant::now());
        let all = canonical_openings();
        let (cx, cy) = centre(board);
        let each = total / OPENING_CANDIDATES as u32;
        let mut state = self.game_seed;
        let mut best: Option<(i32, [Pos; 3])> = None;
        for _ in 0..OPENING_CANDIDATES {
            let [white, black] = all[(splitmix64(&mut state) % all.len() as u64) as usize];
            let turn = splitmix64(&mut state);
            let place = |(dx, dy): (i64, i64)| {
                let (dx, dy) = if turn & 4 != 0 { (dy, dx) } else { (dx, dy) };
                let dx = if turn & 1 != 0 { -dx } else { dx };
                let dy = if turn & 2 != 0 { -dy } else { dy };
                board.pos(cx + dx, cy + dy)
            };
            let (Some(b1), Some(w2), Some(b3)) = (place((0, 0)), place(white), place(black)) else {
                continue;
            };
            let mut probe = board.clone();
            for p in [b1, w2, b3] {
                probe.make(p);
            }
            let Some(verdict) = self.judge_by(&probe, each, deadline, seq, &[]) else { break };
            let miss = verdict.score.abs();
            if best.is_none_or(|(m, _)| miss < m) {
                best = Some((miss, [b1, w2, b3]));
            }
        }
        let stones = best.map_or_else(
            || {
                let p = |dx, dy| board.pos(cx + dx, cy + dy).expect("the 5x5 square fits every board");
                [p(0, 0), p(0, -1), p(1, 1)]
            },
            |(_, s)| s,
        );
        for p in stones {
            board.make(p);
        }
        Reply::Moves(stones.iter().map(|&p| self.coord(p)).collect())
    }

    /// Of the candidates within `radius`, the stone after which the opponent (to move) is
    /// judged closest to even.
    fn balanced_stone(
        &mut self,
        board: &Board,
        radius: Option<usize>,
        each: Duration,
        deadline: Instant,
        seq: u64,
    ) -> Pos {
        let mut probe = board.clone();
        let mut best: Option<(i32, Pos)> = None;
        for p in zone_candidates(board, radius, PLACE_CANDIDATES) {
            probe.make(p);
            let verdict = self.judge_by(&probe, each, deadline, seq, &[]);
            probe.undo();
            let Some(miss) = verdict.map(|v| v.score.abs()) else { break };
            if best.is_none_or(|(m, _)| miss < m) {
                best = Some((miss, p));
            }
        }
        best.map_or_else(|| zone_candidates(board, radius, 1)[0], |(_, p)| p)
    }

    /// `count` fifth moves for black, no two the same under a symmetry, best for black first,
    /// each with its score for black. Judged candidates come first (those the deadline left
    /// unjudged count as even); when symmetry leaves too few, the nearest other points fill up
    /// (scored as lost, `FILLER`).
    fn best_offers(
        &mut self,
        board: &Board,
        count: usize,
        each: Duration,
        deadline: Instant,
        seq: u64,
    ) -> Vec<(Pos, i32)> {
        let mut probe = board.clone();
        let forbidden = probe.forbidden_points();
        let mut scored: Vec<(Pos, i32)> = Vec::new();
        for p in Self::top_moves(&mut probe, count + OFFER_SLACK) {
            if forbidden.contains(&p) {
                continue;
            }
            probe.make(p);
            let verdict = self.judge_by(&probe, each, deadline, seq, &[]);
            probe.undo();
            scored.push((p, verdict.map_or(UNJUDGED, |v| -v.score)));
        }
        // Stable: equal scores keep the move ordering's order, so the choice is reproducible.
        scored.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
        let fill = zone_candidates(board, None, board.width() * board.height());
        let mut chosen: Vec<(Pos, i32)> = Vec::with_capacity(count);
        for (p, s) in scored.into_iter().chain(fill.into_iter().map(|p| (p, FILLER))) {
            if chosen.len() == count {
                break;
            }
            if !forbidden.contains(&p) && !chosen.iter().any(|&(q, _)| same_offer(board, q, p)) {
                chosen.push((p, s));
            }
        }
        chosen
    }
}

/// The empty points outside the central square of `radius` (none for `None`): the moves a
/// search must leave out to stay inside the zone.
fn outside_zone(board: &Board, radius: Option<usize>) -> Vec<Pos> {
    let Some(r) = radius else { return Vec::new() };
    let mut out = Vec::new();
    board.for_each_empty(|p| {
        if !in_zone(board, p, r) {
            out.push(p);
        }
    });
    out
}

/// Up to `n` empty points within `radius` of the centre: the move ordering's first, then the
/// nearest to the centre (so that there is always one while the zone has room).
fn zone_candidates(board: &Board, radius: Option<usize>, n: usize) -> Vec<Pos> {
    let inside = |p: Pos| radius.is_none_or(|r| in_zone(board, p, r));
    let mut probe = board.clone();
    let mut out: Vec<Pos> = Engine::top_moves(&mut probe, 4 * n.min(PLACE_CANDIDATES))
        .into_iter()
        .filter(|&p| inside(p) && board.is_empty(p))
        .take(n)
        .collect();
    if out.len() < n {
        let (cx, cy) = centre(board);
        let mut rest = Vec::new();
        board.for_each_empty(|p| {
            if inside(p) && !out.contains(&p) {
                rest.push(p);
            }
        });
        rest.sort_by_key(|&p| {
            let (x, y) = board.xy(p);
            let (dx, dy) = ((x as i64 - cx).abs(), (y as i64 - cy).abs());
            (dx.max(dy), dx + dy)
        });
        out.extend(rest.into_iter().take(n - out.len()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_per_rule_and_stone_count() {
        use OpeningAsk::{Move, Swap};
        let t = OpeningRule::Taraguchi(10);
        assert_eq!(step(t, Move, 0, None), Ok(Step::Centre));
        assert!(step(t, Swap, 0, None).is_err());
        assert_eq!(step(t, Swap, 2, None), Ok(Step::Stone { radius: Some(2), balance: true }));
        assert_eq!(step(t, Swap, 4, None), Ok(Step::TaraguchiFifth(10)));
        assert_eq!(step(t, Move, 4, None), Ok(Step::Stone { radius: Some(4), balance: true }));
        assert_eq!(step(t, Swap, 5, None), Ok(Step::Stone { radius: None, balance: false }));
        assert!(step(t, Move, 6, None).is_err());
        assert!(step(t, Move, 3, Some(2)).is_err());
        let s = OpeningRule::Soosorv(8);
        assert_eq!(step(s, Move, 0, None), Ok(Step::Canonical));
        assert!(step(s, Move, 1, None).is_err());
        assert!(step(s, Swap, 2, None).is_err());
        assert_eq!(step(s, Swap, 3, None), Ok(Step::Declare(8)));
        assert_eq!(step(s, Swap, 4, Some(3)), Ok(Step::Offer(3)));
        assert!(step(s, Swap, 4, None).is_err());
        assert!(step(s, Swap, 4, Some(9)).is_err());
        assert!(step(s, Swap, 4, Some(0)).is_err());
        let r = OpeningRule::FiveTwo;
        assert_eq!(step(r, Swap, 3, None), Ok(Step::Stone { radius: None, balance: false }));
        assert_eq!(step(r, Move, 4, None), Ok(Step::Offer(2)));
        assert!(step(r, Swap, 4, None).is_err());
        assert!(step(r, Move, 5, None).is_err());
    }

    #[test]
    fn zone_candidates_stay_inside() {
        let mut b = Board::new(15, 15, crate::types::Rule::Renju);
        b.make(b.pos(7, 7).expect("centre"));
        let near = zone_candidates(&b, Some(1), 20);
        assert_eq!(near.len(), 8, "the 3x3 square has eight empty points");
        assert!(near.iter().all(|&p| in_zone(&b, p, 1) && b.is_empty(p)));
        assert_eq!(outside_zone(&b, Some(1)).len(), 225 - 9);
        assert!(outside_zone(&b, None).is_empty());
    }
}
