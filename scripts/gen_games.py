#!/usr/bin/env python3
"""Self-play games for training and test data; see gorinkit/gamegen.py and scripts/README.md.

Usage: python3 scripts/gen_games.py --games 100 --nodes 20000 --seed 1 --out data/selfplay
       (writes data/selfplay.jsonl and data/selfplay.sgf)
"""

import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from gorinkit.gamegen import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
