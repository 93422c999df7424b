#!/usr/bin/env python3
"""Process-level faults (issue 7, part 4): SIGSTOP/SIGCONT, exits, broken pipe.

Usage: python3 scripts/faults.py [--engine /tmp/gorin-soak] [--reps 3] [-v]

Each check runs a fresh brain (15x15, freestyle, a quiet 10-stone position from stop_latency.py
by BOARD) and prints its numbers and a verdict:

stop-between      the brain has answered a first BOARD; SIGSTOP; a second BOARD (another quiet
                  position) is written while it is stopped; --stop-ms later SIGCONT. The reply
                  must come within the turn limit counted from SIGCONT, and the stop must not eat
                  the budget: the reply takes at least --min-share of the time an unstopped twin
                  process takes for the same two BOARDs (a brain counting from the write, or
                  from before the stop, would answer at once).
stop-between-gj   GomocupJudge's order: SIGSTOP after the reply, SIGCONT --stop-ms later, then
                  BOARD: the reply within the turn limit from the write.
stop-during       SIGSTOP --delays ms into a search (timeout_turn --turn-ms), SIGCONT after its
                  deadline has passed: the move within --at-once-ms of SIGCONT.
stop-during-match the same with the match clock (timeout_match, time_left) setting the deadline.
exit-*            EOF, END and SIGTERM, idle and mid-search: the process gone within 1 s (EOF
                  mid-search: the pending move printed first, then gone within the turn limit +
                  1 s); exit codes reported (SIGTERM's default action, -15, is accepted).
broken-pipe-*     the script closes its end of the brain's stdout while the brain thinks (its
                  MESSAGE lines and move then hit EPIPE), or while it is idle before a fast reply;
                  then for 1 s the brain must not spin (CPU <= --max-cpu of one core) and END or
                  EOF must end it within 1 s; it may also exit at the failed write.
Every check also requires an empty stderr (no panic message; RUST_LOG is removed from the
environment).

Exit status 1 when any check fails, 2 on bad arguments.
"""

from __future__ import annotations

import argparse
import os
import select
import shlex
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from gorinkit.brain import Brain, BrainDied, out  # noqa: E402
from gorinkit.protocol import is_chatter  # noqa: E402
from gorinkit.quiet import POSITIONS, SIZE, legal_move, quiet_board, referee_board  # noqa: E402
from gorinkit.referee import Board  # noqa: E402
from gorinkit import cli  # noqa: E402
EXIT_LIMIT_S = 1.0
CLK_TCK = os.sysconf("SC_CLK_TCK")


class Check:
    def __init__(self, name: str):
        self.name = name
        self.lines: list[str] = []
        self.failures: list[str] = []

    def note(self, text: str) -> None:
        self.lines.append(text)

    def fail(self, text: str) -> None:
        self.failures.append(text)


