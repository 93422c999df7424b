//! The engine's vocabulary: the commands it answers and the replies it gives, as types.
//!
//! The protocol front end (`crate::protocol`) reads lines into commands and writes replies
//! as lines; the engine never sees or makes a line of text. The types sit with the engine,
//! below the protocol, so imports run one way.

use crate::rules::opening::OpeningRule;
use crate::types::Rule;
use std::time::Instant;

/// A point as the manager sent it (not yet checked against the board size).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Coord {
    pub x: i64,
    pub y: i64,
}

/// One `x,y,f` line of a `BOARD` body.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Stone {
    pub at: Coord,
    /// 1 = own stone, 2 = opponent's, 3 = a mark of a continuous game (not a stone).
    pub field: u8,
}

/// The stones of a `BOARD`, `YXBOARD` or `SWAP2BOARD` body, as sent.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct BoardBody {
    pub stones: Vec<Stone>,
    /// The first malformed body line, reported once at `DONE`.
    pub error: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Start {
        width: i64,
        height: i64,
    },
    Restart,
    Begin,
    Turn(Coord),
    /// `BOARD` body: reply with a move.
    Board(BoardBody),
    /// `YXBOARD` body: set the position, no reply.
    YxBoard(BoardBody),
    Takeback(Coord),
    Play(Coord),
    Info(Info),
    End,
    About,
    /// `YXSTOP` / `STOP`: answer now with the best move so far.
    Stop,
    /// `YXSHOWFORBID`: list renju black's forbidden points.
    ShowForbid,
    /// `SWAP2BOARD` body: the opening stones so far, black first and alternating.
    Swap2(BoardBody),
    /// `YXHASHCLEAR`: forget the hash table.
    HashClear,
    /// `YXNBEST n`: the n best moves as MESSAGE lines, then the best move.
    NBest(i64),
    /// `YXSHOWINFO`: announce the engine's limits.
    ShowInfo,
    /// `YXBALANCEONE b`: one move after which the side to move is judged `b` ahead.
    BalanceOne(i64),
    /// `YXBALANCETWO b`: two moves (ours, then the opponent's) with the same aim.
    BalanceTwo(i64),
    /// `YXOPENINGSWAP` / `YXOPENINGMOVE` / `YXOPENINGCHOOSE` body: one decision of a
    /// tournament opening rule.
    Opening(OpeningRequest),
    /// A known command with unusable arguments, or a body cut off by a command before `DONE`:
    /// answer `ERROR <why>`.
    Malformed(String),
    /// Anything else: answer `UNKNOWN <why>`.
    Unknown(String),
}

/// The decision an opening command asks for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OpeningAsk {
    /// `YXOPENINGSWAP`: we may swap; otherwise we do what the side to move does next.
    Swap,
    /// `YXOPENINGMOVE`: we do what the side to move does next (no swap is ours to make).
    Move,
    /// `YXOPENINGCHOOSE`: we are white; choose one of the offered fifth moves and play the 6th.
    Choose,
}

/// One opening decision: the rule, the count black declared (Soosõrv's number of fifth moves,
/// when the position has four stones), and the body: the stones so far, black first and
/// alternating, then (for `Choose`) the offered fifth moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningRequest {
    pub ask: OpeningAsk,
    pub rule: OpeningRule,
    pub declared: Option<i64>,
    pub body: BoardBody,
}

/// A command with the moment it arrived (time limits count from then) and its sequence number.
pub struct Envelope {
    /// `None` marks the end of input: finish what was given, then stop.
    pub cmd: Option<Command>,
    pub seq: u64,
    pub arrived: Instant,
}

/// An `INFO key value` line, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Info {
    Set(Setting),
    /// A key Gorin does not use (`evaluate`, unknown extensions): nothing to do.
    Ignored,
    /// A value Gorin cannot read: what to tell the user before the next move.
    Unusable(String),
}

/// A setting an `INFO` line makes, its value read but not yet fitted to the engine's limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setting {
    /// `timeout_turn`: ms per move, 0 or more.
    TurnMs(i64),
    /// `timeout_match`: ms per game, 0 or more (0 = no limit).
    MatchMs(i64),
    /// `time_left`: ms left in the game.
    TimeLeftMs(i64),
    /// `max_memory`: bytes for the whole process (0 = the default).
    MaxMemory(u64),
    /// `hash_size`: the table's size in KiB (`None` = automatic).
    HashKib(Option<u64>),
    Rule(Rule),
    /// `max_depth`: the deepest iteration (0 or less = no limit).
    MaxDepth(i64),
    /// `max_node`: nodes per search (0 or less = no limit).
    MaxNodes(i64),
    GameType(i64),
    /// `thread_num`: search threads, 1 or more.
    Threads(i64),
    CautionFactor(i64),
    Pondering(bool),
    /// `strength`: the level, 100 = full.
    Strength(i64),
    Folder(String),
    /// `net` / `net_file`: which evaluation boards use.
    Net(NetSetting),
}

