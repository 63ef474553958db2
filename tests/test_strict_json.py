"""Strict JSON: bytes to a value, the first fault's place, lone surrogates however written.

Run: python -I tests/test_strict_json.py
"""

from __future__ import annotations

import json
import os
import random
import sys
import unittest
import unittest.mock
from typing import Any

# -I leaves the script's own directory off sys.path.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cp_testlib
from cp_testlib import (
    TempDirTestCase,
    code_of,
    cp,
    encode,
    first_summary,
    fixture,
    generated_secrets,
    minimal,
    refusal_of,
)


class TestStrictJson(unittest.TestCase):
    def test_few_containers_are_walked_rather_than_read_again(self) -> None:
        """Up to 10,000 brackets the parsed value is walked for nesting;
        past them the bytes are read instead (a walk in Python would cost
        more)."""
        for count, reads in ((10_000, False), (10_001, True)):
            data = b"[" + b",".join([b"[]"] * (count - 1)) + b"]"
            value = json.loads(data)
            with (
                self.subTest(count=count),
                unittest.mock.patch.object(cp, "_too_deep_offset", return_value=None) as read,
            ):
                self.assertIsNone(cp._too_deep(data, cp.MAX_NESTING, value))
                self.assertIs(read.called, reads)

    def test_malformed_bytes(self) -> None:
        valid = encode(minimal())
        cases = {
            "empty": b"",
            "whitespace": b" \n\t ",
            "truncated": valid[: len(valid) // 2],
            "trailing garbage": valid + b" x",
            "two values": valid + valid,
            "invalid utf-8": valid.replace(b"Summary", b"Summ\xffary"),
            "overlong utf-8": b'{"a":"\xc0\xaf"}',
            "utf-16": json.dumps(minimal()).encode("utf-16"),
            "byte order mark": b"\xef\xbb\xbf" + valid,
            "NaN": b'{"revision": NaN}',
            "Infinity": b'{"revision": Infinity}',
            "-Infinity": b'{"revision": -Infinity}',
            "overflowing float": b'{"revision": 1e999}',
            "5000-digit integer": b'{"revision": ' + b"9" * 5000 + b"}",
            "100000-deep arrays": b"[" * 100_000 + b"]" * 100_000,
            "100000-deep objects": b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
            "unclosed deep": b"[" * 100_000,
            "lone surrogate in text": valid.replace(b"Summary of parent.", b"\\ud800"),
            "lone surrogate in a key": b'{"\\udc00": 1}',
            "lone low surrogate": b'["\\udfff"]',
            "single quotes": b"{'a': 1}",
            "comment": b'{"a": 1 /* c */}',
            "control char in string": b'{"a": "x\x01y"}',
        }
        for name, data in cases.items():
            with self.subTest(name):
                self.assertEqual(code_of(data), "selection_malformed")

    def test_duplicate_keys_at_any_depth(self) -> None:
        text = json.dumps(minimal())
        top = text[:-1] + ', "revision": 1}'
        nested = text.replace('"role": "user"', '"role": "user", "role": "user"', 1)
        self.assertEqual(code_of(top.encode()), "selection_duplicate_key")
        self.assertEqual(code_of(nested.encode()), "selection_duplicate_key")
        self.assertEqual(code_of(b'{"x": {"y": {"z": 1, "z": 1}}}'), "selection_duplicate_key")

    def test_valid_json_that_is_not_an_object(self) -> None:
        for data in (b"[]", b'"text"', b"12", b"null", b"true", b"1.5"):
            with self.subTest(data):
                self.assertEqual(code_of(data), "selection_schema")

    def test_surrogate_pair_is_fine(self) -> None:
        value = minimal()
        value["branches"][0]["summaries"][0]["text"] = "Emoji \U0001f600 kept."
        data = json.dumps(value, ensure_ascii=True).encode()
        self.assertIn(b"\\ud83d\\ude00", data)
        self.assertIsNone(code_of(data))

    def test_nesting_bound_counts_containers_not_brackets_in_strings(self) -> None:
        expected: Any = []
        for _ in range(63):
            expected = [expected]
        self.assertEqual(cp.parse_json(b"[" * 64 + b"]" * 64), expected)
        with self.assertRaises(cp.ProjectionError) as caught:
            cp.parse_json(b"[" * 65 + b"]" * 65)
        self.assertEqual(caught.exception.code, "selection_malformed")
        inside_strings = b'{"a": "[[[[", "b": [["{{"]]}'
        self.assertEqual(cp.parse_json(inside_strings, max_depth=3), {"a": "[[[[", "b": [["{{"]]})
        with self.assertRaises(cp.ProjectionError):
            cp.parse_json(b'{"b": [[[1]]]}', max_depth=3)

    # (document, line, column) of the first place the adapter stops reading.
    STOPS = (
        (b"", 1, 1),
        (b"\xef\xbb\xbf{}", 1, 1),
        (b'{\n  "a": 1,\n}', 3, 1),
        (b"[1, 2,]", 1, 7),
        (b"[1,\n ]", 2, 2),
        (b'{"a":1 , }', 1, 10),
        (b"[,]", 1, 2),
        (b'{"a": "\xc3\xa9\xc3\xa9", x}', 1, 13),
        (b'{"a":\n "x\xffy"}', 2, 4),
        (b'{"a": "\xc3\xa9",\n "b": "\xc3\xa9\xff"}', 2, 10),
        (b'{"a":\n NaN, "b": "x\xffy"}', 2, 2),
        (b'{"a": [1,,2], "b": "x\xffy"}', 1, 10),
        (b'{"a": ' + b"[" * 65 + b'"x\xffy"', 1, 70),
        (b'{"a": {"k": 1, "k": 2}, "b": "x\xffy"}', 1, 32),
        (b'{"a": "\\u12\xff"}', 1, 12),
        (b'{"a": "\\u12zz", "b": "\xff"}', 1, 9),
        (b'{\n"a": [1,\n  NaN]}', 3, 3),
        (b'{"a": "NaN", "b": -Infinity}', 1, 19),
        (b'{"a": "Infinity", "b": [Infinity]}', 1, 25),
        (b'{"a": [2, 1e999]}', 1, 11),
        (b'{"a": "' + b"1" * 40 + b'", "b": ' + b"1" * 33 + b"}", 1, 56),
        (b'{"a": -' + b"1" * 32 + b"}", 1, 7),
        (b'{"a": 1.' + b"1" * 32 + b"}", 1, 7),
        (b'{"a": ' + b"9" * 5000 + b"}", 1, 7),
        (b'{"a": "x\\"[[[", "b": NaN}', 1, 22),
        (b'{"a": "\\\\", "b": NaN}', 1, 18),
        (b'{"a": "\\ud800"}', 1, 8),
        (b'["\\uD800\\uDC00", "\\\\ud800", "\\uDBFF"]', 1, 30),
        (b"[" * 65 + b"]" * 65, 1, 65),
        (b'{"a": "[[[[",\n "b": ' + b"[" * 64 + b"]" * 64 + b"}", 2, 70),
        (b"[" * 100_000 + b"]" * 100_000, 1, 65),
        (b"[" * 70 + b"}", 1, 65),
        (b"[" + b'"\xc3\xa9",' * 3 + b"[" * 64 + b"x", 1, 77),
        (b'[1, "' + b"2" * 40 + b'", ' + b"3" * 40 + b", NaN]", 1, 49),
        # Nesting inside an object that repeats a key, below the top level.
        (b'{"a": [{"x": ' + b"[" * 65 + b"]" * 65 + b', "x": 1}]}', 1, 75),
        (b'{"a": [{"x": ' + b"[" * 65 + b"]" * 65 + b', "x": 1}], "b": ' + b"1" * 40 + b"}", 1, 75),
        (b'{"a": [{"x": ' + b"[" * 65 + b"]" * 65 + b', "x": 1}], "b": "\xff"}', 1, 75),
        # Brackets and digits inside strings are neither nesting nor numbers.
        (b'{"a": "' + b"[" * 70 + b'", "b": NaN}', 1, 86),
        (b'{"a": "' + b"1" * 40 + b'", "b": NaN}', 1, 56),
        (b'{"a": "' + b"1" * 40 + b'\xff"}', 1, 48),
        # The token itself inside strings, escaped quotes among them.
        (b'{"a": "NaN NaN \\"NaN\\" NaN", "b": "NaN", "c": NaN}', 1, 47),
        (b'{"a": "1e999 \\"1e999", "b": [1e999]}', 1, 30),
        # A long number is reported where its token starts.
        (b'{"a": 2.' + b"5" * 40 + b"}", 1, 7),
        (b'{"a": [3, 12e' + b"5" * 40 + b"]}", 1, 11),
    )

    def test_malformed_says_where_it_stops(self) -> None:
        for data, line, column in self.STOPS:
            with self.subTest(data=data[:60]):
                with self.assertRaises(cp.ProjectionError) as caught:
                    cp.check_selection_bytes(data)
                self.assertEqual(caught.exception.code, "selection_malformed")
                self.assertEqual((caught.exception.line, caught.exception.column), (line, column))

    def test_a_fault_comes_before_every_other_refusal(self) -> None:
        """Faults are sought only once a check refuses: each refusal a
        selection would get otherwise gives way to the fault it holds."""
        secret = generated_secrets(random.Random(1))["github ghp"]

        def with_secret_and(field: str, raw: bytes) -> bytes:
            value = minimal()
            first_summary(value)["text"] = f"Use {secret} for CI."
            return encode(value)[:-1] + b', "' + field.encode() + b'": ' + raw + b"}"

        deep = b"[" * 65 + b"]" * 65
        cases = {
            "secret, deep unknown field": with_secret_and("x", deep),
            "secret, long number": with_secret_and("x", b"1" * 40),
            "secret, lone surrogate": with_secret_and("x", b'"\\ud800"'),
            "repeated key, deep": with_secret_and("revision", deep),
            "revision too long": encode(minimal()).replace(b'"revision": 1', b'"revision": ' + b"1" * 40, 1),
        }
        for name, data in cases.items():
            with self.subTest(name):
                self.assertNotEqual(data, encode(minimal()))
                with self.assertRaises(cp.ProjectionError) as caught:
                    cp.check_selection_bytes(data)
                self.assertEqual(caught.exception.code, "selection_malformed")
                self.assertIsNotNone(caught.exception.line)
        # Without the fault, each is refused for what it is.
        self.assertEqual(code_of(with_secret_and("x", b"[]")), "selection_unknown_field")
        self.assertEqual(code_of(with_secret_and("revision", b"[]")), "selection_duplicate_key")

    def test_bounds_that_hold_are_not_a_stop(self) -> None:
        for data in (b'{"a": ' + b"1" * 32 + b"}", b'{"a": -' + b"1" * 31 + b"}", b"[" * 64 + b"]" * 64):
            with self.subTest(data=data[:40]):
                self.assertIsNotNone(cp.parse_json(data))

    def test_a_fault_in_a_state_has_no_place(self) -> None:
        with self.assertRaises(cp.ProjectionError) as caught:
            cp.parse_state(b'{"a": NaN}')
        self.assertEqual((caught.exception.code, caught.exception.line), ("state_corrupt", None))


class TestSurrogateEscapes(TempDirTestCase):
    """A lone surrogate is malformed JSON text however its escape is
    written: \\uD800 upper case as much as \\ud800."""

    SPELLINGS = ("\\uD800", "\\uDBFF", "\\uDC00", "\\uDfff", "\\udAbC", "\\ud800")

    def in_text(self, escape: str) -> bytes:
        data = encode(fixture())
        self.assertIn(b"Plan a weekly", data)
        return data.replace(b"Plan a weekly", escape.encode("ascii") + b" Plan a weekly", 1)

    def test_every_spelling_is_malformed(self) -> None:
        for escape in self.SPELLINGS:
            raw = escape.encode("ascii")
            for name, data in (
                ("text", self.in_text(escape)),
                ("key", b'{"' + raw + b'": 1}'),
                ("top-level string", b'"' + raw + b'"'),
                ("nested array", b'{"branches": [[["' + raw + b'"]]]}'),
            ):
                with self.subTest(escape=escape, where=name):
                    error = refusal_of(data)
                    assert error is not None
                    self.assertEqual(error.code, "selection_malformed")

    def test_pairs_and_escaped_backslashes_are_text(self) -> None:
        for written in ("\\uD83D\\uDE00", "\\ud83d\\uDE00", "\\\\uD800"):
            with self.subTest(written):
                self.assertIsNone(refusal_of(self.in_text(written)))

    def test_upper_case_escape_through_the_entry_point(self) -> None:
        path = self.write_selection(self.in_text("\\uD800"))
        result = cp_testlib.run_module(["--state-root", self.state, "--selection", path, "--dry-run"])
        self.assertEqual((result.code, result.returncode, result.stderr), ("selection_malformed", 2, b""))
        self.assertFalse(os.path.exists(self.state))


if __name__ == "__main__":
    unittest.main()
