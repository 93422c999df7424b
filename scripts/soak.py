#!/usr/bin/env python3
"""Soak test: many fast games over mixed rules, boards, opponents and memory limits, with the
engine's memory sampled against INFO max_memory (issue 7, parts 2 and 3).

Usage: python3 scripts/soak.py --engine /tmp/gorin-soak --games 1000 -j 2
       python3 scripts/soak.py --games 60 --long 0            # a quick smoke run

The games are split into cells, every combination of rule (0 1 4 8 9), board (15x15, 20x20, 9x9,
20x12 by RECTSTART), opponent (Gorin itself, greedy.py, random_brain.py) and max_memory (64 MiB,
350 MiB, 1 GiB); each cell is one match.py match (fresh processes per game, random openings of
2-4 stones plus --random-plies, each opening twice with colours swapped) at a turn time taken in
turn from --turn-ms. --long adds games per setting at 350 MiB and 1 GiB on 15x15 at --long-turn-ms
(Gorin against itself), so that the hash table gets well used; they are reported apart.

While a game runs, a sampler reads every --sample-ms, for each Gorin process, VmRSS and VmHWM
(/proc/<pid>/status) and USS = Private_Clean + Private_Dirty (+ Private_Hugetlb) of
/proc/<pid>/smaps_rollup; VmHWM is read once more before the process is ended.

Exit status 1 on any crash, time forfeit, illegal move (occupied, off-board, unparsable, protocol,
start failure; a renju forbidden move by Gorin), a Gorin reply over its turn limit, or a Gorin
peak (RSS or USS) over max_memory; 2 on bad arguments; 130 when interrupted.
"""

from __future__ import annotations

import argparse
import itertools
import random
import signal
import statistics
import sys
import threading
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
HERE = Path(__file__).resolve().parent
from gorinkit import matchplay as match  # noqa: E402
from gorinkit.brain import Brain, log, out, percentile  # noqa: E402
from gorinkit.procmem import read_kib, uss_bytes  # noqa: E402
from gorinkit import cli  # noqa: E402

MIB = 1 << 20
MEMORIES = {"64 MiB": 64 * MIB, "350 MiB": 350 * MIB, "1 GiB": 1024 * MIB}
RULES = (0, 1, 4, 8, 9)
BOARDS = ("15", "20", "9", "20,12")  # "W,H" is a RECTSTART board
OPPONENTS = {
    "self": None,
    "greedy": f"python3 {HERE / 'greedy.py'}",
    "random": f"python3 {HERE / 'random_brain.py'}",
}
ILLEGAL = ("occupied", "off-board", "unparsable", "protocol", "start")


@dataclass
class Cell:
    index: int
    rule: int
    board: str
    opponent: str
    memory: str
    turn_ms: int
    games: int
    long: bool = False

    @property
    def label(self) -> str:
        board = self.board.replace(",", "x") if "," in self.board else f"{self.board}x{self.board}"
        return (f"{'long ' if self.long else ''}rule {self.rule} {board} vs {self.opponent} "
                f"mem {self.memory} turn {self.turn_ms}")

    @property
    def mem_key(self) -> str:
        return f"{self.memory} long" if self.long else self.memory


# ---------------------------------------------------------------------------------------------
# Memory sampling
# ---------------------------------------------------------------------------------------------
@dataclass
class Probe:
    """Peaks of one Gorin process."""
    pid: int
    mem_key: str
    limit: int
    where: str = ""  # cell and game
    rss: int = 0  # highest sampled VmRSS
    hwm: int = 0  # VmHWM (kernel's peak RSS), last read
    uss: int = 0  # highest sampled USS
    samples: int = 0

    def sample(self) -> None:
        status = read_kib(f"/proc/{self.pid}/status", ("VmRSS",))
        hwm = read_kib(f"/proc/{self.pid}/status", ("VmHWM",))
        uss = uss_bytes(self.pid)
        if status:
            self.rss = max(self.rss, status)
        if hwm:
            self.hwm = max(self.hwm, hwm)
        if uss:
            self.uss = max(self.uss, uss)
        self.samples += 1