/// The evaluation asked for by `INFO net` (0 classic, 1 built-in) or `INFO net_file PATH`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetSetting {
    Classic,
    BuiltIn,
    File(String),
}

/// An answer, as a type; `crate::protocol::reply` writes each as its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `OK`
    Ok,
    /// One move, or several in one line (swap2, `YXBALANCETWO`).
    Moves(Vec<Coord>),
    /// `SWAP`: we take the other colour.
    Swap,
    /// `x,y n`: Soosõrv's fourth move with the number of fifth moves black must offer.
    Declare { at: Coord, offers: usize },
    /// `FORBID ...`: renju black's forbidden points.
    Forbid(Vec<Coord>),
    /// The `ABOUT` line.
    About,
    /// `ERROR <why>`
    Error(Refusal),
    /// `UNKNOWN <why>`
    Unknown(String),
    /// `MESSAGE <text>`
    Message(Message),
}

/// Why a command is refused (`ERROR`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Handling the command failed twice (a bug); nothing was done.
    Internal,
    /// The point a `TURN`, `PLAY` or `TAKEBACK` names cannot be used.
    Point { command: PointCommand, at: Coord, fault: PointFault },
    /// `START` / `RECTSTART` with a size Gorin does not support.
    BoardSize { width: i64, height: i64 },
    /// A `BOARD` or `SWAP2BOARD` body that sets no position.
    Body(BodyFault),
    /// A swap2 stone off the board or given twice.
    Swap2Stone(Coord),
    /// A swap2 body with another number of stones than 0, 3 or 5.
    Swap2Count(usize),
    /// An opening command that the rule does not allow with this body.
    Opening(OpeningFault),
    /// No empty point is left for our move.
    BoardFull,
    /// The analysis found no move to play.
    NoMove,
    /// Fewer empty points than the moves asked for.
    NoRoom,
    /// The protocol's refusal of a line (`Command::Malformed`).
    Malformed(String),
}

/// The commands whose point is checked against the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PointCommand {
    Turn,
    Play,
    Takeback,
}

/// What is wrong with a point.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PointFault {
    OffBoard,
    Occupied,
    NoStone,
}

/// Why a board body sets no position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BodyFault {
    /// The first malformed line, as the protocol read it.
    Malformed(String),
    OffBoard(Coord),
    Twice(Coord),
}

/// Why an opening command (`YXOPENING...`) is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningFault {
    /// A stone or offer off the board or on an occupied point.
    Stone(Coord),
    /// Stone `index` (0-based) lies outside the central square the rule allows for it.
    Zone { at: Coord, index: usize, radius: usize },
    /// The rule has no such decision with this many stones.
    Stones { ask: OpeningAsk, rule: OpeningRule, stones: usize },
    /// A declared count where the rule takes none, or none where it needs one.
    Declared { rule: OpeningRule, stones: usize, declared: Option<i64> },
    /// A number of offered fifth moves the rule does not allow.
    Offers { rule: OpeningRule, offers: usize },
    /// Two offers that are the same move under a symmetry of the board.
    Symmetric(Coord, Coord),
}

/// What a `MESSAGE` line tells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// A finished iteration (or a win proved before the search).
    Progress(Progress),
    /// One of `YXNBEST`'s moves: its rank, name, score, depth and line.
    NBest {
        rank: usize,
        best: String,
        score: i32,
        depth: i32,
        pv: Vec<String>,
    },
    /// `YXSHOWINFO`: the most search threads.
    MaxThreads(usize),
    /// `YXSHOWINFO`: the largest hash table, in KiB.
    MaxHashKib(u64),
    Note(Note),
}

/// A search's progress after one iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    pub depth: i32,
    pub sel_depth: i32,
    pub score: Score,
    pub nodes: u64,
    /// Milliseconds since the command arrived, at least 1.
    pub ms: u64,
    /// The principal variation, each point by its algebraic name.
    pub pv: Vec<String>,
}

/// A score for the side to move: a value, or a forced win or loss in so many plies.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    Value(i32),
    WinIn(i32),
    LossIn(i32),
}

/// Something the user should know, sent as a `MESSAGE` before our next move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Note {
    /// An `INFO` value Gorin cannot read (`Info::Unusable`).
    Info(String),
    /// `max_memory` too small to play within: the smallest table is used.
    MemoryTooSmall(u64),
    /// `thread_num` beyond the cores: the cores are used.
    ThreadsClamped { asked: i64, cores: usize },
    /// The allocator refused the table's size; a smaller one is used.
    TableShrunk { wanted: usize, got: usize },
    /// A `YXBOARD` body that set no position.
    Position(BodyFault),
    /// What `INFO net` / `net_file` did, or why it kept the evaluation it had.
    Net(String),
}
