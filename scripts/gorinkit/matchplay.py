"""Play a match between two Gomocup brains with an independent referee.

Usage: python3 scripts/match.py --engine ./target/release/pbrain-gorin \
           --engine "python3 scripts/greedy.py" --games 20 --turn-ms 200
       python3 scripts/match.py --engine ./new --name new --engine ./old --name old \
           --openings ../shared/data/openings/piskvork_openings.txt --games 200 -j 2 \
           --sgf games.sgf --jsonl games.jsonl --sprt 0 10 0.05 0.05
       python3 scripts/match.py --engine ./new --engine ./old --games 4000 --ray HEAD:6379

Each game speaks the protocol as a tournament manager does: INFO timeout_turn / timeout_match /
max_memory / rule / game_type (then --info, --info1, --info2), START (or RESTART with --reuse),
then BEGIN or BOARD for a brain's first move and TURN afterwards, INFO time_left before each move
when match time is set. Each opening is played twice with colours swapped. The referee
(referee.py) is independent of the engine: fives per rule, renju fouls, occupied / off-board /
unparsable moves, crashes and time (Gomocup clock: the match clock runs only on a brain's own
turns). Games run on local threads, or with `--ray` each on a Ray worker (gorinkit/dispatch.py),
which sends back its result and counts; the records are written here either way.

Exit status: 0 when no brain made an illegal move, crashed, failed START, lost on time or answered
later than the per-move limit; 1 otherwise; 2 on bad arguments; 130 when interrupted.
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import os
import random
import re
import shlex
import signal
import statistics
import threading
import time
import traceback
from collections import Counter
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field, fields
from pathlib import Path

from . import dispatch
from .brain import Brain, BrainDied, log, out, percentile
from .protocol import board_lines, is_chatter, looks_like_move, parse_move
from .openrules import Foul, parse_reply, parse_rule, play_opening
from .paths import DEFAULT_ENGINE
from .referee import (
    BLACK,
    MAX_SIZE,
    MIN_SIZE,
    RENJU,
    RENJU_PACKAGE,
    RULE_NAMES,
    WHITE,
    Board,
    OpeningError,
    extend_opening,
    fmt_move,
    is_draw,
    random_opening,
    read_openings,
    to_psq,
    to_sgf,
)

DEFAULT_MAX_MEMORY = 367_001_600
START_TIMEOUT_MS = 10_000  # wait for OK to START / RESTART
NO_LIMIT_CAP_MS = 60_000  # per-move wait when neither turn nor match time limits it
INTERPRETERS = re.compile(r"^(python[\d.]*|pypy[\d.]*|env|wine|bash|sh|node|java|nice|taskset)$")

# Loss kinds, in the order the summary prints them.
LOSS_KINDS = ("time", "crash", "occupied", "off-board", "unparsable", "forbidden", "protocol", "start")


class Loss(Exception):
    """Raised inside a game: `engine` loses for `kind` (one of LOSS_KINDS)."""

    def __init__(self, engine: int, kind: str, detail: str):
        super().__init__(detail)
        self.engine, self.kind, self.detail = engine, kind, detail


class Fallback(Exception):
    """A brain answered UNKNOWN/ERROR to SWAP2BOARD: play the normal opening instead."""


class Interrupted(Exception):
    pass


@dataclass
class EngineStats:
    wins: int = 0
    draws: int = 0
    losses: int = 0
    loss_kinds: Counter = field(default_factory=Counter)
    over_limit: int = 0  # replies later than the bare per-move limit (time losses included)
    unsolicited: int = 0  # lines while it was not this brain's turn
    other_lines: int = 0  # non-move, non-MESSAGE/DEBUG lines while waiting for a move
    stderr_lines: int = 0
    swap2_unsupported: int = 0
    move_ms: list[float] = field(default_factory=list)
    slowest: tuple[float, int, int, float | None] = (-1.0, 0, 0, None)  # ms, game, ply, limit

    def add(self, other: "EngineStats") -> None:
        """Adds the counts of `other` (a game played in another process) to these."""
        for f in fields(self):
            mine, theirs = getattr(self, f.name), getattr(other, f.name)
            if f.name == "slowest":
                setattr(self, f.name, max(mine, theirs, key=lambda s: s[0]))
            elif isinstance(mine, list):
                mine.extend(theirs)
            elif isinstance(mine, Counter):
                mine.update(theirs)
            else:
                setattr(self, f.name, mine + theirs)


@dataclass
class GameResult:
    number: int
    black: int  # engine index playing black
    opening: list[tuple[int, int]]  # stones before the brains' own moves (incl. swap2 stones)
    moves: list[tuple[int, int]] = field(default_factory=list)
    times_ms: list[int] = field(default_factory=list)
    winner: int | None = None  # engine index, None = draw
    reason: str = ""
    kind: str = ""  # "five", "draw", or a loss kind
    note: str = ""

    @property
    def result(self) -> str:
        if self.kind == "interrupted":
            return "*"
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner == self.black else "0-1"


def derive_name(cmd: list[str]) -> str:
    for word in cmd:
        base = os.path.basename(word)
        if word.startswith("-") or INTERPRETERS.match(base):
            continue
        base = re.sub(r"\.(py|exe)$", "", base)
        return re.sub(r"^pbrain-", "", base) or base
    return "engine"


# ---------------------------------------------------------------------------------------------
# Statistics
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


def pair_means(games: Iterable[tuple[Hashable, float]]) -> list[float]:
    """The mean score of each pair of games played from the same opening (`(opening, score)` in
    the order played: match.py plays each opening twice with the colours swapped), in the order
    the pairs complete; a game whose partner is missing is left out."""
    waiting: dict[Hashable, float] = {}
    means = []
    for key, s in games:
        if key in waiting:
            means.append((waiting.pop(key) + s) / 2)
        else:
            waiting[key] = s
    return means


def pair_counts(means: list[float]) -> list[int]:
    """How many pairs scored 0, 0.5, 1, 1.5 and 2 points of 2."""
    counts = [0] * 5
    for m in means:
        counts[round(m * 4)] += 1
    return counts


def paired_elo_text(means: list[float]) -> str:
    """The Elo interval over pairs of games from one opening (the pentanomial model: a pair is one
    sample), which the opening's own bias does not widen: where the opening decides most games,
    each pair splits 1-1 whoever plays better, and per-game errors overstate the doubt."""
    if len(means) < 2:
        return "paired by opening: fewer than 2 pairs"
    d, err = elo_with_error(means)
    elo = f"Elo {'+' if d > 0 else '-'}inf" if math.isinf(d) else f"Elo {d + 0.0:+.1f} +/- {err:.1f} (95%)"
    counts = "/".join(str(c) for c in pair_counts(means))
    return f"paired by opening: {len(means)} pairs, {elo}; pairs scoring 0/0.5/1/1.5/2 of 2: {counts}"


def sprt_llr(scores: list[float], elo0: float, elo1: float) -> float:
    """Log-likelihood ratio of H1 (elo1) against H0 (elo0), normal approximation of the score
    (the GSPRT of fishtest / cutechess): LLR = (s1 - s0) (2 S - n (s0 + s1)) / (2 var)."""
    n = len(scores)
    if n < 2:
        return 0.0
    mean = sum(scores) / n
    var = sum((s - mean) ** 2 for s in scores) / n
    if var <= 0:
        var = 1e-3  # one-sided so far: keep the ratio finite, it only grows with more games
    s0 = 1 / (1 + 10 ** (-elo0 / 400))
    s1 = 1 / (1 + 10 ** (-elo1 / 400))
    return (s1 - s0) * (2 * sum(scores) - n * (s0 + s1)) / (2 * var)


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


# ---------------------------------------------------------------------------------------------
# The match
# ---------------------------------------------------------------------------------------------
class Match:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.cmds = [shlex.split(c) for c in args.engine]
        self.names = list(args.names)
        self.infos = [args.info + args.info1, args.info + args.info2]
        self.stats = [EngineStats(), EngineStats()]
        self.results: list[GameResult] = []
        self.lock = threading.Lock()
        self.stop = threading.Event()  # interrupt: abandon games in progress
        self.no_new_games = threading.Event()  # SPRT decided: finish running games only
        self.sprt_verdict: str | None = None
        self.script_errors = 0  # games lost to an exception in this script
        self.local = threading.local()  # reused brains of this worker thread
        self.pooled: list[list[Brain | None]] = []
        self.files = {}
        for key in ("out", "sgf", "jsonl"):
            path = getattr(args, key)
            if path:
                self.files[key] = open(path, "w")
        if args.psq:
            Path(args.psq).mkdir(parents=True, exist_ok=True)
        if "out" in self.files:
            self.files["out"].write(
                f"# match size={args.size} rule={args.rule} turn_ms={args.turn_ms} "
                f"match_ms={args.match_ms or 0} A={self.names[0]}={args.engine[0]!r} "
                f"B={self.names[1]}={args.engine[1]!r}\n"
            )

    # ---- brains --------------------------------------------------------------------------
    def _stderr_logger(self, tag: str, e: int):
        if not self.args.verbose:
            return None
        return lambda line: log(f"[{tag} {self.names[e]} stderr] {line}")

    def _info_lines(self, e: int) -> list[str]:
        a = self.args
        lines = [
            f"INFO timeout_turn {a.turn_ms}",
            f"INFO timeout_match {a.match_ms or 0}",
            f"INFO max_memory {a.max_memory}",
            f"INFO rule {a.rule}",
            "INFO game_type 1",
        ]
        lines += [f"INFO {k} {v}" for k, v in self.infos[e]]
        return lines

    def _open_brains(self, tag: str) -> list[Brain]:
        """Both brains, configured and answered OK to START/RESTART; raises Loss."""
        a = self.args
        pair: list[Brain | None] = [None, None]
        if a.reuse:
            if not hasattr(self.local, "pair"):
                self.local.pair = [None, None]
                with self.lock:
                    self.pooled.append(self.local.pair)
            pair = self.local.pair
        restarted = [False, False]
        for e in (0, 1):
            b = pair[e]
            if b is not None and b.alive():
                for line in b.drain():
                    self._note_unsolicited(tag, e, line)
                try:
                    b.send(*self._info_lines(e), "RESTART")
                    restarted[e] = True
                    continue
                except BrainDied:
                    b.close(0.5)
            try:
                pair[e] = Brain(self.cmds[e], self.names[e], self._stderr_logger(tag, e))
            except OSError as err:
                raise Loss(e, "start", f"start failure ({err})") from None
            try:
                pair[e].send(*self._info_lines(e), start_command(a))
            except BrainDied:
                pass  # reported by the wait below
        for e in (0, 1):
            b = pair[e]
            assert b is not None
            answer = self._wait_ok(b, e, tag)
            if answer is not None and restarted[e] and re.match(r"(UNKNOWN|ERROR)\b", answer):
                # RESTART is optional in the protocol: fall back to START, as Piskvork does.
                try:
                    b.send(start_command(a))
                except BrainDied:
                    pass
                answer = self._wait_ok(b, e, tag)
            if answer is not None:
                kind = "crash" if answer.startswith("crash") else "start"
                raise Loss(e, kind, answer)
        return [b for b in pair if b is not None]

    def _release_brains(self, brains: list[Brain], clean: bool) -> None:
        with self.lock:
            for e, b in enumerate(brains):
                self.stats[e].stderr_lines += b.stderr_lines
                b.stderr_lines = 0
        if self.args.reuse and clean and all(b.alive() for b in brains):
            return  # kept for the next game of this worker
        Brain.close_many(brains)
        if self.args.reuse and hasattr(self.local, "pair"):
            self.local.pair[0] = self.local.pair[1] = None

    def close_pooled(self) -> None:
        brains = [b for pair in self.pooled for b in pair if b is not None]
        Brain.close_many(brains)

    def _wait_ok(self, brain: Brain, e: int, tag: str) -> str | None:
        """None when the brain answered OK, else what went wrong (its answer or a reason)."""
        deadline = time.monotonic() + START_TIMEOUT_MS / 1000
        while True:
            got = brain.read(deadline - time.monotonic())
            if got is None:
                return f"start failure (no OK within {START_TIMEOUT_MS} ms)"
            _, line = got
            if line is None:
                return f"crash (exit code {brain.proc.poll()} before OK to START)"
            if is_chatter(line):
                if self.args.verbose:
                    log(f"[{tag} {brain.name}] {line}")
                continue
            if line == "OK":
                return None
            if re.match(r"(UNKNOWN|ERROR)\b", line):
                return line
            return f"start failure (answered {line!r})"

    def _note_unsolicited(self, tag: str, e: int, line: str) -> None:
        if is_chatter(line):
            if self.args.verbose:
                log(f"[{tag} {self.names[e]}] {line}")
            return
        with self.lock:
            self.stats[e].unsolicited += 1
        log(f"[{tag} {self.names[e]}] unsolicited line (not its turn): {line!r}")

    # ---- clock ---------------------------------------------------------------------------
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

    def _ask(self, g: "Game", e: int, lines: list[str], accept) -> object:
        """Send `lines` to brain e (INFO time_left first when match time is set), wait for a line
        that `accept` turns into a value (not None), charge the time; raises Loss."""
        a = self.args
        brain = g.brains[e]
        for line in brain.drain():
            self._note_unsolicited(g.tag, e, line)
        if a.match_ms:
            lines = [f"INFO time_left {int(a.match_ms - g.used_ms[e])}"] + lines
        if a.send_delay_ms and g.last_reply[e] is not None:
            pause = g.last_reply[e] + a.send_delay_ms / 1000 - time.monotonic()
            if pause > 0:
                time.sleep(pause)
        limit_ms, loss_ms = self._limits(g.used_ms[e])
        ply = len(g.history) + 1
        try:
            t0 = brain.send(*lines)
        except BrainDied as err:
            raise Loss(e, "crash", f"crash (stdin closed: {err}) at ply {ply}") from None
        deadline = t0 + loss_ms / 1000
        while True:
            got = brain.read(deadline - time.monotonic())
            if self.stop.is_set():
                raise Interrupted()
            if got is None:
                raise Loss(e, "time", f"time-out (no reply within {loss_ms:.0f} ms) at ply {ply}")
            t1, line = got
            if line is None:
                try:
                    code = brain.proc.wait(timeout=0.5)
                except Exception:
                    code = None
                raise Loss(e, "crash", f"crash (EOF, exit code {code}) at ply {ply}")
            if is_chatter(line):
                if a.verbose:
                    log(f"[{g.tag} {brain.name}] {line}")
                continue
            value = accept(line)
            if value is None and looks_like_move(line):
                value = ("unparsable", line)
            if value is not None:
                break
            if a.strict:
                raise Loss(e, "protocol", f"protocol error (line {line!r} instead of a move) at ply {ply}")
            with self.lock:
                self.stats[e].other_lines += 1
            log(f"[{g.tag} {brain.name}] ignored line while waiting for a move: {line!r}")
        g.last_reply[e] = t1
        elapsed = (t1 - t0) * 1000.0
        g.used_ms[e] += elapsed
        g.last_ms = elapsed
        with self.lock:
            st = self.stats[e]
            st.move_ms.append(elapsed)
            if limit_ms is not None and elapsed > limit_ms:
                st.over_limit += 1
                log(f"[{g.tag} {self.names[e]}] over the limit: {elapsed:.0f} ms > {limit_ms:.0f} ms at ply {ply}")
            if elapsed > st.slowest[0]:
                st.slowest = (elapsed, g.number, ply, limit_ms)
        if elapsed > loss_ms:
            raise Loss(e, "time", f"time-out ({elapsed:.0f} ms > {loss_ms:.0f} ms) at ply {ply}")
        if isinstance(value, tuple) and len(value) == 2 and value[0] == "unparsable":
            raise Loss(e, "unparsable", f"illegal move (unparsable {value[1]!r}) at ply {ply}")
        return value

    # ---- one game ------------------------------------------------------------------------
    def play(self, number: int, opening: list[tuple[int, int]], first: int) -> GameResult:
        """Game `number`: engine `first` is black (or the swap2 opener)."""
        if self.stop.is_set() or self.no_new_games.is_set():
            return GameResult(number, first, list(opening), kind="skipped")
        g = Game(self, number, opening, first)
        res = g.result
        clean = False
        try:
            g.brains = self._open_brains(g.tag)
            if self.args.opening_rule:
                self._opening_rule(g)
            elif self.args.swap2:
                try:
                    self._swap2(g)
                except Fallback as why:
                    res.note = f"swap2 unsupported ({why}); normal opening"
                    g.reset_opening(opening, first)
            g.opening_len = len(g.history)
            self._game_loop(g)
            clean = True
        except Loss as loss:
            res.winner = 1 - loss.engine
            res.kind = loss.kind
            res.reason = f"{loss.detail} by {self.names[loss.engine]}"
            clean = loss.kind == "forbidden"
        except Interrupted:
            res.kind = "interrupted"
            res.reason = "interrupted"
        finally:
            if g.brains:
                self._release_brains(g.brains, clean)
        res.black = g.players[BLACK]
        res.opening = g.history[:g.opening_len]
        res.moves = g.history[g.opening_len:]
        res.times_ms = g.times[g.opening_len:]
        return res

    def _game_loop(self, g: "Game") -> None:
        a = self.args
        res = g.result
        while True:
            if self.stop.is_set():
                raise Interrupted()
            colour = len(g.history) % 2
            e = g.players[colour]
            if not g.started[e]:
                if g.history:
                    lines = board_lines(g.history)
                else:
                    lines = ["BEGIN"]
                g.started[e] = True
            else:
                x, y = g.history[-1]
                lines = [f"TURN {x},{y}"]
            x, y = self._ask(g, e, lines, parse_move)
            ply = len(g.history) + 1
            if not g.board.inside(x, y) or g.board.get(x, y):
                g.add((x, y))
                why = "off-board" if not g.board.inside(x, y) else "occupied"
                raise Loss(e, why, f"illegal move ({why} {x},{y}) at ply {ply}")
            if a.verbose:
                log(f"[{g.tag} {self.names[e]}] plays {x},{y} in {g.last_ms:.0f} ms")
            g.board.place(x, y, colour)
            g.add((x, y))
            if g.board.wins(x, y, colour, a.rule):
                res.winner, res.kind = e, "five"
                res.reason = f"five by {self.names[e]}"
                return
            if a.rule == RENJU and colour == BLACK:
                foul = g.board.renju_foul(x, y)
                if foul:
                    raise Loss(e, "forbidden", f"forbidden move ({foul} {x},{y}) at ply {ply}")
            if is_draw(g.board, a.rule):
                res.kind = "draw"
                res.reason = "draw (board full)" if g.board.full() else \
                    f"draw ({g.board.empty_points()} empty points)"
                return

    def _swap2(self, g: "Game") -> None:
        """Swap2 as Gomocup runs it: the opener (engine `first`) places 3 stones; the responder
        answers SWAP (takes black), one move (stays white) or two moves (then the opener answers
        SWAP, taking black, or one white move). Colours follow; the game goes on with BOARD."""
        opener, responder = g.first, 1 - g.first
        g.reset_opening([], opener)

        def stones(line: str):
            if re.match(r"(UNKNOWN|ERROR)\b", line):
                return ("fallback", line)
            if line.strip().upper() == "SWAP":
                return []
            parts = line.replace(",", " ").split()
            if parts and len(parts) % 2 == 0 and all(re.fullmatch(r"-?\d+", p) for p in parts):
                return [(int(parts[i]), int(parts[i + 1])) for i in range(0, len(parts), 2)]
            return None

        def ask(e: int, allowed: tuple[int, ...]) -> list[tuple[int, int]]:
            lines = ["SWAP2BOARD"] + [f"{x},{y}" for x, y in g.history] + ["DONE"]
            got = self._ask(g, e, lines, stones)
            if isinstance(got, tuple):
                with self.lock:
                    self.stats[e].swap2_unsupported += 1
                raise Fallback(f"{self.names[e]} answered {got[1]!r}")
            if len(got) not in allowed:
                raise Loss(e, "unparsable", f"illegal swap2 answer ({len(got)} stones) at ply {len(g.history) + 1}")
            for x, y in got:
                colour = len(g.history) % 2
                ply = len(g.history) + 1
                if not g.board.inside(x, y) or g.board.get(x, y):
                    why = "off-board" if not g.board.inside(x, y) else "occupied"
                    raise Loss(e, why, f"illegal swap2 stone ({why} {x},{y}) at ply {ply}")
                g.board.place(x, y, colour)
                g.add((x, y))
                if g.board.wins(x, y, colour, self.args.rule):
                    raise Loss(e, "unparsable", f"illegal swap2 stone (a five at {x},{y}) at ply {ply}")
            return got

        ask(opener, (3,))
        got = ask(responder, (0, 1, 2))
        if len(got) == 0:  # SWAP: the responder takes black, the opener plays white next
            g.players = {BLACK: responder, WHITE: opener}
        elif len(got) == 1:  # the responder stays white and has played
            g.players = {BLACK: opener, WHITE: responder}
        else:  # the opener chooses
            got = ask(opener, (0, 1))
            if len(got) == 0:  # SWAP: the opener takes black, the responder plays white next
                g.players = {BLACK: opener, WHITE: responder}
            else:
                g.players = {BLACK: responder, WHITE: opener}
        g.result.note = f"swap2: black {self.names[g.players[BLACK]]}"
        g.started = [False, False]  # both get BOARD for their first game move

    def _opening_rule(self, g: "Game") -> None:
        """A tournament opening rule (--opening-rule) through the YXOPENING commands; the
        referee (openrules.py) checks every answer. Colours follow the swaps; the game goes on
        with BOARD for both brains."""
        rule = self.args.opening_rule
        g.reset_opening([], g.first)

        def follow(stones) -> None:
            """The game record takes the referee's stones as they come (ply numbers in reports)."""
            for i in range(len(g.history), len(stones)):
                x, y = stones[i]
                g.board.place(x, y, i % 2)
                g.add((x, y))

        def ask(e: int, verb: str, declared, stones, offers):
            follow(stones)
            head = f"YXOPENING{verb} {rule.name}" + ("" if declared is None else f" {declared}")
            return self._ask(g, e, [head] + [f"{x},{y}" for x, y in stones + offers] + ["DONE"], parse_reply)

        try:
            stones, players, note = play_opening(rule, g.width, g.height, g.first, ask)
        except Foul as foul:
            raise Loss(foul.engine, foul.kind, f"{foul.detail} in the opening") from None
        follow(stones)
        g.players = dict(players)
        g.result.note = f"{rule.name}: black {self.names[g.players[BLACK]]}; {note}"
        g.started = [False, False]  # both get BOARD for their first game move

    # ---- bookkeeping ---------------------------------------------------------------------
    def record(self, r: GameResult) -> None:
        a = self.args
        if r.kind == "skipped":
            return
        with self.lock:
            self.results.append(r)
            done = [g for g in self.results if g.kind != "interrupted"]
            if r.kind != "interrupted":
                for e in (0, 1):
                    st = self.stats[e]
                    if r.winner is None:
                        st.draws += 1
                    elif r.winner == e:
                        st.wins += 1
                    else:
                        st.losses += 1
                        if r.kind in LOSS_KINDS:
                            st.loss_kinds[r.kind] += 1
            self._write_records(r)
            a_score = self.stats[0].wins + self.stats[0].draws / 2
            black, white = self.names[r.black], self.names[1 - r.black]
            plies = len(r.opening) + len(r.moves)
            note = f"  ({r.note})" if r.note else ""
            out(f"game {r.number:>4}/{a.games}  black {black:<10} white {white:<10} {r.result:<8}"
                f"{r.reason}, {plies} plies  [{self.names[0]} {a_score:g}/{len(done)}]{note}")
            if a.sprt and self.sprt_verdict is None and r.kind != "interrupted":
                elo0, elo1, alpha, beta = a.sprt
                llr = sprt_llr(scores_of(done), elo0, elo1)
                lo, hi = sprt_bounds(alpha, beta)
                if llr <= lo or llr >= hi:
                    self.sprt_verdict = (f"SPRT: LLR {llr:.2f} crossed [{lo:.2f}, {hi:.2f}] after {len(done)} "
                                         f"games: {'H1' if llr >= hi else 'H0'} accepted "
                                         f"(elo0 {elo0:g}, elo1 {elo1:g})")
                    self.no_new_games.set()

    def _write_records(self, r: GameResult) -> None:
        a = self.args
        black, white = self.names[r.black], self.names[1 - r.black]
        all_moves = r.opening + r.moves
        times = [0] * len(r.opening) + r.times_ms
        if "out" in self.files:
            self.files["out"].write(
                f"game={r.number} black={black} white={white} "
                f"opening={''.join(fmt_move(x, y, a.width) for x, y in r.opening) or '-'} "
                f"moves={''.join(fmt_move(x, y, a.width) for x, y in r.moves) or '-'} "
                f"result={r.result} reason={r.reason}\n")
            self.files["out"].flush()
        if r.kind == "interrupted":
            return
        if "sgf" in self.files:
            sgf_result = "0" if r.winner is None else ("B+" if r.winner == r.black else "W+")
            if r.kind in LOSS_KINDS:
                sgf_result += "T" if r.kind == "time" else "F"
            sz = a.size if a.width == a.height else f"{a.width}:{a.height}"  # SGF's SZ[w:h]
            self.files["sgf"].write(to_sgf(sz, all_moves, black, white, sgf_result, a.rule,
                                           f"game {r.number}: {r.reason}", len(r.opening)))
            self.files["sgf"].flush()
        if a.psq:
            path = Path(a.psq) / f"game_{r.number:04d}.psq"
            path.write_text(to_psq(a.width, all_moves, times, black, white, a.height))
        if "jsonl" in self.files:
            entry = {
                "game": r.number, "size": a.size, "width": a.width, "height": a.height, "rule": a.rule,
                "black": black, "white": white,
                "opening": [list(m) for m in r.opening], "moves": [list(m) for m in r.moves],
                "times_ms": r.times_ms, "result": r.result,
                "winner": None if r.winner is None else self.names[r.winner],
                "winner_colour": None if r.winner is None else ("black" if r.winner == r.black else "white"),
                "reason": r.reason, "kind": r.kind, "note": r.note,
                "turn_ms": a.turn_ms, "match_ms": a.match_ms or 0,
            }
            self.files["jsonl"].write(json.dumps(entry) + "\n")
            self.files["jsonl"].flush()

    def close_files(self) -> None:
        for f in self.files.values():
            f.close()


