"""A gauntlet: the engine under test against a list of opponents in each Gomocup league, with
the league's openings, a per-move time and optionally a game clock; a Markdown table and an SVG
chart of the Elo per league.

Usage: python3 scripts/gauntlet.py --opponent self=/tmp/gorin-copy --games 6 --turn-ms 100
       python3 scripts/gauntlet.py --config gauntlet.json

Every pairing is a match of matchplay.py (the same referee, clock and records). Its games go to
`RESULTS/gauntlet/LEAGUE--OPPONENT.jsonl` and, once the pairing is finished, its settings and
counts to the `.json` beside it; a gauntlet started again with the same settings reads finished
pairings back instead of playing them (a pairing that was interrupted is played again from its
first game, and one whose settings changed is replayed). The table and the chart are written
from those files after every pairing.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import shlex
import signal
import sys
import threading
import xml.sax.saxutils as sax
from dataclasses import asdict, dataclass, field
from pathlib import Path

from . import matchplay
from .brain import out
from .paths import DEFAULT_ENGINE, OPENINGS, SCRIPTS
from .referee import OpeningError, read_jsonl


@dataclass(frozen=True)
class League:
    key: str
    title: str
    rule: int
    size: int
    openings: str  # a file of scripts/openings/ (offsets from the centre, so any size fits)


FREESTYLE_BOOK = "gorin_freestyle_15.txt"
# Gomocup has no shipped opening book for 20x20, exact five or caro here: their games start from
# the freestyle set, centred on the board (its offsets are from the centre), plus random plies.
LEAGUES = {lg.key: lg for lg in (
    League("freestyle15", "freestyle 15x15", 0, 15, FREESTYLE_BOOK),
    League("freestyle20", "freestyle 20x20", 0, 20, FREESTYLE_BOOK),
    League("standard15", "standard 15x15", 1, 15, FREESTYLE_BOOK),
    League("renju15", "renju 15x15", 4, 15, "renju_26_openings.txt"),
    League("caro15", "caro 15x15", 8, 15, FREESTYLE_BOOK),
)}
RANDOM_PLIES = 2  # so that 80 games of one pairing never replay one game
DEFAULT_OUT = SCRIPTS / "results"
ILLEGAL_KINDS = ("occupied", "off-board", "unparsable", "protocol", "forbidden")


@dataclass
class Opponent:
    name: str
    command: str
    leagues: tuple[str, ...] | None = None  # None: every league of the run


@dataclass
class Config:
    engine: str = DEFAULT_ENGINE
    name: str = "gorin"
    opponents: list[Opponent] = field(default_factory=list)
    leagues: list[str] = field(default_factory=lambda: list(LEAGUES))
    games: int = 20
    turn_ms: int = 1000
    match_ms: int | None = None
    tolerance_ms: int = 1000
    send_delay_ms: int = 0
    jobs: int = 1
    seed: int = 1
    info: list[tuple[str, str]] = field(default_factory=list)
    engine_info: list[tuple[str, str]] = field(default_factory=list)  # for the engine under test only
    out: str = str(DEFAULT_OUT)
    command: str = ""  # the command line that ran it, for the table's header


class ConfigError(ValueError):
    pass


def parse_opponent(text: str) -> Opponent:
    """`NAME=COMMAND`, or `LEAGUE[,LEAGUE...]:NAME=COMMAND` for some leagues only."""
    if "=" not in text:
        raise ConfigError(f"opponent {text!r}: expected [LEAGUES:]NAME=COMMAND")
    head, command = text.split("=", 1)
    leagues = None
    if ":" in head:
        which, head = head.split(":", 1)
        leagues = tuple(w.strip() for w in which.split(",") if w.strip())
        unknown = [w for w in leagues if w not in LEAGUES]
        if unknown or not leagues:
            raise ConfigError(f"opponent {text!r}: unknown league {', '.join(unknown) or '(none)'}; "
                              f"leagues: {', '.join(LEAGUES)}")
    name = head.strip()
    if not re.fullmatch(r"[A-Za-z0-9_.+-]+", name):
        raise ConfigError(f"opponent {text!r}: a name is letters, digits and _.+- only")
    if not command.strip():
        raise ConfigError(f"opponent {text!r}: empty command")
    return Opponent(name, command.strip(), leagues)


def _opponent_from_json(item) -> Opponent:
    if isinstance(item, str):
        return parse_opponent(item)
    if not isinstance(item, dict) or "name" not in item or "command" not in item:
        raise ConfigError(f"opponent {item!r}: an object with name and command (leagues optional)")
    leagues = item.get("leagues")
    text = (",".join(leagues) + ":" if leagues else "") + f"{item['name']}={item['command']}"
    return parse_opponent(text)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    # Defaults are None so that a --config file fills what the command line leaves out.
    p.add_argument("--config", help="JSON file with any of the options below (the command line wins)")
    p.add_argument("--engine", help=f"the brain under test (default {DEFAULT_ENGINE})")
    p.add_argument("--name", help="its name (default gorin)")
    p.add_argument("--opponent", action="append", metavar="[LEAGUES:]NAME=COMMAND",
                   help="an opponent (repeatable); LEAGUES (comma-separated) limits it to those leagues")
    p.add_argument("--leagues", help=f"comma-separated, of: {', '.join(LEAGUES)} (default all)")
    p.add_argument("--games", type=int, help="games per pairing (even: each opening with both colours; default 20)")
    p.add_argument("--turn-ms", type=int, help="INFO timeout_turn, the per-move limit (default 1000)")
    p.add_argument("--match-ms", type=int, help="INFO timeout_match, the game clock, time_left sent each move "
                                                "(default none)")
    p.add_argument("--tolerance-ms", type=int, help="a reply this much past the limit loses (default 1000)")
    p.add_argument("--send-delay-ms", type=int, help="wait after each reply (Rapfi needs ~60; default 0)")
    p.add_argument("-j", "--jobs", type=int, help="games at once (default 1)")
    p.add_argument("--seed", type=int, help="seed of the random plies (default 1)")
    p.add_argument("--info", action="append", type=matchplay.key_value, metavar="KEY=VALUE",
                   help="extra INFO line for both brains (repeatable), e.g. max_node=2000")
    p.add_argument("--engine-info", action="append", type=matchplay.key_value, metavar="KEY=VALUE",
                   help="extra INFO line for the engine under test only (repeatable), e.g. net=1")
    p.add_argument("--out", help=f"results folder (default {DEFAULT_OUT})")
    return p


def _pairs(key: str, config_value, cli: list | None) -> list[tuple[str, str]]:
    """INFO lines: the command line's if it gave any, else the config's ({key: value} or pairs)."""
    if cli:
        return list(cli)
    if isinstance(config_value, dict):
        config_value = list(config_value.items())
    if not isinstance(config_value, list) or not all(isinstance(kv, (list, tuple)) and len(kv) == 2
                                                     for kv in config_value):
        raise ConfigError(f"{key}: expected an object of INFO keys, got {config_value!r}")
    return [(str(k), str(v)) for k, v in config_value]


def make_config(argv: list[str], command: str = "") -> Config:
    """The run's settings: built-in defaults, then the --config file, then the command line."""
    a = parser().parse_args(argv)
    values: dict = {}
    if a.config:
        try:
            values = json.loads(Path(a.config).read_text())
        except (OSError, ValueError) as e:
            raise ConfigError(f"--config {a.config}: {e}") from None
        if not isinstance(values, dict):
            raise ConfigError(f"--config {a.config}: expected a JSON object")
        known = {f for f in Config.__dataclass_fields__ if f != "command"}
        unknown = sorted(set(values) - known)
        if unknown:
            raise ConfigError(f"--config {a.config}: unknown keys {', '.join(unknown)}")
    for key in ("engine", "name", "games", "turn_ms", "match_ms", "tolerance_ms", "send_delay_ms", "jobs",
                "seed", "out"):
        if getattr(a, key) is not None:
            values[key] = getattr(a, key)
    if a.leagues is not None:
        values["leagues"] = a.leagues.split(",")
    if isinstance(values.get("leagues"), str):
        values["leagues"] = values["leagues"].split(",")
    opponents = [_opponent_from_json(o) for o in values.pop("opponents", [])]
    if a.opponent:
        opponents = [parse_opponent(o) for o in a.opponent]
    info = _pairs("info", values.pop("info", {}), a.info)
    engine_info = _pairs("engine_info", values.pop("engine_info", {}), a.engine_info)
    for key in ("games", "turn_ms", "match_ms", "tolerance_ms", "send_delay_ms", "jobs", "seed"):
        v = values.get(key)
        if v is not None and (not isinstance(v, int) or isinstance(v, bool)):
            raise ConfigError(f"{key}: expected a whole number, got {v!r}")
    c = Config(**values, opponents=opponents, info=info, engine_info=engine_info, command=command)
    c.leagues = [lg.strip() for lg in c.leagues if lg.strip()]
    unknown = [lg for lg in c.leagues if lg not in LEAGUES]
    if unknown or not c.leagues:
        raise ConfigError(f"leagues: unknown {', '.join(unknown) or '(none given)'}; known: {', '.join(LEAGUES)}")
    if not c.opponents:
        raise ConfigError("no opponents: give --opponent NAME=COMMAND (or opponents in the config)")
    names = [o.name for o in c.opponents]
    if len(set(names)) != len(names) or c.name in names:
        raise ConfigError("opponent names must differ from each other and from the engine's name")
    if c.games < 1 or c.jobs < 1 or c.turn_ms < 0 or (c.match_ms is not None and c.match_ms < 0):
        raise ConfigError("--games and --jobs must be positive, --turn-ms and --match-ms not negative")
    return c


