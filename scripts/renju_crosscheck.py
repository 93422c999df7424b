#!/usr/bin/env python3
"""Cross-check Gorin's renju forbidden points against an independent implementation.

The independent checker is the PyPI package `renju` (`renju.check_forbid.get_foul_type`, a port
of Piskvork's judge): `get_foul_type(grid, x, y)` with grid[x][y] in {0 empty, 1 black, 2 white}
answers 0 (legal; also when the move makes an exact five), 1 double-three, 2 double-four,
3 overline for black at the empty point (x, y).

Gorin is ONE long-lived process: `INFO rule 4`, `START 15`, then per position `YXBOARD` +
`x,y,f` lines + `DONE` (no reply) and `YXSHOWFORBID` -> `FORBID xxyy...xxyy.` (`FORBID .` when
none). Gorin decides colours by counts: own stones are black when own count >= opponent count,
else white; so the side with more stones is always black, and black's stones go as f=1 (own)
with black >= white. A position with more white than black stones cannot be given to Gorin
this way (black would become white); it is skipped and counted (no source makes one).

Position sources:
  (a) game: random renju games on 15x15 from the centre, alternating colours, each move a random
      empty point within Chebyshev distance 2 of a stone; black never plays a point the package
      calls forbidden (so never an overline either), the game stops at a five (black exactly
      five, white five or more) or when no move is left. The position after every ply is taken,
      except positions that contain a five.
  (b) dense: random black and white stones in a random square (side 7-13) near the centre at
      20-45% density, black = white or white + 1 stones; positions with five or more in a row of
      either colour are drawn again.
  (c) puzzles: every position of protocol-tests/data/renju_vcf_selfplay.jsonl (fields black,
      white), and of renju_vcf_puzzles.jsonl in the folder GORIN_DATA names, when it is set.
  (d) cases: the positions of protocol-tests/data/renju_forbidden_*.jsonl (and GORIN_DATA's
      renju_forbidden_cases.jsonl); the package's answer is also compared with the files'
      expectations (complete sets and single points).
--positions N (default 10000) generated positions are split between (a) and (b) by
--game-share (default 0.5); (c) and (d) come on top (--no-files leaves them out).

Which points the package is asked about (it costs ~0.6 ms a call): only CANDIDATES, empty points
with at least 4 black stones within 5 steps of them along their 4 lines (both directions, 8
half-lines of 5 points, white stones not stopping the count). Argument: every forbidden shape of
a black stone at p is built from black stones that lie on p's lines within 5 steps of p:
  - double-three: two threes on two different lines; a three is 3 black stones (p included) that
    one more black stone turns into a straight four _XXXX_, so its other 2 stones lie on p's line
    within 3 steps of p: >= 2 + 2 = 4;
  - double-four: two fours, each 4 black stones (p included) in a 5-point window containing p,
    i.e. >= 3 other black stones within 4 steps; on two lines that is >= 6, on one line the two
    windows differ and so hold >= 4 distinct other stones (the same 3 stones plus p in two
    windows would be one open four, which is one four);
  - overline: >= 5 other black stones in a row with p, within 5 steps.
(An exact five is never forbidden, so it needs no exception.) Every empty point below the
threshold is therefore legal for black and the package's answer there is taken as "legal"
without asking; --verify-prefilter K asks the package about ALL empty points of the first K
positions of every source and fails if a non-candidate is ever forbidden. Gorin's answer is
compared on ALL points: a Gorin point outside the candidate set is a disagreement.

A second reference, the "RIF-five variant": the package's own code with one line changed. When
the package asks whether the point that turns a three into a straight four is itself forbidden,
it answers "forbidden" if that point makes an exact five (Piskvork's judge does the same). Under
RIF rules a move that makes five is never forbidden, so such a three is real; the variant
answers "legal" there. It is asked only where the package met such a nested five.

Report: positions per source, points (all empty points compared; how many the package was asked
about), positions with identical sets (against the package and against the variant), the first
--show (10) distinct disagreements (later plies of a game repeating a listed difference are
counted, not shown) with an ASCII board, the differing points and the kinds the package
and the variant give (YXSHOWFORBID gives no kind: sets are compared), whether the five rule
explains each, the (d) file's expectations against all three, agreement percentages, time.
Exit 1 on any disagreement with the package (--reference rif: with the variant), a broken
prefilter argument, or (--strict-cases) a package answer contradicting the (d) file.

  python3 scripts/renju_crosscheck.py --seed 1 --positions 10000
  python3 scripts/renju_crosscheck.py --seed 2 --positions 20000 -j 2   # package calls in 2 procs

Python 3 standard library + the PyPI package `renju`.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

from gorinkit import referee
from gorinkit.brain import Brain, BrainDied
from gorinkit.protocol import is_chatter, stones_body
from gorinkit.referee import foul_kinds, package_foul_type as get_foul_type

if not referee.RENJU_PACKAGE:  # pragma: no cover
    sys.stderr.write("renju_crosscheck.py needs the PyPI package `renju` (pip install renju==0.1.0)\n")
    sys.exit(2)

N = 15
CENTRE = N // 2
DIRS = ((1, 0), (0, 1), (1, 1), (1, -1))
KIND = {0: "none", 1: "double-three", 2: "double-four", 3: "overline"}
KIND_FROM_FILE = {None: 0, "double_three": 1, "double_four": 2, "overline": 3}
HERE = os.path.dirname(os.path.abspath(__file__))
SHIPPED = os.path.normpath(os.path.join(HERE, "..", "protocol-tests", "data"))
PUBLIC = os.environ.get("GORIN_DATA")  # public collections the repository may not ship
READ_TIMEOUT_S = 20.0
CAND_MIN_BLACK = 4
CAND_REACH = 5

Point = tuple[int, int]


# ---- board helpers -----------------------------------------------------------------------------
def new_grid() -> list[list[int]]:
    return [[0] * N for _ in range(N)]


def grid_of(black, white) -> list[list[int]]:
    g = new_grid()
    for x, y in black:
        g[x][y] = 1
    for x, y in white:
        g[x][y] = 2
    return g


def run_through(g, x: int, y: int, c: int, dx: int, dy: int) -> int:
    """Length of the run of colour c through (x, y) (which must hold c) along (dx, dy)."""
    n = 1
    for s in (1, -1):
        xx, yy = x + s * dx, y + s * dy
        while 0 <= xx < N and 0 <= yy < N and g[xx][yy] == c:
            n += 1
            xx += s * dx
            yy += s * dy
    return n


def makes_five(g, x: int, y: int, c: int) -> bool:
    """After c was placed at (x, y): black exactly five, white five or more, on some line."""
    for dx, dy in DIRS:
        n = run_through(g, x, y, c, dx, dy)
        if n == 5 or (c == 2 and n > 5):
            return True
    return False


def has_five_or_more(g) -> bool:
    """Any run of five or more of either colour."""
    for x in range(N):
        for y in range(N):
            c = g[x][y]
            if not c:
                continue
            for dx, dy in DIRS:
                px, py = x - dx, y - dy
                if 0 <= px < N and 0 <= py < N and g[px][py] == c:
                    continue  # not the start of the run
                n, xx, yy = 0, x, y
                while 0 <= xx < N and 0 <= yy < N and g[xx][yy] == c:
                    n += 1
                    xx += dx
                    yy += dy
                if n >= 5:
                    return True
    return False


def black_near(g, x: int, y: int) -> int:
    """Black stones within CAND_REACH steps of (x, y) along its 4 lines."""
    n = 0
    for dx, dy in DIRS:
        for s in (1, -1):
            for k in range(1, CAND_REACH + 1):
                xx, yy = x + s * k * dx, y + s * k * dy
                if not (0 <= xx < N and 0 <= yy < N):
                    break
                if g[xx][yy] == 1:
                    n += 1
    return n


def empties(g) -> list[Point]:
    return [(x, y) for x in range(N) for y in range(N) if g[x][y] == 0]


def candidates(g) -> list[Point]:
    return [p for p in empties(g) if black_near(g, *p) >= CAND_MIN_BLACK]


def package_fouls(g, points) -> tuple[dict[Point, int], dict[Point, int]]:
    """Non-zero answers on the given empty points: (the package's, the RIF-five variant's)."""
    pkg, rif = {}, {}
    for x, y in points:
        k, r = foul_kinds(g, x, y)
        if k:
            pkg[(x, y)] = k
        if r:
            rif[(x, y)] = r
    return pkg, rif


def alg(p: Point) -> str:
    """Algebraic notation as in PROTOCOL.md: letter = x, number = y + 1 counted from the top."""
    return "%s%d" % (chr(ord("a") + p[0]), p[1] + 1)


def board_ascii(black, white, marks: dict[Point, str]) -> str:
    g = grid_of(black, white)
    lines = ["     " + " ".join(chr(ord("a") + x) for x in range(N))]
    for y in range(N):
        row = []
        for x in range(N):
            if (x, y) in marks:
                row.append(marks[(x, y)])
            else:
                row.append(".XO"[g[x][y]])
        lines.append("  %2d %s   y=%d" % (y + 1, " ".join(row), y))
    return "\n".join(lines)


# ---- position sources (each seeded by its own index so that workers can make them) -------------
def random_game(seed: int, index: int) -> list[tuple[list[Point], list[Point]]]:
    """Positions (black, white in move order) after every ply of one random renju game."""
    rng = random.Random("%d-game-%d" % (seed, index))
    g = new_grid()
    black: list[Point] = []
    white: list[Point] = []
    out = []
    ply = 0
    while True:
        colour = 1 if ply % 2 == 0 else 2
        if ply == 0:
            options = [(CENTRE, CENTRE)]
        else:
            near = set()
            for sx, sy in black + white:
                for dx in range(-2, 3):
                    for dy in range(-2, 3):
                        x, y = sx + dx, sy + dy
                        if 0 <= x < N and 0 <= y < N and g[x][y] == 0:
                            near.add((x, y))
            options = sorted(near)
            rng.shuffle(options)
        move = None
        for x, y in options:
            if colour == 1 and black_near(g, x, y) >= CAND_MIN_BLACK and foul_kinds(g, x, y)[0]:
                continue  # forbidden for black (overline included)
            move = (x, y)
            break
        if move is None:
            return out  # no legal move left near the stones
        x, y = move
        g[x][y] = colour
        (black if colour == 1 else white).append(move)
        ply += 1
        if makes_five(g, x, y, colour):
            return out  # the position with the five is not taken
        out.append((list(black), list(white)))


def dense_position(seed: int, index: int) -> tuple[list[Point], list[Point]]:
    rng = random.Random("%d-dense-%d" % (seed, index))
    while True:
        side = rng.randint(7, 13)
        lo_min, lo_max = max(0, CENTRE - side + 2), min(N - side, CENTRE - 1)
        x0 = rng.randint(lo_min, lo_max)
        y0 = rng.randint(lo_min, lo_max)
        cells = [(x, y) for x in range(x0, x0 + side) for y in range(y0, y0 + side)]
        k = round(rng.uniform(0.20, 0.45) * len(cells))
        if rng.random() < 0.5:
            nb = nw = k // 2  # equal counts
        else:
            nw = (k - 1) // 2
            nb = nw + 1  # black has one stone more
        k = nb + nw
        chosen = rng.sample(cells, k)
        black, white = chosen[:nb], chosen[nb:]
        if not has_five_or_more(grid_of(black, white)):
            return black, white


def load_jsonl(shipped: list[str], public: str) -> list[dict]:
    """The records of the shipped files, then of GORIN_DATA's `public` file when it is set."""
    paths = [os.path.join(SHIPPED, name) for name in shipped]
    if PUBLIC:
        paths.append(os.path.join(PUBLIC, public))
    return referee.read_jsonl(*paths)


