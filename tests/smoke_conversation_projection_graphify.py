"""The lifecycle against the real, installed Graphify and its command line.

Run with the Python of a Graphify install, its `graphify` command beside it
or on PATH:  python -I tests/smoke_conversation_projection_graphify.py
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import unittest
from collections.abc import Sequence

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from cp_testlib import (
    Result,
    TempDirTestCase,
    blocked_graphify_command,
    child_env,
    cp,
    fixture,
    run_module,
)

PUBLISHED = ["extraction.json", "graph.json", "receipt.json", "state.json"]


def version_tuple(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split(".")[:3] if part.isdigit())


def graphify_command() -> str:
    beside = os.path.join(os.path.dirname(sys.executable), "graphify.exe" if os.name == "nt" else "graphify")
    if os.path.exists(beside):
        return beside
    found = shutil.which("graphify")
    if found is None:
        raise unittest.SkipTest("the graphify command is not installed")
    return found


class TestRealGraphify(TempDirTestCase):
    def setUp(self) -> None:
        super().setUp()
        try:
            import graphify  # noqa: F401
        except ImportError:
            self.fail("this smoke needs Graphify installed in the running Python")
        self.graphify = graphify_command()
        # Keep Graphify's opt-in query log off, as the README advises.
        self.env = child_env(GRAPHIFY_QUERY_LOG_DISABLE="1")

    def cli(self, *args: str, expect: int = 0) -> subprocess.CompletedProcess[str]:
        completed = subprocess.run(
            [self.graphify, *args, "--graph", os.path.join(self.state, "graph.json")],
            capture_output=True,
            text=True,
            env=self.env,
            timeout=120,
        )
        self.assertEqual(completed.returncode, expect, completed.stderr[-500:])
        return completed

    def run_cli(self, args: Sequence[str], mode: str) -> Result:
        return run_module(args, env=self.env)

    def test_lifecycle(self) -> None:
        from importlib import metadata

        version = metadata.version("graphifyy")
        built = self.project(fixture())
        self.assertResult(built, "built")
        self.assertEqual(built.json["graphifyVersion"], version)
        self.assertEqual(self.entries(), PUBLISHED)
        self.assertResult(self.verify(), "verified")
        graph = json.loads(self.read("graph.json"))
        self.assertEqual(graph["built_at_commit"], built.json["selectionDigest"])
        self.assertTrue(graph["directed"])

        # path: the forked_from hop, checked in the text since graphify exits 0 either way.
        hop = self.cli("path", "branch:child", "branch:parent", "--directed")
        self.assertIn("child --forked_from [EXTRACTED]--> parent", hop.stdout)
        self.assertIn("cache", os.listdir(self.state))
        self.assertResult(self.verify(), "verified")

        # query: words of a summary find that summary, and who said it.
        found = self.cli("query", "weekly backup rotation photo library")
        self.assertIn("user: Plan a weekly backup rotation for the family photo library.", found.stdout)
        # Attribution survives retrieval: the role itself is searchable.
        suggested = self.cli("query", "assistant suggested copies")
        start = suggested.stdout.splitlines()[0]
        self.assertIn("Start: ['assistant: Suggested keeping three rotating offline copies, checked monthly.']", start)
        self.assertIn("assistant: Suggested keeping", self.cli("query", "assistant").stdout.splitlines()[0])
        self.assertIn("unknown: Whether the cloud copy", self.cli("query", "unknown cloud copy").stdout)

        explained = self.cli("explain", "branch:child")
        self.assertIn("forked_from", explained.stdout)
        self.assertIn("parent", explained.stdout)
        self.assertIn("user: Chose an encrypted external drive swapped every Sunday evening.", explained.stdout)
        summary = self.cli("explain", "branch:parent:summary:proposal")
        self.assertIn(
            "Node: assistant: Suggested keeping three rotating offline copies, checked monthly.", summary.stdout
        )
        parent = self.cli("explain", "branch:parent")
        self.assertIn("--> user: Plan a weekly backup rotation", parent.stdout)
        self.assertIn("--> assistant: Suggested keeping", parent.stdout)

        # The stamp left by the queries is cleared by the next update.
        before = {name: self.read(name) for name in PUBLISHED}
        self.assertResult(self.rebuild(), "built")
        self.assertEqual(self.entries(), PUBLISHED)
        self.assertEqual({name: self.read(name) for name in PUBLISHED}, before)

        # Replay: byte-identical.
        self.assertResult(self.project(fixture()), "built")
        self.assertEqual({name: self.read(name) for name in PUBLISHED}, before)

        # Excluding the parent removes the hop, and the child stays.
        excluded = dict(fixture(), revision=2, exclude=["discarded-idea", "parent"])
        self.assertResult(self.project(excluded), "built")
        # A node not in the graph at all: exit 4 from 0.9.91, 1 before.
        missing_node_exit = 4 if version_tuple(version) >= (0, 9, 91) else 1
        no_hop = self.cli("path", "branch:child", "branch:parent", "--directed", expect=missing_node_exit)
        self.assertNotIn("forked_from", no_hop.stdout + no_hop.stderr)
        child = self.cli("explain", "branch:child")
        self.assertNotIn("forked_from", child.stdout)

    def test_same_bytes_in_two_directories(self) -> None:
        first = os.path.join(self.tmp, "one")
        second = os.path.join(self.tmp, "two")
        reordered = fixture()
        reordered["branches"].reverse()
        self.assertResult(self.project(fixture(), state=first), "built")
        self.assertResult(self.project(reordered, state=second), "built")
        for name in PUBLISHED:
            self.assertEqual(self.read(name, first), self.read(name, second), name)

    def test_graph_identity_is_kept_by_graphify(self) -> None:
        self.assertResult(self.project(fixture()), "built")
        extraction = json.loads(self.read("extraction.json"))
        graph = json.loads(self.read("graph.json"))
        self.assertEqual(sorted(n["id"] for n in graph["nodes"]), sorted(n["id"] for n in extraction["nodes"]))
        for node in graph["nodes"]:
            self.assertEqual(node["embeddingIdentity"], "none")
            self.assertEqual(node["source_file"], "selected:synthetic-demo")
        for link in graph["links"]:
            self.assertEqual(link["confidence"], "EXTRACTED")

    def test_failure_leaves_no_derived_files_and_retry_builds(self) -> None:
        self.assertResult(self.project(fixture()), "built")
        command = blocked_graphify_command(self.tmp)
        completed = subprocess.run([*command, "--state-root", self.state], capture_output=True)
        self.assertEqual(json.loads(completed.stdout)["code"], "graphify_missing")
        self.assertEqual(self.entries(), ["state.json"])
        self.assertResult(self.rebuild(), "built")
        self.assertResult(self.verify(), "verified")
        self.assertEqual(cp.CODES["graphify_missing"], 3)


if __name__ == "__main__":
    unittest.main()
