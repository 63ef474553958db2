"""Reliability suite: crashes at every step, concurrent runs, hostile input
and hostile filesystems.

Run: python -I tests/test_reliability.py
CP_FUZZ_EXAMPLES=N raises the number of fuzz cases (5,000 by default);
CP_FUZZ_RANDOM=1 draws new cases instead of the reproducible default set.
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import unittest
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import standin_graphify
from cp_testlib import (
    CAN_SYMLINK,
    HANDLED_SIGNALS,
    HERE,
    MODULE,
    REQUIRE_DEV_TOOLS,
    SIGNALS_BY_DEFAULT,
    Result,
    TempDirTestCase,
    branch,
    child_env,
    cp,
    encode,
    fixture,
    run_module,
    run_released,
    run_standin,
    selection,
    snapshot_tree,
    summary,
)

try:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st
except ImportError:  # pragma: no cover - CI installs it
    given = None

FAULT_CHILD = os.path.join(HERE, "fault_child.py")
PUBLISHED = ["extraction.json", "graph.json", "receipt.json", "state.json"]
IS_ROOT = os.name == "posix" and os.geteuid() == 0


def run_faulty(plan: dict[str, Any], args: list[str]) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-I", FAULT_CHILD, json.dumps(plan), *args],
        capture_output=True,
        env=child_env(),
        timeout=60,
        preexec_fn=SIGNALS_BY_DEFAULT,
    )


def copy_state(source: str, target: str) -> None:
    os.mkdir(target, 0o700)
    for name in os.listdir(source):
        shutil.copy2(os.path.join(source, name), os.path.join(target, name))


def read(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def second_revision() -> dict[str, Any]:
    value = fixture()
    value["revision"] = 2
    value["exclude"] = ["discarded-idea", "parent"]
    for entry in value["branches"]:
        if entry["branchId"] == "child":
            entry["sourceRevision"] = 3
            entry["summaries"][0]["text"] = "Chose an encrypted drive, swapped every Sunday and checked monthly."
    return value


class Lifecycle(TempDirTestCase):
    """A built revision 1 and, beside it, the bytes a clean build gives for
    revision 1 and for revision 2 applied on top of it."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.base = os.path.realpath(tempfile.mkdtemp(prefix="cp-rel-"))
        cls.template = os.path.join(cls.base, "template")
        cls.first = os.path.join(cls.base, "first.json")
        cls.second = os.path.join(cls.base, "second.json")
        with open(cls.first, "wb") as handle:
            handle.write(encode(fixture()))
        with open(cls.second, "wb") as handle:
            handle.write(encode(second_revision()))
        assert run_standin(["--state-root", cls.template, "--selection", cls.first]).code == "built"
        cls.old = {name: read(os.path.join(cls.template, name)) for name in PUBLISHED}
        newer = os.path.join(cls.base, "newer")
        copy_state(cls.template, newer)
        assert run_standin(["--state-root", newer, "--selection", cls.second]).code == "built"
        cls.new = {name: read(os.path.join(newer, name)) for name in PUBLISHED}
        trace = os.path.join(cls.base, "trace.json")
        probe = os.path.join(cls.base, "probe")
        copy_state(cls.template, probe)
        completed = run_faulty({"at": None, "trace": trace}, ["--state-root", probe, "--selection", cls.second])
        assert json.loads(completed.stdout)["code"] == "built"
        with open(trace, encoding="utf-8") as handle:
            cls.steps: list[str] = json.load(handle)
        first_trace = os.path.join(cls.base, "first-trace.json")
        completed = run_faulty(
            {"at": None, "trace": first_trace},
            ["--state-root", os.path.join(cls.base, "fresh"), "--selection", cls.first],
        )
        assert json.loads(completed.stdout)["code"] == "built"
        with open(first_trace, encoding="utf-8") as handle:
            cls.first_steps: list[str] = json.load(handle)

    @classmethod
    def tearDownClass(cls) -> None:
        shutil.rmtree(cls.base, ignore_errors=True)

    def fresh(self) -> str:
        """A new copy of the built revision 1, in a directory of its own."""
        self.state = tempfile.mkdtemp(prefix="state-", dir=self.tmp)
        os.rmdir(self.state)
        copy_state(self.template, self.state)
        return self.state

    def assert_complete_state(self) -> dict[str, bytes]:
        """state.json is the whole old or the whole new state; returns the
        matching clean-build bytes."""
        current = self.read("state.json")
        self.assertIn(current, (self.old["state.json"], self.new["state.json"]))
        return self.old if current == self.old["state.json"] else self.new

    def assert_owner_only(self) -> None:
        if os.name != "posix":
            return
        self.assertEqual(stat.S_IMODE(os.stat(self.state).st_mode), 0o700)
        for name in os.listdir(self.state):
            mode = stat.S_IMODE(os.lstat(os.path.join(self.state, name)).st_mode)
            self.assertEqual(mode, 0o700 if name == "cache" else 0o600, name)

    def assert_recovers(self, expected: dict[str, bytes]) -> None:
        """As an operator would: clear an orphan lock, rebuild, verify."""
        lock = os.path.join(self.state, "projection.lock")
        if os.path.exists(lock):
            os.unlink(lock)
        self.assertResult(self.rebuild(), "built")
        self.assertResult(self.verify(), "verified")
        for name in PUBLISHED:
            self.assertEqual(self.read(name), expected[name], name)
        self.assertEqual(self.entries(), PUBLISHED)
        self.assertResult(run_standin(["--state-root", self.state, "--selection", self.second]), "built")
        for name in PUBLISHED:
            self.assertEqual(self.read(name), self.new[name], name)


class TestCrashConsistency(Lifecycle):
    def test_every_step_is_enumerated(self) -> None:
        labels = {step.split(":")[0] for step in self.steps}
        self.assertTrue({"open", "write", "fsync", "replace", "unlink", "fchmod"} <= labels, labels)
        self.assertEqual(self.steps[0], "open:projection.lock")
        self.assertEqual(self.steps[-1], "unlink:projection.lock")
        commit = self.steps.index("replace:state.json.tmp")
        self.assertLess(commit, self.steps.index("replace:extraction.json.tmp"))
        self.assertLess(self.steps.index("replace:graph.json.tmp"), self.steps.index("replace:receipt.json.tmp"))
        self.assertGreaterEqual(len(self.steps), 40)

    def crash_at_every_step(self, action: str, expected_returncode: int) -> None:
        for index, label in enumerate(self.steps):
            with self.subTest(step=index, label=label):
                self.fresh()
                completed = run_faulty(
                    {"at": index, "action": action}, ["--state-root", self.state, "--selection", self.second]
                )
                self.assertEqual(completed.returncode, expected_returncode)
                self.assertEqual(completed.stderr, b"")
                expected = self.assert_complete_state()
                self.assert_owner_only()
                self.assert_recovers(expected)

    def test_exit_before_each_step(self) -> None:
        self.crash_at_every_step("exit", 137)

    @unittest.skipUnless(hasattr(signal, "SIGKILL"), "POSIX signals")
    def test_sigkill_before_each_step(self) -> None:
        self.crash_at_every_step("kill", -signal.SIGKILL)

    def test_os_errors_at_each_step(self) -> None:
        lock_release = len(self.steps) - 1
        # A full disk, a quota or a file-size limit is resource_exhausted
        # wherever it strikes, in the adapter's writes or the stand-in
        # Graphify's; other errors of the directory are state_access, or
        # Graphify's own failure.
        full = {(0, "built"), (3, "resource_exhausted")}
        other = {(0, "built"), (2, "state_access"), (3, "graphify_failed"), (3, "graphify_missing")}
        for code in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EACCES):
            for index, label in enumerate(self.steps):
                with self.subTest(errno=errno.errorcode[code], step=index, label=label):
                    self.fresh()
                    completed = run_faulty(
                        {"at": index, "action": "errno", "errno": code},
                        ["--state-root", self.state, "--selection", self.second],
                    )
                    result = Result(completed)
                    self.assertEqual(completed.stderr, b"")
                    self.assertEqual(len(result.lines), 1)
                    if index == lock_release:
                        # The run itself succeeded; only removing its lock failed,
                        # which leaves the lock for the operator (README).
                        self.assertEqual(result.code, "built")
                    else:
                        # A fault the callee absorbs (mkdir with exist_ok) may still build.
                        expected = full if code in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG) else other
                        self.assertIn((result.returncode, result.code), expected)
                        self.assertNotIn("projection.lock", self.entries())
                    expected = self.assert_complete_state()
                    self.assert_recovers(expected)

    def test_running_out_inside_graphify_s_wrapped_error(self) -> None:
        """Graphify's export fails with a RuntimeError raised while it
        handled the OS error: room or descriptors that ran out are still
        resource_exhausted (withdrawn, the new state whole), anything else
        graphify_failed."""
        for code, expected in (
            (errno.EFBIG, "resource_exhausted"),
            (errno.ENOSPC, "resource_exhausted"),
            (errno.EMFILE, "resource_exhausted"),
            (errno.EIO, "graphify_failed"),
        ):
            with self.subTest(errno=errno.errorcode[code]):
                self.fresh()
                plan = {"at": None, "export_errno": code}
                completed = run_faulty(plan, ["--state-root", self.state, "--selection", self.second])
                self.assertResult(Result(completed), expected, 3, withdrawn=True)
                self.assertEqual(self.entries(), ["state.json"])
                self.assertEqual(self.read("state.json"), self.new["state.json"])
                self.assert_recovers(self.new)


