"""The worked life cycle (docs/life-cycle.md) and the README's quick start
and recipes, run exactly as they are written.

Every command of the page "A worked life cycle" runs as a fresh
``python -I conversation_projection.py`` process in a temporary directory,
with the fake Graphify of the fresh-interpreter suite installed into a
throw-away virtual environment, and each result line is compared with the one
the page shows, field by field.  Digests come from the fake Graphify here,
so the page shows them elided ("…") and only their shape is checked; the
Graphify version shown must be the one CI pins.  Each selection and each diff
the section shows must be the file, or the diff of the files, under
docs/walkthrough/.

    python -I tests/test_readme_walkthrough.py           # the check
    python -I tests/test_readme_walkthrough.py --print   # the page's blocks as they come out now
"""

from __future__ import annotations

import difflib
import itertools
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import unittest
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from cp_testlib import CAN_SYMLINK, FIXTURE, MODULE, ROOT, child_env, run_module, run_standin
from test_fresh_interpreter import make_fake_graphify_venv

README = os.path.join(ROOT, "README.md")
LIFE_CYCLE = os.path.join(ROOT, "docs", "life-cycle.md")
WALKTHROUGH_DIR = os.path.join("docs", "walkthrough")
SECTION = "# A worked life cycle"
# How the README spells the adapter, the state root and the exit status.
ADAPTER_COMMAND = [".venv/bin/python", "-I", "conversation_projection.py"]
STATE_ASSIGNMENT = re.compile(r'STATE="\$HOME/(?P<name>[a-z-]+)"')
EXIT_STATUS = "echo $?"
ELIDED = "…"
DIGEST_FIELDS = ("selectionDigest", "graphSha256")
FENCE = re.compile(
    r"""
    ^```(?P<kind>\w+)          # the opening fence and its language
    (?:[ ](?P<file>\S+))?$\n   # optionally the walkthrough file the block shows
    (?P<body>.*?)\n            # the block itself
    ^```$                      # the closing fence
    """,
    re.MULTILINE | re.DOTALL | re.VERBOSE,
)


@dataclass
class Block:
    kind: str
    file: str | None
    body: str


def walkthrough_blocks(readme: str, section: str = SECTION) -> list[Block]:
    """The fenced blocks of a section, in order, up to the next heading of
    the second level."""
    start = readme.index(section)
    end = readme.find("\n## ", start + len(section))
    section = readme[start : end if end >= 0 else len(readme)]
    return [Block(m["kind"], m["file"], m["body"]) for m in FENCE.finditer(section)]


def console_steps(blocks: list[Block]) -> Iterator[tuple[str, str | None]]:
    """Each ``$ command`` of the console blocks with the line printed after
    it (None when the next line is another command or the block ends)."""
    for block in blocks:
        if block.kind != "console":
            continue
        lines = block.body.split("\n")
        for index, line in enumerate(lines):
            if line.startswith("$ "):
                following = lines[index + 1] if index + 1 < len(lines) else None
                yield line[2:], None if following is None or following.startswith("$ ") else following


def pinned_graphify_version() -> str:
    with open(os.path.join(ROOT, ".ci", "run"), encoding="utf-8") as handle:
        found = re.search(r'^GRAPHIFY_PIN="([^"]+)"$', handle.read(), re.MULTILINE)
    assert found, "the Graphify pin in .ci/run"
    return found[1]


