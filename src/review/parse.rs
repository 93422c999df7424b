//! Game files into move lists: Piskvork's `.psq`, SGF (as `scripts/match.py` and c-gomoku-cli
//! write it, one game or a collection) and the pos format (`h8i9j10`). Every fault names the
//! line it was found on; nothing here knows the rules beyond reading a rule's name.

use crate::protocol::info::rule_from_info;
use crate::types::Rule;
use std::fmt;

/// Letters of SGF coordinates: `a` = 0 .. `z` = 25, then `A` = 26 .. (SGF's large boards).
const SGF_LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// What is wrong with the input, and on which line (1-based; 0 = not tied to a line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub line: usize,
    pub what: String,
}

impl Fault {
    pub fn at(line: usize, what: impl Into<String>) -> Fault {
        Fault { line, what: what.into() }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.what)
        } else {
            write!(f, "line {}: {}", self.line, self.what)
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    Psq,
    Sgf,
    Moves,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Psq => "psq",
            Format::Sgf => "sgf",
            Format::Moves => "moves",
        }
    }
}

/// A move as written: column and row from 0 (possibly off the board; the game judges that),
/// and the line it was read from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Written {
    pub x: i64,
    pub y: i64,
    pub line: usize,
}

/// One game as the file gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub format: Format,
    /// Board size, when the file says (width, height).
    pub size: Option<(usize, usize)>,
    pub rule: Option<Rule>,
    pub moves: Vec<Written>,
    pub black: Option<String>,
    pub white: Option<String>,
    /// The result as written (`B+`, `W+1`, `0`, ...), when the file says.
    pub result: Option<String>,
    /// Games in the file (an SGF collection holds several).
    pub games: usize,
}

impl Record {
    fn new(format: Format) -> Record {
        Record {
            format,
            size: None,
            rule: None,
            moves: Vec::new(),
            black: None,
            white: None,
            result: None,
            games: 1,
        }
    }
}

/// Reads game number `game` (from 1) of `text`, whose format is told by its first characters:
/// `(` SGF, `Piskvorky` PSQ, anything else moves in the pos format.
pub fn parse(text: &str, game: usize) -> Result<Record, Fault> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let start = text.trim_start();
    if start.starts_with('(') {
        sgf(text, game)
    } else if start.starts_with("Piskvorky") {
        only_one(game)?;
        psq(text)
    } else {
        only_one(game)?;
        moves_text(text)
    }
}

fn only_one(game: usize) -> Result<(), Fault> {
    if game != 1 {
        return Err(Fault::at(0, format!("game {game} asked for, but this format holds one game")));
    }
    Ok(())
}

/// A rule as a file or an option names it: a name (`freestyle`, `standard`, `renju`, `caro`,
/// `caro-exact`, and the names `scripts/match.py` writes) or an `INFO rule` number.
pub fn rule_named(name: &str) -> Option<Rule> {
    let n = name.trim().to_ascii_lowercase();
    match n.as_str() {
        "freestyle" | "gomoku" => Some(Rule::Freestyle),
        "standard" | "exact" | "standard (exact five)" => Some(Rule::Standard),
        "renju" => Some(Rule::Renju),
        "caro" => Some(Rule::CaroOverline),
        "caro-exact" | "caro exact five" => Some(Rule::CaroExact),
        _ => n.parse::<i64>().ok().and_then(rule_from_info),
    }
}

