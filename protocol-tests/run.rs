//! Transcript tests: every `protocol-tests/cases/*.t` file is a script of lines sent to
//! `pbrain-gorin` and patterns its replies must match, run against the built binary the way a
//! tournament manager (Piskvork, GomocupJudge, c-gomoku-cli) drives it.
//!
//! # Case format
//! One directive per line; `#` comments and blank lines are ignored.
//!
//! | directive | meaning |
//! |---|---|
//! | `> TEXT` | send `TEXT` and `\n` (`>` alone sends an empty line) |
//! | `>raw TEXT` | send TEXT with `\r` `\n` `\t` `\\` unescaped and no newline added |
//! | `< PATTERN` | the next stdout line matches PATTERN within 2000 ms of the last send |
//! | `< PATTERN @N` | the same within N ms |
//! | `silence N` | no stdout line at all (MESSAGE lines included) for N ms |
//! | `sleep N` | wait N ms; lines arriving meanwhile are kept for later directives |
//! | `close` | close the engine's stdin (EOF) |
//! | `exit N` | the engine exits with status 0 within N ms of the last send or close, printing nothing more but MESSAGE/DEBUG lines |
//! | `env KEY=VALUE` | before the first `>` only: environment for the engine |
//!
//! Patterns are globs over the whole line: `*` any run, `?` any character, `{int}` an optionally
//! negative integer, `{move}` a move `x,y` on a free point of the board as tracked from the
//! commands sent and the replies read, `{move:NAME}` the same, remembered so that later `>` lines
//! can send it as `{NAME}`. `A|B` accepts a line matching either alternative.
//!
//! While a `<` pattern does not start with `MESSAGE`, `MESSAGE ` and `DEBUG ` lines are skipped
//! (the engine prints one per search iteration). At the end of a case a still running engine gets
//! `END` and 2 s to exit. Its stderr must stay empty unless the case sets `RUST_LOG`: Piskvork
//! and c-gomoku-cli read a brain's stderr into the protocol channel. By default `RUST_LOG` is
//! removed from the engine's environment.
//!
//! Environment knobs: `GORIN_BIN` runs another binary (e.g. a fake brain while working on the
//! harness); `GORIN_CASES=a,b` runs only the cases whose file name contains `a` or `b`.

use std::collections::{HashMap, HashSet, VecDeque};
use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// Reply bound when a `<` line has no `@N` suffix.
const DEFAULT_BOUND: Duration = Duration::from_millis(2000);
/// How long the engine gets to exit after the `END` that closes every case.
const END_GRACE: Duration = Duration::from_secs(2);
/// How long to wait for the pipe readers once the process is gone.
const DRAIN_GRACE: Duration = Duration::from_secs(1);
/// Poll interval while waiting for the process to exit.
const EXIT_POLL: Duration = Duration::from_millis(5);
/// Cases run concurrently: the test machine has two cores and every engine searches.
const PARALLEL_CASES: usize = 2;
/// Fewer case files than this means discovery is broken, not that the suite is small.
const MIN_CASES: usize = 15;
/// Stdout lines quoted in a failure report.
const CONTEXT_LINES: usize = 8;
/// Stderr lines quoted in a failure report.
const STDERR_LINES: usize = 10;
/// Board size before any `START`: the engine starts at 15x15.
const DEFAULT_SIZE: i64 = 15;

// ---------------------------------------------------------------------------------------------
// Case files
// ---------------------------------------------------------------------------------------------

#[derive(Debug)]
enum Directive {
    Send(String),
    Expect(Expectation),
    Silence(Duration),
    Sleep(Duration),
    Close,
    Exit(Duration),
    Env(String, String),
}

#[derive(Debug)]
struct Expectation {
    /// The pattern as written, for reports and the MESSAGE rule.
    text: String,
    alternatives: Vec<Pattern>,
    bound: Duration,
}

#[derive(Debug)]
struct Step {
    line: usize,
    directive: Directive,
}

fn parse_case(source: &str) -> Result<Vec<Step>, Failure> {
    let mut steps = Vec::new();
    let mut sent = false;
    for (index, raw) in source.lines().enumerate() {
        let line = index + 1;
        let fail = |why: String| Failure::at(line, why);
        let Some(directive) = parse_directive(raw).map_err(fail)? else {
            continue;
        };
        match directive {
            Directive::Send(_) => sent = true,
            // The environment is fixed when the process starts, before anything is sent.
            Directive::Env(..) if sent => return Err(fail("`env` after the first `>`".into())),
            _ => {}
        }
        steps.push(Step { line, directive });
    }
    Ok(steps)
}

