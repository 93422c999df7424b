//! Draws the board: column labels above and below, row labels on both sides, `X`/`O` stones,
//! the last move in brackets, and ANSI colours only when asked for.

use super::game::{symbol, Game, Point, MAX_LETTER_COLUMNS};
use crate::types::Color;
use std::io::IsTerminal;

const RESET: &str = "\x1b[0m";
const BLACK_STONE: &str = "\x1b[1;31m";
const WHITE_STONE: &str = "\x1b[1;36m";
const LAST_MARK: &str = "\x1b[1;33m";
const EMPTY_POINT: &str = "\x1b[2m";

/// Whether to colour: `--no-color` always wins, `--color` forces colours, otherwise colours
/// only on a terminal with `NO_COLOR` unset or empty (no-color.org).
pub fn use_color(force_on: bool, force_off: bool) -> bool {
    if force_off {
        return false;
    }
    if force_on {
        return true;
    }
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    !no_color && std::io::stdout().is_terminal()
}

/// The board as text, one line per row plus the two label lines, each ending in `\n`.
pub fn board(game: &Game, color: bool) -> String {
    let size = game.size();
    let letters = size <= MAX_LETTER_COLUMNS;
    // Each point takes `cell` characters: room for the brackets of the last move, the symbol.
    let cell = if letters { 2 } else { 3 };
    let label_width = if letters { size.to_string().len() } else { (size - 1).to_string().len() };
    let row_label = |y: usize| if letters { y + 1 } else { y };

    let mut labels = String::new();
    for x in 0..size {
        let name = if letters { ((b'a' + x as u8) as char).to_string() } else { x.to_string() };
        labels.push_str(&format!("{name:>cell$}"));
    }
    let label_line = format!("{:label_width$}{labels}\n", "");

    let last = game.last();
    let mut out = label_line.clone();
    for y in 0..size {
        out.push_str(&format!("{:>label_width$}", row_label(y)));
        for x in 0..size {
            let p = Point::new(x, y);
            // The cell before the symbol: `]` first if the previous point was the last move,
            // `[` just before the symbol if this one is.
            let mut marks = vec![' '; cell - 1];
            if x > 0 && last == Some(Point::new(x - 1, y)) {
                marks[0] = ']';
            }
            if last == Some(p) {
                marks[cell - 2] = '[';
            }
            for mark in marks {
                push_mark(&mut out, mark, color);
            }
            push_stone(&mut out, game.get(p), color);
        }
        let end = if last == Some(Point::new(size - 1, y)) { ']' } else { ' ' };
        push_mark(&mut out, end, color);
        out.push_str(&format!(" {}\n", row_label(y)));
    }
    out.push_str(&label_line);
    out
}

fn push_mark(out: &mut String, mark: char, color: bool) {
    if color && mark != ' ' {
        out.push_str(&format!("{LAST_MARK}{mark}{RESET}"));
    } else {
        out.push(mark);
    }
}

fn push_stone(out: &mut String, stone: Option<Color>, color: bool) {
    let (ch, code) = match stone {
        Some(c) => (symbol(c), if c == Color::Black { BLACK_STONE } else { WHITE_STONE }),
        None => ('.', EMPTY_POINT),
    };
    if color {
        out.push_str(&format!("{code}{ch}{RESET}"));
    } else {
        out.push(ch);
    }
}

/// A stone symbol, coloured like the board's when colours are on.
pub fn stone(c: Color, color: bool) -> String {
    let mut s = String::new();
    push_stone(&mut s, Some(c), color);
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Rule;

    #[test]
    fn plain_board_with_labels_and_last_move() {
        let mut g = Game::new(5, Rule::Freestyle);
        g.play(Point::new(2, 2));
        g.play(Point::new(4, 0));
        let expected = "  a b c d e\n\
                        1 . . . .[O] 1\n\
                        2 . . . . .  2\n\
                        3 . . X . .  3\n\
                        4 . . . . .  4\n\
                        5 . . . . .  5\n  a b c d e\n";
        assert_eq!(board(&g, false), expected);
        g.play(Point::new(0, 3));
        assert!(board(&g, false).contains("\n4[X]. . . .  4\n"), "{}", board(&g, false));
        assert!(!board(&g, false).contains('\x1b'));
    }

    #[test]
    fn two_digit_rows_align() {
        let g = Game::new(12, Rule::Freestyle);
        let text = board(&g, false);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "   a b c d e f g h i j k l");
        assert_eq!(lines[1], " 1 . . . . . . . . . . . .  1");
        assert_eq!(lines[12], "12 . . . . . . . . . . . .  12");
    }

    #[test]
    fn wide_boards_use_numbers() {
        let mut g = Game::new(28, Rule::Freestyle);
        g.play(Point::new(27, 0));
        let text = board(&g, false);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("    0  1  2"), "{}", lines[0]);
        assert!(lines[0].ends_with("26 27"), "{}", lines[0]);
        assert!(lines[1].starts_with(" 0  .  ."), "{}", lines[1]);
        assert!(lines[1].ends_with(" [X] 0"), "{}", lines[1]);
        g.play(Point::new(3, 1));
        let text = board(&g, false);
        assert!(text.lines().nth(2).unwrap().starts_with(" 1  .  .  . [O] ."), "{text}");
    }

    #[test]
    fn colours_are_ansi() {
        let mut g = Game::new(5, Rule::Freestyle);
        g.play(Point::new(2, 2));
        assert!(board(&g, true).contains('\x1b'));
    }
}
