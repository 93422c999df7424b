"""A minimal Gomocup brain: the protocol loop shared by the baseline brains (random_brain.py,
greedy.py) and the fake brains of the tests. The brain itself is one function
`choose(board, colour, rule) -> (x, y)` called with the board after the opponent's move.

Handles START, RECTSTART, RESTART, BEGIN, TURN, BOARD ... DONE, TAKEBACK, PLAY, INFO, END, ABOUT
(and SWAP2BOARD ... DONE, answered UNKNOWN); anything else gets `UNKNOWN`. Commands are read one
line at a time and answered in order: these brains think for milliseconds, so no reader thread is
needed. Nothing but protocol lines goes to stdout.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Callable

from .referee import BLACK, MAX_SIZE, MIN_SIZE, WHITE, Board, near_points

Chooser = Callable[[Board, int, int], tuple[int, int]]


class Session:
    def __init__(self, name: str, choose: Chooser, out=None):
        self.name = name
        self.choose = choose
        self.out = out or sys.stdout
        self.board: Board | None = None
        self.rule = 0
        self.info: dict[str, str] = {}
        self.body: list[str] | None = None  # lines of BOARD / SWAP2BOARD being read
        self.body_kind = ""

    def say(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()

    def my_colour(self) -> int:
        """With equal stone counts we are black (the protocol's BOARD convention)."""
        assert self.board is not None
        return BLACK if self.board.count % 2 == 0 else WHITE

    def move(self) -> None:
        assert self.board is not None
        colour = self.my_colour()
        x, y = self.choose(self.board, colour, self.rule)
        self.board.place(x, y, colour)
        self.say(f"{x},{y}")

    def point(self, text: str) -> tuple[int, int] | None:
        parts = text.split(",")
        if len(parts) < 2:
            return None
        try:
            return int(parts[0]), int(parts[1])
        except ValueError:
            return None

    def handle(self, raw: str) -> bool:
        """One input line; False when the brain must exit."""
        line = raw.strip()
        if not line:
            return True
        if self.body is not None:
            if line.upper() == "DONE":
                self.finish_body()
            else:
                self.body.append(line)
            return True
        cmd, _, arg = line.partition(" ")
        cmd = cmd.upper()
        arg = arg.strip()
        if cmd == "END":
            return False
        if cmd == "ABOUT":
            self.say(f'name="{self.name}", version="1.0", author="Gorin project", country="-"')
        elif cmd in ("START", "RECTSTART"):
            try:
                w, h = ((int(arg), int(arg)) if cmd == "START" else
                        tuple(int(v) for v in arg.split(",")))
            except ValueError:
                self.say(f"ERROR bad size {arg!r}")
                return True
            if not (MIN_SIZE <= w <= MAX_SIZE and MIN_SIZE <= h <= MAX_SIZE):
                self.say(f"ERROR unsupported size {arg}")
                return True
            self.board = Board(w, h)
            self.say("OK")
        elif cmd == "RESTART":
            if self.board is None:
                self.say("ERROR no START yet")
            else:
                self.board = Board(self.board.width, self.board.height)
                self.say("OK")
        elif cmd == "INFO":
            key, _, value = arg.partition(" ")
            self.info[key.lower()] = value.strip()
            if key.lower() == "rule":
                try:
                    rule = int(value)
                    self.rule = 4 if rule == 2 else rule & ~2  # bit 2 = continuous game
                except ValueError:
                    pass
        elif self.board is None and cmd in ("BEGIN", "TURN", "BOARD", "TAKEBACK", "PLAY", "SWAP2BOARD"):
            self.say("ERROR no START yet")
        elif cmd == "BEGIN":
            self.board = Board(self.board.width, self.board.height)
            self.move()
        elif cmd in ("TURN", "PLAY", "TAKEBACK"):
            p = self.point(arg)
            b = self.board
            if p is None or not b.inside(*p):
                self.say(f"ERROR bad point {arg!r}")
            elif cmd == "TAKEBACK":
                if not b.get(*p):
                    self.say(f"ERROR no stone at {arg}")
                else:
                    b.remove(*p)
                    self.say("OK")
            elif b.get(*p):
                self.say(f"ERROR occupied {arg}")
            elif cmd == "TURN":
                b.place(p[0], p[1], self.my_colour())  # the opponent's colour is to move now
                self.move()
            else:  # PLAY: our own move, imposed
                b.place(p[0], p[1], self.my_colour())
                self.say(f"{p[0]},{p[1]}")
        elif cmd in ("BOARD", "SWAP2BOARD"):
            self.body, self.body_kind = [], cmd
        else:
            self.say(f"UNKNOWN command {cmd}")
        return True

    def finish_body(self) -> None:
        body, kind = self.body or [], self.body_kind
        self.body = None
        if kind == "SWAP2BOARD":
            self.say("UNKNOWN SWAP2BOARD is not supported")
            return
        assert self.board is not None
        board = Board(self.board.width, self.board.height)
        stones: list[tuple[int, int, int]] = []
        for line in body:
            parts = line.split(",")
            try:
                x, y, f = (int(v) for v in parts[:3])
            except ValueError:
                self.say(f"ERROR bad BOARD line {line!r}")
                return
            if not board.inside(x, y) or board.get(x, y) or f not in (1, 2, 3):
                self.say(f"ERROR bad BOARD line {line!r}")
                return
            if f != 3:
                stones.append((x, y, f))
                board.place(x, y, 0)  # colour fixed below
        mine = sum(1 for s in stones if s[2] == 1)
        theirs = len(stones) - mine
        # Black has as many stones as white or one more; with equal counts we are black.
        me = BLACK if mine == theirs else (WHITE if theirs == mine + 1 else (BLACK if mine < theirs else WHITE))
        board = Board(self.board.width, self.board.height)
        for x, y, f in stones:
            board.place(x, y, me if f == 1 else 1 - me)
        self.board = board
        self.move()


def run(name: str, choose: Chooser) -> None:
    session = Session(name, choose)
    for raw in sys.stdin:
        if not session.handle(raw):
            break


def random_chooser(rng: random.Random) -> Chooser:
    """random_brain.py's moves: a random empty point within 2 of a stone (the centre, else any
    empty point, when there is none)."""
    def choose(board: Board, colour: int, rule: int) -> tuple[int, int]:
        points = near_points(board, 2) if board.count else []
        if not points:  # empty board (or nothing empty near the stones): anywhere empty
            cx, cy = board.width // 2, board.height // 2
            if not board.get(cx, cy):
                return cx, cy
            points = [(x, y) for y in range(board.height) for x in range(board.width) if not board.get(x, y)]
        return rng.choice(points)

    return choose


def main(name: str, make_chooser: Callable[[random.Random], Chooser], doc: str) -> None:
    """A baseline brain's command line: `--seed N` (moves differ from run to run without it)."""
    p = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    p.add_argument("--seed", type=int, default=None)
    a = p.parse_args()
    run(name, make_chooser(random.Random(a.seed)))
