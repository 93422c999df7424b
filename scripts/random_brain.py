#!/usr/bin/env python3
"""Baseline brain: a random legal move next to the stones (within 2 points; the centre area on an
empty board). The weakest possible opponent: any engine should score ~100% against it.

Usage (as a Gomocup brain): python3 scripts/random_brain.py [--seed N]
Without --seed the moves differ from run to run.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))
from brainkit import run  # noqa: E402
from referee import Board, near_points  # noqa: E402


def make_chooser(rng: random.Random):
    def choose(board: Board, colour: int, rule: int) -> tuple[int, int]:
        points = near_points(board, 2) if board.count else []
        if not points:  # empty board (or nothing empty near the stones): anywhere empty
            cx, cy = board.width // 2, board.height // 2
            if not board.get(cx, cy):
                return cx, cy
            points = [(x, y) for y in range(board.height) for x in range(board.width) if not board.get(x, y)]
        return rng.choice(points)

    return choose


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, default=None)
    a = p.parse_args()
    run("random-brain", make_chooser(random.Random(a.seed)))


if __name__ == "__main__":
    main()
