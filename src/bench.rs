//! `pbrain-gorin bench [depth] [--threads LIST]`: searches fixed positions to a fixed depth, one
//! thread, a fixed hash size, and prints `Bench: <nodes> nodes <nps> nps`. The node count is the
//! search's signature: it changes exactly when search behaviour changes.
//!
//! `--net FILE` (a GNN1 file), `--net builtin` or `--net classic` searches with that evaluation
//! (the signature is the default evaluation's; this compares speeds, `nps` on the same positions).
//!
//! `--threads 1,2` runs the same positions with each thread count and prints the nodes per
//! second of each and its ratio to the first (more threads are not deterministic: only the
//! one-thread count is a signature).

use crate::board::Board;
use crate::eval::gnn::{select::Choice, Gnn};
use crate::search::tt::Tt;
use crate::search::{Limits, Searcher};
use crate::types::Rule;
use anyhow::{bail, Context, Result};
use std::time::{Duration, Instant};

pub const DEFAULT_DEPTH: i32 = 6;
const HASH_BYTES: usize = 16 << 20;

/// (board size, rule, moves in algebraic notation, black first).
const POSITIONS: &[(usize, Rule, &str)] = &[
    (15, Rule::Freestyle, "h8 i9 i8 g8 j7 k6 h9 h7 j9"),
    (15, Rule::Freestyle, "h8 h9 i9 g7 j10 k11 i10 i11 j11 g10"),
    (15, Rule::Freestyle, "h8 i7 g9 g7 i9 h9 f10 e11 h10 j8"),
    (15, Rule::Standard, "h8 j8 h9 h10 g9 f10 i9 j9 g10 g8 i7"),
    (15, Rule::Freestyle, "g7 h8 g9 g8 f8 i8 j8 h9 h10 i10 j11 i11"),
    (20, Rule::Freestyle, "j10 k11 k10 l10 i10 h10 j11 j9 l12 i9 k9"),
    (20, Rule::Freestyle, "k10 l11 l10 m10 j10 i10 k11 k9 m12 j9 l9 l8 n11 m11"),
    (15, Rule::Renju, "h8 i9 g9 i7 i8 g10 h9 h10 j10 k11"),
    (15, Rule::CaroOverline, "h8 h9 i9 j10 g7 f6 i8 i7 k8"),
];

/// Reads `h8`-style moves (letter = column, number = row from 1 at the top).
pub fn parse_moves(board: &Board, text: &str) -> Result<Vec<(i64, i64)>> {
    text.split_whitespace()
        .map(|m| {
            let mut chars = m.chars();
            let col = chars.next().context("empty move")?;
            let row: i64 = chars.as_str().parse().with_context(|| format!("bad move '{m}'"))?;
            let x = (col as i64) - ('a' as i64);
            let y = row - 1;
            if board.pos(x, y).is_none() {
                bail!("move '{m}' is off the board");
            }
            Ok((x, y))
        })
        .collect()
}

pub fn run(args: &[String]) -> Result<()> {
    if args.first().map(String::as_str) == Some("forbid") {
        let games = match args.get(1) {
            Some(n) => n.parse().with_context(|| format!("game count '{n}' is not a number"))?,
            None => 200,
        };
        forbid_cost(games);
        return Ok(());
    }
    let (depth, threads, net) = parse_args(args)?;
    if let Some(net) = net {
        crate::eval::gnn::select::set(net);
    }
    let mut runs = Vec::new();
    for &n in &threads {
        let run = run_positions(depth, n, threads.len() == 1)?;
        if n == 1 {
            println!("Bench: {} nodes {} nps", run.nodes, run.nps());
        }
        runs.push((n, run));
    }
    if threads.len() > 1 || threads[0] != 1 {
        let (_, first) = &runs[0];
        for (n, run) in &runs {
            println!(
                "threads {n:>2}: nodes {:>10} time {:>6} ms nps {:>8} ({:.2}x nps, {:.2}x time to depth)",
                run.nodes,
                run.time.as_millis(),
                run.nps(),
                run.nps() as f64 / first.nps().max(1) as f64,
                first.time.as_secs_f64() / run.time.as_secs_f64().max(1e-9),
            );
        }
    }
    Ok(())
}

