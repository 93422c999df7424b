#!/usr/bin/env python3
"""Positions labelled by a stronger brain, for `pbrain-gorin tune` (its `"target"` records).

Positions are drawn at random (`--seed`) from finished games (JSON lines with `size`, `moves` and
`winner` or `result.winner`, as the Gomocup 2016 set and match.py's `--jsonl` files hold them),
skipping the first `--skip-plies` plies. Each is sent to the teacher as `BOARD` with
`INFO max_node` (and a loose `INFO timeout_turn`, so a brain without a node limit still answers)
under `--rule` (the protocol's `INFO rule` number: 0 freestyle, the default, 1 standard, 4 renju),
and the teacher's last `MESSAGE` evaluation is read: Rapfi's `Eval E` or Gorin's `ev E`, where
`+M n` / `-M n` is a win / loss for the side to move. The evaluation becomes a probability by a
logistic scale fitted to the results of the games the positions came from (`--scale` to fix it);
wins and losses found become 1 and 0.

    python3 scripts/teacher.py --teacher /path/to/pbrain-rapfi --games ../shared/data/gomocup2016_games.jsonl \\
        --games my_match.jsonl --positions 30000 --nodes 20000 --procs 2 --out teacher.jsonl
    target/release/pbrain-gorin tune teacher.jsonl 2000 650

Each output line: `{"size": S, "rule": R, "moves": [[x, y], ...], "eval": "E", "target": p}`; `tune`
builds each position under its record's rule (freestyle where a record has none).
"""

from __future__ import annotations

import argparse
import json
import random
import sys

from gorinkit.evals import ask_all, fit_scale, is_mate, logistic, position_lines

def read_games(paths: list[str]) -> list[tuple[int, list[list[int]], str | None]]:
    """(size, moves, winner colour or None) per game; records without moves are skipped."""
    games = []
    for path in paths:
        with open(path) as f:
            for line in f:
                if not line.strip():
                    continue
                r = json.loads(line)
                moves = [list(m) for m in r.get("opening", [])] + [list(m) for m in r.get("moves", [])]
                if not moves:
                    continue
                winner = r.get("winner_colour", r.get("winner"))
                if winner is None and isinstance(r.get("result"), dict):
                    winner = r["result"].get("winner")
                games.append((int(r.get("size", 15)), moves, winner if winner in ("black", "white") else None))
    return games


def to_move_won(moves: list[list[int]], winner: str | None) -> float | None:
    if winner is None:
        return None
    to_move = "black" if len(moves) % 2 == 0 else "white"
    return 1.0 if winner == to_move else 0.0


def pick_spots(
    games: list[tuple[int, list[list[int]], str | None]], skip_plies: int, max_ply: int | None, count: int, seed: int
) -> list[tuple[int, int]]:
    """`count` positions (game index, stones on the board) drawn at random: after the first
    `skip_plies` stones, up to `max_ply` stones when given, never the finished game."""
    spots = []
    for g, (_, moves, _) in enumerate(games):
        end = len(moves) if max_ply is None else min(len(moves), max_ply + 1)
        spots.extend((g, ply) for ply in range(skip_plies, end))
    random.Random(seed).shuffle(spots)
    return spots[:count]


def probability(ev: str, scale: float) -> float:
    if is_mate(ev):
        return 0.0 if ev.startswith("-") else 1.0
    return logistic(float(ev), scale)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--teacher", required=True, help="brain command (shell words)")
    ap.add_argument("--games", action="append", required=True, help="JSONL games (repeatable)")
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--nodes", type=int, default=20000, help="INFO max_node per position")
    ap.add_argument("--turn-ms", type=int, default=10000, help="INFO timeout_turn (a bound, not the budget)")
    ap.add_argument("--skip-plies", type=int, default=6)
    ap.add_argument("--max-ply", type=int,
                    help="take positions of at most this many stones (the opening and early middle game)")
    ap.add_argument("--procs", type=int, default=1)
    ap.add_argument("--rule", type=int, default=0, choices=[0, 1, 4],
                    help="the rule the teacher judges under (INFO rule): 0 freestyle, 1 standard, 4 renju")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--scale", type=float, help="fix the eval-to-probability scale")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()

    games = read_games(args.games)
    spots = pick_spots(games, args.skip_plies, args.max_ply, args.positions, args.seed)

    def question(i: int) -> list[str]:
        g, ply = spots[i]
        size, moves, _ = games[g]
        return position_lines(size, moves[:ply], args.nodes, args.turn_ms, args.rule)

    evals, silent, failures = ask_all(args.teacher, len(spots), question, max(1, args.procs), args.turn_ms / 1000 + 5)
    labelled = [(*spots[i], evals[i]) for i in sorted(evals)]
    pairs = []
    for g, ply, ev in labelled:
        won = to_move_won(games[g][1][:ply], games[g][2])
        if won is not None and "M" not in ev:
            pairs.append((float(ev), won))
    scale = args.scale or (fit_scale(pairs) if pairs else 200.0)
    with open(args.out, "w") as out:
        for g, ply, ev in labelled:
            size, moves, _ = games[g]
            rec = {"size": size, "rule": args.rule, "moves": moves[:ply], "eval": ev, "target": round(probability(ev, scale), 4)}
            out.write(json.dumps(rec) + "\n")
    decided = sum(1 for _, _, ev in labelled if "M" in ev)
    print(
        f"positions {len(labelled)} labelled ({decided} decided), {len(silent)} answered without an"
        f" evaluation (left out), {len(failures)} not answered"
    )
    print(f"scale {scale:.0f} ({'given' if args.scale else f'fitted on {len(pairs)} positions with a known result'})")
    ok = labelled and not failures
    print("RESULT: OK" if ok else f"RESULT: FAIL ({len(failures)} positions not answered, {len(labelled)} labelled)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
