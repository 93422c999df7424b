//! Unit tests of the engine: commands in, typed replies out, without a process.

use super::*;
use std::sync::Mutex;

/// Reply lines the test can read back.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Captured {
    fn replies(&self) -> Replies {
        let sink = self.clone();
        Box::new(move |reply: Reply| {
            let mut bytes = sink.0.lock().unwrap();
            bytes.extend_from_slice(reply.to_string().as_bytes());
            bytes.push(b'\n');
        })
    }
}

struct Session {
    engine: Engine,
    sink: Captured,
    parser: crate::protocol::Parser,
    seq: u64,
}

impl Session {
    fn new() -> Session {
        let sink = Captured::default();
        let engine = Engine::new(sink.replies(), Arc::new(Signals::default()));
        let mut s = Session { engine, sink, parser: crate::protocol::Parser::new(), seq: 0 };
        s.send("INFO timeout_turn 300");
        s.send("INFO max_memory 33554432");
        s
    }

    /// Sends lines, returns the non-MESSAGE reply lines they produced.
    fn send(&mut self, lines: &str) -> Vec<String> {
        for line in lines.lines() {
            for cmd in self.parser.feed(line) {
                self.seq += 1;
                self.engine.handle(cmd, self.seq, Instant::now(), false);
            }
        }
        let bytes = std::mem::take(&mut *self.sink.0.lock().unwrap());
        String::from_utf8(bytes)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with("MESSAGE"))
            .map(String::from)
            .collect()
    }
}

#[test]
fn start_sizes() {
    let mut s = Session::new();
    assert_eq!(s.send("START 15"), ["OK"]);
    assert_eq!(s.send("START 5"), ["OK"]);
    assert_eq!(s.send("START 32"), ["OK"]);
    assert!(s.send("START 4")[0].starts_with("ERROR"));
    assert!(s.send("START 33")[0].starts_with("ERROR"));
    assert!(s.send("RECTSTART 20,33")[0].starts_with("ERROR"));
    assert_eq!(s.send("RECTSTART 20,10"), ["OK"]);
    assert_eq!((s.engine.board.width(), s.engine.board.height()), (20, 10));
}

#[test]
fn begin_plays_the_centre_and_turn_replies() {
    let mut s = Session::new();
    s.send("START 15");
    assert_eq!(s.send("BEGIN"), ["7,7"]);
    let reply = s.send("TURN 8,8");
    assert_eq!(reply.len(), 1);
    let (x, y) = reply[0].split_once(',').unwrap();
    let p = s.engine.board.pos(x.parse().unwrap(), y.parse().unwrap()).unwrap();
    assert_eq!(s.engine.board.get(p), Some(Color::Black));
    assert_eq!(s.engine.board.stone_count(), 3);
}

#[test]
fn bad_moves_leave_the_board_unchanged() {
    let mut s = Session::new();
    s.send("START 15");
    s.send("BEGIN");
    let before = s.engine.board.to_ascii();
    for bad in ["TURN 7,7", "TURN 15,0", "TURN -1,3", "TURN 7", "PLAY 7,7", "TAKEBACK 0,0", "TAKEBACK 99,1"] {
        let r = s.send(bad);
        assert!(r.len() == 1 && r[0].starts_with("ERROR"), "{bad}: {r:?}");
        assert_eq!(s.engine.board.to_ascii(), before, "{bad}");
    }
}

#[test]
fn board_sets_colours_and_replies() {
    let mut s = Session::new();
    s.send("START 15");
    let r = s.send("BOARD\n7,7,2\n8,8,1\n6,6,2\nDONE");
    assert_eq!(r.len(), 1, "{r:?}");
    // Opponent has one stone more: it is black and we are white.
    let p = s.engine.board.pos(7, 7).unwrap();
    assert_eq!(s.engine.board.get(p), Some(Color::Black));
    assert_eq!(s.engine.board.stone_count(), 4);
    // A bad body leaves the board as it was.
    let before = s.engine.board.to_ascii();
    let r = s.send("BOARD\n1,1,1\n1,1,2\nDONE");
    assert!(r[0].starts_with("ERROR"), "{r:?}");
    assert_eq!(s.engine.board.to_ascii(), before);
    // An empty body acts like BEGIN.
    assert_eq!(s.send("BOARD\nDONE"), ["7,7"]);
}

