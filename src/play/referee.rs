//! Judges the game for the terminal: five per rule (the rule definitions come from
//! `crate::types`), full-board draw, and the wording of results.
//!
//! Renju forbidden points are not judged here: the brain reports them (`YXSHOWFORBID`), and the
//! session turns a forbidden black move into a loss.

use super::game::{symbol, Game, Point};
use crate::types::{Color, End};

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Five(Color),
    Forbidden(Color),
    /// A brain answered with an occupied or off-board point (or no move at all).
    IllegalMove(Color, String),
    FullBoard,
}

impl Verdict {
    /// The line announced to the players, e.g. `X wins: five`.
    pub fn announce(&self) -> String {
        match self {
            Verdict::Five(c) => format!("{} wins: five", symbol(*c)),
            Verdict::Forbidden(c) => format!("{} loses: forbidden move (renju)", symbol(*c)),
            Verdict::IllegalMove(c, what) => format!("{} loses: illegal move ({what})", symbol(*c)),
            Verdict::FullBoard => "draw: full board".to_string(),
        }
    }

    /// The winner, if any.
    pub fn winner(&self) -> Option<Color> {
        match self {
            Verdict::Five(c) => Some(*c),
            Verdict::Forbidden(c) | Verdict::IllegalMove(c, _) => Some(c.opp()),
            Verdict::FullBoard => None,
        }
    }
}

