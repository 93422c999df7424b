//! `pbrain-gorin solve` (the VCF solver on positions, one a line) and the brain's root VCF on
//! a long one: a renju position from Gorin's own self-play (`gen_games.py --nodes 5000 --rule 4
//! --seed 2205`, game 465 after 40 moves) where black wins by a 19-ply VCF that takes the
//! solver about 31,000 nodes, more than the root threat search had before it got a VCF budget
//! of its own (12,000: the brain then played another winning line found by its search).

use std::io::Write;
use std::process::{Command, Output, Stdio};

const LONG_VCF: &str = "7,7 7,5 6,8 8,7 8,3 8,8 8,6 9,5 6,5 7,4 6,6 6,7 5,7 7,6 8,5 7,3 7,2 8,4 6,2 6,4 \
                        9,4 10,5 10,6 7,8 6,9 8,9 5,6 5,9 4,6 5,4 4,4 8,10 8,11 3,5 4,7 9,10 10,11 11,4 9,6 4,5";
/// The first move of the shortest VCF (the solver's move order decides among equally short ones).
const FIRST: &str = "3,8";
const PLIES: usize = 19;

/// The binary with `args`, `input` on stdin (then end of input), its whole output.
fn run(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-gorin"))
        .args(args)
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run pbrain-gorin");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("write stdin");
    child.wait_with_output().expect("pbrain-gorin output")
}

fn solve(args: &[&str], input: &str) -> Output {
    run(&[&["solve"], args].concat(), input)
}

fn moves(text: &str) -> Vec<(i64, i64)> {
    text.split_whitespace()
        .map(|w| {
            let (x, y) = w.split_once(',').expect("x,y");
            (x.parse().expect("x"), y.parse().expect("y"))
        })
        .collect()
}

#[test]
fn solve_answers_every_line() {
    let input = format!("{LONG_VCF}\n7,7\n7,7 7,7\n7,7 8,8 7,8 8,9 7,9 8,10\n");
    let out = solve(&["--rule", "4"], &input);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "one answer a line: {text}");

    let fields: Vec<&str> = lines[0].split_whitespace().collect();
    assert_eq!(fields[..2], ["win", "19"], "{}", lines[0]);
    let nodes: u64 = fields[3].parse().expect("nodes");
    assert!(nodes > 12_000, "a long VCF takes many nodes: {}", lines[0]);
    let line = lines[0].split(" line ").nth(1).expect("the line");
    let proof = moves(line);
    assert_eq!(proof.len(), PLIES);
    assert_eq!(proof[0], moves(FIRST)[0]);
    let stones = moves(LONG_VCF);
    for p in &proof {
        assert!(!stones.contains(p), "the line plays on empty points: {p:?}");
    }

    assert!(lines[1].starts_with("none nodes "), "one stone, no four: {}", lines[1]);
    assert!(lines[2].starts_with("error ") && lines[2].contains("twice"), "{}", lines[2]);
    // Black's open three on column 7: a four at either end, the block, the five.
    assert!(lines[3].starts_with("win 3 "), "{}", lines[3]);
    let first = moves(lines[3].split(" line ").nth(1).expect("the line"))[0];
    assert!(first == (7, 6) || first == (7, 10), "{}", lines[3]);
}

#[test]
fn solve_says_when_the_budget_runs_out() {
    let out = solve(&["--rule", "4", "--nodes", "12000"], &format!("{LONG_VCF}\n"));
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "unknown nodes 12000");
}

#[test]
fn solve_refuses_bad_options() {
    for args in [&["--rule", "-1"][..], &["--size", "40"], &["--nodes", "0"], &["--depth", "3"], &["--rule"]]
    {
        let out = solve(args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).starts_with("solve: "), "{args:?}");
    }
}

/// The brain proves the long VCF before it searches: its first report is the proof (depth =
/// plies, `ev +M19`) and it plays the proof's first move.
#[test]
fn brain_plays_a_long_vcf_from_its_root_solver() {
    let stones = moves(LONG_VCF);
    let mut input = String::from("INFO rule 4\nINFO timeout_turn 3000\nSTART 15\nBOARD\n");
    for (i, (x, y)) in stones.iter().enumerate() {
        let own = i % 2 == stones.len() % 2;
        input.push_str(&format!("{x},{y},{}\n", if own { 1 } else { 2 }));
    }
    input.push_str("DONE\n");
    let out = run(&[], &input);
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let reports: Vec<&str> = text.lines().filter(|l| l.starts_with("MESSAGE depth")).collect();
    assert!(
        reports.first().is_some_and(|r| r.starts_with("MESSAGE depth 19-19 ev +M19 ")),
        "the first report is the proof: {text}"
    );
    let reply = text.lines().rfind(|l| l.starts_with(|c: char| c.is_ascii_digit())).expect("a move");
    assert_eq!(reply, FIRST, "{text}");
}
