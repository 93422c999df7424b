#!/usr/bin/env python3
"""Make the data files the repository ships, from Gorin's own play, reproducibly.

Public collections of openings, puzzles and forbidden-point cases mostly state no licence or are
GPL, so the project makes its own (see protocol-tests/data/README.md and scripts/openings/README.md).
Every search here is node-limited on one thread, so the same engine build and seed give the same
files.

    python3 scripts/make_data.py openings   # scripts/openings/gorin_freestyle_15.txt
    python3 scripts/make_data.py games      # renju self-play games (input of the next two)
    python3 scripts/make_data.py forbidden  # protocol-tests/data/renju_forbidden_selfplay.jsonl
    python3 scripts/make_data.py vcf        # protocol-tests/data/renju_vcf_selfplay.jsonl
    python3 scripts/make_data.py all        # the four above, in order

- openings: black on the centre, white on a seeded random point one to three steps away, black's
  second stone two to five steps from the centre; the opening is kept when Gorin's search of it
  (white to move) scores it within --margin of even (close stones favour black by hundreds, so
  most are dropped). Openings equal under the board's symmetries are tried once.
- forbidden: every position of the games is shown to Gorin (`YXSHOWFORBID`) and to the PyPI
  package `renju` (a port of Piskvork's judge: an independent implementation). A position where
  they disagree is reported and left out; of the rest, positions with forbidden points are kept,
  a few a game, rarer kinds first.
- vcf: the end of each won game, walked back while the winner's moves are all fours and the
  loser's all forced blocks, is a VCF (checked by the referee, not by Gorin). Chains of at least
  --min-fours fours are kept; a search of our own (fours only, up to the chain's length) lists every
  first move that wins within that many fours, and Gorin must prove the position won (`ev +M`).

Python 3 standard library; `forbidden` also needs the PyPI package `renju`.
"""

from __future__ import annotations

import argparse
from itertools import zip_longest
import json
import random
import shlex
import sys
import time
from pathlib import Path

sys.dont_write_bytecode = True
from gorinkit import evals, gamegen, referee  # noqa: E402
from gorinkit.brain import Brain, BrainDied  # noqa: E402
from gorinkit.paths import DEFAULT_ENGINE, OPENINGS, REPO, SHIPPED_DATA  # noqa: E402
from gorinkit.protocol import board_body  # noqa: E402
from gorinkit.referee import BLACK, DIRECTIONS, RENJU, Board  # noqa: E402

OPENINGS_OUT = OPENINGS / "gorin_freestyle_15.txt"
DATA_DIR = SHIPPED_DATA
GAMES_OUT = REPO / "target" / "make_data" / "renju_games.jsonl"
SIZE = 15
READ_S = 30.0
WIN = "win"
KINDS = {"double-three": "double_three", "double-four": "double_four", "overline": "overline"}

Point = tuple[int, int]


class Gorin:
    """One long-lived engine process, node-limited, answering one command at a time."""

    def __init__(self, engine: str, nodes: int, rule: int):
        self.brain = Brain(shlex.split(engine), "gorin")
        self.brain.send(f"INFO rule {rule}", f"INFO max_node {nodes}", "INFO timeout_turn 60000",
                        "INFO timeout_match 0", f"START {SIZE}")
        self.reply()

    def reply(self) -> tuple[str, str]:
        """(the next answer line, the last `MESSAGE depth` line before it)."""
        depth_lines: list[str] = []
        got = self.brain.reply(time.monotonic() + READ_S, depth_lines.append)
        if got is None:
            raise BrainDied("no answer from the engine")
        last = next((m for m in reversed(depth_lines) if m.upper().startswith("MESSAGE DEPTH")), "")
        return got[1].strip(), last

    def ask(self, *lines: str) -> tuple[str, str]:
        self.brain.send(*lines)
        return self.reply()

    def close(self) -> None:
        self.brain.close()


def score_of(message: str) -> int | None:
    """The `ev` of a search line as a number (a mate as +/-(MATE - plies)), or None."""
    m = evals.EVAL_RE.search(message)
    return evals.score(m.group(1)) if m else None


