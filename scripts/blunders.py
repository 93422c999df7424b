#!/usr/bin/env python3
"""Where an engine's games went wrong, as a stronger brain (the judge) sees them.

For every game of a match.py `--jsonl` file that ENGINE lost (all its games with `--all`), the
judge evaluates each position where ENGINE was to move and the position after its move (as
`BOARD` with `INFO max_node`, like teacher.py), both from ENGINE's side. A move's *drop* is the
evaluation before it minus the evaluation after it: a large drop is a move the judge thinks was a
mistake, a drop from a win (a missed win) or into a forced loss (the judge found the opponent's
win). Each game gets one line of evaluations and its `--top` largest drops, with the judge's own
move in that position. A summary counts the missed wins and the moves into forced losses.
`--save FILE` writes each of those as a JSON line (the position before the move, the move, the
judge's move and evaluations), for replay.py to put to other binaries.

    python3 scripts/blunders.py --judge "/path/to/pbrain-rapfi" --engine gorin --nodes 300000 \\
        --send-delay-ms 60 games.jsonl

A judge's mate score (`+M n` / `-M n`, Rapfi's `Eval`, Gorin's `ev`) becomes +/-(MATE - n).
What the judge calls a forced loss is only as sure as the judge: check a surprising one by
playing the position out or asking with more nodes.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from gorinkit.evals import DECIDED, FORCED_LOSS, MISSED_WIN, Judge
from gorinkit.referee import game_moves

def coord(m: list[int]) -> str:
    """Letter = column from a, number = row from 1 at the top (as Gorin's PVs)."""
    x, y = m
    return f"{chr(ord('a') + x)}{y + 1}" if x < 26 else f"{x},{y}"


def engine_colour(game: dict, engine: str) -> int | None:
    """0 when ENGINE had black, 1 white, None when it did not play."""
    if game["black"].startswith(engine):
        return 0
    if game["white"].startswith(engine):
        return 1
    return None


def review(game: dict, colour: int, judge, top: int) -> dict:
    """The evaluations around each of the engine's moves and the largest drops."""
    size = int(game.get("size", 15))
    rule = int(game.get("rule", 0))
    moves = game_moves(game)
    rows = []
    for ply in range(len(game["opening"]), len(moves)):
        if ply % 2 != colour:
            continue
        before, best = judge(size, moves[:ply], rule)
        after_them, _ = judge(size, moves[:ply + 1], rule)
        after = None if after_them is None else -after_them
        drop = before - after if before is not None and after is not None else 0
        rows.append({"ply": ply, "move": moves[ply], "best": best, "before": before, "after": after, "drop": drop})
        if after is not None and after <= -DECIDED:
            break  # lost by force: the rest only plays it out
    worst = sorted((r for r in rows if r["drop"] > 0), key=lambda r: -r["drop"])[:top]
    return {"rows": rows, "worst": worst}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", help="match.py --jsonl file")
    ap.add_argument("--judge", required=True, help="the judging brain's command (shell words)")
    ap.add_argument("--engine", default="gorin", help="name prefix of the engine to review")
    ap.add_argument("--nodes", type=int, default=300000, help="INFO max_node per position")
    ap.add_argument("--turn-ms", type=int, default=30000, help="INFO timeout_turn (a bound only)")
    ap.add_argument("--send-delay-ms", type=int, default=0, help="wait before each position (Rapfi: 60)")
    ap.add_argument("--top", type=int, default=3, help="largest drops shown per game")
    ap.add_argument("--all", action="store_true", help="review every game, not only the lost ones")
    ap.add_argument("--save", help="write the missed wins and moves into forced losses here (JSON lines)")
    args = ap.parse_args()
    saved = open(args.save, "w", encoding="utf-8") if args.save else None

    judge = Judge(args.judge, args.nodes, args.send_delay_ms / 1000, args.turn_ms / 1000)
    reviewed = missed_wins = into_losses = 0
    try:
        for line in Path(args.games).read_text().splitlines():
            if not line.strip():
                continue
            game = json.loads(line)
            colour = engine_colour(game, args.engine)
            if colour is None:
                continue
            lost = game.get("winner") is not None and not game["winner"].startswith(args.engine)
            if not (lost or args.all):
                continue
            r = review(game, colour, judge, args.top)
            reviewed += 1
            side = "black" if colour == 0 else "white"
            print(f"game {game['game']}: {args.engine} {side}, {game.get('reason', '')}")
            print("  evals (ply:before>after): " + " ".join(f"{x['ply']}:{x['before']}>{x['after']}" for x in r["rows"]))
            for x in r["worst"]:
                best = coord(x["best"]) if x["best"] else "?"
                kind = ""
                if x["before"] is not None and x["before"] >= DECIDED and x["after"] is not None and x["after"] < DECIDED:
                    kind = MISSED_WIN
                    missed_wins += 1
                elif x["after"] is not None and x["after"] <= -DECIDED and x["before"] is not None and x["before"] > -DECIDED:
                    kind = FORCED_LOSS
                    into_losses += 1
                print(f"  ply {x['ply']}: played {coord(x['move'])}, judge {best}, {x['before']} -> {x['after']}"
                      f" (drop {x['drop']}){'  ' + kind if kind else ''}")
                if saved and kind:
                    saved.write(json.dumps({
                        "game": game["game"], "ply": x["ply"], "size": int(game.get("size", 15)),
                        "rule": int(game.get("rule", 0)), "moves": game_moves(game)[:x["ply"]],
                        "played": x["move"], "judge": x["best"], "kind": kind, "before": x["before"],
                        "after": x["after"],
                    }) + "\n")
            sys.stdout.flush()
    finally:
        judge.close()
        if saved:
            saved.close()
    print(f"{reviewed} games reviewed: {missed_wins} missed wins, {into_losses} moves into a forced loss")
    return 0


if __name__ == "__main__":
    sys.exit(main())