#[test]
fn takeback_then_continue() {
    let mut s = Session::new();
    s.send("START 15");
    s.send("BEGIN");
    let reply = s.send("TURN 8,7");
    assert_eq!(s.send(&format!("TAKEBACK {}", reply[0])), ["OK"]);
    assert_eq!(s.send("TAKEBACK 8,7"), ["OK"]);
    assert_eq!(s.engine.board.stone_count(), 1);
    assert_eq!(s.engine.board.side_to_move(), Color::White);
    assert_eq!(s.send("TURN 8,7").len(), 1);
    assert_eq!(s.engine.board.stone_count(), 3);
}

#[test]
fn play_echoes_and_places() {
    let mut s = Session::new();
    s.send("START 15");
    assert_eq!(s.send("PLAY 3,4"), ["3,4"]);
    assert!(s.engine.board.get(s.engine.board.pos(3, 4).unwrap()).is_some());
}

#[test]
fn info_never_replies_but_reports_bad_values_before_the_move() {
    let mut s = Session::new();
    let r = s.send("INFO timeout_turn abc\nINFO TIMEOUT_MATCH 1000\nINFO foo bar\nINFO rule 1\nINFO evaluate 3,3\nSTART 15");
    assert_eq!(r, ["OK"]);
    assert_eq!(s.engine.settings.time.match_ms, 1000);
    assert_eq!(s.engine.rule, Rule::Standard);
    s.send("BEGIN");
    let text = String::from_utf8(std::mem::take(&mut *s.sink.0.lock().unwrap())).unwrap();
    assert!(text.is_empty());
    s.send("INFO max_depth x");
    s.engine.handle(Command::Begin, 99, Instant::now(), false);
    let text = String::from_utf8(std::mem::take(&mut *s.sink.0.lock().unwrap())).unwrap();
    assert!(text.starts_with("MESSAGE INFO max_depth x"), "{text}");
}

#[test]
fn rule_change_keeps_the_stones() {
    let mut s = Session::new();
    s.send("START 15");
    s.send("BOARD\n7,7,1\n8,8,2\n9,9,1\nDONE");
    let before = s.engine.board.to_ascii();
    s.send("INFO rule 4");
    assert_eq!(s.engine.board.to_ascii(), before);
    assert_eq!(s.engine.board.rule(), Rule::Renju);
}

#[test]
fn full_board_is_an_error_not_a_hang() {
    let mut s = Session::new();
    s.send("START 5");
    let mut body = String::from("BOARD\n");
    for y in 0..5 {
        for x in 0..5 {
            // Columns in pairs so nobody has five in a row: x x o o x / o o x x o ...
            let f = if ((x / 2) + y) % 2 == 0 { 1 } else { 2 };
            body.push_str(&format!("{x},{y},{f}\n"));
        }
    }
    body.push_str("DONE");
    let r = s.send(&body);
    assert_eq!(r.len(), 1);
    assert!(r[0].starts_with("ERROR"), "{r:?}");
}

#[test]
fn hash_follows_memory_settings() {
    let mut s = Session::new();
    s.send("INFO max_memory 67108864");
    assert!(s.engine.hash_bytes() <= 64 << 20);
    s.send("INFO max_memory 0");
    assert!(s.engine.hash_bytes() <= DEFAULT_MEMORY - MEMORY_RESERVE);
    s.send("INFO hash_size 4096");
    assert_eq!(s.engine.hash_bytes(), 4 << 20);
}

#[test]
fn progress_names_the_line_and_scores_wins_in_plies() {
    let b = Board::new(15, 15, Rule::Freestyle);
    let it = Iteration {
        depth: 8,
        sel_depth: 15,
        score: 143,
        nodes: 1_234_567,
        elapsed: std::time::Duration::from_millis(812),
        pv: vec![b.pos(7, 7).unwrap(), b.pos(8, 8).unwrap()],
    };
    let p = progress(&b, &it);
    assert_eq!((p.score, p.ms, p.pv.join(" ")), (Score::Value(143), 812, "h8 i9".to_string()));
    assert_eq!(progress(&b, &Iteration { score: WIN - 5, ..it.clone() }).score, Score::WinIn(5));
    assert_eq!(progress(&b, &Iteration { score: 4 - WIN, ..it }).score, Score::LossIn(4));
}