class Game:
    """The state of one game in progress."""

    def __init__(self, m: Match, number: int, opening: list[tuple[int, int]], first: int):
        self.number = number
        self.tag = f"g{number}"
        self.first = first
        self.brains: list[Brain] = []
        self.used_ms = [0.0, 0.0]
        self.last_reply: list[float | None] = [None, None]
        self.last_ms = 0.0
        self.size = m.args.size
        self.width, self.height = m.args.width, m.args.height
        self.result = GameResult(number, first, list(opening))
        self.reset_opening(opening, first)

    def reset_opening(self, opening: list[tuple[int, int]], black: int) -> None:
        self.board = Board(self.width, self.height)
        for i, (x, y) in enumerate(opening):
            self.board.place(x, y, i % 2)
        self.history = list(opening)
        self.opening_len = len(opening)  # stones the brains did not play in this game
        self.times = [0] * len(opening)
        self.players = {BLACK: black, WHITE: 1 - black}
        self.started = [False, False]  # has received its first position (BEGIN/BOARD)

    def add(self, move: tuple[int, int]) -> None:
        self.history.append(move)
        self.times.append(int(round(self.last_ms)))


def scores_of(games: list[GameResult]) -> list[float]:
    """Engine A's score per game."""
    return [0.5 if r.winner is None else (1.0 if r.winner == 0 else 0.0) for r in games]


