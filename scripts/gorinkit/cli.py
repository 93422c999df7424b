"""The command line the measuring scripts share."""

from __future__ import annotations

import argparse

from .paths import DEFAULT_ENGINE


def parser(doc: str, engine_help: str = "brain command (shell words)") -> argparse.ArgumentParser:
    """A script's parser: its docstring's first paragraph, defaults shown in --help, and
    `--engine` (default target/release/pbrain-gorin)."""
    p = argparse.ArgumentParser(description=doc.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--engine", default=DEFAULT_ENGINE, help=engine_help)
    return p
