//! The session: board, rule and limits; turns commands into searches and replies.
//!
//! Runs on its own thread and hands every reply, as a type, to the one writer of stdout that
//! it was given. Stop and quit requests reach a running search through `Signals`, which the reader
//! thread sets.

use crate::board::{Board, MAX_SIZE, MIN_SIZE};
use crate::eval::gnn::{self, select::Choice, Gnn};
use crate::rules::renju::ForbiddenPoints;
use crate::search::smp::THREAD_MEMORY;
use crate::search::time::{self, Lateness, TimeControl};
use crate::search::tt::Tt;
use crate::search::{Iteration, Limits, SearchResult, Searcher, MAX_DEPTH, WIN};
use crate::types::{Color, Pos, Rule};
use command::{
    BoardBody, BodyFault, Command, Coord, Envelope, Info, Message, NetSetting, Note, PointCommand,
    PointFault, Progress, Refusal, Reply, Score, Setting,
};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// Memory budget when the manager sets none (`max_memory 0`), as Gomocup measures it.
pub const DEFAULT_MEMORY: u64 = 350 << 20;
/// Memory kept for everything but the hash table: code, stacks, pattern tables, boards.
const MEMORY_RESERVE: u64 = 24 << 20;
const MIN_HASH: u64 = 1 << 20;

/// Flags the reader thread sets and the engine polls.
#[derive(Default)]
pub struct Signals {
    /// Searches for commands with a sequence number below this must stop (YXSTOP / STOP).
    pub stop_upto: AtomicU64,
    /// END was read: stop the running search without a word and start no other.
    pub quit: AtomicBool,
    /// Sequence number of the newest command read (pondering stops when it moves on).
    pub latest: AtomicU64,
}

impl Signals {
    fn must_stop(&self, seq: u64) -> bool {
        self.quit.load(Ordering::Relaxed) || self.stop_upto.load(Ordering::Relaxed) > seq
    }

    fn quitting(&self) -> bool {
        self.quit.load(Ordering::Relaxed)
    }

    fn newer_than(&self, seq: u64) -> bool {
        self.quit.load(Ordering::Relaxed) || self.latest.load(Ordering::Relaxed) > seq
    }
}

/// Settings from `INFO` that shape the search.
#[derive(Clone, Debug)]
struct Settings {
    time: TimeControl,
    max_memory: u64,
    hash_kib: Option<u64>,
    max_depth: i32,
    max_nodes: u64,
    game_type: i64,
    folder: String,
    thread_num: i64,
    caution_factor: i64,
    pondering: bool,
    strength: i64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            time: TimeControl::default(),
            max_memory: 0,
            hash_kib: None,
            max_depth: MAX_DEPTH,
            max_nodes: u64::MAX,
            game_type: 1,
            folder: String::new(),
            thread_num: 1,
            caution_factor: 0,
            pondering: false,
            strength: 100,
        }
    }
}

/// Where the engine's replies go, one at a time, in order.
pub type Replies = Box<dyn FnMut(Reply) + Send>;

pub struct Engine {
    out: Replies,
    signals: Arc<Signals>,
    board: Board,
    rule: Rule,
    settings: Settings,
    tt: Option<Tt>,
    /// Notes for the user (bad INFO values), sent as MESSAGE before the next move.
    notes: Vec<Note>,
    /// Our own thinking time this game, for a match limit without `time_left`.
    used_ms: i64,
    /// How late our replies land after the search stops; kept back from the next budgets.
    lateness: Lateness,
    /// When the last move's search stopped or was due to, from its command's arrival.
    stopped: Option<Duration>,
    /// Varies weaker levels' choices from game to game.
    game_seed: u64,
    /// Set when the last command was answered with our move (pondering may follow).
    moved: bool,
}

/// Whether the engine keeps serving after a command.
#[derive(PartialEq, Eq, Debug)]
pub enum Flow {
    Continue,
    Quit,
}

impl Engine {
    pub fn new(out: Replies, signals: Arc<Signals>) -> Engine {
        Engine {
            out,
            signals,
            board: Board::new(15, 15, Rule::Freestyle),
            rule: Rule::Freestyle,
            settings: Settings::default(),
            tt: None,
            notes: Vec::new(),
            used_ms: 0,
            lateness: Lateness::default(),
            stopped: None,
            game_seed: fresh_seed(),
            moved: false,
        }
    }

    /// Hands one reply to the writer.
    fn say(&mut self, reply: Reply) {
        (self.out)(reply)
    }

    /// A board point as the protocol names it.
    fn coord(&self, p: Pos) -> Coord {
        let (x, y) = self.board.xy(p);
        Coord { x: x as i64, y: y as i64 }
    }

