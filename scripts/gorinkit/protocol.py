"""The Gomocup protocol's text, as the scripts write and read it: BOARD bodies, moves, and the
MESSAGE/DEBUG lines a brain may print at any time."""

from __future__ import annotations

import re
from itertools import zip_longest

MOVE_RE = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*$")

Point = tuple[int, int]


def parse_move(line: str) -> tuple[int, int] | None:
    m = MOVE_RE.match(line)
    return (int(m.group(1)), int(m.group(2))) if m else None


def is_chatter(line: str) -> bool:
    """MESSAGE / DEBUG lines: informational, never an answer."""
    head = line.split(maxsplit=1)[0].upper() if line.split() else ""
    return head in ("MESSAGE", "DEBUG")


def looks_like_move(line: str) -> bool:
    """A line that starts like a coordinate: if it does not parse, it is an unparsable move."""
    s = line.lstrip()
    return bool(s) and (s[0].isdigit() or s[0] == "-")


def stones_body(black: list, white: list, own_black: bool) -> list[str]:
    """`x,y,field` lines in move order (black, white, black, ...); the side `own_black` names owns
    field 1, the other field 2. The one builder of every BOARD / YXBOARD body the scripts send."""
    lines = []
    for b, w in zip_longest(black, white):
        for stone, is_black in ((b, True), (w, False)):
            if stone is not None:
                x, y = stone
                lines.append(f"{x},{y},{1 if is_black == own_black else 2}")
    return lines


def board_body(moves: list, own: int | None = None) -> list[str]:
    """Stones in move order (black first) as `x,y,field` lines; the side `own` (0 black, 1 white;
    by default the side to move) owns field 1."""
    if own is None:
        own = len(moves) % 2
    return stones_body(moves[0::2], moves[1::2], own == 0)


def board_lines(moves: list, own: int | None = None, command: str = "BOARD") -> list[str]:
    """`BOARD` (or `YXBOARD`), the stones of `board_body`, `DONE`."""
    return [command, *board_body(moves, own), "DONE"]


def board_command(size: int, moves: list) -> list[str]:
    """`START size`, then BOARD in move order; the side to move owns field 1."""
    return [f"START {size}", *board_lines(moves)]