# ---------------------------------------------------------------------------------------------
# Pairings and their files
# ---------------------------------------------------------------------------------------------
@dataclass
class Pairing:
    league: League
    opponent: Opponent

    @property
    def stem(self) -> str:
        return f"{self.league.key}--{self.opponent.name}"


def pairings(c: Config) -> list[Pairing]:
    return [Pairing(LEAGUES[lg], o) for lg in c.leagues for o in c.opponents
            if o.leagues is None or lg in o.leagues]


def match_argv(c: Config, p: Pairing, jsonl: Path) -> list[str]:
    lg = p.league
    argv = ["--engine", c.engine, "--name", c.name, "--engine", p.opponent.command, "--name", p.opponent.name,
            "--games", str(c.games), "--rule", str(lg.rule), "--size", str(lg.size),
            "--turn-ms", str(c.turn_ms), "--tolerance-ms", str(c.tolerance_ms),
            "--send-delay-ms", str(c.send_delay_ms), "-j", str(c.jobs), "--seed", str(c.seed),
            "--openings", str(OPENINGS / lg.openings), "--random-plies", str(RANDOM_PLIES),
            "--jsonl", str(jsonl)]
    if c.match_ms:
        argv += ["--match-ms", str(c.match_ms)]
    for k, v in c.info:
        argv += ["--info", f"{k}={v}"]
    for k, v in c.engine_info:
        argv += ["--info1", f"{k}={v}"]
    return argv


