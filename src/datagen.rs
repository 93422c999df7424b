//! `pbrain-gorin gen-data`: plays seeded self-play games with the engine's own search and writes
//! every position, with the engine's per-point shape features, in the GRN1 training format, so
//! that a trainer outside the engine (PyTorch) never re-implements pattern extraction. Offline,
//! like `bench` and `fit`: nothing the engine runs imports it.
//!
//! ```text
//! pbrain-gorin gen-data --out FILE [--games N] [--nodes K] [--rule R] [--size S] [--seed X]
//!                       [--random-plies P] [--explore E] [--first-game F] [--side N]
//!                       [--side-nodes K] [--net FILE]
//! ```
//!
//! N games (default 100, numbered from F, default 0) on an SxS board (default 15, any 5..32) under `INFO rule` R (0, 1, 4,
//! 8 or 9; default 0). The first P plies (default 4) are random: the first stone within two
//! points of the centre, later ones among the legal points near the stones. After them each
//! move is the search's (K nodes, default 20000, one thread, a fresh 16 MiB table per game),
//! except that with probability E percent (default 0) it is again a random legal point near
//! the stones. Everything random comes from the seed X (default 0) and the game's number, and
//! the search is limited by nodes only, so the same arguments give the same file, byte for
//! byte. Because a game depends only on the seed and its number, runs of games F..F+N that
//! cover 0..M, their headers but the first dropped, concatenate to the file of one run of M
//! games: `scripts/gen_data.py` spreads a run over many processes or machines that way. A game ends at a five (per rule; in renju black never plays a forbidden point, and a
//! white four whose block is forbidden is played out) or a draw: a full board, or in renju 25
//! empty points or fewer (as `scripts/gorinkit/referee.py` judges it).
//!
//! # GRN1 format (version 1), little-endian throughout
//!
//! File header (8 bytes): the magic `GRN1` (4 ASCII bytes), `u16` version = 1, `u16`
//! shape_count = `eval::SHAPE_COUNT`. Then records back to back until the end of the file, one
//! per position before a move (every ply of every game, random ones included):
//!
//! | bytes | field | meaning |
//! |---|---|---|
//! | u8 | rule | `INFO rule`: 0 freestyle, 1 standard, 4 renju, 8 caro, 9 caro exact |
//! | u8 | width | 5..32 |
//! | u8 | height | 5..32 |
//! | u8 | to_move | 1 black, 2 white |
//! | u16 | ply | stones on the board |
//! | u16 | move | the move played from this position, `y * width + x` |
//! | i16 | value | the search's score for the side to move, clamped to [-20000, 20000] (a proved win or loss is +/-20000); 0 for a random move (see below for forced answers) |
//! | i8 | result | the game's result for the side to move: +1 win, 0 draw, -1 loss |
//! | u8 | flags | bit 0: a random (exploration) move; bit 1: the search proved a win or loss; bit 2: a teacher's value (`scripts/relabel.py`); bit 3: a side position (below) |
//! | width*height u8 | cells | row-major (`y * width + x`): 0 empty, 1 black, 2 white |
//! | width*height x 2 u16 | features | row-major, per point `Board::shape(p, Black)`, `Board::shape(p, White)`: each in 0..shape_count, 0 for an occupied point |
//!
//! A record takes `12 + 5 * width * height` bytes (1137 at 15x15).
//!
//! The search answers some positions without a finished iteration and says 0 there: forced
//! answers (the block of a four, a single legal reply) and, at small node limits, positions
//! where the root threat search spent the budget. Such a record takes the value (and proved
//! flag) of the next searched record of its game, negated for each ply between (the position
//! after a forced move is the same game seen by the other side), unless a random move comes
//! first; then, and when the game ends before one, it keeps 0.
//!
//! With `--side N` (at most 8), each searched position of a game also gives up to N side
//! records: one of the search ordering's first eight other moves, drawn at random, is played,
//! and the position after it is searched with `--side-nodes` nodes (default 2000) and recorded
//! with that search's value and move, flag bit 3 set and result 0 (never played out, so the
//! trainer takes its value alone). These are the positions a search spends its nodes on and
//! self-play never reaches, where the evaluation decides between moves; a net trained only on
//! the games' own positions sees none of them. A game's side records follow its last record
//! (so each game's own records stay one run of increasing plies) and come from a random stream
//! of their own, so the game's records are the same with or without them. A side move that
//! wins at once, or a position answered without a finished iteration, gives no record.
//!
//! With `--net FILE` (a GNN1 net, as `INFO net_file` takes) the games and side positions are
//! searched with that net instead of the classic evaluation: the positions a net's own search
//! reaches, which are the ones its play depends on (records and features are the same format).
//!
//! Where the board has no shape for a point (`net::NO_SHAPE`: renju black's point that the line patterns already
//! forbid), the feature is the rank of its four line patterns (`eval::shape`), so every
//! feature stays within range; such points are forbidden to black whatever the rest of the
//! board.