# ---- the package's side of one position (runs in a worker with -j > 1) ---------------------------
def analyse(task):
    """task = (source, label, black, white, verify_all) -> dict with the package's answer."""
    source, label, black, white, verify_all = task
    black = [tuple(p) for p in black]
    white = [tuple(p) for p in white]
    g = grid_of(black, white)
    t0 = time.perf_counter()
    cand = candidates(g)
    fouls, rif = package_fouls(g, cand)
    calls = len(cand)
    prefilter_miss = {}
    self_check = []
    if verify_all:
        cset = set(cand)
        rest = [p for p in empties(g) if p not in cset]
        prefilter_miss, rif_miss = package_fouls(g, rest)
        rif.update(rif_miss)
        for p, k in rif_miss.items():  # the argument holds for the variant too
            prefilter_miss.setdefault(p, k)
        calls += len(rest)
    if source == "case":  # the traced copy answers as the installed package does
        self_check = [p for p in empties(g)
                      if get_foul_type(g, *p) != fouls.get(p, prefilter_miss.get(p, 0))]
    return {
        "source": source, "label": label, "black": black, "white": white,
        "cand": cand, "fouls": fouls, "rif": rif, "self_check": self_check, "calls": calls, "empty": N * N - len(black) - len(white),
        "prefilter_miss": prefilter_miss, "pkg_s": time.perf_counter() - t0,
    }