def as_shown(actual: dict[str, Any]) -> str:
    """A result line as the README shows it: digests elided, the Graphify
    version the pinned one."""
    shown = dict(actual)
    for name in DIGEST_FIELDS:
        if name in shown:
            shown[name] = ELIDED
    if isinstance(shown.get("graphifyVersion"), str):
        shown["graphifyVersion"] = pinned_graphify_version()
    return json.dumps(shown, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class Walkthrough:
    """Runs the section's commands in a temporary directory holding a copy of
    docs/walkthrough/, the adapter under a venv with the fake Graphify."""

    def __init__(self, workdir: str) -> None:
        self.workdir = workdir
        self.python = make_fake_graphify_venv(workdir)
        shutil.copytree(os.path.join(ROOT, WALKTHROUGH_DIR), os.path.join(workdir, WALKTHROUGH_DIR))
        self.state: str | None = None
        self.last_exit: int | None = None

    def run(self, command: str) -> str:
        """The one line the command prints."""
        assigned = STATE_ASSIGNMENT.fullmatch(command)
        if assigned:
            self.state = os.path.join(self.workdir, assigned["name"])
            return ""
        if command == EXIT_STATUS:
            return str(self.last_exit)
        words = shlex.split(command)
        if words[: len(ADAPTER_COMMAND)] != ADAPTER_COMMAND or self.state is None:
            raise AssertionError(f"not a walkthrough command: {command}")
        args = [self.state if word == "$STATE" else word for word in words[len(ADAPTER_COMMAND) :]]
        completed = subprocess.run(
            [self.python, "-I", MODULE, *args], capture_output=True, cwd=self.workdir, env=child_env(), timeout=120
        )
        if completed.stderr:
            raise AssertionError(f"stderr written by: {command}")
        self.last_exit = completed.returncode
        return completed.stdout.decode("utf-8").rstrip("\n")


def shown_file(name: str) -> str:
    with open(os.path.join(ROOT, name), encoding="utf-8") as handle:
        return handle.read()


def diff_of(old: str, new: str) -> str:
    return "\n".join(
        difflib.unified_diff(shown_file(old).splitlines(), shown_file(new).splitlines(), old, new, n=1, lineterm="")
    )


class TestReadmeWalkthrough(unittest.TestCase):
    blocks: list[Block] = []

    @classmethod
    def setUpClass(cls) -> None:
        with open(LIFE_CYCLE, encoding="utf-8") as handle:
            cls.blocks = walkthrough_blocks(handle.read())

    def setUp(self) -> None:
        self.tmp = os.path.realpath(tempfile.mkdtemp(prefix="cp-readme-"))
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)

    def test_every_result_line_is_the_one_shown(self) -> None:
        walkthrough = Walkthrough(self.tmp)
        steps = list(console_steps(self.blocks))
        self.assertGreaterEqual(sum(command.startswith(ADAPTER_COMMAND[0]) for command, _ in steps), 8)
        for number, (command, shown) in enumerate(steps, start=1):
            printed = walkthrough.run(command)
            with self.subTest(step=number, command=command):
                if not printed:
                    self.assertIsNone(shown, "a command that prints nothing shows nothing")
                    continue
                self.assertIsNotNone(shown, "the page shows what the command printed")
                assert shown is not None
                if command == EXIT_STATUS:
                    self.assertEqual(shown, printed)
                    continue
                self.assertEqual(printed.count("\n"), 0, "exactly one result line")
                self.assertFieldByField(json.loads(shown), json.loads(printed))
                self.assertEqual(shown, as_shown(json.loads(printed)), "sorted keys, compact, as printed")

    def assertFieldByField(self, shown: dict[str, Any], actual: dict[str, Any]) -> None:
        self.assertEqual(sorted(shown), sorted(actual), "the same fields")
        for name, value in shown.items():
            if name in DIGEST_FIELDS:
                self.assertEqual(value, ELIDED, name)
                self.assertRegex(actual[name], r"\A[0-9a-f]{64}\Z", name)
            elif name == "graphifyVersion" and value is not None:
                self.assertEqual(value, pinned_graphify_version(), name)
                self.assertIsInstance(actual[name], str, name)
            else:
                self.assertEqual(value, actual[name], name)

    def test_selections_shown_are_the_files(self) -> None:
        files = [block for block in self.blocks if block.kind == "json" and block.file]
        self.assertTrue(files)
        for block in files:
            with self.subTest(file=block.file):
                assert block.file is not None
                self.assertEqual(block.body + "\n", shown_file(block.file))

    def test_changes_shown_are_the_diffs_of_the_files(self) -> None:
        diffs = [block for block in self.blocks if block.kind == "diff"]
        self.assertGreaterEqual(len(diffs), 4)
        for block in diffs:
            old, new = (line.split(" ", 1)[1] for line in block.body.split("\n")[:2])
            with self.subTest(old=old, new=new):
                self.assertEqual(block.body, diff_of(old, new))

    def test_every_walkthrough_file_is_used(self) -> None:
        commands = " ".join(command for command, _ in console_steps(self.blocks))
        for name in sorted(os.listdir(os.path.join(ROOT, WALKTHROUGH_DIR))):
            with self.subTest(file=name):
                self.assertIn(f"{WALKTHROUGH_DIR}/{name}", commands)


