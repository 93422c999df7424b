"""Self-play training data (`pbrain-gorin gen-data`, GRN1 records) from many processes or
machines: gen_data.py.

Usage: python3 scripts/gen_data.py --out games.grn1 --games 1000 --nodes 20000 -j 2
       python3 scripts/gen_data.py --out games.grn1 --games 100000 --ray HEAD:6379

The run's games are cut into slices of `--chunk` games (default 1); each slice is one
`gen-data --first-game F --games C` process on a worker (a local thread's child process, or a Ray
worker's). A game depends only on the seed and its number, so the slices, glued in game order
with every header but the first dropped, make exactly the file that one
`gen-data --games N` with the same options writes, whatever the number of workers or where they
ran. A slice whose worker is lost (its gen-data killed, its Ray worker or machine gone) is run
again elsewhere (gorinkit/dispatch.py); a gen-data that fails by itself (bad options) stops the
run. The file is written as FILE.partial and renamed when complete.
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
import time
from pathlib import Path

from . import dispatch
from .brain import log, out
from .grn1 import FILE_HEADER, FormatError, record_sizes, split_header
from .paths import DEFAULT_ENGINE

# gen-data options passed through when given (the engine's defaults otherwise).
PASSED = ("nodes", "rule", "size", "seed", "random_plies", "explore", "side", "side_nodes", "net")


class SliceFailed(Exception):
    """gen-data failed by itself (an error message, not a killed process)."""


def run_slice(engine: str, options: list[str], first: int, games: int) -> bytes:
    """Games first..first+games as one gen-data process; returns its whole file. Runs on a
    worker (a thread here, or a Ray worker elsewhere)."""
    with tempfile.TemporaryDirectory(prefix="gorin-gen-data-") as folder:
        path = Path(folder) / "slice.grn1"
        cmd = [engine, "gen-data", "--out", str(path), *options,
               "--first-game", str(first), "--games", str(games)]
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True)
        if proc.returncode < 0:  # killed by a signal: the worker's loss, not the slice's fault
            raise dispatch.TaskLost(f"gen-data killed by signal {-proc.returncode}")
        if proc.returncode != 0:
            why = (proc.stderr.strip().splitlines() or [f"exit code {proc.returncode}"])[-1]
            raise SliceFailed(f"gen-data games {first}..{first + games - 1}: {why}")
        return path.read_bytes()


class Assembler:
    """Writes the slices in game order as they arrive (any order): the first slice's header, then
    every slice's records."""

    def __init__(self, stream, plan: list[tuple[int, int]]):
        self.stream = stream
        self.sizes = dict(plan)  # games of the slice that starts at each first game
        self.games = sum(self.sizes.values())
        self.waiting: dict[int, bytes] = {}
        self.next_game = 0
        self.header: bytes | None = None
        self.records = 0
        self.bytes = 0

    def add(self, first: int, data: bytes) -> None:
        shape_count, body = split_header(data)
        record_sizes(body)  # whole records or FormatError
        header = data[:FILE_HEADER]
        if self.header is None:
            self.header = header
            self.stream.write(header)
            self.bytes += len(header)
        elif header != self.header:
            # Another engine build on some worker: its features would not mean the same.
            raise FormatError(f"games {first}..: shape count {shape_count}, the run's other slices have "
                              f"{int.from_bytes(self.header[6:8], 'little')} (the same engine build on every worker?)")
        self.waiting[first] = body
        while self.next_game in self.waiting:
            body = self.waiting.pop(self.next_game)
            self.stream.write(body)
            self.bytes += len(body)
            self.records += len(record_sizes(body))
            self.next_game += self.sizes[self.next_game]

    def complete(self) -> bool:
        return self.next_game >= self.games


