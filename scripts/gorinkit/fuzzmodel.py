"""An independent model of how Gorin reads the Gomocup protocol, for scripts/fuzz.py.

Two halves, as in the engine:
- `Reader`: the byte stream to commands (line splitting on LF/CR/CRLF, the 64 KiB line cap,
  lossy UTF-8, trimming, case-insensitive words, BOARD/YXBOARD/SWAP2BOARD bodies). It depends on
  nothing but the bytes sent, so it runs when the bytes are written.
- `Position`: what each command does to the session (board size, stones, turn time) and which
  reply it owes. It runs when the replies are read, in command order, because the engine's own
  moves change the board that later commands are judged against.

Written from the protocol description (../shared/PROTOCOL.md, README.md), not from the engine's
code; the string rules mirror Rust's: `str::trim` and `char::is_whitespace` (Unicode White_Space,
which is not Python's `str.isspace`: U+001C..U+001F are not whitespace in Rust),
`to_ascii_uppercase` (so `ſ` is not `S`), and `str::parse::<i32>` (ASCII digits, optional sign,
no `_`, overflow rejected). Python 3.11 standard library only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

MAX_LINE = 64 * 1024
MIN_SIZE, MAX_SIZE = 5, 32
DEFAULT_SIZE = 15  # the engine's board before any START
DEFAULT_TURN_MS = 5000

# Rust's char::is_whitespace (the Unicode White_Space property).
RUST_WS = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680"
    + "".join(chr(c) for c in range(0x2000, 0x200B))
    + "\u2028\u2029\u202f\u205f\u3000"
)
_WS_SET = frozenset(RUST_WS)
_ASCII_UPPER = {c: c - 32 for c in range(ord("a"), ord("z") + 1)}
_INT_RE = re.compile(r"[+-]?[0-9]+\Z")
_UINT_RE = re.compile(r"\+?[0-9]+\Z")

I32 = (-(2**31), 2**31 - 1)
I64 = (-(2**63), 2**63 - 1)
U64 = (0, 2**64 - 1)


def trim(s: str) -> str:
    return s.strip(RUST_WS)


def ascii_upper(s: str) -> str:
    return s.translate(_ASCII_UPPER)


def ascii_lower(s: str) -> str:
    return s.translate({v: k for k, v in _ASCII_UPPER.items()})


def split_word(s: str) -> tuple[str, str]:
    """`s.split_once(char::is_whitespace)`, rest trimmed; (s, "") when there is no whitespace."""
    for i, c in enumerate(s):
        if c in _WS_SET:
            return s[:i], trim(s[i + 1 :])
    return s, ""


def parse_num(s: str, lo_hi: tuple[int, int], signed: bool = True) -> int | None:
    """Rust `s.trim().parse::<T>()` for an integer type with the given range."""
    s = trim(s)
    if not (_INT_RE if signed else _UINT_RE).match(s):
        return None
    if len(s.lstrip("+-").lstrip("0")) > 25:
        return None  # far beyond any range (and beyond Python's int() digit limit)
    v = int(s)
    return v if lo_hi[0] <= v <= lo_hi[1] else None


def parse_i32(s: str) -> int | None:
    return parse_num(s, I32)


def parse_fields(s: str, n: int) -> list[int] | None:
    parts = s.split(",")
    if len(parts) != n:
        return None
    vals = [parse_i32(p) for p in parts]
    return None if any(v is None for v in vals) else vals  # type: ignore[return-value]


# ---- commands (what the reader produces) -------------------------------------------------------


@dataclass
class Cmd:
    kind: str  # START RESTART BEGIN TURN TAKEBACK PLAY BOARD YXBOARD INFO END ABOUT STOP MALFORMED UNKNOWN
    args: tuple = ()
    text: str = ""  # the line (or body) that made it, for reports
    sent_at: float = 0.0
    # Set by a later YXSTOP/STOP: the time it was sent (a running search must answer soon after).
    stop_at: float | None = None
    turn_est: int = 0  # the turn time the reader had seen when this command was read

    SEARCHES = ("BEGIN", "TURN", "BOARD", "NBEST", "BALANCE", "SWAP2")


@dataclass
class _Body:
    kind: str  # BOARD YXBOARD SWAP2
    stones: list = field(default_factory=list)
    error: bool = False
    lines: int = 0


# Every command word the engine knows: inside a BOARD/YXBOARD/SWAP2BOARD body, a line that
# starts with one of them cuts the body off.
COMMAND_WORDS = frozenset((
    "START", "RECTSTART", "RESTART", "BEGIN", "TURN", "TAKEBACK", "PLAY", "BOARD", "YXBOARD",
    "SWAP2BOARD", "INFO", "END", "ABOUT", "YXSTOP", "STOP", "YXSHOWFORBID", "YXHASHCLEAR",
    "YXSHOWINFO", "YXNBEST", "YXBALANCEONE", "YXBALANCETWO",
))


class Reader:
    """Bytes to commands, as the engine's reader thread does it."""

    def __init__(self) -> None:
        self.partial = bytearray()
        self.body: _Body | None = None
        self.quit = False  # END was read: nothing after it is read at all

    def feed(self, data: bytes, now: float) -> list[Cmd]:
        out: list[Cmd] = []
        for b in data:
            if b in (10, 13):
                self._line(out, now)
            elif len(self.partial) < MAX_LINE:
                self.partial.append(b)
        return out

    def finish(self, now: float) -> list[Cmd]:
        """End of input: a last line without a terminator still counts."""
        out: list[Cmd] = []
        self._line(out, now)
        return out

    def _line(self, out: list[Cmd], now: float) -> None:
        raw = bytes(self.partial)
        self.partial.clear()
        if self.quit or not raw:
            return
        for cmd in self._parse(raw.decode("utf-8", "replace")):
            cmd.sent_at = now
            if cmd.kind == "END":
                self.quit = True
            out.append(cmd)

    def _parse(self, line: str) -> list[Cmd]:
        line = trim(line)
        if not line:
            return []
        word, rest = split_word(line)
        word = ascii_upper(word)
        if self.body is not None:
            if ascii_upper(line) == "DONE" or word not in COMMAND_WORDS:
                return self._body_line(line)
            # A command line cuts the body off: the body is refused, then the command runs.
            self.body = None
            return [Cmd("MALFORMED", (), "body cut off by " + line)] + self._command(word, rest, line)
        return self._command(word, rest, line)

    def _command(self, word: str, rest: str, line: str) -> list[Cmd]:
        cmd = self._top_level(word, rest, line)
        return [] if cmd is None else [cmd]

    def _top_level(self, word: str, rest: str, line: str) -> Cmd | None:
        if word == "START":
            n = parse_i32(rest)
            return Cmd("START", (n, n), line) if n is not None else Cmd("MALFORMED", (), line)
        if word == "RECTSTART":
            v = parse_fields(rest, 2)
            return Cmd("START", tuple(v), line) if v else Cmd("MALFORMED", (), line)
        if word in ("TURN", "TAKEBACK", "PLAY"):
            v = parse_fields(rest, 2)
            return Cmd(word, tuple(v), line) if v else Cmd("MALFORMED", (), line)
        if word in ("RESTART", "BEGIN", "END", "ABOUT"):
            return Cmd(word, (), line)
        if word in ("YXSTOP", "STOP"):
            return Cmd("STOP", (), line)
        if word in ("YXSHOWFORBID", "YXHASHCLEAR", "YXSHOWINFO"):
            return Cmd(word, (), line)
        if word == "YXNBEST":
            n = parse_i32(rest)
            return Cmd("NBEST", (n,), line) if n is not None and n >= 1 else Cmd("MALFORMED", (), line)
        if word in ("YXBALANCEONE", "YXBALANCETWO"):
            b = 0 if rest == "" else parse_i32(rest)
            count = 1 if word == "YXBALANCEONE" else 2
            return Cmd("BALANCE", (count, b), line) if b is not None else Cmd("MALFORMED", (), line)
        if word in ("BOARD", "YXBOARD", "SWAP2BOARD"):
            self.body = _Body("SWAP2" if word == "SWAP2BOARD" else word)
            return None
        if word == "INFO":
            key, value = split_word(rest)
            return Cmd("INFO", (ascii_lower(key), value), line)
        return Cmd("UNKNOWN", (), line)

    def _body_line(self, line: str) -> list[Cmd]:
        body = self.body
        assert body is not None
        if ascii_upper(line) == "DONE":
            self.body = None
            text = "%s body of %d lines" % (body.kind, body.lines)
            return [Cmd(body.kind, (tuple(body.stones), body.error), text)]
        body.lines += 1
        if body.kind == "SWAP2":
            # Points only, black first and alternating; a third field is read and ignored.
            v = parse_fields(line, 2) or parse_fields(line, 3)
            if v is None:
                body.error = True
            else:
                body.stones.append((v[0], v[1]))
            return []
        v = parse_fields(line, 3)
        if v is None or v[2] not in (1, 2, 3):
            body.error = True
        else:
            body.stones.append(tuple(v))
        return []


