"""Reconciliation against the persisted state: the ledger, the change counts, the state's
schema and bounds.

Run: python -I tests/test_reconciliation.py
"""

from __future__ import annotations

import copy
import json
import os
import sys
import unittest
import unittest.mock
from typing import Any

# -I leaves the script's own directory off sys.path.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from cp_testlib import (
    TempDirTestCase,
    accepted,
    branch,
    changes_of,
    cp,
    execute,
    family,
    fixture,
    later,
    run_standin,
    selection,
    snapshot_tree,
    summary,
)


def reconcile_code(state: dict[str, Any] | None, value: dict[str, Any]) -> str | None:
    try:
        cp.reconcile(state, accepted(value))
    except cp.ProjectionError as error:
        return error.code
    return None


class TestReconcile(unittest.TestCase):
    def setUp(self) -> None:
        self.state, replay = cp.reconcile(None, accepted(family()))
        self.assertFalse(replay)

    def test_first_selection_records_high_water_and_excludes(self) -> None:
        state, _ = cp.reconcile(None, accepted(family(exclude=["other", "never-seen"])))
        self.assertEqual(state["tombstones"], ["never-seen", "other"])
        self.assertEqual(set(state["highWater"]), {"child", "other", "parent"})
        self.assertEqual(state["highWater"]["child"]["sourceRevision"], 1)
        self.assertEqual(cp.parse_state(cp.state_bytes(state)), state)

    def test_a_first_state_cannot_pass_the_state_bounds(self) -> None:
        """Why a first run checks only refuse_first_use before it creates the
        directory: a first state's snapshot is one selection and its ledger
        at most one exclude list."""
        self.assertLess(cp.MAX_ID_LIST, cp.MAX_TOMBSTONES)
        self.assertLess(4 * cp.MAX_SELECTION_BYTES, cp.MAX_STATE_BYTES)

    def test_first_selection_cannot_restore(self) -> None:
        self.assertEqual(reconcile_code(None, family(restore=["other"])), "selection_conflict")

    def test_replay_is_accepted_unchanged(self) -> None:
        reordered = family()
        reordered["branches"].reverse()
        state, replay = cp.reconcile(self.state, accepted(reordered))
        self.assertTrue(replay)
        self.assertIs(state, self.state)

    def test_same_revision_other_content_is_stale(self) -> None:
        self.assertEqual(reconcile_code(self.state, family(text="Changed.")), "revision_stale")

    def test_lower_revision_is_stale(self) -> None:
        newer, _ = cp.reconcile(self.state, accepted(family(revision=5)))
        self.assertEqual(reconcile_code(newer, family(revision=4)), "revision_stale")
        self.assertEqual(reconcile_code(newer, family(revision=1)), "revision_stale")

    def test_corpus_mismatch(self) -> None:
        self.assertEqual(reconcile_code(self.state, family(revision=2, corpus="another")), "corpus_mismatch")

    def test_source_revision_high_water(self) -> None:
        corrected, _ = cp.reconcile(self.state, accepted(family(revision=2, child_revision=2, text="Corrected.")))
        self.assertEqual(corrected["highWater"]["child"]["sourceRevision"], 2)
        cases = {
            "same sourceRevision, other content": family(revision=3, child_revision=2, text="Again."),
            "lower sourceRevision": family(revision=3, child_revision=1, text="Child summary."),
        }
        for name, value in cases.items():
            with self.subTest(name):
                self.assertEqual(reconcile_code(corrected, value), "source_revision_conflict")
        self.assertIsNone(reconcile_code(corrected, family(revision=3, child_revision=2, text="Corrected.")))

    def test_omission_and_exclude_make_tombstones(self) -> None:
        omitted = selection(2, [branch("parent", sources=["ref-a"]), branch("other")])
        state, _ = cp.reconcile(self.state, accepted(omitted))
        self.assertEqual(state["tombstones"], ["child"])
        excluded, _ = cp.reconcile(state, accepted(dict(omitted, revision=3, exclude=["other"])))
        self.assertEqual(excluded["tombstones"], ["child", "other"])

    def test_tombstone_survives_relisting_until_restore(self) -> None:
        state, _ = cp.reconcile(self.state, accepted(family(revision=2, exclude=["child"])))
        relisted, _ = cp.reconcile(state, accepted(family(revision=3)))
        self.assertEqual(relisted["tombstones"], ["child"])
        self.assertNotIn("branch:child", {n["id"] for n in cp.project(relisted).extraction["nodes"]})
        restored, _ = cp.reconcile(relisted, accepted(family(revision=4, restore=["child"])))
        self.assertEqual(restored["tombstones"], [])
        self.assertIn("branch:child", {n["id"] for n in cp.project(restored).extraction["nodes"]})

    def test_restore_requires_a_tombstone(self) -> None:
        self.assertEqual(reconcile_code(self.state, family(revision=2, restore=["child"])), "selection_conflict")

    def test_restore_is_still_subject_to_high_water(self) -> None:
        corrected, _ = cp.reconcile(self.state, accepted(family(revision=2, child_revision=3, text="v3")))
        gone, _ = cp.reconcile(corrected, accepted(dict(family(revision=3), branches=family()["branches"][::2])))
        self.assertEqual(gone["tombstones"], ["child"])
        self.assertEqual(gone["highWater"]["child"]["sourceRevision"], 3)
        old = family(revision=4, child_revision=1, restore=["child"])
        self.assertEqual(reconcile_code(gone, old), "source_revision_conflict")
        self.assertIsNone(reconcile_code(gone, family(revision=4, child_revision=4, text="v4", restore=["child"])))

    def test_old_selection_cannot_resurrect_an_exclusion(self) -> None:
        state, _ = cp.reconcile(self.state, accepted(family(revision=2, exclude=["child"])))
        self.assertEqual(reconcile_code(state, family(revision=1)), "revision_stale")
        bumped, _ = cp.reconcile(state, accepted(family(revision=9)))
        self.assertEqual(bumped["tombstones"], ["child"])


