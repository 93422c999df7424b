//! The engine's vocabulary: the commands it answers, as types.
//!
//! The protocol front end (`crate::protocol`) reads lines into these; the engine never sees
//! a line of text. They sit with the engine, below the protocol, so imports run one way.

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
    Info {
        key: String,
        value: String,
    },
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
    /// A known command with unusable arguments, or a body cut off by a command before `DONE`:
    /// answer `ERROR <why>`.
    Malformed(String),
    /// Anything else: answer `UNKNOWN <why>`.
    Unknown(String),
}

/// A command with the moment it arrived (time limits count from then) and its sequence number.
pub struct Envelope {
    /// `None` marks the end of input: finish what was given, then stop.
    pub cmd: Option<Command>,
    pub seq: u64,
    pub arrived: Instant,
}
