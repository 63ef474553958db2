"""state.json schema 2 (its ledger digest) and the explicit migration from
schema 1, against states written by adapter 0.1.0 itself.

tests/released/conversation_projection_0_1_0.py is that release, its code
byte for byte (four docstrings reworded); it runs here as a fresh `python -I` process, as a user's old install
would have, to write the schema-1 states these tests migrate.

Stdlib only: python -I tests/test_migration.py, or under pytest.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import unittest
import unittest.mock
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from cp_testlib import (
    RELEASED_MODULE,
    Result,
    TempDirTestCase,
    branch,
    cp,
    fixture,
    rehashed_as_written,
    released_pythons,
    run_module,
    run_released,
    run_standin_under,
    selection,
    snapshot_tree,
    summary,
)


def ledger_of(state: dict[str, Any]) -> str:
    content = {k: v for k, v in state.items() if k != "ledgerSha256"}
    encoded = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return hashlib.sha256(encoded).hexdigest()


def three_branches(revision: int, **extra: Any) -> dict[str, Any]:
    return selection(
        revision,
        [branch("parent", sources=["ref-a"]), branch("child", parent="parent"), branch("other")],
        **extra,
    )


class ReleasedState(TempDirTestCase):
    """A schema-1 state with a snapshot, tombstones and high-water marks,
    written by adapter 0.1.0: revision 1 lists three branches, revision 2
    leaves one out and excludes another."""

    def setUp(self) -> None:
        super().setUp()
        revisions = (
            three_branches(1, exclude=["never-listed"]),
            selection(2, [branch("parent", 2)], exclude=["child"]),
        )
        for value in revisions:
            result = run_released(["--state-root", self.state, "--selection", self.write_selection(value)])
            self.assertIn(result.code, ("built", "graphify_missing"))
        self.old_bytes = self.read("state.json")
        self.old = json.loads(self.old_bytes)
        self.assertEqual(self.old["stateSchemaVersion"], 1)
        self.assertEqual(self.old["tombstones"], ["child", "never-listed", "other"])

    def migrate(self) -> Result:
        return self.run_cli(["--state-root", self.state, "--migrate"], "ok")


class TestMigration(ReleasedState):
    def test_migrate_keeps_snapshot_tombstones_and_high_water(self) -> None:
        self.assertResult(self.migrate(), "built", more={"migratedFrom": 1})
        new = json.loads(self.read("state.json"))
        self.assertEqual(new["stateSchemaVersion"], 2)
        self.assertEqual(new["ledgerSha256"], ledger_of(new))
        for name in ("corpusId", "selectionRevision", "selectionDigest", "snapshot", "highWater", "tombstones"):
            self.assertEqual(new[name], self.old[name], name)
        self.assertEqual(set(new), set(self.old) | {"ledgerSha256"})
        self.assertResult(self.verify(), "verified")

    def test_migrated_ledger_still_guards_replays(self) -> None:
        self.assertResult(self.migrate(), "built", more={"migratedFrom": 1})
        # An older selection stays stale; a tombstoned branch listed again
        # stays out; a branch below its high-water mark is refused.
        self.assertResult(self.project(three_branches(1)), "revision_stale", at="/revision", withdrawn=True)
        relisted = self.project(selection(3, [branch("parent", 2), branch("child", parent="parent")]))
        self.assertResult(relisted, "built")
        self.assertEqual(relisted.json["withheldBranches"], 1)
        self.assertResult(
            self.project(selection(4, [branch("parent", 1)])),
            "source_revision_conflict",
            at="/branches/0/sourceRevision",
            withdrawn=True,
        )

    def test_migrate_on_schema_2_is_a_plain_rebuild(self) -> None:
        self.assertResult(self.migrate(), "built", more={"migratedFrom": 1})
        committed = self.read("state.json")
        graph = self.read("graph.json")
        self.assertResult(self.migrate(), "built")
        self.assertEqual(self.read("state.json"), committed)
        self.assertEqual(self.read("graph.json"), graph)

    def test_every_other_invocation_changes_nothing(self) -> None:
        before = snapshot_tree(self.state)
        newer = self.write_selection(selection(3, [branch("parent", 3)]), "newer.json")
        invalid = self.write_selection(b"{", "invalid.json")
        runs = {
            "rebuild": self.rebuild,
            "update": lambda: self.run_cli(["--state-root", self.state, "--selection", newer], "ok"),
            "invalid update": lambda: self.run_cli(["--state-root", self.state, "--selection", invalid], "ok"),
            "dry run": lambda: run_module(["--state-root", self.state, "--selection", newer, "--dry-run"]),
            "verify": self.verify,
        }
        for name, action in runs.items():
            with self.subTest(name):
                self.assertResult(action(), "state_schema_unsupported", more={"stateSchemaVersion": 1})
                self.assertEqual(snapshot_tree(self.state), before)

    def test_migrate_goes_with_nothing_else(self) -> None:
        path = self.write_selection(fixture())
        before = snapshot_tree(self.state)
        for extra in (["--selection", path], ["--verify"], ["--dry-run"], ["--migrate"]):
            with self.subTest(extra=extra):
                self.assertResult(run_module(["--state-root", self.state, "--migrate", *extra]), "usage")
        self.assertEqual(snapshot_tree(self.state), before)

    def test_an_unknown_schema_is_refused_by_migrate_too(self) -> None:
        with open(os.path.join(self.state, "state.json"), "wb") as handle:
            handle.write(self.old_bytes.replace(b'"stateSchemaVersion":1', b'"stateSchemaVersion":3'))
        before = snapshot_tree(self.state)
        self.assertResult(self.migrate(), "state_schema_unsupported")
        self.assertResult(self.rebuild(), "state_schema_unsupported")
        self.assertEqual(snapshot_tree(self.state), before)

    def test_a_schema_1_state_is_validated_as_0_1_0_did(self) -> None:
        # Deleting a tombstone leaves a marked branch neither listed nor
        # tombstoned: adapter 0.1.0 refused that, and so does the migration.
        edited = self.old_bytes.replace(b'"tombstones":["child","never-listed","other"]', b'"tombstones":["child"]')
        self.assertNotEqual(edited, self.old_bytes)
        with open(os.path.join(self.state, "state.json"), "wb") as handle:
            handle.write(edited)
        self.assertResult(self.migrate(), "state_corrupt", withdrawn=True)
        self.assertEqual(self.read("state.json"), edited)
        self.assertEqual(self.entries(), ["state.json"])

    def test_migrate_without_a_state(self) -> None:
        missing = os.path.join(self.tmp, "missing")
        self.assertResult(self.run_cli(["--state-root", missing, "--migrate"], "ok"), "state_missing")
        self.assertFalse(os.path.lexists(missing))

    def test_migrate_takes_the_lock(self) -> None:
        with open(os.path.join(self.state, "projection.lock"), "w") as handle:
            handle.write("1\n")
        before = snapshot_tree(self.state)
        self.assertResult(self.migrate(), "state_locked")
        self.assertEqual(snapshot_tree(self.state), before)


# What adapter 0.1.0 itself calls visible under the Python that runs this:
# the ranges of code points its has_visible_character accepts alone.
RELEASED_VISIBLE = """
import importlib.util, sys
spec = importlib.util.spec_from_file_location("released", sys.argv[1])
released = importlib.util.module_from_spec(spec)
spec.loader.exec_module(released)
ranges, start = [], None
for code in range(0x110001):
    visible = code < 0x110000 and not 0xD800 <= code <= 0xDFFF and released.has_visible_character(chr(code))
    if visible and start is None:
        start = code
    elif not visible and start is not None:
        ranges.append(f"{start:X}-{code - 1:X}")
        start = None
