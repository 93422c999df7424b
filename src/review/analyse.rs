//! The review itself: every position of a game searched once, the threat solvers asked for
//! the side to move's forced win, and each move judged by what it did to the mover's chances.
//!
//! Move `i` is judged from two positions: the one before it (the mover to move: the search's
//! value and best move, and the mover's threat win if any) and the one after it (the opponent
//! to move: its value, negated, and the opponent's threat win if any). So a game of n moves
//! costs n + 1 searches, not 2n.

use super::parse::{Fault, Record};
use crate::board::{Board, MAX_SIZE, MIN_SIZE};
use crate::search::movepick::is_legal;
use crate::search::threat::{Solver, ThreatCache};
use crate::search::tt::{Tt, WIN_THRESHOLD};
use crate::search::{Limits, Searcher, MAX_DEPTH, WIN};
use crate::types::{Color, Pos, Rule};
use std::time::{Duration, Instant};

/// Evaluation units per logit of the win probability: the scale the evaluation was fitted on
/// (`tune` fits `P(win) = 1 / (1 + exp(-eval / 650))`), so a score reads as a probability.
pub const LOGISTIC_SCALE: f64 = 650.0;
/// Drops in the mover's win probability (0..1) from which a move is labelled.
pub const INACCURACY: f64 = 0.06;
pub const MISTAKE: f64 = 0.12;
pub const BLUNDER: f64 = 0.25;
/// Default search time per position.
pub const DEFAULT_MS: u64 = 300;
/// Hash table for the whole review (positions of one game share much of their trees).
const HASH_BYTES: usize = 64 << 20;
/// Threat solvers per position: nodes for the VCF, for the VCT, and the VCT's depth in
/// threats (the engine's root threat search looks 5 deep). Node budgets, not time, so a
/// review finds the same threat wins on any machine.
const VCF_NODES: u64 = 300_000;
const VCT_NODES: u64 = 100_000;
const VCT_DEPTH: i32 = 5;
/// Failure caches of the solvers (log2 slots), kept across the game's positions.
const CACHE_BITS: u32 = 18;
/// Forced answers (the block of a four) the search plays without searching; the value of
/// such a position is the value after the answer, followed this many answers deep.
const FORCED_CHAIN: usize = 8;

/// How long each position is searched.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Effort {
    /// Milliseconds per position (ignored when `nodes` is set).
    pub ms: u64,
    /// A node limit per position instead of a time: the same review on every machine.
    pub nodes: Option<u64>,
}

impl Default for Effort {
    fn default() -> Effort {
        Effort { ms: DEFAULT_MS, nodes: None }
    }
}

/// A game ready to review: the moves are on the board and legal.
#[derive(Clone, Debug)]
pub struct Game {
    pub width: usize,
    pub height: usize,
    pub rule: Rule,
    pub moves: Vec<(usize, usize)>,
    pub black: String,
    pub white: String,
    /// The result the record states, if any.
    pub stated_result: Option<String>,
}

/// What a forced win is proved by.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum WinKind {
    /// Continuous fours.
    Vcf,
    /// Continuous threats (open threes and fours).
    Vct,
    /// The search's own proof (a mate score).
    Search,
}

impl WinKind {
    pub fn name(self) -> &'static str {
        match self {
            WinKind::Vcf => "VCF",
            WinKind::Vct => "VCT",
            WinKind::Search => "search",
        }
    }
}

/// A forced win for one side: how it is proved and its line (attacker's moves and the
/// defender's answers, named as in the engine's PVs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Win {
    pub kind: WinKind,
    pub line: Vec<String>,
}

/// One position, for the side to move.
#[derive(Clone, Debug)]
struct Position {
    score: i32,
    best_pos: Option<Pos>,
    best: Option<String>,
    pv: Vec<String>,
    win: Option<Win>,
}

/// The label of a move, by how much it lowered the mover's win probability.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Label {
    /// The engine's own choice.
    Best,
    /// Lost less than `INACCURACY`.
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Label {
    pub fn name(self) -> &'static str {
        match self {
            Label::Best => "best",
            Label::Good => "good",
            Label::Inaccuracy => "inaccuracy",
            Label::Mistake => "mistake",
            Label::Blunder => "blunder",
        }
    }

    /// The label of a drop in win probability.
    pub fn of_loss(loss: f64) -> Label {
        if loss >= BLUNDER {
            Label::Blunder
        } else if loss >= MISTAKE {
            Label::Mistake
        } else if loss >= INACCURACY {
            Label::Inaccuracy
        } else {
            Label::Good
        }
    }
}

