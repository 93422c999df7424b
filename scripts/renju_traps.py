#!/usr/bin/env python3
"""Counts white's renju wins by forbidden points in match.py JSONL files (`--jsonl`).

A white win counts as a trap when, before black's last move, white had exactly one five point
(a four) and that point was forbidden for black, so black could not block; a black foul
(forbidden move) counts separately. Needs the PyPI package `renju` as an independent judge.

    python3 scripts/renju_traps.py games.jsonl [more.jsonl ...]
"""

from __future__ import annotations

import argparse
import json
import sys

from renju.check_forbid import get_foul_type  # type: ignore

DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


def five_points(grid: list[list[int]], colour: int, size: int) -> set[tuple[int, int]]:
    """Empty points where `colour` (1 black: exactly five, 2 white: five or more) makes five."""
    points = set()
    for x in range(size):
        for y in range(size):
            if grid[x][y]:
                continue
            for dx, dy in DIRECTIONS:
                run = 1
                for sign in (1, -1):
                    k = 1
                    while (0 <= x + sign * k * dx < size and 0 <= y + sign * k * dy < size
                           and grid[x + sign * k * dx][y + sign * k * dy] == colour):
                        run += 1
                        k += 1
                if run == 5 or (colour == 2 and run > 5):
                    points.add((x, y))
    return points


def read_games(paths: list[str]) -> list[dict]:
    games = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            games += [json.loads(line) for line in f if line.strip()]
    return games


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("jsonl", nargs="+", help="match.py or gauntlet.py game records")
    args = ap.parse_args()
    try:
        all_games = read_games(args.jsonl)
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
        size = game["size"]
        stones = game["opening"] + game["moves"]
        grid = [[0] * size for _ in range(size)]
        for i, (x, y) in enumerate(stones[:-2]):  # before black's last move
            grid[x][y] = 1 if i % 2 == 0 else 2
        fours = five_points(grid, 2, size)
        if len(fours) == 1:
            (x, y), = fours
            counts[2] += get_foul_type(grid, x, y) != 0
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
