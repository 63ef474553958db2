"""Pinning tests: the edges a sampled mutation run found unobserved.

Each class pins one boundary the rest of the suite reached without checking
exactly (a bound met exactly, a branch no stand-in produced, a write that
comes up short).  In-process where a fault must be injected; through a fresh
``python -I conversation_projection.py`` where the entry point can reach it.

Run: python -I tests/test_strength.py
"""

from __future__ import annotations

import errno
import json
import os
import stat
import sys
import types
import unittest
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cp_testlib
import standin_graphify
from cp_testlib import CAN_SYMLINK, TempDirTestCase, cp, encode, fixture, snapshot_tree

# The largest integer every JSON reader holds exactly (2**53 - 1).
LARGEST_EXACT_INTEGER = 9_007_199_254_740_991
# How far below PATH_MAX a root must stay so that Graphify's temporaries fit
# beside its files, and the PATH_MAX assumed when the
# system does not say (Linux's).
GRAPHIFY_ALLOWANCE = 64
FALLBACK_PATH_MAX = 4096


def execute(args: list[str], loader: Any = None) -> tuple[int, dict[str, Any]]:
    """The command line in this process, under the umask main() sets."""
    with cp_testlib.umask(0o077):
        exit_code, line = cp.execute(args, loader or standin_graphify.make_loader("ok"))
    return exit_code, json.loads(line)


def refusal(data: bytes) -> cp.ProjectionError | None:
    try:
        cp.check_selection_bytes(data)
    except cp.ProjectionError as error:
        return error
    return None


