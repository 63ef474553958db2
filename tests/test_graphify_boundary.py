"""The Graphify boundary: imported lazily, each function's shape checked, its output
silenced, its graph checked against the extraction.

Run: python -I tests/test_graphify_boundary.py
"""

from __future__ import annotations

import ast
import json
import os
import stat
import subprocess
import sys
import types
import unittest
from collections.abc import Callable
from typing import Any

# -I leaves the script's own directory off sys.path.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import standin_graphify
from cp_testlib import (
    CAN_SYMLINK,
    MODULE,
    Result,
    TempDirTestCase,
    blocked_graphify_command,
    child_env,
    cp,
    execute,
    family,
    fixture,
    mutated,
    sys,
)


class TestModuleBoundary(TempDirTestCase):
    def test_module_imports_only_the_standard_library_at_top_level(self) -> None:
        with open(MODULE, encoding="utf-8") as handle:
            tree = ast.parse(handle.read())
        for node in tree.body:
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            for name in names:
                self.assertIn(name.split(".")[0], sys.stdlib_module_names | {"__future__"})

    @staticmethod
    def imports_of(*args: str) -> set[str]:
        completed = subprocess.run(
            [sys.executable, "-I", "-X", "importtime", *args], capture_output=True, env=child_env()
        )
        return {line.split("|")[-1].strip() for line in completed.stderr.decode().splitlines()}

    def test_rejection_never_imports_graphify(self) -> None:
        path = self.write_selection(mutated(lambda v: v.update(raw="x")))
        imported = self.imports_of(MODULE, "--state-root", self.state, "--selection", path)
        # What the interpreter itself loads (site, .pth hooks of an editable
        # install) and what the json package needs (json.decoder imports re)
        # are not the module's doing: only what it adds to them is.
        baseline = self.imports_of("-c", "import json")
        # The public json package parses; nothing else slow is needed to refuse.
        self.assertIn("json.decoder", imported)
        slow = ("graphify", "networkx", "importlib.metadata", "re", "hashlib", "typing", "dataclasses")
        added = imported - baseline
        leaked = [n for n in added if n in slow or n.startswith(("graphify.", "networkx."))]
        self.assertEqual(leaked, [])

    def test_runs_from_any_working_directory(self) -> None:
        path = self.write_selection(mutated(lambda v: v.update(raw="x")))
        completed = subprocess.run(
            [sys.executable, "-I", MODULE, "--state-root", self.state, "--selection", path],
            capture_output=True,
            cwd=self.tmp,
            env=child_env(),
        )
        self.assertEqual(json.loads(completed.stdout)["code"], "selection_unknown_field")


class TestGraphifyBoundary(TempDirTestCase):
    def test_failures_keep_new_state_and_no_derived_files(self) -> None:
        self.assertResult(self.project(family()), "built")
        revision = 2
        for mode, code in (
            ("missing", "graphify_missing"),
            ("import-out-of-memory", "resource_exhausted"),
            ("absent", "graphify_incompatible"),
            ("no-dedup", "graphify_incompatible"),
            ("positional-only", "graphify_incompatible"),
            ("invalid", "graphify_failed"),
            ("build-raises", "graphify_failed"),
            ("export-raises", "graphify_failed"),
            ("export-false", "graphify_failed"),
            ("drop-node", "graphify_failed"),
            ("interrupt", "graphify_failed"),
        ):
            with self.subTest(mode):
                revision += 1
                result = self.project(family(revision=revision), mode=mode)
                self.assertResult(result, code, 3, withdrawn=True)
                expected_version = (
                    None if mode in ("missing", "import-out-of-memory") else standin_graphify.STANDIN_VERSION
                )
                self.assertEqual(result.json["graphifyVersion"], expected_version)
                self.assertEqual(result.json["result"], "retry")
                self.assertEqual(self.entries(), ["state.json"])
                self.assertEqual(json.loads(self.read("state.json"))["selectionRevision"], revision)
                self.assertResult(self.verify(), "receipt_mismatch")
        self.assertResult(self.rebuild(), "built")
        self.assertResult(self.verify(), "verified")

    def test_graphify_output_is_silenced_at_the_descriptor_level(self) -> None:
        result = self.project(fixture(), mode="noisy")
        self.assertResult(result, "built")
        self.assertNotIn(b"validate:", result.stdout)

    def test_graphify_output_is_silenced_for_an_in_process_caller_too(self) -> None:
        """execute() called in process: what Graphify prints to sys.stdout and
        sys.stderr reaches neither of the caller's streams."""
        import contextlib
        import io

        path = self.write_selection(fixture())
        with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.redirect_stderr(io.StringIO()) as err:
            exit_code, _line = cp.execute(
                ["--state-root", self.state, "--selection", path], standin_graphify.make_loader("noisy")
            )
        self.assertEqual((exit_code, out.getvalue(), err.getvalue()), (0, "", ""))

    def test_missing_graphify_reports_null_version(self) -> None:
        result = self.project(fixture(), mode="missing")
        self.assertResult(result, "graphify_missing", 3, withdrawn=True)
        self.assertIsNone(result.json["graphifyVersion"])

    def test_real_entry_point_without_graphify_installed(self) -> None:
        """The module's own loader, in an interpreter where graphify cannot
        be imported: exit 3, graphify_missing, state kept."""
        probe = subprocess.run([sys.executable, "-I", "-c", "import graphify"], capture_output=True)
        installed = probe.returncode == 0
        command = blocked_graphify_command(self.tmp) if installed else [sys.executable, "-I", MODULE]
        path = self.write_selection(fixture())
        completed = subprocess.run([*command, "--state-root", self.state, "--selection", path], capture_output=True)
        result = Result(completed)
        self.assertResult(result, "graphify_missing", 3, withdrawn=True)
        self.assertEqual(self.entries(), ["state.json"])

    def test_api_shape_checks(self) -> None:
        def good(extraction: Any, *, directed: bool = False, dedup: bool = True) -> Any:
            return None

        def export(g: Any, c: Any, p: str, *, force: bool = False, built_at_commit: str | None = None) -> bool:
            return True

        def kwargs_only(*args: Any, **kwargs: Any) -> bool:
            return True

        from types import SimpleNamespace as NS

        def resolve(**modules: Any) -> str | None:
            base = {
                "validate": NS(assert_valid=lambda e: None),
                "build": NS(build_from_json=good),
                "export": NS(to_json=export),
            }
            base.update(modules)
            try:
                cp.resolve_graphify(base)
            except cp.ProjectionError as error:
                return error.code
            return None

        self.assertIsNone(resolve())
        self.assertIsNone(resolve(export=NS(to_json=kwargs_only)))
        self.assertEqual(resolve(validate=NS()), "graphify_incompatible")
        self.assertEqual(resolve(build=NS(build_from_json="not callable")), "graphify_incompatible")
        self.assertEqual(resolve(build=NS(build_from_json=lambda e, directed=True: None)), "graphify_incompatible")
        self.assertEqual(resolve(export=NS(to_json=lambda g, c: True)), "graphify_incompatible")