# Every filesystem step of an update of an existing state whose cache/ holds
# Graphify's query stamp, in order, fsyncs included ("dir:ROOT" is the state
# root's descriptor).  Steps marked "stand-in" are the Graphify stand-in's
# own to_json, which writes the way Graphify's does.
PINNED_UPDATE_STEPS = [
    "open:projection.lock",
    "fchmod:projection.lock",
    "write:projection.lock",
    # Withdraw: the receipt first, then graph, extraction, every temporary...
    "unlink:receipt.json",
    "unlink:graph.json",
    "unlink:extraction.json",
    "unlink:state.json.tmp",
    "unlink:extraction.json.tmp",
    "unlink:graph.json.tmp",
    "unlink:receipt.json.tmp",
    # ... Graphify's views of the graph ...
    "unlink:graph.html",
    "unlink:GRAPH_TREE.html",
    # ... the query stamp, made durable, then its empty cache/.
    "unlink:last_query_stamp",
    "fsync:dir:cache",
    "rmdir:cache",
    "fsync:dir:ROOT",
    # Commit state.json.
    "unlink:state.json.tmp",
    "open:state.json.tmp",
    "fchmod:state.json.tmp",
    "write:state.json.tmp",
    "fsync:state.json.tmp",
    "replace:state.json.tmp",
    "fsync:dir:ROOT",
    # The extraction.
    "unlink:extraction.json.tmp",
    "open:extraction.json.tmp",
    "fchmod:extraction.json.tmp",
    "write:extraction.json.tmp",
    "fsync:extraction.json.tmp",
    "replace:extraction.json.tmp",
    "fsync:dir:ROOT",
    # The graph: Graphify writes graph.json.tmp, the adapter makes it durable.
    "unlink:graph.json.tmp",
    "mkdir:ROOT",  # stand-in: makedirs(exist_ok=True) of the output's directory
    "open:.gfy-*.tmp",  # stand-in
    "chmod:.gfy-*.tmp",  # stand-in
    "replace:.gfy-*.tmp",  # stand-in
    "open:graph.json.tmp",
    "fchmod:graph.json.tmp",
    "fsync:graph.json.tmp",
    "replace:graph.json.tmp",
    "fsync:dir:ROOT",
    # The receipt, last.
    "unlink:receipt.json.tmp",
    "open:receipt.json.tmp",
    "fchmod:receipt.json.tmp",
    "write:receipt.json.tmp",
    "fsync:receipt.json.tmp",
    "replace:receipt.json.tmp",
    "fsync:dir:ROOT",
    "unlink:projection.lock",
]


def normalized_steps(steps: list[str], root: str) -> list[str]:
    name = os.path.basename(root)
    normal = []
    for step in steps:
        kind, _, target = step.partition(":")
        if target in (name, "dir:" + name):
            target = target.replace(name, "ROOT")
        elif target.startswith(".gfy-"):
            target = ".gfy-*.tmp"
        normal.append(f"{kind}:{target}")
    return normal


@unittest.skipUnless(cp.SUPPORTS_DIR_FD, "the descriptor-relative code (POSIX) is the one pinned here")
class TestDurabilityOrder(Lifecycle):
    def test_update_steps_are_pinned(self) -> None:
        """Dropping, adding or reordering any step of an update, an fsync
        included, fails here."""
        self.fresh()
        os.mkdir(os.path.join(self.state, "cache"), 0o700)
        with open(os.path.join(self.state, "cache", "last_query_stamp"), "w") as handle:
            handle.write("stamp")
        trace = os.path.join(self.tmp, "trace.json")
        completed = run_faulty({"at": None, "trace": trace}, ["--state-root", self.state, "--selection", self.second])
        self.assertResult(Result(completed), "built")
        with open(trace, encoding="utf-8") as handle:
            steps = json.load(handle)
        self.assertEqual(normalized_steps(steps, self.state), PINNED_UPDATE_STEPS)

    def test_first_run_creates_the_root_then_the_same_steps(self) -> None:
        root = os.path.join(self.base, "fresh")
        steps = normalized_steps(self.first_steps, root)
        self.assertEqual(steps[0], "mkdir:ROOT")
        without_cache = [s for s in PINNED_UPDATE_STEPS if not s.endswith(("last_query_stamp", ":cache"))]
        self.assertEqual(steps[1:], without_cache)


