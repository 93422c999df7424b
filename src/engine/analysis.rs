//! Commands that judge several candidate positions with short searches: the swap2 opening
//! (`SWAP2BOARD`), n-best analysis (`YXNBEST`) and balanced moves (`YXBALANCEONE/TWO`).
//!
//! Every judgement is a search score for the side to move of the candidate position, so the
//! same machinery answers "which opening is balanced" and "should I swap".

use super::command::{BoardBody, BodyFault, Message, Refusal, Reply};
use super::{Engine, Job};
use crate::board::{Board, MAX_CELLS};
use crate::search::movepick::{generate, Refuters};
use crate::search::{time, SearchResult};
use crate::types::{Color, Pos};
use std::time::{Duration, Instant};

/// A swap2 position within this many points of even is "balanced": hand the choice over.
pub const SWAP2_MARGIN: i32 = 50;
/// How far ahead the search must judge white (to move) for the position to be even in play.
/// Measured in self-play swap2 games at 1 s per move: with 120, white won 14 of 16 games
/// (the opener took white at five stones and won); 0 is used.
pub const SWAP2_WHITE_EDGE: i32 = 0;
/// Candidate openings judged when proposing the first three stones.
const OPENING_CANDIDATES: usize = 12;
/// Our moves, and their replies to each, tried when looking for a balanced pair of moves.
const PAIR_FIRST: usize = 4;
const PAIR_SECOND: usize = 3;

impl Engine {
    /// The whole time for this command: the move budget's hard limit.
    pub(super) fn command_budget(&self) -> Duration {
        time::budget(&self.settings.time, self.board.stone_count(), self.used_ms, self.lateness.margin()).hard
    }

    /// A quiet search of a copy of `board` lasting at most `hard`.
    pub(super) fn judge(&mut self, board: &Board, hard: Duration, seq: u64, exclude: &[Pos]) -> SearchResult {
        let mut copy = board.clone();
        let hard = hard.max(Duration::from_millis(2));
        let job = Job { seq, start: Instant::now(), soft: hard / 2, hard, exclude, report: false };
        self.run_search(&mut copy, job)
    }

    /// The `n` most promising moves for the side to move by the move ordering (the centre on
    /// an empty board).
    pub(super) fn top_moves(board: &mut Board, n: usize) -> Vec<Pos> {
        if board.stone_count() == 0 {
            return board.pos(board.width() as i64 / 2, board.height() as i64 / 2).into_iter().collect();
        }
        let mut moves = Vec::new();
        generate(board, &mut moves, &Refuters::NONE, &vec![0; MAX_CELLS], Pos::NONE);
        moves.into_iter().take(n).map(|m| m.pos).collect()
    }

    /// Of `us` then `them` moves from `board`, the pair after which the side to move (`us`
    /// again) is judged closest to `target`.
    fn balanced_pair(&mut self, board: &Board, target: i32, each: Duration, seq: u64) -> Option<(Pos, Pos)> {
        let mut probe = board.clone();
        let mut best: Option<(i32, Pos, Pos)> = None;
        for first in Self::top_moves(&mut probe, PAIR_FIRST) {
            probe.make(first);
            for second in Self::top_moves(&mut probe, PAIR_SECOND) {
                probe.make(second);
                let score = self.judge(&probe, each, seq, &[]).score;
                probe.undo();
                let miss = (score - target).abs();
                if best.is_none_or(|(m, _, _)| miss < m) {
                    best = Some((miss, first, second));
                }
            }
            probe.undo();
        }
        best.map(|(_, a, b)| (a, b))
    }