def readme() -> str:
    with open(README, encoding="utf-8") as handle:
        return handle.read()


def readme_section(title: str) -> str:
    """A section of the README, from its heading to the next of its level."""
    text = readme()
    start = text.index(f"\n{title}\n")
    level = title.split(" ", maxsplit=1)[0]
    end = text.find(f"\n{level} ", start + len(title) + 2)
    return text[start : end if end >= 0 else len(text)]


def readme_command(title: str, starts: str) -> str:
    """The one command line of a README section that starts with ``starts``
    (indentation inside a list item dropped)."""
    found = [line.strip() for line in readme_section(title).split("\n") if line.strip().startswith(starts)]
    assert len(found) == 1, f"one {starts!r} line in {title}"
    return found[0]


# The quick start's commands that are not the adapter's, run by the
# real-Graphify smoke or by the user alone.
QUICK_START_OTHERS = (
    "GRAPHIFY_QUERY_LOG_DISABLE=1 .venv/bin/graphify path 'branch:child' 'branch:parent' "
    '--graph "$STATE/graph.json" --directed',
    'rm -r "$STATE"',
)


class TestReadmeQuickStart(unittest.TestCase):
    """The README's quick start: each adapter command prints the line shown
    under it, the fixture's first build included."""

    def test_every_result_line_is_the_one_shown(self) -> None:
        tmp = os.path.realpath(tempfile.mkdtemp(prefix="cp-readme-"))
        self.addCleanup(shutil.rmtree, tmp, ignore_errors=True)
        walkthrough = Walkthrough(tmp)
        shutil.copytree(os.path.join(ROOT, "fixtures"), os.path.join(tmp, "fixtures"))
        steps = list(console_steps(walkthrough_blocks(readme(), "## Quick start")))
        ran = 0
        for command, shown in steps:
            with self.subTest(command=command):
                if command in QUICK_START_OTHERS:
                    continue
                printed = walkthrough.run(command)
                if not printed:
                    self.assertIsNone(shown)
                    continue
                assert shown is not None
                ran += 1
                self.assertEqual(shown, as_shown(json.loads(printed)))
        self.assertEqual(ran, 2, "the build and the verify")
        self.assertIn("discarded-idea", readme_section("## Quick start"), "the first build's tombstone is explained")


def bash_or_skip(case: unittest.TestCase) -> str:
    found = shutil.which("bash")
    if os.name == "nt" or found is None:
        case.skipTest("the README's recipes are POSIX shell")
    return found