class TestSignals(Lifecycle):
    """SIGTERM, SIGINT or SIGHUP before any step: the run cleans up and says
    interrupted, or, once the receipt is being written, built."""

    def assert_interrupted_or_built(
        self, completed: subprocess.CompletedProcess[bytes], index: int, steps: list[str]
    ) -> str:
        result = Result(completed)
        self.assertEqual(completed.stderr, b"")
        self.assertEqual(len(result.lines), 1)
        self.assertNotIn("projection.lock", self.entries())
        if index < steps.index("unlink:receipt.json.tmp"):
            self.assertResult(result, "interrupted", 3, withdrawn=True)
        if result.code == "interrupted":
            self.assertTrue(set(self.entries()) <= {"state.json"}, self.entries())
        else:
            self.assertResult(result, "built")
            self.assertEqual(self.entries(), PUBLISHED)
            self.assertResult(self.verify(), "verified")
        return str(result.code)

    @unittest.skipUnless(hasattr(signal, "SIGHUP"), "POSIX signals")
    def test_a_signal_while_the_selection_is_read_still_withdraws(self) -> None:
        """Interrupted means no derived files remain, however early the signal."""
        for args in (["--selection", "SECOND"], []):
            with self.subTest(args=args):
                self.fresh()
                argv = ["--state-root", self.state, *[self.second if a == "SECOND" else a for a in args]]
                completed = run_faulty({"at": None, "signal_at_start": True}, argv)
                self.assertResult(Result(completed), "interrupted", 3, withdrawn=True)
                self.assertEqual(self.entries(), ["state.json"])
                self.assertEqual(self.read("state.json"), self.old["state.json"])
                self.assert_recovers(self.old)
        for args in (["--verify"], ["--dry-run"]):
            with self.subTest(args=args):
                self.fresh()
                before = snapshot_tree(self.state)
                completed = run_faulty({"at": None, "signal_at_start": True}, ["--state-root", self.state, *args])
                self.assertResult(Result(completed), "interrupted", 3)
                self.assertEqual(snapshot_tree(self.state), before)

    def test_a_keyboard_interrupt_before_the_handlers_is_interrupted(self) -> None:
        """SIGINT in a caller that keeps Python's own handler raises
        KeyboardInterrupt wherever main() stands: before the run's handlers
        are installed (the descriptor reserve, its imports) it is answered
        interrupted, exit 3, nothing touched, never resource_exhausted; in
        Graphify's build, interrupted and withdrawn, never graphify_failed."""
        for window in ("descriptors", "imports"):
            with self.subTest(window=window):
                self.fresh()
                before = snapshot_tree(self.state)
                completed = run_faulty({"at": None, "keyboard_interrupt": window}, ["--state-root", self.state])
                self.assertResult(Result(completed), "interrupted", 3)
                self.assertEqual(snapshot_tree(self.state), before)
        self.fresh()
        completed = run_faulty({"at": None, "keyboard_interrupt": "build"}, ["--state-root", self.state])
        self.assertResult(Result(completed), "interrupted", 3, withdrawn=True)
        self.assertEqual(self.entries(), ["state.json"])
        self.assert_recovers(self.old)

    def test_the_prepared_interrupted_line_is_the_line_it_stands_for(self) -> None:
        for withdrawn in (False, True):
            outcome = cp.Outcome("interrupted", {})
            outcome.withdrawn = withdrawn
            self.assertEqual(cp.INTERRUPTED_LINES[withdrawn], (cp.result_line(outcome) + "\n").encode())

    @unittest.skipUnless(hasattr(signal, "pthread_sigmask"), "POSIX signal masks")
    def test_a_signal_after_the_answer_leaves_its_exit_status(self) -> None:
        """Once the line is printed, the program blocks the signals it
        handles: one that arrives while the interpreter shuts down (when the
        default handlers are back) is never delivered."""
        code = (
            "import os, runpy, signal, sys\n"
            f"sys.argv = [{MODULE!r}, '--help']\n"
            "try:\n"
            f"    runpy.run_path({MODULE!r}, run_name='__main__')\n"
            "finally:\n"
            f"    for signum in {[int(s) for s in HANDLED_SIGNALS]!r}:\n"
            "        signal.signal(signum, signal.SIG_DFL)\n"
            "        os.kill(os.getpid(), signum)\n"
        )
        completed = subprocess.run(
            [sys.executable, "-I", "-c", code], capture_output=True, env=child_env(), preexec_fn=SIGNALS_BY_DEFAULT
        )
        self.assertEqual((completed.returncode, completed.stderr), (0, b""))
        self.assertEqual(completed.stdout, (cp.HELP_TEXT + "\n").encode("ascii"))

    @unittest.skipUnless(hasattr(signal, "SIGHUP"), "POSIX signals")
    def test_sigterm_before_each_step(self) -> None:
        for index, label in enumerate(self.steps):
            with self.subTest(step=index, label=label):
                self.fresh()
                completed = run_faulty(
                    {"at": index, "action": "signal"}, ["--state-root", self.state, "--selection", self.second]
                )
                self.assert_interrupted_or_built(completed, index, self.steps)
                expected = self.assert_complete_state()
                self.assert_owner_only()
                self.assert_recovers(expected)

    @unittest.skipUnless(hasattr(signal, "SIGHUP"), "POSIX signals")
    def test_sigint_and_sighup_and_a_second_signal_during_clean_up(self) -> None:
        middle = self.steps.index("open:extraction.json.tmp")
        for signum in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM):
            for later in (1, 2, 3, 6):
                with self.subTest(signal=signum, later=later):
                    self.fresh()
                    plan = {"at": middle, "action": "signal", "signum": int(signum), "signals": [middle + later]}
                    completed = run_faulty(plan, ["--state-root", self.state, "--selection", self.second])
                    self.assertEqual(self.assert_interrupted_or_built(completed, middle, self.steps), "interrupted")
                    # Interrupted after the commit: the new state, whole.
                    self.assertEqual(self.read("state.json"), self.new["state.json"])
                    self.assert_recovers(self.new)

    @unittest.skipUnless(hasattr(signal, "SIGHUP"), "POSIX signals")
    def test_sigterm_before_each_step_of_a_first_run(self) -> None:
        for index, label in enumerate(self.first_steps):
            with self.subTest(step=index, label=label):
                self.state = os.path.join(tempfile.mkdtemp(dir=self.tmp), "state")
                completed = run_faulty(
                    {"at": index, "action": "signal"}, ["--state-root", self.state, "--selection", self.first]
                )
                if os.path.exists(self.state):
                    code = self.assert_interrupted_or_built(completed, index, self.first_steps)
                    # Interrupted before its commit, a first run leaves no directory.
                    self.assertTrue(code == "built" or "state.json" in self.entries())
                else:
                    self.assertEqual(completed.stderr, b"")
                    self.assertResult(Result(completed), "interrupted", 3, withdrawn=True)
                # Rerun the first selection: it builds, whatever was left.
                self.assertResult(self.project(fixture()), "built")
                self.assertResult(self.verify(), "verified")
                for name in PUBLISHED:
                    self.assertEqual(self.read(name), self.old[name], name)


class TestFirstRunCrashes(Lifecycle):
    """A first run killed at any step never wedges the directory: after the
    README's recovery (remove an orphan lock), rerunning the first selection
    builds."""

    def crash_first_run_at_every_step(self, action: str, expected_returncode: int) -> None:
        for index, label in enumerate(self.first_steps):
            with self.subTest(step=index, label=label):
                self.state = os.path.join(tempfile.mkdtemp(dir=self.tmp), "state")
                completed = run_faulty(
                    {"at": index, "action": action}, ["--state-root", self.state, "--selection", self.first]
                )
                self.assertEqual(completed.returncode, expected_returncode)
                self.assertEqual(completed.stderr, b"")
                if os.path.exists(self.state):
                    lock = os.path.join(self.state, "projection.lock")
                    if os.path.exists(lock):
                        self.assertResult(self.project(fixture()), "state_locked")
                        os.unlink(lock)
                    if "state.json" in self.entries():
                        self.assertEqual(self.read("state.json"), self.old["state.json"])
                self.assertResult(self.project(fixture()), "built")
                self.assertResult(self.verify(), "verified")
                for name in PUBLISHED:
                    self.assertEqual(self.read(name), self.old[name], name)

    def test_exit_before_each_first_run_step(self) -> None:
        self.crash_first_run_at_every_step("exit", 137)

    @unittest.skipUnless(hasattr(signal, "SIGKILL"), "POSIX signals")
    def test_sigkill_before_each_first_run_step(self) -> None:
        self.crash_first_run_at_every_step("kill", -signal.SIGKILL)

    @unittest.skipUnless(hasattr(signal, "SIGTERM"), "POSIX signals")
    def test_a_first_run_interrupted_after_its_commit_keeps_its_ledger(self) -> None:
        """SIGTERM at each step of a first run: interrupted (withdrawn).
        Before the commit the directory is removed again; after it the
        directory holds the committed state.json alone, as the README says.
        Then the same selection is a replay (built), while the same revision
        with other content is revision_stale: raise the revision (and the
        changed branch's sourceRevision)."""
        edited = fixture()
        edited["branches"][0]["summaries"][0]["text"] += " Edited after the interrupted run."
        edited["branches"][0]["sourceRevision"] += 1
        kept = removed = 0
        for index, label in enumerate(self.first_steps[:-1]):
            with self.subTest(step=index, label=label):
                self.state = os.path.join(tempfile.mkdtemp(dir=self.tmp), "state")
                completed = run_faulty(
                    {"at": index, "action": "signal"}, ["--state-root", self.state, "--selection", self.first]
                )
                result = Result(completed)
                if result.code == "built":
                    continue  # the receipt was being written: the run finished
                self.assertResult(result, "interrupted", withdrawn=True)
                if not os.path.exists(self.state):
                    removed += 1
                    continue
                kept += 1
                self.assertEqual(self.entries(), ["state.json"])
                self.assertEqual(self.read("state.json"), self.old["state.json"])
                self.assertResult(self.project(edited), "revision_stale", at="/revision", withdrawn=True)
                self.assertResult(self.project(dict(edited, revision=2)), "built")
        self.assertGreater(kept, 0)
        self.assertGreater(removed, 0)
        self.state = os.path.join(tempfile.mkdtemp(dir=self.tmp), "state")
        index = next(i for i, label in enumerate(self.first_steps) if label.startswith("open:extraction"))
        run_faulty({"at": index, "action": "signal"}, ["--state-root", self.state, "--selection", self.first])
        self.assertResult(self.project(fixture()), "built")
        for name in PUBLISHED:
            self.assertEqual(self.read(name), self.old[name], name)


