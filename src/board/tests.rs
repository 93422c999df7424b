//! Unit tests of the board: make/undo against a rebuild, keys, take-backs, fives per rule, names and candidates.

use super::*;

const RULES: [Rule; 5] = [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::CaroOverline, Rule::CaroExact];

/// Everything incremental, compared with a board rebuilt from the same stones.
fn assert_consistent(b: &Board) {
    let mut fresh = b.clone();
    fresh.rebuild_patterns();
    assert_eq!(b.codes, fresh.codes, "line codes drifted");
    // Occupied points' keys are rebuilt when they are emptied; only empty points must agree.
    for i in 0..b.cells.len() {
        if b.cells[i] == EMPTY {
            assert_eq!(b.keys[i], fresh.keys[i], "pattern keys drifted at {i}");
        }
    }
    assert_eq!(b.totals, fresh.totals, "totals drifted");
    assert_eq!(b.acc, fresh.acc, "net sums drifted");
    assert_eq!(b.class_counts, fresh.class_counts, "class counts drifted");
    assert_eq!(b.five_xor, fresh.five_xor, "five points drifted");
    let mut key = if b.side == Color::White { zobrist::zobrist().white_to_move } else { 0 };
    for p in b.moves() {
        key ^= zobrist::zobrist().stones[b.get(p).unwrap() as usize][p.index()];
    }
    assert_eq!(b.key, key, "zobrist key drifted");
}

fn random_game(b: &mut Board, seed: u64, plies: usize) -> Vec<Pos> {
    let mut state = seed;
    let mut played = Vec::new();
    for _ in 0..plies {
        let mut empties = Vec::new();
        b.for_each_empty(|p| empties.push(p));
        if empties.is_empty() {
            break;
        }
        let p = empties[(splitmix64(&mut state) % empties.len() as u64) as usize];
        b.make(p);
        played.push(p);
    }
    played
}

#[test]
fn make_undo_restores_everything() {
    for (n, &rule) in RULES.iter().enumerate() {
        let mut b = Board::new(15, 15, rule);
        let start = b.clone();
        random_game(&mut b, 7 + n as u64, 120);
        assert_consistent(&b);
        while b.last_move().is_some() {
            b.undo();
        }
        assert_eq!(b.cells, start.cells);
        assert_eq!(b.keys, start.keys, "an empty board has every key up to date");
        assert_eq!(b.totals, start.totals);
        assert_eq!(b.acc, start.acc, "the net sums come back exactly");
        assert_eq!(b.near, start.near);
        assert_eq!(b.key, start.key);
        assert_eq!(b.side, Color::Black);
    }
}

#[test]
fn every_undo_in_a_search_like_walk_restores_its_move() {
    for (n, &rule) in RULES.iter().enumerate() {
        let mut b = Board::new(15, 15, rule);
        random_game(&mut b, 300 + n as u64, 20);
        let mut state = 500 + n as u64;
        // Valued moves below unvalued ones, as the search calls the solvers; each undo must
        // give back the key, the evaluation and every incremental table of before its move.
        let mut stack: Vec<(bool, u64, i32)> = Vec::new();
        for _ in 0..400 {
            let grow = stack.len() < 2 || (stack.len() < 12 && !splitmix64(&mut state).is_multiple_of(3));
            if grow {
                let mut empties = Vec::new();
                b.for_each_candidate(|p| empties.push(p));
                let p = empties[(splitmix64(&mut state) % empties.len() as u64) as usize];
                let valued = stack.iter().all(|s| s.0) && splitmix64(&mut state).is_multiple_of(2);
                let value = if valued { b.evaluate() } else { 0 };
                stack.push((valued, b.key(), value));
                if valued {
                    b.make(p);
                } else {
                    b.make_unvalued(p);
                }
            } else {
                let (valued, key, value) = stack.pop().unwrap();
                if valued {
                    b.undo();
                    assert_consistent(&b);
                    assert_eq!(b.evaluate(), value);
                } else {
                    b.undo_unvalued();
                }
                assert_eq!(b.key(), key);
            }
        }
    }
}

