"""Tests of the scheduling shared by local processes and Ray (gorinkit/dispatch.py), on a fake
executor, and of what runs on it: gen_data.py's slices (gorinkit/gendata.py) and match games
played in another process (matchplay.play_elsewhere). No Ray needed (scripts/raytests has the
tests on a real Ray instance)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shlex
import stat
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from gorinkit import dispatch, gendata, grn1
from gorinkit import matchplay as match

from .common import GORIN, NEEDS_GORIN, SCRIPTS
from .fake_executor import FakeExecutor

# Small and quick: 9x9 games at 500 nodes a move (about 30 records a game).
SIZE = 9
NODES = 500


def square(x: int) -> int:
    return x * x


def fail_on_three(x: int) -> int:
    if x == 3:
        raise ValueError("three is bad")
    return x


def tasks(fn, keys) -> list[dispatch.Task]:
    return [dispatch.Task(k, fn, (k,)) for k in keys]


def quiet(call, *args, **kwargs):
    """`call(...)` with stdout and stderr swallowed; returns (value, what it printed)."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
        value = call(*args, **kwargs)
    return value, buf.getvalue()


class DriveTest(unittest.TestCase):
    def test_every_task_runs_once_within_the_slots(self):
        ex = FakeExecutor(slots=3)
        got = {}
        retried = dispatch.drive(ex, tasks(square, range(10)), got.__setitem__, say=self.fail)
        self.assertEqual(got, {k: k * k for k in range(10)})
        self.assertEqual(retried, 0)
        self.assertEqual(len(ex.runs), 10)
        self.assertEqual(ex.most_in_flight, 3)

    def test_a_lost_task_runs_again_on_another_worker(self):
        ex = FakeExecutor(workers=3, slots=2, lose=lambda args: args == (4,))
        got, said = {}, []
        retried = dispatch.drive(ex, tasks(square, range(8)), got.__setitem__, say=said.append)
        self.assertEqual(got, {k: k * k for k in range(8)}, "every result, the lost one too")
        self.assertEqual(retried, 1)
        first, second = ex.workers_of(lambda args: args == (4,))  # exactly two starts
        self.assertNotEqual(first, second, "the retry ran elsewhere")
        self.assertNotIn(first, ex.alive)
        self.assertEqual(len(ex.runs), 9, "only the lost task ran twice")
        self.assertEqual(len(said), 1)
        self.assertIn("task 4: worker lost", said[0])
        self.assertIn("attempt 2 of 3", said[0])

    def test_a_task_lost_on_every_worker_gives_up(self):
        ex = FakeExecutor(workers=5, lose=lambda args: args == (2,), times=99)
        with self.assertRaises(dispatch.GaveUp) as caught:
            dispatch.drive(ex, tasks(square, range(5)), lambda k, v: None, say=lambda s: None)
        self.assertIn("task 2", str(caught.exception))
        self.assertEqual(len(ex.workers_of(lambda args: args == (2,))), dispatch.MAX_ATTEMPTS)
        # With an error handler the run goes on: the other tasks' results all arrive.
        ex = FakeExecutor(workers=5, lose=lambda args: args == (2,), times=99)
        got, errors = {}, {}
        dispatch.drive(ex, tasks(square, range(5)), got.__setitem__, on_error=errors.__setitem__,
                       say=lambda s: None)
        self.assertEqual(sorted(got), [0, 1, 3, 4])
        self.assertIsInstance(errors[2], dispatch.GaveUp)

    def test_a_task_that_fails_by_itself_is_not_run_again(self):
        ex = FakeExecutor()
        got, errors = {}, {}
        retried = dispatch.drive(ex, tasks(fail_on_three, range(6)), got.__setitem__, on_error=errors.__setitem__,
                                 say=self.fail)
        self.assertEqual(retried, 0)
        self.assertEqual(sorted(got), [0, 1, 2, 4, 5])
        self.assertIsInstance(errors[3], ValueError)
        self.assertEqual(len(ex.workers_of(lambda args: args == (3,))), 1)
        with self.assertRaises(ValueError):
            dispatch.drive(FakeExecutor(), tasks(fail_on_three, range(6)), lambda k, v: None)

    def test_stop_starts_no_more_tasks(self):
        ex = FakeExecutor(slots=2)
        got = {}
        dispatch.drive(ex, tasks(square, range(100)), got.__setitem__, stop=lambda: len(got) >= 4)
        self.assertEqual(len(got), 4, "the two in flight when it stopped finished, no others started")
        self.assertEqual(len(ex.runs), 4)

    def test_an_interrupt_cancels_the_tasks_in_flight(self):
        ex = FakeExecutor(slots=3)

        def interrupt(key, value):
            raise KeyboardInterrupt

        with self.assertRaises(KeyboardInterrupt):
            dispatch.drive(ex, tasks(square, range(10)), interrupt)
        self.assertEqual(len(ex.cancelled), 2, "the two tasks still in flight")

    def test_thread_executor_runs_tasks_here(self):
        ex = dispatch.ThreadExecutor(2)
        try:
            got = {}
            dispatch.drive(ex, tasks(square, range(6)), got.__setitem__)
        finally:
            ex.close()
        self.assertEqual(got, {k: k * k for k in range(6)})
        self.assertTrue(ex.shares_memory)

    def test_local_ray_instance_is_loopback_only(self):
        options = dispatch.local_init_options(2)
        self.assertEqual(options["_node_ip_address"], "127.0.0.1")
        self.assertFalse(options["include_dashboard"])
        self.assertEqual(options["num_cpus"], 2)
        self.assertLessEqual(options["object_store_memory"], 100 << 20)
        self.assertEqual(dispatch.LOOPBACK_ENV["RAY_USAGE_STATS_ENABLED"], "0")
        self.assertEqual(dispatch.LOOPBACK_ENV["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"], "0")