# ---- the session (what each command does, and the reply it owes) ------------------------------


@dataclass
class Expect:
    """The reply a command owes: kind is OK, ERROR, UNKNOWN, MOVE, ECHO, ABOUT, or None (none)."""

    kind: str | None  # OK ERROR UNKNOWN MOVE ECHO ABOUT FORBID MOVES SWAP2, or None
    echo: str = ""
    counts: tuple = ()  # MOVES/SWAP2: the numbers of moves the reply may hold (SWAP2: 0 = SWAP)
    may_fail: bool = False  # MOVES: "ERROR no move found" tolerated (empty board, see report)
    bound_ms: int = 2000
    full: bool = False  # MOVE on a full board: the engine answers ERROR instead
    board: frozenset = frozenset()  # MOVE: the stones once the command's own change is made


class Position:
    """Board size, occupied points and the turn time, as the engine should have them."""

    def __init__(self) -> None:
        self.w = self.h = DEFAULT_SIZE
        self.stones: set[tuple[int, int]] = set()
        self.turn_ms = DEFAULT_TURN_MS
        self.max_memory = 0
        self.hash_kib = 0

    def on_board(self, x: int, y: int) -> bool:
        return 0 <= x < self.w and 0 <= y < self.h

    def free(self, x: int, y: int) -> bool:
        return self.on_board(x, y) and (x, y) not in self.stones

    def full(self) -> bool:
        return len(self.stones) >= self.w * self.h

    def expect(self, cmd: Cmd, slack_ms: int) -> Expect:
        """The reply `cmd` owes in the current position. Call `apply` once it is judged."""
        k, a = cmd.kind, cmd.args
        if k == "START":
            ok = all(MIN_SIZE <= n <= MAX_SIZE for n in a)
            return Expect("OK" if ok else "ERROR")
        if k == "RESTART":
            return Expect("OK")
        if k == "BEGIN":
            return self._move(slack_ms, self.stones)
        if k == "TURN":
            if not self.free(*a):
                return Expect("ERROR")
            return self._move(slack_ms, self.stones | {a})
        if k == "PLAY":
            return Expect("ECHO", echo="%d,%d" % a) if self.free(*a) else Expect("ERROR")
        if k == "TAKEBACK":
            return Expect("OK" if a in self.stones else "ERROR")
        if k == "BOARD":
            new = self._setup(a)
            return Expect("ERROR") if new is None else self._move(slack_ms, new)
        if k in ("MALFORMED",):
            return Expect("ERROR")
        if k == "UNKNOWN":
            return Expect("UNKNOWN")
        if k == "ABOUT":
            return Expect("ABOUT")
        if k == "YXSHOWFORBID":
            return Expect("FORBID", board=frozenset(self.stones))
        if k == "NBEST":
            if self.full():
                return Expect("ERROR")
            return Expect("MOVES", counts=(1,), bound_ms=self.turn_ms + slack_ms, board=frozenset(self.stones))
        if k == "BALANCE":
            count = a[0]
            if len(self.stones) + count > self.w * self.h:
                return Expect("ERROR")
            return Expect("MOVES", counts=(count,), bound_ms=self.turn_ms + slack_ms,
                          board=frozenset(self.stones), may_fail=not self.stones)
        if k == "SWAP2":
            new = self._swap2(a)
            if new is None:
                return Expect("ERROR")
            counts = {0: (3,), 3: (0, 1, 2), 5: (0, 1)}[len(new)]
            return Expect("SWAP2", counts=counts, bound_ms=self.turn_ms + slack_ms, board=frozenset(new))
        return Expect(None)

    def _swap2(self, args: tuple) -> set | None:
        points, error = args
        if error or len(points) not in (0, 3, 5) or len(set(points)) != len(points):
            return None
        if not all(self.on_board(*p) for p in points):
            return None
        return set(points)  # INFO, YXBOARD, STOP, END

    def _move(self, slack_ms: int, stones: set) -> Expect:
        full = len(stones) >= self.w * self.h
        return Expect("MOVE", bound_ms=self.turn_ms + slack_ms, full=full, board=frozenset(stones))

    def _setup(self, args: tuple) -> set | None:
        """The stones of a BOARD/YXBOARD body, or None if the engine must refuse it."""
        stones, error = args
        if error:
            return None
        new: set = set()
        for x, y, f in stones:
            if f == 3:
                continue  # a mark, not a stone (never checked against the board)
            if not self.on_board(x, y) or (x, y) in new:
                return None
            new.add((x, y))
        return new

    def apply(self, cmd: Cmd, reply: str | None) -> None:
        """Commit `cmd` after its reply (None for commands that owe none) was judged correct."""
        k, a = cmd.kind, cmd.args
        refused = reply is not None and (reply.startswith("ERROR") or reply.startswith("UNKNOWN"))
        if k == "START" and not refused:
            self.w, self.h = a
            self.stones = set()
        elif k == "RESTART":
            self.stones = set()
        elif k == "TURN" and self.free(*a):
            self.stones.add(a)  # stays even when the reply is ERROR for a full board
        elif k == "PLAY" and not refused:
            self.stones.add(a)
        elif k == "TAKEBACK" and not refused:
            self.stones.discard(a)
        elif k in ("BOARD", "YXBOARD"):
            new = self._setup(a)
            if new is not None:
                self.stones = new
        elif k == "INFO":
            self._info(*a)
        elif k in ("NBEST", "BALANCE", "SWAP2") and not refused:
            if k == "SWAP2":
                self.stones = set(self._swap2(a) or ())
            for p in parse_moves(reply or ""):
                self.stones.add(p)
            return
        if k in Cmd.SEARCHES and reply is not None and not refused:
            self.stones.add(parse_move(reply))  # type: ignore[arg-type]

    def _info(self, key: str, value: str) -> None:
        if key == "timeout_turn":
            v = parse_i32(value)
            if v is not None and v >= 0:
                self.turn_ms = v
        elif key == "max_memory":
            v = parse_num(value, U64, signed=False)
            if v is not None:
                self.max_memory = v
        elif key == "hash_size":
            v = parse_num(value, U64, signed=False)
            if v is not None:
                self.hash_kib = v


