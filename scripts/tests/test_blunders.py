"""Tests of blunders.py (run from the repository root with the others):

    python3 -m unittest discover -s scripts/tests -t scripts

Gorin judges a short game in which white ignores black's open three.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import blunders
from gorinkit import evals

from .common import GAME, GORIN, NEEDS_GORIN, SCRIPTS




class Scores(unittest.TestCase):
    def test_mates_and_numbers(self) -> None:
        self.assertEqual(evals.score("+M3"), evals.MATE - 3)
        self.assertEqual(evals.score("-M12"), -(evals.MATE - 12))
        self.assertEqual(evals.score("-57"), -57)
        self.assertIsNone(evals.score(None))

    def test_engine_colour_by_name_prefix(self) -> None:
        self.assertEqual(blunders.engine_colour(GAME, "weak"), 1)
        self.assertEqual(blunders.engine_colour(GAME, "judge"), 0)
        self.assertIsNone(blunders.engine_colour(GAME, "other"))

    def test_review_finds_the_largest_drop(self) -> None:
        # A fake judge: white is fine until a5, then lost by force.
        def judge(size, moves, rule):
            white_to_move = len(moves) % 2 == 1
            lost = len(moves) >= 6
            ev = -(evals.MATE - 3) if lost else -200
            return (ev if white_to_move else -ev), [6, 7]

        r = blunders.review(GAME, 1, judge, top=1)
        self.assertEqual([x["ply"] for x in r["rows"]], [1, 3, 5])
        self.assertEqual(r["worst"][0]["ply"], 5)
        self.assertEqual(r["worst"][0]["after"], -(evals.MATE - 3))

    def test_the_judge_gets_the_games_rule(self) -> None:
        seen = []

        def judge(size, moves, rule):
            seen.append(rule)
            return 0, [6, 7]

        blunders.review(dict(GAME, rule=4), 1, judge, top=1)
        self.assertTrue(seen)
        self.assertEqual(set(seen), {4})
        seen.clear()
        blunders.review({k: v for k, v in GAME.items() if k != "rule"}, 1, judge, top=1)
        self.assertEqual(set(seen), {0}, "a record without a rule is freestyle")

    def test_each_judge_position_names_its_rule_first(self) -> None:
        lines = evals.position_lines(15, [[7, 7], [8, 8]], 1000, 5000, 4)
        self.assertEqual(lines[0], "INFO rule 4")
        self.assertIn("BOARD", lines)
        self.assertLess(lines.index("INFO rule 4"), lines.index("BOARD"))


@unittest.skipUnless(GORIN.exists(), NEEDS_GORIN)
class WithGorinAsJudge(unittest.TestCase):
    def test_the_ignored_three_is_a_move_into_a_forced_loss(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            games = Path(tmp, "games.jsonl")
            games.write_text(json.dumps(GAME) + "\n")
            run = subprocess.run(
                [sys.executable, str(SCRIPTS / "blunders.py"), str(games), "--judge", str(GORIN),
                 "--engine", "weak", "--nodes", "3000", "--turn-ms", "5000"],
                capture_output=True, text=True, timeout=60)
            self.assertEqual(run.returncode, 0, run.stderr)
            lines = run.stdout.splitlines()
            blunder = [line for line in lines if line.strip().startswith("ply 5:")]
            self.assertEqual(len(blunder), 1, run.stdout)
            self.assertIn("played a5", blunder[0])
            self.assertIn("into a forced loss", blunder[0])
            # The judge's own move blocks the three at one of its ends.
            self.assertTrue(any(f"judge {p}," in blunder[0] for p in ("g8", "k8", "f8", "l8")), blunder[0])
            self.assertIn("1 games reviewed: 0 missed wins, 1 moves into a forced loss", run.stdout)