fn parse_directive(raw: &str) -> Result<Option<Directive>, String> {
    let trimmed = raw.trim();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return Ok(None);
    }
    // `>raw` keeps trailing spaces (they may be the point of the case); test it before `>`.
    if let Some(text) = raw.strip_prefix(">raw ") {
        return Ok(Some(Directive::Send(unescape(text)?)));
    }
    if trimmed == ">" {
        return Ok(Some(Directive::Send("\n".into())));
    }
    if let Some(text) = raw.strip_prefix("> ") {
        return Ok(Some(Directive::Send(format!("{}\n", text.trim_end()))));
    }
    if let Some(pattern) = trimmed.strip_prefix("< ") {
        return parse_expectation(pattern).map(|e| Some(Directive::Expect(e)));
    }
    let (word, arg) = trimmed.split_once(' ').unwrap_or((trimmed, ""));
    let arg = arg.trim();
    let directive = match word {
        "silence" => Directive::Silence(millis(arg)?),
        "sleep" => Directive::Sleep(millis(arg)?),
        "exit" => Directive::Exit(millis(arg)?),
        "close" if arg.is_empty() => Directive::Close,
        "env" => {
            let (key, value) =
                arg.split_once('=').ok_or_else(|| format!("`env` needs KEY=VALUE, got `{arg}`"))?;
            Directive::Env(key.into(), value.into())
        }
        _ => return Err(format!("unknown directive `{trimmed}`")),
    };
    Ok(Some(directive))
}

fn parse_expectation(text: &str) -> Result<Expectation, String> {
    let (text, bound) = match text.rsplit_once(" @") {
        Some((pattern, ms)) if !ms.is_empty() && ms.bytes().all(|b| b.is_ascii_digit()) => {
            (pattern.trim_end(), millis(ms)?)
        }
        _ => (text, DEFAULT_BOUND),
    };
    let alternatives = text.split('|').map(Pattern::compile).collect::<Result<_, _>>()?;
    Ok(Expectation { text: text.into(), alternatives, bound })
}

fn millis(text: &str) -> Result<Duration, String> {
    text.parse().map(Duration::from_millis).map_err(|_| format!("expected milliseconds, got `{text}`"))
}

fn unescape(text: &str) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        out.push(match chars.next() {
            Some('r') => '\r',
            Some('n') => '\n',
            Some('t') => '\t',
            Some('\\') => '\\',
            other => return Err(format!("bad escape `\\{}`", other.unwrap_or(' '))),
        });
    }
    Ok(out)
}

fn is_name(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

// ---------------------------------------------------------------------------------------------
// Patterns
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Literal(char),
    AnyRun,
    AnyChar,
    Int,
    /// `{move}`, or `{move:NAME}` which remembers the move under NAME.
    Move(Option<String>),
}

#[derive(Debug)]
struct Pattern(Vec<Token>);

/// A move matched by a `{move}` placeholder.
#[derive(Debug, Clone, PartialEq)]
struct Capture {
    name: Option<String>,
    point: Point,
}

impl Pattern {
    fn compile(text: &str) -> Result<Self, String> {
        let mut tokens = Vec::new();
        let mut rest = text;
        while let Some(c) = rest.chars().next() {
            if c == '{' {
                let end = rest.find('}').ok_or_else(|| format!("unclosed `{{` in `{text}`"))?;
                tokens.push(placeholder(&rest[1..end])?);
                rest = &rest[end + 1..];
                continue;
            }
            tokens.push(match c {
                '*' => Token::AnyRun,
                '?' => Token::AnyChar,
                c => Token::Literal(c),
            });
            rest = &rest[c.len_utf8()..];
        }
        Ok(Pattern(tokens))
    }

    /// The moves captured by `{move}` placeholders if `line` matches, `None` otherwise.
    fn captures(&self, line: &str) -> Option<Vec<Capture>> {
        let chars: Vec<char> = line.chars().collect();
        let mut captures = Vec::new();
        match_tokens(&self.0, &chars, &mut captures).then_some(captures)
    }
}

fn placeholder(inner: &str) -> Result<Token, String> {
    match inner.split_once(':') {
        None if inner == "move" => Ok(Token::Move(None)),
        None if inner == "int" => Ok(Token::Int),
        Some(("move", name)) if is_name(name) => Ok(Token::Move(Some(name.into()))),
        _ => Err(format!("unknown placeholder `{{{inner}}}`")),
    }
}

/// Backtracking glob match; lines are short, so the worst case does not matter.
fn match_tokens(tokens: &[Token], s: &[char], captures: &mut Vec<Capture>) -> bool {
    let Some((token, rest)) = tokens.split_first() else {
        return s.is_empty();
    };
    match token {
        Token::Literal(c) => s.first() == Some(c) && match_tokens(rest, &s[1..], captures),
        Token::AnyChar => !s.is_empty() && match_tokens(rest, &s[1..], captures),
        Token::AnyRun => (0..=s.len()).any(|skip| match_tokens(rest, &s[skip..], captures)),
        Token::Int => int_prefixes(s).into_iter().any(|(len, _)| match_tokens(rest, &s[len..], captures)),
        Token::Move(name) => {
            for (x_len, x) in int_prefixes(s) {
                if s.get(x_len) != Some(&',') {
                    continue;
                }
                let tail = &s[x_len + 1..];
                for (y_len, y) in int_prefixes(tail) {
                    let name = name.clone();
                    captures.push(Capture { name, point: (x, y) });
                    if match_tokens(rest, &tail[y_len..], captures) {
                        return true;
                    }
                    captures.pop();
                }
            }
            false
        }
    }
}

