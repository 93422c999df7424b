"""Tests of the opening-rule referee (gorinkit/openrules.py) and of match.py's --opening-rule mode.

The flows run on scripted answers (no process); one match plays Gorin against itself when the
release build exists.
"""

from __future__ import annotations

import contextlib
import io
import shlex
import unittest

from gorinkit import matchplay as match
from gorinkit.openrules import (
    BLACK,
    RIF,
    SOOSORV,
    TARAGUCHI,
    WHITE,
    Foul,
    OpeningRule,
    parse_reply,
    parse_rule,
    play_opening,
    repeated_offer,
    same_offer,
)

from .common import GORIN, NEEDS_GORIN

SIZE = 15


def square_transforms(n: int):
    """The eight symmetries of an n x n board, written out one by one (not as the module builds
    them), with names for the failure messages."""
    m = n - 1
    return {
        "identity": lambda x, y: (x, y),
        "quarter turn": lambda x, y: (m - y, x),
        "half turn": lambda x, y: (m - x, m - y),
        "three-quarter turn": lambda x, y: (y, m - x),
        "mirror x": lambda x, y: (m - x, y),
        "mirror y": lambda x, y: (x, m - y),
        "main diagonal": lambda x, y: (y, x),
        "anti-diagonal": lambda x, y: (m - y, m - x),
    }


class SymmetryTest(unittest.TestCase):
    def test_each_of_the_eight_symmetries_is_detected(self):
        # For each symmetry s: black stones on the images of (1, 2) under s and white stones on
        # those of (3, 0), so s keeps the position. The offer p = (2, 0) and s(p) are then the
        # same offer, and p and t(p) for a t that does not keep the position are not. On 9x9
        # none of these points is fixed by a symmetry but the identity.
        n, p = 9, (2, 0)
        transforms = square_transforms(n)
        for name, s in transforms.items():
            def orbit(q):
                out = [q]
                while s(*out[-1]) not in out:
                    out.append(s(*out[-1]))
                return out
            black, white = orbit((1, 2)), orbit((3, 0))
            stones = [q for pair in zip(black, white) for q in pair]
            self.assertTrue(same_offer(stones, p, s(*p), n, n), f"{name} not detected")
            for other, t in transforms.items():
                keeps = {t(*q) for q in black} == set(black) and {t(*q) for q in white} == set(white)
                self.assertEqual(same_offer(stones, p, t(*p), n, n), keeps, f"kept by {name}, image by {other}")

    def test_a_position_kept_by_one_mirror_refuses_only_its_images(self):
        # Black on column 7 (the vertical axis), white on column 7: mirror x keeps it.
        stones = [(7, 7), (7, 6), (7, 9), (7, 5)]
        self.assertTrue(same_offer(stones, (6, 8), (8, 8), SIZE, SIZE))
        for name, s in square_transforms(SIZE).items():
            image = s(6, 8)
            expected = image in ((6, 8), (8, 8))
            self.assertEqual(same_offer(stones, (6, 8), image, SIZE, SIZE), expected, name)

    def test_non_symmetric_pairs_are_accepted(self):
        stones = [(7, 7), (8, 6), (9, 8), (5, 6)]  # no symmetry but the identity keeps it
        offers = [(8, 7), (7, 8), (6, 7), (7, 6), (9, 6), (5, 9), (9, 9), (6, 6), (7, 9), (8, 9)]
        self.assertIsNone(repeated_offer(stones, offers, SIZE, SIZE))
        for a in offers:
            for b in offers:
                self.assertEqual(same_offer(stones, a, b, SIZE, SIZE), a == b, (a, b))

    def test_colours_count(self):
        # Black (2, 4) and white (6, 4) are mirror images in place but not in colour.
        stones = [(2, 4), (6, 4)]
        self.assertFalse(same_offer(stones, (3, 6), (5, 6), 9, 9))
        self.assertTrue(same_offer(stones, (3, 2), (3, 6), 9, 9))

    def test_rectangular_board_has_four_symmetries(self):
        self.assertFalse(same_offer([], (1, 0), (0, 1), 9, 7))  # a transpose does not fit
        self.assertTrue(same_offer([], (1, 0), (7, 6), 9, 7))
        self.assertTrue(same_offer([], (1, 0), (7, 0), 9, 7))


