//! Unit tests of the search: wins, blocks and threes answered, determinism, threads, move caps and reductions.

use super::*;
use crate::types::Rule;

fn search(text: &str, rule: Rule, depth: i32) -> (Board, SearchResult) {
    let never = || false;
    let (b, out, _) = threaded(text, rule, 1, depth, Duration::from_secs(60), &never);
    (b, out)
}

fn best_xy(text: &str, rule: Rule, depth: i32) -> (usize, usize) {
    let (b, out) = search(text, rule, depth);
    b.xy(out.best)
}

const FOURS: &str = "\
...............
...............
...............
...............
....xxxx.......
...............
...oooo........
...............
...............
...............
...............
...............
...............
...............
...............";

#[test]
fn takes_a_win_in_one_over_blocking() {
    // Black to move (equal counts): both sides have a four; black completes its own.
    let (b, out) = search(FOURS, Rule::Freestyle, 4);
    let (x, y) = b.xy(out.best);
    assert_eq!(y, 4);
    assert!(x == 3 || x == 8, "{x},{y}");
    assert_eq!(out.score, WIN - 1);
}

#[test]
fn blocks_the_only_five_point() {
    let text = "\
...............
...............
...............
...............
...............
...............
...oooo.x......
...............
..........x....
...x...........
...............
...............
...............
...............
...............";
    // White's four is blocked on the right by black: the block is (2,6).
    assert_eq!(best_xy(text, Rule::Freestyle, 4), (2, 6));
}

#[test]
fn answers_an_open_three() {
    // White threatens to make an open four; black must block next to or beyond the three.
    let (x, y) = best_xy(OPEN_THREE, Rule::Freestyle, 6);
    assert!(y == 6 && [2, 3, 7, 8].contains(&x), "{x},{y}");
}

#[test]
fn standard_rule_ignores_the_overline_point() {
    // Black's only "five" point would make six under standard rules; white's four must be
    // blocked instead. Black to move.
    let text = "\
...............
...............
...............
...............
.xxx.xx........
...............
...............
.....oooo......
...............
...............
...............
...............
..........o....
...............
...............";
    let (x, y) = best_xy(text, Rule::Standard, 4);
    assert_eq!(y, 7, "{x},{y}");
    assert!(x == 4 || x == 9);
    let (x, y) = best_xy(text, Rule::Freestyle, 4);
    assert_eq!((x, y), (4, 4));
}

#[test]
fn finds_a_four_three_win() {
    // Black plays (7,7): a four on row 7 (4..7 + gap) and an open three on the column.
    let text = "\
...............
...............
...............
...............
...............
.......x.......
.......x.......
....xxx........
...............
...............
..o.o.o........
...............
.o.............
...............
...o...........";
    let (b, out) = search(text, Rule::Freestyle, 5);
    assert!(out.score >= WIN_THRESHOLD, "score {}", out.score);
    assert_eq!(b.xy(out.best), (7, 7));
}

#[test]
fn proven_loss_scores_are_exact() {
    // White has two separate open-four points; black (to move) can block only one line.
    let text = "\
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
.x.............
....x..........
...............
....x....o.....
...............";
    let (_, out) = search(text, Rule::Freestyle, 4);
    assert_eq!(out.score, 0, "a single block holds: {}", out.score);
    let text2 = text.replace("..xoooo........", "...oooo.....x..");
    let (_, out2) = search(&text2, Rule::Freestyle, 4);
    assert_eq!(out2.score, -(WIN - 2));
}

#[test]
fn search_is_deterministic() {
    let text = "\
...............
...............
...............
...............
...............
......o........
.....xxo.......
......x........
.....o.........
...............
...............
...............
...............
...............
...............";
    let (_, a) = search(text, Rule::Freestyle, 6);
    let (_, b) = search(text, Rule::Freestyle, 6);
    assert_eq!(a.nodes, b.nodes);
    assert_eq!(a.best, b.best);
    assert!(a.nodes > 100);
}

#[test]
fn answers_a_lone_stone_in_contact() {
    let mut text = String::new();
    for y in 0..15 {
        for x in 0..15 {
            text.push(if (x, y) == (7, 7) { 'x' } else { '.' });
        }
        text.push('\n');
    }
    let (x, y) = best_xy(&text, Rule::Freestyle, 7);
    // Contact or one point apart: the old evaluation answered h8 at e5, three points away.
    assert!(x.abs_diff(7) <= 2 && y.abs_diff(7) <= 2, "{x},{y}");
}

