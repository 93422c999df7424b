"""GNN1 and the integer reference: file round trip, determinism, rounding, the shipped fixture."""

from __future__ import annotations

import tempfile
import unittest
from pathlib import Path

import numpy as np

from train import fixture, gnn, records, reference, synth
from train.tests.common import SHAPES


class ReferenceTest(unittest.TestCase):
    def test_shift_rounds_half_up_on_both_signs(self) -> None:
        x = np.array([-1537, -1536, -1535, -513, -512, -511, 0, 511, 512, 1535, 1536])
        self.assertEqual(list(reference.shift_round(x, 10)), [-2, -1, -1, -1, 0, 0, 0, 0, 1, 1, 2])

    def test_file_round_trip_and_deterministic_forward(self) -> None:
        q = fixture.net()
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "n.gnn1"
            gnn.write(path, q)
            back = gnn.read(path)
            self.assertEqual((back.dim, back.hidden, back.shape_count), (q.dim, q.hidden, q.shape_count))
            for name, _, _ in gnn.ARRAYS:
                np.testing.assert_array_equal(back.arrays[name], q.arrays[name])
            data = path.read_bytes()
            path.write_bytes(data[:-1])
            with self.assertRaisesRegex(gnn.GnnError, "truncated at value2_b"):
                gnn.read(path)
            path.write_bytes(data[:4] + b"\x02\x00" + data[6:])
            with self.assertRaisesRegex(gnn.GnnError, "version 2"):
                gnn.read(path)
        recs = synth.positions(np.random.default_rng(3), 16, 9, 9, fixture.SHAPES)
        inputs = records.inputs(recs, fixture.SHAPES)
        first = reference.forward(back, *inputs)
        again = reference.forward(fixture.net(), *inputs)
        for a, b in zip(first, again):
            np.testing.assert_array_equal(a, b)
        self.assertTrue((first[1][~inputs[2]] == 0).all())

    def test_the_residual_flag_round_trips_and_unknown_flags_are_refused(self) -> None:
        params = {name: np.zeros(shape(SHAPES, 4, 4)) for name, _, shape in gnn.ARRAYS}
        q, _ = gnn.quantize(params, flags=gnn.FLAG_RESIDUAL)
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "r.gnn1"
            gnn.write(path, q)
            self.assertEqual(gnn.read(path).flags, gnn.FLAG_RESIDUAL)
            data = bytearray(path.read_bytes())
            data[gnn.HEADER.fields["flags"][1]] = 4
            path.write_bytes(data)
            with self.assertRaisesRegex(gnn.GnnError, "flags 4"):
                gnn.read(path)

    def test_a_lines_net_round_trips_with_its_one_table_bounded(self) -> None:
        params = {name: np.full(shape(SHAPES, 4, 4), 0.5) for name, _, shape in gnn.arrays_of(gnn.FLAG_LINES)}
        params["emb_own"][3, 1] = 9.0  # beyond +-8191 / 1024: clipped
        q, clipped = gnn.quantize(params, flags=gnn.FLAG_LINES)
        self.assertEqual(clipped, 1)  # the entry; row 0 is set to zero, not counted
        self.assertEqual(int(q.emb_own[3, 1]), gnn.LINE_ENTRY_MAX)
        self.assertFalse(q.emb_own[0].any())
        self.assertNotIn("emb_opp", q.arrays)
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "l.gnn1"
            gnn.write(path, q)
            back = gnn.read(path)
            self.assertEqual(back.flags, gnn.FLAG_LINES)
            np.testing.assert_array_equal(back.emb_own, q.emb_own)
            data = bytearray(path.read_bytes())
            data[gnn.HEADER.itemsize] = 1  # row 0's first entry
            path.write_bytes(data)
            with self.assertRaisesRegex(gnn.GnnError, "row 0 not zero"):
                gnn.read(path)

    def test_overflow_is_refused(self) -> None:
        params = {name: np.zeros(shape(SHAPES, 4, 4)) for name, _, shape in gnn.ARRAYS}
        params["value1_w"][:] = 31.0
        params["value1_b"][:] = 2000.0
        with self.assertRaisesRegex(gnn.GnnError, "value layer 1: an i32 accumulator could overflow"):
            gnn.quantize(params)

    def test_scales_the_engine_refuses_are_refused(self) -> None:
        data = bytearray((fixture.HERE / "net.gnn1").read_bytes())
        with tempfile.TemporaryDirectory() as tmp:
            for field, value in (("q_weight", 0), ("q_weight", gnn.MAX_Q + 1), ("q_act", gnn.MAX_Q + 1)):
                bad = bytearray(data)
                bad[gnn.HEADER.fields[field][1]] = value
                path = Path(tmp) / f"{field}{value}.gnn1"
                path.write_bytes(bad)
                with self.assertRaisesRegex(gnn.GnnError, "q_act .* / q_weight", msg=f"{field} {value}"):
                    gnn.read(path)

    def test_shipped_fixture_matches_the_reference(self) -> None:
        self.assertEqual(fixture.check(fixture.HERE), [])
        size = sum(p.stat().st_size for p in fixture.HERE.iterdir())
        self.assertLess(size, 200_000)

    def test_fixture_regenerates_identically(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            fixture.make(Path(tmp))
            for name in ("net.gnn1", "positions.grn1", "expected.json", "lines.gnn1", "positions.glf1",
                         "expected_lines.json"):
                self.assertEqual((Path(tmp) / name).read_bytes(), (fixture.HERE / name).read_bytes(), name)


if __name__ == "__main__":
    unittest.main()
