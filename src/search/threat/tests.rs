//! Unit tests of the threat solvers: VCF and VCT proofs and refutations, the cache and the budget.

use super::*;
use crate::rules::renju::ForbiddenPoints;
use crate::search::movepick::legal_for;

/// Plays a proof out and checks that it ends in a five of the side that was to move, every
/// move legal (renju's black never on a forbidden point).
fn assert_proof(b: &Board, proof: &Proof) {
    let mut b = b.clone();
    let attacker = b.side_to_move();
    assert!(!proof.line.is_empty());
    for &p in &proof.line {
        assert!(b.is_empty(p), "occupied point in {:?}", proof.line);
        let mover = b.side_to_move();
        assert!(legal_for(&mut b, p, mover), "forbidden move in the proof");
        b.make(p);
    }
    let last = *proof.line.last().unwrap();
    assert_eq!(b.get(last), Some(attacker), "the proof ends with a defender move");
    assert!(b.is_win_at(last), "the proof does not end in a five:\n{}", b.to_ascii());
}

fn vcf(b: &mut Board) -> Option<Proof> {
    let mut cache = ThreatCache::new(16);
    Solver::vcf(&mut cache, 1_000_000).find_vcf(b)
}

fn vct(b: &mut Board, depth: i32) -> Option<Proof> {
    let mut c1 = ThreatCache::new(16);
    let mut c2 = ThreatCache::new(16);
    Solver::vct(&mut c1, &mut c2, 1_000_000).find_vct(b, depth)
}

// Black to move: a four on the column that is also an open three on row 8 (a four-three),
// then an open four.
const CHAIN: &str = "\
...............
............o..
.............o.
...............
....o..........
....x..........
....x..........
....x..........
.....xx........
...............
...............
...............
............o..
...............
o..............";

#[test]
fn vcf_finds_a_chain_of_fours() {
    let mut b = Board::from_ascii(CHAIN, Rule::Freestyle);
    assert_eq!(b.side_to_move(), Color::Black);
    let before = b.to_ascii();
    let proof = vcf(&mut b).expect("black wins by fours");
    assert_eq!(b.to_ascii(), before, "the solver leaves the board as it found it");
    assert_proof(&b, &proof);
    for (i, &p) in proof.line.iter().enumerate().step_by(2) {
        // Every attacker move of a VCF is a four (or the five).
        let mut replay = b.clone();
        for &q in &proof.line[..i] {
            replay.make(q);
        }
        assert!(replay.class(p, Color::Black) >= Class::Four, "move {i} is not a four");
    }
}

#[test]
fn no_vcf_without_fours() {
    let text = "\
.........
.........
.........
...xo....
....x....
.....o...
.........
.........
.........";
    let mut b = Board::from_ascii(text, Rule::Freestyle);
    assert!(vcf(&mut b).is_none());
    assert!(vct(&mut b, 4).is_none());
}

#[test]
fn a_defender_four_that_blocks_refutes_the_vcf() {
    // White has an open four on row 8; black's only four (column 4) cannot be made while
    // a white five is pending, so there is no continuous-four win.
    let text = "\
...............
...............
...............
...............
....o..........
....x..........
....x..........
....x..........
.oooo..........
...............
...............
...............
...............
.......x.......
........x......";
    let mut b = Board::from_ascii(text, Rule::Freestyle);
    assert_eq!(b.side_to_move(), Color::Black);
    assert!(vcf(&mut b).is_none());
}

#[test]
fn vct_finds_a_double_three() {
    // Black to move makes two open threes at (7,7): no four exists, so only VCT sees it.
    let text = "\
...............
...............
...............
...............
...............
.......x.......
.......x.......
.....xx........
...............
...............
.o...........o.
...............
..o............
...............
.............o.";
    let mut b = Board::from_ascii(text, Rule::Freestyle);
    assert_eq!(b.side_to_move(), Color::Black);
    assert!(vcf(&mut b).is_none());
    let proof = vct(&mut b, 3).expect("black wins by threats");
    assert_proof(&b, &proof);
}

#[test]
fn a_lone_three_is_no_threat_win() {
    // Black can make open threes, one at a time: each is blocked, so there is no proof (only
    // the replies that stop the open four are searched, and they must still be found).
    let text = "\
...............
...............
...............
...............
...............
...............
.......x.......
.......x.......
...............
...............
.o...........o.
...............
..o............
...............
.............o.";
    let mut b = Board::from_ascii(text, Rule::Freestyle);
    assert_eq!(b.side_to_move(), Color::Black);
    assert!(vct(&mut b, 4).is_none());
}

#[test]
fn vct_respects_the_defenders_fours() {
    // As above, but white holds a chain of fours of its own (a VCF ending in a four-four),
    // which answers any open three of black.
    let text = "\
...............
...............
...............
..........o....
..........o....
.......x..o....
.......x.......
.....xx........
...............
...............
......ooo......
...............
...............
...............
...............";
    let mut b = Board::from_ascii(text, Rule::Freestyle);
    assert_eq!(b.side_to_move(), Color::Black);
    let mut after = b.clone();
    after.make(after.pos(7, 7).unwrap());
    assert!(vcf(&mut after).is_some(), "white's open threes give it a VCF after any three");
    assert!(vct(&mut b, 3).is_none(), "black has no four, so no threat is fast enough");
}