/// Limits of a test search: to `depth`, `hard` as both time limits, no node limit.
fn limits<'a>(depth: i32, hard: Duration, stop: &'a (dyn Fn() -> bool + Sync)) -> Limits<'a> {
    Limits { start: Instant::now(), soft: hard, hard, max_depth: depth, max_nodes: u64::MAX, stop }
}

/// A search with `threads` threads, `hard` of time and `stop` polled; returns the searcher's
/// outcome and the nodes its helpers reported.
fn threaded(
    text: &str,
    rule: Rule,
    threads: usize,
    depth: i32,
    hard: Duration,
    stop: &(dyn Fn() -> bool + Sync),
) -> (Board, SearchResult, u64) {
    let mut b = Board::from_ascii(text, rule);
    let tt = Tt::new(1 << 20);
    let limits = limits(depth, hard, stop);
    let before = b.to_ascii();
    let mut searcher = Searcher::new(&tt, limits, rule).with_threads(threads);
    let out = searcher.run(&mut b, |_| {});
    assert_eq!(b.to_ascii(), before, "search must leave the board as it found it");
    let helpers = searcher.helper_nodes.load(Relaxed);
    (b, out, helpers)
}

const OPEN_THREE: &str = "\
...............
...............
...............
...............
...............
...............
....ooo........
...............
..........x....
.......x.......
...............
...............
...x...........
...............
...............";

#[test]
fn two_threads_answer_an_open_three_and_count_the_helpers_nodes() {
    let never = || false;
    let (b, out, helpers) = threaded(OPEN_THREE, Rule::Freestyle, 2, 8, Duration::from_secs(60), &never);
    let (x, y) = b.xy(out.best);
    assert!(y == 6 && [2, 3, 7, 8].contains(&x), "{x},{y}");
    assert!(helpers > 0, "the helper searched nothing");
    assert!(out.nodes > helpers, "total {} must include the main thread's nodes", out.nodes);
}

#[test]
fn helpers_stop_at_the_hard_limit_and_on_stop() {
    let never = || false;
    let start = Instant::now();
    let (b, out, _) = threaded(OPEN_THREE, Rule::Freestyle, 2, MAX_DEPTH, Duration::from_millis(200), &never);
    assert!(start.elapsed() < Duration::from_millis(1500), "took {:?}", start.elapsed());
    assert!(b.is_empty(out.best));
    let flag = std::sync::atomic::AtomicBool::new(false);
    let stop = || flag.load(Relaxed);
    std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(150));
            flag.store(true, Relaxed);
        });
        let start = Instant::now();
        let (b, out, _) = threaded(OPEN_THREE, Rule::Freestyle, 2, MAX_DEPTH, Duration::from_secs(60), &stop);
        assert!(start.elapsed() < Duration::from_millis(1500), "took {:?}", start.elapsed());
        assert!(b.is_empty(out.best));
    });
}

#[test]
fn one_thread_reports_no_helper_nodes() {
    let never = || false;
    let (_, out, helpers) = threaded(OPEN_THREE, Rule::Freestyle, 1, 6, Duration::from_secs(60), &never);
    assert_eq!(helpers, 0);
    // The same search by a searcher never told about threads.
    let mut b = Board::from_ascii(OPEN_THREE, Rule::Freestyle);
    let tt = Tt::new(1 << 20);
    let limits = limits(6, Duration::from_secs(60), &never);
    let plain = Searcher::new(&tt, limits, Rule::Freestyle).run(&mut b, |_| {});
    assert_eq!(out.nodes, plain.nodes, "with_threads(1) must search exactly as before");
}

#[test]
fn a_pass_that_fails_low_keeps_the_root_order() {
    // Nobody can win here, so a window above every real score fails low for every move; the
    // next pass (and the next iteration) must see the moves in the order they had.
    let mut b = Board::from_ascii(OPEN_THREE, Rule::Freestyle);
    let tt = Tt::new(1 << 20);
    let never = || false;
    let limits = limits(4, Duration::from_secs(60), &never);
    let mut searcher = Searcher::new(&tt, limits, Rule::Freestyle);
    let mut root = Vec::new();
    generate(&mut b, &mut root, &Refuters::NONE, &searcher.history, Pos::NONE);
    assert!(root.len() > 3);
    let before: Vec<Pos> = root.iter().map(|m| m.pos).collect();
    let (score, best) = searcher.root_search(&mut b, &mut root, WIN_THRESHOLD, WIN_THRESHOLD + 1, 3);
    assert!(score <= WIN_THRESHOLD && best.is_none(), "{score} {best:?}");
    let after: Vec<Pos> = root.iter().map(|m| m.pos).collect();
    assert_eq!(after, before);
}

