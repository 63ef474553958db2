"""Sampled mutation testing of conversation_projection.py (standard library only).

Each mutant is one small change to the module: a comparison operator, a
boolean, a constant, a returned value, a removed statement or a removed
raise.  A fixed-seed sample of them is run, one at a time, against the test
suites in a copy of the repository (the working tree is never written); a
mutant is killed when a suite fails or runs out of time, and survives when
every suite passes.

    nice -n 19 python tools/mutation_sample.py -n 200 --seed 17 -j 2

Per mutant the suites run in stages, the cheapest first, each only if the one
before passed: the in-process test classes, fastest first, under ``pytest
-x``; then every other test class under ``tests/`` (the subprocess suites);
then the other test steps of ``.ci/run`` (the real-Graphify smoke at the
pinned version and, where installed, at the oldest tested one; the benchmark
script; the PowerShell parse; the fresh-interpreter suite under every other
CPython 3.11+ found).  Lint and type checks are not counted: they judge the
code, not what it does.  Classes run whole (their set-up and tear-down
belong to all their tests).  Which classes are fast comes from one timed run
of ``tests/`` (``--timings FILE`` keeps it for the next invocation); a test
that fails there is deselected and named in the log; then every stage must
pass on the unchanged copy, in its own order, or nothing is sampled.

What is never generated, or dropped, so that a survivor is a change a test
could see:
- docstrings, annotations and the body of ``if TYPE_CHECKING:`` (none of
  them runs), and the parts of f-strings;
- a mutant that does not compile (counted as skipped);
- a mutant whose compiled code equals the original's, line numbers aside
  (counted as equivalent).

With ``--reach FILE`` each mutant runs only the tests that reach its line,
which makes a sample of 100 fit in half an hour on two cores.  One run of
the whole suite makes the map (kept in FILE, and made again once a file of
the repository, the interpreter or the tests chosen changed) and the
per-test timings.  A one-line hook, put on the first blank line after the
module's docstring (line numbers unchanged), records in every process that
runs the module (pytest's own and every child, whatever interpreter) the
lines executed under the name of the test that was running: a pytest
plug-in names it, in the process and, through the environment, to its
children; what a class's set-up and tear-down reach (setUpClass runs in its
first test's set-up) counts for each of its tests, and the module's memo
caches (memo_caches) are emptied before each test, so that what a process
builds once (the secret table's regexes) counts for every test using it.  It records with
coverage.py's C tracer, loaded without the rest of coverage, where coverage
is installed for that interpreter, else with a ``sys.settrace`` recorder.
A line run at import (a constant, a pattern, a definition) runs the tests
that reach the function lines reading what it binds, directly or through
other names bound at import, and the tests that read one of those names
themselves; one that neither reads, and a line reached where no test was
named (a function the module calls while it is imported), run the whole
staged suite.  A mutant no test reaches is not run: it counts as surviving
("unreached").  A test that failed in the map's run is run again, alone and
untraced: it is left out only if it fails again.  Not run in this mode:
the steps of .ci/run outside pytest (the real-Graphify smoke, the
benchmark, the PowerShell parse, the suites under other CPythons).

Output: one line per mutant (index, line, kind, change, verdict, seconds) to
the log, then a summary: killed/total, the score with its 95% Wilson
interval (kills by a failing test and by a time-out counted apart), and the
survivors.
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import glob
import hashlib
import io
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import types
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.dirname(HERE)
MODULE_NAME = "conversation_projection.py"
DEFAULT_PYTHON = "/work/venv/bin/python" if os.path.exists("/work/venv/bin/python") else sys.executable
# The oldest Graphify .ci/run smoke-tests, where this machine has it.
OLDEST_GRAPHIFY_PYTHON = "/work/venv-0.9.91/bin/python"
# Copied into each worker's tree: everything the suites read, nothing built.
IGNORED_NAMES = shutil.ignore_patterns(
    ".git", "__pycache__", "*.pyc", ".venv", ".ci-venv", ".mypy_cache", ".ruff_cache", ".pytest_cache", ".hypothesis"
)
# A test class whose tests took less than this in all (set-up, call and
# tear-down) runs in the first stage: in-process tests, or very cheap children.
FAST_CLASS_SECONDS = 0.5
# A stage may take this many times its baseline before the mutant counts as
# killed by a time-out (a mutant that loops), and never less than the floor.
TIMEOUT_FACTOR = 3.0
TIMEOUT_FLOOR_SECONDS = 60.0
# pytest's own start-up and collection, added to a stage's time-out.
PYTEST_START_SECONDS = 30.0
WILSON_Z = 1.959963984540054  # the two-sided 95% normal quantile
PYTEST = ("-m", "pytest", "-q", "-p", "no:cacheprovider")
CI_ENVIRONMENT = {"CP_REQUIRE_DEV_TOOLS": "1", "GRAPHIFY_QUERY_LOG_DISABLE": "1"}

# ---------------------------------------------------------------------------
# Mutation sites (pure)
# ---------------------------------------------------------------------------

# Each comparison operator's counterpart, by the token that spells it.
COMPARISON_SWAPS = {
    ast.Lt: ("<", "<="),
    ast.LtE: ("<=", "<"),
    ast.Gt: (">", ">="),
    ast.GtE: (">=", ">"),
    ast.Eq: ("==", "!="),
    ast.NotEq: ("!=", "=="),
    ast.In: ("in", "not in"),
    ast.NotIn: ("not in", "in"),
    ast.Is: ("is", "is not"),
    ast.IsNot: ("is not", "is"),
}
BOOLEAN_SWAPS = {ast.And: ("and", "or"), ast.Or: ("or", "and")}
# A return value of one of these shapes is a truth value: its mutant negates it.
TRUTH_SHAPES = (ast.Compare, ast.BoolOp)


@dataclass(frozen=True)
class Mutant:
    """One change: replace the text between two (line, column) positions."""

    line: int
    column: int
    end_line: int
    end_column: int
    kind: str
    replacement: str
    original: str

    def describe(self) -> str:
        before = " ".join(self.original.split())
        after = " ".join(self.replacement.split())
        return f"{_shorten(before)} -> {_shorten(after)}"


def _shorten(text: str, limit: int = 48) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


class _Source:
    """The module's text, addressed as ast positions (1-based lines, UTF-8 byte columns)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = text.splitlines(keepends=True)
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line))

    def offset(self, line: int, column: int) -> int:
        prefix = self.lines[line - 1].encode("utf-8")[:column].decode("utf-8")
        return self.starts[line - 1] + len(prefix)

    def segment(self, line: int, column: int, end_line: int, end_column: int) -> str:
        return self.text[self.offset(line, column) : self.offset(end_line, end_column)]

    def apply(self, mutant: Mutant) -> str:
        start = self.offset(mutant.line, mutant.column)
        end = self.offset(mutant.end_line, mutant.end_column)
        return self.text[:start] + mutant.replacement + self.text[end:]