/// Every prefix of `s` that reads as an optionally negative integer, longest first.
fn int_prefixes(s: &[char]) -> Vec<(usize, i64)> {
    let sign = usize::from(s.first() == Some(&'-'));
    let digits = s[sign..].iter().take_while(|c| c.is_ascii_digit()).count();
    (1..=digits)
        .rev()
        .filter_map(|n| {
            let text: String = s[..sign + n].iter().collect();
            text.parse().ok().map(|value| (sign + n, value))
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Board tracking
// ---------------------------------------------------------------------------------------------

type Point = (i64, i64);

#[derive(Debug, Clone)]
struct Board {
    width: i64,
    height: i64,
    stones: HashSet<Point>,
}

/// What a command does to the position once the engine accepts it.
#[derive(Debug, Clone)]
enum Change {
    Nothing,
    NewBoard(i64, i64),
    Clear,
    Place(Point),
    Remove(Point),
    Replace(Vec<Point>),
    /// An opening command's stones. Its reply may hold offered fifth moves, which are not
    /// stones, and the mirror does not follow the rule to tell them apart: the reply's points
    /// are left out (erring towards accepting later moves).
    Opening(Vec<Point>),
}

impl Board {
    fn new(width: i64, height: i64) -> Self {
        Board { width, height, stones: HashSet::new() }
    }

    fn check_free(&self, (x, y): Point) -> Result<(), String> {
        if !(0..self.width).contains(&x) || !(0..self.height).contains(&y) {
            return Err(format!("{x},{y} is off the {}x{} board", self.width, self.height));
        }
        if self.stones.contains(&(x, y)) {
            return Err(format!("{x},{y} is already occupied"));
        }
        Ok(())
    }

    fn apply(&mut self, change: &Change) {
        match change {
            Change::Nothing => {}
            Change::NewBoard(width, height) => *self = Board::new(*width, *height),
            Change::Clear => self.stones.clear(),
            Change::Place(point) => {
                self.stones.insert(*point);
            }
            Change::Remove(point) => {
                self.stones.remove(point);
            }
            Change::Replace(points) | Change::Opening(points) => {
                self.stones = points.iter().copied().collect()
            }
        }
    }
}

/// Every command word of the protocol (PROTOCOL.md), kept apart from the engine's own list so
/// that the mirror checks the engine instead of repeating it. Inside a body, a line starting
/// with one of them ends the body: the engine refuses the body with one `ERROR`, then runs it.
const COMMAND_WORDS: &[&str] = &[
    "START",
    "RECTSTART",
    "RESTART",
    "BEGIN",
    "TURN",
    "TAKEBACK",
    "PLAY",
    "BOARD",
    "YXBOARD",
    "SWAP2BOARD",
    "INFO",
    "END",
    "ABOUT",
    "YXSTOP",
    "STOP",
    "YXSHOWFORBID",
    "YXHASHCLEAR",
    "YXSHOWINFO",
    "YXNBEST",
    "YXBALANCEONE",
    "YXBALANCETWO",
    "YXOPENINGSWAP",
    "YXOPENINGMOVE",
    "YXOPENINGCHOOSE",
];

fn is_command(line: &str) -> bool {
    let word = line.split_whitespace().next().unwrap_or("");
    COMMAND_WORDS.iter().any(|known| known.eq_ignore_ascii_case(word))
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum BodyKind {
    /// `x,y,f` lines; a move answers at `DONE`.
    Board,
    /// `x,y,f` lines; nothing answers at `DONE`.
    YxBoard,
    /// `x,y` lines, every one a stone; one to three moves or `SWAP` answer at `DONE`.
    Swap2,
    /// `x,y` lines of `YXOPENINGSWAP`/`MOVE` (all stones) or `YXOPENINGCHOOSE` (four stones,
    /// then offered fifth moves).
    Opening { choose: bool },
}

/// Stones before the offered fifth moves in a `YXOPENINGCHOOSE` body.
const OPENING_STONES: usize = 4;

/// Position body being sent between `BOARD`/`YXBOARD`/`SWAP2BOARD` and `DONE`.
struct Body {
    stones: Vec<Point>,
    kind: BodyKind,
}

/// Mirrors the engine's position so that `{move}` can reject an off-board or occupied point.
/// A command's change is applied only when its reply is read, and dropped when that reply is
/// `ERROR`/`UNKNOWN`: a refused command leaves the board as it was. When the mirror cannot tell
/// (a reply it did not foresee), it errs towards accepting.
struct Tracker {
    board: Board,
    /// One entry per sent command that owes a reply, oldest first.
    awaiting: VecDeque<Change>,
    /// Text sent without its line terminator yet.
    partial: String,
    body: Option<Body>,
    saw_end: bool,
}

impl Tracker {
    fn new() -> Self {
        Tracker {
            board: Board::new(DEFAULT_SIZE, DEFAULT_SIZE),
            awaiting: VecDeque::new(),
            partial: String::new(),
            body: None,
            saw_end: false,
        }
    }

    /// Feed text exactly as written to the engine's stdin; any of CR, LF, CRLF ends a line.
    fn sent(&mut self, text: &str) {
        self.partial.push_str(text);
        while let Some(end) = self.partial.find(['\r', '\n']) {
            let line: String = self.partial.drain(..=end).collect();
            self.command(line.trim());
        }
    }

    fn command(&mut self, line: &str) {
        if self.body.is_some() {
            self.body_line(line);
            return;
        }
        if line.is_empty() {
            return;
        }
        let (word, args) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let args = args.trim();
        let change = match word.to_ascii_uppercase().as_str() {
            "START" => args.parse().map_or(Change::Nothing, |n| Change::NewBoard(n, n)),
            "RECTSTART" => parse_point(args).map_or(Change::Nothing, |(w, h)| Change::NewBoard(w, h)),
            "RESTART" => Change::Clear,
            "TURN" => parse_point(args).map_or(Change::Nothing, Change::Place),
            "TAKEBACK" => parse_point(args).map_or(Change::Nothing, Change::Remove),
            "BOARD" | "YXBOARD" | "SWAP2BOARD" => {
                let kind = match word.to_ascii_uppercase().as_str() {
                    "BOARD" => BodyKind::Board,
                    "YXBOARD" => BodyKind::YxBoard,
                    _ => BodyKind::Swap2,
                };
                self.body = Some(Body { stones: Vec::new(), kind });
                return;
            }
            "YXOPENINGSWAP" | "YXOPENINGMOVE" | "YXOPENINGCHOOSE" => {
                let choose = word.eq_ignore_ascii_case("YXOPENINGCHOOSE");
                self.body = Some(Body { stones: Vec::new(), kind: BodyKind::Opening { choose } });
                return;
            }
            "END" => {
                self.saw_end = true;
                return;
            }
            // No reply line of their own: a stopped search answers for the command that
            // started it, and that command is already awaiting.
            "INFO" | "YXSTOP" | "STOP" | "YXHASHCLEAR" | "YXSHOWINFO" => return,
            // BEGIN, PLAY, ABOUT, unknown commands: one reply and no change but a move in it.
            _ => Change::Nothing,
        };
        self.awaiting.push_back(change);
    }

    fn body_line(&mut self, line: &str) {
        if line.eq_ignore_ascii_case("DONE") {
            self.close_body();
            return;
        }
        if is_command(line) {
            // The cut-off body owes its ERROR (a refusal: no change), then the command runs.
            self.body = None;
            self.awaiting.push_back(Change::Nothing);
            self.command(line);
            return;
        }
        let Some(body) = self.body.as_mut() else {
            return;
        };
        // Own (1) and opponent (2) stones occupy; 3 marks a point without a stone; every swap2
        // point is a stone. A line the mirror cannot read makes the engine refuse the whole
        // body at DONE.
        let stone = match body.kind {
            BodyKind::Opening { choose: true } if body.stones.len() == OPENING_STONES => None,
            BodyKind::Swap2 | BodyKind::Opening { .. } => {
                parse_point(line).or_else(|| parse_body_line(line).map(|(p, _)| p))
            }
            _ => parse_body_line(line).filter(|&(_, f)| f == 1 || f == 2).map(|(p, _)| p),
        };
        body.stones.extend(stone);
    }

    fn close_body(&mut self) {
        let Some(body) = self.body.take() else {
            return;
        };
        let change = match body.kind {
            BodyKind::Opening { .. } => Change::Opening(body.stones),
            _ => Change::Replace(body.stones),
        };
        if body.kind == BodyKind::YxBoard {
            self.board.apply(&change);
        } else {
            self.awaiting.push_back(change);
        }
    }

    /// The board a reply line is judged against: the oldest unanswered command's change
    /// applied, unless the line refuses that command.
    fn board_for(&self, reply: &str) -> Board {
        let mut board = self.board.clone();
        if !is_refusal(reply) {
            if let Some(change) = self.awaiting.front() {
                board.apply(change);
            }
        }
        board
    }

    /// Commit a reply that matched against `board` (from `board_for`).
    fn accept(&mut self, reply: &str, mut board: Board) {
        let change = self.awaiting.pop_front();
        // SWAP2BOARD and YXBALANCETWO answer with several moves, and the engine plays them all.
        if !is_refusal(reply) && !matches!(change, Some(Change::Opening(_))) {
            board.stones.extend(reply.split_whitespace().filter_map(parse_point));
        }
        self.board = board;
    }
}

fn parse_point(text: &str) -> Option<Point> {
    let (x, y) = text.trim().split_once(',')?;
    Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
}

fn parse_body_line(text: &str) -> Option<(Point, i64)> {
    let (point, field) = text.trim().rsplit_once(',')?;
    Some((parse_point(point)?, field.trim().parse().ok()?))
}

fn is_refusal(line: &str) -> bool {
    line.starts_with("ERROR") || line.starts_with("UNKNOWN")
}

/// Informational lines a manager shows or ignores; they never stand for a reply.
fn is_chatter(line: &str) -> bool {
    matches!(line.split(' ').next(), Some("MESSAGE" | "DEBUG"))
}

// ---------------------------------------------------------------------------------------------
// The engine process
// ---------------------------------------------------------------------------------------------

enum Waited {
    Timeout,
    Closed,
}

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    /// Stdout lines with their arrival time, so a line read late still counts as on time.
    stdout: Receiver<(Instant, String)>,
    stderr: Arc<Mutex<Vec<u8>>>,
    stderr_reader: JoinHandle<()>,
    last_send: Instant,
    /// Every stdout line taken from the channel, for failure reports.
    history: Vec<String>,
}

fn engine_path() -> PathBuf {
    std::env::var_os("GORIN_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_pbrain-gorin")))
}

impl Engine {
    fn spawn(env: &[(String, String)]) -> Result<Self, String> {
        let path = engine_path();
        let mut command = Command::new(&path);
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // A developer's RUST_LOG would turn on stderr logging and fail every case.
            .env_remove("RUST_LOG");
        for (key, value) in env {
            command.env(key, value);
        }
        let mut child = command.spawn().map_err(|e| format!("cannot start {}: {e}", path.display()))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().ok_or("no stdout pipe")?;
        let stderr_pipe = child.stderr.take().ok_or("no stderr pipe")?;
        let (stderr, stderr_reader) = collect_stderr(stderr_pipe);
        Ok(Engine {
            child,
            stdin,
            stdout: read_lines(stdout),
            stderr,
            stderr_reader,
            last_send: Instant::now(),
            history: Vec::new(),
        })
    }

    fn send(&mut self, text: &str) -> Result<(), String> {
        let stdin = self.stdin.as_mut().ok_or("stdin is already closed")?;
        let written = stdin.write_all(text.as_bytes()).and_then(|()| stdin.flush());
        if let Err(e) = written {
            return Err(format!("cannot write to the engine ({e}); {}", self.state()));
        }
        self.last_send = Instant::now();
        Ok(())
    }

    fn close(&mut self) {
        self.stdin = None;
        self.last_send = Instant::now();
    }

    /// The next stdout line, waiting until `deadline` at most (a line already read is
    /// returned even when the deadline has passed).
    fn next_line(&mut self, deadline: Instant) -> Result<(Instant, String), Waited> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.stdout.recv_timeout(wait) {
            Ok((at, line)) => {
                self.history.push(line.clone());
                Ok((at, line))
            }
            Err(RecvTimeoutError::Timeout) => Err(Waited::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(Waited::Closed),
        }
    }

    /// Move lines that arrived but were never read into the history, for reports.
    fn drain_available(&mut self) {
        while let Ok((_, line)) = self.stdout.try_recv() {
            self.history.push(line);
        }
    }

    fn wait_exit(&mut self, deadline: Instant) -> Option<ExitStatus> {
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            thread::sleep(EXIT_POLL);
        }
    }

    fn state(&mut self) -> String {
        match self.child.try_wait() {
            Ok(Some(status)) => format!("engine exited with {status}"),
            _ => "engine still running".into(),
        }
    }

    /// End the session as a manager does: `END`, a bounded wait, then kill.
    fn shut_down(&mut self, exit_expected: bool) -> Result<(), String> {
        if let Ok(Some(status)) = self.child.try_wait() {
            return match (status.success(), exit_expected) {
                (false, _) => Err(format!("engine exited with {status}")),
                (true, false) => Err("engine exited without END or EOF".into()),
                (true, true) => Ok(()),
            };
        }
        if let Some(stdin) = self.stdin.as_mut() {
            // A failed write means the engine is exiting anyway; the wait below tells.
            let _ = stdin.write_all(b"END\n").and_then(|()| stdin.flush());
        }
        let result = match self.wait_exit(Instant::now() + END_GRACE) {
            Some(status) if status.success() => Ok(()),
            Some(status) => Err(format!("engine exited with {status} after END")),
            None => {
                let _ = self.child.kill();
                let _ = self.child.wait();
                Err(format!("engine still running {} ms after END (or EOF); killed", END_GRACE.as_millis()))
            }
        };
        self.stdin = None;
        result
    }

    /// Everything the engine wrote to stderr; call after the process is gone.
    fn stderr_text(&self) -> String {
        let deadline = Instant::now() + DRAIN_GRACE;
        while !self.stderr_reader.is_finished() && Instant::now() < deadline {
            thread::sleep(EXIT_POLL);
        }
        let bytes = self.stderr.lock().map(|b| b.clone()).unwrap_or_default();
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // Never leave a process behind, whatever path the case took.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn read_lines(stdout: ChildStdout) -> Receiver<(Instant, String)> {
    let (sender, receiver) = mpsc::channel();
    thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        let mut bytes = Vec::new();
        loop {
            bytes.clear();
            match reader.read_until(b'\n', &mut bytes) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let at = Instant::now();
            let text = String::from_utf8_lossy(&bytes);
            let line = text.strip_suffix('\n').unwrap_or(&text);
            let line = line.strip_suffix('\r').unwrap_or(line);
            if sender.send((at, line.to_owned())).is_err() {
                break;
            }
        }
    });
    receiver
}