# ---------------------------------------------------------------------------------------------
# Openings
# ---------------------------------------------------------------------------------------------
def canonical(offsets: list[Point]) -> tuple:
    """The smallest of an opening's eight images under rotation and reflection."""
    images = []
    for sx in (1, -1):
        for sy in (1, -1):
            for swap in (False, True):
                images.append(tuple((sy * y, sx * x) if swap else (sx * x, sy * y) for x, y in offsets))
    return min(images)


def make_openings(a: argparse.Namespace) -> int:
    rng = random.Random(a.seed)
    c = SIZE // 2
    near = [(dx, dy) for dy in range(-3, 4) for dx in range(-3, 4) if (dx, dy) != (0, 0)]
    far = [(dx, dy) for dy in range(-5, 6) for dx in range(-5, 6) if max(abs(dx), abs(dy)) >= 2]
    gorin = Gorin(a.engine, a.nodes, 0)
    kept: list[tuple[list[Point], int]] = []
    seen = set()
    tries = 0
    try:
        while len(kept) < a.count and tries < a.count * 40:
            tries += 1
            offsets = [(0, 0), rng.choice(near), rng.choice(far)]
            key = canonical(offsets)
            if offsets[2] == offsets[1] or key in seen:
                continue
            seen.add(key)
            moves = [(c + dx, c + dy) for dx, dy in offsets]
            _, message = gorin.ask("BOARD", *board_body(moves), "DONE")
            white = score_of(message)
            if white is not None and abs(white) <= a.margin:
                kept.append((offsets, white))
    finally:
        gorin.close()
    lines = [f"# {len(kept)} balanced freestyle openings for 15x15, offsets from the centre (black, white,",
             "# black), made by scripts/make_data.py openings "
             f"--seed {a.seed} --nodes {a.nodes} --margin {a.margin} --count {a.count}.",
             "# The comment after each is the search's score for white, to move."]
    for offsets, white in kept:
        lines.append(", ".join(f"{x},{y}" for x, y in offsets) + f"  # {white:+d}")
    write(Path(a.out), "\n".join(lines) + "\n")
    print(f"openings: {len(kept)} kept of {tries} tried -> {a.out}")
    return 0 if len(kept) == a.count else 1


# ---------------------------------------------------------------------------------------------
# Games
# ---------------------------------------------------------------------------------------------
def make_games(a: argparse.Namespace) -> int:
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    for suffix in (".jsonl", ".sgf"):
        out.with_suffix(suffix).unlink(missing_ok=True)
    # One process at a time: with two, which game a pooled engine plays (and so its hash table)
    # would depend on timing.
    return gamegen.main(["--engine", a.engine, "--games", str(a.count), "--nodes", str(a.nodes),
                           "--turn-ms", "60000", "--seed", str(a.seed), "--rule", str(RENJU),
                           "--size", str(SIZE), "-j", "1", "--out", str(out.with_suffix(""))])


def game_moves(game: dict) -> list[Point]:
    return [tuple(m) for m in game["opening"] + game["moves"]]


# ---------------------------------------------------------------------------------------------
# Forbidden points
# ---------------------------------------------------------------------------------------------
def black_on_lines(board: Board, x: int, y: int) -> int:
    """Black stones within five steps of (x, y) along its four lines."""
    n = 0
    for dx, dy in DIRECTIONS:
        for s in (1, -1):
            for k in range(1, 6):
                px, py = x + s * k * dx, y + s * k * dy
                if board.inside(px, py) and board.get(px, py) == BLACK + 1:
                    n += 1
    return n


def judged_forbidden(board: Board) -> dict[Point, str]:
    """Black's forbidden points by the referee (the `renju` package, read by the RIF rules: see
    referee.foul_kinds). A forbidden shape at p is
    built from black stones on p's lines within five steps, at least four of them (a double three
    needs two more stones on each of two lines), so the package is asked only there."""
    found = {}
    for y in range(board.height):
        for x in range(board.width):
            if board.get(x, y) or black_on_lines(board, x, y) < 4 or board.wins(x, y, BLACK, RENJU):
                continue
            kind = board.renju_foul(x, y, rif=True)
            if kind:
                found[(x, y)] = KINDS[kind]
    return found


