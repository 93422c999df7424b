"""Tests of teacher.py (run from the repository root with the others):

    python3 -m unittest discover -s scripts/tests -t scripts

Gorin itself is the teacher here (it prints `ev E` like any brain's evaluation message).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import teacher

from .common import GORIN, NEEDS_GORIN, SCRIPTS



class Probability(unittest.TestCase):
    def test_mates_and_scale(self) -> None:
        self.assertEqual(teacher.probability("+M5", 300), 1.0)
        self.assertEqual(teacher.probability("-M12", 300), 0.0)
        self.assertAlmostEqual(teacher.probability("0", 300), 0.5)
        self.assertGreater(teacher.probability("300", 300), 0.73)
        self.assertLess(teacher.probability("-300", 300), 0.27)

    def test_fitted_scale_follows_the_results(self) -> None:
        # Results drawn at P = sigmoid(e / 400): the fit lands near 400, far from the ends.
        import random

        rng = random.Random(3)
        pairs = []
        for _ in range(4000):
            e = rng.uniform(-1500, 1500)
            pairs.append((e, 1.0 if rng.random() < 1 / (1 + 2.718281828 ** (-e / 400)) else 0.0))
        self.assertTrue(300 <= teacher.fit_scale(pairs) <= 500)

    def test_huge_evaluations_neither_overflow_nor_mislead(self) -> None:
        # Rapfi's renju evaluations pass 20,000 without being mates.
        self.assertEqual(teacher.probability("-30000", 25), teacher.probability("-90000", 25))
        self.assertLess(teacher.probability("-30000", 25), 1e-20)
        import random

        rng = random.Random(4)
        pairs = [(30000.0, 1.0), (-25000.0, 0.0)] * 20
        for _ in range(4000):
            e = rng.uniform(-1500, 1500)
            pairs.append((e, 1.0 if rng.random() < 1 / (1 + 2.718281828 ** (-e / 400)) else 0.0))
        self.assertTrue(300 <= teacher.fit_scale(pairs) <= 500)


class Spots(unittest.TestCase):
    def test_plies_stay_in_the_asked_window(self) -> None:
        games = [(15, [[i, 0] for i in range(n)], None) for n in (4, 9, 30)]
        spots = teacher.pick_spots(games, 3, 8, 1000, 1)
        # Game 0 gives plies 3; game 1 gives 3..8; game 2 gives 3..8: every one, none twice.
        self.assertEqual(sorted(spots), [(0, 3)] + [(g, p) for g in (1, 2) for p in range(3, 9)])
        unbounded = teacher.pick_spots(games, 3, None, 1000, 1)
        self.assertEqual(max(p for g, p in unbounded if g == 2), 29, "the final position is not a question")
        self.assertEqual(len(teacher.pick_spots(games, 3, 8, 5, 1)), 5)
        self.assertEqual(teacher.pick_spots(games, 3, 8, 5, 1), teacher.pick_spots(games, 3, 8, 5, 1))


@unittest.skipUnless(GORIN.exists(), NEEDS_GORIN)
class Labels(unittest.TestCase):
    def test_positions_get_targets_from_the_teacher(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            games = Path(tmp, "games.jsonl")
            # Scattered stones: nothing forced, so the teacher searches and reports an evaluation.
            moves = [[7, 7], [8, 8], [10, 5], [4, 10], [3, 3], [11, 11], [12, 2], [2, 12], [7, 12], [12, 7]]
            games.write_text(json.dumps({"size": 15, "moves": moves, "winner": "black"}) + "\n")
            out = Path(tmp, "labels.jsonl")
            run = subprocess.run(
                [sys.executable, str(SCRIPTS / "teacher.py"), "--teacher", str(GORIN), "--games", str(games),
                 "--positions", "3", "--nodes", "2000", "--turn-ms", "2000", "--scale", "650", "--rule", "1", "--out", str(out)],
                capture_output=True, text=True, timeout=120,
            )
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
            records = [json.loads(line) for line in out.read_text().splitlines()]
            self.assertEqual(len(records), 3)
            for r in records:
                self.assertEqual((r["size"], r["rule"]), (15, 1), "the rule the teacher judged under")
                self.assertTrue(6 <= len(r["moves"]) < len(moves))
                self.assertEqual(r["moves"], moves[: len(r["moves"])])
                self.assertTrue(0.0 <= r["target"] <= 1.0)
                self.assertAlmostEqual(r["target"], teacher.probability(r["eval"], 650), places=3)
                self.assertNotIn("M", r["eval"], "nothing is decided in these positions")


if __name__ == "__main__":
    unittest.main()
