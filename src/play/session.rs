//! One terminal session: reads what the player types, keeps the game record, asks the brain for
//! its moves and hints, and announces results.

use super::brain::{Brain, BrainConfig, Thought};
use super::game::{symbol, Game, Point};
use super::input::{self, Input, COMMANDS};
use super::options::{First, Options};
use super::referee::{self, Verdict};
use super::render;
use crate::review;
use crate::types::{Color, Rule};
use anyhow::Result;
use std::io::{BufRead, Write};

/// Per-move times from which a "thinking" line is worth printing.
const SLOW_TURN_MS: u64 = 1000;

/// How a session ended.
#[derive(Debug, PartialEq, Eq)]
pub enum End {
    /// `quit` or end of input.
    Quit,
    /// The brain failed and the game cannot go on.
    EngineFailed,
}

pub struct Session<R, W> {
    opts: Options,
    input: R,
    out: W,
    color: bool,
    /// Whether to repeat each input line after the prompt (input from a pipe or file is not
    /// shown by a terminal, and the transcript reads better with it).
    echo: bool,
    game: Game,
    outcome: Option<Verdict>,
    brain: Option<Brain>,
    /// The engine's colour; `None` when two humans play.
    engine: Option<Color>,
    /// Whether the board on screen is the current one.
    shown: bool,
}

impl<R: BufRead, W: Write> Session<R, W> {
    pub fn new(opts: Options, input: R, out: W, color: bool, echo: bool) -> Session<R, W> {
        let engine = match (opts.hvh, opts.first) {
            (true, _) => None,
            (false, First::Human) => Some(Color::White),
            (false, First::Engine) => Some(Color::Black),
        };
        let game = Game::new(opts.size, opts.rule);
        Session { opts, input, out, color, echo, game, outcome: None, brain: None, engine, shown: false }
    }

    /// Plays until `quit`, end of input, or an engine failure.
    pub fn run(mut self) -> Result<End> {
        let end = self.play();
        if let Some(brain) = self.brain.take() {
            brain.end();
        }
        end
    }

    fn play(&mut self) -> Result<End> {
        self.start_brain()?;
        self.intro()?;
        loop {
            if self.outcome.is_none() && self.engine == Some(self.game.to_move()) {
                if !self.engine_move()? {
                    return Ok(End::EngineFailed);
                }
                continue;
            }
            if !self.shown {
                self.show_board()?;
            }
            write!(self.out, "{}", self.prompt())?;
            self.out.flush()?;
            let mut line = String::new();
            if self.input.read_line(&mut line)? == 0 {
                writeln!(self.out)?;
                return Ok(End::Quit);
            }
            if self.echo {
                writeln!(self.out, "{}", line.trim_end())?;
            }
            let parsed = input::parse(&line, &self.game);
            match parsed {
                Err(why) => writeln!(self.out, "{why}")?,
                Ok(Input::Nothing) => {}
                Ok(Input::Quit) => return Ok(End::Quit),
                Ok(Input::Help) => self.help()?,
                Ok(Input::Board) => self.show_board()?,
                Ok(Input::Move(p)) => self.human_move(p)?,
                Ok(Input::Undo) => self.undo()?,
                Ok(Input::Hint) => self.hint()?,
                Ok(Input::Review) => self.review()?,
                Ok(Input::New) => self.new_game()?,
            }
        }
    }

    /// Starts the brain. Two humans can play without one, so then a failure is only a note.
    fn start_brain(&mut self) -> Result<()> {
        let mut command = self.opts.engine.clone();
        if command.is_empty() {
            command.push(std::env::current_exe()?.to_string_lossy().into_owned());
        }
        let setup = BrainConfig {
            command,
            size: self.opts.size,
            rule: self.opts.rule.info_value(),
            turn_ms: self.opts.turn_ms,
            max_depth: self.opts.max_depth,
        };
        match Brain::start(&setup) {
            Ok(mut brain) => {
                if self.opts.rule == Rule::Renju && !brain.probe_forbid() {
                    writeln!(
                        self.out,
                        "note: {} does not report renju forbidden points (YXSHOWFORBID), so \
                         forbidden moves are not judged in this game",
                        brain.name
                    )?;
                }
                self.brain = Some(brain);
                Ok(())
            }
            Err(e) if self.opts.hvh => {
                writeln!(self.out, "note: no engine for hints ({e:#})")?;
                Ok(())
            }
            Err(e) => Err(e),
        }
    }