use crate::board::{splitmix64, Board, MAX_CELLS, MAX_SIZE, MIN_SIZE};
use crate::eval::gnn::{self, Gnn};
use crate::eval::SHAPE_COUNT;
use crate::search::movepick::{self, is_legal, Refuters};
use crate::search::tt::Tt;
use crate::search::{is_decisive, Limits, Searcher, MAX_DEPTH};
use crate::types::{Color, Pos, Rule};
use anyhow::{anyhow, bail, Context, Result};
use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub const MAGIC: &[u8; 4] = b"GRN1";
pub const VERSION: u16 = 1;
/// Bytes before the cells of a record.
pub const RECORD_HEAD: usize = 12;
/// Where a record's `value`, `result` and `flags` sit (filled in later: the result when the
/// game ends, a forced block's value from the next record).
const VALUE_OFFSET: usize = 8;
const RESULT_OFFSET: usize = 10;
const FLAGS_OFFSET: usize = 11;
/// Largest `value` written; a proved win or loss is written as this.
pub const VALUE_LIMIT: i32 = 20_000;
pub const FLAG_RANDOM: u8 = 1;
pub const FLAG_PROVED: u8 = 2;
/// An off-game position (`--side`): one of the ordering's other first moves played from a game
/// position, valued by its own search. It was never played out, so its `result` is 0 and means
/// nothing; the trainer learns its value from the search alone.
pub const FLAG_SIDE: u8 = 8;
/// Side positions come from these many of the ordering's first moves (the played one left out):
/// the moves a search spends its nodes on, where its evaluation decides.
const SIDE_TOP: usize = 8;
/// Hash table of each game's searches (fresh per game, so a game depends only on its seed).
const HASH_BYTES: usize = 16 << 20;
/// Hash table of a game's side-position searches (`--side`; fresh per game too).
const SIDE_HASH_BYTES: usize = 4 << 20;
/// Renju: a draw when this many empty points or fewer are left (the match referee's rule).
const RENJU_DRAW_EMPTY: usize = 25;
/// The first random stone lies within this many points of the centre in both directions.
const OPENING_REACH: i64 = 2;

/// What `gen-data` was asked for.
#[derive(Clone, Debug)]
pub struct Options {
    pub games: usize,
    pub nodes: u64,
    pub rule: Rule,
    pub size: usize,
    pub seed: u64,
    pub random_plies: usize,
    /// Percent of the later moves that are random.
    pub explore: u32,
    /// Number of the first game (its randomness comes from the seed and this number).
    pub first_game: u64,
    /// Off-game records per searched game position (`FLAG_SIDE`).
    pub side: u32,
    /// Nodes of each side position's search.
    pub side_nodes: u64,
    /// The evaluation the games are searched with (`--net FILE`); `None` for the classic one.
    /// A net's search reaches other positions than the classic evaluation's, and those are the
    /// positions whose errors that net's play pays for.
    pub net: Option<Arc<Gnn>>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            games: 100,
            nodes: 20_000,
            rule: Rule::Freestyle,
            size: 15,
            seed: 0,
            random_plies: 4,
            explore: 0,
            first_game: 0,
            side: 0,
            side_nodes: 2_000,
            net: None,
        }
    }
}