def engine_forbidden(gorin: Gorin, moves: list[Point]) -> set[Point]:
    answer, _ = gorin.ask("YXBOARD", *board_body(moves), "DONE", "YXSHOWFORBID")
    digits = answer.split()[1].rstrip(".") if answer.upper().startswith("FORBID") else None
    if digits is None:
        raise BrainDied(f"YXSHOWFORBID answered {answer!r}")
    return {(int(digits[i:i + 2]), int(digits[i + 2:i + 4])) for i in range(0, len(digits), 4)}


def make_forbidden(a: argparse.Namespace) -> int:
    if not referee.RENJU_PACKAGE:
        sys.stderr.write("make_data.py forbidden needs the PyPI package `renju` (pip install renju==0.1.0)\n")
        return 2
    games = referee.read_jsonl(a.games)
    gorin = Gorin(a.engine, 1000, RENJU)
    candidates: list[tuple[int, dict]] = []  # (the rarest new kind's rank, record)
    positions = disagreements = 0
    rank = {"overline": 0, "double_four": 1, "double_three": 2}
    try:
        for g in games:
            moves = game_moves(g)
            board = Board(SIZE)
            seen: set[tuple[Point, str]] = set()
            per_game = 0
            for ply, (x, y) in enumerate(moves):
                board.place(x, y, ply % 2)
                if board.wins(x, y, ply % 2, RENJU):
                    break
                positions += 1
                judged = judged_forbidden(board)
                shown = engine_forbidden(gorin, moves[:ply + 1])
                if shown != set(judged):
                    disagreements += 1
                    print(f"disagree: game {g['game']} ply {ply + 1}: engine {sorted(shown)}, "
                          f"package {sorted(judged.items())}")
                    continue
                new = set(judged.items()) - seen
                if not new or per_game >= a.per_game:
                    continue
                seen |= set(judged.items())
                per_game += 1
                record = {
                    "id": f"selfplay:{g['game']}:{ply + 1}",
                    "source": f"scripts/make_data.py forbidden (game {g['game']}, ply {ply + 1})",
                    "black": [list(m) for m in moves[:ply + 1:2]],
                    "white": [list(m) for m in moves[1:ply + 1:2]],
                    "expected": "complete_set",
                    "forbidden": [{"point": list(p), "kind": k} for p, k in sorted(judged.items())],
                }
                candidates.append((min(rank[k] for _, k in new), record))
    finally:
        gorin.close()
    # Round robin over the kinds (in game order within each), so the rarer ones are not crowded
    # out by the common double-three.
    by_kind = [[r for k, r in candidates if k == kind] for kind in sorted(set(rank.values()))]
    chosen = [r for group in zip_longest(*by_kind) for r in group if r is not None][:a.count]
    write(Path(a.out), "".join(json.dumps(r) + "\n" for r in chosen))
    kinds = {k: sum(1 for r in chosen for f in r["forbidden"] if f["kind"] == k) for k in rank}
    print(f"forbidden: {positions} positions of {len(games)} games, {disagreements} disagreements, "
          f"{len(candidates)} candidates, {len(chosen)} kept (points by kind {kinds}) -> {a.out}")
    return 1 if disagreements else 0