class TestGraphifyIsHandedAShortName(TempDirTestCase):
    """Graphify writes into the verified directory by a relative name, with
    the working directory set to it for the call and restored after."""

    def loader_recording(self, seen: dict[str, Any], wander: bool = False) -> Any:
        standin = standin_graphify.make_loader("ok")()

        def to_json(graph: Any, communities: Any, output_path: str, **kwargs: Any) -> bool:
            seen["path"] = output_path
            st = os.stat(".")
            seen["cwd"] = (st.st_dev, st.st_ino)
            written = standin["export"].to_json(graph, communities, output_path, **kwargs)
            if wander:
                os.chdir(self.tmp)
            return bool(written)

        def loader() -> Any:
            return dict(standin, export=types.SimpleNamespace(to_json=to_json))

        return loader

    def test_relative_name_inside_the_root(self) -> None:
        seen: dict[str, Any] = {}
        before = os.getcwd()
        path = self.write_selection(family())
        code, line = cp.execute(["--state-root", self.state, "--selection", path], self.loader_recording(seen))
        self.assertEqual((code, json.loads(line)["code"]), (0, "built"))
        self.assertEqual(seen["path"], "graph.json.tmp")
        st = os.stat(self.state)
        self.assertEqual(seen["cwd"], (st.st_dev, st.st_ino))
        self.assertEqual(os.getcwd(), before)

    def test_graphify_that_leaves_the_directory_fails(self) -> None:
        before = os.getcwd()
        path = self.write_selection(family())
        code, line = cp.execute(["--state-root", self.state, "--selection", path], self.loader_recording({}, True))
        self.assertEqual((code, json.loads(line)["code"]), (3, "graphify_failed"))
        self.assertEqual(os.getcwd(), before)
        self.assertEqual(self.entries(), ["state.json"])