class TestMigrationCrashes(TempDirTestCase):
    """--migrate of a state written by adapter 0.1.0, stopped before each of
    its filesystem steps (exit, SIGKILL, an OS error, a signal): state.json
    is always the whole old one or the whole migrated one, and rerunning
    --migrate recovers."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.base = os.path.realpath(tempfile.mkdtemp(prefix="cp-migrate-"))
        cls.template = os.path.join(cls.base, "template")
        for name, value in (("first.json", fixture()), ("second.json", second_revision())):
            path = os.path.join(cls.base, name)
            with open(path, "wb") as handle:
                handle.write(encode(value))
            result = run_released(["--state-root", cls.template, "--selection", path])
            assert result.code in ("built", "graphify_missing"), result.code
        cls.old = read(os.path.join(cls.template, "state.json"))
        assert json.loads(cls.old)["stateSchemaVersion"] == 1
        migrated = os.path.join(cls.base, "migrated")
        copy_state(cls.template, migrated)
        trace = os.path.join(cls.base, "trace.json")
        completed = run_faulty({"at": None, "trace": trace}, ["--state-root", migrated, "--migrate"])
        assert json.loads(completed.stdout)["migratedFrom"] == 1
        cls.new = read(os.path.join(migrated, "state.json"))
        with open(trace, encoding="utf-8") as handle:
            cls.steps: list[str] = json.load(handle)

    @classmethod
    def tearDownClass(cls) -> None:
        shutil.rmtree(cls.base, ignore_errors=True)

    def fresh(self) -> None:
        self.state = os.path.join(tempfile.mkdtemp(dir=self.tmp), "state")
        copy_state(self.template, self.state)

    def assert_whole_and_recovers(self) -> None:
        self.assertIn(self.read("state.json"), (self.old, self.new))
        lock = os.path.join(self.state, "projection.lock")
        if os.path.exists(lock):
            os.unlink(lock)
        migrated = self.read("state.json") == self.old
        self.assertResult(
            run_standin(["--state-root", self.state, "--migrate"]),
            "built",
            more={"migratedFrom": 1} if migrated else {},
        )
        self.assertEqual(self.read("state.json"), self.new)
        self.assertResult(self.verify(), "verified")

    def test_the_commit_is_one_of_the_steps(self) -> None:
        self.assertLess(self.steps.index("replace:state.json.tmp"), self.steps.index("replace:extraction.json.tmp"))
        self.assertNotEqual(self.old, self.new)

    def test_killed_before_each_step(self) -> None:
        action, returncode = ("kill", -signal.SIGKILL) if hasattr(signal, "SIGKILL") else ("exit", 137)
        for index, label in enumerate(self.steps):
            with self.subTest(step=index, label=label):
                self.fresh()
                completed = run_faulty({"at": index, "action": action}, ["--state-root", self.state, "--migrate"])
                self.assertEqual(completed.returncode, returncode)
                self.assertEqual(completed.stderr, b"")
                self.assert_whole_and_recovers()

    def test_os_errors_and_signals_at_each_step(self) -> None:
        codes = (errno.EIO, errno.EMFILE, errno.ENOSPC, errno.EDQUOT)
        plans: list[dict[str, Any]] = [{"action": "errno", "errno": code} for code in codes]
        plans.append({"action": "signal"})
        lock_taken = self.steps.index("write:projection.lock")
        lock_release = len(self.steps) - 1
        for plan in plans:
            for index, label in enumerate(self.steps):
                with self.subTest(plan=plan, step=index, label=label):
                    self.fresh()
                    completed = run_faulty(dict(plan, at=index), ["--state-root", self.state, "--migrate"])
                    result = Result(completed)
                    self.assertEqual(completed.stderr, b"")
                    self.assertEqual(len(result.lines), 1)
                    if result.code != "built":
                        expected = {
                            errno.EIO: "state_access",
                            errno.EMFILE: "resource_exhausted",
                            errno.ENOSPC: "resource_exhausted",
                            errno.EDQUOT: "resource_exhausted",
                        }.get(plan.get("errno", 0), "interrupted")
                        # A full disk is never Graphify's failure.
                        self.assertIn(
                            result.code,
                            (expected,)
                            if plan.get("errno") in (errno.ENOSPC, errno.EDQUOT)
                            else (expected, "graphify_failed"),
                        )
                        # An OS error while taking the lock touched nothing; a
                        # signal is answered once the derived files are gone.
                        touched = index > lock_taken or plan["action"] == "signal"
                        self.assertEqual(result.json.get("withdrawn"), True if touched else None)
                        self.assertNotIn("projection.lock", self.entries())
                        if touched:
                            self.assertEqual(self.entries(), ["state.json"])
                    elif index != lock_release:
                        self.assertNotIn("projection.lock", self.entries())
                    self.assert_whole_and_recovers()


class TestConcurrency(Lifecycle):
    def start_all(self, revisions: list[int], state: str) -> list[Result]:
        paths = []
        for revision in revisions:
            value = dict(fixture(), revision=revision)
            paths.append(self.write_selection(value, f"rev-{revision}.json"))
        runner = os.path.join(HERE, "run_with_standin.py")
        processes = [
            subprocess.Popen(
                [sys.executable, "-I", runner, "ok", "--state-root", state, "--selection", path],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=child_env(),
            )
            for path in paths
        ]
        results = []
        for process in processes:
            stdout, stderr = process.communicate(timeout=120)
            results.append(Result(subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)))
        return results

    def check(self, results: list[Result], revisions: list[int]) -> None:
        for result in results:
            self.assertEqual(result.stderr, b"")
            self.assertIn((result.returncode, result.code), {(0, "built"), (2, "state_locked"), (2, "revision_stale")})
        self.assertTrue([r for r in results if r.code == "built"])
        data = self.read("state.json")
        state = cp.parse_state(data)
        self.assertIn(state["selectionRevision"], revisions)
        self.assertEqual(cp.state_bytes(state), data)
        self.assertNotIn("projection.lock", self.entries())
        self.assertResult(self.rebuild(), "built")
        self.assertResult(self.verify(), "verified")

    def test_eight_updates_at_once_on_an_existing_state(self) -> None:
        self.fresh()
        revisions = list(range(2, 10))
        self.check(self.start_all(revisions, self.state), revisions)

    def test_eight_first_uses_at_once(self) -> None:
        revisions = list(range(1, 9))
        self.check(self.start_all(revisions, self.state), revisions)

    def test_a_query_that_writes_again_while_the_update_empties_cache(self) -> None:
        """An agent's query writes its stamp again right after the update
        removed the one before, or right after it removed cache/: the update
        answers as without the query, and the cache/ the query filled is
        left as it wrote it, accepted, and removed by the next update."""
        for after in ("unlink:last_query_stamp", "rmdir:cache"):
            with self.subTest(after=after):
                self.fresh()
                graph = os.path.join(self.state, "graph.json")
                standin_graphify.touch_query_stamp(graph)
                race = {"after": after, "query": graph}
                completed = run_faulty(
                    {"at": None, "race": race}, ["--state-root", self.state, "--selection", self.second]
                )
                self.assertResult(Result(completed), "built")
                self.assertEqual(self.entries(), sorted([*PUBLISHED, "cache"]))
                self.assertEqual(os.listdir(os.path.join(self.state, "cache")), ["last_query_stamp"])
                for name in PUBLISHED:
                    self.assertEqual(self.read(name), self.new[name], name)
                self.assertResult(self.verify(), "verified")
                self.assertResult(self.rebuild(), "built")
                self.assertEqual(self.entries(), PUBLISHED)


class TestHostileFilesystem(Lifecycle):
    def small_tmpfs(self) -> str:
        """A real 64 KiB tmpfs, unmounted at the end; skipped where none can
        be mounted (not Linux, not root, or a container that forbids it)."""
        if not sys.platform.startswith("linux") or not IS_ROOT:
            self.skipTest("mounting a tmpfs needs Linux and root")
        mount = os.path.join(self.tmp, "small")
        os.mkdir(mount, 0o700)
        mounted = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", mount], capture_output=True
        )
        if mounted.returncode != 0:
            self.skipTest("no tmpfs can be mounted here")
        self.addCleanup(subprocess.run, ["umount", "-l", mount], capture_output=True)
        return mount

    def leave_free(self, mount: str, free: int) -> None:
        """Fill the tmpfs beside the state root until ``free`` bytes are left."""
        filler = os.path.join(mount, "filler")
        with open(filler, "ab") as handle:
            while True:
                st = os.statvfs(mount)
                room = st.f_bavail * st.f_frsize - free
                if room <= 0:
                    break
                handle.write(b"\0" * room)
                handle.flush()

    def test_a_full_disk_is_resource_exhausted_wherever_it_strikes(self) -> None:
        """Updates, rebuilds, migrations and first runs on a real tmpfs left
        with 0 to 40 KiB free: built, or resource_exhausted (exit 3) with
        state.json whole, never state_access or graphify_failed (which came
        by chance with the free space); once space is freed, a rebuild
        restores the graph."""
        mount = self.small_tmpfs()
        self.state = os.path.join(mount, "state")
        old_schema = os.path.join(self.tmp, "released")
        self.assertIn(
            run_released(["--state-root", old_schema, "--selection", self.first]).code, ("built", "graphify_missing")
        )
        schema_1 = read(os.path.join(old_schema, "state.json"))
        runs = {
            "update": (["--selection", self.second], (self.old["state.json"], self.new["state.json"])),
            "rebuild": ([], (self.old["state.json"],)),
            "migrate": (["--migrate"], (schema_1, self.old["state.json"])),
            "first run": (["--selection", self.first], (None, self.old["state.json"])),
        }
        exhausted = set()
        for name, (args, wholes) in runs.items():
            for free in range(0, 40 * 1024 + 1, 4096):
                with self.subTest(name, free=free):
                    for entry in os.listdir(mount):
                        path = os.path.join(mount, entry)
                        shutil.rmtree(path) if os.path.isdir(path) else os.unlink(path)
                    if name != "first run":
                        copy_state(self.template, self.state)
                    if name == "migrate":
                        for entry in os.listdir(self.state):
                            os.unlink(os.path.join(self.state, entry))
                        with open(os.path.join(self.state, "state.json"), "wb") as handle:
                            handle.write(schema_1)
                    self.leave_free(mount, free)
                    before = snapshot_tree(self.state)
                    result = run_standin(["--state-root", self.state, *args])
                    if result.code == "built":
                        self.assertResult(result, "built", more={"migratedFrom": 1} if name == "migrate" else None)
                    else:
                        # Withdrawn once the derived files went; refused
                        # before (taking the lock), it changed nothing.
                        withdrawn = result.json.get("withdrawn") is True
                        self.assertResult(result, "resource_exhausted", withdrawn=withdrawn)
                        if not withdrawn:
                            self.assertEqual(snapshot_tree(self.state), before)
                        exhausted.add(name)
                    state = os.path.join(self.state, "state.json")
                    self.assertIn(read(state) if os.path.exists(state) else None, wholes)
                    self.assertNotIn("projection.lock", os.listdir(self.state) if os.path.exists(self.state) else [])
                    os.unlink(os.path.join(mount, "filler"))
                    if os.path.exists(state):
                        # A schema-1 state left as it was takes --migrate again.
                        again = ["--migrate"] if read(state) == schema_1 else []
                        self.assertEqual(run_standin(["--state-root", self.state, *again]).code, "built")
                        self.assertResult(self.verify(), "verified")
        self.assertEqual(exhausted, set(runs))

    def outside_file(self, content: bytes = b"outside, must stay untouched") -> tuple[str, os.stat_result]:
        path = os.path.join(self.tmp, "outside.txt")
        with open(path, "wb") as handle:
            handle.write(content)
        return path, os.stat(path)

    def assert_untouched(self, path: str, before: os.stat_result, content: bytes) -> None:
        after = os.stat(path)
        self.assertEqual(read(path), content)
        self.assertEqual(
            (after.st_mtime_ns, after.st_size, after.st_ino), (before.st_mtime_ns, before.st_size, before.st_ino)
        )

    @unittest.skipUnless(CAN_SYMLINK, "this host cannot create symlinks")
    def test_owned_name_swapped_for_a_symlink_between_runs(self) -> None:
        content = b"outside, must stay untouched"
        for name in (*PUBLISHED, "state.json.tmp", "graph.json.tmp", "projection.lock", ".gfy-x1.tmp"):
            with self.subTest(name):
                self.fresh()
                outside, before = self.outside_file(content)
                path = os.path.join(self.state, name)
                if os.path.exists(path):
                    os.unlink(path)
                os.symlink(outside, path)
                tree = snapshot_tree(self.state)
                for result in (
                    self.rebuild(),
                    self.project(second_revision()),
                    self.verify(),
                    run_standin(["--state-root", self.state, "--dry-run"]),
                ):
                    self.assertResult(result, "state_symlink")
                self.assertEqual(snapshot_tree(self.state), tree)
                self.assert_untouched(outside, before, content)

    @unittest.skipUnless(cp.SUPPORTS_DIR_FD and CAN_SYMLINK, "POSIX dir_fd and symlinks")
    def test_owned_name_swapped_during_a_run(self) -> None:
        # The swap happens inside os.open, after every check the adapter made.
        for name, args in (
            ("state.json", ["--selection", "SECOND"]),
            ("state.json", ["--verify"]),
            ("receipt.json", ["--verify"]),
            ("graph.json.tmp", ["--selection", "SECOND"]),
        ):
            with self.subTest(name=name, args=args[0]):
                self.fresh()
                other_state = json.dumps({"stateSchemaVersion": 1}).encode()
                outside, before = self.outside_file(other_state)
                argv = ["--state-root", self.state, *[self.second if a == "SECOND" else a for a in args]]
                completed = run_faulty({"at": None, "swap": {"name": name, "target": outside}}, argv)
                result = Result(completed)
                self.assertEqual(completed.stderr, b"")
                self.assertEqual((result.returncode, result.code), (2, "state_symlink"))
                self.assert_untouched(outside, before, other_state)
                self.assertNotIn("projection.lock", self.entries())

    @unittest.skipUnless(CAN_SYMLINK and cp.SUPPORTS_DIR_FD, "symlinks and dir_fd")
    def test_root_swapped_for_a_symlink_during_a_run(self) -> None:
        """Every operation after the walk is relative to the opened root: a
        root moved away and replaced by a link mid-run is never followed,
        and Graphify, handed a short name inside the opened directory, writes
        there too when the swap happens before its call."""
        for step, nth in (
            ("write:projection.lock", 1),
            ("unlink:receipt.json", 1),
            ("replace:state.json.tmp", 1),
            ("unlink:graph.json.tmp", 2),  # the last step before Graphify's call
        ):
            with self.subTest(step=step):
                self.fresh()
                decoy = tempfile.mkdtemp(prefix="decoy-", dir=self.tmp)
                plan = {"at": None, "race": {"after": step, "nth": nth, "target": decoy, "root": self.state}}
                completed = run_faulty(plan, ["--state-root", self.state, "--selection", self.second])
                self.assertResult(Result(completed), "built")
                self.assertEqual(os.listdir(decoy), [])
                moved = self.state + ".moved"
                self.assertEqual(sorted(os.listdir(moved)), PUBLISHED)
                self.assertResult(self.verify(moved), "verified")
                for name in PUBLISHED:
                    self.assertEqual(read(os.path.join(moved, name)), self.new[name], name)
                self.assertResult(self.verify(), "state_symlink")

    @unittest.skipUnless(CAN_SYMLINK and cp.SUPPORTS_DIR_FD, "symlinks and dir_fd")
    def test_root_swapped_inside_graphifys_own_write(self) -> None:
        """The residual window (README): Graphify resolves its output to an
        absolute path inside to_json, so a swap of the root's path at that
        moment redirects its one write.  The adapter notices that the graph
        is not in its directory: graphify_failed, nothing published."""
        self.fresh()
        decoy = tempfile.mkdtemp(prefix="decoy-", dir=self.tmp)
        label = "mkdir:" + os.path.basename(self.state)  # the stand-in's makedirs, inside to_json
        plan = {"at": None, "race": {"after": label, "target": decoy, "root": self.state}}
        completed = run_faulty(plan, ["--state-root", self.state, "--selection", self.second])
        self.assertResult(Result(completed), "graphify_failed", withdrawn=True)
        self.assertEqual(os.listdir(self.state + ".moved"), ["state.json"])

    @unittest.skipUnless(CAN_SYMLINK, "this host cannot create symlinks")
    def test_names_swapped_between_the_scan_and_their_use_in_the_path_based_code(self) -> None:
        """Windows has no dir_fd: each operation re-checks its name right
        before acting.  A name turned into a link after the scans is refused
        at its next use and the link's target is never touched."""
        for step, nth, link in (
            ("unlink:state.json.tmp", 2, "state.json.tmp"),  # then its exclusive create
            ("write:state.json.tmp", 1, "state.json"),  # then the rename over it
            ("unlink:extraction.json.tmp", 2, "extraction.json.tmp"),
            ("fsync:graph.json.tmp", 1, "graph.json"),
            ("write:receipt.json.tmp", 1, "receipt.json"),
        ):
            with self.subTest(step=step):
                self.fresh()
                outside, before = self.outside_file()
                plan = {
                    "at": None,
                    "portable": True,
                    "race": {"after": step, "nth": nth, "link": link, "target": outside, "root": self.state},
                }
                completed = run_faulty(plan, ["--state-root", self.state, "--selection", self.second])
                self.assertResult(Result(completed), "state_symlink", withdrawn=True)
                self.assert_untouched(outside, before, b"outside, must stay untouched")
                self.assertNotIn("projection.lock", self.entries())

    def test_hard_links_are_never_written_through(self) -> None:
        """Decision: hard links are tolerated.  The adapter never writes into an
        existing file: it creates new ones and renames them over the old
        names, so a hard link elsewhere keeps the old bytes and is never
        deleted; only this directory's name moves on."""
        self.fresh()
        links = {}
        for name in ("state.json", "graph.json", "extraction.json", "receipt.json"):
            outside = os.path.join(self.tmp, f"hardlink-{name}")
            os.link(os.path.join(self.state, name), outside)
            links[name] = outside
        self.assertResult(self.project(second_revision()), "built")
        for name, outside in links.items():
            self.assertEqual(read(outside), self.old[name], name)
            self.assertEqual(self.read(name), self.new[name], name)
        self.assertResult(self.verify(), "verified")

    def test_unwritable_root_injected(self) -> None:
        for code in (errno.EACCES, errno.EROFS):
            with self.subTest(errno=errno.errorcode[code], case="existing"):
                self.fresh()
                tree = snapshot_tree(self.state)
                completed = run_faulty(
                    {"at": 0, "action": "errno", "errno": code},
                    ["--state-root", self.state, "--selection", self.second],
                )
                self.assertEqual(json.loads(completed.stdout)["code"], "state_access")
                self.assertEqual(completed.returncode, 2)
                self.assertEqual(snapshot_tree(self.state), tree)
            with self.subTest(errno=errno.errorcode[code], case="new"):
                self.state = os.path.join(self.tmp, f"new-{code}")
                completed = run_faulty(
                    {"at": 0, "action": "errno", "errno": code},
                    ["--state-root", self.state, "--selection", self.second],
                )
                self.assertEqual(json.loads(completed.stdout)["code"], "state_access")
                self.assertFalse(os.path.exists(self.state))

    @unittest.skipIf(IS_ROOT or os.name != "posix", "permission bits do not stop root")
    def test_unwritable_root_for_real(self) -> None:
        self.fresh()
        os.chmod(self.state, 0o500)
        self.addCleanup(os.chmod, self.state, 0o700)
        tree = snapshot_tree(self.state)
        self.assertResult(self.project(second_revision()), "state_access")
        self.assertResult(self.rebuild(), "state_access")
        self.assertEqual(snapshot_tree(self.state), tree)
        self.assertResult(self.verify(), "verified")
        parent = os.path.join(self.tmp, "locked-parent")
        os.mkdir(parent, 0o500)
        self.addCleanup(os.chmod, parent, 0o700)
        self.assertResult(self.project(fixture(), state=os.path.join(parent, "state")), "state_access")


