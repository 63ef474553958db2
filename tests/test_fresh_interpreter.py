"""Every result code, reached through a fresh ``python -I conversation_projection.py``.

In-process tests share an interpreter in which ``json`` and friends are
already imported; a defect on one Python version hid there once.  Here every
code in the table of docs/codes.md is produced by the real entry point in a new
process, with the interpreter that runs this file (``.ci/run`` runs it under
every CPython 3.11+ it finds):

    python3.12 -I tests/test_fresh_interpreter.py

Graphify is replaced by a fake ``graphify`` package installed into a
throw-away virtual environment of that same interpreter, so that its import,
its calls and its failures happen exactly as they would for the real one.
Only ``python_missing`` is not here: it belongs to the PowerShell wrapper.
"""

from __future__ import annotations

import json
import os
import random
import re
import select
import shutil
import signal
import string
import subprocess
import sys
import tempfile
import time
import unittest
from collections.abc import Callable, Sequence
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from benchmark_projection import distinct_text, every_keyword, hostile_selection, notes_about_secrets
from cp_testlib import (
    CAN_SYMLINK,
    HANDLED_SIGNALS,
    HERE,
    MODULE,
    SIGNALS_BY_DEFAULT,
    Result,
    TempDirTestCase,
    assert_within_cpu_bound,
    changes_of,
    child_env,
    children_cpu_seconds,
    cp,
    fixture,
    rehashed_as_written,
    resource,
    run_released,
    snapshot_tree,
)
from measure_signal_window import caught

ALNUM = string.ascii_letters + string.digits
FAKE_VERSION = "0.0.0+fake"
FAKE_INIT = '''"""A fake Graphify for the fresh-interpreter suite: the stand-in's calls,
chosen by CP_FAKE_GRAPHIFY."""
import os
import sys

from graphify import _standin

MODE = os.environ.get("CP_FAKE_GRAPHIFY", "ok")
if MODE == "import-exits":
    raise SystemExit(3)  # a broken install that exits instead of raising ImportError
# What a library needs while it loads (ssl maps libcrypto), and what a build
# needs: memory that runs out there is swallowed, as the standard library
# swallows ssl's ImportError, and surfaces as another error with no trace.
NEEDED_BYTES = 12 << 20
if MODE == "import-swallows-memory":
    try:
        _loaded = bytes(NEEDED_BYTES)
    except MemoryError:
        _loaded = None
    _loaded.decode  # AttributeError when memory ran out, as Graphify's use of ssl
    del _loaded
    MODE = "ok"
if MODE == "sabotage":
    # Break the adapter's own code (a bug it cannot expect): internal_error.
    def _broken(*_args, **_kwargs):
        raise RuntimeError("sabotaged")

    sys.modules["__main__"].receipt_bytes = _broken
    MODE = "ok"
if MODE == "await-signal":
    MODE = "ok"
    _WAITING = True
else:
    _WAITING = False
_standin.STANDIN_VERSION = "{version}"  # what graph.json records, as the metadata says
_modules = _standin.make_loader(MODE if MODE not in ("signal-self", "build-swallows-memory") else "ok")()
'''
# Imported at every start of the venv's interpreter, -I included, by a .pth
# file (a sitecustomize module could be shadowed by the distribution's own, as
# Debian's is).  With
# CP_FAKE_HOLD_AT_EXIT it keeps the process alive after the result line, until
# the test lets go: a signal can then arrive while the interpreter shuts down.
# With CP_FAKE_SIGNAL_AT="N:SIGNUM" the process sends itself SIGNUM right
# before the N-th line the module's code runs (counted by a trace function),
# after it wrote to CP_FAKE_REPORT_FD whether a handler of the module's was
# in place then.  With CP_FAKE_INTERRUPT_AT_START_UP a path hook sends SIGINT
# when Python's start-up asks whether the script's path is an import path
# entry, and waits there for the KeyboardInterrupt: the moment a Ctrl-C
# pressed at start-up lands in, which Python prints and then runs on.
FAKE_HOLD_AT_EXIT = """import os

if os.environ.get("CP_FAKE_HOLD_AT_EXIT"):
    import atexit

    def _hold():
        os.write(int(os.environ["CP_FAKE_READY_FD"]), b"x")
        os.read(int(os.environ["CP_FAKE_WAIT_FD"]), 1)

    atexit.register(_hold)

if os.environ.get("CP_FAKE_SIGNAL_AT"):
    import signal
    import sys

    _at, _signum = map(int, os.environ["CP_FAKE_SIGNAL_AT"].split(":"))
    _lines = [0]
    _DEFAULTS = (signal.SIG_DFL, signal.default_int_handler)

    def _line(frame, event, _arg):
        if event == "line":
            _lines[0] += 1
            if _lines[0] == _at:
                sys.settrace(None)
                handled = signal.getsignal(_signum) not in _DEFAULTS
                os.write(int(os.environ["CP_FAKE_REPORT_FD"]), b"1" if handled else b"0")
                os.kill(os.getpid(), _signum)
                return None
        return _line

    def _call(frame, _event, _arg):
        return _line if os.path.basename(frame.f_code.co_filename) == "conversation_projection.py" else None

    sys.settrace(_call)

if os.environ.get("CP_FAKE_INTERRUPT_AT_START_UP"):
    import signal
    import sys

    def _interrupt(path):
        if not os.path.isfile(path):
            raise ImportError(path)
        sys.path_hooks.remove(_interrupt)
        os.kill(os.getpid(), signal.SIGINT)
        while True:
            pass

    sys.path_hooks.insert(0, _interrupt)
"""
FAKE_SUBMODULE = """from graphify import _modules, MODE, _WAITING, NEEDED_BYTES
import os
import signal

_target = _modules["{part}"]
for _name in dir(_target):
    if not _name.startswith("_"):
        globals()[_name] = getattr(_target, _name)

if "{part}" == "build":
    _real_build = globals().get("build_from_json")

    def build_from_json(extraction, *, directed=False, dedup=True):
        if MODE == "build-swallows-memory":
            try:
                enough = bytes(NEEDED_BYTES) is not None
            except MemoryError:
                enough = False
            if not enough:
                raise RuntimeError("graph too large")  # raised outside: no trace of the MemoryError
        if MODE == "signal-self":
            os.kill(os.getpid(), signal.SIGTERM)
        if _WAITING:
            # Tell the test we are inside the build, then wait for it to let go.
            os.write(int(os.environ["CP_FAKE_READY_FD"]), b"x")
            os.read(int(os.environ["CP_FAKE_WAIT_FD"]), 1)
        return _real_build(extraction, directed=directed, dedup=dedup)
"""


# What pip writes for the console script, with the module's directory on
# the path in place of an install.
CONSOLE_SCRIPT = """import re
import sys

sys.path.insert(0, {root!r})
from conversation_projection import main

if __name__ == "__main__":
    sys.argv[0] = re.sub(r"(-script\\.pyw|\\.exe)?$", "", sys.argv[0])
    sys.exit(main())
"""