def game_tasks(seed: int, index: int, verify_left: list[int]):
    tasks = []
    for ply, (b, w) in enumerate(random_game(seed, index), 1):
        v = verify_left[0] > 0
        verify_left[0] -= 1
        tasks.append(("game", "game %d ply %d" % (index, ply), b, w, v))
    return tasks


def game_batch(args):
    seed, index, verify = args
    return [analyse(t) for t in game_tasks(seed, index, [verify])]


# ---- Gorin -------------------------------------------------------------------------------------
class Gorin:
    def __init__(self, cmd: list[str]):
        self.brain = Brain(cmd, "gorin")
        self.seconds = 0.0
        self.brain.send("INFO rule 4", "START %d" % N)
        self._expect(lambda s: s.upper() == "OK", "OK to START")

    def _expect(self, ok, what: str) -> str:
        deadline = time.monotonic() + READ_TIMEOUT_S
        while True:
            got = self.brain.read(deadline - time.monotonic())
            if got is None:
                raise BrainDied("no %s within %.0f s" % (what, READ_TIMEOUT_S))
            _, line = got
            if line is None:
                raise BrainDied("EOF while waiting for %s" % what)
            if is_chatter(line):
                continue
            if ok(line):
                return line
            raise BrainDied("unexpected line while waiting for %s: %r" % (what, line))

    def forbidden(self, black, white) -> set[Point]:
        if len(black) < len(white):
            raise ValueError("more white than black stones: Gorin would swap the colours")
        # Own count >= opponent count: the own side (field 1) is black.
        lines = ["YXBOARD", *stones_body(black, white, own_black=True), "DONE", "YXSHOWFORBID"]
        t0 = time.perf_counter()
        self.brain.send(*lines)
        line = self._expect(lambda s: s.upper().startswith("FORBID"), "FORBID")
        self.seconds += time.perf_counter() - t0
        body = line[len("FORBID"):].strip()
        if not body.endswith("."):
            raise BrainDied("FORBID line without the final '.': %r" % line)
        body = body[:-1].strip()
        if len(body) % 4 or not body.isdigit() and body:
            raise BrainDied("malformed FORBID line: %r" % line)
        return {(int(body[i:i + 2]), int(body[i + 2:i + 4])) for i in range(0, len(body), 4)}

    def close(self):
        self.brain.close()


