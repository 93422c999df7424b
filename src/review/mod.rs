//! `pbrain-gorin review`: a whole game judged move by move by Gorin's own search and threat
//! solvers, as text, JSON lines or an SVG graph. Play mode's `review` command uses it too.
//!
//! Files: `parse` (game files into moves), `analyse` (the searches and the judgement of each
//! move), `report` (text and JSON), `svg` (the graph). Output is written only after the whole
//! analysis succeeded, and the SVG through a temporary file renamed into place, so bad input
//! or an interrupted run leaves nothing half-written.

pub mod analyse;
pub mod parse;
pub mod report;
pub mod svg;

pub use analyse::{review, Effort, Game, Review};

use crate::board::{MAX_SIZE, MIN_SIZE};
use crate::types::Rule;
use anyhow::{anyhow, bail, Context, Result};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub const USAGE: &str = "\
usage: pbrain-gorin review FILE [options]

Reviews a finished (or unfinished) game with Gorin's search: for every move the win
probability of the side that moved before and after it, the engine's best move, a label
(best, good, inaccuracy, mistake, blunder), forced wins (VCF/VCT) the move gave up and
forced losses it walked into; then a summary per player.

FILE is a Piskvork .psq file, an SGF file (as scripts/match.py or c-gomoku-cli write them;
a collection holds several games), or moves in the pos format (h8i9j10, letter = column,
number = row from 1 at the top). A move string may stand in place of FILE.

options:
  --rule R      freestyle, standard, renju, caro, caro-exact or 0/1/4/8/9
                (default: the file's rule, else freestyle)
  --size N      board size 5..32, or WxH (default: the file's size, else 15)
  --game N      which game of an SGF collection (default 1)
  --ms N        search time per position in ms (default 300)
  --nodes N     search nodes per position instead of a time (the same review everywhere)
  --json        JSON lines instead of text
  --svg FILE    also write the evaluation graph (SVG) to FILE
  -h, --help    this text

Exit status: 0 done; 2 for bad options or a bad game (the message names the line, and
nothing is written); 1 if the output cannot be written.";

#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Options {
    file: Option<String>,
    rule: Option<Rule>,
    size: Option<(usize, usize)>,
    game: usize,
    effort: Effort,
    json: bool,
    svg: Option<PathBuf>,
    help: bool,
}

fn parse_options(args: &[String]) -> Result<Options> {
    let mut o = Options { game: 1, ..Options::default() };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        let mut value = || -> Result<String> {
            inline.clone().or_else(|| it.next().cloned()).ok_or_else(|| anyhow!("{flag} needs a value"))
        };
        let number = |v: String, what: &str| -> Result<u64> {
            v.trim().parse::<u64>().with_context(|| format!("{what}: '{v}' is not a number"))
        };
        match flag {
            "--rule" => {
                let v = value()?;
                o.rule = Some(parse::rule_named(&v).ok_or_else(|| {
                    anyhow!("--rule: unknown rule '{v}' (freestyle, standard, renju, caro, caro-exact or 0/1/4/8/9)")
                })?);
            }
            "--size" => {
                let v = value()?;
                let dims = match v.split_once(['x', 'X']) {
                    Some((w, h)) => (number(w.into(), "--size")?, number(h.into(), "--size")?),
                    None => {
                        let n = number(v.clone(), "--size")?;
                        (n, n)
                    }
                };
                for side in [dims.0, dims.1] {
                    if !(MIN_SIZE as u64..=MAX_SIZE as u64).contains(&side) {
                        bail!("--size: {v} is outside {MIN_SIZE}..{MAX_SIZE}");
                    }
                }
                o.size = Some((dims.0 as usize, dims.1 as usize));
            }
            "--game" => {
                o.game = number(value()?, "--game")? as usize;
                if o.game == 0 {
                    bail!("--game counts from 1");
                }
            }
            "--ms" => {
                o.effort.ms = number(value()?, "--ms")?;
                if o.effort.ms == 0 {
                    bail!("--ms must be at least 1");
                }
            }
            "--nodes" => {
                let n = number(value()?, "--nodes")?;
                if n == 0 {
                    bail!("--nodes must be at least 1");
                }
                o.effort.nodes = Some(n);
            }
            "--json" => o.json = true,
            "--svg" => o.svg = Some(PathBuf::from(value()?)),
            "-h" | "--help" => o.help = true,
            f if f.starts_with('-') && f.len() > 1 => {
                bail!("unknown option '{f}' (see pbrain-gorin review --help)")
            }
            _ if o.file.is_none() => o.file = Some(arg.clone()),
            _ => bail!("one game file at a time ('{arg}' is a second)"),
        }
    }
    Ok(o)
}

