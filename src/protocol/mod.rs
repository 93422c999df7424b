//! The Gomocup brain protocol's front end: lines in, the engine's typed commands out;
//! its typed replies out as lines (`reply`).
//!
//! The parser is pure (lines in, commands out) so every branch is unit-tested without a
//! process; it never names the engine itself, only its command types. Multi-line commands (`BOARD` ... `DONE`) are gathered by the parser's small state
//! machine and come out as one command; a command line before `DONE` breaks such a body off.

pub mod info;
pub mod lines;
pub mod reply;

use crate::engine::command::{BoardBody, Command, Coord, OpeningAsk, OpeningRequest, Stone};
use crate::rules::opening::OpeningRule;

/// Which multi-line body is being read.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Body {
    Board,
    YxBoard,
    Swap2,
    /// An opening decision with its command line's arguments (rule, declared count), or why
    /// they are unusable: the body is read to its `DONE` either way, so that its stone lines
    /// are not taken for unknown commands, and refused there.
    Opening(OpeningAsk, Result<(OpeningRule, Option<i64>), String>),
}

/// Turns protocol lines into commands.
#[derive(Default)]
pub struct Parser {
    body: Option<(Body, BoardBody)>,
}

impl Parser {
    pub fn new() -> Parser {
        Parser::default()
    }

    /// Feeds one line (without its line ending); returns the commands it completes, in order:
    /// none (a body line), one, or two when a command line breaks off an unfinished body.
    pub fn feed(&mut self, line: &str) -> Vec<Command> {
        let line = line.trim();
        if line.is_empty() {
            return Vec::new();
        }
        if line.eq_ignore_ascii_case("DONE") {
            if let Some(cmd) = self.close() {
                return vec![cmd];
            }
        }
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        let word = word.to_ascii_uppercase();
        match dispatch(&word, rest) {
            Some(known) => self.command_line(known, &word),
            None if self.body.is_some() => {
                self.body_line(line);
                Vec::new()
            }
            None => vec![Command::Unknown(format!("unknown command '{}'", printable(line)))],
        }
    }

    /// Whether a multi-line body is open (its lines are stones until `DONE` or a command).
    pub fn in_body(&self) -> bool {
        self.body.is_some()
    }

    fn command_line(&mut self, known: Line, word: &str) -> Vec<Command> {
        // A manager that restarts mid-body never sends DONE: reading on for stones would leave
        // every later command unanswered, so a command ends the body (refused) and then runs.
        let mut out: Vec<Command> =
            self.body.take().map(|(kind, _)| broken(kind, word)).into_iter().collect();
        match known {
            Line::Command(cmd) => out.push(cmd),
            Line::Opens(kind) => self.body = Some((kind, BoardBody::default())),
        }
        out
    }

    /// The command an open body makes at `DONE`; `None` when no body is open.
    fn close(&mut self) -> Option<Command> {
        let (kind, body) = self.body.take()?;
        Some(match kind {
            Body::Board => Command::Board(body),
            Body::YxBoard => Command::YxBoard(body),
            Body::Swap2 => Command::Swap2(body),
            Body::Opening(ask, Ok((rule, declared))) => {
                Command::Opening(OpeningRequest { ask, rule, declared, body })
            }
            Body::Opening(_, Err(why)) => Command::Malformed(why),
        })
    }

    fn body_line(&mut self, line: &str) {
        let Some((kind, body)) = self.body.as_mut() else { return };
        let parsed = match kind {
            // Swap2 and opening bodies list points only (a field, if a manager adds one, is
            // ignored): the colours alternate from black.
            Body::Swap2 | Body::Opening(..) => parse_fields(line, 2)
                .or_else(|_| parse_fields(line, 3))
                .map(|v| Stone { at: Coord { x: v[0], y: v[1] }, field: 0 }),
            _ => parse_stone(line),
        };
        match parsed {
            Ok(stone) => body.stones.push(stone),
            Err(e) => {
                if body.error.is_none() {
                    body.error = Some(format!("bad board line '{}': {e}", shorten(line)));
                }
            }
        }
    }
}

/// What a line's first word starts.
enum Line {
    Command(Command),
    Opens(Body),
}

