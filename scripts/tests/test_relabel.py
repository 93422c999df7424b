"""Tests of relabel.py (run from the repository root with the others):

    python3 -m unittest discover -s scripts/tests -t scripts

Gorin itself is the teacher of the end-to-end test (it prints `ev E` like any brain).
"""

from __future__ import annotations

import struct
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import relabel

from .common import GORIN, NEEDS_GORIN, SCRIPTS


def record(ply: int, move: int, value: int, result: int, flags: int, cells: list[int], size: int = 5) -> bytes:
    n = size * size
    head = struct.pack("<BBBBHHhbB", 0, size, size, 1 if ply % 2 == 0 else 2, ply, move, value, result, flags)
    grid = bytes(cells + [0] * (n - len(cells)))
    return head + grid + bytes(4 * n)


class Records(unittest.TestCase):
    def test_the_value_changes_and_nothing_else(self) -> None:
        r = record(2, 12, 37, 1, 0, [1, 2])
        out = relabel.relabelled(r, "200", 400, 600)
        self.assertEqual(struct.unpack_from("<HHhbB", out, 4), (2, 12, 300, 1, relabel.FLAG_TEACHER))
        self.assertEqual(out[:4], r[:4])
        self.assertEqual(out[12:], r[12:])

    def test_mates_and_proofs(self) -> None:
        r = record(2, 12, 37, -1, 1, [1, 2])
        out = relabel.relabelled(r, "-M7", 400, 600)
        self.assertEqual(struct.unpack_from("<hB", out, 8)[0], -20000)
        self.assertEqual(out[11], 1 | relabel.FLAG_MATE | relabel.FLAG_TEACHER, "the exploration bit stays")
        proved = record(2, 12, 20000, 1, relabel.FLAG_MATE, [1, 2])
        out = relabel.relabelled(proved, "-150", 400, 600)
        self.assertEqual(struct.unpack_from("<h", out, 8)[0], 20000, "the engine's proof outranks an evaluation")
        huge = relabel.relabelled(record(2, 12, 0, 1, 0, [1, 2]), "90000", 400, 600)
        self.assertEqual(struct.unpack_from("<h", huge, 8)[0], relabel.VALUE_CAP)

    def test_foreign_and_torn_files_are_refused(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp, "x.grn1")
            path.write_bytes(b"GRN2" + bytes(4))
            with self.assertRaisesRegex(ValueError, "not a GRN1 file"):
                relabel.read_records(str(path))
            path.write_bytes(b"GRN1\x01\x00" + bytes(2) + record(0, 12, 0, 1, 0, [])[:-1])
            with self.assertRaisesRegex(ValueError, "x.grn1: truncated record at offset 8"):
                relabel.read_records(str(path))
            path.write_bytes(b"GRN1\x02\x00" + bytes(2))
            with self.assertRaisesRegex(ValueError, "version 2"):
                relabel.read_records(str(path))

    def test_move_lists_follow_the_game_or_the_cells(self) -> None:
        # A game of three records, then a lone record whose predecessor is missing.
        recs = [record(0, 12, 0, 1, 0, []), record(1, 13, 0, -1, 0, [0] * 12 + [1]),
                record(2, 7, 0, 1, 0, [0] * 12 + [1, 2]), record(5, 0, 0, -1, 0, [1, 2, 1, 2, 1])]
        boards = relabel.positions(recs)
        self.assertEqual(boards[0], [])
        self.assertEqual(boards[1], [[2, 2]])
        self.assertEqual(boards[2], [[2, 2], [3, 2]])
        self.assertEqual(boards[3], [[0, 0], [1, 0], [2, 0], [3, 0], [4, 0]])
        # The next ply, but its stones moved one point left (the square of games_to_records.py
        # moved with the game): its own cells, not the record before it plus that one's move.
        shifted = record(2, 7, 0, 1, 0, [0] * 11 + [1, 2])
        self.assertEqual(relabel.positions(recs[:2] + [shifted])[2], [[1, 2], [2, 2]])


    def test_a_side_record_is_sent_by_its_cells(self) -> None:
        # A game record at ply 1, then side records at plies 2 and 3 (each one stone off the
        # game): neither follows the record before it, whatever their plies say.
        recs = [record(1, 7, 0, 1, 0, [0] * 12 + [1]),
                record(2, 0, 0, 0, relabel.FLAG_SIDE, [0] * 12 + [1, 2]),
                record(3, 1, 0, 0, relabel.FLAG_SIDE, [0] * 11 + [1, 1, 2])]
        boards = relabel.positions(recs)
        self.assertEqual(boards[1], [[2, 2], [3, 2]])
        self.assertEqual(boards[2], [[1, 2], [3, 2], [2, 2]])


@unittest.skipUnless(GORIN.exists(), NEEDS_GORIN)
class EndToEnd(unittest.TestCase):
    def test_side_records_and_only_unproved_ones(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            data, out = Path(tmp, "g.grn1"), Path(tmp, "t.grn1")
            subprocess.run([str(GORIN), "gen-data", "--out", str(data), "--games", "1", "--nodes", "1000",
                            "--seed", "3", "--side", "1", "--side-nodes", "300"],
                           check=True, capture_output=True, timeout=120)
            run = subprocess.run(
                [sys.executable, str(SCRIPTS / "relabel.py"), "--teacher", str(GORIN), "--data", str(data),
                 "--out", str(out), "--nodes", "300", "--unproved", "--delay-ms", "0"],
                capture_output=True, text=True, timeout=120,
            )
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
            _, before = relabel.read_records(str(data))
            _, after = relabel.read_records(str(out))
            unproved = [r for r in before if not r[11] & relabel.FLAG_MATE]
            self.assertTrue(any(r[11] & relabel.FLAG_SIDE for r in unproved), "no unproved side record")
            self.assertIn(f"chosen {len(unproved)},", run.stdout)
            self.assertTrue(any(r[11] & relabel.FLAG_SIDE for r in after), "no side record answered")
            self.assertTrue(all(r[11] & relabel.FLAG_TEACHER for r in after))

    def test_a_generated_file_is_relabelled(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            data, out = Path(tmp, "g.grn1"), Path(tmp, "t.grn1")
            subprocess.run([str(GORIN), "gen-data", "--out", str(data), "--games", "2", "--nodes", "2000",
                            "--seed", "7"], check=True, capture_output=True, timeout=120)
            run = subprocess.run(
                [sys.executable, str(SCRIPTS / "relabel.py"), "--teacher", str(GORIN), "--data", str(data),
                 "--out", str(out), "--nodes", "1000", "--every", "3", "--delay-ms", "0", "--scale", "650"],
                capture_output=True, text=True, timeout=120,
            )
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
            header, before = relabel.read_records(str(data))
            _, after = relabel.read_records(str(out))
            self.assertEqual(out.read_bytes()[:8], header)
            chosen = before[::3]
            self.assertTrue(0 < len(after) <= len(chosen))
            self.assertIn(f"labelled {len(after)} ", run.stdout)
            # Every written record is one of the chosen ones, in order, its board and move untouched.
            it = iter(chosen)
            for r in after:
                self.assertTrue(any(c[:8] == r[:8] and c[10:11] == r[10:11] and c[12:] == r[12:] for c in it))
                self.assertTrue(r[11] & relabel.FLAG_TEACHER)


if __name__ == "__main__":
    unittest.main()
