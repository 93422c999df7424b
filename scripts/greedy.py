#!/usr/bin/env python3
"""Baseline brain: one-ply greedy. Wins at once if it can, else blocks the opponent's five, else
plays the empty point (next to the stones) with the best simple pattern count: for each of the
four lines through the point, how many own stones it would join and how many of the two ends stay
open; the opponent's count at the same point (a block) is weighted a little lower. Ties are broken
at random (--seed for repeatable games).

Usage (as a Gomocup brain): python3 scripts/greedy.py [--seed N]
"""

from __future__ import annotations

import random
import sys

sys.dont_write_bytecode = True
from gorinkit.brainkit import main  # noqa: E402
from gorinkit.referee import BLACK, DIRECTIONS, RENJU, Board, near_points  # noqa: E402

# Score of joining `n` own stones in a line (n = stones beside the point) with `open_ends` of the
# two ends empty: [n][open_ends]. Five is handled before scoring.
LINE_SCORE = {
    0: (0, 1, 2),
    1: (0, 4, 12),
    2: (0, 30, 200),
    3: (0, 400, 3000),
    4: (0, 10000, 10000),
}
DEFENCE_WEIGHT = 0.9


def line_count(board: Board, x: int, y: int, dx: int, dy: int, colour: int) -> tuple[int, int]:
    """(own stones adjacent to (x, y) on both sides along (dx, dy), empty ends of that run)."""
    length, ends = board.line_ends(x, y, dx, dy, colour)
    return min(length - 1, 4), ends.count(0)


def point_score(board: Board, x: int, y: int, colour: int) -> float:
    score = 0.0
    for dx, dy in DIRECTIONS:
        n, o = line_count(board, x, y, dx, dy, colour)
        score += LINE_SCORE[n][o]
    return score


def legal_for(board: Board, x: int, y: int, colour: int, rule: int) -> bool:
    """Renju: black avoids overlines it can detect (the referee loses it the game)."""
    return not (rule == RENJU and colour == BLACK and not board.wins(x, y, colour, rule)
                and board.overline(x, y, colour))


def make_chooser(rng: random.Random):
    def choose(board: Board, colour: int, rule: int) -> tuple[int, int]:
        if board.count == 0:
            return board.width // 2, board.height // 2
        points = near_points(board, 2) or [(x, y) for y in range(board.height)
                                            for x in range(board.width) if not board.get(x, y)]
        for p in points:  # win
            if board.wins(p[0], p[1], colour, rule):
                return p
        for p in points:  # block a five
            if board.wins(p[0], p[1], 1 - colour, rule) and legal_for(board, *p, colour, rule):
                return p
        best, best_score = [], -1.0
        for p in points:
            if not legal_for(board, *p, colour, rule):
                continue
            s = point_score(board, *p, colour) + DEFENCE_WEIGHT * point_score(board, *p, 1 - colour)
            if s > best_score:
                best, best_score = [p], s
            elif s == best_score:
                best.append(p)
        return rng.choice(best or points)

    return choose


if __name__ == "__main__":
    main("greedy", make_chooser, __doc__)
