"""The README's worked life cycle, run exactly as it is written.

Every command of the README section "A worked life cycle" runs as a fresh
``python -I conversation_projection.py`` process in a temporary directory,
with the fake Graphify of the fresh-interpreter suite installed into a
throw-away virtual environment, and each result line is compared with the one
the README shows, field by field.  Digests come from the fake Graphify here,
so the README shows them elided ("…") and only their shape is checked; the
Graphify version shown must be the one CI pins.  Each selection and each diff
the section shows must be the file, or the diff of the files, under
docs/walkthrough/.

    python -I tests/test_readme_walkthrough.py           # the check
    python -I tests/test_readme_walkthrough.py --print   # the section's blocks as they come out now
"""

from __future__ import annotations

import difflib
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

from cp_testlib import MODULE, ROOT, child_env
from test_fresh_interpreter import make_fake_graphify_venv

README = os.path.join(ROOT, "README.md")
WALKTHROUGH_DIR = os.path.join("docs", "walkthrough")
SECTION = "## A worked life cycle"
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


def walkthrough_blocks(readme: str) -> list[Block]:
    """The fenced blocks of the walkthrough section, in order."""
    start = readme.index(SECTION)
    end = readme.find("\n## ", start + len(SECTION))
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
        with open(README, encoding="utf-8") as handle:
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
                self.assertIsNotNone(shown, "the README shows what the command printed")
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
    README after a change of behaviour."""
    with open(README, encoding="utf-8") as handle:
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
