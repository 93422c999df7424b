//! Unit tests of the protocol parser: commands in any case, INFO lines, bodies and what breaks them off.

use super::*;

fn one(line: &str) -> Command {
    let mut cmds = Parser::new().feed(line);
    assert_eq!(cmds.len(), 1, "{line}: {cmds:?}");
    cmds.remove(0)
}

/// Feeds lines that must complete nothing yet.
fn quiet(p: &mut Parser, lines: &[&str]) {
    for line in lines {
        assert_eq!(p.feed(line), [], "{line}");
    }
}

/// The command a line completes, when it completes exactly one.
fn single(p: &mut Parser, line: &str) -> Command {
    let mut cmds = p.feed(line);
    assert_eq!(cmds.len(), 1, "{line}: {cmds:?}");
    cmds.remove(0)
}

fn c(x: i64, y: i64) -> Coord {
    Coord { x, y }
}

#[test]
fn simple_commands_any_case_and_spacing() {
    assert_eq!(one("START 15"), Command::Start { width: 15, height: 15 });
    assert_eq!(one("  start   20  "), Command::Start { width: 20, height: 20 });
    assert_eq!(one("RECTSTART 20,10"), Command::Start { width: 20, height: 10 });
    assert_eq!(one("restart"), Command::Restart);
    assert_eq!(one("Begin"), Command::Begin);
    assert_eq!(one("TURN 7,8"), Command::Turn(c(7, 8)));
    assert_eq!(one("turn 7 , 8"), Command::Turn(c(7, 8)));
    assert_eq!(one("TAKEBACK 1,2"), Command::Takeback(c(1, 2)));
    assert_eq!(one("PLAY 3,4"), Command::Play(c(3, 4)));
    assert_eq!(one("END"), Command::End);
    assert_eq!(one("about"), Command::About);
    assert_eq!(one("YXSTOP"), Command::Stop);
    assert_eq!(one("stop"), Command::Stop);
    assert_eq!(one("yxshowforbid"), Command::ShowForbid);
    assert_eq!(one("YXHASHCLEAR"), Command::HashClear);
    assert_eq!(one("yxshowinfo"), Command::ShowInfo);
    assert_eq!(one("YXNBEST 3"), Command::NBest(3));
    assert!(matches!(one("YXNBEST 0"), Command::Malformed(_)));
    assert_eq!(one("YXBALANCEONE 20"), Command::BalanceOne(20));
    assert_eq!(one("YXBALANCETWO"), Command::BalanceTwo(0));
    assert!(matches!(one("YXBALANCETWO x"), Command::Malformed(_)));
}

#[test]
fn info_keys_are_lowercased_values_kept() {
    use crate::engine::command::{Info, Setting};
    assert_eq!(one("INFO TIMEOUT_TURN 500"), Command::Info(Info::Set(Setting::TurnMs(500))));
    assert_eq!(
        one("INFO folder C:\\Program Files\\x"),
        Command::Info(Info::Set(Setting::Folder("C:\\Program Files\\x".into())))
    );
    assert_eq!(one("INFO"), Command::Info(Info::Ignored));
}

#[test]
fn malformed_arguments_are_errors() {
    for line in [
        "START",
        "START abc",
        "START 99999999999",
        "RECTSTART 20",
        "TURN 7",
        "TURN a,b",
        "TURN 1,2,3",
        "PLAY",
        "TAKEBACK -",
    ] {
        assert!(matches!(one(line), Command::Malformed(_)), "{line}");
    }
    // Negative numbers parse: the engine rejects them as off the board.
    assert_eq!(one("TURN -1,0"), Command::Turn(c(-1, 0)));
}

#[test]
fn unknown_commands() {
    assert!(matches!(one("FOO"), Command::Unknown(_)));
    assert!(matches!(one("HELLO 1 2"), Command::Unknown(_)));
    assert!(matches!(one("7,7"), Command::Unknown(_)));
    let long = "X".repeat(10_000);
    match one(&long) {
        Command::Unknown(why) => assert!(why.len() < 100),
        other => panic!("{other:?}"),
    }
}