def _never_runs(tree: ast.Module) -> set[int]:
    """ids of nodes whose mutation cannot change behaviour: docstrings,
    annotations, f-string parts and ``if TYPE_CHECKING:`` bodies."""
    skipped: set[int] = set()

    def skip(node: ast.AST | None) -> None:
        if node is not None:
            skipped.update(id(child) for child in ast.walk(node))

    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            skip(node)
        elif isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for child in node.body:
                skip(child)
        elif isinstance(node, ast.arg):
            skip(node.annotation)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            skip(node.returns)
        elif isinstance(node, ast.AnnAssign):
            skip(node.annotation)
        elif isinstance(node, ast.JoinedStr):
            skip(node)
    return skipped


def _operator_between(source: _Source, left: ast.expr, right: ast.expr, token: str) -> tuple[int, int] | None:
    """The (start, end) columns of ``token`` between two operands on one line,
    or None when anything but spaces and parentheses surrounds it there."""
    if left.end_lineno != right.lineno or left.end_col_offset is None:
        return None
    line = source.lines[right.lineno - 1].encode("utf-8")
    between = line[left.end_col_offset : right.col_offset].decode("utf-8")
    pattern = r"[\s()]*(" + r"\s+".join(map(re.escape, token.split())) + r")[\s()]*"
    found = re.fullmatch(pattern, between)
    if found is None:
        return None
    start = left.end_col_offset + len(between[: found.start(1)].encode("utf-8"))
    return start, start + len(found.group(1).encode("utf-8"))


def _operator_mutants(source: _Source, node: ast.AST) -> Iterator[Mutant]:
    """Comparison and and/or operators, one mutant per operator."""
    pairs: list[tuple[ast.expr, ast.expr, tuple[str, str], str]] = []
    if isinstance(node, ast.Compare):
        operands = [node.left, *node.comparators]
        for index, op in enumerate(node.ops):
            pairs.append((operands[index], operands[index + 1], COMPARISON_SWAPS[type(op)], "comparison"))
    elif isinstance(node, ast.BoolOp):
        for index in range(1, len(node.values)):
            pairs.append((node.values[index - 1], node.values[index], BOOLEAN_SWAPS[type(node.op)], "boolean"))
    for left, right, (token, swapped), kind in pairs:
        columns = _operator_between(source, left, right, token)
        if columns is not None:
            yield Mutant(right.lineno, columns[0], right.lineno, columns[1], kind, swapped, token)


def _spanned(node: ast.AST, kind: str, replacement: str, source: _Source) -> Mutant | None:
    line, column = getattr(node, "lineno", None), getattr(node, "col_offset", None)
    end_line, end_column = getattr(node, "end_lineno", None), getattr(node, "end_col_offset", None)
    if line is None or column is None or end_line is None or end_column is None:
        return None
    original = source.segment(line, column, end_line, end_column)
    return Mutant(line, column, end_line, end_column, kind, replacement, original)


def _constant_mutants(source: _Source, node: ast.Constant) -> Iterator[Mutant]:
    """True/False swapped, integers one up and one down, strings and bytes
    with an "x" appended: each written as a fresh literal on the node's line."""
    if node.lineno != node.end_lineno:
        return
    value = node.value
    candidates: list[tuple[str, object]] = []
    if isinstance(value, bool):
        candidates.append(("boolean", not value))
    elif isinstance(value, int):
        candidates += [("constant", value + 1), ("constant", value - 1)]
    elif isinstance(value, str):
        candidates.append(("constant", value + "x"))
    elif isinstance(value, bytes):
        candidates.append(("constant", value + b"x"))
    for kind, new in candidates:
        literal = repr(new)
        # A negative literal keeps its sign inside an expression (x - -1).
        mutant = _spanned(node, kind, f"({literal})" if literal.startswith("-") else literal, source)
        if mutant is not None:
            yield mutant


def _statement_mutants(source: _Source, node: ast.AST) -> Iterator[Mutant]:
    """Returns made None (or negated, for a truth value), raises and
    ``fail(...)`` removed, call statements and assignments removed."""
    mutant: Mutant | None = None
    if isinstance(node, ast.Return) and node.value is not None:
        value = node.value
        truth = isinstance(value, TRUTH_SHAPES) or (isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.Not))
        if truth:
            original = _spanned(value, "return", "", source)
            if original is not None:
                mutant = _spanned(value, "return", f"not ({original.original})", source)
        elif not (isinstance(value, ast.Constant) and value.value is None):
            mutant = _spanned(value, "return", "None", source)
    elif isinstance(node, ast.Raise):
        mutant = _spanned(node, "raise", "pass", source)
    elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        function = node.value.func
        is_fail = isinstance(function, ast.Name) and function.id == "fail"
        mutant = _spanned(node, "raise" if is_fail else "statement", "pass", source)
    elif isinstance(node, (ast.Assign, ast.AugAssign)) or (isinstance(node, ast.AnnAssign) and node.value is not None):
        mutant = _spanned(node, "statement", "pass", source)
    if mutant is not None:
        yield mutant


def _not_mutants(source: _Source, node: ast.UnaryOp) -> Iterator[Mutant]:
    """``not X`` becomes ``X``: the ``not`` and the space after it go."""
    if node.lineno == node.operand.lineno and node.col_offset < node.operand.col_offset:
        line = source.lines[node.lineno - 1].encode("utf-8")
        dropped = line[node.col_offset : node.operand.col_offset].decode("utf-8")
        if dropped.rstrip() == "not":
            yield Mutant(node.lineno, node.col_offset, node.lineno, node.operand.col_offset, "boolean", "", dropped)


def enumerate_mutants(text: str) -> list[Mutant]:
    """Every mutant of the module's text, in source order."""
    source = _Source(text)
    tree = ast.parse(text)
    skipped = _never_runs(tree)
    found: list[Mutant] = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, (ast.Compare, ast.BoolOp)):
            found.extend(_operator_mutants(source, node))
        elif isinstance(node, ast.Constant):
            found.extend(_constant_mutants(source, node))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            found.extend(_not_mutants(source, node))
        if isinstance(node, ast.stmt):
            found.extend(_statement_mutants(source, node))
    return sorted(set(found), key=lambda m: (m.line, m.column, m.end_line, m.end_column, m.kind, m.replacement))


def code_fingerprint(code: types.CodeType) -> tuple[object, ...]:
    """What a code object does, without where it sits: its bytecode, names
    and constants, nested code objects included; line tables left out."""
    constants = tuple(code_fingerprint(c) if isinstance(c, types.CodeType) else (type(c), c) for c in code.co_consts)
    return (code.co_code, constants, code.co_names, code.co_varnames, code.co_freevars, code.co_cellvars)