def write_state_near_the_tombstone_bound(directory: str, value: dict[str, Any], room: int = 1) -> bytes:
    """A valid state.json that accepted ``value`` and holds all but ``room``
    of the tombstones its reader allows."""
    snapshot = cp.validate_selection(value)
    ledger = {f"t{i:07d}" for i in range(cp.MAX_TOMBSTONES - room)}
    state = cp._state_from(snapshot, cp.SelectionHashes(snapshot), {}, ledger | set(snapshot.get("exclude", ())))
    data = cp.state_bytes(state)
    os.mkdir(directory, 0o700)
    with open(os.path.join(directory, "state.json"), "wb") as handle:
        handle.write(data)
    return data


class TestStateBound(TempDirTestCase):
    """Nothing is committed that the state's own reader would refuse."""

    def test_tombstone_count_past_the_bound_is_state_limit(self) -> None:
        before = write_state_near_the_tombstone_bound(self.state, fixture(), room=2)
        value = fixture()
        value.update(revision=2, exclude=["discarded-idea", "gone-1", "gone-2"])
        self.assertResult(self.project(value), "state_limit", withdrawn=True)
        self.assertEqual(self.read("state.json"), before)
        self.assertEqual(self.entries(), ["state.json"])
        value.update(exclude=["discarded-idea", "gone-1"])
        self.assertResult(self.project(value), "built")
        self.assertEqual(json.loads(self.read("state.json"))["tombstones"].__len__(), cp.MAX_TOMBSTONES)

    def test_serialized_size_past_the_bound_is_state_limit(self) -> None:
        """Long IDs: the count is within bounds, the bytes are not."""
        first = selection(1, [branch("seed")], exclude=[f"{i:064d}"[-64:] for i in range(1)])
        snapshot = cp.validate_selection(first)
        long_ids = {f"x{i:063d}" for i in range(990_000)}
        state = cp._state_from(snapshot, cp.SelectionHashes(snapshot), {}, long_ids | set(snapshot["exclude"]))
        data = cp.state_bytes(state)
        self.assertLess(len(data), cp.MAX_STATE_BYTES)
        os.mkdir(self.state, 0o700)
        with open(os.path.join(self.state, "state.json"), "wb") as handle:
            handle.write(data)
        # About 2 MB of approved text at the next revision pushes it past 64 MiB.
        text = "weekly backup rotation " * 86
        big = selection(
            2,
            [branch(f"b{i}", summaries=[summary(f"s{j}", text[:1990]) for j in range(9)]) for i in range(110)],
            exclude=snapshot["exclude"],
        )
        self.assertResult(self.project(big), "state_limit", withdrawn=True)
        self.assertEqual(self.read("state.json"), data)
        path = self.write_selection(big)
        dry = run_standin(["--state-root", self.state, "--selection", path, "--dry-run"])
        self.assertResult(dry, "state_limit")

    def test_a_state_file_past_the_bound_is_corrupt_for_every_reader(self) -> None:
        """A state.json one byte past its bound is never read, whatever it
        holds: corrupt for an update, a dry run, a rebuild and --verify."""
        self.assertResult(self.project(fixture()), "built")
        with open(os.path.join(self.state, "state.json"), "ab") as handle:
            handle.truncate(cp.MAX_STATE_BYTES + 1)
        later = fixture()
        later["revision"] = 2
        path = self.write_selection(later)
        for args in (["--selection", path], ["--selection", path, "--dry-run"], [], ["--verify"]):
            with self.subTest(args=args):
                result = run_standin(["--state-root", self.state, *args])
                self.assertEqual(result.code, "state_corrupt")

    def test_committed_state_bytes_checks_the_serialized_size(self) -> None:
        state, _ = cp.reconcile(None, cp.validate_selection(fixture()))
        size = len(cp.state_bytes(state))
        original = cp.MAX_STATE_BYTES
        self.addCleanup(setattr, cp, "MAX_STATE_BYTES", original)
        cp.MAX_STATE_BYTES = size
        self.assertEqual(len(cp.committed_state_bytes(state)), size)
        cp.MAX_STATE_BYTES = size - 1
        with self.assertRaises(cp.ProjectionError) as caught:
            cp.committed_state_bytes(state)
        self.assertEqual(caught.exception.code, "state_limit")