#[test]
fn showforbid_lists_black_fouls_in_renju_only() {
    let mut s = Session::new();
    s.send("START 15");
    // Black (us, equal counts) at (3,2),(3,3),(5,5),(6,5): (3,5) is a double three.
    let board = "YXBOARD\n3,2,1\n3,3,1\n5,5,1\n6,5,1\n10,10,2\n11,12,2\n12,10,2\n13,13,2\nDONE";
    s.send(board);
    assert_eq!(s.send("YXSHOWFORBID"), ["FORBID ."]);
    s.send("INFO rule 4");
    s.send(board);
    let r = s.send("YXSHOWFORBID");
    assert!(r[0].starts_with("FORBID ") && r[0].ends_with('.'), "{r:?}");
    assert!(r[0].contains("0305"), "{r:?}");
    assert_eq!((r[0].len() - "FORBID .".len()) % 4, 0);
}

#[test]
fn thread_num_is_clamped_to_the_cores_and_helpers_take_from_the_hash() {
    let mut s = Session::new();
    s.send("INFO max_memory 67108864");
    let one = s.engine.hash_bytes();
    assert_eq!(s.engine.threads(), 1, "one thread by default");
    s.send("INFO thread_num 1000");
    assert_eq!(s.engine.threads(), max_threads());
    assert!(
        s.engine.notes.iter().any(|n| matches!(n, Note::ThreadsClamped { asked: 1000, .. })),
        "{:?}",
        s.engine.notes
    );
    s.send("INFO thread_num 0");
    assert_eq!(s.engine.threads(), max_threads(), "a bad count leaves the setting");
    if max_threads() >= 2 {
        s.send("INFO thread_num 2");
        assert_eq!(s.engine.threads(), 2);
        let budget = 64 << 20;
        assert!(s.engine.hash_bytes() + MEMORY_RESERVE + THREAD_MEMORY <= budget);
        assert!(s.engine.hash_bytes() <= one);
        s.send("INFO strength 50");
        assert_eq!(s.engine.threads(), 1, "weaker levels search on one thread");
    }
    s.send("INFO strength 100");
    s.send("START 15");
    s.send("INFO thread_num 2");
    let r = s.send("BEGIN");
    assert_eq!(r.len(), 1, "{r:?}");
}

/// A position with stones `x` (ours, to move) and `o`, as a `BOARD` command.
fn board_command(text: &str) -> String {
    let mut lines = vec!["BOARD".to_string()];
    for (y, row) in text.lines().enumerate() {
        for (x, c) in row.chars().enumerate() {
            match c {
                'x' => lines.push(format!("{x},{y},1")),
                'o' => lines.push(format!("{x},{y},2")),
                _ => {}
            }
        }
    }
    lines.push("DONE".into());
    lines.join("\n")
}

const QUIET: &str = "\
...............
...............
...............
...............
...............
.......o.......
......xo.......
.......x.......
...............
...............
...............
...............
...............
...............
...............";

