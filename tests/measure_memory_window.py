"""Measure where the memory start-up window ends (Linux).

Usage: python -I tests/measure_memory_window.py [PYTHON ...]

Below some address-space limit (`ulimit -v`) the interpreter cannot compile
and load the module; it then prints its own MemoryError or ImportError on
stderr and exits 1, with no result line.  From that limit on, the module
answers every lack of memory with its one line.  For each PYTHON given (this
interpreter by default) this finds, by bisection in steps of 64 KiB, the
smallest limit at which `python -I conversation_projection.py --state-root
MISSING --verify` prints its line, and checks that every limit from there to
8 MiB above it (in steps of 64 KiB) prints exactly one line, with an empty
stderr and an exit code of 2 or 3.  It prints one row per interpreter.
"""

from __future__ import annotations

import json
import os
import platform
import resource
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
MODULE = os.path.join(os.path.dirname(HERE), "conversation_projection.py")
STEP = 64 << 10


def run(python: str, limit: int, root: str) -> tuple[int, bytes, bytes]:
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    done = subprocess.run(
        [python, "-I", MODULE, "--state-root", os.path.join(root, "missing"), "--verify"],
        capture_output=True,
        preexec_fn=apply,
        timeout=60,
    )
    return done.returncode, done.stdout, done.stderr


def answered(python: str, limit: int, root: str) -> bool:
    return len(run(python, limit, root)[1].splitlines()) == 1


def window_end(python: str, root: str) -> int:
    low, high = 8 << 20, 256 << 20  # low: never answers; high: always does
    if answered(python, low, root) or not answered(python, high, root):
        raise SystemExit(f"{python}: no window between {low >> 20} and {high >> 20} MiB")
    while high - low > STEP:
        middle = (low + high) // 2 // STEP * STEP
        if answered(python, middle, root):
            high = middle
        else:
            low = middle
    return high


def main() -> None:
    pythons = sys.argv[1:] or [sys.executable]
    with tempfile.TemporaryDirectory() as root:
        for python in pythons:
            version = subprocess.run(
                [python, "-I", "-c", "import platform; print(platform.python_version())"],
                capture_output=True,
                text=True,
                check=True,
            ).stdout.strip()
            end = window_end(python, root)
            faults = []
            for limit in range(end, end + (8 << 20) + 1, STEP):
                code, out, err = run(python, limit, root)
                lines = out.splitlines()
                if len(lines) != 1 or err or code not in (2, 3) or json.loads(lines[0])["exitCode"] != code:
                    faults.append(limit >> 10)
            print(
                f"Python {version} ({platform.machine()}): the line is printed from {end >> 10} KiB"
                f" ({end / (1 << 20):.1f} MiB) of address space on;"
                f" {'every' if not faults else 'NOT every'} limit up to 8 MiB above answers with one line"
                + (f" (faults at {faults} KiB)" if faults else "")
            )


if __name__ == "__main__":
    main()