# ---- main --------------------------------------------------------------------------------------
def parse_args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", default=os.path.join(HERE, "..", "target", "release", "pbrain-gorin"),
                    help="brain command (default target/release/pbrain-gorin)")
    ap.add_argument("--seed", type=int, default=None, help="random seed (printed when not given)")
    ap.add_argument("--positions", type=int, default=10000,
                    help="generated positions, sources (a)+(b) (default 10000)")
    ap.add_argument("--game-share", type=float, default=0.5,
                    help="share of the generated positions taken from random games (default 0.5)")
    ap.add_argument("--no-files", action="store_true", help="leave out sources (c) and (d)")
    ap.add_argument("--verify-prefilter", type=int, default=50, metavar="K",
                    help="ask the package about every empty point of the first K positions of "
                         "each source, to test the candidate argument (default 50)")
    ap.add_argument("--show", type=int, default=10, help="disagreements printed in full (default 10)")
    ap.add_argument("-j", "--jobs", type=int, default=1,
                    help="processes for the package's calls (default 1; the machine has 2 cores)")
    ap.add_argument("--reference", choices=("package", "rif"), default="package",
                    help="what the exit status compares with: the package as it is (default) or "
                         "its RIF-five variant (see the module docstring)")
    ap.add_argument("--strict-cases", action="store_true",
                    help="also fail when the package contradicts a forbidden-case file")
    return ap.parse_args()