    /// Answers queued commands in order until END, or until the queue closes after end of
    /// input.
    pub fn answer_all(mut self, rx: mpsc::Receiver<Envelope>) {
        while let Ok(env) = rx.recv() {
            let Some(cmd) = env.cmd else { return };
            // After END the answers a script is waiting for still come, in order, but no new
            // search starts: END must exit at once.
            if self.signals.quitting() && searches(&cmd) {
                continue;
            }
            if self.handle_safely(cmd, env.seq, env.arrived) == Flow::Quit {
                return;
            }
            if std::mem::take(&mut self.moved) && self.settings.pondering {
                self.ponder(env.seq);
            }
        }
    }

    /// Thinks on the opponent's time until the next command arrives; what it learns stays in
    /// the hash table for our next move. Prints nothing.
    fn ponder(&mut self, seq: u64) {
        if self.board.is_full() || self.board.last_move().is_some_and(|p| self.board.is_win_at(p)) {
            return;
        }
        let mut board = self.board.clone();
        let forever = Duration::from_secs(24 * 3600);
        let job =
            Job { seq, start: Instant::now(), soft: forever, hard: forever, exclude: &[], report: false };
        let _ = catch_unwind(AssertUnwindSafe(|| self.run_search_until(&mut board, job, true)));
    }

    /// Handles a command; if handling panics (a bug), the board is restored and the command
    /// is answered without a search, so one bug never costs a game by forfeit.
    fn handle_safely(&mut self, cmd: Command, seq: u64, arrived: Instant) -> Flow {
        let snapshot = self.board.clone();
        let first = catch_unwind(AssertUnwindSafe(|| self.handle(cmd.clone(), seq, arrived, false)));
        match first {
            Ok(flow) => flow,
            Err(_) => {
                log::error!("panic while handling {cmd:?}; answering without search");
                self.board = snapshot.clone();
                self.tt = None;
                match catch_unwind(AssertUnwindSafe(|| self.handle(cmd, seq, arrived, true))) {
                    Ok(flow) => flow,
                    Err(_) => {
                        self.board = snapshot;
                        self.say(Reply::Error(Refusal::Internal));
                        Flow::Continue
                    }
                }
            }
        }
    }

    /// Handles one command. `safe` answers moves without searching (after a panic).
    pub fn handle(&mut self, cmd: Command, seq: u64, arrived: Instant, safe: bool) -> Flow {
        match cmd {
            Command::Start { width, height } => self.start(width, height),
            Command::Restart => {
                self.new_game(self.board.width(), self.board.height());
                self.say(Reply::Ok);
            }
            Command::Begin => self.reply_move(seq, arrived, safe),
            Command::Turn(c) => match self.point(c) {
                Ok(p) => {
                    self.board.make(p);
                    self.reply_move(seq, arrived, safe);
                }
                Err(fault) => self.refuse_point(PointCommand::Turn, c, fault),
            },
            Command::Play(c) => match self.point(c) {
                Ok(p) => {
                    self.board.make(p);
                    self.say(Reply::Moves(vec![c]));
                }
                Err(fault) => self.refuse_point(PointCommand::Play, c, fault),
            },
            Command::Takeback(c) => match self.board.pos(c.x, c.y) {
                Some(p) if self.board.take_back(p) => self.say(Reply::Ok),
                Some(_) => self.refuse_point(PointCommand::Takeback, c, PointFault::NoStone),
                None => self.refuse_point(PointCommand::Takeback, c, PointFault::OffBoard),
            },
            Command::Board(body) => match self.set_position(&body) {
                Ok(()) => self.reply_move(seq, arrived, safe),
                Err(fault) => self.say(Reply::Error(Refusal::Body(fault))),
            },
            Command::YxBoard(body) => {
                if let Err(fault) = self.set_position(&body) {
                    self.notes.push(Note::Position(fault));
                }
            }
            Command::Info(Info::Set(setting)) => self.set(setting),
            Command::Info(Info::Ignored) => {}
            Command::Info(Info::Unusable(note)) => self.notes.push(Note::Info(note)),
            Command::End => return Flow::Quit,
            Command::About => self.say(Reply::About),
            Command::Stop => {}
            Command::ShowForbid => {
                let points = self.board.forbidden_points();
                let points = points.into_iter().map(|p| self.coord(p)).collect();
                self.say(Reply::Forbid(points));
            }
            Command::Swap2(body) => self.swap2(&body, seq, arrived),
            Command::HashClear => self.tt = None,
            Command::NBest(n) => self.nbest(n as usize, seq, arrived),
            Command::ShowInfo => {
                self.say(Reply::Message(Message::MaxThreads(max_threads())));
                self.say(Reply::Message(Message::MaxHashKib(self.hash_bytes() / 1024)));
            }
            Command::BalanceOne(bias) => self.balance(1, bias as i32, seq, arrived),
            Command::BalanceTwo(bias) => self.balance(2, bias as i32, seq, arrived),
            Command::Opening(req) => self.opening(&req, seq, arrived),
            Command::Malformed(why) => self.say(Reply::Error(Refusal::Malformed(why))),
            Command::Unknown(why) => self.say(Reply::Unknown(why)),
        }
        Flow::Continue
    }