/// `[depth] [--threads N[,N...]] [--net FILE|builtin|classic]` in any order.
fn parse_args(args: &[String]) -> Result<(i32, Vec<usize>, Option<Choice>)> {
    let mut depth = DEFAULT_DEPTH;
    let mut threads = vec![1];
    let mut net = None;
    let mut rest = args.iter();
    while let Some(a) = rest.next() {
        if a == "--threads" {
            let list = rest.next().context("--threads needs a list such as 1,2")?;
            threads = list
                .split(',')
                .map(|t| match t.trim().parse::<usize>() {
                    Ok(n) if n >= 1 => Ok(n),
                    _ => bail!("thread count '{t}' is not a number from 1"),
                })
                .collect::<Result<_>>()?;
        } else if a == "--net" {
            net = Some(match rest.next().context("--net needs a GNN1 file, builtin or classic")?.as_str() {
                "builtin" => Choice::BuiltIn,
                "classic" => Choice::Classic,
                path => Choice::File(std::sync::Arc::new(
                    Gnn::load_searchable(path).map_err(|why| anyhow::anyhow!("--net {path}: {why}"))?,
                )),
            });
        } else {
            depth = a.parse().with_context(|| format!("depth '{a}' is not a number"))?;
        }
    }
    Ok((depth, threads, net))
}

/// Nodes and time of one pass over the positions.
struct Run {
    nodes: u64,
    time: Duration,
}

impl Run {
    fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-9)) as u64
    }
}

fn run_positions(depth: i32, threads: usize, verbose: bool) -> Result<Run> {
    let mut total = Run { nodes: 0, time: Duration::ZERO };
    for (i, &(size, rule, moves)) in POSITIONS.iter().enumerate() {
        let mut board = Board::new(size, size, rule);
        for (x, y) in parse_moves(&board, moves)? {
            let p = board.pos(x, y).context("on board")?;
            if !board.is_empty(p) {
                bail!("position {i}: {x},{y} played twice");
            }
            board.make(p);
        }
        let tt = Tt::new(HASH_BYTES);
        let never = || false;
        let start = Instant::now();
        let limits = Limits {
            start,
            soft: Duration::MAX,
            hard: Duration::MAX,
            max_depth: depth,
            max_nodes: u64::MAX,
            stop: &never,
        };
        let out = Searcher::new(&tt, limits, rule).with_threads(threads).run(&mut board, |_| {});
        let took = start.elapsed();
        total.nodes += out.nodes;
        total.time += took;
        if verbose {
            println!(
                "position {:>2}: {:>2}x{:<2} {:<10} best {:<4} score {:>6} nodes {:>10} time {:>6} ms",
                i + 1,
                size,
                size,
                rule.name(),
                board.pos_name(out.best),
                out.score,
                out.nodes,
                took.as_millis()
            );
        }
    }
    Ok(total)
}

/// `bench forbid [games]`: the cost of renju's forbidden-point check on game-like positions.
/// Plays seeded random renju games (moves near the stones, black never on a forbidden point)
/// and asks, at every position, about every candidate point near the stones.
fn forbid_cost(games: usize) {
    use crate::board::splitmix64;
    use crate::eval::Forbid;
    use crate::rules::renju::ForbiddenPoints;
    use crate::types::{Color, Pos};
    let mut seed = 0x5EED_u64;
    let (mut checks, mut flagged, mut forbidden) = (0u64, 0u64, 0u64);
    let mut elapsed = Duration::ZERO;
    let mut flagged_time = Duration::ZERO;
    for _ in 0..games {
        let mut b = Board::new(15, 15, Rule::Renju);
        b.make(b.pos(7, 7).expect("centre"));
        for _ in 0..120 {
            let mut cands: Vec<Pos> = Vec::new();
            b.for_each_candidate(|p| cands.push(p));
            let start = Instant::now();
            for &p in &cands {
                forbidden += b.is_forbidden(p) as u64;
            }
            elapsed += start.elapsed();
            checks += cands.len() as u64;
            let hinted: Vec<Pos> =
                cands.iter().copied().filter(|&p| b.forbid_hint(p, Color::Black) != Forbid::Legal).collect();
            let start = Instant::now();
            for &p in &hinted {
                std::hint::black_box(b.is_forbidden(p));
            }
            flagged_time += start.elapsed();
            flagged += hinted.len() as u64;
            let black = b.side_to_move() == Color::Black;
            let legal: Vec<Pos> = cands.into_iter().filter(|&p| !(black && b.is_forbidden(p))).collect();
            if legal.is_empty() {
                break;
            }
            let p = legal[(splitmix64(&mut seed) % legal.len() as u64) as usize];
            let five = b.makes_five(p, b.side_to_move());
            b.make(p);
            if five {
                break;
            }
        }
    }
    let per = |d: Duration, n: u64| d.as_nanos() as f64 / n.max(1) as f64;
    println!("forbid: {games} games, {checks} checks ({flagged} flagged by the line patterns, {forbidden} forbidden)");
    println!(
        "forbid: {:.0} ns per check on average, {:.0} ns per flagged check",
        per(elapsed, checks),
        per(flagged_time, flagged)
    );
}
