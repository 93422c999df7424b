//! `pbrain-gorin review` run as a user runs it: a constructed game with a known missed VCF in
//! each file format, text, JSON lines and the SVG graph; bad input (exit status 2, the line
//! named, no file written); and play mode's `review` command.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Black makes a closed three on row 8 and one on column k whose crossing k8 is a double four;
/// white's move 12 leaves it, black's move 13 (a15) misses it, white's 14 blocks it.
const MISSED_VCF: [&str; 14] =
    ["h8", "g8", "i8", "k12", "j8", "j9", "k10", "l10", "k11", "j10", "k9", "a1", "a15", "k8"];
/// Nodes per position: a fixed budget, so the review is the same on every machine.
const NODES: &str = "3000";

fn review(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pbrain-gorin"))
        .arg("review")
        .args(args)
        .env_remove("RUST_LOG")
        .output()
        .expect("run pbrain-gorin review")
}

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gorin-review-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

fn xy(m: &str) -> (u8, u8) {
    let x = m.as_bytes()[0] - b'a';
    let y: u8 = m[1..].parse().expect("row");
    (x, y - 1)
}

/// The game as c-gomoku-cli's SGF export writes it (numeric rule, a comment per move).
fn sgf() -> String {
    let mut s = String::from(
        "(;FF[4]GM[4]GN[0]EV[alpha x beta]DT[2026.12.04 08:00:00]RO[1.1]RU[0]SZ[15]PB[alpha]PW[beta]RE[0]TE[Draw by adjudication]\n",
    );
    for (i, m) in MISSED_VCF.iter().enumerate() {
        let (x, y) = xy(m);
        let colour = if i % 2 == 0 { 'B' } else { 'W' };
        s.push_str(&format!(";{colour}[{}{}]C[{}ms]", (b'a' + x) as char, (b'a' + y) as char, 10 + i));
        if i % 8 == 7 {
            s.push('\n');
        }
    }
    s.push_str(")\n\n");
    s
}

/// The game as Piskvork (and scripts/match.py --psq) writes it: 1-based x,y,ms.
fn psq() -> String {
    let mut s = String::from("Piskvorky 15x15, 11:11, 0\n");
    for m in MISSED_VCF {
        let (x, y) = xy(m);
        s.push_str(&format!("{},{},5\n", x + 1, y + 1));
    }
    s.push_str("alpha\nbeta\n-1\n");
    s
}

fn json_lines(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect()
}

#[test]
fn the_missed_vcf_is_labelled_in_every_format() {
    let dir = scratch("formats");
    let files = [("game.sgf", sgf()), ("game.psq", psq()), ("game.txt", MISSED_VCF.concat())];
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let svg = dir.join(format!("{name}.svg"));
        let out =
            review(&[path.to_str().unwrap(), "--nodes", NODES, "--json", "--svg", svg.to_str().unwrap()]);
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(out.stderr.is_empty(), "{name}: nothing on stderr when it is no terminal");
        let lines = json_lines(&out);
        assert!(lines[0].starts_with("{\"type\":\"game\""), "{name}: {}", lines[0]);
        let moves: Vec<&String> = lines.iter().filter(|l| l.starts_with("{\"type\":\"move\"")).collect();
        assert_eq!(moves.len(), MISSED_VCF.len(), "{name}");
        for (m, played) in moves.iter().zip(MISSED_VCF) {
            assert!(m.contains(&format!("\"move\":\"{played}\"")), "{name}: {m}");
            assert!(
                ["best", "good", "inaccuracy", "mistake", "blunder"]
                    .iter()
                    .any(|l| m.contains(&format!("\"label\":\"{l}\""))),
                "{name}: every move is labelled: {m}"
            );
        }
        let missed = moves[12];
        assert!(missed.contains("\"label\":\"blunder\""), "{name}: {missed}");
        assert!(missed.contains("\"missed_win\":{\"kind\":\"VCF\",\"line\":[\"k8\""), "{name}: {missed}");
        assert!(missed.contains("\"best\":\"k8\""), "{name}: {missed}");
        assert!(
            moves[11].contains("\"forced_loss\":{\"kind\":\"VCF\",\"line\":[\"k8\""),
            "{name}: {}",
            moves[11]
        );
        let black =
            lines.iter().find(|l| l.contains("\"type\":\"summary\",\"color\":\"black\"")).expect("summary");
        assert!(black.contains("\"missed_wins\":[13]"), "{name}: {black}");
        let graph = std::fs::read_to_string(&svg).expect("the SVG is written");
        assert!(graph.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""), "{name}");
        assert!(graph.trim_end().ends_with("</svg>"), "{name}");
        assert!(graph.contains("missed forced win") && graph.contains("black's win probability"), "{name}");
        // No temporary file is left beside it.
        let left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().contains(".tmp"))
            .collect();
        assert!(left.is_empty(), "{name}: {left:?}");
    }
}