/// How the game ended on the board, if it did.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    Five(Color),
    /// Renju: black played a forbidden point and lost.
    Forbidden,
    Full,
}

/// One move judged.
#[derive(Clone, Debug)]
pub struct MoveReview {
    /// From 1.
    pub number: usize,
    pub color: Color,
    pub name: String,
    pub x: usize,
    pub y: usize,
    /// The mover's win probability before and after the move.
    pub before: f64,
    pub after: f64,
    /// The engine's scores for the mover (mate scores as the search gives them: `WIN - n`
    /// for a win in n plies).
    pub score_before: i32,
    pub score_after: i32,
    /// The engine's choice in the position before the move, and its line.
    pub best: Option<String>,
    pub pv: Vec<String>,
    pub label: Label,
    /// The mover had this forced win and the move gave it up.
    pub missed_win: Option<Win>,
    /// After the move the opponent has this forced win (and the mover was not lost before).
    pub forced_loss: Option<Win>,
    /// The move ended the game.
    pub ending: Option<Ending>,
}

impl MoveReview {
    /// The drop in the mover's win probability (never below 0; 0 for the engine's own move,
    /// whose before and after differ only by the noise between two searches).
    pub fn loss(&self) -> f64 {
        if self.label == Label::Best {
            return 0.0;
        }
        (self.before - self.after).max(0.0)
    }
}

/// A whole game judged.
#[derive(Clone, Debug)]
pub struct Review {
    pub game: Game,
    pub effort: Effort,
    pub moves: Vec<MoveReview>,
}

/// The win probability of a score for the side it belongs to: a logistic of the score, and
/// 1 or 0 for a proved win or loss.
pub fn win_probability(score: i32) -> f64 {
    if score >= WIN_THRESHOLD {
        1.0
    } else if score <= -WIN_THRESHOLD {
        0.0
    } else {
        1.0 / (1.0 + (-(score as f64) / LOGISTIC_SCALE).exp())
    }
}

/// A point's name as the engine writes it, also for points off the board (for messages).
fn point_name(width: usize, x: i64, y: i64) -> String {
    if width <= 26 && (0..26).contains(&x) && y >= 0 {
        format!("{}{}", (b'a' + x as u8) as char, y + 1)
    } else {
        format!("{x},{y}")
    }
}

