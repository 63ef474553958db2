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

# The differences of the rows added for text pasted into a conversation
# (tests/paste_corpus.py): examples of each new row, which 0.2.0 did not read.
ACCEPTED = "accepted"
REFUSED_ASSIGNMENT = "selection_secret:credential-assignment"
REFUSED_FLAG = "selection_secret:credential-flag"
TABLE_ROW = "a key and its value in the cells of a Markdown table row (| api_key | ... |)"
EXPECTED_DIFFERENCES.update(
    {
        "generated:credential-assignment:2bd55dfcb101": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:c8fce38b1f9b": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:a2a8d9679b91": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:2221140dde5e": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:a4f07b1034fa": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:d7e24a31e578": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:cbd4da1264ae": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:47efb86e81b5": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:fe7bbe04f6e3": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:6d1b4f4c8541": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:2bc02ac5fb04": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:a1170c162155": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:531fe8e7e1ad": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:d390c38c631f": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:25d9d9b3ebf8": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:80828abb1886": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:bd812ca07cbd": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:36618db40b91": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:61fbfa4ac764": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:a03118edb636": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:0aed2d3c837b": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:10678d3b8459": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:77829043a912": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:1de5c624e571": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:34c614529aa2": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:e5419323a540": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:e7ecf995c374": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:6f16f2cb089a": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:18c04332664e": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:ee2ff1bfe010": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:900aa589e111": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:5096e3980945": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:1207f27fdc53": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:129d7cad966e": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:fbfed861c8b3": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:23bdc3ea85e9": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:460f8aa9f09e": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:79fbb1f4aea6": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:ec1629deed6f": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:d7ca319c67a6": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:c34f46b9d74e": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:6485183df8ae": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:5a3b23ca08a4": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:0ec00067f500": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:9d7149062f8f": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:66f5cdbd3e42": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:b0de29a1bf7e": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:534b4441c241": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:9afe238b7ba6": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:cce3589251b1": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:4a6dc3b2c736": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:cbc311428c61": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:d666dd3b8707": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:86cc5a82ef2d": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:5f213e46d075": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:2946fe4684d7": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:b8928db991b5": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:70bcae5c0c41": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:b03720144bdc": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:607c29ef737e": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:e35fc3ec6e1f": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:ce930cd67172": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:a235dcc7dc3c": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:b717998bc843": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:6e4f0af6c9ef": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:5ae87443b78a": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:15b3ea54891a": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:04ab8bba5be9": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:aed655eb2985": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:f21fe986d3a9": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:023c4c437b75": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:f5b03b335a6c": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:fd3769f3e303": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:89a72e6cf960": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:1a7efbbb2083": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:16f1c0e5e268": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:525d87326e2d": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:27b42cf60b85": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:85675f9a1043": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:4091f4d3639b": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:2d6b2e65b60c": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:d1c5886fe6c2": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:1980817ff505": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:53656b49cc51": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment/row:ed88572a6fea": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment/row:9d098247175f": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment/row:596d42d20ae1": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
    }
)

# end of the differences of pasted forms

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
