"""Command line and the result line: the documented forms, the one JSON line, nothing from
the input in it, every path closing what it opened.

Run: python -I tests/test_command_line.py
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import types
import unittest
from typing import Any

# -I leaves the script's own directory off sys.path.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import standin_graphify
from cp_testlib import (
    HANDLED_SIGNALS,
    HERE,
    MODULE,
    OUT_OF_MEMORY_AT,
    REQUIRE_DEV_TOOLS,
    ROOT,
    Result,
    TempDirTestCase,
    branch,
    child_env,
    cp,
    family,
    first_summary,
    fixture,
    minimal,
    mutated,
    run_module,
    run_standin,
    selection,
    summary,
    sys,
    umask,
)


class TestCommandLine(TempDirTestCase):
    def test_bad_arguments_are_usage_and_echo_nothing(self) -> None:
        sentinel = "ARGSENTINEL-" + "q7z"
        selection_path = self.write_selection(minimal())
        cases = {
            "no arguments": [],
            "unknown flag": ["--state-root", self.state, f"--{sentinel}"],
            "positional": ["--state-root", self.state, sentinel],
            "missing state value": ["--state-root"],
            "missing selection value": ["--state-root", self.state, "--selection"],
            "no state root": ["--selection", selection_path],
            "empty state root": ["--state-root=", "--selection", selection_path],
            "verify with selection": ["--state-root", self.state, "--verify", "--selection", selection_path],
            "verify with dry run": ["--state-root", self.state, "--verify", "--dry-run"],
            "repeated flag": ["--state-root", self.state, "--state-root", self.state + sentinel],
            "repeated switch": ["--state-root", self.state, "--verify", "--verify"],
            "switch with value": ["--state-root", self.state, f"--verify={sentinel}"],
            "flag as value": ["--state-root", "--verify"],
            "help with a run": ["--state-root", self.state, "--help"],
            "short help with a run": ["-h", "--state-root", self.state],
            "help twice": ["--help", "--help"],
            "help with a value": [f"--help={sentinel}"],
            "abbreviation": ["--state", self.state],
        }
        for name, args in cases.items():
            with self.subTest(name):
                result = run_module(args)
                self.assertResult(result, "usage", 2)
                self.assertNotIn(sentinel.encode(), result.stdout)
                self.assertNotIn(self.tmp.encode(), result.stdout)
                self.assertFalse(os.path.exists(self.state))

    def test_help_alone_prints_the_fixed_text(self) -> None:
        """--help or -h, alone: the fixed text on stdout, exit 0, stderr empty,
        the same whatever the environment and working directory, and nothing
        created; it names every command form and where the codes are."""
        outputs = set()
        for flag in ("--help", "-h"):
            for env in (child_env(), child_env(CP_HELP_SENTINEL="ENVSENTINEL-h4x", COLUMNS="20", LANG="C")):
                with self.subTest(flag=flag, env=len(env)):
                    workdir = os.path.join(self.tmp, f"cwd-{flag}-{len(env)}")
                    os.mkdir(workdir)
                    completed = subprocess.run(
                        [sys.executable, "-I", MODULE, flag], capture_output=True, env=env, cwd=workdir, timeout=60
                    )
                    self.assertEqual((completed.returncode, completed.stderr), (0, b""))
                    self.assertEqual(completed.stdout, (cp.HELP_TEXT + "\n").encode("ascii"))
                    self.assertNotIn(b"ENVSENTINEL", completed.stdout)
                    self.assertNotIn(self.tmp.encode(), completed.stdout)
                    self.assertEqual(os.listdir(workdir), [])
                    outputs.add(completed.stdout)
        self.assertEqual(len(outputs), 1)
        text = cp.HELP_TEXT
        for form in ("--selection FILE", "--dry-run", "--verify", "--migrate", "--help | -h"):
            self.assertIn(form, text)
        self.assertLessEqual(len(text.splitlines()), 30, "help stays short")
        for page in ("docs/codes.md", "docs/result-line.md"):
            self.assertIn(page, text)
            self.assertTrue(os.path.isfile(os.path.join(ROOT, page)), page)

    def test_help_through_main(self) -> None:
        """main() writes the text to descriptor 1 and returns 0."""
        out_path = os.path.join(self.tmp, "out")
        for flag in ("--help", "-h"):
            with self.subTest(flag):
                self.assertEqual(cp.execute([flag]), (0, cp.HELP_TEXT))
                saved = os.dup(1)
                try:
                    with open(out_path, "wb") as out:
                        os.dup2(out.fileno(), 1)
                        exit_code = cp.main([flag])
                finally:
                    os.dup2(saved, 1)
                    os.close(saved)
                self.assertEqual(exit_code, 0)
                with open(out_path, "rb") as handle:
                    self.assertEqual(handle.read(), (cp.HELP_TEXT + "\n").encode("ascii"))
        self.assertFalse(os.path.exists(self.state))

    def test_equals_form_is_accepted(self) -> None:
        path = self.write_selection(minimal())
        result = run_standin([f"--state-root={self.state}", f"--selection={path}"])
        self.assertResult(result, "built")

    def test_an_in_process_caller_gets_its_collector_back(self) -> None:
        """main() rests the cyclic collector while it runs: a caller that had
        it on has it on again, one that had it off still has it off."""
        import contextlib
        import gc
        import io

        path = self.write_selection(minimal())
        collecting = gc.isenabled()
        try:
            for before in (True, False):
                with self.subTest(enabled=before):
                    (gc.enable if before else gc.disable)()
                    with contextlib.redirect_stdout(io.StringIO()):
                        cp.main(["--state-root", self.state, "--selection", path, "--dry-run"])
                    self.assertIs(gc.isenabled(), before)
        finally:
            (gc.enable if collecting else gc.disable)()

    def test_an_in_process_caller_gets_its_umask_back(self) -> None:
        import contextlib
        import io

        path = self.write_selection(minimal())
        with umask(0o022):
            with contextlib.redirect_stdout(io.StringIO()):
                cp.main(["--state-root", self.state, "--selection", path, "--dry-run"])
            self.assertEqual(os.umask(0o022), 0o022)

    def test_an_in_process_caller_gets_its_signal_handlers_back(self) -> None:
        import contextlib
        import io

        path = self.write_selection(minimal())
        handlers = {signum: signal.getsignal(signum) for signum in HANDLED_SIGNALS}

        def mine(signum: int, frame: object) -> None:
            raise AssertionError("no signal was sent")

        try:
            for signum in HANDLED_SIGNALS:
                signal.signal(signum, mine)
            with contextlib.redirect_stdout(io.StringIO()):
                cp.main(["--state-root", self.state, "--selection", path, "--dry-run"])
            for signum in HANDLED_SIGNALS:
                self.assertIs(signal.getsignal(signum), mine, signum)
        finally:
            for signum, handler in handlers.items():
                signal.signal(signum, handler)

    def test_parse_arguments_forms(self) -> None:
        parsed = cp.parse_arguments(["--state-root", "/x", "--selection", "/y", "--dry-run"])
        self.assertEqual(parsed, cp.Arguments("/x", "/y", False, True))
        self.assertEqual(cp.parse_arguments(["--verify", "--state-root=/x"]), cp.Arguments("/x", None, True, False))


class TestResultLine(TempDirTestCase):
    def test_the_last_resort_lines_are_the_result_lines(self) -> None:
        """The lines main() prints when memory runs out where no outcome can
        be made are made at import; they must be what result_line makes."""
        outcome = cp.Outcome("resource_exhausted", {})
        self.assertEqual(cp.EXHAUSTED_LINES[False], (cp.result_line(outcome) + "\n").encode())
        outcome.withdrawn = True
        self.assertEqual(cp.EXHAUSTED_LINES[True], (cp.result_line(outcome) + "\n").encode())

    def test_memory_that_runs_out_around_the_answer_still_gives_one_line(self) -> None:
        """Out of memory while the line is made, or before the run starts:
        one line, resource_exhausted, exit 3, nothing on stderr; withdrawn
        when the update had withdrawn the graph (a rebuild), and the state
        is untouched."""
        self.assertResult(self.project(fixture()), "built")
        committed = self.read("state.json")
        for place, args, withdrawn in (
            # A rebuild that withdrew the graph, then cannot even make its refusal.
            ("project,as_resource_refusal", ["--state-root", self.state], True),
            # A rebuild that published the graph: not withdrawn.
            ("result_line", ["--state-root", self.state], False),
            ("result_line", ["--state-root", self.state, "--verify"], False),
            ("_reserve_standard_descriptors", ["--state-root", self.state], False),
            # The call that writes the line cannot start (its frame needs
            # memory): nothing was written, so main() writes its own.
            ("_write_line", ["--state-root", self.state, "--verify"], False),
        ):
            with self.subTest(place, args=args):
                completed = subprocess.run(
                    [sys.executable, "-I", "-c", OUT_OF_MEMORY_AT, ROOT, HERE, place, *args],
                    capture_output=True,
                    env=child_env(),
                    timeout=60,
                )
                self.assertResult(Result(completed), "resource_exhausted", withdrawn=withdrawn)
                self.assertEqual(self.read("state.json"), committed)

    def test_failure_line_has_exactly_the_always_present_keys(self) -> None:
        line = json.loads(cp.result_line(cp.Outcome("state_locked", {"branches": 3})))
        self.assertEqual(
            line,
            {
                "adapterVersion": cp.ADAPTER_VERSION,
                "code": "state_locked",
                "contextGraph": "unknown-owner",
                "embeddingIdentity": "none",
                "exitCode": 2,
                "graphifyVersion": None,
                "projectionSchemaVersion": 1,
                "result": "invalid",
            },
        )

    def test_retry_word_for_exit_three(self) -> None:
        line = json.loads(cp.result_line(cp.Outcome("graphify_failed", {}, "1.2.3")))
        self.assertEqual((line["result"], line["exitCode"], line["graphifyVersion"]), ("retry", 3, "1.2.3"))

    def test_unexpected_exception_is_internal_error_without_traceback(self) -> None:
        result = self.project(minimal(), mode="adapter-bug")
        self.assertResult(result, "internal_error", 2, withdrawn=True)
        self.assertNotIn(b"Traceback", result.stdout)
        self.assertEqual(self.entries(), ["state.json"])

    def test_success_line_carries_status_only(self) -> None:
        result = self.project(minimal())
        self.assertResult(result, "built")
        self.assertEqual(result.json["result"], "ok")
        self.assertEqual(
            (result.json["branches"], result.json["sources"], result.json["summaries"], result.json["edges"]),
            (2, 1, 2, 5),
        )
        self.assertEqual(result.json["tombstones"], 0)
        self.assertEqual(result.json["graphSha256"], cp.sha256_hex(self.read("graph.json")))


class TestPrivacySentinels(TempDirTestCase):
    SENTINEL = "zqxsentinel"

    def sentinel_selection(self) -> dict[str, Any]:
        s = self.SENTINEL
        return selection(
            1,
            [
                branch(
                    f"{s}-parent",
                    sources=[f"{s}-ref"],
                    summaries=[summary(f"{s}-sum", f"Private {s} text.", memoryRef=f"{s}-mem")],
                ),
                branch(f"{s}-child", parent=f"{s}-parent", summaries=[summary(f"{s}-s2", f"More {s}.")]),
            ],
            corpus=f"{s}-corpus",
        )

    def test_no_sentinel_on_any_path(self) -> None:
        s = self.SENTINEL
        state = os.path.join(self.tmp, f"{s}-state-dir")
        good = self.sentinel_selection()
        variants: dict[str, Any] = {
            "unknown field": dict(good, **{f"{s}-key": f"{s}-value"}),
            "schema": dict(good, revision=f"{s}"),
            "secret": mutated(lambda v: first_summary(v).update(text=f"{s} password=" + "Ab12" + "cd34ef")),
            "malformed": f'{{"{s}": '.encode(),
            "duplicate key": f'{{"{s}": 1, "{s}": 2}}'.encode(),
            "limit": mutated(lambda v: first_summary(v).update(text=s * 300)),
            "unapproved": mutated(lambda v: first_summary(v).update(approved=s)),
            "kind": mutated(lambda v: first_summary(v).update(kind=s)),
        }
        outputs: list[Result] = []
        for name, value in variants.items():
            path = self.write_selection(value, f"{s}-{name.replace(' ', '-')}.json")
            outputs.append(run_module(["--state-root", state, "--selection", path]))
            outputs.append(run_standin(["--state-root", state, "--selection", path, "--dry-run"]))
        good_path = self.write_selection(good, f"{s}-good.json")
        for mode in ("ok", "noisy", "build-raises", "missing", "drop-node"):
            outputs.append(run_standin(["--state-root", state, "--selection", good_path], mode))
        outputs.append(run_standin(["--state-root", state], "noisy"))
        outputs.append(run_module(["--state-root", state, "--verify"]))
        stale = dict(good, branches=good["branches"][:1])
        outputs.append(run_standin(["--state-root", state, "--selection", self.write_selection(stale, f"{s}-st.json")]))
        outputs.append(
            run_module(["--state-root", os.path.join(self.tmp, f"{s}-missing", "x"), "--selection", good_path])
        )
        outputs.append(run_module([f"--{s}", state]))
        codes = set()
        for result in outputs:
            self.assertEqual(len(result.lines), 1)
            self.assertEqual(result.stderr, b"")
            self.assertNotIn(s.encode(), result.stdout)
            self.assertNotIn(self.tmp.encode(), result.stdout)
            self.assertNotIn(b"Traceback", result.stdout)
            codes.add(result.code)
        self.assertGreaterEqual(len(codes), 10)


class TestPowerShellWrapper(unittest.TestCase):
    SCRIPT = os.path.join(ROOT, "Project-ConversationContext.ps1")

    def source(self) -> str:
        with open(self.SCRIPT, encoding="utf-8") as handle:
            return handle.read()

    def test_parses_without_syntax_errors(self) -> None:
        sys.path.insert(0, os.path.join(ROOT, "tests"))
        try:
            import check_powershell
            import tree_sitter  # noqa: F401
        except ImportError:
            if REQUIRE_DEV_TOOLS:
                self.fail("tree-sitter-powershell is required in CI")
            self.skipTest("tree-sitter not installed")
        with open(self.SCRIPT, "rb") as handle:
            self.assertEqual(check_powershell.syntax_errors(handle.read()), [])
        self.assertTrue(check_powershell.syntax_errors(b"param(\n[string] $x\nif ($x { 1 }\n"))

    def test_python_missing_line_has_the_result_shape(self) -> None:
        line = next(x for x in self.source().splitlines() if x.startswith("$pythonMissing = "))
        literal = line.split("= ", 1)[1].strip("'")
        expected = json.loads(cp.result_line(cp.Outcome("state_access", {})))
        expected.update(code="python_missing")
        self.assertEqual(literal, json.dumps(expected, sort_keys=True, separators=(",", ":")))

    def test_runs_the_module_beside_it_isolated(self) -> None:
        text = self.source()
        self.assertIn("#Requires -Version 7.4", text)
        self.assertIn("Join-Path -Path $PSScriptRoot -ChildPath 'conversation_projection.py'", text)
        self.assertIn("@('-I', $module, '--state-root', $StateRoot)", text)
        self.assertIn("exit $LASTEXITCODE", text)
        for parameter in ("$PythonPath", "$StateRoot"):
            block = text.split(parameter)[0].rsplit("[Parameter(", 1)[1]
            self.assertIn("Mandatory = $true", block)


class TestErrorMapping(TempDirTestCase):
    def test_os_error_outside_the_state_directory_is_internal(self) -> None:
        path = self.write_selection(family())
        original = cp.project

        def broken(state: Any) -> Any:
            raise OSError(5, "not the state directory")

        cp.project = broken
        self.addCleanup(setattr, cp, "project", original)
        code, line = cp.execute(["--state-root", self.state, "--selection", path], standin_graphify.make_loader("ok"))
        self.assertEqual((code, json.loads(line)["code"], json.loads(line)["withdrawn"]), (2, "internal_error", True))

    def test_assert_valid_of_another_shape_is_incompatible(self) -> None:
        def no_arguments() -> None:
            return None

        modules = dict(standin_graphify.make_loader("ok")(), validate=types.SimpleNamespace(assert_valid=no_arguments))
        with self.assertRaises(cp.ProjectionError) as caught:
            cp.resolve_graphify(modules)
        self.assertEqual(
            (caught.exception.code, caught.exception.graphify_version),
            ("graphify_incompatible", standin_graphify.STANDIN_VERSION),
        )

    def test_eacces_on_a_component_of_the_root_is_state_access(self) -> None:
        original = os.open

        def refusing(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
            if path == "locked-component":
                raise PermissionError(13, "denied")
            return original(path, flags, *args, **kwargs)

        root = os.path.join(self.tmp, "locked-component", "state")
        os.makedirs(os.path.dirname(root))
        os.open = refusing  # type: ignore[assignment]
        self.addCleanup(setattr, os, "open", original)
        path = self.write_selection(family())
        for args in (["--selection", path], ["--verify"], ["--selection", path, "--dry-run"]):
            with self.subTest(args[-1]):
                code, line = cp.execute(["--state-root", root, *args], standin_graphify.make_loader("ok"))
                self.assertEqual((code, json.loads(line)["code"]), (2, "state_access"))


class TestNoDescriptorLeaks(TempDirTestCase):
    @unittest.skipUnless(os.path.isdir("/proc/self/fd"), "needs /proc")
    def test_every_path_closes_what_it_opened(self) -> None:
        def open_fds() -> int:
            return len(os.listdir("/proc/self/fd"))

        loader = standin_graphify.make_loader("ok")
        good = self.write_selection(family())
        bad = self.write_selection(dict(family(), raw=1), "bad.json")
        runs = [
            ["--state-root", self.state, "--selection", good],
            ["--state-root", self.state, "--verify"],
            ["--state-root", self.state, "--selection", bad],
            ["--state-root", self.state, "--selection", good, "--dry-run"],
            ["--state-root", self.state],
            ["--state-root", os.path.join(self.tmp, "nope", "x")],
        ]
        for args in runs:
            with self.subTest(args[2:]):
                before = open_fds()
                cp.execute(args, loader)
                self.assertEqual(open_fds(), before)

    @unittest.skipUnless(os.path.isdir("/proc/self/fd"), "needs /proc")
    def test_an_entry_that_is_no_file_once_opened_is_closed_again(self) -> None:
        """What a run opens to read may have been swapped for a directory
        since the root was listed: refused, and its descriptor closed, by
        the descriptor-relative code and the path-based one."""
        os.mkdir(self.state, 0o700)
        os.mkdir(os.path.join(self.state, cp.STATE_NAME))
        root_fd = os.open(self.state, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        self.addCleanup(os.close, root_fd)
        for owned in (cp.OwnedDir(self.state, root_fd), cp.OwnedDir(self.state, None)):
            with self.subTest(fd=owned.fd is not None):
                before = len(os.listdir("/proc/self/fd"))
                with self.assertRaises(cp.ProjectionError) as raised:
                    owned.open_read(cp.STATE_NAME)
                self.assertEqual(raised.exception.code, "state_unknown_entry")
                self.assertEqual(len(os.listdir("/proc/self/fd")), before)


if __name__ == "__main__":
    unittest.main()