#[test]
fn late_replies_raise_the_margin_and_prompt_ones_lower_it() {
    // A writer that is slow to flush our moves, as stdout is with every core busy.
    let delay_ms = Arc::new(AtomicU64::new(150));
    let delay = Arc::clone(&delay_ms);
    let sink = Captured::default();
    let mut inner = sink.replies();
    let slow: Replies = Box::new(move |reply: Reply| {
        if matches!(reply, Reply::Moves(_)) {
            std::thread::sleep(Duration::from_millis(delay.load(Ordering::SeqCst)));
        }
        inner(reply)
    });
    let engine = Engine::new(slow, Arc::new(Signals::default()));
    let mut s = Session { engine, sink, parser: crate::protocol::Parser::new(), seq: 0 };
    s.send("START 15\nINFO max_memory 33554432\nINFO timeout_turn 100");
    let board = board_command(QUIET);
    let prompt = s.engine.command_budget();
    assert_eq!(s.send(&board).len(), 1);
    let late = s.engine.lateness.margin();
    assert!(late >= 140, "the flush took 150 ms: {late}");
    // The next searches stop earlier by the margin, up to a quarter of the turn, and by as
    // much again kept back for the delays the engine cannot see, up to a twentieth.
    assert_eq!(s.engine.command_budget(), prompt - Duration::from_millis(25 + 5));

    delay_ms.store(0, Ordering::SeqCst);
    let mut margins = Vec::new();
    for _ in 0..20 {
        assert_eq!(s.send(&board).len(), 1);
        margins.push(s.engine.lateness.margin());
    }
    // Other tests share the cores, so a prompt reply may still land a little late now and then.
    assert!(*margins.last().unwrap() < late / 4, "the margin shrinks back: {margins:?}");
    assert!(s.engine.command_budget() > prompt - Duration::from_millis(25));
}

#[test]
fn a_forced_block_under_a_game_clock_answers_at_once() {
    let four = "\
...............
...............
...............
...............
...............
...............
..xoooo........
...............
...............
..........x....
...............
............x..
...............
...............
x..............";
    let mut s = Session::new();
    s.send("START 15\nINFO timeout_match 20000\nINFO timeout_turn 2000\nINFO time_left 20000");
    let thinking = s.engine.command_budget();
    let start = Instant::now();
    assert_eq!(s.send(&board_command(four)), ["7,6"]);
    let took = start.elapsed();
    assert!(thinking >= Duration::from_millis(1_000), "{thinking:?}");
    assert!(took < Duration::from_millis(200), "the only block took {took:?}");
}

/// A GNN1 file of D = 32 whose tables stop at `shapes` shapes (all weights small and equal).
fn net_file_with(shapes: u32) -> std::path::PathBuf {
    let (d, h) = (32usize, 4usize);
    let mut payload = Vec::new();
    for _ in 0..2 * (shapes as usize + 2) * d + d {
        payload.extend_from_slice(&5i16.to_le_bytes());
    }
    payload.extend_from_slice(&0i32.to_le_bytes());
    for _ in 0..h * d {
        payload.extend_from_slice(&1i16.to_le_bytes());
    }
    payload.extend(std::iter::repeat_n(0u8, 4 * h));
    payload.extend(std::iter::repeat_n([1u8, 0], h).flatten());
    payload.extend_from_slice(&0i32.to_le_bytes());
    let header = crate::eval::gnn::Header {
        dim: d as u16,
        shape_count: shapes,
        hidden: h as u16,
        q_act: 10,
        q_weight: 10,
        flags: 0,
    };
    let bytes = header.file(&payload);
    let path = std::env::temp_dir().join(format!("gorin-test-{}-{shapes}-shapes.gnn1", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    path
}

/// A net whose tables lack rows for some of the board's shapes is refused with its reason (it
/// once took the search down). A usable net is not tried here: the choice is process-wide and
/// would reach the other tests' boards (`protocol-tests/cases/info_net.t` covers it).
#[test]
fn a_net_file_without_every_shape_is_refused_and_play_goes_on() {
    let few = net_file_with(10);
    let mut s = Session::new();
    s.send("START 15");
    s.send(&format!("INFO net_file {}", few.display()));
    s.engine.handle(Command::Begin, 99, Instant::now(), false);
    let text = String::from_utf8(std::mem::take(&mut *s.sink.0.lock().unwrap())).unwrap();
    let _ = std::fs::remove_file(&few);
    assert!(text.contains("10 shapes (the board's features need 1365); evaluation unchanged"), "{text}");
    assert!(s.engine.board.net().is_none(), "the classic evaluation stays");
    let mv = text.lines().last().unwrap_or_default();
    assert!(!mv.starts_with("MESSAGE") && !mv.starts_with("ERROR"), "a move: {text}");
    let r = s.send("TURN 8,8");
    assert_eq!(r.len(), 1, "a move: {r:?}");
    assert!(!r[0].starts_with("ERROR"), "{r:?}");
}