impl Game {
    /// Checks `r`'s moves on a board of its size and rule (`size` and `rule` override the
    /// file's; without either, 15x15 freestyle): each must be on the board, on a free point,
    /// and not after the game was won; a renju forbidden point may only end the game.
    pub fn from_record(r: &Record, size: Option<(usize, usize)>, rule: Option<Rule>) -> Result<Game, Fault> {
        let (width, height) = size.or(r.size).unwrap_or((15, 15));
        for side in [width, height] {
            if !(MIN_SIZE..=MAX_SIZE).contains(&side) {
                return Err(Fault::at(
                    0,
                    format!("board {width}x{height}: sides must be {MIN_SIZE}..{MAX_SIZE}"),
                ));
            }
        }
        let rule = rule.or(r.rule).unwrap_or(Rule::Freestyle);
        let mut b = Board::new(width, height, rule);
        let mut moves = Vec::with_capacity(r.moves.len());
        let mut ended: Option<(usize, &'static str)> = None;
        for (i, m) in r.moves.iter().enumerate() {
            let name = point_name(width, m.x, m.y);
            if let Some((at, how)) = ended {
                return Err(Fault::at(
                    m.line,
                    format!("move {} ({name}) comes after the game ended at move {at} ({how})", i + 1),
                ));
            }
            let Some(p) = b.pos(m.x, m.y) else {
                return Err(Fault::at(
                    m.line,
                    format!("move {} ({name}) is off the {width}x{height} board", i + 1),
                ));
            };
            if !b.is_empty(p) {
                return Err(Fault::at(m.line, format!("move {} ({name}) is on a taken point", i + 1)));
            }
            let mover = b.side_to_move();
            let legal = is_legal(&mut b, p);
            b.make(p);
            if b.is_win_at(p) {
                ended = Some((i + 1, "a five"));
            } else if !legal {
                debug_assert_eq!(mover, Color::Black);
                ended = Some((i + 1, "black's forbidden point"));
            }
            moves.push((m.x as usize, m.y as usize));
        }
        if moves.is_empty() {
            return Err(Fault::at(0, "the game has no moves"));
        }
        Ok(Game {
            width,
            height,
            rule,
            moves,
            black: r.black.clone().unwrap_or_else(|| "black".into()),
            white: r.white.clone().unwrap_or_else(|| "white".into()),
            stated_result: r.result.clone(),
        })
    }

    pub fn player(&self, c: Color) -> &str {
        match c {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }
}

/// The searcher and solvers a review shares across its positions.
struct Analyst {
    tt: Tt,
    vcf_cache: ThreatCache,
    vct_cache: ThreatCache,
    effort: Effort,
    /// VCT is sound only where an open three must be answered (not in caro).
    threats: bool,
    /// The line of the last threat win found.
    last_proof: Vec<Pos>,
}

impl Analyst {
    fn new(effort: Effort, rule: Rule) -> Analyst {
        Analyst {
            tt: Tt::new(HASH_BYTES),
            vcf_cache: ThreatCache::new(CACHE_BITS),
            vct_cache: ThreatCache::new(CACHE_BITS),
            effort,
            threats: !matches!(rule, Rule::CaroOverline | Rule::CaroExact),
            last_proof: Vec::new(),
        }
    }

    /// The position for the side to move: the search's value, move and line, and a forced
    /// win by threats if the solvers prove one (which then stands over the search's value).
    fn position(&mut self, b: &mut Board) -> Position {
        let names = |b: &Board, line: &[Pos]| line.iter().map(|&p| b.pos_name(p)).collect::<Vec<_>>();
        let win = self.threat_win(b).map(|(kind, line)| {
            let named = names(b, &line);
            self.last_proof = line;
            Win { kind, line: named }
        });
        let (score, best, pv) = self.value(b, 0);
        let win_pos = self.last_proof.first().copied();
        let mut pos =
            Position { score, best_pos: best, best: best.map(|p| b.pos_name(p)), pv: names(b, &pv), win };
        if let Some(w) = &pos.win {
            if pos.score < WIN_THRESHOLD {
                pos.score = WIN - w.line.len() as i32;
                pos.best_pos = win_pos;
                pos.best = w.line.first().cloned();
                pos.pv = w.line.clone();
            }
        } else if pos.score >= WIN_THRESHOLD {
            pos.win = Some(Win { kind: WinKind::Search, line: pos.pv.clone() });
        }
        pos
    }

    /// Whether, after `q` is played for the side to move, the other side has a threat win
    /// (or `q` is a five, which settles it the other way). The board is left as it was.
    fn loses_after(&mut self, b: &mut Board, q: Pos) -> bool {
        if !b.is_empty(q) {
            return false;
        }
        b.make(q);
        let loses = !b.is_win_at(q) && self.threat_win(b).is_some();
        b.undo();
        loses
    }

    /// The side to move's shortest VCF, else (outside caro) a VCT.
    fn threat_win(&mut self, b: &mut Board) -> Option<(WinKind, Vec<Pos>)> {
        let first_legal = |b: &mut Board, line: &[Pos]| line.first().is_some_and(|&p| is_legal(b, p));
        let vcf = Solver::vcf(&mut self.vcf_cache, VCF_NODES).shortest_vcf(b);
        if let Some(p) = vcf.filter(|p| first_legal(b, &p.line)) {
            return Some((WinKind::Vcf, p.line));
        }
        if !self.threats {
            return None;
        }
        let vct = Solver::vct(&mut self.vcf_cache, &mut self.vct_cache, VCT_NODES).find_vct(b, VCT_DEPTH);
        vct.filter(|p| first_legal(b, &p.line)).map(|p| (WinKind::Vct, p.line))
    }

    /// The search's value of the position for the side to move, its move and line. A forced
    /// answer the search plays without searching is followed up to `FORCED_CHAIN` deep.
    fn value(&mut self, b: &mut Board, chain: usize) -> (i32, Option<Pos>, Vec<Pos>) {
        if b.is_full() {
            return (0, None, Vec::new());
        }
        if b.stone_count() == 0 {
            // The engine opens in the centre without searching; so does the review.
            let centre = b.pos(b.width() as i64 / 2, b.height() as i64 / 2);
            return (0, centre, centre.into_iter().collect());
        }
        self.tt.new_search();
        let never = || false;
        let (soft, hard, max_nodes) = match self.effort.nodes {
            Some(n) => (Duration::MAX, Duration::MAX, n.max(1)),
            None => {
                let hard = Duration::from_millis(self.effort.ms.max(1));
                (hard / 2, hard, u64::MAX)
            }
        };
        let limits =
            Limits { start: Instant::now(), soft, hard, max_depth: MAX_DEPTH, max_nodes, stop: &never };
        let out = Searcher::new(&self.tt, limits, b.rule()).run(b, |_| {});
        let forced = out.depth == 0 && out.score.abs() < WIN_THRESHOLD && out.best != Pos::NONE;
        if !forced || chain >= FORCED_CHAIN || !b.is_empty(out.best) {
            return (out.score, Some(out.best).filter(|&p| p != Pos::NONE), out.pv);
        }
        b.make(out.best);
        let (score, line) = if b.is_win_at(out.best) {
            (WIN - 1, Vec::new())
        } else {
            let (s, _, line) = self.value(b, chain + 1);
            (one_ply_back(s), line)
        };
        b.undo();
        let mut pv = vec![out.best];
        pv.extend(line);
        (score, Some(out.best), pv)
    }
}

/// A score of the position after a move, seen from the position before it: negated, and a
/// mate one ply further away.
fn one_ply_back(s: i32) -> i32 {
    if s >= WIN_THRESHOLD {
        -(s - 1)
    } else if s <= -WIN_THRESHOLD {
        -(s + 1)
    } else {
        -s
    }
}

/// Reviews `game`, calling `progress(done, total)` after each position searched.
pub fn review(game: &Game, effort: Effort, mut progress: impl FnMut(usize, usize)) -> Review {
    let mut b = Board::new(game.width, game.height, game.rule);
    let mut analyst = Analyst::new(effort, game.rule);
    let n = game.moves.len();
    let total = n + 1;
    let mut before = analyst.position(&mut b);
    progress(1, total);
    let mut moves = Vec::with_capacity(n);
    for (i, &(x, y)) in game.moves.iter().enumerate() {
        let p = b.pos(x as i64, y as i64).expect("checked by Game::from_record");
        let name = b.pos_name(p);
        let mover = b.side_to_move();
        let legal = is_legal(&mut b, p);
        b.make(p);
        let ending = if b.is_win_at(p) {
            Some(Ending::Five(mover))
        } else if !legal {
            Some(Ending::Forbidden)
        } else if b.is_full() {
            Some(Ending::Full)
        } else {
            None
        };
        // The position after the move, for the opponent (none once the game is over).
        let after = ending.is_none().then(|| analyst.position(&mut b));
        progress(i + 2, total);
        let (score_after, after_p) = match (ending, &after) {
            (Some(Ending::Five(_)), _) => (WIN - 1, 1.0),
            (Some(Ending::Forbidden), _) => (-WIN, 0.0),
            (Some(Ending::Full), _) => (0, 0.5),
            (None, Some(a)) => {
                let s = one_ply_back(a.score);
                (s, win_probability(s))
            }
            (None, None) => unreachable!("a position is searched unless the game ended"),
        };
        let is_best = before.best_pos == Some(p);
        let mover_won = matches!(ending, Some(Ending::Five(_)));
        // A forced win is given up when, after the move and the opponent's best answer (the
        // search's choice, which looks for threat defences), the mover has no threat win left
        // and no proved win either.
        let missed_win = before.win.clone().filter(|w| {
            let on_the_line = w.line.first().map(String::as_str) == Some(name.as_str());
            let kept = mover_won
                || on_the_line
                || is_best
                || after.as_ref().is_some_and(|a| {
                    a.score <= -WIN_THRESHOLD || a.best_pos.is_none_or(|r| analyst.loses_after(&mut b, r))
                });
            !kept
        });
        // A forced loss is walked into when the opponent has a forced win after the move but
        // not after the engine's move (else the position was lost already).
        let lost_before = before.score <= -WIN_THRESHOLD;
        let forced_loss = match (ending, &after) {
            (None, Some(a)) if a.win.is_some() && !lost_before && !is_best => {
                b.undo();
                let avoidable = before.best_pos.is_some_and(|q| !analyst.loses_after(&mut b, q));
                b.make(p);
                a.win.clone().filter(|_| avoidable)
            }
            _ => None,
        };
        let before_p = win_probability(before.score);
        let mut label = if is_best { Label::Best } else { Label::of_loss((before_p - after_p).max(0.0)) };
        if (missed_win.is_some() || forced_loss.is_some()) && label < Label::Mistake {
            label = Label::Mistake;
        }
        if ending == Some(Ending::Forbidden) {
            label = Label::Blunder;
        }
        moves.push(MoveReview {
            number: i + 1,
            color: mover,
            name,
            x,
            y,
            before: before_p,
            after: after_p,
            score_before: before.score,
            score_after,
            best: before.best.clone(),
            pv: before.pv.clone(),
            label,
            missed_win,
            forced_loss,
            ending,
        });
        match after {
            Some(a) => before = a,
            None => break,
        }
    }
    Review { game: game.clone(), effort, moves }
}

/// One player's tally.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    pub moves: usize,
    pub best: usize,
    pub good: usize,
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
    /// Move numbers where a forced win was given up.
    pub missed_wins: Vec<usize>,
    /// Move numbers after which the opponent had a forced win.
    pub forced_losses: Vec<usize>,
    /// Mean drop in win probability per move (0..1).
    pub mean_loss: f64,
}

impl Review {
    pub fn summary(&self, color: Color) -> Summary {
        let mut s = Summary::default();
        let mut loss = 0.0;
        for m in self.moves.iter().filter(|m| m.color == color) {
            s.moves += 1;
            loss += m.loss();
            match m.label {
                Label::Best => s.best += 1,
                Label::Good => s.good += 1,
                Label::Inaccuracy => s.inaccuracies += 1,
                Label::Mistake => s.mistakes += 1,
                Label::Blunder => s.blunders += 1,
            }
            if m.missed_win.is_some() {
                s.missed_wins.push(m.number);
            }
            if m.forced_loss.is_some() {
                s.forced_losses.push(m.number);
            }
        }
        if s.moves > 0 {
            s.mean_loss = loss / s.moves as f64;
        }
        s
    }