class TestStateValidation(unittest.TestCase):
    def setUp(self) -> None:
        self.state, _ = cp.reconcile(None, accepted(family(exclude=["other"])))
        self.data = cp.state_bytes(self.state)

    def code(self, data: bytes) -> str | None:
        try:
            cp.parse_state(data)
        except cp.ProjectionError as error:
            return error.code
        return None

    def test_round_trip(self) -> None:
        self.assertIsNone(self.code(self.data))

    def test_its_size_is_counted_as_the_file_would_be(self) -> None:
        """A dry run counts state.json's length without making it."""
        snapshot = copy.deepcopy(self.state["snapshot"])
        snapshot["branches"][0]["summaries"][0]["text"] = 'Pr\u00fcfung \u5bc6 \U0001f600 "quoted" \\ tab\t'
        for state in (
            self.state,
            dict(self.state, snapshot=snapshot, tombstones=[f"t{i}" for i in range(500)]),
            dict(self.state, ledgerSha256="f" * 64),
        ):
            with self.subTest(tombstones=len(state["tombstones"])):
                self.assertEqual(cp.state_size(state), len(cp.state_bytes(state)))

    def test_other_version_is_unsupported(self) -> None:
        for version in (0, 1, 3, 99):
            changed = dict(self.state, stateSchemaVersion=version)
            self.assertEqual(self.code(cp.state_bytes(changed)), "state_schema_unsupported")

    def test_corruption(self) -> None:
        def changed(**fields: Any) -> bytes:
            return cp.state_bytes(dict(self.state, **fields))

        snapshot = copy.deepcopy(self.state["snapshot"])
        snapshot["branches"][0]["summaries"][0]["text"] = "Edited behind the adapter's back."
        high_water = copy.deepcopy(self.state["highWater"])
        high_water["child"]["sourceRevision"] = 7
        cases = {
            "truncated": self.data[:-20],
            "not json": b"\x00\x01",
            "array": b"[]",
            "version missing": cp.state_bytes({k: v for k, v in self.state.items() if k != "stateSchemaVersion"}),
            "version string": changed(stateSchemaVersion="1"),
            "extra key": changed(extra=1),
            "digest": changed(selectionDigest="0" * 64),
            "revision": changed(selectionRevision=2),
            "revision bool": changed(selectionRevision=True),
            "corpus": changed(corpusId="elsewhere"),
            "snapshot edited": changed(snapshot=snapshot),
            "high water": changed(highWater=high_water),
            "tombstone unsorted": changed(tombstones=["zz", "other"]),
            "tombstone bad id": changed(tombstones=["Other"]),
            "tombstone repeated": changed(tombstones=["other", "other"]),
            "tombstone empty": changed(tombstones=["", "other"]),
            "tombstone leading hyphen": changed(tombstones=["-x", "other"]),
            "tombstone too long": changed(tombstones=["other", "z" * 65]),
            "tombstone not a string": changed(tombstones=[1, "other"]),
            "tombstone underscore": changed(tombstones=["other", "x_y"]),
            "tombstones not a list": changed(tombstones={"other": 1}),
            "exclude not tombstoned": changed(tombstones=[]),
            "duplicate key": self.data.replace(b'"corpusId":"demo"', b'"corpusId":"demo","corpusId":"demo"'),
        }
        for name, data in cases.items():
            with self.subTest(name):
                self.assertEqual(self.code(data), "state_corrupt")

    def test_tombstones_may_exceed_selection_caps(self) -> None:
        tombstones = sorted({f"old-{i}" for i in range(10_000)} | set(self.state["tombstones"]))
        self.assertIsNone(self.code(cp.state_bytes(dict(self.state, tombstones=tombstones))))

    def test_snapshot_is_not_rescanned_for_secrets(self) -> None:
        snapshot = copy.deepcopy(self.state["snapshot"])
        snapshot["branches"][0]["summaries"][0]["text"] = "pass" + "word=Zx81" + "kq9Lm2 kept from an older rule set"
        state = cp._state_from(snapshot, cp.SelectionHashes(snapshot), self.state["highWater"], {"other"})
        self.assertIsNone(self.code(cp.state_bytes(state)))


