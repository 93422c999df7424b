#!/usr/bin/env python3
"""Measure how fast a Gomocup brain reacts to END, YXSTOP and STOP while thinking.

Usage: python3 scripts/stop_latency.py [--reps 20] [--engine CMD]

For each repetition a fresh brain gets `INFO timeout_turn 30000`, `INFO timeout_match 0`, START 15
and a quiet 10-stone position by BOARD; ~300 ms into its search the script sends the command and
measures, from writing it:
  END            until the process has exited (EOF on its stdout, then reaped),
  YXSTOP / STOP  until the move line is read (the move is checked: on the board, on an empty point).
It also measures the reply time to a position under `INFO timeout_turn 0` (target 50 ms) and the
START latency of a freshly started process (START is written right after spawning, so this
includes process start-up and all INFO handling, as GomocupJudge counts it).

Exit status 1 when a median is over its limit (100 ms; the timeout_turn 0 target is 50 ms), any
one sample is over 2000 ms, a command got no reaction at all, or every sample of a command was
spoiled because the brain answered before the command was sent.
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from gorinkit.brain import Brain, BrainDied, log, out  # noqa: E402
from gorinkit.quiet import POSITIONS, SIZE, legal_move, quiet_board, referee_board  # noqa: E402
from gorinkit.protocol import is_chatter  # noqa: E402
from gorinkit import cli  # noqa: E402

START_WAIT_S = 10.0
THINK_TURN_MS = 30_000

@dataclass
class Series:
    name: str
    median_limit: float
    max_limit: float
    samples: list[float] = field(default_factory=list)
    early: int = 0  # answered before the command was sent: sample spoiled
    no_reaction: int = 0  # nothing within the hard wait
    bad_moves: int = 0  # off-board, occupied or unparsable
    notes: list[str] = field(default_factory=list)

    def verdict(self) -> str:
        problems = []
        if self.no_reaction:
            problems.append(f"{self.no_reaction} without reaction")
        if self.bad_moves:
            problems.append(f"{self.bad_moves} bad moves")
        if not self.samples:
            problems.append("no valid sample")
        else:
            if statistics.median(self.samples) > self.median_limit:
                problems.append(f"median > {self.median_limit:g} ms")
            if max(self.samples) > self.max_limit:
                problems.append(f"max > {self.max_limit:g} ms")
        return "ok" if not problems else "FAIL: " + "; ".join(problems)


class Runner:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.cmd = shlex.split(args.engine)
        self.start = Series("START", args.max_median_ms, args.max_ms)

    def spawn(self, turn_ms: int) -> Brain | None:
        """A brain after START answered OK (START latency recorded), or None."""
        a = self.args
        try:
            brain = Brain(self.cmd, "brain", (lambda s: log(f"[stderr] {s}")) if a.verbose else None)
        except OSError as e:
            self.start.no_reaction += 1
            self.start.notes.append(f"cannot start: {e}")
            return None
        try:
            t0 = brain.send(
                f"INFO timeout_turn {turn_ms}",
                "INFO timeout_match 0",
                f"INFO max_memory {a.max_memory}",
                f"INFO thread_num {a.threads}",
                "INFO rule 0",
                f"START {SIZE}",
            )
        except BrainDied as e:
            self.start.no_reaction += 1
            self.start.notes.append(f"stdin closed: {e}")
            brain.close()
            return None
        got = self.wait_line(brain, t0 + START_WAIT_S)
        if got is None or got[1] != "OK":
            self.start.no_reaction += 1
            self.start.notes.append("no OK to START" if got is None else f"START answered {got[1]!r}")
            brain.close()
            return None
        self.start.samples.append((got[0] - t0) * 1000)
        return brain

    def wait_line(self, brain: Brain, deadline: float) -> tuple[float, str] | None:
        """Next non-MESSAGE/DEBUG line before deadline; None on time-out or EOF."""
        return brain.reply(deadline, (lambda line: log(f"[brain] {line}")) if self.args.verbose else None)

    def measured(self, series: Series, turn_ms: int, measure) -> None:
        """`measure(brain)` on a fresh brain under `turn_ms`; a failed start or a closed stdin
        counts as no reaction."""
        brain = self.spawn(turn_ms)
        if brain is None:
            series.no_reaction += 1
            return
        try:
            measure(brain)
        except BrainDied as e:
            series.no_reaction += 1
            series.notes.append(f"stdin closed: {e}")
        finally:
            brain.close()

    def move_sample(self, series: Series, brain: Brain, t0: float, stones: list[tuple[int, int]], missing: str) -> None:
        """The move answering a command written at t0: its latency, and whether it is legal."""
        got = self.wait_line(brain, t0 + max(self.args.max_ms / 1000 * 2, 5.0))
        if got is None:
            series.no_reaction += 1
            series.notes.append(missing)
            return
        series.samples.append((got[0] - t0) * 1000)
        if legal_move(referee_board(stones), got[1]) is None:
            series.bad_moves += 1
            series.notes.append(f"bad move {got[1]!r}")

    def end_sample(self, series: Series, brain: Brain, t0: float) -> None:
        """END written at t0: the time to the process exit; nothing may be printed after it."""
        hard = t0 + max(self.args.max_ms / 1000 * 2, 5.0)
        printed = []
        while True:
            got = brain.read(hard - time.monotonic())
            if got is None:
                series.no_reaction += 1
                series.notes.append("still running after END")
                return
            if got[1] is None:
                break
            if not is_chatter(got[1]):
                printed.append(got[1])
        try:
            brain.proc.wait(timeout=max(0.0, hard - time.monotonic()))
        except Exception:
            series.no_reaction += 1
            series.notes.append("stdout closed but process still running after END")
            return
        series.samples.append((got[0] - t0) * 1000)
        if printed and len(series.notes) < 3:
            series.notes.append(f"printed {printed!r} after END (protocol: print nothing)")

    def measure_stop(self, series: Series, command: str, rep: int) -> None:
        stones = POSITIONS[rep % len(POSITIONS)]

        def measure(brain: Brain) -> None:
            t_board = brain.send(*quiet_board(stones))
            early = self.wait_line(brain, t_board + self.args.delay_ms / 1000)
            if early is not None:
                series.early += 1
                if len(series.notes) < 3:
                    series.notes.append(f"answered {early[1]!r} after {(early[0] - t_board) * 1000:.0f} ms, "
                                        "before the command")
                return
            if not brain.alive():
                series.no_reaction += 1
                series.notes.append("brain died while thinking")
                return
            t0 = brain.send(command)
            if command == "END":
                self.end_sample(series, brain, t0)
            else:
                self.move_sample(series, brain, t0, stones, f"no move after {command}")

        self.measured(series, THINK_TURN_MS, measure)

    def measure_turn0(self, series: Series, rep: int) -> None:
        stones = POSITIONS[rep % len(POSITIONS)]

        def measure(brain: Brain) -> None:
            t0 = brain.send(*quiet_board(stones))
            self.move_sample(series, brain, t0, stones, "no move with timeout_turn 0")

        self.measured(series, 0, measure)


def main() -> int:
    p = cli.parser(__doc__)
    p.add_argument("-r", "--reps", type=int, default=20, help="repetitions per command")
    p.add_argument("--delay-ms", type=int, default=300, help="time into the search before the command")
    p.add_argument("--max-median-ms", type=float, default=100, help="limit for each median")
    p.add_argument("--max-ms", type=float, default=2000, help="limit for every single sample")
    p.add_argument("--turn0-target-ms", type=float, default=50, help="median limit for timeout_turn 0")
    p.add_argument("--max-memory", type=int, default=367_001_600, help="INFO max_memory bytes")
    p.add_argument("--commands", default="END,YXSTOP,STOP", help="comma-separated commands to measure")
    p.add_argument("--threads", type=int, default=1, help="INFO thread_num")
    p.add_argument("-v", "--verbose", action="store_true", help="log MESSAGE/DEBUG and stderr")
    a = p.parse_args()
    if a.reps < 1:
        p.error("--reps must be positive")
    exe = shlex.split(a.engine)[0] if shlex.split(a.engine) else ""
    if "/" in exe and not Path(exe).exists():
        out(f"error: {exe} does not exist (build it with `cargo build --release`)")
        return 2

    r = Runner(a)
    commands = [c.strip().upper() for c in a.commands.split(",") if c.strip()]
    out(f"stop_latency: {a.engine}")
    out(f"{a.reps} reps per command; {len(POSITIONS[0])}-stone positions on {SIZE}x{SIZE}, "
        f"timeout_turn {THINK_TURN_MS}, command sent {a.delay_ms} ms into the search")
    series = []
    try:
        for c in commands:
            s = Series(c, a.max_median_ms, a.max_ms)
            for rep in range(a.reps):
                r.measure_stop(s, c, rep)
            series.append(s)
        t0 = Series("turn0", a.turn0_target_ms, a.max_ms)
        for rep in range(a.reps):
            r.measure_turn0(t0, rep)
        series.append(t0)
    except KeyboardInterrupt:
        Brain.kill_all()
        out("interrupted")
        return 130
    series.append(r.start)

    labels = {
        "END": "END -> process exit",
        "YXSTOP": "YXSTOP -> move",
        "STOP": "STOP -> move",
        "turn0": "timeout_turn 0 -> move",
        "START": "START -> OK (cold)",
    }
    out("")
    out(f"{'measurement':<24}{'n':>4}{'spoiled':>8}{'median':>9}{'max':>9}{'limits (median/max)':>22}   verdict")
    failed = False
    for s in series:
        med = f"{statistics.median(s.samples):.1f}" if s.samples else "-"
        mx = f"{max(s.samples):.1f}" if s.samples else "-"
        v = s.verdict()
        failed |= v != "ok"
        out(f"{labels.get(s.name, s.name):<24}{len(s.samples):>4}{s.early:>8}{med:>9}{mx:>9}"
            f"{f'{s.median_limit:g}/{s.max_limit:g} ms':>22}   {v}")
        for note in s.notes[:5]:
            out(f"{'':<8}note: {note}")
    out("(ms, measured from writing the command; spoiled = the brain answered before the command)")
    out("")
    out("RESULT: " + ("FAIL" if failed else "OK"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