def run_tasks(pool, tasks):
    """`analyse` over the tasks, in the pool when there is one, results in order."""
    if pool is None:
        return map(analyse, tasks)
    return pool.imap(analyse, tasks, chunksize=8)


def game_results(args: argparse.Namespace, pool, n_game: int, stats: dict):
    """Analysed game positions, n_game of them (the last game is cut). Every point of the
    first --verify-prefilter positions of game 0 is asked."""
    left = n_game
    index = 0
    batch = 2 * args.jobs
    while left > 0:
        jobs = [(args.seed, index + i, args.verify_prefilter if index + i == 0 else 0)
                for i in range(batch)]
        index += batch
        results = pool.imap(game_batch, jobs) if pool else map(game_batch, jobs)
        for res in results:
            if left <= 0:
                break
            stats["games"] += 1
            for r in res[:left]:
                yield r
            left -= min(left, len(res))


def make_sources(args: argparse.Namespace, pool, stats: dict) -> tuple[list, list[dict]]:
    """The sources as (name, function giving its analysed positions), and the forbidden cases.
    Each source is started only when the previous one is done (with -j, the pool works on the
    source being compared, so Gorin never waits behind another source's queue)."""
    n_game = round(args.positions * args.game_share)
    n_dense = args.positions - n_game
    sources = [("game", lambda: game_results(args, pool, n_game, stats))]
    sources.append(("dense", lambda: run_tasks(pool, (
        ("dense", "dense %d" % i, *dense_position(args.seed, i), i < args.verify_prefilter)
        for i in range(n_dense)))))
    cases = []
    if not args.no_files:
        puzzles = load_jsonl(["renju_vcf_selfplay.jsonl"], "renju_vcf_puzzles.jsonl")
        sources.append(("puzzle", lambda: run_tasks(pool, (
            ("puzzle", "puzzle %s" % r.get("id", i), r["black"], r["white"],
             i < args.verify_prefilter) for i, r in enumerate(puzzles)))))
        cases = load_jsonl(["renju_forbidden_quintet.jsonl", "renju_forbidden_selfplay.jsonl"],
                           "renju_forbidden_cases.jsonl")
        # every point of these few positions is checked by the package
        sources.append(("case", lambda: run_tasks(pool, (
            ("case", "case %s" % r["id"], r["black"], r["white"], True) for r in cases))))
    return sources, cases


class Tally:
    """What the comparison found: counters per source and in total, and the positions to report."""

    def __init__(self):
        self.per = {}  # source -> counters
        self.disagreements = []
        self.prefilter_misses = []
        self.case_results = {}
        self.self_check_bad = []
        self.total = dict(positions=0, points=0, calls=0, same=0, pkg_s=0.0, forbidden=0, same_rif=0,
                          pkg_rif_differ=0, skipped=0)
        self.kinds_seen = {1: 0, 2: 0, 3: 0}

    def add(self, name: str, r: dict, gset: set) -> None:
        """One analysed position `r` of source `name`, and Gorin's forbidden points `gset`."""
        c = self.source(name)
        pkg = dict(r["fouls"])
        pkg.update(r["prefilter_miss"])
        if r["prefilter_miss"]:
            self.prefilter_misses.append(r)
        pset = set(pkg)
        c["positions"] += 1
        c["points"] += r["empty"]
        c["calls"] += r["calls"]
        c["forbidden"] += len(pset)
        c["stones"] += len(r["black"]) + len(r["white"])
        self.total["pkg_s"] += r["pkg_s"]
        for k in pkg.values():
            self.kinds_seen[k] += 1
        rif = r["rif"]
        rset = set(rif)
        if r["self_check"]:
            self.self_check_bad.append(r)
        c["same"] += gset == pset
        c["same_rif"] += gset == rset
        c["pkg_rif_differ"] += pset != rset
        if gset != pset or gset != rset:
            r["gorin"] = gset
            r["pkg"] = pkg
            self.disagreements.append(r)
        if name == "case":
            self.case_results[r["label"]] = (pkg, rif, gset)

    def source(self, name: str) -> dict:
        return self.per.setdefault(name, dict(positions=0, points=0, calls=0, same=0, forbidden=0,
                                              stones=0, same_rif=0, pkg_rif_differ=0, skipped=0))

    def sum_sources(self) -> None:
        for c in self.per.values():
            for k in ("positions", "points", "calls", "same", "forbidden", "same_rif",
                      "pkg_rif_differ", "skipped"):
                self.total[k] += c[k]


