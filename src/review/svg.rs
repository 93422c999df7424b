//! The evaluation graph: black's win probability over the moves as a hand-written SVG, with
//! the labelled moves marked, axes, labels and a legend (any browser opens it).

use super::analyse::{color_name, Label, MoveReview, Review};
use crate::types::Color;
use std::fmt::Write;

const WIDTH: f64 = 960.0;
const HEIGHT: f64 = 440.0;
/// The plot area inside the margins (axis labels left and below, the legend on the right).
const LEFT: f64 = 70.0;
const RIGHT: f64 = 760.0;
const TOP: f64 = 50.0;
const BOTTOM: f64 = 370.0;
/// At most this many numbered ticks on the move axis.
const MAX_TICKS: usize = 16;

fn label_colour(l: Label) -> &'static str {
    match l {
        Label::Blunder => "#d62728",
        Label::Mistake => "#ff7f0e",
        Label::Inaccuracy => "#e6c200",
        Label::Best | Label::Good => "#2ca02c",
    }
}

const MISSED_COLOUR: &str = "#7b3294";
const LOSS_COLOUR: &str = "#1f4e9c";

/// Text made safe for XML.
fn xml(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

fn black_probability(m: &MoveReview) -> f64 {
    match m.color {
        Color::Black => m.after,
        Color::White => 1.0 - m.after,
    }
}

/// A tick step of 1, 2, 5, 10, 20, 50, ... moves giving at most `MAX_TICKS` ticks.
fn tick_step(moves: usize) -> usize {
    let mut step = 1;
    loop {
        for m in [1, 2, 5] {
            if moves / (step * m) < MAX_TICKS {
                return step * m;
            }
        }
        step *= 10;
    }
}

/// The graph of `r` as an SVG document.
pub fn graph(r: &Review, source: &str) -> String {
    let n = r.moves.len().max(1);
    let x = |i: usize| LEFT + (RIGHT - LEFT) * i as f64 / n as f64;
    let y = |p: f64| BOTTOM - (BOTTOM - TOP) * p.clamp(0.0, 1.0);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"sans-serif\" font-size=\"13\">"
    );
    let _ = writeln!(s, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
    let g = &r.game;
    let title = format!(
        "{} (X) vs {} (O), {}x{} {}: black's win probability after each move",
        g.black,
        g.white,
        g.width,
        g.height,
        g.rule.name()
    );
    let _ = writeln!(
        s,
        "<text x=\"{LEFT}\" y=\"24\" font-size=\"15\" font-weight=\"bold\">{}</text>",
        xml(&title)
    );
    let _ = writeln!(
        s,
        "<text x=\"{LEFT}\" y=\"41\" font-size=\"11\" fill=\"#555\">{} — {}</text>",
        xml(source),
        xml(&r.result())
    );
    // Grid and the probability axis.
    for k in 0..=4 {
        let p = k as f64 / 4.0;
        let yy = y(p);
        let dash = if k == 2 { " stroke-dasharray=\"4 3\"" } else { "" };
        let _ = writeln!(
            s,
            "<line x1=\"{LEFT}\" y1=\"{yy:.1}\" x2=\"{RIGHT}\" y2=\"{yy:.1}\" stroke=\"#ccc\"{dash}/>"
        );
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}%</text>",
            LEFT - 8.0,
            yy + 4.0,
            k * 25
        );
    }
    let step = tick_step(n);
    for i in (0..=n).step_by(step) {
        let xx = x(i);
        let _ = writeln!(
            s,
            "<line x1=\"{xx:.1}\" y1=\"{BOTTOM}\" x2=\"{xx:.1}\" y2=\"{:.1}\" stroke=\"#333\"/>",
            BOTTOM + 5.0
        );
        let _ =
            writeln!(s, "<text x=\"{xx:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{i}</text>", BOTTOM + 20.0);
    }
    let _ =
        writeln!(s, "<line x1=\"{LEFT}\" y1=\"{BOTTOM}\" x2=\"{RIGHT}\" y2=\"{BOTTOM}\" stroke=\"#333\"/>");
    let _ = writeln!(s, "<line x1=\"{LEFT}\" y1=\"{TOP}\" x2=\"{LEFT}\" y2=\"{BOTTOM}\" stroke=\"#333\"/>");
    let _ = writeln!(
        s,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">move</text>",
        (LEFT + RIGHT) / 2.0,
        BOTTOM + 42.0
    );
    let _ = writeln!(
        s,
        "<text transform=\"translate(20 {:.1}) rotate(-90)\" text-anchor=\"middle\">black's win probability</text>",
        (TOP + BOTTOM) / 2.0
    );
    // The curve: point 0 is before the first move, point i after move i.
    let mut points = vec![(x(0), y(r.moves.first().map_or(0.5, |m| m.before)))];
    points.extend(r.moves.iter().map(|m| (x(m.number), y(black_probability(m)))));
    let line: Vec<String> = points.iter().map(|(a, b)| format!("{a:.1},{b:.1}")).collect();
    let area = format!(
        "{LEFT:.1},{:.1} {} {:.1},{:.1}",
        y(0.0),
        line.join(" "),
        points.last().map_or(LEFT, |p| p.0),
        y(0.0)
    );
    let _ = writeln!(s, "<polygon points=\"{area}\" fill=\"#dfe6ee\" stroke=\"none\"/>");
    let _ = writeln!(
        s,
        "<polyline points=\"{}\" fill=\"none\" stroke=\"#222\" stroke-width=\"2\"/>",
        line.join(" ")
    );
    // Marks: a dot coloured by label for inaccuracies and worse, a ring for a missed forced
    // win, a square for a walk into a forced loss; each with a tooltip.
    for m in &r.moves {
        let (cx, cy) = (x(m.number), y(black_probability(m)));
        let tip = format!(
            "{}. {} {}: {} ({:.0}% -> {:.0}%), best {}",
            m.number,
            color_name(m.color),
            m.name,
            m.label.name(),
            m.before * 100.0,
            m.after * 100.0,
            m.best.as_deref().unwrap_or("-")
        );
        if m.missed_win.is_some() {
            let _ = writeln!(s, "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"10\" fill=\"none\" stroke=\"{MISSED_COLOUR}\" stroke-width=\"2.5\"><title>{} (missed forced win)</title></circle>", xml(&tip));
        }
        if m.forced_loss.is_some() {
            let _ = writeln!(s, "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"16\" height=\"16\" fill=\"none\" stroke=\"{LOSS_COLOUR}\" stroke-width=\"2\"><title>{} (walks into a forced loss)</title></rect>", cx - 8.0, cy - 8.0, xml(&tip));
        }
        if m.label >= Label::Inaccuracy {
            let radius = match m.label {
                Label::Blunder => 6.0,
                Label::Mistake => 5.0,
                _ => 4.0,
            };
            let _ = writeln!(s, "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{radius}\" fill=\"{}\" stroke=\"#222\" stroke-width=\"0.8\"><title>{}</title></circle>", label_colour(m.label), xml(&tip));
        }
    }
    // The legend.
    let lx = RIGHT + 25.0;
    let mut ly = TOP + 10.0;
    let _ = writeln!(s, "<text x=\"{lx}\" y=\"{ly}\" font-weight=\"bold\">Legend</text>");
    ly += 22.0;
    let _ = writeln!(
        s,
        "<line x1=\"{lx}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#222\" stroke-width=\"2\"/>",
        ly - 4.0,
        lx + 20.0,
        ly - 4.0
    );
    let _ = writeln!(s, "<text x=\"{:.1}\" y=\"{ly}\">black's win probability</text>", lx + 28.0);
    for l in [Label::Blunder, Label::Mistake, Label::Inaccuracy] {
        ly += 22.0;
        let _ = writeln!(
            s,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"5\" fill=\"{}\" stroke=\"#222\" stroke-width=\"0.8\"/>",
            lx + 10.0,
            ly - 4.0,
            label_colour(l)
        );
        let _ = writeln!(s, "<text x=\"{:.1}\" y=\"{ly}\">{}</text>", lx + 28.0, l.name());
    }
    ly += 22.0;
    let _ = writeln!(s, "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"8\" fill=\"none\" stroke=\"{MISSED_COLOUR}\" stroke-width=\"2.5\"/>", lx + 10.0, ly - 4.0);
    let _ = writeln!(s, "<text x=\"{:.1}\" y=\"{ly}\">missed forced win</text>", lx + 28.0);
    ly += 22.0;
    let _ = writeln!(s, "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"14\" height=\"14\" fill=\"none\" stroke=\"{LOSS_COLOUR}\" stroke-width=\"2\"/>", lx + 3.0, ly - 11.0);
    let _ = writeln!(s, "<text x=\"{:.1}\" y=\"{ly}\">into a forced loss</text>", lx + 28.0);
    ly += 34.0;
    for c in [Color::Black, Color::White] {
        let sum = r.summary(c);
        let _ = writeln!(
            s,
            "<text x=\"{lx}\" y=\"{ly}\" font-size=\"12\">{}: {}/{}/{} (i/m/b)</text>",
            color_name(c),
            sum.inaccuracies,
            sum.mistakes,
            sum.blunders
        );
        ly += 18.0;
    }
    let _ = writeln!(s, "</svg>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_stay_few() {
        assert_eq!(tick_step(10), 1);
        assert_eq!(tick_step(20), 2);
        assert_eq!(tick_step(60), 5);
        assert_eq!(tick_step(225), 20);
        for n in [1, 7, 15, 16, 99, 150, 1000] {
            assert!(n / tick_step(n) < MAX_TICKS, "{n}");
        }
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(xml("a<b>&\"c\""), "a&lt;b&gt;&amp;&quot;c&quot;");
    }
}
