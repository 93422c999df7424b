"""GRN1 records: writer -> reader round trip, mixed sizes, game numbering, and clear errors."""

from __future__ import annotations

import tempfile
import unittest
from pathlib import Path

import numpy as np

from train import records, synth
from train.tests.common import SHAPES


class RecordsTest(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)
        rng = np.random.default_rng(5)
        self.nine = synth.positions(rng, 24, 9, 9, SHAPES, plies_per_game=8)
        self.rect = synth.positions(rng, 8, 7, 6, SHAPES, plies_per_game=4)
        self.path = self.dir / "a.grn1"
        records.write(self.path, SHAPES, [self.nine, self.rect])

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def test_round_trip_groups_by_size(self) -> None:
        data = records.read([self.path])
        self.assertEqual(data.shape_count, SHAPES)
        self.assertEqual(sorted(data.groups), [(7, 6), (9, 9)])
        self.assertEqual(data.groups[(9, 9)].records.tobytes(), self.nine.tobytes())
        self.assertEqual(data.groups[(7, 6)].records.tobytes(), self.rect.tobytes())
        size = self.path.stat().st_size
        self.assertEqual(size, 8 + 24 * (12 + 5 * 81) + 8 * (12 + 5 * 42))

    def test_static_values_follow_their_records_into_the_groups(self) -> None:
        # 24 records on 9x9, then 8 on 7x6: a value per record, in file order.
        values = np.arange(32, dtype="<i2") * 7 - 100
        records.static_path(self.path).write_bytes(
            records.STATIC_MAGIC + np.array([32], "<u4").tobytes() + values.tobytes())
        data = records.read([self.path], with_static=True)
        np.testing.assert_array_equal(data.groups[(9, 9)].static, values[:24])
        np.testing.assert_array_equal(data.groups[(7, 6)].static, values[24:])
        self.assertIsNone(records.read([self.path]).groups[(9, 9)].static)
        records.static_path(self.path).write_bytes(
            records.STATIC_MAGIC + np.array([31], "<u4").tobytes() + values[:31].tobytes())
        with self.assertRaisesRegex(records.RecordError, "31 values .* for 32 records"):
            records.read([self.path], with_static=True)

    def test_games_are_runs_of_increasing_ply(self) -> None:
        data = records.read([self.path, self.path])
        # 24 records at 8 a game, 8 at 4 a game; the second file starts new games.
        self.assertEqual(data.games, 2 * (3 + 2))
        self.assertEqual(list(data.groups[(9, 9)].game[:9]), [0] * 8 + [1])
        self.assertEqual(data.groups[(7, 6)].game[0], 3)

    def test_side_records_belong_to_the_game_before_them(self) -> None:
        # Two games of 8 plies, each followed by side records at plies 3, 3 and 6, as gen-data
        # --side writes them: still two games, every side record in its own game's.
        first, second = self.nine[:8].copy(), self.nine[8:16].copy()
        side = self.nine[16:19].copy()
        side["ply"] = [3, 3, 6]
        side["flags"] = records.FLAG_SIDE
        path = self.dir / "side.grn1"
        records.write(path, SHAPES, [np.concatenate([first, side, second, side])])
        data = records.read([path])
        self.assertEqual(data.games, 2)
        self.assertEqual(list(data.groups[(9, 9)].game), [0] * 11 + [1] * 11)

    def test_inputs_view_from_the_side_to_move(self) -> None:
        recs = self.nine[:4]
        own, opp, empty = records.inputs(recs, SHAPES)
        for i, r in enumerate(recs):
            stm = r["to_move"]
            for p in range(81):
                cell = r["cells"][p]
                if cell == 0:
                    self.assertEqual((own[i, p], opp[i, p]), (r["features"][p, stm - 1], r["features"][p, 2 - stm]))
                else:
                    row = SHAPES if cell == stm else SHAPES + 1
                    self.assertEqual((own[i, p], opp[i, p], empty[i, p]), (row, row, False))

    def test_line_classes_follow_their_records_and_stones_take_their_rows(self) -> None:
        from train import fixture
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "f.grn1"
            chunks = fixture.positions()
            records.write(path, fixture.SHAPES, chunks)
            classes = fixture.line_classes(chunks)
            records.write_lines(records.line_path(path), fixture.LINE_CLASSES, classes)
            data = records.read([path], with_lines=True)
            self.assertEqual(data.line_count, fixture.LINE_CLASSES)
            for (w, h, _), want in zip(fixture.BOARDS, classes):
                np.testing.assert_array_equal(data.groups[(w, h)].lines, want)
            recs, lines = data.groups[(9, 9)].records, data.groups[(9, 9)].lines
            rows, empty = records.line_inputs(recs, lines, 60)
            for i, r in enumerate(recs):
                for p in range(81):
                    cell = r["cells"][p]
                    if cell == 0:
                        self.assertEqual(list(rows[i, p]), list(lines[i, p]))
                    else:
                        stone = 60 if cell == r["to_move"] else 61
                        self.assertEqual((list(rows[i, p]), bool(empty[i, p])), ([stone, 0, 0, 0], False))
            # A side file that does not fit its records, or is not one.
            raw = records.line_path(path).read_bytes()
            records.line_path(path).write_bytes(raw[:-2])
            with self.assertRaisesRegex(records.RecordError, r"f\.glf1: \d+ bytes for 7 records"):
                records.read([path], with_lines=True)
            records.line_path(path).write_bytes(b"GRN1" + raw[4:])
            with self.assertRaisesRegex(records.RecordError, "not a GLF1 file"):
                records.read([path], with_lines=True)

    def test_truncated_file_names_file_and_offset(self) -> None:
        data = self.path.read_bytes()
        cut = self.dir / "cut.grn1"
        cut.write_bytes(data[:-10])
        last = 8 + 24 * (12 + 5 * 81) + 7 * (12 + 5 * 42)
        with self.assertRaisesRegex(records.RecordError, rf"cut\.grn1: truncated record at offset {last}"):
            records.read([cut])
        cut.write_bytes(data[:8 + 5])
        with self.assertRaisesRegex(records.RecordError, r"truncated record at offset 8 \(5 bytes left"):
            records.read([cut])
        cut.write_bytes(data[:6])
        with self.assertRaisesRegex(records.RecordError, r"truncated header"):
            records.read([cut])

    def test_bad_header_and_fields(self) -> None:
        data = bytearray(self.path.read_bytes())
        bad = self.dir / "bad.grn1"
        for offset, byte, message in ((0, ord("X"), "bad magic"), (4, 2, "version 2"),
                                      (8 + 1, 40, "board 40x9 at offset 8"),
                                      (8 + 3, 3, "offset 8: to_move not 1 or 2")):
            copy = bytearray(data)
            copy[offset] = byte
            bad.write_bytes(bytes(copy))
            with self.assertRaisesRegex(records.RecordError, message):
                records.read([bad])
        other = self.dir / "other.grn1"
        records.write(other, SHAPES + 1, [])
        with self.assertRaisesRegex(records.RecordError, "shape_count 49 at offset 6, but earlier files have 48"):
            records.read([self.path, other])
        big = self.nine[:1].copy()
        big["features"][0, 0, 0] = SHAPES
        big["cells"][0, 0] = 0
        records.write(bad, SHAPES, [big])
        with self.assertRaisesRegex(records.RecordError, "shape index >= shape_count 48"):
            records.read([bad])


if __name__ == "__main__":
    unittest.main()
