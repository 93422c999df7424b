//! The play mode's own record of the game: stones, move order and the side to move.
//!
//! The brain keeps its own board; this record is what the terminal shows, what `undo` pops and
//! what the referee judges, so a brain that misbehaves cannot corrupt the game.

use crate::types::{Color, Rule};

/// Widest board whose columns are named by one letter (`a`..`z`); wider boards use `x,y`.
pub const MAX_LETTER_COLUMNS: usize = 26;

/// A point on the board: x = column from the left, y = row from the top, both 0-based.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Point {
    pub x: usize,
    pub y: usize,
}

impl Point {
    pub fn new(x: usize, y: usize) -> Point {
        Point { x, y }
    }

    /// The protocol form, `x,y`.
    pub fn protocol(self) -> String {
        format!("{},{}", self.x, self.y)
    }
}

/// How points are written for people: `h8` (letter = column, number = row from 1 at the top,
/// as in Gorin's PVs) on boards up to 26 wide, `x,y` beyond.
pub fn point_name(size: usize, p: Point) -> String {
    if size <= MAX_LETTER_COLUMNS {
        format!("{}{}", (b'a' + p.x as u8) as char, p.y + 1)
    } else {
        p.protocol()
    }
}

/// The game as played so far.
#[derive(Clone, Debug)]
pub struct Game {
    size: usize,
    rule: Rule,
    cells: Vec<Option<Color>>,
    moves: Vec<Point>,
}

impl Game {
    pub fn new(size: usize, rule: Rule) -> Game {
        Game { size, rule, cells: vec![None; size * size], moves: Vec::new() }
    }

    pub fn size(&self) -> usize {
        self.size
    }

    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// Moves in the order played; black's first.
    pub fn moves(&self) -> &[Point] {
        &self.moves
    }

    pub fn last(&self) -> Option<Point> {
        self.moves.last().copied()
    }

    /// Black moves first, then the colours alternate.
    pub fn to_move(&self) -> Color {
        if self.moves.len().is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        }
    }

    pub fn contains(&self, x: i64, y: i64) -> bool {
        (0..self.size as i64).contains(&x) && (0..self.size as i64).contains(&y)
    }

    pub fn get(&self, p: Point) -> Option<Color> {
        self.cells[p.y * self.size + p.x]
    }

    pub fn is_full(&self) -> bool {
        self.moves.len() == self.cells.len()
    }

    /// Places a stone of the side to move; the caller has checked the point is free.
    pub fn play(&mut self, p: Point) {
        debug_assert!(self.get(p).is_none(), "play on a taken point");
        self.cells[p.y * self.size + p.x] = Some(self.to_move());
        self.moves.push(p);
    }

    /// Removes the last stone; `None` on an empty board.
    pub fn undo(&mut self) -> Option<Point> {
        let p = self.moves.pop()?;
        self.cells[p.y * self.size + p.x] = None;
        Some(p)
    }

    pub fn name(&self, p: Point) -> String {
        point_name(self.size, p)
    }
}

/// Human-readable colour as it appears on the board.
pub fn symbol(c: Color) -> char {
    match c {
        Color::Black => 'X',
        Color::White => 'O',
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn play_and_undo_alternate_colours() {
        let mut g = Game::new(15, Rule::Freestyle);
        assert_eq!(g.to_move(), Color::Black);
        g.play(Point::new(7, 7));
        g.play(Point::new(8, 7));
        assert_eq!(g.get(Point::new(7, 7)), Some(Color::Black));
        assert_eq!(g.get(Point::new(8, 7)), Some(Color::White));
        assert_eq!(g.undo(), Some(Point::new(8, 7)));
        assert_eq!(g.get(Point::new(8, 7)), None);
        assert_eq!(g.to_move(), Color::White);
        assert_eq!(g.last(), Some(Point::new(7, 7)));
    }

    #[test]
    fn names_follow_gorin_pv_notation() {
        assert_eq!(point_name(15, Point::new(7, 7)), "h8");
        assert_eq!(point_name(15, Point::new(0, 14)), "a15");
        assert_eq!(point_name(30, Point::new(27, 3)), "27,3");
    }
}
