"""Run one adapter invocation with filesystem faults injected.

Usage: python -I tests/fault_child.py PLAN_JSON ARGS...

PLAN_JSON: {"at": N or null, "action": "exit" | "kill" | "errno" | "signal", "errno": E,
            "signals": [N, ...], "signum": S,
            "trace": path or null, "swap": null or {"name": ..., "target": ...}}

The os functions that mutate the filesystem are wrapped here, in the child,
never in the shipped module.  Every call is one numbered step; at step
``at`` the child dies (os._exit or SIGKILL), the call raises OSError(E)
instead of running, or (``signal``) the child sends itself signal S
(SIGTERM by default) and the call runs.  ``signals`` lists more steps that
send it again, to test a second signal during the clean-up;
``signal_at_start`` sends it once the handlers are installed.
``keyboard_interrupt`` raises KeyboardInterrupt, as Python's own SIGINT
handler would, where main() has not installed the run's handlers yet
("descriptors": the descriptor reserve; "imports": main()'s imports) or
inside Graphify's build ("build").  ``export_errno`` makes Graphify's
export fail with that OS error inside another exception (raised while
handling it, as a library that wraps its errors does).  ``race``
({"after": LABEL, "nth": K, "link": NAME or null, "target": PATH, "root": ROOT})
acts right after the K-th step (1 by default) with that label has run or
failed: it replaces ROOT/NAME
with a symlink to PATH or, with no NAME, moves ROOT aside (to ROOT +
".moved") and puts a symlink to PATH in its place; with "query": GRAPH
instead, an agent's query writes its stamp beside GRAPH there, as
Graphify's _touch_query_stamp does.  ``portable`` runs the path-based
(Windows) directory code instead of the descriptor-relative one.  With ``trace``
the steps are written there at the end, each file descriptor named by what
it opened ("dir:" for a directory).
``swap`` replaces an owned name with a symlink right before the adapter
opens that existing name, to stage a check-then-use race.
"""

from __future__ import annotations

import builtins
import json
import os
import signal
import sys
from collections.abc import Callable
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]

import standin_graphify  # noqa: E402

import conversation_projection as cp  # noqa: E402

WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
REAL: dict[str, Callable[..., Any]] = {}


def describe(target: Any) -> str:
    if isinstance(target, (str, bytes, os.PathLike)):
        name = os.fsdecode(os.fspath(target))
        return os.path.basename(name.rstrip("/")) or name
    return "fd"