class ParseTest(unittest.TestCase):
    def test_rules(self):
        self.assertEqual(parse_rule("taraguchi10"), OpeningRule(TARAGUCHI, 10))
        self.assertEqual(parse_rule("Soosorv-8"), OpeningRule(SOOSORV, 8))
        self.assertEqual(parse_rule("soosyrv8").name, "SOOSORV8")
        self.assertEqual(parse_rule("RIF"), OpeningRule(RIF, 2))
        for bad in ("", "taraguchi", "soosorv0", "soosorv17", "swap2"):
            with self.assertRaises(ValueError, msg=bad):
                parse_rule(bad)

    def test_replies(self):
        self.assertEqual(parse_reply("SWAP"), ("swap",))
        self.assertEqual(parse_reply("7,7"), ([(7, 7)], None))
        self.assertEqual(parse_reply("7,7 8,8 6,9"), ([(7, 7), (8, 8), (6, 9)], None))
        self.assertEqual(parse_reply("8,6 3"), ([(8, 6)], 3))
        self.assertEqual(parse_reply("ERROR no")[0], "refused")
        self.assertIsNone(parse_reply("hello"))
        self.assertIsNone(parse_reply("3"))


class Script:
    """Scripted brains: answers[engine] is a list of (expected verb, reply line), used in order."""

    def __init__(self, answers):
        self.answers = {e: list(a) for e, a in answers.items()}
        self.asked = []

    def __call__(self, e, verb, declared, stones, offers):
        self.asked.append((e, verb, declared, len(stones), len(offers)))
        want, line = self.answers[e].pop(0)
        assert want == verb, (e, want, verb, stones)
        return parse_reply(line)


def run(rule: str, answers, opener: int = 0):
    script = Script(answers)
    stones, players, note = play_opening(parse_rule(rule), SIZE, SIZE, opener, script)
    return stones, players, note, script


TEN = "10,7 8,9 7,8 8,8 9,7 9,9 7,6 10,8 6,7 6,5"


