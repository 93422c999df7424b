#!/usr/bin/env python3
"""A gauntlet: the engine against a list of opponents in each Gomocup league; a Markdown table
and an SVG chart of the Elo per league. See gorinkit/gauntlet.py and scripts/README.md.

Usage: python3 scripts/gauntlet.py --opponent self=/tmp/gorin-copy --games 6 --turn-ms 100
"""

import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from gorinkit.gauntlet import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
