"""Shared helpers for the adapter's test suites (stdlib only)."""

from __future__ import annotations

import copy
import hashlib
import json
import os
import random
import shutil
import signal
import string
import subprocess
import sys
import tempfile
import unittest
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MODULE = os.path.join(ROOT, "conversation_projection.py")
RUNNER = os.path.join(HERE, "run_with_standin.py")
FIXTURE = os.path.join(ROOT, "fixtures", "conversation-selection.json")
SCHEMA = os.path.join(ROOT, "fixtures", "selection.schema.json")
sys.path[:0] = [ROOT, HERE]

import secret_samples  # noqa: E402
import standin_graphify  # noqa: E402

import conversation_projection as cp  # noqa: E402

ALWAYS_KEYS = {
    "result",
    "code",
    "exitCode",
    "contextGraph",
    "embeddingIdentity",
    "projectionSchemaVersion",
    "adapterVersion",
    "graphifyVersion",
}
SUCCESS_KEYS = ALWAYS_KEYS | {
    "selectionRevision",
    "selectionDigest",
    "branches",
    "sources",
    "summaries",
    "edges",
    "tombstones",
}
# What built and checked add: what the selection listed but the graph left out.
LEFT_OUT_KEYS = {"withheldBranches", "missingParents"}
# And what the update changed against the state before it.
CHANGE_KEYS = {"branchesAdded", "branchesChanged", "branchesTombstoned", "branchesRestored"}
# The exact keys of each success.
SUCCESS_KEYS_BY_CODE = {
    "built": SUCCESS_KEYS | LEFT_OUT_KEYS | CHANGE_KEYS | {"graphSha256", "summaryParts"},
    "checked": SUCCESS_KEYS | LEFT_OUT_KEYS | CHANGE_KEYS | {"summaryParts"},
    "verified": SUCCESS_KEYS | {"graphSha256", "summaryParts"},
}
# CI sets this so that a missing dev tool fails instead of skipping.
REQUIRE_DEV_TOOLS = os.environ.get("CP_REQUIRE_DEV_TOOLS") == "1"


def _can_symlink() -> bool:
    """Windows refuses symlinks without a privilege: those tests then skip."""
    if not hasattr(os, "symlink"):
        return False
    probe = tempfile.mkdtemp(prefix="cp-symlink-")
    try:
        os.symlink(probe, os.path.join(probe, "link"))
    except OSError:
        return False
    finally:
        shutil.rmtree(probe, ignore_errors=True)
    return True


CAN_SYMLINK = _can_symlink()


def fixture() -> dict[str, Any]:
    with open(FIXTURE, encoding="utf-8") as handle:
        loaded: dict[str, Any] = json.load(handle)
    return loaded


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def summary(summary_id: str, text: str, role: str = "user", **extra: Any) -> dict[str, Any]:
    return dict({"summaryId": summary_id, "role": role, "kind": "summary", "approved": True, "text": text}, **extra)


def branch(
    branch_id: str,
    source_revision: int = 1,
    parent: str | None = None,
    sources: Sequence[str] = (),
    summaries: Sequence[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    built: dict[str, Any] = {
        "branchId": branch_id,
        "sourceRevision": source_revision,
        "sources": [{"refId": ref, "sha256": sha(ref)} for ref in sources],
        "summaries": list(summaries) if summaries is not None else [summary("s1", f"Summary of {branch_id}.")],
    }
    if parent is not None:
        built["parentBranchId"] = parent
    return built


def selection(revision: int, branches: Sequence[dict[str, Any]], corpus: str = "demo", **extra: Any) -> dict[str, Any]:
    return dict(
        {"schemaVersion": 1, "corpusId": corpus, "revision": revision, "branches": copy.deepcopy(list(branches))},
        **extra,
    )


def encode(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode("utf-8")


def rehashed_as_written(data: bytes) -> bytes:
    """State bytes with their ledger digest recomputed over them as written,
    as anyone who edits them can: the digest is no signature."""
    start = data.index(b',"ledgerSha256":"')
    digest_start = start + len(b',"ledgerSha256":"')
    rehashed = hashlib.sha256(data[:start] + data[digest_start + 65 : -1]).hexdigest().encode()
    return data[:digest_start] + rehashed + data[digest_start + 64 :]


def child_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "COVERAGE"))}
    env.update(extra)
    return env


