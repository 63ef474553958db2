"""The extraction: nodes, edges and provenance from the ledger alone, canonical and
deterministic.

Run: python -I tests/test_extraction.py
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import unittest
from typing import Any

# -I leaves the script's own directory off sys.path.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from cp_testlib import (
    PUBLISHED,
    ROOT,
    TempDirTestCase,
    accepted,
    branch,
    child_env,
    cp,
    family,
    fixture,
    selection,
    summary,
    sys,
)


def random_family(rng: random.Random) -> dict[str, Any]:
    """Branches that fork from listed, excluded and unlisted parents, share
    sources, and hold summaries short, long and on several lines."""
    ids = [f"b{k}" for k in range(rng.randint(1, 9))]
    texts = ("Short.", "Two\nlines.", "word " * 120, "x" * 900, "Tab\tand " * 40)
    branches = [
        branch(
            branch_id,
            parent=rng.choice([None, "unlisted", *ids[:index]]),
            sources=rng.sample(["r1", "r2", "r3", "r4"], rng.randint(0, 3)),
            summaries=[summary(f"s{k}", rng.choice(texts), rng.choice(["user", "assistant"])) for k in range(3)],
        )
        for index, branch_id in enumerate(ids)
    ]
    return selection(1, branches, exclude=rng.sample(ids, rng.randint(0, len(ids) - 1)))


class TestProjection(unittest.TestCase):
    def test_counts_without_building_equal_the_projections_own(self) -> None:
        rng = random.Random(5)
        states = [cp.reconcile(None, accepted(fixture()))[0]]
        for _ in range(60):
            state, _ = cp.reconcile(None, accepted(random_family(rng)))
            states.append(state)
        # Tombstones the snapshot no longer lists, and a restore.
        first, _ = cp.reconcile(None, accepted(family()))
        shrunk, _ = cp.reconcile(first, accepted(selection(2, family()["branches"][:2])))
        restored, _ = cp.reconcile(shrunk, accepted(family(revision=3, restore=["other"])))
        states += [first, shrunk, restored]
        for index, state in enumerate(states):
            with self.subTest(index):
                self.assertEqual(cp.projection_counts(state), cp.project(state).counts)
        kinds = {name for state in states for name, count in cp.projection_counts(state).items() if count}
        self.assertEqual(kinds, set(cp.COUNT_NAMES + cp.LEFT_OUT_NAMES))

    def test_fixture_maps_exactly_per_the_table(self) -> None:
        state, _ = cp.reconcile(None, accepted(fixture()))
        projection = cp.project(state)
        nodes = {n["id"]: n for n in projection.extraction["nodes"]}
        digest = state["selectionDigest"]
        provenance = {
            "corpusId": "synthetic-demo",
            "selectionRevision": 1,
            "selectionDigest": digest,
            "projectionSchemaVersion": 1,
            "embeddingIdentity": "none",
            "source_file": "selected:synthetic-demo",
        }
        self.assertEqual(
            nodes["branch:child"],
            dict(
                provenance,
                id="branch:child",
                label="child",
                nodeKind="branch",
                file_type="concept",
                branchId="child",
                sourceRevision=2,
            ),
        )
        self.assertEqual(
            nodes["source:archive-entry-0002"],
            dict(
                provenance,
                id="source:archive-entry-0002",
                label="archive-entry-0002",
                nodeKind="source",
                file_type="document",
                refId="archive-entry-0002",
                sha256="a6f3c1e0f64c6b1c5e0c7d6f1a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d",
            ),
        )
        self.assertEqual(
            nodes["branch:parent:summary:proposal"],
            dict(
                provenance,
                id="branch:parent:summary:proposal",
                label="assistant: Suggested keeping three rotating offline copies, checked monthly.",
                nodeKind="summary",
                file_type="rationale",
                summaryId="proposal",
                role="assistant",
                kind="summary",
                sourceRevision=1,
                memoryRef="memory-backup-rotation-0001",
            ),
        )
        self.assertNotIn("memoryRef", nodes["branch:child:summary:decision"])
        self.assertEqual(nodes["branch:child:summary:open-question"]["role"], "unknown")
        # The role leads every summary label, so retrieval shows who said it.
        summaries = [n for n in nodes.values() if n["nodeKind"] == "summary"]
        self.assertEqual(len(summaries), 4)
        for node in summaries:
            self.assertTrue(node["label"].startswith(node["role"] + ": "), node["id"])
        self.assertNotIn("branch:discarded-idea", nodes)
        self.assertFalse([n for n in nodes if n.startswith("branch:discarded-idea")])
        edges = {(e["source"], e["relation"], e["target"]) for e in projection.extraction["edges"]}
        self.assertEqual(
            edges,
            {
                ("branch:child", "forked_from", "branch:parent"),
                ("branch:child", "attached_source", "source:archive-entry-0001"),
                ("branch:child", "attached_source", "source:archive-entry-0002"),
                ("branch:parent", "attached_source", "source:archive-entry-0001"),
                ("branch:child", "approved_summary", "branch:child:summary:decision"),
                ("branch:child", "approved_summary", "branch:child:summary:open-question"),
                ("branch:parent", "approved_summary", "branch:parent:summary:goal"),
                ("branch:parent", "approved_summary", "branch:parent:summary:proposal"),
            },
        )
        for edge in projection.extraction["edges"]:
            self.assertEqual(edge["confidence"], "EXTRACTED")
            for key, value in provenance.items():
                self.assertEqual(edge[key], value)
            owner = edge["source"].removeprefix("branch:")
            self.assertEqual(edge["sourceRevision"], {"child": 2, "parent": 1}[owner])
        for node in nodes.values():
            for key, value in provenance.items():
                self.assertEqual(node[key], value)
        self.assertEqual(
            tuple(projection.counts[k] for k in ("branches", "sources", "summaries", "edges", "tombstones")),
            (2, 2, 4, 8, 1),
        )

    def test_excluded_parent_keeps_child_and_drops_the_edge(self) -> None:
        state, _ = cp.reconcile(None, accepted(family(exclude=["parent"])))
        projection = cp.project(state)
        ids = {n["id"] for n in projection.extraction["nodes"]}
        self.assertIn("branch:child", ids)
        self.assertNotIn("branch:parent", ids)
        self.assertFalse([e for e in projection.extraction["edges"] if e["relation"] == "forked_from"])

    def test_only_selected_ancestors_become_nodes(self) -> None:
        state, _ = cp.reconcile(None, accepted(selection(1, [branch("child", parent="unselected")])))
        projection = cp.project(state)
        self.assertEqual(
            [n["id"] for n in projection.extraction["nodes"] if n["nodeKind"] == "branch"], ["branch:child"]
        )
        self.assertEqual([e["relation"] for e in projection.extraction["edges"]], ["approved_summary"])

    def test_no_relation_is_inferred_from_text(self) -> None:
        value = selection(
            1,
            [
                branch("alpha", summaries=[summary("s1", "Forked from beta; see source:ref-x and branch:beta.")]),
                branch("beta", summaries=[summary("s1", "alpha")]),
            ],
        )
        state, _ = cp.reconcile(None, accepted(value))
        edges = cp.project(state).extraction["edges"]
        self.assertEqual({e["relation"] for e in edges}, {"approved_summary"})

    def test_extraction_is_sorted_and_order_free(self) -> None:
        reordered = fixture()
        reordered["branches"].reverse()
        for b in reordered["branches"]:
            b["sources"].reverse()
            b["summaries"].reverse()
        one = cp.extraction_bytes(cp.project(cp.reconcile(None, accepted(fixture()))[0]))
        two = cp.extraction_bytes(cp.project(cp.reconcile(None, accepted(reordered))[0]))
        self.assertEqual(one, two)


class TestDeterminism(TempDirTestCase):
    def test_same_content_same_bytes_under_any_hash_seed(self) -> None:
        reordered = fixture()
        reordered["branches"].reverse()
        for b in reordered["branches"]:
            b["summaries"].reverse()
        outputs = []
        for index, (value, seed) in enumerate(((fixture(), "0"), (reordered, "12345"), (fixture(), "random"))):
            state = os.path.join(self.tmp, f"state-{index}")
            path = self.write_selection(value, f"sel-{index}.json")
            env = child_env(PYTHONHASHSEED=seed)
            completed = subprocess.run(
                [
                    sys.executable,
                    os.path.join(ROOT, "tests", "run_with_standin.py"),
                    "ok",
                    "--state-root",
                    state,
                    "--selection",
                    path,
                ],
                capture_output=True,
                env=env,
            )
            self.assertEqual(completed.returncode, 0)
            outputs.append({name: self.read(name, state) for name in PUBLISHED})
        self.assertEqual(outputs[0], outputs[1])
        self.assertEqual(outputs[0], outputs[2])

    def test_no_timestamps_or_paths_in_outputs(self) -> None:
        self.assertResult(self.project(fixture()), "built")
        for name in PUBLISHED:
            data = self.read(name)
            self.assertNotIn(self.tmp.encode(), data)
            self.assertNotIn(b"2026-", data)


class TestExtractionShape(unittest.TestCase):
    def test_hyperedges_is_an_empty_list_of_its_own(self) -> None:
        state, _ = cp.reconcile(None, accepted(family()))
        extraction = json.loads(cp.extraction_bytes(cp.project(state)))
        self.assertEqual(list(extraction), ["edges", "hyperedges", "nodes"])
        self.assertEqual(extraction["hyperedges"], [])

    def test_the_extraction_is_canonical_json_of_every_kind_of_record(self) -> None:
        long_text = "Line one of the plan.\n" + "word " * 120
        branches = [
            branch("parent", sources=["ref-a"]),
            branch(
                "child",
                2,
                parent="parent",
                sources=["ref-a", "ref-b"],
                summaries=[
                    summary("s1", "Short."),
                    summary("s2", "Short, with a reference.", memoryRef="mem-1"),
                    summary("s3", long_text, role="assistant"),
                    summary("s4", long_text, role="unknown", memoryRef="mem-2"),
                ],
            ),
            branch("gone"),
        ]
        state, _ = cp.reconcile(None, accepted(selection(1, branches, exclude=["gone"])))
        projection = cp.project(state)
        data = cp.extraction_bytes(projection)
        self.assertEqual(data, cp.canonical_bytes(json.loads(data)) + b"\n")
        records = projection.extraction["nodes"] + projection.extraction["edges"]
        self.assertEqual(
            {n["nodeKind"] for n in projection.extraction["nodes"]}, {"branch", "source", "summary", "summary_part"}
        )
        self.assertTrue(all(None not in record.values() for record in records))
        self.assertEqual(
            sum("memoryRef" in n for n in projection.extraction["nodes"]), 2 + projection.counts["summaryParts"] // 2
        )


if __name__ == "__main__":
    unittest.main()
