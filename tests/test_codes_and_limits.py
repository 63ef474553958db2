"""Codes, versions and limits: each code's exit status and the bounds, as the docs state
them.

Run: python -I tests/test_codes_and_limits.py
"""

from __future__ import annotations

import os
import sys
import unittest

# -I leaves the script's own directory off sys.path.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from cp_testlib import (
    ROOT,
    TempDirTestCase,
    cp,
    sys,
)


class TestCodesAndLimits(TempDirTestCase):
    def test_every_code_has_a_documented_exit(self) -> None:
        self.assertEqual({cp.CODES[c] for c in ("built", "verified", "checked")}, {0})
        self.assertEqual({cp.CODES[c] for c in ("graphify_missing", "graphify_incompatible", "graphify_failed")}, {3})
        with open(os.path.join(ROOT, "docs", "codes.md"), encoding="utf-8") as handle:
            table = handle.read()
        for code, exit_code in cp.CODES.items():
            self.assertIn(f"\n| `{code}` | {exit_code} |", table, f"docs/codes.md must document {code}")

    def test_the_state_bounds_are_those_the_codes_table_states(self) -> None:
        import re

        with open(os.path.join(ROOT, "docs", "codes.md"), encoding="utf-8") as handle:
            readme = handle.read()
        found = re.search(r"own bounds \((\d+) MiB, ([\d,]+) tombstones\)", readme)
        assert found is not None
        self.assertEqual(int(found[1]) * 1024 * 1024, cp.MAX_STATE_BYTES)
        self.assertEqual(int(found[2].replace(",", "")), cp.MAX_TOMBSTONES)


if __name__ == "__main__":
    unittest.main()
