#!/usr/bin/env python3
"""Play a match between two Gomocup brains with an independent referee.

Usage: python3 scripts/selfplay.py --games 10 --turn-ms 200
       python3 scripts/selfplay.py --engine1 target/release/pbrain-gorin --engine2 ./old-gorin \
           --games 200 --rule 1 -j 2 --out games.txt

Each game starts fresh brain processes and speaks the protocol as a tournament manager does
(INFO timeout_turn / timeout_match / max_memory / rule, START, then BEGIN or BOARD for a brain's
first move and TURN afterwards, INFO time_left before each move when match time is set). Openings
are random (2-4 stones near the centre by default, seeded) or read from --openings, and each is
played twice with colours swapped.

The referee is written here, independent of the engine: five detection per rule, occupied /
off-board / unparsable moves, crashes, time. Renju forbidden moves are NOT judged.

Exit status: 0 when no brain made an illegal move, crashed, failed START, or answered later than
the per-move limit; 1 otherwise; 130 when interrupted.
"""

from __future__ import annotations

import argparse
import math
import random
import re
import shlex
import signal
import statistics
import sys
import threading
import time
import traceback
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
from brainproc import (  # noqa: E402
    Brain,
    BrainDied,
    is_chatter,
    log,
    looks_like_move,
    out,
    parse_move,
    percentile,
)

REPO = Path(__file__).resolve().parent.parent
DEFAULT_ENGINE = str(REPO / "target" / "release" / "pbrain-gorin")
DEFAULT_MAX_MEMORY = 367_001_600
START_TIMEOUT_MS = 10_000  # wait for OK to START
NO_LIMIT_CAP_MS = 60_000  # per-move wait when neither turn nor match time limits it
RULE_NAMES = {0: "freestyle", 1: "standard (exact five)", 4: "renju", 8: "caro", 9: "caro exact five"}
BLACK, WHITE = 0, 1  # colour index; stone values on the board are colour + 1
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


# ---------------------------------------------------------------------------------------------
# Referee
# ---------------------------------------------------------------------------------------------
class Board:
    def __init__(self, size: int):
        self.size = size
        self.cells = [[0] * size for _ in range(size)]
        self.count = 0

    def inside(self, x: int, y: int) -> bool:
        return 0 <= x < self.size and 0 <= y < self.size

    def get(self, x: int, y: int) -> int:
        return self.cells[y][x]

    def place(self, x: int, y: int, colour: int) -> None:
        self.cells[y][x] = colour + 1
        self.count += 1

    def full(self) -> bool:
        return self.count == self.size * self.size

    def wins(self, x: int, y: int, colour: int, rule: int) -> bool:
        """Does the stone just placed at (x, y) make a winning line under `rule`?"""
        me, opp = colour + 1, 2 - colour
        for dx, dy in DIRECTIONS:
            length = 1
            ends_blocked = 0
            for sx, sy in ((dx, dy), (-dx, -dy)):
                i = 1
                while self.inside(x + i * sx, y + i * sy) and self.get(x + i * sx, y + i * sy) == me:
                    length += 1
                    i += 1
                ex, ey = x + i * sx, y + i * sy
                # Only an opponent stone blocks (caro); the edge does not.
                if self.inside(ex, ey) and self.get(ex, ey) == opp:
                    ends_blocked += 1
            if line_wins(length, ends_blocked == 2, colour, rule):
                return True
        return False


def line_wins(length: int, blocked_both: bool, colour: int, rule: int) -> bool:
    if length < 5:
        return False
    if rule == 0:
        return True
    if rule == 1:
        return length == 5
    if rule == 4:  # renju: black needs exactly five, white's overline wins
        return length == 5 or colour == WHITE
    if rule == 8:  # caro: overline wins; exact five blocked at both ends does not
        return length > 5 or not blocked_both
    if rule == 9:
        return length == 5 and not blocked_both
    raise ValueError(f"rule {rule}")