    /// The result: as the board shows it (a five, a forbidden move, a full board), else as the
    /// record states it, else unfinished.
    pub fn result(&self) -> String {
        let last = self.moves.last();
        match last.and_then(|m| m.ending) {
            Some(Ending::Five(c)) => {
                format!("{} wins with a five at move {}", color_name(c), last.map_or(0, |m| m.number))
            }
            Some(Ending::Forbidden) => {
                format!("white wins: black's move {} is a forbidden point", last.map_or(0, |m| m.number))
            }
            Some(Ending::Full) => "draw: the board is full".into(),
            None => match self.game.stated_result.as_deref() {
                Some(r) if !r.is_empty() => format!("unfinished on the board (the record says {r})"),
                _ => "unfinished".into(),
            },
        }
    }
}

pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::parse::parse;

    #[test]
    fn probability_is_logistic_and_certain_for_mates() {
        assert_eq!(win_probability(0), 0.5);
        assert!((win_probability(650) - 1.0 / (1.0 + (-1.0f64).exp())).abs() < 1e-12);
        assert!((win_probability(-650) + win_probability(650) - 1.0).abs() < 1e-12);
        assert_eq!(win_probability(WIN - 5), 1.0);
        assert_eq!(win_probability(-(WIN - 5)), 0.0);
    }

