//! `pbrain-gorin`: with no arguments, a Gomocup brain on stdin/stdout; `bench` runs the
//! deterministic benchmark, `gen-data` writes self-play training data, `review` judges a game
//! move by move, `solve` runs the VCF solver on positions, `play` and `tune*` as listed in the usage line.

use std::process::ExitCode;

fn main() -> ExitCode {
    // First of all: past this point the code may use what the build was compiled for.
    let missing = gorin::cpu::missing_features();
    if !missing.is_empty() {
        eprintln!("{}", gorin::cpu::refusal(&missing));
        return ExitCode::from(3);
    }
    // stderr is read into the protocol channel by Piskvork and c-gomoku-cli: silent unless asked.
    if std::env::var_os("RUST_LOG").is_some() {
        env_logger::init();
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => {
            // The brain's panics go to the log only; the offline commands keep Rust's report.
            std::panic::set_hook(Box::new(|info| log::error!("{info}")));
            gorin::app::serve();
            ExitCode::SUCCESS
        }
        Some("bench") => finish("bench", gorin::bench::run(&args[1..])),
        Some("gen-data") => finish("gen-data", gorin::datagen::run(&args[1..])),
        Some("static-eval") => finish("static-eval", gorin::datagen::run_static(&args[1..])),
        Some("features") => finish("features", gorin::datagen::run_features(&args[1..])),
        Some("line-features") => finish("line-features", gorin::datagen::run_line_features(&args[1..])),
        Some("solve") => finish("solve", gorin::solve::run(&args[1..])),
        Some("play") => gorin::play::run(&args[1..]),
        Some("review") => gorin::review::run(&args[1..]),
        Some("tune") => finish("tune", gorin::fit::tune::run(&args[1..])),
        Some("tune-net") => finish("tune-net", gorin::fit::netfit::run(&args[1..])),
        Some("tune-policy") => finish("tune-policy", gorin::fit::policyfit::run(&args[1..])),
        Some("tune-rank") => finish("tune-rank", gorin::fit::rankfit::run(&args[1..])),
        Some("--version" | "-V") => {
            println!("{} {}", gorin::protocol::reply::NAME, gorin::protocol::reply::VERSION);
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("usage: pbrain-gorin [bench [depth] [--threads 1,2] | bench forbid [games] | gen-data --out FILE [--games N] [--nodes K] [--rule R] [--size S] [--seed X] [--random-plies P] [--explore E] [--first-game F] | static-eval IN.grn1 OUT | features IN.grn1 OUT.grn1 | line-features IN.grn1 OUT.glf1 | solve [--rule R] [--size N] [--nodes K] | play [--help] | review FILE [--help] | tune GAMES.jsonl [iterations [scale]] | tune-net RECORDS.jsonl [epochs [scale [warm]]] | tune-policy GAMES.jsonl [epochs] | tune-rank GAMES.jsonl [epochs [temperature [rate [TEACHER.jsonl [weight]]]]]]   (unknown argument '{other}')");
            ExitCode::from(2)
        }
    }
}

/// An offline command's exit: success, or its error on stderr and status 2.
fn finish(command: &str, result: anyhow::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{command}: {e:#}");
            ExitCode::from(2)
        }
    }
}