#[test]
fn board_body_collects_stones() {
    let mut p = Parser::new();
    quiet(&mut p, &["BOARD"]);
    assert!(p.in_body());
    quiet(&mut p, &["7,7,1", "", "8,8,2", "9,9,3"]);
    let cmd = single(&mut p, "done");
    let stones = vec![
        Stone { at: c(7, 7), field: 1 },
        Stone { at: c(8, 8), field: 2 },
        Stone { at: c(9, 9), field: 3 },
    ];
    assert_eq!(cmd, Command::Board(BoardBody { stones, error: None }));
    assert!(!p.in_body());
    assert_eq!(p.feed("BEGIN"), [Command::Begin]);
}

#[test]
fn board_body_reports_first_bad_line_at_done() {
    let mut p = Parser::new();
    quiet(&mut p, &["BOARD", "7,7,1", "7,x,1", "8,8,5", "DONEX", "done 1"]);
    match single(&mut p, "DONE") {
        Command::Board(s) => {
            assert_eq!(s.stones.len(), 1);
            assert!(s.error.unwrap().contains("7,x,1"));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn done_outside_a_body_is_unknown() {
    assert!(matches!(one("DONE"), Command::Unknown(_)));
}

/// A command line inside a body: the body is refused with one `ERROR`, then the command.
fn broken_by(p: &mut Parser, line: &str) -> Command {
    let mut cmds = p.feed(line);
    assert_eq!(cmds.len(), 2, "{line}: {cmds:?}");
    match cmds.remove(0) {
        Command::Malformed(why) => assert!(why.contains("before DONE"), "{why}"),
        other => panic!("{line}: {other:?}"),
    }
    assert!(!p.in_body());
    cmds.remove(0)
}

#[test]
fn end_inside_a_body_refuses_it_and_still_ends() {
    let mut p = Parser::new();
    quiet(&mut p, &["BOARD", "1,1,1"]);
    assert_eq!(broken_by(&mut p, "END"), Command::End);
}

#[test]
fn a_command_line_breaks_off_every_kind_of_body() {
    for opener in ["BOARD", "yxboard", "Swap2Board"] {
        let mut p = Parser::new();
        quiet(&mut p, &[opener, "7,7,1"]);
        assert_eq!(broken_by(&mut p, "RESTART"), Command::Restart, "{opener}");
        assert_eq!(p.feed("START 15"), [Command::Start { width: 15, height: 15 }]);
    }
}

#[test]
fn every_command_word_breaks_a_body_in_any_case() {
    let lines = [
        "START 15",
        "rectstart 20,10",
        "restart",
        "Begin",
        "TURN 7,7",
        "TURN bad",
        "TAKEBACK 1,1",
        "PLAY 2,2",
        "INFO timeout_turn 5",
        "end",
        "ABOUT",
        "YXSTOP",
        "stop",
        "YXSHOWFORBID",
        "YXHASHCLEAR",
        "YXSHOWINFO",
        "YXNBEST 2",
        "YXBALANCEONE 3",
        "yxbalancetwo",
    ];
    for line in lines {
        let mut p = Parser::new();
        quiet(&mut p, &["BOARD"]);
        let mut expected = Parser::new().feed(line);
        assert_eq!(broken_by(&mut p, line), expected.remove(0), "{line}");
    }
}

#[test]
fn a_board_line_inside_a_body_starts_a_new_body() {
    for opener in ["BOARD", "YXBOARD", "SWAP2BOARD"] {
        let mut p = Parser::new();
        quiet(&mut p, &["YXBOARD", "1,1,1"]);
        match p.feed(opener).as_slice() {
            [Command::Malformed(why)] => assert!(why.starts_with("YXBOARD"), "{why}"),
            other => panic!("{opener}: {other:?}"),
        }
        assert!(p.in_body());
        quiet(&mut p, &["2,2,2"]);
        let stones = match single(&mut p, "DONE") {
            Command::Board(s) | Command::YxBoard(s) | Command::Swap2(s) => s.stones,
            other => panic!("{other:?}"),
        };
        assert_eq!(stones.len(), 1, "{opener}: the new body starts empty");
        assert_eq!(stones[0].at, c(2, 2));
    }
}

#[test]
fn other_words_stay_malformed_stone_lines() {
    let mut p = Parser::new();
    // "7, 8, 2" splits into words too, but its first word is no command: still a stone.
    quiet(&mut p, &["BOARD", "7,7,1", "FOO", "STARTX 15", "7, 8, 2", "7,7", "BEGINNING"]);
    match single(&mut p, "DONE") {
        Command::Board(s) => {
            assert_eq!(s.stones.len(), 2);
            assert!(s.error.unwrap().contains("FOO"));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn yxboard_and_swap2board_bodies() {
    let mut p = Parser::new();
    quiet(&mut p, &["YXBOARD", "1,1,1"]);
    assert!(matches!(single(&mut p, "DONE"), Command::YxBoard(s) if s.stones.len() == 1));
    quiet(&mut p, &["SWAP2BOARD"]);
    assert!(matches!(single(&mut p, "DONE"), Command::Swap2(s) if s.stones.is_empty()));
    quiet(&mut p, &["SWAP2BOARD", "7,7", "8,8,2", "x"]);
    match single(&mut p, "DONE") {
        Command::Swap2(s) => {
            assert_eq!(s.stones.len(), 2);
            assert_eq!(s.stones[1].at, c(8, 8));
            assert!(s.error.is_some());
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn opening_commands_read_rule_count_and_points() {
    use crate::engine::command::OpeningAsk;
    use crate::rules::opening::OpeningRule;
    let mut p = Parser::new();
    quiet(&mut p, &["yxOpeningSwap soosorv8 3", "7,7", "7,6", "9,9,1", "8,8"]);
    match single(&mut p, "done") {
        Command::Opening(req) => {
            assert_eq!(req.ask, OpeningAsk::Swap);
            assert_eq!(req.rule, OpeningRule::Soosorv(8));
            assert_eq!(req.declared, Some(3));
            let points: Vec<Coord> = req.body.stones.iter().map(|s| s.at).collect();
            assert_eq!(points, [c(7, 7), c(7, 6), c(9, 9), c(8, 8)]);
            assert!(req.body.error.is_none());
        }
        other => panic!("{other:?}"),
    }
    for (line, ask, rule) in [
        ("YXOPENINGMOVE TARAGUCHI10", OpeningAsk::Move, OpeningRule::Taraguchi(10)),
        ("YXOPENINGCHOOSE RIF", OpeningAsk::Choose, OpeningRule::FiveTwo),
    ] {
        quiet(&mut p, &[line]);
        assert!(
            matches!(single(&mut p, "DONE"), Command::Opening(r) if r.ask == ask && r.rule == rule && r.declared.is_none()),
            "{line}"
        );
    }
    // A bad line is kept for the engine to refuse at DONE.
    quiet(&mut p, &["YXOPENINGMOVE RIF", "7;7"]);
    assert!(matches!(single(&mut p, "DONE"), Command::Opening(r) if r.body.error.is_some()));
}

#[test]
fn opening_commands_with_bad_arguments_read_their_body_then_refuse() {
    let mut p = Parser::new();
    for (line, why) in [
        ("YXOPENINGSWAP", "needs a rule"),
        ("YXOPENINGSWAP RIF 2 3", "needs a rule"),
        ("YXOPENINGMOVE RENJU", "unknown opening rule 'RENJU'"),
        ("YXOPENINGCHOOSE SOOSORV8 many", "count: 'many' is not a number"),
    ] {
        // The stone lines are swallowed by the body, not answered as unknown commands.
        quiet(&mut p, &[line, "7,7", "8,8"]);
        match single(&mut p, "DONE") {
            Command::Malformed(m) => assert!(m.contains(why), "{line}: {m}"),
            other => panic!("{line}: {other:?}"),
        }
    }
    // A command line breaks an opening body off: its ERROR, then the command.
    quiet(&mut p, &["YXOPENINGSWAP TARAGUCHI10", "7,7"]);
    let cmds = p.feed("ABOUT");
    assert!(
        matches!(&cmds[..], [Command::Malformed(m), Command::About] if m.starts_with("YXOPENINGSWAP ended by ABOUT"))
    );
}
