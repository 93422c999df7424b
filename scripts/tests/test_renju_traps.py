"""renju_traps.py: a white win by a four whose only block is an overline for black counts as a
trap, a black foul counts apart, and several files add up."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from gorinkit.referee import RENJU_PACKAGE

from .common import SCRIPTS

# Black's row 0 (1-3 and 5-6) makes (4,0) an overline for black; white's column 4 (rows 1-4),
# blocked at (4,5), has that point as its only five. Black plays elsewhere and white wins there.
TRAP = {"size": 15, "rule": 4, "opening": [],
        "moves": [[1, 0], [4, 1], [2, 0], [4, 2], [3, 0], [4, 3], [5, 0], [10, 14], [6, 0], [12, 14],
                  [4, 5], [4, 4], [10, 10], [4, 0]],
        "black": "b", "white": "w", "winner": "w", "winner_colour": "white", "kind": "five"}
# The same white win with the block open: black could have played (4,0) had it not been forbidden.
PLAIN = dict(TRAP, moves=[[1, 0], [4, 1], [2, 0], [4, 2], [9, 0], [4, 3], [5, 0], [10, 14], [11, 0],
                          [12, 14], [4, 5], [4, 4], [10, 10], [4, 0]])
FOUL = dict(TRAP, kind="forbidden")
BLACK_WIN = dict(TRAP, winner="b", winner_colour="black")


def run(*paths: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPTS / "renju_traps.py"), *paths],
                          capture_output=True, text=True, timeout=60)


@unittest.skipUnless(RENJU_PACKAGE, "needs the PyPI package renju (pip install renju)")
class Traps(unittest.TestCase):
    def test_counts_traps_and_fouls_over_several_files(self):
        with tempfile.TemporaryDirectory() as tmp:
            first, second = Path(tmp, "a.jsonl"), Path(tmp, "b.jsonl")
            first.write_text(json.dumps(TRAP) + "\n" + json.dumps(BLACK_WIN) + "\n")
            second.write_text(json.dumps(FOUL) + "\n" + json.dumps(PLAIN) + "\n")
            out = run(str(first), str(second))
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("games: 4", out.stdout)
        self.assertIn("w as white: 3 wins; by a black foul: 1; by a four whose only block was forbidden: 1",
                      out.stdout)

    def test_a_missing_file_is_an_error_not_a_traceback(self):
        out = run("/nonexistent/games.jsonl")
        self.assertEqual(out.returncode, 2)
        self.assertIn("renju_traps:", out.stderr)
        self.assertNotIn("Traceback", out.stderr)


if __name__ == "__main__":
    unittest.main()