def judge_mutant(original: tuple[object, ...], mutated_text: str) -> str | None:
    """None for a mutant worth running; "skipped" when it does not compile,
    "equivalent" when its code equals the original's."""
    try:
        code = compile(mutated_text, MODULE_NAME, "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return "skipped"
    return "equivalent" if code_fingerprint(code) == original else None


@dataclass
class Sample:
    mutants: list[tuple[int, Mutant]]
    skipped: int
    equivalent: int
    candidates: int


def draw_sample(text: str, count: int, seed: int, lines: set[int] | None = None) -> Sample:
    """``count`` runnable mutants in a seeded random order: the candidates
    are shuffled, then taken in that order, dropping what cannot run."""
    candidates = enumerate_mutants(text)
    if lines is not None:
        candidates = [m for m in candidates if m.line in lines]
    order = list(range(len(candidates)))
    random.Random(seed).shuffle(order)  # noqa: S311 - a reproducible sample, not a secret
    source = _Source(text)
    original = code_fingerprint(compile(text, MODULE_NAME, "exec", dont_inherit=True))
    chosen: list[tuple[int, Mutant]] = []
    dropped = {"skipped": 0, "equivalent": 0}
    for index in order:
        if len(chosen) == count:
            break
        verdict = judge_mutant(original, source.apply(candidates[index]))
        if verdict is None:
            chosen.append((index, candidates[index]))
        else:
            dropped[verdict] += 1
    return Sample(chosen, dropped["skipped"], dropped["equivalent"], len(candidates))


def wilson_interval(killed: int, total: int, z: float = WILSON_Z) -> tuple[float, float]:
    """The Wilson score interval of killed/total."""
    if total == 0:
        return 0.0, 1.0
    p = killed / total
    denominator = 1 + z * z / total
    centre = (p + z * z / (2 * total)) / denominator
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


# ---------------------------------------------------------------------------
# Running the suites (I/O)
# ---------------------------------------------------------------------------


@dataclass
class Stage:
    """Commands run in order for one mutant; ``size`` is its number of tests or steps."""

    name: str
    commands: list[list[str]]
    timeout: float
    size: int


def _environment(python: str) -> dict[str, str]:
    """What .ci/run gives its suites: the venv's bin first on PATH."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "COVERAGE"))}
    env.update(CI_ENVIRONMENT)
    env["PATH"] = os.path.dirname(python) + os.pathsep + env.get("PATH", "")
    return env


def _clear_bytecode(tree: str) -> None:
    """Children run with -I and write .pyc files; a stale one keyed on a
    same-size, same-second source could hide the mutant."""
    for cache in glob.glob(os.path.join(tree, "**", "__pycache__"), recursive=True):
        shutil.rmtree(cache, ignore_errors=True)


def run_command(command: Sequence[str], cwd: str, env: dict[str, str], timeout: float) -> bool:
    """True when the command passed within its time; its output is discarded."""
    return command_failure(command, cwd, env, timeout) is None


def command_failure(command: Sequence[str], cwd: str, env: dict[str, str], timeout: float) -> str | None:
    """None when the command passed within its time; else what failed: the
    first test pytest names as failed, "time-out", or the exit status."""
    try:
        completed = subprocess.run(
            list(command), check=False, cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return "time-out"
    if completed.returncode == 0:
        return None
    for line in completed.stdout.decode("utf-8", "replace").splitlines():
        if line.startswith(("FAILED ", "ERROR ", "SUBFAILED")):
            return line.split(" - ")[0]
    return f"exit {completed.returncode}"


@dataclass
class Timings:
    """Each test's seconds (setup, call and teardown) on the unchanged tree,
    and the tests that fail there already (left out of every stage)."""

    seconds: dict[str, float]
    failing: list[str]


def measure_tests(python: str, tree: str, env: dict[str, str]) -> Timings:
    """One run of tests/ with a small plug-in that records every test's time and outcome."""
    plugin_dir = tempfile.mkdtemp(prefix="mutation-plugin-")
    report = os.path.join(plugin_dir, "timings.json")
    try:
        with open(os.path.join(plugin_dir, "mutation_timing.py"), "w", encoding="utf-8") as handle:
            handle.write(TIMING_PLUGIN)
        plugin_env = dict(env, PYTHONPATH=plugin_dir, MUTATION_TIMINGS=report)
        command = [python, *PYTEST, "-p", "mutation_timing", "tests/"]
        subprocess.run(command, check=False, cwd=tree, env=plugin_env, stdin=subprocess.DEVNULL, capture_output=True)
        with open(report, encoding="utf-8") as handle:
            found = json.load(handle)
    finally:
        shutil.rmtree(plugin_dir, ignore_errors=True)
    return Timings(found["seconds"], found["failing"])


TIMING_PLUGIN = """
import json
import os

_SECONDS = {}
_FAILING = set()


def pytest_runtest_logreport(report):
    _SECONDS[report.nodeid] = _SECONDS.get(report.nodeid, 0.0) + report.duration
    if report.failed:
        _FAILING.add(report.nodeid)


def pytest_sessionfinish(session):
    if hasattr(session.config, "workerinput"):
        return  # a pytest-xdist worker: the controller has every report
    with open(os.environ["MUTATION_TIMINGS"], "w", encoding="utf-8") as handle:
        json.dump({"seconds": _SECONDS, "failing": sorted(_FAILING)}, handle, sort_keys=True)
"""


def load_timings(path: str | None, python: str, tree: str, env: dict[str, str]) -> Timings:
    """Timings from ``path`` when it exists, else measured (and saved there)."""
    if path and os.path.exists(path):
        with open(path, encoding="utf-8") as handle:
            found = json.load(handle)
        return Timings(found["seconds"], found["failing"])
    timings = measure_tests(python, tree, env)
    if path:
        with open(path, "w", encoding="utf-8") as handle:
            json.dump({"seconds": timings.seconds, "failing": timings.failing}, handle, indent=1, sort_keys=True)
    return timings


def other_interpreters(python: str) -> list[str]:
    """Every other CPython 3.11+ that .ci/run's fresh-interpreter step would
    find under pyenv or on PATH, by real path, one per version."""
    seen = {os.path.realpath(python)}
    probe = "import sys; assert sys.implementation.name == 'cpython' and sys.version_info >= (3, 11)"
    found: list[str] = []
    roots = [os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))]
    candidates = sorted(glob.glob(os.path.join(roots[0], "versions", "3.1*", "bin", "python3.1*")))
    for directory in os.environ.get("PATH", "").split(os.pathsep):
        candidates += sorted(glob.glob(os.path.join(directory, "python3.1[1-9]")))
    versions: set[str] = set()
    for candidate in candidates:
        name = os.path.basename(candidate)
        real = os.path.realpath(candidate)
        if not re.fullmatch(r"python3\.1[1-9]", name) or real in seen or name in versions:
            continue
        if subprocess.run([candidate, "-I", "-c", probe], check=False, capture_output=True).returncode == 0:
            seen.add(real)
            versions.add(name)
            found.append(candidate)
    return found