def settings_of(c: Config, p: Pairing) -> dict:
    """What decides a pairing's games: a finished pairing is reused only when these are equal."""
    return {"league": asdict(p.league), "engine": c.engine, "name": c.name, "opponent": p.opponent.name,
            "opponent_command": p.opponent.command, "games": c.games, "turn_ms": c.turn_ms,
            "match_ms": c.match_ms, "tolerance_ms": c.tolerance_ms, "send_delay_ms": c.send_delay_ms,
            "seed": c.seed, "random_plies": RANDOM_PLIES, "info": [list(kv) for kv in c.info],
            **({"engine_info": [list(kv) for kv in c.engine_info]} if c.engine_info else {})}


def pair_dir(c: Config) -> Path:
    return Path(c.out) / "gauntlet"


def load_finished(c: Config, p: Pairing) -> dict | None:
    """The finished pairing's record (settings, counts, games) if its files match `c`."""
    meta_path = pair_dir(c) / f"{p.stem}.json"
    games_path = pair_dir(c) / f"{p.stem}.jsonl"
    try:
        meta = json.loads(meta_path.read_text())
        games = read_jsonl(games_path)
    except (OSError, ValueError):
        return None
    if meta.get("settings") != settings_of(c, p) or len(games) != meta.get("played"):
        return None
    meta["games"] = games
    return meta