    #[test]
    fn labels_follow_the_thresholds() {
        assert_eq!(Label::of_loss(0.0), Label::Good);
        assert_eq!(Label::of_loss(INACCURACY - 0.001), Label::Good);
        assert_eq!(Label::of_loss(INACCURACY), Label::Inaccuracy);
        assert_eq!(Label::of_loss(MISTAKE), Label::Mistake);
        assert_eq!(Label::of_loss(BLUNDER), Label::Blunder);
        assert_eq!(Label::of_loss(1.0), Label::Blunder);
    }

    #[test]
    fn mates_move_one_ply_when_seen_from_before() {
        assert_eq!(one_ply_back(WIN - 3), -(WIN - 4));
        assert_eq!(one_ply_back(-(WIN - 2)), WIN - 3);
        assert_eq!(one_ply_back(120), -120);
    }

    fn game(moves: &str, rule: Option<Rule>) -> Result<Game, Fault> {
        Game::from_record(&parse(moves, 1).expect("parses"), Some((15, 15)), rule)
    }

    #[test]
    fn bad_moves_name_their_line() {
        let e = game("h8\ni9\nh8\n", None).unwrap_err();
        assert_eq!(e.line, 3, "{e}");
        assert!(e.what.contains("taken"), "{e}");
        let e = game("h8 i9\np3\n", None).unwrap_err();
        assert_eq!(e.line, 2, "{e}");
        assert!(e.what.contains("off the 15x15 board"), "{e}");
        // Black's five at move 9 ends the game; a tenth move is refused on its line.
        let e = game("a1 a2 b1 b2 c1 c2 d1 d2 e1\nf2\n", None).unwrap_err();
        assert_eq!(e.line, 2, "{e}");
        assert!(e.what.contains("after the game ended at move 9"), "{e}");
    }

