"""A Gomocup brain as a child process, with bounded waits everywhere.

Shared by every script that drives a brain (match.py, stop_latency.py, peak_rss.py, ...). Python 3.11
standard library only; Linux (process groups, /proc).

Design:
- stdout and stderr are drained by one reader thread each, so a chatty brain can never block on a
  full pipe and every stdout line is stamped with the time it was read (time.monotonic()).
- stdin is non-blocking: a brain that stops reading cannot hang the caller; a write that cannot
  complete within WRITE_TIMEOUT_S counts as a dead brain.
- The brain runs in a new session (its own process group), so Ctrl-C in the terminal reaches only
  the script, which then kills the brains it started; `close()` kills the whole group if the brain
  does not exit within the grace period after `END`.
"""

from __future__ import annotations

import math
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from typing import Callable

from .protocol import is_chatter

WRITE_TIMEOUT_S = 2.0
END_GRACE_S = 2.0

_print_lock = threading.Lock()


def log(msg: str) -> None:
    """Thread-safe line to stderr (stdout of the scripts is their report)."""
    with _print_lock:
        sys.stderr.write(msg + "\n")
        sys.stderr.flush()


def out(msg: str) -> None:
    """Thread-safe line to stdout."""
    with _print_lock:
        sys.stdout.write(msg + "\n")
        sys.stdout.flush()


class BrainDied(Exception):
    """The brain's stdin is closed or it stopped reading."""


class Brain:
    """One brain process. Lines read from stdout are (timestamp, text); text None means EOF."""

    # Every live Brain, so that an interrupted script can kill them all.
    live: set["Brain"] = set()
    _live_lock = threading.Lock()

    def __init__(self, cmd: list[str], name: str, on_stderr: Callable[[str], None] | None = None):
        self.name = name
        self.cmd = cmd
        self.lines: "queue.Queue[tuple[float, str | None]]" = queue.Queue()
        self.eof_at: float | None = None
        self.stderr_lines = 0
        self._on_stderr = on_stderr
        self.proc = subprocess.Popen(
            cmd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        assert self.proc.stdin is not None
        self._stdin_fd = self.proc.stdin.fileno()
        os.set_blocking(self._stdin_fd, False)
        self._threads = [
            threading.Thread(target=self._read_stdout, daemon=True),
            threading.Thread(target=self._read_stderr, daemon=True),
        ]
        for t in self._threads:
            t.start()
        with Brain._live_lock:
            Brain.live.add(self)

    # ---- reading -------------------------------------------------------------------------
    def _read_stdout(self) -> None:
        assert self.proc.stdout is not None
        try:
            for raw in self.proc.stdout:
                now = time.monotonic()
                text = raw.decode("utf-8", "replace")
                for part in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
                    if part.strip():
                        self.lines.put((now, part.strip()))
        except (OSError, ValueError):
            pass
        self.lines.put((time.monotonic(), None))

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        try:
            for raw in self.proc.stderr:
                self.stderr_lines += 1
                if self._on_stderr:
                    self._on_stderr(raw.decode("utf-8", "replace").rstrip())
        except (OSError, ValueError):
            pass

    def read(self, timeout_s: float) -> tuple[float, str | None] | None:
        """Next stdout line within timeout_s, (t, None) at EOF (repeatable), None on timeout."""
        if self.eof_at is not None and self.lines.empty():
            return (self.eof_at, None)
        try:
            t, line = self.lines.get(timeout=max(0.0, timeout_s))
        except queue.Empty:
            return None
        if line is None:
            self.eof_at = t
        return (t, line)

    def reply(self, deadline: float, on_chatter: Callable[[str], None] | None = None) -> tuple[float, str] | None:
        """The next line before the monotonic `deadline` that is not MESSAGE/DEBUG chatter (which
        goes to `on_chatter`), with its time; None on time-out or EOF."""
        while True:
            got = self.read(deadline - time.monotonic())
            if got is None or got[1] is None:
                return None
            if is_chatter(got[1]):
                if on_chatter:
                    on_chatter(got[1])
                continue
            return got[0], got[1]

    def drain(self) -> list[str]:
        """Lines already waiting (read without blocking); EOF is kept for the next read."""
        got = []
        while True:
            try:
                t, line = self.lines.get_nowait()
            except queue.Empty:
                return got
            if line is None:
                self.eof_at = t
                return got
            got.append(line)

    # ---- writing -------------------------------------------------------------------------
    def send(self, *lines: str) -> float:
        """Write the lines in one go; return the monotonic time just before writing."""
        data = ("\n".join(lines) + "\n").encode()
        t0 = time.monotonic()
        deadline = t0 + WRITE_TIMEOUT_S
        view = memoryview(data)
        while view:
            try:
                n = os.write(self._stdin_fd, view)
                view = view[n:]
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise BrainDied("stdin not read for %.1f s" % WRITE_TIMEOUT_S)
                time.sleep(0.001)
            except (BrokenPipeError, OSError) as e:
                raise BrainDied(str(e)) from None
        return t0

    # ---- life ----------------------------------------------------------------------------
    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL the brain's process group (only while the leader is not yet reaped)."""
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                try:
                    self.proc.kill()
                except ProcessLookupError:
                    pass

    def close(self, grace_s: float = END_GRACE_S, send_end: bool = True) -> int | None:
        """Send END (optional), wait grace_s for exit, then kill; always reaps. Returns exit code."""
        if send_end and self.proc.poll() is None:
            try:
                self.send("END")
            except BrainDied:
                pass
        try:
            self.proc.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            self.kill()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        if self.proc.stdin:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
        for t in self._threads:
            t.join(timeout=1.0)
        # The readers are done (EOF) or stuck on a brain's orphaned child: close their pipes
        # either way, so that no file is left for the garbage collector to complain about.
        for stream in (self.proc.stdout, self.proc.stderr):
            try:
                if stream:
                    stream.close()
            except OSError:
                pass
        with Brain._live_lock:
            Brain.live.discard(self)
        return self.proc.returncode

    @staticmethod
    def close_many(brains: "list[Brain]", grace_s: float = END_GRACE_S) -> None:
        """END to every brain first, then reap each within one shared grace period."""
        for b in brains:
            if b.alive():
                try:
                    b.send("END")
                except BrainDied:
                    pass
        deadline = time.monotonic() + grace_s
        for b in brains:
            b.close(max(0.0, deadline - time.monotonic()), send_end=False)

    @classmethod
    def kill_all(cls) -> None:
        with cls._live_lock:
            brains = list(cls.live)
        for b in brains:
            b.kill()
        for b in brains:
            try:
                b.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                pass


def percentile(sorted_values: list[float], p: float) -> float:
    """Nearest-rank percentile of an already sorted list (p in 0..100)."""
    if not sorted_values:
        return float("nan")
    k = max(1, math.ceil(p / 100 * len(sorted_values)))
    return sorted_values[min(k, len(sorted_values)) - 1]
