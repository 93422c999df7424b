"""What the tests share: the folders, the brain under test, and a short game to judge."""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
HERE = Path(__file__).resolve().parent
SCRIPTS = HERE.parent
REPO = SCRIPTS.parent
GORIN = Path(os.environ.get("GORIN_BIN", REPO / "target" / "release" / "pbrain-gorin"))
NEEDS_GORIN = "needs the release build (cargo build --release)"

# Black builds an open three on row 8 (h8 i8 j8); white's third move (a5, ply 5) ignores it,
# black makes an open four and a five.
GAME = {
    "game": 1, "size": 15, "black": "judge", "white": "weak", "opening": [],
    "moves": [[7, 7], [6, 8], [8, 7], [9, 9], [9, 7], [0, 4], [10, 7], [0, 6], [11, 7]],
    "winner": "judge", "reason": "five by judge",
}