class TestReadmeUnknownEntryListing(unittest.TestCase):
    """The README's listing for state_unknown_entry prints exactly what is
    not the adapter's, and nothing on a directory the adapter accepts."""

    def setUp(self) -> None:
        self.bash = bash_or_skip(self)
        self.tmp = os.path.realpath(tempfile.mkdtemp(prefix="cp-readme-"))
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)
        self.state = os.path.join(self.tmp, "state")
        built = run_standin(["--state-root", self.state, "--selection", FIXTURE])
        self.assertEqual(built.code, "built")

    def listing(self) -> list[str]:
        recipe = readme_command("## Recovery", '(cd "$STATE"')
        completed = subprocess.run(
            [self.bash, "-c", recipe], capture_output=True, env=child_env(STATE=self.state), cwd=self.tmp, timeout=60
        )
        self.assertEqual(completed.stderr, b"")
        return sorted(completed.stdout.decode("utf-8").splitlines())

    def touch(self, *parts: str) -> None:
        with open(os.path.join(self.state, *parts), "w") as handle:
            handle.write("x")

    def test_the_adapters_own_names_are_left_out(self) -> None:
        for name in ("graph.html", "GRAPH_TREE.html", "state.json.tmp", "graph.json.tmp", ".gfy-ab12_x9.tmp"):
            self.touch(name)
        os.mkdir(os.path.join(self.state, "cache"))
        self.touch("cache", "last_query_stamp")
        self.assertEqual(self.listing(), [])
        self.assertEqual(run_module(["--state-root", self.state, "--verify"]).code, "verified")

    def test_modes_and_odd_names_change_nothing_listed(self) -> None:
        """An owned file made executable is still left out (ls -F marks it
        with "*"); a name with a line feed is listed on one line, escaped."""
        for name in ("state.json", "graph.json"):
            os.chmod(os.path.join(self.state, name), 0o700)
        self.assertEqual(self.listing(), [])
        self.touch("state.json\nreceipt.json")
        self.assertEqual(self.listing(), ["state.json\\nreceipt.json"])

    def test_everything_else_is_listed(self) -> None:
        self.touch("notes.md")
        self.touch("graph.graphml")
        self.touch("state.json.bak")
        os.mkdir(os.path.join(self.state, "archive"))
        self.touch("archive", "inner.txt")
        os.mkdir(os.path.join(self.state, "graph.html"))
        os.mkdir(os.path.join(self.state, "cache"))
        self.touch("cache", "last_query_stamp")
        self.touch("cache", "query-results.json")
        self.touch(".gfy-abc.tmp.old")
        expected = [
            ".gfy-abc.tmp.old",
            "archive/",
            "cache/query-results.json",
            "graph.graphml",
            "graph.html/",
            "notes.md",
            "state.json.bak",
        ]
        self.assertEqual(self.listing(), sorted(expected))
        self.assertEqual(run_module(["--state-root", self.state, "--verify"]).code, "state_unknown_entry")
        if CAN_SYMLINK:
            os.symlink(os.path.join(self.tmp, "elsewhere"), os.path.join(self.state, "link"))
            self.assertEqual(self.listing(), sorted([*expected, "link@"]))


class TestReadmeChangeListing(unittest.TestCase):
    """The README's jq recipe names the branches behind each change count of
    a dry run: as many as the count, and the ones expected."""

    def setUp(self) -> None:
        self.bash = bash_or_skip(self)
        if shutil.which("jq") is None:
            self.skipTest("jq is not installed")
        self.tmp = os.path.realpath(tempfile.mkdtemp(prefix="cp-readme-"))
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)
        self.state = os.path.join(self.tmp, "state")

    def accept(self, selection: dict[str, Any]) -> None:
        built = run_standin(["--state-root", self.state, "--selection", self.write(selection)])
        self.assertEqual(built.code, "built")

    def write(self, selection: dict[str, Any]) -> str:
        path = os.path.join(self.tmp, "selection.json")
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(selection, handle)
        return path

    def changes(self, selection: dict[str, Any]) -> dict[str, set[str]]:
        """What the recipe lists, checked against the dry run's counts."""
        path = self.write(selection)
        recipe = readme_command("### What the change counts mean", "jq -rn")
        completed = subprocess.run(
            [self.bash, "-c", recipe], capture_output=True, env=child_env(STATE=self.state), cwd=self.tmp, timeout=60
        )
        self.assertEqual((completed.returncode, completed.stderr), (0, b""))
        listed: dict[str, set[str]] = {"tombstone": set(), "add": set(), "change": set(), "restore": set()}
        for line in completed.stdout.decode("utf-8").splitlines():
            kind, branch_id = line.split("\t")
            self.assertNotIn(branch_id, listed[kind])
            listed[kind].add(branch_id)
        checked = run_module(["--state-root", self.state, "--selection", path, "--dry-run"])
        self.assertEqual(checked.code, "checked")
        counts = {kind: checked.json[f"branches{name}"] for kind, name in COUNT_NAMES.items()}
        self.assertEqual({kind: len(ids) for kind, ids in listed.items()}, counts)
        return listed

    def test_the_life_cycle_steps(self) -> None:
        files = sorted(os.listdir(os.path.join(ROOT, WALKTHROUGH_DIR)))

        def load(name: str) -> dict[str, Any]:
            with open(os.path.join(ROOT, WALKTHROUGH_DIR, name), encoding="utf-8") as handle:
                loaded: dict[str, Any] = json.load(handle)
            return loaded

        expected = {
            "2-correction.json": {"change": {"nas-setup"}},
            "3-exclude.json": {"tombstone": {"vpn-idea"}},
            "4-restore.json": {"restore": {"vpn-idea"}},
            "5-mistake.json": {"tombstone": {"vpn-idea"}},
        }
        for before, after in itertools.pairwise(files):
            with self.subTest(after=after):
                self.accept(load(before))
                found = {kind: ids for kind, ids in self.changes(load(after)).items() if ids}
                self.assertEqual(found, expected[after])

    def test_every_kind_at_once(self) -> None:
        with open(FIXTURE, encoding="utf-8") as handle:
            first: dict[str, Any] = json.load(handle)
        self.accept(first)  # "discarded-idea" is tombstoned
        second = json.loads(json.dumps(first))
        second["revision"] = 2
        del second["exclude"]
        second["restore"] = ["discarded-idea"]
        branches = {b["branchId"]: b for b in second["branches"]}
        branches["child"]["sourceRevision"] += 1
        second["branches"] = [b for b in second["branches"] if b["branchId"] != "parent"]
        second["branches"].append({"branchId": "new-idea", "sourceRevision": 1, "sources": [], "summaries": []})
        self.assertEqual(
            self.changes(second),
            {"tombstone": {"parent"}, "add": {"new-idea"}, "change": {"child"}, "restore": {"discarded-idea"}},
        )
        # A first selection against a state that holds it already: nothing.
        self.accept(second)
        self.assertEqual(self.changes(second), {"tombstone": set(), "add": set(), "change": set(), "restore": set()})