def _stage_timeout(seconds: float) -> float:
    return max(TIMEOUT_FLOOR_SECONDS, TIMEOUT_FACTOR * seconds + PYTEST_START_SECONDS)


def collected_tests(python: str, tree: str, env: dict[str, str]) -> list[str]:
    """The node ids pytest collects under tests/ in ``tree``."""
    command = [python, *PYTEST, "--collect-only", "tests/"]
    completed = subprocess.run(command, check=False, cwd=tree, env=env, stdin=subprocess.DEVNULL, capture_output=True)
    lines = completed.stdout.decode("utf-8", "replace").splitlines()
    return [line for line in lines if line.startswith("tests/") and "::" in line]


def _test_class(node: str) -> str:
    """``tests/x.py::Class`` of ``tests/x.py::Class::test``: classes run whole,
    because a class's set-up and tear-down (one venv; every code reached)
    belong to all its tests together."""
    return "::".join(node.split("::")[:2])


def build_stages(python: str, timings: Timings, collected: list[str]) -> list[Stage]:
    """The fast test classes, fastest first, then every other class, slowest
    last; a test that fails on the unchanged tree is deselected.  Timings of
    tests that no longer exist are ignored; a class without timings runs last."""
    failing = [node for node in timings.failing if node in set(collected)]
    seconds: dict[str, float] = {}
    for node in collected:
        if node in timings.seconds:
            seconds[_test_class(node)] = seconds.get(_test_class(node), 0.0) + timings.seconds[node]
    untimed = sorted({_test_class(node) for node in collected} - set(seconds))
    ordered = sorted(seconds, key=lambda name: (seconds[name], name))
    fast = [name for name in ordered if seconds[name] < FAST_CLASS_SECONDS]
    slow = [name for name in ordered if seconds[name] >= FAST_CLASS_SECONDS] + untimed
    deselect = [option for node in failing for option in ("--deselect", node)]
    stages = []
    for name, classes in (("fast", fast), ("tests", slow)):
        took = sum(seconds.get(c, TIMEOUT_FLOOR_SECONDS) for c in classes)
        stages.append(Stage(name, [[python, *PYTEST, "-x", *deselect, *classes]], _stage_timeout(took), len(classes)))
    return stages


def verify_stages(stages: list[Stage], tree: str, env: dict[str, str]) -> None:
    """Every stage must pass on the unchanged tree, in the order it will run
    in: otherwise every mutant would count as killed."""
    for stage in stages:
        for command in stage.commands:
            failure = command_failure(command, tree, env, timeout=4 * stage.timeout)
            if failure is not None:
                raise SystemExit(f"stage {stage.name} fails on the unchanged tree: {failure}")


def ci_steps_stage(python: str, tree: str, env: dict[str, str]) -> tuple[Stage, list[str]]:
    """.ci/run's other test steps, each timed on the unchanged tree; one that
    fails there is left out (and named)."""
    commands = [
        [python, "-I", "tests/smoke_conversation_projection_graphify.py"],
        [python, "-I", "tests/benchmark_projection.py", "--quick"],
        [python, "-I", "tests/check_powershell.py"],
    ]
    if os.path.exists(OLDEST_GRAPHIFY_PYTHON):
        oldest_path = f"PATH={os.path.dirname(OLDEST_GRAPHIFY_PYTHON)}{os.pathsep}{os.environ.get('PATH', '')}"
        commands.append(
            ["env", oldest_path, OLDEST_GRAPHIFY_PYTHON, "-I", "tests/smoke_conversation_projection_graphify.py"]
        )
    # As .ci/run does, with the machine's PATH: no venv on it.
    machine_path = f"PATH={os.environ.get('PATH', '')}"
    fresh = [
        ["env", machine_path, other, "-I", "tests/test_fresh_interpreter.py"] for other in other_interpreters(python)
    ]
    commands += fresh
    kept: list[list[str]] = []
    failing: list[str] = []
    total = 0.0
    for command in commands:
        started = time.monotonic()
        if run_command(command, tree, env, timeout=3600):
            kept.append(command)
            total += time.monotonic() - started
        else:
            failing.append(" ".join(command))
    return Stage("ci-steps", kept, _stage_timeout(total), len(kept)), failing


@dataclass
class Verdict:
    index: int
    mutant: Mutant
    killed: bool
    stage: str
    seconds: float
    killer: str = ""

    def log_line(self) -> str:
        word = f"killed({self.stage})" if self.killed else self.stage if self.stage else "survived"
        m = self.mutant
        where = f"#{self.index:05d} line {m.line} col {m.column}"
        line = f"{where} {m.kind:<10} {word:<18} {self.seconds:7.1f}s  {m.describe()}"
        return f"{line}  [{self.killer}]" if self.killer else line


@dataclass
class Plan:
    """What every mutant is run with: the original text, the stages and their
    environment; with a reach map, the stages are chosen per mutant."""

    text: str
    stages: list[Stage]
    env: dict[str, str]
    reach: Reach | None = None


def run_mutant(tree: str, plan: Plan, index: int, mutant: Mutant) -> Verdict:
    """Write the mutant into ``tree``, run the stages until one fails, put the module back."""
    started = time.monotonic()
    stages = plan.stages if plan.reach is None else plan.reach.stages_for(mutant.line, plan.stages)
    if not stages:
        return Verdict(index, mutant, False, UNREACHED, 0.0)
    module = os.path.join(tree, MODULE_NAME)
    _write(module, _Source(plan.text).apply(mutant))
    try:
        for stage in stages:
            stage_started = time.monotonic()
            for command in stage.commands:
                remaining = max(1.0, stage.timeout - (time.monotonic() - stage_started))
                failure = command_failure(command, tree, plan.env, remaining)
                if failure is not None:
                    _write(module, plan.text)
                    if stage.name == "reach" and not _fails_alone(failure, command, tree, plan.env):
                        return Verdict(index, mutant, False, UNCONFIRMED, time.monotonic() - started, failure)
                    return Verdict(index, mutant, True, stage.name, time.monotonic() - started, failure)
        return Verdict(index, mutant, False, "", time.monotonic() - started)
    finally:
        _write(module, plan.text)


