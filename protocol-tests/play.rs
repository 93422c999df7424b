//! `pbrain-gorin play` driven through stdin the way a person (or a script) would play: moves,
//! bad input, undo, hint, new, quit, and the rendered board and result on stdout.
//!
//! Games against the engine never assume the engine's moves: the driver waits for each prompt,
//! reads the engine's move from the output, and picks its next move among the free points.

use std::collections::HashSet;
use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// How long any one prompt (an engine move included) may take to appear.
const PROMPT_WAIT: Duration = Duration::from_secs(15);
/// How long the program may take to exit after `quit` or end of input.
const EXIT_WAIT: Duration = Duration::from_secs(5);
const EXIT_POLL: Duration = Duration::from_millis(10);
/// Engine time per move in these tests: quick, and enough for a sensible answer.
const ENGINE_MS: &str = "100";
/// Every prompt ends so; nothing else on screen does.
const PROMPT_END: &str = "> ";

/// A running `pbrain-gorin play`.
struct Play {
    child: Child,
    stdin: Option<ChildStdin>,
    chunks: Receiver<Vec<u8>>,
    stderr: Option<JoinHandle<String>>,
    /// Everything printed so far.
    out: String,
    /// Where the text after the last prompt begins.
    seen: usize,
}

impl Play {
    fn start(args: &[&str]) -> Play {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-gorin"))
            .arg("play")
            .args(args)
            .env_remove("RUST_LOG")
            .env_remove("NO_COLOR")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start pbrain-gorin play");
        let mut stdout = child.stdout.take().expect("stdout pipe");
        let mut stderr = child.stderr.take().expect("stderr pipe");
        let (tx, chunks) = mpsc::channel();
        thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stdout.read(&mut buf) {
                if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        let stderr = thread::spawn(move || {
            let mut s = String::new();
            let _ = stderr.read_to_string(&mut s);
            s
        });
        let stdin = child.stdin.take();
        Play { child, stdin, chunks, stderr: Some(stderr), out: String::new(), seen: 0 }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        // A play process that has already exited (a brain that failed to start) closes its
        // input; the exit status tells the test what happened, so a broken pipe is no failure.
        if let Err(e) = stdin.write_all(format!("{line}\n").as_bytes()).and_then(|()| stdin.flush()) {
            assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write to play: {e}");
        }
    }

    /// Waits for the next prompt; returns everything printed since the previous one.
    fn prompt(&mut self) -> String {
        let deadline = Instant::now() + PROMPT_WAIT;
        while !self.out[self.seen..].ends_with(PROMPT_END) {
            match self.chunks.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(bytes) => self.out.push_str(&String::from_utf8_lossy(&bytes)),
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no prompt within {PROMPT_WAIT:?}; output:\n{}", self.out)
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("play exited before a prompt; output:\n{}", self.out)
                }
            }
        }
        let text = self.out[self.seen..].to_string();
        self.seen = self.out.len();
        text
    }

    /// Sends a line and returns the output up to the next prompt.
    fn say(&mut self, line: &str) -> String {
        self.send(line);
        self.prompt()
    }

    /// Closes stdin (if still open), waits for the exit and returns status, stdout and stderr.
    fn finish(mut self) -> (ExitStatus, String, String) {
        drop(self.stdin.take());
        let deadline = Instant::now() + EXIT_WAIT;
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("wait for play") {
                break status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("play did not exit within {EXIT_WAIT:?}; output:\n{}", self.out);
            }
            thread::sleep(EXIT_POLL);
        };
        while let Ok(bytes) = self.chunks.recv_timeout(Duration::from_secs(1)) {
            self.out.push_str(&String::from_utf8_lossy(&bytes));
        }
        let stderr = self.stderr.take().expect("stderr thread").join().expect("stderr reader");
        (status, std::mem::take(&mut self.out), stderr)
    }
}

