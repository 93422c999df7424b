//! A review as text for people and as JSON lines for programs.

use super::analyse::{color_name, Ending, MoveReview, Review, Summary, Win, BLUNDER, INACCURACY, MISTAKE};
use crate::types::Color;
use std::fmt::Write;

/// Stone symbols as play mode draws them.
fn symbol(c: Color) -> char {
    match c {
        Color::Black => 'X',
        Color::White => 'O',
    }
}

fn percent(p: f64) -> String {
    format!("{:.0}%", p * 100.0)
}

fn effort_text(r: &Review) -> String {
    match r.effort.nodes {
        Some(n) => format!("{n} nodes a position"),
        None => format!("{} ms a position", r.effort.ms),
    }
}

fn win_text(w: &Win) -> String {
    format!("{} {}", w.kind.name(), w.line.join(" "))
}

/// What the note column says about a move: the forced win it gave up, the forced loss it
/// walked into, how it ended the game.
fn note(m: &MoveReview) -> String {
    let mut parts = Vec::new();
    if let Some(w) = &m.missed_win {
        parts.push(format!("missed a forced win: {}", win_text(w)));
    }
    if let Some(w) = &m.forced_loss {
        parts.push(format!("walks into a forced loss: {}", win_text(w)));
    }
    match m.ending {
        Some(Ending::Five(_)) => parts.push("five".to_string()),
        Some(Ending::Forbidden) => parts.push("forbidden point: loses".to_string()),
        Some(Ending::Full) => parts.push("board full: draw".to_string()),
        None => {}
    }
    parts.join("; ")
}

/// The review as text: a header, one line per move, the result and each player's summary.
pub fn text(r: &Review, source: &str) -> String {
    let g = &r.game;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Review of {source}: {}x{} {}, black (X) {}, white (O) {}, {} moves; {}",
        g.width,
        g.height,
        g.rule.name(),
        g.black,
        g.white,
        g.moves.len(),
        effort_text(r)
    );
    let _ = writeln!(
        out,
        "Win probability of the side that moved, before -> after its move; best = the engine's move there.\n"
    );
    let _ = writeln!(
        out,
        "{:>4}  s  {:<5} {:>6} {:>6}  {:<5} {:<10} note",
        "#", "move", "before", "after", "best", "label"
    );
    for m in &r.moves {
        let best = m.best.as_deref().unwrap_or("-");
        let line = format!(
            "{:>4}  {}  {:<5} {:>6} {:>6}  {:<5} {:<10} {}",
            m.number,
            symbol(m.color),
            m.name,
            percent(m.before),
            percent(m.after),
            best,
            m.label.name(),
            note(m)
        );
        let _ = writeln!(out, "{}", line.trim_end());
    }
    let _ = writeln!(out, "\nResult: {}", r.result());
    let _ = writeln!(out, "\nSummary");
    for c in [Color::Black, Color::White] {
        let s = r.summary(c);
        let _ = writeln!(out, "  {} ({}, {}): {}", color_name(c), symbol(c), g.player(c), tally(&s));
        let _ =
            writeln!(out, "    missed forced wins: {}", listed(r, &s.missed_wins, |m| m.missed_win.as_ref()));
        let _ = writeln!(
            out,
            "    walked into forced losses: {}",
            listed(r, &s.forced_losses, |m| m.forced_loss.as_ref())
        );
    }
    let _ = writeln!(
        out,
        "\nLabels: inaccuracy = the move lost {}-{} points of win probability, mistake {}-{}, blunder {} or more.",
        pts(INACCURACY),
        pts(MISTAKE),
        pts(MISTAKE),
        pts(BLUNDER),
        pts(BLUNDER)
    );
    out
}

fn pts(p: f64) -> String {
    format!("{:.0}", p * 100.0)
}

fn tally(s: &Summary) -> String {
    let n = |count: usize, one: &str, many: &str| format!("{count} {}", if count == 1 { one } else { many });
    format!(
        "{}: {} best, {} good, {}, {}, {}; mean loss {:.1} points",
        n(s.moves, "move", "moves"),
        s.best,
        s.good,
        n(s.inaccuracies, "inaccuracy", "inaccuracies"),
        n(s.mistakes, "mistake", "mistakes"),
        n(s.blunders, "blunder", "blunders"),
        s.mean_loss * 100.0
    )
}