def _fails_alone(failure: str, command: Sequence[str], tree: str, env: dict[str, str]) -> bool:
    """Whether a reach stage's failure is the mutant's: the test it names,
    run alone as the stage ran it, passes on the unchanged module (already
    written back).  A time-out or an unnamed failure stands."""
    node = failure.rpartition(" ")[2]
    if "::" not in node:
        return True  # a time-out, an exit status, or a module that no longer imports
    prefix = list(command[: command.index("-x") + 1])
    return command_failure([*prefix, node], tree, env, timeout=600) is None


# ---------------------------------------------------------------------------
# Which tests reach which line (I/O)
# ---------------------------------------------------------------------------

UNREACHED = "unreached"
# A kill whose failing test fails on the unchanged module too (a check that
# needs its whole class, an order effect): counted as no kill.
UNCONFIRMED = "unconfirmed"
# Tells a suite that checks what its whole class reached that only some of
# its tests run (tests/test_fresh_interpreter.py).
PARTIAL_RUN_VARIABLE = "CP_FRESH_PARTIAL"
# Where no test was named: collection, or a child whose environment lost the name.
NO_TEST = "?"
REACH_HOOK_NAME = "_mutation_reach.py"
# The one line put on the first blank line after the module's docstring and
# __future__ imports: the recorder starts before the rest of the module runs,
# which calls functions of its own at import (the secret table's patterns).
REACH_HOOK_LINE = (
    '__import__("os").environ.get("MUTATION_REACH_DIR") and exec(compile(open(__import__("os").path.join('
    '__import__("os").path.dirname(__file__), "_mutation_reach.py")).read(), "_mutation_reach", "exec"),'
    ' {"TARGET": __file__})'
)


def hooked_text(text: str) -> str:
    """The module with REACH_HOOK_LINE on the first blank line after its
    docstring and __future__ imports: every line keeps its number."""
    body = ast.parse(text).body
    head = 0
    for index, statement in enumerate(body):
        docstring = index == 0 and isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)
        future = isinstance(statement, ast.ImportFrom) and statement.module == "__future__"
        if not (docstring or future):
            break
        head = statement.end_lineno or statement.lineno
    lines = text.split("\n")
    blank = min(index for index in range(head, len(lines)) if lines[index] == "")
    lines[blank] = REACH_HOOK_LINE
    return "\n".join(lines)


def import_time_lines(text: str) -> set[int]:
    """The lines outside every function body: run at import by every test."""
    tree = ast.parse(text)
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno is not None:
            inside.update(range(node.body[0].lineno, node.end_lineno + 1))
    return set(range(1, text.count("\n") + 2)) - inside


def _function_body_lines(node: ast.AST) -> set[int]:
    """The lines of every function body inside ``node``."""
    lines: set[int] = set()
    for inner in ast.walk(node):
        if isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)) and inner.end_lineno is not None:
            lines.update(range(inner.body[0].lineno, inner.end_lineno + 1))
    return lines


def _names_outside_bodies(statement: ast.stmt, context: type[ast.expr_context]) -> set[str]:
    """The names a top-level statement stores (with the functions and
    classes it defines) or loads, outside the function bodies it holds."""
    bodies = _function_body_lines(statement)
    names = set()
    for node in ast.walk(statement):
        if isinstance(node, ast.Name) and isinstance(node.ctx, context) and node.lineno not in bodies:
            names.add(node.id)
        elif context is ast.Store and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
    return names


def _bound_at_import(statements: list[ast.stmt]) -> list[set[str]]:
    """For each top-level statement, the names it binds, and the names
    bound at import from one of those (KEY_WORDS -> a pattern built from it)."""
    stores = [_names_outside_bodies(statement, ast.Store) for statement in statements]
    loads = [_names_outside_bodies(statement, ast.Load) for statement in statements]
    bound = []
    for index in range(len(statements)):
        names = set(stores[index])
        grown = True
        while grown:
            grown = False
            for other, loaded in enumerate(loads):
                if other != index and not loaded.isdisjoint(names) and not stores[other].issubset(names):
                    names |= stores[other]
                    grown = True
        bound.append(names)
    return bound


def import_time_reach(text: str) -> tuple[dict[int, set[int]], dict[int, set[str]]]:
    """For each line run at import, the function-body lines whose result it
    can change, and the names whose values it can change (see
    _bound_at_import).  The lines read one of those names, or are the
    bodies of the functions it defines: a test that reaches none of them
    runs the same code, mutant or not, once the module is imported, unless
    it reads one of the names itself (cp.SECRET_RULES)."""
    statements = list(ast.parse(text).body)
    bodies = [_function_body_lines(statement) for statement in statements]
    read_at: dict[str, set[int]] = {}
    for statement, inside in zip(statements, bodies, strict=True):
        for node in ast.walk(statement):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.lineno in inside:
                read_at.setdefault(node.id, set()).add(node.lineno)
    users: dict[int, set[int]] = {}
    names: dict[int, set[str]] = {}
    for statement, inside, bound in zip(statements, bodies, _bound_at_import(statements), strict=True):
        lines = inside.union(*(read_at.get(name, set()) for name in bound))
        for line in range(statement.lineno, (statement.end_lineno or statement.lineno) + 1):
            if line not in inside:
                users[line], names[line] = lines, bound
    return users, names


def names_read_by_tests(tree: str) -> dict[str, set[str]]:
    """For each test class or test function under ``tree``/tests (keyed as
    its node ids start: tests/x.py::TestClass), the names and attributes its
    code reads, with those read by the helpers of its file that it names."""
    found: dict[str, set[str]] = {}
    for path in sorted(glob.glob(os.path.join(tree, "tests", "test_*.py"))):
        with open(path, encoding="utf-8") as handle:
            module = ast.parse(handle.read())
        helpers: dict[str, set[str]] = {}
        for statement in module.body:
            read = {n.id for n in ast.walk(statement) if isinstance(n, ast.Name)}
            read |= {n.attr for n in ast.walk(statement) if isinstance(n, ast.Attribute)}
            for name in _names_outside_bodies(statement, ast.Store):
                helpers.setdefault(name, set()).update(read)
        relative = os.path.relpath(path, tree).replace(os.sep, "/")
        for statement in module.body:
            if isinstance(statement, (ast.ClassDef, ast.FunctionDef)):
                names, grown = set(helpers[statement.name]), True
                while grown:
                    more = set().union(*(helpers.get(name, set()) for name in names)) - names
                    names |= more
                    grown = bool(more)
                found[f"{relative}::{statement.name}"] = names
    return found


