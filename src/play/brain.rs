//! Talks to a brain over the Gomocup protocol — Gorin itself by default, or any `--engine`
//! command — and keeps track of which moves the brain's own board holds, so every request uses
//! the cheapest command that leaves both boards equal: `BEGIN`, `TURN x,y`, or a full `BOARD`.

use super::game::{Game, Point};
use super::process::{Line, Process};
use anyhow::{anyhow, bail, Result};
use std::time::{Duration, Instant};

/// How long a brain may take to start and answer `START`.
const START_TIMEOUT: Duration = Duration::from_secs(15);
/// How long short answers (`OK`, `ABOUT`, `FORBID`) may take.
const SHORT_TIMEOUT: Duration = Duration::from_secs(3);
/// Slack beyond the per-move time before a brain counts as not answering.
const MOVE_GRACE: Duration = Duration::from_secs(10);

/// How a session sets up its brain.
#[derive(Clone, Debug)]
pub struct BrainConfig {
    pub command: Vec<String>,
    pub size: usize,
    pub rule: u32,
    pub turn_ms: u64,
    /// `INFO max_depth`, for the easier level.
    pub max_depth: Option<u32>,
}

/// A move the brain chose, with what it said while thinking.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Thought {
    /// `ev` of the last `MESSAGE` that had one (Gorin: score for the side to move).
    pub ev: Option<String>,
    /// `pv` of that message, in the brain's notation.
    pub pv: Option<String>,
    /// The last other `MESSAGE` text, for brains that print something else.
    pub note: Option<String>,
}

impl Thought {
    /// Takes in one `MESSAGE` text.
    fn read(&mut self, text: &str) {
        let words: Vec<&str> = text.split_whitespace().collect();
        let ev = words.iter().position(|w| *w == "ev").and_then(|i| words.get(i + 1));
        let pv = words.iter().position(|w| *w == "pv").map(|i| words[i + 1..].join(" "));
        if ev.is_some() || pv.is_some() {
            self.ev = ev.map(|s| s.to_string());
            self.pv = pv.filter(|s| !s.is_empty());
        } else {
            self.note = Some(text.chars().take(100).collect());
        }
    }

    /// `ev 12 for X  pv h8 i9` (`side` moves first in the pv; Gorin's `ev` is that side's
    /// score), or the brain's last message, or nothing.
    pub fn summary(&self, side: char) -> String {
        let mut parts = Vec::new();
        if let Some(ev) = &self.ev {
            parts.push(format!("ev {ev} for {side}"));
        }
        if let Some(pv) = &self.pv {
            parts.push(format!("pv {pv}"));
        }
        if parts.is_empty() {
            self.note.clone().unwrap_or_default()
        } else {
            parts.join("  ")
        }
    }
}

pub struct Brain {
    process: Process,
    pub name: String,
    size: usize,
    move_timeout: Duration,
    /// The moves on the brain's board, in order; `None` when unknown (after an error).
    known: Option<Vec<Point>>,
    /// Whether the brain answers `YXSHOWFORBID` (renju forbidden points).
    forbid: bool,
}

impl Brain {
    /// Starts the brain, sends `START` and the settings, and asks its name.
    pub fn start(setup: &BrainConfig) -> Result<Brain> {
        let process = Process::spawn(&setup.command)?;
        let mut brain = Brain {
            process,
            name: setup.command.first().map(|c| short_name(c)).unwrap_or_default(),
            size: setup.size,
            move_timeout: Duration::from_millis(setup.turn_ms) + MOVE_GRACE,
            known: None,
            forbid: false,
        };
        brain.process.send(&format!("START {}", setup.size))?;
        brain.expect_ok("START", START_TIMEOUT)?;
        brain.known = Some(Vec::new());
        let mut infos = vec![
            format!("INFO timeout_turn {}", setup.turn_ms),
            "INFO timeout_match 0".to_string(),
            "INFO game_type 0".to_string(),
            format!("INFO rule {}", setup.rule),
        ];
        if let Some(d) = setup.max_depth {
            infos.push(format!("INFO max_depth {d}"));
        }
        for line in infos {
            brain.process.send(&line)?;
        }
        if let Some(name) = brain.about() {
            brain.name = name;
        }
        Ok(brain)
    }

    /// `name="gorin", version=...` → `gorin`; `None` if the brain does not answer `ABOUT`.
    fn about(&mut self) -> Option<String> {
        self.process.send("ABOUT").ok()?;
        let Line::Text(line) = self.process.recv(Instant::now() + SHORT_TIMEOUT) else { return None };
        let rest = &line[line.find("name=\"")? + 6..];
        let name = &rest[..rest.find('"')?];
        (!name.is_empty()).then(|| name.to_string())
    }

    /// Asks whether the brain reports renju forbidden points; remembers the answer.
    pub fn probe_forbid(&mut self) -> bool {
        self.forbid = matches!(self.query_forbid(), Ok(Some(_)));
        self.process.drain();
        self.forbid
    }