def compare(sources: list, gorin: Gorin, tally: Tally) -> None:
    """Gorin's forbidden points for every analysed position of every source, into the tally."""
    for name, make in sources:
        results = make()
        tally.source(name)
        for r in results:
            try:
                gset = gorin.forbidden(r["black"], r["white"])
            except ValueError:
                tally.source(name)["skipped"] += 1
                continue
            tally.add(name, r, gset)


def pct(a, b):
    return 100.0 * a / max(1, b)


def print_table(tally: Tally, stats: dict, args: argparse.Namespace) -> None:
    per, total = tally.per, tally.total
    print()
    print("agree = Gorin's set identical to the package's; agree-rif = to the RIF-five variant's")
    print("%-7s %9s %6s %8s %8s %9s %9s %9s %9s %9s" % (
        "source", "positions", "stones", "points", "pkg-ask", "forbidden", "identical", "agree",
        "ident-rif", "agree-rif"))
    tally.sum_sources()
    rows = list(per.items()) + [("total", dict(total, stones=0))]
    for name, c in rows:
        print("%-7s %9d %6s %8d %8d %9d %9d %8.3f%% %9d %8.3f%%" % (
            name, c["positions"],
            "%.1f" % (c["stones"] / max(1, c["positions"])) if name != "total" else "",
            c["points"], c["calls"], c["forbidden"], c["same"], pct(c["same"], c["positions"]),
            c["same_rif"], pct(c["same_rif"], c["positions"])))
    print("(stones: mean per position; points: empty points, all compared; pkg-ask: points the "
          "package was asked about; forbidden: the package's forbidden points)")
    if total["skipped"]:
        print("skipped (more white than black stones): %s" % ", ".join(
            "%s %d" % (n, c["skipped"]) for n, c in per.items() if c["skipped"]))
    if "game" in per:
        print("game positions come from %d random games" % stats["games"])
    print("the package's forbidden points by kind: %s" % ", ".join(
        "%s %d" % (KIND[k], v) for k, v in tally.kinds_seen.items()))
    print("positions where the package and its RIF-five variant differ: %d"
          % total["pkg_rif_differ"])
    print("candidates: >= %d black stones within %d steps on the 4 lines; every point was asked "
          "in the first %d positions of each source and in every case" % (
              CAND_MIN_BLACK, CAND_REACH, args.verify_prefilter))
    if tally.prefilter_misses:
        print("PREFILTER ARGUMENT BROKEN on %d positions (non-candidate forbidden points):"
              % len(tally.prefilter_misses))
        for r in tally.prefilter_misses[:5]:
            print("  %s: %s" % (r["label"], ", ".join("%s %s" % (alg(p), KIND[k])
                                                      for p, k in r["prefilter_miss"].items())))
    else:
        print("prefilter check: no non-candidate point was forbidden where all points were asked")
    if tally.self_check_bad:
        print("SELF-CHECK FAILED: the traced copy answers differently from renju.check_forbid on "
              "%s" % ", ".join(r["label"] for r in tally.self_check_bad))


