"""The mutation sampler's pure parts: which mutants exist, which are dropped,
and the score's interval (stdlib unittest; nothing is run against a suite).

Run: python -I tests/test_mutation_sample.py
"""

from __future__ import annotations

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools"))

import mutation_sample as ms

SOURCE = '''"""A module docstring."""
from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

LIMIT = 2**53 - 1


def check(value: int, names: "list[str]") -> bool:
    """A function docstring."""
    if value < LIMIT and "x" not in names:
        record(value)
        raise ValueError(f"bad {value}")
    return not names
'''


def changes(source: str) -> dict[tuple[str, str, str], int]:
    """(kind, original, replacement) of every mutant, with its line."""
    return {(m.kind, m.original, m.replacement): m.line for m in ms.enumerate_mutants(source)}


class TestSites(unittest.TestCase):
    def test_each_kind_is_found_where_it_runs(self) -> None:
        found = changes(SOURCE)
        expected = {
            ("boolean", "False", "True"): 4,
            ("constant", "2", "3"): 8,
            ("constant", "1", "0"): 8,
            ("comparison", "<", "<="): 13,
            ("boolean", "and", "or"): 13,
            ("constant", '"x"', "'xx'"): 13,
            ("comparison", "not in", "in"): 13,
            ("statement", "record(value)", "pass"): 14,
            ("raise", 'raise ValueError(f"bad {value}")', "pass"): 15,
            ("return", "not names", "not (not names)"): 16,
            ("boolean", "not ", ""): 16,
        }
        for change, line in expected.items():
            with self.subTest(change):
                self.assertEqual(found.get(change), line)

    def test_what_never_runs_is_never_mutated(self) -> None:
        lines = {m.line for m in ms.enumerate_mutants(SOURCE)}
        # Docstrings, the TYPE_CHECKING body, annotations, f-string parts.
        self.assertTrue(lines.isdisjoint({1, 5, 6, 12}))
        originals = {m.original for m in ms.enumerate_mutants(SOURCE)}
        self.assertTrue(originals.isdisjoint({'"list[str]"', "int", "bool", '"bad "'}))

    def test_a_mutant_changes_only_its_own_text(self) -> None:
        source = ms._Source(SOURCE)
        for mutant in ms.enumerate_mutants(SOURCE):
            with self.subTest(mutant=mutant.describe()):
                mutated = source.apply(mutant).splitlines()
                original = SOURCE.splitlines()
                first, last = mutant.line - 1, mutant.end_line - 1
                self.assertEqual(mutated[:first], original[:first])
                self.assertEqual(mutated[len(mutated) - (len(original) - last - 1) :], original[last + 1 :])


class TestDropped(unittest.TestCase):
    def original(self, source: str) -> tuple[object, ...]:
        return ms.code_fingerprint(compile(source, ms.MODULE_NAME, "exec", dont_inherit=True))

    def test_same_code_is_equivalent_and_a_syntax_error_skipped(self) -> None:
        source = "x = 1\ny = (x)\n"
        self.assertEqual(ms.judge_mutant(self.original(source), "x = 1\ny = x\n"), "equivalent")
        self.assertEqual(ms.judge_mutant(self.original(source), "x = 1\n\n\ny = x\n"), "equivalent")
        self.assertEqual(ms.judge_mutant(self.original(source), "x = 1\ny = (x\n"), "skipped")
        self.assertIsNone(ms.judge_mutant(self.original(source), "x = 2\ny = x\n"))

    def test_the_sample_is_reproducible_and_seeded(self) -> None:
        first = ms.draw_sample(SOURCE, 5, seed=1)
        self.assertEqual(first.mutants, ms.draw_sample(SOURCE, 5, seed=1).mutants)
        self.assertEqual(len(first.mutants), 5)
        self.assertNotEqual(first.mutants, ms.draw_sample(SOURCE, 5, seed=2).mutants)
        everything = ms.draw_sample(SOURCE, 10_000, seed=1)
        self.assertEqual(len(everything.mutants) + everything.skipped + everything.equivalent, everything.candidates)


class TestInterval(unittest.TestCase):
    def test_wilson_bounds(self) -> None:
        # By hand: k/n and z**2 / n give the centre and half-width.
        for killed, total, low, high in ((30, 30, 0.8865, 1.0), (0, 10, 0.0, 0.2775), (77, 100, 0.6785, 0.8416)):
            with self.subTest(killed=killed, total=total):
                found = ms.wilson_interval(killed, total)
                self.assertAlmostEqual(found[0], low, places=4)
                self.assertAlmostEqual(found[1], high, places=4)
        self.assertEqual(ms.wilson_interval(0, 0), (0.0, 1.0))


if __name__ == "__main__":
    unittest.main()
