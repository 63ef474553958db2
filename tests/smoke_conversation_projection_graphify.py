"""The lifecycle against the real, installed Graphify and its command line.

Run with the Python of a Graphify install, its `graphify` command beside it
or on PATH:  python -I tests/smoke_conversation_projection_graphify.py
"""

from __future__ import annotations

import json
import os
import shutil
import stat
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
    kill_a_query_in_its_write,
    queries_running,
    run_module,
    summary,
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


def approved_texts() -> dict[str, tuple[str, str]]:
    """Branch name -> (summary text, a word that only its last part holds, or
    when it has no parts only its label; "" for the branch's own name)."""
    words = [
        "keep",
        "the",
        "nightly",
        "snapshot",
        "and",
        "copy",
        "it",
        "to",
        "the",
        "external",
        "drive",
        "every",
        "sunday",
    ]

    def prose(length: int, end: str) -> str:
        text = ""
        while len(text) < length:
            text += words[len(text) % len(words)] + " "
        return text[: length - len(end) - 1].rstrip() + " " + end

    url = "https://example.org/plans/" + "".join("abcdefghij0123456789/"[i * 7 % 21] for i in range(574))
    non_latin = ("Резервная копия каждую ночь 每晚备份到外部硬盘 बाहरी ड्राइव पर प्रति रात बैकअप " * 30)[:1980]
    return {
        "one": ("Q", ""),
        "label-of-256": (prose(250, "fitsexactly"), "fitsexactly"),
        "text-of-255": (prose(255, "endofduo"), "endofduo"),
        "text-of-256": (prose(256, "endoftrio"), "endoftrio"),
        "text-of-257": (prose(257, "endofquartet"), "endofquartet"),
        "lines-of-1000": (
            "\n".join(prose(99, f"line{i}") for i in range(9)) + "\n" + prose(99, "endoflines"),
            "endoflines",
        ),
        "tabs-of-2000": (
            "\t".join(prose(199, f"cell{i}") for i in range(9)) + "\t" + prose(199, "endoftabs"),
            "endoftabs",
        ),
        "url-of-600": ("See " + url + " for the plan, and " + prose(300, "endofurl"), "endofurl"),
        "non-latin-2000": (non_latin + " endofscripts", "endofscripts"),
    }