# ---------------------------------------------------------------------------------------------
# VCF
# ---------------------------------------------------------------------------------------------
class Fours:
    """Fours and fives on a referee board under one rule, found through five-point windows."""

    def __init__(self, board: Board, rule: int):
        self.b = board
        self.rule = rule

    def windows(self, x: int, y: int):
        """Every five-point window through (x, y), as its list of points."""
        for dx, dy in DIRECTIONS:
            for start in range(-4, 1):
                pts = [(x + (start + k) * dx, y + (start + k) * dy) for k in range(5)]
                if all(self.b.inside(*p) for p in pts):
                    yield pts

    def fives_through(self, x: int, y: int, colour: int) -> set[Point]:
        """Empty points where `colour` wins, on windows through its stone at (x, y)."""
        found = set()
        for pts in self.windows(x, y):
            stones = [self.b.get(*p) for p in pts]
            if stones.count(colour + 1) == 4 and stones.count(0) == 1:
                p = pts[stones.index(0)]
                if self.b.wins(p[0], p[1], colour, self.rule):
                    found.add(p)
        return found

    def all_fives(self, colour: int) -> set[Point]:
        found = set()
        for y in range(self.b.height):
            for x in range(self.b.width):
                if self.b.get(x, y) == colour + 1:
                    found |= self.fives_through(x, y, colour)
        return found

    def four_moves(self, colour: int) -> set[Point]:
        """Empty points that may make a four: two empties of a window with three of `colour`."""
        found = set()
        for y in range(self.b.height):
            for x in range(self.b.width):
                if self.b.get(x, y) != colour + 1:
                    continue
                for pts in self.windows(x, y):
                    stones = [self.b.get(*p) for p in pts]
                    if stones.count(colour + 1) == 3 and stones.count(0) == 2:
                        found.update(p for p, s in zip(pts, stones) if s == 0)
        return found

    def legal(self, p: Point, colour: int) -> bool:
        if self.rule != RENJU or colour != BLACK or self.b.wins(p[0], p[1], BLACK, RENJU):
            return True
        return self.b.renju_foul(p[0], p[1], rif=True) is None

    def blocked_by_foul(self, q: Point, defender: int) -> bool:
        """Renju: black may not block a white four on a forbidden point."""
        return self.rule == RENJU and defender == BLACK and not self.legal(q, BLACK)

    def four_outcome(self, p: Point, attacker: int) -> Point | str | None:
        """After the attacker's stone at p: WIN (a five, two points to make one, or in renju a
        white four black may not block), the point the defender must block, or None (no four)."""
        if self.b.wins(p[0], p[1], attacker, self.rule):
            return WIN
        fives = self.fives_through(p[0], p[1], attacker)
        if len(fives) >= 2:
            return WIN
        if not fives:
            return None
        (q,) = fives
        return WIN if self.blocked_by_foul(q, 1 - attacker) else q


def vcf_firsts(f: Fours, attacker: int, depth: int) -> list[Point]:
    """Every first move of a win by at most `depth` fours (the attacker to move, neither side with
    a five to make)."""
    defender = 1 - attacker
    memo: dict[tuple, bool] = {}

    def wins_by_four(p: Point, left: int, threats: set[Point]) -> bool:
        """Whether the four at `p` wins; the defender's own fives are `threats` (p may block one)."""
        if not f.legal(p, attacker):
            return False
        f.b.place(p[0], p[1], attacker)
        try:
            if threats - {p}:
                return False  # the defender makes five first
            q = f.four_outcome(p, attacker)
            if q is None or q == WIN:
                return q == WIN
            if left <= 1:
                return False
            f.b.place(q[0], q[1], defender)
            try:
                return search(left - 1, f.fives_through(q[0], q[1], defender))
            finally:
                f.b.remove(*q)
        finally:
            f.b.remove(*p)

    def search(left: int, threats: set[Point]) -> bool:
        key = (tuple(map(tuple, f.b.cells)), left)
        if key not in memo:
            if len(threats) >= 2:
                memo[key] = False
            else:
                moves = sorted(f.four_moves(attacker) & threats if threats else f.four_moves(attacker))
                memo[key] = any(wins_by_four(p, left, threats) for p in moves)
        return memo[key]

    return [p for p in sorted(f.four_moves(attacker)) if wins_by_four(p, depth, set())]


def chain_start(moves: list[Point], rule: int) -> tuple[int, int] | None:
    """(the earliest ply from which the game's last moves are a VCF of the winner: its moves all
    fours, the loser's all forced blocks; the plies up to the decisive move), or None."""
    best = None
    for start in range(len(moves) - 1, -1, -2):
        board = Board(SIZE)
        for i, (x, y) in enumerate(moves[:start]):
            board.place(x, y, i % 2)
        f = Fours(board, rule)
        attacker = start % 2
        threats = f.all_fives(1 - attacker)
        plies = chain_plies(f, moves[start:], attacker, threats)
        if plies is None:
            break
        # Positions with a five to make are steps of the chain, not puzzles.
        if not threats and not f.all_fives(attacker):
            best = (start, plies)
    return best