# The signals the adapter handles, where the platform has them.
HANDLED_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


def _signals_by_default() -> None:
    for signum in HANDLED_SIGNALS:
        signal.signal(signum, signal.SIG_DFL)


# For a child whose signal handling is under test (``preexec_fn``): the
# dispositions a shell's foreground job gets, whatever this runner was
# started with (a shell's background job starts with SIGINT ignored, and the
# adapter rightly keeps an ignored signal ignored).  Windows has no preexec_fn.
SIGNALS_BY_DEFAULT = _signals_by_default if os.name == "posix" else None


def changes_of(result: Any) -> tuple[int, int, int, int]:
    """A success's four change counts: added, changed, tombstoned, restored."""
    counts = result.json if hasattr(result, "json") else result
    return (
        counts["branchesAdded"],
        counts["branchesChanged"],
        counts["branchesTombstoned"],
        counts["branchesRestored"],
    )


class Result:
    def __init__(self, completed: subprocess.CompletedProcess[bytes]) -> None:
        self.returncode = completed.returncode
        self.stdout = completed.stdout
        self.stderr = completed.stderr
        lines = completed.stdout.decode("utf-8").splitlines()
        self.lines = lines
        self.json: dict[str, Any] = json.loads(lines[0]) if len(lines) == 1 else {}

    @property
    def code(self) -> str | None:
        value = self.json.get("code")
        return value if isinstance(value, str) else None


def run_module(args: Sequence[str], env: dict[str, str] | None = None, timeout: float = 60) -> Result:
    """The real command line: python -I conversation_projection.py ARGS."""
    completed = subprocess.run(
        [sys.executable, "-I", MODULE, *args], capture_output=True, env=env or child_env(), timeout=timeout
    )
    return Result(completed)


def run_standin(
    args: Sequence[str], mode: str = "ok", env: dict[str, str] | None = None, timeout: float = 60
) -> Result:
    """The command line with the Graphify stand-in injected through main()."""
    completed = subprocess.run(
        [sys.executable, "-I", RUNNER, mode, *args], capture_output=True, env=env or child_env(), timeout=timeout
    )
    return Result(completed)


# Adapter 0.1.0 exactly as released: it writes the schema-1 states that the
# migration is tested on.
RELEASED_MODULE = os.path.join(HERE, "released", "conversation_projection_0_1_0.py")


def run_released(args: Sequence[str], python: str = sys.executable, env: dict[str, str] | None = None) -> Result:
    """Adapter 0.1.0's own entry point, a fresh process.  It commits
    state.json before it imports Graphify, so its state is the same whether
    Graphify is installed (built) or not (graphify_missing)."""
    completed = subprocess.run(
        [python, "-I", RELEASED_MODULE, *args], capture_output=True, env=env or child_env(), timeout=120
    )
    return Result(completed)


def _pyenv_executables(version: str, name: str) -> list[str]:
    """pyenv's interpreters whose version matches the glob ``version``."""
    import glob

    root = os.environ.get("PYENV_ROOT") or os.path.join(os.path.expanduser("~"), ".pyenv")
    return sorted(glob.glob(os.path.join(root, "versions", version, "bin", name)))


def released_pythons() -> dict[int, str]:
    """The CPythons 3.11 to 3.13 (the ones adapter 0.1.0 supported) on the
    machine, by minor version: this one, then pyenv's."""
    found: dict[int, str] = {}
    if sys.implementation.name == "cpython" and (3, 11) <= sys.version_info[:2] <= (3, 13):
        found[sys.version_info[1]] = sys.executable
    for minor in (11, 12, 13):
        for candidate in _pyenv_executables(f"3.{minor}.*", "python"):
            if minor not in found and os.access(candidate, os.X_OK):
                found[minor] = candidate
    return found


