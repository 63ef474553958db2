"""An in-process stand-in for the three Graphify calls the adapter makes.

It is handed to ``conversation_projection.main(loader=...)``: dependency
injection, so the module under test runs unpatched.  ``to_json`` behaves on
disk like Graphify's ``_atomic_replace``: a random ``.gfy-*.tmp`` beside the
output, a mode from the umask, then a rename onto the destination.  Modes
make it fail in each way the adapter must handle.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
from collections.abc import Callable, Mapping
from types import SimpleNamespace
from typing import Any

STANDIN_VERSION = "0.0.0+standin"
MODES = (
    "ok",
    "noisy",  # prints to sys.stdout/sys.stderr and writes to fds 1 and 2
    "missing",  # the import fails
    "import-out-of-memory",  # the import fails for lack of memory
    "absent",  # export has no to_json
    "no-dedup",  # build_from_json without the dedup keyword
    "positional-only",  # to_json takes built_at_commit positionally only
    "invalid",  # assert_valid raises
    "build-raises",
    "export-raises",
    "export-false",
    "drop-node",  # the built graph lacks a node
    "leave-gfy",  # a stray .gfy-*.tmp stays beside the output
    "interrupt",  # build raises a BaseException that is not an Exception
    "adapter-bug",  # what the loader returns breaks the adapter's own code
)


class StandinGraph:
    """The part of a networkx DiGraph the adapter reads, and the data to_json writes."""

    def __init__(self, nodes: list[dict[str, Any]], links: list[dict[str, Any]]) -> None:
        self.node_data = nodes
        self.link_data = links

    def is_directed(self) -> bool:
        return True

    @property
    def nodes(self) -> list[str]:
        return [n["id"] for n in self.node_data]

    def edges(self, data: str) -> list[tuple[str, str, Any]]:
        return [(e["source"], e["target"], e.get(data)) for e in self.link_data]


class BrokenModules(dict):  # type: ignore[type-arg]
    """A mapping whose lookups fail: the adapter's own code then raises
    something it does not expect, which must become internal_error."""

    def get(self, *_args: Any) -> Any:
        raise RuntimeError("a bug in the adapter")


class Interrupted(BaseException):
    """Something the adapter cannot expect, like a signal turned exception."""


def _noise(text: str) -> None:
    print(text)
    print(text, file=sys.stderr)
    os.write(1, text.encode() + b"\n")
    os.write(2, text.encode() + b"\n")


def write_atomically(path: str, write: Callable[[Any], Any]) -> None:
    """As Graphify's _atomic_replace writes: a random .gfy-*.tmp beside the
    destination, given a mode from the umask, then renamed onto it."""
    real = os.path.realpath(path)
    os.makedirs(os.path.dirname(real), exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=os.path.dirname(real), prefix=".gfy-", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        write(handle)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(temp, 0o666 & ~umask)
    os.replace(temp, real)


def touch_query_stamp(graph_path: str) -> None:
    """What graphify query, path and explain do once they answered
    (Graphify's _touch_query_stamp): cache/last_query_stamp beside the
    graph, written atomically; a failure is silent."""
    with contextlib.suppress(Exception):
        write_atomically(os.path.join(os.path.dirname(graph_path), "cache", "last_query_stamp"), lambda h: h.write("1"))


def make_loader(mode: str = "ok") -> Any:
    if mode not in MODES:
        raise ValueError(mode)

    def assert_valid(extraction: Any) -> None:
        if mode == "noisy":
            _noise("validate: " + json.dumps(extraction)[:200])
        if mode == "invalid" or not isinstance(extraction, dict):
            raise ValueError("invalid extraction")
        if not isinstance(extraction.get("nodes"), list) or not isinstance(extraction.get("edges"), list):
            raise ValueError("invalid extraction")

    def build_from_json(
        extraction: dict[str, Any], *, directed: bool = False, root: Any = None, dedup: bool = True
    ) -> StandinGraph:
        if mode == "build-raises":
            raise RuntimeError("build failed")
        if mode == "interrupt":
            raise Interrupted
        if directed is not True or dedup is not False:
            raise AssertionError("the adapter must build directed, without dedup")
        # Like Graphify, change the extraction in place.
        for node in extraction["nodes"]:
            node.setdefault("community", None)
        nodes = [dict(n) for n in extraction["nodes"]]
        if mode == "drop-node":
            nodes = nodes[1:]
        return StandinGraph(nodes, [dict(e) for e in extraction["edges"]])

    def to_json(
        graph: StandinGraph,
        communities: Mapping[int, list[str]],
        output_path: str,
        *,
        force: bool = False,
        built_at_commit: str | None = None,
    ) -> bool:
        if mode == "noisy":
            _noise("export: " + json.dumps(graph.node_data)[:200])
        if mode == "export-raises":
            raise OSError("disk full")
        if mode == "export-false":
            return False
        data = {
            "directed": True,
            "multigraph": False,
            "graph": {"graphify_version": STANDIN_VERSION},
            "nodes": sorted(graph.node_data, key=lambda n: json.dumps(n, sort_keys=True)),
            "links": sorted(graph.link_data, key=lambda e: json.dumps(e, sort_keys=True)),
            "hyperedges": [],
            "built_at_commit": built_at_commit,
        }
        write_atomically(output_path, lambda h: json.dump(data, h, separators=(",", ":"), ensure_ascii=False))
        if mode == "leave-gfy":
            real = os.path.realpath(output_path)
            stray_fd, _stray = tempfile.mkstemp(dir=os.path.dirname(real), prefix=".gfy-", suffix=".tmp")
            os.close(stray_fd)
        return True

    def positional_to_json(
        graph: Any, communities: Any, output_path: str, force: bool, built_at_commit: str, /
    ) -> bool:
        return to_json(graph, communities, output_path, force=force, built_at_commit=built_at_commit)

    def build_without_dedup(extraction: dict[str, Any], *, directed: bool = False) -> StandinGraph:
        return build_from_json(extraction, directed=directed, dedup=False)

    def loader() -> Mapping[str, Any]:
        if mode == "missing":
            raise ImportError("No module named 'graphify'")
        if mode == "import-out-of-memory":
            raise MemoryError
        if mode == "adapter-bug":
            return BrokenModules()
        export: Any = SimpleNamespace(to_json=to_json)
        if mode == "absent":
            export = SimpleNamespace()
        elif mode == "positional-only":
            export = SimpleNamespace(to_json=positional_to_json)
        build = SimpleNamespace(build_from_json=build_without_dedup if mode == "no-dedup" else build_from_json)
        return {
            "version": STANDIN_VERSION,
            "validate": SimpleNamespace(assert_valid=assert_valid),
            "build": build,
            "export": export,
        }

    return loader