def gen_data_once(games: int, folder: Path) -> bytes:
    """One `pbrain-gorin gen-data` run of `games` games: the file the driver must reproduce."""
    path = folder / "whole.grn1"
    subprocess.run([str(GORIN), "gen-data", "--out", str(path), "--games", str(games), "--size", str(SIZE),
                    "--nodes", str(NODES), "--seed", "5"], check=True, capture_output=True)
    return path.read_bytes()


def gen_args(out: Path, *extra: str) -> list[str]:
    return ["--out", str(out), "--engine", str(GORIN), "--size", str(SIZE), "--nodes", str(NODES),
            "--seed", "5", *extra]


@unittest.skipUnless(GORIN.exists(), NEEDS_GORIN)
class GenDataTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="gorin-gen-data-test-")
        self.folder = Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def test_slices_on_a_cluster_that_loses_a_worker_make_one_runs_file(self):
        games = 5
        whole = gen_data_once(games, self.folder)
        out = self.folder / "sliced.grn1"
        a = gendata.parse_args(gen_args(out, "--games", str(games), "--chunk", "2"))
        # The slice of games 2..3 loses its worker once.
        ex = FakeExecutor(workers=3, slots=2, lose=lambda args: args[2] == 2)
        (assembler, retried), _ = quiet(gendata.generate, a, ex)
        self.assertEqual(retried, 1)
        self.assertEqual([args[2:] for _, args in ex.runs], [(0, 2), (2, 2), (2, 2), (4, 1)])
        data = out.read_bytes()
        self.assertEqual(data, whole, "byte for byte the file of one gen-data run")
        self.assertFalse(out.with_name(out.name + ".partial").exists())
        shape_count, body = grn1.split_header(data)
        self.assertGreater(shape_count, 0)
        sizes = grn1.record_sizes(body)
        self.assertEqual(set(sizes), {(SIZE, SIZE)})
        self.assertEqual(assembler.records, len(sizes))
        self.assertEqual(len(body), len(sizes) * grn1.record_size(SIZE, SIZE))
        self.assertGreater(len(sizes), games * 10)

    def test_a_killed_gen_data_is_run_again_by_local_workers(self):
        # An engine that is killed (SIGKILL) the first time it is started, then is pbrain-gorin
        # (mkdir: only one of the processes started at once can make the marker).
        marker = self.folder / "killed-once"
        engine = self.folder / "flaky-gorin"
        engine.write_text("#!/bin/sh\n"
                          f"if mkdir {shlex.quote(str(marker))} 2>/dev/null; then kill -9 $$; fi\n"
                          f"exec {shlex.quote(str(GORIN))} \"$@\"\n")
        engine.chmod(engine.stat().st_mode | stat.S_IXUSR)
        out = self.folder / "local.grn1"
        argv = gen_args(out, "--games", "3", "-j", "2")
        argv[argv.index("--engine") + 1] = str(engine)
        proc = subprocess.run([sys.executable, str(SCRIPTS / "gen_data.py"), *argv], capture_output=True, text=True,
                              env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertTrue(marker.exists())
        self.assertIn("worker lost (gen-data killed by signal 9)", proc.stderr)
        self.assertIn("1 slices run again after a lost worker", proc.stdout)
        self.assertIn("RESULT: OK", proc.stdout)
        self.assertEqual(out.read_bytes(), gen_data_once(3, self.folder))

    def test_a_failing_gen_data_stops_the_run(self):
        out = self.folder / "bad.grn1"
        code, report = quiet(gendata.main, gen_args(out, "--games", "2", "--rule", "2"))
        self.assertEqual(code, 1)
        self.assertIn("--rule 2: one of 0, 1, 4, 8, 9", report)
        self.assertIn("RESULT: FAIL", report)
        self.assertFalse(out.exists())


class FormatTest(unittest.TestCase):
    HEADER = b"GRN1" + (1).to_bytes(2, "little") + (300).to_bytes(2, "little")

    def record(self, side: int) -> bytes:
        return bytes([0, side, side, 1]) + bytes(grn1.record_size(side, side) - 4)

    def test_headers_and_framing(self):
        self.assertEqual(grn1.split_header(self.HEADER + b"xy"), (300, b"xy"))
        for bad in (b"GRN", b"GRN2\x01\x00\x00\x00", b"GRN1\x02\x00\x2c\x01"):
            with self.assertRaises(grn1.FormatError):
                grn1.split_header(bad)
        body = self.record(9) + self.record(15)
        self.assertEqual(grn1.record_sizes(body), [(9, 9), (15, 15)])
        for bad in (body[:-1], self.record(4), body + b"\x00" * 5):
            with self.assertRaises(grn1.FormatError):
                grn1.record_sizes(bad)

    def test_given_options_and_only_they_reach_gen_data(self):
        a = gendata.parse_args(["--out", "x.grn1", "--nodes", "300", "--side-nodes", "50", "--net", "n.gnn1"])
        self.assertEqual(gendata.engine_options(a), ["--nodes", "300", "--side-nodes", "50", "--net", "n.gnn1"])
        self.assertEqual(gendata.engine_options(gendata.parse_args(["--out", "x.grn1"])), [])

    def test_slices_arrive_in_any_order_and_are_written_in_game_order(self):
        buf = io.BytesIO()
        plan = gendata.slices(5, 2)
        self.assertEqual(plan, [(0, 2), (2, 2), (4, 1)])
        asm = gendata.Assembler(buf, plan)
        a, b, c = self.record(9), self.record(9)[:3] + b"\x02" + self.record(9)[4:], self.record(11)
        asm.add(4, self.HEADER + c)
        asm.add(2, self.HEADER + b + b)
        self.assertFalse(asm.complete())
        self.assertEqual(buf.getvalue(), self.HEADER, "nothing before game 0 arrives")
        asm.add(0, self.HEADER + a)
        self.assertTrue(asm.complete())
        self.assertEqual(buf.getvalue(), self.HEADER + a + b + b + c)
        self.assertEqual(asm.records, 4)
        other = b"GRN1" + (1).to_bytes(2, "little") + (301).to_bytes(2, "little")
        mixed = gendata.Assembler(io.BytesIO(), plan)
        mixed.add(0, self.HEADER + a)
        with self.assertRaises(grn1.FormatError) as caught:
            mixed.add(2, other + b)
        self.assertIn("shape count 301", str(caught.exception))


def game_records(path: Path) -> dict[int, tuple]:
    """Per game of a match's JSONL file: what must not depend on where it was played."""
    games = {}
    for line in path.read_text().splitlines():
        g = json.loads(line)
        games[g["game"]] = (g["black"], g["opening"], g["moves"], g["result"], g["reason"])
    return games


@unittest.skipUnless(GORIN.exists(), NEEDS_GORIN)
class MatchElsewhereTest(unittest.TestCase):
    """Games played in other processes (as on Ray), one of them lost once, give the records and
    counts of the same match played here."""

    def test_a_lost_game_is_played_again_and_recorded_once(self):
        with tempfile.TemporaryDirectory(prefix="gorin-match-test-") as tmp:
            common = ["--engine", str(GORIN), "--engine", str(GORIN), "--games", "4", "--size", str(SIZE),
                      "--turn-ms", "5000", "--info", f"max_node={NODES}", "--seed", "4"]
            here = Path(tmp) / "here.jsonl"
            a = match.parse_args(common + ["--jsonl", str(here)])
            (m_here, _, _), _ = quiet(match.run, a)
            there = Path(tmp) / "there.jsonl"
            a = match.parse_args(common + ["--jsonl", str(there)])
            ex = FakeExecutor(workers=3, slots=2, lose=lambda args: args[1] == 3)
            (m, _, interrupted), log = quiet(match.run, a, executor=ex)
            self.assertFalse(interrupted)
            self.assertTrue(ex.closed)
            self.assertIn("task 3: worker lost", log)
            self.assertEqual([args[1] for _, args in ex.runs].count(3), 2)
            for _, args in ex.runs:
                self.assertIsNone(args[0].jsonl, "workers write no record files")
            games = game_records(there)
            self.assertEqual(sorted(games), [1, 2, 3, 4], "each game once, the lost one too")
            self.assertEqual(games, game_records(here), "node-limited games do not depend on where they ran")
            self.assertEqual(m.script_errors, 0)
            for mine, ref in zip(m.stats, m_here.stats):
                self.assertEqual((mine.wins, mine.losses, mine.draws), (ref.wins, ref.losses, ref.draws))
                self.assertEqual(len(mine.move_ms), len(ref.move_ms), "every move's time came back")
                self.assertGreater(mine.slowest[0], 0)

    def test_engine_stats_add_up(self):
        a = match.EngineStats(over_limit=1, move_ms=[3.0], slowest=(3.0, 1, 2, None))
        a.loss_kinds["time"] += 1
        b = match.EngineStats(over_limit=2, stderr_lines=4, move_ms=[5.0, 1.0], slowest=(5.0, 2, 7, 100.0))
        b.loss_kinds["time"] += 2
        a.add(b)
        self.assertEqual((a.over_limit, a.stderr_lines, a.move_ms), (3, 4, [3.0, 5.0, 1.0]))
        self.assertEqual(a.slowest, (5.0, 2, 7, 100.0))
        self.assertEqual(a.loss_kinds["time"], 3)

    def test_ray_and_reuse_do_not_mix(self):
        with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit):
            match.parse_args(["--ray", "local", "--reuse"])


if __name__ == "__main__":
    unittest.main()
