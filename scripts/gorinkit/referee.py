"""The referee shared by match.py and the baseline brains: board, wins per rule, renju forbidden
moves, openings, and game records (SGF, PSQ).

Python 3.11 standard library only. Independent of the engine's own code on purpose: a match judged
by the code under test would not catch its bugs. Renju forbidden points (double-three,
double-four) come from the optional PyPI package `renju` when it is importable; black's overline
is judged here in every case.

Coordinates are (x, y), 0-based, x = column, y = row, origin top-left, as in the protocol.
"""

from __future__ import annotations

import inspect
import json
import random
import sys
import re
from pathlib import Path

BLACK, WHITE = 0, 1  # colour index; stone values on the board are colour + 1
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))
RULE_NAMES = {0: "freestyle", 1: "standard (exact five)", 4: "renju", 8: "caro", 9: "caro exact five"}
# The one-word names puzzle and game files use for the rules.
RULE_KEYS = {0: "freestyle", 1: "standard", 4: "renju", 8: "caro", 9: "caro-exact"}
_RULE_BY_KEY = {name: number for number, name in RULE_KEYS.items()}
RENJU = 4
RENJU_DRAW_EMPTY = 25  # renju: a draw when this many empty points or fewer are left
MIN_SIZE, MAX_SIZE = 5, 32
SGF_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def rule_number(rule: int | str) -> int:
    """An INFO rule value from a record's rule: the number itself, or its `RULE_KEYS` name."""
    if isinstance(rule, str) and not rule.isdigit():
        return _RULE_BY_KEY[rule]
    return int(rule)

try:  # optional referee for renju double-three / double-four
    import renju.check_forbid as _cf  # type: ignore

    RENJU_PACKAGE = True
except ImportError:  # pragma: no cover - depends on the machine
    _cf = None
    RENJU_PACKAGE = False

# The package's judge, and one variant of it. In the nested question "is the point that makes
# this three a straight four itself forbidden?" the package (as Piskvork's judge) answers
# "forbidden" when that point makes an exact five (`foulr(..., five=1)` returns `five`). Under
# RIF rules a move that makes five is never forbidden, so the straight four is reachable and
# the three is real: the "rif" variant answers "legal" there (`result = 0`). The "traced" copy
# is the package's code unchanged but for recording that such a nested five was met, so the
# variant is asked only when its answer can differ. Both are compiled from the installed
# package's own source text (version 0.1.0 has the line once).
_FIVE_LINE = "result = five"


def _variant(replacement: str) -> dict:
    source = inspect.getsource(_cf)
    if source.count(_FIVE_LINE) != 1:  # pragma: no cover - another version of the package
        raise ImportError("unexpected renju.check_forbid source: pin renju==0.1.0")
    ns = {"__name__": "renju_check_forbid_variant", "_NESTED_FIVE": [0]}
    exec(compile(source.replace(_FIVE_LINE, replacement), _cf.__file__, "exec"), ns)
    return ns


package_foul_type = _cf.get_foul_type if _cf else None  # the package's own answer, as foul_kinds
_TRACED = _variant("result = five; _NESTED_FIVE[0] |= five") if _cf else None
_RIF = _variant("result = 0") if _cf else None


def foul_kinds(grid, x: int, y: int) -> tuple[int, int]:
    """(the package's answer, the RIF-five variant's answer) for black at the empty (x, y) of
    grid[x][y] (0 empty, 1 black, 2 white): 0 legal, 1 double-three, 2 double-four, 3 overline.
    Needs the package."""
    _TRACED["_NESTED_FIVE"][0] = 0
    k = _TRACED["get_foul_type"](grid, x, y)
    if _TRACED["_NESTED_FIVE"][0]:
        return k, _RIF["get_foul_type"](grid, x, y)
    return k, k

FOUL_NAMES = {1: "double-three", 2: "double-four", 3: "overline"}