/// `Piskvorky WxH, ...` then `x,y[,ms]` per move (1-based), then the players' names and `-1`.
fn psq(text: &str) -> Result<Record, Fault> {
    let mut r = Record::new(Format::Psq);
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim()));
    let (n, header) = lines.next().unwrap_or((1, ""));
    let dims = header
        .strip_prefix("Piskvorky")
        .and_then(|rest| rest.split(',').next())
        .and_then(|d| d.trim().split_once('x'))
        .and_then(|(w, h)| Some((w.trim().parse::<usize>().ok()?, h.trim().parse::<usize>().ok()?)));
    let Some(size) = dims else {
        return Err(Fault::at(n, format!("'{header}' is not a PSQ header (Piskvorky WxH, ...)")));
    };
    r.size = Some(size);
    let mut names = Vec::new();
    let mut moves_done = false;
    for (n, line) in lines {
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let numbers: Option<Vec<i64>> = fields.iter().map(|f| f.parse::<i64>().ok()).collect();
        match numbers {
            Some(v) if !moves_done && (2..=4).contains(&v.len()) => {
                r.moves.push(Written { x: v[0] - 1, y: v[1] - 1, line: n })
            }
            Some(v) if v.len() == 1 => moves_done = true, // `-1`, the end mark
            Some(_) if !moves_done => {
                return Err(Fault::at(n, format!("'{line}' is not a move (x,y,ms with x and y from 1)")))
            }
            _ => {
                // Names have letters; a line of digits and marks among the moves is a bad move.
                let nameless = !line.chars().any(char::is_alphabetic);
                if !moves_done
                    && (nameless || (fields.len() > 1 && fields.iter().any(|f| f.parse::<i64>().is_ok())))
                {
                    return Err(Fault::at(n, format!("'{line}' is not a move (x,y,ms with x and y from 1)")));
                }
                moves_done = true;
                names.push(line.to_string());
            }
        }
    }
    let mut names = names.into_iter();
    r.black = names.next();
    r.white = names.next();
    Ok(r)
}

/// Moves in the pos format, `h8i9j10` (letter = column from `a`, number = row from 1), with
/// spaces, commas or line breaks between moves allowed; `#` starts a comment.
fn moves_text(text: &str) -> Result<Record, Fault> {
    let mut r = Record::new(Format::Moves);
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let line = line.split('#').next().unwrap_or("");
        let b = line.as_bytes();
        let mut at = 0;
        while at < b.len() {
            let c = b[at];
            if c.is_ascii_whitespace() || c == b',' || c == b';' {
                at += 1;
                continue;
            }
            if !c.is_ascii_alphabetic() {
                return Err(Fault::at(
                    n,
                    format!("'{}' at column {}: a move is a letter and a row number (h8)", c as char, at + 1),
                ));
            }
            let x = (c.to_ascii_lowercase() - b'a') as i64;
            let digits = b[at + 1..].iter().take_while(|d| d.is_ascii_digit()).count();
            if digits == 0 || digits > 3 {
                let word: String = line[at..].chars().take_while(|c| !c.is_whitespace()).take(8).collect();
                return Err(Fault::at(
                    n,
                    format!("'{word}' at column {}: a move is a letter and a row number (h8)", at + 1),
                ));
            }
            let y: i64 = line[at + 1..at + 1 + digits].parse().unwrap_or(0);
            r.moves.push(Written { x, y: y - 1, line: n });
            at += 1 + digits;
        }
    }
    if r.moves.is_empty() {
        return Err(Fault::at(0, "no moves found (expected SGF, PSQ or moves such as h8i9j10)"));
    }
    Ok(r)
}

/// One SGF node: its properties with their values, and the line each property starts on.
struct Node {
    props: Vec<(String, Vec<String>, usize)>,
}

/// A game tree reduced to its main line (the first variation at each fork).
struct Tree {
    nodes: Vec<Node>,
}

/// SGF's lexical pieces, each with the line it starts on.
enum Token {
    Open(usize),
    Close(usize),
    Semi,
    Prop(String, Vec<String>, usize),
}