#[test]
fn move_caps_follow_depth_and_tension() {
    let busy: Vec<usize> = (1..=12).map(|d| move_cap(d, true)).collect();
    let quiet: Vec<usize> = (1..=40).map(|d| move_cap(d, false)).collect();
    assert_eq!(busy[..5], [3, 5, 7, 8, 8]);
    assert_eq!(quiet[..4], [3, 9, 14, 18]);
    assert_eq!(*quiet.last().unwrap(), 32, "the quiet cap is bounded");
    assert!(quiet.windows(2).all(|w| w[0] <= w[1]), "more depth never searches fewer moves");
    assert!((1..=12).all(|d| move_cap(d, false) >= move_cap(d, true)));
    let limit: Vec<usize> = (1..=40).map(quiet_move_limit).collect();
    assert_eq!(limit[..4], [4, 5, 7, 9]);
    assert_eq!(limit[7], 19);
    assert!(limit.windows(2).all(|w| w[0] <= w[1]), "more depth never searches fewer moves");
    assert!((4..=12).all(|d| quiet_move_limit(d) < move_cap(d, false)), "tighter at middle depths");
    assert!((16..=40).all(|d| quiet_move_limit(d) >= move_cap(d, false)), "the cap bounds deep nodes");
}

#[test]
fn an_open_three_or_a_four_makes_a_node_busy() {
    let empty_row = "...............\n";
    let board = |row: &str| {
        let mut text = empty_row.repeat(7);
        text.push_str(row);
        text.push_str(&empty_row.repeat(7));
        Board::from_ascii(&text, Rule::Freestyle)
    };
    assert!(!is_busy(&board("......xx.......\n")), "an open two");
    assert!(is_busy(&board("......xxx......\n")), "an open three");
    assert!(is_busy(&board(".....oxxxx.....\n")), "a closed four");
    assert!(!is_busy(&board(".....oxxx......\n")), "a closed three");
}

#[test]
fn reductions_grow_with_depth_and_lateness_and_leave_a_ply() {
    assert_eq!(reduction(10, 0, false), 0, "the first move is never reduced");
    assert_eq!(reduction(2, 20, false), 0, "shallow nodes are not reduced");
    for depth in 3..30 {
        for index in 1..60 {
            let r = reduction(depth, index, false);
            assert!(depth - 1 - r >= 1, "depth {depth} index {index}");
            assert!(r >= reduction(depth, index - 1, false));
            assert!(r >= reduction(depth - 1, index, false));
            assert!(reduction(depth, index, true) <= r);
        }
    }
    assert!(reduction(12, 20, false) >= 3);
}

/// A quiet middle game: no four, no open three for either side.
const QUIET: &str = "\
...............
...............
...............
...............
...............
...............
......o........
.......x.......
........x......
.......o.......
...............
...............
...............
...............
...............";

#[test]
fn a_singular_test_neither_reads_nor_writes_the_nodes_table_entry() {
    let never = || false;
    let limits = || limits(4, Duration::from_secs(60), &never);
    let mut b = Board::from_ascii(QUIET, Rule::Freestyle);
    let key = b.key();
    let mut root = Vec::new();
    generate(&mut b, &mut root, &Refuters::NONE, &vec![0; MAX_CELLS], Pos::NONE);
    let skipped = root[0].pos;
    // An entry that would cut the node at once if it were read.
    let planted = 12_345;
    let tt = Tt::new(1 << 20);
    tt.store(key, skipped, planted, tt::NO_EVAL, 20, Bound::Exact);
    let mut searcher = Searcher::new(&tt, limits(), Rule::Freestyle);
    searcher.skipped[1] = skipped;
    let score = searcher.negamax(&mut b, planted - 1, planted, 4, 1, false);
    assert!(score < planted, "the planted entry was read: {score}");
    // Nor is what the node found without its table move stored as the node's value.
    let tt = Tt::new(1 << 20);
    let mut searcher = Searcher::new(&tt, limits(), Rule::Freestyle);
    searcher.skipped[1] = skipped;
    searcher.negamax(&mut b, -100, 100, 4, 1, false);
    assert!(tt.probe(key).is_none(), "the test wrote the node's entry");
    // The same search outside a test does store it.
    let mut searcher = Searcher::new(&tt, limits(), Rule::Freestyle);
    searcher.negamax(&mut b, -100, 100, 4, 1, false);
    assert!(tt.probe(key).is_some());
}