class TestLeakSweep(TempDirTestCase):
    SENTINEL = "qqsentinelzz"

    def test_no_sentinel_escapes_on_any_code(self) -> None:
        s = self.SENTINEL
        root = os.path.join(self.tmp, f"{s}-root")
        os.mkdir(root, 0o700)
        good = selection(
            1,
            [
                branch(f"{s}-p", sources=[f"{s}-r"], summaries=[summary(f"{s}-a", f"{s} one.", memoryRef=f"{s}-m")]),
                branch(f"{s}-c", parent=f"{s}-p", sources=[f"{s}-r"], summaries=[summary(f"{s}-b", f"{s} two.")]),
            ],
            corpus=f"{s}-corpus",
        )

        def sel(value: Any, tag: str) -> str:
            return self.write_selection(value, f"{s}-{tag}.json")

        def state(tag: str) -> str:
            return os.path.join(root, f"{s}-{tag}")

        def mutate(change: Any) -> Any:
            value = json.loads(encode(good))
            change(value)
            return value

        built_state = state("built")
        seen: dict[str, Result] = {}

        def record(result: Result) -> None:
            self.assertEqual(len(result.lines), 1)
            self.assertEqual(result.stderr, b"")
            for needle in (s.encode(), self.tmp.encode(), b"Traceback", os.path.basename(self.tmp).encode()):
                self.assertNotIn(needle, result.stdout)
            seen.setdefault(str(result.code), result)

        good_path = sel(good, "good")
        record(run_standin(["--state-root", built_state, "--selection", good_path]))
        record(run_module(["--state-root", built_state, "--verify"]))
        record(run_standin(["--state-root", built_state, "--selection", good_path, "--dry-run"]))
        for mode in ("missing", "absent", "build-raises", "interrupt"):
            record(run_standin(["--state-root", state(mode), "--selection", good_path], mode))
        record(run_module([f"--{s}", built_state]))
        invalid = {
            "unreadable": os.path.join(self.tmp, f"{s}-absent.json"),
            "too-large": sel(b" " * (cp.MAX_SELECTION_BYTES + 1), "big"),
            "malformed": sel(f'{{"{s}": '.encode(), "malformed"),
            "dupkey": sel(f'{{"{s}": 1, "{s}": 1}}'.encode(), "dupkey"),
            "unknown": sel(mutate(lambda v: v.update({s: s})), "unknown"),
            "schema": sel(mutate(lambda v: v.update(revision=s)), "schema"),
            "unapproved": sel(mutate(lambda v: v["branches"][0]["summaries"][0].update(approved=s)), "unapproved"),
            "kind": sel(mutate(lambda v: v["branches"][0]["summaries"][0].update(kind=s)), "kind"),
            "limit": sel(mutate(lambda v: v["branches"][0]["summaries"][0].update(text=s * 200)), "limit"),
            "dupid": sel(mutate(lambda v: v["branches"].append(v["branches"][0])), "dupid"),
            "cycle": sel(mutate(lambda v: v["branches"][0].update(parentBranchId=f"{s}-p")), "cycle"),
            "secret": sel(
                mutate(lambda v: v["branches"][0]["summaries"][0].update(text=f"{s} password=" + "Q1w2" + "e3r4t5")),
                "secret",
            ),
            "conflict": sel(mutate(lambda v: v.update(exclude=[f"{s}-c"], restore=[f"{s}-c"])), "conflict"),
            "stale": sel(mutate(lambda v: v["branches"][0]["summaries"][0].update(text=f"{s} changed")), "stale"),
            "source": sel(
                mutate(lambda v: v.update(revision=2) or v["branches"][0]["summaries"][0].update(text=f"{s} x")),
                "source",
            ),
            "corpus": sel(mutate(lambda v: v.update(revision=3, corpusId=f"{s}-other")), "corpus"),
        }
        for path in invalid.values():
            record(run_standin(["--state-root", built_state, "--selection", path]))
        record(run_standin(["--state-root", built_state, "--selection", good_path]))
        record(run_standin(["--state-root", state("missing-state")]))
        not_empty = state("not-empty")
        os.mkdir(not_empty, 0o700)
        with open(os.path.join(not_empty, f"{s}.txt"), "w") as handle:
            handle.write(s)
        record(run_standin(["--state-root", not_empty, "--selection", good_path]))
        with open(os.path.join(built_state, f"{s}-unknown"), "w") as handle:
            handle.write(s)
        record(run_standin(["--state-root", built_state]))
        os.unlink(os.path.join(built_state, f"{s}-unknown"))
        if CAN_SYMLINK:
            os.symlink(built_state, state("link"))
            record(run_standin(["--state-root", state("link")]))
            os.unlink(state("link"))
        with open(os.path.join(built_state, "projection.lock"), "w") as handle:
            handle.write("1\n")
        record(run_standin(["--state-root", built_state]))
        os.unlink(os.path.join(built_state, "projection.lock"))
        record(run_standin(["--state-root", built_state]))
        with open(os.path.join(built_state, "graph.json"), "ab") as handle:
            handle.write(s.encode())
        record(run_module(["--state-root", built_state, "--verify"]))
        corrupt = state("corrupt")
        copy_state(built_state, corrupt)
        state_text = read(os.path.join(corrupt, "state.json"))
        with open(os.path.join(corrupt, "state.json"), "wb") as handle:
            handle.write(state_text[:-40])
        record(run_standin(["--state-root", corrupt]))
        with open(os.path.join(corrupt, "state.json"), "wb") as handle:
            handle.write(state_text.replace(b'"stateSchemaVersion":2', b'"stateSchemaVersion":9'))
        record(run_standin(["--state-root", corrupt]))
        loose = state("loose")
        copy_state(built_state, loose)
        os.chmod(loose, 0o770)
        record(run_standin(["--state-root", loose]))
        exhausted = state("exhausted")
        record(
            Result(
                run_faulty(
                    {"at": 3, "action": "errno", "errno": errno.EMFILE},
                    ["--state-root", exhausted, "--selection", good_path],
                )
            )
        )
        record(run_standin(["--state-root", os.path.join(self.tmp, f"{s}-no-parent", "x"), "--selection", good_path]))
        record(run_standin(["--state-root", state("bug"), "--selection", good_path], "adapter-bug"))
        interrupted = state("interrupted")
        record(
            Result(run_faulty({"at": 3, "action": "signal"}, ["--state-root", interrupted, "--selection", good_path]))
        )
        full = state("full")
        write_state_near_the_tombstone_bound(full, good)
        over = mutate(lambda v: v.update(revision=9, exclude=[f"{s}-over-1", f"{s}-over-2"]))
        record(run_standin(["--state-root", full, "--selection", sel(over, "over")]))

        reachable = set(cp.CODES)
        self.assertEqual(set(seen), reachable, sorted(reachable - set(seen)))

        allowed = {"state.json", "extraction.json", "graph.json"}
        allowed |= {name + ".tmp" for name in allowed}
        for current, _dirs, files in os.walk(root):
            for name in files:
                if s in name:
                    continue  # the test's own planted files
                if name not in allowed:
                    self.assertNotIn(s.encode(), read(os.path.join(current, name)), name)