/// Runs `play` with all of `input` piped in at once; returns status, stdout and stderr.
fn run_script(args: &[&str], input: &[&str]) -> (ExitStatus, String, String) {
    let mut play = Play::start(args);
    for line in input {
        play.send(line);
    }
    play.finish()
}

/// The last board drawn in `text`: from a column-label line to the next one, inclusive.
fn last_board(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let is_labels = |l: &str| l.trim_start().starts_with("a b c");
    let ends: Vec<usize> = (0..lines.len()).filter(|&i| is_labels(lines[i])).collect();
    assert!(ends.len() >= 2, "no board in:\n{text}");
    let (start, end) = (ends[ends.len() - 2], ends[ends.len() - 1]);
    lines[start..=end].join("\n")
}

/// `h8` → (7, 7).
fn point(name: &str) -> (usize, usize) {
    let mut chars = name.chars();
    let x = chars.next().expect("a column letter") as usize - 'a' as usize;
    let y: usize = chars.as_str().parse().expect("a row number");
    (x, y - 1)
}

/// The point named right after `marker` on some line of `text` (e.g. "gorin plays ").
fn point_after(text: &str, marker: &str) -> (usize, usize) {
    let at = text.find(marker).unwrap_or_else(|| panic!("no '{marker}' in:\n{text}"));
    let name: String = text[at + marker.len()..].chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
    point(&name)
}

fn name((x, y): (usize, usize)) -> String {
    format!("{}{}", (b'a' + x as u8) as char, y + 1)
}

#[test]
fn human_vs_human_game_ends_in_a_five() {
    let moves = ["h8", "h9", "i8", "i9", "j8", "j9", "k8", "k9", "l8"];
    let mut input = moves.to_vec();
    input.extend(["a1", "quit"]);
    let (status, out, err) = run_script(&["--hvh", "--no-color"], &input);
    assert!(status.success(), "status {status:?}\n{out}");
    assert!(err.is_empty(), "stderr: {err}");
    assert!(out.contains("\nX wins: five\n"), "{out}");
    assert_eq!(out.matches("\nX wins: five\n").count(), 1, "one result only:\n{out}");
    assert!(out.contains("the game is over (X wins: five)"), "a move after the end is refused:\n{out}");
    let board = last_board(&out);
    let lines: Vec<&str> = board.lines().collect();
    assert_eq!(lines[0], "   a b c d e f g h i j k l m n o");
    assert_eq!(lines[8], " 8 . . . . . . . X X X X[X]. . .  8", "\n{board}");
    assert_eq!(lines[9], " 9 . . . . . . . O O O O . . . .  9", "\n{board}");
    assert_eq!(lines[16], lines[0]);
    let stones = board.matches('X').count() + board.matches('O').count();
    assert_eq!(stones, moves.len(), "\n{board}");
}

#[test]
fn nine_by_nine_column_five_for_white_and_bad_input() {
    let input = [
        "undo", // nothing to undo yet
        "a1", "e1", "a3", "e2", "zz", "j1", "a10", "a3", "1,2,3", "", "A5", "e3", "7,0", "E4", "c9", "4,4",
        "quit",
    ];
    let (status, out, err) = run_script(&["--hvh", "--size", "9", "--no-color"], &input);
    assert!(status.success(), "status {status:?}\n{out}");
    assert!(err.is_empty(), "stderr: {err}");
    for expected in [
        "nothing to undo",
        "'zz' is not a move or command",
        "j1 is off the 9x9 board",
        "a10 is off the 9x9 board",
        "a3 is already taken",
        "'1,2,3' is not a move or command",
        "\nO wins: five\n",
    ] {
        assert!(out.contains(expected), "missing '{expected}' in:\n{out}");
    }
    assert!(!out.contains("panicked"), "{out}");
    let board = last_board(&out);
    let expected = "  a b c d e f g h i\n\
                    1 X . . . O . . X .  1\n\
                    2 . . . . O . . . .  2\n\
                    3 X . . . O . . . .  3\n\
                    4 . . . . O . . . .  4\n\
                    5 X . . .[O]. . . .  5\n\
                    6 . . . . . . . . .  6\n\
                    7 . . . . . . . . .  7\n\
                    8 . . . . . . . . .  8\n\
                    9 . . X . . . . . .  9\n  a b c d e f g h i";
    assert_eq!(board, expected);
}

