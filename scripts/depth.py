#!/usr/bin/env python3
"""Depth and speed in a fixed time: the last finished iteration of a brain on fixed positions.

Positions: the openings of `--openings` (15x15; by default scripts/openings/gorin_freestyle_15.txt,
3 stones) and, with `--games-file` (by default GORIN_DATA's gomocup2016_games.jsonl when that
variable names the public-data folder), middle-game positions of those games after `--ply` moves. For each, the brain gets
`INFO timeout_turn`, `START` and the position by `BOARD`, with its input kept open until it
answers; the script reads its last search message and prints the medians of depth, selective
depth and nodes per second. Two message formats are understood: Gorin's
`MESSAGE depth D-S ev E n N nps X tm T ...` and Rapfi's summary
`MESSAGE Speed X | Depth D-S | Eval E | Node N | Time T`. With `--engine` given more than
once, the brains run one after another on each position and a table sets them side by side.

    python3 scripts/depth.py --turn-ms 1000
    python3 scripts/depth.py --turn-ms 1000 --info thread_num=2
    python3 scripts/depth.py --turn-ms 1000 --engine target/release/pbrain-gorin --engine ../rapfi
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import statistics
import sys
import time

from gorinkit.brain import Brain
from gorinkit.paths import DEFAULT_ENGINE, OPENINGS
from gorinkit.protocol import board_command
from gorinkit.referee import read_jsonl, read_openings

DEFAULT_OPENINGS = str(OPENINGS / "gorin_freestyle_15.txt")
DEFAULT_GAMES = (os.path.join(os.environ["GORIN_DATA"], "gomocup2016_games.jsonl")
                 if os.environ.get("GORIN_DATA") else None)
GORIN_RE = re.compile(r"^MESSAGE depth (?P<depth>\d+)-(?P<sel>\d+) ev (?P<ev>\S+) n \S+ nps (?P<nps>\S+) tm (?P<tm>\d+)")
RAPFI_RE = re.compile(r"^MESSAGE Speed (?P<nps>\S+) \| Depth (?P<depth>\d+)-(?P<sel>\d+) \| Eval (?P<ev>\S+) "
                      r"\| Node \S+ \| Time (?P<tm>\d+)ms")
# Rapfi may take a command that arrives within ~30 ms of its last reply as noise.
SEND_DELAY_S = 0.06


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
    records = read_jsonl(games_file)
    step = max(1, len(records) // max(1, games))
    for rec in records[::step][:games]:
        moves = [tuple(m) for m in rec["moves"]]
        if len(moves) > ply + 4:
            out.append((rec["file"], rec["size"], moves[:ply]))
    return out


def search(cmd: list[str], turn_ms: int, extra: list[str], size: int,
           moves: list[tuple[int, int]]) -> dict | None:
    """The last search message of one brain on one position (its fields by name), or None
    when it moved without a search."""
    brain = Brain(cmd, "brain")
    last = None
    try:
        brain.send(f"INFO timeout_turn {turn_ms}", *extra)
        time.sleep(SEND_DELAY_S)
        lines = board_command(size, moves)
        brain.send(lines[0])
        if brain.reply(time.monotonic() + 10) is None:
            raise RuntimeError("no answer to START")
        time.sleep(SEND_DELAY_S)
        brain.send(*lines[1:])
        deadline = time.monotonic() + turn_ms / 1000 * 3 + 10
        while True:
            got = brain.read(deadline - time.monotonic())
            if got is None or got[1] is None:
                raise RuntimeError("no move within three turns")
            line = got[1].strip()
            m = GORIN_RE.match(line) or RAPFI_RE.match(line)
            if m:
                last = m.groupdict()
            elif not line.upper().startswith(("MESSAGE", "DEBUG", "OK")):
                return last
    finally:
        brain.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", action="append", help="brain command (shell words); repeat to compare "
                    f"(default {DEFAULT_ENGINE})")
    ap.add_argument("--turn-ms", type=int, default=1000)
    ap.add_argument("--openings", default=DEFAULT_OPENINGS, help="15x15 openings, one a line")
    ap.add_argument("--games-file", default=DEFAULT_GAMES,
                    help="JSONL games (fields file, size, moves) for middle-game positions")
    ap.add_argument("--games", type=int, default=20, help="middle-game positions from --games-file")
    ap.add_argument("--ply", type=int, default=16, help="moves played in those positions")
    ap.add_argument("--info", action="append", default=[], metavar="KEY=VALUE",
                    help="extra INFO line before the position (repeatable), e.g. thread_num=2")
    args = ap.parse_args()
    engines = args.engine or [DEFAULT_ENGINE]
    extra = [f"INFO {kv.replace('=', ' ', 1)}" for kv in args.info]
    names = [shlex.split(e)[0].rsplit("/", 1)[-1] for e in engines]
    found: list[dict[str, list[float]]] = [{"depth": [], "sel": [], "nps": []} for _ in engines]
    for name, size, moves in positions(args.openings, args.games_file, args.games, args.ply):
        cells = []
        for k, engine in enumerate(engines):
            last = search(shlex.split(engine), args.turn_ms, extra, size, moves)
            if last is None:
                cells.append(f"{names[k]}: no search message (a move without search)")
                continue
            found[k]["depth"].append(int(last["depth"]))
            found[k]["sel"].append(int(last["sel"]))
            found[k]["nps"].append(number(last["nps"]))
            cells.append(f"{names[k]}: depth {last['depth']}-{last['sel']} ev {last['ev']} nps {last['nps']} "
                         f"tm {last['tm']}")
        print(f"{name:>28}: " + " | ".join(cells), flush=True)
    ok = True
    for k, f in enumerate(found):
        if not f["depth"]:
            print(f"{names[k]}: no search messages")
            ok = False
            continue
        print(f"{names[k]}: positions {len(f['depth'])}: median depth {statistics.median(f['depth'])}, "
              f"median selective depth {statistics.median(f['sel'])}, median nps {statistics.median(f['nps']):.0f}")
    print("RESULT: " + ("OK" if ok else "FAIL (no search messages)"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