    /// `SWAP2BOARD`: 0 stones → propose three; 3 → SWAP, one move or two; 5 → SWAP or a move.
    pub(super) fn swap2(&mut self, body: &BoardBody, seq: u64, arrived: Instant) {
        if let Some(e) = &body.error {
            self.say(Reply::Error(Refusal::Body(BodyFault::Malformed(e.clone()))));
            return;
        }
        let mut board = Board::new(self.board.width(), self.board.height(), self.rule);
        for (i, s) in body.stones.iter().enumerate() {
            let Some(p) = board.pos(s.at.x, s.at.y).filter(|&p| board.is_empty(p)) else {
                self.say(Reply::Error(Refusal::Swap2Stone(s.at)));
                return;
            };
            board.place(p, if i % 2 == 0 { Color::Black } else { Color::White });
        }
        let total = self.command_budget().saturating_sub(arrived.elapsed());
        let reply = match body.stones.len() {
            0 => self.swap2_propose(&mut board, total, seq),
            3 => self.swap2_respond(&mut board, total, seq),
            5 => self.swap2_choose(&mut board, total, seq),
            n => {
                self.say(Reply::Error(Refusal::Swap2Count(n)));
                return;
            }
        };
        if self.signals.quitting() {
            return;
        }
        self.board = board;
        self.say(reply);
    }

    /// Three stones (black, white, black) near the centre whose position, white to move, the
    /// search judges closest to even.
    fn swap2_propose(&mut self, board: &mut Board, total: Duration, seq: u64) -> Reply {
        let (cx, cy) = (board.width() as i64 / 2, board.height() as i64 / 2);
        // White touches the centre stone; black's second stone lies two to six points away,
        // so that some candidates leave black's stones apart (three stones near each other
        // favour black, who gets the next free tempo after white's reply).
        let ring = |lo: i64, hi: i64| -> Vec<(i64, i64)> {
            (-hi..=hi)
                .flat_map(|dy| (-hi..=hi).map(move |dx| (dx, dy)))
                .filter(|&(dx, dy)| (lo..=hi).contains(&dx.abs().max(dy.abs())))
                .collect()
        };
        let (white_at, black_at) = (ring(1, 1), ring(2, 6));
        let each = total / (OPENING_CANDIDATES as u32 + 1);
        let mut state = self.game_seed;
        let mut best: Option<(i32, [Pos; 3])> = None;
        for _ in 0..OPENING_CANDIDATES {
            let mut draw = |from: &[(i64, i64)]| {
                from[(crate::board::splitmix64(&mut state) % from.len() as u64) as usize]
            };
            let (w, b2) = (draw(&white_at), draw(&black_at));
            let stones = [(cx, cy), (cx + w.0, cy + w.1), (cx + b2.0, cy + b2.1)];
            let mut probe = Board::new(board.width(), board.height(), self.rule);
            let mut placed = [Pos::NONE; 3];
            let mut ok = true;
            for (i, &(x, y)) in stones.iter().enumerate() {
                match probe.pos(x, y).filter(|&p| probe.is_empty(p)) {
                    Some(p) => {
                        probe.make(p);
                        placed[i] = p;
                    }
                    None => ok = false,
                }
            }
            if !ok {
                continue;
            }
            let miss = (self.judge(&probe, each, seq, &[]).score - SWAP2_WHITE_EDGE).abs();
            if best.is_none_or(|(m, _)| miss < m) {
                best = Some((miss, placed));
            }
        }
        let stones = best.map_or_else(
            || {
                let p = |dx, dy| board.pos(cx + dx, cy + dy).expect("near the centre");
                [p(0, 0), p(1, 0), p(1, 1)]
            },
            |(_, s)| s,
        );
        for p in stones {
            board.make(p);
        }
        Reply::Moves(stones.iter().map(|&p| self.coord(p)).collect())
    }

    /// Second player's choice after three stones (white to move): stay white and move, take
    /// black (`SWAP`), or add a white and a black stone that leave the position balanced.
    fn swap2_respond(&mut self, board: &mut Board, total: Duration, seq: u64) -> Reply {
        let verdict = self.judge(board, total / 3, seq, &[]);
        let white_edge = verdict.score - SWAP2_WHITE_EDGE;
        if white_edge > SWAP2_MARGIN && board.is_empty(verdict.best) {
            board.make(verdict.best);
            return Reply::Moves(vec![self.coord(verdict.best)]);
        }
        if white_edge < -SWAP2_MARGIN {
            return Reply::Swap;
        }
        let each = total * 2 / 3 / (PAIR_FIRST * PAIR_SECOND) as u32;
        // After white's and black's stones white moves again: aim for an even position.
        match self.balanced_pair(board, SWAP2_WHITE_EDGE, each, seq) {
            Some((w, b)) => {
                board.make(w);
                board.make(b);
                Reply::Moves(vec![self.coord(w), self.coord(b)])
            }
            None => Reply::Swap,
        }
    }