/// SGF: a collection of game trees; game number `game` is read. Only the main line counts.
fn sgf(text: &str, game: usize) -> Result<Record, Fault> {
    let trees = sgf_trees(text)?;
    let count = trees.len();
    if game == 0 || game > count {
        return Err(Fault::at(0, format!("game {game} asked for, but the file holds {count}")));
    }
    let tree = &trees[game - 1];
    let mut r = Record::new(Format::Sgf);
    r.games = count;
    for node in &tree.nodes {
        for (name, values, line) in &node.props {
            let first = values.first().map(String::as_str).unwrap_or("");
            match name.as_str() {
                "GM" if first.trim() != "4" => {
                    return Err(Fault::at(*line, format!("GM[{first}] is not Gomoku (GM[4])")))
                }
                "SZ" => r.size = Some(sgf_size(first).ok_or_else(|| Fault::at(*line, format!("SZ[{first}] is not a board size")))?),
                "RU" => {
                    r.rule = Some(rule_named(first).ok_or_else(|| {
                        Fault::at(*line, format!("unknown rule RU[{first}] (freestyle, standard, renju, caro, caro-exact or 0/1/4/8/9)"))
                    })?)
                }
                "PB" => r.black = Some(first.to_string()),
                "PW" => r.white = Some(first.to_string()),
                "RE" => r.result = Some(first.to_string()),
                "AB" | "AW" | "AE" => {
                    return Err(Fault::at(*line, format!("setup stones ({name}) are not supported; only B and W moves")))
                }
                "B" | "W" => {
                    let colour_ok = (name == "B") == r.moves.len().is_multiple_of(2);
                    if !colour_ok {
                        let side = if r.moves.len().is_multiple_of(2) { "black" } else { "white" };
                        return Err(Fault::at(*line, format!("{name}[{first}]: {side} is to move (colours must alternate, black first)")));
                    }
                    let (x, y) = sgf_point(first)
                        .ok_or_else(|| Fault::at(*line, format!("{name}[{first}] is not a point (two letters, e.g. hh)")))?;
                    r.moves.push(Written { x, y, line: *line });
                }
                _ => {}
            }
        }
    }
    Ok(r)
}

fn sgf_size(v: &str) -> Option<(usize, usize)> {
    let v = v.trim();
    match v.split_once(':') {
        Some((w, h)) => Some((w.trim().parse().ok()?, h.trim().parse().ok()?)),
        None => {
            let n = v.parse().ok()?;
            Some((n, n))
        }
    }
}

fn sgf_point(v: &str) -> Option<(i64, i64)> {
    let b = v.trim().as_bytes();
    if b.len() != 2 {
        return None;
    }
    let at = |c: u8| SGF_LETTERS.iter().position(|&l| l == c).map(|i| i as i64);
    Some((at(b[0])?, at(b[1])?))
}

/// Splits SGF text into game trees, each reduced to its main line.
fn sgf_trees(text: &str) -> Result<Vec<Tree>, Fault> {
    let tokens = sgf_tokens(text)?;
    let mut at = 0;
    let mut trees = Vec::new();
    while at < tokens.len() {
        let mut nodes = Vec::new();
        game_tree(&tokens, &mut at, true, &mut nodes)?;
        trees.push(Tree { nodes });
    }
    if trees.is_empty() {
        return Err(Fault::at(0, "no SGF game tree found"));
    }
    Ok(trees)
}

/// `( sequence variations* )` from `tokens[*at]`; the nodes of the main line go to `out`.
fn game_tree(tokens: &[Token], at: &mut usize, main: bool, out: &mut Vec<Node>) -> Result<(), Fault> {
    let open_line = match tokens.get(*at) {
        Some(Token::Open(line)) => *line,
        Some(Token::Close(line)) => return Err(Fault::at(*line, "')' without a matching '('")),
        Some(Token::Prop(_, _, line)) => {
            return Err(Fault::at(*line, "a property outside a node: nodes start with ';'"))
        }
        Some(Token::Semi) | None => return Err(Fault::at(0, "SGF games are written (;...)")),
    };
    *at += 1;
    while let Some(Token::Semi) = tokens.get(*at) {
        *at += 1;
        let mut node = Node { props: Vec::new() };
        while let Some(Token::Prop(name, values, line)) = tokens.get(*at) {
            node.props.push((name.clone(), values.clone(), *line));
            *at += 1;
        }
        if main {
            out.push(node);
        }
    }
    let mut first = true;
    while let Some(Token::Open(_)) = tokens.get(*at) {
        game_tree(tokens, at, main && first, out)?;
        first = false;
    }
    match tokens.get(*at) {
        Some(Token::Close(_)) => {
            *at += 1;
            Ok(())
        }
        Some(Token::Prop(_, _, line)) => {
            Err(Fault::at(*line, "a property after a variation: nodes start with ';'"))
        }
        _ => Err(Fault::at(open_line, "the game tree opened here is not closed with ')'")),
    }
}

