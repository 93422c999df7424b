"""Generate self-play games fast, for training and test data: a brain against itself at a fixed
node budget (`INFO max_node`) or move time, from random seeded openings with extra random plies,
into JSONL (moves and times per game) and SGF. A thin layer over match.py (same referee, same
record formats); prints the rate in games per minute.

Usage: python3 scripts/gen_games.py --games 100 --nodes 20000 --seed 1 --out data/selfplay
       (writes data/selfplay.jsonl and data/selfplay.sgf)
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from . import matchplay as match


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--engine", default=match.DEFAULT_ENGINE, help="brain command (plays both sides)")
    p.add_argument("-n", "--games", type=int, default=100)
    p.add_argument("--nodes", type=int, default=20000, help="INFO max_node per move (0: no node limit)")
    p.add_argument("--turn-ms", type=int, default=1000,
                   help="INFO timeout_turn: a safety cap when --nodes limits the search")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--size", type=int, default=15)
    p.add_argument("--rule", type=int, default=0, choices=sorted(match.RULE_NAMES))
    p.add_argument("--random-plies", type=int, default=4, help="random stones added to each opening")
    p.add_argument("-j", "--jobs", type=int, default=2)
    p.add_argument("--out", default="selfplay", help="output prefix: PREFIX.jsonl and PREFIX.sgf")
    a, extra = p.parse_known_args(argv)
    argv2 = ["--engine", a.engine, "--engine", a.engine, "--name", "p1", "--name", "p2",
             "--games", str(a.games), "--seed", str(a.seed), "--size", str(a.size), "--rule", str(a.rule),
             "--turn-ms", str(a.turn_ms), "--random-plies", str(a.random_plies), "-j", str(a.jobs),
             "--opening-stones", "1-3", "--reuse", "--no-swap",
             "--jsonl", f"{a.out}.jsonl", "--sgf", f"{a.out}.sgf", *extra]
    if a.nodes:
        argv2 += ["--info", f"max_node={a.nodes}"]
    t0 = time.monotonic()
    code = match.main(argv2, prog="gen_games")
    minutes = (time.monotonic() - t0) / 60
    lines = Path(f"{a.out}.jsonl").read_text().count("\n") if Path(f"{a.out}.jsonl").exists() else 0
    match.out(f"gen_games: {lines} games in {minutes * 60:.0f} s = {lines / minutes:.1f} games/min "
              f"(max_node {a.nodes or 'none'}, turn {a.turn_ms} ms, -j {a.jobs}) -> {a.out}.jsonl, {a.out}.sgf")
    # Over-limit replies matter for a match, not for data: only crashes and illegal moves fail here.
    return 0 if code in (0, 1) else code