class Sampler(threading.Thread):
    def __init__(self, period_s: float):
        super().__init__(daemon=True)
        self.period_s = period_s
        self.live: dict[int, Probe] = {}
        self.done: list[Probe] = []
        self.lock = threading.Lock()
        self.stopped = threading.Event()

    def add(self, probe: Probe) -> None:
        probe.sample()
        with self.lock:
            self.live[probe.pid] = probe

    def finish(self, pid: int) -> None:
        """Last sample (the process is still alive: before END) and keep the probe."""
        with self.lock:
            probe = self.live.pop(pid, None)
        if probe:
            probe.sample()
            with self.lock:
                self.done.append(probe)

    def run(self) -> None:
        while not self.stopped.wait(self.period_s):
            with self.lock:
                probes = list(self.live.values())
            for p in probes:
                p.sample()


class SoakMatch(match.Match):
    """A match.py match whose Gorin processes (engine 0, and engine 1 in self-play) are sampled."""

    def __init__(self, args: argparse.Namespace, cell: Cell, sampler: Sampler, limit: int):
        super().__init__(args)
        self.cell, self.sampler, self.limit = cell, sampler, limit
        self.gorin = (0, 1) if cell.opponent == "self" else (0,)

    def _open_brains(self, tag: str) -> list[Brain]:
        brains = super()._open_brains(tag)
        for e in self.gorin:
            self.sampler.add(Probe(brains[e].proc.pid, self.cell.mem_key, self.limit,
                                   f"{self.cell.label}, game {tag[1:]}, {self.names[e]}"))
        return brains

    def _release_brains(self, brains: list[Brain], clean: bool) -> None:
        for e in self.gorin:
            if e < len(brains):
                self.sampler.finish(brains[e].proc.pid)
        super()._release_brains(brains, clean)


