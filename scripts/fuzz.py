#!/usr/bin/env python3
"""Protocol fuzzer: seeded random sessions against a Gomocup brain, checked by a model.

    python3 scripts/fuzz.py --seed 1 --lines 100000
    nice -n 10 python3 scripts/fuzz.py --seed 7 --lines 1000000 --jobs 1
    python3 scripts/fuzz.py --seed 7 --sessions 1 --first-session 123 -v   # one session again

Each session is a fresh engine process fed a random mix of valid play (INFO, START, BEGIN, TURN,
BOARD, TAKEBACK, PLAY, RESTART, ABOUT) and abuse: truncated lines, huge and negative numbers,
off-board points, binary junk, lines over 64 KiB, commands out of order, bodies never closed,
CR/CRLF/LF endings, odd letter case and Unicode whitespace, writes split mid-line. An independent
model (fuzzmodel.py) tracks the board from the commands the engine accepted and the moves it
played, and checks every reply:
- no crash: the process exits only after END or end of input, with status 0 and empty stderr;
- no hang: a move within timeout_turn + 2 s (and within 2 s of a YXSTOP), other replies within
  2 s, the exit within 2 s of END;
- every move on the board and on an empty point; START/RECTSTART/RESTART/TAKEBACK/PLAY/ABOUT
  answered as specified; every bad command answered ERROR (known command, bad arguments) or
  UNKNOWN; INFO, YXBOARD and YXSTOP never answered; a bad BOARD body answered once, at DONE,
  and a body cut off by a command line answered ERROR once before that command's reply; after
  END, a move request read before it may go unanswered, any other command read before it may not;
- consistency: a refused command leaves the board as it was, which later commands probe.

Searches are kept short (timeout_turn 0..50 mostly); a longer one is stopped with YXSTOP after a
few ms. The generator reads the model's board, so a session replays exactly only with the same
engine replies: every failure is therefore replayed from its recorded bytes and shrunk (steps
removed while the same kind of failure persists) to a minimal transcript.

By default the engine runs with RUST_LOG=error so that a panic the engine catches and survives
(it answers without search) still shows up on stderr; `--no-panic-log` runs it with RUST_LOG
unset, as a manager would.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import threading
import time
from collections import Counter, deque
from dataclasses import dataclass, field

from gorinkit import fuzzmodel as fm
from gorinkit.brain import Brain, BrainDied
from gorinkit.protocol import is_chatter

SLACK_MS = 2000  # every reply bound: a move's turn time plus this, anything else this
END_BOUND_S = 2.0  # exit after END
LONG_TURN_MS = 60  # a search allowed longer than this gets a YXSTOP after a few ms
MAX_SHRINK_RUNS = 150
HUGE_MEMORY = 1 << 34  # max_memory / hash_size beyond this is the `huge_memory` feature

INFO_KEYS = [
    "timeout_turn", "timeout_match", "time_left", "max_memory", "hash_size", "game_type", "rule",
    "folder", "evaluate", "thread_num", "max_depth", "max_node", "caution_factor", "pondering",
    "strength", "usedatabase", "nonsense_key", "",
]
WORDS = [
    "START", "RECTSTART", "RESTART", "BEGIN", "TURN", "BOARD", "YXBOARD", "SWAP2BOARD", "DONE",
    "TAKEBACK", "PLAY", "INFO", "END", "ABOUT", "YXSTOP", "STOP", "SUGGEST", "YXSHOWFORBID",
    "YXHASHCLEAR", "YXNBEST", "YXSHOWINFO", "YXBALANCEONE", "MESSAGE", "ERROR", "OK", "UNKNOWN",
]
UNICODE_JUNK = ["\u00a0", "\u3000", "\u2028", "\u0085", "\x1c", "\x1f", "\u017f", "\uff13", "\u0663",
                "\ufeff", "\ufffd", "\u200b", "\x00", "\x7f", "\U0001F600", "\u0130", "\u212a"]
FEATURES = ["huge_memory", "long_lines", "binary", "split_writes", "long_search", "end_mid_search"]


@dataclass
class Step:
    chunks: list[bytes]
    lines: int
    wait: bool = True  # read every owed reply before the next step
    delay_s: float = 0.0  # pause before writing (and between chunks)
    note: str = ""


@dataclass
class Failure:
    kind: str  # crash stderr hang wrong extra
    why: str
    step: int


@dataclass
class Outcome:
    failure: Failure | None
    steps: list[Step]
    lines: int
    replies: Counter
    log: list[str]


# ---------------------------------------------------------------------------------------------
# Generator
# ---------------------------------------------------------------------------------------------


class Gen:
    """Random steps for one session; reads the model position to aim at free or occupied points."""

    def __init__(self, rng: random.Random, exclude: set[str]):
        self.r = rng
        self.ex = exclude
        r = rng
        self.eol = r.choice(["\n"] * 5 + ["\r\n"] * 2 + ["\r", "mixed"])
        self.case = r.choice(["upper"] * 6 + ["lower"] * 2 + ["mixed"])
        self.chaos = r.choice([0.0, 0.03, 0.1, 0.1, 0.3, 0.6])
        self.nsteps = int(r.choice([5, 20, 60, 150, 400]) * (0.5 + r.random()))
        self.i = 0
        self.done = False
        self.preamble = r.random() < 0.85  # INFO timeout_turn + START first, as managers do

    # ---- text helpers ------------------------------------------------------------------------
    def e(self) -> str:
        return self.r.choice(["\n", "\r\n", "\r"]) if self.eol == "mixed" else self.eol

    def w(self, word: str) -> str:
        c = self.case
        if c == "mixed":
            c = self.r.choice(["upper", "lower", "rand"])
        if c == "lower":
            return word.lower()
        if c == "rand":
            return "".join(ch.lower() if self.r.random() < 0.5 else ch for ch in word)
        return word

    def pad(self, s: str) -> str:
        r = self.r
        if r.random() < 0.1:
            s = r.choice([" ", "  ", "\t", "\u00a0", "\u3000"]) + s
        if r.random() < 0.1:
            s = s + r.choice([" ", "\t ", "\u2003", "\x0b", "\x0c"])
        return s

    def num(self) -> str:
        """A number from anywhere: small, negative, edge of i32/i64, huge, odd spellings."""
        r = self.r
        k = r.random()
        if k < 0.5:
            return str(r.randint(-3, 40))
        if k < 0.7:
            return str(r.choice([2**31 - 1, 2**31, -(2**31), -(2**31) - 1, 2**32, 2**63 - 1, 2**63,
                                 2**64, -(2**63), 10**30, 65535, 65536, 4294967295]))
        if k < 0.8:
            return r.choice(["+5", "-0", "007", "+", "-", "5.0", "1e3", "0x10", "5_0", " 9 ", "\uff15",
                             "\u0667", "NaN", "", "1,2", "--1", "+-1", "9" * r.randint(10, 400)])
        return str(r.randint(-(10**6), 10**6))

    def coord(self, pos: fm.Position, kind: str) -> str:
        r = self.r
        if kind == "free":
            p = self.free_point(pos)
            if p is None:
                kind = "any"
            else:
                return self.sep(*p)
        if kind == "occupied" and pos.stones:
            return self.sep(*r.choice(sorted(pos.stones)))
        if kind == "off":
            x, y = r.choice([(pos.w, 0), (0, pos.h), (-1, 0), (0, -1), (pos.w + r.randint(0, 50), 3),
                             (r.randint(-(2**31), -1), 2), (31, 31), (32, 32)])
            return self.sep(x, y)
        if kind == "junk":
            return r.choice([self.num(), self.num() + "," + self.num(), ",", "3,", ",3", "3,4,5",
                             "3;4", "3 4", "3,4,", "", "a,b", "3,4 5"])
        return self.sep(r.randint(-1, pos.w), r.randint(-1, pos.h))

    def sep(self, x: int, y: int) -> str:
        r = self.r
        if r.random() < 0.9:
            return "%d,%d" % (x, y)
        return r.choice(["%d , %d", " %d,%d ", "+%d,+%d", "%d,\t%d", "0%d,00%d"]) % (x, y)

    def free_point(self, pos: fm.Position) -> tuple[int, int] | None:
        r = self.r
        if pos.full():
            return None
        if pos.stones and r.random() < 0.8:
            for _ in range(20):
                sx, sy = r.choice(sorted(pos.stones))
                p = (sx + r.randint(-2, 2), sy + r.randint(-2, 2))
                if pos.free(*p):
                    return p
        for _ in range(200):
            p = (r.randrange(pos.w), r.randrange(pos.h))
            if pos.free(*p):
                return p
        free = [(x, y) for x in range(pos.w) for y in range(pos.h) if (x, y) not in pos.stones]
        return r.choice(free) if free else None

    def junk_line(self) -> bytes:
        r = self.r
        k = r.random()
        if k < 0.25 and "binary" not in self.ex:
            return bytes(r.randrange(256) for _ in range(r.randint(1, 60)))
        if k < 0.4:
            return "".join(r.choice(UNICODE_JUNK + list("abcXYZ019,;: -+")) for _ in range(r.randint(1, 30))).encode()
        if k < 0.55:
            valid = r.choice(["START 15", "TURN 7,8", "RECTSTART 20,15", "TAKEBACK 3,3", "INFO timeout_turn 10",
                              "BOARD", "YXBOARD", "DONE", "PLAY 1,1", "ABOUT", "RESTART", "BEGIN"])
            return valid[: r.randint(0, len(valid))].encode()  # a truncated command
        if k < 0.7:
            word = r.choice(WORDS + ["", "start15", "TURN3,4", "BEGIN BEGIN", "END END", "ENDX", "DONE 1"])
            args = " ".join(self.num() for _ in range(r.randint(0, 3)))
            return ("%s %s" % (self.w(word), args)).encode()
        if k < 0.8:
            return r.choice(["", " ", "\t", "\x0b", "\x0c", "\u00a0", "\u2028", " \t \u3000"]).encode()
        if k < 0.9:
            word = r.choice(["ＴＵＲＮ 3,4", "\u017ftart 15", "TURN\x1c3,4", "TU RN 3,4", "\ufeffABOUT", "ABOUT\x00",
                             "TURN\u00a03,4", "START\u300015", "INFO\u2003timeout_turn\u20030", "turn \u0663,\u0664"])
            return word.encode()
        return (self.w(r.choice(WORDS)) + " " + self.coord(fm.Position(), "junk")).encode()

    def long_line(self) -> bytes:
        r = self.r
        n = r.choice([fm.MAX_LINE - 1, fm.MAX_LINE, fm.MAX_LINE + 1, r.randint(1000, 300_000)])
        head = r.choice([b"TURN 3,4", b"ABOUT", b"INFO folder ", b"START 15", b"", b"TAKEBACK 1,1",
                         "é".encode() * 3])
        fill = r.choice([b" ", b"x", b"9", "é".encode(), b",", b"\xff"])
        body = (head + fill * n)[: n]
        if r.random() < 0.5 and n >= fm.MAX_LINE:
            body = body[: fm.MAX_LINE - 1] + "é".encode() + body[fm.MAX_LINE + 1:]  # a char cut by the cap
        return body

    # ---- steps -------------------------------------------------------------------------------
    def step(self, pos: fm.Position) -> Step | None:
        if self.done:
            return None
        r = self.r
        self.i += 1
        if self.i == 1 and self.preamble:
            lines = ["%s %s %d" % (self.w("INFO"), self.w("timeout_turn"), r.choice([0, 0, 5, 20, 50])),
                     "%s %d" % (self.w("START"), r.choice([15, 15, 20, 5, 9, r.randint(5, 32)]))]
            if r.random() < 0.3:
                lines.insert(1, "%s rule %d" % (self.w("INFO"), r.choice([0, 1, 2, 3, 4, 8, 9, 11])))
            return self.make(lines)
        if self.i > self.nsteps:
            return self.finish(pos)
        lines: list = []
        for _ in range(r.choice([1, 1, 1, 1, 2, 3, 6])):
            lines.extend(self.action(pos))
        return self.make(lines)

    def make(self, lines: list, wait: bool = True, delay: float = 0.0, note: str = "") -> Step:
        r = self.r
        data = b"".join((l if isinstance(l, bytes) else l.encode()) + self.e().encode() for l in lines)
        chunks = [data]
        if "split_writes" not in self.ex and len(data) > 2 and r.random() < 0.05:
            cut = sorted(r.sample(range(1, len(data)), min(2, len(data) - 1)))
            chunks = [data[: cut[0]], data[cut[0]: cut[-1]], data[cut[-1]:]]
            chunks = [c for c in chunks if c]
        return Step(chunks, len(lines), wait, delay, note)

    def finish(self, pos: fm.Position) -> Step | None:
        r = self.r
        self.done = True
        k = r.random()
        if k < 0.15:
            return None  # end of input
        if k < 0.25 and "end_mid_search" not in self.ex:
            lines = [self.w("TURN") + " " + self.coord(pos, "free"), self.w("END")]
            if r.random() < 0.5 and "long_search" not in self.ex:
                lines.insert(0, "%s timeout_turn %d" % (self.w("INFO"), r.choice([300, 3000])))
            # END must stop a running search at once: the exit is due within 2 s of END.
            return self.make(lines, wait=False, delay=0.0)
        if k < 0.32:
            return self.make([self.w("BOARD"), "1,1,1", self.w("END"), "junk after end"], wait=False)
        return self.make([self.w("END")] + (["TURN 1,1"] if r.random() < 0.1 else []), wait=False)

    def action(self, pos: fm.Position) -> list:
        r = self.r
        if r.random() < self.chaos:
            k = r.random()
            if k < 0.04 and "long_lines" not in self.ex:
                return [self.long_line()]
            return [self.junk_line()]
        table = [
            (10, self.a_info), (4, self.a_start), (2, self.a_restart), (1.5, self.a_begin),
            (7, self.a_turn), (5, self.a_turn_bad), (3, self.a_takeback), (2, self.a_play),
            (2.5, self.a_board), (1.5, self.a_yxboard), (0.4, self.a_swap2), (2, self.a_about),
            (1, self.a_stop), (1, self.a_done), (5, self.a_junk), (0.3, self.a_long),
            (1.5, self.a_yx), (0.8, self.a_analysis),
        ]
        total = sum(wt for wt, _ in table)
        x = r.random() * total
        for wt, f in table:
            x -= wt
            if x < 0:
                return f(pos)
        return []

    def a_info(self, pos: fm.Position) -> list:
        r = self.r
        key = r.choice(INFO_KEYS)
        if r.random() < 0.4:
            key = "timeout_turn"
        if key == "timeout_turn" and r.random() < 0.85:
            v = str(r.choice([0, 0, 1, 5, 10, 20, 30, 50] + ([r.randint(100, 3000)] if "long_search" not in self.ex else [])))
        elif key == "time_left" and r.random() < 0.6:
            v = str(r.choice([-1000, -1, 0, 1, 50, 2147483647, r.randint(0, 100000)]))
        elif key == "rule" and r.random() < 0.7:
            v = str(r.choice([0, 1, 2, 3, 4, 6, 8, 9, 10, 11, 12, 13, -1, 16, 255]))
        elif key in ("max_memory", "hash_size") and r.random() < 0.6:
            v = str(r.choice([0, 1, 1000, 1 << 20, 67108864, 367001600, 1 << 30, 25 << 20, 24 << 20]
                             + ([2**40, 2**63, 2**64 - 1, 10**15] if "huge_memory" not in self.ex else [])))
        else:
            v = r.choice([self.num(), self.num() + " " + self.num(), "C:\\brains\\x y", "\u00e9t\u00e9", ""])
        if "huge_memory" in self.ex and key in ("max_memory", "hash_size"):
            n = fm.parse_num(v, fm.U64, signed=False)
            if n is not None and n * (1024 if key == "hash_size" else 1) > HUGE_MEMORY:
                v = "-1"
        if key == "timeout_turn":
            n = fm.parse_i32(v)
            if n is not None and n > 3000:
                v = "3000"  # a valid but long turn time: kept finite, stopped by YXSTOP anyway
        key = r.choice([key, key, key.upper()])
        return [self.pad("%s %s %s" % (self.w("INFO"), key, v))]

    def a_start(self, pos: fm.Position) -> list:
        r = self.r
        k = r.random()
        if k < 0.6:
            return [self.pad("%s %d" % (self.w("START"), r.choice([15, 20, 5, 6, 9, 32, r.randint(5, 32)])))]
        if k < 0.8:
            return [self.pad("%s %d,%d" % (self.w("RECTSTART"), r.randint(5, 32), r.randint(5, 32)))]
        if k < 0.9:
            return ["%s %s" % (self.w("START"), r.choice(["4", "33", "0", "-15", "1000000", self.num()]))]
        return ["%s %s" % (self.w("RECTSTART"), self.coord(pos, r.choice(["junk", "off"])))]

    def a_restart(self, pos):
        return [self.pad(self.w("RESTART"))]

    def a_begin(self, pos):
        return [self.pad(self.w("BEGIN"))]

    def a_turn(self, pos):
        return [self.pad("%s %s" % (self.w("TURN"), self.coord(pos, "free")))]

    def a_turn_bad(self, pos):
        return ["%s %s" % (self.w("TURN"), self.coord(pos, self.r.choice(["occupied", "off", "junk", "any"])))]

    def a_play(self, pos):
        return ["%s %s" % (self.w("PLAY"), self.coord(pos, self.r.choice(["free", "free", "occupied", "off", "junk"])))]

    def a_takeback(self, pos):
        r = self.r
        kind = r.choice(["occupied", "occupied", "any", "off", "junk"])
        return [self.pad("%s %s" % (self.w("TAKEBACK"), self.coord(pos, kind)))]

    def body(self, pos: fm.Position) -> list:
        r = self.r
        cells = [(x, y) for x in range(pos.w) for y in range(pos.h)]
        k = r.random()
        if k < 0.1:
            n = 0
        elif k < 0.2 and pos.w * pos.h <= 100:
            n = len(cells) - r.randint(0, 2)  # (nearly) full board
        else:
            n = min(len(cells), r.choice([1, 2, 3, 5, 10, 20, 40]))
        pts = r.sample(cells, n)
        lines = ["%d,%d,%d" % (x, y, r.choice([1, 2])) for x, y in pts]
        if r.random() < 0.15:
            lines.append("%d,%d,3" % (r.randint(-5, 40), r.randint(-5, 40)))
        if r.random() < 0.3:
            bad = r.choice(["dup", "off", "junk", "field", "cmd", "empty"])
            if bad == "dup" and pts:
                lines.append("%d,%d,%d" % (pts[0] + (r.choice([1, 2]),)))
            elif bad == "off":
                lines.append("%s,%d" % (self.coord(pos, "off"), r.choice([1, 2])))
            elif bad == "junk":
                lines.append(self.junk_line())
            elif bad == "field":
                lines.append("1,1,%s" % r.choice(["0", "4", "-1", "", "x", "99999999999"]))
            elif bad == "cmd":
                lines.append(r.choice(["TURN 1,1", "INFO timeout_turn 0", "YXSTOP", "BOARD", "ABOUT", "START 15"]))
            else:
                lines.append("")
            r.shuffle(lines)
        return lines

    def a_board(self, pos):
        lines = [self.w("BOARD")] + self.body(pos)
        if self.r.random() < 0.05:
            self.done = True  # BOARD never closed, then END
            return lines + [self.w("END")]
        return lines + [self.pad(self.w("DONE"))]

    def a_yxboard(self, pos):
        return [self.w("YXBOARD")] + self.body(pos) + [self.w("DONE")]

    def a_swap2(self, pos):
        r = self.r
        n = r.choice([0, 0, 3, 3, 5, 5, 1, 2, 4, 6])
        cx, cy = pos.w // 2, pos.h // 2
        near = [(cx + dx, cy + dy) for dx in range(-3, 4) for dy in range(-3, 4) if pos.on_board(cx + dx, cy + dy)]
        pts = r.sample(near, min(n, len(near)))
        lines = ["%d,%d" % p if r.random() < 0.9 else "%d,%d,%s" % (p + (self.num(),)) for p in pts]
        if r.random() < 0.2:
            lines.insert(r.randint(0, len(lines)), r.choice(
                [self.junk_line(), self.coord(pos, "off"), lines[0] if lines else "x", "1,2,3,4"]))
        return [self.w("SWAP2BOARD")] + lines + [self.w("DONE")]

    def a_yx(self, pos):
        return [self.pad(self.w(self.r.choice(["YXSHOWFORBID", "YXSHOWFORBID", "YXHASHCLEAR", "YXSHOWINFO"])))]

    def a_analysis(self, pos):
        r = self.r
        word = r.choice(["YXNBEST", "YXBALANCEONE", "YXBALANCETWO"])
        if word == "YXNBEST":
            arg = str(r.choice([1, 2, 3, 5])) if r.random() < 0.85 else r.choice(["0", "-1", "", "x", "40", self.num()])
        else:
            arg = r.choice(["", "0", "50", "-100", str(r.randint(-3000, 3000))]) if r.random() < 0.85 else self.num()
        return [self.pad(("%s %s" % (self.w(word), arg)).rstrip())]

    def a_about(self, pos):
        return [self.pad(self.w("ABOUT"))]

    def a_stop(self, pos):
        return [self.w(self.r.choice(["YXSTOP", "STOP"]))]

    def a_done(self, pos):
        return [self.w("DONE")]

    def a_junk(self, pos):
        return [self.junk_line()]

    def a_long(self, pos):
        return [] if "long_lines" in self.ex else [self.long_line()]


# ---------------------------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------------------------


def describe(cmd: fm.Cmd) -> str:
    t = cmd.text
    return repr(t if len(t) <= 60 else t[:60] + "...")


class Session:
    """One engine process driven by a step source and checked against the model."""

    def __init__(self, bin_path: str, verbose: bool, auto_stop_rng: random.Random | None):
        self.bin = bin_path
        self.verbose = verbose
        self.stop_rng = auto_stop_rng  # None in replays: the recorded steps already hold the stops
        self.stderr: list[str] = []
        self.log: list[str] = []
        self.replies: Counter = Counter()

    def run(self, source) -> Outcome:
        """`source(pos)` returns the next Step or None."""
        brain = Brain([self.bin], "gorin", on_stderr=self.stderr.append)
        reader, pos, pending = fm.Reader(), fm.Position(), deque()
        self.last = time.monotonic()
        steps: list[Step] = []
        lines = 0
        failure = None
        try:
            while failure is None and not reader.quit:
                step = source(pos)
                if step is None:
                    break
                failure = self.do_step(brain, step, reader, pending, len(steps))
                steps.append(step)
                lines += step.lines
                if failure is None and not reader.quit and self.stop_rng is not None:
                    extra = self.auto_stop(pending)
                    if extra is not None:
                        failure = self.do_step(brain, extra, reader, pending, len(steps))
                        steps.append(extra)
                        lines += extra.lines
                if failure is None and step.wait and not reader.quit:
                    failure = self.drain(brain, pos, pending, len(steps) - 1, optional=False)
            if failure is None:
                failure = self.finish(brain, reader, pos, pending, len(steps))
        finally:
            brain.close(grace_s=END_BOUND_S)
        if failure is None and self.stderr:
            failure = Failure("stderr", "stderr not empty: %r" % self.stderr[:3], len(steps))
        return Outcome(failure, steps, lines, self.replies, self.log)

    def auto_stop(self, pending: deque) -> Step | None:
        """A YXSTOP after a few ms for searches allowed more than LONG_TURN_MS."""
        if not any(c.kind in fm.Cmd.SEARCHES and c.stop_at is None and c.turn_est > LONG_TURN_MS for c in pending):
            return None
        r = self.stop_rng
        assert r is not None
        word = r.choice(["YXSTOP", "STOP", "yxstop"])
        return Step([(word + "\n").encode()], 1, True, r.choice([0, 0.001, 0.005, 0.02, 0.05]), "auto stop")

    def do_step(self, brain: Brain, step: Step, reader: fm.Reader, pending: deque, index: int) -> Failure | None:
        for n, chunk in enumerate(step.chunks):
            if step.delay_s or n:
                time.sleep(step.delay_s or 0.001)
            if reader.quit:
                break
            now = time.monotonic()
            for cmd in reader.feed(chunk, now):
                cmd.turn_est = self.turn_est = self.track_turn(cmd)
                if cmd.kind == "STOP":
                    for c in pending:
                        if c.kind in fm.Cmd.SEARCHES and c.stop_at is None:
                            c.stop_at = now
                pending.append(cmd)
            if self.verbose:
                self.log.append("> %r" % chunk[:200])
            try:
                self.write(brain, chunk)
            except BrainDied as e:
                if not reader.quit:
                    return Failure("crash", "cannot write to the engine: %s" % e, index)
        return None

    turn_est = fm.DEFAULT_TURN_MS

    def track_turn(self, cmd: fm.Cmd) -> int:
        if cmd.kind == "INFO" and cmd.args[0] == "timeout_turn":
            v = fm.parse_i32(cmd.args[1])
            if v is not None and v >= 0:
                return v
        return self.turn_est

    @staticmethod
    def write(brain: Brain, data: bytes) -> None:
        fd = brain.proc.stdin.fileno()  # non-blocking (brainproc)
        deadline = time.monotonic() + 2.0
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(fd, view):]
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise BrainDied("stdin not read for 2 s")
                time.sleep(0.001)
            except OSError as e:
                raise BrainDied(str(e)) from None

    def read(self, brain: Brain, deadline: float):
        """Next non-chatter line: (t, line), (t, None) at EOF, or None at the deadline."""
        while True:
            got = brain.read(deadline - time.monotonic())
            if got is None or got[1] is None:
                return got
            if self.verbose:
                self.log.append("< %s" % got[1][:200])
            if not is_chatter(got[1]):
                return got

    def drain(self, brain: Brain, pos: fm.Position, pending: deque, index: int, optional: bool,
              end_at: float | None = None) -> Failure | None:
        """Read the replies owed by the pending commands, in order, and apply them to the model.
        `optional`: END was sent, so a move request read before it may go unanswered (a search
        running at END stops without its move; a queued one never starts), while every other
        command read before END is still answered, in order; then EOF."""
        held = None  # a line that turned out not to answer a skipped move request
        while pending:
            cmd = pending[0]
            if cmd.kind == "END":
                return None if held is None else Failure("extra", "unexpected output %r" % held[1][:120], index)
            exp = pos.expect(cmd, SLACK_MS)
            if exp.kind is None:
                pos.apply(cmd, None)
                pending.popleft()
                continue
            skippable = optional and cmd.kind in fm.Cmd.SEARCHES
            base = max(cmd.sent_at, self.last)
            deadline = base + exp.bound_ms / 1000
            if cmd.stop_at is not None:
                deadline = min(deadline, max(cmd.stop_at, base) + SLACK_MS / 1000)
            if end_at is not None:
                deadline = min(deadline, end_at + END_BOUND_S)
            got, held = (held, None) if held is not None else (self.read(brain, deadline), None)
            if got is None:
                if optional:
                    return Failure("hang", "still running %.1f s after END" % END_BOUND_S, index)
                return Failure("hang", "no reply to %s within %d ms (expected %s)"
                               % (describe(cmd), (deadline - base) * 1000, exp.kind), index)
            t, line = got
            if line is None:
                if optional and all(c.kind in fm.Cmd.SEARCHES or c.kind == "END"
                                    or pos.expect(c, SLACK_MS).kind is None for c in pending):
                    return None
                code = brain.proc.wait(timeout=5) if brain.proc.poll() is None else brain.proc.returncode
                return Failure("crash", "engine exited (status %s) before answering %s" % (code, describe(cmd)), index)
            why = fm.judge(exp, line, pos)
            if why and skippable:
                pending.popleft()  # skipped: the line answers a later command
                held = got
                continue
            if why:
                return Failure("wrong", "%s: %s, got %r (%d stones on %dx%d)"
                               % (describe(cmd), why, line[:120], len(pos.stones), pos.w, pos.h), index)
            self.replies[exp.kind if not exp.full else "FULL"] += 1
            pos.apply(cmd, line)
            self.last = t
            pending.popleft()
        return None

    def finish(self, brain: Brain, reader: fm.Reader, pos: fm.Position, pending: deque, index: int) -> Failure | None:
        if reader.quit:
            end_at = next((c.sent_at for c in pending if c.kind == "END"), time.monotonic())
            f = self.drain(brain, pos, pending, index, optional=True, end_at=end_at)
            if f:
                return f
            exit_by = end_at + END_BOUND_S
        else:
            brain.proc.stdin.close()  # end of input: every command must still be answered
            pending.extend(reader.finish(time.monotonic()))
            f = self.drain(brain, pos, pending, index, optional=False)
            if f:
                return f
            exit_by = max(self.last, time.monotonic()) + END_BOUND_S
        while True:
            got = self.read(brain, exit_by)
            if got is None:
                return Failure("hang", "no exit within %.1f s of %s" % (END_BOUND_S, "END" if reader.quit else "end of input"), index)
            if got[1] is None:
                break
            return Failure("extra", "unexpected output %r" % got[1][:120], index)
        try:
            code = brain.proc.wait(timeout=max(0.1, exit_by - time.monotonic()))
        except Exception:
            return Failure("hang", "stdout closed but the process did not exit", index)
        if code != 0:
            return Failure("crash", "exit status %s" % code, index)
        return None


# ---------------------------------------------------------------------------------------------
# Campaign, replay and shrinking
# ---------------------------------------------------------------------------------------------


def session_rng(seed: int, index: int) -> random.Random:
    return random.Random("%d/%d" % (seed, index))


def run_generated(args, index: int, verbose: bool = False) -> Outcome:
    gen = Gen(session_rng(args.seed, index), set(args.exclude))
    stop_rng = random.Random("%d/%d/stop" % (args.seed, index))
    return Session(args.bin, verbose, stop_rng).run(gen.step)


def run_steps(bin_path: str, steps: list[Step], verbose: bool = False) -> Outcome:
    it = iter(steps)
    return Session(bin_path, verbose, None).run(lambda pos: next(it, None))


def shrink(bin_path: str, steps: list[Step], kind: str) -> tuple[list[Step], int]:
    """Remove steps (then single lines) while a replay still fails with `kind`."""
    runs = 0

    def fails(candidate: list[Step]) -> bool:
        nonlocal runs
        runs += 1
        f = run_steps(bin_path, candidate).failure
        return f is not None and f.kind == kind

    # Steps after the failing one cannot matter, except the END that closes the session.
    n = len(steps)
    while n >= 1 and runs < MAX_SHRINK_RUNS:
        changed = False
        i = 0
        while i < len(steps) and runs < MAX_SHRINK_RUNS:
            cand = steps[:i] + steps[i + n:]
            if cand and fails(cand):
                steps = cand
                changed = True
            else:
                i += n
        if not changed:
            n //= 2
    # Then lines inside multi-line steps (pipelined commands).
    i = 0
    while i < len(steps) and runs < MAX_SHRINK_RUNS:
        data = b"".join(steps[i].chunks)
        parts = data.splitlines(keepends=True)
        j = 0
        while len(parts) > 1 and j < len(parts) and runs < MAX_SHRINK_RUNS:
            cand_parts = parts[:j] + parts[j + 1:]
            s = Step([b"".join(cand_parts)], len(cand_parts), steps[i].wait, steps[i].delay_s)
            cand = steps[:i] + [s] + steps[i + 1:]
            if fails(cand):
                steps, parts = cand, cand_parts
            else:
                j += 1
        i += 1
    return steps, runs


def transcript(steps: list[Step]) -> list[str]:
    out = []
    for s in steps:
        data = b"".join(s.chunks)
        for line in data.splitlines(keepends=True):
            shown = line if len(line) <= 120 else line[:100] + b"...(%d bytes)" % len(line)
            out.append("  %s%r" % ("(after %g ms) " % (s.delay_s * 1000) if s.delay_s else "", shown))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=None, help="campaign seed (default: from the clock)")
    ap.add_argument("--lines", type=int, default=None, help="stop after this many generated lines (default 100000)")
    ap.add_argument("--sessions", type=int, default=None, help="stop after this many sessions")
    ap.add_argument("--first-session", type=int, default=0, help="index of the first session (to rerun one)")
    ap.add_argument("--bin", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target", "release", "pbrain-gorin"))
    ap.add_argument("--jobs", "-j", type=int, default=1, help="engines at once (the machine has 2 cores)")
    ap.add_argument("--exclude", action="append", default=[], choices=FEATURES,
                    help="leave a feature out of the generator (e.g. a known bug); repeatable")
    ap.add_argument("--no-panic-log", action="store_true", help="run the engine with RUST_LOG unset")
    ap.add_argument("--max-failures", type=int, default=20, help="stop after this many failures")
    ap.add_argument("--no-shrink", action="store_true", help="report failures without shrinking them")
    ap.add_argument("-v", "--verbose", action="store_true", help="log every chunk and reply (stderr)")
    args = ap.parse_args()
    if args.seed is None:
        args.seed = int(time.time()) % 1_000_000
    if args.lines is None and args.sessions is None:
        args.lines = 100_000
    args.bin = os.path.abspath(args.bin)
    if not os.access(args.bin, os.X_OK):
        print("no engine at %s (cargo build --release)" % args.bin)
        return 2
    if args.no_panic_log:
        os.environ.pop("RUST_LOG", None)
    else:
        os.environ["RUST_LOG"] = "error"  # only a panic (caught or not) writes anything

    lock = threading.Lock()
    state = {"next": args.first_session, "lines": 0, "sessions": 0, "bytes": 0, "steps": 0}
    replies: Counter = Counter()
    failures: list[tuple[int, Outcome]] = []
    t0 = time.monotonic()
    stop = threading.Event()
    interrupted = threading.Event()

    def more() -> int | None:
        with lock:
            if stop.is_set():
                return None
            if args.lines is not None and state["lines"] >= args.lines:
                return None
            if args.sessions is not None and state["next"] - args.first_session >= args.sessions:
                return None
            i = state["next"]
            state["next"] += 1
            return i

    def worker() -> None:
        while (i := more()) is not None:
            try:
                o = run_generated(args, i, args.verbose)
            except Exception as e:  # a fuzzer bug: report it as a failure, keep going
                import traceback
                traceback.print_exc()
                o = Outcome(Failure("fuzzer", "internal error: %r" % e, 0), [], 0, Counter(), [])
            with lock:
                state["lines"] += o.lines
                state["sessions"] += 1
                state["steps"] += len(o.steps)
                state["bytes"] += sum(len(c) for s in o.steps for c in s.chunks)
                replies.update(o.replies)
                if args.verbose:
                    sys.stderr.write("\n".join(o.log) + "\n")
                if o.failure and interrupted.is_set():
                    state["sessions"] -= 1  # killed by Ctrl-C, not by a bug
                elif o.failure:
                    failures.append((i, o))
                    sys.stderr.write("FAIL session %d: %s: %s\n" % (i, o.failure.kind, o.failure.why))
                    if len(failures) >= args.max_failures:
                        stop.set()
                if state["sessions"] % 200 == 0:
                    sys.stderr.write("... %d sessions, %d lines, %d failures, %.0f s\n"
                                     % (state["sessions"], state["lines"], len(failures), time.monotonic() - t0))

    threads = [threading.Thread(target=worker) for _ in range(max(1, args.jobs))]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    except KeyboardInterrupt:
        interrupted.set()
        stop.set()
        Brain.kill_all()
        for t in threads:
            t.join()
    elapsed = time.monotonic() - t0

    print("fuzz: seed %d, %d sessions (from %d), %d generated lines, %d steps, %.1f MB sent, %.0f s"
          % (args.seed, state["sessions"], args.first_session, state["lines"], state["steps"],
             state["bytes"] / 1e6, elapsed))
    print("engine: %s (RUST_LOG %s)%s" % (args.bin, "unset" if args.no_panic_log else "=error",
                                          "; excluded: " + ",".join(args.exclude) if args.exclude else ""))
    print("replies checked: " + ", ".join("%s %d" % kv for kv in sorted(replies.items())))
    print("invariant failures: %d" % len(failures))
    kinds_shrunk: set = set()
    for i, o in sorted(failures, key=lambda f: f[0]):
        f = o.failure
        assert f is not None
        print("\nFAIL seed %d session %d step %d: %s: %s" % (args.seed, i, f.step, f.kind, f.why))
        print("  rerun: python3 scripts/fuzz.py --seed %d --first-session %d --sessions 1 -v" % (args.seed, i))
        steps = o.steps[: f.step + 1]
        if not args.no_shrink and (f.kind, f.why[:30]) not in kinds_shrunk:
            kinds_shrunk.add((f.kind, f.why[:30]))
            small, runs = shrink(args.bin, steps, f.kind)
            again = run_steps(args.bin, small).failure
            print("  minimal transcript (%d replays; replay now: %s):"
                  % (runs, "%s: %s" % (again.kind, again.why) if again else "passes (flaky)"))
            print("\n".join(transcript(small)))
        else:
            print("  transcript of the first %d steps: (same kind as above, not shrunk)" % len(steps))
    print("RESULT: %s" % ("OK" if not failures else "FAIL (%d invariant failures)" % len(failures)))
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
