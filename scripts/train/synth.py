"""Synthetic GRN1 records with a learnable signal, for the tests and the fixture (numpy only).

Random stones and random shape indices; the move played is the empty point with the highest own
shape index (so the policy can learn a per-shape score), and the side to move wins when its best
shape beats the other side's best (so the value can learn it too). Games are runs of increasing ply.
"""

from __future__ import annotations

import numpy as np

from . import records


def positions(rng: np.random.Generator, count: int, width: int, height: int, shape_count: int,
              plies_per_game: int = 8, exploration: float = 0.1) -> np.ndarray:
    n = width * height
    recs = np.zeros(count, records.record_dtype(width, height))
    for i in range(count):
        ply = 2 + i % plies_per_game * 2 + rng.integers(0, 2)
        cells = np.zeros(n, np.uint8)
        stones = rng.choice(n, size=min(ply, n - 1), replace=False)
        cells[stones[0::2]] = records.BLACK
        cells[stones[1::2]] = records.WHITE
        to_move = records.BLACK if len(stones) % 2 == 0 else records.WHITE
        feats = rng.integers(0, shape_count, size=(n, 2)).astype(np.uint16)
        feats[cells != records.EMPTY] = 0
        own, opp = feats[:, to_move - 1], feats[:, 2 - to_move]
        empty = np.flatnonzero(cells == records.EMPTY)
        explore = rng.random() < exploration
        move = rng.choice(empty) if explore else empty[np.argmax(own[empty])]
        win = own[empty].max() > opp[empty].max()
        recs[i] = (0, width, height, to_move, len(stones), move,
                   0 if explore else (300 if win else -300), 1 if win else -1,
                   records.FLAG_EXPLORATION if explore else 0, cells, feats)
    return recs
