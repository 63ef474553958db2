"""The owned directory: the root opened without following links, owned and derived names,
first use, unknown entries, the path-based code.

Run: python -I tests/test_owned_directory.py
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import stat
import subprocess
import sys
import types
import unittest
from collections.abc import Callable, Iterator
from typing import Any
from unittest import mock

# -I leaves the script's own directory off sys.path.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cp_testlib
import standin_graphify
from cp_testlib import (
    CAN_SYMLINK,
    PUBLISHED,
    TempDirTestCase,
    cp,
    execute,
    family,
    fixture,
    run_module,
    run_standin,
    snapshot_tree,
    umask,
)


class TestOwnedDirectory(TempDirTestCase):
    def built(self) -> None:
        self.assertResult(self.project(fixture()), "built")

    def test_created_with_owner_only_mode_under_any_umask(self) -> None:
        if os.name != "posix":
            self.skipTest("POSIX modes")
        for mask in (0o000, 0o022):
            state = os.path.join(self.tmp, f"state-{mask:o}")
            path = self.write_selection(fixture())
            with umask(mask):
                result = run_standin(["--state-root", state, "--selection", path])
            self.assertResult(result, "built")
            self.assertEqual(stat.S_IMODE(os.stat(state).st_mode), 0o700)
            for name in os.listdir(state):
                self.assertEqual(stat.S_IMODE(os.stat(os.path.join(state, name)).st_mode), 0o600, name)

    def assert_every_run_refused(self) -> None:
        """Every run that reads the directory answers state_permissions and
        changes nothing in it, the root's own mode included."""
        later = self.write_selection(dict(fixture(), revision=2), "later.json")
        before = (os.stat(self.state).st_mode, snapshot_tree(self.state))
        runs = {
            "rebuild": self.rebuild,
            "update": lambda: self.run_cli(["--state-root", self.state, "--selection", later], "ok"),
            "migrate": lambda: self.run_cli(["--state-root", self.state, "--migrate"], "ok"),
            "dry run": lambda: run_module(["--state-root", self.state, "--selection", later, "--dry-run"]),
            "verify": self.verify,
        }
        for name, action in runs.items():
            with self.subTest(name):
                self.assertResult(action(), "state_permissions")
                self.assertEqual((os.stat(self.state).st_mode, snapshot_tree(self.state)), before)

    def assert_cache_refused(self, planted: bool) -> None:
        """Every run answers state_permissions and leaves cache/ as it is,
        read or removed by none; with cache/ back to 0700 the next update
        reads it (unknown entry) or removes it."""
        self.assert_every_run_refused()
        os.chmod(os.path.join(self.state, "cache"), 0o700)
        os.chown(os.path.join(self.state, "cache"), os.geteuid(), os.getegid())
        if planted:
            self.assertResult(self.rebuild(), "state_unknown_entry")
        else:
            self.assertResult(self.rebuild(), "built")
            self.assertNotIn("cache", self.entries())

    def test_a_root_others_may_read_or_search_is_refused(self) -> None:
        """Graphify writes its viewer pages and query stamp with the caller's
        umask: only the root's mode keeps other users from reading them."""
        if os.name != "posix":
            self.skipTest("POSIX modes")
        self.built()
        for mode in (0o755, 0o750, 0o704, 0o701, 0o710, 0o740, 0o2750):
            with self.subTest(mode=oct(mode)):
                os.chmod(self.state, mode)
                self.assert_every_run_refused()
                self.assertEqual(stat.S_IMODE(os.stat(self.state).st_mode), mode)
        os.chmod(self.state, 0o700)
        self.assertResult(self.rebuild(), "built")
        self.assertEqual(stat.S_IMODE(os.stat(self.state).st_mode), 0o700)

    def test_an_empty_directory_the_user_made_is_made_private_by_its_first_update(self) -> None:
        """mkdir under umask 022 (or 027, or 000): the runs that write
        nothing take it for the missing root it stands for and leave its
        mode; the first update whose selection passed sets it to 0700."""
        if os.name != "posix":
            self.skipTest("POSIX modes")
        path = self.write_selection(fixture())
        bad = self.write_selection(b"{", "bad.json")
        for mask in (0o022, 0o027, 0o000):
            state = os.path.join(self.tmp, f"made-{mask:o}")
            with umask(mask):
                os.mkdir(state)
            mode = 0o777 & ~mask
            with self.subTest(mask=oct(mask)):
                for args, code in (
                    (["--selection", path, "--dry-run"], "checked"),
                    (["--verify"], "state_missing"),
                    ([], "state_missing"),
                    (["--selection", bad], "selection_malformed"),
                ):
                    self.assertResult(self.run_cli(["--state-root", state, *args], "ok"), code)
                    self.assertEqual((stat.S_IMODE(os.stat(state).st_mode), os.listdir(state)), (mode, []))
                self.assertResult(self.project(fixture(), state=state), "built")
                self.assertEqual(stat.S_IMODE(os.stat(state).st_mode), 0o700)
                for name in os.listdir(state):
                    self.assertEqual(stat.S_IMODE(os.stat(os.path.join(state, name)).st_mode), 0o600, name)
                self.assertResult(self.verify(state), "verified")

    def test_a_directory_the_user_made_is_taken_only_while_empty(self) -> None:
        """Anything in it, even what a killed first run leaves, and the
        root stays refused, as it was."""
        if os.name != "posix":
            self.skipTest("POSIX modes")
        for name in ("notes.txt", "state.json.tmp", ".gfy-abcd1234.tmp"):
            with self.subTest(name):
                os.mkdir(self.state, 0o755)
                with open(os.path.join(self.state, name), "w") as handle:
                    handle.write("mine")
                self.assert_every_run_refused()
                self.assertEqual(stat.S_IMODE(os.stat(self.state).st_mode), 0o755)
                shutil.rmtree(self.state)

    def make_cache(self, mode: int, planted: bool) -> None:
        cache = os.path.join(self.state, "cache")
        os.mkdir(cache)
        for name in ("last_query_stamp", "planted") if planted else ("last_query_stamp",):
            with open(os.path.join(cache, name), "w") as handle:
                handle.write("x")
        os.chmod(cache, mode)

    def test_a_cache_group_or_others_can_write_is_refused_as_the_root_is(self) -> None:
        """Graphify makes cache/ with the caller's umask (0777 under umask
        000, in a root of 0755): another user could plant a name there."""
        if os.name != "posix":
            self.skipTest("POSIX modes")
        self.built()
        for mode in (0o777, 0o770, 0o707, 0o1777, 0o2770):
            for planted in (False, True):
                with self.subTest(mode=oct(mode), planted=planted):
                    self.make_cache(mode, planted)
                    self.assert_cache_refused(planted)
                    shutil.rmtree(os.path.join(self.state, "cache"), ignore_errors=True)
        # Readable by others but writable only by its owner: read as before.
        self.make_cache(0o755, planted=False)
        self.assertResult(self.rebuild(), "built")
        self.assertNotIn("cache", self.entries())

    def test_a_cache_owned_by_another_user_is_refused(self) -> None:
        if os.name != "posix" or os.geteuid() != 0:
            self.skipTest("needs root to give cache/ to another user")
        self.built()
        self.make_cache(0o700, planted=True)
        os.chown(os.path.join(self.state, "cache"), 65534, 65534)
        self.assert_cache_refused(planted=True)

    def test_a_cache_that_inherits_a_default_acl_is_refused(self) -> None:
        """A root whose own ACL mask shows --x (accepted) but whose default
        ACL grants another user rwx: cache/, made inside it as Graphify
        makes it, inherits that entry, and its group bits show the mask."""
        if shutil.which("setfacl") is None:
            self.skipTest("setfacl is not installed")
        os.mkdir(self.state, 0o700)
        acl = subprocess.run(["setfacl", "-m", "u:65534:--x,d:u:65534:rwx", self.state], capture_output=True)
        if acl.returncode != 0:
            self.skipTest("this filesystem takes no ACL")
        self.assertEqual(stat.S_IMODE(os.stat(self.state).st_mode), 0o710)
        self.built()
        cache = os.path.join(self.state, "cache")
        with umask(0o077):
            os.mkdir(cache, 0o777)
        self.assertEqual(stat.S_IMODE(os.stat(cache).st_mode) & 0o070, 0o070)
        for name in ("last_query_stamp", "planted"):
            with open(os.path.join(cache, name), "w") as handle:
                handle.write("x")
        self.assert_cache_refused(planted=True)

    def test_missing_parent_is_state_access(self) -> None:
        state = os.path.join(self.tmp, "no-parent", "state")
        self.assertResult(self.project(fixture(), state=state), "state_access")
        self.assertFalse(os.path.exists(os.path.dirname(state)))

    def test_state_root_that_is_a_file(self) -> None:
        with open(self.state, "w") as handle:
            handle.write("x")
        self.assertResult(self.project(fixture()), "state_access")

    def test_first_use_must_be_empty(self) -> None:
        os.mkdir(self.state, 0o700)
        for name in ("notes.txt", "archive", "state.json.bak"):
            with self.subTest(name):
                with open(os.path.join(self.state, name), "w") as handle:
                    handle.write("keep me")
                with open(os.path.join(self.state, "graph.json"), "w") as handle:
                    handle.write("owned, but not alone")
                before = snapshot_tree(self.state)
                self.assertResult(self.project(fixture()), "state_not_empty")
                self.assertEqual(snapshot_tree(self.state), before)
                os.unlink(os.path.join(self.state, name))
                os.unlink(os.path.join(self.state, "graph.json"))

    def test_first_use_after_a_killed_first_run_counts_as_empty(self) -> None:
        """Only .tmp twins and Graphify temporaries and no lock: all that a
        first run killed before its commit can leave.  The next first-use
        update clears and builds."""
        os.mkdir(self.state, 0o700)
        leftovers = (
            "state.json.tmp",
            "extraction.json.tmp",
            "graph.json.tmp",
            "receipt.json.tmp",
            ".gfy-a1b2c3d4.tmp",
            ".gfy-replace-a1b2.tmp",
            ".gfy-replace-bak-a1b2.tmp",
        )
        for name in leftovers:
            with open(os.path.join(self.state, name), "w") as handle:
                handle.write("half")
        self.assertResult(self.project(fixture()), "built")
        self.assertEqual(self.entries(), ["extraction.json", "graph.json", "receipt.json", "state.json"])
        self.assertResult(self.verify(), "verified")

    def test_first_use_never_replaces_a_graph_it_cannot_show_it_made(self) -> None:
        """A published name or cache/ without state.json is the user's own
        (or another tool's): state_not_empty, and every byte stays."""
        for name in ("extraction.json", "graph.json", "receipt.json", "cache"):
            with self.subTest(name):
                os.mkdir(self.state, 0o700)
                if name == "cache":
                    os.mkdir(os.path.join(self.state, name))
                    with open(os.path.join(self.state, name, "last_query_stamp"), "w") as handle:
                        handle.write("stamp")
                else:
                    with open(os.path.join(self.state, name), "w") as handle:
                        handle.write("the user's own")
                with open(os.path.join(self.state, "graph.json.tmp"), "w") as handle:
                    handle.write("half")
                before = snapshot_tree(self.state)
                self.assertResult(self.project(fixture()), "state_not_empty")
                self.assertEqual(snapshot_tree(self.state), before)
                path = self.write_selection(fixture())
                self.assertResult(
                    run_module(["--state-root", self.state, "--selection", path, "--dry-run"]), "state_not_empty"
                )
                self.assertEqual(snapshot_tree(self.state), before)
                shutil.rmtree(self.state)

    def test_first_use_with_owned_leftovers_and_a_lock_is_locked(self) -> None:
        os.mkdir(self.state, 0o700)
        for name in ("state.json.tmp", "projection.lock"):
            with open(os.path.join(self.state, name), "w") as handle:
                handle.write("1\n")
        before = snapshot_tree(self.state)
        self.assertResult(self.project(fixture()), "state_locked")
        self.assertEqual(snapshot_tree(self.state), before)

    def test_unknown_entries_are_refused_and_kept(self) -> None:
        self.built()
        cases = {"file": "notes.md", "dir": "archive", "tmp-like": "state.json.bak", "gfy-dir": ".gfy-abc.tmp"}
        for kind, name in cases.items():
            with self.subTest(kind):
                path = os.path.join(self.state, name)
                if kind.endswith("dir"):
                    os.mkdir(path)
                    with open(os.path.join(path, "inner.txt"), "w") as handle:
                        handle.write("x")
                else:
                    with open(path, "w") as handle:
                        handle.write("x")
                before = snapshot_tree(self.state)
                mtime = os.stat(self.state).st_mtime_ns
                self.assertResult(self.project(fixture()), "state_unknown_entry")
                self.assertResult(self.rebuild(), "state_unknown_entry")
                self.assertEqual(snapshot_tree(self.state), before)
                self.assertEqual(os.stat(self.state).st_mtime_ns, mtime, "a refusal must not even take the lock")
                if kind.endswith("dir"):
                    os.unlink(os.path.join(path, "inner.txt"))
                    os.rmdir(path)
                else:
                    os.unlink(path)

    def test_owned_name_of_the_wrong_type(self) -> None:
        self.built()
        os.unlink(os.path.join(self.state, "receipt.json"))
        os.mkdir(os.path.join(self.state, "receipt.json"))
        self.assertResult(self.rebuild(), "state_unknown_entry")
        self.assertTrue(os.path.isdir(os.path.join(self.state, "receipt.json")))

    @unittest.skipUnless(CAN_SYMLINK, "this host cannot create symlinks")
    def test_symlinks_are_refused_everywhere(self) -> None:
        outside = os.path.join(self.tmp, "outside.json")
        with open(outside, "wb") as handle:
            handle.write(b"outside")
        self.built()
        for name in ("graph.json", "state.json", "receipt.json.tmp", "projection.lock", "stray-link"):
            with self.subTest(name):
                target = os.path.join(self.state, name)
                saved = None
                if os.path.exists(target):
                    with open(target, "rb") as handle:
                        saved = handle.read()
                    os.unlink(target)
                os.symlink(outside, target)
                before = snapshot_tree(self.state)
                code = "state_locked" if name == "projection.lock" else "state_symlink"
                self.assertResult(self.rebuild(), code if name != "projection.lock" else "state_symlink")
                self.assertResult(self.verify(), "state_symlink")
                self.assertEqual(snapshot_tree(self.state), before)
                with open(outside, "rb") as handle:
                    self.assertEqual(handle.read(), b"outside")
                os.unlink(target)
                if saved is not None:
                    with open(target, "wb") as handle:
                        handle.write(saved)

    @unittest.skipUnless(CAN_SYMLINK, "this host cannot create symlinks")
    def test_symlinked_root_and_component(self) -> None:
        real = os.path.join(self.tmp, "real")
        os.mkdir(real)
        os.mkdir(os.path.join(real, "state"))
        link = os.path.join(self.tmp, "link")
        os.symlink(real, link)
        self.assertResult(self.project(fixture(), state=os.path.join(link, "state")), "state_symlink")
        self.assertResult(self.project(fixture(), state=os.path.join(link, "fresh")), "state_symlink")
        root_link = os.path.join(self.tmp, "root-link")
        os.symlink(os.path.join(real, "state"), root_link)
        self.assertResult(self.project(fixture(), state=root_link), "state_symlink")
        dangling = os.path.join(self.tmp, "dangling")
        os.symlink(os.path.join(self.tmp, "nowhere"), dangling)
        self.assertResult(self.project(fixture(), state=dangling), "state_symlink")
        self.assertEqual(os.listdir(os.path.join(real, "state")), [])
        self.assertFalse(os.path.exists(os.path.join(real, "fresh")))
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "nowhere")))

    def test_windows_links_are_told_by_reparse_tag(self) -> None:
        from types import SimpleNamespace as Stat

        directory, regular = stat.S_IFDIR | 0o700, stat.S_IFREG | 0o600
        self.assertTrue(cp._is_link(Stat(st_mode=stat.S_IFLNK | 0o777)))
        self.assertTrue(cp._is_link(Stat(st_mode=directory, st_reparse_tag=0xA0000003)))  # junction
        self.assertTrue(cp._is_link(Stat(st_mode=regular, st_reparse_tag=0xA000000C)))  # symlink
        self.assertFalse(cp._is_link(Stat(st_mode=regular, st_reparse_tag=0x80000013)))  # deduplicated file
        self.assertFalse(cp._is_link(Stat(st_mode=directory)))

    def test_query_stamp_is_accepted_then_cleared(self) -> None:
        self.built()
        cache = os.path.join(self.state, "cache")
        os.mkdir(cache, 0o755)
        with open(os.path.join(cache, "last_query_stamp"), "w") as handle:
            handle.write("1764460000.0")
        self.assertResult(self.verify(), "verified")
        self.assertResult(self.rebuild(), "built")
        self.assertEqual(self.entries(), PUBLISHED)

    def write_viewers(self, mode: int = 0o644) -> None:
        """What Graphify's "export html" and "tree" leave beside the graph."""
        for name in ("graph.html", "GRAPH_TREE.html"):
            path = os.path.join(self.state, name)
            with open(path, "w") as handle:
                handle.write("<html>every approved summary</html>")
            os.chmod(path, mode)

    def test_graphify_viewers_are_accepted_then_cleared(self) -> None:
        """graph.html and GRAPH_TREE.html: accepted by --verify and --dry-run
        and left there, removed by every update, refusal after the
        withdrawal, and rebuild."""
        self.built()
        self.write_viewers()
        before = snapshot_tree(self.state)
        self.assertResult(self.verify(), "verified")
        path = self.write_selection(fixture())
        self.assertResult(run_module(["--state-root", self.state, "--selection", path, "--dry-run"]), "checked")
        self.assertResult(run_module(["--state-root", self.state, "--dry-run"]), "checked")
        self.assertEqual(snapshot_tree(self.state), before)
        self.assertResult(self.rebuild(), "built")
        self.assertEqual(self.entries(), PUBLISHED)
        self.write_viewers()
        self.assertResult(self.project(dict(fixture(), revision=2)), "built")
        self.assertEqual(self.entries(), PUBLISHED)
        self.write_viewers()
        self.assertResult(self.project(fixture()), "revision_stale", at="/revision", withdrawn=True)
        self.assertEqual(self.entries(), ["state.json"])
        self.assertResult(self.rebuild(), "built")
        self.write_viewers()
        self.assertResult(
            self.project(dict(fixture(), revision=2), mode="build-raises"), "graphify_failed", withdrawn=True
        )
        self.assertEqual(self.entries(), ["state.json"])
        self.assertResult(self.rebuild(), "built")
        self.assertEqual(self.entries(), PUBLISHED)
        self.assertResult(self.verify(), "verified")

    def test_graphify_viewers_are_not_vouched_for(self) -> None:
        """--verify reads none of them: whatever they hold, it answers for
        the graph alone."""
        self.built()
        self.write_viewers(0o600)
        for name in ("graph.html", "GRAPH_TREE.html"):
            with open(os.path.join(self.state, name), "wb") as handle:
                handle.write(b"\xff not a view of this graph")
        self.assertResult(self.verify(), "verified")
        os.unlink(os.path.join(self.state, "graph.json"))
        self.assertResult(self.verify(), "receipt_mismatch")

    def test_graphify_viewer_names_of_another_kind(self) -> None:
        """A directory of a viewer's name is not a view: state_unknown_entry,
        and it is kept with what it holds."""
        for name in ("graph.html", "GRAPH_TREE.html"):
            with self.subTest(name):
                self.built()
                os.mkdir(os.path.join(self.state, name))
                with open(os.path.join(self.state, name, "inner.txt"), "w") as handle:
                    handle.write("x")
                before = snapshot_tree(self.state)
                self.assertResult(self.rebuild(), "state_unknown_entry")
                self.assertResult(self.project(dict(fixture(), revision=2)), "state_unknown_entry")
                self.assertResult(self.verify(), "state_unknown_entry")
                self.assertResult(run_module(["--state-root", self.state, "--dry-run"]), "state_unknown_entry")
                self.assertEqual(snapshot_tree(self.state), before)
                shutil.rmtree(self.state)

    @unittest.skipUnless(CAN_SYMLINK, "this host cannot create symlinks")
    def test_graphify_viewer_names_as_symlinks(self) -> None:
        outside = os.path.join(self.tmp, "outside.html")
        with open(outside, "w") as handle:
            handle.write("keep")
        for name in ("graph.html", "GRAPH_TREE.html"):
            with self.subTest(name):
                self.built()
                os.symlink(outside, os.path.join(self.state, name))
                before = snapshot_tree(self.state)
                self.assertResult(self.rebuild(), "state_symlink")
                self.assertResult(self.verify(), "state_symlink")
                self.assertResult(run_module(["--state-root", self.state, "--dry-run"]), "state_symlink")
                self.assertEqual(snapshot_tree(self.state), before)
                with open(outside) as handle:
                    self.assertEqual(handle.read(), "keep")
                shutil.rmtree(self.state)

    def test_first_use_with_a_graphify_viewer_is_not_empty(self) -> None:
        """A view of a graph without state.json shows a graph the adapter
        cannot account for, as graph.json there would: state_not_empty."""
        for name in ("graph.html", "GRAPH_TREE.html"):
            with self.subTest(name):
                os.mkdir(self.state, 0o700)
                with open(os.path.join(self.state, name), "w") as handle:
                    handle.write("someone's graph")
                before = snapshot_tree(self.state)
                self.assertResult(self.project(fixture()), "state_not_empty")
                path = self.write_selection(fixture())
                self.assertResult(
                    run_module(["--state-root", self.state, "--selection", path, "--dry-run"]), "state_not_empty"
                )
                self.assertEqual(snapshot_tree(self.state), before)
                shutil.rmtree(self.state)

    def test_other_graphify_exports_stay_unknown(self) -> None:
        """What Graphify's other exports write there is not derived by the
        adapter's rules: state_unknown_entry, kept."""
        self.built()
        for name in ("graph.graphml", "cypher.txt", "graphify-out"):
            with self.subTest(name):
                path = os.path.join(self.state, name)
                if name == "graphify-out":
                    os.mkdir(path)
                else:
                    with open(path, "w") as handle:
                        handle.write("x")
                before = snapshot_tree(self.state)
                self.assertResult(self.rebuild(), "state_unknown_entry")
                self.assertEqual(snapshot_tree(self.state), before)
                (os.rmdir if name == "graphify-out" else os.unlink)(path)

    def test_empty_cache_is_cleared(self) -> None:
        self.built()
        os.mkdir(os.path.join(self.state, "cache"))
        self.assertResult(self.project(fixture()), "built")
        self.assertEqual(self.entries(), PUBLISHED)

    def test_other_cache_content_is_refused_and_kept(self) -> None:
        self.built()
        cache = os.path.join(self.state, "cache")
        os.mkdir(cache)
        for name in ("last_query_stamp", "query-results.json"):
            with open(os.path.join(cache, name), "w") as handle:
                handle.write("x")
        before = snapshot_tree(self.state)
        self.assertResult(self.rebuild(), "state_unknown_entry")
        self.assertEqual(snapshot_tree(self.state), before)

    @unittest.skipUnless(CAN_SYMLINK, "this host cannot create symlinks")
    def test_symlink_inside_cache_and_cache_as_symlink(self) -> None:
        self.built()
        outside = os.path.join(self.tmp, "outside")
        os.mkdir(outside)
        with open(os.path.join(outside, "last_query_stamp"), "w") as handle:
            handle.write("keep")
        os.symlink(outside, os.path.join(self.state, "cache"))
        self.assertResult(self.rebuild(), "state_symlink")
        os.unlink(os.path.join(self.state, "cache"))
        os.mkdir(os.path.join(self.state, "cache"))
        os.symlink(os.path.join(outside, "last_query_stamp"), os.path.join(self.state, "cache", "last_query_stamp"))
        self.assertResult(self.rebuild(), "state_symlink")
        with open(os.path.join(outside, "last_query_stamp")) as handle:
            self.assertEqual(handle.read(), "keep")

    def test_leftover_graphify_temporary_is_removed(self) -> None:
        self.built()
        stray = os.path.join(self.state, ".gfy-k2j4_x9a.tmp")
        with open(stray, "w") as handle:
            handle.write("{")
        self.assertResult(self.verify(), "verified")
        self.assertResult(self.rebuild(), "built")
        self.assertEqual(self.entries(), PUBLISHED)

    def test_graphify_temporary_left_by_the_build_is_swept(self) -> None:
        self.assertResult(self.project(fixture(), mode="leave-gfy"), "built")
        self.assertEqual(self.entries(), PUBLISHED)

    def test_our_own_temporaries_are_removed(self) -> None:
        self.built()
        for name in ("state.json.tmp", "graph.json.tmp", "extraction.json.tmp", "receipt.json.tmp"):
            with open(os.path.join(self.state, name), "w") as handle:
                handle.write("partial")
        state_before = self.read("state.json")
        self.assertResult(self.rebuild(), "built")
        self.assertEqual(self.entries(), PUBLISHED)
        self.assertEqual(self.read("state.json"), state_before)

    def test_corrupt_and_unsupported_state(self) -> None:
        self.built()
        state_path = os.path.join(self.state, "state.json")
        good = self.read("state.json")
        with open(state_path, "wb") as handle:
            handle.write(good[:-30])
        self.assertResult(self.rebuild(), "state_corrupt", withdrawn=True)
        self.assertResult(self.project(family(revision=2)), "state_corrupt", withdrawn=True)
        self.assertEqual(self.read("state.json"), good[:-30])
        self.assertEqual(self.entries(), ["state.json"])
        # A schema this adapter does not know stops every invocation before
        # it touches anything: the derived files of a newer adapter stay.
        with open(state_path, "wb") as handle:
            handle.write(good)
        self.assertResult(self.rebuild(), "built")
        newer = self.read("state.json").replace(b'"stateSchemaVersion":2', b'"stateSchemaVersion":3')
        with open(state_path, "wb") as handle:
            handle.write(newer)
        before = snapshot_tree(self.state)
        self.assertResult(self.rebuild(), "state_schema_unsupported")
        self.assertResult(self.verify(), "state_schema_unsupported")
        self.assertEqual(snapshot_tree(self.state), before)

    def test_a_lock_that_is_a_directory_or_fifo_is_an_unknown_entry(self) -> None:
        self.assertResult(self.project(family()), "built")
        lock = os.path.join(self.state, "projection.lock")
        makers = [os.mkdir]
        if hasattr(os, "mkfifo"):
            makers.append(os.mkfifo)
        for make in makers:
            with self.subTest(make.__name__):
                make(lock)
                before = snapshot_tree(self.state)
                self.assertResult(self.rebuild(), "state_unknown_entry")
                self.assertResult(self.verify(), "state_unknown_entry")
                self.assertEqual(snapshot_tree(self.state), before)
                (os.rmdir if make is os.mkdir else os.unlink)(lock)
        self.assertResult(self.rebuild(), "built")

    def test_a_cache_that_is_not_a_directory_is_an_unknown_entry(self) -> None:
        os.mkdir(self.state, 0o700)
        with open(os.path.join(self.state, "cache"), "w") as handle:
            handle.write("my notes")
        before = snapshot_tree(self.state)
        # Without state.json, a "cache" of any kind makes first use refuse.
        self.assertResult(self.project(family()), "state_not_empty")
        self.assertEqual(snapshot_tree(self.state), before)
        os.unlink(os.path.join(self.state, "cache"))
        self.assertResult(self.project(family()), "built")
        with open(os.path.join(self.state, "cache"), "w") as handle:
            handle.write("my notes")
        self.assertResult(self.rebuild(), "state_unknown_entry")
        self.assertResult(self.verify(), "state_unknown_entry")

    def test_graphify_replace_temporaries_are_accepted_and_removed(self) -> None:
        self.assertResult(self.project(family()), "built")
        names = [".gfy-replace-k2j4h5g6.tmp", ".gfy-replace-bak-a1b2c3d4.tmp", ".gfy-x_y9z8w7.tmp"]
        for name in names:
            with open(os.path.join(self.state, name), "w") as handle:
                handle.write("left by a crash")
        self.assertResult(self.rebuild(), "built")
        self.assertEqual(self.entries(), PUBLISHED)
        for name in (".gfy-replace-.tmp", ".gfy-replace-bak-a.b.tmp", ".gfy-other-x.tmp"):
            with self.subTest(name):
                self.assertFalse(cp.is_graphify_temp(name))
        # Its random part: one to 64 characters.
        self.assertTrue(cp.is_graphify_temp(".gfy-replace-" + "a" * 64 + ".tmp"))
        self.assertFalse(cp.is_graphify_temp(".gfy-replace-" + "a" * 65 + ".tmp"))
        self.assertFalse(cp.is_graphify_temp(".gfy-" + "a" * 65 + ".tmp"))