def make_fake_graphify_venv(root: str) -> str:
    """A virtual environment of this interpreter holding the fake graphify
    and a graphifyy distribution record; returns its python."""
    venv = os.path.join(root, "venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True, capture_output=True)
    python = os.path.join(venv, "Scripts" if os.name == "nt" else "bin", "python")
    site = subprocess.run(
        [python, "-I", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    package = os.path.join(site, "graphify")
    os.mkdir(package)
    shutil.copy(os.path.join(HERE, "standin_graphify.py"), os.path.join(package, "_standin.py"))
    with open(os.path.join(package, "__init__.py"), "w", encoding="utf-8") as handle:
        handle.write(FAKE_INIT.replace("{version}", FAKE_VERSION))
    with open(os.path.join(site, "_cp_fake_hold.py"), "w", encoding="utf-8") as handle:
        handle.write(FAKE_HOLD_AT_EXIT)
    with open(os.path.join(site, "cp_fake_hold.pth"), "w", encoding="utf-8") as handle:
        handle.write("import _cp_fake_hold\n")
    for part in ("validate", "build", "export"):
        with open(os.path.join(package, f"{part}.py"), "w", encoding="utf-8") as handle:
            handle.write(FAKE_SUBMODULE.replace("{part}", part))
    record = os.path.join(site, f"graphifyy-{FAKE_VERSION}.dist-info")
    os.mkdir(record)
    with open(os.path.join(record, "METADATA"), "w", encoding="utf-8") as handle:
        handle.write(f"Metadata-Version: 2.1\nName: graphifyy\nVersion: {FAKE_VERSION}\n")
    return python


# A frame of one of the module's functions, as a traceback or a fatal error's
# dump writes it: only code that ran after the module was loaded is there.
MODULE_FUNCTION_FRAME = re.compile(
    rb'File "[^"]*' + re.escape(os.path.basename(MODULE).encode()) + rb'", line \d+,? in (?!<module>)'
)


def failed_to_start(result: Result) -> bool:
    """Whether a run that printed nothing is Python's own start-up failing:
    the interpreter, or the compiling and loading of the module, ran out and
    said so on stderr.  Once the module's main() runs, stderr is discarded
    and nothing from the run can reach it, so a report there that names none
    of the module's functions came before any of its code ran; a run with
    no line and an empty stderr, or one whose report names main(), did start
    and failed to answer."""
    return (
        not result.lines
        and result.returncode != 0
        and bool(result.stderr)
        and MODULE_FUNCTION_FRAME.search(result.stderr) is None
    )


class FreshInterpreterCase(TempDirTestCase):
    python = sys.executable
    base = ""

    @classmethod
    def setUpClass(cls) -> None:
        cls.base = os.path.realpath(tempfile.mkdtemp(prefix="cp-fresh-"))
        cls.python = make_fake_graphify_venv(cls.base)

    @classmethod
    def tearDownClass(cls) -> None:
        shutil.rmtree(cls.base, ignore_errors=True)

    def cli(self, args: Sequence[str], mode: str = "ok", **kwargs: Any) -> Result:
        """The real entry point: PYTHON -I conversation_projection.py ARGS."""
        env = child_env(CP_FAKE_GRAPHIFY=mode)
        completed = subprocess.run(
            [self.python, "-I", MODULE, *args], capture_output=True, env=env, timeout=120, **kwargs
        )
        return Result(completed)

    def update(self, value: Any, mode: str = "ok", state: str | None = None) -> Result:
        return self.cli(["--state-root", state or self.state, "--selection", self.write_selection(value)], mode)

    def build_fixture(self) -> None:
        self.assertResult(self.update(fixture()), "built")

    def assert_answered_within_the_bound(self, args: Sequence[str], check: Callable[[Result], None]) -> None:
        """One fresh process per run, its answer checked, held to the
        documented bound on judging a file (see ``assert_within_cpu_bound``).
        With CP_CPU_BOUNDS=apart the answer alone is checked: .ci/run runs
        this suite beside other steps, which slow every process on a two-core
        machine, and holds these runs to the bound in a step of their own
        (CPU_BOUND_TESTS), with nothing beside them."""

        def answered() -> float:
            result, cpu = children_cpu_seconds(lambda: self.cli(args))
            check(result)
            return cpu

        if os.environ.get("CP_CPU_BOUNDS") == "apart":
            answered()
            return
        assert_within_cpu_bound(self, answered, TestSecretsThroughTheEntryPoint.BOUND_CPU_SECONDS, self.python)


# The tests that hold a fresh process to the CPU bound, as .ci/run names them.
CPU_BOUND_TESTS = (
    "TestMalformedOnEveryPython.test_a_repeated_key_deep_in_lists_is_placed_within_the_bound",
    "TestMalformedOnEveryPython.test_a_state_built_to_make_the_decoder_slow_is_refused_within_the_bound",
    "TestSecretsThroughTheEntryPoint.test_selections_built_against_the_scan_are_judged_within_the_bound",
)


def later(revision: int, **extra: Any) -> dict[str, Any]:
    value = fixture()
    value.update(revision=revision, **extra)
    return value


class TestEveryCodeThroughTheEntryPoint(FreshInterpreterCase):
    """One fresh process per code; together they cover ``cp.CODES``."""

    reached: set[str] = set()

    def expect(self, result: Result, code: str, **expected: Any) -> None:
        self.assertResult(result, code, **expected)
        TestEveryCodeThroughTheEntryPoint.reached.add(code)

    @classmethod
    def tearDownClass(cls) -> None:
        super().tearDownClass()
        missing = set(cp.CODES) - cls.reached
        # Run as a whole, every code was reached (a filtered run may not).
        if missing and not os.environ.get("CP_FRESH_PARTIAL"):
            raise AssertionError(f"codes never reached through the entry point: {sorted(missing)}")

    def test_success_codes(self) -> None:
        result = self.update(fixture())
        self.expect(result, "built")
        self.assertEqual(result.json["graphifyVersion"], FAKE_VERSION)
        self.assertEqual((result.json["withheldBranches"], result.json["missingParents"]), (1, 0))
        self.expect(self.cli(["--state-root", self.state, "--verify"]), "verified")
        dry = self.cli(["--state-root", self.state, "--selection", self.write_selection(later(2)), "--dry-run"])
        self.expect(dry, "checked")

    def test_graphify_codes(self) -> None:
        self.build_fixture()
        cases = (
            ("missing", "graphify_missing"),
            ("import-exits", "graphify_missing"),
            ("absent", "graphify_incompatible"),
            ("build-raises", "graphify_failed"),
        )
        for revision, (mode, code) in enumerate(cases, start=2):
            with self.subTest(code):
                result = self.update(later(revision), mode)
                self.expect(result, code, withdrawn=True)
                # Installed but not importable: the metadata still names it.
                self.assertEqual(result.json["graphifyVersion"], FAKE_VERSION)
                self.assertEqual(self.entries(), ["state.json"])

    def test_usage(self) -> None:
        self.expect(self.cli(["--state-root"]), "usage")

    def test_selection_codes(self) -> None:
        too_large = self.write_selection(b" " * (cp.MAX_SELECTION_BYTES + 1), "big.json")
        cases: list[tuple[str, Any, str | None]] = [
            ("selection_unreadable", os.path.join(self.tmp, "absent.json"), None),
            ("selection_too_large", too_large, None),
            ("selection_malformed", b'{"schemaVersion": 1,', None),
            ("selection_duplicate_key", b'{"schemaVersion": 1, "schemaVersion": 1}', ""),
            ("selection_unknown_field", dict(fixture(), raw="x"), ""),
            ("selection_schema", dict(fixture(), revision=0), "/revision"),
        ]
        summary_cases = {
            "selection_unapproved": ("approved", False),
            "selection_not_summary": ("kind", "story"),
            "selection_limit": ("text", "x" * 2001),
            "selection_secret": ("text", "-----BEGIN " + "OPENSSH PRIVATE KEY-----"),
        }
        for code, (field, bad) in summary_cases.items():
            value = fixture()
            value["branches"][0]["summaries"][0][field] = bad
            cases.append((code, value, f"/branches/0/summaries/0/{field}"))
        duplicate = fixture()
        duplicate["branches"].append(duplicate["branches"][0])
        cases.append(("selection_duplicate_id", duplicate, f"/branches/{len(duplicate['branches']) - 1}/branchId"))
        loop = fixture()
        loop["branches"][0]["parentBranchId"] = loop["branches"][0]["branchId"]
        cases.append(("selection_cycle", loop, "/branches/0/parentBranchId"))
        cases.append(("selection_conflict", dict(fixture(), restore=["child"]), "/restore/0"))
        for code, value, at in cases:
            with self.subTest(code):
                path = value if isinstance(value, str) else self.write_selection(value, f"{code}.json")
                result = self.cli(["--state-root", self.state, "--selection", path])
                rule = "private-key" if code == "selection_secret" else None
                self.expect(result, code, at=at, rule=rule)
                self.assertFalse(os.path.exists(self.state), "a refused first run leaves no directory")

    def test_reconciliation_codes(self) -> None:
        self.build_fixture()
        child = [b["branchId"] for b in fixture()["branches"]].index("child")
        rewritten = later(2)
        rewritten["branches"][child]["summaries"][0]["text"] = "Rewritten without a new sourceRevision."
        for code, value, at in (
            ("revision_stale", later(1, exclude=[]), "/revision"),
            ("source_revision_conflict", rewritten, f"/branches/{child}/sourceRevision"),
            ("corpus_mismatch", later(3, corpusId="another-corpus"), "/corpusId"),
        ):
            with self.subTest(code):
                self.expect(self.update(value), code, at=at, withdrawn=True)
                self.assertEqual(self.entries(), ["state.json"])

    def test_state_codes(self) -> None:
        self.expect(self.cli(["--state-root", self.state]), "state_missing")
        os.mkdir(self.state, 0o700)
        with open(os.path.join(self.state, "notes.txt"), "w") as handle:
            handle.write("mine")
        self.expect(self.update(fixture()), "state_not_empty")
        os.unlink(os.path.join(self.state, "notes.txt"))
        self.build_fixture()
        os.mkdir(os.path.join(self.state, "archive"))
        self.expect(self.cli(["--state-root", self.state]), "state_unknown_entry")
        os.rmdir(os.path.join(self.state, "archive"))
        if CAN_SYMLINK:
            link = os.path.join(self.tmp, "link")
            os.symlink(self.state, link)
            self.expect(self.cli(["--state-root", link]), "state_symlink")
        with open(os.path.join(self.state, "projection.lock"), "w") as handle:
            handle.write("1 x\n")
        self.expect(self.cli(["--state-root", self.state]), "state_locked")
        os.unlink(os.path.join(self.state, "projection.lock"))
        good = self.read("state.json")
        with open(os.path.join(self.state, "state.json"), "wb") as handle:
            handle.write(good[:-10])
        self.expect(self.cli(["--state-root", self.state]), "state_corrupt", withdrawn=True)
        with open(os.path.join(self.state, "state.json"), "wb") as handle:
            handle.write(good.replace(b'"stateSchemaVersion":2', b'"stateSchemaVersion":7'))
        self.expect(self.cli(["--state-root", self.state]), "state_schema_unsupported")
        with open(os.path.join(self.state, "state.json"), "wb") as handle:
            handle.write(good)
        self.expect(self.cli(["--state-root", self.state]), "built")
        if os.name == "posix":
            for mode in (0o750, 0o704, 0o770, 0o707, 0o1777):
                os.chmod(self.state, mode)
                before = snapshot_tree(self.state)
                for args in ([], ["--verify"], ["--migrate"], ["--dry-run"]):
                    with self.subTest(mode=oct(mode), args=args):
                        self.expect(self.cli(["--state-root", self.state, *args]), "state_permissions")
                        self.assertEqual(snapshot_tree(self.state), before)
            os.chmod(self.state, 0o700)
        with open(os.path.join(self.state, "receipt.json"), "r+b") as handle:
            receipt = handle.read()
            handle.seek(0)
            handle.write(receipt.replace(FAKE_VERSION.encode(), b"0.0.1+fake"))
        self.expect(self.cli(["--state-root", self.state, "--verify"]), "receipt_mismatch")
        self.expect(self.cli(["--state-root", os.path.join(self.tmp, "no", "parent")]), "state_access")

    def test_state_limit(self) -> None:
        snapshot = cp.validate_selection(fixture())
        ledger = {f"t{i:07d}" for i in range(cp.MAX_TOMBSTONES - 1)} | set(snapshot["exclude"])
        state = cp._state_from(snapshot, cp.SelectionHashes(snapshot), {}, ledger)
        os.mkdir(self.state, 0o700)
        with open(os.path.join(self.state, "state.json"), "wb") as handle:
            handle.write(cp.state_bytes(state))
        value = later(2, exclude=[*snapshot["exclude"], "one-more", "and-another"])
        self.expect(self.update(value), "state_limit", withdrawn=True)

    def test_internal_error(self) -> None:
        self.expect(self.update(fixture(), "sabotage"), "internal_error", withdrawn=True)
        self.assertEqual(self.entries(), ["state.json"])

    def test_schema_1_and_migrate(self) -> None:
        """A state written by adapter 0.1.0, run by this same interpreter."""
        path = self.write_selection(fixture())
        args = ["--state-root", self.state, "--selection", path]
        self.assertEqual(run_released(args, self.python, child_env(CP_FAKE_GRAPHIFY="ok")).code, "built")
        before = snapshot_tree(self.state)
        self.expect(self.cli(["--state-root", self.state]), "state_schema_unsupported", more={"stateSchemaVersion": 1})
        self.assertEqual(snapshot_tree(self.state), before)
        self.expect(self.cli(["--state-root", self.state, "--migrate"]), "built", more={"migratedFrom": 1})
        self.expect(self.cli(["--state-root", self.state, "--migrate"]), "built")
        self.expect(self.cli(["--state-root", self.state, "--verify"]), "verified")

    def limited_runs(self, kind: int, limits: Sequence[int], args: Callable[[int], list[str]]) -> dict[int, Result]:
        """One run per limit of ``kind`` (resource.RLIMIT_*), set in the child
        before it executes the interpreter; the runs that started, by limit.
        A limit so low that the interpreter cannot start, or cannot compile
        and load the module, prints nothing and says so on stderr (see
        ``failed_to_start``); where exactly that happens can differ from one
        run to the next by a little, so it is judged run by run, not as one
        boundary.  Every other run prints exactly one line and nothing on
        stderr.  No run that failed to start lies above the highest limit."""

        def runs_with(limit: int) -> Result:
            def apply() -> None:
                resource.setrlimit(kind, (limit, limit))

            return self.cli(args(limit), preexec_fn=apply)

        results = {limit: runs_with(limit) for limit in limits}
        started = {limit: result for limit, result in results.items() if not failed_to_start(result)}
        self.assertTrue(started, "no limit let the interpreter start")
        self.assertIn(max(results), started, "the highest limit must let the interpreter start")
        for limit, result in started.items():
            with self.subTest(limit=limit):
                # Python's own report, if any, says where the run stopped.
                self.assertEqual(result.stderr, b"", result.stderr[-600:])
                self.assertEqual(len(result.lines), 1, (result.returncode, result.stderr[-600:]))
        return started

    @unittest.skipUnless(resource is not None and sys.platform.startswith("linux"), "Linux resource limits")
    def test_out_of_descriptors(self) -> None:
        """Too few descriptors to open the files, the selection, the state or
        Graphify's modules: resource_exhausted, never graphify_missing or
        state_access (adapter 0.1.0 answered graphify_missing)."""
        path = self.write_selection(fixture())
        results = self.limited_runs(
            resource.RLIMIT_NOFILE,
            range(4, 16),
            lambda limit: ["--state-root", os.path.join(self.tmp, f"fd-{limit}"), "--selection", path],
        )
        after_commit = []
        for limit, result in results.items():
            with self.subTest(limit=limit):
                state = os.path.join(self.tmp, f"fd-{limit}")
                if result.code == "built":
                    continue
                self.expect(result, "resource_exhausted", withdrawn=os.path.exists(state) or None)
                if os.path.exists(state):
                    self.assertEqual(sorted(os.listdir(state)), ["state.json"])
                    after_commit.append(limit)
        self.assertTrue(after_commit, "no run ran out after its commit (extraction, import or build)")
        self.assertEqual(results[max(results)].code, "built")

    @unittest.skipUnless(resource is not None and sys.platform.startswith("linux"), "Linux resource limits")
    def test_a_file_size_limit(self) -> None:
        """ulimit -f (RLIMIT_FSIZE) just below each file a first run writes,
        in its order: state.json and extraction.json (the adapter's writes),
        then graph.json (Graphify's), with the fake Graphify and, where this
        Python has it, the real one.  Each is resource_exhausted (exit 3),
        never state_access or graphify_failed, with at most the committed
        state.json left, and the same run without the limit then builds."""
        pythons = [self.python]
        if subprocess.run([sys.executable, "-I", "-c", "import graphify"], capture_output=True).returncode == 0:
            pythons.append(sys.executable)
        path = self.write_selection(fixture())
        for index, python in enumerate(pythons):
            with self.subTest(python=python):
                free = os.path.join(self.tmp, "free")
                shutil.rmtree(free, ignore_errors=True)
                self.assertResult(self.run_limited(python, free, path), "built")
                written = {
                    name: self.read(name, state=free) for name in ("state.json", "extraction.json", "graph.json")
                }
                for order, (struck, data) in enumerate(written.items()):
                    # The limit lets every file written before this one through.
                    self.assertTrue(all(len(before) < len(data) for before in list(written.values())[:order]))
                    state = os.path.join(self.tmp, f"{index}-{struck}")
                    result = self.run_limited(python, state, path, len(data) - 1)
                    self.assertResult(result, "resource_exhausted", withdrawn=result.json.get("withdrawn") is True)
                    committed = ["state.json"] if struck != "state.json" else []
                    self.assertEqual(self.entries(state) if os.path.exists(state) else [], committed, struck)
                    self.assertResult(self.run_limited(python, state, path), "built")
                    self.assertEqual(self.read("graph.json", state=state), written["graph.json"])

    def run_limited(self, python: str, state: str, path: str, limit: int | None = None) -> Result:
        """A first run of ``path`` into ``state`` by ``python``, under a file
        size limit of ``limit`` bytes when one is given."""

        def apply() -> None:
            if limit is not None:
                resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

        completed = subprocess.run(
            [python, "-I", MODULE, "--state-root", state, "--selection", path],
            capture_output=True,
            env=child_env(CP_FAKE_GRAPHIFY="ok"),
            timeout=120,
            preexec_fn=apply,
        )
        return Result(completed)

    @unittest.skipUnless(resource is not None and sys.platform.startswith("linux"), "Linux resource limits")
    def test_out_of_memory_on_a_large_selection(self) -> None:
        """A valid 1.7 MiB selection under an address-space limit: checked or
        resource_exhausted, never selection_malformed or internal_error
        (adapter 0.1.0 answered both)."""
        value = fixture()
        value["branches"] = [
            {
                "branchId": f"b-{i:03d}",
                "sourceRevision": 1,
                "sources": [],
                "summaries": [
                    {"summaryId": f"s{j}", "role": "user", "kind": "summary", "approved": True, "text": "word " * 390}
                    for j in range(2)
                ],
            }
            for i in range(450)
        ]
        value.pop("exclude", None)
        path = self.write_selection(value)
        self.assertGreater(os.path.getsize(path), 1.7 * 2**20)
        results = self.limited_runs(
            resource.RLIMIT_AS,
            # Steps of 3 MB: the limits between a start and enough memory for
            # a dry run span under 10 MB, and more than one of them is tried.
            [megabytes << 20 for megabytes in range(16, 112, 3)],
            lambda _limit: ["--state-root", self.state, "--selection", path, "--dry-run"],
        )
        exhausted = 0
        for limit, result in results.items():
            with self.subTest(megabytes=limit >> 20):
                if result.code != "checked":
                    self.expect(result, "resource_exhausted")
                    exhausted += 1
        self.assertGreaterEqual(exhausted, 2)
        self.assertEqual(results[max(results)].code, "checked")

    @unittest.skipUnless(resource is not None and sys.platform.startswith("linux"), "Linux resource limits")
    def test_out_of_memory_on_a_large_state(self) -> None:
        """A valid state of a million tombstones rebuilt under an address-space
        limit: built or resource_exhausted, never state_corrupt, and
        state.json stays as it was."""
        snapshot = cp.validate_selection(fixture())
        ledger = {f"t{i:07d}" for i in range(cp.MAX_TOMBSTONES - 10)} | set(snapshot["exclude"])
        state = cp._state_from(snapshot, cp.SelectionHashes(snapshot), {}, ledger)
        data = cp.state_bytes(state)
        os.mkdir(self.state, 0o700)
        with open(os.path.join(self.state, "state.json"), "wb") as handle:
            handle.write(data)
        results = self.limited_runs(
            resource.RLIMIT_AS,
            [megabytes << 20 for megabytes in range(40, 200, 10)],
            lambda _limit: ["--state-root", self.state],
        )
        exhausted = 0
        for limit, result in results.items():
            with self.subTest(megabytes=limit >> 20):
                if result.code != "built":
                    self.expect(result, "resource_exhausted", withdrawn=True)
                    exhausted += 1
                self.assertEqual(self.read("state.json"), data)
        self.assertGreaterEqual(exhausted, 2)
        self.assertEqual(results[max(results)].code, "built")

    @unittest.skipUnless(resource is not None and sys.platform.startswith("linux"), "Linux resource limits")
    def test_one_line_at_every_memory_limit_past_start_up(self) -> None:
        """Every address-space limit, in steps of 1 MiB, from one too small
        for the interpreter to start to one that builds: once a run prints
        its line, every run with more memory prints exactly one line, with
        an empty stderr, exit 0 or 3 (never a MemoryError traceback and
        exit 1), built or resource_exhausted, and state.json whole, for an
        update, a rebuild and a migration."""
        template = os.path.join(self.tmp, "template")
        self.assertResult(self.update(fixture(), state=template), "built")
        released = os.path.join(self.tmp, "released")
        written = run_released(["--state-root", released, "--selection", self.write_selection(fixture())], self.python)
        self.assertEqual(written.code, "built")
        later_path = self.write_selection(later(2), "later.json")
        newer = os.path.join(self.tmp, "newer")
        shutil.copytree(template, newer)
        self.assertResult(self.cli(["--state-root", newer, "--selection", later_path]), "built")
        runs = {
            "update": (template, ["--selection", later_path], {"built"}),
            "rebuild": (template, [], {"built"}),
            "migrate": (released, ["--migrate"], {"built"}),
        }
        wholes = {
            "update": (self.read("state.json", state=template), self.read("state.json", state=newer)),
            "rebuild": (self.read("state.json", state=template),),
            "migrate": (self.read("state.json", state=released), self.read("state.json", state=template)),
        }
        for name, (source, extra, _) in runs.items():
            with self.subTest(name):

                def args(limit: int, name: str = name, source: str = source, extra: list[str] = extra) -> list[str]:
                    state = os.path.join(self.tmp, f"{name}-{limit}")
                    shutil.copytree(source, state)
                    return ["--state-root", state, *extra]

                results = self.limited_runs(resource.RLIMIT_AS, [megabytes << 20 for megabytes in range(24, 73)], args)
                self.assertEqual(results[max(results)].code, "built")
                for limit, result in results.items():
                    self.assertIn(result.code, ("built", "resource_exhausted"), limit >> 20)
                    self.assertIn(result.returncode, (0, 3))
                    state = os.path.join(self.tmp, f"{name}-{limit}")
                    self.assertIn(self.read("state.json", state=state), wholes[name], limit >> 20)
                    self.assertNotIn("projection.lock", self.entries(state))

    @unittest.skipUnless(resource is not None and sys.platform.startswith("linux"), "Linux resource limits")
    def test_out_of_memory_hidden_by_what_it_broke(self) -> None:
        """Memory that runs out inside Graphify's import or build, swallowed
        there and surfacing as an AttributeError or another error with no
        trace of it: resource_exhausted, never graphify_missing or
        graphify_failed (ssl's import under ulimit -v made adapter 0.2.0
        answer graphify_missing), and the committed state stays whole."""
        path = self.write_selection(fixture())
        for mode, wrong in (
            ("import-swallows-memory", "graphify_missing"),
            ("build-swallows-memory", "graphify_failed"),
        ):
            with self.subTest(mode):
                self.assertResult(self.update(fixture(), mode, state=os.path.join(self.tmp, f"{mode}-free")), "built")

                def run(limit: int, mode: str = mode) -> Result:
                    state = os.path.join(self.tmp, f"{mode}-{limit}")
                    return self.cli(
                        ["--state-root", state, "--selection", path],
                        mode,
                        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit)),
                    )

                codes = {}
                for megabytes in range(30, 90, 2):
                    result = run(megabytes << 20)
                    if not result.lines:
                        continue  # the interpreter could not start
                    codes[megabytes] = result.code
                    state = os.path.join(self.tmp, f"{mode}-{megabytes << 20}")
                    if result.code != "built":
                        # A first run refused after it made the directory
                        # removes it again, and says withdrawn all the same.
                        withdrawn = os.path.exists(state) or result.json.get("withdrawn") is True
                        self.expect(result, "resource_exhausted", withdrawn=withdrawn or None)
                    if os.path.exists(state):
                        self.assertEqual(
                            self.read("state.json", state=state),
                            self.read("state.json", state=os.path.join(self.tmp, f"{mode}-free")),
                        )
                self.assertNotIn(wrong, codes.values())
                after_commit = [
                    m
                    for m, code in codes.items()
                    if code == "resource_exhausted"
                    and os.path.exists(os.path.join(self.tmp, f"{mode}-{m << 20}", "state.json"))
                ]
                self.assertTrue(after_commit, f"no run ran out inside Graphify: {codes}")
                self.assertEqual(codes[max(codes)], "built")

    @unittest.skipUnless(hasattr(signal, "SIGHUP"), "POSIX signals")
    def test_interrupted_by_its_own_signal(self) -> None:
        result = self.update(fixture(), "signal-self")
        self.expect(result, "interrupted", withdrawn=True)
        self.assertEqual(self.entries(), ["state.json"])


@unittest.skipUnless(hasattr(signal, "SIGHUP"), "POSIX signals")
class TestSignalsFromOutside(FreshInterpreterCase):
    """As ``timeout``, systemd or a closed terminal would: the signal comes
    while Graphify is building.  Pipes synchronise, never sleeps."""

    def signal_while_held(
        self,
        args: Sequence[str],
        mode: str,
        signum: int,
        prefix: Sequence[str] = (),
        while_held: Callable[[], None] | None = None,
        **env: str,
    ) -> Result:
        """Run the entry point until the fake Graphify holds it (inside the
        build, or at exit with CP_FAKE_HOLD_AT_EXIT), send ``signum``, let
        it go, and return what it answered."""
        ready_read, ready_write = os.pipe()
        wait_read, wait_write = os.pipe()
        process = subprocess.Popen(
            [*prefix, self.python, "-I", MODULE, *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=child_env(
                CP_FAKE_GRAPHIFY=mode, CP_FAKE_READY_FD=str(ready_write), CP_FAKE_WAIT_FD=str(wait_read), **env
            ),
            pass_fds=(ready_write, wait_read),
            preexec_fn=SIGNALS_BY_DEFAULT,  # noqa: PLW1509 (the runner's threads never take locks the child needs)
        )
        os.close(ready_write)
        os.close(wait_read)
        try:
            self.assertEqual(os.read(ready_read, 1), b"x")
            os.kill(process.pid, signum)
            if while_held is not None:
                while_held()
        finally:
            os.close(wait_write)
            os.close(ready_read)
        stdout, stderr = process.communicate(timeout=60)
        return Result(subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr))

    def test_a_signal_after_the_line_keeps_its_exit_status(self) -> None:
        """The line is printed, the interpreter is shutting down: a signal
        now must not turn the reported status into a death by signal, nor
        print a traceback."""
        path = self.write_selection(fixture())
        for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            for args, code in ((["--selection", path], "built"), (["--verify"], "verified")):
                with self.subTest(signal=signum, code=code):
                    argv = ["--state-root", self.state, *args]
                    result = self.signal_while_held(argv, "ok", signum, CP_FAKE_HOLD_AT_EXIT="1")
                    self.assertResult(result, code)

    def test_a_signal_the_caller_ignores_stays_ignored(self) -> None:
        """Under nohup (SIGHUP ignored) a hangup during the build changes nothing."""
        argv = ["--state-root", self.state, "--selection", self.write_selection(fixture())]
        nohup = ("sh", "-c", 'trap "" HUP; exec "$@"', "sh")
        self.assertResult(self.signal_while_held(argv, "await-signal", signal.SIGHUP, prefix=nohup), "built")

    def test_each_signal_during_the_build(self) -> None:
        for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            with self.subTest(signal=signum):
                shutil.rmtree(self.state, ignore_errors=True)
                argv = ["--state-root", self.state, "--selection", self.write_selection(fixture())]

                def lock_is_held() -> None:
                    self.assertEqual(os.listdir(self.state).count("projection.lock"), 1)

                result = self.signal_while_held(argv, "await-signal", signum, while_held=lock_is_held)
                self.assertResult(result, "interrupted", withdrawn=True)
                self.assertEqual(self.entries(), ["state.json"])
                self.assertResult(self.cli(["--state-root", self.state]), "built")

    def test_an_interrupt_python_s_start_up_printed_is_answered(self) -> None:
        """SIGINT while Python's start-up checks the script's path as an
        import path entry: Python prints its KeyboardInterrupt and runs the
        module all the same.  The run answers interrupted, withdrawn, and
        leaves state.json alone; stderr holds Python's report and nothing of
        the module's."""
        self.build_fixture()
        for command in (MODULE, self.write_console_script()):
            with self.subTest(command=os.path.basename(command)):
                completed = subprocess.run(
                    [self.python, "-I", command, "--state-root", self.state],
                    capture_output=True,
                    env=child_env(CP_FAKE_INTERRUPT_AT_START_UP="1"),
                    timeout=120,
                )
                self.assertResult(without_start_up_report(Result(completed)), "interrupted", withdrawn=True)
                self.assertEqual(self.entries(), ["state.json"])
                self.assertResult(self.cli(["--state-root", self.state]), "built")

    def write_console_script(self) -> str:
        """The console script pip writes for the package, in the test's directory."""
        console_script = os.path.join(self.tmp, "conversation-projection")
        with open(console_script, "w", encoding="utf-8") as handle:
            handle.write(CONSOLE_SCRIPT.format(root=os.path.dirname(MODULE)))
        return console_script

    @unittest.skipUnless(sys.platform.startswith("linux"), "/proc shows when the handlers are in place")
    def test_a_signal_in_the_first_half_second(self) -> None:
        """SIGINT, SIGTERM and SIGHUP sent at 67 moments spread evenly over
        a rebuild's start-up (as long as it takes here: the longest of three
        runs until their handlers showed in /proc) and the half second after
        it: 201 runs, three at a time, which keeps the machine busy, while
        the fake Graphify holds the build until the signal is sent.  Each
        run answers interrupted, withdrawn, with state.json alone left, never
        another code, and a rebuild then builds (stderr empty, or holding
        only Python's report of a SIGINT it printed at start-up before it ran
        the module); or the signal came before the module's first statement,
        the one that installs its handlers: then /proc showed no SIGTERM and
        SIGHUP handlers right before the signal was sent, the process died
        of the signal (SIGINT: Python's own KeyboardInterrupt, exit 1 or
        killed by it), printed no line, named none of the module's functions
        and touched nothing."""
        self.build_fixture()
        template = snapshot_tree(self.state)
        span = self.time_to_handlers() + 0.5
        answered = 0
        for moment in range(67):
            offset = moment * span / 66
            runs = [self.start_held(f"run-{moment}-{int(signum)}") for signum in HANDLED_SIGNALS]
            sent = [self.signal_at(run, offset, signum) for run, signum in zip(runs, HANDLED_SIGNALS, strict=True)]
            answers = map(self.finish_held, runs)
            for (state, result), handled, signum in zip(answers, sent, HANDLED_SIGNALS, strict=True):
                where = f"{signum!r} at {offset * 1000:.0f} ms"
                if handled or result.lines or not died_before_the_module(result, signum):
                    self.assertResult(without_start_up_report(result), "interrupted", withdrawn=True)
                    self.assertEqual(self.entries(state), ["state.json"], where)
                    answered += 1
                else:
                    self.assertEqual(snapshot_tree(state), template, where)
        self.assertGreaterEqual(answered, 20, "too few signals came after the module started")
        self.assertResult(self.cli(["--state-root", state]), "built")

    def time_to_handlers(self) -> float:
        """The longest of three held rebuilds from their start until /proc
        shows the module's SIGTERM and SIGHUP handlers."""
        longest = 0.0
        for probe in range(3):
            run = self.start_held(f"probe-{probe}")
            _state, process, _ready, _wait, started = run
            assert process.stdout is not None
            while not caught(process.pid) and process.poll() is None:
                select.select([process.stdout], [], [], 0.001)
            longest = max(longest, time.perf_counter() - started)
            self.finish_held(run)
        return longest

    def test_a_signal_at_each_line_of_the_module_s_start(self) -> None:
        """A rebuild that sends itself SIGINT, SIGTERM or SIGHUP (in turn)
        right before one of the first 30 lines the module's code runs, and
        before one of 40 lines spread over the rest of its loading and of
        main() up to its own handlers (the line counts of a trace function,
        not time), run as python -I conversation_projection.py and through
        a console script: from the 27th line on (past the opening imports and
        the statements that install the handlers) each run answers
        interrupted, withdrawn, state.json alone left, never
        resource_exhausted; before, it dies of the signal as in Python's
        start-up and touches nothing."""
        console_script = self.write_console_script()
        self.build_fixture()
        template = snapshot_tree(self.state)
        runs = [(MODULE, line) for line in (*range(1, 31), *range(31, 5400, 135))]
        runs += [(console_script, line) for line in (*range(1, 31), *range(31, 5400, 540))]
        unhandled = []
        for turn, (command, line) in enumerate(runs):
            signum = HANDLED_SIGNALS[turn % len(HANDLED_SIGNALS)]
            state = os.path.join(self.tmp, f"line-{turn}")
            shutil.copytree(self.state, state)
            handled, result = self.signal_at_line(command, state, line, signum)
            where = f"{signum!r} before line {line} of {os.path.basename(command)}"
            if handled:
                self.assertResult(result, "interrupted", withdrawn=True)
                self.assertEqual(self.entries(state), ["state.json"], where)
            else:
                unhandled.append(line)
                self.assertTrue(died_before_the_module(result, signum), where)
                self.assertEqual(snapshot_tree(state), template, where)
        self.assertTrue(unhandled, "the trace must reach the module's first lines")
        self.assertLessEqual(max(unhandled), 26, f"unhandled past the module's opening lines: {unhandled}")

    def signal_at_line(self, command: str, state: str, line: int, signum: int) -> tuple[bool, Result]:
        """Rebuild ``state`` with ``command``, sending ``signum`` before the
        module's ``line``-th line; whether a handler of the module's was in
        place."""
        report_read, report_write = os.pipe()
        try:
            completed = subprocess.run(
                [self.python, "-I", command, "--state-root", state],
                capture_output=True,
                env=child_env(CP_FAKE_SIGNAL_AT=f"{line}:{int(signum)}", CP_FAKE_REPORT_FD=str(report_write)),
                pass_fds=(report_write,),
                timeout=120,
                preexec_fn=SIGNALS_BY_DEFAULT,
            )
            os.close(report_write)
            report = os.read(report_read, 1)
        finally:
            os.close(report_read)
        self.assertIn(report, (b"0", b"1"), "the signal was never sent")
        return report == b"1", Result(completed)

    def start_held(self, name: str) -> tuple[str, subprocess.Popen[bytes], int, int, float]:
        """A rebuild of a copy of the built state, held inside the build
        until finish_held; the copy's path, the process, the two pipe ends
        that hold it and when it started."""
        state = os.path.join(self.tmp, name)
        shutil.copytree(self.state, state)
        ready_read, ready_write = os.pipe()
        wait_read, wait_write = os.pipe()
        process = subprocess.Popen(
            [self.python, "-I", MODULE, "--state-root", state],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=child_env(
                CP_FAKE_GRAPHIFY="await-signal", CP_FAKE_READY_FD=str(ready_write), CP_FAKE_WAIT_FD=str(wait_read)
            ),
            pass_fds=(ready_write, wait_read),
            preexec_fn=SIGNALS_BY_DEFAULT,  # noqa: PLW1509 (the runner's threads never take locks the child needs)
        )
        started = time.perf_counter()
        os.close(ready_write)
        os.close(wait_read)
        return state, process, ready_read, wait_write, started

    @staticmethod
    def signal_at(run: tuple[str, subprocess.Popen[bytes], int, int, float], offset: float, signum: int) -> bool:
        """Send ``signum`` ``offset`` seconds after the run started (sooner
        if it printed or ended); whether its handlers were in place then."""
        _state, process, _ready, _wait, started = run
        assert process.stdout is not None
        select.select([process.stdout], [], [], max(0.0, started + offset - time.perf_counter()))
        handled = caught(process.pid)
        os.kill(process.pid, signum)
        return handled

    @staticmethod
    def finish_held(run: tuple[str, subprocess.Popen[bytes], int, int, float]) -> tuple[str, Result]:
        state, process, ready_read, wait_write, _started = run
        os.close(wait_write)
        os.close(ready_read)
        stdout, stderr = process.communicate(timeout=60)
        return state, Result(subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr))


