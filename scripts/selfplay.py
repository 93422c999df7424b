#!/usr/bin/env python3
"""Compatibility wrapper: `selfplay.py --engine1 CMD --engine2 CMD [match.py options]` is
`match.py --engine CMD --name A --engine CMD --name B [options]` (both default to pbrain-gorin).
Everything else is match.py's; see scripts/README.md.
"""

from __future__ import annotations

import sys

sys.dont_write_bytecode = True
from gorinkit import matchplay as match  # noqa: E402


def translate(argv: list[str]) -> list[str]:
    engines = [match.DEFAULT_ENGINE, match.DEFAULT_ENGINE]
    rest: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        for k, flag in enumerate(("--engine1", "--engine2")):
            if arg == flag and i + 1 < len(argv):
                engines[k] = argv[i + 1]
                i += 1
                break
            if arg.startswith(flag + "="):
                engines[k] = arg.split("=", 1)[1]
                break
        else:
            rest.append(arg)
        i += 1
    names = [] if "--name" in rest else ["--name", "A", "--name", "B"]
    return ["--engine", engines[0], "--engine", engines[1], *names, *rest]


if __name__ == "__main__":
    sys.exit(match.main(translate(sys.argv[1:]), prog="selfplay"))
