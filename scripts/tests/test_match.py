"""Tests of the match runner and its referee (run from the repository root):

    python3 -m unittest discover -s scripts/tests -t scripts

The match tests play short games between the baseline random brain (or pbrain-gorin when it is
built) and the deliberately faulty fake_brain.py, so they need no other engine.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
import shlex
import sys
import tempfile
import unittest
from pathlib import Path

from gorinkit import matchplay as match
from gorinkit import referee
from gorinkit.referee import BLACK, WHITE, Board, OpeningError, is_draw, line_wins, parse_opening

from .common import GORIN, HERE, REPO, SCRIPTS

PY = shlex.quote(sys.executable)
FAKE = f"{PY} {shlex.quote(str(HERE / 'fake_brain.py'))}"
RANDOM = f"{PY} {shlex.quote(str(SCRIPTS / 'random_brain.py'))} --seed 1"
# The honest opponent of the fake brains: Gorin when built (GORIN_BIN, else the release binary),
# else the random brain.
HONEST = shlex.quote(str(GORIN)) if GORIN.exists() else RANDOM
# Data the repository ships; public collections it may not ship come from GORIN_DATA when set.
SHIPPED = REPO / "protocol-tests" / "data"
OPENINGS = SCRIPTS / "openings"
PUBLIC = Path(os.environ["GORIN_DATA"]) if os.environ.get("GORIN_DATA") else None


def need_renju_package(test: unittest.TestCase) -> None:
    """Skip without the optional `renju` package, except in CI, which installs it."""
    if referee.RENJU_PACKAGE:
        return
    if os.environ.get("CI"):
        test.fail("the `renju` package is not importable in CI (.ci/run installs it)")
    test.skipTest("the optional `renju` package is not importable")


def board_from(rows: list[str]) -> Board:
    """ASCII board: `x` black, `o` white, `.` empty; rows from the top."""
    b = Board(len(rows[0]), len(rows))
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch in "xo":
                b.place(x, y, BLACK if ch == "x" else WHITE)
    return b


def wins_at(rows: list[str], x: int, y: int, colour: int, rule: int) -> bool:
    return board_from(rows).wins(x, y, colour, rule)


class RefereeTest(unittest.TestCase):
    def test_exact_five_all_directions_and_edges(self):
        for rule in (0, 1, 4, 8, 9):
            # horizontal along the top edge, vertical on the right edge, both diagonals
            self.assertTrue(wins_at(["xxxxx....", "........."], 0, 0, BLACK, rule), rule)
            self.assertTrue(wins_at(["........x"] * 5 + ["........."], 8, 4, BLACK, rule), rule)
            diag = ["x......", ".x.....", "..x....", "...x...", "....x..", "......."]
            self.assertTrue(wins_at(diag, 2, 2, BLACK, rule), rule)
            anti = ["....o..", "...o...", "..o....", ".o.....", "o......", "......."]
            self.assertTrue(wins_at(anti, 0, 4, WHITE, rule), rule)
            self.assertFalse(wins_at(["xxxx.....", "........."], 3, 0, BLACK, rule), rule)

    def test_overline_per_rule(self):
        six = ["xxxxxx..", "........"]
        six_white = ["oooooo..", "........"]
        self.assertTrue(wins_at(six, 2, 0, BLACK, 0))
        self.assertFalse(wins_at(six, 2, 0, BLACK, 1))
        self.assertFalse(wins_at(six, 2, 0, BLACK, 4))  # renju: black's overline does not win
        self.assertTrue(wins_at(six_white, 2, 0, WHITE, 4))  # white's does
        self.assertTrue(wins_at(six, 2, 0, BLACK, 8))
        self.assertFalse(wins_at(six, 2, 0, BLACK, 9))

    def test_caro_blocked_five(self):
        blocked = [".oxxxxxo.", "........."]
        half = [".oxxxxx..", "........."]
        at_edge = ["xxxxxo...", "........."]  # the edge does not block
        self.assertFalse(wins_at(blocked, 4, 0, BLACK, 8))
        self.assertFalse(wins_at(blocked, 4, 0, BLACK, 9))
        self.assertTrue(wins_at(blocked, 4, 0, BLACK, 0))
        self.assertTrue(wins_at(blocked, 4, 0, BLACK, 1))
        for rule in (8, 9):
            self.assertTrue(wins_at(half, 4, 0, BLACK, rule))
            self.assertTrue(wins_at(at_edge, 2, 0, BLACK, rule))
        self.assertTrue(line_wins(6, 2, BLACK, 8))
        self.assertFalse(line_wins(6, 0, BLACK, 9))

    def test_draws(self):
        b = Board(5)
        for i in range(24):
            b.place(i % 5, i // 5, i % 2)
        self.assertFalse(is_draw(b, 0))
        b.place(4, 4, 0)
        self.assertTrue(b.full())
        for rule in (0, 1, 8, 9):
            self.assertTrue(is_draw(b, rule))
        # renju: drawn with 25 or fewer empty points
        r = Board(15)
        for i in range(15 * 15 - 26):
            r.place(i % 15, i // 15, i % 2)
        self.assertFalse(is_draw(r, 4))
        r.place(10, 14, 0)
        self.assertEqual(r.empty_points(), 25)
        self.assertTrue(is_draw(r, 4))
        self.assertFalse(is_draw(r, 0))

    def test_renju_overline_is_a_foul_without_the_package(self):
        b = board_from(["xxx.xx..", "........"])
        self.assertEqual(b.renju_foul(3, 0), "overline")
        self.assertFalse(b.wins(3, 0, BLACK, 4))

    def test_renju_forbidden_cases(self):
        need_renju_package(self)
        paths = [SHIPPED / "renju_forbidden_quintet.jsonl", SHIPPED / "renju_forbidden_selfplay.jsonl"]
        if PUBLIC:
            paths.append(PUBLIC / "renju_forbidden_cases.jsonl")
        checked = 0
        for path in paths:
            for line in path.read_text().splitlines():
                case = json.loads(line)
                if case.get("expected") != "complete_set":
                    continue
                b = Board(15)
                for x, y in case["black"]:
                    b.place(x, y, BLACK)
                for x, y in case["white"]:
                    b.place(x, y, WHITE)
                expected = {tuple(f["point"]) for f in case["forbidden"]}
                found = {(x, y) for y in range(15) for x in range(15)
                         if not b.get(x, y) and not b.wins(x, y, BLACK, 4) and b.renju_foul(x, y, rif=True)}
                self.assertEqual(found, expected, case["id"])
                checked += 1
        self.assertGreater(checked, 50)


class OpeningTest(unittest.TestCase):
    def test_offset_format(self):
        self.assertEqual(parse_opening("0,0, 1,0, -1,2", 15), [(7, 7), (8, 7), (6, 9)])
        self.assertEqual(parse_opening("0,0,1,1  # comment", 20), [(10, 10), (11, 11)])

    def test_pos_format(self):
        self.assertEqual(parse_opening("h8i9j10", 15), [(7, 7), (8, 8), (9, 9)])
        self.assertEqual(parse_opening("a1 o15", 15), [(0, 0), (14, 14)])

    def test_bad_openings(self):
        for text in ("0,0, 1", "0,0, 0,0", "9,9", "z30", "h8h8", "hello"):
            with self.assertRaises(OpeningError, msg=text):
                parse_opening(text, 15)
        with self.assertRaises(OpeningError):  # a five in the opening
            parse_opening("0,0, 0,5, 1,0, 1,5, 2,0, 2,5, 3,0, 3,5, 4,0", 15)

    def test_shipped_opening_files(self):
        freestyle = referee.read_openings(str(OPENINGS / "gorin_freestyle_15.txt"), 15)
        self.assertGreaterEqual(len(freestyle), 40)
        self.assertEqual(len({tuple(o) for o in freestyle}), len(freestyle))
        for opening in freestyle:
            self.assertEqual(len(opening), 3)
            self.assertEqual(opening[0], (7, 7))
        renju = referee.read_openings(str(OPENINGS / "renju_26_openings.txt"), 15)
        self.assertEqual(len(renju), 26)
        self.assertEqual(len({tuple(o) for o in renju}), 26)

    @unittest.skipUnless(PUBLIC, "GORIN_DATA is not set")
    def test_public_opening_files(self):
        folder = PUBLIC / "openings"
        for path in sorted(folder.glob("*.txt")):
            size = 20  # the Piskvork book reaches 8 points from the centre
            book = referee.read_openings(str(path), size)
            self.assertTrue(book, path.name)
        pos = referee.read_openings(str(folder / "c-gomoku-cli_pos_freestyle_20x20.txt"), 20)
        self.assertEqual(pos[0][:2], [(3, 2), (4, 4)])  # d3 e5

    def test_random_plies_differ_and_stay_legal(self):
        rng = random.Random(5)
        base = [(7, 7)]
        games = {tuple(referee.extend_opening(rng, base, 15, 4)) for _ in range(10)}
        self.assertGreater(len(games), 5)
        for g in games:
            self.assertEqual(len(set(g)), 5)
            self.assertEqual(g[0], (7, 7))

    def test_first_opening_continues_where_a_shorter_match_stopped(self):
        book = str(OPENINGS / "gorin_freestyle_15.txt")
        fitting = referee.read_openings(book, 15)

        def openings(*extra):
            a = match.parse_args(["--openings", book, "--games", "40", *extra])
            return [o for _, o, _ in match.make_schedule(a)]

        first = openings()
        self.assertEqual(first[0], first[1])  # each opening with both colours
        second = openings("--seed", "9")
        self.assertEqual(first, second, "without --shuffle the seed changes nothing")
        rest = openings("--first-opening", "21")
        self.assertEqual(rest[::2], fitting[20:40])
        self.assertFalse(set(map(tuple, first)) & set(map(tuple, rest)))
        wrapped = openings("--first-opening", str(len(fitting)))
        self.assertEqual(wrapped[0], fitting[-1])
        self.assertEqual(wrapped[2], fitting[0])
        with self.assertRaises(referee.OpeningError):
            openings("--first-opening", str(len(fitting) + 1))
        with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit):
            match.parse_args(["--first-opening", "2"])


def parse_sgf(text: str) -> list[list[dict[str, list[str]]]]:
    """A small SGF reader: a collection of game trees without variations, each a list of nodes
    (property -> values). Raises ValueError on bad syntax."""
    games, i, n = [], 0, len(text)

    def skip_ws(i):
        while i < n and text[i].isspace():
            i += 1
        return i

    i = skip_ws(i)
    while i < n:
        if text[i] != "(":
            raise ValueError(f"expected ( at {i}")
        i = skip_ws(i + 1)
        nodes = []
        while i < n and text[i] == ";":
            i = skip_ws(i + 1)
            node: dict[str, list[str]] = {}
            while i < n and text[i].isupper():
                j = i
                while j < n and text[j].isupper():
                    j += 1
                ident, i = text[i:j], skip_ws(j)
                values = []
                while i < n and text[i] == "[":
                    j, value = i + 1, []
                    while text[j] != "]":
                        if text[j] == "\\":
                            j += 1
                        value.append(text[j])
                        j += 1
                    values.append("".join(value))
                    i = skip_ws(j + 1)
                if not values:
                    raise ValueError(f"property {ident} without value")
                node[ident] = values
            nodes.append(node)
        if i >= n or text[i] != ")":
            raise ValueError(f"expected ) at {i}")
        games.append(nodes)
        i = skip_ws(i + 1)
    return games


def run_match(*argv: str) -> tuple[match.Match, str]:
    """Play a match in this process; returns it and its report."""
    buf = io.StringIO()
    args = match.parse_args(["--seed", "3", "--turn-ms", "150", "--tolerance-ms", "300", *argv])
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(io.StringIO()):
        m, elapsed, _ = match.run(args)
        match.summary(m, elapsed)
    return m, buf.getvalue()


class FaultTest(unittest.TestCase):
    """The fake brain misbehaves on its second move of each game; it must lose every game, for
    the right kind, and the honest brain must not be charged with anything."""

    def check_losses(self, fake_args: str, kind: str, *extra: str):
        m, report = run_match("--engine", HONEST, "--engine", f"{FAKE} {fake_args}", "--games", "2", *extra)
        honest, fake = m.stats
        self.assertEqual((fake.losses, fake.loss_kinds[kind]), (2, 2), report)
        self.assertEqual(honest.losses, 0, report)
        self.assertEqual(sum(honest.loss_kinds.values()), 0, report)
        self.assertIn("Score of ", report)
        self.assertRegex(report, r"Score of \S+ vs \S+: 2 - 0 - 0  \[100\.0%\]")
        return m, report

    def test_time_forfeit(self):
        self.check_losses("slow 0.6", "time")

    def test_crash(self):
        self.check_losses("crash", "crash")

    def test_occupied(self):
        self.check_losses("occupied", "occupied")

    def test_off_board(self):
        self.check_losses("offboard", "off-board")

    def test_unparsable(self):
        self.check_losses("unparsable", "unparsable")

    def test_start_failure(self):
        self.check_losses("badstart", "start")

    def test_strict_scores_non_move_lines(self):
        self.check_losses("chatty", "protocol", "--strict")

    def test_non_move_lines_ignored_by_default(self):
        m, report = run_match("--engine", RANDOM, "--engine", f"{FAKE} chatty", "--games", "2")
        self.assertEqual(m.stats[1].loss_kinds["protocol"], 0, report)
        self.assertEqual(m.stats[1].other_lines, 2, report)
        self.assertEqual(len(m.results), 2)

    def test_over_limit_within_tolerance_is_counted_not_lost(self):
        m, report = run_match("--engine", RANDOM, "--engine", f"{FAKE} slow 0.25", "--games", "2")
        fake = m.stats[1]
        self.assertEqual(fake.loss_kinds["time"], 0, report)
        self.assertEqual(fake.over_limit, 2, report)
        self.assertIn("over-limit replies", report)

    def test_colour_split_and_whose_replies_failed(self):
        m, report = run_match("--engine", RANDOM, "--engine", f"{FAKE} slow 0.25", "--games", "4")
        split = re.search(r"as black (\d+)-(\d+)-(\d+), as white (\d+)-(\d+)-(\d+)", report)
        self.assertIsNotNone(split, report)
        bw, bl, bd, ww, wl, wd = map(int, split.groups())
        st = m.stats[0]
        self.assertEqual((bw + ww, bl + wl, bd + wd), (st.wins, st.losses, st.draws), report)
        self.assertEqual(bw + bl + bd, 2, report)  # colours alternate
        result = [line for line in report.splitlines() if line.startswith("RESULT:")][0]
        self.assertIn(f"over-limit replies: {m.names[1]} {m.stats[1].over_limit})", result)
        self.assertNotIn(m.names[0], result)

    def test_match_clock_and_per_engine_info(self):
        with tempfile.TemporaryDirectory() as tmp:
            log_path = Path(tmp) / "log.txt"
            m, report = run_match("--engine", RANDOM, "--engine", f"{FAKE} log {shlex.quote(str(log_path))}",
                                  "--games", "1", "--match-ms", "60000", "--info2", "hash_size=1024",
                                  "--info1", "strength=5", "--random-plies", "1")
            lines = log_path.read_text().splitlines()
        self.assertIn("INFO hash_size 1024", lines)
        self.assertNotIn("INFO strength 5", lines)
        self.assertIn("INFO timeout_match 60000", lines)
        # INFO time_left comes right before every move request, and never grows
        left = []
        for i, line in enumerate(lines):
            if line.startswith(("TURN", "BEGIN", "BOARD")):
                self.assertTrue(lines[i - 1].startswith("INFO time_left "), lines[i - 1])
                left.append(int(lines[i - 1].split()[2]))
        self.assertGreater(len(left), 2)
        self.assertEqual(left, sorted(left, reverse=True))
        self.assertLessEqual(left[0], 60000)

    def test_match_time_forfeit(self):
        self.check_losses("slow 0.8", "time", "--match-ms", "300", "--turn-ms", "0")


class RunnerTest(unittest.TestCase):
    def test_records_and_sgf_round_trip(self):
        with tempfile.TemporaryDirectory() as tmp:
            sgf, jsonl, psq = Path(tmp) / "g.sgf", Path(tmp) / "g.jsonl", Path(tmp) / "psq"
            m, report = run_match("--engine", RANDOM, "--engine", f"{PY} {SCRIPTS / 'greedy.py'} --seed 2",
                                  "--games", "2", "--size", "12", "--sgf", str(sgf), "--jsonl", str(jsonl),
                                  "--psq", str(psq), "--random-plies", "2")
            games = parse_sgf(sgf.read_text())
            entries = [json.loads(line) for line in jsonl.read_text().splitlines()]
            psq_files = sorted(psq.glob("*.psq"))
            psq_text = psq_files[0].read_text().splitlines()
        self.assertEqual(len(games), 2, report)
        self.assertEqual(len(entries), 2)
        self.assertEqual(len(psq_files), 2)
        for nodes in games:
            root = nodes[0]
            self.assertEqual(root["FF"], ["4"])
            self.assertEqual(root["GM"], ["4"])
            self.assertEqual(root["SZ"], ["12"])
            entry = next(e for e in entries if e["black"] == root["PB"][0])
            moves = entry["opening"] + entry["moves"]
            self.assertEqual(len(nodes) - 1, len(moves))
            self.assertEqual(len(entry["times_ms"]), len(entry["moves"]))
            for i, (node, (x, y)) in enumerate(zip(nodes[1:], moves)):
                colour = "B" if i % 2 == 0 else "W"
                self.assertEqual(list(node), [colour])
                point = node[colour][0]
                self.assertEqual((referee.SGF_LETTERS.index(point[0]), referee.SGF_LETTERS.index(point[1])), (x, y))
            self.assertRegex(root["RE"][0], r"^(B\+|W\+|0)")
        self.assertEqual(psq_text[0], "Piskvorky 12x12, 11:11, 0")
        self.assertRegex(psq_text[1], r"^\d+,\d+,\d+$")

    def test_rectangular_board(self):
        with tempfile.TemporaryDirectory() as tmp:
            jsonl = Path(tmp) / "g.jsonl"
            m, report = run_match("--engine", HONEST, "--engine", f"{PY} {SCRIPTS / 'greedy.py'}",
                                  "--games", "2", "--rect", "12,7", "--rule", "4", "--random-plies", "2",
                                  "--jsonl", str(jsonl))
            entries = [json.loads(line) for line in jsonl.read_text().splitlines()]
        self.assertIn("RESULT: OK", report)
        self.assertIn("12x7", report)
        for e in entries:
            self.assertEqual((e["width"], e["height"]), (12, 7))
            for x, y in e["opening"] + e["moves"]:
                self.assertTrue(0 <= x < 12 and 0 <= y < 7, (x, y))
        # Renju judging on a rectangle: the square grid the package wants is padded with white,
        # so the bottom edge blocks the vertical line: one three, no foul (12x12: a double three).
        if referee.RENJU_PACKAGE:
            for height, foul in ((12, "double-three"), (7, None)):
                b = Board(12, height)
                for x, y in ((4, 4), (6, 4), (5, 5), (5, 6)):
                    b.place(x, y, BLACK)
                self.assertEqual(b.renju_foul(5, 4), foul, height)

    def test_swap2_fallback_when_unsupported(self):
        m, report = run_match("--engine", RANDOM, "--engine", f"{FAKE} log /dev/null", "--games", "2", "--swap2")
        self.assertEqual(len(m.results), 2)
        self.assertTrue(all("swap2 unsupported" in r.note for r in m.results), report)
        self.assertIn("SWAP2BOARD", report)

    def test_swap2_colours_follow_the_answers(self):
        # The fake opener places 3 stones; the responder SWAPs: it takes black.
        m, report = run_match("--engine", f"{FAKE} swap2 SWAP 1", "--engine", f"{FAKE} swap2 SWAP 1",
                              "--name", "P", "--name", "Q", "--games", "2", "--swap2")
        for r in m.results:
            self.assertEqual(len(r.opening), 3, report)
            opener = 0 if r.number == 1 else 1
            self.assertEqual(r.black, 1 - opener, report)
        # The responder places two more; the opener answers one move: it is white.
        m, report = run_match("--engine", f"{FAKE} swap2 2 1", "--engine", f"{FAKE} swap2 2 1",
                              "--name", "P", "--name", "Q", "--games", "2", "--swap2")
        for r in m.results:
            self.assertEqual(len(r.opening), 6, report)
            opener = 0 if r.number == 1 else 1
            self.assertEqual(r.black, 1 - opener, report)

    def test_reuse_sends_restart(self):
        with tempfile.TemporaryDirectory() as tmp:
            log_path = Path(tmp) / "log.txt"
            m, report = run_match("--engine", RANDOM, "--engine", f"{FAKE} log {shlex.quote(str(log_path))}",
                                  "--games", "4", "--reuse")
            lines = log_path.read_text().splitlines()
        self.assertEqual(len(m.results), 4, report)
        self.assertEqual(sum(1 for line in lines if line.startswith("START")), 1)
        self.assertEqual(lines.count("RESTART"), 3)

    def test_names_and_sprt(self):
        a = match.parse_args(["--engine", "./target/release/pbrain-gorin", "--engine", "python3 scripts/greedy.py"])
        self.assertEqual(a.names, ["gorin", "greedy"])
        a = match.parse_args([])
        self.assertEqual(a.names, ["gorin-1", "gorin-2"])
        lo, hi = match.sprt_bounds(0.05, 0.05)
        self.assertGreater(match.sprt_llr([1.0] * 30 + [0.5] * 5, 0, 10), hi)
        self.assertLess(match.sprt_llr([0.0] * 30 + [0.5] * 5, 0, 10), lo)

    def test_pairs_are_found_by_opening_in_any_order(self):
        games = [("a", 1.0), ("b", 0.0), ("b", 0.5), ("c", 1.0), ("a", 0.0), ("c", 1.0), ("d", 0.0)]
        self.assertEqual(match.pair_means(games), [0.25, 0.5, 1.0])  # d has no partner
        self.assertEqual(match.pair_counts([0.25, 0.5, 1.0, 0.5]), [0, 1, 2, 0, 1])
        self.assertEqual(match.paired_elo_text([0.5]), "paired by opening: fewer than 2 pairs")
        # 8 pairs split 1-1, 2 lost twice: mean 0.4, pair variance 0.04, se sqrt(0.004).
        text = match.paired_elo_text([0.5] * 8 + [0.0] * 2)
        d, err = match.elo_with_error([0.5] * 8 + [0.0] * 2)
        self.assertAlmostEqual(d, -70.4, places=1)
        self.assertEqual(text, f"paired by opening: 10 pairs, Elo {d:+.1f} +/- {err:.1f} (95%); "
                               "pairs scoring 0/0.5/1/1.5/2 of 2: 2/0/8/0/0")
        # The same 20 games one by one (8-12-0) leave nearly twice the doubt.
        self.assertGreater(match.elo_with_error([1.0] * 8 + [0.0] * 12)[1], 1.8 * err)

    def test_sprt_stops_early(self):
        m, report = run_match("--engine", f"{PY} {SCRIPTS / 'greedy.py'} --seed 1", "--engine", RANDOM,
                              "--games", "40", "--sprt", "0", "200", "0.2", "0.2", "--turn-ms", "500")
        self.assertIn("SPRT: LLR", report)
        self.assertLess(len(m.results), 40, report)
        self.assertTrue(re.search(r"H1 accepted", report), report)


if __name__ == "__main__":
    unittest.main()