def memo_caches(text: str) -> list[str]:
    """The module's memo caches: private names bound at import to an empty
    list or dict (_secret_scanner_cache: list[...] = []), filled on first use."""
    names = []
    for statement in ast.parse(text).body:
        target: ast.expr | None = None
        value: ast.expr | None = None
        if isinstance(statement, ast.AnnAssign):
            target, value = statement.target, statement.value
        elif isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target, value = statement.targets[0], statement.value
        empty = (isinstance(value, ast.List) and not value.elts) or (isinstance(value, ast.Dict) and not value.keys)
        if isinstance(target, ast.Name) and target.id.startswith("_") and empty:
            names.append(target.id)
    return names


# Loaded by the hook in each process that runs the module: records, per
# test name, every line of TARGET executed, and writes them when it exits.
REACH_RECORDER = """
import atexit, json, os, sys, threading


def _c_tracer_module():
    # coverage.py's C tracer (MUTATION_REACH_TRACER names its file) loaded
    # on its own: importing coverage costs a child 60 ms, its data more.
    import importlib.machinery, importlib.util
    path = os.environ.get("MUTATION_REACH_TRACER", "")
    if not path.endswith(importlib.machinery.EXTENSION_SUFFIXES[0]) or not os.path.isfile(path):
        return None  # not built for this interpreter (a child under another CPython)
    loader = importlib.machinery.ExtensionFileLoader("tracer", path)
    module = importlib.util.module_from_spec(importlib.util.spec_from_file_location("tracer", path, loader=loader))
    loader.exec_module(module)
    return module


class _Recorder:
    def __init__(self):
        self.test = os.environ.get("MUTATION_REACH_TEST", "?")
        self.lines = {}
        self.data = {}
        self.cache = {}
        # The module's memo caches, emptied at each switch (see switch).
        self.memos = [name for name in os.environ.get("MUTATION_REACH_MEMOS", "").split(",") if name]
        self.target = None
        try:
            self.module = _c_tracer_module()
        except Exception:
            self.module = None
        if self.module is not None:
            self.tracers = []
            sys.settrace(self._start())
            threading.settrace(self._install)
        else:
            sys.settrace(self._global)
            threading.settrace(self._global)
        atexit.register(self.save)

    def _should_trace(self, filename, frame):
        disposition = self.module.CFileDisposition()
        disposition.original_filename = disposition.canonical_filename = filename
        disposition.source_filename = filename
        disposition.trace = filename == TARGET
        disposition.reason = ""
        disposition.file_tracer = None
        disposition.has_dynamic_filename = False
        return disposition

    def _start(self):
        tracer = self.module.CTracer()
        tracer.data = self.data
        tracer.lock_data = tracer.unlock_data = lambda: None
        tracer.trace_arcs = False
        tracer.should_trace = self._should_trace
        tracer.should_trace_cache = self.cache
        tracer.warn = lambda *args, **kwargs: None
        tracer.file_tracers = {}
        tracer.concur_id_func = None
        tracer.check_include = tracer.should_start_context = tracer.switch_context = tracer.disable_plugin = None
        self.tracers.append(tracer)
        return tracer.start()

    def _install(self, frame, event, arg):
        sys.settrace(None)
        traced = self._start()
        return traced(frame, event, arg) if traced else None

    def _global(self, frame, event, arg):
        return self._local if frame.f_code.co_filename == TARGET else None

    def _local(self, frame, event, arg):
        if event == "line":
            self.lines.setdefault(self.test, set()).add(frame.f_lineno)
        return self._local

    def _collect(self):
        # The tracers keep adding to the same sets: emptied in place.
        for lines in self.data.values():
            self.lines.setdefault(self.test, set()).update(lines)
            lines.clear()

    def switch(self, test):
        self._collect()
        self.test = test
        # The module's memo caches emptied: what is built once per process
        # (the secret table's regexes) counts for every test that uses it,
        # not only for the first.
        if self.target is None:
            self.target = next((m for m in list(sys.modules.values()) if getattr(m, "__file__", None) == TARGET), None)
        for name in self.memos:
            getattr(self.target, name, {}).clear()

    def save(self):
        self._collect()
        found = {test: sorted(lines) for test, lines in self.lines.items() if lines}
        name = os.path.join(os.environ["MUTATION_REACH_DIR"], "reach-%d-%s.json" % (os.getpid(), os.urandom(4).hex()))
        with open(name, "w", encoding="utf-8") as handle:
            json.dump(found, handle)

if getattr(sys, "_mutation_reach", None) is None:
    sys._mutation_reach = _Recorder()
"""

# The pytest plug-in that names the running test, in the process and to its
# children (TIMING_PLUGIN is added to it: one run gives the map and the timings).
REACH_PLUGIN = """
import os
import sys

import pytest


def _name(name):
    os.environ["MUTATION_REACH_TEST"] = name
    recorder = getattr(sys, "_mutation_reach", None)
    if recorder is not None:
        recorder.switch(name)


# Set-up and tear-down run for the whole class (setUpClass runs in its first
# test's set-up): what they reach is named after the class, as _test_class
# names it, the call after the test.
def _class_of(item):
    return "::".join(item.nodeid.split("::")[:2])


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    _name(_class_of(item))


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_call(item):
    _name(item.nodeid)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_teardown(item, nextitem):
    _name(_class_of(item))


def pytest_runtest_logfinish(nodeid, location):
    _name("?")
"""


def merge_reach(files: Sequence[str]) -> dict[str, list[int]]:
    """The recorders' files merged: each test's lines, sorted."""
    merged: dict[str, set[int]] = {}
    for path in files:
        with open(path, encoding="utf-8") as handle:
            for test, lines in json.load(handle).items():
                merged.setdefault(test, set()).update(lines)
    return {test: sorted(lines) for test, lines in sorted(merged.items())}