class Board:
    def __init__(self, width: int, height: int | None = None):
        self.width = width
        self.height = width if height is None else height
        self.size = width  # square boards: the usual case
        self.cells = [[0] * self.width for _ in range(self.height)]
        self.count = 0

    def inside(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def get(self, x: int, y: int) -> int:
        return self.cells[y][x]

    def place(self, x: int, y: int, colour: int) -> None:
        self.cells[y][x] = colour + 1
        self.count += 1

    def remove(self, x: int, y: int) -> None:
        if self.cells[y][x]:
            self.cells[y][x] = 0
            self.count -= 1

    def empty_points(self) -> int:
        return self.width * self.height - self.count

    def full(self) -> bool:
        return self.count == self.width * self.height

    def line_ends(self, x: int, y: int, dx: int, dy: int, colour: int) -> tuple[int, list[int | None]]:
        """(length of colour's line through (x, y) along (dx, dy), counting (x, y) itself as
        colour's stone; the points just past its two ends: 0 empty, 1 or 2 a stone, None off
        the board)."""
        me = colour + 1
        length, ends = 1, []
        for sx, sy in ((dx, dy), (-dx, -dy)):
            i = 1
            while self.inside(x + i * sx, y + i * sy) and self.get(x + i * sx, y + i * sy) == me:
                length += 1
                i += 1
            ex, ey = x + i * sx, y + i * sy
            ends.append(self.get(ex, ey) if self.inside(ex, ey) else None)
        return length, ends

    def run(self, x: int, y: int, dx: int, dy: int, colour: int) -> tuple[int, int]:
        """(length of colour's line through (x, y) along (dx, dy), counting (x, y) itself as
        colour's stone; how many of its two ends are opponent stones)."""
        length, ends = self.line_ends(x, y, dx, dy, colour)
        # Only an opponent stone blocks (caro); the edge does not.
        return length, ends.count(2 - colour)

    def wins(self, x: int, y: int, colour: int, rule: int) -> bool:
        """Does a stone of `colour` at (x, y) (placed or not yet) make a winning line under rule?"""
        return any(line_wins(*self.run(x, y, dx, dy, colour), colour, rule) for dx, dy in DIRECTIONS)

    def overline(self, x: int, y: int, colour: int) -> bool:
        return any(self.run(x, y, dx, dy, colour)[0] > 5 for dx, dy in DIRECTIONS)

    def renju_foul(self, x: int, y: int, rif: bool = False) -> str | None:
        """The kind of foul a black stone at (x, y) commits in renju (the stone may already be
        placed), or None. Call only when the move does not make an exact five (a five wins even
        when it is also a double-four or double-three). Overline is judged here; double-three
        and double-four only with the `renju` package, as Piskvork judges them, or with `rif`
        as the RIF rules do (a three whose straight four would also make five is real)."""
        if self.overline(x, y, BLACK):
            return "overline"
        if _cf is None:
            return None
        # The package wants a square grid[x][y] with the point empty or black (1 black, 2 white).
        # A rectangular board is padded with white stones: for black's lines a white stone
        # blocks as the edge does.
        n = max(self.width, self.height)
        grid = [[self.cells[yy][xx] if xx < self.width and yy < self.height else 2 for yy in range(n)]
                for xx in range(n)]
        grid[x][y] = 0
        kind = foul_kinds(grid, x, y)[1] if rif else package_foul_type(grid, x, y)
        return FOUL_NAMES.get(kind) if kind else None


def line_wins(length: int, blocked: int, colour: int, rule: int) -> bool:
    """Does a line of `length` stones whose `blocked` ends (0-2) are opponent stones win?"""
    if length < 5:
        return False
    if rule == 0:
        return True
    if rule == 1:
        return length == 5
    if rule == RENJU:  # black needs exactly five, white's overline wins
        return length == 5 or colour == WHITE
    if rule == 8:  # caro: overline wins; an exact five blocked at both ends does not
        return length > 5 or blocked < 2
    if rule == 9:
        return length == 5 and blocked < 2
    raise ValueError(f"rule {rule}")


def is_draw(board: Board, rule: int) -> bool:
    if rule == RENJU:
        return board.empty_points() <= RENJU_DRAW_EMPTY
    return board.full()


# ---------------------------------------------------------------------------------------------
# Coordinates
# ---------------------------------------------------------------------------------------------
def fmt_move(x: int, y: int, size: int) -> str:
    """Algebraic (a1 = 0,0, rows from the top) up to 26 columns, else `x,y;`."""
    if size <= 26 and 0 <= x < size and 0 <= y < size:
        return f"{chr(ord('a') + x)}{y + 1}"
    return f"{x},{y};"


def sgf_point(x: int, y: int) -> str:
    return SGF_LETTERS[x] + SGF_LETTERS[y]


# ---------------------------------------------------------------------------------------------
# Openings
# ---------------------------------------------------------------------------------------------
POS_LINE_RE = re.compile(r"^(?:[a-zA-Z]\d{1,2})+$")
POS_MOVE_RE = re.compile(r"([a-zA-Z])(\d{1,2})")


class OpeningError(ValueError):
    pass


class OpeningDoesNotFit(OpeningError):
    """An opening that reaches off the board (made for a larger board)."""


def parse_opening(line: str, size: int) -> list[tuple[int, int]]:
    """One opening line in either format, as absolute moves (black first).

    - offset format (Piskvork, GomocupJudge, c-gomoku-cli): `x,y, x,y, ...`, offsets from the
      centre (size // 2), x = column;
    - pos format (c-gomoku-cli): `h8i9j10`, letter = column (`a` = 0), number = row counted from
      1 at the top.
    Raises OpeningError for malformed text, an off-board or repeated stone, or a five.
    """
    text = line.split("#", 1)[0].strip()
    compact = re.sub(r"\s+", "", text)
    if POS_LINE_RE.match(compact):
        moves = [(ord(c.lower()) - ord("a"), int(n) - 1) for c, n in POS_MOVE_RE.findall(compact)]
    else:
        if not re.fullmatch(r"[-\d,\s]*", text):
            raise OpeningError(f"neither offset (x,y, ...) nor pos (h8i9) format: {text!r}")
        nums = [int(v) for v in re.findall(r"-?\d+", text)]
        if len(nums) % 2:
            raise OpeningError("odd number of coordinates")
        c = size // 2
        moves = [(c + nums[i], c + nums[i + 1]) for i in range(0, len(nums), 2)]
    board = Board(size)
    for i, (x, y) in enumerate(moves):
        if not board.inside(x, y):
            raise OpeningDoesNotFit(f"stone {i + 1} is off a {size}x{size} board")
        if board.get(x, y):
            raise OpeningError(f"stone {i + 1} repeated")
        board.place(x, y, i % 2)
        if board.wins(x, y, i % 2, 0):
            raise OpeningError(f"stone {i + 1} makes five")
    return moves


def read_jsonl(*paths: str | Path) -> list[dict]:
    """The records of JSON-lines files (games, puzzles, positions), in order; blank lines skipped."""
    records = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            records += [json.loads(line) for line in f if line.strip()]
    return records


def game_moves(game: dict) -> list[list[int]]:
    """A match record's stones in order, the opening's first."""
    return [list(m) for m in game.get("opening", [])] + [list(m) for m in game["moves"]]


def read_openings(path: str, size: int) -> list[list[tuple[int, int]]]:
    """Every opening of a file that fits the board (one a line, `#` comments and blank lines
    skipped; openings reaching off the board are skipped with a note on stderr, as a file made
    for 20x20 is often used on 15x15)."""
    result = []
    for n, line in enumerate(Path(path).read_text().splitlines(), 1):
        if not line.split("#", 1)[0].strip():
            continue
        try:
            result.append(parse_opening(line, size))
        except OpeningDoesNotFit as e:
            sys.stderr.write(f"note: {path}:{n}: skipped: {e}\n")
        except OpeningError as e:
            raise OpeningError(f"{path}:{n}: {e}") from None
    if not result:
        raise OpeningError(f"{path}: no openings")
    return result


def near_points(board: Board, radius: int) -> list[tuple[int, int]]:
    """Empty points within `radius` (Chebyshev) of a stone, in row order."""
    pts = set()
    for y in range(board.height):
        for x in range(board.width):
            if board.get(x, y):
                for dy in range(-radius, radius + 1):
                    for dx in range(-radius, radius + 1):
                        px, py = x + dx, y + dy
                        if board.inside(px, py) and not board.get(px, py):
                            pts.add((px, py))
    return sorted(pts, key=lambda p: (p[1], p[0]))


def extend_opening(rng: random.Random, opening: list[tuple[int, int]], size: int, plies: int,
                   rule: int = 0, height: int | None = None) -> list[tuple[int, int]]:
    """The opening plus `plies` random stones next to the existing ones (within 2 points), none
    making a five (nor a renju foul for black when rule is renju). `size` is the width; `height`
    defaults to it."""
    height = size if height is None else height
    board = Board(size, height)
    for i, (x, y) in enumerate(opening):
        board.place(x, y, i % 2)
    moves = list(opening)
    for _ in range(plies):
        colour = len(moves) % 2
        if not moves:
            candidates = [(size // 2 + dx, height // 2 + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
        else:
            candidates = near_points(board, 2)
        candidates = [p for p in candidates if not board.wins(p[0], p[1], colour, 0)
                      and not (rule == RENJU and colour == BLACK and board.renju_foul(*p))]
        if not candidates:
            break
        x, y = rng.choice(candidates)
        board.place(x, y, colour)
        moves.append((x, y))
    return moves


def random_opening(rng: random.Random, size: int, stones: int, rule: int = 0,
                   height: int | None = None) -> list[tuple[int, int]]:
    """`stones` distinct points near the centre (within 2), alternating colours from black.
    `size` is the width; `height` defaults to it."""
    height = size if height is None else height
    cx, cy = size // 2, height // 2
    r = 2 if min(size, height) >= 9 else 1
    board = Board(size, height)
    moves: list[tuple[int, int]] = []
    while len(moves) < stones:
        p = (cx + rng.randint(-r, r), cy + rng.randint(-r, r))
        if board.get(*p) != 0:
            continue
        colour = len(moves) % 2
        if board.wins(p[0], p[1], colour, 0):
            continue
        board.place(p[0], p[1], colour)
        moves.append(p)
    return moves


# ---------------------------------------------------------------------------------------------
# Records
# ---------------------------------------------------------------------------------------------
def sgf_text(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def to_sgf(size: int, moves: list[tuple[int, int]], black: str, white: str, result: str,
           rule: int, comment: str = "", opening_len: int = 0) -> str:
    """One game as an SGF FF[4] GM[4] game tree. `result` is `B+`, `W+`, `0` (draw) or `?`;
    the opening stones are the first `opening_len` moves (noted in the root comment)."""
    props = [
        "FF[4]", "GM[4]", "CA[UTF-8]", "AP[gorin-match:1]", f"SZ[{size}]",
        f"PB[{sgf_text(black)}]", f"PW[{sgf_text(white)}]", f"RE[{result}]",
        f"RU[{sgf_text(RULE_NAMES.get(rule, str(rule)))}]",
    ]
    notes = [f"opening: first {opening_len} moves"] if opening_len else []
    if comment:
        notes.append(comment)
    if notes:
        props.append(f"C[{sgf_text('; '.join(notes))}]")
    nodes = ["".join(props)]
    for i, (x, y) in enumerate(moves):
        colour = "B" if i % 2 == 0 else "W"
        nodes.append(f"{colour}[{sgf_point(x, y)}]")
    return "(;" + "\n;".join(nodes) + ")\n"


def to_psq(size: int, moves: list[tuple[int, int]], times_ms: list[int], black: str, white: str,
           height: int | None = None) -> str:
    """One game in Piskvork's PSQ format: `Piskvorky WxH, 11:11, 0`, then `x,y,ms` per move
    (1-based coordinates), then the two players' names and `-1`."""
    lines = [f"Piskvorky {size}x{size if height is None else height}, 11:11, 0"]
    for (x, y), ms in zip(moves, times_ms):
        lines.append(f"{x + 1},{y + 1},{ms}")
    lines += [black, white, "-1"]
    return "\n".join(lines) + "\n"