def cpu_s(pid: int) -> float | None:
    """utime + stime of a process, in seconds."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK
    except (OSError, IndexError, ValueError):
        return None


def gone_within(proc: subprocess.Popen, t0: float, limit_s: float) -> tuple[float | None, int | None]:
    """(seconds from t0 to the exit, exit code); (None, None) if still running after limit_s + 2 s."""
    try:
        code = proc.wait(timeout=max(0.0, t0 + limit_s + 2.0 - time.monotonic()))
    except subprocess.TimeoutExpired:
        return None, None
    return time.monotonic() - t0, code


def describe_code(code: int | None) -> str:
    if code is None:
        return "still running"
    if code < 0:
        return f"{code} (killed by {signal.Signals(-code).name})"
    return str(code)


def quiet_env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("RUST_LOG", None)
    return env


class Faults:
    def __init__(self, a: argparse.Namespace):
        self.a = a
        self.cmd = shlex.split(a.engine)
        self.checks: list[Check] = []
        self.stderr: list[str] = []

    # ---- helpers ---------------------------------------------------------------------------
    def spawn(self, infos: list[str]) -> Brain:
        os.environ.pop("RUST_LOG", None)
        b = Brain(self.cmd, "gorin", self.stderr.append)
        t0 = b.send(*infos, "INFO rule 0", f"START {SIZE}")
        line = b.reply(t0 + 10)
        if line is None or line[1] != "OK":
            b.close()
            raise RuntimeError(f"START answered {line!r}")
        return b

    def reply_to(self, check: Check, b: Brain, lines: list[str], board: Board, wait_s: float):
        """Send lines, wait for the move; (t_sent, t_reply, move) or None (failure noted)."""
        t0 = b.send(*lines)
        got = b.reply(t0 + wait_s)
        if got is None:
            check.fail(f"no reply within {wait_s:.1f} s to {lines[0]}")
            return None
        mv = legal_move(board, got[1])
        if mv is None:
            check.fail(f"bad reply {got[1]!r} to {lines[0]}")
            return None
        return t0, got[0], mv

    def stderr_check(self, check: Check, before: int) -> None:
        new = self.stderr[before:]
        if new:
            check.fail(f"{len(new)} stderr lines, first: {new[0][:200]!r}")

    def run_check(self, name: str, fn) -> None:
        check = Check(name)
        before = len(self.stderr)
        try:
            fn(check)
        except (RuntimeError, BrainDied, OSError) as e:
            check.fail(f"{type(e).__name__}: {e}")
        self.stderr_check(check, before)
        self.checks.append(check)
        verdict = "ok" if not check.failures else "FAIL: " + "; ".join(check.failures)
        out(f"{name:<27}{verdict}")
        for line in check.lines:
            out(f"    {line}")

    def turn_infos(self, turn_ms: int) -> list[str]:
        return [f"INFO timeout_turn {turn_ms}", "INFO timeout_match 0", f"INFO max_memory {self.a.max_memory}"]

    # ---- SIGSTOP / SIGCONT -----------------------------------------------------------------
    def between(self, check: Check, rep: int, stop: str) -> float | None:
        """A fresh brain answers BOARD Q, then gets BOARD P (both quiet positions) with `stop`:
        'none', 'before' (SIGSTOP, write, SIGCONT --stop-ms later: the time counts from SIGCONT)
        or 'gj' (SIGSTOP, SIGCONT --stop-ms later, then the write). The reply time to P in ms,
        or None (failure noted)."""
        a = self.a
        T = a.turn_ms
        q, p = POSITIONS[(rep + 1) % len(POSITIONS)], POSITIONS[rep % len(POSITIONS)]
        b = self.spawn(self.turn_infos(T))
        try:
            if self.reply_to(check, b, quiet_board(q), referee_board(q), T / 1000 + 2) is None:
                return None
            board = referee_board(p)
            if stop == "none":
                got = self.reply_to(check, b, quiet_board(p), board, T / 1000 + 2)
                return None if got is None else (got[1] - got[0]) * 1000
            os.kill(b.proc.pid, signal.SIGSTOP)
            if stop == "gj":
                time.sleep(a.stop_ms / 1000)
                os.kill(b.proc.pid, signal.SIGCONT)
                got = self.reply_to(check, b, quiet_board(p), board, T / 1000 + 2)
                return None if got is None else (got[1] - got[0]) * 1000
            b.send(*quiet_board(p))
            time.sleep(a.stop_ms / 1000)
            t_cont = time.monotonic()
            os.kill(b.proc.pid, signal.SIGCONT)
            got = b.reply(t_cont + T / 1000 + 2)
            if got is None:
                check.fail(f"rep {rep + 1}: no reply within {T + 2000} ms of SIGCONT")
                return None
            if legal_move(board, got[1]) is None:
                check.fail(f"rep {rep + 1}: bad reply {got[1]!r}")
            return (got[0] - t_cont) * 1000
        finally:
            if b.alive():
                os.kill(b.proc.pid, signal.SIGCONT)
            b.close()

    def stop_between(self, check: Check, gomocupjudge: bool) -> None:
        a = self.a
        T = a.turn_ms
        for rep in range(a.reps):
            ref = self.between(check, rep, "none")
            ms = self.between(check, rep, "gj" if gomocupjudge else "before")
            if ref is None or ms is None:
                continue
            if gomocupjudge:
                check.note(f"rep {rep + 1}: SIGSTOP after a reply, SIGCONT {a.stop_ms} ms later, then BOARD: "
                           f"reply {ms:.0f} ms after the write (limit {T}; unstopped twin {ref:.0f} ms)")
            else:
                check.note(f"rep {rep + 1}: BOARD written while stopped, SIGCONT {a.stop_ms} ms later: reply "
                           f"{ms:.0f} ms after SIGCONT (limit {T}; unstopped twin {ref:.0f} ms, "
                           f"{ms / max(ref, 1) * 100:.0f}%)")
            if ms > T:
                check.fail(f"rep {rep + 1}: {ms:.0f} ms > {T} ms")
            if ms < a.min_share * ref:
                check.fail(f"rep {rep + 1}: {ms:.0f} ms < {a.min_share:g} x the unstopped {ref:.0f} ms: "
                           "the stop ate the budget")

    def stop_during(self, check: Check, match_clock: bool) -> None:
        a = self.a
        valid = 0
        for rep, delay in enumerate(a.delays):
            stones = POSITIONS[rep % 2]  # the third position is answered in ~300 ms
            if match_clock:
                infos = ["INFO timeout_turn 60000", f"INFO timeout_match {a.match_ms}",
                         f"INFO max_memory {a.max_memory}"]
                lines = [f"INFO time_left {a.match_ms}"] + quiet_board(stones)
                # A brain takes at most a third of its time left for one move (Gorin: far less).
                deadline_ms = a.match_ms / 3
            else:
                infos = self.turn_infos(a.turn_ms)
                lines = quiet_board(stones)
                deadline_ms = a.turn_ms
            b = self.spawn(infos)
            try:
                board = referee_board(stones)
                t0 = b.send(*lines)
                time.sleep(delay / 1000)
                os.kill(b.proc.pid, signal.SIGSTOP)
                t_stop = time.monotonic()
                early = [line for line in b.drain() if not is_chatter(line)]
                if early:
                    check.note(f"rep {rep + 1}: spoiled, the move came before SIGSTOP ({delay} ms)")
                    continue
                time.sleep(max(0.0, t0 + deadline_ms / 1000 + a.stop_extra_ms / 1000 - time.monotonic()))
                t_cont = time.monotonic()
                os.kill(b.proc.pid, signal.SIGCONT)
                got = b.reply(t_cont + 5)
                if got is None:
                    check.fail(f"rep {rep + 1}: no move within 5 s of SIGCONT")
                    continue
                if legal_move(board, got[1]) is None:
                    check.fail(f"rep {rep + 1}: bad reply {got[1]!r}")
                ms = (got[0] - t_cont) * 1000
                valid += 1
                check.note(f"rep {rep + 1}: SIGSTOP {(t_stop - t0) * 1000:.0f} ms into the search, stopped "
                           f"{(t_cont - t_stop) * 1000:.0f} ms (deadline {deadline_ms:.0f} ms passed): move "
                           f"{ms:.1f} ms after SIGCONT")
                if ms > a.at_once_ms:
                    check.fail(f"rep {rep + 1}: {ms:.0f} ms > {a.at_once_ms} ms after SIGCONT")
            finally:
                if b.alive():
                    os.kill(b.proc.pid, signal.SIGCONT)
                b.close()
        if not valid:
            check.fail("no valid sample (every move came before SIGSTOP)")

    # ---- exits ----------------------------------------------------------------------------
    def exit_check(self, check: Check, how: str, mid_search: bool) -> None:
        T = self.a.turn_ms
        b = self.spawn(self.turn_infos(T))
        try:
            stones = POSITIONS[0]
            if mid_search:
                t0 = b.send(*quiet_board(stones))
                time.sleep(0.2)
                if [line for line in b.drain() if not is_chatter(line)]:
                    check.note("spoiled: the move came within 200 ms")
            t_act = time.monotonic()
            if how == "EOF":
                b.proc.stdin.close()
            elif how == "END":
                b.send("END")
            else:
                os.kill(b.proc.pid, signal.SIGTERM)
            limit = EXIT_LIMIT_S + (T / 1000 if how == "EOF" and mid_search else 0)
            secs, code = gone_within(b.proc, t_act, limit)
            got = []
            while True:
                r = b.read(0.5)
                if r is None or r[1] is None:
                    break
                if not is_chatter(r[1]):
                    got.append(r[1])
            where = "mid-search" if mid_search else "idle"
            if secs is None:
                check.fail(f"still running {limit + 2:.1f} s after {how}")
                b.kill()
                return
            check.note(f"{how} {where}: gone in {secs * 1000:.0f} ms, exit code {describe_code(code)}, "
                       f"lines after it: {got or 'none'}")
            if secs > limit:
                check.fail(f"{secs * 1000:.0f} ms > {limit * 1000:.0f} ms")
            if how in ("EOF", "END") and code != 0:
                check.fail(f"exit code {code}")
            if how == "SIGTERM" and code not in (0, -signal.SIGTERM):
                check.fail(f"exit code {code}")
            if how == "EOF" and mid_search:
                if len(got) != 1 or legal_move(referee_board(stones), got[0]) is None:
                    check.fail(f"expected the pending move, got {got}")
            elif got:
                check.fail(f"unexpected output {got}")
        finally:
            b.close(0.5)

    # ---- broken pipe ----------------------------------------------------------------------
    def broken_pipe(self, check: Check, when: str, then: str) -> None:
        """when: 'thinking' (close the reader 200 ms into a search) or 'idle' (close it, then a
        fast move is asked for); then: 'END' or 'EOF'."""
        a = self.a
        T = a.turn_ms if when == "thinking" else 0
        proc = subprocess.Popen(self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True, env=quiet_env())
        errs: list[str] = []
        reader = threading.Thread(target=lambda: errs.extend(
            raw.decode("utf-8", "replace").rstrip() for raw in proc.stderr), daemon=True)
        reader.start()
        try:
            def send(*lines: str) -> None:
                proc.stdin.write(("\n".join(lines) + "\n").encode())
                proc.stdin.flush()

            send(*self.turn_infos(T), "INFO rule 0", f"START {SIZE}")
            fd = proc.stdout.fileno()
            buf = b""
            deadline = time.monotonic() + 10
            while b"OK" not in buf and time.monotonic() < deadline:
                if select.select([fd], [], [], 0.1)[0]:
                    chunk = os.read(fd, 4096)
                    if not chunk:
                        break
                    buf += chunk
            if b"OK" not in buf:
                check.fail(f"no OK to START ({buf!r})")
                return
            if when == "thinking":
                send(*quiet_board(POSITIONS[0]))
                time.sleep(0.2)
                proc.stdout.close()
            else:
                proc.stdout.close()
                send(*quiet_board(POSITIONS[0]))
            # Wait until the move would have been written (the search's end), then watch the CPU.
            time.sleep((T / 1000 if T else 0) + 0.3)
            exited_early = proc.poll()
            c0, t_c0 = cpu_s(proc.pid), time.monotonic()
            time.sleep(1.0)
            c1, t_c1 = cpu_s(proc.pid), time.monotonic()
            cpu = (c1 - c0) / (t_c1 - t_c0) if c0 is not None and c1 is not None else None
            if exited_early is not None:
                state = f"exited at the failed write, code {describe_code(exited_early)}"
            else:
                state = f"alive after the failed write, CPU {cpu * 100:.0f}% of a core over 1 s" if cpu is not None \
                    else "gone"
            t_act = time.monotonic()
            if proc.poll() is None:
                try:
                    if then == "END":
                        send("END")
                    else:
                        proc.stdin.close()
                except (BrokenPipeError, OSError):
                    pass
            secs, code = gone_within(proc, t_act, EXIT_LIMIT_S)
            if secs is None:
                check.fail(f"still running 3 s after {then}")
                state += f"; {then}: still running"
            else:
                state += f"; {then}: gone in {secs * 1000:.0f} ms, exit code {describe_code(code)}"
            check.note(f"stdout reader closed while {when} ({'timeout_turn ' + str(T)}): {state}")
            if secs is not None and secs > EXIT_LIMIT_S:
                check.fail(f"{secs * 1000:.0f} ms after {then}")
            if cpu is not None and exited_early is None and cpu > a.max_cpu:
                check.fail(f"spinning: {cpu * 100:.0f}% CPU while idle after EPIPE")
            reader.join(timeout=1)
            if errs:
                check.fail(f"stderr: {errs[:3]}")
            check.note(f"stderr: {len(errs)} lines" + (f", first {errs[0][:200]!r}" if errs else ""))
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
            for f in (proc.stdin, proc.stderr):
                try:
                    f.close()
                except (OSError, ValueError):
                    pass

    # ---- all ------------------------------------------------------------------------------
    def run(self) -> int:
        a = self.a
        out(f"faults: {a.engine}, turn {a.turn_ms} ms, stops of {a.stop_ms} ms, reps {a.reps}")
        self.run_check("stop-between", lambda c: self.stop_between(c, False))
        self.run_check("stop-between-gj", lambda c: self.stop_between(c, True))
        self.run_check("stop-during", lambda c: self.stop_during(c, False))
        self.run_check("stop-during-match", lambda c: self.stop_during(c, True))
        for how in ("EOF", "END", "SIGTERM"):
            for mid in (False, True):
                self.run_check(f"exit-{how}-{'search' if mid else 'idle'}",
                               lambda c, how=how, mid=mid: self.exit_check(c, how, mid))
        for when in ("thinking", "idle"):
            for then in ("END", "EOF"):
                self.run_check(f"broken-pipe-{when}-{then}",
                               lambda c, when=when, then=then: self.broken_pipe(c, when, then))
        failed = [c.name for c in self.checks if c.failures]
        out("")
        out("RESULT: " + ("OK" if not failed else f"FAIL ({', '.join(failed)})"))
        return 1 if failed else 0


def main() -> int:
    p = cli.parser(__doc__, "brain command (the brain itself, no wrapper)")
    p.add_argument("--turn-ms", type=int, default=1000, help="timeout_turn of the searches")
    p.add_argument("--match-ms", type=int, default=9000, help="timeout_match of stop-during-match")
    p.add_argument("--stop-ms", type=int, default=2500, help="how long a brain stays stopped between moves")
    p.add_argument("--stop-extra-ms", type=int, default=1000, help="stop-during: SIGCONT this long past the deadline")
    p.add_argument("--delays", default="50,150,300,500", help="stop-during: ms into the search of the SIGSTOP")
    p.add_argument("--reps", type=int, default=3, help="repetitions of stop-between")
    p.add_argument("--at-once-ms", type=float, default=100, help="stop-during: the move within this of SIGCONT")
    p.add_argument("--min-share", type=float, default=0.3,
                   help="stop-between: the reply at least this share of the unstopped reply time")
    p.add_argument("--max-cpu", type=float, default=0.1, help="broken pipe: CPU share of a core allowed while idle")
    p.add_argument("--max-memory", type=int, default=367_001_600, help="INFO max_memory")
    a = p.parse_args()
    try:
        a.delays = [int(d) for d in a.delays.split(",")]
    except ValueError:
        p.error("--delays: comma-separated integers")
    words = shlex.split(a.engine)
    if not words or ("/" in words[0] and not Path(words[0]).exists()):
        out(f"error: {a.engine} does not exist (build Gorin with `cargo build --release`)")
        return 2
    try:
        return Faults(a).run()
    except KeyboardInterrupt:
        Brain.kill_all()
        return 130


if __name__ == "__main__":
    sys.exit(main())
