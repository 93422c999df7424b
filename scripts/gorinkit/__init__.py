"""Shared code of the scripts in `scripts/`: Python 3.11 standard library only, Linux (Ray is
optional, imported only for `--ray`).

- `paths`: the repository's folders and the default brain (target/release/pbrain-gorin).
- `cli`: the command line the measuring scripts share (`--engine`, defaults shown in --help).
- `brain`: a Gomocup brain as a child process, with a bounded wait on every read and write.
- `protocol`: the protocol's text: BOARD bodies, moves, MESSAGE/DEBUG chatter.
- `referee`: board, wins per rule, renju forbidden moves, openings, SGF/PSQ records, JSON-lines record files.
- `brainkit`: the protocol loop of the baseline brains (greedy.py, random_brain.py, the tests' fakes).
- `matchplay`: a match between two brains (match.py; gen_games.py, selfplay.py and soak.py reuse it).
- `gauntlet`: each Gomocup league against a list of opponents; table and SVG chart (gauntlet.py).
- `gamegen`: self-play data on top of matchplay (gen_games.py; make_data.py reuses it).
- `dispatch`: where a run's tasks execute (local threads or a Ray cluster) and the one driver
  loop over them, which runs a task again when its worker is lost (matchplay, gendata).
- `gendata`: GRN1 training records from many `pbrain-gorin gen-data` processes (gen_data.py).
- `evals`: a judge's or teacher's evaluation of a position (teacher.py, blunders.py, replay.py).
- `procmem`: a process's memory from /proc (peak_rss.py, soak.py).
- `quiet`: quiet 15x15 positions for timing tests (stop_latency.py, faults.py).
- `fuzzmodel`: fuzz.py's independent model of the engine's reader and board.

The scripts beside this package are thin entry points (`python3 scripts/NAME.py`, which puts
`scripts/` on sys.path), and no script imports another.
"""

import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