if given is not None:

    def json_values(depth: int = 2) -> Any:
        scalars = st.one_of(
            st.none(),
            st.booleans(),
            st.integers(min_value=-(2**70), max_value=2**70),
            st.floats(allow_nan=True, allow_infinity=True),
            st.text(max_size=40),
        )
        if depth <= 0:
            return scalars
        inner = json_values(depth - 1)
        return st.one_of(scalars, st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=12), inner, max_size=4))

    ANY_TEXT = st.text(alphabet=st.characters(codec=None, min_codepoint=0, max_codepoint=0x10FFFF), max_size=60)
    FIELD_NAMES = st.sampled_from(
        [
            "schemaVersion",
            "corpusId",
            "revision",
            "branches",
            "exclude",
            "restore",
            "branchId",
            "sourceRevision",
            "sources",
            "summaries",
            "parentBranchId",
            "refId",
            "sha256",
            "summaryId",
            "role",
            "kind",
            "approved",
            "text",
            "memoryRef",
            "raw",
            "prompt",
            "path",
        ]
    )

    def containers(value: Any) -> list[Any]:
        found = []
        pending = [value]
        while pending:
            item = pending.pop()
            if isinstance(item, (dict, list)):
                found.append(item)
                pending.extend(item.values() if isinstance(item, dict) else item)
        return found

    @st.composite
    def hostile_selection(draw: Any) -> bytes:
        value = fixture()
        value["revision"] = draw(st.sampled_from([1, 1, 2, 3]))
        for _ in range(draw(st.integers(min_value=0, max_value=4))):
            targets = containers(value)
            target = draw(st.sampled_from(targets))
            action = draw(st.sampled_from(["drop", "add", "rename", "retype", "text", "huge", "deep", "control"]))
            if isinstance(target, dict) and target:
                key = draw(st.sampled_from(sorted(target)))
                if action == "drop":
                    del target[key]
                elif action == "add":
                    target[draw(st.one_of(FIELD_NAMES, ANY_TEXT))] = draw(json_values())
                elif action == "rename":
                    target[draw(st.one_of(FIELD_NAMES, ANY_TEXT))] = target.pop(key)
                elif action == "retype":
                    target[key] = draw(json_values())
                elif action == "text":
                    target[key] = draw(ANY_TEXT)
                elif action == "huge":
                    target[key] = "x" * draw(st.sampled_from([1999, 2000, 2001, 70_000]))
                elif action == "deep":
                    nested: Any = target[key]
                    for _ in range(draw(st.sampled_from([10, 63, 64, 65, 900, 5000]))):
                        nested = [nested]
                    target[key] = nested
                else:
                    target[key] = draw(st.text(alphabet=st.characters(max_codepoint=0x9F), max_size=10))
            elif isinstance(target, list):
                if action == "drop" and target:
                    target.pop(draw(st.integers(min_value=0, max_value=len(target) - 1)))
                else:
                    target.append(draw(json_values()))
        ensure_ascii = draw(st.booleans())
        try:
            text = json.dumps(value, ensure_ascii=ensure_ascii, indent=draw(st.sampled_from([None, 1])))
        except (ValueError, RecursionError):
            text = "[" * 5000
        data = text.encode("utf-8", "surrogatepass")
        byte_action = draw(st.sampled_from(["none", "none", "truncate", "duplicate", "garbage", "bom"]))
        if byte_action == "truncate" and data:
            data = data[: draw(st.integers(min_value=0, max_value=len(data) - 1))]
        elif byte_action == "duplicate":
            data = data.replace(b'"revision"', b'"revision": 1, "revision"', 1)
        elif byte_action == "garbage":
            data += draw(st.binary(min_size=1, max_size=8))
        elif byte_action == "bom":
            data = b"\xef\xbb\xbf" + data
        return data

    FUZZ_EXAMPLES = int(os.environ.get("CP_FUZZ_EXAMPLES", "5000"))