#[test]
fn cache_remembers_failures() {
    // Two fours on row 1, each blocked with nothing to follow.
    let text = "\
........o
.oxxx....
.........
.........
o....o...
.....x...
.....x...
.....x...
o.......o";
    let mut b = Board::from_ascii(text, Rule::Freestyle);
    let mut cache = ThreatCache::new(12);
    let mut s = Solver::vcf(&mut cache, 1_000_000);
    assert!(!s.has_vcf(&mut b));
    let first = s.nodes();
    assert!(!s.has_vcf(&mut b));
    assert!(first >= 3, "the first look searches both fours ({first} nodes)");
    assert_eq!(s.nodes() - first, 1, "the second look is one cached node");
    assert!(!s.aborted());
}

#[test]
fn budget_aborts_without_caching() {
    let mut b = Board::from_ascii(CHAIN, Rule::Freestyle);
    let mut cache = ThreatCache::new(12);
    let mut s = Solver::vcf(&mut cache, 2);
    assert!(s.find_vcf(&mut b).is_none());
    assert!(s.aborted());
    let mut s = Solver::vcf(&mut cache, 1_000_000);
    assert!(s.find_vcf(&mut b).is_some(), "an aborted search left no false failure behind");
}

#[test]
fn narrow_vcf_finds_a_local_chain_with_no_more_nodes() {
    let mut b = Board::from_ascii(CHAIN, Rule::Freestyle);
    let mut full_cache = ThreatCache::new(12);
    let mut full = Solver::vcf(&mut full_cache, 1_000_000);
    let full_plies = full.vcf_plies(&mut b, 12).expect("black wins by fours");
    let mut narrow_cache = ThreatCache::new(12);
    let mut narrow = Solver::vcf(&mut narrow_cache, 1_000_000).narrow(1);
    let before = b.to_ascii();
    assert_eq!(narrow.vcf_plies(&mut b, 12), Some(full_plies), "each four follows from the last");
    assert_eq!(b.to_ascii(), before);
    assert!(narrow.nodes() <= full.nodes(), "{} > {}", narrow.nodes(), full.nodes());
    // With no four on the board the narrow solver fails, and not for want of budget.
    let mut quiet =
        Board::from_ascii("..........\n..........\n....x.....\n....o.....\n..........", Rule::Freestyle);
    let mut cache = ThreatCache::new(12);
    let mut s = Solver::vcf(&mut cache, 1_000).narrow(2);
    assert_eq!(s.vcf_plies(&mut quiet, 12), None);
    assert!(!s.aborted());
}

#[test]
fn a_full_line_takes_no_more_moves() {
    let mut line = Line::new();
    for k in 0..MAX_LINE {
        assert!(line.push(Pos(k as u16 + 1)));
    }
    assert!(!line.push(Pos(1)), "past the end");
    assert_eq!(line.as_slice().len(), MAX_LINE);
    line.pop();
    assert!(line.push(Pos(7)));
    assert_eq!(line.as_slice().last(), Some(&Pos(7)));
}

#[test]
fn more_fours_than_the_buffer_still_come_best_first() {
    // Thirty threes on a 32x32 board: over a hundred four points, more than `fours_of`'s
    // buffer holds; its answer must be the first 64 of all of them in order.
    let mut text = String::new();
    for y in 0..32 {
        let row: String = (0..32)
            .map(|x| {
                if y % 2 == 1 && y < 30 && ((2..5).contains(&x) || (18..21).contains(&x)) {
                    'x'
                } else {
                    '.'
                }
            })
            .collect();
        text.push_str(&row);
        text.push('\n');
    }
    let mut b = Board::from_ascii(&text, Rule::Freestyle);
    let count = b.four_point_count(Color::Black);
    assert!(count > 64, "{count} four points");
    let mut all = Vec::new();
    b.for_each_candidate(|p| {
        let c = b.class(p, Color::Black);
        if c >= Class::Four {
            all.push((c, b.point_value(p, Color::Black), p));
        }
    });
    assert_eq!(all.len(), count);
    let mut expected = [Pos::NONE; 64];
    let n = legal_in_order(&mut b, &mut all, Color::Black, &mut expected);
    let mut got = [Pos::NONE; 64];
    assert_eq!(fours_of(&mut b, Color::Black, &mut got), n);
    assert_eq!(got, expected);
    assert_eq!(b.class(got[0], Color::Black), Class::OpenFour);
}

// Renju, black to move (a game against Rapfi, move 27). Black's k5 makes a three on the k
// column whose far end k8 is forbidden to black (a double four with row 8), so black never
// takes it; white still may, and its block there (an open three of its own on the i6-k8
// diagonal besides) wins for white. The solver once listed only the points where black has
// a class, took k5 for a win by threats and played it.
const FORBIDDEN_BLOCK: &str = "\
...............
...............
...............
........x......
........o...o..
........o.xx...
........ooxo...
.......xox.xx..
.......xxxo....
.......o.x.....
.......oxoo....
.......o.......
...............
...............
...............";

#[test]
fn vct_lets_white_block_on_blacks_forbidden_point() {
    let mut b = Board::from_ascii(FORBIDDEN_BLOCK, Rule::Renju);
    assert_eq!(b.side_to_move(), Color::Black);
    let (k5, k8) = (b.pos(10, 4).unwrap(), b.pos(10, 7).unwrap());
    b.make(k5);
    assert!(b.is_forbidden(k8), "k8 is a double four for black");
    assert_eq!(b.class(k8, Color::Black), Class::None);
    b.undo();
    for depth in 1..=8 {
        if let Some(proof) = vct(&mut b, depth) {
            assert_ne!(proof.line[0], k5, "k5 is answered at k8 (depth {depth})");
            assert_proof(&b, &proof);
        }
    }
    // With white's block at k8 listed, black's threat there is no longer a win in itself:
    // after k5 k8 black has no VCF.
    b.make(k5);
    b.make(k8);
    assert!(vcf(&mut b).is_none());
}