# ---------------------------------------------------------------------------------------------
# Summary
# ---------------------------------------------------------------------------------------------
def colour_record(games: list, e: int, as_black: bool) -> str:
    """Wins, losses and draws of engine `e` in the games where it had black (or white)."""
    mine = [r for r in games if (r.black == e) == as_black]
    wins = sum(1 for r in mine if r.winner == e)
    draws = sum(1 for r in mine if r.winner is None)
    return f"{wins}-{len(mine) - wins - draws}-{draws}"


def summary(m: Match, elapsed_s: float) -> int:
    a = m.args
    games = [r for r in m.results if r.kind != "interrupted"]
    n = len(games)
    A, B = m.names
    out("")
    out(f"==== {n} games in {elapsed_s:.0f} s, {a.board}, rule {a.rule} ({RULE_NAMES[a.rule]}), "
        f"turn {a.turn_ms} ms, match {str(a.match_ms) + ' ms' if a.match_ms else 'none'}, "
        f"tolerance {a.tolerance_ms} ms, seed {a.seed} ====")
    for e in (0, 1):
        extra = " ".join(f"{k}={v}" for k, v in m.infos[e])
        out(f"{m.names[e]} = {' '.join(m.cmds[e])}" + (f"   (INFO {extra})" if extra else ""))
    if n:
        st = m.stats[0]
        scores = scores_of(games)
        pct = sum(scores) / n * 100
        d, err = elo_with_error(scores)
        if math.isinf(d):
            elo_text = f"Elo {'+' if d > 0 else '-'}inf (one side scored everything)"
        else:
            elo_text = f"Elo {d + 0.0:+.1f} +/- {err:.1f} (95%)"
        endings = Counter(re.sub(r" at ply \d+| \(.*?\)| by .*", "", r.reason) for r in games)
        out("endings: " + ", ".join(f"{k}: {v}" for k, v in sorted(endings.items())))
        black_wins = sum(1 for r in games if r.winner is not None and r.winner == r.black)
        out(f"black won {black_wins}, white won {sum(1 for r in games if r.winner is not None) - black_wins}, "
            f"draws {sum(1 for r in games if r.winner is None)}")
        out(f"{A} as black {colour_record(games, 0, True)}, as white {colour_record(games, 0, False)} (W-L-D)")
    out("")
    out(f"{'engine':<12}{'W':>5}{'L':>5}{'D':>5}{'time':>6}{'crash':>6}{'occup':>6}{'offbd':>6}{'unpar':>6}"
        f"{'forbid':>7}{'proto':>6}{'start':>6}{'over':>6}{'moves':>7}{'median':>8}{'p99':>8}{'max':>8}")
    for e in (0, 1):
        st = m.stats[e]
        t = sorted(st.move_ms)
        med = statistics.median(t) if t else float("nan")
        k = st.loss_kinds
        out(f"{m.names[e]:<12}{st.wins:>5}{st.losses:>5}{st.draws:>5}{k['time']:>6}{k['crash']:>6}"
            f"{k['occupied']:>6}{k['off-board']:>6}{k['unparsable']:>6}{k['forbidden']:>7}{k['protocol']:>6}"
            f"{k['start']:>6}{st.over_limit:>6}{len(t):>7}{med:>8.1f}{percentile(t, 99):>8.1f}"
            f"{(t[-1] if t else float('nan')):>8.1f}")
    out("(losses by kind: time, crash, occupied, off-board, unparsable, renju forbidden, protocol (--strict), "
        "start; over = replies later than the bare limit but within tolerance or lost on time; ms)")
    for e in (0, 1):
        st = m.stats[e]
        ms, game, ply, limit = st.slowest
        if ms >= 0:
            if limit is None:
                rel = "no per-move limit"
            elif ms <= limit:
                rel = f"{ms / limit * 100:.0f}% of the {limit:.0f} ms limit"
            else:
                rel = f"{ms - limit:.0f} ms OVER the {limit:.0f} ms limit (tolerance {a.tolerance_ms} ms)"
            out(f"slowest move of {m.names[e]}: {ms:.1f} ms (game {game}, ply {ply}): {rel}")
        extras = []
        if st.unsolicited:
            extras.append(f"{st.unsolicited} unsolicited stdout lines")
        if st.other_lines:
            extras.append(f"{st.other_lines} ignored non-move lines")
        if st.stderr_lines:
            extras.append(f"{st.stderr_lines} stderr lines")
        if st.swap2_unsupported:
            extras.append(f"answered UNKNOWN/ERROR to SWAP2BOARD {st.swap2_unsupported} times "
                          "(those games used the normal opening)")
        if extras:
            out(f"warning: {m.names[e]}: " + ", ".join(extras))
    if a.rule == RENJU and not RENJU_PACKAGE:
        out("note: renju adjudication of forbidden moves is unavailable: black's overline is judged, "
            "double-three and double-four are not (pip install renju to judge them)")
    if m.sprt_verdict:
        out(m.sprt_verdict)
    elif a.sprt and n:
        elo0, elo1, alpha, beta = a.sprt
        lo, hi = sprt_bounds(alpha, beta)
        out(f"SPRT: LLR {sprt_llr(scores_of(games), elo0, elo1):.2f} within [{lo:.2f}, {hi:.2f}]: no decision")
    # Per engine, so that a FAIL says whose replies were at fault.
    per_engine = {
        "time losses": [st.loss_kinds["time"] for st in m.stats],
        "crashes": [st.loss_kinds["crash"] for st in m.stats],
        "illegal moves": [sum(st.loss_kinds[k] for k in ("occupied", "off-board", "unparsable", "protocol"))
                          for st in m.stats],
        "start failures": [st.loss_kinds["start"] for st in m.stats],
        "over-limit replies": [st.over_limit for st in m.stats],
    }
    bad = {}
    for kind, counts in per_engine.items():
        if sum(counts):
            whose = ", ".join(f"{m.names[e]} {c}" for e, c in enumerate(counts) if c)
            bad[kind] = f"{kind}: {whose}"
    if m.script_errors:
        bad["script"] = f"{m.script_errors} games failed in the script"
    out("")
    if n:
        st = m.stats[0]
        out(f"Score of {A} vs {B}: {st.wins} - {st.losses} - {st.draws}  [{pct:.1f}%]  {elo_text}")
        out(paired_elo_text(pair_means((tuple(map(tuple, r.opening)), s) for r, s in zip(games, scores_of(games)))))
    out("RESULT: " + ("OK" if not bad else "FAIL (" + ", ".join(bad.values()) + ")"))
    return 0 if not bad else 1