class TestHostileInput(Lifecycle):
    def test_fuzzed_selections(self) -> None:
        if given is None:
            if REQUIRE_DEV_TOOLS:
                self.fail("hypothesis is required in CI")
            self.skipTest("hypothesis not installed")
        loader = standin_graphify.make_loader("ok")
        documented = set(cp.CODES)
        counter = {"cases": 0, "codes": set()}
        work = os.path.join(self.tmp, "work")
        selection_path = os.path.join(self.tmp, "fuzz.json")

        @settings(
            max_examples=FUZZ_EXAMPLES,
            deadline=None,
            database=None,
            derandomize=os.environ.get("CP_FUZZ_RANDOM") != "1",
            suppress_health_check=list(HealthCheck),
        )
        @given(hostile_selection())
        def case(data: bytes) -> None:
            if os.path.exists(work):
                shutil.rmtree(work)
            copy_state(self.template, work)
            with open(selection_path, "wb") as handle:
                handle.write(data)
            captured_out, captured_err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(captured_out), contextlib.redirect_stderr(captured_err):
                exit_code, line = cp.execute(["--state-root", work, "--selection", selection_path], loader)
            self.assertEqual((captured_out.getvalue(), captured_err.getvalue()), ("", ""))
            self.assertNotIn("\n", line)
            result = json.loads(line)
            self.assertIn(result["code"], documented)
            self.assertNotEqual(result["code"], "internal_error")
            self.assertIn(exit_code, (0, 2))
            self.assertEqual(result["exitCode"], exit_code)
            if exit_code != 0:
                self.assertEqual(read(os.path.join(work, "state.json")), self.old["state.json"])
                self.assertEqual(os.listdir(work), ["state.json"])
            counter["cases"] += 1
            counter["codes"].add(result["code"])

        with _fd_capture() as (out, err):
            case()
            written = (out(), err())
        self.assertEqual(written, (b"", b""))
        self.assertGreaterEqual(counter["cases"], min(FUZZ_EXAMPLES, 5000))
        self.assertGreaterEqual(len(counter["codes"]), 8, counter["codes"])
        codes = ", ".join(sorted(counter["codes"]))
        print(f"\nfuzz: {counter['cases']} cases; codes seen: {codes}", file=sys.__stderr__)

    def test_fuzz_sample_through_the_real_command_line(self) -> None:
        if given is None:
            if REQUIRE_DEV_TOOLS:
                self.fail("hypothesis is required in CI")
            self.skipTest("hypothesis not installed")
        paths = []

        @settings(
            max_examples=60, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck)
        )
        @given(hostile_selection())
        def collect(data: bytes) -> None:
            paths.append(self.write_selection(data, f"cli-{len(paths)}.json"))

        collect()
        for path in paths:
            self.fresh()
            result = run_module(["--state-root", self.state, "--selection", path])
            self.assertEqual(result.stderr, b"")
            self.assertEqual(len(result.lines), 1)
            self.assertIn(result.code, cp.CODES)
            self.assertIn(result.returncode, (0, 2, 3))


@contextlib.contextmanager
def _fd_capture() -> Any:
    """Send descriptors 1 and 2 to files for the duration, to prove that
    nothing at all was written there."""
    sys.stdout.flush()
    sys.stderr.flush()
    files = [tempfile.TemporaryFile(), tempfile.TemporaryFile()]  # noqa: SIM115 - closed below
    saved = [os.dup(1), os.dup(2)]
    os.dup2(files[0].fileno(), 1)
    os.dup2(files[1].fileno(), 2)

    def reader(index: int) -> Any:
        def read_back() -> bytes:
            files[index].seek(0)
            return bytes(files[index].read())

        return read_back

    try:
        yield reader(0), reader(1)
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in saved:
            os.close(fd)
        for handle in files:
            handle.close()


if __name__ == "__main__":
    unittest.main()