class TestGraphifyShapes(TempDirTestCase):
    """What a package named graphify can hand back that the stand-in's modes
    do not: each is a retry code, and no derived file stays behind."""

    def loader_with(self, **changes: Any) -> Callable[[], Any]:
        standin = standin_graphify.make_loader("ok")()
        return lambda: dict(standin, **changes)

    def update_with(self, loader: Callable[[], Any]) -> dict[str, Any]:
        path = self.write_selection(fixture())
        exit_code, result = execute(["--state-root", self.state, "--selection", path], loader)
        self.assertEqual(exit_code, cp.EXIT_RETRY)
        self.assertTrue(result["withdrawn"])
        return result

    def test_modules_that_are_not_a_mapping(self) -> None:
        for shape in ([], "graphify", 3, ("validate", "build", "export")):
            with self.subTest(type(shape).__name__):
                result = self.update_with(lambda shape=shape: shape)
                self.assertEqual((result["code"], result["graphifyVersion"]), ("graphify_incompatible", None))
                self.assertEqual(self.entries(), ["state.json"])

    def test_a_loader_returning_nothing_is_missing(self) -> None:
        self.assertEqual(self.update_with(lambda: None)["code"], "graphify_missing")

    def test_import_failure_keeps_the_installed_version(self) -> None:
        def failing() -> Any:
            raise cp.GraphifyImportFailed("1.2.3")

        result = self.update_with(failing)
        self.assertEqual((result["code"], result["graphifyVersion"]), ("graphify_missing", "1.2.3"))

    def exporting(self, write: Callable[[str], None], answer: Any = True) -> Callable[[], Any]:
        def to_json(graph: Any, communities: Any, output_path: str, **_kwargs: Any) -> Any:
            write(output_path)
            return answer

        return self.loader_with(export=types.SimpleNamespace(to_json=to_json))

    def test_export_that_reports_success_but_writes_nothing(self) -> None:
        result = self.update_with(self.exporting(lambda _path: None))
        self.assertEqual(result["code"], "graphify_failed")
        self.assertEqual(self.entries(), ["state.json"])

    @unittest.skipUnless(CAN_SYMLINK, "this host cannot create symlinks")
    def test_export_that_leaves_a_symlink(self) -> None:
        outside = os.path.join(self.tmp, "outside.json")
        with open(outside, "wb") as handle:
            handle.write(b"outside")
        result = self.update_with(self.exporting(lambda path: os.symlink(outside, path)))
        self.assertEqual(result["code"], "graphify_failed")
        self.assertEqual(self.entries(), ["state.json"])
        with open(outside, "rb") as handle:
            self.assertEqual(handle.read(), b"outside")

    def test_export_answer_other_than_true(self) -> None:
        def write(path: str) -> None:
            with open(path, "w") as handle:
                handle.write("{}")

        for answer in (1, "yes", None, [True]):
            with self.subTest(answer=answer):
                result = self.update_with(self.exporting(write, answer))
                self.assertEqual(result["code"], "graphify_failed")
                self.assertEqual(self.entries(), ["state.json"])

    def building(self, graph: Callable[[Any], Any]) -> Callable[[], Any]:
        def build_from_json(extraction: Any, *, directed: bool = False, dedup: bool = True) -> Any:
            return graph(extraction)

        return self.loader_with(build=types.SimpleNamespace(build_from_json=build_from_json))

    def test_graph_that_is_not_what_was_extracted(self) -> None:
        class Truthy(standin_graphify.StandinGraph):
            def is_directed(self) -> Any:
                return 1

        class Unanswering(standin_graphify.StandinGraph):
            def is_directed(self) -> Any:
                raise RuntimeError("not a graph after all")

        def copied(extraction: Any, kind: type[standin_graphify.StandinGraph] = standin_graphify.StandinGraph) -> Any:
            return kind([dict(n) for n in extraction["nodes"]], [dict(e) for e in extraction["edges"]])

        def doubled_edge(extraction: Any) -> Any:
            graph = copied(extraction)
            graph.link_data.append(dict(graph.link_data[0]))
            return graph

        def extra_node(extraction: Any) -> Any:
            graph = copied(extraction)
            graph.node_data.append({"id": "branch:intruder"})
            return graph

        shapes = {
            "directed answered with 1": lambda extraction: copied(extraction, Truthy),
            "directed raising": lambda extraction: copied(extraction, Unanswering),
            "an edge twice": doubled_edge,
            "a node more": extra_node,
            "no graph": lambda _extraction: None,
        }
        for name, shape in shapes.items():
            with self.subTest(name):
                result = self.update_with(self.building(shape))
                self.assertEqual(result["code"], "graphify_failed")
                self.assertEqual(self.entries(), ["state.json"])

    def test_export_is_forced_at_the_digest_and_its_file_made_private(self) -> None:
        """to_json is told to overwrite and which selection it builds; the
        file it leaves (here 0644, as from a lax umask) is published 0600."""
        standin = standin_graphify.make_loader("ok")()
        seen: list[dict[str, Any]] = []

        def to_json(graph: Any, communities: Any, output_path: str, **kwargs: Any) -> Any:
            seen.append(dict(kwargs, communities=communities))
            written = standin["export"].to_json(graph, communities, output_path, **kwargs)
            os.chmod(output_path, 0o644)
            return written

        path = self.write_selection(fixture())
        loader = self.loader_with(export=types.SimpleNamespace(to_json=to_json))
        exit_code, result = execute(["--state-root", self.state, "--selection", path], loader)
        self.assertEqual((exit_code, result["code"]), (0, "built"))
        self.assertEqual(seen, [{"force": True, "built_at_commit": result["selectionDigest"], "communities": {}}])
        self.assertEqual(stat.S_IMODE(os.stat(os.path.join(self.state, "graph.json")).st_mode), 0o600)


if __name__ == "__main__":
    unittest.main()
