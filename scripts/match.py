#!/usr/bin/env python3
"""A match between two Gomocup brains with an independent referee; see gorinkit/matchplay.py
and scripts/README.md.

Usage: python3 scripts/match.py --engine ./target/release/pbrain-gorin \
           --engine "python3 scripts/greedy.py" --games 20 --turn-ms 200
"""

import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from gorinkit.matchplay import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