    fn intro(&mut self) -> Result<()> {
        let size = self.opts.size;
        let rule = self.opts.rule.name();
        let who = match (self.engine, &self.brain) {
            (None, _) => "Two players: X moves first, then O.".to_string(),
            (Some(c), Some(b)) => {
                let you = symbol(c.opp());
                let first = if c == Color::Black {
                    format!("{} moves first", b.name)
                } else {
                    "you move first".into()
                };
                let depth = self.opts.max_depth.map(|d| format!(", depth {d}")).unwrap_or_default();
                format!("You are {you} against {} ({} ms a move{depth}); {first}.", b.name, self.opts.turn_ms)
            }
            (Some(_), None) => String::new(),
        };
        writeln!(self.out, "Gomoku {size}x{size}, {rule} rule. {who}")?;
        let example = if size <= super::game::MAX_LETTER_COLUMNS { "h8 or 7,7" } else { "7,7" };
        writeln!(self.out, "Type a move ({example}) or one of: {COMMANDS}.")?;
        Ok(())
    }

    fn help(&mut self) -> Result<()> {
        let text = "\
moves:  h8 = column h, row 8 counted from 1 at the top; or x,y counted from 0 (7,7)
undo    take back your last move (and the engine's reply)
hint    ask the engine for a move (not played)
review  judge every move of the game so far (Gorin's own search, whoever played)
new     start a new game
board   show the board again
quit    leave (end of input does the same)";
        writeln!(self.out, "{text}")?;
        Ok(())
    }

    fn prompt(&self) -> String {
        if self.outcome.is_some() {
            return "game over: new, undo or quit> ".to_string();
        }
        let side = render::stone(self.game.to_move(), self.color);
        if self.engine.is_some() {
            format!("{side} (you) to move> ")
        } else {
            format!("{side} to move> ")
        }
    }

    fn show_board(&mut self) -> Result<()> {
        let text = render::board(&self.game, self.color);
        write!(self.out, "{text}")?;
        self.shown = true;
        Ok(())
    }

    fn human_move(&mut self, p: Point) -> Result<()> {
        if let Some(o) = &self.outcome {
            let o = o.announce();
            writeln!(self.out, "the game is over ({o}): type new, undo or quit")?;
            return Ok(());
        }
        let forbidden = self.forbidden_now();
        let mover = self.game.to_move();
        self.game.play(p);
        self.shown = false;
        let mut outcome = referee::judge(&self.game, p);
        if mover == Color::Black && forbidden.contains(&p) && !matches!(outcome, Some(Verdict::Five(_))) {
            outcome = Some(Verdict::Forbidden(Color::Black));
        }
        if let Some(o) = outcome {
            self.finish(o)?;
        }
        Ok(())
    }

    /// Renju forbidden points for black in the current position, when black is to move and
    /// the brain reports them; empty otherwise.
    fn forbidden_now(&mut self) -> Vec<Point> {
        if self.game.rule() != Rule::Renju || self.game.to_move() != Color::Black {
            return Vec::new();
        }
        let Some(brain) = self.brain.as_mut() else { return Vec::new() };
        brain.forbidden(&self.game).ok().flatten().unwrap_or_default()
    }

    /// Lets the engine move. `false` if the brain failed.
    fn engine_move(&mut self) -> Result<bool> {
        let Some(brain) = self.brain.as_mut() else { return Ok(false) };
        let me = self.game.to_move();
        if self.opts.turn_ms >= SLOW_TURN_MS {
            writeln!(self.out, "{} is thinking...", brain.name)?;
            self.out.flush()?;
        }
        let (p, thought) = match brain.play(&self.game) {
            Ok(r) => r,
            Err(e) => {
                writeln!(self.out, "engine error: {e:#}")?;
                return Ok(false);
            }
        };
        let name = brain.name.clone();
        if self.game.get(p).is_some() {
            let what = format!("{} is taken", self.game.name(p));
            writeln!(self.out, "{} {name} played {}, which is taken", symbol(me), self.game.name(p))?;
            self.finish(Verdict::IllegalMove(me, what))?;
            return Ok(true);
        }
        let forbidden = if self.game.rule() == Rule::Renju && me == Color::Black {
            brain.forbidden_for_own_move(&self.game, p).ok().flatten().unwrap_or_default()
        } else {
            Vec::new()
        };
        self.game.play(p);
        self.shown = false;
        let stone = render::stone(me, self.color);
        writeln!(self.out, "{stone} {name} plays {}{}", self.game.name(p), thought_suffix(&thought, me))?;
        let mut outcome = referee::judge(&self.game, p);
        if forbidden.contains(&p) && !matches!(outcome, Some(Verdict::Five(_))) {
            outcome = Some(Verdict::Forbidden(me));
        }
        if let Some(o) = outcome {
            self.finish(o)?;
        }
        Ok(true)
    }

    /// Shows the final board and announces the result.
    fn finish(&mut self, outcome: Verdict) -> Result<()> {
        self.show_board()?;
        writeln!(self.out, "{}", outcome.announce())?;
        if let Some(engine) = self.engine {
            let verdict = match outcome.winner() {
                Some(c) if c == engine => "The engine wins.",
                Some(_) => "You win!",
                None => "Nobody wins.",
            };
            writeln!(self.out, "{verdict}")?;
        }
        writeln!(self.out, "Type new for another game, undo to take back, or quit.")?;
        self.outcome = Some(outcome);
        Ok(())
    }

    fn undo(&mut self) -> Result<()> {
        let mut taken = Vec::new();
        match self.engine {
            None => taken.extend(self.game.undo()),
            Some(engine) => {
                let human = engine.opp();
                let has_human_stone = self.game.moves().iter().any(|&p| self.game.get(p) == Some(human));
                if has_human_stone {
                    // Back to the human's turn, with one of the human's moves taken back.
                    while let Some(p) = self.game.undo() {
                        taken.push(p);
                        if self.game.to_move() == human {
                            break;
                        }
                    }
                }
            }
        }
        if taken.is_empty() {
            writeln!(self.out, "nothing to undo")?;
            return Ok(());
        }
        if let Some(brain) = self.brain.as_mut() {
            brain.undo_to(&self.game);
        }
        self.outcome = None;
        self.shown = false;
        let names: Vec<String> = taken.iter().map(|&p| self.game.name(p)).collect();
        writeln!(self.out, "took back {}", names.join(" "))?;
        Ok(())
    }

    fn hint(&mut self) -> Result<()> {
        if self.outcome.is_some() {
            writeln!(self.out, "the game is over: type new, undo or quit")?;
            return Ok(());
        }
        let Some(brain) = self.brain.as_mut() else {
            writeln!(self.out, "no engine is running, so no hints")?;
            return Ok(());
        };
        match brain.hint(&self.game) {
            Ok((p, thought)) if self.game.get(p).is_none() => {
                let side = self.game.to_move();
                writeln!(self.out, "hint: {}{}", self.game.name(p), thought_suffix(&thought, side))?
            }
            Ok((p, _)) => writeln!(self.out, "the engine suggested {}, which is taken", self.game.name(p))?,
            Err(e) => writeln!(self.out, "no hint: {e:#}")?,
        }
        Ok(())
    }

    /// Reviews the game so far with Gorin's own search (whatever brain plays), each position
    /// searched for the engine's move time but at most `review`'s default.
    fn review(&mut self) -> Result<()> {
        if self.game.moves().is_empty() {
            writeln!(self.out, "nothing to review yet: no moves have been played")?;
            return Ok(());
        }
        let engine_name = self.brain.as_ref().map_or_else(|| "engine".to_string(), |b| b.name.clone());
        let name = |c: Color| match self.engine {
            Some(e) if e == c => engine_name.clone(),
            Some(_) => "you".to_string(),
            None => symbol(c).to_string(),
        };
        let game = review::Game {
            width: self.game.size(),
            height: self.game.size(),
            rule: self.game.rule(),
            moves: self.game.moves().iter().map(|p| (p.x, p.y)).collect(),
            black: name(Color::Black),
            white: name(Color::White),
            stated_result: self.outcome.as_ref().map(|o| o.announce()),
        };
        let effort =
            review::Effort { ms: self.opts.turn_ms.clamp(1, review::analyse::DEFAULT_MS), nodes: None };
        writeln!(self.out, "reviewing {} moves ({} ms a position)...", game.moves.len(), effort.ms)?;
        self.out.flush()?;
        let r = review::review(&game, effort, review::progress_bar());
        write!(self.out, "{}", review::report::text(&r, "this game"))?;
        Ok(())
    }

    fn new_game(&mut self) -> Result<()> {
        self.game = Game::new(self.opts.size, self.opts.rule);
        self.outcome = None;
        self.shown = false;
        if let Some(brain) = self.brain.as_mut() {
            if let Err(e) = brain.restart() {
                writeln!(self.out, "engine error: {e:#}")?;
                if self.engine.is_some() {
                    return Err(e);
                }
                self.brain = None;
            }
        }
        writeln!(self.out, "new game")?;
        Ok(())
    }
}

/// `   (ev 12  pv h8 i9)` after a move, or nothing if the brain said nothing useful.
fn thought_suffix(t: &Thought, side: Color) -> String {
    let s = t.summary(symbol(side));
    if s.is_empty() {
        String::new()
    } else {
        format!("   ({s})")
    }
}