def every_cpython() -> dict[str, str]:
    """Every CPython 3.11+ on the machine, one executable per exact version
    (3.11.2 and 3.11.7 both count: a patch release can fix the regular
    expression engine): this one, those on PATH and in /usr/bin, pyenv's."""
    import shutil

    candidates = [sys.executable]
    for minor in range(11, 20):
        candidates += [shutil.which(f"python3.{minor}") or "", f"/usr/bin/python3.{minor}"]
    candidates += _pyenv_executables("3.*", "python3")
    found: dict[str, str] = {}
    for candidate in candidates:
        if not candidate or not os.access(candidate, os.X_OK):
            continue
        probe = "import platform, sys; assert sys.implementation.name == 'cpython' and sys.version_info >= (3, 11); "
        probe += "print(platform.python_version())"
        answer = subprocess.run([candidate, "-I", "-c", probe], capture_output=True, text=True, timeout=60)
        if answer.returncode == 0:
            found.setdefault(answer.stdout.strip(), candidate)
    return found


def run_standin_under(python: str, args: Sequence[str], mode: str = "ok") -> Result:
    """run_standin with another interpreter: the module and the stand-in
    are standard library only."""
    completed = subprocess.run([python, "-I", RUNNER, mode, *args], capture_output=True, env=child_env(), timeout=120)
    return Result(completed)


def blocked_graphify_command(workdir: str) -> list[str]:
    """The module's own entry point, run where `import graphify` fails even
    if Graphify is installed: a shadowing graphify.py that raises."""
    blocker = os.path.join(workdir, "block")
    os.mkdir(blocker)
    with open(os.path.join(blocker, "graphify.py"), "w") as handle:
        handle.write("raise ImportError('blocked for this test')\n")
    wrapper = os.path.join(workdir, "blocked_main.py")
    with open(wrapper, "w") as handle:
        handle.write(
            "import sys, runpy\n"
            f"sys.path.insert(0, {blocker!r})\n"
            f"sys.argv = [{MODULE!r}] + sys.argv[1:]\n"
            f"runpy.run_path({MODULE!r}, run_name='__main__')\n"
        )
    return [sys.executable, "-I", wrapper]


def snapshot_tree(root: str) -> dict[str, tuple[int, bytes | None]]:
    """Every entry under root with its mode and, for files, its bytes."""
    found: dict[str, tuple[int, bytes | None]] = {}
    if not os.path.lexists(root):
        return found
    for current, dirs, files in os.walk(root):
        for name in dirs + files:
            path = os.path.join(current, name)
            st = os.lstat(path)
            content = None
            if os.path.isfile(path) and not os.path.islink(path):
                with open(path, "rb") as handle:
                    content = handle.read()
            found[os.path.relpath(path, root)] = (st.st_mode, content)
    return found


T = TypeVar("T")

try:
    import resource
except ImportError:  # Windows: a child's CPU time is not measured there
    resource = None  # type: ignore[assignment]

# The bounds on CPU time hold on the project's machine, idle, under a
# release build of CPython (Debian's 3.11), where this fixed standard-library
# work of the kinds a judgement does (JSON, NFKC, re, SHA-256, a Python
# loop) costs REFERENCE_CPU_SECONDS.  A shared machine can run everything
# half again or twice as slowly for minutes, and interpreters built without
# profile-guided optimization are slower too: a run over its bound is then
# judged by its cost against this work's, run in turn with it.
REFERENCE_WORK = """
import hashlib, json, re, time, unicodedata
started = time.process_time()
words = "reviewed the nightly backup plan moved key rotation to friday and kept one restore test per quarter".split()
texts = [" ".join(words[(i * 7 + k) % len(words)] + str(k % 10) for k in range(300))[:2000] for i in range(1000)]
data = json.dumps({"branches": [{"branchId": f"b{i}", "summaries": [{"text": t}]} for i, t in enumerate(texts)]})
value = json.loads(data.encode())
hashlib.sha256(json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()).hexdigest()
pattern = re.compile(r"(?i)\\b(?:pass(?:word)?|token|secret|key)\\w*\\s*[=:]\\s*(\\S{8,})|\\b[a-z]+\\d\\b")
found = 0
for entry in value["branches"]:
    for item in entry["summaries"]:
        text = unicodedata.normalize("NFKC", item["text"])
        found += len(pattern.findall(text)) + sum(1 for word in text.split() if word.isalpha())
print(time.process_time() - started)
"""
REFERENCE_CPU_SECONDS = 0.21
# A run over its bound is judged with this many runs of it, each followed by the reference work.
REFERENCE_PAIRS = 3