/// What a run wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub games: usize,
    pub records: u64,
    /// Wins of black, of white, and draws.
    pub black: usize,
    pub white: usize,
    pub draws: usize,
}

/// What `gen-data --help` prints.
pub const USAGE: &str = "usage: pbrain-gorin gen-data --out FILE [--games N (100)] [--nodes K (20000)] \
[--rule 0|1|4|8|9 (0)] [--size S (15)] [--seed X (0)] [--random-plies P (4)] [--explore E (0, percent)] \
[--first-game F (0)] [--side N (0)] [--side-nodes K (2000)] [--net FILE (classic evaluation)]";

pub fn run(args: &[String]) -> Result<()> {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return Ok(());
    }
    let (out, options) = parse_args(args)?;
    let file = std::fs::File::create(&out).with_context(|| format!("cannot create '{out}'"))?;
    let mut writer = std::io::BufWriter::new(file);
    let start = Instant::now();
    let s = generate(&options, &mut writer)?;
    writer.flush().with_context(|| format!("cannot write '{out}'"))?;
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "gen-data: {} games ({} black wins, {} white wins, {} draws), {} records in {:.1} s, {:.1} records/s, {out}",
        s.games,
        s.black,
        s.white,
        s.draws,
        s.records,
        secs,
        s.records as f64 / secs.max(1e-9)
    );
    Ok(())
}

/// `--out FILE` and the optional settings, in any order.
fn parse_args(args: &[String]) -> Result<(String, Options)> {
    let mut o = Options::default();
    let mut out = None;
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        let value = rest.next().with_context(|| format!("{flag} needs a value"))?;
        let number = || value.parse::<u64>().with_context(|| format!("{flag} '{value}' is not a number"));
        match flag.as_str() {
            "--out" => out = Some(value.clone()),
            "--games" => o.games = number()? as usize,
            "--nodes" => o.nodes = number()?.max(1),
            "--rule" => {
                let v = number()?;
                o.rule = Rule::from_info_value(v)
                    .with_context(|| format!("--rule {v}: one of 0, 1, 4, 8, 9"))?;
            }
            "--size" => {
                o.size = number()? as usize;
                if !(MIN_SIZE..=MAX_SIZE).contains(&o.size) {
                    bail!("--size {}: from {MIN_SIZE} to {MAX_SIZE}", o.size);
                }
            }
            "--seed" => o.seed = number()?,
            "--random-plies" => o.random_plies = number()? as usize,
            "--explore" => {
                o.explore = number()? as u32;
                if o.explore > 100 {
                    bail!("--explore {}: a percentage, 0..100", o.explore);
                }
            }
            "--first-game" => o.first_game = number()?,
            "--side" => o.side = number()?.min(SIDE_TOP as u64) as u32,
            "--side-nodes" => o.side_nodes = number()?.max(1),
            "--net" => {
                let net = Gnn::load_searchable(value).map_err(|why| anyhow!("--net {value}: {why}"))?;
                o.net = Some(Arc::new(net));
            }
            _ => bail!(
                "unknown option '{flag}' (--out --games --nodes --rule --size --seed --random-plies --explore \
                 --first-game --side --side-nodes --net)"
            ),
        }
    }
    let out = out.context("--out FILE is required")?;
    Ok((out, o))
}

/// Bytes of one record on a `width` x `height` board.
pub fn record_size(width: usize, height: usize) -> usize {
    RECORD_HEAD + 5 * width * height
}

/// One record of a GRN1 file, its fields as the format names them.
#[derive(Debug)]
pub struct Record {
    pub rule: u8,
    pub width: usize,
    pub height: usize,
    /// 1 black, 2 white.
    pub to_move: u8,
    pub ply: usize,
    /// `y * width + x`.
    pub mv: usize,
    pub value: i16,
    pub result: i8,
    pub flags: u8,
    /// 0 empty, 1 black, 2 white; row-major.
    pub cells: Vec<u8>,
    /// (black's shape, white's shape) per point; row-major.
    pub features: Vec<[u16; 2]>,
}