def play(c: Config, p: Pairing) -> tuple[dict | None, bool]:
    """Plays one pairing; returns its record (None if it could not start) and whether it was
    interrupted. The record is saved only when the pairing finished."""
    folder = pair_dir(c)
    folder.mkdir(parents=True, exist_ok=True)
    games_path, meta_path = folder / f"{p.stem}.jsonl", folder / f"{p.stem}.json"
    meta_path.unlink(missing_ok=True)  # from now on the pairing is unfinished until saved again
    a = matchplay.parse_args(match_argv(c, p, games_path))
    out(f"gauntlet: {p.league.title}: {c.name} vs {p.opponent.name}, {c.games} games")
    try:
        m, elapsed, interrupted = matchplay.run(a)
    except OpeningError as e:
        out(f"error: {e}")
        return None, False
    matchplay.summary(m, elapsed)
    if interrupted:
        return None, True
    games = read_jsonl(games_path)
    meta = {
        "settings": settings_of(c, p), "played": len(games), "seconds": round(elapsed),
        "over_limit": {m.names[e]: m.stats[e].over_limit for e in (0, 1)},
        "script_errors": m.script_errors,
    }
    meta_path.write_text(json.dumps(meta, indent=1) + "\n")
    meta["games"] = games
    return meta, False


# ---------------------------------------------------------------------------------------------
# Scores and Elo
# ---------------------------------------------------------------------------------------------
@dataclass
class Row:
    league: str  # League.key
    opponent: str
    wins: int = 0
    losses: int = 0
    draws: int = 0
    forfeits: tuple[int, int] = (0, 0)  # games lost other than by a five or a draw: (ours, theirs)
    time_losses: tuple[int, int] = (0, 0)
    illegal: tuple[int, int] = (0, 0)  # occupied, off-board, unparsable, protocol, renju forbidden
    over_limit: tuple[int, int] = (0, 0)  # replies past the bare per-move limit
    pairs: list[float] = field(default_factory=list)  # mean score of each opening's two games

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def score(self) -> float:
        return (self.wins + self.draws / 2) / self.games if self.games else math.nan

    def scores(self) -> list[float]:
        return [1.0] * self.wins + [0.0] * self.losses + [0.5] * self.draws

    def add(self, other: Row) -> None:
        """Counts `other`'s games (of another run of the same pairing) into this row."""
        self.wins += other.wins
        self.losses += other.losses
        self.draws += other.draws
        for key in ("forfeits", "time_losses", "illegal", "over_limit"):
            a, b = getattr(self, key), getattr(other, key)
            setattr(self, key, (a[0] + b[0], a[1] + b[1]))
        self.pairs = self.pairs + other.pairs


def estimate(scores: list[float]) -> tuple[float, float, float]:
    """Elo of the mean score and its 95% interval (matchplay's: mean +/- 1.96 standard errors of
    the scores); infinite where a bound reaches a score of 0 or 1, NaN without scores."""
    if not scores:
        return math.nan, math.nan, math.nan
    lo, hi = matchplay.elo_interval(scores)
    return matchplay.elo(sum(scores) / len(scores)), lo, hi


