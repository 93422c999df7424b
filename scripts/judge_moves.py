#!/usr/bin/env python3
"""Puts the same match positions to several engines and has a judge rate every answer.

The positions are the reviewed engine's turns (`--reviewed`, a name prefix) at plies `--plies
LO-HI` of match games (match.py's `--jsonl` records), `--count` of them drawn with `--seed`.
Every `--engine NAME=COMMAND` answers each with `INFO timeout_turn`; the judge (a brain with a
node budget) gives its value before the move and after it, and the drop is the difference, with
values clipped to +/-3000 so that a proved result counts as a large number, not as 20,000. The
game's own move is rated too (`played`).

A judge's value of a position is noisy, so a drop says little alone: give the judge itself a
turn as one of the engines (Rapfi at 1000 ms judged by Rapfi at 100,000 nodes) to see how large
the drops of good play are. The pairwise lines count the positions where one engine's drop
exceeds the other's by 150 or more, the signal that tells two engines apart.

    python3 scripts/judge_moves.py games.jsonl --plies 5-11 --count 120 --judge /path/to/pbrain-rapfi \\
        --nodes 100000 --send-delay-ms 60 --engine gorin=target/release/pbrain-gorin \\
        --engine rapfi=/path/to/pbrain-rapfi --turn-ms 1000 --cache judged.json

`--cache` keeps the judge's values (a JSON file) between runs, so a second engine on the same
positions costs only its new moves' values.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path

from gorinkit.evals import DECIDED, FORCED_LOSS, MISSED_WIN, Judge, engine_replies
from gorinkit.referee import game_moves

CLIP = 3000
# A drop of this much (in the judge's units) marks a move as clearly worse.
WORSE = 150
QUIET_DROP = "quiet drop"


def positions(games: list[dict], reviewed: str, lo: int, hi: int) -> list[dict]:
    """The reviewed engine's turns at plies lo..hi (stones on the board, the opening's counted)."""
    out = []
    for g in games:
        colour = 0 if g["black"].startswith(reviewed) else 1 if g["white"].startswith(reviewed) else None
        if colour is None:
            continue
        moves = game_moves(g)
        for ply in range(max(lo, len(g.get("opening", []))), min(hi, len(moves) - 1) + 1):
            if ply % 2 == colour:
                out.append({"game": g.get("game"), "ply": ply, "size": int(g.get("size", 15)),
                            "rule": int(g.get("rule", 0)), "moves": moves[:ply], "played": moves[ply]})
    return out


def drop(before: int, after: int) -> int:
    """How much worse the position is for the mover after the move, clipped values."""
    return max(-CLIP, min(CLIP, before)) - max(-CLIP, min(CLIP, after))


def kind(before: int, after: int) -> str | None:
    """A missed win, a move into a forced loss, a quiet drop of WORSE or more, or nothing."""
    if before >= DECIDED and after < DECIDED:
        return MISSED_WIN
    if after <= -DECIDED < before:
        return FORCED_LOSS
    if abs(before) < DECIDED and abs(after) < DECIDED and before - after >= WORSE:
        return QUIET_DROP
    return None


def summary(name: str, drops: list[int | None], kinds: list[str | None]) -> str:
    got = [d for d in drops if d is not None]
    if not got:
        return f"{name}: no position rated"
    return (f"{name}: {len(got)} rated, mean drop {statistics.mean(got):.0f}, median {statistics.median(got):.0f}; "
            f"missed wins {kinds.count(MISSED_WIN)}, into a forced loss {kinds.count(FORCED_LOSS)}, "
            f"quiet drops of {WORSE}+ {kinds.count(QUIET_DROP)}")


def pairwise(a: str, b: str, da: list[int | None], db: list[int | None], ma: list, mb: list) -> str:
    both = [(x, y) for x, y in zip(da, db) if x is not None and y is not None]
    same = sum(1 for x, y in zip(ma, mb) if x is not None and x == y)
    worse_a = sum(1 for x, y in both if x - y >= WORSE)
    worse_b = sum(1 for x, y in both if y - x >= WORSE)
    return f"{a} vs {b}: same move {same}/{len(ma)}; {a} worse by {WORSE}+ in {worse_a}, {b} in {worse_b}"


class CachedJudge:
    """The judge's value for the side to move, remembered by (rule, size, moves)."""

    def __init__(self, judge, path: str | None):
        self.judge = judge
        self.path = Path(path) if path else None
        self.values: dict[str, int | None] = {}
        if self.path and self.path.exists():
            self.values = json.loads(self.path.read_text(encoding="utf-8"))

    def __call__(self, size: int, moves: list[list[int]], rule: int) -> int | None:
        key = f"{rule}|{size}|{json.dumps(moves, separators=(',', ':'))}"
        if key not in self.values:
            self.values[key] = self.judge(size, moves, rule)[0]
        return self.values[key]

    def save(self) -> None:
        if self.path:
            self.path.write_text(json.dumps(self.values), encoding="utf-8")