class FlowTest(unittest.TestCase):
    def test_taraguchi_with_swaps_and_ten_offers(self):
        stones, players, note, script = run("taraguchi10", {
            0: [("MOVE", "7,7"), ("MOVE", "8,6"), ("SWAP", "5,6"), ("CHOOSE", "6,5 3,3")],
            1: [("SWAP", "SWAP"), ("SWAP", "9,8"), ("SWAP", TEN)],
        })
        # 1 swapped after the first stone (0 white places the second), 1 stayed after the
        # second (placing the third as black), 0 stayed and placed the fourth as white; black
        # (1) offered ten and white (0) chose 6,5.
        self.assertEqual(players, {BLACK: 1, WHITE: 0})
        self.assertEqual(stones, [(7, 7), (8, 6), (9, 8), (5, 6), (6, 5), (3, 3)])
        self.assertIn("10 offers", note)
        self.assertEqual(script.asked[-1], (0, "CHOOSE", None, 4, 10))

    def test_taraguchi_single_fifth_then_white_swaps(self):
        stones, players, _, _ = run("taraguchi10", {
            0: [("MOVE", "7,7"), ("SWAP", "9,8"), ("SWAP", "8,8")],
            1: [("SWAP", "8,6"), ("SWAP", "5,6"), ("SWAP", "SWAP")],
        })
        # After the single fifth white (1) swapped: 0 is now white and owes the sixth.
        self.assertEqual(len(stones), 5)
        self.assertEqual(players, {BLACK: 1, WHITE: 0})

    def test_taraguchi_fouls(self):
        cases = [
            ({0: [("MOVE", "7,8")]}, 0, "outside the central 1x1"),
            ({0: [("MOVE", "7,7")], 1: [("SWAP", "9,6")]}, 1, "outside the central 3x3"),
            ({0: [("MOVE", "7,7")], 1: [("SWAP", "ERROR nope")]}, 1, "answered"),
            ({0: [("MOVE", "7,7"), ("MOVE", "8,6"), ("SWAP", "5,6"), ("CHOOSE", "0,0 3,3")],
              1: [("SWAP", "SWAP"), ("SWAP", "9,8"), ("SWAP", TEN)]}, 0, "was not offered"),
            ({0: [("MOVE", "7,7"), ("MOVE", "8,6"), ("SWAP", "5,6")],
              1: [("SWAP", "SWAP"), ("SWAP", "9,8"), ("SWAP", "10,7 8,9 7,8")]}, 1, "3 points"),
        ]
        for answers, loser, why in cases:
            with self.assertRaises(Foul, msg=why) as caught:
                run("taraguchi10", answers)
            self.assertEqual(caught.exception.engine, loser, why)
            self.assertIn(why, caught.exception.detail)

    def test_soosorv_declared_count_and_swap_before_the_offers(self):
        stones, players, note, script = run("soosorv8", {
            0: [("MOVE", "7,7 7,6 9,9"), ("SWAP", "SWAP"), ("CHOOSE", "14,14 5,5")],
            1: [("SWAP", "8,8 3"), ("MOVE", "6,8 14,14 8,10")],
        }, opener=0)
        # 1 stayed white with the fourth and 3; 0 (black) swapped, so 1 is black and offers,
        # and 0, now white, chooses.
        self.assertEqual(players, {BLACK: 1, WHITE: 0})
        self.assertIn("declared 3", note)
        self.assertEqual(script.asked[-2][:3], (1, "MOVE", 3))
        self.assertEqual(script.asked[-1], (0, "CHOOSE", None, 4, 3))
        self.assertEqual(stones[-2:], [(14, 14), (5, 5)])

    def test_soosorv_fouls(self):
        with self.assertRaises(Foul) as caught:  # a count over 8
            run("soosorv8", {0: [("MOVE", "7,7 7,6 9,9")], 1: [("SWAP", "8,8 9")]})
        self.assertIn("declared 9", caught.exception.detail)
        with self.assertRaises(Foul) as caught:  # no count
            run("soosorv8", {0: [("MOVE", "7,7 7,6 9,9")], 1: [("SWAP", "8,8")]})
        self.assertIn("missing count", caught.exception.detail)
        with self.assertRaises(Foul) as caught:  # a third stone outside 5x5
            run("soosorv8", {0: [("MOVE", "7,7 7,6 10,10")]})
        self.assertIn("outside the central 5x5", caught.exception.detail)

    def test_rif_symmetric_offers_lose(self):
        with self.assertRaises(Foul) as caught:
            run("rif", {0: [("MOVE", "7,7 7,6 7,9"), ("MOVE", "6,8 8,8")], 1: [("SWAP", "7,5")]})
        self.assertEqual(caught.exception.engine, 0)
        self.assertIn("symmetric", caught.exception.detail)
        stones, players, note, _ = run("rif", {
            0: [("MOVE", "7,7 7,6 7,9"), ("MOVE", "6,8 9,8")],
            1: [("SWAP", "7,5"), ("CHOOSE", "9,8 5,5")],
        })
        self.assertEqual(players, {BLACK: 0, WHITE: 1})
        self.assertEqual(stones[-2:], [(9, 8), (5, 5)])
        with self.assertRaises(Foul) as caught:  # no swap after the fourth in RIF
            run("rif", {0: [("MOVE", "7,7 7,6 7,9"), ("MOVE", "SWAP")], 1: [("SWAP", "7,5")]})
        self.assertIn("gives no swap", caught.exception.detail)


@unittest.skipUnless(GORIN.exists(), NEEDS_GORIN)
class GorinOpeningMatchTest(unittest.TestCase):
    def test_two_games_per_rule_without_faults(self):
        gorin = shlex.quote(str(GORIN))
        for rule in ("taraguchi10", "soosorv8", "rif"):
            buf = io.StringIO()
            args = match.parse_args(["--engine", gorin, "--engine", gorin, "--games", "2", "--rule", "4",
                                     "--turn-ms", "100", "--seed", "5", "--opening-rule", rule])
            with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(io.StringIO()):
                m, elapsed, _ = match.run(args)
                match.summary(m, elapsed)
            report = buf.getvalue()
            self.assertEqual(len(m.results), 2, report)
            for st in m.stats:
                self.assertEqual(sum(st.loss_kinds.values()), 0, report)
            # Every game ends on the board; a reply over the bare limit on a loaded test machine
            # is counted by the summary but is not what this test is about.
            for r in m.results:
                self.assertIn(r.kind, ("five", "draw"), report)
                self.assertGreaterEqual(len(r.opening), 5, report)
                self.assertIn(parse_rule(rule).name, r.note, report)