# The kind the recipe prints, and the count of the dry run it explains.
COUNT_NAMES = {"tombstone": "Tombstoned", "add": "Added", "change": "Changed", "restore": "Restored"}


LINK = re.compile(r"\]\((?P<target>[^)\s]+)\)")
CODE_BLOCK = re.compile(r"^```.*?^```$", re.MULTILINE | re.DOTALL)


def documents() -> list[str]:
    """The Markdown files the project ships to its users."""
    found = [os.path.join(ROOT, "README.md")]
    for current, _dirs, files in os.walk(os.path.join(ROOT, "docs")):
        found += [os.path.join(current, name) for name in sorted(files) if name.endswith(".md")]
    return found


def anchors(path: str) -> set[str]:
    """The heading anchors GitHub makes: lower case, punctuation dropped,
    spaces as hyphens."""
    with open(path, encoding="utf-8") as handle:
        prose = CODE_BLOCK.sub("", handle.read())
    headings = re.findall(r"^#+ (.+)$", prose, re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in headings}


class TestDocumentLinks(unittest.TestCase):
    """No document points at a file the project does not ship, or at a
    heading that is not there."""

    def test_every_relative_link_resolves(self) -> None:
        for document in documents():
            with open(document, encoding="utf-8") as handle:
                targets = LINK.findall(CODE_BLOCK.sub("", handle.read()))
            for target in targets:
                if target.startswith(("https://", "http://")):
                    continue
                with self.subTest(document=os.path.relpath(document, ROOT), target=target):
                    name, _, anchor = target.partition("#")
                    path = os.path.normpath(os.path.join(os.path.dirname(document), name)) if name else document
                    self.assertTrue(os.path.exists(path), "the linked file is shipped")
                    if anchor:
                        self.assertIn(anchor, anchors(path))


def print_section() -> None:
    """The console blocks' lines as the adapter prints them now, digests
    elided, and each diff as the files give it: what to paste into the
    page after a change of behaviour."""
    with open(LIFE_CYCLE, encoding="utf-8") as handle:
        blocks = walkthrough_blocks(handle.read())
    workdir = os.path.realpath(tempfile.mkdtemp(prefix="cp-readme-"))
    try:
        walkthrough = Walkthrough(workdir)
        for block in blocks:
            if block.kind == "diff":
                old, new = (line.split(" ", 1)[1] for line in block.body.split("\n")[:2])
                print(f"```diff\n{diff_of(old, new)}\n```")
            elif block.kind == "console":
                print("```console")
                for line in block.body.split("\n"):
                    if line.startswith("$ "):
                        print(line)
                        printed = walkthrough.run(line[2:])
                        if printed:
                            is_line = line[2:] != EXIT_STATUS
                            print(as_shown(json.loads(printed)) if is_line else printed)
                print("```")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    if sys.argv[1:] == ["--print"]:
        print_section()
    else:
        unittest.main()
