"""Tests of standing.py: gauntlet runs pooled per league into one table and chart, and the runs
it refuses to pool."""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
import unittest
import xml.etree.ElementTree as ET
from pathlib import Path

import standing


def write_run(results: Path, run: str, league: str, games: list[dict], turn_ms: int = 1000,
              over: int = 0) -> None:
    folder = results / run / "gauntlet"
    folder.mkdir(parents=True)
    stem = folder / f"{league}--rapfi"
    settings = {"league": {"key": league}, "name": "gorin", "opponent": "rapfi", "turn_ms": turn_ms,
                "match_ms": None, "random_plies": 2}
    stem.with_suffix(".json").write_text(json.dumps({"settings": settings, "played": len(games),
                                                     "over_limit": {"gorin": over, "rapfi": 1}}))
    stem.with_suffix(".jsonl").write_text("".join(json.dumps(g) + "\n" for g in games))


def game(k: int, winner: str | None, kind: str = "five") -> dict:
    return {"opening": [[k, k]], "black": "gorin", "white": "rapfi", "winner": winner,
            "kind": "draw" if winner is None else kind}


def run_main(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = standing.main(list(argv))
    return code, out.getvalue(), err.getvalue()


class StandingTest(unittest.TestCase):
    def test_runs_are_pooled_per_league(self):
        with tempfile.TemporaryDirectory() as tmp:
            results = Path(tmp)
            # Run a: opening 1 split, opening 2 won twice. Run b: opening 1 lost twice (one on
            # time), opening 3 drawn and won. Renju: one run, one split pair.
            write_run(results, "a", "standard15", [game(1, "gorin"), game(1, "rapfi"),
                                                   game(2, "gorin"), game(2, "gorin")], over=2)
            write_run(results, "b", "standard15", [game(1, "rapfi"), game(1, "rapfi", "time"),
                                                   game(3, None), game(3, "gorin")])
            write_run(results, "r", "renju15", [game(1, "gorin"), game(1, "rapfi")])
            config = results / "standing.json"
            config.write_text(json.dumps({"note": "A test.", "leagues": [
                {"league": "standard15", "build": "build X", "runs": ["a", "b"]},
                {"league": "renju15", "build": "build Y", "runs": ["r"]}]}))
            code, out, err = run_main("--config", str(config))
            self.assertEqual(code, 0, err)
            self.assertIn("standard 15x15 vs rapfi: 4-3-1, 8 games, 56.2%", out)
            md = (results / "standing.md").read_text()
            self.assertIn("A test.", md)
            row = next(line for line in md.splitlines() if line.startswith("| standard 15x15"))
            cells = [c.strip() for c in row.strip("|").split("|")]
            # games, W-L-D, score; forfeits, time losses, illegal moves, late replies (ours/theirs).
            self.assertEqual(cells[3:6], ["8", "4-3-1", "56.2%"])
            self.assertEqual(cells[8:], ["1/0", "1/0", "0/0", "2/2"])
            # Pairs: 0.5 and 1 from a, 0 and 0.75 from b: one of each but 1.5.
            self.assertIn("build X: pairs scoring 0/0.5/1/1.5/2 of 2: 1/0/1/1/1.", md)
            self.assertIn("[`b`](b/gauntlet.md): 1-2-1", md)
            self.assertIn("| renju 15x15 | rapfi | 1000 ms a move | 2 | 1-1-0 | 50.0%", md)
            svg = ET.parse(results / "standing.svg").getroot()
            titles = [t.text for t in svg.iter("{http://www.w3.org/2000/svg}title")]
            self.assertTrue(any(t.startswith("standard 15x15 vs rapfi: 4-3-1, +44 +/- ") for t in titles), titles)

    def test_refuses_what_cannot_be_pooled(self):
        with tempfile.TemporaryDirectory() as tmp:
            results = Path(tmp)
            write_run(results, "a", "standard15", [game(1, "gorin"), game(1, "rapfi")])
            write_run(results, "fast", "standard15", [game(1, "gorin"), game(1, "rapfi")], turn_ms=300)
            cases = {
                "turn_ms differ": [{"league": "standard15", "build": "x", "runs": ["a", "fast"]}],
                "no renju15 games": [{"league": "renju15", "build": "x", "runs": ["a"]}],
                "unknown league": [{"league": "chess8", "build": "x", "runs": ["a"]}],
                "a run is named twice": [{"league": "standard15", "build": "x", "runs": ["a", "a"]}],
                "a league is listed twice": [{"league": "standard15", "build": "x", "runs": ["a"]},
                                             {"league": "standard15", "build": "y", "runs": ["fast"]}],
            }
            for message, leagues in cases.items():
                config = results / "bad.json"
                config.write_text(json.dumps({"leagues": leagues}))
                code, _, err = run_main("--config", str(config), "--out", str(results / "out"))
                self.assertEqual(code, 2, message)
                self.assertIn(message, err)
            self.assertFalse((results / "out").exists(), "nothing written for a refused config")

    def test_readme_table_is_rewritten_between_its_markers(self):
        text = f"intro\n{standing.BEGIN}\nold table\n{standing.END}\nafter\n"
        self.assertEqual(standing.with_table(text, ["| a |", "| b |"]),
                         f"intro\n{standing.BEGIN}\n| a |\n| b |\n{standing.END}\nafter\n")
        for bad in ("no markers", f"{standing.END} {standing.BEGIN}", f"{standing.BEGIN}{standing.BEGIN}{standing.END}"):
            with self.assertRaises(standing.StandingError):
                standing.with_table(bad, [])


class ReadmeTest(unittest.TestCase):
    def test_readme_shows_the_table_of_the_committed_runs(self):
        """README's Strength table is what standing.py makes of scripts/results/standing.json: a
        run added to the config without regenerating README (or a hand edit) fails here."""
        scripts = Path(standing.__file__).resolve().parent
        _, _, entries = standing.read_config(scripts / "results" / "standing.json")
        pooled = standing.pool(scripts / "results", "gorin", entries)
        readme = (scripts.parent / "README.md").read_text(encoding="utf-8")
        self.assertEqual(readme, standing.with_table(readme, standing.table(pooled)),
                         "README's table is stale: run python3 scripts/standing.py --readme README.md")


if __name__ == "__main__":
    unittest.main()