print(" ".join(ranges))
"""


def code_points(table: str) -> set[int]:
    return {code for _key, first, last in cp.unicode_ranges(table) for code in range(first, last + 1)}


class TestEveryReleasedStateMigrates(TempDirTestCase):
    """--migrate accepts every state adapter 0.1.0 accepted, under whichever
    CPython (3.11 to 3.13) it ran, and a state within 0.1.0's bound stays
    readable once its digest is added.  Proven with 0.1.0 itself, run under
    each of those CPythons the machine has."""

    def setUp(self) -> None:
        super().setUp()
        self.pythons = released_pythons()

    def migrate(self) -> Result:
        return self.run_cli(["--state-root", self.state, "--migrate"], "ok")

    def released_visible(self, python: str) -> set[int]:
        done = subprocess.run([python, "-I", "-c", RELEASED_VISIBLE, RELEASED_MODULE], capture_output=True, check=True)
        return code_points(done.stdout.decode())

    def test_what_0_1_0_called_visible_under_any_cpython_reads_back(self) -> None:
        tables = code_points(cp.UCD_VISIBLE)
        added = code_points(cp.VISIBLE_IN_OTHER_UNICODE)
        beyond_tables: set[int] = set()
        for minor, python in sorted(self.pythons.items()):
            with self.subTest(python=f"3.{minor}"):
                visible = self.released_visible(python)
                self.assertGreater(len(visible), 140_000)
                beyond_tables |= visible - tables
                # Each character 0.1.0 accepted alone is visible in a state read back.
                unread = [c for c in sorted(visible) if not cp.has_visible_character(chr(c), read_back=True)]
                self.assertEqual(unread, [])
        self.assertLessEqual(beyond_tables, added)
        if 13 in self.pythons:
            self.assertEqual(beyond_tables, added)
        # A selection being accepted is still judged by the tables alone.
        self.assertFalse(cp.has_visible_character("\u2ffc\u2ffd"))
        self.assertTrue(cp.has_visible_character("\u2ffc\u2ffd", read_back=True))
        self.assertFalse(cp.has_visible_character("\u200b\u0301", read_back=True))

    def test_a_text_0_1_0_took_as_visible_under_3_13_migrates_under_each(self) -> None:
        if 13 not in self.pythons:
            self.skipTest("no CPython 3.13 on this machine")
        value = selection(1, [branch("ideographs", summaries=[summary("s1", "\u2ffc\u2ffd")]), branch("plain")])
        path = self.write_selection(value)
        if 11 in self.pythons:
            # Unicode 14.0 had not assigned them: 0.1.0 under 3.11 refused the text.
            refused = run_released(["--state-root", self.state, "--selection", path], python=self.pythons[11])
            self.assertResult(refused, "selection_schema", at="/branches/0/summaries/0/text")
            self.assertFalse(os.path.lexists(self.state))
        written = run_released(["--state-root", self.state, "--selection", path], python=self.pythons[13])
        self.assertIn(written.code, ("built", "graphify_missing"))
        old = json.loads(self.read("state.json"))
        self.assertEqual(old["stateSchemaVersion"], 1)
        # Under this adapter's own rules a new selection with that text is refused.
        fresh = os.path.join(self.tmp, "fresh")
        self.assertResult(self.project(value, state=fresh), "selection_schema", at="/branches/0/summaries/0/text")
        for minor, python in sorted(self.pythons.items()):
            with self.subTest(python=f"3.{minor}"):
                copy = os.path.join(self.tmp, f"copy-3.{minor}")
                shutil.copytree(self.state, copy)
                migrated = run_standin_under(python, ["--state-root", copy, "--migrate"])
                self.assertResult(migrated, "built", more={"migratedFrom": 1})
                new = json.loads(self.read("state.json", state=copy))
                self.assertEqual(new["snapshot"], old["snapshot"])
                self.assertResult(run_standin_under(python, ["--state-root", copy]), "built")
                self.assertResult(self.verify(state=copy), "verified")

    def test_a_schema_1_state_at_the_bound_stays_readable(self) -> None:
        """A schema-1 state of exactly MAX_STATE_BYTES, read by 0.1.0
        itself under each CPython, migrates, and the migrated state (82
        bytes longer: its digest) rebuilds and verifies."""
        data = schema_1_state_of(cp.MAX_STATE_BYTES)
        self.assertEqual(len(data), cp.MAX_STATE_BYTES)
        os.mkdir(self.state, 0o700)
        with open(os.path.join(self.state, "state.json"), "wb") as handle:
            handle.write(data)
        for minor, python in sorted(self.pythons.items()):
            with self.subTest(released_under=f"3.{minor}"):
                read = run_released(["--state-root", self.state], python=python)
                self.assertIn(read.code, ("built", "graphify_missing"))
        for name in os.listdir(self.state):
            if name != "state.json":
                os.unlink(os.path.join(self.state, name))
        self.assertEqual(self.read("state.json"), data)
        self.assertResult(self.migrate(), "built", more={"migratedFrom": 1})
        migrated = self.read("state.json")
        self.assertEqual(len(migrated), cp.MAX_STATE_BYTES + cp.LEDGER_PAIR_BYTES)
        self.assertEqual(cp.LEDGER_PAIR_BYTES, 82)
        self.assertEqual(
            {k: v for k, v in json.loads(migrated).items() if k not in ("ledgerSha256", "stateSchemaVersion")},
            {k: v for k, v in json.loads(data).items() if k != "stateSchemaVersion"},
        )
        self.assertResult(self.rebuild(), "built")
        self.assertResult(self.verify(), "verified")
        # One byte more than 0.1.0 read is still refused, as 0.1.0 refused it.
        with open(os.path.join(self.state, "state.json"), "wb") as handle:
            handle.write(data[:-1] + b" \n")
        self.assertResult(self.migrate(), "state_corrupt", withdrawn=True)


def schema_1_state_of(size: int) -> bytes:
    """A valid schema-1 state.json of exactly ``size`` bytes, as 0.1.0
    wrote them: a small snapshot and many tombstoned branches with marks,
    the last summary's text grown to the exact length."""
    mark = {"sourceRevision": 3, "contentSha256": "a" * 64}

    def state_of(count: int, text: str) -> bytes:
        value = selection(1, [branch("seed", summaries=[summary("s1", text)])])
        snapshot = cp.validate_selection(value)
        ids = [f"gone-{i:058d}" for i in range(count)]
        state = cp._state_from(snapshot, cp.SelectionHashes(snapshot), dict.fromkeys(ids, mark), ids)
        state["stateSchemaVersion"] = 1
        return cp.canonical_bytes(state) + b"\n"

    per_entry = len(state_of(2, "x")) - len(state_of(1, "x"))
    count = (size - len(state_of(0, "x")) - 1000) // per_entry
    short = state_of(count, "x")
    grown = state_of(count, "x" * (1 + size - len(short)))
    assert len(grown) == size, len(grown)
    return grown