    #[test]
    fn renju_forbidden_point_may_only_end_the_game() {
        // Black's h8 makes two open threes (double three): forbidden in renju.
        let moves = "f8 a1 g8 a3 h6 a5 h7 a7 h8";
        let g = game(moves, Some(Rule::Renju)).expect("a forbidden last move is allowed");
        assert_eq!(g.moves.len(), 9);
        let e = game(&format!("{moves} a9"), Some(Rule::Renju)).unwrap_err();
        assert!(e.what.contains("forbidden"), "{e}");
        assert!(game(&format!("{moves} a9"), Some(Rule::Freestyle)).is_ok());
    }

    /// Black makes a closed three on row 8 and one on column k whose crossing k8 is a double
    /// four; white (move 12) leaves it, black (move 13) misses it, white blocks it.
    pub const MISSED_VCF: &str = "h8g8i8k12j8j9k10l10k11j10k9a1a15k8";

    #[test]
    fn a_missed_vcf_is_named() {
        let g = game(MISSED_VCF, None).unwrap();
        let r = review(&g, Effort { ms: 0, nodes: Some(3000) }, |_, _| {});
        assert_eq!(r.moves.len(), 14);
        let m = &r.moves[12];
        let w = m.missed_win.as_ref().expect("move 13 gives up the VCF");
        assert_eq!((w.kind, w.line.first().map(String::as_str)), (WinKind::Vcf, Some("k8")));
        assert_eq!(m.best.as_deref(), Some("k8"));
        assert_eq!((m.before, m.label), (1.0, Label::Blunder));
        let f = r.moves[11].forced_loss.as_ref().expect("move 12 leaves the VCF");
        assert_eq!(f.line.first().map(String::as_str), Some("k8"));
        assert_eq!(r.moves[13].label, Label::Best, "white's block is the engine's move");
        let black = r.summary(Color::Black);
        assert_eq!(black.missed_wins, [13]);
        assert_eq!(r.summary(Color::White).forced_losses, [12]);
        assert_eq!(black.moves, 7);
    }

    #[test]
    fn a_five_ends_the_review_as_a_win() {
        let g = game("a1 a2 b1 b2 c1 c2 d1 d2 e1", None).unwrap();
        let r = review(&g, Effort { ms: 0, nodes: Some(500) }, |_, _| {});
        let last = r.moves.last().unwrap();
        assert_eq!(
            (last.ending, last.after, last.label),
            (Some(Ending::Five(Color::Black)), 1.0, Label::Best)
        );
        assert!(r.result().starts_with("black wins"), "{}", r.result());
        // White's eighth move leaves black's open four: a walk into a forced loss at the latest.
        assert!(r.moves.iter().any(|m| m.color == Color::White && m.forced_loss.is_some()));
    }

    #[test]
    fn a_renju_forbidden_move_loses_and_is_a_blunder() {
        let g = game("f8 a1 g8 a3 h6 a5 h7 a7 h8", Some(Rule::Renju)).unwrap();
        let r = review(&g, Effort { ms: 0, nodes: Some(500) }, |_, _| {});
        let last = r.moves.last().unwrap();
        assert_eq!((last.ending, last.after, last.label), (Some(Ending::Forbidden), 0.0, Label::Blunder));
        assert!(r.result().starts_with("white wins"), "{}", r.result());
        assert_ne!(last.best.as_deref(), Some("h8"), "the engine never proposes a forbidden point");
    }
}