#[test]
fn text_names_the_missed_win_and_summarises_each_player() {
    let out = review(&[&MISSED_VCF.concat(), "--nodes", NODES]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let row = text.lines().find(|l| l.trim_start().starts_with("13  X  a15")).expect("move 13's row");
    assert!(row.contains("blunder") && row.contains("missed a forced win: VCF k8"), "{row}");
    assert!(text.contains("missed forced wins: move 13 a15 (VCF k8"), "{text}");
    assert!(text.contains("walked into forced losses: move 12 a1 (VCF k8"), "{text}");
    assert!(text.contains("Summary") && text.contains("Result: unfinished"), "{text}");
}

/// Runs a review that must fail: status 2, the message naming `needle`, and no SVG written.
fn refused(dir: &Path, file_text: Option<&str>, extra: &[&str], needle: &str) {
    let game = dir.join("bad.game");
    let svg = dir.join("bad.svg");
    let _ = std::fs::remove_file(&svg);
    if let Some(text) = file_text {
        std::fs::write(&game, text).unwrap();
    }
    let mut args = vec![game.to_str().unwrap(), "--nodes", "200", "--svg", svg.to_str().unwrap()];
    args.extend_from_slice(extra);
    let out = review(&args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{needle}: {err}");
    assert!(err.contains(needle), "expected '{needle}' in: {err}");
    assert!(out.stdout.is_empty(), "{needle}: nothing on stdout");
    assert!(!svg.exists(), "{needle}: no SVG for a refused game");
}

#[test]
fn bad_input_exits_2_naming_the_line_and_writes_nothing() {
    let dir = scratch("errors");
    // A duplicate move, an off-board move, colours out of turn, an unknown rule, an
    // unreadable SGF, a bad PSQ line, a move after the five, an unknown --rule, no file.
    refused(
        &dir,
        Some("(;FF[4]GM[4]SZ[15]\n;B[hh]\n;W[ii]\n;B[hh])"),
        &[],
        "line 4: move 3 (h8) is on a taken point",
    );
    refused(
        &dir,
        Some("Piskvorky 15x15, 11:11, 0\n8,8,0\n16,3,0\n"),
        &[],
        "line 3: move 2 (p3) is off the 15x15 board",
    );
    refused(&dir, Some("(;SZ[15]\n;B[hh]\n;B[ii])"), &[], "line 3: B[ii]: white is to move");
    refused(&dir, Some("(;SZ[15]RU[gomoku-pro]\n;B[hh])"), &[], "line 1: unknown rule RU[gomoku-pro]");
    refused(&dir, Some("(;SZ[15];B[hh];W[ii]\n\n"), &[], "line 1:");
    refused(&dir, Some("Piskvorky 15x15, 11:11, 0\n8,8,0\n9;9;0\n"), &[], "line 3:");
    refused(
        &dir,
        Some("a1 a2 b1 b2 c1 c2 d1 d2 e1\nh8\n"),
        &[],
        "line 2: move 10 (h8) comes after the game ended",
    );
    refused(&dir, Some("h8 i9"), &["--rule", "pente"], "unknown rule 'pente'");
    let _ = std::fs::remove_file(dir.join("bad.game"));
    refused(&dir, None, &[], "cannot read");
}

#[test]
fn help_prints_usage() {
    let out = review(&["--help"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("usage: pbrain-gorin review FILE") && text.contains("--svg FILE"), "{text}");
}

#[test]
fn play_reviews_the_game_just_played() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-gorin"))
        .args(["play", "--time-ms", "30", "--no-color"])
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start play");
    // End of input after `review` quits play mode. The second move is far from the engine's
    // candidates (it answers near the stones), so it is never taken before we play it.
    child.stdin.take().unwrap().write_all(b"h8\na1\nreview\n").unwrap();
    let out = child.wait_with_output().expect("play exits");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let review = &text[text.find("Review of this game").expect("a review is printed")..];
    assert!(review.contains("4 moves"), "{review}");
    for n in 1..=4 {
        let row =
            review.lines().find(|l| l.trim_start().starts_with(&format!("{n}  "))).expect("a row per move");
        assert!(
            ["best", "good", "inaccuracy", "mistake", "blunder"].iter().any(|l| row.contains(l)),
            "{row}"
        );
    }
    assert!(review.contains("black (X, you)") && review.contains("white (O, gorin)"), "{review}");
}