/// A GRN1 cell or side-to-move byte: 0 empty, 1 black, 2 white; `Err` for anything else.
fn cell_colour(c: u8) -> Result<Option<Color>> {
    match c {
        0 => Ok(None),
        1 => Ok(Some(Color::Black)),
        2 => Ok(Some(Color::White)),
        _ => bail!("a cell or side to move of {c}"),
    }
}

impl Record {
    /// The net's inputs for this position (as scripts/train/records.py's `inputs`).
    pub fn points(&self) -> Vec<gnn::Point> {
        let colour = |c: u8| cell_colour(c).expect("read_records checked the cells");
        let to_move = colour(self.to_move).expect("read_records checked the side to move");
        self.cells
            .iter()
            .zip(&self.features)
            .map(|(&c, &f)| gnn::Point::from_record(colour(c), f, to_move))
            .collect()
    }

    /// The record's position on a board of its rule and size, its side to move set.
    pub fn board(&self) -> Result<Board> {
        let rule = Rule::from_info_value(u64::from(self.rule))
            .with_context(|| format!("rule {} unknown", self.rule))?;
        if !(MIN_SIZE..=MAX_SIZE).contains(&self.width) || !(MIN_SIZE..=MAX_SIZE).contains(&self.height) {
            bail!("a {}x{} board", self.width, self.height);
        }
        let mut b = Board::new(self.width, self.height, rule);
        for (at, &c) in self.cells.iter().enumerate() {
            if let Some(colour) = cell_colour(c)? {
                let p = b.pos((at % self.width) as i64, (at / self.width) as i64).context("on the board")?;
                b.place(p, colour);
            }
        }
        b.set_side_to_move(cell_colour(self.to_move)?.context("no side to move")?);
        Ok(b)
    }
}

/// Reads a whole GRN1 file: (its shape count, its records). For tests and tools: the trainer
/// has its own reader (scripts/train/records.py).
pub fn read_records(bytes: &[u8]) -> Result<(u16, Vec<Record>)> {
    let u16_at = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
    if bytes.len() < 8 || &bytes[..4] != MAGIC || u16_at(4) != VERSION {
        bail!("not a GRN1 version {VERSION} file");
    }
    let shape_count = u16_at(6);
    let mut records = Vec::new();
    let mut at = 8;
    while at < bytes.len() {
        if bytes.len() - at < RECORD_HEAD {
            bail!("a record cut short at byte {at}");
        }
        let (width, height) = (usize::from(bytes[at + 1]), usize::from(bytes[at + 2]));
        let n = width * height;
        if bytes.len() - at < record_size(width, height) {
            bail!("a record cut short at byte {at}");
        }
        let cells = bytes[at + RECORD_HEAD..at + RECORD_HEAD + n].to_vec();
        if !matches!(bytes[at + 3], 1 | 2) || cells.iter().any(|&c| c > 2) {
            bail!("a side to move or a cell out of range in the record at byte {at}");
        }
        let f = at + RECORD_HEAD + n;
        let features = (0..n).map(|i| [u16_at(f + 4 * i), u16_at(f + 4 * i + 2)]).collect();
        records.push(Record {
            rule: bytes[at],
            width,
            height,
            to_move: bytes[at + 3],
            ply: usize::from(u16_at(at + 4)),
            mv: usize::from(u16_at(at + 6)),
            value: u16_at(at + 8) as i16,
            result: bytes[at + 10] as i8,
            flags: bytes[at + 11],
            cells,
            features,
        });
        at += record_size(width, height);
    }
    Ok((shape_count, records))
}

/// The classic static evaluation of every record's position, for the side to move, in order:
/// what a residual net (`scripts/train`, `--residual`) learns to correct. Written by
/// `pbrain-gorin static-eval IN.grn1 OUT` as `GSE1`, `u32` count, then one `i16` per record
/// (little-endian; clamped to the i16 range).
pub fn static_evals(records: &[Record]) -> Result<Vec<i16>> {
    records
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut b = r.board().with_context(|| format!("record {i}"))?;
            b.set_net(None);
            Ok(b.evaluate().clamp(i16::MIN as i32, i16::MAX as i32) as i16)
        })
        .collect()
}

