#!/usr/bin/env python3
"""Counts white's renju wins by forbidden points in match.py JSONL files (`--jsonl`).

A white win counts as a trap when, before black's last move, white had exactly one five point
(a four) and that point was forbidden for black, so black could not block; a black foul
(forbidden move) counts separately. Needs the PyPI package `renju` as an independent judge.

    python3 scripts/renju_traps.py games.jsonl [more.jsonl ...]
"""

from __future__ import annotations

import argparse
import sys

from gorinkit.referee import BLACK, RENJU, RENJU_PACKAGE, WHITE, Board, read_jsonl


def is_trap(game: dict) -> bool:
    """Whether white's winning five came from a four whose one five point black could not take:
    the point was forbidden for black before black's last move."""
    board = Board(game["size"])
    stones = game["opening"] + game["moves"]
    for i, (x, y) in enumerate(stones[:-2]):  # before black's last move
        board.place(x, y, BLACK if i % 2 == 0 else WHITE)
    fives = [(x, y) for y in range(board.height) for x in range(board.width)
             if not board.get(x, y) and board.wins(x, y, WHITE, RENJU)]
    return len(fives) == 1 and board.renju_foul(*fives[0]) is not None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("jsonl", nargs="+", help="match.py or gauntlet.py game records")
    args = ap.parse_args()
    if not RENJU_PACKAGE:
        print("renju_traps: needs the PyPI package renju (pip install renju)", file=sys.stderr)
        return 2
    try:
        all_games = read_jsonl(*args.jsonl)
    except (OSError, ValueError) as e:
        print(f"renju_traps: {e}", file=sys.stderr)
        return 2
    # Per engine (the winner, playing white): white wins, by a black foul, by a trap.
    tally: dict[str, list[int]] = {}
    games = len(all_games)
    for game in all_games:
        if game.get("winner_colour") != "white":
            continue
        counts = tally.setdefault(game.get("winner") or game.get("white", "white"), [0, 0, 0])
        counts[0] += 1
        if game.get("kind") != "five":
            counts[1] += 1
            continue
        counts[2] += is_trap(game)
    print(f"games: {games}")
    for name, (wins, fouls, traps) in sorted(tally.items()):
        print(f"{name} as white: {wins} wins; by a black foul: {fouls}; "
              f"by a four whose only block was forbidden: {traps}")
    total = [sum(c[i] for c in tally.values()) for i in range(3)]
    print(f"white wins: {total[0]}; by a black foul: {total[1]}; "
          f"by a four whose only block was forbidden: {total[2]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