MOVE_RE = re.compile(r"([0-9]+),([0-9]+)\Z")


def parse_move(line: str) -> tuple[int, int] | None:
    m = MOVE_RE.match(line)
    return (int(m.group(1)), int(m.group(2))) if m else None


def parse_moves(line: str) -> list:
    """`x,y x,y ...` (single spaces), or [] if the line is not that."""
    moves = [parse_move(part) for part in line.split(" ")]
    return [] if any(m is None for m in moves) else moves


FORBID_RE = re.compile(r"FORBID ((?:[0-9]{4})*)\.\Z")


def judge(exp: Expect, line: str, pos: Position) -> str | None:
    """None if `line` is the reply `exp` describes, else why not."""
    k = exp.kind
    if k == "OK":
        return None if line == "OK" else "expected OK"
    if k == "ERROR":
        return None if line.split(" ")[0] == "ERROR" else "expected ERROR"
    if k == "UNKNOWN":
        return None if line.split(" ")[0] == "UNKNOWN" else "expected UNKNOWN"
    if k == "ABOUT":
        return None if line.startswith('name="') else "expected name=..."
    if k == "ECHO":
        return None if line == exp.echo else "expected %s" % exp.echo
    if k == "MOVE":
        if exp.full:
            return None if line.split(" ")[0] == "ERROR" else "expected ERROR (board full)"
        mv = parse_move(line)
        if mv is None:
            return "expected a move x,y"
        if not pos.on_board(*mv):
            return "move %d,%d is off the %dx%d board" % (mv[0], mv[1], pos.w, pos.h)
        if mv in exp.board:
            return "move %d,%d is on an occupied point" % mv
        return None
    if k == "FORBID":
        m = FORBID_RE.match(line)
        if not m:
            return "expected FORBID xxyy...."
        pts = [(int(m.group(1)[i:i + 2]), int(m.group(1)[i + 2:i + 4])) for i in range(0, len(m.group(1)), 4)]
        bad = [p for p in pts if not pos.on_board(*p) or p in exp.board]
        return "forbidden point(s) %s off the board or occupied" % bad if bad else None
    if k in ("MOVES", "SWAP2"):
        if exp.may_fail and line.startswith("ERROR"):
            return None
        if k == "SWAP2" and line == "SWAP":
            return None if 0 in exp.counts else "SWAP not allowed here"
        moves = parse_moves(line)
        if not moves or len(moves) not in exp.counts:
            return "expected %s move(s) x,y separated by spaces" % "/".join(map(str, exp.counts))
        if len(set(moves)) != len(moves):
            return "the same point twice"
        for mv in moves:
            if not pos.on_board(*mv):
                return "move %d,%d is off the %dx%d board" % (mv[0], mv[1], pos.w, pos.h)
            if mv in exp.board:
                return "move %d,%d is on an occupied point" % mv
        return None
    return "no reply expected"