#[test]
fn against_the_engine_with_undo_hint_and_quit() {
    let mut play = Play::start(&["--no-color", "--time-ms", ENGINE_MS]);
    let intro = play.prompt();
    assert!(intro.contains("You are X"), "{intro}");
    let mut taken: HashSet<(usize, usize)> = HashSet::new();

    let after_first = play.say("h8");
    taken.insert(point("h8"));
    let reply = point_after(&after_first, "gorin plays ");
    assert!(taken.insert(reply), "engine played on a taken point:\n{after_first}");
    let board_one = last_board(&after_first);
    assert!(board_one.contains("[O]"), "last move marked:\n{board_one}");

    // A second move of ours on a free point near the centre, whatever the engine did.
    let ours = [(6, 6), (8, 6), (6, 8), (8, 8), (7, 6), (6, 7)]
        .into_iter()
        .find(|p| !taken.contains(p))
        .expect("a free point");
    let after_second = play.say(&name(ours));
    let reply_two = point_after(&after_second, "gorin plays ");
    assert!(!taken.contains(&reply_two) && reply_two != ours, "{after_second}");
    assert_ne!(last_board(&after_second), board_one);

    let after_undo = play.say("undo");
    assert!(after_undo.contains(&format!("took back {} {}", name(reply_two), name(ours))), "{after_undo}");
    assert_eq!(last_board(&after_undo), board_one, "undo restores the earlier board");

    let hint = play.say("hint");
    let suggested = point_after(&hint, "hint: ");
    assert!(suggested.0 < 15 && suggested.1 < 15 && !taken.contains(&suggested), "{hint}");
    let shown = play.say("board");
    assert_eq!(last_board(&shown), board_one, "a hint does not change the board");

    play.send("quit");
    let (status, out, err) = play.finish();
    assert!(status.success(), "status {status:?}\n{out}");
    assert!(err.is_empty(), "stderr: {err}");
}

#[test]
fn engine_moves_first_and_new_game_restarts() {
    let mut play = Play::start(&["--no-color", "--size", "9", "--first", "engine", "--level", "normal"]);
    let first = play.prompt();
    let opening = point_after(&first, "X gorin plays ");
    assert!(opening.0 < 9 && opening.1 < 9, "{first}");
    assert!(first.contains("O (you) to move> "), "{first}");
    let again = play.say("new");
    assert!(again.contains("new game") && again.contains("X gorin plays "), "{again}");
    assert_eq!(last_board(&again).matches('X').count(), 1, "{again}");
    // End of input quits cleanly, like `quit`.
    let (status, out, err) = play.finish();
    assert!(status.success(), "status {status:?}\n{out}");
    assert!(err.is_empty(), "stderr: {err}");
}

#[test]
fn no_color_output_is_plain_and_color_is_ansi() {
    let input = ["h8", "h9", "help", "bogus", "quit"];
    let (status, plain, _) = run_script(&["--hvh", "--no-color"], &input);
    assert!(status.success());
    assert!(!plain.contains('\x1b'), "ESC in --no-color output:\n{plain}");
    // --color forces colours even into a pipe, and --no-color still wins over it.
    let (_, colored, _) = run_script(&["--hvh", "--color"], &input);
    assert!(colored.contains('\x1b'), "no colours with --color:\n{colored}");
    let (_, both, _) = run_script(&["--hvh", "--color", "--no-color"], &input);
    assert!(!both.contains('\x1b'));
    // Without a terminal there are no colours by default.
    let (_, piped, _) = run_script(&["--hvh"], &input);
    assert!(!piped.contains('\x1b'));
}

