"""The secret gate keeps its verdicts: each case's is the one of the
reviewed snapshot (stdlib unittest).

Run: python -I tests/test_secret_verdicts.py   (or under pytest)

tools/secret_verdict_snapshot.py judges every case of the generated corpus,
the look-alikes, the gitleaks-style peer section and the decided pairs
(made by tools/compare_secret_verdicts.py, whose docstring says how) through
the gate's public selection check, and tests/secret_verdicts.txt holds the
verdict of each, by the case's name.  A change in verdicts is accepted by
one command, `python -I tools/secret_verdict_snapshot.py --write`, whose
diff is reviewed with the change; a failing test prints that command and
each case that differs.  The same command writes the family list of
docs/secret-gate.md from the table.  No figure of a corpus may fall: every
secret-shaped case is refused (under the family it is an example of, where
it has one) and no look-alike is.

Adapter 0.2.0 (tests/released/) is compared with on demand:
`python -I tools/compare_secret_verdicts.py`.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import sys
import types
import unittest
from typing import Any, ClassVar

# -I leaves the script's own directory off sys.path.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cp_testlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOLS = os.path.join(ROOT, "tools")
# The release as it was published (7fb8677:conversation_projection.py).
RELEASED_SHA256 = "03a8b161a8c1549fff97ab203dfb4b56457830e0d2101e6ff78421fdf94a7138"

# Below these the corpora would have lost whole sections (today: 24,193
# generated, 1,164 look-alikes, 4,108 peer cases, 10 decided).
MIN_CASES = {"generated": 20_000, "look-alikes": 1_000, "peer": 3_500, "decided": 10}

# A line of the snapshot: a case's name (its corpus first), a tab, a verdict
# that names at most a family.
SNAPSHOT_LINE = re.compile(r"(generated|look-alikes|peer|decided):[^\t\n]+\t(accepted|refused:[a-z0-9-]+)")


def load_tool(name: str) -> types.ModuleType:
    """tools/<name>.py, as sys.modules[name] (the tools find each other there)."""
    loaded = sys.modules.get(name)
    if loaded is not None:
        return loaded
    spec = importlib.util.spec_from_file_location(name, os.path.join(TOOLS, name + ".py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


class TestVerdictSnapshot(unittest.TestCase):
    """One judging of every case, run once for the class."""

    tool: ClassVar[types.ModuleType]
    found: ClassVar[dict[str, str]]
    tallies: ClassVar[dict[str, Any]]

    @classmethod
    def setUpClass(cls) -> None:
        cls.tool = load_tool("secret_verdict_snapshot")
        cls.found, cls.tallies = cls.tool.verdicts()
        print("\nsecret verdicts:")
        for corpus, tally in cls.tallies.items():
            print(f"  {corpus}: {tally.line()}")

    def test_every_verdict_is_the_snapshots(self) -> None:
        report = self.tool.mismatch_report(self.tool.read_snapshot(), self.found)
        if report:
            self.fail("\n".join(report))

    def test_a_changed_verdict_is_named_with_the_command_that_accepts_it(self) -> None:
        kept = dict(self.found)
        name = next(name for name, verdict in kept.items() if verdict == "accepted")
        kept[name] = "refused:github-token"
        kept["peer:no-such-family:java:0"] = "refused:no-such-family"
        self.assertEqual(
            self.tool.mismatch_report(kept, self.found),
            [
                "2 verdicts differ from tests/secret_verdicts.txt (case: snapshot -> now):",
                f"{name}: refused:github-token -> accepted",
                "peer:no-such-family:java:0: refused:no-such-family -> none",
                "if the change is meant: python -I tools/secret_verdict_snapshot.py --write,"
                " and review the diff with the change",
            ],
        )
        self.assertEqual(self.tool.mismatch_report(self.found, self.found), [])

    def test_the_snapshot_is_sorted_one_case_a_line_naming_cases_and_families_only(self) -> None:
        with open(self.tool.SNAPSHOT_PATH, encoding="utf-8") as handle:
            lines = handle.read().split("\n")
        self.assertEqual(lines[0] + "\n", self.tool.HEADER)
        self.assertEqual(lines[-1], "", "the last line ends")
        cases = lines[1:-1]
        self.assertEqual(cases, sorted(set(cases)))
        families = {rule.family for rule in self.tool.the_gate().SECRET_RULES}
        for line in cases:
            match = SNAPSHOT_LINE.fullmatch(line)
            if match is None:
                self.fail(f"not a line of the snapshot: {line!r}")
            verdict = match.group(2)
            if verdict != "accepted":
                self.assertIn(verdict.removeprefix("refused:"), families, line)

    def test_every_corpus_is_whole(self) -> None:
        for corpus, least in MIN_CASES.items():
            with self.subTest(corpus=corpus):
                tally = self.tallies[corpus]
                self.assertGreaterEqual(tally.secret_shaped + tally.look_alikes, least)

    def test_no_figure_of_a_corpus_falls(self) -> None:
        """Every secret-shaped text refused, and named by its family where
        it is an example of one; no look-alike refused; no other refusal."""
        for corpus, tally in self.tallies.items():
            with self.subTest(corpus=corpus):
                self.assertEqual(tally.refused, tally.secret_shaped)
                self.assertEqual(tally.named, tally.with_family)
                self.assertEqual(tally.refused_look_alikes, 0)
                self.assertEqual(tally.other_refusals, 0)


class TestOneVerdictUnderEveryInterpreter(unittest.TestCase):
    """The snapshot holds under every CPython on the machine, patch releases
    included: 3.11.2's engine once gave up a match after a possessive
    quantifier on a group, which published "The password for the NAS is
    ..." there alone."""

    def test_every_cpython_gives_the_snapshot_s_verdicts(self) -> None:
        import subprocess

        pythons = cp_testlib.every_cpython()
        for version, python in sorted(pythons.items()):
            with self.subTest(python=version):
                completed = subprocess.run(
                    [python, "-I", os.path.join(TOOLS, "secret_verdict_snapshot.py")],
                    capture_output=True,
                    text=True,
                    timeout=600,
                )
                self.assertEqual(completed.returncode, 0, completed.stdout[-2000:])


class TestFamilyList(unittest.TestCase):
    maxDiff = None

    def test_the_reference_page_holds_the_list_written_from_the_table(self) -> None:
        tool = load_tool("secret_verdict_snapshot")
        with open(tool.PAGE_PATH, encoding="utf-8") as handle:
            written = tool.written_family_list(handle.read())
        self.assertEqual(
            written, tool.current_family_list(), f"docs/secret-gate.md's family list is stale: run {tool.COMMAND}"
        )


class TestTheReleaseComparedWith(unittest.TestCase):
    def test_the_release_is_kept_as_it_was_published(self) -> None:
        tool = load_tool("compare_secret_verdicts")
        with open(tool.RELEASED_PATH, "rb") as handle:
            self.assertEqual(hashlib.sha256(handle.read()).hexdigest(), RELEASED_SHA256)
        released, current = tool.load_gates()
        self.assertEqual(released.ADAPTER_VERSION, "0.2.0")
        self.assertIsNot(released, current)
        self.assertEqual(
            os.path.realpath(current.__file__), os.path.join(os.path.realpath(ROOT), "conversation_projection.py")
        )


if __name__ == "__main__":
    unittest.main()
