#!/usr/bin/env python3
"""Puts the positions where an engine went wrong (blunders.py --save) to other binaries.

Each position is one where the reviewed engine missed a win or moved into a forced loss, as the
judge saw it. Every `--engine` gets the position with `INFO timeout_turn`, and its move is
checked by the judge (the same brain and nodes as the review): the engine *holds* a missed-win
position when the judge still finds a forced win after its move (or the move made five), and a
forced-loss position when the judge finds no forced win for the opponent after its move. The same
move as the one reviewed fails without asking. Positions where the judge's own move was the one
played are left out: the judge thought them lost already.

    python3 scripts/replay.py positions.jsonl --judge "/path/to/pbrain-rapfi" --send-delay-ms 60 \\
        --engine target/release/pbrain-gorin --engine /tmp/pbrain-gorin-old --turn-ms 1000

A far cheaper signal than a match for a change meant to fix such mistakes, but only about these
positions: a change can hold more of them and still play worse elsewhere.

With `--attack` (no judge needed) each engine plays the other side instead: it gets each
forced-loss position after the move that lost, and counts when its last evaluation before it
moves is a proved win (`ev +M..`; PentaZen's `ev +v..`). A search that cannot prove the wins
of these positions cannot see them coming either.

    python3 scripts/replay.py positions.jsonl --attack --engine target/release/pbrain-gorin
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path

from gorinkit.evals import DECIDED, FORCED_LOSS, MISSED_WIN, Judge, engine_replies, is_mate

def load(path: str) -> list[dict]:
    """The saved positions worth replaying (the judge's move differs from the one played)."""
    out = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if line.strip():
            p = json.loads(line)
            if p["kind"] in (MISSED_WIN, FORCED_LOSS) and p.get("judge") != p["played"]:
                out.append(p)
    return out


def held(kind: str, move: list[int] | None, played: list[int], opponent_ev: int | None) -> bool:
    """Whether a replayed move holds: `opponent_ev` is the judge's evaluation for the opponent
    after it (None when the judge gave none, as after a five)."""
    if move is None or move == played:
        return False
    if kind == MISSED_WIN:
        return opponent_ev is None or opponent_ev <= -DECIDED
    return opponent_ev is not None and opponent_ev < DECIDED


def answers(engine: str, positions: list[dict], turn_ms: int, after_played: bool):
    """Yields each position with `teacher.ask`'s (answered, evaluation, move) from one brain,
    started again when it fails to answer. `after_played`: the position after the reviewed move."""
    boards = ((p["size"], p.get("rule", 0), p["moves"] + [p["played"]] if after_played else p["moves"])
              for p in positions)
    with contextlib.closing(engine_replies(engine, boards, turn_ms)) as replies:
        for p, reply in zip(positions, replies):
            yield (p, *reply)


def replay(engine: str, positions: list[dict], judge, turn_ms: int) -> list[bool]:
    marks = []
    for p, _, _, move in answers(engine, positions, turn_ms, after_played=False):
        ev = None
        if move is not None and move != p["played"]:
            ev, _ = judge(p["size"], p["moves"] + [move], p.get("rule", 0))
        marks.append(held(p["kind"], move, p["played"], ev))
    return marks


def proved_win(ev: str | None) -> bool:
    """Whether an evaluation (`teacher.ask`'s) is a proved win for the side that gave it."""
    return ev is not None and ev.startswith("+") and is_mate(ev)


def attack(engine: str, positions: list[dict], turn_ms: int) -> list[bool]:
    replies = answers(engine, positions, turn_ms, after_played=True)
    return [answered and proved_win(ev) for _, answered, ev, _ in replies]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("positions", help="blunders.py --save file")
    ap.add_argument("--engine", action="append", required=True, help="brain command (repeatable)")
    ap.add_argument("--judge", help="the judging brain's command (shell words); not with --attack")
    ap.add_argument("--attack", action="store_true",
                    help="count the forced-loss positions whose win each engine proves after the losing move")
    ap.add_argument("--nodes", type=int, default=300000, help="judge's INFO max_node per position")
    ap.add_argument("--send-delay-ms", type=int, default=0, help="wait before each judge position (Rapfi: 60)")
    ap.add_argument("--turn-ms", type=int, default=1000, help="the engines' INFO timeout_turn")
    args = ap.parse_args()

    positions = load(args.positions)
    if args.attack:
        losing = [p for p in positions if p["kind"] == FORCED_LOSS]
        for engine in args.engine:
            marks = attack(engine, losing, args.turn_ms)
            print(f"{engine}: proved {sum(marks)}/{len(marks)} "
                  + "".join("+" if m else "-" for m in marks), flush=True)
        return 0
    if not args.judge:
        ap.error("--judge is needed (or --attack)")
    kinds = [p["kind"] for p in positions]
    judge = Judge(args.judge, args.nodes, args.send_delay_ms / 1000, 30.0)
    try:
        for engine in args.engine:
            marks = replay(engine, positions, judge, args.turn_ms)
            wins = sum(m for m, k in zip(marks, kinds) if k == MISSED_WIN)
            losses = sum(m for m, k in zip(marks, kinds) if k == FORCED_LOSS)
            print(f"{engine}: held {sum(marks)}/{len(marks)} (wins kept {wins}/{kinds.count(MISSED_WIN)}, "
                  f"forced losses avoided {losses}/{kinds.count(FORCED_LOSS)}) "
                  + "".join("+" if m else "-" for m in marks), flush=True)
    finally:
        judge.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