def measure_reach(
    python: str, tree: str, env: dict[str, str], tests: Sequence[str], *, workers: int = 1
) -> tuple[dict[str, list[int]], Timings]:
    """Run ``tests`` once in ``tree`` with the hooked module: which lines each
    test reached, and each test's seconds and outcome (one run for both); in
    ``workers`` processes where pytest-xdist is installed."""
    module = os.path.join(tree, MODULE_NAME)
    with open(module, encoding="utf-8", newline="") as handle:
        text = handle.read()
    out = tempfile.mkdtemp(prefix="mutation-reach-")
    try:
        with open(os.path.join(out, "mutation_reach_plugin.py"), "w", encoding="utf-8") as handle:
            handle.write(REACH_PLUGIN + TIMING_PLUGIN)
        with open(os.path.join(tree, REACH_HOOK_NAME), "w", encoding="utf-8") as handle:
            handle.write(REACH_RECORDER)
        _write(module, hooked_text(text))
        timings_path = os.path.join(out, "timings.json")
        reach_env = dict(
            env, PYTHONPATH=out, MUTATION_REACH_DIR=out, MUTATION_REACH_TEST=NO_TEST, MUTATION_TIMINGS=timings_path
        )
        tracer = subprocess.run(
            [python, "-c", "import coverage.tracer as t; print(t.__file__)"], check=False, capture_output=True
        )
        if tracer.returncode == 0:
            reach_env["MUTATION_REACH_TRACER"] = tracer.stdout.decode().strip()
        reach_env["MUTATION_REACH_MEMOS"] = ",".join(memo_caches(text))
        command = [python, *PYTEST, "-p", "mutation_reach_plugin", *tests]
        if (
            workers > 1
            and subprocess.run([python, "-c", "import xdist"], check=False, capture_output=True).returncode == 0
        ):
            command[-len(tests) : -len(tests)] = ["-n", str(workers)]
        subprocess.run(command, check=False, cwd=tree, env=reach_env, stdin=subprocess.DEVNULL, capture_output=True)
        with open(timings_path, encoding="utf-8") as handle:
            found = json.load(handle)
        reach = merge_reach(glob.glob(os.path.join(out, "reach-*.json")))
    finally:
        _write(module, text)
        os.unlink(os.path.join(tree, REACH_HOOK_NAME))
        shutil.rmtree(out, ignore_errors=True)
    # A test that failed only for being traced (a bound on CPU time) is kept:
    # its reach was recorded all the same.
    failing = [test for test in found["failing"] if command_failure([python, *PYTEST, test], tree, env, 600)]
    return reach, Timings(found["seconds"], failing)


@dataclass
class Reach:
    """Which tests reach each line, which function lines and names each
    line run at import can change (import_time_reach),
    which names each test reads itself (names_read_by_tests), the
    lines reached where no test was named, and each test's seconds (to run
    the fastest first and bound the stage)."""

    tests_by_line: dict[int, set[str]]
    users: dict[int, set[int]]
    unnamed: set[int]
    seconds: dict[str, float]
    python: str
    names: dict[int, set[str]]
    read_by_test: dict[str, set[str]]

    @classmethod
    def build(
        cls,
        reach: dict[str, list[int]],
        text: str,
        timings: Timings,
        python: str,
        named: dict[str, set[str]] | None = None,
    ) -> Reach:
        by_class: dict[str, list[str]] = {}
        for test in timings.seconds:
            if test not in timings.failing:
                by_class.setdefault(_test_class(test), []).append(test)
        classes = {_test_class(test) for test in timings.seconds}
        by_line: dict[int, set[str]] = {}
        for name, lines in reach.items():
            # A class's name: what its set-up and tear-down reached, for each of its tests.
            for test in by_class.get(name, []) if name in classes else [name]:
                if test != NO_TEST and test not in timings.failing:
                    for line in lines:
                        by_line.setdefault(line, set()).add(test)
        unnamed = set(reach.get(NO_TEST, []))
        read = {t: (named or {}).get(_test_class(t), set()) for t in timings.seconds if t not in timings.failing}
        users, names = import_time_reach(text)
        return cls(by_line, users, unnamed, timings.seconds, python, names, read)

    def stages_for(self, line: int, staged: list[Stage]) -> list[Stage]:
        """One stage of the tests that reach the line (for a line run at
        import, the lines it can change, and the tests that read what it
        binds), fastest first; none when no test does; the whole staged
        suite where that cannot be told: a line reached where no test was
        named, or one run at import that neither a function nor a test reads."""
        lines = self.users.get(line, {line})
        found = {test for reached in lines for test in self.tests_by_line.get(reached, [])}
        bound = self.names.get(line, set())
        found |= {test for test, read in self.read_by_test.items() if not bound.isdisjoint(read)}
        if (line in self.users and not found) or not self.unnamed.isdisjoint(lines):
            return staged
        tests = sorted(found, key=lambda t: (self.seconds.get(t, TIMEOUT_FLOOR_SECONDS), t))
        if not tests:
            return []
        took = sum(self.seconds.get(t, TIMEOUT_FLOOR_SECONDS) for t in tests)
        command = ["env", f"{PARTIAL_RUN_VARIABLE}=1", self.python, *PYTEST, "-x", *tests]
        return [Stage("reach", [command], _stage_timeout(took), len(tests))]


def tree_fingerprint(tree: str, *arguments: str) -> str:
    """A digest of what a reach map depends on: every file of the tree the
    suite runs in (the module, the tests, the fixtures and documents they
    read), the recorder, and ``arguments`` (the interpreter, the tests run)."""
    digest = hashlib.sha256("\0".join([REACH_RECORDER, REACH_PLUGIN, TIMING_PLUGIN, *arguments]).encode())
    for folder, directories, files in os.walk(tree):
        directories[:] = sorted(name for name in directories if name != "__pycache__")
        for name in sorted(files):
            path = os.path.join(folder, name)
            with open(path, "rb") as handle:
                content = hashlib.sha256(handle.read()).digest()
            digest.update(os.path.relpath(path, tree).encode("utf-8", "surrogateescape") + b"\0" + content)
    return digest.hexdigest()


def load_reach(
    path: str, python: str, tree: str, env: dict[str, str], tests: Sequence[str], *, workers: int = 1
) -> tuple[dict[str, list[int]], Timings]:
    """The reach map and timings from ``path`` when it was made from the
    same module and tests, else measured (and saved there)."""
    fingerprint = tree_fingerprint(tree, python, *tests)
    if os.path.exists(path):
        with open(path, encoding="utf-8") as handle:
            found = json.load(handle)
        if found.get("fingerprint") == fingerprint:
            return found["reach"], Timings(found["seconds"], found["failing"])
        print(f"{path} was made from another module or other tests: made again", flush=True)
    reach, timings = measure_reach(python, tree, env, tests, workers=workers)
    with open(path, "w", encoding="utf-8") as handle:
        saved = {"fingerprint": fingerprint, "reach": reach, "seconds": timings.seconds, "failing": timings.failing}
        json.dump(saved, handle, indent=0, sort_keys=True)
    return reach, timings


def _write(module: str, text: str) -> None:
    with open(module, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)
    _clear_bytecode(os.path.dirname(module))


def summary_lines(verdicts: list[Verdict], sample: Sample, seed: int) -> list[str]:
    killed = sum(v.killed for v in verdicts)
    total = len(verdicts)
    timed_out = sum(v.killed and v.killer == "time-out" for v in verdicts)
    unreached = sum(v.stage == UNREACHED for v in verdicts)
    unconfirmed = sum(v.stage == UNCONFIRMED for v in verdicts)
    low, high = wilson_interval(killed, total)
    score = killed / total if total else 0.0
    lines = [
        f"seed {seed}: {sample.candidates} candidate mutants; sampled {total}, "
        f"skipped {sample.skipped} (do not compile), dropped {sample.equivalent} (equivalent code)",
        f"killed {killed}/{total}: score {score:.1%}, 95% Wilson interval {low:.1%} to {high:.1%}",
        f"of the kills, {killed - timed_out} by a failing test and {timed_out} by a time-out;"
        f" {unreached} of the survivors reached by no test, {unconfirmed} failed a test that fails unchanged too",
        f"mean {sum(v.seconds for v in verdicts) / max(total, 1):.1f}s per mutant,"
        f" {sum(v.seconds for v in verdicts):.0f}s in all",
        f"survivors ({total - killed}):",
    ]
    lines += ["  " + v.log_line() for v in verdicts if not v.killed]
    return lines


