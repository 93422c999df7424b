#!/usr/bin/env python3
"""Depth and speed in a fixed time: the last finished iteration of a brain on fixed positions.

Positions: the openings of `--openings` (15x15; by default scripts/openings/gorin_freestyle_15.txt,
3 stones) and, with `--games-file` (by default GORIN_DATA's gomocup2016_games.jsonl when that
variable names the public-data folder), middle-game positions of those games after `--ply` moves. For each, the brain gets
`INFO timeout_turn`, the position by `BOARD` and end of input; the script reads its last
`MESSAGE depth D-S ev E n N nps X tm T ...` line (Gorin's format) and prints the medians of
depth, selective depth and nodes per second. Only Gorin's message format is understood.

    python3 scripts/depth.py --turn-ms 1000
    python3 scripts/depth.py --turn-ms 1000 --info thread_num=2
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import statistics
import subprocess
import sys

from gorinkit.paths import DEFAULT_ENGINE, OPENINGS
from gorinkit.protocol import board_command
from gorinkit.referee import read_openings

DEFAULT_OPENINGS = str(OPENINGS / "gorin_freestyle_15.txt")
DEFAULT_GAMES = (os.path.join(os.environ["GORIN_DATA"], "gomocup2016_games.jsonl")
                 if os.environ.get("GORIN_DATA") else None)
LINE_RE = re.compile(r"^MESSAGE depth (\d+)-(\d+) ev (\S+) n (\S+) nps (\S+) tm (\d+)")


def number(text: str) -> float:
    scale = {"K": 1e3, "M": 1e6}.get(text[-1], 1)
    return float(text.rstrip("KM")) * scale


def positions(openings: str, games_file: str | None, games: int,
              ply: int) -> list[tuple[str, int, list[tuple[int, int]]]]:
    out = []
    for i, opening in enumerate(read_openings(openings, 15)):
        out.append((f"opening {i + 1}", 15, opening))
    if not games_file:
        return out
    with open(games_file, encoding="utf-8") as f:
        records = [json.loads(line) for line in f if line.strip()]
    step = max(1, len(records) // max(1, games))
    for rec in records[::step][:games]:
        moves = [tuple(m) for m in rec["moves"]]
        if len(moves) > ply + 4:
            out.append((rec["file"], rec["size"], moves[:ply]))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default=DEFAULT_ENGINE, help="brain command (shell words)")
    ap.add_argument("--turn-ms", type=int, default=1000)
    ap.add_argument("--openings", default=DEFAULT_OPENINGS, help="15x15 openings, one a line")
    ap.add_argument("--games-file", default=DEFAULT_GAMES,
                    help="JSONL games (fields file, size, moves) for middle-game positions")
    ap.add_argument("--games", type=int, default=20, help="middle-game positions from --games-file")
    ap.add_argument("--ply", type=int, default=16, help="moves played in those positions")
    ap.add_argument("--info", action="append", default=[], metavar="KEY=VALUE",
                    help="extra INFO line before the position (repeatable), e.g. thread_num=2")
    args = ap.parse_args()
    extra = [f"INFO {kv.replace('=', ' ', 1)}" for kv in args.info]
    depths, sels, speeds = [], [], []
    for name, size, moves in positions(args.openings, args.games_file, args.games, args.ply):
        text = "\n".join([f"INFO timeout_turn {args.turn_ms}", *extra, *board_command(size, moves)]) + "\n"
        run = subprocess.run(shlex.split(args.engine), input=text, capture_output=True, text=True,
                             timeout=args.turn_ms / 1000 * 3 + 10)
        last = None
        for line in run.stdout.splitlines():
            m = LINE_RE.match(line)
            if m:
                last = m
        if last is None:
            print(f"{name:>28}: no search message (a move without search)")
            continue
        depth, sel, nps = int(last.group(1)), int(last.group(2)), number(last.group(5))
        depths.append(depth)
        sels.append(sel)
        speeds.append(nps)
        print(f"{name:>28}: depth {depth}-{sel} ev {last.group(3)} nps {last.group(5)} tm {last.group(6)}")
    if not depths:
        print("RESULT: FAIL (no search messages)")
        return 1
    print(f"positions {len(depths)}: median depth {statistics.median(depths)}, "
          f"median selective depth {statistics.median(sels)}, median nps {statistics.median(speeds):.0f}")
    print("RESULT: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
