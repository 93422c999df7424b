#!/usr/bin/env python3
"""Where Gorin stands: the gauntlet runs of the present build pooled per league, as one Markdown
table and one SVG chart, regenerated from the result folders under `scripts/results/`.

A gauntlet run (`gauntlet.py`) writes its own table for its 40 games a league; those are too few
to tell a league from even, and each session adds runs. `scripts/results/standing.json` names,
per league, the build the figure is for and the runs played on it; this script reads each run's
`gauntlet/LEAGUE--OPPONENT.jsonl` (the games) and `.json` (its settings and over-limit counts),
pools them per league and opponent (W-L-D, Elo per game and over pairs of one opening's two
games, forfeits, time losses, illegal moves, late replies) and writes `standing.md` and
`standing.svg` beside the config. Runs of one league must share the time control and random
plies, or the pooled figure would mean nothing: the script refuses them. With `--readme`, the
table between README's two `standing.py` markers is rewritten too, so README's *Strength*
table is this one (a test checks that it is).

    python3 scripts/standing.py --readme README.md   # scripts/results/standing.json; README's table
    python3 scripts/standing.py --config other.json --out /tmp/standing
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from gorinkit import gauntlet as gt  # noqa: E402
from gorinkit import matchplay  # noqa: E402
from gorinkit.paths import SCRIPTS  # noqa: E402
from gorinkit.referee import read_jsonl  # noqa: E402

DEFAULT_CONFIG = SCRIPTS / "results" / "standing.json"
# Settings every run of one league must share to be pooled.
SHARED = ("turn_ms", "match_ms", "random_plies", "name")


class StandingError(ValueError):
    pass


@dataclass
class Entry:
    """One league of the config: the build its figure is for and the runs played on it."""
    league: str
    build: str
    runs: list[str]


@dataclass
class Pooled:
    """One league and opponent over all its runs."""
    row: gt.Row
    settings: dict
    runs: list[tuple[str, gt.Row]] = field(default_factory=list)


def read_config(path: Path) -> tuple[str, str, list[Entry]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise StandingError(f"{path}: {e}") from e
    if not isinstance(data, dict) or not isinstance(data.get("leagues"), list) or not data["leagues"]:
        raise StandingError(f"{path}: expected an object with a non-empty 'leagues' list")
    entries = []
    for item in data["leagues"]:
        if not isinstance(item, dict) or not {"league", "build", "runs"} <= item.keys():
            raise StandingError(f"{path}: each league needs 'league', 'build' and 'runs': {item!r}")
        if item["league"] not in gt.LEAGUES:
            raise StandingError(f"{path}: unknown league {item['league']!r}; leagues: {', '.join(gt.LEAGUES)}")
        runs = item["runs"]
        if not isinstance(runs, list) or not runs or not all(isinstance(r, str) and r for r in runs):
            raise StandingError(f"{path}: league {item['league']}: 'runs' is a non-empty list of folder names")
        if len(set(runs)) != len(runs):
            raise StandingError(f"{path}: league {item['league']}: a run is named twice")
        entries.append(Entry(item["league"], str(item["build"]), runs))
    if len({e.league for e in entries}) != len(entries):
        raise StandingError(f"{path}: a league is listed twice")
    return str(data.get("name", "gorin")), str(data.get("note", "")), entries


def read_run(folder: Path, league: str) -> list[tuple[dict, dict]]:
    """(settings, record with its games) of every opponent `league` was played against in the
    run folder."""
    found = []
    for meta in sorted((folder / "gauntlet").glob(f"{league}--*.json")):
        try:
            record = json.loads(meta.read_text(encoding="utf-8"))
            record["games"] = read_jsonl(meta.with_suffix(".jsonl"))
        except (OSError, json.JSONDecodeError) as e:
            raise StandingError(f"{meta}: {e}") from e
        if not record["games"]:
            raise StandingError(f"{meta}: no games")
        found.append((record.get("settings", {}), record))
    if not found:
        raise StandingError(f"{folder}: no {league} games (gauntlet/{league}--*.json)")
    return found


def pool(results: Path, name: str, entries: list[Entry]) -> list[Pooled]:
    pooled: dict[tuple[str, str], Pooled] = {}
    for e in entries:
        for run in e.runs:
            for settings, record in read_run(results / run, e.league):
                opponent = settings.get("opponent", "?")
                r = gt.row_of(e.league, opponent, settings.get("name", name), record)
                key = (e.league, opponent)
                if key not in pooled:
                    pooled[key] = Pooled(gt.Row(e.league, opponent), settings)
                p = pooled[key]
                clash = [k for k in SHARED if settings.get(k) != p.settings.get(k)]
                if clash:
                    raise StandingError(f"{run}: {e.league} vs {opponent}: {', '.join(clash)} differ from "
                                        f"{p.runs[0][0]}'s ({', '.join(f'{k}={settings.get(k)}' for k in clash)})")
                p.row.add(r)
                p.runs.append((run, r))
    return list(pooled.values())


def time_text(settings: dict) -> str:
    clock = f", {settings['match_ms']} ms a game" if settings.get("match_ms") else ""
    return f"{settings.get('turn_ms', '?')} ms a move{clock}"


def table(pooled: list[Pooled]) -> list[str]:
    """The pooled table's lines: standing.md's, and README's between its markers."""
    lines = [
        "| league | opponent | time | games | W-L-D | score | Elo (95%), per game | Elo (95%), over pairs "
        "| forfeits | time losses | illegal moves | over-limit replies |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for p in pooled:
        r = p.row
        lines.append(f"| {gt.LEAGUES[r.league].title} | {r.opponent} | {time_text(p.settings)} | {r.games} "
                     f"| {r.wins}-{r.losses}-{r.draws} | {r.score * 100:.1f}% | {gt.elo_text(r)} "
                     f"| {gt.paired_elo_text(r)} | {gt.pair_text(r.forfeits)} | {gt.pair_text(r.time_losses)} "
                     f"| {gt.pair_text(r.illegal)} | {gt.pair_text(r.over_limit)} |")
    return lines


BEGIN, END = "<!-- standing.py: begin -->", "<!-- standing.py: end -->"


def with_table(text: str, lines: list[str]) -> str:
    """`text` (README) with the lines between its two markers replaced by `lines`."""
    if text.count(BEGIN) != 1 or text.count(END) != 1 or text.index(BEGIN) > text.index(END):
        raise StandingError(f"expected one '{BEGIN}' and, after it, one '{END}'")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return head + BEGIN + "\n" + "\n".join(lines) + "\n" + END + tail


def markdown(name: str, note: str, entries: list[Entry], pooled: list[Pooled], command: str) -> str:
    builds = {e.league: e.build for e in entries}
    lines = [
        f"# Where {name} stands",
        "",
        f"Regenerated by: `{command}`",
        "",
        *([note, ""] if note else []),
        f"Each league's gauntlet runs on one build, pooled. W-L-D and score are {name}'s; Elo is {name}'s "
        "minus the opponent's (logistic, 95% interval), per game and over the pairs of games from one "
        "opening (each opening is played with both colours; where it decides the game, both games split "
        "and only the pairs that do not split tell the engines apart). Forfeits, time losses, illegal "
        f"moves and over-limit replies are counted as {name}/opponent.",
        "",
        *table(pooled),
    ]
    lines += ["", "Chart: [standing.svg](standing.svg).", "", "## Runs", ""]
    for p in pooled:
        r = p.row
        counts = "/".join(str(c) for c in matchplay.pair_counts(r.pairs))
        lines.append(f"- **{gt.LEAGUES[r.league].title} vs {r.opponent}**, {builds[r.league]}: pairs scoring "
                     f"0/0.5/1/1.5/2 of 2: {counts}.")
        for run, one in p.runs:
            lines.append(f"  - [`{run}`]({run}/gauntlet.md): {one.wins}-{one.losses}-{one.draws}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--config", default=str(DEFAULT_CONFIG), help="the runs per league (JSON)")
    ap.add_argument("--results", help="folder holding the run folders (default: the config's folder)")
    ap.add_argument("--out", help="where standing.md and standing.svg go (default: the config's folder)")
    ap.add_argument("--readme", help="also rewrite the table between this file's standing.py markers "
                    "(README.md)")
    args = ap.parse_args(argv)
    config = Path(args.config)
    results = Path(args.results) if args.results else config.parent
    out_dir = Path(args.out) if args.out else config.parent
    try:
        name, note, entries = read_config(config)
        pooled = pool(results, name, entries)
        readme = None
        if args.readme:
            path = Path(args.readme)
            try:
                readme = (path, with_table(path.read_text(encoding="utf-8"), table(pooled)))
            except OSError as e:
                raise StandingError(f"{path}: {e}") from e
    except StandingError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    command = "python3 scripts/standing.py" + ("" if config.resolve() == DEFAULT_CONFIG.resolve()
                                               else f" --config {args.config}")
    leagues = [e.league for e in entries]
    chart_config = gt.Config(name=name, leagues=leagues,
                             opponents=[gt.Opponent(o, "") for o in dict.fromkeys(p.row.opponent for p in pooled)])
    times = sorted({time_text(p.settings) for p in pooled})
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "standing.md").write_text(markdown(name, note, entries, pooled, command), encoding="utf-8")
    (out_dir / "standing.svg").write_text(
        gt.svg_chart(chart_config, [p.row for p in pooled], caption=f"runs pooled, {'; '.join(times)}"),
        encoding="utf-8")
    if readme:
        readme[0].write_text(readme[1], encoding="utf-8")
    for p in pooled:
        r = p.row
        print(f"{gt.LEAGUES[r.league].title} vs {r.opponent}: {r.wins}-{r.losses}-{r.draws}, {r.games} games, "
              f"{r.score * 100:.1f}%, Elo {gt.elo_text(r)}; over {len(r.pairs)} pairs {gt.paired_elo_text(r)}")
    print(f"wrote {out_dir / 'standing.md'} and {out_dir / 'standing.svg'}"
          + (f", and the table of {readme[0]}" if readme else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