/// `pbrain-gorin static-eval IN.grn1 OUT`: `static_evals` of a GRN1 file.
pub fn run_static(args: &[String]) -> Result<()> {
    let [input, out] = args else { bail!("usage: pbrain-gorin static-eval IN.grn1 OUT") };
    let bytes = std::fs::read(input).with_context(|| format!("cannot read '{input}'"))?;
    let (_, records) = read_records(&bytes)?;
    let values = static_evals(&records)?;
    let mut data = b"GSE1".to_vec();
    data.extend_from_slice(&(values.len() as u32).to_le_bytes());
    for v in &values {
        data.extend_from_slice(&v.to_le_bytes());
    }
    write_whole(out, &data)?;
    eprintln!("static-eval: {} records, {out}", values.len());
    Ok(())
}

/// Writes `data` to `out` whole or not at all: a half-written file would misalign every later
/// record or value.
fn write_whole(out: &str, data: &[u8]) -> Result<()> {
    let tmp = format!("{out}.partial");
    std::fs::write(&tmp, data).with_context(|| format!("cannot write '{tmp}'"))?;
    std::fs::rename(&tmp, out).with_context(|| format!("cannot rename '{tmp}' to '{out}'"))?;
    Ok(())
}

/// `pbrain-gorin features IN.grn1 OUT.grn1`: the same records with every point's features
/// computed by the engine from the record's cells, so that records written outside the engine
/// (`scripts/games_to_records.py`, from finished games) carry the features the engine's own
/// `gen-data` would have written; the rest of each record is kept as it was.
pub fn run_features(args: &[String]) -> Result<()> {
    let [input, out] = args else { bail!("usage: pbrain-gorin features IN.grn1 OUT.grn1") };
    let bytes = std::fs::read(input).with_context(|| format!("cannot read '{input}'"))?;
    let data = with_features(&bytes)?;
    write_whole(out, &data)?;
    eprintln!("features: {} bytes, {out}", data.len());
    Ok(())
}

/// `pbrain-gorin line-features IN.grn1 OUT.glf1`: the line classes of every record's points
/// (`line_features`), the lines nets' inputs, in a side file the trainer reads beside the records.
pub fn run_line_features(args: &[String]) -> Result<()> {
    let [input, out] = args else { bail!("usage: pbrain-gorin line-features IN.grn1 OUT.glf1") };
    let bytes = std::fs::read(input).with_context(|| format!("cannot read '{input}'"))?;
    let data = line_features(&bytes)?;
    write_whole(out, &data)?;
    eprintln!("line-features: {} bytes, {out}", data.len());
    Ok(())
}

/// Magic of a line-feature side file (GLF1).
pub const LINE_MAGIC: &[u8; 4] = b"GLF1";

/// A GLF1 file for a GRN1 file's records: the magic, `u16` version 1, `u16` reach
/// (`gnn::lines::REACH`), `u32` class count (`gnn::lines::CLASS_COUNT`), then per record and
/// per point in its row-major order the point's four line classes (`u16`, direction order
/// horizontal, vertical, diagonal, anti-diagonal) from the side to move's view, all 0 on a
/// stone: `8 * width * height` bytes a record.
pub fn line_features(bytes: &[u8]) -> Result<Vec<u8>> {
    let (_, records) = read_records(bytes)?;
    let mut data = Vec::new();
    data.extend_from_slice(LINE_MAGIC);
    data.extend_from_slice(&1u16.to_le_bytes());
    data.extend_from_slice(&(gnn::lines::REACH as u16).to_le_bytes());
    data.extend_from_slice(&(gnn::lines::CLASS_COUNT as u32).to_le_bytes());
    for (i, r) in records.iter().enumerate() {
        let b = r.board().with_context(|| format!("record {i}"))?;
        for q in row_major(&b) {
            for c in point_line_classes(&b, q) {
                data.extend_from_slice(&c.to_le_bytes());
            }
        }
    }
    Ok(data)
}

