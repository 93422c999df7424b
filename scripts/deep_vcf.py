#!/usr/bin/env python3
"""Mines long VCF puzzles (victory by continuous fours) from game records.

Every position of every game in the JSONL files (as `match.py --jsonl`, `gen_games.py` and
`gauntlet.py` write them) goes to `pbrain-gorin solve`, which looks for the side to move's
shortest VCF with a large node budget. A position whose shortest VCF is at least
`--min-plies` long (the five included) and took the solver at least `--min-nodes` nodes
becomes a puzzle; of each game and side only the earliest such position is kept (the later ones are the same attack, shorter), and a position
seen twice once. The records have the format of `puzzles.py`, which measures a brain on them:

    python3 scripts/deep_vcf.py games.jsonl --out deep.jsonl --min-plies 21
    python3 scripts/puzzles.py --file deep.jsonl --turn-ms 1000
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from pathlib import Path

from gorinkit.paths import DEFAULT_ENGINE
from gorinkit.referee import RULE_KEYS, game_moves, read_jsonl, rule_number


def rule_of(game: dict) -> int:
    """A record's rule as an INFO rule value (records give the number or its name)."""
    return rule_number(game.get("rule", 0))


# A lost tempo's stone stands at least this far (in king steps) from every other stone, out
# of reach of the line patterns (which look five points each way).
TEMPO_DISTANCE = 6


def far_point(moves: list[list[int]], size: int) -> list[int] | None:
    """The empty point farthest from every stone, if it is out of their lines' reach."""
    best, best_d = None, -1
    for x in range(size):
        for y in range(size):
            d = min((max(abs(x - a), abs(y - b)) for a, b in moves), default=size)
            if d > best_d:
                best, best_d = [x, y], d
    return best if best_d >= TEMPO_DISTANCE else None


def positions(game: dict, tempo: bool = False) -> list[tuple[list[list[int]], bool]]:
    """Each position of a game from the end of its opening on (moves from black's first), with
    whether it is a lost tempo's. With `tempo`, each is followed by its side to move's stone on
    the farthest point instead of its move: the opponent moves, and its VCFs that the move in
    the game had to stop show."""
    moves = game_moves(game)
    first = len(game.get("opening", []))
    size = int(game.get("size", 15))
    out = []
    for k in range(max(first, 1), len(moves)):
        out.append((moves[:k], False))
        if tempo and (p := far_point(moves[:k], size)) is not None:
            out.append(([*moves[:k], p], True))
    return out


def solve_all(cmd: list[str], rule: int, size: int, nodes: int, lines: list[str]) -> list[str]:
    """One `solve` process for a batch of positions of one rule and size."""
    argv = cmd + ["solve", "--rule", str(rule), "--size", str(size), "--nodes", str(nodes)]
    done = subprocess.run(argv, input="\n".join(lines) + "\n", capture_output=True, text=True, check=True)
    answers = done.stdout.splitlines()
    if len(answers) != len(lines):
        raise RuntimeError(f"solve answered {len(answers)} lines for {len(lines)} positions")
    return answers


def parse_answer(text: str) -> tuple[int, int, list[list[int]]] | None:
    """(plies, solver nodes, line) of a `win` answer, else None."""
    fields = text.split()
    if not fields or fields[0] != "win":
        return None
    line = [[int(v) for v in w.split(",")] for w in fields[fields.index("line") + 1:]]
    return int(fields[1]), int(fields[fields.index("nodes") + 1]), line


def game_id(game: dict) -> str:
    return str(game.get("game", game.get("file", "")))


def puzzle(source: str, game: dict, moves: list[list[int]], tempo: bool, plies: int, nodes: int,
           line: list[list[int]]) -> dict:
    rule = rule_of(game)
    return {
        "id": f"{source}-g{game_id(game)}-p{len(moves)}",
        "rule": RULE_KEYS.get(rule, str(rule)),
        "size": int(game.get("size", 15)),
        "to_move": "black" if len(moves) % 2 == 0 else "white",
        "black": moves[0::2],
        "white": moves[1::2],
        "winning_first_moves": [line[0]],
        "witness_line": line,
        "vcf_plies": plies,
        "solver_nodes": nodes,
        "tempo": tempo,
    }


def mine(path: Path, cmd: list[str], nodes: int, min_plies: int, min_nodes: int, seen: set, limit: int,
         tempo: bool) -> tuple[list[dict], dict]:
    games = read_jsonl(path)
    games = games[:limit] if limit else games
    found: list[dict] = []
    stats = {"positions": 0, "win": 0, "unknown": 0}
    by_kind: dict[tuple[int, int], list[tuple[dict, list[list[int]], bool]]] = {}
    for g in games:
        for moves, passed in positions(g, tempo):
            by_kind.setdefault((rule_of(g), int(g.get("size", 15))), []).append((g, moves, passed))
    for (rule, size), items in by_kind.items():
        lines = [" ".join(f"{x},{y}" for x, y in moves) for _, moves, _ in items]
        answers = solve_all(cmd, rule, size, nodes, lines)
        kept: set[tuple[int, str]] = set()
        for (g, moves, passed), answer in zip(items, answers):
            stats["positions"] += 1
            stats["unknown"] += answer.startswith("unknown")
            got = parse_answer(answer)
            if got is None:
                continue
            stats["win"] += 1
            plies, spent, line = got
            side = "black" if len(moves) % 2 == 0 else "white"
            key = frozenset(map(tuple, moves[0::2])), frozenset(map(tuple, moves[1::2])), rule, size
            if plies < min_plies or spent < min_nodes or (game_id(g), side) in kept or key in seen:
                continue
            kept.add((game_id(g), side))
            seen.add(key)
            found.append(puzzle(path.stem, g, moves, passed, plies, spent, line))
    return found, stats


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="+", type=Path, help="game records (JSONL)")
    ap.add_argument("--engine", default=DEFAULT_ENGINE, help="Gorin's binary (shell words)")
    ap.add_argument("--out", type=Path, required=True, help="puzzle file to write (JSONL)")
    ap.add_argument("--nodes", type=int, default=2_000_000, help="solver nodes per position")
    ap.add_argument("--limit", type=int, default=0, help="only the first N games of each file (0: all)")
    ap.add_argument("--min-plies", type=int, default=21, help="shortest VCF at least this long")
    ap.add_argument("--min-nodes", type=int, default=0, help="and proved in at least this many solver nodes")
    ap.add_argument("--tempo", action="store_true",
                    help="also each position after a lost tempo (a stone on the farthest point)")
    args = ap.parse_args()
    cmd = shlex.split(args.engine)
    seen: set = set()
    puzzles: list[dict] = []
    for path in args.games:
        found, stats = mine(path, cmd, args.nodes, args.min_plies, args.min_nodes, seen, args.limit,
                            args.tempo)
        print(f"{path}: {stats['positions']} positions, {stats['win']} with a VCF, {stats['unknown']} "
              f"undecided, {len(found)} puzzles", file=sys.stderr)
        puzzles.extend(found)
    args.out.write_text("".join(json.dumps(p) + "\n" for p in puzzles), encoding="utf-8")
    lengths = sorted(p["vcf_plies"] for p in puzzles)
    median = lengths[len(lengths) // 2] if lengths else 0
    print(f"deep_vcf: {len(puzzles)} puzzles written to {args.out} (median {median} plies)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