def print_disagreements(disagreements: list[dict], show: int) -> tuple[int, int]:
    """The counts, then each distinct disagreement (the first `show`); returns the positions that
    disagree with the package and with the RIF-five variant."""
    print()
    n_pkg = sum(1 for r in disagreements if r["gorin"] != set(r["pkg"]))
    n_rif = sum(1 for r in disagreements if r["gorin"] != set(r["rif"]))
    n_expl = sum(1 for r in disagreements
                 if r["gorin"] != set(r["pkg"]) and r["gorin"] == set(r["rif"]))
    print("disagreements: %d positions with the package (%d of them agree with the RIF-five "
          "variant: the package counted a completion point that makes five as forbidden), %d "
          "with the RIF-five variant" % (n_pkg, n_expl, n_rif))
    # consecutive positions of one game repeat the same difference: show each one once
    shown, seen, repeats = [], set(), 0
    for r in disagreements:
        group = " ".join(r["label"].split()[:2]) if r["source"] == "game" else r["label"]
        key = (group, frozenset(r["gorin"] ^ set(r["pkg"])), frozenset(r["gorin"] ^ set(r["rif"])))
        if key in seen:
            repeats += 1
            continue
        seen.add(key)
        shown.append(r)
    if repeats:
        print("(%d of them repeat, in later plies of the same game, a difference already listed: "
              "%d distinct; the first %d are shown)" % (repeats, len(shown), min(show, len(shown))))
    for r in shown[:show]:
        print_disagreement(r)
    return n_pkg, n_rif


def print_disagreement(r: dict) -> None:
    """One position: its board with the differing points marked, and each point's kinds."""
    gset, pkg, rif = r["gorin"], r["pkg"], r["rif"]
    only_p = sorted(set(pkg) - gset)
    only_g = sorted(gset - set(pkg))
    marks = {p: "P" for p in only_p}
    marks.update({p: "G" for p in only_g})
    marks.update({p: "*" for p in gset & set(pkg)})
    print()
    print("%s: %d black, %d white (X black, O white; * both say forbidden, P package only, "
          "G Gorin only)" % (r["label"], len(r["black"]), len(r["white"])))
    print(board_ascii(r["black"], r["white"], marks))
    print("  black (move order): %s" % " ".join(alg(p) for p in r["black"]))
    print("  white (move order): %s" % " ".join(alg(p) for p in r["white"]))
    for p in only_p:
        print("  package only: %s (%d,%d) %s; RIF-five variant: %s" % (
            alg(p), p[0], p[1], KIND[pkg[p]], KIND[rif.get(p, 0)]))
    for p in only_g:
        print("  Gorin only:   %s (%d,%d)%s; RIF-five variant: %s" % (
            alg(p), p[0], p[1], "" if p in r["cand"] else " [not even a candidate]",
            KIND[rif.get(p, 0)]))
    for p in sorted((set(rif) ^ gset) - set(only_p) - set(only_g)):
        print("  RIF-five variant differs from both at %s (%d,%d): %s" % (
            alg(p), p[0], p[1], KIND[rif.get(p, 0)]))
    print("  -> %s" % ("explained: Gorin = RIF-five variant" if gset == set(rif)
                      else "NOT explained by the five rule"))