# ---------------------------------------------------------------------------------------------
def key_value(text: str) -> tuple[str, str]:
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"expected key=value, got {text!r}")
    k, v = text.split("=", 1)
    if not k.strip() or " " in k.strip():
        raise argparse.ArgumentTypeError(f"bad INFO key in {text!r}")
    return k.strip(), v.strip()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--engine", action="append", default=[],
                   help="brain command (shell words); give it twice (default: pbrain-gorin)")
    p.add_argument("--name", action="append", default=[], help="names of the engines, in order")
    p.add_argument("-n", "--games", type=int, default=10, help="number of games")
    p.add_argument("--size", type=int, default=15, help="board size (START n), 5..32")
    p.add_argument("--rect", default=None, metavar="W,H",
                   help="rectangular board W wide, H high (RECTSTART W,H; overrides --size; random openings only)")
    p.add_argument("--rule", type=int, default=0, choices=sorted(RULE_NAMES), help="INFO rule value")
    p.add_argument("--turn-ms", type=int, default=200, help="INFO timeout_turn, and the per-move limit (0: none; but a brain told timeout_turn 0 "
                        "answers at once, Gorin from a shallow search: for a node limit, give a turn "
                        "long enough for it with --info max_node=N)")
    p.add_argument("--match-ms", type=int, default=None, help="INFO timeout_match (default: none, sends 0)")
    p.add_argument("--tolerance-ms", type=int, default=1000, help="a reply this much past the limit loses")
    p.add_argument("--max-memory", type=int, default=DEFAULT_MAX_MEMORY, help="INFO max_memory bytes")
    p.add_argument("--info", action="append", type=key_value, default=[], metavar="KEY=VALUE",
                   help="extra INFO line for both engines (repeatable)")
    p.add_argument("--info1", action="append", type=key_value, default=[], metavar="KEY=VALUE",
                   help="extra INFO line for the first engine only (repeatable)")
    p.add_argument("--info2", action="append", type=key_value, default=[], metavar="KEY=VALUE",
                   help="extra INFO line for the second engine only (repeatable)")
    p.add_argument("--seed", type=int, default=None, help="seed of openings and extra plies (default: random, printed)")
    p.add_argument("--openings", default=None,
                   help="file of openings, one a line: offset (x,y, x,y ... from the centre) or pos (h8i9j10)")
    p.add_argument("--shuffle", action="store_true", help="shuffle the openings file with the seed")
    p.add_argument("--first-opening", type=int, default=1, metavar="K",
                   help="begin with the file's K-th opening (counting those that fit), going on in order "
                        "and wrapping round; so a second match plays the openings the first did not reach")
    p.add_argument("--opening-stones", default="2-4", help="random opening size when no file: K or MIN-MAX")
    p.add_argument("--random-plies", type=int, default=0,
                   help="random stones added next to each opening (so repeated openings differ)")
    p.add_argument("--no-swap", action="store_true",
                   help="a new opening for every game instead of each opening twice with colours swapped")
    p.add_argument("--swap2", action="store_true",
                   help="swap2 opening via SWAP2BOARD (falls back to the normal opening if unsupported)")
    p.add_argument("--opening-rule", type=parse_rule, default=None, metavar="RULE",
                   help="play a tournament opening rule through YXOPENINGSWAP/MOVE/CHOOSE: taraguchi10, "
                        "soosorv8 or rif (five-move two-offer); the referee checks every answer")
    p.add_argument("--reuse", action="store_true", help="keep brain processes between games (RESTART)")
    p.add_argument("--strict", action="store_true", help="a non-move line while waiting for a move loses")
    p.add_argument("--send-delay-ms", type=int, default=0,
                   help="wait this long after a brain's reply before sending it the next command")
    p.add_argument("--sprt", type=float, nargs=4, metavar=("ELO0", "ELO1", "ALPHA", "BETA"), default=None,
                   help="stop early when the SPRT of H1 elo1 against H0 elo0 decides")
    p.add_argument("-j", "--jobs", type=int, default=1,
                   help="games in parallel (use 1 for timing; with --ray local: the local instance's workers)")
    p.add_argument("--ray", default=None, metavar="ADDRESS",
                   help="play the games on a Ray cluster's workers (HEAD:PORT or auto), or `local` for a "
                        "loopback-only instance on this machine; default: local threads, no Ray")
    p.add_argument("--sgf", default=None, help="write every game to this SGF file (a collection)")
    p.add_argument("--psq", default=None, metavar="DIR", help="write every game as DIR/game_NNNN.psq")
    p.add_argument("--jsonl", default=None, help="write one JSON object per game (moves and times)")
    p.add_argument("--out", "--pgn", dest="out", default=None, help="write one text line per game to FILE")
    p.add_argument("-v", "--verbose", action="store_true", help="log moves, MESSAGE/DEBUG and stderr")
    a = p.parse_args(argv)
    if len(a.engine) > 2:
        p.error("--engine: at most two")
    while len(a.engine) < 2:
        a.engine.append(DEFAULT_ENGINE)
    if len(a.name) > 2:
        p.error("--name: at most two")
    names = list(a.name) + [derive_name(shlex.split(c)) for c in a.engine[len(a.name):]]
    if names[0] == names[1]:
        names = [names[0] + "-1", names[1] + "-2"] if len(a.name) < 2 else names
    if names[0] == names[1]:
        p.error("--name: the two names must differ")
    a.names = names
    if not MIN_SIZE <= a.size <= MAX_SIZE:
        p.error(f"--size must be in {MIN_SIZE}..{MAX_SIZE}")
    a.width = a.height = a.size
    if a.rect:
        m = re.fullmatch(r"\s*(\d+)\s*[,x]\s*(\d+)\s*", a.rect)
        if not m or not all(MIN_SIZE <= int(v) <= MAX_SIZE for v in m.groups()):
            p.error(f"--rect: W,H with both in {MIN_SIZE}..{MAX_SIZE}")
        if a.openings:
            p.error("--rect: only with random openings (no --openings)")
        a.width, a.height = int(m.group(1)), int(m.group(2))
        a.size = a.width
    a.board = f"{a.width}x{a.height}"
    if a.games < 1 or a.jobs < 1 or a.turn_ms < 0 or a.tolerance_ms < 0 or a.random_plies < 0:
        p.error("--games, --jobs must be positive; --turn-ms, --tolerance-ms, --random-plies not negative")
    if a.ray and a.reuse:
        p.error("--reuse: not with --ray (each game runs in a Ray task of its own)")
    if a.first_opening < 1:
        p.error("--first-opening: K counts from 1")
    if a.first_opening > 1 and not a.openings:
        p.error("--first-opening: only with --openings")
    m = re.fullmatch(r"(\d+)(?:-(\d+))?", a.opening_stones)
    if not m:
        p.error("--opening-stones: K or MIN-MAX")
    a.open_min = int(m.group(1))
    a.open_max = int(m.group(2) or m.group(1))
    if a.open_min > a.open_max or a.open_max > 8:
        p.error("--opening-stones: need MIN <= MAX <= 8")
    if a.opening_rule and (a.swap2 or a.openings):
        p.error("--opening-rule: not with --swap2 or --openings (the rule makes the opening)")
    if a.sprt and not (0 < a.sprt[2] < 1 and 0 < a.sprt[3] < 1 and a.sprt[0] < a.sprt[1]):
        p.error("--sprt: need elo0 < elo1 and alpha, beta in (0, 1)")
    return a