def fmt_move(x: int, y: int, size: int) -> str:
    """Algebraic (a1 = 0,0, rows from the top) up to 26 columns, else x,y."""
    if size <= 26 and 0 <= x < size and 0 <= y < size:
        return f"{chr(ord('a') + x)}{y + 1}"
    return f"{x},{y};"


# ---------------------------------------------------------------------------------------------
# Openings
# ---------------------------------------------------------------------------------------------
def random_opening(rng: random.Random, size: int, stones: int) -> list[tuple[int, int]]:
    """`stones` distinct points near the centre, alternating colours from black (no five)."""
    c = size // 2
    r = 2 if size >= 9 else 1
    board = Board(size)
    moves: list[tuple[int, int]] = []
    while len(moves) < stones:
        p = (c + rng.randint(-r, r), c + rng.randint(-r, r))
        if board.get(*p) != 0:
            continue
        colour = len(moves) % 2
        board.place(p[0], p[1], colour)
        if board.wins(p[0], p[1], colour, 0):  # impossible below 9 stones; kept for larger k
            return random_opening(rng, size, stones)
        moves.append(p)
    return moves


def read_openings(path: str, size: int) -> list[list[tuple[int, int]]]:
    """Offset format (Piskvork / GomocupJudge / c-gomoku-cli): `x,y, x,y, ...` from the centre."""
    result = []
    c = size // 2
    for n, line in enumerate(Path(path).read_text().splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        nums = [int(v) for v in re.findall(r"-?\d+", line)]
        if len(nums) % 2:
            raise SystemExit(f"{path}:{n}: odd number of coordinates")
        moves = [(c + nums[i], c + nums[i + 1]) for i in range(0, len(nums), 2)]
        b = Board(size)
        for i, (x, y) in enumerate(moves):
            if not b.inside(x, y) or b.get(x, y):
                raise SystemExit(f"{path}:{n}: stone {i + 1} off-board or repeated on {size}x{size}")
            b.place(x, y, i % 2)
        result.append(moves)
    if not result:
        raise SystemExit(f"{path}: no openings")
    return result


# ---------------------------------------------------------------------------------------------
# Statistics shared by the game threads
# ---------------------------------------------------------------------------------------------
@dataclass
class EngineStats:
    wins: int = 0
    draws: int = 0
    losses: int = 0
    illegal: int = 0
    crashes: int = 0
    start_failures: int = 0
    timeouts: int = 0  # games lost on time: no reply, or a reply beyond limit + tolerance
    over_limit: int = 0  # replies received later than the per-move limit (time losses included)
    unsolicited: int = 0  # lines while it was not this brain's turn
    other_lines: int = 0  # non-move, non-MESSAGE/DEBUG lines while waiting for a move
    stderr_lines: int = 0
    move_ms: list[float] = field(default_factory=list)


@dataclass
class Slowest:
    ms: float = -1.0
    engine: str = ""
    game: int = 0
    ply: int = 0
    limit_ms: float | None = None


@dataclass
class GameResult:
    number: int
    black: int  # engine index playing black
    opening: list[tuple[int, int]]
    moves: list[tuple[int, int]] = field(default_factory=list)
    winner: int | None = None  # engine index, None = draw
    reason: str = ""


class Match:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.cmds = [shlex.split(args.engine1), shlex.split(args.engine2)]
        self.names = ["A", "B"]
        self.stats = [EngineStats(), EngineStats()]
        self.slowest = Slowest()
        self.results: list[GameResult] = []
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.script_errors = 0  # games lost to an exception in this script
        self.log_file = open(args.out, "w") if args.out else None
        if self.log_file:
            self.log_file.write(
                f"# selfplay size={args.size} rule={args.rule} turn_ms={args.turn_ms} "
                f"match_ms={args.match_ms or 0} A={args.engine1!r} B={args.engine2!r}\n"
            )

    # ---- one game ------------------------------------------------------------------------
    def play(self, number: int, opening: list[tuple[int, int]], black: int) -> GameResult:
        a = self.args
        res = GameResult(number, black, list(opening))
        board = Board(a.size)
        for i, (x, y) in enumerate(opening):
            board.place(x, y, i % 2)
        history = list(opening)
        players = {BLACK: black, WHITE: 1 - black}
        brains: list[Brain | None] = [None, None]
        started = [False, False]  # has received its first position (BEGIN/BOARD)
        used_ms = [0.0, 0.0]
        tag = f"g{number}"

        def lose(engine: int, reason: str) -> GameResult:
            res.winner = 1 - engine
            res.reason = f"{reason} by {self.names[engine]}"
            return res

        try:
            # Spawn and configure both brains, then wait for both OKs.
            for e in (0, 1):
                try:
                    brains[e] = Brain(self.cmds[e], self.names[e], self._stderr_logger(tag, e))
                except OSError as err:
                    with self.lock:
                        self.stats[e].start_failures += 1
                    return lose(e, f"start failure ({err})")
                try:
                    brains[e].send(
                        f"INFO timeout_turn {a.turn_ms}",
                        f"INFO timeout_match {a.match_ms or 0}",
                        f"INFO max_memory {a.max_memory}",
                        f"INFO rule {a.rule}",
                        f"START {a.size}",
                    )
                except BrainDied:
                    pass  # reported by the wait below
            for e in (0, 1):
                problem = self._wait_ok(brains[e], tag)
                if self.stop.is_set():
                    res.reason = "interrupted"
                    return res
                if problem:
                    with self.lock:
                        if problem.startswith("crash"):
                            self.stats[e].crashes += 1
                        else:
                            self.stats[e].start_failures += 1
                    return lose(e, problem)

            colour = len(history) % 2
            while True:
                if self.stop.is_set():
                    res.reason = "interrupted"
                    return res
                e = players[colour]
                brain = brains[e]
                assert brain is not None
                for line in brain.drain():
                    self._note_unsolicited(tag, e, line)
                lines = []
                if a.match_ms:
                    lines.append(f"INFO time_left {int(a.match_ms - used_ms[e])}")
                if not started[e]:
                    if history:
                        lines.append("BOARD")
                        lines += [f"{x},{y},{1 if i % 2 == colour else 2}" for i, (x, y) in enumerate(history)]
                        lines.append("DONE")
                    else:
                        lines.append("BEGIN")
                    started[e] = True
                else:
                    x, y = history[-1]
                    lines.append(f"TURN {x},{y}")

                limit_ms, loss_ms = self._limits(used_ms[e])
                try:
                    t0 = brain.send(*lines)
                except BrainDied as err:
                    with self.lock:
                        self.stats[e].crashes += 1
                    return lose(e, f"crash (stdin closed: {err})")
                kind, value, t1 = self._wait_move(brain, t0, loss_ms, tag, e)
                if self.stop.is_set():  # brains were killed under us: judge nothing
                    res.reason = "interrupted"
                    return res
                elapsed = (t1 - t0) * 1000.0
                ply = len(history) + 1
                if kind == "crash":
                    with self.lock:
                        self.stats[e].crashes += 1
                    return lose(e, f"crash ({value}) at ply {ply}")
                if kind == "timeout":
                    with self.lock:
                        self.stats[e].timeouts += 1
                    return lose(e, f"time-out (no move within {loss_ms:.0f} ms) at ply {ply}")
                used_ms[e] += elapsed
                self._record_time(e, elapsed, number, ply, limit_ms)
                if elapsed > loss_ms:
                    with self.lock:
                        self.stats[e].timeouts += 1
                    return lose(e, f"time-out ({elapsed:.0f} ms > {loss_ms:.0f} ms) at ply {ply}")
                if kind == "garbage":
                    with self.lock:
                        self.stats[e].illegal += 1
                    return lose(e, f"illegal move (unparsable {value!r}) at ply {ply}")
                x, y = value
                if not board.inside(x, y) or board.get(x, y):
                    why = "off-board" if not board.inside(x, y) else "occupied"
                    with self.lock:
                        self.stats[e].illegal += 1
                    res.moves.append((x, y))
                    return lose(e, f"illegal move ({why} {x},{y}) at ply {ply}")
                board.place(x, y, colour)
                history.append((x, y))
                res.moves.append((x, y))
                if a.verbose:
                    log(f"[{tag} {self.names[e]}] plays {x},{y} in {elapsed:.0f} ms")
                if board.wins(x, y, colour, a.rule):
                    res.winner = e
                    res.reason = f"five by {self.names[e]}"
                    return res
                if board.full():
                    res.reason = "draw (board full)"
                    return res
                colour = 1 - colour
        finally:
            Brain.close_many([b for b in brains if b is not None])
            with self.lock:
                for e, b in enumerate(brains):
                    if b is not None:
                        self.stats[e].stderr_lines += b.stderr_lines

    def _limits(self, used_ms: float) -> tuple[float | None, float]:
        """(per-move limit for the over-limit report, elapsed time beyond which the move loses)."""
        a = self.args
        limit = float(a.turn_ms) if a.turn_ms > 0 else None
        loss = limit + a.tolerance_ms if limit is not None else None
        if a.match_ms:
            remaining = a.match_ms - used_ms
            limit = remaining if limit is None else min(limit, remaining)
            loss = remaining + a.tolerance_ms if loss is None else min(loss, remaining + a.tolerance_ms)
        if loss is None:
            loss = float(NO_LIMIT_CAP_MS)
        return limit, loss

    def _wait_ok(self, brain: Brain | None, tag: str) -> str | None:
        """None when the brain answered START with OK, else a loss reason."""
        assert brain is not None
        deadline = time.monotonic() + START_TIMEOUT_MS / 1000
        while True:
            got = brain.read(deadline - time.monotonic())
            if got is None:
                return f"start failure (no OK to START within {START_TIMEOUT_MS} ms)"
            _, line = got
            if line is None:
                return f"crash (exit code {brain.proc.poll()} before OK to START)"
            if is_chatter(line):
                if self.args.verbose:
                    log(f"[{tag} {brain.name}] {line}")
                continue
            if line == "OK":
                return None
            return f"start failure (START answered {line!r})"

    def _wait_move(self, brain: Brain, t0: float, loss_ms: float, tag: str, e: int):
        """("move", (x, y), t) / ("garbage", line, t) / ("crash", why, t) / ("timeout", None, t)."""
        deadline = t0 + loss_ms / 1000
        while True:
            got = brain.read(deadline - time.monotonic())
            if got is None:
                return "timeout", None, time.monotonic()
            t, line = got
            if line is None:
                try:
                    code = brain.proc.wait(timeout=0.5)
                except Exception:
                    code = None
                return "crash", f"EOF, exit code {code}", t
            if is_chatter(line):
                if self.args.verbose:
                    log(f"[{tag} {brain.name}] {line}")
                continue
            mv = parse_move(line)
            if mv is not None:
                return "move", mv, t
            if looks_like_move(line):
                return "garbage", line, t
            with self.lock:
                self.stats[e].other_lines += 1
            log(f"[{tag} {brain.name}] ignored line while waiting for a move: {line!r}")

    def _note_unsolicited(self, tag: str, e: int, line: str) -> None:
        if is_chatter(line):
            if self.args.verbose:
                log(f"[{tag} {self.names[e]}] {line}")
            return
        with self.lock:
            self.stats[e].unsolicited += 1
        log(f"[{tag} {self.names[e]}] unsolicited line (not its turn): {line!r}")

    def _stderr_logger(self, tag: str, e: int):
        if not self.args.verbose:
            return None
        return lambda line: log(f"[{tag} {self.names[e]} stderr] {line}")

    def _record_time(self, e: int, ms: float, game: int, ply: int, limit: float | None) -> None:
        with self.lock:
            st = self.stats[e]
            st.move_ms.append(ms)
            if limit is not None and ms > limit:
                st.over_limit += 1
                log(f"[g{game} {self.names[e]}] over the limit: {ms:.0f} ms > {limit:.0f} ms at ply {ply}")
            if ms > self.slowest.ms:
                self.slowest = Slowest(ms, self.names[e], game, ply, limit)

    # ---- bookkeeping ---------------------------------------------------------------------
    def record(self, r: GameResult) -> None:
        with self.lock:
            self.results.append(r)
            if r.reason != "interrupted":
                for e in (0, 1):
                    st = self.stats[e]
                    if r.winner is None:
                        st.draws += 1
                    elif r.winner == e:
                        st.wins += 1
                    else:
                        st.losses += 1
            size = self.args.size
            if self.log_file:
                result = "1/2-1/2" if r.winner is None else ("1-0" if r.winner == r.black else "0-1")
                if r.reason == "interrupted":
                    result = "*"
                self.log_file.write(
                    f"game={r.number} black={self.names[r.black]} white={self.names[1 - r.black]} "
                    f"opening={''.join(fmt_move(x, y, size) for x, y in r.opening) or '-'} "
                    f"moves={''.join(fmt_move(x, y, size) for x, y in r.moves) or '-'} "
                    f"result={result} reason={r.reason}\n"
                )
                self.log_file.flush()
            done = sum(1 for g in self.results if g.reason != "interrupted")
            a_score = self.stats[0].wins + self.stats[0].draws / 2
            outcome = "" if r.winner is None else f"{self.names[r.winner]} wins, "
        out(
            f"game {r.number:>3}/{self.args.games}: black {self.names[r.black]}: {outcome}"
            f"{r.reason} after {len(r.opening) + len(r.moves)} stones   "
            f"[A {a_score:g}/{done}]"
        )


# ---------------------------------------------------------------------------------------------
# Summary
# ---------------------------------------------------------------------------------------------
def elo(score: float) -> float:
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def elo_interval(scores: list[float]) -> tuple[float, float]:
    """95% interval of the Elo difference: mean score +/- 1.96 standard errors (per-game scores)."""
    n = len(scores)
    mean = sum(scores) / n
    var = sum((s - mean) ** 2 for s in scores) / n
    se = math.sqrt(var / n)
    return elo(mean - 1.96 * se), elo(mean + 1.96 * se)


def elo_with_error(scores: list[float]) -> tuple[float, float]:
    """Elo of the mean score and the half-width of its 95% interval."""
    lo, hi = elo_interval(scores)
    return elo(sum(scores) / len(scores)), (hi - lo) / 2


def summary(m: Match, elapsed_s: float) -> int:
    a = m.args
    games = [r for r in m.results if r.reason != "interrupted"]
    n = len(games)
    out("")
    out(f"==== summary: {n} games in {elapsed_s:.0f} s, {a.size}x{a.size}, rule {a.rule} "
        f"({RULE_NAMES[a.rule]}), turn {a.turn_ms} ms, match {a.match_ms or 'none'}"
        f"{' ms' if a.match_ms else ''}, tolerance {a.tolerance_ms} ms ====")
    for e in (0, 1):
        out(f"{m.names[e]} = {' '.join(m.cmds[e])}")
    out("")
    out(f"{'engine':<8}{'W':>5}{'D':>5}{'L':>5}{'score':>9}")
    for e in (0, 1):
        st = m.stats[e]
        pct = f"{(st.wins + st.draws / 2) / n * 100:.1f}%" if n else "-"
        out(f"{m.names[e]:<8}{st.wins:>5}{st.draws:>5}{st.losses:>5}{pct:>9}")
    if n:
        scores = [0.5 if r.winner is None else (1.0 if r.winner == 0 else 0.0) for r in games]
        d, err = elo_with_error(scores)
        if math.isinf(d):
            out(f"Elo A-B: {'+' if d > 0 else '-'}inf (one side scored everything; play more games)")
        else:
            lo, hi = elo_interval(scores)
            out(f"Elo A-B: {d + 0.0:+.1f} +/- {err:.1f} (95% interval [{lo:+.1f}, {hi:+.1f}], {n} games)")
        reasons: dict[str, int] = {}
        for r in games:
            key = re.sub(r" at ply \d+| \(.*?\)", "", r.reason)
            reasons[key] = reasons.get(key, 0) + 1
        out("endings: " + ", ".join(f"{k}: {v}" for k, v in sorted(reasons.items())))
    out("")
    out(f"{'engine':<8}{'illegal':>8}{'crash':>7}{'start':>7}{'timeout':>9}{'over':>6}"
        f"{'moves':>7}{'median':>9}{'p99':>8}{'max':>8}   (ms; timeout = games lost on time, over = replies past the limit)")
    for e in (0, 1):
        st = m.stats[e]
        t = sorted(st.move_ms)
        med = statistics.median(t) if t else float("nan")
        out(f"{m.names[e]:<8}{st.illegal:>8}{st.crashes:>7}{st.start_failures:>7}{st.timeouts:>9}"
            f"{st.over_limit:>6}{len(t):>7}{med:>9.1f}{percentile(t, 99):>8.1f}"
            f"{(t[-1] if t else float('nan')):>8.1f}")
        extras = []
        if st.unsolicited:
            extras.append(f"{st.unsolicited} unsolicited stdout lines")
        if st.other_lines:
            extras.append(f"{st.other_lines} ignored non-move lines")
        if st.stderr_lines:
            extras.append(f"{st.stderr_lines} stderr lines")
        if extras:
            out(f"{'':<8}warning: " + ", ".join(extras))
    s = m.slowest
    if s.ms >= 0:
        if s.limit_ms is None:
            rel = "no per-move limit was set"
        elif s.ms <= s.limit_ms:
            rel = f"{s.ms / s.limit_ms * 100:.0f}% of the {s.limit_ms:.0f} ms limit, {s.limit_ms - s.ms:.0f} ms to spare"
        else:
            rel = (f"{s.ms / s.limit_ms * 100:.0f}% of the {s.limit_ms:.0f} ms limit, {s.ms - s.limit_ms:.0f} ms OVER "
                   f"(tolerance {a.tolerance_ms} ms)")
        out(f"slowest move: {s.ms:.1f} ms by {s.engine} (game {s.game}, ply {s.ply}): {rel}")
    if a.rule == 4:
        out("note: renju forbidden moves (double-three, double-four, overline for black) were not judged")
    problems = {
        "illegal moves": sum(st.illegal for st in m.stats),
        "crashes": sum(st.crashes for st in m.stats),
        "start failures": sum(st.start_failures for st in m.stats),
        "time losses": sum(st.timeouts for st in m.stats),
        "over-limit replies": sum(st.over_limit for st in m.stats),
        "games failed in the script": m.script_errors,
    }
    bad = {k: v for k, v in problems.items() if v}
    out("")
    out("RESULT: " + ("OK" if not bad else "FAIL (" + ", ".join(f"{v} {k}" for k, v in bad.items()) + ")"))
    return 0 if not bad else 1


# ---------------------------------------------------------------------------------------------
def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--engine1", default=DEFAULT_ENGINE, help="command of brain A (shell words)")
    p.add_argument("--engine2", default=DEFAULT_ENGINE, help="command of brain B (shell words)")
    p.add_argument("-n", "--games", type=int, default=10, help="number of games")
    p.add_argument("--size", type=int, default=15, help="board size (START n)")
    p.add_argument("--rule", type=int, default=0, choices=sorted(RULE_NAMES), help="INFO rule value")
    p.add_argument("--turn-ms", type=int, default=200, help="INFO timeout_turn, and the per-move limit")
    p.add_argument("--match-ms", type=int, default=None, help="INFO timeout_match (default: none, sends 0)")
    p.add_argument("--tolerance-ms", type=int, default=1000, help="a reply this much past the limit loses")
    p.add_argument("--max-memory", type=int, default=DEFAULT_MAX_MEMORY, help="INFO max_memory bytes")
    p.add_argument("--seed", type=int, default=None, help="opening seed (default: random, printed)")
    p.add_argument("--opening-stones", default="2-4", help="random opening size: K or MIN-MAX")
    p.add_argument("--openings", default=None,
                   help="file of openings in offset format (x,y, x,y ... from the centre), used in order")
    p.add_argument("-j", "--jobs", type=int, default=1, help="games in parallel (use 1 for timing)")
    p.add_argument("--out", "--pgn", dest="out", default=None, help="write one line per game to FILE")
    p.add_argument("-v", "--verbose", action="store_true", help="log moves, MESSAGE/DEBUG and stderr")
    a = p.parse_args(argv)
    if not 5 <= a.size <= 32:
        p.error("--size must be in 5..32")
    if a.games < 1 or a.jobs < 1 or a.turn_ms < 0 or a.tolerance_ms < 0:
        p.error("--games, --jobs must be positive; --turn-ms, --tolerance-ms not negative")
    m = re.fullmatch(r"(\d+)(?:-(\d+))?", a.opening_stones)
    if not m:
        p.error("--opening-stones: K or MIN-MAX")
    a.open_min = int(m.group(1))
    a.open_max = int(m.group(2) or m.group(1))
    if a.open_min > a.open_max or a.open_max > 8:
        p.error("--opening-stones: need MIN <= MAX <= 8")
    return a


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    a = parse_args(argv)
    # SIGTERM (and SIGINT even when inherited as ignored) stop the match cleanly: brains are
    # killed and the games finished so far are summarised.
    signal.signal(signal.SIGINT, _interrupt)
    signal.signal(signal.SIGTERM, _interrupt)
    if a.seed is None:
        a.seed = random.SystemRandom().randrange(1 << 31)
    for cmd in (a.engine1, a.engine2):
        exe = shlex.split(cmd)[0] if shlex.split(cmd) else ""
        if "/" in exe and not Path(exe).exists():
            out(f"error: {exe} does not exist (build it with `cargo build --release`)")
            return 2
    rng = random.Random(a.seed)
    n_openings = (a.games + 1) // 2
    if a.openings:
        book = read_openings(a.openings, a.size)
        openings = [book[i % len(book)] for i in range(n_openings)]
    else:
        openings = [random_opening(rng, a.size, rng.randint(a.open_min, a.open_max)) for _ in range(n_openings)]
    # Game 2i: A is black; game 2i+1: same opening, B is black.
    schedule = [(g + 1, openings[g // 2], g % 2) for g in range(a.games)]

    m = Match(a)
    out(f"selfplay: {a.games} games, {a.size}x{a.size}, rule {a.rule} ({RULE_NAMES[a.rule]}), "
        f"turn {a.turn_ms} ms, match {a.match_ms or 'none'}, seed {a.seed}, jobs {a.jobs}")
    if a.rule == 4:
        out("note: renju forbidden moves are not judged by this referee")
    t_start = time.monotonic()
    pool = ThreadPoolExecutor(max_workers=a.jobs)
    interrupted = False
    try:
        pending = {pool.submit(m.play, *g) for g in schedule}
        while pending:
            done, pending = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
            for f in done:
                try:
                    m.record(f.result())
                except Exception:  # a bug here must not lose the other games' results
                    m.script_errors += 1
                    log("selfplay: a game failed inside the script:\n" + traceback.format_exc())
    except KeyboardInterrupt:
        interrupted = True
        m.stop.set()
        out("interrupted: stopping games and killing brains")
        pool.shutdown(wait=False, cancel_futures=True)
        Brain.kill_all()
    finally:
        pool.shutdown(wait=not interrupted, cancel_futures=True)
        if m.log_file:
            m.log_file.close()
    code = summary(m, time.monotonic() - t_start)
    return 130 if interrupted else code


if __name__ == "__main__":
    sys.exit(main())
