"""Tests of judge_moves.py (run from the repository root with the others):

    python3 -m unittest discover -s scripts/tests -t scripts
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import judge_moves as jm

from .common import GAME, GORIN, NEEDS_GORIN, SCRIPTS

WIN = jm.DECIDED + 5


class Positions(unittest.TestCase):
    def test_only_the_reviewed_engines_turns_in_the_ply_range(self) -> None:
        ps = jm.positions([GAME], "weak", 2, 7)
        # weak is white: plies 3, 5 and 7 (the stones before its move); the finished board is no turn.
        self.assertEqual([p["ply"] for p in ps], [3, 5, 7])
        self.assertEqual(ps[1]["moves"], GAME["moves"][:5])
        self.assertEqual(ps[1]["played"], [0, 4])
        self.assertEqual([p["ply"] for p in jm.positions([GAME], "judge", 0, 99)], [0, 2, 4, 6, 8])
        self.assertEqual(jm.positions([GAME], "nobody", 0, 99), [])

    def test_an_opening_is_not_a_turn(self) -> None:
        game = dict(GAME, opening=GAME["moves"][:3], moves=GAME["moves"][3:])
        self.assertEqual([p["ply"] for p in jm.positions([game], "weak", 0, 99)], [3, 5, 7])


class Rating(unittest.TestCase):
    def test_drops_are_clipped_so_a_proved_result_is_large_not_huge(self) -> None:
        self.assertEqual(jm.drop(100, -50), 150)
        self.assertEqual(jm.drop(WIN, -WIN), 2 * jm.CLIP)
        self.assertEqual(jm.drop(-40, 60), -100)

    def test_kinds(self) -> None:
        self.assertEqual(jm.kind(WIN, 300), jm.MISSED_WIN)
        self.assertIsNone(jm.kind(WIN, WIN - 2), "a win kept, if longer")
        self.assertEqual(jm.kind(-200, -WIN), jm.FORCED_LOSS)
        self.assertIsNone(jm.kind(-WIN, -WIN), "lost already")
        self.assertEqual(jm.kind(100, -60), jm.QUIET_DROP)
        self.assertIsNone(jm.kind(100, -40))

    def test_pairwise_counts_each_side_clearly_worse(self) -> None:
        line = jm.pairwise("a", "b", [0, 300, None, 10], [200, 0, 5, 0], [[1, 1], [2, 2], None, [3, 3]],
                           [[1, 1], [4, 4], [5, 5], [3, 3]])
        self.assertEqual(line, "a vs b: same move 2/4; a worse by 150+ in 1, b in 1")

    def test_the_cache_asks_the_judge_once_per_position(self) -> None:
        asked = []

        def judge(size, moves, rule):
            asked.append(len(moves))
            return 7 * len(moves), None

        with tempfile.TemporaryDirectory() as tmp:
            path = str(Path(tmp, "c.json"))
            c = jm.CachedJudge(judge, path)
            self.assertEqual(c(15, [[7, 7]], 0), 7)
            self.assertEqual(c(15, [[7, 7]], 0), 7)
            c.save()
            self.assertEqual(jm.CachedJudge(judge, path)(15, [[7, 7]], 0), 7)
            self.assertEqual(jm.CachedJudge(judge, path)(15, [[7, 7]], 4), 7, "another rule is asked")
        self.assertEqual(asked, [1, 1])


@unittest.skipUnless(GORIN.exists(), NEEDS_GORIN)
class WithGorin(unittest.TestCase):
    def test_the_played_blunder_is_rated_as_one_and_the_searchers_move_is_not(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            games, out = Path(tmp, "games.jsonl"), Path(tmp, "rated.jsonl")
            games.write_text(json.dumps(GAME) + "\n")
            run = subprocess.run(
                [sys.executable, str(SCRIPTS / "judge_moves.py"), str(games), "--reviewed", "weak",
                 "--plies", "5-5", "--judge", str(GORIN), "--nodes", "3000",
                 "--engine", f"gorin={GORIN}", "--turn-ms", "300", "--out", str(out)],
                capture_output=True, text=True, timeout=60)
            self.assertEqual(run.returncode, 0, run.stderr)
            # Ignoring the open three (a5) loses by force; Gorin with time to think blocks it.
            self.assertIn("played: 1 rated", run.stdout)
            self.assertIn("into a forced loss 1", run.stdout.splitlines()[1])
            self.assertIn("into a forced loss 0", run.stdout.splitlines()[2])
            self.assertIn("played vs gorin: same move 0/1; played worse by 150+ in 1, gorin in 0", run.stdout)
            rows = [json.loads(line) for line in out.read_text().splitlines()]
            self.assertEqual([r["engine"] for r in rows], ["played", "gorin"])
            self.assertEqual(rows[0]["kind"], jm.FORCED_LOSS)
            self.assertIn(rows[1]["move"], ([6, 7], [10, 7]), "a block of the open three")


if __name__ == "__main__":
    unittest.main()
