use super::*;

fn one(line: &str) -> Command {
    Parser::new().feed(line).expect("a command")
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
    assert_eq!(
        one("INFO TIMEOUT_TURN 500"),
        Command::Info { key: "timeout_turn".into(), value: "500".into() }
    );
    assert_eq!(
        one("INFO folder C:\\Program Files\\x"),
        Command::Info { key: "folder".into(), value: "C:\\Program Files\\x".into() }
    );
    assert_eq!(one("INFO"), Command::Info { key: "".into(), value: "".into() });
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
    assert_eq!(p.feed("BOARD"), None);
    assert!(p.in_body());
    assert_eq!(p.feed("7,7,1"), None);
    assert_eq!(p.feed(""), None);
    assert_eq!(p.feed("8,8,2"), None);
    assert_eq!(p.feed("9,9,3"), None);
    let cmd = p.feed("done").unwrap();
    let stones = vec![
        Stone { at: c(7, 7), field: 1 },
        Stone { at: c(8, 8), field: 2 },
        Stone { at: c(9, 9), field: 3 },
    ];
    assert_eq!(cmd, Command::Board(Setup { stones, error: None }));
    assert!(!p.in_body());
    assert_eq!(p.feed("BEGIN"), Some(Command::Begin));
}

#[test]
fn board_body_reports_first_bad_line_at_done() {
    let mut p = Parser::new();
    p.feed("BOARD");
    assert_eq!(p.feed("7,7,1"), None);
    assert_eq!(p.feed("7,x,1"), None);
    assert_eq!(p.feed("8,8,5"), None);
    match p.feed("DONE") {
        Some(Command::Board(s)) => {
            assert_eq!(s.stones.len(), 1);
            assert!(s.error.unwrap().contains("7,x,1"));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn end_inside_a_body_still_ends() {
    let mut p = Parser::new();
    p.feed("BOARD");
    p.feed("1,1,1");
    assert_eq!(p.feed("END"), Some(Command::End));
    assert!(!p.in_body());
}

#[test]
fn yxboard_and_swap2board_bodies() {
    let mut p = Parser::new();
    p.feed("YXBOARD");
    p.feed("1,1,1");
    assert!(matches!(p.feed("DONE"), Some(Command::YxBoard(s)) if s.stones.len() == 1));
    p.feed("SWAP2BOARD");
    assert!(matches!(p.feed("DONE"), Some(Command::Swap2(s)) if s.stones.is_empty()));
    p.feed("SWAP2BOARD");
    p.feed("7,7");
    p.feed("8,8,2");
    p.feed("x");
    match p.feed("DONE") {
        Some(Command::Swap2(s)) => {
            assert_eq!(s.stones.len(), 2);
            assert_eq!(s.stones[1].at, c(8, 8));
            assert!(s.error.is_some());
        }
        other => panic!("{other:?}"),
    }
}
