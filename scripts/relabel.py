#!/usr/bin/env python3
"""Relabel GRN1 training records with a teacher brain's evaluation (issue 33's teacher pass).

Each chosen record of `--data` (every `--every`-th, in file order) is sent to the teacher as
`BOARD` with `INFO max_node`, under the record's own rule, and the teacher's last `MESSAGE`
evaluation (Rapfi's `Eval E`, Gorin's `ev E`; see gorinkit/evals.py) replaces the record's search
value. The evaluation becomes the engine's units through a logistic scale fitted to the records'
game results (`--scale` fixes it): `value = value_scale * E / scale`, so that the trainer's
`sigmoid(value / value_scale)` is the teacher's win probability. A teacher's mate becomes
+/-20000 with the proved flag; a record the engine's own search proved keeps its value, a proof
being a fact. Every written record gets flag bit 2 (records.FLAG_TEACHER): its value holds even
for an exploration move, so the trainer uses it there too.

    python3 scripts/relabel.py --teacher /path/to/pbrain-rapfi --data games.grn1 --out taught.grn1 \\
        --nodes 20000 --procs 2 --every 2

Only the records the teacher answered are written, in file order (the trainer still finds the
games: runs of records whose ply increases, with their side records after them). A side record
(`gen-data --side`, flag bit 3) is sent by its cells, and its result, which means nothing, is
left out of the scale's fit. `--unproved` asks only about records the engine did not prove.
`--budget-s` stops taking new records after that many seconds, so a time-boxed run keeps what it
labelled. Python 3 standard library only.
"""

from __future__ import annotations

import argparse
import struct
import sys
import time

from gorinkit.evals import MATE, ask_all, fit_scale, is_mate, position_lines, score
from gorinkit.grn1 import (FILE_HEADER, FLAG_MATE, FLAG_SIDE, FLAG_TEACHER, FLAGS_AT, RECORD_HEADER,
                           RESULT_AT, VALUE_AT, FormatError, split_header, split_records)

VALUE_CAP = MATE - 1000


def read_records(path: str) -> tuple[bytes, list[bytes]]:
    """The file header and every record's bytes; a torn or foreign file raises ValueError."""
    with open(path, "rb") as f:
        data = f.read()
    try:
        _, body = split_header(data)
        return data[:FILE_HEADER], split_records(body, FILE_HEADER)
    except FormatError as e:
        raise ValueError(f"{path}: {e}") from None


def holds(r: bytes, moves: list[list[int]]) -> bool:
    """Whether record `r`'s stones are `moves`, black first (the stones of the record before it
    plus that record's move, unless a square cut from a larger board moved between the plies:
    `games_to_records.py`)."""
    w = r[1]
    cells = r[RECORD_HEADER:RECORD_HEADER + w * r[2]]
    return sum(1 for c in cells if c) == len(moves) and all(
        x < w and y < r[2] and cells[y * w + x] == 1 + i % 2 for i, (x, y) in enumerate(moves))