# ---------------------------------------------------------------------------------------------
# The plan
# ---------------------------------------------------------------------------------------------
def make_cells(a: argparse.Namespace) -> list[Cell]:
    combos = list(itertools.product(RULES, BOARDS, OPPONENTS, MEMORIES))
    per_cell = max(2, -(-a.games // len(combos)))
    per_cell += per_cell % 2  # each opening twice, colours swapped
    turns = a.turn_ms
    cells = [Cell(i, r, b, o, m, turns[i % len(turns)], per_cell) for i, (r, b, o, m) in enumerate(combos)]
    if a.games == 0:  # long games only
        cells = []
    if a.long:
        for m in ("350 MiB", "1 GiB"):
            for k in range(2):  # freestyle and exact five, a.long games each (rounded up to even)
                n = a.long + a.long % 2
                cells.append(Cell(len(cells), (0, 1)[k], "15", "self", m, a.long_turn_ms, n, long=True))
    # Long cells first (they take longest), then the rest in a shuffled order so that a cut-short
    # run still covers every kind of game.
    rng = random.Random(a.seed)
    short = [c for c in cells if not c.long]
    rng.shuffle(short)
    return [c for c in cells if c.long] + short


def cell_args(a: argparse.Namespace, cell: Cell) -> argparse.Namespace:
    opp = OPPONENTS[cell.opponent] or a.engine
    argv = ["--engine", a.engine, "--name", "gorin", "--engine", opp,
            "--name", "gorin-2" if cell.opponent == "self" else cell.opponent,
            "--games", str(cell.games), "--rule", str(cell.rule), "--turn-ms", str(cell.turn_ms),
            "--max-memory", str(MEMORIES[cell.memory]), "--seed", str(a.seed * 1000 + cell.index),
            "--random-plies", str(a.random_plies), "--tolerance-ms", str(a.tolerance_ms)]
    argv += ["--rect", cell.board] if "," in cell.board else ["--size", cell.board]
    return match.parse_args(argv)


# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------
def mib(n: float) -> str:
    return f"{n / MIB:.1f}"


def report(a: argparse.Namespace, runs: list[tuple[Cell, SoakMatch]], sampler: Sampler,
           elapsed: float, interrupted: bool) -> int:
    games = [(c, r) for c, m in runs for r in m.results if r.kind not in ("interrupted", "skipped")]
    out("")
    out(f"==== soak: {len(games)} games in {elapsed:.0f} s ({elapsed / 60:.1f} min), jobs {a.jobs}, "
        f"seed {a.seed}, engine {a.engine} ====")

    def tally(title: str, key) -> None:
        counts: dict = {}
        for c, _ in games:
            counts[key(c)] = counts.get(key(c), 0) + 1
        out(f"{title}: " + ", ".join(f"{k}: {v}" for k, v in counts.items()))

    tally("games per rule", lambda c: c.rule)
    tally("games per board", lambda c: c.label.split(" vs ")[0].split()[-1])
    tally("games per opponent", lambda c: c.opponent)
    tally("games per memory", lambda c: c.mem_key)
    tally("games per turn time (ms)", lambda c: c.turn_ms)
    plies = [len(r.opening) + len(r.moves) for _, r in games]
    if plies:
        out(f"plies per game: median {statistics.median(plies):.0f}, max {max(plies)}; endings: "
            + ", ".join(f"{k}: {sum(1 for _, r in games if r.kind == k)}"
                        for k in sorted({r.kind for _, r in games})))

    # Results and failures per engine role: gorin (engine 0 and self-play engine 1), opponents.
    out("")
    out(f"{'engine':<10}{'games':>7}{'W':>6}{'L':>6}{'D':>6}{'time':>6}{'crash':>6}{'illeg':>6}{'forbid':>7}"
        f"{'over':>6}{'moves':>8}{'p50':>7}{'p99':>7}{'max':>7}{'stderr':>7}{'other':>6}")
    roles: dict[str, dict] = {}
    slow: list[tuple[float, float, float, str]] = []  # (ratio, ms, limit, where)
    for c, m in runs:
        for e in (0, 1):
            role = "gorin" if e == 0 or c.opponent == "self" else c.opponent
            st = m.stats[e]
            d = roles.setdefault(role, {"games": 0, "W": 0, "L": 0, "D": 0, "kinds": {}, "over": 0,
                                        "ms": [], "stderr": 0, "other": 0})
            d["games"] += st.wins + st.losses + st.draws
            d["W"] += st.wins
            d["L"] += st.losses
            d["D"] += st.draws
            for k, v in st.loss_kinds.items():
                d["kinds"][k] = d["kinds"].get(k, 0) + v
            d["over"] += st.over_limit
            d["ms"] += st.move_ms
            d["stderr"] += st.stderr_lines
            d["other"] += st.other_lines + st.unsolicited
            ms, game, ply, limit = st.slowest
            if role == "gorin" and ms >= 0 and limit:
                slow.append((ms / limit, ms, limit, f"{c.label}, game {game}, ply {ply}"))
    for role, d in roles.items():
        t = sorted(d["ms"])
        k = d["kinds"]
        out(f"{role:<10}{d['games']:>7}{d['W']:>6}{d['L']:>6}{d['D']:>6}{k.get('time', 0):>6}{k.get('crash', 0):>6}"
            f"{sum(k.get(x, 0) for x in ILLEGAL):>6}{k.get('forbidden', 0):>7}{d['over']:>6}{len(t):>8}"
            f"{(statistics.median(t) if t else 0):>7.1f}{percentile(t, 99):>7.1f}{(t[-1] if t else 0):>7.1f}"
            f"{d['stderr']:>7}{d['other']:>6}")
    out("(self-play counts both Gorin sides; time = forfeits beyond the limit + tolerance "
        f"{a.tolerance_ms} ms; illeg = occupied/off-board/unparsable/protocol/start; forbid = renju foul "
        "(a loss for a baseline brain, a failure for Gorin); over = replies over the bare turn limit; ms)")
    slow.sort(reverse=True)
    out("slowest Gorin replies relative to their limit:")
    for ratio, ms, limit, where in slow[:5]:
        out(f"  {ms:7.1f} ms of {limit:.0f} ms = {ratio * 100:5.1f}%   ({where})")
    for turn in sorted({c.turn_ms for c, _ in runs}):
        t = sorted(ms for c, m in runs if c.turn_ms == turn for e in ((0, 1) if c.opponent == "self" else (0,))
                   for ms in m.stats[e].move_ms)
        if t:
            out(f"  Gorin at turn {turn} ms: {len(t)} replies, median {statistics.median(t):.1f}, "
                f"p99 {percentile(t, 99):.1f}, p99.9 {percentile(t, 99.9):.1f}, max {t[-1]:.1f} ms")

    # Memory per setting.
    out("")
    out("Gorin memory per max_memory setting (MiB; peaks over all processes of that setting):")
    out(f"{'setting':<14}{'procs':>6}{'limit':>8}{'VmHWM':>8}{'VmRSS':>8}{'USS':>8}{'margin':>8}{'% limit':>8}"
        f"{'median USS':>11}")
    over_memory = 0
    probes = sampler.done
    for key in [*MEMORIES, *(f"{m} long" for m in MEMORIES)]:
        ps = [p for p in probes if p.mem_key == key]
        if not ps:
            continue
        limit = ps[0].limit
        hwm, rss, uss = max(p.hwm for p in ps), max(p.rss for p in ps), max(p.uss for p in ps)
        peak = max(hwm, rss, uss)
        bad = sum(1 for p in ps if max(p.hwm, p.rss, p.uss) > limit)
        over_memory += bad
        out(f"{key:<14}{len(ps):>6}{mib(limit):>8}{mib(hwm):>8}{mib(rss):>8}{mib(uss):>8}{mib(limit - peak):>8}"
            f"{peak / limit * 100:>7.1f}%{mib(statistics.median(p.uss for p in ps)):>11}"
            + (f"  {bad} OVER" if bad else ""))
    out(f"(margin = limit - the largest of VmHWM, VmRSS, USS; samples every {a.sample_ms} ms, "
        f"{sum(p.samples for p in probes)} in all)")
    for key in [*MEMORIES, *(f"{m} long" for m in MEMORIES)]:
        ps = [p for p in probes if p.mem_key == key]
        if ps:
            top = max(ps, key=lambda p: max(p.hwm, p.rss, p.uss))
            out(f"  largest at {key}: {mib(max(top.hwm, top.rss, top.uss))} MiB in {top.where}")

    g = roles.get("gorin", {"kinds": {}, "over": 0})
    problems = {
        "crashes": sum(d["kinds"].get("crash", 0) for d in roles.values()),
        "time forfeits": sum(d["kinds"].get("time", 0) for d in roles.values()),
        "illegal moves": sum(d["kinds"].get(k, 0) for d in roles.values() for k in ILLEGAL)
        + g["kinds"].get("forbidden", 0),
        "Gorin replies over the turn limit": g["over"],
        "Gorin processes over max_memory": over_memory,
        "games failed in the script": sum(m.script_errors for _, m in runs),
    }
    bad = {k: v for k, v in problems.items() if v}
    out("")
    if interrupted:
        out("interrupted: the report covers the finished games")
    out("RESULT: " + ("OK" if not bad else "FAIL (" + ", ".join(f"{v} {k}" for k, v in bad.items()) + ")"))
    return 130 if interrupted else (1 if bad else 0)


# ---------------------------------------------------------------------------------------------
def main() -> int:
    p = cli.parser(__doc__, "Gorin binary (the brain itself, no wrapper)")
    p.add_argument("-n", "--games", type=int, default=1000,
                   help="fast games (rounded up to fill every cell; 0 = long games only)")
    p.add_argument("--turn-ms", default="50,100", help="turn times of the fast games, used in turn per cell")
    p.add_argument("--long", type=int, default=4,
                   help="long games per rule (0, 1) and setting (350 MiB, 1 GiB); 0 = none")
    p.add_argument("--long-turn-ms", type=int, default=400, help="turn time of the long games")
    p.add_argument("--random-plies", type=int, default=2, help="random stones added to each opening")
    p.add_argument("--tolerance-ms", type=int, default=1000, help="a reply this much past the limit forfeits")
    p.add_argument("--sample-ms", type=int, default=50, help="memory sampling period")
    p.add_argument("--seed", type=int, default=None, help="seed (default: random, printed)")
    p.add_argument("-j", "--jobs", type=int, default=1, help="games in parallel")
    p.add_argument("--log", default=None, help="write one line per game to this file")
    a = p.parse_args()
    try:
        a.turn_ms = [int(t) for t in a.turn_ms.split(",")]
    except ValueError:
        p.error("--turn-ms: comma-separated integers")
    if a.games < 0 or a.jobs < 1 or a.long < 0 or min(a.turn_ms) < 1 or not (a.games or a.long):
        p.error("--jobs, --turn-ms must be positive, --games and --long not negative, one of them not 0")
    if not Path(a.engine).exists():
        out(f"error: {a.engine} does not exist (build Gorin with `cargo build --release`)")
        return 2
    if a.seed is None:
        a.seed = random.SystemRandom().randrange(1 << 20)

    cells = make_cells(a)
    total = sum(c.games for c in cells)
    out(f"soak: {total} games ({sum(c.games for c in cells if c.long)} long at {a.long_turn_ms} ms) in "
        f"{len(cells)} cells, turn {a.turn_ms} ms, jobs {a.jobs}, seed {a.seed}, engine {a.engine}")

    # match.py prints a line per game; send those to --log (with the cell) instead of stdout.
    logfile = open(a.log, "w") if a.log else None
    current = threading.local()
    log_lock = threading.Lock()

    def game_line(msg: str) -> None:
        if logfile and msg.startswith("game "):
            with log_lock:
                logfile.write(f"[{current.cell.label}] {msg}\n")
                logfile.flush()

    match.out = game_line

    sampler = Sampler(a.sample_ms / 1000)
    sampler.start()
    runs: list[tuple[Cell, SoakMatch]] = []
    runs_lock = threading.Lock()
    progress = {"games": 0, "cells": 0}
    stop = threading.Event()
    t0 = time.monotonic()

    def play(cell: Cell) -> None:
        if stop.is_set():
            return
        current.cell = cell
        args = cell_args(a, cell)
        made: list[SoakMatch] = []

        def factory(args: argparse.Namespace) -> SoakMatch:
            made.append(SoakMatch(args, cell, sampler, MEMORIES[cell.memory]))
            with runs_lock:
                runs.append((cell, made[0]))
            return made[0]

        try:
            match.run(args, factory)
        except Exception:
            log(f"soak: cell {cell.label} failed inside the script:\n{traceback.format_exc()}")
            if not made:
                return
            made[0].script_errors += 1
        m = made[0]
        with runs_lock:
            progress["cells"] += 1
            progress["games"] += len(m.results)
            fails = sum(st.loss_kinds[k] for st in m.stats for k in ("time", "crash", *ILLEGAL))
            out(f"[{time.monotonic() - t0:6.0f} s] {progress['games']:>5}/{total} games, cell "
                f"{progress['cells']}/{len(cells)} done: {cell.label}"
                + (f"  ({fails} failures)" if fails else ""))

    interrupted = False
    pool = ThreadPoolExecutor(max_workers=a.jobs)
    try:
        futures = [pool.submit(play, c) for c in cells]
        for f in futures:
            while not f.done():
                time.sleep(0.2)
            f.result()
    except KeyboardInterrupt:
        interrupted = True
        stop.set()
        for _, m in runs:
            m.stop.set()
        Brain.kill_all()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        sampler.stopped.set()
        if logfile:
            logfile.close()
    return report(a, runs, sampler, time.monotonic() - t0, interrupted)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, match._interrupt)  # stop cleanly: kill the brains, report
    sys.exit(main())