#[test]
fn bad_options_print_usage_and_fail() {
    for args in [&["--size", "4"][..], &["--rule", "nonsense"], &["--bogus"], &["--first"]] {
        let (status, out, err) = run_script(args, &[]);
        assert_eq!(status.code(), Some(2), "{args:?}: {out}");
        assert!(err.contains("usage: pbrain-gorin play"), "{args:?}: {err}");
    }
    let (status, out, _) = run_script(&["--help"], &[]);
    assert!(status.success() && out.contains("--engine"), "{out}");
}

#[test]
fn an_external_engine_command_is_used() {
    // The engine is this very binary, named explicitly as --engine would name any brain.
    let engine = env!("CARGO_BIN_EXE_pbrain-gorin");
    let (status, out, err) =
        run_script(&["--no-color", "--size", "9", "--first", "engine", "--engine", engine], &["quit"]);
    assert!(status.success(), "{out}");
    assert!(err.is_empty(), "stderr: {err}");
    assert!(out.contains("X gorin plays "), "{out}");
    let (status, out, _) = run_script(&["--engine", "/nonexistent/pbrain-none"], &["quit"]);
    assert_eq!(status.code(), Some(1), "{out}");
}

/// A stand-in renju brain for two humans: answers `START`, `ABOUT`, `TAKEBACK` and
/// `YXSHOWFORBID` (with `$FORBID_REPLY`), ignores the rest.
#[cfg(unix)]
const FAKE_BRAIN: &str = r#"
while IFS= read -r line; do
  case "$line" in
    START*|RESTART*|TAKEBACK*) echo OK ;;
    ABOUT*) echo 'name="fake", version="1"' ;;
    YXSHOWFORBID*) echo "$FORBID_REPLY" ;;
    END*) exit 0 ;;
  esac
done
"#;

/// Runs a two-human renju game against the fake brain answering YXSHOWFORBID with `reply`.
#[cfg(unix)]
fn renju_with_fake_brain(reply: &str, input: &[&str]) -> String {
    let script = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("fake_renju_brain.sh");
    std::fs::write(&script, FAKE_BRAIN).expect("write the fake brain");
    let engine = format!("sh {}", script.display());
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-gorin"))
        .args(["play", "--hvh", "--no-color", "--rule", "renju", "--engine", &engine])
        .env("FORBID_REPLY", reply)
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start play");
    let mut stdin = child.stdin.take().expect("stdin");
    for line in input {
        writeln!(stdin, "{line}").expect("write");
    }
    drop(stdin);
    let out = child.wait_with_output().expect("play output");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "status {:?}\n{text}", out.status);
    text
}

#[cfg(unix)]
#[test]
fn renju_forbidden_moves_come_from_the_brain() {
    let out = renju_with_fake_brain("FORBID 0505.", &["a1", "b1", "f6", "quit"]);
    assert!(out.contains("\nX loses: forbidden move (renju)\n"), "{out}");
    assert!(!out.contains("does not report"), "{out}");
    let out = renju_with_fake_brain("UNKNOWN no such command", &["a1", "b1", "f6", "quit"]);
    assert!(out.contains("does not report renju forbidden points"), "{out}");
    assert!(!out.contains("loses"), "{out}");
    assert!(last_board(&out).contains(" 6 . . . . .[X]"), "{out}");
}

#[test]
fn renju_double_three_loses_with_gorin_as_referee_helper() {
    // f8 g8 and h6 h7: h8 makes two open threes for black, which Gorin reports as forbidden.
    let input = ["f8", "a1", "g8", "a3", "h6", "a5", "h7", "a7", "h8", "undo", "quit"];
    let (status, out, err) = run_script(&["--hvh", "--no-color", "--rule", "renju"], &input);
    assert!(status.success(), "status {status:?}\n{out}");
    assert!(err.is_empty(), "stderr: {err}");
    assert!(out.contains("\nX loses: forbidden move (renju)\n"), "{out}");
    assert!(out.contains("took back h8"), "{out}");
}