def elo_estimate(row: Row) -> tuple[float, float, float]:
    """`estimate` of the per-game scores."""
    return estimate(row.scores())


def row_of(league: str, opponent: str, name: str, record: dict) -> Row:
    r = Row(league, opponent)
    counts = {"forfeits": [0, 0], "time_losses": [0, 0], "illegal": [0, 0]}
    played = []
    for g in record["games"]:
        if g.get("kind") == "interrupted":
            continue
        winner = g.get("winner")
        played.append((tuple(map(tuple, g.get("opening", []))), 0.5 if winner is None else float(winner == name)))
        if winner is None:
            r.draws += 1
            continue
        ours = winner == name
        if ours:
            r.wins += 1
        else:
            r.losses += 1
        loser = 1 if ours else 0  # index 0: the engine under test lost
        kind = g.get("kind", "")
        if kind in matchplay.LOSS_KINDS:
            counts["forfeits"][loser] += 1
        if kind == "time":
            counts["time_losses"][loser] += 1
        if kind in ILLEGAL_KINDS:
            counts["illegal"][loser] += 1
    for key, v in counts.items():
        setattr(r, key, tuple(v))
    over = record.get("over_limit", {})
    r.over_limit = (int(over.get(name, 0)), int(over.get(opponent, 0)))
    r.pairs = matchplay.pair_means(played)
    return r


def fmt_elo(value: float) -> str:
    if math.isnan(value):
        return "-"
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value + 0.0:+.0f}"


def interval_text(scores: list[float]) -> str:
    """`+57 +/- 48` when the interval is finite and symmetric enough to say so, else the bounds."""
    d, lo, hi = estimate(scores)
    if math.isnan(d):
        return "-"
    if math.isinf(d):
        return fmt_elo(d)
    if math.isinf(lo) or math.isinf(hi):
        return f"{fmt_elo(d)} [{fmt_elo(lo)}, {fmt_elo(hi)}]"
    return f"{fmt_elo(d)} +/- {(hi - lo) / 2:.0f}"


def elo_text(row: Row) -> str:
    return interval_text(row.scores())


def paired_elo_text(row: Row) -> str:
    """The Elo interval over the pairs of games played from one opening, `-` with fewer than two
    pairs."""
    return interval_text(row.pairs) if len(row.pairs) >= 2 else "-"


def pair_text(v: tuple[int, int]) -> str:
    return f"{v[0]}/{v[1]}"


def markdown(c: Config, rows: list[Row], pending: list[Pairing]) -> str:
    clock = f", game clock {c.match_ms} ms (`timeout_match`, `time_left` before every move)" if c.match_ms else \
        ", no game clock"
    info = "".join(f", INFO {k} {v}" for k, v in c.info)
    info += "".join(f", INFO {k} {v} to {c.name} only" for k, v in c.engine_info)
    lines = [
        f"# Gauntlet of {c.name}",
        "",
        f"Regenerated by: `{c.command}`" if c.command else "",
        "",
        f"{c.games} games a pairing, each opening with both colours, {c.turn_ms} ms a move{clock}{info}, "
        f"{c.jobs} game(s) at a time, seed {c.seed}, {RANDOM_PLIES} random plies after each opening. "
        f"Openings: " + "; ".join(f"{LEAGUES[lg].title} `scripts/openings/{LEAGUES[lg].openings}`"
                                  for lg in c.leagues) + ".",
        f"Engine under test: `{c.engine}`; opponents: "
        + ", ".join(f"{o.name} = `{o.command}`" for o in c.opponents) + ".",
        "",
        f"W-L-D and score are {c.name}'s; Elo is {c.name}'s minus the opponent's (logistic, 95% interval from "
        "the per-game scores' standard error; *pairs*: from the standard error of the mean score of each "
        "opening's two games, which the openings' own bias does not widen). Forfeits (games lost otherwise than by a five: time, crash, "
        "illegal or forbidden move, failed start), time losses, illegal moves (occupied, off-board, "
        "unparsable, renju forbidden) and over-limit replies (later than the per-move limit, within the "
        f"tolerance) are counted as {c.name}/opponent.",
        "",
        "| league | opponent | W-L-D | games | score | Elo (95%) | Elo (95%, pairs) | forfeits | time losses "
        "| illegal moves | over-limit replies |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(f"| {LEAGUES[r.league].title} | {r.opponent} | {r.wins}-{r.losses}-{r.draws} | {r.games} "
                     f"| {r.score * 100:.1f}% | {elo_text(r)} | {paired_elo_text(r)} | {pair_text(r.forfeits)} | "
                     f"{pair_text(r.time_losses)} | {pair_text(r.illegal)} | {pair_text(r.over_limit)} |")
    if pending:
        lines += ["", "Not played yet: " + ", ".join(f"{p.league.title} vs {p.opponent.name}" for p in pending)
                  + "."]
    lines += ["", "Chart: [gauntlet.svg](gauntlet.svg)."]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# The chart
