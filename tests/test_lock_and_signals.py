"""The lock: projection.lock, who holds it, and a lock whose content did not reach the
file.

Run: python -I tests/test_lock_and_signals.py
"""

from __future__ import annotations

import os
import sys
import unittest
import unittest.mock
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

# -I leaves the script's own directory off sys.path.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from cp_testlib import (
    TempDirTestCase,
    cp,
    execute,
    family,
    fixture,
    later,
    mutated,
    run_standin,
    snapshot_tree,
)


class TestLock(TempDirTestCase):
    def test_existing_lock_touches_nothing(self) -> None:
        self.assertResult(self.project(fixture()), "built")
        with open(os.path.join(self.state, "projection.lock"), "w") as handle:
            handle.write("12345\n")
        before = snapshot_tree(self.state)
        self.assertResult(self.project(family(revision=2)), "state_locked")
        self.assertResult(self.rebuild(), "state_locked")
        self.assertResult(self.verify(), "state_locked")
        self.assertResult(run_standin(["--state-root", self.state, "--dry-run"]), "state_locked")
        self.assertEqual(snapshot_tree(self.state), before)
        os.unlink(os.path.join(self.state, "projection.lock"))
        self.assertResult(self.rebuild(), "built")

    def test_lock_on_a_first_use_directory(self) -> None:
        os.mkdir(self.state, 0o700)
        with open(os.path.join(self.state, "projection.lock"), "w") as handle:
            handle.write("1\n")
        self.assertResult(self.project(fixture()), "state_locked")
        self.assertEqual(self.entries(), ["projection.lock"])

    def test_lock_is_removed_on_every_exit_path(self) -> None:
        paths = [
            ("ok", family(), "built", None),
            ("ok", mutated(lambda v: v.update(raw=1)), "selection_unknown_field", ""),
            ("build-raises", family(revision=5), "graphify_failed", None),
            ("missing", family(revision=6), "graphify_missing", None),
            ("adapter-bug", family(revision=7), "internal_error", None),
            ("ok", family(revision=1), "revision_stale", "/revision"),
        ]
        for mode, value, code, at in paths:
            with self.subTest(code):
                self.assertResult(self.project(value, mode=mode), code, at=at, withdrawn=code != "built")
                self.assertNotIn("projection.lock", self.entries())

    def owned_empty_state(self) -> cp.OwnedDir:
        os.mkdir(self.state, 0o700)
        owned = cp.open_root(self.state, create=False)
        assert owned is not None
        self.addCleanup(owned.close)
        return owned

    def test_lock_names_its_owner(self) -> None:
        owned = self.owned_empty_state()
        lock = cp.Lock(owned)
        lock.acquire()
        with open(os.path.join(self.state, "projection.lock")) as handle:
            pid, token = handle.read().split()
        self.assertEqual((pid, len(token)), (str(os.getpid()), 16))
        with self.assertRaises(cp.ProjectionError) as caught:
            cp.Lock(owned).acquire()
        self.assertEqual(caught.exception.code, "state_locked")
        lock.release()
        self.assertEqual(os.listdir(self.state), [])

    def test_release_leaves_a_lock_it_does_not_own(self) -> None:
        lock = cp.Lock(self.owned_empty_state())
        lock.acquire()
        os.unlink(os.path.join(self.state, "projection.lock"))
        with open(os.path.join(self.state, "projection.lock"), "w") as handle:
            handle.write("other\n")
        lock.release()
        self.assertEqual(os.listdir(self.state), ["projection.lock"])

    def test_memory_that_runs_out_around_the_lock_leaves_none(self) -> None:
        """Issue 33: a run under ``ulimit -v`` left projection.lock behind
        when memory ran out while the lock was made (its content was made
        after the file) or while its release checked the name.  The content
        is made first; the check is tried again after the run's reserve is
        released, and the lock is removed unchecked when it cannot be made."""
        owned = self.owned_empty_state()
        with unittest.mock.patch.object(cp.os, "urandom", side_effect=MemoryError), self.assertRaises(MemoryError):
            cp.Lock(owned).acquire()
        self.assertEqual(os.listdir(self.state), [])
        with unittest.mock.patch.object(cp.os, "fstat", side_effect=MemoryError), self.assertRaises(MemoryError):
            cp.Lock(owned).acquire()
        self.assertEqual(os.listdir(self.state), [])
        for failure in (MemoryError(), cp.ProjectionError("resource_exhausted")):
            with self.subTest(type(failure).__name__):
                lock = cp.Lock(owned)
                lock.acquire()
                cp.RESERVE.take()
                with unittest.mock.patch.object(cp.OwnedDir, "lstat", side_effect=failure) as lstat:
                    lock.release()
                self.assertEqual(lstat.call_count, 2)
                self.assertIsNone(cp.RESERVE.block)
                self.assertEqual(os.listdir(self.state), [])
        # Once is enough when the second try can tell: a lock not its own stays.
        lock = cp.Lock(owned)
        lock.acquire()
        with unittest.mock.patch.object(cp.OwnedDir, "lstat", side_effect=[MemoryError(), os.stat(self.state)]):
            lock.release()
        self.assertEqual(os.listdir(self.state), ["projection.lock"])


def open_descriptors() -> list[str] | None:
    """This process's open descriptors, where the system lists them."""
    return sorted(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else None


class TestLockShortWrite(TempDirTestCase):
    """A lock whose content did not reach the file cannot be told from
    another's: the run refuses, and leaves no lock behind."""

    @contextmanager
    def short_lock_writes(self) -> Iterator[list[int]]:
        real_write = os.write
        cut: list[int] = []

        def write(fd: int, data: Any) -> int:
            payload = bytes(data)
            if payload.endswith(b"\n") and payload.split(b" ")[0] == str(os.getpid()).encode():
                cut.append(fd)
                return real_write(fd, payload[:-1])
            return real_write(fd, data)

        with mock.patch.object(cp.os, "write", write):
            yield cut

    def test_acquire_refuses_and_removes_the_lock(self) -> None:
        os.mkdir(self.state, 0o700)
        owned = cp.open_root(self.state, create=False)
        assert owned is not None
        self.addCleanup(owned.close)
        lock = cp.Lock(owned)
        descriptors = open_descriptors()
        with self.short_lock_writes() as cut, self.assertRaises(cp.ProjectionError) as caught:
            lock.acquire()
        self.assertEqual((caught.exception.code, len(cut)), ("state_access", 1))
        self.assertEqual(os.listdir(self.state), [])
        self.assertIsNone(lock.identity)
        self.assertEqual(open_descriptors(), descriptors)

    def test_update_refused_before_it_touches_anything(self) -> None:
        path = self.write_selection(fixture())
        self.assertEqual(execute(["--state-root", self.state, "--selection", path])[1]["code"], "built")
        before = snapshot_tree(self.state)
        second = self.write_selection(later(2), "second.json")
        with self.short_lock_writes():
            exit_code, result = execute(["--state-root", self.state, "--selection", second])
        self.assertEqual((exit_code, result["code"]), (cp.EXIT_INVALID, "state_access"))
        self.assertNotIn("withdrawn", result)
        self.assertEqual(snapshot_tree(self.state), before)


if __name__ == "__main__":
    unittest.main()
