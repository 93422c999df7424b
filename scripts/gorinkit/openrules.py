"""Tournament opening rules as a referee runs them between two brains: Taraguchi-N, Soosõrv-N
and the five-move two-offer rule (RIF 1996), driven through the YXOPENINGSWAP / YXOPENINGMOVE /
YXOPENINGCHOOSE commands (README.md, "Opening rules").

The referee is written apart from the engine (rules/opening.rs) on purpose: it checks every
answer against the rule itself — zones, offer counts, offers that a board symmetry maps onto
each other, a chosen fifth that was not offered — so an engine bug cannot hide behind a shared
helper.

`play_opening` is pure of I/O: it asks through a callback and returns the stones and who holds
which colour, so the whole flow is unit-tested with scripted answers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from .referee import BLACK, WHITE

TARAGUCHI, SOOSORV, RIF = "taraguchi", "soosorv", "rif"
MAX_OFFERS = 16  # as the engine's rule names allow


class Foul(Exception):
    """Engine `engine` broke the opening rule or the protocol; it loses for `kind`."""

    def __init__(self, engine: int, kind: str, detail: str):
        super().__init__(detail)
        self.engine, self.kind, self.detail = engine, kind, detail


@dataclass(frozen=True)
class OpeningRule:
    kind: str
    n: int  # offers: Taraguchi's exact number, Soosõrv's most, 2 for RIF

    @property
    def name(self) -> str:
        return "RIF" if self.kind == RIF else f"{self.kind.upper()}{self.n}"

    def zone(self, index: int) -> int | None:
        """Chebyshev radius around the centre allowed for stone `index` (0-based); None = any."""
        if self.kind == TARAGUCHI:
            return index if index <= 4 else None
        return index if index <= 2 else None

    def offer_counts(self) -> range:
        if self.kind == SOOSORV:
            return range(1, self.n + 1)
        return range(self.n, self.n + 1)


def parse_rule(text: str) -> OpeningRule:
    """`taraguchi10`, `soosorv8` (also `soosyrv8`, with or without a dash), `rif`."""
    t = text.strip().lower().replace("-", "")
    if t == "rif":
        return OpeningRule(RIF, 2)
    m = re.fullmatch(r"(taraguchi|soosorv|soosyrv)(\d+)", t)
    if not m or not 1 <= int(m.group(2)) <= MAX_OFFERS:
        raise ValueError(f"unknown opening rule {text!r} (taraguchi10, soosorv8, rif)")
    return OpeningRule(TARAGUCHI if m.group(1) == "taraguchi" else SOOSORV, int(m.group(2)))


def centre(width: int, height: int) -> tuple[int, int]:
    return width // 2, height // 2


def in_zone(point: tuple[int, int], radius: int, width: int, height: int) -> bool:
    cx, cy = centre(width, height)
    return max(abs(point[0] - cx), abs(point[1] - cy)) <= radius


def _transforms(width: int, height: int):
    """The symmetries of the board as functions of a point: eight on a square board (the
    dihedral group), four on a rectangle (no quarter turns, no diagonal mirrors)."""
    out = []
    for transpose in (False, True):
        if transpose and width != height:
            continue
        for mx in (False, True):
            for my in (False, True):
                def f(p, transpose=transpose, mx=mx, my=my):
                    x, y = (p[1], p[0]) if transpose else p
                    return (width - 1 - x if mx else x, height - 1 - y if my else y)
                out.append(f)
    return out


def same_offer(stones: list[tuple[int, int]], a: tuple[int, int], b: tuple[int, int],
               width: int, height: int) -> bool:
    """Whether offering `a` or `b` as the next stone gives the same position up to a board
    symmetry. `stones` alternate in colour from black; the offer has the next colour."""
    colour = {p: i % 2 for i, p in enumerate(stones)}
    side = len(stones) % 2
    with_a = dict(colour)
    with_a[a] = side
    with_b = dict(colour)
    with_b[b] = side
    return any(all(with_b.get(f(p)) == c for p, c in with_a.items()) for f in _transforms(width, height))


def repeated_offer(stones, offers, width: int, height: int) -> tuple[int, int] | None:
    for j in range(len(offers)):
        for i in range(j):
            if same_offer(stones, offers[i], offers[j], width, height):
                return i, j
    return None


def parse_reply(line: str):
    """A reply to an opening command: ("swap",), ("refused", line) for ERROR/UNKNOWN,
    (points, count) for `x,y` tokens with an optional trailing count, or None for a line that
    is none of these (the caller keeps waiting)."""
    text = line.strip()
    if re.match(r"(UNKNOWN|ERROR)\b", text):
        return ("refused", text)
    if text.upper() == "SWAP":
        return ("swap",)
    tokens = text.split()
    count = None
    if tokens and re.fullmatch(r"\d+", tokens[-1]):
        count = int(tokens.pop())
    points = []
    for t in tokens:
        m = re.fullmatch(r"(-?\d+),(-?\d+)", t)
        if not m:
            return None
        points.append((int(m.group(1)), int(m.group(2))))
    if not points:
        return None
    return (points, count)


# ask(engine, verb, declared, stones, offers) -> a parse_reply value; verb is SWAP, MOVE or CHOOSE.
Ask = Callable[[int, str, "int | None", list, list], object]


def play_opening(rule: OpeningRule, width: int, height: int, opener: int, ask: Ask):
    """Runs the opening between engines 0 and 1, `opener` tentatively black. Returns
    (stones, players, note): the stones in move order (after white's sixth, or five stones when
    white swapped at the last step and owes the sixth), players = {BLACK: engine, WHITE:
    engine}, and a short note of the decisions. Raises Foul."""
    players = {BLACK: opener, WHITE: 1 - opener}
    stones: list[tuple[int, int]] = []
    notes: list[str] = []

    def holder_of_next() -> int:
        return players[len(stones) % 2]

    def swap() -> None:
        players[BLACK], players[WHITE] = players[WHITE], players[BLACK]
        notes.append(f"swap@{len(stones)}")

    def request(e: int, verb: str, declared=None, offers=(), swap_ok=False, counts=(1,), declare=False):
        got = ask(e, verb, declared, list(stones), list(offers))
        cmd = f"YXOPENING{verb} {rule.name}"
        if got is None:
            raise Foul(e, "unparsable", f"no usable answer to {cmd} at {len(stones)} stones")
        if got[0] == "refused":
            raise Foul(e, "protocol", f"{cmd} at {len(stones)} stones answered {got[1]!r}")
        if got[0] == "swap":
            if not swap_ok:
                raise Foul(e, "protocol", f"SWAP where {rule.name} gives no swap ({len(stones)} stones)")
            return None
        points, count = got
        if len(points) not in counts:
            raise Foul(e, "protocol", f"{len(points)} points to {cmd} at {len(stones)} stones")
        if declare != (count is not None):
            raise Foul(e, "protocol", f"{'missing' if declare else 'unexpected'} count in {cmd} answer")
        return points, count

    def place(e: int, p: tuple[int, int], radius: int | None) -> None:
        x, y = p
        if not (0 <= x < width and 0 <= y < height):
            raise Foul(e, "off-board", f"opening stone {x},{y} off the board")
        if p in stones:
            raise Foul(e, "occupied", f"opening stone {x},{y} on a stone")
        if radius is not None and not in_zone(p, radius, width, height):
            raise Foul(e, "protocol", f"opening stone {len(stones) + 1} at {x},{y} outside the central "
                                      f"{2 * radius + 1}x{2 * radius + 1} square")
        stones.append(p)

    def offers_of(e: int, points, allowed: range):
        if len(points) not in allowed:
            raise Foul(e, "protocol", f"{len(points)} offered fifth moves under {rule.name}")
        for x, y in points:
            if not (0 <= x < width and 0 <= y < height) or (x, y) in stones:
                raise Foul(e, "occupied", f"offered fifth {x},{y} off the board or on a stone")
        pair = repeated_offer(stones, points, width, height)
        if pair:
            a, b = points[pair[0]], points[pair[1]]
            raise Foul(e, "protocol", f"offered fifth moves {a[0]},{a[1]} and {b[0]},{b[1]} are symmetric")
        notes.append(f"{len(points)} offers")
        return points

    def choose(offers) -> None:
        e = players[WHITE]
        pts, _ = request(e, "CHOOSE", None, offers, counts=(2,))
        if pts[0] not in offers:
            raise Foul(e, "protocol", f"chosen fifth {pts[0][0]},{pts[0][1]} was not offered")
        place(e, pts[0], None)
        place(e, pts[1], None)

    def swap_then_move(radius, declared=None, declare=False):
        """The holder of the next colour may swap; then whoever holds it places one stone."""
        e = holder_of_next()
        got = request(e, "SWAP", declared, swap_ok=True, declare=declare)
        if got is None:
            swap()
            e = holder_of_next()
            got = request(e, "MOVE", declared, declare=declare)
        pts, count = got
        place(e, pts[0], radius)
        return e, count

    if rule.kind == TARAGUCHI:
        pts, _ = request(opener, "MOVE")
        place(opener, pts[0], rule.zone(0))
        for k in (1, 2, 3):
            swap_then_move(rule.zone(k))
        e = players[BLACK]
        got = request(e, "SWAP", swap_ok=True, counts=(1, rule.n))
        if got is not None and len(got[0]) == rule.n and rule.n != 1:
            choose(offers_of(e, got[0], rule.offer_counts()))
        else:
            if got is None:
                swap()
                e = players[BLACK]
                got = request(e, "MOVE")
            place(e, got[0][0], rule.zone(4))
            w = players[WHITE]
            got = request(w, "SWAP", swap_ok=True)
            if got is None:
                swap()  # the new white owes the sixth move: the game goes on with BOARD
            else:
                place(w, got[0][0], None)
    else:
        pts, _ = request(opener, "MOVE", counts=(3,))
        for i, p in enumerate(pts):
            place(opener, p, rule.zone(i))
        if rule.kind == SOOSORV:
            _, declared = swap_then_move(None, declare=True)
            if declared not in rule.offer_counts():
                raise Foul(players[WHITE], "protocol", f"declared {declared} fifth moves under {rule.name}")
            notes.append(f"declared {declared}")
            e = players[BLACK]
            got = request(e, "SWAP", declared, swap_ok=True, counts=(declared,))
            if got is None:
                swap()
                e = players[BLACK]
                got = request(e, "MOVE", declared, counts=(declared,))
            choose(offers_of(e, got[0], range(declared, declared + 1)))
        else:
            swap_then_move(None)
            e = players[BLACK]
            got = request(e, "MOVE", counts=(2,))
            choose(offers_of(e, got[0], rule.offer_counts()))
    return stones, players, " ".join(notes)