def make_schedule(a: argparse.Namespace) -> list[tuple[int, list[tuple[int, int]], int]]:
    """(game number, opening, engine playing black) per game: opening i is played in games 2i+1
    (first engine black) and 2i+2 (second engine black), unless --no-swap."""
    rng = random.Random(a.seed)
    n_openings = a.games if a.no_swap else (a.games + 1) // 2
    if a.openings:
        book = read_openings(a.openings, a.size)
        if a.first_opening > len(book):
            raise OpeningError(f"--first-opening {a.first_opening}: the file has {len(book)} openings that fit")
        book = book[a.first_opening - 1:] + book[:a.first_opening - 1]
        if a.shuffle:
            rng.shuffle(book)
        if n_openings > len(book) and not a.random_plies:
            log(f"warning: {n_openings} openings needed, the file has {len(book)}: openings repeat "
                "(add --random-plies N)")
        openings = [book[i % len(book)] for i in range(n_openings)]
    else:
        openings = [random_opening(rng, a.width, rng.randint(a.open_min, a.open_max), height=a.height)
                    for _ in range(n_openings)]
    if a.random_plies:
        openings = [extend_opening(rng, o, a.width, a.random_plies, a.rule, height=a.height) for o in openings]
    if a.no_swap:  # every game its own opening (data generation: no mirrored duplicates)
        return [(g + 1, openings[g], g % 2) for g in range(a.games)]
    return [(g + 1, openings[g // 2], g % 2) for g in range(a.games)]


def start_command(a: argparse.Namespace) -> str:
    return f"RECTSTART {a.width},{a.height}" if a.rect else f"START {a.size}"


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def worker_args(a: argparse.Namespace) -> argparse.Namespace:
    """The arguments of a game played in another process: no record files (the driver writes
    them) and no brains kept between games."""
    w = copy.copy(a)
    w.out = w.sgf = w.jsonl = w.psq = None
    w.reuse = False
    return w


def play_elsewhere(a: argparse.Namespace, number: int, opening: list[tuple[int, int]],
                   first: int) -> tuple[GameResult, list[EngineStats]]:
    """Game `number` in a process of its own (a Ray worker), with a Match of its own: returns
    the result and what the game added to each engine's counts, for the driver to record."""
    m = Match(a)
    try:
        return m.play(number, opening, first), m.stats
    finally:
        m.close_pooled()
        m.close_files()


def run(a: argparse.Namespace, factory=Match,
        executor: dispatch.Executor | None = None) -> tuple[Match, float, bool]:
    """Play the match (`factory(a)` builds it: Match or a subclass) on `executor` (default: `a.jobs`
    threads, or Ray with `a.ray`); returns (match, seconds, interrupted)."""
    if getattr(a, "ray", None) and factory is not Match and executor is None:
        raise ValueError("--ray plays games with the plain Match only")
    m = factory(a)
    schedule = make_schedule(a)
    t_start = time.monotonic()
    interrupted = False
    if executor is None:
        executor = dispatch.make_executor(getattr(a, "ray", None), a.jobs)
    if executor.shares_memory:  # threads: the games update the match themselves
        tasks = (dispatch.Task(g[0], m.play, g) for g in schedule)

        def finished(_number: int, res: GameResult) -> None:
            m.record(res)
    else:
        remote = worker_args(a)
        tasks = (dispatch.Task(g[0], play_elsewhere, (remote, *g)) for g in schedule)

        def finished(_number: int, value: tuple[GameResult, list[EngineStats]]) -> None:
            res, stats = value
            with m.lock:
                for mine, theirs in zip(m.stats, stats):
                    mine.add(theirs)
            m.record(res)

    def failed(number: int, e: BaseException) -> None:
        m.script_errors += 1
        log(f"match: game {number} failed inside the script:\n" + "".join(traceback.format_exception(e)))

    def on_result(number: int, value) -> None:
        try:
            finished(number, value)
        except Exception as e:  # a bug here must not lose the other games' results
            failed(number, e)

    try:
        dispatch.drive(executor, tasks, on_result, on_error=failed, stop=m.no_new_games.is_set, say=log)
    except KeyboardInterrupt:
        interrupted = True
        m.stop.set()
        out("interrupted: stopping games and killing brains")
        Brain.kill_all()
    finally:
        executor.close()
        m.close_pooled()
        m.close_files()
    return m, time.monotonic() - t_start, interrupted


def main(argv: list[str] | None = None, prog: str = "match") -> int:
    a = parse_args(argv)
    # SIGTERM (and SIGINT even when inherited as ignored) stop the match cleanly: brains are
    # killed and the games finished so far are summarised.
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, _interrupt)
        signal.signal(signal.SIGTERM, _interrupt)
    if a.seed is None:
        a.seed = random.SystemRandom().randrange(1 << 31)
    for cmd in a.engine:
        words = shlex.split(cmd)
        exe = words[0] if words else ""
        if not words or ("/" in exe and not Path(exe).exists()):
            out(f"error: {exe or cmd!r} does not exist (build Gorin with `cargo build --release`)")
            return 2
    out(f"{prog}: {a.names[0]} vs {a.names[1]}, {a.games} games, {a.board}, rule {a.rule} "
        f"({RULE_NAMES[a.rule]}), turn {a.turn_ms} ms, match {a.match_ms or 'none'}, seed {a.seed}, "
        f"jobs {a.jobs}{', swap2' if a.swap2 else ''}"
        f"{', opening rule ' + a.opening_rule.name if a.opening_rule else ''}{', reuse' if a.reuse else ''}"
        f"{', ray ' + a.ray if a.ray else ''}")
    if a.openings and not a.shuffle and not a.random_plies:
        out(f"note: the file's openings are played in order from opening {a.first_opening}, whatever "
            "the seed (--shuffle or --random-plies make the seed count)")
    if a.rule == RENJU and not RENJU_PACKAGE:
        out("note: renju adjudication of forbidden moves is unavailable (the `renju` package is not "
            "importable): only black's overline is judged")
    try:
        m, elapsed, interrupted = run(a)
    except OpeningError as e:
        out(f"error: {e}")
        return 2
    code = summary(m, elapsed)
    return 130 if interrupted else code

