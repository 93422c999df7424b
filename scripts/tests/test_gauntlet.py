"""Tests of the gauntlet (gorinkit/gauntlet.py): its configuration, the table's counts and Elo,
the SVG chart, and a tiny real gauntlet of Gorin against itself that is resumed."""

from __future__ import annotations

import contextlib
import io
import json
import math
import shlex
import tempfile
import unittest
import xml.etree.ElementTree as ET
from pathlib import Path

import match_totals
from gorinkit import gauntlet as gt

from .common import GORIN, NEEDS_GORIN

SVG = "{http://www.w3.org/2000/svg}"


def config(*extra: str) -> gt.Config:
    return gt.make_config(["--opponent", "rapfi=./pbrain-rapfi", *extra], "test")


def game(winner: str | None, kind: str = "five") -> dict:
    return {"winner": winner, "kind": "draw" if winner is None else kind}


class ConfigTest(unittest.TestCase):
    def test_opponent_for_some_leagues(self):
        o = gt.parse_opponent("caro15,renju15:prev=./old-gorin --flag=1")
        self.assertEqual((o.name, o.command, o.leagues), ("prev", "./old-gorin --flag=1", ("caro15", "renju15")))
        o = gt.parse_opponent("self=nice -n 5 /tmp/gorin-copy")
        self.assertEqual((o.name, o.command, o.leagues), ("self", "nice -n 5 /tmp/gorin-copy", None))

    def test_bad_opponents(self):
        for text in ("rapfi", "chess15:x=./y", "bad name=./y", "x=  ", ":x=./y"):
            with self.subTest(text=text), self.assertRaises(gt.ConfigError):
                gt.parse_opponent(text)

    def test_pairings_follow_the_leagues_of_each_opponent(self):
        c = gt.make_config(["--opponent", "freestyle15,renju15:rapfi=./r", "--opponent", "caro15:prev=./p",
                            "--leagues", "freestyle15,caro15,renju15"])
        self.assertEqual([p.stem for p in gt.pairings(c)],
                         ["freestyle15--rapfi", "caro15--prev", "renju15--rapfi"])

    def test_json_config_and_the_command_line_over_it(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "g.json"
            path.write_text(json.dumps({
                "engine": "./new", "games": 40, "turn_ms": 1000, "match_ms": 180000, "leagues": ["renju15"],
                "opponents": [{"name": "rapfi", "command": "./r", "leagues": ["renju15"]}, "aiwine=./a"],
                "info": {"max_node": 500}, "engine_info": {"net": 1},
            }))
            c = gt.make_config(["--config", str(path), "--games", "10"])
            self.assertEqual((c.engine, c.games, c.turn_ms, c.match_ms, c.leagues), ("./new", 10, 1000, 180000,
                                                                                     ["renju15"]))
            self.assertEqual([(o.name, o.leagues) for o in c.opponents], [("rapfi", ("renju15",)), ("aiwine", None)])
            self.assertEqual(c.info, [("max_node", "500")])
            self.assertEqual(c.engine_info, [("net", "1")])
            argv = gt.match_argv(c, gt.pairings(c)[0], Path("x.jsonl"))
            # --info goes to both brains, --engine-info to the engine under test only (match's --info1).
            self.assertEqual([argv[i + 1] for i, a in enumerate(argv) if a.startswith("--info")],
                             ["max_node=500", "net=1"])
            self.assertEqual(argv[argv.index("--info1") + 1], "net=1")
            self.assertIn("INFO net 1 to gorin only", gt.markdown(c, [], []))
            self.assertEqual(gt.settings_of(c, gt.pairings(c)[0])["engine_info"], [["net", "1"]])
            c2 = gt.make_config(["--config", str(path), "--engine-info", "net_file=x.gnn1"])
            self.assertEqual((c2.info, c2.engine_info), ([("max_node", "500")], [("net_file", "x.gnn1")]))
            self.assertIn("--match-ms", argv)
            self.assertEqual(argv[argv.index("--rule") + 1], "4")
            self.assertTrue(argv[argv.index("--openings") + 1].endswith("renju_26_openings.txt"))
            path.write_text(json.dumps({"games": "40", "opponents": ["x=./y"]}))
            with self.assertRaisesRegex(gt.ConfigError, "games: expected a whole number"):
                gt.make_config(["--config", str(path)])
            path.write_text(json.dumps({"engine_info": "net=1", "opponents": ["x=./y"]}))
            with self.assertRaisesRegex(gt.ConfigError, "engine_info: expected an object of INFO keys"):
                gt.make_config(["--config", str(path)])
            path.write_text(json.dumps({"gmaes": 4, "opponents": ["x=./y"]}))
            with self.assertRaisesRegex(gt.ConfigError, "unknown keys gmaes"):
                gt.make_config(["--config", str(path)])

    def test_rejected_settings(self):
        for argv in (["--leagues", "freestyle15,gomoku9"], ["--games", "0"], []):
            with self.subTest(argv=argv), self.assertRaises(gt.ConfigError):
                gt.make_config(argv + (["--opponent", "x=./y"] if argv else []))
        with self.assertRaises(gt.ConfigError):  # the opponent may not take the engine's name
            gt.make_config(["--opponent", "gorin=./y"])

    def test_league_settings(self):
        argv = gt.match_argv(config(), gt.Pairing(gt.LEAGUES["freestyle20"], gt.parse_opponent("r=./r")), Path("p"))
        self.assertEqual(argv[argv.index("--size") + 1], "20")
        self.assertEqual(argv[argv.index("--random-plies") + 1], "2")
        self.assertNotIn("--match-ms", argv)  # no game clock unless asked
        self.assertEqual(gt.LEAGUES["caro15"].rule, 8)
        self.assertEqual(gt.LEAGUES["standard15"].rule, 1)


class ScoreTest(unittest.TestCase):
    def test_elo_and_its_interval_by_hand(self):
        # 6-2-2: mean 0.7, per-game variance 0.16, standard error sqrt(0.016).
        d, lo, hi = gt.elo_estimate(gt.Row("freestyle15", "x", 6, 2, 2))
        se = math.sqrt(0.016)
        self.assertAlmostEqual(d, 400 * math.log10(0.7 / 0.3), places=6)
        self.assertAlmostEqual(d, 147.19, places=2)
        self.assertAlmostEqual(lo, 400 * math.log10((0.7 - 1.96 * se) / (0.3 + 1.96 * se)), places=6)
        self.assertAlmostEqual(hi, 400 * math.log10((0.7 + 1.96 * se) / (0.3 - 1.96 * se)), places=6)
        self.assertLess(lo, 0)  # 10 games do not show +147 to be real

    def test_elo_texts(self):
        # The README's 80 games against Rapfi: 28-49-3, -93 +/- 79.
        self.assertEqual(gt.elo_text(gt.Row("freestyle15", "rapfi", 28, 49, 3)), "-93 +/- 79")
        self.assertEqual(gt.elo_text(gt.Row("freestyle15", "x", 40, 40, 0)), "+0 +/- 77")  # 1.96 * 0.5 / sqrt(80) = 0.1096 in score
        self.assertEqual(gt.elo_text(gt.Row("freestyle15", "x", 6, 0, 0)), "+inf")
        self.assertEqual(gt.elo_text(gt.Row("freestyle15", "x", 0, 6, 0)), "-inf")
        self.assertEqual(gt.elo_text(gt.Row("freestyle15", "x", 3, 1, 0)), "+191 [-126, +inf]")
        self.assertEqual(gt.elo_text(gt.Row("freestyle15", "x", 0, 0, 0)), "-")

    def test_pairs_of_one_opening_narrow_the_interval_where_the_opening_decides(self):
        # 20 openings: 16 split 1-1 (each side wins with the favoured colour), 3 lost twice, 1 won
        # twice: 17-23-0 per game, but over pairs the split ones carry no doubt.
        games = []
        for k in range(20):
            won = ["gorin", "rapfi"] if k < 16 else ["rapfi", "rapfi"] if k < 19 else ["gorin", "gorin"]
            games += [dict(game(w), opening=[[k, 0], [k, 1]]) for w in won]
        r = gt.row_of("standard15", "rapfi", "gorin", {"games": games})
        self.assertEqual((r.wins, r.losses, len(r.pairs)), (18, 22, 20))
        self.assertEqual(gt.matchplay.pair_counts(r.pairs), [3, 0, 16, 0, 1])
        self.assertEqual(gt.elo_text(r), "-35 +/- 112")
        # Pair means: 3 x 0, 16 x 0.5, 1 x 1: mean 0.45, variance 0.0475, se 0.0487.
        self.assertEqual(gt.paired_elo_text(r), "-35 +/- 68")
        self.assertEqual(gt.paired_elo_text(gt.Row("standard15", "x", 1, 1, 0)), "-")

    def test_a_game_without_its_partner_is_no_pair(self):
        games = [dict(game("gorin"), opening=[[1, 1]]), dict(game("rapfi"), opening=[[2, 2]]),
                 dict(game(None), opening=[[1, 1]])]
        self.assertEqual(gt.row_of("renju15", "rapfi", "gorin", {"games": games}).pairs, [0.75])

    def test_rows_count_each_side_forfeits(self):
        record = {"games": [game("gorin"), game("gorin", "time"), game("rapfi", "occupied"), game(None),
                            game("rapfi", "forbidden"), game("rapfi"), game("gorin", "crash")],
                  "over_limit": {"gorin": 2, "rapfi": 5}}
        r = gt.row_of("renju15", "rapfi", "gorin", record)
        self.assertEqual((r.wins, r.losses, r.draws, r.games), (3, 3, 1, 7))
        self.assertAlmostEqual(r.score, 0.5)
        self.assertEqual(r.forfeits, (2, 2))  # ours: occupied, forbidden; theirs: time, crash
        self.assertEqual(r.time_losses, (0, 1))
        self.assertEqual(r.illegal, (2, 0))
        self.assertEqual(r.over_limit, (2, 5))

    def test_problems_name_the_pairing_and_the_side(self):
        c = config()
        rows = [gt.Row("standard15", "rapfi", 3, 3, 0, over_limit=(1, 0)),
                gt.Row("renju15", "rapfi", 3, 3, 0, forfeits=(0, 2)), gt.Row("caro15", "rapfi", 3, 3, 0)]
        self.assertEqual(gt.problems(c, rows), ["standard15 vs rapfi: over-limit replies: gorin 1",
                                                "renju15 vs rapfi: forfeits: rapfi 2"])

    def test_markdown_table(self):
        c = config("--games", "80", "--turn-ms", "1000", "--match-ms", "180000")
        rows = [gt.Row("freestyle15", "rapfi", 28, 49, 3, time_losses=(1, 0))]
        md = gt.markdown(c, rows, [gt.Pairing(gt.LEAGUES["renju15"], c.opponents[0])])
        lines = md.splitlines()
        self.assertIn("Regenerated by: `test`", lines)
        header = next(i for i, line in enumerate(lines) if line.startswith("| league"))
        self.assertEqual(lines[header + 2],
                         "| freestyle 15x15 | rapfi | 28-49-3 | 80 | 36.9% | -93 +/- 79 | - | 0/0 | 1/0 | 0/0 | 0/0 |")
        self.assertEqual(len(lines[header].split("|")), len(lines[header + 2].split("|")))
        self.assertIn("180000 ms", md)
        self.assertIn("Not played yet: renju 15x15 vs rapfi.", md)


class ChartTest(unittest.TestCase):
    def test_svg_is_well_formed_and_shows_every_pairing(self):
        c = gt.make_config(["--opponent", "rapfi=./r", "--opponent", "caro15:prev=./p"])
        rows = [gt.Row("freestyle15", "rapfi", 28, 49, 3), gt.Row("renju15", "rapfi", 7, 13, 0),
                gt.Row("caro15", "prev", 4, 0, 0), gt.Row("caro15", "rapfi", 3, 1, 0)]
        root = ET.fromstring(gt.svg_chart(c, rows))
        self.assertEqual(root.tag, SVG + "svg")
        texts = [t.text or "" for t in root.iter(SVG + "text")]
        for label in ("freestyle 15x15", "renju 15x15", "caro 15x15", "rapfi", "prev", "league", "-93", "+inf"):
            self.assertIn(label, texts)
        self.assertTrue(any("Elo" in t for t in texts))  # the y axis is labelled
        titles = [t.text for t in root.iter(SVG + "title")]
        self.assertEqual(len(titles), 4)
        # Finite estimates are dots (plus one legend dot per opponent); all-won is a triangle.
        self.assertEqual(len(list(root.iter(SVG + "circle"))), 3 + 2)
        lo, hi = gt.axis_range(rows)
        self.assertLessEqual(hi, gt.ELO_CAP)
        self.assertLessEqual(lo, -300)  # renju's lower bound (-108 - ~180) is on the axis

    def test_axis_keeps_zero_and_a_minimum_span(self):
        self.assertEqual(gt.axis_range([]), (-100, 100))
        # 30-10: +191, interval about +82..+353; the axis runs from 0 to the next hundred.
        self.assertEqual(gt.axis_range([gt.Row("freestyle15", "x", 30, 10, 0)]), (0, 400))


@unittest.skipUnless(GORIN.exists(), NEEDS_GORIN)
class RealGauntletTest(unittest.TestCase):
    """Gorin against itself at 300 nodes a move, two leagues, two games each; then the same
    command again reads the finished pairings back instead of playing them."""

    def run_gauntlet(self, out: str, *extra: str) -> tuple[int, str]:
        exe = shlex.quote(str(GORIN))
        argv = ["--engine", exe, "--opponent", f"copy={exe}", "--leagues", "freestyle15,caro15", "--games", "2",
                "--turn-ms", "2000", "--info", "max_node=300", "--out", out, *extra]
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            code = gt.main(argv)
        return code, buf.getvalue()

    def test_tiny_gauntlet_and_resume(self):
        with tempfile.TemporaryDirectory(prefix="gorin-gauntlet-test-") as tmp:
            code, text = self.run_gauntlet(tmp)
            self.assertEqual(code, 0, text)
            md = (Path(tmp) / "gauntlet.md").read_text()
            rows = [line for line in md.splitlines() if line.startswith("| ") and "league" not in line]
            self.assertEqual(len(rows), 2, md)
            for row, title in zip(rows, ("freestyle 15x15", "caro 15x15")):
                cells = [cell.strip() for cell in row.strip("|").split("|")]
                self.assertEqual(cells[:2], [title, "copy"])
                w, l, d = map(int, cells[2].split("-"))
                self.assertEqual((w + l + d, cells[3]), (2, "2"))
                self.assertEqual(cells[6], "-")  # one opening's pair is too few for an interval
                self.assertEqual(cells[7:], ["0/0"] * 4)  # no forfeits, time losses, illegal moves
            self.assertEqual(text.count("paired by opening: fewer than 2 pairs"), 2, text)
            ET.parse(Path(tmp) / "gauntlet.svg")
            games = Path(tmp) / "gauntlet" / "caro15--copy.jsonl"
            self.assertEqual([json.loads(x)["rule"] for x in games.read_text().splitlines()], [8, 8])
            before = games.stat().st_mtime_ns

            code, text = self.run_gauntlet(tmp)
            self.assertEqual(code, 0, text)
            self.assertEqual(text.count("finished before, 2 games read back"), 2, text)
            self.assertNotIn("Score of", text)  # no match was played
            self.assertEqual(games.stat().st_mtime_ns, before)
            self.assertEqual((Path(tmp) / "gauntlet.md").read_text(), md)

            # A pairing without its finished record (interrupted) is played again; the other is kept.
            (Path(tmp) / "gauntlet" / "freestyle15--copy.json").unlink()
            code, text = self.run_gauntlet(tmp)
            self.assertEqual(code, 0, text)
            self.assertEqual(text.count("read back"), 1, text)
            self.assertEqual(text.count("Score of gorin vs copy"), 1, text)


if __name__ == "__main__":
    unittest.main()


class TotalsTest(unittest.TestCase):
    def test_totals_over_files_pair_within_each_file(self):
        def record(k: int, winner: str | None, black: str) -> dict:
            return dict(game(winner), opening=[[k, k]], black=black, white="rapfi" if black != "rapfi" else "gorin-x")

        with tempfile.TemporaryDirectory() as tmp:
            a, b = Path(tmp, "a.jsonl"), Path(tmp, "b.jsonl")
            # a: opening 1 split, opening 2 lost twice; b: opening 1 again (its own pair), won twice.
            a.write_text("".join(json.dumps(g) + "\n" for g in [
                record(1, "gorin-x", "gorin-x"), record(1, "rapfi", "rapfi"),
                record(2, "rapfi", "gorin-x"), record(2, "rapfi", "rapfi")]))
            b.write_text("".join(json.dumps(g) + "\n" for g in [
                record(1, "gorin-x", "gorin-x"), record(1, "gorin-x", "rapfi")]))
            rows = [match_totals.row(p, "gorin") for p in (a, b)]
            self.assertEqual([(r.wins, r.losses, r.pairs) for r in rows], [(1, 3, [0.5, 0.0]), (2, 0, [1.0])])
            t = match_totals.total(rows)
            self.assertEqual((t.wins, t.losses, t.draws, t.pairs), (3, 3, 0, [0.5, 0.0, 1.0]))
            self.assertIn("3-3-0, 6 games, 50.0%", match_totals.line("total", t))
            self.assertIn("(pairs scoring 0/0.5/1/1.5/2 of 2: 1/0/1/0/1)", match_totals.line("total", t))
            with self.assertRaises(ValueError):
                match_totals.row(a, "nobody")
