"""The mutation sampler's pure parts: which mutants exist, which are dropped,
and the score's interval (stdlib unittest; nothing is run against a suite).

Run: python -I tests/test_mutation_sample.py
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
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


# A module and two tests, one in-process and one through a child process,
# for the reach map made end to end.
TINY_MODULE = """import sys


def used_in_process(x):
    return x + 1


def used_by_a_child(x):
    return x * 2


def never_used(x):
    return x - 1

if __name__ == "__main__":
    print(used_by_a_child(int(sys.argv[1])))
"""
TINY_TESTS = """import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import conversation_projection as cp

MODULE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "conversation_projection.py")


def test_in_process():
    assert cp.used_in_process(1) == 2


def test_through_a_child():
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    done = subprocess.run([sys.executable, "-I", MODULE, "3"], capture_output=True, env=env, check=True)
    assert done.stdout.strip() == b"6"
"""


class TestReach(unittest.TestCase):
    """Running each mutant only against the tests that reach its line."""

    def test_the_hook_keeps_every_line_where_it_was(self) -> None:
        """It takes the first blank line after the docstring and __future__
        imports: before any code of the module runs."""
        with_future = '"""Doc.\n\nMore."""\nfrom __future__ import annotations\n\nX = 1\n\n\ndef f():\n    return X\n'
        for module, blank in ((TINY_MODULE, 2), (with_future, 5)):
            hooked = ms.hooked_text(module)
            original = module.split("\n")
            lines = hooked.split("\n")
            self.assertEqual(len(lines), len(original))
            changed = [i + 1 for i, (a, b) in enumerate(zip(original, lines, strict=True)) if a != b]
            self.assertEqual(changed, [blank])
            self.assertEqual((original[blank - 1], lines[blank - 1]), ("", ms.REACH_HOOK_LINE))
            compile(hooked, "hooked", "exec")

    def test_import_time_lines_leave_out_function_bodies(self) -> None:
        lines = ms.import_time_lines(TINY_MODULE)
        self.assertTrue({1, 4, 8, 12, 15, 16}.issubset(lines))  # import, def lines, the guard and its body
        self.assertTrue(lines.isdisjoint({5, 9, 13}))  # function bodies

    def test_a_line_runs_its_tests_the_whole_suite_or_nothing(self) -> None:
        staged = [ms.Stage("fast", [["all"]], 60.0, 3)]
        timings = ms.Timings({"t::slow": 9.0, "t::quick": 1.0, "t::broken": 1.0}, ["t::broken"])
        reach = ms.Reach.build(
            {"t::slow": [9], "t::quick": [9], "t::broken": [9], ms.NO_TEST: [5]}, TINY_MODULE, timings, "py"
        )
        self.assertEqual(reach.stages_for(1, staged), staged)  # run at import
        self.assertEqual(reach.stages_for(5, staged), staged)  # reached where no test was named
        stage = reach.stages_for(9, staged)[0]
        self.assertEqual(stage.commands[0][-3:], ["-x", "t::quick", "t::slow"])  # fastest first, none failing
        self.assertEqual(stage.commands[0][:2], ["env", "CP_FRESH_PARTIAL=1"])  # not its whole class
        self.assertEqual(stage.timeout, ms._stage_timeout(10.0))
        self.assertEqual(reach.stages_for(13, staged), [])  # no test reaches it

    def test_a_line_run_at_import_runs_the_tests_of_what_reads_it(self) -> None:
        module = (
            "LIMIT = 3\n"  # 1: read by check()
            "PATTERN = 'x' * LIMIT\n"  # 2: bound from LIMIT, read by find()
            "UNUSED = 4\n"  # 3: read by no function
            "\n\n"
            "def check(x, floor=1):\n"  # 6: its defaults change its body's result
            "    return floor < x < LIMIT\n"  # 7
            "\n\n"
            "def find(text):\n"  # 10
            "    return PATTERN in text\n"  # 11
        )
        users, _ = ms.import_time_reach(module)
        self.assertEqual(users[1], {7, 11})
        self.assertEqual(users[2], {11})
        self.assertEqual(users[3], set())
        self.assertEqual(users[6], {7})
        self.assertNotIn(7, users)  # a function line is no line run at import
        staged = [ms.Stage("fast", [["all"]], 60.0, 3)]
        reach = ms.Reach.build({"t::check": [7], "t::find": [11]}, module, ms.Timings({}, []), "py")
        self.assertEqual(reach.stages_for(1, staged)[0].commands[0][-2:], ["t::check", "t::find"])
        self.assertEqual(reach.stages_for(2, staged)[0].commands[0][-1:], ["t::find"])
        self.assertEqual(reach.stages_for(3, staged), staged)  # no function reads it: the whole suite

    def test_a_line_run_at_import_runs_the_tests_that_read_what_it_binds(self) -> None:
        """A test may read a table itself (cp.SECRET_RULES) and run no line
        that reads it: it runs for the lines that bind the table too."""
        module = "LIMIT = 3\nPATTERN = 'x' * LIMIT\nUNUSED = 4\n"
        tree = self.tiny_tree(
            "import conversation_projection as cp\n\nSEEN = cp.LIMIT\n\n\n"
            "class TestData:\n    def test_limit(self):\n        assert SEEN\n\n\n"
            "def test_table():\n    assert cp.PATTERN\n\n\ndef test_other():\n    assert True\n"
        )
        named = ms.names_read_by_tests(tree)
        self.assertIn("LIMIT", named["tests/test_tiny.py::TestData"])  # through the file's SEEN
        self.assertNotIn("PATTERN", named["tests/test_tiny.py::TestData"])
        seconds = {"tests/test_tiny.py::TestData::test_limit": 2.0, "tests/test_tiny.py::test_table": 1.0}
        timings = ms.Timings({**seconds, "tests/test_tiny.py::test_other": 0.5}, [])
        reach = ms.Reach.build({}, module, timings, "py", named)
        staged = [ms.Stage("fast", [["all"]], 60.0, 3)]
        self.assertEqual(reach.stages_for(1, staged)[0].commands[0][-2:], sorted(seconds, key=seconds.__getitem__))
        self.assertEqual(reach.stages_for(2, staged)[0].commands[0][-1:], ["tests/test_tiny.py::test_table"])
        self.assertEqual(reach.stages_for(3, staged), staged)  # read by nothing: the whole suite

    def test_unreached_mutants_survive_unrun_and_time_outs_are_counted_apart(self) -> None:
        plan = ms.Plan(TINY_MODULE, [], {}, ms.Reach.build({}, TINY_MODULE, ms.Timings({}, []), "py"))
        mutant = next(m for m in ms.enumerate_mutants(TINY_MODULE) if m.line == 13)
        unreached = ms.run_mutant("/nonexistent", plan, 0, mutant)
        self.assertEqual((unreached.killed, unreached.stage, unreached.seconds), (False, ms.UNREACHED, 0.0))
        self.assertIn("unreached", unreached.log_line())
        verdicts = [
            unreached,
            ms.Verdict(1, mutant, True, "reach", 1.0, "time-out"),
            ms.Verdict(2, mutant, True, "reach", 1.0, "FAILED t::x"),
        ]
        verdicts.append(ms.Verdict(3, mutant, False, ms.UNCONFIRMED, 1.0, "FAILED t::x"))
        self.assertIn("unconfirmed", verdicts[-1].log_line())
        lines = ms.summary_lines(verdicts, ms.Sample([], 0, 0, 4), 17)
        self.assertIn("killed 2/4", lines[1])
        self.assertEqual(
            lines[2],
            "of the kills, 1 by a failing test and 1 by a time-out; 1 of the survivors reached by no test,"
            " 1 failed a test that fails unchanged too",
        )

    def tiny_tree(self, tests: str, module: str = TINY_MODULE) -> str:
        """A repository of ``module`` and one test file, removed afterwards."""
        try:
            import pytest  # noqa: F401
        except ImportError:
            self.skipTest("pytest is not installed")
        tree = tempfile.mkdtemp(prefix="reach-")
        self.addCleanup(shutil.rmtree, tree, ignore_errors=True)
        os.mkdir(os.path.join(tree, "tests"))
        with open(os.path.join(tree, ms.MODULE_NAME), "w", encoding="utf-8") as handle:
            handle.write(module)
        with open(os.path.join(tree, "tests", "test_tiny.py"), "w", encoding="utf-8") as handle:
            handle.write(tests)
        return tree

    def test_a_kill_counts_only_when_its_test_passes_on_the_unchanged_module(self) -> None:
        tree = self.tiny_tree(TINY_TESTS + "\n\ndef test_broken():\n    assert False\n")
        env = ms._environment(sys.executable)
        prefix = ["env", "CP_FRESH_PARTIAL=1", sys.executable, *ms.PYTEST, "-x"]
        self.assertTrue(ms._fails_alone("FAILED tests/test_tiny.py::test_in_process", [*prefix, "t"], tree, env))
        self.assertFalse(ms._fails_alone("FAILED tests/test_tiny.py::test_broken", [*prefix, "t"], tree, env))
        self.assertTrue(ms._fails_alone("time-out", [*prefix, "t"], tree, env))

    def test_a_class_set_up_reaches_for_each_test_and_a_test_failing_only_traced_stays(self) -> None:
        """setUpClass runs in its first test's set-up: what it reaches counts
        for every test of the class.  A test that fails only while the map is
        made (a bound on time, here the recorder's variable) is kept."""
        tree = self.tiny_tree(
            TINY_TESTS + "\n\nimport unittest\n\n\nclass TestShared(unittest.TestCase):\n"
            "    @classmethod\n    def setUpClass(cls):\n        cls.value = cp.never_used(5)\n\n"
            "    def test_one(self):\n        assert self.value == 4\n\n"
            "    def test_two(self):\n        assert True\n\n\n"
            "def test_untraced():\n    assert 'MUTATION_REACH_DIR' not in os.environ\n"
        )
        env = ms._environment(sys.executable)
        reach, timings = ms.measure_reach(sys.executable, tree, env, ["tests/"])
        self.assertEqual(timings.failing, [])
        built = ms.Reach.build(reach, TINY_MODULE, timings, "py")
        stage = built.stages_for(13, [])[0]
        self.assertEqual(
            sorted(stage.commands[0][-2:]),
            ["tests/test_tiny.py::TestShared::test_one", "tests/test_tiny.py::TestShared::test_two"],
        )
        self.assertIn("tests/test_tiny.py::test_untraced", built.read_by_test)  # selectable, not left out

    def test_what_a_memo_cache_builds_once_counts_for_every_test_that_uses_it(self) -> None:
        module = (
            "_table: list[int] = []\n"  # 1
            "\n\n"
            "def table():\n"  # 4
            "    if not _table:\n"
            "        _table.append(build())\n"
            "    return _table[0]\n"
            "\n\n"
            "def build():\n"  # 10
            "    return 42\n"  # 11
        )
        self.assertEqual(ms.memo_caches(module), ["_table"])
        tree = self.tiny_tree(
            "import os\nimport sys\n\nsys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))\n"
            "import conversation_projection as cp\n\n\n"
            "def test_first():\n    assert cp.table() == 42\n\n\n"
            "def test_second():\n    assert cp.table() == 42\n",
            module,
        )
        reach, _ = ms.measure_reach(sys.executable, tree, ms._environment(sys.executable), ["tests/"])
        for test in ("test_first", "test_second"):
            self.assertIn(11, reach[f"tests/test_tiny.py::{test}"], test)

    def test_a_saved_map_is_used_only_for_the_module_and_tests_it_was_made_from(self) -> None:
        tree = self.tiny_tree(TINY_TESTS)
        env = ms._environment(sys.executable)
        elsewhere = tempfile.mkdtemp(prefix="reach-map-")
        self.addCleanup(shutil.rmtree, elsewhere, ignore_errors=True)
        saved = os.path.join(elsewhere, "reach.json")
        made, _ = ms.load_reach(saved, sys.executable, tree, env, ["tests/"])
        with open(saved, encoding="utf-8") as handle:
            kept = json.load(handle)
        kept["reach"] = {"tests/test_tiny.py::test_in_process": [1]}
        with open(saved, "w", encoding="utf-8") as handle:
            json.dump(kept, handle)
        self.assertEqual(ms.load_reach(saved, sys.executable, tree, env, ["tests/"])[0], kept["reach"])
        with open(os.path.join(tree, "tests", "test_tiny.py"), "a", encoding="utf-8") as handle:
            handle.write("\n\ndef test_added():\n    assert cp.never_used(1) == 0\n")
        again, _ = ms.load_reach(saved, sys.executable, tree, env, ["tests/"])
        self.assertEqual(again["tests/test_tiny.py::test_added"], [13])
        self.assertEqual(again["tests/test_tiny.py::test_in_process"], made["tests/test_tiny.py::test_in_process"])

    def test_the_map_follows_the_tests_into_their_children(self) -> None:
        """Made end to end on a tiny repository: the in-process test and the
        one that runs the module as a child each reach their own function,
        and neither reaches the third."""
        tree = self.tiny_tree(TINY_TESTS)
        env = ms._environment(sys.executable)
        reach, timings = ms.measure_reach(sys.executable, tree, env, ["tests/"], workers=2)
        self.assertEqual(sorted(timings.seconds), sorted(reach.keys() - {ms.NO_TEST}))
        self.assertEqual(timings.failing, [])
        bodies = {5, 9, 13}
        self.assertEqual(bodies.intersection(reach["tests/test_tiny.py::test_in_process"]), {5})
        self.assertEqual(bodies.intersection(reach["tests/test_tiny.py::test_through_a_child"]), {9})
        with open(os.path.join(tree, ms.MODULE_NAME), encoding="utf-8") as handle:
            self.assertEqual(handle.read(), TINY_MODULE)  # put back
        self.assertFalse(os.path.exists(os.path.join(tree, ms.REACH_HOOK_NAME)))
        self.assertEqual(json.loads(json.dumps(reach)), reach)


if __name__ == "__main__":
    unittest.main()