# ---------------------------------------------------------------------------------------------
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")
ELO_CAP = 800  # the axis never reaches past this: an infinite bound is drawn as an arrow
W, H = 760, 440
LEFT, RIGHT, TOP, BOTTOM = 80, 170, 50, 70


def axis_range(rows: list[Row]) -> tuple[int, int]:
    """[lo, hi] in Elo: covers every finite bound (capped at ELO_CAP) and 0, in steps of 100."""
    values = [0.0]
    for r in rows:
        values += [v for v in elo_estimate(r) if not math.isnan(v)]
    values = [max(-ELO_CAP, min(ELO_CAP, v)) for v in values]
    lo = math.floor(min(values) / 100) * 100
    hi = math.ceil(max(values) / 100) * 100
    if hi - lo < 200:
        lo, hi = lo - 100, hi + 100
    return int(lo), int(hi)


def svg_chart(c: Config, rows: list[Row], caption: str | None = None) -> str:
    """The chart of `rows`; `caption` replaces the title's bracket (the games and time of one run)."""
    esc = sax.escape
    lo, hi = axis_range(rows)
    plot_w, plot_h = W - LEFT - RIGHT, H - TOP - BOTTOM

    def y_of(v: float) -> float:
        v = max(lo, min(hi, v))
        return TOP + (hi - v) / (hi - lo) * plot_h

    leagues = [lg for lg in c.leagues if any(r.league == lg for r in rows)] or list(c.leagues)
    opponents = [o.name for o in c.opponents]
    slot = plot_w / max(1, len(leagues))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" '
        'font-family="sans-serif" font-size="12">',
        f'<rect x="0" y="0" width="{W}" height="{H}" fill="white"/>',
        f'<text x="{LEFT + plot_w / 2:.1f}" y="22" text-anchor="middle" font-size="15">'
        f'{esc(c.name)}: Elo per league ('
        + (esc(caption) if caption is not None else
           f'{c.games} games a pairing, {c.turn_ms} ms a move'
           f'{", " + str(c.match_ms) + " ms a game" if c.match_ms else ""}')
        + ')</text>',
    ]
    step = 100 if hi - lo <= 800 else 200
    for v in range(lo, hi + 1, step):
        if v % step:
            continue
        y = y_of(v)
        parts.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + plot_w}" y2="{y:.1f}" '
                     f'stroke="{"#444" if v == 0 else "#ddd"}" stroke-width="{1.5 if v == 0 else 1}"/>')
        parts.append(f'<text x="{LEFT - 8}" y="{y + 4:.1f}" text-anchor="end">{v:+d}</text>'
                     if v else f'<text x="{LEFT - 8}" y="{y + 4:.1f}" text-anchor="end">0</text>')
    parts.append(f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#444"/>')
    parts.append(f'<text transform="translate(22,{TOP + plot_h / 2:.1f}) rotate(-90)" text-anchor="middle">'
                 f'Elo of {esc(c.name)} minus opponent (95% interval)</text>')
    parts.append(f'<text x="{LEFT + plot_w / 2:.1f}" y="{H - 18}" text-anchor="middle">league</text>')
    for i, lg in enumerate(leagues):
        x = LEFT + slot * (i + 0.5)
        parts.append(f'<text x="{x:.1f}" y="{TOP + plot_h + 20}" text-anchor="middle">'
                     f'{esc(LEAGUES[lg].title)}</text>')
    for i, lg in enumerate(leagues):
        here = [r for r in rows if r.league == lg]
        for j, r in enumerate(here):
            k = opponents.index(r.opponent) if r.opponent in opponents else 0
            colour = COLOURS[k % len(COLOURS)]
            # The league's opponents side by side within its slot, in the config's order.
            x = LEFT + slot * i + slot * (j + 1) / (len(here) + 1)
            d, e_lo, e_hi = elo_estimate(r)
            if math.isnan(d):
                continue
            parts.append(f'<g><title>{esc(LEAGUES[lg].title)} vs {esc(r.opponent)}: '
                         f'{r.wins}-{r.losses}-{r.draws}, {esc(elo_text(r))}</title>')
            if math.isinf(d):  # one side scored everything: a triangle at the edge, no interval
                sign = 1 if d > 0 else -1
                y_d = y_of(d)
                parts.append(f'<path d="M{x - 7:.1f},{y_d + sign * 10:.1f} L{x:.1f},{y_d:.1f} '
                             f'L{x + 7:.1f},{y_d + sign * 10:.1f} Z" fill="{colour}"/>')
                parts.append(f'<text x="{x + 10:.1f}" y="{y_d + sign * 12:.1f}" font-size="11">'
                             f'{esc(fmt_elo(d))}</text>')
                parts.append('</g>')
                continue
            y_lo, y_hi, y_d = y_of(e_lo), y_of(e_hi), y_of(d)
            parts.append(f'<line x1="{x:.1f}" y1="{y_lo:.1f}" x2="{x:.1f}" y2="{y_hi:.1f}" stroke="{colour}" '
                         'stroke-width="2"/>')
            for bound, yb in ((e_lo, y_lo), (e_hi, y_hi)):
                if bound < lo or bound > hi:  # clipped: an arrow says the interval goes further
                    sign = -1 if yb < y_d else 1
                    parts.append(f'<path d="M{x - 6:.1f},{yb - sign * 8:.1f} L{x:.1f},{yb:.1f} '
                                 f'L{x + 6:.1f},{yb - sign * 8:.1f}" fill="none" stroke="{colour}" '
                                 'stroke-width="2"/>')
                else:
                    parts.append(f'<line x1="{x - 6:.1f}" y1="{yb:.1f}" x2="{x + 6:.1f}" y2="{yb:.1f}" '
                                 f'stroke="{colour}" stroke-width="2"/>')
            parts.append(f'<circle cx="{x:.1f}" cy="{y_d:.1f}" r="5" fill="{colour}"/>')
            parts.append(f'<text x="{x + 9:.1f}" y="{y_d + 4:.1f}" font-size="11">{esc(fmt_elo(d))}</text>')
            parts.append('</g>')
    lx, ly = LEFT + plot_w + 16, TOP + 6
    parts.append(f'<text x="{lx}" y="{ly}" font-weight="bold">opponent</text>')
    for k, name in enumerate(opponents):
        y = ly + 20 * (k + 1)
        parts.append(f'<circle cx="{lx + 6}" cy="{y - 4}" r="5" fill="{COLOURS[k % len(COLOURS)]}"/>')
        parts.append(f'<text x="{lx + 18}" y="{y}">{esc(name)}</text>')
    notes = ("bar: 95% interval", f"arrow: it goes past {ELO_CAP}", "triangle: all won or lost")
    for k, note in enumerate(notes):
        parts.append(f'<text x="{lx}" y="{ly + 20 * (len(opponents) + 2) + 14 * k}" font-size="10" '
                     f'fill="#555">{esc(note)}</text>')
    parts.append('</svg>')
    return "\n".join(parts) + "\n"


# ---------------------------------------------------------------------------------------------
def write_report(c: Config, done: dict[str, dict], todo: list[Pairing]) -> tuple[Path, Path]:
    rows = [row_of(p.league.key, p.opponent.name, c.name, done[p.stem]) for p in pairings(c) if p.stem in done]
    pending = [p for p in todo if p.stem not in done]
    folder = Path(c.out)
    folder.mkdir(parents=True, exist_ok=True)
    md, svg = folder / "gauntlet.md", folder / "gauntlet.svg"
    md.write_text(markdown(c, rows, pending))
    svg.write_text(svg_chart(c, rows))
    return md, svg


def run(c: Config) -> int:
    """Plays every pairing not finished yet, writing the table and chart after each; returns the
    exit status: 0 done, 1 a pairing could not be played or had forfeits or over-limit replies
    (as match.py: the RESULT line says which), 130 interrupted."""
    todo = pairings(c)
    if not todo:
        out("gauntlet: no opponent plays any of the chosen leagues")
        return 2
    done: dict[str, dict] = {}
    status = 0
    for p in todo:
        record = load_finished(c, p)
        if record is not None:
            out(f"gauntlet: {p.league.title} vs {p.opponent.name}: finished before, {record['played']} games "
                "read back")
        else:
            record, interrupted = play(c, p)
            if interrupted:
                write_report(c, done, todo)
                out("gauntlet: interrupted; finished pairings are kept, run the same command again to go on")
                return 130
            if record is None:
                status = 1
                continue
        done[p.stem] = record
        write_report(c, done, todo)
    md, svg = write_report(c, done, todo)
    out(md.read_text())
    out(f"gauntlet: wrote {md} and {svg}")
    rows = [row_of(p.league.key, p.opponent.name, c.name, done[p.stem]) for p in todo if p.stem in done]
    bad = problems(c, rows) + [f"{p.league.key} vs {p.opponent.name} not played" for p in todo
                               if p.stem not in done]
    out("RESULT: " + ("OK" if not bad else "FAIL (" + "; ".join(bad) + ")"))
    return status or (1 if bad else 0)


def problems(c: Config, rows: list[Row]) -> list[str]:
    """What match.py would fail a match for, per pairing and side: forfeits (time, crash, illegal
    or forbidden move, failed start) and replies later than the per-move limit."""
    bad = []
    for r in rows:
        for what, counts in (("forfeits", r.forfeits), ("over-limit replies", r.over_limit)):
            who = [f"{name} {n}" for name, n in zip((c.name, r.opponent), counts) if n]
            if who:
                bad.append(f"{r.league} vs {r.opponent}: {what}: {', '.join(who)}")
    return bad


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # As in match.py: SIGINT/SIGTERM end the running pairing cleanly (brains killed), and the
    # finished pairings stay on disk for the next run.
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, matchplay._interrupt)
        signal.signal(signal.SIGTERM, matchplay._interrupt)
    command = "python3 scripts/gauntlet.py " + shlex.join(argv)
    try:
        c = make_config(argv, command.strip())
    except ConfigError as e:
        out(f"error: {e}")
        return 2
    for cmd in [c.engine] + [o.command for o in c.opponents]:
        words = shlex.split(cmd)
        if not words or ("/" in words[0] and not Path(words[0]).exists()):
            out(f"error: {cmd!r} does not exist (build Gorin with `cargo build --release`)")
            return 2
    return run(c)