    /// The forbidden points for black in the brain's current position, if it reports them.
    fn query_forbid(&mut self) -> Result<Option<Vec<Point>>> {
        self.process.drain();
        self.process.send("YXSHOWFORBID")?;
        let deadline = Instant::now() + SHORT_TIMEOUT;
        let mut text = String::new();
        loop {
            let line = match self.process.recv(deadline) {
                Line::Text(l) => l,
                Line::Timeout => return Ok(None),
                Line::Closed => bail!("the engine exited"),
            };
            let upper = line.to_ascii_uppercase();
            if text.is_empty() {
                if upper.starts_with("MESSAGE") || upper.starts_with("DEBUG") {
                    continue;
                }
                if !upper.starts_with("FORBID") {
                    return Ok(None); // UNKNOWN / ERROR: not supported
                }
            }
            text.push_str(&line);
            if text.trim_end().ends_with('.') {
                break;
            }
        }
        Ok(Some(parse_forbid(&text, self.size)))
    }

    /// Forbidden points for black in `game`'s position, or `None` if the brain cannot tell.
    pub fn forbidden(&mut self, game: &Game) -> Result<Option<Vec<Point>>> {
        if !self.forbid {
            return Ok(None);
        }
        if self.known.as_deref() != Some(game.moves()) {
            // A brain with YXSHOWFORBID knows YXBOARD (both are Yixin-Board's): set the position
            // without a search.
            self.process.send("YXBOARD")?;
            for line in board_lines(game) {
                self.process.send(&line)?;
            }
            self.process.send("DONE")?;
            self.known = Some(game.moves().to_vec());
        }
        self.query_forbid()
    }

    /// Forbidden points for black before the brain's own black move `p`, which its board holds:
    /// takes `p` back and asks (the next move request then sends the whole board).
    pub fn forbidden_for_own_move(&mut self, game: &Game, p: Point) -> Result<Option<Vec<Point>>> {
        if !self.forbid {
            return Ok(None);
        }
        self.take_back(p);
        self.forbidden(game)
    }

    /// The brain's move for the side to move in `game`; the brain's board then holds it.
    pub fn play(&mut self, game: &Game) -> Result<(Point, Thought)> {
        self.process.drain();
        let moves = game.moves();
        let in_sync = |k: &Vec<Point>, n: usize| k.len() == n && k[..] == moves[..n];
        match &self.known {
            Some(k) if moves.is_empty() && k.is_empty() => self.process.send("BEGIN")?,
            Some(k) if !moves.is_empty() && in_sync(k, moves.len() - 1) => {
                self.process.send(&format!("TURN {}", moves[moves.len() - 1].protocol()))?
            }
            _ => {
                self.process.send("BOARD")?;
                for line in board_lines(game) {
                    self.process.send(&line)?;
                }
                self.process.send("DONE")?;
            }
        }
        self.known = None;
        let (p, thought) = self.read_move(game)?;
        let mut now = moves.to_vec();
        now.push(p);
        self.known = Some(now);
        Ok((p, thought))
    }

    /// The brain's suggestion for the side to move, taken back at once.
    pub fn hint(&mut self, game: &Game) -> Result<(Point, Thought)> {
        let (p, thought) = self.play(game)?;
        self.take_back(p);
        Ok((p, thought))
    }

    /// Takes back moves on the brain's board until it holds a prefix of `game`'s moves.
    pub fn undo_to(&mut self, game: &Game) {
        while let Some(k) = &self.known {
            let fits = k.len() <= game.moves().len() && k[..] == game.moves()[..k.len()];
            if fits {
                break;
            }
            let last = k[k.len() - 1];
            self.take_back(last);
        }
    }

    /// `TAKEBACK x,y` for the last stone on the brain's board.
    fn take_back(&mut self, p: Point) {
        self.process.drain();
        let ok = self.process.send(&format!("TAKEBACK {}", p.protocol())).is_ok()
            && self.expect_ok("TAKEBACK", SHORT_TIMEOUT).is_ok();
        match (&mut self.known, ok) {
            (Some(k), true) if k.last() == Some(&p) => {
                k.pop();
            }
            _ => self.known = None, // the next move request sends the whole board
        }
    }

    /// A new game on the same board: `RESTART`, or `START` again for brains without it.
    pub fn restart(&mut self) -> Result<()> {
        self.process.drain();
        self.known = None;
        self.process.send("RESTART")?;
        if self.expect_ok("RESTART", SHORT_TIMEOUT).is_err() {
            self.process.drain();
            self.process.send(&format!("START {}", self.size))?;
            self.expect_ok("START", START_TIMEOUT)?;
        }
        self.known = Some(Vec::new());
        Ok(())
    }

    /// Ends the brain (`END`, then kill if it lingers).
    pub fn end(self) {
        self.process.end();
    }

    /// Waits for `OK`, skipping `MESSAGE`/`DEBUG` lines.
    fn expect_ok(&mut self, what: &str, timeout: Duration) -> Result<()> {
        let deadline = Instant::now() + timeout;
        loop {
            match self.process.recv(deadline) {
                Line::Text(l) if l.eq_ignore_ascii_case("OK") => return Ok(()),
                Line::Text(l) if is_chatter(&l) => continue,
                Line::Text(l) => bail!("the engine answered {what} with '{}'", shorten(&l)),
                Line::Timeout => bail!("the engine did not answer {what} within {} s", timeout.as_secs()),
                Line::Closed => bail!("the engine exited"),
            }
        }
    }