fn collect_stderr(mut stderr: ChildStderr) -> (Arc<Mutex<Vec<u8>>>, JoinHandle<()>) {
    let buffer = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&buffer);
    let handle = thread::spawn(move || {
        let mut chunk = [0u8; 4096];
        while let Ok(n @ 1..) = stderr.read(&mut chunk) {
            if let Ok(mut sink) = sink.lock() {
                sink.extend_from_slice(&chunk[..n]);
            }
        }
    });
    (buffer, handle)
}

// ---------------------------------------------------------------------------------------------
// Running a case
// ---------------------------------------------------------------------------------------------

struct Failure {
    /// Case file line of the failing directive; `None` for the end-of-case checks.
    line: Option<usize>,
    why: String,
}

impl Failure {
    fn at(line: usize, why: String) -> Self {
        Failure { line: Some(line), why }
    }

    fn at_end(why: String) -> Self {
        Failure { line: None, why }
    }
}

struct Session {
    engine: Engine,
    tracker: Tracker,
    /// Moves remembered by `{move:NAME}`, as sent back by `{NAME}`.
    moves: HashMap<String, String>,
    /// Set once the case closed stdin or asked for an exit: an exit is then no crash.
    exit_expected: bool,
}

/// Runs one case file; `Err` carries the failure report.
fn run_case(path: &Path) -> Result<(), String> {
    let name = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into());
    let report = |failure: Failure, context: String| {
        // `file:line:` as compilers print it, so editors can jump to the directive.
        let place = failure.line.map_or(" end of case".into(), |l| l.to_string());
        format!("{name}:{place}: {}{context}", failure.why)
    };
    let source = fs::read_to_string(path).map_err(|e| format!("{name}: cannot read: {e}"))?;
    let steps = parse_case(&source).map_err(|f| report(f, String::new()))?;
    let env: Vec<(String, String)> = steps
        .iter()
        .filter_map(|step| match &step.directive {
            Directive::Env(key, value) => Some((key.clone(), value.clone())),
            _ => None,
        })
        .collect();
    let logging = env.iter().any(|(key, _)| key == "RUST_LOG");
    let engine = Engine::spawn(&env).map_err(|e| format!("{name}: {e}"))?;
    let mut session =
        Session { engine, tracker: Tracker::new(), moves: HashMap::new(), exit_expected: false };

    let outcome = session.run(&steps);
    let exit_expected = session.exit_expected || session.tracker.saw_end;
    let shutdown = session.engine.shut_down(exit_expected);
    let stderr = session.engine.stderr_text();
    // The first problem explains the rest: a failed step often causes the shutdown failure.
    let failure = outcome.err().or_else(|| shutdown.err().map(Failure::at_end)).or_else(|| {
        (!logging && !stderr.is_empty())
            .then(|| Failure::at_end("stderr must stay empty: managers read it as protocol output".into()))
    });
    match failure {
        None => Ok(()),
        Some(failure) => Err(report(failure, session.context(&stderr))),
    }
}

