"""One real invocation with Graphify's import, build and export timed.

Usage: python -I tests/timed_run.py ARGS...   (the adapter's own arguments)

The real loader is wrapped, by the dependency injection main() offers, so
that the time spent inside Graphify is measured in the same run as the
rest; the split is printed as JSON on stderr after the result line.
"""

from __future__ import annotations

import json
import os
import sys
import time
from types import SimpleNamespace
from typing import Any

STARTED = time.perf_counter()
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import conversation_projection as cp  # noqa: E402

spent = {"import": 0.0, "build": 0.0, "export": 0.0}


def timed(kind: str, function: Any) -> Any:
    def call(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            spent[kind] += time.perf_counter() - started

    # Keep the signature visible to the adapter's shape check.
    call.__signature__ = __import__("inspect").signature(function)  # type: ignore[attr-defined]
    return call


def loader() -> dict[str, Any]:
    started = time.perf_counter()
    modules = cp.load_graphify()
    spent["import"] += time.perf_counter() - started
    return {
        "version": modules["version"],
        "validate": SimpleNamespace(assert_valid=timed("build", modules["validate"].assert_valid)),
        "build": SimpleNamespace(build_from_json=timed("build", modules["build"].build_from_json)),
        "export": SimpleNamespace(to_json=timed("export", modules["export"].to_json)),
    }


if __name__ == "__main__":
    code = cp.main(sys.argv[1:], loader=loader)
    total = time.perf_counter() - STARTED
    graphify = spent["build"] + spent["export"]
    adapter = total - spent["import"] - graphify
    print(
        json.dumps({"total": total, "adapter": adapter, "graphify": graphify, "import": spent["import"]}),
        file=sys.stderr,
    )
    sys.exit(code)