/// The protocol's vocabulary, kept in this one place: a line's first word (upper case) and
/// its arguments as the command they make, or `None` for a word that is not a command. Inside
/// a body that `None` is what keeps a line a stone line.
fn dispatch(word: &str, rest: &str) -> Option<Line> {
    let cmd = match word {
        "START" => match parse_int(rest) {
            Ok(n) => Command::Start { width: n, height: n },
            Err(e) => Command::Malformed(format!("START needs a board size: {e}")),
        },
        "RECTSTART" => match parse_pair(rest) {
            Ok(c) => Command::Start { width: c.x, height: c.y },
            Err(e) => Command::Malformed(format!("RECTSTART needs width,height: {e}")),
        },
        "RESTART" => Command::Restart,
        "BEGIN" => Command::Begin,
        "TURN" => coord_command(rest, "TURN", Command::Turn),
        "TAKEBACK" => coord_command(rest, "TAKEBACK", Command::Takeback),
        "PLAY" => coord_command(rest, "PLAY", Command::Play),
        "BOARD" => return Some(Line::Opens(Body::Board)),
        "YXBOARD" => return Some(Line::Opens(Body::YxBoard)),
        "SWAP2BOARD" => return Some(Line::Opens(Body::Swap2)),
        "YXOPENINGSWAP" => {
            return Some(Line::Opens(Body::Opening(OpeningAsk::Swap, opening_args(word, rest))))
        }
        "YXOPENINGMOVE" => {
            return Some(Line::Opens(Body::Opening(OpeningAsk::Move, opening_args(word, rest))))
        }
        "YXOPENINGCHOOSE" => {
            return Some(Line::Opens(Body::Opening(OpeningAsk::Choose, opening_args(word, rest))))
        }
        "INFO" => {
            let (key, value) = match rest.split_once(char::is_whitespace) {
                Some((k, v)) => (k, v.trim()),
                None => (rest, ""),
            };
            Command::Info(info::read(&key.to_ascii_lowercase(), value))
        }
        "END" => Command::End,
        "ABOUT" => Command::About,
        "YXSTOP" | "STOP" => Command::Stop,
        "YXSHOWFORBID" => Command::ShowForbid,
        "YXHASHCLEAR" => Command::HashClear,
        "YXSHOWINFO" => Command::ShowInfo,
        "YXNBEST" => match parse_int(rest) {
            Ok(n) if n >= 1 => Command::NBest(n),
            _ => Command::Malformed(format!("YXNBEST needs a count >= 1, got '{}'", shorten(rest))),
        },
        "YXBALANCEONE" => balance_command(rest, "YXBALANCEONE", Command::BalanceOne),
        "YXBALANCETWO" => balance_command(rest, "YXBALANCETWO", Command::BalanceTwo),
        _ => return None,
    };
    Some(Line::Command(cmd))
}

/// The refusal of a body that a command line cut off before its `DONE`.
fn broken(kind: Body, word: &str) -> Command {
    let name = match kind {
        Body::Board => "BOARD",
        Body::YxBoard => "YXBOARD",
        Body::Swap2 => "SWAP2BOARD",
        Body::Opening(OpeningAsk::Swap, _) => "YXOPENINGSWAP",
        Body::Opening(OpeningAsk::Move, _) => "YXOPENINGMOVE",
        Body::Opening(OpeningAsk::Choose, _) => "YXOPENINGCHOOSE",
    };
    Command::Malformed(format!("{name} ended by {} before DONE; position unchanged", printable(word)))
}

/// An opening command's arguments: the rule's name, then optionally the declared count.
fn opening_args(word: &str, rest: &str) -> Result<(OpeningRule, Option<i64>), String> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let usage = || format!("{word} needs a rule (TARAGUCHI10, SOOSORV8 or RIF) and at most a count");
    let (name, count) = match words.as_slice() {
        [name] => (*name, None),
        [name, count] => (*name, Some(*count)),
        _ => return Err(usage()),
    };
    let rule = OpeningRule::parse(name)
        .ok_or_else(|| format!("{word}: unknown opening rule '{}'", printable(name)))?;
    let declared = match count {
        Some(c) => Some(parse_int(c).map_err(|e| format!("{word} count: {e}"))?),
        None => None,
    };
    Ok((rule, declared))
}

fn coord_command(rest: &str, name: &str, make: fn(Coord) -> Command) -> Command {
    match parse_pair(rest) {
        Ok(c) => make(c),
        Err(e) => Command::Malformed(format!("{name} needs x,y: {e}")),
    }
}

fn balance_command(rest: &str, name: &str, make: fn(i64) -> Command) -> Command {
    if rest.is_empty() {
        return make(0);
    }
    match parse_int(rest) {
        Ok(b) => make(b),
        Err(e) => Command::Malformed(format!("{name} needs a bias: {e}")),
    }
}

/// `s` cut to a readable length with control characters replaced, fit to echo in a reply.
pub fn printable(s: &str) -> String {
    shorten(&s.chars().map(|c| if c.is_control() { '?' } else { c }).collect::<String>())
}

fn shorten(s: &str) -> String {
    const MAX: usize = 40;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        format!("{}...", s.chars().take(MAX).collect::<String>())
    }
}

/// Reads a decimal integer; values beyond i32 are rejected as the protocol never needs them.
pub fn parse_int(s: &str) -> Result<i64, String> {
    let s = s.trim();
    if s.is_empty() {
        return Err("missing number".to_string());
    }
    s.parse::<i32>().map(i64::from).map_err(|_| format!("'{}' is not a number", shorten(s)))
}

fn parse_fields(s: &str, n: usize) -> Result<Vec<i64>, String> {
    let parts: Vec<&str> = s.split(',').collect();
    if parts.len() != n {
        return Err(format!("expected {n} comma-separated numbers, got '{}'", shorten(s)));
    }
    parts.iter().map(|p| parse_int(p)).collect()
}

pub fn parse_pair(s: &str) -> Result<Coord, String> {
    let v = parse_fields(s, 2)?;
    Ok(Coord { x: v[0], y: v[1] })
}

fn parse_stone(s: &str) -> Result<Stone, String> {
    let v = parse_fields(s, 3)?;
    let field = match v[2] {
        1 => 1,
        2 => 2,
        3 => 3,
        f => return Err(format!("field {f} is not 1, 2 or 3")),
    };
    Ok(Stone { at: Coord { x: v[0], y: v[1] }, field })
}

#[cfg(test)]
mod tests;
