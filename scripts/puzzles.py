#!/usr/bin/env python3
"""VCF puzzles: how many does a brain answer with a winning move within the time limit?

For each record of a puzzle file (by default protocol-tests/data/renju_vcf_selfplay.jsonl, see the
README beside it; `--file` takes another of the same format, such as `deep_vcf.py` writes;
a record's `rule` and `size` default to renju 15x15) the brain gets the position by `BOARD` (stones in alternating order, black first, as renju managers send them; the
side to move is "own") and `INFO timeout_turn`; its reply counts as solved when it is one of
`winning_first_moves`. Any other move is checked by asking the same kind of brain, as the
defender of the resulting position, for a search of `--verify-ms`: a forced-loss score
(`ev -M..`) in its last MESSAGE proves the attacker still wins (a strong engine may prefer a
longer VCT to the listed VCF). Prints both counts, the solve rate and the median answer time.

    python3 scripts/puzzles.py --limit 200
    python3 scripts/puzzles.py --engine "./other-brain" --turn-ms 1000
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import sys
import time

from gorinkit.brain import Brain, BrainDied
from gorinkit.paths import DEFAULT_ENGINE, SHIPPED_DATA
from gorinkit.protocol import is_chatter, parse_move, stones_body
from gorinkit.referee import BLACK, WHITE, Board, read_jsonl, rule_number

DEFAULT_FILE = str(SHIPPED_DATA / "renju_vcf_selfplay.jsonl")


def board_lines(black: list, white: list, to_move: str) -> list[str]:
    """BOARD in move order (black, white, black, ...); the side to move is field 1."""
    return ["BOARD", *stones_body(black, white, to_move == "black"), "DONE"]


def ask(brain: Brain, lines: list[str], wait_s: float) -> tuple[tuple[int, int] | None, float, str]:
    """Sends a position, returns (move, seconds to answer, last MESSAGE line)."""
    t0 = brain.send(*lines)
    last_message = ""
    deadline = t0 + wait_s
    while True:
        got = brain.read(max(0.0, deadline - time.monotonic()))
        if got is None:
            return None, wait_s, last_message
        stamp, line = got
        if line is None:
            raise BrainDied("brain closed its output")
        if is_chatter(line):
            if line.upper().startswith("MESSAGE DEPTH"):
                last_message = line
            continue
        move = parse_move(line)
        if move is not None:
            return move, stamp - t0, last_message
        # anything else (ERROR, OK from START): keep waiting


def start(brain: Brain, turn_ms: int, puzzle: dict) -> None:
    """A new game for `puzzle`'s rule and board (renju 15x15 unless the record says)."""
    rule = rule_number(puzzle.get("rule", "renju"))
    brain.send(f"INFO rule {rule}", f"INFO timeout_turn {turn_ms}", "INFO timeout_match 0",
               f"START {puzzle.get('size', 15)}")
    while True:
        got = brain.read(10.0)
        if got is None or got[1] is None:
            raise BrainDied("no OK to START")
        if got[1].strip().upper() == "OK":
            return


# Forced replies (a block of a lone four) come without a MESSAGE: the check plays on through
# at most this many of them.
MAX_FORCED_PLIES = 40


def score_of(message: str) -> str | None:
    """The `ev` field of a MESSAGE depth line, if any."""
    fields = message.split()
    return fields[fields.index("ev") + 1] if "ev" in fields[:-1] else None


def defender_lost(cmd: list[str], puzzle: dict, move: tuple[int, int], verify_ms: int) -> bool:
    """Whether the defender, to move after `move`, finds itself lost by force: its search says
    so (`ev -M..`), or the game played on by the same kind of brain through forced replies
    ends in the attacker's five while the attacker's searches keep claiming the win."""
    stones = {"black": list(puzzle["black"]), "white": list(puzzle["white"])}
    attacker = puzzle["to_move"]
    defender = "white" if attacker == "black" else "black"
    stones[attacker].append(list(move))
    rule = rule_number(puzzle.get("rule", "renju"))
    size = puzzle.get("size", 15)
    board = Board(size)
    for colour, name in ((BLACK, "black"), (WHITE, "white")):
        for x, y in stones[name]:
            board.place(x, y, colour)
    side = defender
    brain = Brain(cmd, "verifier")
    try:
        for _ in range(MAX_FORCED_PLIES):
            start(brain, verify_ms, puzzle)
            reply, _, message = ask(brain, board_lines(stones["black"], stones["white"], side),
                                    verify_ms / 1000 + 5)
            score = score_of(message)
            if score is not None:
                if side == defender:
                    return score.startswith("-M")
                if not score.startswith("+M"):
                    return False
            if reply is None or not board.inside(*reply) or board.get(*reply):
                return False
            colour = BLACK if side == "black" else WHITE
            if board.wins(*reply, colour, rule):
                return side == attacker
            board.place(*reply, colour)
            stones[side].append(list(reply))
            side = defender if side == attacker else attacker
        return False
    finally:
        brain.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", default=DEFAULT_ENGINE, help="brain command (shell words)")
    ap.add_argument("--file", default=DEFAULT_FILE)
    ap.add_argument("--turn-ms", type=int, default=1000, help="INFO timeout_turn per puzzle")
    ap.add_argument("--verify-ms", type=int, default=3000, help="defender's search for other moves")
    ap.add_argument("--limit", type=int, default=0, help="only the first N puzzles (0 = all)")
    ap.add_argument("--target", type=float, default=97.0, help="solve rate (%%) to pass")
    args = ap.parse_args()
    cmd = shlex.split(args.engine)
    puzzles = read_jsonl(args.file)
    if args.limit:
        puzzles = puzzles[: args.limit]
    listed = proved = 0
    failed: list[str] = []
    times: list[float] = []
    brain = Brain(cmd, "solver")
    try:
        for i, pz in enumerate(puzzles):
            start(brain, args.turn_ms, pz)
            move, took, message = ask(brain, board_lines(pz["black"], pz["white"], pz["to_move"]),
                                      args.turn_ms / 1000 + 5)
            times.append(took * 1000)
            winning = {tuple(m) for m in pz["winning_first_moves"]}
            if move in winning:
                listed += 1
            elif move is not None and defender_lost(cmd, pz, move, args.verify_ms):
                proved += 1
            else:
                failed.append(f"{pz['id']}: answered {move} ({message}), winning {sorted(winning)}")
            if (i + 1) % 100 == 0:
                print(f"{i + 1}/{len(puzzles)}: {listed + proved} solved", file=sys.stderr, flush=True)
    finally:
        brain.close()
    n = len(puzzles)
    solved = listed + proved
    rate = 100.0 * solved / n if n else 0.0
    print(f"puzzles: {n}, turn {args.turn_ms} ms, engine {args.engine}")
    print(f"solved with a listed winning move: {listed}")
    print(f"solved with another move proved winning by the defender's search: {proved}")
    print(f"not solved: {len(failed)}")
    for line in failed[:15]:
        print("  " + line)
    print(f"solve rate: {rate:.1f}%  median answer time: {statistics.median(times):.0f} ms"
          f"  max: {max(times):.0f} ms")
    ok = rate >= args.target
    print("RESULT: " + ("OK" if ok else f"FAIL (solve rate below {args.target}%)"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
