"""Measure the start-up window in which a signal cannot be handled (Linux).

Usage: python -I tests/measure_signal_window.py [RUNS]

From the moment the adapter's process is started until the module's first
statement installs its handlers (Python has started and compiled the module
by then), SIGTERM and SIGHUP kill it with no output and SIGINT makes Python
print a traceback.  This starts `python -I conversation_projection.py`
on a valid 1.7 MiB selection with --dry-run (so that it is still running
once its handlers are in place) RUNS times (30 by default) and polls the child's
/proc/PID/status until SIGTERM and SIGHUP show in its caught set (SigCgt): the time from
the start to then is the window.  It prints the median and the largest wall
time, and the CPU the child used in it, first as the machine is, then with
one more spinning process per core.
"""

from __future__ import annotations

import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
MODULE = os.path.join(os.path.dirname(HERE), "conversation_projection.py")
SPIN = "while True: pass"


# The module installs SIGINT, SIGTERM, then SIGHUP; SIGINT's bit is set from
# Python's start-up on (its own KeyboardInterrupt handler).
INSTALLED_LAST = (1 << (signal.SIGTERM - 1)) | (1 << (signal.SIGHUP - 1))


def caught(pid: int) -> bool:
    """Whether the process has its handlers for SIGTERM and SIGHUP (False
    once it exited): between the two, a SIGHUP would still kill it."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("SigCgt:"):
                    return int(line.split()[1], 16) & INSTALLED_LAST == INSTALLED_LAST
    except OSError:
        pass
    return False


def cpu_seconds(pid: int) -> float:
    """User + system CPU the process has used so far (clock-tick resolution)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def window(selection: str, state: str) -> tuple[float, float]:
    started = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-I", MODULE, "--state-root", state, "--selection", selection, "--dry-run"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    while not caught(child.pid):
        if child.poll() is not None:
            raise RuntimeError("the child exited before it installed its handlers")
    elapsed = time.perf_counter() - started
    used = cpu_seconds(child.pid)
    child.wait()
    return elapsed, used


def measure(runs: int, selection: str, state: str) -> str:
    samples = [window(selection, state) for _ in range(runs)]
    walls = [wall for wall, _ in samples]
    cpu = statistics.median(used for _, used in samples)
    return (
        f"median {statistics.median(walls) * 1000:.0f} ms, largest {max(walls) * 1000:.0f} ms wall"
        f" ({cpu * 1000:.0f} ms of the child's CPU, median; {runs} runs)"
    )


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    workdir = tempfile.mkdtemp(prefix="cp-window-")
    selection = os.path.join(workdir, "selection.json")
    summaries = [
        {"summaryId": f"s{j}", "role": "user", "kind": "summary", "approved": True, "text": "word " * 390}
        for j in range(2)
    ]
    branches = [
        {"branchId": f"b-{i:03d}", "sourceRevision": 1, "sources": [], "summaries": summaries} for i in range(450)
    ]
    with open(selection, "w", encoding="utf-8") as handle:
        json.dump({"schemaVersion": 1, "corpusId": "window", "revision": 1, "branches": branches}, handle)
    state = os.path.join(workdir, "state")
    print(f"as the machine is (load average {os.getloadavg()[0]:.1f}): {measure(runs, selection, state)}")
    spinners = [subprocess.Popen([sys.executable, "-I", "-c", SPIN]) for _ in range(os.cpu_count() or 2)]
    try:
        loaded = measure(runs, selection, state)
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()
    print(f"with {len(spinners)} more processes spinning: {loaded}")
    os.remove(selection)
    os.rmdir(workdir)


if __name__ == "__main__":
    main()
