//! Command-line options of `pbrain-gorin play`.

use crate::board::{MAX_SIZE, MIN_SIZE};
use crate::protocol::info::rule_from_info;
use crate::types::Rule;
use anyhow::{anyhow, bail, Context, Result};

pub const USAGE: &str = "\
usage: pbrain-gorin play [options]

Play Gomoku against Gorin (or any Gomocup brain) in the terminal.

options:
  --size N            board size, 5 to 32 (default 15)
  --rule R            freestyle (0, default), standard (1, exactly five), renju (4),
                      caro (8) or caro-exact (9)
  --first WHO         who plays first, as X: human (default) or engine
  --hvh               human vs human (the engine still gives hints)
  --level L           normal (default: 300 ms a move, depth 4) or hard (2000 ms)
  --time-ms N         engine time per move in ms (without --level: no depth limit)
  --engine \"CMD\"      play against another brain, e.g. --engine \"./pbrain-rapfi\"
  --no-color          plain text (also: NO_COLOR set); --color forces colours
  -h, --help          this text

moves: h8 (column letter, row number from 1 at the top) or 7,7 (x,y from 0)
commands: undo, hint, review, new, board, help, quit";

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum First {
    Human,
    Engine,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Level {
    Normal,
    Hard,
}

impl Level {
    /// Per-move time and depth limit of the level.
    pub fn limits(self) -> (u64, Option<u32>) {
        match self {
            Level::Normal => (NORMAL_TURN_MS, Some(NORMAL_DEPTH)),
            Level::Hard => (HARD_TURN_MS, None),
        }
    }
}

const NORMAL_TURN_MS: u64 = 300;
const NORMAL_DEPTH: u32 = 4;
const HARD_TURN_MS: u64 = 2000;
const DEFAULT_SIZE: usize = 15;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub size: usize,
    pub rule: Rule,
    pub first: First,
    pub hvh: bool,
    pub turn_ms: u64,
    pub max_depth: Option<u32>,
    /// The brain command; empty = this very program.
    pub engine: Vec<String>,
    pub color_on: bool,
    pub color_off: bool,
    pub help: bool,
}

impl Default for Options {
    fn default() -> Options {
        let (turn_ms, max_depth) = Level::Normal.limits();
        Options {
            size: DEFAULT_SIZE,
            rule: Rule::Freestyle,
            first: First::Human,
            hvh: false,
            turn_ms,
            max_depth,
            engine: Vec::new(),
            color_on: false,
            color_off: false,
            help: false,
        }
    }
}

/// Parses the arguments after `play`.
pub fn parse(args: &[String]) -> Result<Options> {
    let mut o = Options::default();
    let mut level = None;
    let mut time_ms = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        // `--size=9` as well as `--size 9`.
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        let mut value = || -> Result<String> {
            inline.clone().or_else(|| it.next().cloned()).ok_or_else(|| anyhow!("{flag} needs a value"))
        };
        match flag {
            "--size" => {
                let v = value()?;
                let n: usize = v.parse().with_context(|| format!("--size: '{v}' is not a number"))?;
                if !(MIN_SIZE..=MAX_SIZE).contains(&n) {
                    bail!("--size: {n} is outside {MIN_SIZE}..{MAX_SIZE}");
                }
                o.size = n;
            }
            "--rule" => o.rule = parse_rule(&value()?)?,
            "--first" => {
                o.first = match value()?.to_ascii_lowercase().as_str() {
                    "human" | "me" | "x" => First::Human,
                    "engine" | "ai" | "computer" | "o" => First::Engine,
                    v => bail!("--first: '{v}' is not human or engine"),
                }
            }
            "--hvh" => o.hvh = true,
            "--level" => {
                level = Some(match value()?.to_ascii_lowercase().as_str() {
                    "normal" => Level::Normal,
                    "hard" => Level::Hard,
                    v => bail!("--level: '{v}' is not normal or hard"),
                })
            }
            "--time-ms" => {
                let v = value()?;
                time_ms =
                    Some(v.parse::<u64>().with_context(|| format!("--time-ms: '{v}' is not a number"))?);
            }
            "--engine" => {
                let v = value()?;
                o.engine = v.split_whitespace().map(str::to_string).collect();
                if o.engine.is_empty() {
                    bail!("--engine needs a command");
                }
            }
            "--no-color" | "--no-colour" => o.color_off = true,
            "--color" | "--colour" => o.color_on = true,
            "-h" | "--help" => o.help = true,
            other => bail!("unknown option '{other}' (see pbrain-gorin play --help)"),
        }
    }
    if level.is_some() || time_ms.is_none() {
        (o.turn_ms, o.max_depth) = level.unwrap_or(Level::Normal).limits();
    } else {
        o.max_depth = None;
    }
    if let Some(ms) = time_ms {
        o.turn_ms = ms;
    }
    Ok(o)
}

fn parse_rule(v: &str) -> Result<Rule> {
    let rule = match v.to_ascii_lowercase().as_str() {
        "freestyle" | "gomoku" => Rule::Freestyle,
        "standard" | "exact" => Rule::Standard,
        "renju" => Rule::Renju,
        "caro" => Rule::CaroOverline,
        "caro-exact" => Rule::CaroExact,
        n => n.parse::<i64>().ok().and_then(rule_from_info).ok_or_else(|| {
            anyhow!("--rule: '{v}' is not freestyle, standard, renju, caro, caro-exact or 0/1/4/8/9")
        })?,
    };
    Ok(rule)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn defaults_and_flags() {
        assert_eq!(parse(&[]).unwrap(), Options::default());
        let o = parse(&args("--size 9 --rule renju --first engine --level hard --no-color")).unwrap();
        assert_eq!(
            (o.size, o.rule, o.first, o.turn_ms, o.max_depth),
            (9, Rule::Renju, First::Engine, 2000, None)
        );
        assert!(o.color_off);
        let o = parse(&args("--size=19 --rule=1 --hvh")).unwrap();
        assert_eq!((o.size, o.rule, o.hvh), (19, Rule::Standard, true));
    }

    #[test]
    fn time_overrides_level() {
        let o = parse(&args("--time-ms 50")).unwrap();
        assert_eq!((o.turn_ms, o.max_depth), (50, None));
        let o = parse(&args("--level normal --time-ms 50")).unwrap();
        assert_eq!((o.turn_ms, o.max_depth), (50, Some(NORMAL_DEPTH)));
    }

    #[test]
    fn engine_command_is_split_into_words() {
        let o = parse(&["--engine".to_string(), "./pbrain-x --fast".to_string()]).unwrap();
        assert_eq!(o.engine, ["./pbrain-x", "--fast"]);
    }

    #[test]
    fn bad_options_are_errors() {
        for bad in [
            "--size 4",
            "--size 33",
            "--size x",
            "--rule 7x",
            "--first nobody",
            "--level easy",
            "--bogus",
            "--size",
        ] {
            assert!(parse(&args(bad)).is_err(), "{bad}");
        }
    }
}