# A frame of the module's other than its top level and the function that
# installs its first handlers.
FRAME_PAST_THE_HANDLERS = re.compile(
    rb'File "[^"]*'
    + re.escape(os.path.basename(MODULE).encode())
    + rb'", line \d+,? in (?!<module>|catch_signals_early\b)'
)


# What Python's start-up prints when a KeyboardInterrupt lands while it
# checks the script's path as an import path entry (a traceback of its own
# import machinery, the exception it was handling chained before it); it
# then runs the script.
START_UP_REPORT = re.compile(rb"Failed checking if argv\[0\] is an import path entry\n(?:.*\n)*?KeyboardInterrupt\n\Z")


def without_start_up_report(result: Result) -> Result:
    """``result`` with Python's start-up report taken off its stderr, when
    that is all stderr holds (checked: no frame of the module's)."""
    if START_UP_REPORT.match(result.stderr) is None or MODULE_FUNCTION_FRAME.search(result.stderr):
        return result
    result.stderr = b""
    return result


def died_before_the_module(result: Result, signum: int) -> bool:
    """Whether a run ended by ``signum`` as Python's start-up does, before
    the module's handlers: no line, none of its functions past them named,
    and killed by the signal or (SIGINT, which Python's own handler turns
    into a KeyboardInterrupt wherever start-up stands) exit 1 with Python's
    report on stderr."""
    if result.lines or FRAME_PAST_THE_HANDLERS.search(result.stderr) is not None:
        return False
    if result.returncode == -signum:
        return True
    return signum == signal.SIGINT and result.returncode == 1 and bool(result.stderr)