#[test]
fn unvalued_moves_keep_classes_and_leave_the_sums_as_they_were() {
    for (n, &rule) in RULES.iter().enumerate() {
        let mut b = Board::new(15, 15, rule);
        random_game(&mut b, 40 + n as u64, 30);
        let mut before = b.clone();
        let mut empties = Vec::new();
        b.for_each_empty(|p| empties.push(p));
        let mut state = 99 + n as u64;
        for _ in 0..20 {
            let p = empties.swap_remove((splitmix64(&mut state) % empties.len() as u64) as usize);
            b.make_unvalued(p);
            // Classes (what the solvers read) stay up to date; the sums wait.
            let mut fresh = b.clone();
            fresh.rebuild_patterns();
            assert_eq!(b.class_counts, fresh.class_counts, "class counts drifted");
            assert_eq!(b.five_xor, fresh.five_xor, "five points drifted");
            assert_eq!(b.totals, before.totals);
            assert_eq!(b.acc, before.acc);
        }
        for _ in 0..20 {
            b.undo_unvalued();
        }
        assert_consistent(&b);
        assert_eq!(b.evaluate(), before.evaluate());
        assert_eq!(b.key, before.key);
    }
}

#[test]
fn incremental_state_matches_rebuild_on_odd_sizes() {
    for (w, h) in [(5, 5), (32, 32), (20, 10), (7, 31)] {
        let mut b = Board::new(w, h, Rule::Freestyle);
        random_game(&mut b, (w * h) as u64, w * h / 2);
        assert_consistent(&b);
    }
}

#[test]
fn two_move_orders_give_one_key() {
    let mut a = Board::new(15, 15, Rule::Freestyle);
    let mut b = Board::new(15, 15, Rule::Freestyle);
    let p = |b: &Board, x, y| b.pos(x, y).unwrap();
    for (x, y) in [(7, 7), (8, 8), (6, 6), (9, 9)] {
        a.make(p(&a, x, y));
    }
    for (x, y) in [(6, 6), (9, 9), (7, 7), (8, 8)] {
        b.make(p(&b, x, y));
    }
    assert_eq!(a.key(), b.key());
    a.undo();
    assert_ne!(a.key(), b.key());
}

#[test]
fn key_after_names_the_key_the_move_makes() {
    let mut b = Board::new(15, 15, Rule::Renju);
    random_game(&mut b, 7, 20);
    let mut points = Vec::new();
    b.for_each_candidate(|p| points.push(p));
    assert!(!points.is_empty());
    for p in points {
        let predicted = b.key_after(p);
        b.make(p);
        assert_eq!(predicted, b.key(), "{}", b.pos_name(p));
        b.undo();
    }
}

#[test]
fn take_back_any_stone() {
    let mut b = Board::new(15, 15, Rule::Freestyle);
    random_game(&mut b, 99, 30);
    let victim = b.moves().nth(10).unwrap();
    let color = b.get(victim).unwrap();
    assert!(b.take_back(victim));
    assert!(b.is_empty(victim));
    assert_eq!(b.side_to_move(), color);
    assert_eq!(b.moves().len(), 29);
    assert_consistent(&b);
    assert!(!b.take_back(victim));
}

#[test]
fn five_in_every_direction_and_at_edges() {
    // Each line: four black stones and the completing point, in all directions, hugging edges.
    let lines: [(i64, i64, i64, i64); 6] =
        [(0, 0, 1, 0), (10, 14, 1, 0), (0, 0, 0, 1), (14, 10, 0, 1), (0, 0, 1, 1), (14, 0, -1, 1)];
    for rule in RULES {
        for &(x0, y0, dx, dy) in &lines {
            let mut b = Board::new(15, 15, rule);
            for k in 0..4 {
                b.set_side_to_move(Color::Black);
                b.make(b.pos(x0 + k * dx, y0 + k * dy).unwrap());
            }
            let last = b.pos(x0 + 4 * dx, y0 + 4 * dy).unwrap();
            assert!(b.makes_five(last, Color::Black), "{rule:?} {x0},{y0} {dx},{dy}");
            assert_eq!(b.class(last, Color::Black), Class::Five, "{rule:?} {x0},{y0} {dx},{dy}");
            assert!(!b.makes_five(last, Color::White));
        }
    }
}