class TestWhatAnUpdateChanges(TempDirTestCase):
    """The four change counts, against the state before the run."""

    def changes(self, state: Any, value: dict[str, Any]) -> tuple[int, int, int, int]:
        checked = accepted(value)
        new, _ = cp.reconcile(state, checked)
        return changes_of(cp.update_changes(state, checked, new))

    def test_first_use_counts_against_an_empty_state(self) -> None:
        self.assertEqual(self.changes(None, family()), (3, 0, 0, 0))
        self.assertEqual(self.changes(None, family(exclude=["other", "never-seen"])), (2, 0, 2, 0))

    def test_each_count_on_its_own(self) -> None:
        state, _ = cp.reconcile(None, accepted(family()))
        grown = family(2)
        grown["branches"].append(branch("new"))
        self.assertEqual(self.changes(state, grown), (1, 0, 0, 0))
        self.assertEqual(self.changes(state, family(2, child_revision=2, text="Corrected.")), (0, 1, 0, 0))
        omitted = family(2)
        del omitted["branches"][2]
        self.assertEqual(self.changes(state, omitted), (0, 0, 1, 0))
        self.assertEqual(self.changes(state, family(2, exclude=["other", "never-seen"])), (0, 0, 2, 0))
        excluded, _ = cp.reconcile(state, accepted(family(2, exclude=["other"])))
        self.assertEqual(self.changes(excluded, family(3, restore=["other"])), (0, 0, 0, 1))

    def test_a_withheld_branch_is_not_added(self) -> None:
        state, _ = cp.reconcile(None, accepted(family(exclude=["later"])))
        relisted = family(2)
        relisted["branches"].append(branch("later"))
        self.assertEqual(self.changes(state, relisted), (0, 0, 0, 0))
        self.assertEqual(self.changes(state, dict(relisted, restore=["later"])), (1, 0, 0, 1))

    def test_a_tombstone_already_there_is_not_counted_again(self) -> None:
        state, _ = cp.reconcile(None, accepted(family(exclude=["other"])))
        self.assertEqual(self.changes(state, family(2, exclude=["other"])), (0, 0, 0, 0))

    def test_a_lowered_revision_that_still_reconciles_is_no_change(self) -> None:
        state, _ = cp.reconcile(None, accepted(family(child_revision=3)))
        self.assertEqual(self.changes(state, family(2, child_revision=3)), (0, 0, 0, 0))

    def test_dry_run_is_the_plan_the_update_then_reports(self) -> None:
        self.assertEqual(changes_of(self.project(family())), (3, 0, 0, 0))
        plan = family(2, child_revision=2, text="Corrected.", exclude=["other"])
        plan["branches"].append(branch("new"))
        path = self.write_selection(plan)
        checked = run_standin(["--state-root", self.state, "--selection", path, "--dry-run"])
        self.assertResult(checked, "checked")
        built = run_standin(["--state-root", self.state, "--selection", path])
        self.assertResult(built, "built")
        self.assertEqual(changes_of(checked), (1, 1, 1, 0))
        self.assertEqual(changes_of(built), (1, 1, 1, 0))

    def test_rebuild_replay_and_dry_rebuild_change_nothing(self) -> None:
        self.assertResult(self.project(family()), "built")
        self.assertEqual(changes_of(self.project(family())), (0, 0, 0, 0))
        self.assertEqual(changes_of(self.rebuild()), (0, 0, 0, 0))
        dry = run_standin(["--state-root", self.state, "--dry-run"])
        self.assertResult(dry, "checked")
        self.assertEqual(changes_of(dry), (0, 0, 0, 0))

    def test_a_branch_left_out_by_mistake_shows_before_it_is_permanent(self) -> None:
        self.assertResult(self.project(family()), "built")
        mistake = family(2)
        del mistake["branches"][0]
        path = self.write_selection(mistake)
        before = self.read("state.json")
        checked = run_standin(["--state-root", self.state, "--selection", path, "--dry-run"])
        self.assertEqual(changes_of(checked), (0, 0, 1, 0))
        self.assertEqual(self.read("state.json"), before)