    /// Reads lines until a move `x,y`; `MESSAGE` lines feed the thought.
    fn read_move(&mut self, game: &Game) -> Result<(Point, Thought)> {
        let deadline = Instant::now() + self.move_timeout;
        let mut thought = Thought::default();
        loop {
            let line = match self.process.recv(deadline) {
                Line::Text(l) => l,
                Line::Timeout => {
                    bail!("the engine did not answer within {} s", self.move_timeout.as_secs())
                }
                Line::Closed => bail!("the engine exited"),
            };
            let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((&line, ""));
            match word.to_ascii_uppercase().as_str() {
                "MESSAGE" => thought.read(rest.trim()),
                "DEBUG" | "OK" => {}
                "SUGGEST" => {
                    // The manager may accept a suggestion by echoing it with PLAY.
                    self.process.send(&format!("PLAY {}", rest.trim()))?;
                }
                "ERROR" | "UNKNOWN" => bail!("the engine answered '{}'", shorten(&line)),
                _ => match parse_move(&line) {
                    Some((x, y)) if game.contains(x, y) => {
                        return Ok((Point::new(x as usize, y as usize), thought))
                    }
                    Some(_) => return Err(anyhow!("the engine played off the board: {}", shorten(&line))),
                    None => log::debug!("ignored engine line: {line}"),
                },
            }
        }
    }
}

/// The `BOARD` body lines of `game`: f = 1 for the side to move, 2 for the other, in move order.
fn board_lines(game: &Game) -> Vec<String> {
    let mover = game.to_move();
    game.moves()
        .iter()
        .map(|&p| {
            let f = if game.get(p) == Some(mover) { 1 } else { 2 };
            format!("{},{},{f}", p.x, p.y)
        })
        .collect()
}

/// `FORBID 07070809.` → the points (7,7) and (8,9); points off the board are dropped.
fn parse_forbid(text: &str, size: usize) -> Vec<Point> {
    let digits: Vec<usize> = text
        .get("FORBID".len()..)
        .unwrap_or_default()
        .chars()
        .filter_map(|c| c.to_digit(10))
        .map(|d| d as usize)
        .collect();
    digits
        .chunks_exact(4)
        .map(|q| Point::new(q[0] * 10 + q[1], q[2] * 10 + q[3]))
        .filter(|p| p.x < size && p.y < size)
        .collect()
}

fn parse_move(line: &str) -> Option<(i64, i64)> {
    let (a, b) = line.trim().split_once(',')?;
    Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
}

fn is_chatter(line: &str) -> bool {
    let upper = line.to_ascii_uppercase();
    upper.starts_with("MESSAGE") || upper.starts_with("DEBUG")
}

fn shorten(s: &str) -> String {
    s.chars().take(80).collect()
}

/// `/usr/bin/pbrain-rapfi --x` → `pbrain-rapfi`.
fn short_name(program: &str) -> String {
    std::path::Path::new(program)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| program.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Rule;

    #[test]
    fn thought_reads_gorin_messages() {
        let mut t = Thought::default();
        t.read("depth 3-5 ev 12 n 1234 nps 50K tm 20 pv h8 i9");
        t.read("depth 4-7 ev -30 n 5000 nps 60K tm 80 pv h9 i9 j9");
        assert_eq!(t.ev.as_deref(), Some("-30"));
        assert_eq!(t.pv.as_deref(), Some("h9 i9 j9"));
        assert_eq!(t.summary('O'), "ev -30 for O  pv h9 i9 j9");
        let mut other = Thought::default();
        other.read("thinking hard");
        assert_eq!(other.summary('X'), "thinking hard");
    }

    #[test]
    fn board_lines_mark_the_side_to_move() {
        let mut g = Game::new(15, Rule::Renju);
        for p in [(7, 7), (8, 8), (7, 8)] {
            g.play(Point::new(p.0, p.1));
        }
        // White to move: white's stone is 1, black's are 2, in move order.
        assert_eq!(board_lines(&g), ["7,7,2", "8,8,1", "7,8,2"]);
    }

    #[test]
    fn forbid_replies_parse() {
        assert_eq!(parse_forbid("FORBID 0907.", 15), [Point::new(9, 7)]);
        assert_eq!(parse_forbid("FORBID 07071214.", 15), [Point::new(7, 7), Point::new(12, 14)]);
        assert_eq!(parse_forbid("FORBID .", 15), []);
        assert_eq!(parse_forbid("FORBID 2020.", 15), []);
    }

    #[test]
    fn moves_parse() {
        assert_eq!(parse_move("7,8"), Some((7, 8)));
        assert_eq!(parse_move(" 7 , 8 "), Some((7, 8)));
        assert_eq!(parse_move("OK"), None);
        assert_eq!(short_name("/usr/bin/pbrain-x"), "pbrain-x");
    }
}
