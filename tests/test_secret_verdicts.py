"""The secret gate keeps adapter 0.2.0's verdicts, but where a difference is
listed with its reason (stdlib unittest).

Run: python -I tests/test_secret_verdicts.py   (or under pytest)

tools/compare_secret_verdicts.py judges every case of the generated corpus,
the look-alikes and the gitleaks-style peer section by the release (kept in
tests/released/conversation_projection_0_2_0.py) and by
conversation_projection.py, each through its public selection check; its
docstring says how the cases are made and how a case's key is built.  Every
case whose verdict differs must stand in EXPECTED_DIFFERENCES, and every
entry there must still differ so; and no figure of the corpora may fall:
the gate refuses at least as many secret-shaped texts as 0.2.0 did (and
names at least as many by their family), and at most as many look-alikes.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import types
import unittest
from typing import Any, ClassVar

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(ROOT, "tools", "compare_secret_verdicts.py")
# The release as it was published (7fb8677:conversation_projection.py).
RELEASED_SHA256 = "03a8b161a8c1549fff97ab203dfb4b56457830e0d2101e6ff78421fdf94a7138"

# Every case the gate now judges otherwise than 0.2.0 did:
#   key: (verdict of 0.2.0, verdict now, why the change is meant)
# A key is "corpus:group:digest" and a verdict "accepted" or "code:rule", as
# the tool prints them; a failing run prints the rows to add, reason left blank.
EXPECTED_DIFFERENCES: dict[str, tuple[str, str, str]] = {
    "decided:pairs:fead2030fe78": (
        "accepted",
        "selection_secret:credential-assignment",
        "'subscription' qualifies 'key' (Azure API Management's Ocp-Apim-Subscription-Key)",
    ),
    "decided:pairs:50d56a61c6d9": (
        "accepted",
        "selection_secret:credential-assignment",
        "'subscription' qualifies 'key' (Azure API Management's Ocp-Apim-Subscription-Key)",
    ),
    "decided:pairs:bf0d05bb142f": (
        "accepted",
        "selection_secret:credential-assignment",
        "each text is judged alone: 0.2.0 read 'senha' only when some text of the selection was not plain ASCII",
    ),
    "decided:pairs:b502c2afa49a": (
        "accepted",
        "selection_secret:credential-assignment",
        "each text is judged alone: 0.2.0 read 'wachtwoord' only when some text of the selection was not plain ASCII",
    ),
    "decided:pairs:d4c18ff28e5f": (
        "accepted",
        "selection_secret:credential-assignment",
        "each text is judged alone: 0.2.0 read 'salasana' only when some text of the selection was not plain ASCII",
    ),
}

# Below these the corpora would have lost whole sections (today: 24,190
# generated, 1,164 look-alikes, 4,108 peer cases).
MIN_CASES = {"generated": 20_000, "look-alikes": 1_000, "peer": 3_500, "decided": 10}


def load_tool() -> types.ModuleType:
    name = "compare_secret_verdicts"
    loaded = sys.modules.get(name)
    if loaded is not None:
        return loaded
    spec = importlib.util.spec_from_file_location(name, TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


class TestVerdictsKept(unittest.TestCase):
    """One comparison, run once for the class."""

    tool: ClassVar[types.ModuleType]
    comparison: ClassVar[Any]

    @classmethod
    def setUpClass(cls) -> None:
        cls.tool = load_tool()
        cls.comparison = cls.tool.compare()
        print("\nsecret verdicts against 0.2.0:")
        for line in cls.tool.report(cls.comparison):
            print("  " + line)

    def test_the_release_is_kept_as_it_was_published(self) -> None:
        with open(self.tool.RELEASED_PATH, "rb") as handle:
            self.assertEqual(hashlib.sha256(handle.read()).hexdigest(), RELEASED_SHA256)
        released, current = self.tool.load_gates()
        self.assertEqual(released.ADAPTER_VERSION, "0.2.0")
        self.assertIsNot(released, current)
        self.assertEqual(
            os.path.realpath(current.__file__), os.path.join(os.path.realpath(ROOT), "conversation_projection.py")
        )

    def test_every_corpus_is_whole(self) -> None:
        for corpus, least in MIN_CASES.items():
            with self.subTest(corpus=corpus):
                count = sum(1 for outcome in self.comparison.outcomes if outcome.case.corpus == corpus)
                self.assertGreaterEqual(count, least)

    def test_the_differences_are_exactly_the_listed_ones(self) -> None:
        found = {outcome.case.key: outcome for outcome in self.comparison.differences}
        expected = {key: (old, new) for key, (old, new, _reason) in EXPECTED_DIFFERENCES.items()}
        unlisted = [
            f"    {key!r}: ({outcome.old!r}, {outcome.new!r}, ''),  # {outcome.case.description}"
            for key, outcome in found.items()
            if expected.get(key) != (outcome.old, outcome.new)
        ]
        gone = [key for key in expected if key not in found]
        if unlisted or gone:
            self.fail(
                f"{len(unlisted)} differences not listed as they are now (the first 200; the tool prints all):\n"
                + "\n".join(unlisted[:200])
                + f"\n{len(gone)} listed that no longer differ: {gone[:20]}"
            )

    def test_every_listed_difference_gives_its_reason(self) -> None:
        for key, (_old, _new, reason) in EXPECTED_DIFFERENCES.items():
            with self.subTest(key=key):
                self.assertTrue(reason.strip())

    def test_no_figure_of_a_corpus_falls(self) -> None:
        """Refused of the secret-shaped texts and named by their family: as
        many or more; refused of the look-alikes: as many or fewer."""
        for corpus, old in self.comparison.old.items():
            new = self.comparison.new[corpus]
            with self.subTest(corpus=corpus):
                self.assertEqual((new.secret_shaped, new.look_alikes), (old.secret_shaped, old.look_alikes))
                self.assertGreaterEqual(new.refused, old.refused)
                self.assertGreaterEqual(new.named, old.named)
                self.assertLessEqual(new.refused_look_alikes, old.refused_look_alikes)


if __name__ == "__main__":
    unittest.main()