/// Runs `pbrain-gorin review` with the arguments after `review`.
pub fn run(args: &[String]) -> ExitCode {
    let o = match parse_options(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("review: {e:#}\n(see pbrain-gorin review --help)");
            return ExitCode::from(2);
        }
    };
    if o.help {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let Some(file) = o.file.clone() else {
        eprintln!("review: no game given\n\n{USAGE}");
        return ExitCode::from(2);
    };
    let (source, game) = match load(&file, &o) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("review: {e:#}");
            return ExitCode::from(2);
        }
    };
    let r = review(&game, o.effort, progress_bar());
    let out = if o.json { report::json(&r, &source) } else { report::text(&r, &source) };
    if let Some(path) = &o.svg {
        if let Err(e) = write_atomically(path, &svg::graph(&r, &source)) {
            eprintln!("review: {e:#}");
            return ExitCode::from(1);
        }
    }
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout.write_all(out.as_bytes()).and_then(|()| stdout.flush()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("review: writing the review: {e}");
            return ExitCode::from(1);
        }
    }
    ExitCode::SUCCESS
}

/// The game of `file` (or of the move string given in its place), checked: a name for it and
/// the game. Errors name the file and the line.
fn load(file: &str, o: &Options) -> Result<(String, Game)> {
    let path = Path::new(file);
    let (text, source) = match std::fs::read(path) {
        Ok(bytes) => {
            let text = String::from_utf8(bytes).map_err(|_| anyhow!("{file}: not a text file (UTF-8)"))?;
            (text, file.to_string())
        }
        Err(e) if looks_like_moves(file) && !path.exists() => {
            let _ = e;
            (file.to_string(), "the moves given".to_string())
        }
        Err(e) => bail!("cannot read {file}: {e}"),
    };
    let record = parse::parse(&text, o.game).map_err(|f| anyhow!("{}: {f}", source))?;
    let game = Game::from_record(&record, o.size, o.rule).map_err(|f| anyhow!("{}: {f}", source))?;
    let source =
        if record.games > 1 { format!("{source} (game {} of {})", o.game, record.games) } else { source };
    Ok((source, game))
}

/// A move string given in place of a file: letters and digits only, starting with a letter
/// and a digit.
fn looks_like_moves(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 2
        && b[0].is_ascii_alphabetic()
        && b[1].is_ascii_digit()
        && b.iter().all(u8::is_ascii_alphanumeric)
}

/// Writes `text` to a temporary file beside `path` and renames it into place, so `path` is
/// either untouched or complete.
fn write_atomically(path: &Path, text: &str) -> Result<()> {
    let name = path.file_name().ok_or_else(|| anyhow!("--svg {}: not a file name", path.display()))?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".{}.tmp", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    let written = std::fs::write(&tmp, text).and_then(|()| std::fs::rename(&tmp, path));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        bail!("writing {}: {e}", path.display());
    }
    Ok(())
}

/// A progress bar on stderr, drawn only when stderr is a terminal (a pipe or a manager reading
/// stderr gets nothing); it erases itself when the last position is done.
pub fn progress_bar() -> impl FnMut(usize, usize) {
    const BAR: usize = 30;
    let on = std::io::stderr().is_terminal();
    move |done: usize, total: usize| {
        if !on || total == 0 {
            return;
        }
        let filled = BAR * done / total;
        let mut err = std::io::stderr().lock();
        let _ = if done >= total {
            write!(err, "\r{:width$}\r", "", width = BAR + 30)
        } else {
            write!(
                err,
                "\rreviewing [{}{}] {done}/{total} positions",
                "#".repeat(filled),
                ".".repeat(BAR - filled)
            )
        };
        let _ = err.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn options_are_read() {
        let o =
            parse_options(&args("g.sgf --rule renju --size 20 --game 3 --ms 50 --json --svg g.svg")).unwrap();
        assert_eq!(o.file.as_deref(), Some("g.sgf"));
        assert_eq!(
            (o.rule, o.size, o.game, o.effort.ms, o.json),
            (Some(Rule::Renju), Some((20, 20)), 3, 50, true)
        );
        assert_eq!(o.svg, Some(PathBuf::from("g.svg")));
        let o = parse_options(&args("h8i9 --size=9x7 --rule=1 --nodes 5000")).unwrap();
        assert_eq!((o.size, o.rule, o.effort.nodes), (Some((9, 7)), Some(Rule::Standard), Some(5000)));
    }

    #[test]
    fn bad_options_are_errors() {
        for bad in [
            "--rule gomoku-pro",
            "--size 4",
            "--size 33",
            "--ms 0",
            "--ms x",
            "--game 0",
            "--bogus",
            "a b",
            "--svg",
        ] {
            assert!(parse_options(&args(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn move_strings_are_told_from_file_names() {
        assert!(looks_like_moves("h8i9j10"));
        assert!(!looks_like_moves("game.sgf"));
        assert!(!looks_like_moves("games/x.psq"));
        assert!(!looks_like_moves("h"));
    }
}
