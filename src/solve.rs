//! `pbrain-gorin solve`: the threat solver on positions given one per line, for building and
//! checking puzzle sets (`scripts/deep_vcf.py`). Each stdin line is a game's moves as
//! protocol coordinates (`x,y x,y ...`, black first); the answer line says whether the side
//! to move wins by continuous fours, and how:
//!
//! - `win PLIES nodes N line x,y x,y ...`: the shortest VCF found within the budget (plies
//!   up to and including the five, or the four black may not block in renju);
//! - `none nodes N`: proved that there is none within the solver's depth;
//! - `unknown nodes N`: the budget ran out first;
//! - `error <reason>`: the line is not a position (the run goes on).

use crate::board::{Board, MAX_SIZE, MIN_SIZE};
use crate::protocol::info::rule_from_info;
use crate::search::threat::{Solver, ThreatCache};
use crate::types::Rule;
use anyhow::{bail, Context, Result};
use std::io::{BufRead, Write};

pub const USAGE: &str = "usage: pbrain-gorin solve [--rule 0|1|4|8|9] [--size N] [--nodes K]   (positions on stdin, one a line: x,y x,y ... black first)";
const DEFAULT_NODES: u64 = 2_000_000;
const CACHE_BITS: u32 = 22;

struct Options {
    rule: Rule,
    size: usize,
    nodes: u64,
}

fn parse_args(args: &[String]) -> Result<Options> {
    let mut o = Options { rule: Rule::Freestyle, size: 15, nodes: DEFAULT_NODES };
    let mut rest = args.iter();
    while let Some(a) = rest.next() {
        let value = rest.next().with_context(|| format!("{a} needs a value\n{USAGE}"))?;
        let number: i64 = value.parse().with_context(|| format!("{a} {value}: not a number\n{USAGE}"))?;
        match a.as_str() {
            "--rule" => {
                o.rule = rule_from_info(number).with_context(|| format!("--rule {value}: no such rule"))?
            }
            "--size" if (MIN_SIZE as i64..=MAX_SIZE as i64).contains(&number) => o.size = number as usize,
            "--size" => bail!("--size {value}: boards are {MIN_SIZE} to {MAX_SIZE}"),
            "--nodes" if number > 0 => o.nodes = number as u64,
            _ => bail!("unknown option '{a}'\n{USAGE}"),
        }
    }
    Ok(o)
}

pub fn run(args: &[String]) -> Result<()> {
    let o = parse_args(args)?;
    let mut cache = ThreatCache::new(CACHE_BITS);
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line.context("reading stdin")?;
        if line.trim().is_empty() {
            continue;
        }
        let answer = match position(&o, &line) {
            Ok(mut b) => {
                // Failures cached for one position hold for any other, but a fresh cache keeps
                // each answer independent of the lines before it.
                cache.clear();
                solve(&mut b, &mut cache, o.nodes)
            }
            Err(e) => format!("error {e:#}"),
        };
        writeln!(out, "{answer}").and_then(|_| out.flush()).context("writing stdout")?;
    }
    Ok(())
}

/// The board after `line`'s moves.
fn position(o: &Options, line: &str) -> Result<Board> {
    let mut b = Board::new(o.size, o.size, o.rule);
    for word in line.split_whitespace() {
        let (x, y) = word.split_once(',').with_context(|| format!("'{word}' is not x,y"))?;
        let (x, y): (i64, i64) = (x.parse()?, y.parse()?);
        let p = b.pos(x, y).with_context(|| format!("{x},{y} is off the board"))?;
        if !b.is_empty(p) {
            bail!("{x},{y} is played twice");
        }
        b.make(p);
    }
    Ok(b)
}

fn solve(b: &mut Board, cache: &mut ThreatCache, nodes: u64) -> String {
    let mut solver = Solver::vcf(cache, nodes);
    match solver.shortest_vcf(b) {
        Some(proof) => {
            let moves: Vec<String> = proof
                .line
                .iter()
                .map(|&p| {
                    let (x, y) = b.xy(p);
                    format!("{x},{y}")
                })
                .collect();
            format!("win {} nodes {} line {}", proof.line.len(), solver.nodes(), moves.join(" "))
        }
        None if solver.aborted() => format!("unknown nodes {}", solver.nodes()),
        None => format!("none nodes {}", solver.nodes()),
    }
}
