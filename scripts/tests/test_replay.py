"""Tests of replay.py and blunders.py --save (run from the repository root with the others):

    python3 -m unittest discover -s scripts/tests -t scripts
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import replay
from gorinkit import evals

from .common import GAME, GORIN, NEEDS_GORIN, SCRIPTS

LOST = -(replay.DECIDED + 5)


class Holding(unittest.TestCase):
    def test_a_forced_loss_is_held_only_without_the_opponents_win(self) -> None:
        loss = replay.FORCED_LOSS
        self.assertTrue(replay.held(loss, [1, 1], [2, 2], 150))
        self.assertFalse(replay.held(loss, [1, 1], [2, 2], -LOST))
        self.assertFalse(replay.held(loss, [2, 2], [2, 2], 150), "the reviewed move fails unasked")
        self.assertFalse(replay.held(loss, None, [2, 2], None))
        self.assertFalse(replay.held(loss, [1, 1], [2, 2], None), "no evaluation, no proof")

    def test_a_missed_win_is_held_only_while_the_win_stands(self) -> None:
        win = replay.MISSED_WIN
        self.assertTrue(replay.held(win, [1, 1], [2, 2], LOST))
        self.assertTrue(replay.held(win, [1, 1], [2, 2], None), "a five ends the game")
        self.assertFalse(replay.held(win, [1, 1], [2, 2], 300))

    def test_positions_the_judge_played_alike_are_left_out(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp, "p.jsonl")
            rows = [{"kind": replay.FORCED_LOSS, "played": [0, 4], "judge": [6, 7], "moves": []},
                    {"kind": replay.FORCED_LOSS, "played": [0, 4], "judge": [0, 4], "moves": []},
                    {"kind": replay.MISSED_WIN, "played": [1, 1], "judge": None, "moves": []}]
            path.write_text("".join(json.dumps(r) + "\n" for r in rows))
            self.assertEqual([r["judge"] for r in replay.load(str(path))], [[6, 7], None])


@unittest.skipUnless(GORIN.exists(), NEEDS_GORIN)
class WithGorin(unittest.TestCase):
    def test_the_saved_blunder_is_held_by_a_searching_engine(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            games, saved = Path(tmp, "games.jsonl"), Path(tmp, "positions.jsonl")
            games.write_text(json.dumps(GAME) + "\n")
            run = subprocess.run(
                [sys.executable, str(SCRIPTS / "blunders.py"), str(games), "--judge", str(GORIN),
                 "--engine", "weak", "--nodes", "3000", "--turn-ms", "5000", "--save", str(saved)],
                capture_output=True, text=True, timeout=60)
            self.assertEqual(run.returncode, 0, run.stderr)
            rows = [json.loads(line) for line in saved.read_text().splitlines()]
            self.assertEqual(len(rows), 1, saved.read_text())
            self.assertEqual((rows[0]["ply"], rows[0]["played"], rows[0]["kind"]), (5, [0, 4], replay.FORCED_LOSS))
            self.assertEqual(rows[0]["moves"], GAME["moves"][:5])
            # Gorin, given the position with time to think, blocks the open three.
            run = subprocess.run(
                [sys.executable, str(SCRIPTS / "replay.py"), str(saved), "--judge", str(GORIN),
                 "--nodes", "3000", "--engine", str(GORIN), "--turn-ms", "300"],
                capture_output=True, text=True, timeout=60)
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertIn("held 1/1 (wins kept 0/0, forced losses avoided 1/1) +", run.stdout)
            # After the losing move, Gorin as the attacker proves its win (the open three stands).
            run = subprocess.run(
                [sys.executable, str(SCRIPTS / "replay.py"), str(saved), "--attack", "--engine", str(GORIN),
                 "--turn-ms", "300"],
                capture_output=True, text=True, timeout=60)
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertIn("proved 1/1 +", run.stdout)

    def test_a_win_is_read_only_from_a_proved_evaluation(self) -> None:
        def proved(line: str) -> bool:
            m = evals.EVAL_RE.search(line)
            return replay.proved_win(m.group(1) if m else None)

        self.assertTrue(proved("MESSAGE depth 7-13 ev +M13 n 1.1M"))
        self.assertTrue(proved("MESSAGE dep 14-29 ev +v25 nd 245k"))
        self.assertFalse(proved("MESSAGE depth 9-17 ev 1718 n 419K"))
        self.assertFalse(proved("MESSAGE depth 9 ev -M12 n 4K"))