fn listed(r: &Review, numbers: &[usize], win: impl Fn(&MoveReview) -> Option<&Win>) -> String {
    if numbers.is_empty() {
        return "none".to_string();
    }
    let items: Vec<String> = numbers
        .iter()
        .filter_map(|&n| r.moves.get(n - 1))
        .map(|m| match win(m) {
            Some(w) => format!("move {} {} ({})", m.number, m.name, win_text(w)),
            None => format!("move {} {}", m.number, m.name),
        })
        .collect();
    items.join(", ")
}

/// A JSON string literal.
pub fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn json_list(items: &[String]) -> String {
    let parts: Vec<String> = items.iter().map(|s| json_string(s)).collect();
    format!("[{}]", parts.join(","))
}

fn json_numbers(items: &[usize]) -> String {
    let parts: Vec<String> = items.iter().map(|n| n.to_string()).collect();
    format!("[{}]", parts.join(","))
}

fn json_win(w: &Option<Win>) -> String {
    match w {
        None => "null".to_string(),
        Some(w) => format!("{{\"kind\":{},\"line\":{}}}", json_string(w.kind.name()), json_list(&w.line)),
    }
}

fn json_opt(s: &Option<String>) -> String {
    s.as_deref().map_or_else(|| "null".to_string(), json_string)
}

/// The review as JSON lines: a `game` object, one `move` object per move, a `summary` per
/// player (fields in the README).
pub fn json(r: &Review, source: &str) -> String {
    let g = &r.game;
    let mut out = String::new();
    let nodes = r.effort.nodes.map_or_else(|| "null".to_string(), |n| n.to_string());
    let _ = writeln!(
        out,
        "{{\"type\":\"game\",\"source\":{},\"width\":{},\"height\":{},\"rule\":{},\"black\":{},\"white\":{},\"moves\":{},\"ms\":{},\"nodes\":{},\"result\":{}}}",
        json_string(source),
        g.width,
        g.height,
        json_string(g.rule.name()),
        json_string(&g.black),
        json_string(&g.white),
        g.moves.len(),
        r.effort.ms,
        nodes,
        json_string(&r.result())
    );
    for m in &r.moves {
        let ending = match m.ending {
            None => "null".to_string(),
            Some(Ending::Five(_)) => json_string("five"),
            Some(Ending::Forbidden) => json_string("forbidden"),
            Some(Ending::Full) => json_string("full"),
        };
        let _ = writeln!(
            out,
            "{{\"type\":\"move\",\"number\":{},\"color\":{},\"move\":{},\"x\":{},\"y\":{},\"before\":{:.4},\"after\":{:.4},\"loss\":{:.4},\"score_before\":{},\"score_after\":{},\"best\":{},\"pv\":{},\"label\":{},\"missed_win\":{},\"forced_loss\":{},\"ending\":{}}}",
            m.number,
            json_string(color_name(m.color)),
            json_string(&m.name),
            m.x,
            m.y,
            m.before,
            m.after,
            m.loss(),
            m.score_before,
            m.score_after,
            json_opt(&m.best),
            json_list(&m.pv),
            json_string(m.label.name()),
            json_win(&m.missed_win),
            json_win(&m.forced_loss),
            ending
        );
    }
    for c in [Color::Black, Color::White] {
        let s = r.summary(c);
        let _ = writeln!(
            out,
            "{{\"type\":\"summary\",\"color\":{},\"player\":{},\"moves\":{},\"best\":{},\"good\":{},\"inaccuracies\":{},\"mistakes\":{},\"blunders\":{},\"missed_wins\":{},\"forced_losses\":{},\"mean_loss\":{:.4}}}",
            json_string(color_name(c)),
            json_string(g.player(c)),
            s.moves,
            s.best,
            s.good,
            s.inaccuracies,
            s.mistakes,
            s.blunders,
            json_numbers(&s.missed_wins),
            json_numbers(&s.forced_losses),
            s.mean_loss
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_are_escaped() {
        assert_eq!(json_string("a\"b\\c\nd\u{1}"), "\"a\\\"b\\\\c\\nd\\u0001\"");
        assert_eq!(json_list(&["h8".into(), "i9".into()]), "[\"h8\",\"i9\"]");
        assert_eq!(json_numbers(&[3, 17]), "[3,17]");
    }
}