def children_cpu_seconds(action: Callable[[], T]) -> tuple[T, float]:
    """What ``action`` returns, and the CPU seconds (user + system) of the
    child processes it waited for (not on Windows)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    value = action()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return value, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def reference_cpu_seconds(python: str) -> float:
    """The CPU seconds REFERENCE_WORK takes now under ``python``, in a fresh
    process that times itself (start-up left out)."""
    done = subprocess.run([python, "-I", "-c", REFERENCE_WORK], capture_output=True, check=True)
    return float(done.stdout)


def assert_within_cpu_bound(
    test: unittest.TestCase, run: Callable[[], float], bound: float, python: str = sys.executable
) -> None:
    """``run`` does the timed work once and returns its CPU seconds.  It
    passes under ``bound``; over it, that run and REFERENCE_PAIRS - 1 more
    are each followed by REFERENCE_WORK, and the median of the ratios must
    stay under ``bound / REFERENCE_CPU_SECONDS``: the bound on the reference
    machine, whatever the speed of this one."""
    spent = run()
    if spent < bound:
        return
    ratios = [spent / reference_cpu_seconds(python)]
    ratios += [run() / reference_cpu_seconds(python) for _pair in range(REFERENCE_PAIRS - 1)]
    ratio = sorted(ratios)[len(ratios) // 2]
    test.assertLess(
        ratio,
        bound / REFERENCE_CPU_SECONDS,
        f"{spent:.3f} s of CPU, then a median of {ratio:.2f} times the reference work"
        f" (at most {bound} s at {REFERENCE_CPU_SECONDS} s each)",
    )


class TempDirTestCase(unittest.TestCase):
    """Each test in its own real (symlink-free) temporary directory."""

    def setUp(self) -> None:
        self.tmp = os.path.realpath(tempfile.mkdtemp(prefix="cp-test-"))
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)
        self.state = os.path.join(self.tmp, "state")

    def write_selection(self, value: Any, name: str = "selection.json") -> str:
        path = os.path.join(self.tmp, name)
        data = value if isinstance(value, bytes) else encode(value)
        with open(path, "wb") as handle:
            handle.write(data)
        return path

    def run_cli(self, args: Sequence[str], mode: str) -> Result:
        """How updates run: the stand-in here; the smoke uses real Graphify."""
        return run_standin(args, mode)

    def project(self, value: Any, mode: str = "ok", state: str | None = None) -> Result:
        return self.run_cli(["--state-root", state or self.state, "--selection", self.write_selection(value)], mode)

    def rebuild(self, mode: str = "ok", state: str | None = None) -> Result:
        return self.run_cli(["--state-root", state or self.state], mode)

    def verify(self, state: str | None = None) -> Result:
        return run_module(["--state-root", state or self.state, "--verify"])

    def read(self, name: str, state: str | None = None) -> bytes:
        with open(os.path.join(state or self.state, name), "rb") as handle:
            return handle.read()

    def entries(self, state: str | None = None) -> list[str]:
        return sorted(os.listdir(state or self.state))

    def assertResult(
        self,
        result: Result,
        code: str,
        exit_code: int | None = None,
        *,
        at: str | None = None,
        rule: str | None = None,
        withdrawn: bool = False,
        secret_fields: int | None = None,
        stop: tuple[int, int] | None = None,
        more: dict[str, Any] | None = None,
    ) -> None:
        """The one line, its code and exit, and exactly the keys it must have:
        ``at``, ``rule``, ``withdrawn`` and the keys of ``more`` (with those
        values) are present only when expected; ``secretFields`` on every
        selection_secret (1 unless told); a malformed selection always says
        where it stops (``stop``: the line and column expected, when
        given)."""
        expected_exit = cp.CODES[code] if exit_code is None else exit_code
        self.assertEqual(result.stderr, b"", "stderr must stay empty")
        self.assertEqual(len(result.lines), 1, "exactly one result line")
        self.assertEqual(result.code, code)
        self.assertEqual(result.returncode, expected_exit)
        self.assertEqual(result.json["exitCode"], expected_exit)
        keys = set(result.json)
        for key, value in (more or {}).items():
            self.assertEqual(result.json.get(key), value, key)
        if expected_exit == 0:
            self.assertEqual(keys, SUCCESS_KEYS_BY_CODE[code] | set(more or {}))
        else:
            expected = ALWAYS_KEYS | set(more or {})
            if code == "selection_secret" and secret_fields is None:
                secret_fields = 1
            for key, value in (
                ("at", at),
                ("rule", rule),
                ("withdrawn", withdrawn or None),
                ("secretFields", secret_fields),
            ):
                if value is not None:
                    expected.add(key)
                    self.assertEqual(result.json[key], value, key)
            if code == "selection_malformed":
                expected |= {"line", "column"}
                if stop is not None:
                    self.assertEqual((result.json["line"], result.json["column"]), stop)
            self.assertEqual(keys, expected)
        line = result.lines[0]
        self.assertEqual(line, json.dumps(json.loads(line), sort_keys=True, separators=(",", ":")))


@contextmanager
def umask(value: int) -> Iterator[None]:
    previous = os.umask(value)
    try:
        yield
    finally:
        os.umask(previous)


# What graphify query, path and explain do after they answer: Graphify's own
# _touch_query_stamp, which writes cache/last_query_stamp beside the graph
# through a cache/.gfy-XXXXXXXX.tmp.  The loop runs it until its stdin
# closes (or the bound), then prints how many stamps it wrote.
QUERY_STAMP_LOOP = """
import select, sys
from graphify.cli import _touch_query_stamp
graph, bound = sys.argv[1], int(sys.argv[2])
print("ready", flush=True)
count = 0
while count < bound and not select.select([sys.stdin], [], [], 0)[0]:
    _touch_query_stamp(graph)
    count += 1