    fn start(&mut self, width: i64, height: i64) {
        let ok = |n: i64| (MIN_SIZE as i64..=MAX_SIZE as i64).contains(&n);
        if ok(width) && ok(height) {
            self.new_game(width as usize, height as usize);
            self.say(Reply::Ok);
        } else {
            self.say(Reply::Error(Refusal::BoardSize { width, height }));
        }
    }

    fn refuse_point(&mut self, command: PointCommand, at: Coord, fault: PointFault) {
        self.say(Reply::Error(Refusal::Point { command, at, fault }));
    }

    fn new_game(&mut self, width: usize, height: usize) {
        if (width, height) != (self.board.width(), self.board.height()) {
            // Table moves are grid indices of one board size.
            self.tt = None;
        }
        self.board = Board::new(width, height, self.rule);
        self.used_ms = 0;
        self.game_seed = fresh_seed();
    }

    /// Checks a point the manager sent: on the board and empty.
    fn point(&self, c: Coord) -> Result<Pos, PointFault> {
        let p = self.board.pos(c.x, c.y).ok_or(PointFault::OffBoard)?;
        if self.board.is_empty(p) {
            Ok(p)
        } else {
            Err(PointFault::Occupied)
        }
    }

    /// Sets the position of a `BOARD` body; on any problem the board stays as it was.
    fn set_position(&mut self, body: &BoardBody) -> Result<(), BodyFault> {
        if let Some(e) = &body.error {
            return Err(BodyFault::Malformed(e.clone()));
        }
        let stones: Vec<_> = body.stones.iter().filter(|s| s.field != 3).collect();
        let own = stones.iter().filter(|s| s.field == 1).count();
        let opp = stones.len() - own;
        // Black has as many stones as white or one more; with equal counts we are black.
        let own_color = if opp > own { Color::White } else { Color::Black };
        let mut board = Board::new(self.board.width(), self.board.height(), self.rule);
        for s in &stones {
            let p = board.pos(s.at.x, s.at.y).ok_or(BodyFault::OffBoard(s.at))?;
            if !board.is_empty(p) {
                return Err(BodyFault::Twice(s.at));
            }
            let color = if s.field == 1 { own_color } else { own_color.opp() };
            board.place(p, color);
        }
        board.set_side_to_move(own_color);
        self.board = board;
        Ok(())
    }

    /// Applies an `INFO` setting, fitted to the engine's limits.
    fn set(&mut self, setting: Setting) {
        let settings = &mut self.settings;
        match setting {
            Setting::TurnMs(ms) => settings.time.turn_ms = ms,
            Setting::MatchMs(ms) => settings.time.match_ms = ms,
            Setting::TimeLeftMs(ms) => settings.time.time_left_ms = Some(ms),
            Setting::MaxMemory(bytes) => {
                settings.max_memory = bytes;
                if bytes != 0 && bytes < MEMORY_RESERVE + MIN_HASH {
                    self.notes.push(Note::MemoryTooSmall(bytes));
                }
            }
            Setting::HashKib(kib) => settings.hash_kib = kib,
            Setting::Rule(rule) => self.set_rule(rule),
            Setting::MaxDepth(v) => {
                settings.max_depth = if v <= 0 { MAX_DEPTH } else { v.min(MAX_DEPTH as i64) as i32 }
            }
            Setting::MaxNodes(v) => settings.max_nodes = if v <= 0 { u64::MAX } else { v as u64 },
            Setting::GameType(v) => settings.game_type = v,
            Setting::Threads(v) => {
                let cores = max_threads();
                settings.thread_num = v.min(cores as i64);
                if v as usize > cores {
                    self.notes.push(Note::ThreadsClamped { asked: v, cores });
                }
            }
            Setting::CautionFactor(v) => settings.caution_factor = v,
            Setting::Pondering(on) => settings.pondering = on,
            Setting::Strength(v) => settings.strength = v.clamp(0, 100),
            Setting::Folder(folder) => settings.folder = folder,
            Setting::Net(net) => self.set_net(net),
        }
    }