/// A point's line classes as a GLF1 file holds them: from the side to move's view, 0 on a stone.
fn point_line_classes(b: &Board, q: Pos) -> [u16; 4] {
    if b.is_empty(q) {
        b.line_classes(q, b.side_to_move())
    } else {
        [0; 4]
    }
}

/// A GRN1 file's bytes with each record's features recomputed from its cells (`run_features`).
pub fn with_features(bytes: &[u8]) -> Result<Vec<u8>> {
    let (_, records) = read_records(bytes)?;
    let mut data = Vec::with_capacity(bytes.len());
    data.extend_from_slice(&file_header());
    let mut at = 8;
    for (i, r) in records.iter().enumerate() {
        let b = r.board().with_context(|| format!("record {i}"))?;
        let head = at + RECORD_HEAD + r.width * r.height;
        data.extend_from_slice(&bytes[at..head]);
        push_features(&b, &mut data);
        at += record_size(r.width, r.height);
    }
    Ok(data)
}

/// A GRN1 file's first 8 bytes: the magic, the version and the engine's shape count.
fn file_header() -> [u8; 8] {
    let mut header = [0; 8];
    header[..4].copy_from_slice(MAGIC);
    header[4..6].copy_from_slice(&VERSION.to_le_bytes());
    header[6..].copy_from_slice(&(SHAPE_COUNT as u16).to_le_bytes());
    header
}

/// Plays the games and writes the header and their records to `out`.
pub fn generate(o: &Options, out: &mut impl Write) -> Result<Summary> {
    out.write_all(&file_header())?;
    let mut summary = Summary::default();
    let mut bytes = Vec::new();
    for game in 0..o.games as u64 {
        bytes.clear();
        let winner = play_game(o, o.first_game.wrapping_add(game), &mut bytes)?;
        out.write_all(&bytes)?;
        summary.games += 1;
        summary.records += (bytes.len() / record_size(o.size, o.size)) as u64;
        match winner {
            Some(Color::Black) => summary.black += 1,
            Some(Color::White) => summary.white += 1,
            None => summary.draws += 1,
        }
    }
    Ok(summary)
}

/// Plays game number `game` and appends its records to `bytes`, results filled in; returns
/// the winner (`None` for a draw).
fn play_game(o: &Options, game: u64, bytes: &mut Vec<u8>) -> Result<Option<Color>> {
    let mut rng = o.seed ^ game.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    splitmix64(&mut rng);
    let mut b = Board::new(o.size, o.size, o.rule);
    b.set_net(o.net.clone());
    let mut tt = Tt::new(HASH_BYTES);
    let size = record_size(o.size, o.size);
    let start = bytes.len();
    // Records of forced answers in a row, whose values wait for the next searched one.
    let mut pending: Vec<usize> = Vec::new();
    // Side records go after the game's own, so that the game's records stay one run of
    // increasing plies (how readers find games); their randomness is a stream of its own, so
    // that the game is the same with or without them.
    let mut side_bytes = Vec::new();
    let mut side_rng = rng ^ 0x5DE0_F1A6_0C3B_27D9;
    let mut side_tt = if o.side > 0 { Some(Tt::new(SIDE_HASH_BYTES)) } else { None };
    let winner = loop {
        if is_draw(&b) {
            break None;
        }
        let random = b.stone_count() < o.random_plies
            || (o.explore > 0 && splitmix64(&mut rng) % 100 < u64::from(o.explore));
        let choice =
            if random { random_move(&mut b, &mut rng) } else { searched_move(&mut b, &mut tt, o.nodes) };
        let Some(c) = choice else {
            break None; // renju: black has no legal point left
        };
        if !is_legal(&mut b, c.pos) {
            bail!("game {game}: the search chose {}, not a legal move", b.pos_name(c.pos));
        }
        if c.forced {
            pending.push(bytes.len());
        } else if c.flags & FLAG_RANDOM != 0 {
            pending.clear();
        } else {
            // Each earlier record belongs to the other side of the one after it.
            let mut value = c.value;
            for at in pending.drain(..).rev() {
                value = -value;
                bytes[at + VALUE_OFFSET..at + VALUE_OFFSET + 2]
                    .copy_from_slice(&(value as i16).to_le_bytes());
                bytes[at + FLAGS_OFFSET] |= c.flags & FLAG_PROVED;
            }
        }
        if let Some(side_tt) = side_tt.as_mut().filter(|_| !random) {
            side_records(&mut b, c.pos, o, side_tt, &mut side_rng, &mut side_bytes);
        }
        write_record(&b, c.pos, c.value, c.flags, bytes);
        let mover = b.side_to_move();
        b.make(c.pos);
        if b.is_win_at(c.pos) {
            break Some(mover);
        }
    };
    for record in bytes[start..].chunks_exact_mut(size) {
        let to_move = if record[3] == 1 { Color::Black } else { Color::White };
        record[RESULT_OFFSET] = match winner {
            None => 0,
            Some(c) if c == to_move => 1,
            Some(_) => (-1i8) as u8,
        };
    }
    bytes.extend_from_slice(&side_bytes);
    Ok(winner)
}