print(count, flush=True)
"""
# The same stamp, the query killed inside its write: the temporary is
# written, and SIGKILL comes where it would be given its mode, before the
# rename.
KILLED_QUERY = """
import os, signal, sys
from graphify.cli import _touch_query_stamp
os.chmod = lambda *args, **kwargs: os.kill(os.getpid(), signal.SIGKILL)
_touch_query_stamp(sys.argv[1])
"""


@contextmanager
def queries_running(graph: str, bound: int = 10**7) -> Iterator[Callable[[], int]]:
    """Graphify's stamp written in a loop, by a child process, while the
    body runs; yields what stops the loop and says how many it wrote."""
    child = subprocess.Popen(
        [sys.executable, "-I", "-c", QUERY_STAMP_LOOP, graph, str(bound)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=child_env(),
    )
    assert child.stdin is not None and child.stdout is not None
    written: list[int] = []

    def stop() -> int:
        if not written:
            child.stdin.close()  # type: ignore[union-attr]
            written.append(int(child.stdout.read()))  # type: ignore[union-attr]
            child.wait(timeout=60)
        return written[0]

    try:
        # Once it is ready, a stamp is being written at every moment.
        if child.stdout.readline() != "ready\n":
            raise AssertionError("the query loop did not start: is Graphify installed?")
        yield stop
    finally:
        if child.poll() is None:
            child.kill()
        child.wait(timeout=60)


def kill_a_query_in_its_write(graph: str) -> None:
    """Leave what a query killed inside its write leaves: cache/.gfy-*.tmp."""
    completed = subprocess.run(
        [sys.executable, "-I", "-c", KILLED_QUERY, graph], capture_output=True, env=child_env(), timeout=60
    )
    if completed.returncode != -signal.SIGKILL:
        raise AssertionError(f"the query was not killed in its write: {completed.stderr[-300:]!r}")


# ---------------------------------------------------------------------------
# Selections, states and runs the section suites share
# ---------------------------------------------------------------------------


def refusal_of(data: bytes | Any) -> cp.ProjectionError | None:
    """The refusal parse_selection raises for this input, or None if accepted."""
    raw = data if isinstance(data, bytes) else encode(data)
    try:
        cp.parse_selection(raw)
    except cp.ProjectionError as error:
        return error
    return None


def code_of(data: bytes | Any) -> str | None:
    """The code parse_selection raises for this input, or None if accepted."""
    error = refusal_of(data)
    return None if error is None else error.code


def minimal() -> dict[str, Any]:
    return selection(1, [branch("parent", sources=["ref-a"]), branch("child", parent="parent", sources=["ref-a"])])


# Runs the module's main() in a fresh process, with memory running out at
# the places of the caller's choosing (argv[3]: module functions to replace,
# separated by commas).
OUT_OF_MEMORY_AT = """
import sys
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
import conversation_projection as cp
import standin_graphify