def open_descriptors() -> list[str] | None:
    """This process's open descriptors, where the system lists them."""
    return sorted(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else None


def later(revision: int, **extra: Any) -> dict[str, Any]:
    value = fixture()
    value.update(revision=revision, **extra)
    return value


class TestRevisionBound(TempDirTestCase):
    """Revisions are exact in every JSON reader: 2**53 - 1 is the last one."""

    def test_the_largest_exact_integer_is_accepted_and_the_next_refused(self) -> None:
        for field, where in (("revision", "/revision"), ("sourceRevision", "/branches/0/sourceRevision")):
            for value, refused in ((LARGEST_EXACT_INTEGER, False), (LARGEST_EXACT_INTEGER + 1, True)):
                with self.subTest(field=field, value=value):
                    chosen = cp_testlib.selection(1, [cp_testlib.branch("only")])
                    target = chosen if field == "revision" else chosen["branches"][0]
                    target[field] = value
                    error = refusal(encode(chosen))
                    if refused:
                        assert error is not None
                        self.assertEqual((error.code, error.at), ("selection_schema", where))
                    else:
                        self.assertIsNone(error)

    def test_bound_through_the_entry_point(self) -> None:
        top = cp_testlib.selection(
            LARGEST_EXACT_INTEGER, [cp_testlib.branch("only", source_revision=LARGEST_EXACT_INTEGER)]
        )
        path = self.write_selection(top)
        result = cp_testlib.run_module(["--state-root", self.state, "--selection", path, "--dry-run"])
        self.assertResult(result, "checked")
        self.assertEqual(result.json["selectionRevision"], LARGEST_EXACT_INTEGER)
        past = self.write_selection(
            cp_testlib.selection(LARGEST_EXACT_INTEGER + 1, [cp_testlib.branch("only")]), "past.json"
        )
        result = cp_testlib.run_module(["--state-root", self.state, "--selection", past, "--dry-run"])
        self.assertResult(result, "selection_schema", at="/revision")
        self.assertFalse(os.path.exists(self.state))


@unittest.skipUnless(cp.SUPPORTS_DIR_FD, "the PATH_MAX check is the descriptor-based code's")
class TestPathMaxAllowance(TempDirTestCase):
    """A root whose canonical path comes within the allowance of PATH_MAX is
    refused before anything is created; one byte shorter is used."""

    def root_of_length(self, length: int, leaf: str) -> str:
        """A path of exactly ``length`` bytes below self.tmp, its parents
        made, its last component starting with ``leaf``."""
        parent = self.tmp
        while length - len(parent) > 200:
            parent = os.path.join(parent, "d" * 150)
            os.makedirs(parent, exist_ok=True)
        name_length = length - len(parent) - 1
        self.assertGreater(name_length, len(leaf))
        root = os.path.join(parent, leaf + "r" * (name_length - len(leaf)))
        self.assertEqual(len(os.fsencode(root)), length)
        return root

    def limit(self) -> int:
        return os.pathconf(self.tmp, "PC_PATH_MAX") - GRAPHIFY_ALLOWANCE

    def test_root_exactly_at_the_allowance_is_refused(self) -> None:
        root = self.root_of_length(self.limit(), "a")
        path = self.write_selection(fixture())
        before = snapshot_tree(self.tmp)
        self.assertResult(
            cp_testlib.run_module(["--state-root", root, "--selection", path, "--dry-run"]), "state_access"
        )
        self.assertResult(cp_testlib.run_standin(["--state-root", root, "--selection", path]), "state_access")
        self.assertEqual(snapshot_tree(self.tmp), before)
        os.mkdir(root)
        self.assertResult(cp_testlib.run_standin(["--state-root", root, "--selection", path]), "state_access")
        self.assertEqual(os.listdir(root), [])

    def test_root_one_byte_shorter_builds(self) -> None:
        root = self.root_of_length(self.limit() - 1, "b")
        path = self.write_selection(fixture())
        self.assertResult(cp_testlib.run_module(["--state-root", root, "--selection", path, "--dry-run"]), "checked")
        self.assertResult(cp_testlib.run_standin(["--state-root", root, "--selection", path]), "built")
        self.assertResult(cp_testlib.run_module(["--state-root", root, "--verify"]), "verified")

    def test_without_a_reported_path_max_linux_value_is_assumed(self) -> None:
        def unknown(*_args: Any) -> int:
            raise OSError(errno.EINVAL, "no limit reported")

        at_limit = self.root_of_length(FALLBACK_PATH_MAX - GRAPHIFY_ALLOWANCE, "c")
        below = self.root_of_length(FALLBACK_PATH_MAX - GRAPHIFY_ALLOWANCE - 1, "d")
        os.mkdir(at_limit)
        os.mkdir(below, 0o700)
        with mock.patch.object(cp.os, "fpathconf", unknown):
            with self.assertRaises(cp.ProjectionError) as caught:
                cp.open_root(at_limit, create=False)
            self.assertEqual(caught.exception.code, "state_access")
            owned = cp.open_root(below, create=False)
        assert owned is not None
        owned.close()


class TestDryRunPastTheStateBound(TempDirTestCase):
    """A dry run answers state_limit exactly where the update would, and
    touches nothing; the bound itself is still accepted."""

    def setUp(self) -> None:
        super().setUp()
        self.assertEqual(execute(["--state-root", self.state, "--selection", self.write_selection(fixture())])[0], 0)
        self.committed = json.loads(self.read("state.json"))
        for name in ("MAX_TOMBSTONES", "MAX_STATE_BYTES"):
            self.addCleanup(setattr, cp, name, getattr(cp, name))

    def dry_run(self, value: dict[str, Any]) -> dict[str, Any]:
        before = snapshot_tree(self.state)
        exit_code, result = execute(
            ["--state-root", self.state, "--selection", self.write_selection(value), "--dry-run"]
        )
        self.assertEqual(exit_code, cp.CODES[result["code"]])
        self.assertEqual(snapshot_tree(self.state), before)
        self.assertNotIn("withdrawn", result)
        return result

    def test_tombstone_count(self) -> None:
        excluded = sorted({*fixture().get("exclude", []), "gone-1", "gone-2"})
        cp.MAX_TOMBSTONES = len(self.committed["tombstones"]) + 1
        self.assertEqual(self.dry_run(later(2, exclude=excluded))["code"], "state_limit")
        self.assertEqual(self.dry_run(later(2, exclude=excluded[:-1]))["code"], "checked")
        _, result = execute(
            ["--state-root", self.state, "--selection", self.write_selection(later(2, exclude=excluded))]
        )
        self.assertEqual((result["code"], result.get("withdrawn")), ("state_limit", True))
        self.assertEqual(json.loads(self.read("state.json")), self.committed)

    def committed_size(self, value: dict[str, Any]) -> int:
        """The size of the state.json that accepting ``value`` commits, by
        accepting it in a copy of the state."""
        copy = os.path.join(self.tmp, "copy")
        os.mkdir(copy, 0o700)
        with open(os.path.join(copy, "state.json"), "wb") as handle:
            handle.write(self.read("state.json"))
        self.assertEqual(execute(["--state-root", copy, "--selection", self.write_selection(value, "copy.json")])[0], 0)
        return len(self.read("state.json", state=copy))

    def test_serialized_size(self) -> None:
        grown = later(2)
        grown["branches"][0]["sourceRevision"] += 1
        grown["branches"][0]["summaries"][0]["text"] += " More words."
        size = self.committed_size(grown)
        self.assertGreater(size, len(self.read("state.json")))
        cp.MAX_STATE_BYTES = size - 1
        self.assertEqual(self.dry_run(grown)["code"], "state_limit")
        cp.MAX_STATE_BYTES = size
        self.assertEqual(self.dry_run(grown)["code"], "checked")
        cp.MAX_STATE_BYTES = len(self.read("state.json"))
        # A replay commits nothing, so it cannot pass a bound.
        self.assertEqual(self.dry_run(fixture())["code"], "checked")


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


class TestPortableLinkAndAccessChecks(TempDirTestCase):
    """The path-based code (no dir_fd, as on Windows), run here with O_NOFOLLOW
    taken away as well: its own lstat checks are then all that stands
    between a planted link and the file it points to."""

    def setUp(self) -> None:
        super().setUp()
        for name, value in (("SUPPORTS_DIR_FD", False), ("_O_NOFOLLOW", 0)):
            self.addCleanup(setattr, cp, name, getattr(cp, name))
            setattr(cp, name, value)
        self.outside = os.path.join(self.tmp, "outside")
        with open(self.outside, "wb") as handle:
            handle.write(b"outside")

    def opened(self) -> cp.OwnedDir:
        os.makedirs(self.state, 0o700, exist_ok=True)
        owned = cp.open_root(self.state, create=False)
        assert owned is not None and owned.fd is None
        self.addCleanup(owned.close)
        return owned

    def assertRefused(self, code: str, action: Callable[[], object]) -> None:
        with self.assertRaises(cp.ProjectionError) as caught:
            action()
        self.assertEqual(caught.exception.code, code)
        with open(self.outside, "rb") as handle:
            self.assertEqual(handle.read(), b"outside")

    @unittest.skipUnless(CAN_SYMLINK, "this host cannot create symlinks")
    def test_each_operation_refuses_a_link_in_place_of_its_name(self) -> None:
        owned = self.opened()
        os.symlink(self.outside, os.path.join(self.state, "state.json"))
        os.symlink(self.tmp, os.path.join(self.state, "cache"))
        with open(os.path.join(self.state, "graph.json.tmp"), "wb") as handle:
            handle.write(b"{}")
        self.assertRefused("state_symlink", lambda: owned.read("state.json", 64, "state_corrupt"))
        self.assertRefused("state_symlink", lambda: owned.open_read("state.json", writable=True))
        self.assertRefused("state_symlink", lambda: owned.create_exclusive("state.json"))
        self.assertRefused("state_symlink", lambda: owned.rename("graph.json.tmp", "state.json"))
        self.assertRefused("state_symlink", lambda: owned.rename("state.json", "graph.json"))
        self.assertRefused("state_symlink", lambda: owned.child("cache"))
        self.assertRefused("state_symlink", lambda: owned.write_atomic("state.json", b"new"))
        self.assertTrue(os.path.islink(os.path.join(self.state, "state.json")))

    def test_open_read_refuses_what_is_not_a_regular_file(self) -> None:
        owned = self.opened()
        os.mkdir(os.path.join(self.state, "state.json"))
        self.assertRefused("state_unknown_entry", lambda: owned.open_read("state.json"))

    @unittest.skipUnless(CAN_SYMLINK, "this host cannot create symlinks")
    def test_a_root_that_is_a_link(self) -> None:
        real = os.path.join(self.tmp, "real")
        os.mkdir(real)
        path = self.write_selection(fixture())
        for target in (real, os.path.join(self.tmp, "nowhere")):
            with self.subTest(target=os.path.basename(target)):
                os.symlink(target, self.state)
                for args in (["--selection", path], ["--verify"], ["--selection", path, "--dry-run"]):
                    self.assertEqual(execute(["--state-root", self.state, *args])[1]["code"], "state_symlink")
                self.assertEqual(os.listdir(real), [])
                self.assertFalse(os.path.lexists(os.path.join(self.tmp, "nowhere")))
                os.unlink(self.state)

    def test_roots_that_cannot_be_a_directory(self) -> None:
        path = self.write_selection(fixture())
        for root in (
            os.path.join(self.tmp, "absent", "state"),
            os.path.join(self.outside, "state"),
            self.outside,
        ):
            with self.subTest(root=os.path.relpath(root, self.tmp)):
                before = snapshot_tree(self.tmp)
                for args in (["--selection", path], ["--verify"], ["--selection", path, "--dry-run"]):
                    self.assertEqual(execute(["--state-root", root, *args])[1]["code"], "state_access")
                for create in (False, True):
                    self.assertRefused("state_access", lambda root=root, create=create: cp.open_root(root, create))
                self.assertEqual(snapshot_tree(self.tmp), before)


class TestRootTheRunCreated(TempDirTestCase):
    """A root the adapter makes is 0700 whatever the caller's umask, and a
    first run refused after it made the root leaves no directory, while a
    root that existed stays: with dir_fd and without."""

    def modes(self) -> Iterator[str]:
        saved = cp.SUPPORTS_DIR_FD
        self.addCleanup(setattr, cp, "SUPPORTS_DIR_FD", saved)
        for dir_fd in (True, False) if saved else (False,):
            cp.SUPPORTS_DIR_FD = dir_fd
            with self.subTest(dir_fd=dir_fd):
                yield os.path.join(self.tmp, f"state-{dir_fd}")

    def refused_first_run(self, root: str) -> None:
        """The state's commit fails at its fsync: state_access, withdrawn."""
        real_fsync = os.fsync

        def failing(fd: int) -> None:
            real_fsync(fd)
            raise OSError(errno.EIO, "the disk went away")

        path = self.write_selection(fixture())
        with mock.patch.object(cp.os, "fsync", failing):
            exit_code, result = execute(["--state-root", root, "--selection", path])
        self.assertEqual((exit_code, result["code"], result["withdrawn"]), (cp.EXIT_INVALID, "state_access", True))

    def test_a_refused_first_run_removes_the_root_it_made(self) -> None:
        for root in self.modes():
            self.refused_first_run(root)
            self.assertFalse(os.path.lexists(root))

    def test_a_root_it_did_not_create_stays(self) -> None:
        for root in self.modes():
            os.mkdir(root)
            self.refused_first_run(root)
            self.assertEqual(os.listdir(root), [])

    @unittest.skipUnless(os.name == "posix", "POSIX modes")
    def test_a_made_root_is_private_under_any_umask(self) -> None:
        path = self.write_selection(fixture())
        for root in self.modes():
            with cp_testlib.umask(0):
                exit_code, line = cp.execute(
                    ["--state-root", root, "--selection", path], standin_graphify.make_loader()
                )
            self.assertEqual((exit_code, json.loads(line)["code"]), (0, "built"))
            self.assertEqual(stat.S_IMODE(os.stat(root).st_mode), 0o700)


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
                    error = refusal(data)
                    assert error is not None
                    self.assertEqual(error.code, "selection_malformed")

    def test_pairs_and_escaped_backslashes_are_text(self) -> None:
        for written in ("\\uD83D\\uDE00", "\\ud83d\\uDE00", "\\\\uD800"):
            with self.subTest(written):
                self.assertIsNone(refusal(self.in_text(written)))

    def test_upper_case_escape_through_the_entry_point(self) -> None:
        path = self.write_selection(self.in_text("\\uD800"))
        result = cp_testlib.run_module(["--state-root", self.state, "--selection", path, "--dry-run"])
        self.assertEqual((result.code, result.returncode, result.stderr), ("selection_malformed", 2, b""))
        self.assertFalse(os.path.exists(self.state))


class TestLinkSwappedIn(TempDirTestCase):
    """The lstat check and the open are two steps: a link planted between
    them is refused by the open itself, which never follows one."""

    @unittest.skipUnless(CAN_SYMLINK and cp.SUPPORTS_DIR_FD, "needs symlinks and descriptor-relative opens")
    def test_a_subdirectory_that_became_a_link(self) -> None:
        os.makedirs(self.state, 0o700)
        owned = cp.open_root(self.state, create=False)
        assert owned is not None and owned.fd is not None
        self.addCleanup(owned.close)
        os.symlink(self.tmp, os.path.join(self.state, "cache"))
        unchecked = mock.patch.object(cp.OwnedDir, "_refuse_link", lambda _self, _name: None)
        with unchecked, self.assertRaises(cp.ProjectionError) as caught:
            owned.child("cache")
        self.assertEqual(caught.exception.code, "state_symlink")


if __name__ == "__main__":
    unittest.main()