impl Session {
    fn run(&mut self, steps: &[Step]) -> Result<(), Failure> {
        for step in steps {
            self.step(&step.directive).map_err(|why| Failure::at(step.line, why))?;
        }
        Ok(())
    }

    fn step(&mut self, directive: &Directive) -> Result<(), String> {
        match directive {
            Directive::Send(text) => {
                let text = self.substitute(text)?;
                self.engine.send(&text)?;
                self.tracker.sent(&text);
                Ok(())
            }
            Directive::Expect(expectation) => self.expect(expectation),
            Directive::Silence(span) => self.silence(*span),
            Directive::Sleep(span) => {
                thread::sleep(*span);
                Ok(())
            }
            Directive::Close => {
                self.exit_expected = true;
                self.engine.close();
                Ok(())
            }
            Directive::Exit(bound) => {
                self.exit_expected = true;
                self.exit(*bound)
            }
            // Applied when the process was started.
            Directive::Env(..) => Ok(()),
        }
    }

    /// Replace `{NAME}` by the move remembered under NAME.
    fn substitute(&self, text: &str) -> Result<String, String> {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(start) = rest.find('{') {
            out.push_str(&rest[..start]);
            let after = &rest[start + 1..];
            match after.find('}').map(|end| (&after[..end], &after[end + 1..])) {
                Some((name, tail)) if is_name(name) => {
                    let value = self.moves.get(name).ok_or_else(|| {
                        format!("`{{{name}}}` is not bound by an earlier `{{move:{name}}}`")
                    })?;
                    out.push_str(value);
                    rest = tail;
                }
                _ => {
                    out.push('{');
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        Ok(out)
    }

    fn expect(&mut self, expectation: &Expectation) -> Result<(), String> {
        let Expectation { text, bound, .. } = expectation;
        let ms = bound.as_millis();
        let deadline = self.engine.last_send + *bound;
        // The engine prints one MESSAGE per search iteration; only a MESSAGE pattern sees them.
        let skip_chatter = !text.starts_with("MESSAGE");
        loop {
            let (at, line) = match self.engine.next_line(deadline) {
                Ok(arrival) => arrival,
                Err(Waited::Timeout) => {
                    return Err(format!("expected `{text}` within {ms} ms, received nothing"))
                }
                Err(Waited::Closed) => {
                    let state = self.engine.state();
                    return Err(format!("expected `{text}`, but stdout closed ({state})"));
                }
            };
            if skip_chatter && is_chatter(&line) {
                continue;
            }
            if at > deadline {
                let late = at.duration_since(deadline).as_millis();
                return Err(format!("expected `{text}` within {ms} ms, received `{line}` {late} ms late"));
            }
            return self.judge(expectation, &line);
        }
    }

    fn judge(&mut self, expectation: &Expectation, line: &str) -> Result<(), String> {
        let chatter = is_chatter(line);
        let board = if chatter { self.tracker.board.clone() } else { self.tracker.board_for(line) };
        let mut problem = String::new();
        for pattern in &expectation.alternatives {
            let Some(captures) = pattern.captures(line) else {
                continue;
            };
            match captures.iter().try_for_each(|c| board.check_free(c.point)) {
                Ok(()) => {
                    self.remember(&captures);
                    if !chatter {
                        self.tracker.accept(line, board);
                    }
                    return Ok(());
                }
                Err(why) => problem = format!(": {why}"),
            }
        }
        let text = &expectation.text;
        Err(format!("expected `{text}`, received `{line}`{problem}"))
    }

    fn remember(&mut self, captures: &[Capture]) {
        for capture in captures {
            if let Some(name) = &capture.name {
                let (x, y) = capture.point;
                self.moves.insert(name.clone(), format!("{x},{y}"));
            }
        }
    }

    fn silence(&mut self, span: Duration) -> Result<(), String> {
        let ms = span.as_millis();
        match self.engine.next_line(Instant::now() + span) {
            Ok((_, line)) => Err(format!("expected silence for {ms} ms, received `{line}`")),
            Err(Waited::Timeout) => Ok(()),
            Err(Waited::Closed) => {
                let state = self.engine.state();
                Err(format!("expected silence for {ms} ms, but stdout closed ({state})"))
            }
        }
    }

    fn exit(&mut self, bound: Duration) -> Result<(), String> {
        let ms = bound.as_millis();
        let status = self
            .engine
            .wait_exit(self.engine.last_send + bound)
            .ok_or_else(|| format!("expected exit within {ms} ms, engine still running"))?;
        if !status.success() {
            return Err(format!("expected exit status 0, engine exited with {status}"));
        }
        // Anything but chatter printed before exiting would reach the manager as a reply.
        let deadline = Instant::now() + DRAIN_GRACE;
        loop {
            match self.engine.next_line(deadline) {
                Ok((_, line)) if is_chatter(&line) => continue,
                Ok((_, line)) => return Err(format!("unexpected output before exit: `{line}`")),
                // Timeout: a grandchild holds the pipe open; nothing more came from the engine.
                Err(Waited::Closed | Waited::Timeout) => return Ok(()),
            }
        }
    }

    /// Recent stdout and stderr, to show what the engine did around a failure.
    fn context(&mut self, stderr: &str) -> String {
        self.engine.drain_available();
        let mut out = String::new();
        let history = &self.engine.history;
        let recent = &history[history.len().saturating_sub(CONTEXT_LINES)..];
        if recent.is_empty() {
            out.push_str("\n    stdout: (nothing)");
        } else {
            out.push_str(&format!("\n    stdout, last {} lines:", recent.len()));
            for line in recent {
                out.push_str(&format!("\n      | {line}"));
            }
        }
        let lines: Vec<&str> = stderr.lines().collect();
        if !lines.is_empty() {
            let tail = &lines[lines.len().saturating_sub(STDERR_LINES)..];
            out.push_str(&format!("\n    stderr, last {} lines:", tail.len()));
            for line in tail {
                out.push_str(&format!("\n      ! {line}"));
            }
        }
        out
    }
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

fn case_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol-tests/cases")
}

fn case_files() -> Vec<PathBuf> {
    let dir = case_dir();
    let entries = fs::read_dir(&dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
    let mut files: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "t"))
        .collect();
    files.sort();
    files
}

/// The cases `GORIN_CASES` selects (a comma-separated list of file-name fragments), or all.
fn selected_cases() -> Vec<PathBuf> {
    let all = case_files();
    let Ok(filter) = std::env::var("GORIN_CASES") else {
        return all;
    };
    let fragments: Vec<&str> = filter.split(',').map(str::trim).collect();
    all.into_iter()
        .filter(|path| {
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            fragments.iter().any(|fragment| name.contains(fragment))
        })
        .collect()
}

fn next_case<'a>(queue: &Mutex<std::slice::Iter<'a, PathBuf>>) -> Option<&'a PathBuf> {
    queue.lock().ok()?.next()
}

