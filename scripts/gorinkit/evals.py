"""A brain's evaluation of a position, as a teacher (teacher.py) or a judge (blunders.py,
replay.py) gives it: the position sent with a node budget, the last evaluation message read before
the move, and mate scores as numbers.

A judge's mate score (`+M n` / `-M n`, Rapfi's `Eval`, Gorin's `ev`) becomes +/-(MATE - n).
"""

from __future__ import annotations

import math
import re
import shlex
import threading
import time
from typing import Callable, Iterable, Iterator

from .brain import Brain
from .protocol import board_command, looks_like_move, parse_move

# A mate reads `M` in Gorin and Rapfi, `v` in PentaZen (`ev +v25`).
EVAL_RE = re.compile(r"(?:Eval| ev) ([+-]?[Mv]?\d+)")


MATE = 20000
DECIDED = MATE - 1000
# The two kinds of drop the summary counts (and --save writes, for replay.py).
MISSED_WIN = "missed win"
FORCED_LOSS = "into a forced loss"


def score(ev: str | None) -> int | None:
    """A judge's evaluation text as a number; mates as +/-(MATE - plies)."""
    if ev is None:
        return None
    if "M" in ev:
        plies = int(ev.lstrip("+-").lstrip("M"))
        return -(MATE - plies) if ev.startswith("-") else MATE - plies
    return int(ev)


def position_lines(size: int, moves: list[list[int]], nodes: int, turn_ms: int, rule: int = 0) -> list[str]:
    """A position for a teacher or judge; `rule` is the protocol's `INFO rule` number (a brain keeps
    the last one it was sent, so every position names its own)."""
    return [f"INFO rule {rule}", f"INFO max_node {nodes}", f"INFO timeout_turn {turn_ms}",
            *board_command(size, moves)]


def ask(brain: Brain, lines: list[str], timeout_s: float) -> tuple[bool, str | None, list[int] | None]:
    """Whether the teacher answered in time, its last evaluation before the move (a brain may
    move without one, e.g. when it plays a forced move at once), and the move (`[x, y]`, None
    when unreadable)."""
    brain.send(*lines)
    ev = None
    while True:
        got = brain.read(timeout_s)
        if got is None or got[1] is None:
            return False, None, None
        line = got[1].strip()
        m = EVAL_RE.search(line)
        if line.startswith("MESSAGE") and m:
            ev = m.group(1)
        elif looks_like_move(line):
            move = parse_move(line)
            return True, ev, None if move is None else list(move)


def engine_replies(engine: str, boards: Iterable[tuple[int, int, list[list[int]]]], turn_ms: int,
                   delay_s: float = 0.0) -> Iterator[tuple[bool, str | None, list[int] | None]]:
    """`ask`'s (answered, evaluation, move) for each (size, rule, moves) from one brain (`engine`:
    shell words) thinking `turn_ms` a move, started again when it fails to answer; `delay_s` is
    waited before each position."""
    brain = Brain(shlex.split(engine), "engine")
    try:
        for size, rule, moves in boards:
            time.sleep(delay_s)
            lines = [f"INFO timeout_turn {turn_ms}", "INFO timeout_match 0", f"INFO rule {rule}",
                     *board_command(size, moves)]
            reply = ask(brain, lines, turn_ms / 1000 + 10)
            if not reply[0]:
                brain.kill()
                brain = Brain(shlex.split(engine), "engine")
            yield reply
    finally:
        brain.close()


def logistic(e: float, scale: float) -> float:
    """1 / (1 + exp(-e / scale)), its exponent bounded: teachers print evaluations of any size
    (Rapfi's renju ones pass 20,000 without being mates)."""
    return 1.0 / (1.0 + math.exp(max(-60.0, min(60.0, -e / scale))))


def fit_scale(pairs: list[tuple[float, float]]) -> float:
    """The logistic scale (25 to 3000, in steps of 25) under which a teacher's evaluations `e`
    best predict the results `y` (1 win, 0.5 draw, 0 loss) of `(e, y)` pairs."""

    def loss(s: float) -> float:
        total = 0.0
        for e, y in pairs:
            p = min(max(logistic(e, s), 1e-9), 1 - 1e-9)
            total -= y * math.log(p) + (1 - y) * math.log(1 - p)
        return total / len(pairs)

    return min(range(25, 3001, 25), key=loss)


def ask_all(teacher: str, count: int, question: Callable[[int], list[str]], procs: int, timeout_s: float,
            delay_s: float = 0.0, budget_s: float | None = None) -> tuple[dict[int, str], list[int], list[int]]:
    """Questions 0..count-1 (`question(i)`: the protocol lines of position i) asked of `procs`
    teacher processes (`teacher`: shell words), process k taking k, k + procs, ...; each waits
    `delay_s` before a position, and none takes a new one after `budget_s` seconds. A teacher that
    does not answer within `timeout_s` is restarted. Returns (the evaluation of every position
    answered with one, the positions answered without one, the positions not answered)."""
    evals: dict[int, str] = {}
    silent: list[int] = []
    failures: list[int] = []
    start = time.monotonic()

    def work(k: int) -> None:
        brain = Brain(shlex.split(teacher), f"teacher{k}")
        try:
            for i in range(k, count, procs):
                if budget_s is not None and time.monotonic() - start > budget_s:
                    return
                time.sleep(delay_s)
                answered, ev, _ = ask(brain, question(i), timeout_s)
                if not answered:
                    failures.append(i)
                    brain.kill()
                    brain = Brain(shlex.split(teacher), f"teacher{k}")
                elif ev is None:
                    silent.append(i)
                else:
                    evals[i] = ev
        finally:
            brain.close()

    threads = [threading.Thread(target=work, args=(k,)) for k in range(procs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return evals, silent, failures


def is_mate(ev: str) -> bool:
    """Whether an evaluation of `EVAL_RE` is a proved result (either side's)."""
    return "M" in ev or "v" in ev


class Judge:
    def __init__(self, cmd: str, nodes: int, delay_s: float, timeout_s: float):
        self.cmd = shlex.split(cmd)
        self.nodes = nodes
        self.delay_s = delay_s
        self.timeout_s = timeout_s
        self.brain = Brain(self.cmd, "judge")

    def __call__(self, size: int, moves: list[list[int]], rule: int) -> tuple[int | None, str | None]:
        """The judge's evaluation for the side to move after `moves` under `rule`, and its move."""
        time.sleep(self.delay_s)
        lines = position_lines(size, moves, self.nodes, int(self.timeout_s * 1000), rule)
        answered, ev, move = ask(self.brain, lines, self.timeout_s + 5)
        if not answered:
            self.brain.kill()
            self.brain = Brain(self.cmd, "judge")
        return score(ev), move

    def close(self) -> None:
        self.brain.close()
