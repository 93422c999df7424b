"""Tests of false_wins.py (run from the repository root with the others):

    python3 -m unittest discover -s scripts/tests -t scripts
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import false_wins

from .common import GAME, GORIN, NEEDS_GORIN, SCRIPTS

WIN, LOSS = 19990, -19990


class Contradiction(unittest.TestCase):
    def test_a_claim_the_game_bears_out_is_not_listed(self) -> None:
        self.assertIsNone(false_wins.contradiction(WIN, "black", "black"))
        self.assertIsNone(false_wins.contradiction(LOSS, "white", "black"))
        self.assertIsNone(false_wins.contradiction(850, "white", "black"), "no proof, no claim")
        self.assertIsNone(false_wins.contradiction(None, "white", None))

    def test_a_claim_the_game_contradicts_is_listed(self) -> None:
        self.assertEqual(false_wins.contradiction(WIN, "black", "white"), "claimed win")
        self.assertEqual(false_wins.contradiction(WIN, "black", None), "claimed win")
        self.assertEqual(false_wins.contradiction(LOSS, "white", "white"), "claimed loss")
        self.assertEqual(false_wins.contradiction(LOSS, "white", None), "claimed loss")

    def test_the_winner_is_read_from_the_colour_or_the_name(self) -> None:
        self.assertEqual(false_wins.winner_colour({"winner_colour": "white"}), "white")
        self.assertEqual(false_wins.winner_colour(GAME), "black")
        self.assertIsNone(false_wins.winner_colour({**GAME, "winner": None}))

    def test_every_position_after_the_opening_is_asked(self) -> None:
        game = {**GAME, "opening": [[7, 7], [6, 6]], "moves": [[8, 8], [9, 9], [5, 5]]}
        self.assertEqual([ply for _, ply in false_wins.positions([game])], [2, 3, 4])


@unittest.skipUnless(GORIN.exists(), NEEDS_GORIN)
class WithGorin(unittest.TestCase):
    def run_on(self, game: dict, tmp: str) -> tuple[subprocess.CompletedProcess, list[dict]]:
        games, saved = Path(tmp, "games.jsonl"), Path(tmp, "saved.jsonl")
        games.write_text(json.dumps(game) + "\n")
        run = subprocess.run(
            [sys.executable, str(SCRIPTS / "false_wins.py"), str(games), "--brain", str(GORIN),
             "--save", str(saved), "--strict"],
            capture_output=True, text=True, timeout=120)
        return run, [json.loads(line) for line in saved.read_text().splitlines()]

    def test_black_proves_the_win_it_went_on_to_play(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            run, rows = self.run_on(GAME, tmp)
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
            self.assertEqual(rows, [])
            self.assertRegex(run.stdout, r"[1-9]\d* claimed wins")

    def test_a_result_that_contradicts_the_proof_is_listed(self) -> None:
        # The same moves scored as white's game: black's proofs after the open three now
        # disagree with the result.
        with tempfile.TemporaryDirectory() as tmp:
            run, rows = self.run_on({**GAME, "winner": "weak"}, tmp)
            self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
            self.assertTrue(rows)
            self.assertTrue(all(r["kind"] in ("claimed win", "claimed loss") for r in rows))
            self.assertIn("claimed win", {r["kind"] for r in rows})
            self.assertTrue(all(r["moves"] == (GAME["moves"])[:r["ply"]] for r in rows))


if __name__ == "__main__":
    unittest.main()
