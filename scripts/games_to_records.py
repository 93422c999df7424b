#!/usr/bin/env python3
"""Positions of finished games as GRN1 training records, for a teacher to label (issue 33).

Self-play reaches only the positions Gorin's own search leads to; finished games of other
players (the Gomocup games of `GORIN_DATA`, or `scripts/match.py` output) reach others. Each
chosen position of each game becomes a record of the GRN1 format (`src/datagen.rs`) with the
move the game played from it and the game's result for the side to move; it has no value of
its own (flag bit 0, as a random move's record) until `scripts/relabel.py` gives it a
teacher's, and no features until the engine fills them in from its cells:

    python3 scripts/games_to_records.py "$GORIN_DATA/gomocup2016_games.jsonl" --out data/g.raw.grn1 --every 3
    target/release/pbrain-gorin features data/g.raw.grn1 data/g.grn1
    python3 scripts/relabel.py --teacher /path/to/pbrain-rapfi --data data/g.grn1 --out data/g-taught.grn1 --nodes 20000

A game on a larger board than `--size` gives the positions whose stones fit a `--size` square
(placed with their bounding box centred as far as the board allows), so that 20x20 games teach a
15x15 net; the move played from a position is kept only when it falls inside that square too.
Positions before `--from-ply` and the last `--skip-last` plies of a game (a win already on the
board) are left out. Freestyle only unless the game names another rule. Python 3 standard
library only.
"""

from __future__ import annotations

import argparse
import json
import struct
import sys

from gorinkit.grn1 import FLAG_EXPLORATION, file_header

SHAPE_COUNT = 1365
RULES = {"freestyle": 0, "standard": 1, "renju": 4, "caro": 8}


def game_rule(g: dict) -> int | None:
    """The record's `INFO rule` number of a game, None for a rule the records cannot hold."""
    r = g.get("rule", 0)
    if isinstance(r, int):
        return r if r in (0, 1, 4, 8, 9) else None
    return RULES.get(str(r).lower())


def winner(g: dict) -> int:
    """1 black, 2 white, 0 none (a draw, a time loss or an unknown result)."""
    res = g.get("result")
    w = res.get("winner") if isinstance(res, dict) else g.get("winner_colour")
    return {"black": 1, "white": 2}.get(w or "", 0)


def window(stones: list[tuple[int, int]], board: int, size: int) -> tuple[int, int] | None:
    """The top-left corner of a `size` square of a `board` board holding every stone, or None."""
    xs, ys = [x for x, _ in stones], [y for _, y in stones]
    corner = []
    for lo, hi in ((min(xs), max(xs)), (min(ys), max(ys))):
        if hi - lo >= size:
            return None
        start = (lo + hi + 1) // 2 - size // 2
        corner.append(max(0, min(start, board - size, lo), hi - size + 1))
    return corner[0], corner[1]


def records(g: dict, size: int, every: int, from_ply: int, skip_last: int) -> list[bytes]:
    rule = game_rule(g)
    board = int(g.get("size") or g.get("width") or 15)
    if rule is None or int(g.get("height") or board) != board or board < size:
        return []
    moves = [tuple(m) for m in g.get("opening", []) + g["moves"]]
    won = winner(g)
    out = []
    for ply in range(max(from_ply, 1), len(moves) - skip_last):
        if (ply - from_ply) % every:
            continue
        stones = moves[:ply]
        corner = window(stones, board, size)
        if corner is None:
            continue
        cx, cy = corner
        mx, my = moves[ply][0] - cx, moves[ply][1] - cy
        if not (0 <= mx < size and 0 <= my < size):
            continue
        to_move = 1 if ply % 2 == 0 else 2
        result = 0 if won == 0 else (1 if won == to_move else -1)
        cells = bytearray(size * size)
        for i, (x, y) in enumerate(stones):
            cells[(y - cy) * size + (x - cx)] = 1 if i % 2 == 0 else 2
        head = struct.pack("<BBBBHHhbB", rule, size, size, to_move, ply, my * size + mx, 0, result, FLAG_EXPLORATION)
        out.append(head + bytes(cells) + bytes(4 * size * size))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games", nargs="+", help="JSON-lines game records (size, moves; opening, result)")
    ap.add_argument("--out", required=True, help="GRN1 file to write (features still 0)")
    ap.add_argument("--size", type=int, default=15, help="board side of the records (default 15)")
    ap.add_argument("--every", type=int, default=1, help="every N-th position of a game (default 1)")
    ap.add_argument("--from-ply", type=int, default=4, help="first ply recorded (default 4)")
    ap.add_argument("--skip-last", type=int, default=2, help="plies left out at a game's end (default 2)")
    args = ap.parse_args(argv)
    if not 5 <= args.size <= 32 or args.every < 1:
        ap.error("--size from 5 to 32, --every at least 1")
    games = written = 0
    with open(args.out, "wb") as out:
        out.write(file_header(SHAPE_COUNT))
        for path in args.games:
            with open(path, encoding="utf-8") as f:
                for line in f:
                    if not line.strip():
                        continue
                    recs = records(json.loads(line), args.size, args.every, args.from_ply, args.skip_last)
                    games += 1
                    written += len(recs)
                    out.write(b"".join(recs))
    print(f"{written} records from {games} games, {args.out}")
    print("RESULT: OK" if written else "RESULT: FAIL (no position to record)")
    return 0 if written else 1


if __name__ == "__main__":
    sys.exit(main())
