"""What the trainer's tests share: the folders, the engine binary, synthetic data."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import numpy as np

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
TRAIN = Path(__file__).resolve().parent.parent
REPO = TRAIN.parent.parent
GORIN = Path(os.environ.get("GORIN_BIN", REPO / "target" / "release" / "pbrain-gorin"))
HAS_TORCH = importlib.util.find_spec("torch") is not None
NEEDS_TORCH = "needs PyTorch (pip install -r scripts/train/requirements.txt)"
SHAPES = 48


def synthetic(path: Path, seed: int = 1, per_size: int = 400) -> None:
    """A GRN1 file of synthetic games on 9x9 and 7x6 boards (train.synth)."""
    from train import records, synth
    rng = np.random.default_rng(seed)
    records.write(path, SHAPES, [synth.positions(rng, per_size, 9, 9, SHAPES),
                                 synth.positions(rng, per_size // 2, 7, 6, SHAPES)])
