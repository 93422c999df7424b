#!/usr/bin/env python3
"""Baseline brain: a random legal move next to the stones (within 2 points; the centre area on an
empty board). The weakest possible opponent: any engine should score ~100% against it.

Usage (as a Gomocup brain): python3 scripts/random_brain.py [--seed N]
Without --seed the moves differ from run to run.
"""

from __future__ import annotations

import sys

sys.dont_write_bytecode = True
from gorinkit.brainkit import main, random_chooser  # noqa: E402


if __name__ == "__main__":
    main("random-brain", random_chooser, __doc__)