def _parse_lines(spec: str) -> set[int]:
    lines: set[int] = set()
    for part in spec.split(","):
        first, _, last = part.partition("-")
        lines.update(range(int(first), int(last or first) + 1))
    return lines


def parse_arguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("-n", "--count", type=int, default=200, help="mutants to sample (default 200)")
    parser.add_argument("--seed", type=int, default=17, help="the sample's seed (default 17)")
    parser.add_argument("-j", "--jobs", type=int, default=1, choices=(1, 2), help="mutants run at once (default 1)")
    parser.add_argument("--repo", default=REPOSITORY, help="the repository to copy (default: this one)")
    parser.add_argument("--python", default=DEFAULT_PYTHON, help="the interpreter with pytest and Graphify")
    parser.add_argument("--log", help="the log file (default: mutation-sample-SEED.log in the temp directory)")
    parser.add_argument("--timings", help="per-test timings: read when the file exists, else measured and saved")
    parser.add_argument("--lines", help="only mutants on these lines, e.g. 95,450-460 (to check a pinning test)")
    parser.add_argument("--no-ci-steps", action="store_true", help="skip the smoke, benchmark and other Pythons")
    parser.add_argument(
        "--tests", nargs="+", metavar="TEST", help="run only these pytest paths or node ids (to check pinning tests)"
    )
    parser.add_argument("--list", action="store_true", help="print the sample's mutants and run nothing")
    parser.add_argument(
        "--reach",
        help="per-test reach map: read when the file exists, else measured and saved; each mutant then runs"
        " only the tests that reach its line (no .ci/run steps)",
    )
    return parser.parse_args(argv)


def print_sample(sample: Sample) -> None:
    for index, mutant in sample.mutants:
        print(f"#{index:05d} line {mutant.line} col {mutant.column} {mutant.kind:<10} {mutant.describe()}")
    print(
        f"{len(sample.mutants)} of {sample.candidates} candidates; "
        f"skipped {sample.skipped}, equivalent {sample.equivalent}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_arguments(sys.argv[1:] if argv is None else argv)
    with open(os.path.join(args.repo, MODULE_NAME), encoding="utf-8", newline="") as handle:
        text = handle.read()
    sample = draw_sample(text, args.count, args.seed, _parse_lines(args.lines) if args.lines else None)
    if args.list:
        print_sample(sample)
        return 0
    log_path = args.log or os.path.join(tempfile.gettempdir(), f"mutation-sample-{args.seed}.log")
    workspace = tempfile.mkdtemp(prefix="mutation-sample-")
    try:
        trees = [os.path.join(workspace, f"tree{worker}") for worker in range(args.jobs)]
        for tree in trees:
            shutil.copytree(args.repo, tree, ignore=IGNORED_NAMES, symlinks=True)
        env = _environment(args.python)
        reach = None
        if args.reach:
            # One run of the suite gives the map, the timings and the tests
            # that fail on the unchanged tree; the stages are not run again.
            started = time.monotonic()
            tests = args.tests or ["tests/"]
            mapped, timings = load_reach(args.reach, args.python, trees[0], env, tests, workers=args.jobs)
            reach = Reach.build(mapped, text, timings, args.python, names_read_by_tests(trees[0]))
            stages = build_stages(args.python, timings, collected_tests(args.python, trees[0], env))
            failing = list(timings.failing)
            print(f"reach map: {len(mapped)} tests, {time.monotonic() - started:.0f}s", flush=True)
        else:
            stages, failing = _stages_for(args, trees[0], env)
        if not (args.no_ci_steps or args.tests or args.reach):
            ci_stage, ci_failing = ci_steps_stage(args.python, trees[0], env)
            stages.append(ci_stage)
            failing += ci_failing
        with open(log_path, "w", encoding="utf-8") as log:
            log.write(baseline_lines(stages, failing))
            verdicts = run_sample(sample, Plan(text, stages, env, reach), trees, log)
            summary = summary_lines(verdicts, sample, args.seed)
            log.write("\n".join(summary) + "\n")
        print("\n".join(summary))
        print(f"log: {log_path}")
        return 0
    finally:
        shutil.rmtree(workspace, ignore_errors=True)


def _stages_for(args: argparse.Namespace, tree: str, env: dict[str, str]) -> tuple[list[Stage], list[str]]:
    """The chosen tests as one stage, timed on the unchanged tree; or the
    whole suite in its fast and slow stages."""
    if args.tests:
        command = [args.python, *PYTEST, "-x", *args.tests]
        started = time.monotonic()
        if not run_command(command, tree, env, timeout=3600):
            raise SystemExit("the chosen tests fail on the unchanged tree")
        return [Stage("chosen", [command], _stage_timeout(time.monotonic() - started), len(args.tests))], []
    timings = load_timings(args.timings, args.python, tree, env)
    stages = build_stages(args.python, timings, collected_tests(args.python, tree, env))
    verify_stages(stages, tree, env)
    return stages, list(timings.failing)


def baseline_lines(stages: list[Stage], failing: list[str]) -> str:
    lines = [f"stage {s.name}: {s.size} tests or steps, time-out {s.timeout:.0f}s" for s in stages]
    lines += [f"left out (fails on the unchanged tree): {name}" for name in failing]
    return "\n".join(lines) + "\n"


def run_sample(sample: Sample, plan: Plan, trees: list[str], log: io.TextIOBase) -> list[Verdict]:
    """Each mutant in a free tree, as many at once as there are trees;
    verdicts come back in sample order, log lines as they finish."""
    free_trees = list(trees)
    lock = threading.Lock()

    def one(item: tuple[int, Mutant]) -> Verdict:
        with lock:
            tree = free_trees.pop()
        try:
            verdict = run_mutant(tree, plan, item[0], item[1])
        finally:
            with lock:
                free_trees.append(tree)
        with lock:
            log.write(verdict.log_line() + "\n")
            log.flush()
            print(verdict.log_line(), flush=True)
        return verdict

    with concurrent.futures.ThreadPoolExecutor(max_workers=len(trees)) as pool:
        return list(pool.map(one, sample.mutants))


if __name__ == "__main__":
    raise SystemExit(main())