class TestChangeCountsOnEveryPython(FreshInterpreterCase):
    """A dry run is the plan: the counts the update then reports."""

    def test_dry_run_then_update(self) -> None:
        first = self.update(fixture())
        self.assertResult(first, "built")
        self.assertEqual(changes_of(first), (2, 0, 1, 0))
        plan = later(2, exclude=["parent"])
        plan["branches"][0]["sourceRevision"] += 1
        path = self.write_selection(plan, "plan.json")
        checked = self.cli(["--state-root", self.state, "--selection", path, "--dry-run"])
        self.assertResult(checked, "checked")
        built = self.cli(["--state-root", self.state, "--selection", path])
        self.assertResult(built, "built")
        self.assertEqual(changes_of(checked), (0, 1, 1, 0))
        self.assertEqual(changes_of(built), (0, 1, 1, 0))
        self.assertEqual(changes_of(self.cli(["--state-root", self.state])), (0, 0, 0, 0))
        self.assertEqual(changes_of(self.cli(["--state-root", self.state, "--selection", path])), (0, 0, 0, 0))


class TestMalformedOnEveryPython(FreshInterpreterCase):
    """Malformed JSON is selection_malformed (and a corrupt state
    state_corrupt), never internal_error, on whichever Python runs this."""

    MALFORMED = (
        b'{"schemaVersion": "trunc',
        b"{",
        b'{"schemaVersion": 1,}',
        b'{"schemaVersion" 1}',
        b'{"corpusId": "\\u12"}',
        b'{"revision": 01}',
        b'{"corpusId": "a\x01b"}',
        b"",
        b"[1, 2",
        b'{"a": NaN}',
        b'{"a": Infinity}',
        b'{"a": 1e999}',
        b"1" * 33,
        b'{"a": 1} {"b": 2}',
        b"\xef\xbb\xbf{}",
        b'{"a": "\xff"}',
        b'{"a": "\\ud800"}',
        b"[" * 65 + b"]" * 65,
    )

    def test_malformed_selections(self) -> None:
        for index, data in enumerate(self.MALFORMED):
            with self.subTest(data=data[:40]):
                result = self.cli(["--state-root", self.state, "--selection", self.write_selection(data, f"m{index}")])
                self.assertResult(result, "selection_malformed")

    def test_malformed_selections_say_where_they_stop(self) -> None:
        cases = (
            (b'{\n  "schemaVersion": 1,\n}', (3, 1)),
            (b'{"corpusId": "\xc3\xa9",\n "x": "\xc3\xa9\xff"}', (2, 10)),
            (b'{"a": "NaN",\n "b": [1, -Infinity]}', (2, 11)),
            (b'{"a": "' + b"1" * 40 + b'", "b": ' + b"1" * 33 + b"}", (1, 56)),
            (b'{"a": 1e999}', (1, 7)),
            (b'{"a": "\\\\", "b": "\\udc00"}', (1, 19)),
            (b'{"a": "[[[[",\n "b": ' + b"[" * 64 + b"]" * 64 + b"}", (2, 70)),
            (b"[" * 100_000, (1, 65)),
            (b'{"a": [{"x": ' + b"[" * 65 + b"]" * 65 + b', "x": 1}]}', (1, 75)),
        )
        for index, (data, stop) in enumerate(cases):
            with self.subTest(data=data[:40]):
                result = self.cli(["--state-root", self.state, "--selection", self.write_selection(data, f"w{index}")])
                self.assertResult(result, "selection_malformed", stop=stop)

    def test_corrupt_state_json(self) -> None:
        self.assertResult(self.update(fixture()), "built")
        good = self.read("state.json")
        for index, data in enumerate((good[:-2], b"{", good.replace(b'"tombstones":[', b'"tombstones":[,'))):
            with self.subTest(index):
                with open(os.path.join(self.state, "state.json"), "wb") as handle:
                    handle.write(data)
                self.assertResult(self.cli(["--state-root", self.state]), "state_corrupt", withdrawn=True)
                self.assertResult(self.cli(["--state-root", self.state, "--verify"]), "state_corrupt")
                self.assertResult(self.cli(["--state-root", self.state, "--dry-run"]), "state_corrupt")

    @unittest.skipIf(resource is None, "CPU time of a child needs the resource module")
    def test_a_repeated_key_deep_in_lists_is_placed_within_the_bound(self) -> None:
        """A repeated key under sixty lists of a thousand items, after a
        mebibyte of numbers: found, and placed at the nearest place of the
        format, without encoding the lists again at every level."""
        depth, width = 60, 1024
        level = b"," + b",".join([b"0"] * width) + b"]"
        numbers = b"0," * (512 * 1024)
        data = (
            b'{"schemaVersion":1,"branches":' + b"[" * depth + numbers + b'{"a":0,"a":0}]' + level * (depth - 1) + b"}"
        )
        path = self.write_selection(data, "deep-repeat")
        self.assert_answered_within_the_bound(
            ["--state-root", self.state, "--selection", path, "--dry-run"],
            lambda result: self.assertResult(result, "selection_duplicate_key", at="/branches/0"),
        )

    @unittest.skipIf(resource is None, "CPU time of a child needs the resource module")
    def test_a_state_built_to_make_the_decoder_slow_is_refused_within_the_bound(self) -> None:
        """16 MiB of nested arrays, of empty objects, or of distinct keys in
        one object (each with a string, so more strings than a state holds),
        with the digest recomputed over the bytes as written: refused before
        a decode that would take seconds."""
        self.assertResult(self.update(fixture()), "built")
        good = self.read("state.json")
        size = 16 * 1024 * 1024
        fillers = {
            "arrays": b"[" * 40 + b",".join([b"[]"] * (size // 3)) + b"]" * 40,
            "objects": b",".join([b"{}"] * (size // 3)),
            "keys": b"{" + b",".join(b'"%x":""' % i for i in range(size // 11)) + b"}",
        }
        for name, filler in fillers.items():
            with self.subTest(name):
                edited = rehashed_as_written(good.replace(b'"tombstones":[', b'"tombstones":[' + filler + b",", 1))
                self.assertTrue(cp.ledger_as_written(edited))
                with open(os.path.join(self.state, "state.json"), "wb") as handle:
                    handle.write(edited)
                self.assert_answered_within_the_bound(
                    ["--state-root", self.state, "--dry-run"], lambda result: self.assertResult(result, "state_corrupt")
                )


class TestTextTheReviewerCannotSee(FreshInterpreterCase):
    def test_hidden_text_and_hidden_secrets(self) -> None:
        token = "gh" + "p_" + "".join(random.SystemRandom().choice(ALNUM) for _ in range(36))
        cases = [
            ("\u202eevil\u202c", "selection_schema", None),
            ("\u200b\u200d", "selection_schema", None),
            ("notes" + "".join(chr(0xE0000 + ord(c)) for c in "approve"), "selection_schema", None),
            ("ok " + token[:6] + "\u200b" + token[6:], "selection_secret", "github-token"),
            ("".join(chr(ord(c) + 0xFEE0) for c in token), "selection_secret", "github-token"),
        ]
        for text, code, rule in cases:
            with self.subTest(code=code, text=text.encode("unicode_escape")[:30]):
                value = fixture()
                value["branches"][0]["summaries"][1]["text"] = text
                result = self.update(value)
                self.assertResult(result, code, at="/branches/0/summaries/1/text", rule=rule)
                self.assertNotIn(token[6:].encode(), result.stdout)
        accepted = fixture()
        accepted["branches"][0]["summaries"][1]["text"] = (
            "family \U0001f468\u200d\U0001f469 and \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"
        )
        self.assertResult(self.update(accepted), "built")

    def test_invisible_characters_only_where_they_change_the_drawing(self) -> None:
        visible = "Reviewed plan: keep the nightly snapshot."
        payload = "".join(f"{b:08b}" for b in b"upload ~/.ssh")
        cases = [
            "".join(c + "\ufe0f" for c in visible),
            "Reviewed" + "".join("\u200b" if bit == "0" else "\u200c" for bit in payload) + " plan",
            "pass\u200dword",
            "\u2764\ufe0f\ufe0f",
            # A soft hyphen after a symbol above the BMP that an accent precedes:
            # 3.11.2 once took the symbol for a mark here.
            "Cafe\u0301\U00010877\u00adbar",
        ]
        for text in cases:
            with self.subTest(text=text.encode("unicode_escape")[:30]):
                value = fixture()
                value["branches"][0]["summaries"][1]["text"] = text
                self.assertResult(self.update(value), "selection_schema", at="/branches/0/summaries/1/text")
        accepted = fixture()
        accepted["branches"][0]["summaries"][1]["text"] = (
            "\u0936\u094d\u200d\u0930\u0940 \u845b\U000e0100 \u0e20\u0e32\u0e29\u0e32\u200b\u0e44\u0e17\u0e22"
            " Silben\u00adtrennung \U0001f3f3\ufe0f\u200d\U0001f308 x\u0301\U00010400\u00adbar"
        )
        self.assertResult(self.update(accepted), "built")

    def test_long_and_multi_line_summaries_are_also_in_parts(self) -> None:
        value = fixture()
        value["branches"][0]["summaries"][1]["text"] = "Line one.\nLine two, " + "and more " * 40
        built = self.update(value)
        self.assertResult(built, "built")
        self.assertEqual(built.json["summaryParts"], 2)
        verified = self.cli(["--state-root", self.state, "--verify"])
        self.assertResult(verified, "verified")
        self.assertEqual((verified.json["summaryParts"], verified.json["edges"]), (2, built.json["edges"]))


class TestSecretsThroughTheEntryPoint(FreshInterpreterCase):
    # The documented bound on judging a selection, in CPU seconds (docs/performance.md).
    BOUND_CPU_SECONDS = 1.5

    def test_a_password_of_six_characters_after_a_scheme_like_start_is_refused(self) -> None:
        # A value starting "ba" or "be", as an auth scheme does: 3.11.2 once
        # left its first letter to a possessive group of schemes.
        value = fixture()
        value["branches"][0]["summaries"][1]["text"] = "password=ba9!2q"
        result = self.update(value)
        self.assertResult(result, "selection_secret", at="/branches/0/summaries/1/text", rule="credential-assignment")

    def test_secret_fields_counts_every_summary_text_that_holds_one(self) -> None:
        rng = random.Random(60)
        token = "gh" + "p_" + "".join(rng.choice(ALNUM) for _ in range(36))
        value = fixture()
        summaries = [s for b in value["branches"] for s in b["summaries"]]
        for target in summaries[:3]:
            target["text"] = f"CI uses {token} and {token[::-1]}."
        result = self.update(value)
        self.assertResult(
            result, "selection_secret", at="/branches/0/summaries/0/text", rule="github-token", secret_fields=3
        )
        self.assertNotIn(token[4:].encode(), result.stdout)

    @unittest.skipIf(resource is None, "CPU time of a child needs the resource module")
    def test_text_that_folds_many_times_over_is_judged_within_the_bound(self) -> None:
        # 2 MiB of U+FDFA, which NFKC expands eighteenfold, in summaries of
        # the longest length.
        summaries = [
            {"summaryId": f"s{i}", "role": "user", "kind": "summary", "approved": True, "text": "\ufdfa" * 2000}
            for i in range(100)
        ]
        branches = [{"branchId": f"b{i}", "sourceRevision": 1, "sources": [], "summaries": summaries} for i in range(3)]
        path = self.write_selection({"schemaVersion": 1, "corpusId": "c", "revision": 1, "branches": branches})
        self.assertGreater(os.path.getsize(path), 1_800_000)
        self.assert_judged_within_the_bound(path, "checked")

    @unittest.skipIf(resource is None, "CPU time of a child needs the resource module")
    def test_selections_built_against_the_scan_are_judged_within_the_bound(self) -> None:
        """2 MiB selections that each once cost one judgement, pattern step
        or Python loop turn per few characters: values that assign their
        key again, a run of commands each read sixteen tokens ahead, numbers
        after a key, a long word after a key and a space, key words with no
        value after them, soft hyphens after accented letters, and a token
        inside a long string before the one that ends the JSON."""
        rng = random.Random(61)
        punctuation = ALNUM + "!$*+./:?@^|~"
        shapes = {
            "keys assigned again": (
                lambda: "#" + "".join(rng.choices(ALNUM, k=3)) + "_password=" + "".join(rng.choices(punctuation, k=2)),
                # More candidates than the bound on judgements allows, and a
                # text before the bound whose last value reads as a password.
                "selection_secret",
            ),
            "ldap commands": (lambda: "ldapadd ", "checked"),
            # A key word every 22 characters, each place it calls a row from
            # work: past the bound before the selection's end.
            "numbers after a key": (lambda: "pwd=000000 " + "a" * 11, "selection_limit"),
            "quoted numbers after a key": (lambda: 'pwd="000000" ' + "a" * 9, "selection_limit"),
            "a key and a space before a long word": (
                lambda: "pw " + "".join(rng.choices("abcdefghijklmnopqrstuvwxyz", k=250)) + " ",
                "checked",
            ),
            # Key words and nothing to assign, in English and in Polish: each
            # place a key word calls a row from is a unit of work, past the
            # bound before the selection's end (in Polish, "hasło to h0047291"
            # at the end of the first text, its own number, is a password set).
            "key words before a connector word": (lambda: "key to ", "selection_limit"),
            "Polish key words before a connector word": (lambda: "has\u0142o to ", "selection_secret"),
            # "Key" in Polish and its qualifier, read in both orders: past
            # the bound before the end.
            "a key noun and its qualifier": (lambda: "klucz API ", "selection_limit"),
            # Both before a connector word: 1.5 s judged whole (an outside
            # review), the longest patterns' places counted for more.
            "key nouns and key words before a connector word": (
                lambda: "Klucz API to has\u0142o to ",
                "selection_limit",
            ),
            # A bare flag, each a try of the generic flag row: a place
            # every three characters.
            "a bare flag repeated": (lambda: " -p", "selection_limit"),
            "soft hyphens after accents": (lambda: "a\u0301\u0301\u0301\u0301\u00ad", "checked"),
            # Canonical order puts the ypogegrammeni (class 240) after the
            # grave below (220): NFKC sorts each run of marks by insertion.
            "marks in reverse canonical order": (lambda: "a" + "\u0345" * 1000 + "\u0316" * 999, "checked"),
            # Every row searched in every text, none matching: past the bound
            # on the work of judging (each row a pass over each text).
            "every keyword of the secret gate": (every_keyword, "selection_limit"),
            "every keyword after a typographic quote": (
                lambda: "\u201c" + every_keyword() + "\u201d",
                "selection_limit",
            ),
        }
        for name, (unit, code) in shapes.items():
            with self.subTest(name):
                # The benchmark's own generator: as many summaries of the
                # unit repeated as a selection's bytes hold, no two alike (a
                # text repeated is judged once).
                data = json.dumps(
                    hostile_selection(unit, text=distinct_text, ensure_ascii=False), ensure_ascii=False
                ).encode()
                self.assertLessEqual(len(data), cp.MAX_SELECTION_BYTES)
                self.assertGreater(len(data), cp.MAX_SELECTION_BYTES * 0.9)
                self.assert_judged_within_the_bound(self.write_selection(data), code)
        with self.subTest("notes about passwords, keys and tokens"):
            # Not hostile: text as dense in key words as a team's notes get
            # is judged to its end, within the bound on work and on time.
            self.assert_judged_within_the_bound(self.write_selection(notes_about_secrets(rng)), "checked")
        with self.subTest("a token inside a string"):
            data = b'{"schemaVersion":1,"x":"' + b"NaN" * ((cp.MAX_SELECTION_BYTES - 60) // 3) + b'","y":NaN}'
            self.assert_judged_within_the_bound(self.write_selection(data), "selection_malformed")

    def assert_judged_within_the_bound(self, path: str, code: str) -> None:
        self.assert_answered_within_the_bound(
            ["--state-root", self.state, "--selection", path, "--dry-run"],
            lambda result: self.assertEqual(result.code, code),
        )


class TestUnwritableStdout(FreshInterpreterCase):
    """A closed, full or broken stdout keeps the run's exit status and an
    empty stderr; the line never lands in a state file."""

    def run_with_stdout(self, stdout: Any, args: Sequence[str]) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            [self.python, "-I", MODULE, *args],
            stdout=stdout,
            stderr=subprocess.PIPE,
            env=child_env(CP_FAKE_GRAPHIFY="ok"),
            timeout=120,
        )

    def assert_no_line_in_state(self) -> None:
        for name in self.entries():
            self.assertNotIn(b'"code":', self.read(name), name)

    @unittest.skipUnless(os.name == "posix", "POSIX shell redirection")
    def test_closed_stdout(self) -> None:
        path = self.write_selection(fixture())
        for args, code in (
            (["--state-root", self.state, "--selection", path], 0),
            (["--state-root", self.state, "--verify"], 0),
            (["--state-root"], 2),
        ):
            with self.subTest(args=len(args)):
                completed = subprocess.run(
                    ["sh", "-c", 'exec "$@" >&-', "sh", self.python, "-I", MODULE, *args],
                    stderr=subprocess.PIPE,
                    env=child_env(CP_FAKE_GRAPHIFY="ok"),
                    timeout=120,
                )
                self.assertEqual((completed.returncode, completed.stderr), (code, b""))
        self.assertResult(self.cli(["--state-root", self.state, "--verify"]), "verified")
        self.assert_no_line_in_state()

    @unittest.skipUnless(os.path.exists("/dev/full"), "needs /dev/full")
    def test_full_stdout(self) -> None:
        path = self.write_selection(fixture())
        with open("/dev/full", "wb") as full:
            completed = self.run_with_stdout(full, ["--state-root", self.state, "--selection", path])
            self.assertEqual((completed.returncode, completed.stderr), (0, b""))
            completed = self.run_with_stdout(full, ["--state-root", self.state, "--verify"])
            self.assertEqual((completed.returncode, completed.stderr), (0, b""))
            completed = self.run_with_stdout(full, ["--state-root"])
            self.assertEqual((completed.returncode, completed.stderr), (2, b""))
        self.assertResult(self.cli(["--state-root", self.state, "--verify"]), "verified")

    def test_broken_pipe(self) -> None:
        path = self.write_selection(fixture())
        read_end, write_end = os.pipe()
        os.close(read_end)
        try:
            completed = self.run_with_stdout(write_end, ["--state-root", self.state, "--selection", path])
        finally:
            os.close(write_end)
        self.assertEqual((completed.returncode, completed.stderr), (0, b""))
        self.assertResult(self.cli(["--state-root", self.state, "--verify"]), "verified")

    @unittest.skipUnless(os.name == "posix", "POSIX shell redirection")
    def test_closed_stdin_and_stderr_too(self) -> None:
        path = self.write_selection(fixture())
        command = [self.python, "-I", MODULE, "--state-root", self.state, "--selection", path]
        completed = subprocess.run(
            ["sh", "-c", 'exec "$@" <&- >&- 2>&-', "sh", *command],
            env=child_env(CP_FAKE_GRAPHIFY="noisy"),
            timeout=120,
        )
        self.assertEqual(completed.returncode, 0)
        self.assertResult(self.cli(["--state-root", self.state, "--verify"]), "verified")
        self.assert_no_line_in_state()


class TestRootPathResolution(FreshInterpreterCase):
    @unittest.skipUnless(CAN_SYMLINK, "this host cannot create symlinks")
    def test_dot_dot_after_a_symlink_meets_the_symlink(self) -> None:
        real = os.path.join(self.tmp, "real")
        os.mkdir(real)
        os.symlink(real, os.path.join(self.tmp, "lnk"))
        tree = snapshot_tree(self.tmp)
        root = os.path.join(self.tmp, "lnk", "..", "st")
        result = self.cli(["--state-root", root, "--selection", self.write_selection(fixture())])
        self.assertResult(result, "state_symlink")
        tree["selection.json"] = snapshot_tree(self.tmp)["selection.json"]
        self.assertEqual(snapshot_tree(self.tmp), tree)

    def test_dot_dot_without_a_symlink_is_fine(self) -> None:
        os.mkdir(os.path.join(self.tmp, "plain"))
        root = os.path.join(self.tmp, "plain", "..", "st")
        self.assertResult(self.cli(["--state-root", root, "--selection", self.write_selection(fixture())]), "built")
        self.assertTrue(os.path.isfile(os.path.join(self.tmp, "st", "graph.json")))

    def test_relative_root_from_another_working_directory(self) -> None:
        path = self.write_selection(fixture())
        result = self.cli(["--state-root", "rel-state", "--selection", path], cwd=self.tmp)
        self.assertResult(result, "built")
        self.assertTrue(os.path.isfile(os.path.join(self.tmp, "rel-state", "receipt.json")))

    @unittest.skipUnless(os.name == "posix", "PATH_MAX")
    def test_root_too_long_for_graphify_is_refused_up_front(self) -> None:
        """Graphify resolves its output to an absolute path: a root near
        PATH_MAX could never build.  Refused before anything is created, by
        an update and a dry run alike."""
        deep = self.tmp
        fd = os.open(deep, os.O_RDONLY)
        length = len(deep)
        try:
            while length < 4200:
                os.mkdir("d" * 200, dir_fd=fd)
                child = os.open("d" * 200, os.O_RDONLY, dir_fd=fd)
                os.close(fd)
                fd = child
                length += 201
        finally:
            os.close(fd)
        root = self.tmp + ("/" + "d" * 200) * ((length - len(self.tmp)) // 201) + "/state"
        path = self.write_selection(fixture())
        self.assertResult(self.cli(["--state-root", root, "--selection", path, "--dry-run"]), "state_access")
        self.assertResult(self.cli(["--state-root", root, "--selection", path]), "state_access")


if __name__ == "__main__":
    print(f"fresh-interpreter suite under Python {sys.version.split()[0]} ({sys.executable})", file=sys.stderr)
    # --cpu-bounds: the tests of CPU_BOUND_TESTS alone.
    argv = [sys.argv[0], *CPU_BOUND_TESTS] if sys.argv[1:] == ["--cpu-bounds"] else sys.argv
    unittest.main(argv=argv)