/// Appends up to `o.side` side records of the game position `b` (whose move is `played`): each
/// plays one of the ordering's first `SIDE_TOP` other moves, drawn at random, and records the
/// position after it with its own search's value and move. A move that wins at once, or a
/// position the search answers without a finished iteration (a forced answer, whose value is
/// 0), gives no record.
fn side_records(b: &mut Board, played: Pos, o: &Options, tt: &mut Tt, rng: &mut u64, out: &mut Vec<u8>) {
    let mut moves = Vec::new();
    movepick::generate(b, &mut moves, &Refuters::NONE, &[0; MAX_CELLS], Pos::NONE);
    let mut others: Vec<Pos> = moves.iter().map(|m| m.pos).filter(|&p| p != played).take(SIDE_TOP).collect();
    for _ in 0..o.side {
        if others.is_empty() {
            break;
        }
        let p = others.swap_remove((splitmix64(rng) % others.len() as u64) as usize);
        if !is_legal(b, p) {
            continue;
        }
        b.make(p);
        if !b.is_win_at(p) && !is_draw(b) {
            if let Some(c) = searched_move(b, tt, o.side_nodes).filter(|c| !c.forced) {
                write_record(b, c.pos, c.value, c.flags | FLAG_SIDE, out);
            }
        }
        b.undo();
    }
}

/// The match referee's draw: a full board, or in renju few empty points left.
fn is_draw(b: &Board) -> bool {
    let empty = b.width() * b.height() - b.stone_count();
    empty == 0 || (b.rule() == Rule::Renju && empty <= RENJU_DRAW_EMPTY)
}

/// A move chosen for the game, with what its record says about it.
struct Choice {
    pos: Pos,
    /// The record's `value` and `flags`.
    value: i32,
    flags: u8,
    /// The search answered without a finished iteration (a forced answer such as the block
    /// of a four, or a node budget spent by the root threat search) and said 0: the record
    /// takes the value of the next searched record of the game, negated for the other side,
    /// when no random move comes between (else it keeps 0).
    forced: bool,
}

/// A random legal point: near the centre on the empty board, else near the stones (any empty
/// point when none near the stones is legal). `None` when there is no legal point at all.
fn random_move(b: &mut Board, rng: &mut u64) -> Option<Choice> {
    let mut points = Vec::new();
    if b.stone_count() == 0 {
        let (cx, cy) = (b.width() as i64 / 2, b.height() as i64 / 2);
        for y in cy - OPENING_REACH..=cy + OPENING_REACH {
            for x in cx - OPENING_REACH..=cx + OPENING_REACH {
                points.extend(b.pos(x, y));
            }
        }
    } else {
        points = legal_points(b, true);
        if points.is_empty() {
            points = legal_points(b, false);
        }
    }
    if points.is_empty() {
        return None;
    }
    let pos = points[(splitmix64(rng) % points.len() as u64) as usize];
    Some(Choice { pos, value: 0, flags: FLAG_RANDOM, forced: false })
}

/// The legal points near the stones (`near`), or on the whole board.
fn legal_points(b: &mut Board, near: bool) -> Vec<Pos> {
    let mut points = Vec::new();
    if near {
        b.for_each_candidate(|p| points.push(p));
    } else {
        b.for_each_empty(|p| points.push(p));
    }
    points.retain(|&p| is_legal(b, p));
    points
}

