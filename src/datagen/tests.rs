//! Unit tests of `gen-data`: the file read back (`read_records`), replayed on a board (cells, features, moves, results), determinism by seed,
//! renju legality and the command line.

use super::*;
use crate::eval::{self, net::NO_SHAPE};
use crate::rules::renju::ForbiddenPoints;
use crate::search::movepick::five_point;

fn generated(o: &Options) -> (Vec<u8>, Summary) {
    let mut bytes = Vec::new();
    let summary = generate(o, &mut bytes).expect("generates");
    (bytes, summary)
}

/// The point of record `r`'s move on `b`, a board of the record's size.
fn move_pos(b: &Board, r: &Record) -> Pos {
    b.pos((r.mv % r.width) as i64, (r.mv / r.width) as i64).expect("the move is on the board")
}

fn tiny(rule: Rule, size: usize) -> Options {
    Options {
        games: 2,
        nodes: 500,
        rule,
        size,
        seed: 7,
        random_plies: 4,
        explore: 0,
        first_game: 0,
        ..Options::default()
    }
}

/// Replays the records game by game (a game starts at ply 0) and checks each against the board
/// it describes; returns the number of games and of blocks whose value was checked.
fn replay(o: &Options, records: &[Record]) -> (usize, usize) {
    let (mut games, mut blocks) = (0, 0);
    let mut board = Board::new(o.size, o.size, o.rule);
    let mut game_result: Option<i8> = None; // black's result in the current game
    let mut blocked: Option<i16> = None; // the value of a block of a five just played
    for r in records {
        if r.ply == 0 {
            games += 1;
            board = Board::new(o.size, o.size, o.rule);
            game_result = None;
            blocked = None;
        }
        // The block of a five is played unsearched; it takes the next searched value, negated.
        if let Some(v) = blocked.take().filter(|_| r.flags & FLAG_RANDOM == 0) {
            assert_eq!(r.value, -v, "the block before ply {} took its value", r.ply);
            blocks += 1;
        }
        assert_eq!((r.rule, r.width, r.height), (o.rule.info_value() as u8, o.size, o.size));
        assert_eq!(r.ply, board.stone_count(), "records of a game follow each other");
        assert_eq!(r.to_move, if r.ply % 2 == 0 { 1 } else { 2 }, "black moves first");
        let black_result = if r.to_move == 1 { r.result } else { -r.result };
        assert!((-1..=1).contains(&r.result));
        assert_eq!(*game_result.get_or_insert(black_result), black_result, "one result per game");
        if r.flags & FLAG_RANDOM != 0 {
            assert_eq!(r.value, 0, "a random move has no value");
        }
        if r.flags & FLAG_PROVED != 0 {
            assert_eq!(i32::from(r.value).abs(), VALUE_LIMIT);
        }
        assert!(i32::from(r.value).abs() <= VALUE_LIMIT);
        let mut stones = 0;
        for y in 0..o.size {
            for x in 0..o.size {
                let i = y * o.size + x;
                let p = board.pos(x as i64, y as i64).expect("on board");
                let cell = match board.get(p) {
                    None => 0,
                    Some(Color::Black) => 1,
                    Some(Color::White) => 2,
                };
                assert_eq!(r.cells[i], cell, "cell {x},{y} at ply {}", r.ply);
                stones += (cell != 0) as usize;
                if cell == 0 {
                    for (k, c) in [Color::Black, Color::White].into_iter().enumerate() {
                        let f = r.features[i][k];
                        assert!((f as usize) < SHAPE_COUNT);
                        let shape = board.shape(p, c);
                        if shape == NO_SHAPE {
                            assert_eq!(
                                (o.rule, c),
                                (Rule::Renju, Color::Black),
                                "only renju black lacks shapes"
                            );
                            assert_eq!(f as usize, eval::shape(&board.patterns(p, c)));
                        } else {
                            assert_eq!(f, shape, "feature of {x},{y} at ply {}", r.ply);
                        }
                    }
                } else {
                    assert_eq!(r.features[i], [0, 0], "occupied points have no features");
                }
            }
        }
        assert_eq!(stones, r.ply);
        let p = move_pos(&board, r);
        assert!(board.is_empty(p), "the move is on an empty cell");
        if r.to_move == 1 {
            assert!(!board.is_forbidden(p), "black never plays a forbidden point");
        }
        let us = board.side_to_move();
        if r.flags & FLAG_RANDOM == 0
            && five_point(&board, us).is_none()
            && five_point(&board, us.opp()).is_some()
        {
            blocked = Some(r.value);
        }
        board.make(p);
    }
    (games, blocks)
}

