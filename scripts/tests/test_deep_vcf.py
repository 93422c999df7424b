"""deep_vcf.py: the positions of a game (with lost tempi), the solver's answers, and a whole
mining run through `pbrain-gorin solve` on a game whose last positions hold a VCF."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import deep_vcf
import puzzles

from .common import GORIN, NEEDS_GORIN, SCRIPTS

# Black (h8 i8 j8 k8 in the end) against scattered white stones: black's three on row 8 makes
# a VCF (a four, the block, the five) from ply 6 on.
GAME = {"game": 7, "size": 15, "rule": 0, "opening": [[7, 7], [6, 6]],
        "moves": [[8, 7], [0, 14], [9, 7], [14, 0], [10, 7], [14, 14], [11, 7]]}


class Positions(unittest.TestCase):
    def test_each_position_from_the_end_of_the_opening(self):
        got = deep_vcf.positions(GAME)
        self.assertEqual([len(m) for m, _ in got], [2, 3, 4, 5, 6, 7, 8])
        self.assertEqual(got[0], ([[7, 7], [6, 6]], False))
        self.assertFalse(any(tempo for _, tempo in got))

    def test_a_lost_tempo_follows_each_position_where_a_far_point_is_left(self):
        got = deep_vcf.positions(GAME, tempo=True)
        plain = deep_vcf.positions(GAME)
        self.assertEqual([(m, t) for m, t in got if not t], plain)
        passed = [(got[i - 1][0], m) for i, (m, t) in enumerate(got) if t]
        self.assertGreaterEqual(len(passed), 3)
        for before, after in passed:
            self.assertEqual(after[:-1], before)
            x, y = after[-1]
            self.assertGreaterEqual(min(max(abs(x - a), abs(y - b)) for a, b in before), deep_vcf.TEMPO_DISTANCE)

    def test_no_tempo_on_a_crowded_board(self):
        crowded = [[x, y] for x in range(0, 7, 3) for y in range(0, 7, 3)]
        self.assertIsNone(deep_vcf.far_point(crowded, 7))

    def test_rules_by_number_or_name(self):
        self.assertEqual(deep_vcf.rule_of({"rule": "renju"}), 4)
        self.assertEqual(deep_vcf.rule_of({"rule": "1"}), 1)
        self.assertEqual(deep_vcf.rule_of({}), 0)


class Answers(unittest.TestCase):
    def test_win_none_unknown_and_error(self):
        self.assertEqual(deep_vcf.parse_answer("win 3 nodes 12 line 7,6 7,10 7,5"),
                         (3, 12, [[7, 6], [7, 10], [7, 5]]))
        for text in ("none nodes 24", "unknown nodes 100", "error 7,7 is played twice", ""):
            self.assertIsNone(deep_vcf.parse_answer(text))


@unittest.skipUnless(GORIN.exists(), NEEDS_GORIN)
class Mining(unittest.TestCase):
    def test_the_vcf_positions_of_a_game_become_puzzles(self):
        with tempfile.TemporaryDirectory() as tmp:
            games = Path(tmp) / "games.jsonl"
            games.write_text(json.dumps(GAME) + "\n")
            out = Path(tmp) / "deep.jsonl"
            run = subprocess.run([sys.executable, str(SCRIPTS / "deep_vcf.py"), str(games), "--out", str(out),
                                  "--engine", str(GORIN), "--min-plies", "3", "--nodes", "10000"],
                                 capture_output=True, text=True, timeout=60)
            self.assertEqual(run.returncode, 0, run.stderr)
            puzzles = [json.loads(line) for line in out.read_text().splitlines()]
        # Black to move at ply 6 (h8 i8 j8 on row 8): a four, the block, the five; the later
        # black position (ply 8, an open four) is the same attack and is not kept.
        self.assertEqual(len(puzzles), 1, puzzles)
        p = puzzles[0]
        self.assertEqual((p["rule"], p["to_move"], p["vcf_plies"], p["tempo"]), ("freestyle", "black", 3, False))
        self.assertEqual(len(p["black"]), len(p["white"]))
        self.assertIn(p["winning_first_moves"][0], ([10, 7], [6, 7]))
        self.assertIn("7-p6", p["id"])



@unittest.skipUnless(GORIN.exists(), NEEDS_GORIN)
class OtherWinningMoves(unittest.TestCase):
    """puzzles.py's check of a move not listed as winning, on the position of ply 6 of GAME
    (black h8 i8 j8 on row 8, freestyle, black to move)."""

    PUZZLE = {"id": "t", "rule": "freestyle", "size": 15, "to_move": "black",
              "black": [[7, 7], [8, 7], [9, 7]], "white": [[6, 6], [0, 14], [14, 0]],
              "winning_first_moves": [[10, 7]]}

    def test_a_four_whose_block_is_forced_is_played_through_to_the_five(self):
        # The other end of the three: white's block comes without a search report, then
        # black's five.
        self.assertTrue(puzzles.defender_lost([str(GORIN)], self.PUZZLE, (6, 7), 300))

    def test_a_move_that_lets_the_win_go_is_not_counted(self):
        # White also has an open three (row 12): a black move elsewhere lets white make an open
        # four and win first. (Without it white is lost after any black move: black's open
        # three alone wins freestyle by force, as Rapfi and Gorin both find.)
        puzzle = dict(self.PUZZLE, white=[[6, 6], [3, 11], [4, 11], [5, 11]],
                      black=[[7, 7], [8, 7], [9, 7], [12, 2]])
        self.assertFalse(puzzles.defender_lost([str(GORIN)], puzzle, (0, 0), 300))

    def test_a_quiet_move_beside_an_open_four_still_wins(self):
        # Black's open four stands; the quiet move keeps it. White's block of one end is
        # answered at once (no report), black's five at the other end ends it.
        puzzle = dict(self.PUZZLE, black=[[7, 7], [8, 7], [9, 7], [10, 7]],
                      white=[[6, 6], [0, 14], [14, 0], [14, 14]])
        self.assertTrue(puzzles.defender_lost([str(GORIN)], puzzle, (3, 3), 300))


if __name__ == "__main__":
    unittest.main()
