#!/usr/bin/env python3
"""Totals of several matches: W-L-D, score and Elo per file and over all of them.

Reads match.py `--jsonl` files (gauntlet.py keeps them under `OUT/gauntlet/`) and scores them for
the engine named by `--engine` (a name prefix). Besides the per-game 95% interval it gives the
interval over pairs of games from one opening (match.py plays each opening twice, colours
swapped): where the opening decides most games, both games of a pair split whoever plays better,
and only the pairs that do not split tell the engines apart, which the per-game interval cannot
see. Pairs are found within each file.

    python3 scripts/match_totals.py scripts/results/singular-seed2*/gauntlet/standard15--rapfi.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from gorinkit import gauntlet, matchplay


def row(path: Path, engine: str) -> gauntlet.Row:
    games = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    names = {g[c] for g in games for c in ("black", "white")}
    ours = sorted(n for n in names if n.startswith(engine))
    if len(ours) != 1:
        raise ValueError(f"{path}: {len(ours)} players named {engine}*: {sorted(names)}")
    opponent = next(iter(names - set(ours)), "?")
    return gauntlet.row_of("", opponent, ours[0], {"games": games})


def total(rows: list[gauntlet.Row]) -> gauntlet.Row:
    t = gauntlet.Row("", ",".join(sorted({r.opponent for r in rows})))
    for r in rows:
        t.add(r)
    return t


def line(name: str, r: gauntlet.Row) -> str:
    counts = "/".join(str(c) for c in matchplay.pair_counts(r.pairs))
    return (f"{name}: {r.wins}-{r.losses}-{r.draws}, {r.games} games, {r.score * 100:.1f}%, "
            f"Elo {gauntlet.elo_text(r)}; over {len(r.pairs)} pairs {gauntlet.paired_elo_text(r)} "
            f"(pairs scoring 0/0.5/1/1.5/2 of 2: {counts})")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", help="match.py --jsonl files")
    ap.add_argument("--engine", default="gorin", help="name prefix of the engine scored")
    args = ap.parse_args()
    try:
        rows = [row(Path(f), args.engine) for f in args.files]
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    for f, r in zip(args.files, rows):
        print(line(f, r))
    if len(rows) > 1:
        print(line("total", total(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
