"""The PowerShell wrapper's hand-written python_missing line against the adapter.

Project-ConversationContext.ps1 prints a fixed result line when -PythonPath
is not a file, because then the adapter cannot run to print its own.  That
line repeats the adapter's version and the result line's shape by hand; this
suite fails when either drifts from conversation_projection.py or from
pyproject.toml.

Stdlib only: python -I tests/test_wrapper_version.py, or under pytest.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tomllib
import unittest
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
WRAPPER = os.path.join(ROOT, "Project-ConversationContext.ps1")
PYPROJECT = os.path.join(ROOT, "pyproject.toml")
sys.path.insert(0, ROOT)

import conversation_projection as cp  # noqa: E402

# The keys every result line carries, success or failure (docs/result-line.md).
ALWAYS_KEYS = [
    "adapterVersion",
    "code",
    "contextGraph",
    "embeddingIdentity",
    "exitCode",
    "graphifyVersion",
    "projectionSchemaVersion",
    "result",
]

# $pythonMissing = '...'; a PowerShell single-quoted string, where '' is a quote.
ASSIGNMENT = re.compile(r"^\$pythonMissing\s*=\s*'((?:[^']|'')*)'\s*$", re.MULTILINE)
# The branch that prints it, up to its exit statement.
BRANCH = re.compile(r"WriteLine\(\$pythonMissing\)\s*\n\s*exit\s+(\d+)\s*\n")


def wrapper_source() -> str:
    with open(WRAPPER, encoding="utf-8") as handle:
        return handle.read()


def wrapper_line(source: str) -> str:
    found = ASSIGNMENT.findall(source)
    if len(found) != 1:
        raise AssertionError(f"expected one $pythonMissing = '...' line in the wrapper, found {len(found)}")
    return str(found[0]).replace("''", "'")


def ordered_pairs(text: str) -> list[tuple[str, Any]]:
    pairs: list[tuple[str, Any]] = []

    def keep(items: list[tuple[str, Any]]) -> dict[str, Any]:
        pairs.extend(items)
        return dict(items)

    json.loads(text, object_pairs_hook=keep)
    return pairs


def adapter_failure_line(code: str) -> str:
    return cp.result_line(cp.Outcome(code, {}))


class WrapperVersion(unittest.TestCase):
    def setUp(self) -> None:
        self.source = wrapper_source()
        self.text = wrapper_line(self.source)
        self.line = json.loads(self.text)

    def test_adapter_version_matches_module(self) -> None:
        self.assertEqual(
            self.line["adapterVersion"],
            cp.ADAPTER_VERSION,
            "Project-ConversationContext.ps1's python_missing line and conversation_projection.ADAPTER_VERSION differ",
        )

    def test_adapter_version_matches_pyproject(self) -> None:
        with open(PYPROJECT, "rb") as handle:
            version = tomllib.load(handle)["project"]["version"]
        self.assertEqual(
            self.line["adapterVersion"],
            version,
            "Project-ConversationContext.ps1's python_missing line and pyproject.toml's version differ",
        )
        self.assertEqual(cp.ADAPTER_VERSION, version, "ADAPTER_VERSION and pyproject.toml's version differ")


class WrapperLineShape(unittest.TestCase):
    def setUp(self) -> None:
        self.source = wrapper_source()
        self.text = wrapper_line(self.source)

    def test_keys_are_the_always_present_keys_sorted(self) -> None:
        keys = [key for key, _ in ordered_pairs(self.text)]
        self.assertEqual(keys, ALWAYS_KEYS)

    def test_same_keys_as_the_adapters_own_failure_line(self) -> None:
        adapter_keys = [key for key, _ in ordered_pairs(adapter_failure_line("usage"))]
        self.assertEqual(adapter_keys, ALWAYS_KEYS, "the adapter's failure line changed its keys")
        self.assertEqual([key for key, _ in ordered_pairs(self.text)], adapter_keys)

    def test_compact_one_line_json(self) -> None:
        # Byte for byte what the adapter's own writer makes: sorted keys, no spaces.
        value = json.loads(self.text)
        self.assertEqual(self.text, json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True))
        self.assertNotIn("\n", self.text)

    def test_values_are_an_invalid_python_missing_result(self) -> None:
        # The adapter's own line for an exit-2 failure, with the wrapper's code.
        expected = json.loads(adapter_failure_line("usage"))
        self.assertEqual(expected["exitCode"], cp.EXIT_INVALID)
        expected["code"] = "python_missing"
        self.assertEqual(json.loads(self.text), expected)
        self.assertNotIn("python_missing", cp.CODES, "python_missing is the wrapper's own code, not the adapter's")

    def test_wrapper_exits_with_the_lines_exit_code(self) -> None:
        exits = BRANCH.findall(self.source)
        self.assertEqual(len(exits), 1, "expected one WriteLine($pythonMissing) followed by exit N")
        self.assertEqual(int(exits[0]), json.loads(self.text)["exitCode"])


if __name__ == "__main__":
    unittest.main()