def chain_plies(f: Fours, line: list[Point], attacker: int, threats: set[Point]) -> int | None:
    """If `line` (attacker first) is a VCF on f's board, the plies up to its decisive move;
    `threats` are the defender's fives. The board is left as it was."""
    placed: list[Point] = []
    try:
        for i in range(0, len(line), 2):
            p = line[i]
            if threats - {p} or not f.legal(p, attacker):
                return None
            f.b.place(p[0], p[1], attacker)
            placed.append(p)
            q = f.four_outcome(p, attacker)
            if q == WIN:
                return i + 1
            if q is None or i + 1 >= len(line) or line[i + 1] != q:
                return None
            f.b.place(q[0], q[1], 1 - attacker)
            placed.append(q)
            threats = f.fives_through(q[0], q[1], 1 - attacker)
        return None
    finally:
        for p in placed:
            f.b.remove(*p)


def make_vcf(a: argparse.Namespace) -> int:
    games = referee.read_jsonl(a.games)
    gorin = Gorin(a.engine, a.nodes, RENJU)
    kept, unproved = [], []
    try:
        for g in games:
            if g.get("winner_colour") is None or g.get("kind") != "five":
                continue
            moves = game_moves(g)
            found = chain_start(moves, RENJU)
            if found is None:
                continue
            start, plies = found
            board = Board(SIZE)
            for i, (x, y) in enumerate(moves[:start]):
                board.place(x, y, i % 2)
            f = Fours(board, RENJU)
            attacker = start % 2
            line = moves[start:start + plies]
            fours = (len(line) + 1) // 2
            if fours < a.min_fours:
                continue
            firsts = vcf_firsts(f, attacker, fours)
            if line[0] not in firsts:
                raise SystemExit(f"game {g['game']}: our search misses the game's own VCF {line}")
            _, message = gorin.ask("BOARD", *board_body(moves[:start]), "DONE")
            record = {
                "id": f"selfplay-{g['game']:04d}-{start:03d}", "rule": "renju", "size": SIZE,
                "to_move": "black" if attacker == BLACK else "white",
                "black": [list(m) for m in moves[:start:2]], "white": [list(m) for m in moves[1:start:2]],
                "winning_first_moves": [list(p) for p in firsts], "fours": fours,
                "witness_line": [list(p) for p in line],
            }
            if (score_of(message) or 0) < evals.DECIDED:
                unproved.append(record["id"])
            kept.append(record)
    finally:
        gorin.close()
    write(Path(a.out), "".join(json.dumps(r) + "\n" for r in kept))
    print(f"vcf: {len(kept)} positions from {len(games)} games (at least {a.min_fours} fours), "
          f"{len(kept) - len(unproved)} proved won by the engine at {a.nodes} nodes -> {a.out}")
    for rid in unproved:
        print(f"  not proved by the engine: {rid}")
    return 0


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("what", choices=("openings", "games", "forbidden", "vcf", "all"))
    p.add_argument("--engine", default=DEFAULT_ENGINE, help="brain command (Gorin)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--nodes", type=int, default=None,
                   help="node limit a search (openings 100000, games 20000, vcf 200000)")
    p.add_argument("--count", type=int, default=None,
                   help="openings 60, games 600, forbidden cases 80")
    p.add_argument("--margin", type=int, default=100, help="openings: largest |score| kept")
    p.add_argument("--games", default=str(GAMES_OUT), help="forbidden, vcf: the games file")
    p.add_argument("--per-game", type=int, default=2, help="forbidden: cases a game at most")
    p.add_argument("--min-fours", type=int, default=3, help="vcf: shortest chain kept")
    p.add_argument("--out", default=None, help="output file")
    a = p.parse_args(argv)
    steps = ("openings", "games", "forbidden", "vcf") if a.what == "all" else (a.what,)
    defaults = {
        "openings": (100_000, 60, OPENINGS_OUT, make_openings),
        "games": (20_000, 600, GAMES_OUT, make_games),
        "forbidden": (None, 80, DATA_DIR / "renju_forbidden_selfplay.jsonl", make_forbidden),
        "vcf": (200_000, None, DATA_DIR / "renju_vcf_selfplay.jsonl", make_vcf),
    }
    worst = 0
    for step in steps:
        nodes, count, out, run = defaults[step]
        b = argparse.Namespace(**vars(a))
        b.nodes = a.nodes if a.nodes is not None and a.what != "all" else nodes
        b.count = a.count if a.count is not None and a.what != "all" else count
        b.out = a.out if a.out is not None and a.what != "all" else str(out)
        worst = max(worst, run(b))
    return worst


if __name__ == "__main__":
    sys.exit(main())