#[test]
fn a_tiny_run_reads_back_and_replays() {
    let o = tiny(Rule::Freestyle, 9);
    let (bytes, summary) = generated(&o);
    let (shape_count, records) = read_records(&bytes).expect("a GRN1 file");
    assert_eq!(shape_count as usize, SHAPE_COUNT);
    assert_eq!(bytes.len(), 8 + records.len() * record_size(9, 9));
    assert_eq!(summary.records, records.len() as u64);
    assert_eq!(summary.games, 2);
    let (games, blocks) = replay(&o, &records);
    assert_eq!(games, 2);
    assert!(blocks > 0, "no forced block to check");
    // The random plies are flagged, the searched moves are not.
    assert!(records.iter().all(|r| (r.flags & FLAG_RANDOM != 0) == (r.ply < o.random_plies)));
    // A game that ends in a five: its last move makes it, and the mover is the winner.
    for (i, r) in records.iter().enumerate() {
        let last = records.get(i + 1).is_none_or(|n| n.ply == 0);
        if last && r.result != 0 {
            assert_eq!(r.result, 1, "the last mover won");
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_bytes() {
    let o = tiny(Rule::Freestyle, 9);
    let (a, _) = generated(&o);
    let (b, _) = generated(&o);
    assert_eq!(a, b);
    let (c, _) = generated(&Options { seed: 8, ..o });
    assert_ne!(a, c, "another seed, other games");
}

#[test]
fn a_net_searches_the_games_it_is_given() {
    let net = gnn::select::built_in(Rule::Freestyle, 15, 15).expect("a built-in freestyle 15x15 net");
    let o = Options { games: 3, ..tiny(Rule::Freestyle, 15) };
    let (classic, _) = generated(&o);
    let with_net = Options { net: Some(net.clone()), ..o.clone() };
    let (bytes, summary) = generated(&with_net);
    assert_eq!(generated(&with_net).0, bytes, "a net's games are as reproducible as the classic ones");
    assert_ne!(bytes, classic, "the net's search chose other moves or values");
    let (_, records) = read_records(&bytes).expect("a GRN1 file");
    assert_eq!(summary.records, records.len() as u64);
    assert_eq!(replay(&with_net, &records).0, 3);
    // The first searched position of each game (its table starts empty there, after random
    // plies only) searched again with the net gives the record's move and value.
    let mut checked = 0;
    let mut b = Board::new(o.size, o.size, o.rule);
    for r in records.iter().filter(|r| r.flags & FLAG_SIDE == 0) {
        if r.ply == 0 {
            b = Board::new(o.size, o.size, o.rule);
            b.set_net(Some(net.clone()));
        }
        if r.ply == o.random_plies && r.flags & FLAG_RANDOM == 0 {
            let mut tt = Tt::new(HASH_BYTES);
            let c = searched_move(&mut b, &mut tt, o.nodes).expect("a move");
            if !c.forced {
                assert_eq!((c.value as i16, c.pos), (r.value, move_pos(&b, r)), "ply {}", r.ply);
                checked += 1;
            }
        }
        b.make(move_pos(&b, r));
    }
    assert!(checked > 0, "some first searched position was checked");
}

#[test]
fn slices_of_games_concatenate_to_one_run() {
    let o = Options { games: 3, ..tiny(Rule::Freestyle, 9) };
    let (whole, _) = generated(&o);
    let (first, _) = generated(&Options { games: 1, ..o.clone() });
    let (rest, summary) = generated(&Options { games: 2, first_game: 1, ..o });
    assert_eq!(summary.games, 2);
    assert!(first.len() > 8 && rest.len() > 8, "every slice has records");
    assert_eq!([&first[..], &rest[8..]].concat(), whole, "headers but the first dropped");
}

#[test]
fn side_records_follow_their_game_and_leave_it_unchanged() {
    let o = Options { games: 3, explore: 10, ..tiny(Rule::Renju, 11) };
    let (plain, _) = generated(&o);
    let (_, plain) = read_records(&plain).expect("a GRN1 file");
    let (bytes, summary) = generated(&Options { side: 2, side_nodes: 300, ..o.clone() });
    let (_, records) = read_records(&bytes).expect("a GRN1 file");
    assert_eq!(summary.records, records.len() as u64);
    let (side, game): (Vec<&Record>, Vec<&Record>) = records.iter().partition(|r| r.flags & FLAG_SIDE != 0);
    assert!(side.len() > plain.len() / 2, "{} side records for {} positions", side.len(), plain.len());
    // The games are the same records as without side records, in the same order.
    assert_eq!(game.len(), plain.len());
    for (a, b) in game.iter().zip(&plain) {
        assert_eq!(
            (a.ply, a.mv, a.value, a.result, a.flags, &a.cells),
            (b.ply, b.mv, b.value, b.result, b.flags, &b.cells)
        );
    }
    // Each game's side records come after its last record, each is one of its searched
    // positions with another legal move than the one played, and searched from there.
    let mut start = 0;
    let mut rest = &records[..];
    while !rest.is_empty() {
        let len = rest
            .iter()
            .skip(1)
            .position(|r| r.ply == 0 && r.flags & FLAG_SIDE == 0)
            .map_or(rest.len(), |i| i + 1);
        let (this, next) = rest.split_at(len);
        let own: Vec<&Record> = this.iter().filter(|r| r.flags & FLAG_SIDE == 0).collect();
        let first_side = this.iter().position(|r| r.flags & FLAG_SIDE != 0).unwrap_or(this.len());
        assert!(this[first_side..].iter().all(|r| r.flags & FLAG_SIDE != 0), "side records last");
        for r in &this[first_side..] {
            let from = own
                .iter()
                .find(|g| g.ply + 1 == r.ply && g.flags & FLAG_RANDOM == 0 && differs_by_one_stone(g, r))
                .unwrap_or_else(|| {
                    panic!("side record at ply {} has no game position one stone before", r.ply)
                });
            let stone = (0..r.cells.len()).find(|&i| from.cells[i] != r.cells[i]).expect("one stone");
            assert_ne!(stone, from.mv, "a side record plays another move than the game");
            assert_eq!(r.cells[stone], from.to_move, "played by the side to move");
            assert_eq!(r.cells[r.mv], 0, "its move is on an empty point");
            assert_eq!(r.result, 0);
            assert_eq!(r.flags & FLAG_RANDOM, 0);
            assert!(i32::from(r.value).abs() <= VALUE_LIMIT);
            if r.flags & FLAG_PROVED != 0 {
                assert_eq!(i32::from(r.value).abs(), VALUE_LIMIT);
            }
            // Black's stone in renju is on a point legal for black.
            let mut b = from.board().expect("a record's board");
            let p = b.pos((stone % o.size) as i64, (stone / o.size) as i64).expect("on board");
            assert!(is_legal(&mut b, p), "a legal side move");
        }
        start += len;
        rest = next;
    }
    assert_eq!(start, records.len());
}

fn differs_by_one_stone(a: &Record, b: &Record) -> bool {
    a.cells.iter().zip(&b.cells).filter(|(x, y)| x != y).count() == 1
        && a.cells.iter().zip(&b.cells).all(|(&x, &y)| x == y || x == 0)
}

#[test]
fn renju_black_never_plays_a_forbidden_point() {
    let o = Options { games: 3, explore: 30, ..tiny(Rule::Renju, 11) };
    let (bytes, _) = generated(&o);
    let (_, records) = read_records(&bytes).expect("a GRN1 file");
    assert_eq!(replay(&o, &records).0, 3);
}

#[test]
fn exploration_flags_random_moves() {
    let o = Options { explore: 100, ..tiny(Rule::Standard, 9) };
    let (bytes, summary) = generated(&o);
    let (_, records) = read_records(&bytes).expect("a GRN1 file");
    assert!(records.iter().all(|r| r.flags == FLAG_RANDOM && r.value == 0));
    assert_eq!(replay(&o, &records).0, 2);
    assert_eq!(summary.black + summary.white + summary.draws, 2);
}

#[test]
fn renju_draws_with_few_empty_points_left() {
    // 5x5 renju: 25 empty points at the start, already the referee's draw.
    let o = tiny(Rule::Renju, 5);
    let (bytes, summary) = generated(&o);
    assert_eq!(bytes.len(), 8);
    assert_eq!(summary.draws, 2);
}

#[test]
fn the_command_line_is_checked() {
    let args = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
    let (out, o) = parse_args(&args(
        "--out f.bin --games 3 --nodes 100 --rule 4 --size 20 --seed 9 --random-plies 2 --explore 5 --first-game 6 \
         --side 3 --side-nodes 700",
    ))
    .expect("valid");
    assert_eq!(out, "f.bin");
    assert_eq!(
        (
            o.games,
            o.nodes,
            o.rule,
            o.size,
            o.seed,
            o.random_plies,
            o.explore,
            o.first_game,
            o.side,
            o.side_nodes
        ),
        (3, 100, Rule::Renju, 20, 9, 2, 5, 6, 3, 700)
    );
    let (_, o) = parse_args(&args("--out f.bin")).expect("defaults");
    assert_eq!(
        (o.games, o.nodes, o.rule, o.size, o.random_plies, o.explore, o.first_game),
        (100, 20_000, Rule::Freestyle, 15, 4, 0, 0)
    );
    assert_eq!((o.side, o.side_nodes), (0, 2_000));
    assert!(o.net.is_none(), "the classic evaluation by default");
    let net = format!("{}/src/eval/nets/freestyle15.gnn1", env!("CARGO_MANIFEST_DIR"));
    let (_, o) = parse_args(&args(&format!("--out f.bin --net {net}"))).expect("a net file");
    assert_eq!(o.net.as_deref(), gnn::select::built_in(Rule::Freestyle, 15, 15).as_deref());
    for bad in [
        "--games 3",
        "--out f --rule 2",
        "--out f --size 4",
        "--out f --size 33",
        "--out f --explore 101",
        "--out f --games",
        "--out f --depth 3",
        "--out f --nodes x",
        "--out f --first-game -1",
        "--out f --side x",
        "--out f --net /nonexistent/net.gnn1",
        "--out f --net Cargo.toml",
    ] {
        assert!(parse_args(&args(bad)).is_err(), "{bad}");
    }
    // --help answers with the usage and writes no file, wherever it stands.
    assert!(run(&args("--help")).is_ok());
    assert!(run(&args("--out /nonexistent/dir/f.bin -h")).is_ok());
    assert!(USAGE.contains("--out FILE"));
}

#[test]
fn a_point_renju_forbids_by_its_patterns_gets_the_rank_of_its_patterns() {
    let mut text = String::from("x x x . x x . . .\n");
    text.push_str(&". . . . . . . . .\n".repeat(3));
    text.push_str("o . o . o . o . o\n");
    text.push_str(&". . . . . . . . .\n".repeat(4));
    let b = Board::from_ascii(&text, Rule::Renju);
    let p = b.pos(3, 0).expect("on board");
    assert_eq!(b.shape(p, Color::Black), NO_SHAPE, "an overline point has no shape for black");
    let f = b.feature(p, Color::Black);
    assert_eq!(f as usize, eval::shape(&b.patterns(p, Color::Black)));
    assert!((f as usize) < SHAPE_COUNT);
    assert_eq!(b.feature(p, Color::White), b.shape(p, Color::White));
}

#[test]
fn the_nets_inputs_of_a_live_board_are_its_records() {
    // Five stones each, black to move, and in renju a point without a shape for black (the
    // overline point at x = 3 on the top row).
    let text = "\
        x x x . x x . . .\n\
        . o o . . . . . .\n\
        . . o . o . . . .\n\
        . . . o . . . . .\n\
        . . . . . . . . .\n\
        . . . . . . . . .\n\
        . . . . . . . . .\n\
        . . . . . . . . .\n\
        . . . . . . . . .\n";
    for rule in [Rule::Renju, Rule::Freestyle] {
        let b = Board::from_ascii(text, rule);
        assert_eq!(b.side_to_move(), Color::Black);
        let mut bytes = Vec::new();
        let p = b.pos(8, 8).expect("on board");
        write_record(&b, p, 0, 0, &mut bytes);
        let mut file = b"GRN1".to_vec();
        file.extend_from_slice(&1u16.to_le_bytes());
        file.extend_from_slice(&(SHAPE_COUNT as u16).to_le_bytes());
        file.extend(bytes);
        let (_, records) = read_records(&file).expect("a GRN1 file");
        let r = &records[0];
        let live = gnn_points(&b);
        assert_eq!(live, r.points());
        assert_eq!(live.len(), 81);
        let own = live.iter().filter(|&&q| q == gnn::Point::OwnStone).count();
        let opp = live.iter().filter(|&&q| q == gnn::Point::OppStone).count();
        assert_eq!((own, opp), (5, 5));
        for q in &live {
            if let gnn::Point::Empty { own, opp } = *q {
                assert!((own as usize) < SHAPE_COUNT && (opp as usize) < SHAPE_COUNT);
            }
        }
    }
}

#[test]
fn static_evals_are_the_classic_evaluation_of_each_record() {
    let o = tiny(Rule::Renju, 9);
    let (bytes, _) = generated(&o);
    let (_, records) = read_records(&bytes).expect("reads");
    let values = static_evals(&records).expect("every record has a board");
    assert_eq!(values.len(), records.len());
    // Replaying the game gives the same positions: their classic values, in order.
    let mut b = Board::new(9, 9, Rule::Renju);
    b.set_net(None);
    for (i, r) in records.iter().enumerate() {
        if r.ply == 0 {
            b = Board::new(9, 9, Rule::Renju);
            b.set_net(None);
        }
        assert_eq!(b.stone_count(), r.ply, "record {i}");
        assert_eq!(i32::from(values[i]), b.evaluate().clamp(-32768, 32767), "record {i}");
        b.make(move_pos(&b, r));
    }
    assert!(values.iter().any(|&v| v != 0));
    let mut bad = records;
    bad[0].rule = 3;
    assert!(static_evals(&bad).is_err());
}

#[test]
fn features_are_filled_in_from_the_cells_alone() {
    for (rule, size) in [(Rule::Freestyle, 11), (Rule::Renju, 9)] {
        let o = tiny(rule, size);
        let (bytes, _) = generated(&o);
        // What a writer outside the engine leaves: every feature 0, the rest of the record kept.
        let mut blank = bytes.clone();
        let (cells, record) = (size * size, record_size(size, size));
        let mut at = 8;
        while at < blank.len() {
            blank[at + RECORD_HEAD + cells..at + record].fill(0);
            at += record;
        }
        assert_ne!(blank, bytes, "{rule:?}: the records have features to fill in");
        assert_eq!(with_features(&blank).expect("reads"), bytes, "{rule:?}: gen-data's own features");
    }
    assert!(with_features(b"GRN1").is_err());
}
