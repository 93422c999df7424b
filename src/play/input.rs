//! What a player types: a move (`h8`, `H8`, `7,7`) or a command word. Pure parsing; every
//! error is a one-line message meant for the player.

use super::game::{Game, Point, MAX_LETTER_COLUMNS};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    Move(Point),
    Undo,
    Hint,
    /// Review the game so far.
    Review,
    New,
    Quit,
    Help,
    /// Print the board again.
    Board,
    /// An empty line.
    Nothing,
}

/// The command words, as listed in help and error messages.
pub const COMMANDS: &str = "undo, hint, review, new, board, help, quit";

/// Parses one line against the current board (moves must be on it and free).
pub fn parse(line: &str, game: &Game) -> Result<Input, String> {
    let text = line.trim().to_ascii_lowercase();
    let word = match text.as_str() {
        "" => return Ok(Input::Nothing),
        "undo" | "u" | "takeback" => Input::Undo,
        "hint" => Input::Hint,
        "review" | "r" => Input::Review,
        "new" | "restart" => Input::New,
        "quit" | "q" | "exit" | "end" => Input::Quit,
        "help" | "h" | "?" => Input::Help,
        "board" | "b" | "show" => Input::Board,
        _ => {
            let p = parse_point(line, game.size())?;
            if game.get(p).is_some() {
                return Err(format!("{} is already taken; choose a free point", game.name(p)));
            }
            return Ok(Input::Move(p));
        }
    };
    Ok(word)
}

/// A point as `h8` (letter = column from `a`, number = row from 1 at the top) or `x,y`
/// (0-based); spaces around the parts are allowed.
pub fn parse_point(typed: &str, size: usize) -> Result<Point, String> {
    let typed = typed.trim();
    let lower = typed.to_ascii_lowercase();
    let text = lower.as_str();
    let (x, y) = if let Some((a, b)) = text.split_once(',').or_else(|| two_numbers(text)) {
        let x = number(a).ok_or_else(|| not_understood(typed, size))?;
        let y = number(b).ok_or_else(|| not_understood(typed, size))?;
        (x, y)
    } else {
        let mut chars = text.chars();
        let letter =
            chars.next().filter(char::is_ascii_lowercase).ok_or_else(|| not_understood(typed, size))?;
        if size > MAX_LETTER_COLUMNS {
            return Err("this board is wider than 26 columns: type moves as x,y (e.g. 7,7)".to_string());
        }
        let row = number(chars.as_str()).filter(|&r| r >= 1).ok_or_else(|| not_understood(typed, size))?;
        (letter as i64 - 'a' as i64, row - 1)
    };
    if x < 0 || y < 0 || x >= size as i64 || y >= size as i64 {
        return Err(format!("{typed} is off the {size}x{size} board ({})", ranges(size)));
    }
    Ok(Point::new(x as usize, y as usize))
}

/// `7 7` as two numbers.
fn two_numbers(text: &str) -> Option<(&str, &str)> {
    let (a, b) = text.split_once(char::is_whitespace)?;
    (number(a).is_some() && number(b).is_some()).then_some((a, b))
}

fn number(s: &str) -> Option<i64> {
    let s = s.trim();
    if s.is_empty() || s.len() > 6 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

fn ranges(size: usize) -> String {
    if size <= MAX_LETTER_COLUMNS {
        let last = (b'a' + size as u8 - 1) as char;
        format!("columns a-{last}, rows 1-{size}; or x,y from 0,0 to {m},{m}", m = size - 1)
    } else {
        format!("x,y from 0,0 to {m},{m}", m = size - 1)
    }
}

fn not_understood(text: &str, size: usize) -> String {
    let short: String = text.chars().take(20).collect();
    let example = if size <= MAX_LETTER_COLUMNS { "h8 or 7,7" } else { "7,7" };
    format!("'{short}' is not a move or command: type a move like {example}, or one of {COMMANDS}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Rule;

    #[test]
    fn moves_in_both_notations() {
        let g = Game::new(15, Rule::Freestyle);
        assert_eq!(parse("h8", &g), Ok(Input::Move(Point::new(7, 7))));
        assert_eq!(parse("  H8 \r", &g), Ok(Input::Move(Point::new(7, 7))));
        assert_eq!(parse("7,7", &g), Ok(Input::Move(Point::new(7, 7))));
        assert_eq!(parse("0, 14", &g), Ok(Input::Move(Point::new(0, 14))));
        assert_eq!(parse("3 4", &g), Ok(Input::Move(Point::new(3, 4))));
        assert_eq!(parse("a1", &g), Ok(Input::Move(Point::new(0, 0))));
        assert_eq!(parse("o15", &g), Ok(Input::Move(Point::new(14, 14))));
    }

    #[test]
    fn words() {
        let g = Game::new(15, Rule::Freestyle);
        assert_eq!(parse("UNDO", &g), Ok(Input::Undo));
        assert_eq!(parse("hint", &g), Ok(Input::Hint));
        assert_eq!(parse("Review", &g), Ok(Input::Review));
        assert_eq!(parse("quit", &g), Ok(Input::Quit));
        assert_eq!(parse("new", &g), Ok(Input::New));
        assert_eq!(parse("", &g), Ok(Input::Nothing));
    }

    #[test]
    fn bad_input_explains_itself() {
        let mut g = Game::new(9, Rule::Freestyle);
        g.play(Point::new(4, 4));
        assert!(parse("e5", &g).unwrap_err().contains("already taken"));
        assert!(parse("j1", &g).unwrap_err().contains("off the 9x9 board"));
        assert!(parse("a0", &g).unwrap_err().contains("not a move"));
        assert!(parse("a10", &g).unwrap_err().contains("off the 9x9 board"));
        assert!(parse("9,0", &g).unwrap_err().contains("off the"));
        assert!(parse("-1,0", &g).unwrap_err().contains("not a move"));
        assert!(parse("hello", &g).unwrap_err().contains("undo, hint"));
        assert!(parse("h", &g).is_ok()); // `h` is help
        assert!(parse("1,2,3", &g).is_err());
        assert!(parse("99999999999999,1", &g).is_err());
        assert!(parse("é5", &g).is_err());
        let wide = Game::new(30, Rule::Freestyle);
        assert!(parse("h8", &wide).unwrap_err().contains("x,y"));
        assert_eq!(parse("29,29", &wide), Ok(Input::Move(Point::new(29, 29))));
    }
}