#[test]
fn overline_and_caro_rules() {
    let six = "......\n\
               xxx.xx\n\
               ......\n\
               ......\n\
               ......\n\
               oooo..";
    for (rule, wins) in [
        (Rule::Freestyle, true),
        (Rule::Standard, false),
        (Rule::Renju, false),
        (Rule::CaroOverline, true),
        (Rule::CaroExact, false),
    ] {
        let b = Board::from_ascii(six, rule);
        let p = b.pos(3, 1).unwrap();
        assert_eq!(b.makes_five(p, Color::Black), wins, "{rule:?}");
        assert_eq!(b.class(p, Color::Black) == Class::Five, wins, "{rule:?}");
    }
    // Renju: white's overline wins.
    let b = Board::from_ascii(&six.replace('x', "w").replace('o', "x").replace('w', "o"), Rule::Renju);
    let p = b.pos(3, 1).unwrap();
    assert!(b.makes_five(p, Color::White));

    let blocked = "..........\n\
                   .oxxxx.o..\n\
                   ..........\n\
                   ..........\n\
                   ..........\n\
                   ..........";
    for (rule, wins) in [(Rule::Freestyle, true), (Rule::CaroOverline, false), (Rule::CaroExact, false)] {
        let b = Board::from_ascii(blocked, rule);
        let p = b.pos(6, 1).unwrap();
        assert_eq!(b.makes_five(p, Color::Black), wins, "{rule:?}");
        assert_eq!(b.class(p, Color::Black) == Class::Five, wins, "{rule:?}");
    }
}

#[test]
fn table_fives_agree_with_direct_scan() {
    for (n, &rule) in RULES.iter().enumerate() {
        for game in 0..20u64 {
            let mut b = Board::new(9, 9, rule);
            random_game(&mut b, 1000 * n as u64 + game, 60);
            let mut empties = Vec::new();
            b.for_each_empty(|p| empties.push(p));
            for p in empties {
                for c in [Color::Black, Color::White] {
                    assert_eq!(
                        b.class(p, c) == Class::Five,
                        b.makes_five(p, c),
                        "{rule:?}\n{}",
                        b.to_ascii()
                    );
                }
            }
        }
    }
}

#[test]
fn ascii_round_trip_and_names() {
    let text = "x....\n.o...\n.....\n.....\n....x\n";
    let b = Board::from_ascii(text, Rule::Freestyle);
    assert_eq!(b.to_ascii(), text);
    assert_eq!(b.side_to_move(), Color::White);
    assert_eq!(b.pos_name(b.pos(7, 7).unwrap_or(Pos::NONE)), b.pos_name(Pos::NONE));
    let big = Board::new(15, 15, Rule::Freestyle);
    assert_eq!(big.pos_name(big.pos(7, 7).unwrap()), "h8");
    assert_eq!(big.pos(15, 0), None);
    assert_eq!(big.pos(-1, 3), None);
    let wide = Board::new(30, 30, Rule::Freestyle);
    assert_eq!(wide.pos_name(wide.pos(27, 3).unwrap()), "27,3");
}

#[test]
fn candidates_are_near_stones() {
    let mut b = Board::new(15, 15, Rule::Freestyle);
    let mut none = 0;
    b.for_each_candidate(|_| none += 1);
    assert_eq!(none, 0);
    b.make(b.pos(0, 0).unwrap());
    let mut cands = Vec::new();
    b.for_each_candidate(|p| cands.push(b.xy(p)));
    assert!(cands.contains(&(2, 2)) && cands.contains(&(3, 0)) && cands.contains(&(3, 3)));
    assert!(!cands.contains(&(3, 1)) && !cands.contains(&(0, 0)));
    assert_eq!(cands.len(), 8 + 3);
}

#[test]
fn a_single_five_point_is_named_without_a_scan() {
    // Black (x, to move) has two five points, b1 and g1; white has two, a2 and f2.
    let mut b =
        Board::from_ascii("..xxxx.\n.oooo..\n.......\n.......\n.......\n.......\n.......", Rule::Freestyle);
    assert_eq!(b.side_to_move(), Color::Black);
    let fives = |b: &Board, c| {
        let mut all = Vec::new();
        b.for_each_candidate(|p| {
            if b.class(p, c) == Class::Five {
                all.push(b.xy(p));
            }
        });
        all
    };
    assert_eq!(fives(&b, Color::Black), vec![(1, 0), (6, 0)]);
    assert_eq!(fives(&b, Color::White), vec![(0, 1), (5, 1)]);
    assert_eq!(b.single_five_point(Color::Black), None, "two five points: the caller scans");
    assert_eq!(b.single_five_point(Color::White), None);
    // Each side blocks one end of the other's four: one five point each, named directly.
    b.make(b.pos(0, 1).unwrap());
    b.make(b.pos(1, 0).unwrap());
    assert_eq!(b.single_five_point(Color::Black).map(|p| b.xy(p)), Some((6, 0)));
    assert_eq!(b.single_five_point(Color::White).map(|p| b.xy(p)), Some((5, 1)));
    assert_consistent(&b);
    b.undo();
    b.undo();
    assert_eq!(b.single_five_point(Color::Black), None);
    assert_consistent(&b);
}