    /// Switches the evaluation of every board from now on, and of the current one; a file
    /// that cannot be used leaves the evaluation as it was, with a note saying why.
    fn set_net(&mut self, net: NetSetting) {
        let choice = match net {
            NetSetting::Classic => Choice::Classic,
            NetSetting::BuiltIn => Choice::BuiltIn,
            NetSetting::File(path) => match Gnn::load_searchable(&path) {
                Ok(net) => Choice::File(Arc::new(net)),
                Err(why) => {
                    self.notes.push(Note::Net(format!("INFO net_file {path}: {why}; evaluation unchanged")));
                    return;
                }
            },
        };
        gnn::select::set(choice);
        let net = gnn::select::net_for(self.rule, self.board.width(), self.board.height());
        let what = match &net {
            Some(n) => format!("net evaluation (D = {}, {} hidden)", n.dim, n.hidden),
            None => "classic evaluation".to_string(),
        };
        self.notes.push(Note::Net(format!(
            "{what} for {:?} {}x{}",
            self.rule,
            self.board.width(),
            self.board.height()
        )));
        self.board.set_net(net);
        // Table scores are another evaluation's.
        self.tt = None;
    }

    fn set_rule(&mut self, rule: Rule) {
        if rule == self.rule {
            return;
        }
        self.rule = rule;
        self.tt = None;
        self.board = self.board.with_rule(rule);
    }

    /// Search threads: `thread_num` at full strength; weaker levels search on one thread, so
    /// their node budgets mean the same on every machine.
    fn threads(&self) -> usize {
        if self.settings.strength < 100 {
            1
        } else {
            self.settings.thread_num.clamp(1, max_threads() as i64) as usize
        }
    }

    /// Size of the hash table the settings allow, in bytes: the budget less the reserve and
    /// what each helper thread needs of its own.
    fn hash_bytes(&self) -> u64 {
        let budget = if self.settings.max_memory == 0 { DEFAULT_MEMORY } else { self.settings.max_memory };
        let helpers = (self.threads() - 1) as u64 * THREAD_MEMORY;
        let mut bytes = budget.saturating_sub(MEMORY_RESERVE + helpers).max(MIN_HASH);
        if let Some(kib) = self.settings.hash_kib {
            bytes = bytes.min(kib.saturating_mul(1024).max(MIN_HASH));
        }
        bytes
    }

    /// Chooses, plays and prints our move; prints `ERROR` if the board is full.
    fn reply_move(&mut self, seq: u64, arrived: Instant, safe: bool) {
        for note in std::mem::take(&mut self.notes) {
            self.say(Reply::Message(Message::Note(note)));
        }
        self.stopped = None;
        let Some(p) = self.choose(seq, arrived, safe) else {
            self.say(Reply::Error(Refusal::BoardFull));
            return;
        };
        if self.signals.quitting() {
            return;
        }
        let at = self.coord(p);
        self.board.make(p);
        self.say(Reply::Moves(vec![at]));
        // The writer has flushed: what the manager will measure, less the pipe.
        if let Some(stopped) = self.stopped.take() {
            let flushed = arrived.elapsed();
            self.lateness.observe(stopped, flushed);
            log::info!(
                "reply flushed at {} ms, search stopped at {} ms; late margin now {} ms",
                flushed.as_millis(),
                stopped.as_millis(),
                self.lateness.margin()
            );
        }
        self.moved = true;
    }

    fn choose(&mut self, seq: u64, arrived: Instant, safe: bool) -> Option<Pos> {
        let b = &self.board;
        if b.is_full() {
            return None;
        }
        if b.stone_count() == 0 {
            return b.pos(b.width() as i64 / 2, b.height() as i64 / 2);
        }
        if safe {
            let mut moves = Vec::new();
            let history = vec![0; crate::board::MAX_CELLS];
            let b = &mut self.board;
            crate::search::movepick::generate(
                b,
                &mut moves,
                &crate::search::movepick::Refuters::NONE,
                &history,
                Pos::NONE,
            );
            let mut any = None;
            b.for_each_empty(|p| any = any.or(Some(p)));
            return moves.first().map(|m| m.pos).or(any);
        }
        let late = self.lateness.margin();
        let budget = time::budget(&self.settings.time, self.board.stone_count(), self.used_ms, late);
        let mut board = self.board.clone();
        let job =
            Job { seq, start: arrived, soft: budget.soft, hard: budget.hard, exclude: &[], report: true };
        let result = self.run_search(&mut board, job);
        self.stopped = Some(arrived.elapsed().min(budget.hard));
        self.used_ms += arrived.elapsed().as_millis() as i64;
        Some(result.best)
    }

