#!/usr/bin/env python3
"""Proved results that the games contradict: a brain's mate claims checked against how the
games of match files ended.

Every position of every game in the match.py / gauntlet.py `--jsonl` files (from the end of the
opening to the last move) is put to BRAIN with a small node budget (`INFO max_node`), which is
enough for a threat solver's proof; the brain's last evaluation before its move is read. A
claimed win (`+M n`) for the side to move in a game that side did not win, or a claimed loss
(`-M n`) in a game it did not lose, is listed. Either the proof is wrong (the solver missed a
defence: how the renju solver once forgot white's block on a point forbidden to black) or a
player let a real win go; ask a judge about the listed positions (`--save` writes them in
blunders.py's `--save` form, `judge` left empty, for replay.py or a look by hand).

    python3 scripts/false_wins.py scripts/results/*/gauntlet/renju15--rapfi.jsonl
    python3 scripts/false_wins.py --brain target/release/pbrain-gorin --nodes 3000 --procs 2 \\
        --save contradicted.jsonl --strict FILES

`--strict` exits with status 1 when any claim is contradicted.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from gorinkit.evals import DECIDED, ask_all, position_lines, score
from gorinkit.paths import DEFAULT_ENGINE
from gorinkit.referee import game_moves, read_jsonl

COLOURS = ("black", "white")


def winner_colour(game: dict) -> str | None:
    """"black" or "white" for the game's winner, None for a draw (or a game without one)."""
    if game.get("winner_colour") in COLOURS:
        return game["winner_colour"]
    winner = game.get("winner")
    for colour in COLOURS:
        if winner and winner == game.get(colour):
            return colour
    return None


def positions(games: list[dict]) -> list[tuple[dict, int]]:
    """(game, ply) for every position of every game from the end of its opening on."""
    out = []
    for game in games:
        first = len(game.get("opening", []))
        total = first + len(game["moves"])
        out.extend((game, ply) for ply in range(first, total))
    return out


def contradiction(claim: int | None, mover: str, winner: str | None) -> str | None:
    """What is wrong with a proved result for `mover` in a game `winner` won (None: a draw)."""
    if claim is None or abs(claim) < DECIDED:
        return None
    if claim > 0 and winner != mover:
        return "claimed win"
    if claim < 0 and winner in (None, mover):
        return "claimed loss"
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="+", help="match.py / gauntlet.py --jsonl files")
    ap.add_argument("--brain", default=str(DEFAULT_ENGINE), help="the brain's command (shell words)")
    ap.add_argument("--nodes", type=int, default=3000, help="INFO max_node per position")
    ap.add_argument("--turn-ms", type=int, default=2000, help="INFO timeout_turn (a bound only)")
    ap.add_argument("--procs", type=int, default=1, help="brain processes asked at once")
    ap.add_argument("--save", help="write the contradicted positions here (JSON lines)")
    ap.add_argument("--strict", action="store_true", help="exit 1 when any claim is contradicted")
    args = ap.parse_args()

    games = []
    for name in args.games:
        for game in read_jsonl(name):
            games.append({**game, "_file": name, "_moves": game_moves(game), "_winner": winner_colour(game)})
    todo = positions(games)

    def question(i: int) -> list[str]:
        game, ply = todo[i]
        return position_lines(int(game.get("size", 15)), game["_moves"][:ply], args.nodes, args.turn_ms,
                              int(game.get("rule", 0)))

    evals, silent, failures = ask_all(args.brain, len(todo), question, args.procs, args.turn_ms / 1000 + 10)
    claims = {"claimed win": 0, "claimed loss": 0}
    found = []
    for i, ev in sorted(evals.items()):
        game, ply = todo[i]
        value = score(ev)
        if value is None or abs(value) < DECIDED:
            continue
        claims["claimed win" if value > 0 else "claimed loss"] += 1
        mover, winner = COLOURS[ply % 2], game["_winner"]
        what = contradiction(value, mover, winner)
        if what is None:
            continue
        moves = game["_moves"]
        found.append({"file": game["_file"], "game": game.get("game"), "ply": ply, "size": int(game.get("size", 15)),
                      "rule": int(game.get("rule", 0)), "moves": moves[:ply], "played": moves[ply],
                      "judge": None, "kind": what, "claim": ev, "mover": mover, "brain_side": game.get(mover),
                      "winner": winner})
        print(f"{game['_file']} game {game.get('game')} ply {ply}: {mover} ({game.get(mover)}) to move, {what} "
              f"{ev}, game won by {winner or 'nobody'}")
    print(f"{len(todo)} positions ({len(games)} games): {len(evals)} evaluated, {len(silent)} answered without an "
          f"evaluation, {len(failures)} unanswered; {claims['claimed win']} claimed wins, "
          f"{claims['claimed loss']} claimed losses, {len(found)} contradicted by the game")
    if args.save:
        Path(args.save).write_text("".join(json.dumps(row) + "\n" for row in found))
    return 1 if args.strict and found else 0


if __name__ == "__main__":
    sys.exit(main())
