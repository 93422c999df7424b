"""The repository's folders, and the brain the scripts drive by default."""

from __future__ import annotations

from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent.parent
REPO = SCRIPTS.parent
DEFAULT_ENGINE = str(REPO / "target" / "release" / "pbrain-gorin")
SHIPPED_DATA = REPO / "protocol-tests" / "data"
OPENINGS = SCRIPTS / "openings"