def check_cases(cases: list[dict], case_results: dict) -> int:
    """The cases files: the package against the files' expectations, and Gorin against them (for
    information). Returns how many cases the package gets wrong."""
    if not cases:
        return 0
    print()
    print("forbidden-case files' expectations (package / RIF-five variant / Gorin):")
    ok = [0, 0, 0]
    for rec in cases:
        pkg, rif, gset = case_results["case %s" % rec["id"]]
        if rec["expected"] == "complete_set":
            want = {tuple(f["point"]): KIND_FROM_FILE[f["kind"]] for f in rec["forbidden"]}
            good = [pkg == want, rif == want, gset == set(want)]
            what = "complete set {%s}" % ", ".join("%s %s" % (alg(p), KIND[k])
                                                   for p, k in sorted(want.items()))
            got = ["{%s}" % ", ".join("%s %s" % (alg(p), KIND[k]) for p, k in sorted(a.items()))
                   for a in (pkg, rif)] + ["{%s}" % ", ".join(alg(p) for p in sorted(gset))]
        else:
            pt = tuple(rec["point"])
            want_k = KIND_FROM_FILE[rec.get("kind")]
            good = [pkg.get(pt, 0) == want_k, rif.get(pt, 0) == want_k,
                    (pt in gset) == (want_k != 0)]
            what = "point %s %s" % (alg(pt), KIND[want_k])
            got = [KIND[a.get(pt, 0)] for a in (pkg, rif)] + [
                "forbidden" if pt in gset else "legal"]
        for i in range(3):
            ok[i] += good[i]
        if not all(good):
            print("  %s: expected %s; package %s%s; variant %s%s; Gorin %s%s" % (
                rec["id"], what, got[0], "" if good[0] else " (WRONG)", got[1],
                "" if good[1] else " (WRONG)", got[2], "" if good[2] else " (WRONG)"))
    print("  matching the file: package %d/%d, RIF-five variant %d/%d, Gorin %d/%d" % (
        ok[0], len(cases), ok[1], len(cases), ok[2], len(cases)))
    return len(cases) - ok[0]


def verdict(args: argparse.Namespace, tally: Tally, gorin: Gorin, wall: float,
            n_pkg: int, n_rif: int, case_bad: int) -> int:
    """Times, agreement and the RESULT line; the exit status."""
    total = tally.total
    print()
    print("time: %.1f s wall; package %.1f s in %d calls (%.2f ms a call%s); Gorin %.1f s for "
          "%d positions (%.2f ms a position, round trip)" % (
              wall, total["pkg_s"], total["calls"], 1000 * total["pkg_s"] / max(1, total["calls"]),
              ", %d processes" % args.jobs if args.jobs > 1 else "", gorin.seconds,
              total["positions"], 1000 * gorin.seconds / max(1, total["positions"])))
    print("agreement with the package: %d/%d positions identical (%.3f%%)" % (
        total["same"], total["positions"], pct(total["same"], total["positions"])))
    print("agreement with the RIF-five variant: %d/%d positions identical (%.3f%%)" % (
        total["same_rif"], total["positions"], pct(total["same_rif"], total["positions"])))
    fails = []
    bad = n_rif if args.reference == "rif" else n_pkg
    if bad:
        fails.append("%d positions disagree with the %s" % (
            bad, "RIF-five variant" if args.reference == "rif" else "package"))
    if tally.prefilter_misses:
        fails.append("prefilter argument broken")
    if tally.self_check_bad:
        fails.append("traced copy differs from the package")
    if args.strict_cases and case_bad:
        fails.append("package contradicts %d cases" % case_bad)
    print("RESULT: " + ("OK" if not fails else "FAIL (%s)" % "; ".join(fails)))
    return 1 if fails else 0


def main() -> int:
    args = parse_args()
    if args.seed is None:
        args.seed = random.randrange(1 << 31)
    t_start = time.perf_counter()
    print("renju cross-check: Gorin (%s) vs PyPI renju.check_forbid; seed %d, %d generated "
          "positions (game share %.2f)%s" % (args.engine, args.seed, args.positions,
                                              args.game_share, "" if args.no_files else " + files"))
    pool = None
    if args.jobs > 1:
        import multiprocessing
        pool = multiprocessing.Pool(args.jobs)
    stats = {"games": 0}
    sources, cases = make_sources(args, pool, stats)
    gorin = Gorin(args.engine.split() if " " in args.engine else [args.engine])
    tally = Tally()
    try:
        compare(sources, gorin, tally)
    except BrainDied as e:
        print("Gorin failed: %s" % e)
        gorin.brain.kill()
        return 1
    finally:
        if pool is not None:
            pool.terminate()
    gorin.close()
    wall = time.perf_counter() - t_start

    print_table(tally, stats, args)
    n_pkg, n_rif = print_disagreements(tally.disagreements, args.show)
    case_bad = check_cases(cases, tally.case_results)
    return verdict(args, tally, gorin, wall, n_pkg, n_rif, case_bad)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        Brain.kill_all()
        sys.exit(130)
