"""The secret gate against text that holds no credential (stdlib unittest).

Run: python -I tests/test_secret_lookalikes.py   (or under pytest)

Every text of tests/secret_lookalikes.py must pass the gate; a refusal is
reported by its group and index, with the rule that matched (never the
text).
"""

from __future__ import annotations

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import secret_lookalikes
from cp_testlib import cp

MIN_SUMMARIES = 220
MIN_PASSAGES = 60
SUMMARY_CHARS = range(40, 2001)


def groups_of(kind: str) -> dict[str, tuple[str, ...]]:
    return {group: texts for group, texts in secret_lookalikes.GROUPS.items() if group.startswith(kind + "/")}


class TestLookAlikeCorpus(unittest.TestCase):
    def test_summaries_are_many_and_of_summary_length(self) -> None:
        summaries = groups_of("summaries")
        self.assertGreaterEqual(sum(map(len, summaries.values())), MIN_SUMMARIES)
        for group, texts in summaries.items():
            for index, text in enumerate(texts):
                with self.subTest(group=group, index=index):
                    self.assertIn(len(text), SUMMARY_CHARS)

    def test_passages_are_many(self) -> None:
        self.assertGreaterEqual(sum(map(len, groups_of("passages").values())), MIN_PASSAGES)

    def test_no_text_appears_twice(self) -> None:
        every = [text for texts in secret_lookalikes.GROUPS.values() for text in texts]
        self.assertEqual(len(set(every)), len(every))


class TestLookAlikesPass(unittest.TestCase):
    def test_no_look_alike_is_refused(self) -> None:
        refused = 0
        for group, texts in secret_lookalikes.GROUPS.items():
            for index, text in enumerate(texts):
                found = cp.find_secret(text)
                refused += found is not None
                with self.subTest(group=group, index=index):
                    self.assertIsNone(found)
        total = sum(len(texts) for texts in secret_lookalikes.GROUPS.values())
        print(f"\nsecret look-alikes: {total} texts in {len(secret_lookalikes.GROUPS)} groups, {refused} refused")


if __name__ == "__main__":
    unittest.main()