def exhausted(*_args, **_kwargs):
    raise MemoryError

for name in sys.argv[3].split(","):
    setattr(cp, name, exhausted)
sys.exit(cp.main(sys.argv[4:], loader=standin_graphify.make_loader("ok")))
"""


def mutated(change: Any) -> dict[str, Any]:
    value = minimal()
    change(value)
    return value


def first_summary(value: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = value["branches"][0]["summaries"][0]
    return result


_random = secret_samples.rand


UPPER_DIGITS = secret_samples.UPPER + secret_samples.DIGITS
ALNUM = secret_samples.ALNUM
URLSAFE = secret_samples.URLSAFE
HEX = secret_samples.HEX
B64 = secret_samples.B64


def generated_secrets(rng: random.Random) -> dict[str, str]:
    """Secret-shaped values made at run time from random characters: never
    real credentials, and nothing secret-shaped is committed to the tree."""
    jwt_head = "ey" + "J" + _random(URLSAFE, 20, rng)
    begin = "-----" + "BEGIN"
    return {
        "pem rsa": f"{begin} RSA PRIVATE KEY-----\nMIIE{_random(B64, 40, rng)}",
        "pem openssh": f"{begin} OPENSSH PRIVATE KEY-----",
        "pem plain": f"{begin} PRIVATE KEY-----",
        "pem encrypted": f"{begin} ENCRYPTED PRIVATE KEY-----",
        "aws akia": "AK" + "IA" + _random(UPPER_DIGITS, 16, rng),
        "aws asia": "AS" + "IA" + _random(UPPER_DIGITS, 16, rng),
        "aws secret": "aws_secret_access_key = " + _random(B64, 40, rng),
        "github ghp": "gh" + "p_" + _random(ALNUM, 36, rng),
        "github gho": "gh" + "o_" + _random(ALNUM, 36, rng),
        "github ghu": "gh" + "u_" + _random(ALNUM, 36, rng),
        "github ghs": "gh" + "s_" + _random(ALNUM, 36, rng),
        "github ghr": "gh" + "r_" + _random(ALNUM, 36, rng),
        "github pat": "github" + "_pat_" + _random(ALNUM, 22, rng) + "_" + _random(ALNUM, 59, rng),
        "gitlab": "gl" + "pat-" + _random(URLSAFE, 20, rng),
        "slack bot": "xo"
        + "xb-"
        + "-".join(_random(string.digits, 12, rng) for _ in range(2))
        + "-"
        + _random(ALNUM, 24, rng),
        "slack user": "xo" + "xp-" + _random(string.digits, 12, rng) + "-" + _random(ALNUM, 24, rng),
        "slack webhook": "https://hooks."
        + "slack.com/services/T"
        + _random(UPPER_DIGITS, 8, rng)
        + "/B"
        + _random(UPPER_DIGITS, 8, rng)
        + "/"
        + _random(ALNUM, 24, rng),
        "stripe live": "sk" + "_live_" + _random(ALNUM, 24, rng),
        "stripe restricted": "rk" + "_live_" + _random(ALNUM, 24, rng),
        "google api": "AI" + "za" + _random(URLSAFE, 35, rng),
        "openai": "sk" + "-proj-" + _random(ALNUM, 20, rng) + "1" + _random(URLSAFE, 30, rng),
        "openai legacy": "sk" + "-" + _random(ALNUM, 20, rng) + "7" + _random(ALNUM, 27, rng),
        "anthropic": "sk" + "-ant-api03-" + _random(URLSAFE, 90, rng),
        "npm": "np" + "m_" + _random(ALNUM, 36, rng),
        "pypi": "py" + "pi-AgEIcHlwaS5vcmc" + _random(URLSAFE, 60, rng),
        "hugging face": "h" + "f_" + _random(string.ascii_letters, 34, rng),
        "jwt": f"{jwt_head}.ey" + "J" + _random(URLSAFE, 30, rng) + "." + _random(URLSAFE, 43, rng),
        "url credentials": "https://"
        + _random(string.ascii_lowercase, 6, rng)
        + ":"
        + _random(ALNUM, 12, rng)
        + "@db.example.org/x",
        "postgres credentials": "postgres://admin:" + _random(ALNUM, 10, rng) + "@localhost:5432/app",
        "azure": "DefaultEndpointsProtocol=https;AccountName=x;Account" + "Key=" + _random(B64, 86, rng) + "==",
        "sendgrid": "S" + "G." + _random(URLSAFE, 22, rng) + "." + _random(URLSAFE, 43, rng),
        "twilio": "S" + "K" + _random(HEX, 32, rng),
        "password assignment": "password=" + _random(ALNUM, 8, rng) + "9",
        "password colon quoted": 'password: "' + _random(ALNUM, 10, rng) + '!"',
        "secret assignment": "secret = " + _random(ALNUM, 14, rng) + "2",
        "api_key assignment": "api_key=" + _random(ALNUM, 20, rng) + "3",
        "apikey json": '"apiKey": "' + _random(ALNUM, 24, rng) + '4"',
        "token colon": "token: " + _random(ALNUM, 30, rng) + "5",
        "client secret": "client_secret=" + _random(URLSAFE, 30, rng) + "6",
        "auth token": "AUTH_TOKEN=" + _random(ALNUM, 16, rng) + "8",
    }


def accepted(value: dict[str, Any]) -> dict[str, Any]:
    return cp.validate_selection(json.loads(encode(value)))


def family(revision: int = 1, child_revision: int = 1, text: str = "Child summary.", **extra: Any) -> dict[str, Any]:
    return selection(
        revision,
        [
            branch("parent", sources=["ref-a"]),
            branch(
                "child", child_revision, parent="parent", sources=["ref-a", "ref-b"], summaries=[summary("s1", text)]
            ),
            branch("other"),
        ],
        **extra,
    )


DERIVED = ["extraction.json", "graph.json", "receipt.json"]
PUBLISHED = sorted(["state.json", *DERIVED])


def execute(args: list[str], loader: Any = None) -> tuple[int, dict[str, Any]]:
    """The command line in this process, under the umask main() sets."""
    with umask(0o077):
        exit_code, line = cp.execute(args, loader or standin_graphify.make_loader("ok"))
    return exit_code, json.loads(line)


def later(revision: int, **extra: Any) -> dict[str, Any]:
    value = fixture()
    value.update(revision=revision, **extra)
    return value
