"""Training (torch): the loss goes down on synthetic data, the export agrees with the float net,
the command line writes a GNN1 file, and (when the engine has gen-data) engine data trains."""

from __future__ import annotations

import io
import subprocess
import tempfile
import unittest
from contextlib import redirect_stdout
from pathlib import Path

import numpy as np

from train import gnn, records, reference
from train import synth
from train.tests.common import GORIN, HAS_TORCH, NEEDS_TORCH, SHAPES, synthetic

# The quantised reference against the float net, in logit units (1.0 = 2**q_act): embeddings and
# weights are rounded to 2**-10, so a trained net of this size stays far inside it (~0.005 seen).
EXPORT_BOUND = 0.05


def quiet(*_args) -> None:
    pass


@unittest.skipUnless(HAS_TORCH, NEEDS_TORCH)
class TrainTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        import torch
        torch.set_num_threads(2)
        from train import train
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = Path(cls.tmp.name)
        cls.data_path = cls.dir / "syn.grn1"
        synthetic(cls.data_path)
        cls.data = records.read([cls.data_path])
        cls.model, cls.history = train.train(cls.data, epochs=4, batch=64, lr=1e-2, dim=16, hidden=16, policy_weight=1.0,
                                             held_out=0.2, seed=2, log=quiet)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def test_loss_goes_down(self) -> None:
        first, last = self.history[0], self.history[-1]
        self.assertLess(last[1][1], 0.6 * first[1][1], self.history)  # train policy loss
        self.assertLess(last[2][1], first[2][1], self.history)  # held-out policy loss
        self.assertGreater(last[2][2], 0.5, self.history)  # held-out top-1 (chance is ~1/70)
        self.assertLessEqual(last[1][0], first[1][0] + 0.01, self.history)  # value loss not worse

    def test_export_agrees_with_float_net(self) -> None:
        from train import train
        q, clipped = gnn.quantize(self.model.float_params())
        self.assertEqual(clipped, 0)
        dv, dp = train.compare(self.model, q, self.data)
        self.assertLess(dv, EXPORT_BOUND)
        self.assertLess(dp, EXPORT_BOUND)
        # And the file says the same as the net in memory.
        path = self.dir / "n.gnn1"
        gnn.write(path, q)
        inputs = records.inputs(self.data.groups[(9, 9)].records[:32], self.data.shape_count)
        for a, b in zip(reference.forward(q, *inputs), reference.forward(gnn.read(path), *inputs)):
            np.testing.assert_array_equal(a, b)

    def test_command_line(self) -> None:
        from train import train
        out = self.dir / "cli.gnn1"
        text = io.StringIO()
        with redirect_stdout(text):
            rc = train.main(["--data", str(self.data_path), "--epochs", "1", "--dim", "8", "--hidden", "8",
                             "--out", str(out), "--seed", "3"])
        self.assertEqual(rc, 0, text.getvalue())
        self.assertRegex(text.getvalue(), r"epoch 1: train value \d\.\d+ policy \d\.\d+ top1 0\.\d+  held-out")
        self.assertEqual(gnn.read(out).dim, 8)

    def test_engine_data_trains(self) -> None:
        if not GORIN.exists():
            self.skipTest(f"no engine at {GORIN} (cargo build --release)")
        probe = subprocess.run([str(GORIN), "gen-data", "--help"], capture_output=True, text=True,
                               timeout=30, stdin=subprocess.DEVNULL)
        if probe.returncode != 0 or "gen-data" not in probe.stdout + probe.stderr:
            self.skipTest(f"{GORIN} has no gen-data subcommand yet (`gen-data --help` exit {probe.returncode})")
        from train import train
        data_path = self.dir / "engine.grn1"
        run = subprocess.run([str(GORIN), "gen-data", "--games", "2", "--size", "9", "--nodes", "500",
                              "--out", str(data_path)], capture_output=True, text=True, timeout=120,
                             stdin=subprocess.DEVNULL)
        self.assertEqual(run.returncode, 0, run.stderr)
        data = records.read([data_path])
        self.assertEqual(list(data.groups), [(9, 9)])
        self.assertGreaterEqual(data.games, 2)
        model, history = train.train(data, epochs=1, batch=32, held_out=0.0, log=quiet)
        self.assertTrue(all(np.isfinite(history[0][1])))
        gnn.quantize(model.float_params())
        # A residual net: the engine's classic evaluations beside the data, a flagged export.
        run = subprocess.run([str(GORIN), "static-eval", str(data_path), str(records.static_path(data_path))],
                             capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
        self.assertEqual(run.returncode, 0, run.stderr)
        static = records.read([data_path], with_static=True).groups[(9, 9)].static
        self.assertEqual(len(static), len(data))
        self.assertTrue((static != 0).any())
        out = self.dir / "residual.gnn1"
        with redirect_stdout(io.StringIO()):
            rc = train.main(["--data", str(data_path), "--epochs", "1", "--residual", "--out", str(out)])
        self.assertEqual(rc, 0)
        self.assertEqual(gnn.read(out).flags, gnn.FLAG_RESIDUAL)
        # A lines net: the engine's line classes beside the data, trained, exported, compared
        # with the float net, and searched with by the engine.
        run = subprocess.run([str(GORIN), "line-features", str(data_path), str(records.line_path(data_path))],
                             capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
        self.assertEqual(run.returncode, 0, run.stderr)
        lines = records.read([data_path], with_lines=True)
        self.assertGreater(lines.line_count, 30000)
        group = lines.groups[(9, 9)]
        empty = group.records["cells"] == records.EMPTY
        self.assertTrue((group.lines[empty] > 0).all() and (group.lines[~empty] == 0).all())
        model, history = train.train(lines, epochs=1, batch=32, held_out=0.0, dim=16, log=quiet)
        self.assertTrue(all(np.isfinite(history[0][1])))
        q, _ = gnn.quantize(model.float_params(), flags=gnn.FLAG_LINES)
        dv, dp = train.compare(model, q, lines)
        self.assertLess(dv, EXPORT_BOUND)
        self.assertLess(dp, EXPORT_BOUND)
        out = self.dir / "lines.gnn1"
        with redirect_stdout(io.StringIO()):
            rc = train.main(["--data", str(data_path), "--epochs", "1", "--residual", "--lines", "--dim", "16",
                             "--out", str(out)])
        self.assertEqual(rc, 0)
        self.assertEqual(gnn.read(out).flags, gnn.FLAG_RESIDUAL | gnn.FLAG_LINES)
        run = subprocess.run([str(GORIN), "bench", "4", "--net", str(out)], capture_output=True, text=True,
                             timeout=120, stdin=subprocess.DEVNULL)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIn("Bench:", run.stdout + run.stderr)


if __name__ == "__main__":
    unittest.main()


@unittest.skipUnless(HAS_TORCH, NEEDS_TORCH)
class ValueTargetTest(unittest.TestCase):
    def test_teacher_values_count_on_exploration_moves(self) -> None:
        from train import train
        recs = np.zeros(4, records.record_dtype(5, 5))
        recs["value"] = 600
        recs["result"] = -1
        recs["flags"] = [0, records.FLAG_EXPLORATION, records.FLAG_EXPLORATION | records.FLAG_TEACHER,
                         records.FLAG_TEACHER]
        t = train.value_target(recs, 600.0, 1.0)
        teacher = 1 / (1 + np.exp(-1.0))
        np.testing.assert_allclose(t, [teacher, 0.0, teacher, teacher], rtol=1e-6)

    def test_side_positions_take_their_value_alone(self) -> None:
        from train import train
        recs = np.zeros(3, records.record_dtype(5, 5))
        recs["value"] = 600
        recs["result"] = [-1, -1, 0]
        recs["flags"] = [0, records.FLAG_SIDE, records.FLAG_SIDE | records.FLAG_MATE]
        t = train.value_target(recs, 600.0, 0.25)
        search = 1 / (1 + np.exp(-1.0))
        np.testing.assert_allclose(t, [0.25 * search, search, search], rtol=1e-6)

    def test_skip_side_leaves_side_positions_out(self) -> None:
        from train import train
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "d.grn1"
            recs = synth.positions(np.random.default_rng(3), 200, 7, 7, SHAPES)
            recs["flags"][::2] |= records.FLAG_SIDE
            records.write(path, SHAPES, [recs])
            data = records.read([path])
            logs = []
            train.train(data, epochs=1, held_out=0.0, skip_side=True, log=logs.append)
            self.assertIn("train 100,", logs[0])


@unittest.skipUnless(HAS_TORCH, NEEDS_TORCH)
class ScheduleTest(unittest.TestCase):
    def test_cosine_runs_from_start_to_end_and_falls_throughout(self) -> None:
        from train import train
        lrs = [train.cosine(3e-3, 3e-4, s, 11) for s in range(11)]
        self.assertAlmostEqual(lrs[0], 3e-3)
        self.assertAlmostEqual(lrs[-1], 3e-4)
        self.assertAlmostEqual(lrs[5], (3e-3 + 3e-4) / 2)
        self.assertTrue(all(a > b for a, b in zip(lrs, lrs[1:])), lrs)
        self.assertEqual(train.cosine(3e-3, 3e-4, 0, 1), 3e-4)

    def test_training_follows_the_schedule(self) -> None:
        import torch
        from train import train
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "d.grn1"
            records.write(path, SHAPES, [synth.positions(np.random.default_rng(5), 100, 7, 7, SHAPES)])
            data = records.read([path])
            tables = []
            for lr_end in (None, 1e-2):
                # Step size 0 throughout leaves the net as it started; rising to 1e-2 moves it.
                model, _ = train.train(data, epochs=2, batch=16, lr=0.0, lr_end=lr_end, held_out=0.0, dim=8,
                                       hidden=8, seed=4, log=quiet)
                tables.append(model.emb_own.weight.detach().clone())
            torch.manual_seed(4)
            start = train.MixNet(SHAPES, 8, 8).emb_own.weight.detach()
            torch.testing.assert_close(tables[0], start)
            self.assertGreater(float((tables[1] - start).abs().max()), 1e-3)