def slices(games: int, chunk: int) -> list[tuple[int, int]]:
    """(first game, games) of each slice, in order."""
    return [(first, min(chunk, games - first)) for first in range(0, games, chunk)]


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--out", required=True, help="the GRN1 file to write")
    p.add_argument("--engine", default=DEFAULT_ENGINE,
                   help="the pbrain-gorin binary (with --ray: at this path on every machine)")
    p.add_argument("-n", "--games", type=int, default=100, help="games in all")
    for name, what in (("nodes", "nodes a searched move"), ("rule", "INFO rule (0, 1, 4, 8, 9)"),
                       ("size", "board size"), ("seed", "seed of the whole run"),
                       ("random-plies", "random opening plies"), ("explore", "percent of random later moves"),
                       ("side", "side positions a game position"), ("side-nodes", "nodes a side position")):
        p.add_argument(f"--{name}", type=int, default=None, help=f"gen-data's --{name}: {what} (default: gen-data's)")
    p.add_argument("--net", default=None, metavar="FILE",
                   help="gen-data's --net: search the games with this GNN1 net (with --ray: at this path on "
                        "every machine); default: the classic evaluation")
    p.add_argument("-j", "--jobs", type=int, default=1,
                   help="gen-data processes at once here (with --ray local: the local instance's workers)")
    p.add_argument("--chunk", type=int, default=1,
                   help="games a task: a lost worker loses at most this many games; more means fewer processes")
    p.add_argument("--ray", default=None, metavar="ADDRESS",
                   help="spread the slices over a Ray cluster (HEAD:PORT or auto), or `local` for a "
                        "loopback-only instance on this machine; default: local processes, no Ray")
    a = p.parse_args(argv)
    if a.games < 1 or a.jobs < 1 or a.chunk < 1:
        p.error("--games, --jobs and --chunk must be positive")
    return a


def engine_options(a: argparse.Namespace) -> list[str]:
    words: list[str] = []
    for name in PASSED:
        value = getattr(a, name)
        if value is not None:
            words += [f"--{name.replace('_', '-')}", str(value)]
    return words


def generate(a: argparse.Namespace, executor: dispatch.Executor) -> tuple[Assembler, int]:
    """Runs the slices on `executor` and writes a.out; returns (what was written, retries)."""
    target = Path(a.out)
    partial = target.with_name(target.name + ".partial")
    options = engine_options(a)
    plan = slices(a.games, a.chunk)
    with open(partial, "wb") as stream:
        assembler = Assembler(stream, plan)
        tasks = (dispatch.Task(first, run_slice, (a.engine, options, first, games)) for first, games in plan)
        retried = dispatch.drive(executor, tasks, assembler.add, say=log)
    if not assembler.complete():
        raise FormatError(f"only games 0..{assembler.next_game - 1} of {a.games} arrived")
    partial.replace(target)
    return assembler, retried


def main(argv: list[str] | None = None) -> int:
    a = parse_args(argv)
    if not Path(a.engine).exists():
        out(f"error: {a.engine} does not exist (build Gorin with `cargo build --release`)")
        return 2
    executor = dispatch.make_executor(a.ray, a.jobs)
    out(f"gen_data: {a.games} games in slices of {a.chunk} on {executor.description}, "
        f"gen-data {' '.join(engine_options(a)) or '(defaults)'}")
    start = time.monotonic()
    try:
        assembler, retried = generate(a, executor)
    except (SliceFailed, FormatError, dispatch.GaveUp) as e:
        out(f"error: {e}")
        out("RESULT: FAIL")
        return 1
    except KeyboardInterrupt:
        out("interrupted")
        return 130
    finally:
        executor.close()
    secs = time.monotonic() - start
    out(f"gen_data: {a.games} games, {assembler.records} records, {assembler.bytes} bytes in {secs:.1f} s: "
        f"{assembler.records / max(secs, 1e-9):.1f} records/s, {a.games / max(secs, 1e-9) * 60:.1f} games/min; "
        f"{retried} slices run again after a lost worker; {a.out}")
    out("RESULT: OK")
    return 0
