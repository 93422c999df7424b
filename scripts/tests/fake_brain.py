#!/usr/bin/env python3
"""A deliberately faulty brain for the tests: plays random legal moves near the stones (seeded)
until its move number AT (default 2, counted per game), then misbehaves according to MODE:

  slow SECONDS   sleep SECONDS before answering (time-out / over-limit tests)
  crash          exit with status 3 instead of answering
  occupied       answer with an occupied point
  offboard       answer with a point off the board
  unparsable     answer `7,x`
  chatty         print a line that is neither a move nor MESSAGE before the move
  badstart       answer START with `ERROR no thanks` (AT is ignored)
  log FILE       behave, and append every received line to FILE
  swap2 A1 A2    answer SWAP2BOARD: A1 to 3 stones (SWAP, 1 or 2 = that many moves), A2 to 5
                 stones (SWAP or 1); to 0 stones three stones at the centre

Usage: python3 fake_brain.py MODE [ARG...] [--at N]
"""

import os
import random
import sys
import time
from pathlib import Path

sys.dont_write_bytecode = True
# Run as a brain command (`python3 scripts/tests/fake_brain.py`), so Python puts scripts/tests,
# not scripts/, on sys.path: the one script that has to name the package's folder.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from gorinkit import brainkit  # noqa: E402


def main() -> None:
    args = sys.argv[1:]
    at = 2
    if "--at" in args:
        i = args.index("--at")
        at = int(args[i + 1])
        del args[i:i + 2]
    mode, rest = args[0], args[1:]
    normal = brainkit.random_chooser(random.Random(0))
    own_moves = [0]
    out = sys.stdout

    def choose(board, colour, rule):
        own_moves[0] += 1
        if own_moves[0] != at:
            return normal(board, colour, rule)
        if mode == "slow":
            time.sleep(float(rest[0]))
        elif mode == "crash":
            out.flush()
            os._exit(3)
        elif mode in ("occupied", "offboard", "unparsable"):
            if mode == "occupied":
                x, y = next((x, y) for y in range(board.height) for x in range(board.width) if board.get(x, y))
                out.write(f"{x},{y}\n")
            else:
                out.write(f"{board.width},0\n" if mode == "offboard" else "7,x\n")
            out.flush()
            time.sleep(5)  # the referee has already judged; END or a kill follows
        elif mode == "chatty":
            out.write("depth 3 eval 12\n")
            out.flush()
        return normal(board, colour, rule)

    session = brainkit.Session("fake", choose)
    log_file = open(rest[0], "a") if mode == "log" else None
    for raw in sys.stdin:
        line = raw.strip()
        if log_file:
            log_file.write(line + "\n")
            log_file.flush()
        if mode == "badstart" and line.upper().startswith("START"):
            session.say("ERROR no thanks")
            continue
        if mode == "swap2" and session.body is not None and session.body_kind == "SWAP2BOARD" \
                and line.upper() == "DONE":
            n = len(session.body)
            session.body = None
            c = session.board.width // 2
            if n == 0:
                session.say(f"{c},{c} {c + 1},{c} {c},{c + 1}")
            else:
                answer = rest[0] if n == 3 else rest[1]
                free = [(c + dx, c + (3 if n == 3 else 4)) for dx in range(-3, 4)]
                if answer == "SWAP":
                    session.say("SWAP")
                else:
                    session.say(" ".join(f"{x},{y}" for x, y in free[:int(answer)]))
            continue
        if line.upper() == "RESTART" or line.upper().startswith("START "):
            own_moves[0] = 0  # a new game
        if not session.handle(raw):
            break


if __name__ == "__main__":
    main()