class TestLedgerDigest(ReleasedState):
    """Hand edits of a schema-2 state.json, made as text: each is refused."""

    def setUp(self) -> None:
        super().setUp()
        self.assertResult(self.migrate(), "built", more={"migratedFrom": 1})
        self.good = self.read("state.json")

    def assert_corrupt(self, edited: bytes) -> None:
        self.assertNotEqual(edited, self.good)
        with open(os.path.join(self.state, "state.json"), "wb") as handle:
            handle.write(edited)
        self.assertResult(self.verify(), "state_corrupt")
        self.assertResult(self.rebuild(), "state_corrupt", withdrawn=True)
        self.assertResult(self.migrate(), "state_corrupt", withdrawn=True)
        self.assertEqual(self.read("state.json"), edited)
        self.assertEqual(self.entries(), ["state.json"])

    def test_a_deleted_tombstone(self) -> None:
        # "never-listed" was never listed: no other rule can see it gone.
        self.assert_corrupt(self.good.replace(b'"child","never-listed","other"', b'"child","other"'))

    def test_a_lowered_high_water_mark(self) -> None:
        new = json.loads(self.good)
        self.assertEqual(new["highWater"]["parent"]["sourceRevision"], 2)
        mark = json.dumps(new["highWater"]["parent"], sort_keys=True, separators=(",", ":")).encode()
        self.assert_corrupt(self.good.replace(mark, mark.replace(b'"sourceRevision":2', b'"sourceRevision":1')))

    def test_a_flipped_digit(self) -> None:
        digest = json.loads(self.good)["highWater"]["other"]["contentSha256"].encode()
        flipped = digest[:10] + (b"0" if digest[10:11] != b"0" else b"1") + digest[11:]
        self.assert_corrupt(self.good.replace(digest, flipped))

    def test_a_missing_or_malformed_digest(self) -> None:
        recorded = json.loads(self.good)["ledgerSha256"].encode()
        for edited in (
            self.good.replace(b'"ledgerSha256":"' + recorded + b'",', b""),
            self.good.replace(recorded, recorded.upper()),
        ):
            with self.subTest(edited=edited[:0]):
                self.assert_corrupt(edited)
                with open(os.path.join(self.state, "state.json"), "wb") as handle:
                    handle.write(self.good)

    def test_a_reformatted_state_with_its_digest_still_reads(self) -> None:
        """The digest covers the canonical form, not the bytes: the same
        content written otherwise is read (up to 1 MiB)."""
        pretty = json.dumps(json.loads(self.good), indent=2, ensure_ascii=True).encode() + b"\n"
        with open(os.path.join(self.state, "state.json"), "wb") as handle:
            handle.write(pretty)
        self.assertResult(self.rebuild(), "built")
        self.assertResult(self.verify(), "verified")

    def test_the_digest_covers_exactly_the_other_fields(self) -> None:
        self.assertEqual(json.loads(self.good)["ledgerSha256"], ledger_of(json.loads(self.good)))
        self.assertEqual(cp.state_bytes(cp.parse_state(self.good)), self.good)


