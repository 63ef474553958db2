"""Publication: the order of an update, what a dry run and --verify read, what a refusal
withdraws.

Run: python -I tests/test_publication.py
"""

from __future__ import annotations

import copy
import json
import os
import stat
import sys
import unittest

# -I leaves the script's own directory off sys.path.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from cp_testlib import (
    DERIVED,
    PUBLISHED,
    TempDirTestCase,
    branch,
    cp,
    family,
    fixture,
    mutated,
    run_module,
    run_standin,
    selection,
    snapshot_tree,
)


class TestLifecycle(TempDirTestCase):
    def test_first_build_publishes_four_owner_only_files(self) -> None:
        result = self.project(fixture())
        self.assertResult(result, "built")
        self.assertEqual(self.entries(), PUBLISHED)
        if os.name == "posix":
            self.assertEqual(stat.S_IMODE(os.stat(self.state).st_mode), 0o700)
            for name in PUBLISHED:
                self.assertEqual(stat.S_IMODE(os.stat(os.path.join(self.state, name)).st_mode), 0o600, name)
        receipt = json.loads(self.read("receipt.json"))
        self.assertEqual(
            receipt,
            {
                "adapterVersion": cp.ADAPTER_VERSION,
                "contextGraph": "unknown-owner",
                "embeddingIdentity": "none",
                "extractionSha256": cp.sha256_hex(self.read("extraction.json")),
                "graphSha256": cp.sha256_hex(self.read("graph.json")),
                "graphifyVersion": "0.0.0+standin",
                "projectionSchemaVersion": 1,
                "selectionDigest": result.json["selectionDigest"],
                "selectionRevision": 1,
            },
        )
        self.assertEqual(json.loads(self.read("graph.json"))["built_at_commit"], result.json["selectionDigest"])
        self.assertEqual(result.json["graphifyVersion"], "0.0.0+standin")
        self.assertEqual(json.loads(self.read("state.json"))["selectionDigest"], result.json["selectionDigest"])
        self.assertResult(self.verify(), "verified")

    def test_an_empty_selection_builds_and_its_state_is_read_again(self) -> None:
        """No branch, no high-water mark: the ledger of an empty selection
        is as valid as any, for --verify and for the next update."""
        value = fixture()
        self.assertResult(self.project({**value, "branches": []}), "built")
        self.assertResult(self.verify(), "verified")
        self.assertResult(self.project({**value, "revision": value["revision"] + 1}), "built")

    def test_digest_is_sha256_of_the_canonical_form(self) -> None:
        result = self.project(fixture())
        canonical = cp.validate_selection(fixture())
        expected = json.dumps(canonical, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        self.assertEqual(result.json["selectionDigest"], cp.sha256_hex(expected.encode("utf-8")))

    def test_replay_keeps_state_and_rebuilds_identical_files(self) -> None:
        self.assertResult(self.project(fixture()), "built")
        before = {name: self.read(name) for name in PUBLISHED}
        state_inode = os.stat(os.path.join(self.state, "state.json")).st_ino
        reordered = fixture()
        reordered["branches"].reverse()
        path = self.write_selection(json.dumps(reordered, indent=7).encode(), "reordered.json")
        result = run_standin(["--state-root", self.state, "--selection", path])
        self.assertResult(result, "built")
        self.assertEqual({name: self.read(name) for name in PUBLISHED}, before)
        self.assertEqual(os.stat(os.path.join(self.state, "state.json")).st_ino, state_inode)

    def test_rebuild_without_selection(self) -> None:
        self.assertResult(self.project(fixture()), "built")
        before = {name: self.read(name) for name in PUBLISHED}
        self.assertResult(self.rebuild(), "built")
        self.assertEqual({name: self.read(name) for name in PUBLISHED}, before)

    def test_rebuild_with_no_state(self) -> None:
        self.assertResult(self.rebuild(), "state_missing")
        self.assertFalse(os.path.exists(self.state))
        os.mkdir(self.state, 0o700)
        # An update that got past the ownership checks withdrew (nothing, here).
        self.assertResult(self.rebuild(), "state_missing", withdrawn=True)
        self.assertEqual(self.entries(), [])

    def test_invalid_selection_keeps_state_and_removes_derived(self) -> None:
        self.assertResult(self.project(family()), "built")
        state_before = self.read("state.json")
        for value, code, at in (
            (mutated(lambda v: v.update(raw="x")), "selection_unknown_field", ""),
            (family(text="Changed at the same revision."), "revision_stale", "/revision"),
            (family(revision=2, corpus="elsewhere"), "corpus_mismatch", "/corpusId"),
        ):
            with self.subTest(code):
                self.assertResult(self.rebuild(), "built")
                self.assertResult(self.project(value), code, at=at, withdrawn=True)
                self.assertEqual(self.entries(), ["state.json"])
                self.assertEqual(self.read("state.json"), state_before)

    def test_correction_flow(self) -> None:
        self.assertResult(self.project(family()), "built")
        self.assertResult(
            self.project(family(revision=2, text="Corrected.")),
            "source_revision_conflict",
            at="/branches/1/sourceRevision",
            withdrawn=True,
        )
        self.assertResult(self.project(family(revision=2, child_revision=2, text="Corrected.")), "built")
        graph = json.loads(self.read("graph.json"))
        labels = {n["id"]: n["label"] for n in graph["nodes"]}
        self.assertEqual(labels["branch:child:summary:s1"], "user: Corrected.")
        self.assertResult(
            self.project(family(revision=3, child_revision=1)),
            "source_revision_conflict",
            at="/branches/1/sourceRevision",
            withdrawn=True,
        )

    def test_exclude_restore_flow(self) -> None:
        self.assertResult(self.project(family()), "built")
        result = self.project(family(revision=2, exclude=["child"]))
        self.assertResult(result, "built")
        self.assertEqual((result.json["tombstones"], result.json["branches"]), (1, 2))
        ids = {n["id"] for n in json.loads(self.read("graph.json"))["nodes"]}
        self.assertNotIn("branch:child", ids)
        self.assertNotIn("source:ref-b", ids)
        self.assertIn("source:ref-a", ids)
        self.assertResult(self.project(family(revision=3)), "built")
        self.assertNotIn("branch:child", {n["id"] for n in json.loads(self.read("graph.json"))["nodes"]})
        self.assertResult(self.project(family(revision=1)), "revision_stale", at="/revision", withdrawn=True)
        self.assertResult(self.project(family(revision=4, restore=["child"])), "built")
        self.assertIn("branch:child", {n["id"] for n in json.loads(self.read("graph.json"))["nodes"]})
        self.assertResult(
            self.project(family(revision=5, restore=["child"])), "selection_conflict", at="/restore/0", withdrawn=True
        )

    def test_omission_is_remembered_by_rebuild(self) -> None:
        self.assertResult(self.project(family()), "built")
        self.assertResult(self.project(selection(2, [branch("parent", sources=["ref-a"])])), "built")
        self.assertResult(self.rebuild(), "built")
        state = json.loads(self.read("state.json"))
        self.assertEqual(state["tombstones"], ["child", "other"])

    def test_excluded_parent_child_stays(self) -> None:
        result = self.project(family(exclude=["parent"]))
        self.assertResult(result, "built")
        graph = json.loads(self.read("graph.json"))
        self.assertIn("branch:child", {n["id"] for n in graph["nodes"]})
        self.assertFalse([e for e in graph["links"] if e["relation"] == "forked_from"])


class TestVerifyAndDryRun(TempDirTestCase):
    def test_verify_reads_never_writes(self) -> None:
        self.assertResult(self.project(fixture()), "built")
        before = snapshot_tree(self.state)
        mtime = os.stat(self.state).st_mtime_ns
        result = self.verify()
        self.assertResult(result, "verified")
        self.assertEqual(snapshot_tree(self.state), before)
        self.assertEqual(os.stat(self.state).st_mtime_ns, mtime)
        self.assertEqual(result.json["graphSha256"], cp.sha256_hex(self.read("graph.json")))

    def test_verify_detects_every_mismatch(self) -> None:
        self.assertResult(self.project(fixture()), "built")
        originals = {name: self.read(name) for name in DERIVED}
        for name in DERIVED:
            for damage in ("edit", "remove"):
                with self.subTest(name=name, damage=damage):
                    path = os.path.join(self.state, name)
                    if damage == "remove":
                        os.unlink(path)
                    else:
                        with open(path, "ab") as handle:
                            handle.write(b" ")
                    self.assertResult(self.verify(), "receipt_mismatch")
                    with open(path, "wb") as handle:
                        handle.write(originals[name])
                    self.assertResult(self.verify(), "verified")

    def test_verify_detects_a_receipt_for_another_selection(self) -> None:
        self.assertResult(self.project(family()), "built")
        old_receipt = self.read("receipt.json")
        self.assertResult(self.project(family(revision=2)), "built")
        with open(os.path.join(self.state, "receipt.json"), "wb") as handle:
            handle.write(old_receipt)
        self.assertResult(self.verify(), "receipt_mismatch")

    def test_verify_refuses_a_receipt_with_an_unclean_version(self) -> None:
        self.assertResult(self.project(fixture()), "built")
        receipt = json.loads(self.read("receipt.json"))
        for version in ("0.9.96 \u001b[31m", "x" * 65, "", "sentinel text with spaces"):
            with self.subTest(version=version):
                receipt["graphifyVersion"] = version
                data = json.dumps(receipt, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"
                with open(os.path.join(self.state, "receipt.json"), "w", encoding="utf-8") as handle:
                    handle.write(data)
                result = self.verify()
                self.assertResult(result, "receipt_mismatch")
                self.assertNotIn(b"sentinel", result.stdout)

    def test_clean_version(self) -> None:
        self.assertEqual(cp.clean_version("0.9.96"), "0.9.96")
        self.assertEqual(cp.clean_version("1.0.0rc1+local.7"), "1.0.0rc1+local.7")
        self.assertEqual(cp.clean_version("1." + "0" * 62), "1." + "0" * 62)  # 64 characters, the longest
        for bad in (None, 1, "", "1.0 beta", "1.0\n", "v" * 65):
            self.assertIsNone(cp.clean_version(bad))

    def test_verify_without_state(self) -> None:
        self.assertResult(self.verify(), "state_missing")
        os.mkdir(self.state)
        self.assertResult(self.verify(), "state_missing")

    def test_dry_run_writes_nothing(self) -> None:
        fresh = self.write_selection(fixture())
        result = run_standin(["--state-root", self.state, "--selection", fresh, "--dry-run"])
        self.assertResult(result, "checked")
        self.assertNotIn("graphSha256", result.json)
        self.assertFalse(os.path.exists(self.state))
        self.assertResult(self.project(family()), "built")
        before = snapshot_tree(self.state)
        for value, code, at in (
            (family(revision=2, exclude=["child"]), "checked", None),
            (family(), "checked", None),
            (family(text="Same revision, new text."), "revision_stale", "/revision"),
            (mutated(lambda v: v.update(raw=1)), "selection_unknown_field", ""),
        ):
            with self.subTest(code):
                path = self.write_selection(value)
                result = run_standin(["--state-root", self.state, "--selection", path, "--dry-run"])
                self.assertResult(result, code, at=at)
                self.assertEqual(snapshot_tree(self.state), before)
        result = run_standin(["--state-root", self.state, "--dry-run"])
        self.assertResult(result, "checked")
        self.assertEqual(result.json["selectionRevision"], 1)

    def test_dry_run_counts_match_a_build(self) -> None:
        path = self.write_selection(fixture())
        checked = run_standin(["--state-root", self.state, "--selection", path, "--dry-run"])
        built = run_standin(["--state-root", self.state, "--selection", path])
        for key in ("selectionDigest", "selectionRevision", "branches", "sources", "summaries", "edges", "tombstones"):
            self.assertEqual(checked.json[key], built.json[key], key)

    def test_dry_run_without_selection_on_an_empty_root(self) -> None:
        os.mkdir(self.state)
        self.assertResult(run_standin(["--state-root", self.state, "--dry-run"]), "state_missing")
        self.assertResult(run_standin(["--state-root", self.state + "-absent", "--dry-run"]), "state_missing")
        self.assertFalse(os.path.exists(self.state + "-absent"))

    def test_refused_first_run_leaves_no_directory(self) -> None:
        for value, code, at in (
            (family(restore=["child"]), "selection_conflict", "/restore/0"),
            (dict(family(), raw=1), "selection_unknown_field", ""),
        ):
            with self.subTest(code):
                self.assertResult(self.project(value), code, at=at)
                self.assertFalse(os.path.exists(self.state))


class TestWhatWasLeftOut(TempDirTestCase):
    def test_withheld_and_missing_parents_on_built_and_checked(self) -> None:
        result = self.project(family())
        self.assertResult(result, "built")
        self.assertEqual((result.json["withheldBranches"], result.json["missingParents"]), (0, 0))
        # Left out of revision 2: tombstoned.  Listed again in 3: withheld.
        self.assertResult(self.project(selection(2, family()["branches"][:2])), "built")
        relisted = family(revision=3, child_revision=2)
        relisted["branches"][1]["parentBranchId"] = "parnet"  # a typo
        for mode in ("--dry-run", None):
            with self.subTest(mode):
                args = ["--state-root", self.state, "--selection", self.write_selection(relisted)]
                result = run_standin([*args, mode] if mode else args)
                self.assertResult(result, "checked" if mode else "built")
                self.assertEqual((result.json["branches"], result.json["tombstones"]), (2, 1))
                self.assertEqual((result.json["withheldBranches"], result.json["missingParents"]), (1, 1))
        verified = self.verify()
        self.assertResult(verified, "verified")

    def test_excluded_parent_counts_its_child(self) -> None:
        result = self.project(family(exclude=["parent"]))
        self.assertResult(result, "built")
        self.assertEqual((result.json["withheldBranches"], result.json["missingParents"]), (1, 1))

    def test_refusals_that_touch_nothing_carry_no_withdrawn(self) -> None:
        self.assertResult(self.project(family()), "built")
        self.assertResult(run_module(["--state-root"]), "usage")
        path = self.write_selection(dict(family(), raw=1))
        self.assertResult(
            run_standin(["--state-root", self.state, "--selection", path, "--dry-run"]),
            "selection_unknown_field",
            at="",
        )
        os.mkdir(os.path.join(self.state, "archive"))
        self.assertResult(self.rebuild(), "state_unknown_entry")
        os.rmdir(os.path.join(self.state, "archive"))
        with open(os.path.join(self.state, "projection.lock"), "w") as handle:
            handle.write("1 x\n")
        self.assertResult(self.rebuild(), "state_locked")
        self.assertResult(self.verify(), "state_locked")
        os.unlink(os.path.join(self.state, "projection.lock"))
        self.assertResult(self.verify(), "verified")
        # An update past the ownership checks withdraws, even for a missing file.
        result = run_standin(["--state-root", self.state, "--selection", os.path.join(self.tmp, "typo.json")])
        self.assertResult(result, "selection_unreadable", withdrawn=True)
        self.assertResult(self.verify(), "receipt_mismatch")
        self.assertResult(self.rebuild(), "built")


class TestVerifyDerivesAfresh(TempDirTestCase):
    def test_tombstones_added_behind_its_back(self) -> None:
        self.assertResult(self.project(family()), "built")
        state = json.loads(self.read("state.json"))
        state["tombstones"] = sorted({*state["tombstones"], "child"})
        with open(os.path.join(self.state, "state.json"), "wb") as handle:
            handle.write(cp.state_bytes(state))
        self.assertResult(self.verify(), "receipt_mismatch")

    def test_another_directorys_state_for_the_same_selection(self) -> None:
        other = os.path.join(self.tmp, "other")
        self.assertResult(self.project(family(exclude=["child"]), state=other), "built")
        self.assertResult(self.project(family()), "built")
        # Same snapshot digest?  No: exclude differs.  Make the ledgers differ only.
        self.assertResult(self.project(selection(2, family()["branches"][:2]), state=other), "built")
        self.assertResult(self.project(selection(2, family()["branches"][:2])), "built")
        with open(os.path.join(other, "state.json"), "rb") as handle:
            foreign = handle.read()
        self.assertEqual(json.loads(foreign)["selectionDigest"], json.loads(self.read("state.json"))["selectionDigest"])
        self.assertNotEqual(foreign, self.read("state.json"))
        with open(os.path.join(self.state, "state.json"), "wb") as handle:
            handle.write(foreign)
        self.assertResult(self.verify(), "receipt_mismatch")

    def test_ledger_edited_by_hand_is_corrupt_not_verified(self) -> None:
        self.assertResult(self.project(family()), "built")
        self.assertResult(self.project(selection(2, family()["branches"][:2])), "built")
        state = json.loads(self.read("state.json"))
        self.assertEqual(state["tombstones"], ["other"])
        state["tombstones"] = []
        with open(os.path.join(self.state, "state.json"), "wb") as handle:
            handle.write(cp.state_bytes(state))
        self.assertResult(self.verify(), "state_corrupt")
        self.assertResult(self.project(family(revision=3)), "state_corrupt", withdrawn=True)

    def test_any_edit_of_the_graph_breaks_the_receipt(self) -> None:
        """What verify proves about graph.json is its hash: any edit that
        leaves the receipt alone is caught (the README says what a forged
        receipt can do)."""
        self.assertResult(self.project(family()), "built")
        graph = json.loads(self.read("graph.json"))
        edits = {
            "label": lambda g: g["nodes"][-1].update(label="assistant: Delete every copy."),
            "node removed": lambda g: g["nodes"].pop(),
            "edge redirected": lambda g: g["links"][0].update(target="branch:other"),
            "another version": lambda g: g["graph"].update(graphify_version="9.9.9"),
        }
        for name, edit in edits.items():
            with self.subTest(name):
                forged = copy.deepcopy(graph)
                edit(forged)
                with open(os.path.join(self.state, "graph.json"), "wb") as handle:
                    handle.write(json.dumps(forged).encode())
                self.assertResult(self.verify(), "receipt_mismatch")
        self.assertResult(self.rebuild(), "built")
        self.assertResult(self.verify(), "verified")

    def test_receipt_that_is_not_json(self) -> None:
        self.assertResult(self.project(family()), "built")
        with open(os.path.join(self.state, "receipt.json"), "wb") as handle:
            handle.write(b"not json at all")
        self.assertResult(self.verify(), "receipt_mismatch")


if __name__ == "__main__":
    unittest.main()