def query_reconstruction(answer: str, text: str) -> str:
    """The approved words from the NODE lines of a query's answer: the summary
    itself when it fits, else its parts in order, joined by a space where the
    approved words have one (a run that a part broke inside joins without)."""
    labels = [line[5 : line.rindex(" [src=")] for line in answer.splitlines() if line.startswith("NODE ")]
    parts = {}
    for label in labels:
        head, _, chunk = label.partition("): ")
        if head.startswith("user (") and "/" in head:
            k, n = (int(x) for x in head[len("user (") :].split("/"))
            parts[k] = (n, chunk)
    if not parts:
        (whole,) = (label for label in labels if label.startswith("user: "))
        return whole[len("user: ") :]
    count = parts[1][0]
    assert sorted(parts) == list(range(1, count + 1)), "every part within two hops"
    words = " ".join(text.split())
    joined = ""
    for k in range(1, count + 1):
        if joined and words[len(joined) : len(joined) + 1] == " ":
            joined += " "
        joined += parts[k][1]
    return joined


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

    def test_graphify_viewers_beside_the_graph(self) -> None:
        """The real "export html" and "tree" write graph.html and
        GRAPH_TREE.html beside the graph: --verify and --dry-run accept them,
        the next update removes them."""
        from importlib import metadata

        if version_tuple(metadata.version("graphifyy")) < (0, 9, 96):
            self.skipTest("the viewers were checked with Graphify 0.9.96")
        self.assertResult(self.project(fixture()), "built")
        self.cli("export", "html")
        self.cli("tree")
        self.assertEqual(self.entries(), sorted(["GRAPH_TREE.html", "graph.html", *PUBLISHED]))
        for name in ("graph.html", "GRAPH_TREE.html"):
            self.assertTrue(stat.S_ISREG(os.lstat(os.path.join(self.state, name)).st_mode), name)
        self.assertResult(self.verify(), "verified")
        self.assertResult(run_module(["--state-root", self.state, "--dry-run"], env=self.env), "checked")
        self.assertResult(self.rebuild(), "built")
        self.assertEqual(self.entries(), PUBLISHED)

    @unittest.skipUnless(os.name == "posix", "the query loop polls its stdin with select")
    def test_updates_while_an_agent_queries(self) -> None:
        """Graphify's own stamp writer, as query, path and explain run it, in
        a loop in a child process while the owner rebuilds 30 times: each
        rebuild, --verify and dry run answers as it would alone; once the
        queries stop, the next rebuild leaves only the published files."""
        self.assertResult(self.project(fixture()), "built")
        dry_run = ["--state-root", self.state, "--selection", self.write_selection(fixture()), "--dry-run"]
        with queries_running(os.path.join(self.state, "graph.json")) as stop:
            for _ in range(30):
                self.assertResult(self.rebuild(), "built")
                self.assertResult(self.verify(), "verified")
                self.assertResult(run_module(dry_run, env=self.env), "checked")
            self.assertGreater(stop(), 0)
        self.assertResult(self.rebuild(), "built")
        self.assertEqual(self.entries(), PUBLISHED)

    @unittest.skipUnless(os.name == "posix", "the query is killed with SIGKILL")
    def test_a_query_killed_in_its_write_blocks_nothing(self) -> None:
        self.assertResult(self.project(fixture()), "built")
        kill_a_query_in_its_write(os.path.join(self.state, "graph.json"))
        (left,) = os.listdir(os.path.join(self.state, "cache"))
        self.assertTrue(cp.is_graphify_temp(left), left)
        self.assertResult(self.verify(), "verified")
        dry_run = ["--state-root", self.state, "--selection", self.write_selection(fixture()), "--dry-run"]
        self.assertResult(run_module(dry_run, env=self.env), "checked")
        self.assertResult(self.rebuild(), "built")
        self.assertEqual(self.entries(), PUBLISHED)

    def graphify_text(self, *args: str) -> str:
        """A command's stdout as written: bytes, decoded, no newline translation."""
        completed = subprocess.run(
            [self.graphify, *args, "--graph", os.path.join(self.state, "graph.json")],
            capture_output=True,
            env=self.env,
            timeout=120,
        )
        self.assertEqual(completed.returncode, 0, completed.stderr[-500:])
        return completed.stdout.decode("utf-8")

    def test_the_agent_reads_the_whole_approved_text(self) -> None:
        samples = approved_texts()
        value = {
            "schemaVersion": 1,
            "corpusId": "agent-reads",
            "revision": 1,
            "branches": [
                {"branchId": name, "sourceRevision": 1, "sources": [], "summaries": [summary("s", text)]}
                for name, (text, _last_word) in samples.items()
            ],
        }
        built = self.project(value)
        self.assertResult(built, "built")
        self.assertResult(self.verify(), "verified")
        for name, (text, last_word) in samples.items():
            with self.subTest(name):
                explained = self.graphify_text("explain", f"branch:{name}:summary:s")
                # explain prints the label whole, line breaks and tabs included.
                self.assertEqual(explained[explained.index("Node: ") + 6 : explained.index("\n  ID:")], "user: " + text)
                seed = last_word if last_word else name
                answer = self.graphify_text("query", seed)
                header = answer.splitlines()[0]
                self.assertIn(f"Graph: {os.path.join(self.state, 'graph.json')} ", header)
                self.assertEqual(query_reconstruction(answer, text), " ".join(text.split()))
        self.assertEqual(
            built.json["summaryParts"], sum(len(cp.summary_chunks("user", t)) for t, _w in samples.values())
        )

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

    @unittest.skipUnless(sys.platform.startswith("linux"), "Linux resource limits")
    def test_out_of_memory_inside_graphify_is_resource_exhausted(self) -> None:
        """Rebuilds under ulimit -v from 30 to 70 MiB: the real Graphify's
        import fails for lack of memory in ways that hide it (ssl's import
        fails, the standard library swallows it, Graphify then raises
        AttributeError).  Every run prints one line, built or
        resource_exhausted, never graphify_missing, graphify_failed or
        internal_error, and state.json stays as it was."""
        import resource

        self.assertResult(self.project(fixture()), "built")
        committed = self.read("state.json")
        codes = {}
        for megabytes in range(30, 72, 2):

            def limit(megabytes: int = megabytes) -> None:
                resource.setrlimit(resource.RLIMIT_AS, (megabytes << 20, megabytes << 20))

            completed = subprocess.run(
                [sys.executable, "-I", cp.__file__, "--state-root", self.state],
                capture_output=True,
                env=self.env,
                preexec_fn=limit,
                timeout=120,
            )
            result = Result(completed)
            if not result.lines and megabytes < 34:
                continue  # below the start-up window's end: Python cannot load the module
            codes[megabytes] = result.code
            with self.subTest(megabytes=megabytes):
                if result.code != "built":
                    self.assertResult(result, "resource_exhausted", withdrawn=True)
                self.assertEqual(self.read("state.json"), committed)
        self.assertIn("resource_exhausted", codes.values())
        self.assertEqual(codes[max(codes)], "built")
        self.assertResult(self.verify(), "verified")


if __name__ == "__main__":
    unittest.main()