class TestPortableDirectoryCode(TempDirTestCase):
    """The path-based fallback Windows uses (no dir_fd), run here in-process
    with the switch turned off, so that it is exercised on every system."""

    def setUp(self) -> None:
        super().setUp()
        import standin_graphify

        self.loader = standin_graphify.make_loader("ok")
        saved = cp.SUPPORTS_DIR_FD
        cp.SUPPORTS_DIR_FD = False
        self.addCleanup(setattr, cp, "SUPPORTS_DIR_FD", saved)

    def run_in_process(self, *args: str) -> tuple[int, dict[str, Any]]:
        exit_code, line = cp.execute(["--state-root", self.state, *args], self.loader)
        return exit_code, json.loads(line)

    def test_lifecycle_without_dir_fd(self) -> None:
        path = self.write_selection(fixture())
        self.assertEqual(self.run_in_process("--selection", path)[1]["code"], "built")
        self.assertEqual(self.entries(), PUBLISHED)
        self.assertEqual(self.run_in_process("--verify")[1]["code"], "verified")
        os.mkdir(os.path.join(self.state, "cache"))
        with open(os.path.join(self.state, "cache", "last_query_stamp"), "w") as handle:
            handle.write("1")
        with open(os.path.join(self.state, ".gfy-ab12_x.tmp"), "w") as handle:
            handle.write("{")
        exit_code, result = self.run_in_process()
        self.assertEqual((exit_code, result["code"]), (0, "built"))
        self.assertEqual(self.entries(), PUBLISHED)
        with open(os.path.join(self.state, "notes.txt"), "w") as handle:
            handle.write("x")
        self.assertEqual(self.run_in_process()[1]["code"], "state_unknown_entry")
        os.unlink(os.path.join(self.state, "notes.txt"))
        with open(os.path.join(self.state, "projection.lock"), "w") as handle:
            handle.write("1\n")
        self.assertEqual(self.run_in_process()[1]["code"], "state_locked")
        os.unlink(os.path.join(self.state, "projection.lock"))
        self.assertEqual(self.run_in_process("--selection", path)[1]["code"], "built")

    def test_missing_parent_and_file_root_without_dir_fd(self) -> None:
        path = self.write_selection(fixture())
        self.state = os.path.join(self.tmp, "absent", "state")
        self.assertEqual(self.run_in_process("--selection", path)[1]["code"], "state_access")
        self.state = path
        self.assertEqual(self.run_in_process("--selection", path)[1]["code"], "state_access")

    @unittest.skipUnless(CAN_SYMLINK, "this host cannot create symlinks")
    def test_symlinks_refused_without_dir_fd(self) -> None:
        path = self.write_selection(fixture())
        self.assertEqual(self.run_in_process("--selection", path)[1]["code"], "built")
        outside = os.path.join(self.tmp, "outside.json")
        with open(outside, "wb") as handle:
            handle.write(b"outside")
        os.unlink(os.path.join(self.state, "graph.json"))
        os.symlink(outside, os.path.join(self.state, "graph.json"))
        self.assertEqual(self.run_in_process()[1]["code"], "state_symlink")
        with open(outside, "rb") as handle:
            self.assertEqual(handle.read(), b"outside")
        link = os.path.join(self.tmp, "link")
        os.symlink(self.tmp, link)
        self.state = os.path.join(link, "state")
        self.assertEqual(self.run_in_process("--selection", path)[1]["code"], "state_symlink")
        # '..' after the link is not collapsed away before the link is seen.
        self.state = os.path.join(link, "..", "elsewhere")
        self.assertEqual(self.run_in_process("--selection", path)[1]["code"], "state_symlink")
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "elsewhere")))

    def test_verify_and_dry_run_on_a_missing_root_create_nothing(self) -> None:
        path = self.write_selection(fixture())
        self.assertEqual(self.run_in_process("--verify")[1]["code"], "state_missing")
        self.assertEqual(self.run_in_process("--selection", path, "--dry-run")[1]["code"], "checked")
        self.assertEqual(self.run_in_process("--dry-run")[1]["code"], "state_missing")
        self.assertFalse(os.path.exists(self.state))
        refused = self.write_selection(dict(fixture(), restore=["child"]), "refused.json")
        self.assertEqual(self.run_in_process("--selection", refused)[1]["code"], "selection_conflict")
        self.assertFalse(os.path.exists(self.state))

    def test_graphify_is_handed_a_short_name_without_dir_fd(self) -> None:
        seen: dict[str, str] = {}
        standin = self.loader()

        def to_json(graph: Any, communities: Any, output_path: str, **kwargs: Any) -> bool:
            seen["path"] = output_path
            seen["cwd"] = os.getcwd()
            return bool(standin["export"].to_json(graph, communities, output_path, **kwargs))

        self.loader = lambda: dict(standin, export=types.SimpleNamespace(to_json=to_json))
        before = os.getcwd()
        path = self.write_selection(fixture())
        self.assertEqual(self.run_in_process("--selection", path)[1]["code"], "built")
        self.assertEqual(seen, {"path": "graph.json.tmp", "cwd": self.state})
        self.assertEqual(os.getcwd(), before)


# How far below PATH_MAX a root must stay so that Graphify's temporaries fit
# beside its files, and the PATH_MAX assumed when the
# system does not say (Linux's).
GRAPHIFY_ALLOWANCE = 64


FALLBACK_PATH_MAX = 4096


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