    /// Allocates the hash table on first use, or anew after a size change.
    fn ensure_table(&mut self) {
        let want = self.hash_bytes() as usize;
        if self.tt.as_ref().is_none_or(|t| t.bytes() > want || t.bytes() * 2 <= want) {
            self.tt = None; // free the old table before allocating the new one
            self.tt = Some(allocate_table(want, &mut self.notes));
        }
    }

    /// Searches `board` (a copy: the session's board is never touched by a search) under
    /// the session's rule, level and limits.
    fn run_search(&mut self, board: &mut Board, job: Job) -> SearchResult {
        self.run_search_until(board, job, false)
    }

    /// `run_search`, stopping at the next command of any kind when `pondering`.
    fn run_search_until(&mut self, board: &mut Board, job: Job, pondering: bool) -> SearchResult {
        self.ensure_table();
        let tt = self.tt.as_mut().expect("allocated above");
        tt.new_search();
        let tt = self.tt.as_ref().expect("allocated above");
        let signals = Arc::clone(&self.signals);
        let seq = job.seq;
        let stop = move || if pondering { signals.newer_than(seq) } else { signals.must_stop(seq) };
        let (level_nodes, noise) = level(self.settings.strength);
        let limits = Limits {
            start: job.start,
            soft: job.soft,
            hard: job.hard,
            max_depth: self.settings.max_depth,
            max_nodes: self.settings.max_nodes.min(level_nodes),
            stop: &stop,
        };
        let mut searcher = Searcher::new(tt, limits, self.rule)
            .excluding(job.exclude)
            .with_noise(noise, self.game_seed)
            .with_threads(self.threads());
        let names = board.clone();
        let out = &mut self.out;
        searcher.run(board, |it| {
            if job.report {
                out(Reply::Message(Message::Progress(progress(&names, it))))
            }
        })
    }
}

/// Whether answering `cmd` takes a search (or plays a move as if it had searched).
fn searches(cmd: &Command) -> bool {
    matches!(
        cmd,
        Command::Begin
            | Command::Turn(_)
            | Command::Board(_)
            | Command::Swap2(_)
            | Command::NBest(_)
            | Command::BalanceOne(_)
            | Command::BalanceTwo(_)
            | Command::Opening(_)
    )
}

/// One search request: whose stop flag applies, its clock, moves to leave out, and whether
/// each iteration is reported.
#[derive(Clone, Copy)]
struct Job<'a> {
    seq: u64,
    start: Instant,
    soft: Duration,
    hard: Duration,
    exclude: &'a [Pos],
    report: bool,
}

/// The most search threads `thread_num` may ask for: the cores the system gives us.
pub fn max_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Node limit and evaluation noise for `INFO strength` (100 = full strength): every ten
/// points below 100 halve the nodes, from 1000 at 0, and add noise.
fn level(strength: i64) -> (u64, i32) {
    if strength >= 100 {
        return (u64::MAX, 0);
    }
    let s = strength.clamp(0, 99);
    (1000u64 << (s / 10), ((100 - s) * 3 / 2) as i32)
}

/// The largest table up to `bytes` that the allocator grants (halving on refusal).
fn allocate_table(bytes: usize, notes: &mut Vec<Note>) -> Tt {
    let mut size = bytes;
    loop {
        if let Some(tt) = Tt::try_new(size) {
            if size < bytes {
                notes.push(Note::TableShrunk { wanted: bytes, got: tt.bytes() });
            }
            return tt;
        }
        size /= 2;
        if size < MIN_HASH as usize {
            return Tt::new(MIN_HASH as usize);
        }
    }
}

/// An iteration's report, its line named on `b`.
pub fn progress(b: &Board, it: &Iteration) -> Progress {
    let score = if it.score.abs() >= crate::search::tt::WIN_THRESHOLD {
        let plies = WIN - it.score.abs();
        if it.score > 0 {
            Score::WinIn(plies)
        } else {
            Score::LossIn(plies)
        }
    } else {
        Score::Value(it.score)
    };
    Progress {
        depth: it.depth,
        sel_depth: it.sel_depth,
        score,
        nodes: it.nodes,
        ms: it.elapsed.as_millis().max(1) as u64,
        pv: it.pv.iter().map(|&p| b.pos_name(p)).collect(),
    }
}

/// A seed that differs between games (weak levels should not repeat themselves).
fn fresh_seed() -> u64 {
    let nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let mut state = nanos as u64;
    crate::board::splitmix64(&mut state)
}

mod analysis;
pub mod command;
mod opening;
#[cfg(test)]
mod tests;
