//! Replies into lines: every string Gorin writes to stdout, in one place.

use crate::board::{MAX_SIZE, MIN_SIZE};
use crate::engine::command::{
    BodyFault, Coord, Message, Note, OpeningAsk, OpeningFault, PointCommand, PointFault, Progress, Refusal,
    Reply, Score,
};
use crate::rules::opening::OpeningRule;
use std::fmt::{self, Display, Formatter};

pub const NAME: &str = "gorin";
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// `x,y`, as the manager writes points.
impl Display for Coord {
    fn fmt(&self, f: &mut Formatter) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

impl Display for Reply {
    fn fmt(&self, f: &mut Formatter) -> fmt::Result {
        match self {
            Reply::Ok => f.write_str("OK"),
            Reply::Moves(moves) => write!(f, "{}", joined(moves, " ")),
            Reply::Swap => f.write_str("SWAP"),
            Reply::Declare { at, offers } => write!(f, "{at} {offers}"),
            Reply::Forbid(points) => {
                f.write_str("FORBID ")?;
                for p in points {
                    write!(f, "{:02}{:02}", p.x, p.y)?;
                }
                f.write_str(".")
            }
            Reply::About => write!(
                f,
                "name=\"{NAME}\", version=\"{VERSION}\", author=\"The Gorin developers\", country=\"International\""
            ),
            Reply::Error(why) => write!(f, "ERROR {why}"),
            Reply::Unknown(why) => write!(f, "UNKNOWN {why}"),
            Reply::Message(m) => write!(f, "MESSAGE {m}"),
        }
    }
}

impl Display for Refusal {
    fn fmt(&self, f: &mut Formatter) -> fmt::Result {
        match self {
            Refusal::Internal => f.write_str("internal error"),
            Refusal::Point { command, at, fault } => {
                let command = match command {
                    PointCommand::Turn => "TURN",
                    PointCommand::Play => "PLAY",
                    PointCommand::Takeback => "TAKEBACK",
                };
                let fault = match fault {
                    PointFault::OffBoard => "off the board",
                    PointFault::Occupied => "occupied",
                    PointFault::NoStone => "no stone there",
                };
                write!(f, "{command} {at}: {fault}")
            }
            Refusal::BoardSize { width, height } => {
                write!(f, "unsupported board size {width}x{height} (sizes {MIN_SIZE} to {MAX_SIZE})")
            }
            Refusal::Body(fault) => write!(f, "{fault}"),
            Refusal::Swap2Stone(at) => write!(f, "swap2 stone {at} is off the board or repeated"),
            Refusal::Swap2Count(n) => write!(f, "SWAP2BOARD takes 0, 3 or 5 stones, not {n}"),
            Refusal::Opening(fault) => write!(f, "{fault}"),
            Refusal::BoardFull => f.write_str("the board is full"),
            Refusal::NoMove => f.write_str("no move found"),
            Refusal::NoRoom => f.write_str("not enough empty points"),
            Refusal::Malformed(why) => f.write_str(why),
        }
    }
}

impl Display for BodyFault {
    fn fmt(&self, f: &mut Formatter) -> fmt::Result {
        match self {
            BodyFault::Malformed(why) => f.write_str(why),
            BodyFault::OffBoard(at) => write!(f, "board stone {at} is off the board"),
            BodyFault::Twice(at) => write!(f, "board stone {at} is given twice"),
        }
    }
}

/// The rule's name as the opening commands take it.
impl Display for OpeningRule {
    fn fmt(&self, f: &mut Formatter) -> fmt::Result {
        match self {
            OpeningRule::Taraguchi(n) => write!(f, "TARAGUCHI{n}"),
            OpeningRule::Soosorv(n) => write!(f, "SOOSORV{n}"),
            OpeningRule::FiveTwo => f.write_str("RIF"),
        }
    }
}

impl Display for OpeningFault {
    fn fmt(&self, f: &mut Formatter) -> fmt::Result {
        match self {
            OpeningFault::Stone(at) => write!(f, "opening stone {at} is off the board or on a stone"),
            OpeningFault::Zone { at, index, radius } => {
                let side = 2 * radius + 1;
                write!(f, "opening stone {} at {at} is outside the central {side}x{side} square", index + 1)
            }
            OpeningFault::Stones { ask, rule, stones } => {
                let name = match ask {
                    OpeningAsk::Swap => "YXOPENINGSWAP",
                    OpeningAsk::Move => "YXOPENINGMOVE",
                    OpeningAsk::Choose => "YXOPENINGCHOOSE",
                };
                write!(f, "{name} {rule}: the rule has no such decision with {stones} stones")
            }
            OpeningFault::Declared { rule, stones, declared: Some(n) } => {
                write!(f, "{rule} with {stones} stones: declared count {n} is not allowed")
            }
            OpeningFault::Declared { rule, stones, declared: None } => {
                write!(f, "{rule} with {stones} stones needs the declared number of fifth moves")
            }
            OpeningFault::Offers { rule, offers } => {
                let allowed = rule.offer_counts();
                let (lo, hi) = (allowed.start(), allowed.end());
                if lo == hi {
                    write!(f, "{rule} takes {lo} offered fifth moves, not {offers}")
                } else {
                    write!(f, "{rule} takes {lo} to {hi} offered fifth moves, not {offers}")
                }
            }
            OpeningFault::Symmetric(a, b) => write!(f, "offered fifth moves {a} and {b} are symmetric"),
        }
    }
}

impl Display for Message {
    fn fmt(&self, f: &mut Formatter) -> fmt::Result {
        match self {
            Message::Progress(p) => write!(f, "{p}"),
            Message::NBest { rank, best, score, depth, pv } => {
                write!(f, "nbest {rank} {best} ev {score} depth {depth} pv {}", pv.join(" "))
            }
            Message::MaxThreads(n) => write!(f, "INFO MAX_THREAD_NUM {n}"),
            Message::MaxHashKib(kib) => write!(f, "INFO MAX_HASH_SIZE {kib}"),
            Message::Note(note) => write!(f, "{note}"),
        }
    }
}

/// `depth 8-15 ev 143 n 1.2M nps 600K tm 812 pv h8 i9 j10`; a forced win in 5 plies is
/// `ev +M5`, a loss in 4 `ev -M4`.
impl Display for Progress {
    fn fmt(&self, f: &mut Formatter) -> fmt::Result {
        let nps = self.nodes * 1000 / self.ms;
        let ev = match self.score {
            Score::Value(v) => v.to_string(),
            Score::WinIn(plies) => format!("+M{plies}"),
            Score::LossIn(plies) => format!("-M{plies}"),
        };
        write!(
            f,
            "depth {}-{} ev {} n {} nps {} tm {} pv {}",
            self.depth,
            self.sel_depth,
            ev,
            compact(self.nodes),
            compact(nps),
            self.ms,
            self.pv.join(" ")
        )
    }
}

impl Display for Note {
    fn fmt(&self, f: &mut Formatter) -> fmt::Result {
        match self {
            Note::Info(text) => f.write_str(text),
            Note::MemoryTooSmall(bytes) => {
                write!(
                    f,
                    "INFO max_memory {bytes}: too small to play within; using the smallest table, ignored"
                )
            }
            Note::ThreadsClamped { asked, cores } => {
                write!(f, "INFO thread_num {asked}: more than the {cores} cores here; using {cores}")
            }
            Note::TableShrunk { wanted, got } => {
                write!(f, "hash table of {wanted} bytes not available, using {got} bytes")
            }
            Note::Position(fault) => write!(f, "{fault}"),
            Note::Net(text) => f.write_str(text),
        }
    }
}

fn joined(items: &[impl Display], sep: &str) -> String {
    items.iter().map(ToString::to_string).collect::<Vec<_>>().join(sep)
}

/// 1234 → 1234, 12345 → 12K, 1234567 → 1.2M.
fn compact(n: u64) -> String {
    match n {
        0..=9_999 => n.to_string(),
        10_000..=999_999 => format!("{}K", n / 1000),
        _ => format!("{:.1}M", n as f64 / 1e6),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn about_has_no_commas_inside_values() {
        let line = Reply::About.to_string();
        for part in line.split(", ") {
            let (k, v) = part.split_once('=').unwrap();
            assert!(!k.is_empty() && v.starts_with('"') && v.ends_with('"'), "{part}");
            assert!(!v.trim_matches('"').contains([',', '=']));
        }
    }

    #[test]
    fn progress_format() {
        let pv = vec!["h8".to_string(), "i9".to_string()];
        let it =
            Progress { depth: 8, sel_depth: 15, score: Score::Value(143), nodes: 1_234_567, ms: 812, pv };
        let line = Reply::Message(Message::Progress(it.clone())).to_string();
        assert_eq!(line, "MESSAGE depth 8-15 ev 143 n 1.2M nps 1.5M tm 812 pv h8 i9");
        let win = Progress { score: Score::WinIn(5), ..it };
        assert!(Message::Progress(win).to_string().contains(" ev +M5 "));
    }

    #[test]
    fn moves_forbid_and_refusals() {
        let c = |x, y| Coord { x, y };
        assert_eq!(Reply::Moves(vec![c(7, 7)]).to_string(), "7,7");
        assert_eq!(Reply::Moves(vec![c(7, 7), c(8, 9)]).to_string(), "7,7 8,9");
        assert_eq!(Reply::Forbid(vec![c(9, 7), c(10, 11)]).to_string(), "FORBID 09071011.");
        assert_eq!(Reply::Forbid(vec![]).to_string(), "FORBID .");
        assert_eq!(Reply::Declare { at: c(8, 6), offers: 3 }.to_string(), "8,6 3");
        let symmetric = Refusal::Opening(OpeningFault::Symmetric(c(8, 7), c(7, 8)));
        assert_eq!(
            Reply::Error(symmetric).to_string(),
            "ERROR offered fifth moves 8,7 and 7,8 are symmetric"
        );
        let offers = Refusal::Opening(OpeningFault::Offers { rule: OpeningRule::Soosorv(8), offers: 9 });
        assert_eq!(offers.to_string(), "SOOSORV8 takes 1 to 8 offered fifth moves, not 9");
        let turn = Refusal::Point { command: PointCommand::Turn, at: c(7, 7), fault: PointFault::Occupied };
        assert_eq!(Reply::Error(turn).to_string(), "ERROR TURN 7,7: occupied");
        assert_eq!(
            Reply::Error(Refusal::BoardSize { width: 4, height: 4 }).to_string(),
            "ERROR unsupported board size 4x4 (sizes 5 to 32)"
        );
    }
}