def positions(recs: list[bytes]) -> list[list[list[int]] | None]:
    """Each record's stones as a move list ([x, y], black first): the game's own order while the
    records run on ply by ply, else the cells interleaved; None for a board START cannot name."""
    out: list[list[list[int]] | None] = []
    prev = None  # (ply, moves before it, its move)
    for r in recs:
        w, h, to_move = r[1], r[2], r[3]
        ply, move = struct.unpack_from("<HH", r, 4)
        if w != h:
            out.append(None)
            prev = None
            continue
        side = r[FLAGS_AT] & FLAG_SIDE != 0
        followed = (prev[1] + [[prev[2] % w, prev[2] // w]]
                    if prev is not None and prev[0] + 1 == ply and not side else None)
        if ply == 0:
            moves: list[list[int]] = []
        elif followed is not None and holds(r, followed):
            moves = followed
        else:
            cells = r[RECORD_HEADER:RECORD_HEADER + w * h]
            black = [[i % w, i // w] for i, c in enumerate(cells) if c == 1]
            white = [[i % w, i // w] for i, c in enumerate(cells) if c == 2]
            if len(black) - len(white) != (0 if to_move == 1 else 1):
                out.append(None)
                prev = None
                continue
            moves = [m for pair in zip(black, white) for m in pair] + black[len(white):]
        out.append(moves)
        # A side record's move is its own search's, not one the next record's board follows.
        prev = None if side else (ply, moves, move)
    return out


def relabelled(rec: bytes, ev: str, scale: float, value_scale: float) -> bytes:
    out = bytearray(rec)
    flags = rec[FLAGS_AT]
    if is_mate(ev):
        value = MATE if score(ev) > 0 else -MATE
        flags |= FLAG_MATE
    elif flags & FLAG_MATE:
        value = struct.unpack_from("<h", rec, VALUE_AT)[0]
    else:
        value = max(-VALUE_CAP, min(VALUE_CAP, round(value_scale * float(ev) / scale)))
    struct.pack_into("<h", out, VALUE_AT, value)
    out[FLAGS_AT] = flags | FLAG_TEACHER
    return bytes(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--teacher", required=True, help="brain command (shell words)")
    ap.add_argument("--data", required=True, help="GRN1 file to relabel")
    ap.add_argument("--out", required=True, help="GRN1 file to write")
    ap.add_argument("--nodes", type=int, default=20000, help="INFO max_node per position")
    ap.add_argument("--turn-ms", type=int, default=10000, help="INFO timeout_turn (a bound, not the budget)")
    ap.add_argument("--every", type=int, default=1, help="relabel every N-th record")
    ap.add_argument("--unproved", action="store_true",
                    help="ask only about records the engine's search did not prove (a proof keeps its value "
                         "anyway, and the trainer's --skip-proved leaves those out)")
    ap.add_argument("--procs", type=int, default=1, help="teacher processes at once")
    ap.add_argument("--delay-ms", type=int, default=40,
                    help="pause before each position (Rapfi drops a command sent within ~30 ms of its move)")
    ap.add_argument("--budget-s", type=float, help="take no new record after this many seconds")
    ap.add_argument("--scale", type=float, help="fix the teacher's eval-to-probability scale")
    ap.add_argument("--value-scale", type=float, default=600.0, help="the trainer's --value-scale")
    args = ap.parse_args()

    try:
        header, recs = read_records(args.data)
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    boards = positions(recs)
    chosen = [i for i in range(0, len(recs), max(1, args.every))
              if boards[i] is not None and not (args.unproved and recs[i][FLAGS_AT] & FLAG_MATE)]
    start = time.monotonic()

    def question(j: int) -> list[str]:
        r = recs[chosen[j]]
        return position_lines(r[1], boards[chosen[j]], args.nodes, args.turn_ms, r[0])

    answers, silent, failures = ask_all(args.teacher, len(chosen), question, max(1, args.procs),
                                        args.turn_ms / 1000 + 5, args.delay_ms / 1000, args.budget_s)
    evals = {chosen[j]: ev for j, ev in answers.items()}
    elapsed = time.monotonic() - start

    pairs = [(float(ev), (struct.unpack_from("<b", recs[i], RESULT_AT)[0] + 1) / 2)
             for i, ev in evals.items() if not is_mate(ev) and not recs[i][FLAGS_AT] & FLAG_SIDE]
    scale = args.scale or (fit_scale(pairs) if pairs else 200.0)
    with open(args.out, "wb") as out:
        out.write(header)
        for i in sorted(evals):
            out.write(relabelled(recs[i], evals[i], scale, args.value_scale))
    mates = sum(1 for ev in evals.values() if is_mate(ev))
    print(f"records {len(recs)}, chosen {len(chosen)}, labelled {len(evals)} ({mates} mates) in {elapsed:.0f} s"
          f" ({len(evals) / max(elapsed, 1e-9):.1f} a second); {len(silent)} answered without an evaluation,"
          f" {len(failures)} not answered")
    print(f"scale {scale:.0f} ({'given' if args.scale else f'fitted on {len(pairs)} positions'})")
    ok = bool(evals) and not failures
    print("RESULT: OK" if ok else f"RESULT: FAIL ({len(failures)} not answered, {len(evals)} labelled)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
