//! `pbrain-gorin play`: Gomoku in the terminal against Gorin or any Gomocup brain.
//!
//! The engine runs as a child process speaking the brain protocol — by default this very
//! program with no arguments, or `--engine "cmd"` — so play mode goes through the same command
//! layer as Piskvork or a tournament manager and holds no second copy of the search. It keeps
//! its own record of the game for the display, `undo` and the referee.
//!
//! Files: `options` (command line), `input` (what the player types), `game` (the record),
//! `referee` (fives and results), `render` (the board on screen), `process` (the child and its
//! pipes), `brain` (protocol talk and what the brain's board holds), `session` (the loop).

mod brain;
mod game;
mod input;
mod options;
mod process;
mod referee;
mod render;
mod session;

use std::io::IsTerminal;
use std::process::ExitCode;

/// Runs play mode with the arguments after `play`; exit status 0 after `quit` or end of input,
/// 1 if the engine failed, 2 for bad options.
pub fn run(args: &[String]) -> ExitCode {
    let opts = match options::parse(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("play: {e:#}\n\n{}", options::USAGE);
            return ExitCode::from(2);
        }
    };
    if opts.help {
        println!("{}", options::USAGE);
        return ExitCode::SUCCESS;
    }
    let color = render::use_color(opts.color_on, opts.color_off);
    let echo = !std::io::stdin().is_terminal();
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    match session::Session::new(opts, stdin, stdout, color, echo).run() {
        Ok(session::End::Quit) => ExitCode::SUCCESS,
        Ok(session::End::EngineFailed) => ExitCode::from(1),
        Err(e) => {
            // A closed stdout (the player's pipe went away) is a normal way to stop.
            if e.downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            {
                return ExitCode::SUCCESS;
            }
            eprintln!("play: {e:#}");
            ExitCode::from(1)
        }
    }
}