    /// First player's choice after five stones (white to move): white if white is better.
    fn swap2_choose(&mut self, board: &mut Board, total: Duration, seq: u64) -> Reply {
        let verdict = self.judge(board, total * 9 / 10, seq, &[]);
        if verdict.score >= SWAP2_WHITE_EDGE && board.is_empty(verdict.best) {
            board.make(verdict.best);
            Reply::Moves(vec![self.coord(verdict.best)])
        } else {
            Reply::Swap
        }
    }

    /// `YXNBEST n`: searches for the best move, then the best excluding it, and so on; one
    /// MESSAGE per move found, then the best move is played and printed.
    pub(super) fn nbest(&mut self, n: usize, seq: u64, arrived: Instant) {
        if self.board.is_full() {
            self.say(Reply::Error(Refusal::BoardFull));
            return;
        }
        if self.board.stone_count() == 0 {
            // Like BEGIN: the centre, without a search.
            let centre = Self::top_moves(&mut self.board.clone(), 1)[0];
            let name = self.board.pos_name(centre);
            let pv = vec![name.clone()];
            self.say(Reply::Message(Message::NBest { rank: 1, best: name, score: 0, depth: 0, pv }));
            self.board.make(centre);
            self.say(Reply::Moves(vec![self.coord(centre)]));
            return;
        }
        let total = self.command_budget().saturating_sub(arrived.elapsed());
        let each = total / n.max(1) as u32;
        let board = self.board.clone();
        let mut found: Vec<Pos> = Vec::new();
        for rank in 1..=n {
            let o = self.judge(&board, each, seq, &found);
            if o.best == Pos::NONE || found.contains(&o.best) || !board.is_empty(o.best) {
                break;
            }
            let pv = o.pv.iter().map(|&p| board.pos_name(p)).collect();
            let best = board.pos_name(o.best);
            self.say(Reply::Message(Message::NBest { rank, best, score: o.score, depth: o.depth, pv }));
            found.push(o.best);
            if self.signals.quitting() {
                return;
            }
        }
        let Some(&best) = found.first() else {
            self.say(Reply::Error(Refusal::NoMove));
            return;
        };
        self.board.make(best);
        self.say(Reply::Moves(vec![self.coord(best)]));
    }

    /// `YXBALANCEONE b` (one move) / `YXBALANCETWO b` (ours and the opponent's): moves after
    /// which the side that played first is judged `bias` ahead, as nearly as the candidates
    /// allow. The moves are played and printed.
    pub(super) fn balance(&mut self, count: usize, bias: i32, seq: u64, arrived: Instant) {
        if self.board.stone_count() + count > self.board.width() * self.board.height() {
            self.say(Reply::Error(Refusal::NoRoom));
            return;
        }
        let total = self.command_budget().saturating_sub(arrived.elapsed());
        let mut board = self.board.clone();
        let moves: Vec<Pos> = if count == 1 {
            let candidates = Self::top_moves(&mut board, PAIR_FIRST * PAIR_SECOND);
            let each = total / candidates.len().max(1) as u32;
            let mut best: Option<(i32, Pos)> = None;
            for p in candidates {
                board.make(p);
                // The opponent moves next: its score, negated, is ours.
                let ours = -self.judge(&board, each, seq, &[]).score;
                board.undo();
                let miss = (ours - bias).abs();
                if best.is_none_or(|(m, _)| miss < m) {
                    best = Some((miss, p));
                }
            }
            best.map(|(_, p)| vec![p]).unwrap_or_default()
        } else {
            let each = total / (PAIR_FIRST * PAIR_SECOND) as u32;
            self.balanced_pair(&board, bias, each, seq).map(|(a, b)| vec![a, b]).unwrap_or_default()
        };
        if moves.is_empty() {
            self.say(Reply::Error(Refusal::NoMove));
            return;
        }
        for &p in &moves {
            self.board.make(p);
        }
        let moves = moves.iter().map(|&p| self.coord(p)).collect();
        self.say(Reply::Moves(moves));
    }
}