class Faults:
    def __init__(self, plan: dict[str, Any]) -> None:
        self.at: int | None = plan.get("at")
        self.action: str = plan.get("action", "exit")
        self.errno: int = int(plan.get("errno", 5))
        self.swap: dict[str, str] | None = plan.get("swap")
        self.signals: list[int] = list(plan.get("signals", []))
        self.signum: int = int(plan.get("signum", signal.SIGTERM))
        self.steps: list[str] = []
        self.fd_names: dict[int, str] = {}
        self.race: dict[str, Any] | None = plan.get("race")

    def stage_race(self, label: str) -> None:
        """Swap a name or the root for a symlink between two steps."""
        if self.race is None or self.race["after"] != label:
            return
        self.race["nth"] = self.race.get("nth", 1) - 1
        if self.race["nth"] > 0:
            return
        plan, self.race = self.race, None
        if plan.get("query"):
            standin_graphify.touch_query_stamp(plan["query"])
            return
        root = plan["root"]
        if plan.get("link"):
            victim = os.path.join(root, plan["link"])
            if os.path.lexists(victim):
                REAL["unlink"](victim)
            os.symlink(plan["target"], victim)
        else:
            REAL["rename"](root, root + ".moved")
            os.symlink(plan["target"], root)

    def step(self, label: str) -> None:
        index = len(self.steps)
        self.steps.append(label)
        if index in self.signals:
            os.kill(os.getpid(), self.signum)
        if index != self.at:
            return
        if self.action == "exit":
            os._exit(137)
        if self.action == "kill":
            os.kill(os.getpid(), signal.SIGKILL)
        if self.action == "signal":
            os.kill(os.getpid(), self.signum)
            return
        raise OSError(self.errno, os.strerror(self.errno))

    def describe(self, target: Any) -> str:
        if isinstance(target, int):
            return self.fd_names.get(target, "fd")
        return describe(target)

    def wrap(self, name: str, original: Callable[..., Any], counts: Callable[..., bool]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            label = f"{name}:{self.describe(args[0]) if args else ''}"
            if counts(*args, **kwargs):
                self.step(label)
            try:
                return original(*args, **kwargs)
            finally:
                self.stage_race(label)

        return wrapper

    def install(self) -> None:
        real_open = os.open
        REAL.update(unlink=os.unlink, rename=os.rename)

        def opening(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
            if self.swap and describe(path) == self.swap["name"] and not flags & os.O_CREAT:
                # Stage the race: the name becomes a symlink after every check.
                dir_fd = kwargs.get("dir_fd")
                os.unlink(path, dir_fd=dir_fd)
                os.symlink(self.swap["target"], path, dir_fd=dir_fd)
                self.swap = None
            if flags & WRITE_FLAGS and path != os.devnull:
                self.step(f"open:{describe(path)}")
            fd = real_open(path, flags, *args, **kwargs)
            directory = bool(flags & getattr(os, "O_DIRECTORY", 0))
            self.fd_names[fd] = ("dir:" if directory else "") + describe(path)
            return fd

        os.open = opening
        os.write = self.wrap("write", os.write, lambda fd, data: fd > 2)
        os.fsync = self.wrap("fsync", os.fsync, lambda *a, **k: True)
        os.replace = self.wrap("replace", os.replace, lambda *a, **k: True)
        os.rename = self.wrap("rename", os.rename, lambda *a, **k: True)
        os.unlink = self.wrap("unlink", os.unlink, lambda *a, **k: True)
        os.remove = self.wrap("remove", os.remove, lambda *a, **k: True)
        os.mkdir = self.wrap("mkdir", os.mkdir, lambda *a, **k: True)
        os.rmdir = self.wrap("rmdir", os.rmdir, lambda *a, **k: True)
        os.chmod = self.wrap("chmod", os.chmod, lambda *a, **k: True)
        if hasattr(os, "fchmod"):
            os.fchmod = self.wrap("fchmod", os.fchmod, lambda *a, **k: True)


def interrupt(*_args: Any, **_kwargs: Any) -> Any:
    raise KeyboardInterrupt


def interrupt_at(window: str | None) -> None:
    if window == "descriptors":
        cp._reserve_standard_descriptors = interrupt
    elif window == "imports":
        real_import = builtins.__import__

        def importing(name: str, *args: Any, **kwargs: Any) -> Any:
            return interrupt() if name == "json" else real_import(name, *args, **kwargs)

        builtins.__import__ = importing


def interrupting_build(loader: Callable[[], Any]) -> Callable[[], Any]:
    def loading() -> Any:
        modules = loader()
        modules["build"].build_from_json = interrupt
        return modules

    return loading


def export_failing(loader: Callable[[], Any], code: int) -> Callable[[], Any]:
    def to_json(*_args: Any, **_kwargs: Any) -> bool:
        try:
            raise OSError(code, os.strerror(code))
        except OSError:
            raise RuntimeError("export failed")  # noqa: B904 - the OS error only as its context

    def loading() -> Any:
        modules = loader()
        modules["export"].to_json = to_json
        return modules

    return loading


def main(argv: list[str]) -> int:
    plan = json.loads(argv[1])
    faults = Faults(plan)
    loader = standin_graphify.make_loader(plan.get("mode", "ok"))
    if plan.get("portable"):
        cp.SUPPORTS_DIR_FD = False
    if plan.get("signal_at_start"):
        # The signal arrives as soon as the handlers are in place, while the
        # selection is still being read: before any step.
        install = cp.SIGNALS.install

        def install_then_signal() -> None:
            install()
            os.kill(os.getpid(), faults.signum)

        cp.SIGNALS.install = install_then_signal  # type: ignore[method-assign]
    interrupt_at(plan.get("keyboard_interrupt"))
    if plan.get("keyboard_interrupt") == "build":
        loader = interrupting_build(loader)
    if plan.get("export_errno") is not None:
        loader = export_failing(loader, int(plan["export_errno"]))
    faults.install()
    code = cp.main(argv[2:], loader=loader)
    if plan.get("trace"):
        with open(plan["trace"], "w", encoding="utf-8") as handle:
            json.dump(faults.steps, handle)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv))