/// Runs the cases on `PARALLEL_CASES` threads; returns the failure reports in file order.
fn run_all(cases: &[PathBuf]) -> Vec<String> {
    let queue = Mutex::new(cases.iter());
    let failures = Mutex::new(Vec::new());
    thread::scope(|scope| {
        for _ in 0..PARALLEL_CASES {
            scope.spawn(|| {
                while let Some(path) = next_case(&queue) {
                    let started = Instant::now();
                    let result = run_case(path);
                    let verdict = if result.is_ok() { "ok  " } else { "FAIL" };
                    let name = path.file_name().unwrap_or_default().to_string_lossy();
                    let ms = started.elapsed().as_millis();
                    eprintln!("{verdict} {name} ({ms} ms)");
                    if let Err(report) = result {
                        if let Ok(mut failures) = failures.lock() {
                            failures.push((path.clone(), report));
                        }
                    }
                }
            });
        }
    });
    let mut failures = failures.into_inner().unwrap_or_default();
    failures.sort();
    failures.into_iter().map(|(_, report)| report).collect()
}

#[test]
fn transcripts() {
    let cases = selected_cases();
    assert!(!cases.is_empty(), "no case file selected");
    let failures = run_all(&cases);
    assert!(
        failures.is_empty(),
        "{} of {} transcript cases failed:\n\n{}\n",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}

#[test]
fn enough_cases_exist() {
    let count = case_files().len();
    assert!(
        count >= MIN_CASES,
        "found {count} case files in {}, expected at least {MIN_CASES}",
        case_dir().display()
    );
}

#[test]
fn patterns_match_whole_lines_with_placeholders() {
    let pattern = |text| Pattern::compile(text).expect("pattern compiles");
    assert!(pattern("OK").captures("OK").is_some());
    assert!(pattern("OK").captures("OK then").is_none());
    assert!(pattern("ERROR *").captures("ERROR bad size").is_some());
    assert!(pattern("a?c").captures("abc").is_some());
    assert!(pattern("t {int} x").captures("t -12 x").is_some());
    assert!(pattern("{int}").captures("-").is_none());
    let moves = pattern("{move:m} {move}").captures("7,-1 10,3");
    let points: Vec<Point> = moves.unwrap_or_default().iter().map(|c| c.point).collect();
    assert_eq!(points, vec![(7, -1), (10, 3)]);
    assert!(pattern("{move}").captures("7,7,1").is_none());
    assert!(Pattern::compile("{mvoe}").is_err());
}

#[test]
fn directives_parse_with_bounds_and_escapes() {
    let expectation = match parse_directive("< 7,3|{move} @500") {
        Ok(Some(Directive::Expect(e))) => e,
        other => panic!("unexpected {other:?}"),
    };
    assert_eq!(expectation.bound, Duration::from_millis(500));
    assert_eq!(expectation.alternatives.len(), 2);
    match parse_directive(">raw START 15\\r\\n") {
        Ok(Some(Directive::Send(text))) => assert_eq!(text, "START 15\r\n"),
        other => panic!("unexpected {other:?}"),
    }
    assert!(parse_directive("# comment").is_ok_and(|d| d.is_none()));
    assert!(parse_directive("wait 5").is_err());
    assert!(parse_case("> START 15\nenv A=B\n").is_err());
}

#[test]
fn tracker_applies_a_change_only_when_the_reply_accepts_it() {
    let mut tracker = Tracker::new();
    tracker.sent("START 15\nTURN 7,7\n");
    let board = tracker.board_for("OK");
    tracker.accept("OK", board);
    assert_eq!(tracker.board.width, 15);
    let board = tracker.board_for("7,8");
    assert!(board.check_free((7, 7)).is_err());
    tracker.accept("7,8", board);
    assert!(tracker.board.check_free((7, 8)).is_err());

    // A refused BOARD leaves the position as it was.
    tracker.sent("board\r1,1,1\r2,2,x\rdone\r");
    let board = tracker.board_for("ERROR bad line");
    tracker.accept("ERROR bad line", board);
    assert!(tracker.board.check_free((1, 1)).is_ok());
    assert!(tracker.board.check_free((7, 7)).is_err());

    tracker.sent("TAKEBACK 7,7\n");
    let board = tracker.board_for("OK");
    tracker.accept("OK", board);
    assert!(tracker.board.check_free((7, 7)).is_ok());
    assert!(tracker.board.check_free((15, 0)).is_err());
}

#[test]
fn tracker_refuses_a_body_that_a_command_cuts_off() {
    let mut tracker = Tracker::new();
    tracker.sent("TURN 7,7\n");
    let board = tracker.board_for("7,8");
    tracker.accept("7,8", board);
    // The body's ERROR comes first, then TURN's own move; the body's stone is never placed.
    tracker.sent("yxboard\n1,1,1\nturn 2,2\n");
    assert!(tracker.body.is_none());
    assert_eq!(tracker.awaiting.len(), 2);
    let board = tracker.board_for("ERROR cut off");
    tracker.accept("ERROR cut off", board);
    let board = tracker.board_for("3,3");
    tracker.accept("3,3", board);
    assert!(tracker.board.check_free((1, 1)).is_ok());
    for taken in [(7, 7), (7, 8), (2, 2), (3, 3)] {
        assert!(tracker.board.check_free(taken).is_err(), "{taken:?}");
    }
    // A BOARD line inside a body starts a new body after the old one's ERROR.
    tracker.sent("BOARD\n4,4,1\nBOARD\n5,5,1\nDONE\n");
    assert_eq!(tracker.awaiting.len(), 2);
}

#[test]
fn tracker_keeps_opening_stones_but_not_offers() {
    let mut tracker = Tracker::new();
    tracker.sent("YXOPENINGCHOOSE RIF\n7,7\n7,6\n9,9\n8,8\n6,6\n10,10\nDONE\n");
    let board = tracker.board_for("6,6 5,5");
    tracker.accept("6,6 5,5", board);
    for taken in [(7, 7), (7, 6), (9, 9), (8, 8)] {
        assert!(tracker.board.check_free(taken).is_err(), "{taken:?}");
    }
    for offer in [(6, 6), (10, 10)] {
        assert!(tracker.board.check_free(offer).is_ok(), "{offer:?}");
    }
}

#[test]
fn tracker_reads_swap2_points_and_multi_move_replies() {
    let mut tracker = Tracker::new();
    tracker.sent("SWAP2BOARD\n7,7\n8,7\n7,9\nDONE\n");
    let board = tracker.board_for("8,8 6,8");
    tracker.accept("8,8 6,8", board);
    for taken in [(7, 7), (8, 7), (7, 9), (8, 8), (6, 8)] {
        assert!(tracker.board.check_free(taken).is_err(), "{taken:?}");
    }
    tracker.sent("TURN 1,1\n");
    let board = tracker.board_for("ERROR board stone 9,9 is off the board");
    tracker.accept("ERROR board stone 9,9 is off the board", board);
    assert!(tracker.board.check_free((9, 9)).is_ok());
}