class TestStateReRead(unittest.TestCase):
    def test_a_state_with_exclude_and_restore_reads_back(self) -> None:
        state, _ = cp.reconcile(None, accepted(family(exclude=["child"])))
        state, _ = cp.reconcile(state, accepted(family(revision=2, exclude=["other"], restore=["child"])))
        self.assertEqual(cp.parse_state(cp.state_bytes(state)), state)

    def test_malformed_marks_and_restored_tombstones_are_corrupt(self) -> None:
        state, _ = cp.reconcile(None, accepted(family()))
        state, _ = cp.reconcile(state, accepted(selection(2, family()["branches"][:2])))
        self.assertIn("other", state["highWater"])  # no longer listed
        for mark in ({"sourceRevision": 0, "contentSha256": "0" * 64}, {"sourceRevision": 1}, []):
            with self.subTest(mark=mark):
                high_water = dict(state["highWater"], other=mark)
                with self.assertRaises(cp.ProjectionError) as caught:
                    cp.parse_state(cp.state_bytes(dict(state, highWater=high_water)))
                self.assertEqual(caught.exception.code, "state_corrupt")
        # A marked branch neither listed nor tombstoned: edited out of the ledger.
        untombstoned = dict(state, tombstones=[t for t in state["tombstones"] if t != "other"])
        with self.assertRaises(cp.ProjectionError) as caught:
            cp.parse_state(cp.state_bytes(untombstoned))
        self.assertEqual(caught.exception.code, "state_corrupt")
        restored, _ = cp.reconcile(state, accepted(family(revision=3, restore=["other"])))
        tampered = dict(restored, tombstones=["other"])
        with self.assertRaises(cp.ProjectionError) as caught:
            cp.parse_state(cp.state_bytes(tampered))
        self.assertEqual(caught.exception.code, "state_corrupt")

    def test_read_back_rules_that_acceptance_alone_cannot_break(self) -> None:
        """Edits whose digests and marks still agree with the snapshot: what
        the state reader itself must refuse, or read."""
        snapshot = accepted(family())
        gone = {f"gone-{i:03d}": {"sourceRevision": 1, "contentSha256": "0" * 64} for i in range(cp.BISECT_LOOKUPS + 6)}

        def state_of(edited: dict[str, Any], marks: dict[str, Any], tombstones: set[str]) -> bytes:
            return cp.state_bytes(cp._state_from(edited, cp.SelectionHashes(edited), marks, tombstones))

        def with_field(name: str, value: str) -> dict[str, Any]:
            edited = copy.deepcopy(snapshot)
            edited["branches"][0]["summaries"][0][name] = value
            return edited

        def with_text(text: str) -> dict[str, Any]:
            return with_field("text", text)

        england = cp.TAG_FLAGS[0]
        reversed_branches = cp.state_bytes(cp._state_from(snapshot, cp.SelectionHashes(snapshot), {}, set()))
        state = json.loads(reversed_branches)
        state["snapshot"]["branches"].reverse()
        cases = {
            "a subdivision flag": (state_of(with_text(f"Cheers {england}"), {}, set()), None),
            "a tag character": (state_of(with_text("Cheers" + chr(0xE0041)), {}, set()), "state_corrupt"),
            "a flag with a tag more": (state_of(with_text(england + chr(0xE0041)), {}, set()), "state_corrupt"),
            "one variation selector": (state_of(with_text("Love \u2764\ufe0f"), {}, set()), None),
            "a run of them": (state_of(with_text("Love \u2764\ufe0f\ufe0e"), {}, set()), "state_corrupt"),
            "many marks, each tombstoned": (state_of(snapshot, gone, set(gone)), None),
            "many marks, one not tombstoned": (state_of(snapshot, gone, set(gone) - {"gone-069"}), "state_corrupt"),
            "marks in a list": (cp.state_bytes(dict(json.loads(reversed_branches), highWater=[])), "state_corrupt"),
            "a snapshot without branches": (
                cp.state_bytes(dict(state, snapshot={k: v for k, v in snapshot.items() if k != "branches"})),
                "state_corrupt",
            ),
            "branches out of order": (cp.state_bytes(state), "state_corrupt"),
            "a summary ID that is no ID": (
                state_of(with_field("summaryId", "Not an ID"), {}, set()),
                "state_corrupt",
            ),
        }
        self.assertEqual(cp.parse_state(reversed_branches)["snapshot"], snapshot)
        for name, (data, code) in cases.items():
            with self.subTest(name):
                try:
                    cp.parse_state(data)
                except cp.ProjectionError as error:
                    self.assertEqual(error.code, code)
                else:
                    self.assertIsNone(code)

    def test_the_bounds_are_those_of_the_fullest_snapshot(self) -> None:
        """Keys, objects and texts of a snapshot with every field at its
        limit, counted in its canonical bytes, against the bounds; reduced to
        its structure, none of its other strings is left."""
        sources = [f"ref-{i:03d}" for i in range(cp.MAX_SOURCES_PER_BRANCH)]
        summaries = [
            summary(f"s-{i:03d}", "A plain text.", memoryRef=f"mem-{i:03d}") for i in range(cp.MAX_SUMMARIES_PER_BRANCH)
        ]
        fullest = branch("b-000", parent="b-001", sources=sources, summaries=summaries)
        ids = [f"x-{i:03d}" for i in range(cp.MAX_ID_LIST)]
        # Restore may name only tombstoned branches: for its shape, set after.
        one = dict(accepted(selection(1, [fullest, branch("b-001")], exclude=ids)), restore=ids)
        one["branches"] = one["branches"][:1]
        data = cp.canonical_bytes(one)
        per_branch = cp.canonical_bytes(one["branches"][0])
        rest = cp.MAX_BRANCHES - 1
        self.assertNotIn(b"\\", data)
        self.assertEqual(cp.MAX_SNAPSHOT_KEYS, data.count(b'":') + rest * per_branch.count(b'":'))
        self.assertEqual(cp.MAX_SNAPSHOT_OBJECTS, data.count(b"{") + rest * per_branch.count(b"{"))
        self.assertEqual(cp.MAX_STATE_TEXTS, data.count(b'"text":') + rest * per_branch.count(b'"text":'))
        items = len(one["exclude"]) + len(one["restore"]) + cp.MAX_BRANCHES * (1 + len(sources) + len(summaries))
        self.assertEqual(cp.MAX_STATE_ITEMS, cp.MAX_TOMBSTONES + items)
        with_texts = cp.canonical_bytes(one).replace(b'"A plain text."', b'"A text: [a, {b}]."')
        for snapshot, texts in ((data, 0), (with_texts, cp.MAX_SUMMARIES_PER_BRANCH)):
            reduced = snapshot.translate(None, cp.NOT_STRUCTURE_BYTES).replace(b'""', b"")
            self.assertEqual(reduced.count(b'"'), 2 * texts)

    def test_counts_far_past_a_bound_are_refused_before_any_split(self) -> None:
        """Past what even a snapshot's texts could add, or with more strings
        of brackets, commas or colons than a state has texts, no piece of
        the file is made; between, strings that hold none are no pieces."""
        size = 8 * 1024 * 1024
        bounds = dict(cp.state_bounds(size))
        far = {mark: bound + cp.MAX_SELECTION_BYTES + 1 for mark, bound in bounds.items()}
        far_past = {
            "arrays": b"[" * far[b"["],
            "objects": b"{" * far[b"{"],
            "keys": b":" * far[b":"],
            "items": b"0," * far[b","],
        }
        for name, data in far_past.items():
            with self.subTest(name), unittest.mock.patch.object(cp, "_blank_escapes", side_effect=AssertionError):
                self.assertIs(cp._more_than_a_state_holds(data.ljust(size)), True)
        keys = b":" * (bounds[b":"] + 1)
        with unittest.mock.patch.object(cp, "_outside_strings", side_effect=AssertionError):
            self.assertIs(cp._more_than_a_state_holds((keys + b'",",' * (cp.MAX_STATE_TEXTS + 1)).ljust(size)), True)
        split = cp._outside_strings

        def few_pieces(rest: bytes) -> list[bytes]:
            self.assertLessEqual(rest.count(b'"'), 2 * cp.MAX_STATE_TEXTS)
            return split(rest)

        with unittest.mock.patch.object(cp, "_outside_strings", side_effect=few_pieces) as pieces:
            for name, data in {
                "as many texts as a state has": keys + b'",",' * cp.MAX_STATE_TEXTS,
                "plain strings": keys + b'"x",' * 500_000,
                "keys and plain strings": keys.replace(b":", b'"k":"v",')[: size - 1024],
            }.items():
                with self.subTest(name):
                    self.assertIs(cp._more_than_a_state_holds(data.ljust(size)), True)
            self.assertEqual(pieces.call_count, 3)

    def test_containers_are_counted_outside_strings_only(self) -> None:
        size = 8 * 1024 * 1024
        bounds = dict(cp.state_bounds(size))
        arrays, objects = bounds[b"["], bounds[b"{"]
        self.assertEqual(arrays, cp.MAX_STATE_ARRAYS)
        self.assertEqual(objects, 2 + cp.MAX_SNAPSHOT_OBJECTS + size // cp.MIN_MARK_BYTES)
        inside = b'"' + b"[" * (arrays + 1) + b'\\"' + b"{" * (objects + 1) + b'"'
        cases = {
            "a bound's worth outside": (b"[" * arrays + b"{}" * objects + inside, False),
            "one array more": (b"[" * (arrays + 1) + inside, True),
            "one object more": (b"{" * (objects + 1) + inside, True),
            "after an escaped quote": (b'["\\"", ' + b"[]," * (arrays + 1) + b"]", True),
        }
        for name, (data, over) in cases.items():
            with self.subTest(name):
                self.assertIs(cp._more_than_a_state_holds(data.ljust(size)), over)

    def test_keys_are_bounded_by_the_size_of_the_state(self) -> None:
        """Outside strings a colon follows each key: no more than the
        snapshot's and three for each mark the bytes have room for."""
        size = 8 * 1024 * 1024
        keys = dict(cp.state_bounds(size))[b":"]
        marks = size // cp.MIN_MARK_BYTES
        self.assertEqual(keys, len(cp.STATE_FIELDS) + 1 + cp.MAX_SNAPSHOT_KEYS + 3 * marks)
        self.assertEqual(dict(cp.state_bounds(size))[b","], keys + cp.MAX_STATE_ITEMS)
        mark = cp.canonical_bytes({"a": {"contentSha256": "0" * 64, "sourceRevision": 1}})[1:-1]
        self.assertEqual(len(mark), cp.MIN_MARK_BYTES)
        inside = b'"' + b":" * 1000 + b'"'
        cases = {
            "a bound's worth outside": (b":" * keys + inside, False),
            "one key more": (b":" * (keys + 1) + inside, True),
            "one key more, among strings": (b'"x":' * (keys + 1), True),
        }
        for name, (data, over) in cases.items():
            with self.subTest(name):
                self.assertIs(cp._more_than_a_state_holds(data.ljust(size)), over)
        # However large the file, no more marks than the ledger has branches.
        most = cp.MAX_TOMBSTONES + cp.MAX_BRANCHES
        self.assertEqual(dict(cp.state_bounds(10**12))[b":"], keys - 3 * marks + 3 * most)
        self.assertEqual(dict(cp.state_bounds(10**12))[b"{"], 2 + cp.MAX_SNAPSHOT_OBJECTS + most)


class TestDryRunPastTheStateBound(TempDirTestCase):
    """A dry run answers state_limit exactly where the update would, and
    touches nothing; the bound itself is still accepted."""

    def setUp(self) -> None:
        super().setUp()
        self.assertEqual(execute(["--state-root", self.state, "--selection", self.write_selection(fixture())])[0], 0)
        self.committed = json.loads(self.read("state.json"))
        for name in ("MAX_TOMBSTONES", "MAX_STATE_BYTES"):
            self.addCleanup(setattr, cp, name, getattr(cp, name))

    def dry_run(self, value: dict[str, Any]) -> dict[str, Any]:
        before = snapshot_tree(self.state)
        exit_code, result = execute(
            ["--state-root", self.state, "--selection", self.write_selection(value), "--dry-run"]
        )
        self.assertEqual(exit_code, cp.CODES[result["code"]])
        self.assertEqual(snapshot_tree(self.state), before)
        self.assertNotIn("withdrawn", result)
        return result

    def test_tombstone_count(self) -> None:
        excluded = sorted({*fixture().get("exclude", []), "gone-1", "gone-2"})
        cp.MAX_TOMBSTONES = len(self.committed["tombstones"]) + 1
        self.assertEqual(self.dry_run(later(2, exclude=excluded))["code"], "state_limit")
        self.assertEqual(self.dry_run(later(2, exclude=excluded[:-1]))["code"], "checked")
        _, result = execute(
            ["--state-root", self.state, "--selection", self.write_selection(later(2, exclude=excluded))]
        )
        self.assertEqual((result["code"], result.get("withdrawn")), ("state_limit", True))
        self.assertEqual(json.loads(self.read("state.json")), self.committed)

    def committed_size(self, value: dict[str, Any]) -> int:
        """The size of the state.json that accepting ``value`` commits, by
        accepting it in a copy of the state."""
        copy = os.path.join(self.tmp, "copy")
        os.mkdir(copy, 0o700)
        with open(os.path.join(copy, "state.json"), "wb") as handle:
            handle.write(self.read("state.json"))
        self.assertEqual(execute(["--state-root", copy, "--selection", self.write_selection(value, "copy.json")])[0], 0)
        return len(self.read("state.json", state=copy))

    def test_serialized_size(self) -> None:
        grown = later(2)
        grown["branches"][0]["sourceRevision"] += 1
        grown["branches"][0]["summaries"][0]["text"] += " More words."
        size = self.committed_size(grown)
        self.assertGreater(size, len(self.read("state.json")))
        cp.MAX_STATE_BYTES = size - 1
        self.assertEqual(self.dry_run(grown)["code"], "state_limit")
        cp.MAX_STATE_BYTES = size
        self.assertEqual(self.dry_run(grown)["code"], "checked")
        cp.MAX_STATE_BYTES = len(self.read("state.json"))
        # A replay commits nothing, so it cannot pass a bound.
        self.assertEqual(self.dry_run(fixture())["code"], "checked")


if __name__ == "__main__":
    unittest.main()
