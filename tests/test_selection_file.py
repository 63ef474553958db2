"""Reading the selection file: one regular file, bounded, never a directory, FIFO or
device.

Run: python -I tests/test_selection_file.py
"""

from __future__ import annotations

import errno
import json
import os
import sys
import threading
import unittest
import unittest.mock
from typing import Any

# -I leaves the script's own directory off sys.path.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from cp_testlib import (
    Result,
    TempDirTestCase,
    code_of,
    cp,
    encode,
    minimal,
    run_module,
)


class TestSelectionReading(TempDirTestCase):
    def run_file(self, path: str) -> Result:
        return run_module(["--state-root", self.state, "--selection", path])

    def test_missing_file(self) -> None:
        self.assertResult(self.run_file(os.path.join(self.tmp, "absent.json")), "selection_unreadable")
        self.assertFalse(os.path.exists(self.state))

    def test_directory(self) -> None:
        self.assertResult(self.run_file(self.tmp), "selection_unreadable")

    def test_character_device(self) -> None:
        if not os.path.exists(os.devnull) or os.name != "posix":
            self.skipTest("no /dev/null")
        self.assertResult(self.run_file(os.devnull), "selection_unreadable")

    @unittest.skipUnless(hasattr(os, "mkfifo"), "FIFOs are POSIX")
    def test_fifo_does_not_block(self) -> None:
        fifo = os.path.join(self.tmp, "selection.fifo")
        os.mkfifo(fifo)
        self.assertResult(self.run_file(fifo), "selection_unreadable")

    def test_too_few_descriptors_or_too_little_memory_to_open_it(self) -> None:
        """No descriptor left (EMFILE, ENFILE) or no kernel memory (ENOMEM)
        when the selection is opened: resource_exhausted, not unreadable."""

        path = self.write_selection(minimal())
        real_open = os.open
        for number in (errno.EMFILE, errno.ENFILE, errno.ENOMEM):
            with self.subTest(errno=errno.errorcode[number]):

                def open_refusing_the_selection(name: Any, *args: Any, refused: int = number, **kwargs: Any) -> int:
                    if name == path:
                        raise OSError(refused, os.strerror(refused))
                    return real_open(name, *args, **kwargs)

                with unittest.mock.patch.object(cp.os, "open", open_refusing_the_selection):
                    exit_code, line = cp.execute(["--state-root", self.state, "--selection", path])
                self.assertEqual((exit_code, json.loads(line)["code"]), (3, "resource_exhausted"))
        self.assertFalse(os.path.exists(self.state))

    @unittest.skipUnless(os.path.exists("/proc/self/mem"), "Linux /proc")
    def test_a_regular_file_that_fails_to_read(self) -> None:
        """/proc/self/mem opens as a regular file; reading it from offset 0
        fails with EIO (nothing is mapped there)."""
        self.assertResult(self.run_file("/proc/self/mem"), "selection_unreadable")
        self.assertFalse(os.path.exists(self.state))

    @unittest.skipIf(os.name != "posix" or os.geteuid() == 0, "root reads anything")
    def test_permission_denied(self) -> None:
        path = self.write_selection(minimal())
        os.chmod(path, 0)
        self.assertResult(self.run_file(path), "selection_unreadable")

    def test_one_gibibyte_file_is_refused_without_reading(self) -> None:
        path = os.path.join(self.tmp, "huge.json")
        with open(path, "wb") as handle:
            handle.truncate(1 << 30)
        self.assertResult(self.run_file(path), "selection_too_large")

    def test_exact_bound(self) -> None:
        """The documented bound, 2 MiB, counted here, not read from the module."""
        body = encode(minimal())
        at_limit = body + b" " * (2 * 1024 * 1024 - len(body))
        self.assertIsNone(code_of(at_limit))
        self.assertEqual(code_of(at_limit + b" "), "selection_too_large")
        self.assertResult(self.run_file(self.write_selection(at_limit + b" ")), "selection_too_large")

    @unittest.skipUnless(hasattr(os, "pipe"), "needs pipes")
    def test_reads_at_most_limit_plus_one_bytes(self) -> None:
        reader, writer = os.pipe()
        payload = b"x" * 5000
        thread = threading.Thread(target=lambda: (os.write(writer, payload), os.close(writer)))
        thread.start()
        thread.join()
        with self.assertRaises(cp.ProjectionError) as caught:
            cp._read_bounded(reader, 100, "selection_too_large")
        self.assertEqual(caught.exception.code, "selection_too_large")
        remaining = b""
        while chunk := os.read(reader, 10000):
            remaining += chunk
        os.close(reader)
        self.assertEqual(len(remaining), 5000 - 101)


if __name__ == "__main__":
    unittest.main()
