#!/usr/bin/env python3
"""Peak memory of a Gomocup brain against its INFO max_memory limit (Linux, /proc).

Usage: python3 scripts/peak_rss.py [--max-memory 67108864] [--moves 20] [--turn-ms 1000]

Two fresh brains (the same command unless --engine2 is given) play one 15x15 game from the empty
board for --moves moves at timeout_turn --turn-ms, both told `INFO max_memory <bytes>`. While
they play, a sampler reads every --sample-ms:
  /proc/<pid>/smaps_rollup  Private_Clean + Private_Dirty + Private_Hugetlb  (USS-ish: what
                            GomocupJudge measures against the limit),
and before each brain is ended, /proc/<pid>/status VmHWM (the kernel's peak RSS).
max_memory 0 means "no limit" in the protocol; the brain should then stay under 350 MiB, so that
is the limit checked.

Exit status 1 when either peak is over the limit, or a brain fails (crash, illegal move,
no reply within the turn time + 5 s).
"""

from __future__ import annotations

import shlex
import sys
import threading
import time
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from gorinkit.brain import Brain, BrainDied, log, out  # noqa: E402
from gorinkit.procmem import hwm_bytes, uss_bytes  # noqa: E402
from gorinkit.protocol import parse_move  # noqa: E402
from gorinkit.referee import Board  # noqa: E402  (the referee: stop at a five)
from gorinkit import cli  # noqa: E402
NO_LIMIT_BYTES = 350 * 1024 * 1024
REPLY_GRACE_S = 5.0
START_WAIT_S = 10.0


class Sampler(threading.Thread):
    """Keeps the highest USS seen per pid until stopped."""

    def __init__(self, pids: list[int], period_s: float):
        super().__init__(daemon=True)
        self.pids = pids
        self.period_s = period_s
        self.peak_uss = {pid: 0 for pid in pids}
        self.samples = 0
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.is_set():
            for pid in self.pids:
                v = uss_bytes(pid)
                if v is not None and v > self.peak_uss[pid]:
                    self.peak_uss[pid] = v
            self.samples += 1
            self.stopped.wait(self.period_s)


def mib(n: int | None) -> str:
    return "-" if n is None else f"{n / 1048576:.1f} MiB"


def main() -> int:
    p = cli.parser(__doc__)
    p.add_argument("--engine2", default=None, help="opponent command (default: same as --engine)")
    p.add_argument("--max-memory", type=int, default=67_108_864, help="INFO max_memory bytes")
    p.add_argument("--moves", type=int, default=20, help="moves to play (both sides together)")
    p.add_argument("--turn-ms", type=int, default=1000, help="INFO timeout_turn")
    p.add_argument("--size", type=int, default=15, help="board size")
    p.add_argument("--threads", type=int, default=1, help="INFO thread_num for both brains")
    p.add_argument("--sample-ms", type=int, default=20, help="USS sampling period")
    p.add_argument("-v", "--verbose", action="store_true", help="log moves and MESSAGE lines")
    a = p.parse_args()
    limit = a.max_memory if a.max_memory > 0 else NO_LIMIT_BYTES
    cmds = [shlex.split(a.engine), shlex.split(a.engine2 or a.engine)]
    for cmd in cmds:
        if cmd and "/" in cmd[0] and not Path(cmd[0]).exists():
            out(f"error: {cmd[0]} does not exist (build it with `cargo build --release`)")
            return 2

    out(f"peak_rss: {a.engine}")
    out(f"INFO max_memory {a.max_memory} (limit checked: {mib(limit)}), {a.size}x{a.size}, "
        f"{a.moves} moves at timeout_turn {a.turn_ms} ms")
    brains: list[Brain] = []
    problems: list[str] = []
    peak_hwm: dict[int, int] = {}
    sampler: Sampler | None = None
    moves_played = 0
    try:
        for i, cmd in enumerate(cmds):
            on_err = (lambda s, i=i: log(f"[{i} stderr] {s}")) if a.verbose else None
            brains.append(Brain(cmd, "black" if i == 0 else "white", on_err))
        for b in brains:
            b.send(f"INFO timeout_turn {a.turn_ms}", "INFO timeout_match 0",
                   f"INFO max_memory {a.max_memory}", f"INFO thread_num {a.threads}", "INFO rule 0",
                   f"START {a.size}")
        sampler = Sampler([b.proc.pid for b in brains], a.sample_ms / 1000)
        sampler.start()
        for b in brains:
            line = wait_line(b, time.monotonic() + START_WAIT_S, a.verbose)
            if line != "OK":
                raise RuntimeError(f"{b.name}: START answered {line!r}")

        board = Board(a.size)
        last: tuple[int, int] | None = None
        for ply in range(a.moves):
            colour = ply % 2
            b = brains[colour]
            b.send("BEGIN" if last is None else f"TURN {last[0]},{last[1]}")
            line = wait_line(b, time.monotonic() + a.turn_ms / 1000 + REPLY_GRACE_S, a.verbose)
            mv = parse_move(line) if line else None
            if mv is None or not board.inside(*mv) or board.get(*mv):
                raise RuntimeError(f"{b.name}: bad or no reply {line!r} at ply {ply + 1}")
            board.place(mv[0], mv[1], colour)
            moves_played += 1
            last = mv
            if a.verbose:
                log(f"ply {ply + 1}: {b.name} {mv[0]},{mv[1]}")
            if board.wins(mv[0], mv[1], colour, 0):
                out(f"note: {b.name} made five at ply {ply + 1}; game over early")
                break
    except (RuntimeError, BrainDied, OSError) as e:
        problems.append(str(e))
    except KeyboardInterrupt:
        Brain.kill_all()
        out("interrupted")
        return 130
    finally:
        for b in brains:
            v = hwm_bytes(b.proc.pid)  # read before END: gone once the process exits
            if v is not None:
                peak_hwm[b.proc.pid] = v
        if sampler:
            sampler.stopped.set()
            sampler.join(timeout=2)
        Brain.close_many(brains)

    out("")
    out(f"{'brain':<8}{'pid':>8}{'peak RSS (VmHWM)':>20}{'peak USS-ish':>16}   vs limit {mib(limit)}")
    over = False
    for b in brains:
        pid = b.proc.pid
        hwm = peak_hwm.get(pid)
        uss = sampler.peak_uss.get(pid) if sampler else None
        bad = (hwm or 0) > limit or (uss or 0) > limit
        over |= bad
        pct = f"{max(hwm or 0, uss or 0) / limit * 100:.0f}% of the limit"
        out(f"{b.name:<8}{pid:>8}{mib(hwm):>20}{mib(uss):>16}   {pct}{'  OVER' if bad else ''}")
    out(f"({moves_played} moves played, {sampler.samples if sampler else 0} samples every {a.sample_ms} ms)")
    for pr in problems:
        out(f"problem: {pr}")
    out("")
    failed = over or bool(problems)
    out("RESULT: " + ("FAIL" if failed else "OK"))
    return 1 if failed else 0


def wait_line(b: Brain, deadline: float, verbose: bool) -> str | None:
    """Next non-MESSAGE/DEBUG line before the deadline; None on time-out or EOF."""
    got = b.reply(deadline, (lambda line: log(f"[{b.name}] {line}")) if verbose else None)
    return None if got is None else got[1]


if __name__ == "__main__":
    sys.exit(main())
