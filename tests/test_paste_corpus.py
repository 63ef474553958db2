"""The paste corpus (tests/paste_corpus.py): its shape, and the gate's figures
on it as a floor (stdlib unittest).

Run: python -I tests/test_paste_corpus.py   (or under pytest)

The floors are the gate's figures for seed 39 on the corpus as each case
now draws its values (one generator per case, since templates are added):
secret texts refused per class may only rise, clean texts refused per
class may only fall.  The goal (97% in every class, at most 1 in 200 clean)
is printed by tools/measure_paste_corpus.py, not asserted here.  A failure
names case ids and template ids, never a text.
"""

from __future__ import annotations

import os
import random
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import paste_corpus
from cp_testlib import ROOT, cp

sys.path.insert(0, os.path.join(ROOT, "tools"))

import measure_paste_corpus

SEED = 39
MIN_PER_SIDE = 30
LANGUAGES = {"en", "fr", "es", "pt", "de", "nl", "pl", "ru", "zh", "ja"}
MIN_OTHER_LANGUAGES = 3
# Secret texts refused per class, at least (seed 39).
FLOOR = {1: 258, 2: 122, 3: 80, 4: 111, 5: 90, 6: 78, 7: 88, 8: 78}
# Clean texts refused per class, at most (seed 39).
CEILING = {1: 0, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0, 7: 0, 8: 0}


def skeleton(template: str, lang: str) -> str:
    """The template as committed: its localized words filled, every other
    slot ({pw}, {hex32}, {user}, ...) left as it is written."""
    kept = paste_corpus.SLOT.sub(
        lambda m: (
            m.group(0) if m.group(1)[0].lower() + m.group(1)[1:] in paste_corpus.LOCALIZED else "{" + m.group(0) + "}"
        ),
        template,
    )
    return paste_corpus.fill(kept, lang, random.Random(0))


class TestPasteCorpusShape(unittest.TestCase):
    def test_each_class_has_thirty_secret_texts_and_as_many_clean(self) -> None:
        cases = paste_corpus.cases(SEED)
        for cls in paste_corpus.CLASSES:
            secret = sum(c.cls == cls and c.expected == paste_corpus.REFUSE for c in cases)
            clean = sum(c.cls == cls and c.expected == paste_corpus.PASS for c in cases)
            with self.subTest(cls=cls):
                self.assertGreaterEqual(secret, MIN_PER_SIDE)
                self.assertGreaterEqual(clean, secret)

    def test_ids_are_unique_and_name_class_and_language(self) -> None:
        cases = paste_corpus.cases(SEED)
        self.assertEqual(len({c.id for c in cases}), len(cases))
        for case in cases:
            self.assertTrue(case.id.startswith(f"c{case.cls}-{case.lang}-"), case.id)
            self.assertEqual(case.id.split("-")[2].startswith("n"), case.expected == paste_corpus.PASS, case.id)

    def test_a_seed_gives_the_same_corpus_and_another_seed_new_values_under_the_same_ids(self) -> None:
        first, again, other = paste_corpus.cases(SEED), paste_corpus.cases(SEED), paste_corpus.cases(SEED + 1)
        self.assertEqual(first, again)
        self.assertEqual([(c.id, c.template) for c in first], [(c.id, c.template) for c in other])
        self.assertNotEqual([c.text for c in first], [c.text for c in other])

    def test_languages_are_the_ten_asked_for_and_more(self) -> None:
        spoken = {c.lang for c in paste_corpus.cases(SEED)}
        self.assertLessEqual(LANGUAGES, spoken)
        self.assertGreaterEqual(len(spoken - LANGUAGES), MIN_OTHER_LANGUAGES)
        for name, words in paste_corpus.LOCALIZED.items():
            with self.subTest(words=name):
                self.assertEqual(set(words), set(paste_corpus.NETSH_KEY_CONTENT))

    def test_every_secret_template_draws_its_secret_at_run_time(self) -> None:
        """No secret-shaped literal is committed: each secret template has a
        slot for its secret, and the gate passes it with its slots unfilled."""
        for tid, _cls, lang, text, expected in paste_corpus.templates():
            if expected != paste_corpus.REFUSE:
                continue
            with self.subTest(template=tid):
                self.assertTrue(paste_corpus.secret_slots(text))
                self.assertIsNone(cp.judge_text(skeleton(text, lang))[0])


class TestPasteCorpusFloor(unittest.TestCase):
    def test_refused_figures_hold_their_floor_and_ceiling(self) -> None:
        figures = measure_paste_corpus.measure(SEED)
        for cls, row in figures["classes"].items():
            with self.subTest(cls=cls):
                secret_misses = [m["id"] for m in row["misses"] if m["expected"] == paste_corpus.REFUSE]
                clean_refused = [m["id"] for m in row["misses"] if m["expected"] == paste_corpus.PASS]
                self.assertGreaterEqual(row["secretRefused"], FLOOR[cls], secret_misses)
                self.assertLessEqual(row["cleanRefused"], CEILING[cls], clean_refused)
        print("\n" + "\n".join(measure_paste_corpus.table(figures, "tests/test_paste_corpus.py")[2:13]))


if __name__ == "__main__":
    unittest.main()