class TestStateAsWritten(unittest.TestCase):
    """Bytes as the adapter writes them are checked by one hash before any
    decoding; other bytes of the same content are decoded only when small."""

    def state(self, tombstones: int) -> dict[str, Any]:
        snapshot = cp.validate_selection(fixture())
        ledger = {f"t{i:06d}" for i in range(tombstones)} | set(snapshot["exclude"])
        return cp._state_from(snapshot, cp.SelectionHashes(snapshot), {}, ledger)

    def assert_refused(self, data: bytes, code: str) -> None:
        with self.assertRaises(cp.ProjectionError) as caught:
            cp.parse_state(data)
        self.assertEqual(caught.exception.code, code)

    def forged(self, edited: bytes) -> bytes:
        forged = rehashed_as_written(edited)
        self.assertTrue(cp.ledger_as_written(forged))
        return forged

    def test_a_reformatted_state_of_any_size_is_read(self) -> None:
        for tombstones in (10, 120_000):
            with self.subTest(tombstones=tombstones):
                state = self.state(tombstones)
                data = cp.state_bytes(state)
                self.assertEqual(cp.parse_state(data), state)
                spaced = data.replace(b',"tombstones":[', b', "tombstones": [')
                self.assertEqual(cp.parse_state(spaced), state)
                indented = json.dumps(json.loads(data), indent=2).encode()
                self.assertGreater(len(indented), 1024 * 1024 if tombstones > 10 else 0)
                self.assertEqual(cp.parse_state(indented), state)
                self.assert_refused(indented.replace(b'"t000001"', b'"t000002"', 1), "state_corrupt")

    def test_a_lone_surrogate_in_a_reformatted_state_is_corrupt(self) -> None:
        """Its canonical form cannot be encoded to hash it: state_corrupt,
        never an error of the encoder."""
        state = self.state(10)
        indented = json.dumps(json.loads(cp.state_bytes(state)), indent=1).encode()
        text = json.dumps(state["snapshot"]["branches"][0]["summaries"][0]["text"]).encode()
        self.assertIn(text, indented)
        self.assert_refused(indented.replace(text, b'"\\ud800"', 1), "state_corrupt")
        # As written, with its digest made again over the bytes: the same.
        self.assert_refused(self.forged(cp.state_bytes(state).replace(text, b'"\\ud800"', 1)), "state_corrupt")

    def test_a_large_state_with_a_wrong_digest_is_refused(self) -> None:
        state = self.state(120_000)
        data = cp.state_bytes(state)
        self.assert_refused(data.replace(b"t000001", b"t000002", 1), "state_corrupt")
        # Without its last line feed it is the same content: read.
        self.assertEqual(cp.parse_state(data[:-1]), state)
        schema_1 = data.replace(b'"stateSchemaVersion":2', b'"stateSchemaVersion":1')
        self.assert_refused(schema_1, "state_schema_unsupported")

    def test_the_schema_is_read_from_the_bytes_as_written(self) -> None:
        """What lets a state as written skip the strict decode: its version,
        found without decoding, and only in the canonical layout."""
        data = cp.state_bytes(self.state(10))
        self.assertEqual(cp.written_schema(data), 2)
        self.assertEqual(cp.written_schema(data.replace(b'"stateSchemaVersion":2', b'"stateSchemaVersion":1')), 1)
        self.assertEqual(cp.written_schema(data.replace(b'"stateSchemaVersion":2', b'"stateSchemaVersion":12')), 12)
        for other in (b'"stateSchemaVersion": 2', b'"stateSchemaVersion":02', b'"stateSchemaVersion":"2"', b'"x":2'):
            with self.subTest(other=other):
                self.assertIsNone(cp.written_schema(data.replace(b'"stateSchemaVersion":2', other)))

    def test_bytes_that_repeat_a_key_are_refused_whatever_their_digest(self) -> None:
        """A digest recomputed over the bytes as written, not over their
        canonical form, does not make a repeated key read (the last one
        would win: here an empty ledger)."""
        data = cp.state_bytes(self.state(10))
        repeated = (data[:-2] + b',"tombstones":[]}\n', data.replace(b'"highWater":{', b'"highWater":{},"highWater":{'))
        for edited in repeated:
            with self.subTest(edited=edited[-40:]):
                self.assert_refused(self.forged(edited), "state_corrupt")

    def test_a_state_whose_texts_hold_what_the_bounds_count_is_read(self) -> None:
        """Brackets, quotes and colons in summary texts lift the counts past
        the bounds: the count outside strings must then read the state,
        canonical or reformatted, whatever its digest path."""
        text = '{[":' * (cp.MAX_TEXT_CHARS // 4)
        branches = [branch(f"b-{b:03d}", summaries=[summary(f"s-{i:03d}", text) for i in range(100)]) for b in range(5)]
        snapshot = cp.validate_selection(selection(1, branches))
        marks = {f"m{i:06d}": {"sourceRevision": 1, "contentSha256": "0" * 64} for i in range(30_000)}
        state = cp._state_from(snapshot, cp.SelectionHashes(snapshot), marks, set(marks))
        data = cp.state_bytes(state)
        indented = json.dumps(json.loads(data), indent=1).encode()
        for name, written in (("canonical", data), ("indented", indented)):
            with self.subTest(name):
                over = [mark for mark, bound in cp.state_bounds(len(written)) if written.count(mark) > bound]
                self.assertEqual(over, [b"[", b"{"])
                self.assertFalse(cp._more_than_a_state_holds(written))
                self.assertEqual(cp.parse_state(written), state)

    def test_no_number_a_state_cannot_hold_reads_on_either_path(self) -> None:
        """NaN, Infinity, a float, a number too long or a mark past the
        highest revision: state_corrupt, digest recomputed or stale."""
        state = self.state(10)
        state["highWater"] = {"t000003": {"sourceRevision": 1, "contentSha256": "0" * 64}} | state["highWater"]
        data = cp.state_bytes(dict(state, highWater=dict(sorted(state["highWater"].items()))))
        self.assertEqual(cp.parse_state(data)["highWater"]["t000003"]["sourceRevision"], 1)
        mark = b'"t000003":{"contentSha256":"' + b"0" * 64 + b'","sourceRevision":1}'
        self.assertIn(mark, data)
        edits = {
            "NaN": b'"tombstones":[NaN,',
            "-Infinity": b'"tombstones":[-Infinity,',
            "a float": b'"tombstones":[1.5,',
            "a float too large": b'"tombstones":[1e999,',
            "a long number": b'"tombstones":[' + b"1" * 40 + b",",
        }
        edited = {name: data.replace(b'"tombstones":[', edit, 1) for name, edit in edits.items()}
        for revision in (cp.MAX_REVISION + 1, 2**60, 10**40):
            edited[f"a mark of {revision}"] = data.replace(mark, mark.replace(b":1}", b":%d}" % revision))
        edited["a mark of 1.0"] = data.replace(mark, mark.replace(b":1}", b":1.0}"))
        self.assertEqual(len(set(edited.values()) | {data}), len(edited) + 1)
        for name, written in edited.items():
            for digest in ("recomputed", "stale"):
                with self.subTest(name, digest=digest):
                    self.assert_refused(self.forged(written) if digest == "recomputed" else written, "state_corrupt")
        highest = data.replace(mark, mark.replace(b":1}", b":%d}" % cp.MAX_REVISION))
        self.assertEqual(
            cp.parse_state(self.forged(highest))["highWater"]["t000003"]["sourceRevision"], cp.MAX_REVISION
        )

    def test_bytes_that_hold_more_than_a_state_are_refused_before_decoding(self) -> None:
        """A digest recomputed over the bytes proves nothing about their
        shape: arrays, objects or keys past what a state of their size can
        hold are refused before json decodes them, digest matched or not."""
        data = cp.state_bytes(self.state(10))
        size = 8 * 1024 * 1024
        bounds = dict(cp.state_bounds(size))
        shapes = {
            "arrays": b"[" * 2 + b"[],".join([b""] * bounds[b"["]) + b"]" * 2,
            "objects": b"[" + b",".join([b"{}"] * bounds[b"{"]) + b"]",
            "keys in one object": b"{" + b",".join(b'"%x":0' % i for i in range(bounds[b":"])) + b"}",
        }
        for name, filler in shapes.items():
            edited = data.replace(b'"tombstones":[', b'"tombstones":[' + filler + b",", 1)
            edited = edited.replace(b'"tombstones":[', b'"tombstones":[' + b" " * (size - len(edited)), 1)
            self.assertGreater(len(edited), size - 1)
            for digest in ("recomputed", "stale"):
                with self.subTest(name, digest=digest):
                    written = self.forged(edited) if digest == "recomputed" else edited
                    self.assertTrue(cp._more_than_a_state_holds(written))
                    with unittest.mock.patch("json.loads", side_effect=AssertionError("decoded")):
                        self.assert_refused(written, "state_corrupt")


class TestBulkLedgerChecks(unittest.TestCase):
    """The ledger's shape is checked in bulk, over joined values; each bulk
    check must agree with the per-value rule it stands for."""

    def test_ids_agree_with_is_id(self) -> None:
        rng = random.Random(17)
        alphabet = "az09-_A\n é"
        samples = ["", "a", "-", "a" * 64, "a" * 65, "0-", "-0", "a\nb"]
        samples += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 5))) for _ in range(2000)]
        for value in samples:
            with self.subTest(value=value):
                self.assertEqual(cp._ids_well_formed([value]), cp.is_id(value))
                self.assertEqual(cp._ids_well_formed(["b", value]), cp.is_id(value))
                self.assertEqual(cp._ids_well_formed([value, "b"]), cp.is_id(value))
        for values in ([1], ["a", None], [["a"]], ["a", b"b"]):
            with self.subTest(values=values):
                self.assertFalse(cp._ids_well_formed(values))

    def test_high_water_digests_agree_with_is_sha256(self) -> None:
        good = "0" * 64
        for digest in (good, good[:-1], good + "0", "A" * 64, "g" * 64, good[:-1] + "\n", 64):
            with self.subTest(digest=digest):
                marks = {
                    "a": {"sourceRevision": 1, "contentSha256": digest},
                    "b": {"sourceRevision": 2, "contentSha256": good},
                }
                self.assertEqual(cp._high_water_well_formed(marks), cp.is_sha256(digest))

    def test_a_mark_is_exactly_a_positive_revision_and_a_digest(self) -> None:
        good = {"sourceRevision": 1, "contentSha256": "0" * 64}
        self.assertTrue(cp._high_water_well_formed({"a": good, "b": dict(good)}))
        marks = {
            "a field more": dict(good, note="x"),
            "revision missing": {"contentSha256": "0" * 64},
            "digest missing": {"sourceRevision": 1},
            "a field renamed": {"sourceRevision": 1, "contentSHA256": "0" * 64},
            "two fields, neither": {"revision": 1, "sha256": "0" * 64},
            "empty": {},
            "a list": [1, "0" * 64],
            "revision zero": dict(good, sourceRevision=0),
            "revision true": dict(good, sourceRevision=True),
            "revision text": dict(good, sourceRevision="1"),
        }
        for name, mark in marks.items():
            with self.subTest(name):
                self.assertIs(cp._high_water_well_formed({"a": good, "b": mark}), False)
        for not_a_map in ([good], None, "a"):
            with self.subTest(not_a_map=not_a_map):
                self.assertIs(cp._high_water_well_formed(not_a_map), False)

    def test_tombstones_must_strictly_increase(self) -> None:
        self.assertTrue(cp._tombstones_well_formed(["a", "b", "c"]))
        for tombstones in (["b", "a"], ["a", "a"], ["a", "c", "b"]):
            with self.subTest(tombstones=tombstones):
                self.assertFalse(cp._tombstones_well_formed(tombstones))


if __name__ == "__main__":
    unittest.main()