def answer_all(command: str, ps: list[dict], turn_ms: int, delay_s: float) -> list[list[int] | None]:
    """The engine's move in every position (None where it gave none in time)."""
    boards = ((p["size"], p["rule"], p["moves"]) for p in ps)
    return [move if answered else None for answered, _, move in engine_replies(command, boards, turn_ms, delay_s)]


def rate(judge: CachedJudge, ps: list[dict], moves: list) -> tuple[list[int | None], list[str | None]]:
    drops: list[int | None] = []
    kinds: list[str | None] = []
    for p, m in zip(ps, moves):
        before = judge(p["size"], p["moves"], p["rule"])
        them = None if m is None else judge(p["size"], p["moves"] + [m], p["rule"])
        if before is None or them is None:
            drops.append(None)
            kinds.append(None)
            continue
        drops.append(drop(before, -them))
        kinds.append(kind(before, -them))
    return drops, kinds


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="+", help="match.py --jsonl files")
    ap.add_argument("--reviewed", default="gorin", help="name prefix of the engine whose turns are taken")
    ap.add_argument("--plies", default="5-11", help="LO-HI, stones on the board before the move")
    ap.add_argument("--count", type=int, default=120, help="positions drawn (all when fewer)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--judge", required=True, help="the judging brain's command (shell words)")
    ap.add_argument("--nodes", type=int, default=100000, help="judge's INFO max_node per position")
    ap.add_argument("--send-delay-ms", type=int, default=0, help="wait before each position (Rapfi: 60)")
    ap.add_argument("--engine", action="append", default=[], help="NAME=COMMAND (repeatable)")
    ap.add_argument("--turn-ms", type=int, default=1000, help="the engines' INFO timeout_turn")
    ap.add_argument("--cache", help="JSON file keeping the judge's values between runs")
    ap.add_argument("--out", help="write every rated move here (JSON lines)")
    args = ap.parse_args()

    lo, _, hi = args.plies.partition("-")
    games = [json.loads(line) for path in args.games
             for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]
    ps = positions(games, args.reviewed, int(lo), int(hi or lo))
    random.Random(args.seed).shuffle(ps)
    ps = ps[:args.count]
    engines = [("played", None)] + [tuple(e.split("=", 1)) for e in args.engine]
    if any(len(e) != 2 for e in engines):
        ap.error("--engine takes NAME=COMMAND")
    print(f"{len(ps)} positions, plies {args.plies}, judge at {args.nodes} nodes, engines at {args.turn_ms} ms",
          flush=True)
    judge = CachedJudge(Judge(args.judge, args.nodes, args.send_delay_ms / 1000, 30.0), args.cache)
    out = open(args.out, "w", encoding="utf-8") if args.out else None
    results = {}
    try:
        for name, command in engines:
            moves = ([p["played"] for p in ps] if command is None
                     else answer_all(command, ps, args.turn_ms, args.send_delay_ms / 1000))
            drops, kinds = rate(judge, ps, moves)
            judge.save()
            results[name] = (moves, drops)
            print(summary(name, drops, kinds), flush=True)
            if out:
                for p, m, d, k in zip(ps, moves, drops, kinds):
                    out.write(json.dumps({"engine": name, "game": p["game"], "ply": p["ply"], "move": m,
                                          "drop": d, "kind": k}) + "\n")
        names = list(results)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                print(pairwise(a, b, results[a][1], results[b][1], results[a][0], results[b][0]))
    finally:
        judge.judge.close()
        if out:
            out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
