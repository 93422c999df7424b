#!/usr/bin/env python3
"""Self-play training data (GRN1) from many gen-data processes, here or on a Ray cluster; see
gorinkit/gendata.py and scripts/README.md.

Usage: python3 scripts/gen_data.py --out games.grn1 --games 1000 --nodes 20000 -j 2
       python3 scripts/gen_data.py --out games.grn1 --games 100000 --ray HEAD:6379
"""

import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from gorinkit.gendata import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