/// SGF text into tokens; property values have their escapes removed.
fn sgf_tokens(text: &str) -> Result<Vec<Token>, Fault> {
    let mut tokens = Vec::new();
    let mut chars = text.chars().peekable();
    let mut line = 1;
    while let Some(c) = chars.next() {
        match c {
            '\n' => line += 1,
            '(' => tokens.push(Token::Open(line)),
            ')' => tokens.push(Token::Close(line)),
            ';' => tokens.push(Token::Semi),
            c if c.is_whitespace() => {}
            c if c.is_ascii_alphabetic() => {
                let prop_line = line;
                // FF[3] allowed lower-case letters inside names (`PlayerBlack`); the upper-case
                // ones are the name.
                let mut name: String = c.is_ascii_uppercase().then_some(c).into_iter().collect();
                while let Some(&n) = chars.peek().filter(|n| n.is_ascii_alphabetic()) {
                    if n.is_ascii_uppercase() {
                        name.push(n);
                    }
                    chars.next();
                }
                let mut values = Vec::new();
                loop {
                    while let Some(&w) = chars.peek().filter(|w| w.is_whitespace()) {
                        if w == '\n' {
                            line += 1;
                        }
                        chars.next();
                    }
                    if chars.peek() != Some(&'[') {
                        break;
                    }
                    chars.next();
                    let mut value = String::new();
                    loop {
                        match chars.next() {
                            None => {
                                return Err(Fault::at(prop_line, format!("{name}[ is never closed with ']'")))
                            }
                            Some(']') => break,
                            Some('\\') => match chars.next() {
                                Some('\n') => line += 1, // a soft line break
                                Some(e) => value.push(e),
                                None => {}
                            },
                            Some(v) => {
                                if v == '\n' {
                                    line += 1;
                                }
                                value.push(v);
                            }
                        }
                    }
                    values.push(value);
                }
                if values.is_empty() {
                    return Err(Fault::at(prop_line, format!("property {name} has no value in [ ]")));
                }
                tokens.push(Token::Prop(name, values, prop_line));
            }
            c => return Err(Fault::at(line, format!("unexpected '{c}' in SGF"))),
        }
    }
    Ok(tokens)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xy(r: &Record) -> Vec<(i64, i64)> {
        r.moves.iter().map(|m| (m.x, m.y)).collect()
    }

    #[test]
    fn c_gomoku_cli_sgf() {
        // As c-gomoku-cli's export_sgf writes a game: numeric rule, comments per move.
        let text = "(;FF[4]GM[4]GN[0]EV[a x b]DT[2026.12.04 08:00:00]RO[1.1]RU[4]SZ[15]PB[a]PW[b]RE[B+1]TE[Black win by five connection]\n\
                    ;B[hh]C[opening move];W[ii]C[opening move]\n;B[hi]C[12ms];W[hg]C[9ms])\n\n";
        let r = parse(text, 1).unwrap();
        assert_eq!((r.format, r.size, r.rule, r.games), (Format::Sgf, Some((15, 15)), Some(Rule::Renju), 1));
        assert_eq!(xy(&r), [(7, 7), (8, 8), (7, 8), (7, 6)]);
        assert_eq!(
            (r.black.as_deref(), r.white.as_deref(), r.result.as_deref()),
            (Some("a"), Some("b"), Some("B+1"))
        );
        assert_eq!(r.moves[2].line, 3);
    }

    #[test]
    fn match_py_sgf_collection() {
        let one = |n: u32, mv: &str| {
            format!(
                "(;FF[4]GM[4]CA[UTF-8]AP[gorin-match:1]SZ[9]PB[x]PW[y]RE[W+]RU[standard (exact five)]C[game {n}: five\\] done]\n;B[ee]\n;W[{mv}])\n"
            )
        };
        let text = format!("{}{}", one(1, "ff"), one(2, "dd"));
        let r = parse(&text, 2).unwrap();
        assert_eq!((r.games, r.rule, r.size), (2, Some(Rule::Standard), Some((9, 9))));
        assert_eq!(xy(&r), [(4, 4), (3, 3)]);
        assert_eq!(r.moves[1].line, 6);
        assert!(parse(&text, 3).unwrap_err().what.contains("holds 2"));
    }

    #[test]
    fn sgf_variations_keep_the_main_line() {
        let r = parse("(;SZ[15];B[hh](;W[ii];B[jj])(;W[aa]))", 1).unwrap();
        assert_eq!(xy(&r), [(7, 7), (8, 8), (9, 9)]);
        let r = parse("(;SZ[20:15];B[hh];W[Ta])", 1).unwrap();
        assert_eq!(r.size, Some((20, 15)));
        assert_eq!(xy(&r), [(7, 7), (45, 0)]);
    }

    #[test]
    fn sgf_faults_name_their_line() {
        let cases = [
            ("(;SZ[15]\n;B[hh]\n;B[ii])", 3, "white is to move"),
            ("(;SZ[15]\n;B[hh]\n;W[i])", 3, "not a point"),
            ("(;SZ[15]RU[pente]\n;B[hh])", 1, "unknown rule"),
            ("(;SZ[15]\n;B[hh]\n;W[ii]", 1, "not closed"),
            ("(;SZ[15]\n;B[hh\n", 2, "never closed"),
            ("(;GM[1]SZ[19];B[dd])", 1, "not Gomoku"),
            ("(;SZ[15]\nAB[hh];W[ii])", 2, "setup stones"),
        ];
        for (text, line, what) in cases {
            let e = parse(text, 1).unwrap_err();
            assert_eq!(e.line, line, "{text}: {e}");
            assert!(e.what.contains(what), "{text}: {e}");
        }
    }

    #[test]
    fn psq_as_piskvork_and_match_py_write_it() {
        let text = "Piskvorky 20x20, 11:11, 0\n10,10,0\n11,11,453\n9,10,12\npbrain-a.exe\npbrain-b.exe\n-1\n";
        let r = parse(text, 1).unwrap();
        assert_eq!((r.format, r.size), (Format::Psq, Some((20, 20))));
        assert_eq!(xy(&r), [(9, 9), (10, 10), (8, 9)]);
        assert_eq!((r.black.as_deref(), r.white.as_deref()), (Some("pbrain-a.exe"), Some("pbrain-b.exe")));
        let e = parse("Piskvorky 15x15, 11:11, 0\n8,8,0\n9,x,3\n", 1).unwrap_err();
        assert_eq!(e.line, 3, "{e}");
        let e = parse("Piskvorky big, 11:11, 0\n8,8,0\n", 1).unwrap_err();
        assert_eq!(e.line, 1, "{e}");
    }

    #[test]
    fn move_strings() {
        let r = parse("h8i9j10\n# a comment\nk11, l12", 1).unwrap();
        assert_eq!(r.format, Format::Moves);
        assert_eq!(xy(&r), [(7, 7), (8, 8), (9, 9), (10, 10), (11, 11)]);
        assert_eq!(r.moves[3].line, 3);
        let e = parse("h8i9\nj10 k?\n", 1).unwrap_err();
        assert_eq!(e.line, 2, "{e}");
        assert!(parse("", 1).is_err());
        assert!(parse("h8", 2).is_err());
    }

    #[test]
    fn rule_names() {
        assert_eq!(rule_named("Renju"), Some(Rule::Renju));
        assert_eq!(rule_named("caro exact five"), Some(Rule::CaroExact));
        assert_eq!(rule_named("1"), Some(Rule::Standard));
        assert_eq!(rule_named("8"), Some(Rule::CaroOverline));
        assert_eq!(rule_named("pente"), None);
    }
}
