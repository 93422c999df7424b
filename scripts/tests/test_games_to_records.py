"""Tests of games_to_records.py: the squares cut from larger boards, the records' fields, and the
engine's `features` filling them in (run with the others, see test_relabel.py)."""

from __future__ import annotations

import contextlib
import io
import json
import struct
import subprocess
import tempfile
import unittest
from pathlib import Path

import games_to_records as g2r

from .common import GORIN, NEEDS_GORIN


def fields(rec: bytes) -> tuple:
    return struct.unpack_from("<BBBBHHhbB", rec)


class Windows(unittest.TestCase):
    def test_the_square_holds_every_stone_and_stays_on_the_board(self) -> None:
        for stones in ([(0, 0)], [(19, 19), (10, 12)], [(3, 4), (16, 4)], [(9, 9)], [(0, 19), (14, 5)]):
            corner = g2r.window(stones, 20, 15)
            self.assertIsNotNone(corner, stones)
            cx, cy = corner
            self.assertTrue(0 <= cx <= 5 and 0 <= cy <= 5, (stones, corner))
            self.assertTrue(all(cx <= x < cx + 15 and cy <= y < cy + 15 for x, y in stones), (stones, corner))
        self.assertEqual(g2r.window([(9, 9)], 20, 15), (2, 2), "a lone stone sits in the middle")
        self.assertIsNone(g2r.window([(0, 0), (15, 3)], 20, 15), "sixteen columns do not fit")
        self.assertEqual(g2r.window([(4, 4), (10, 10)], 15, 15), (0, 0), "a board of the size is its own square")


class Records(unittest.TestCase):
    GAME = {"size": 20, "moves": [[9, 9], [10, 10], [8, 8], [0, 9], [19, 9], [12, 12], [13, 13]],
            "result": {"event": "five", "winner": "white"}}

    def test_fields_of_each_position(self) -> None:
        recs = g2r.records(self.GAME, 15, 1, 1, 0)
        # Plies 1 and 2 fit with their moves; the moves of plies 3 and 4, (0, 9) and (19, 9), fall
        # outside the square of their stones; from ply 5 the stones span twenty columns.
        self.assertEqual([fields(r)[4] for r in recs], [1, 2])
        rule, w, h, to_move, ply, move, value, result, flags = fields(recs[0])
        self.assertEqual((rule, w, h, to_move, value, flags), (0, 15, 15, 2, 0, g2r.FLAG_EXPLORATION))
        self.assertEqual(result, 1, "white won: a win for white to move")
        self.assertEqual(fields(recs[1])[7], -1, "and a loss for black to move")
        # Ply 1: the stone (9, 9) sits at the centre (7, 7) of the square, corner (2, 2); the move
        # (10, 10) is then (8, 8).
        self.assertEqual(move, 8 * 15 + 8)
        cells = recs[0][12:12 + 225]
        self.assertEqual([i for i, c in enumerate(cells) if c], [7 * 15 + 7])
        self.assertEqual(cells[7 * 15 + 7], 1)
        self.assertEqual(recs[1][12 + 225:], bytes(4 * 225), "no features yet")
        self.assertTrue(all(len(r) == 12 + 5 * 225 for r in recs))

    def test_selection_and_results(self) -> None:
        game = {"size": 15, "moves": [[7, 7], [8, 8], [6, 6], [9, 9], [5, 5], [4, 4], [3, 3]],
                "winner_colour": None, "rule": "standard"}
        recs = g2r.records(game, 15, 2, 2, 2)
        self.assertEqual([fields(r)[4] for r in recs], [2, 4], "every second ply from 2, the last two left out")
        self.assertTrue(all(fields(r)[0] == 1 and fields(r)[7] == 0 for r in recs), "standard, no winner")
        self.assertEqual(g2r.records({**game, "rule": "gomoku-pro"}, 15, 1, 1, 0), [], "a rule the records lack")
        self.assertEqual(g2r.records({**game, "size": 12}, 15, 1, 1, 0), [], "a board smaller than the records")

    @unittest.skipUnless(GORIN.exists(), NEEDS_GORIN)
    def test_the_engine_fills_in_the_features(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            games, raw, out = Path(tmp, "g.jsonl"), Path(tmp, "g.raw.grn1"), Path(tmp, "g.grn1")
            games.write_text(json.dumps(self.GAME) + "\n", encoding="utf-8")
            report = io.StringIO()
            with contextlib.redirect_stdout(report):
                code = g2r.main([str(games), "--out", str(raw), "--from-ply", "1", "--skip-last", "0"])
            self.assertEqual(code, 0)
            self.assertIn("2 records from 1 games", report.getvalue())
            self.assertTrue(report.getvalue().endswith("RESULT: OK\n"))
            subprocess.run([str(GORIN), "features", str(raw), str(out)], check=True, capture_output=True)
            before, after = raw.read_bytes(), out.read_bytes()
            self.assertEqual(len(before), len(after))
            size = 12 + 5 * 225
            self.assertEqual(len(after), 8 + 2 * size)
            recs = [after[8 + i * size:8 + (i + 1) * size] for i in range(2)]
            for i, rec in enumerate(recs):
                self.assertEqual(rec[:12 + 225], before[8 + i * size:8 + i * size + 12 + 225], "head and cells kept")
                feats = struct.unpack_from("<450H", rec, 12 + 225)
                occupied = {j for j, c in enumerate(rec[12:12 + 225]) if c}
                self.assertTrue(all(feats[2 * j] == feats[2 * j + 1] == 0 for j in occupied))
                self.assertTrue(all(0 <= f < g2r.SHAPE_COUNT for f in feats))
                # Next to the stones the shapes differ from those of the empty far corner.
                self.assertNotEqual(feats[2 * (6 * 15 + 7)], feats[0], f"record {i}")


if __name__ == "__main__":
    unittest.main()