/// A lines net's sums, kept through moves, undos and unvalued moves, are a rebuild's, and its
/// value is the reference forward pass's over the board's line classes.
#[test]
fn a_lines_nets_sums_follow_every_move() {
    use crate::eval::gnn::{self, Point};
    for (n, &rule) in RULES.iter().enumerate() {
        for (dim, size) in [(16, 15), (32, 9)] {
            let net = std::sync::Arc::new(gnn::random_lines_net(dim, 8, 2000, n % 2 == 0, n as u64));
            let mut b = Board::new(size, size, rule);
            b.set_net(Some(net.clone()));
            assert!(b.net().is_some());
            let mut state = 70 + n as u64;
            let mut depth = 0;
            for step in 0..300 {
                let mut empties = Vec::new();
                b.for_each_empty(|p| empties.push(p));
                let grow = depth < 3 || (depth < 40 && !splitmix64(&mut state).is_multiple_of(3));
                if grow && !empties.is_empty() {
                    let p = empties[(splitmix64(&mut state) % empties.len() as u64) as usize];
                    if splitmix64(&mut state).is_multiple_of(4) {
                        // An unvalued move and its undo leave the sums as they were.
                        b.make_unvalued(p);
                        b.undo_unvalued();
                    }
                    b.make(p);
                    depth += 1;
                } else if depth > 0 {
                    b.undo();
                    depth -= 1;
                }
                let value = b.evaluate();
                let mut fresh = b.clone();
                fresh.rebuild_patterns();
                fresh.gnn_flush();
                assert_eq!(b.gnn_sums, fresh.gnn_sums, "{rule:?} D {dim} step {step}: sums drifted");
                let me = b.side_to_move();
                let mut points = Vec::new();
                for y in 0..size {
                    for x in 0..size {
                        let q = b.pos(x as i64, y as i64).expect("on board");
                        points.push(match b.get(q) {
                            None => Point::Lines(b.line_classes(q, me)),
                            Some(c) if c == me => Point::OwnStone,
                            Some(_) => Point::OppStone,
                        });
                    }
                }
                let logit = net.forward(&points).expect("classes in range").value;
                let expect = ((i64::from(logit) * i64::from(gnn::VALUE_UNITS)) >> net.q_act) as i32;
                let classic = if net.residual { b.classic_value() } else { 0 };
                assert_eq!(value, classic + expect, "{rule:?} D {dim} step {step}");
            }
        }
    }
}

/// A net switched on with stones on the board holds after the moves made before it are taken
/// back: the sums an undo restores are the new net's, as a board built with it has them.
#[test]
fn a_net_switched_mid_game_survives_undoing_earlier_moves() {
    use crate::eval::gnn::{self, select};
    let net = std::sync::Arc::new(
        gnn::Gnn::from_bytes(select::built_in_bytes().next().expect("a net")).expect("net"),
    );
    let mut b = Board::new(15, 15, Rule::Freestyle);
    for (x, y) in [(7, 7), (8, 8), (7, 8), (6, 6), (9, 7)] {
        b.make(b.pos(x, y).expect("on board"));
    }
    b.set_net(Some(net.clone()));
    b.undo();
    b.undo();
    let mut fresh = Board::new(15, 15, Rule::Freestyle);
    fresh.set_net(Some(net));
    for (x, y) in [(7, 7), (8, 8), (7, 8)] {
        fresh.make(fresh.pos(x, y).expect("on board"));
    }
    assert_eq!(b.evaluate(), fresh.evaluate());
    b.set_net(None);
    b.undo();
    fresh.set_net(None);
    fresh.undo();
    assert_eq!(b.evaluate(), fresh.evaluate());
}