/// The search's move (limited to `nodes`, one thread), its value clamped to the format's
/// range, and whether that value is proved. The empty board gets the centre, as the engine
/// plays it; `None` when there is no legal point at all.
fn searched_move(b: &mut Board, tt: &mut Tt, nodes: u64) -> Option<Choice> {
    if b.stone_count() == 0 {
        return b.pos(b.width() as i64 / 2, b.height() as i64 / 2).map(|pos| Choice {
            pos,
            value: 0,
            flags: 0,
            forced: false,
        });
    }
    tt.new_search();
    let never = || false;
    let limits = Limits {
        start: Instant::now(),
        soft: Duration::MAX,
        hard: Duration::MAX,
        max_depth: MAX_DEPTH,
        max_nodes: nodes,
        stop: &never,
    };
    let out = Searcher::new(tt, limits, b.rule()).run(b, |_| {});
    if out.best == Pos::NONE || !b.is_empty(out.best) {
        return None;
    }
    if !is_legal(b, out.best) {
        // The search falls back to any point when renju black has no legal one.
        if legal_points(b, false).is_empty() {
            return None;
        }
    }
    let proved = is_decisive(out.score);
    let value =
        if proved { VALUE_LIMIT * out.score.signum() } else { out.score.clamp(-VALUE_LIMIT, VALUE_LIMIT) };
    // Depth 0 and no proof: a move played without a finished iteration (a forced answer).
    let forced = out.depth == 0 && !proved;
    Some(Choice { pos: out.best, value, flags: if proved { FLAG_PROVED } else { 0 }, forced })
}

/// Appends the record of the position `b` with `p` about to be played (result 0 for now).
fn write_record(b: &Board, p: Pos, value: i32, flags: u8, bytes: &mut Vec<u8>) {
    let (w, h) = (b.width(), b.height());
    let index = |p: Pos| {
        let (x, y) = b.xy(p);
        (y * w + x) as u16
    };
    let colour_byte = |c: Color| match c {
        Color::Black => 1u8,
        Color::White => 2u8,
    };
    bytes.push(b.rule().info_value() as u8);
    bytes.push(w as u8);
    bytes.push(h as u8);
    bytes.push(colour_byte(b.side_to_move()));
    bytes.extend_from_slice(&(b.stone_count() as u16).to_le_bytes());
    bytes.extend_from_slice(&index(p).to_le_bytes());
    bytes.extend_from_slice(&(value as i16).to_le_bytes());
    bytes.push(0);
    bytes.push(flags);
    bytes.extend(row_major(b).map(|q| b.get(q).map_or(0, colour_byte)));
    push_features(b, bytes);
}

/// The board's points in a record's order: row by row, `y * width + x`.
fn row_major(b: &Board) -> impl Iterator<Item = Pos> + '_ {
    (0..b.height())
        .flat_map(move |y| (0..b.width()).map(move |x| (x, y)))
        .filter_map(|(x, y)| b.pos(x as i64, y as i64))
}

/// Appends a record's features of the position `b`: every point's two, in `row_major` order.
fn push_features(b: &Board, bytes: &mut Vec<u8>) {
    for q in row_major(b) {
        for f in features(b, q) {
            bytes.extend_from_slice(&f.to_le_bytes());
        }
    }
}

/// A point's two features as a record holds them: for black, for white; 0 on a stone.
fn features(b: &Board, q: Pos) -> [u16; 2] {
    if b.is_empty(q) {
        [b.feature(q, Color::Black), b.feature(q, Color::White)]
    } else {
        [0, 0]
    }
}

/// The inputs of the trainer's net (`eval::gnn`) for the position `b`, row-major, as the net
/// reads them from the position's record.
pub fn gnn_points(b: &Board) -> Vec<gnn::Point> {
    row_major(b).map(|q| gnn::Point::from_record(b.get(q), features(b, q), b.side_to_move())).collect()
}

#[cfg(test)]
mod tests;