const DIRECTIONS: [(i64, i64); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// Judges the position after the stone at `last` was played.
pub fn judge(game: &Game, last: Point) -> Option<Verdict> {
    let color = game.get(last)?;
    let rule = game.rule().five_rule(color);
    let wins = DIRECTIONS.iter().any(|&(dx, dy)| {
        let (len, ends) = run_through(game, last, color, dx, dy);
        rule.is_five(len, ends)
    });
    if wins {
        Some(Verdict::Five(color))
    } else if game.is_full() {
        Some(Verdict::FullBoard)
    } else {
        None
    }
}

/// Length of the run of `color` through `p` along (dx, dy), and what lies beyond each end.
fn run_through(game: &Game, p: Point, color: Color, dx: i64, dy: i64) -> (usize, (End, End)) {
    let mut len = 1;
    let mut ends = [End::Open, End::Open];
    for (i, sign) in [1i64, -1].into_iter().enumerate() {
        let (mut x, mut y) = (p.x as i64, p.y as i64);
        loop {
            x += sign * dx;
            y += sign * dy;
            if !game.contains(x, y) {
                break;
            }
            match game.get(Point::new(x as usize, y as usize)) {
                Some(c) if c == color => len += 1,
                Some(_) => {
                    ends[i] = End::Opponent;
                    break;
                }
                None => break,
            }
        }
    }
    (len, (ends[0], ends[1]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Rule;

    /// Plays an ASCII board (`X`, `O`, `.`) move by move, black and white alternating, with
    /// `last` (an `X` or `O` point) played last; returns the judgement after it.
    fn judge_board(rule: Rule, rows: &[&str], last: (usize, usize)) -> Option<Verdict> {
        let size = rows.len();
        let mut black = Vec::new();
        let mut white = Vec::new();
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().filter(|c| !c.is_whitespace()).enumerate() {
                let p = Point::new(x, y);
                if p == Point::new(last.0, last.1) {
                    continue;
                }
                match ch {
                    'X' => black.push(p),
                    'O' => white.push(p),
                    _ => {}
                }
            }
        }
        let last_char = rows[last.1].chars().filter(|c| !c.is_whitespace()).nth(last.0).unwrap();
        if last_char == 'X' {
            black.push(Point::new(last.0, last.1));
        } else {
            white.push(Point::new(last.0, last.1));
        }
        let mut g = Game::new(size, rule);
        let (mut b, mut w) = (black.into_iter(), white.into_iter());
        loop {
            let next = if g.to_move() == Color::Black { b.next() } else { w.next() };
            match next {
                Some(p) => g.play(p),
                None => break,
            }
        }
        judge(&g, Point::new(last.0, last.1))
    }

    const FIVE_ROW: [&str; 7] = [
        ". . . . . . .",
        "O O O O . . .",
        "X X X X X . .",
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
    ];

    #[test]
    fn five_in_a_row_wins_in_every_direction() {
        assert_eq!(judge_board(Rule::Freestyle, &FIVE_ROW, (4, 2)), Some(Verdict::Five(Color::Black)));
        assert_eq!(judge_board(Rule::Freestyle, &FIVE_ROW, (0, 2)), Some(Verdict::Five(Color::Black)));
        let column = [
            "X O . . . . .",
            "X O . . . . .",
            "X O . . . . .",
            "X O . . . . .",
            "X . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
        ];
        assert_eq!(judge_board(Rule::Freestyle, &column, (0, 4)), Some(Verdict::Five(Color::Black)));
        let diagonal = [
            "X O . . . . .",
            ". X O . . . .",
            ". . X O . . .",
            ". . . X O . .",
            ". . . . X . .",
            ". . . . . . .",
            ". . . . . . .",
        ];
        assert_eq!(judge_board(Rule::Freestyle, &diagonal, (2, 2)), Some(Verdict::Five(Color::Black)));
        let anti = [
            ". . . . . . X",
            ". . . . . X O",
            ". . . . X O .",
            ". . . X O . .",
            ". . X O . . .",
            ". . . . . . .",
            ". . . . . . .",
        ];
        assert_eq!(judge_board(Rule::Freestyle, &anti, (6, 0)), Some(Verdict::Five(Color::Black)));
    }

    #[test]
    fn four_does_not_win() {
        assert_eq!(judge_board(Rule::Freestyle, &FIVE_ROW, (3, 1)), None);
    }

    const OVERLINE: [&str; 7] = [
        ". . . . . . .",
        "O O O O O . .",
        "X X X X X X .",
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
    ];

    #[test]
    fn overline_per_rule() {
        // Only the black stone played last is judged; white's row is there to balance counts.
        assert_eq!(judge_board(Rule::Freestyle, &OVERLINE, (5, 2)), Some(Verdict::Five(Color::Black)));
        assert_eq!(judge_board(Rule::Standard, &OVERLINE, (5, 2)), None);
        assert_eq!(judge_board(Rule::Renju, &OVERLINE, (5, 2)), None);
        assert_eq!(judge_board(Rule::CaroOverline, &OVERLINE, (5, 2)), Some(Verdict::Five(Color::Black)));
    }

    #[test]
    fn caro_five_blocked_at_both_ends_does_not_win() {
        let blocked = [
            ". . . . . . .",
            ". . . . . . .",
            "O X X X X X O",
            ". . . . O O .",
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
        ];
        assert_eq!(judge_board(Rule::CaroOverline, &blocked, (3, 2)), None);
        assert_eq!(judge_board(Rule::CaroExact, &blocked, (3, 2)), None);
        assert_eq!(judge_board(Rule::Freestyle, &blocked, (3, 2)), Some(Verdict::Five(Color::Black)));
    }

    #[test]
    fn full_board_is_a_draw() {
        let mut g = Game::new(5, Rule::Freestyle);
        // Columns in pairs of colours so no line of five forms: rows alternate XXOOX / OOXXO...
        let pattern = ["XXOOX", "OOXXO", "XXOOX", "OOXXO", "XOXOX"];
        let mut black = Vec::new();
        let mut white = Vec::new();
        for (y, row) in pattern.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                if ch == 'X' {
                    black.push(Point::new(x, y))
                } else {
                    white.push(Point::new(x, y))
                }
            }
        }
        assert_eq!(black.len(), white.len() + 1);
        let mut last = None;
        for i in 0..25 {
            let p = if i % 2 == 0 { black[i / 2] } else { white[i / 2] };
            g.play(p);
            last = Some(p);
            if i < 24 {
                assert_eq!(judge(&g, p), None, "after {i} moves");
            }
        }
        assert_eq!(judge(&g, last.unwrap()), Some(Verdict::FullBoard));
    }

    #[test]
    fn announcements() {
        assert_eq!(Verdict::Five(Color::Black).announce(), "X wins: five");
        assert_eq!(Verdict::Forbidden(Color::Black).announce(), "X loses: forbidden move (renju)");
        assert_eq!(Verdict::FullBoard.announce(), "draw: full board");
        assert_eq!(Verdict::Forbidden(Color::Black).winner(), Some(Color::White));
    }
}
