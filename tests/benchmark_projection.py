"""Benchmark the adapter beside Graphify, by hand (not a timed test).

Run with the Python of a Graphify install:
    python -I tests/benchmark_projection.py [--quick]

For maximum-size selections along each bound it reports, per stage, the
median of several runs: read+parse+validate, reconcile, extraction, state
commit, Graphify import (fresh interpreter), Graphify build+export, receipt;
then end-to-end wall time and peak memory of the real command line, and the
ratio of the adapter's own work to Graphify's build+export on the same
extraction.  Then the budgets, hostile input for the secret scan (one prefix
repeated to 2 MiB, or many distinct key=value pairs that each reach the
judgement: through a fresh `--dry-run` process and in process), and growth
along each dimension.

`--quick` (what CI runs, so that the script cannot rot) prints the figures
only, one run each and the hostile scan for one prefix and one distinct
unit: budgets are judged by hand on a full run.  `--shapes` runs only the
hostile shapes (selections and states built to be slow to judge, each
through a fresh process, CPU time and the slowest): it needs no Graphify, so
`python3.13 -I tests/benchmark_projection.py --shapes` runs it under any
CPython.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MODULE = os.path.join(ROOT, "conversation_projection.py")
sys.path[:0] = [ROOT, HERE]

from cp_testlib import children_cpu_seconds  # noqa: E402

import conversation_projection as cp  # noqa: E402

QUICK = "--quick" in sys.argv
# --quick only shows that every section runs (CI): one run of each.
REPEAT = 1 if QUICK else 5
# Hostile input for the secret scan: each repeated to 2 MiB must be
# answered by a fresh process within HOSTILE_BUDGET seconds (the bound on
# judging any selection, which is CPU; wall time is shown here).
HOSTILE_PREFIXES = ("sk-", "eyJ", "://a:", "password=", "-----BEGIN ", "AKIA", "ghp_", "xox")
HOSTILE_BUDGET = 1.5
_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_HOSTILE_RNG = random.Random(9)


def _random(length: int, alphabet: str = _ALNUM) -> str:
    return "".join(_HOSTILE_RNG.choice(alphabet) for _ in range(length))


# And, from the black-box review of the gate (its dos-*.json): many distinct
# key=value pairs, each reaching the judgement with a value no cache has
# seen; distinct keys and words too, which miss the key cache.
HOSTILE_UNITS: dict[str, Callable[[], str]] = {
    "pass=<6 random>": lambda: "pass=" + _random(6) + " ",
    "token_id=<6 random>": lambda: "token_id=" + _random(6) + " ",
    "max_tokens=<8 random>": lambda: "max_tokens=" + _random(8) + " ",
    "csrf_token=<8 random>": lambda: "csrf_token=" + _random(8) + " ",
    "public_key:<8 random>": lambda: "public_key:" + _random(8) + " ",
    "Key:<7 random>": lambda: "Key:" + _random(7) + " ",
    " -p<3 letters><3 digits>": lambda: " -p" + _random(3, "abcdefghijklmnopqrstuvwxyz") + _random(3, "0123456789"),
    "token=<8 random>(": lambda: "token=" + _random(8) + "( ",
    " --token <6 random>(": lambda: " --token " + _random(6) + "( ",
    "max_tokens_<word>=<8 random>": lambda: (
        "max_tokens_" + _random(5, "abcdefghijklmnopqrstuvwxyz") + "=" + _random(8) + " "
    ),
    "password=<three words>": lambda: (
        "password=" + "-".join(_random(4, "abcdefghijklmnopqrstuvwxyz") for _ in range(3)) + " "
    ),
}


def budget(text: str) -> str:
    """A budget beside a figure on a full run; nothing in --quick, whose
    machine and sample size make a missed budget mean nothing."""
    return "" if QUICK else f" (budget {text})"


WORDS = [
    *("backup", "rotation", "photo", "library", "drive", "weekly", "encrypted", "offsite", "checksum"),
    *("restore", "plan", "family", "archive", "sunday", "evening", "cloud", "copy", "retention"),
    *("schedule", "verify", "monthly", "budget", "network", "storage", "decision"),
]


def text_of(length: int, seed: int) -> str:
    words = []
    total = 0
    index = seed
    while total < length:
        word = WORDS[index % len(WORDS)]
        words.append(word)
        total += len(word) + 1
        index = index * 31 + 7
    return " ".join(words)[:length].rstrip() or "x"


def make_selection(branches: int, sources: int, summaries: int, text_length: int) -> dict[str, Any]:
    result = []
    for b in range(branches):
        entry: dict[str, Any] = {
            "branchId": f"branch-{b:04d}",
            "sourceRevision": 1,
            "sources": [
                {"refId": f"ref-{b:04d}-{s:03d}", "sha256": hashlib.sha256(f"{b}-{s}".encode()).hexdigest()}
                for s in range(sources)
            ],
            "summaries": [
                {
                    "summaryId": f"s-{m:03d}",
                    "role": ("user", "assistant", "unknown")[m % 3],
                    "kind": "summary",
                    "approved": True,
                    "text": text_of(text_length, b * 1000 + m),
                }
                for m in range(summaries)
            ],
        }
        if b:
            entry["parentBranchId"] = f"branch-{(b - 1) // 2:04d}"
        result.append(entry)
    return {"schemaVersion": 1, "corpusId": "benchmark", "revision": 1, "branches": result}


def fit(branches: int, sources: int, summaries: int, text_length: int) -> dict[str, Any]:
    """Shrink the text until the encoded selection is just under 2 MiB."""
    while True:
        value = make_selection(branches, sources, summaries, text_length)
        if len(json.dumps(value).encode()) <= cp.MAX_SELECTION_BYTES:
            return value
        text_length = int(text_length * 0.97)


def median_time(action: Callable[[], Any], repeat: int = REPEAT) -> float:
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


# A child forked from this (large) process starts with its resident pages, so
# peak memory is read through a small launcher whose own size is the baseline.
LAUNCHER = (
    "import resource, subprocess, sys, time\n"
    "t = time.perf_counter(); p = subprocess.run(sys.argv[1:], capture_output=True)\n"
    "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    "sys.stdout.write(p.stdout.decode())\n"
    "sys.stderr.write(p.stderr.decode())\n"
)
TIMED_RUN = os.path.join(HERE, "timed_run.py")


def launch(command: list[str], with_stderr: bool = False) -> Any:
    """Wall time, peak RSS in KiB and the result line of one invocation
    (and its stderr, when asked)."""
    done = subprocess.run([sys.executable, "-I", "-c", LAUNCHER, *command], capture_output=True, check=True)
    first, _, line = done.stdout.decode().partition("\n")
    seconds, rss = first.split()
    if with_stderr:
        return float(seconds), int(rss), line.strip(), done.stderr.decode()
    return float(seconds), int(rss), line.strip()


def run_cli(args: list[str]) -> tuple[float, int, str]:
    """Wall time, peak RSS in KiB and the code of one real invocation."""
    elapsed, rss, line = launch([sys.executable, "-I", MODULE, *args])
    return elapsed, rss, json.loads(line)["code"] if line else "?"


def baseline() -> tuple[float, int]:
    samples = [launch([sys.executable, "-I", "-c", "pass"]) for _ in range(15)]
    return statistics.median(s[0] for s in samples), int(statistics.median(s[1] for s in samples))


def graphify_import_seconds() -> float:
    code = (
        "import time; t=time.perf_counter(); import graphify.validate, graphify.build, graphify.export; "
        "print(time.perf_counter()-t)"
    )
    samples = [float(subprocess.check_output([sys.executable, "-I", "-c", code])) for _ in range(3)]
    return statistics.median(samples)


def stages(name: str, value: dict[str, Any], workdir: str) -> dict[str, float]:
    from graphify.build import build_from_json
    from graphify.export import to_json
    from graphify.validate import assert_valid

    path = os.path.join(workdir, f"{name}.json")
    data = json.dumps(value).encode()
    with open(path, "wb") as handle:
        handle.write(data)
    figures: dict[str, float] = {"bytes": len(data)}
    figures["parse"] = median_time(lambda: cp.parse_selection(cp.read_selection(path)))
    accepted = cp.parse_selection(cp.read_selection(path))
    figures["reconcile"] = median_time(lambda: cp.reconcile(None, accepted))
    state, _ = cp.reconcile(None, accepted)
    figures["extraction"] = median_time(lambda: cp.extraction_bytes(cp.project(state)))
    extraction = cp.extraction_bytes(cp.project(state))
    owned_path = os.path.join(workdir, f"{name}-owned")
    os.mkdir(owned_path, 0o700)
    owned = cp.open_root(owned_path, create=False)
    assert owned is not None
    figures["commit"] = median_time(lambda: owned.write_atomic(cp.STATE_NAME, cp.state_bytes(state)))
    graph_path = os.path.join(owned_path, "graph.json")
    graphify_times, check_times = [], []
    expected = cp.project(state).extraction
    for _ in range(REPEAT):
        handed = json.loads(extraction)  # the adapter hands over its in-memory extraction
        with cp.silenced():
            started = time.perf_counter()
            assert_valid(handed)
            graph = build_from_json(handed, directed=True, dedup=False)
            built = time.perf_counter()
            assert cp.graph_matches(graph, expected)
            checked = time.perf_counter()
            assert to_json(graph, {}, graph_path, force=True, built_at_commit=state["selectionDigest"])
            exported = time.perf_counter()
        graphify_times.append((built - started) + (exported - checked))
        check_times.append(checked - built)
    figures["graphify"] = statistics.median(graphify_times)
    figures["take_graph"] = statistics.median(check_times)
    with open(graph_path, "rb") as handle:
        graph_bytes = handle.read()
    figures["receipt"] = median_time(
        lambda: owned.write_atomic(
            cp.RECEIPT_NAME, cp.receipt_bytes(state, cp.sha256_hex(graph_bytes), cp.sha256_hex(extraction), "x")
        )
    )
    owned.close()
    figures["adapter"] = sum(
        figures[k] for k in ("parse", "reconcile", "extraction", "commit", "take_graph", "receipt")
    )
    figures["ratio"] = figures["adapter"] / figures["graphify"]
    # The real command line, with Graphify timed inside the same run.
    runs = []
    for attempt in range(REPEAT):
        state_root = os.path.join(workdir, f"{name}-state-{attempt}")
        elapsed, rss, line, split = launch(
            [sys.executable, "-I", TIMED_RUN, "--state-root", state_root, "--selection", path], with_stderr=True
        )
        assert json.loads(line)["code"] == "built", line
        runs.append((elapsed, rss, json.loads(split)))
    runs.sort(key=lambda r: r[2]["adapter"] / r[2]["graphify"])
    elapsed, rss, split = runs[len(runs) // 2]
    figures["e2e"] = elapsed
    figures["rss_mib"] = rss / 1024
    figures["same_run_adapter"] = split["adapter"]
    figures["same_run_graphify"] = split["graphify"]
    figures["same_run_ratio"] = split["adapter"] / split["graphify"]
    figures["verify"] = median_time(lambda: run_cli(["--state-root", state_root, "--verify"]))
    figures["graph_bytes"] = len(graph_bytes)
    return figures


def growth(workdir: str) -> None:
    print("\n## Growth (time per item should stay flat)")

    def per_item(
        label: str, sizes: list[int], make: Callable[[int], dict[str, Any]], items: Callable[[int], int]
    ) -> None:
        # Past the 2 MiB input bound on purpose: growth is about the code, not the cap.
        row = []
        for size in sizes:
            data = json.dumps(make(size)).encode()
            accepted = cp.validate_selection(cp.parse_json(data))
            state, _ = cp.reconcile(None, accepted)
            parse = median_time(lambda data=data: cp.validate_selection(cp.parse_json(data)))
            rest = median_time(
                lambda accepted=accepted, state=state: (
                    cp.reconcile(None, accepted),
                    cp.extraction_bytes(cp.project(state)),
                )
            )
            row.append(f"{size}: {(parse + rest) / items(size) * 1e6:.2f} us/item")
        print(f"- {label}: " + ", ".join(row))

    per_item("branches", [50, 100, 200, 400, 500], lambda n: make_selection(n, 2, 2, 200), lambda n: n)
    per_item("sources per branch", [10, 25, 50, 100], lambda n: make_selection(20, n, 1, 50), lambda n: 20 * n)
    per_item("summaries per branch", [10, 25, 50, 100], lambda n: make_selection(20, 1, n, 200), lambda n: 20 * n)
    per_item(
        "secret-scanned characters", [250, 500, 1000, 2000], lambda n: make_selection(100, 1, 10, n), lambda n: 1000 * n
    )

    row = []
    for n in (25_000, 50_000, 100_000, 200_000):
        parents = {f"b{i}": f"b{i + 1}" for i in range(n)}
        elapsed = median_time(lambda parents=parents: cp.find_cycle(parents))
        row.append(f"{n}: {elapsed / n * 1e6:.2f} us/branch")
    print("- cycle detection (parent chains): " + ", ".join(row))

    row = []
    base = cp.parse_selection(json.dumps(make_selection(50, 2, 2, 100)).encode())
    following = dict(base, revision=2)
    for count in (1250, 2500, 5000, 10000):
        state, _ = cp.reconcile(None, base)
        state = dict(state, tombstones=sorted({f"gone-{i:05d}" for i in range(count)}))
        data = cp.state_bytes(state)
        elapsed = median_time(lambda data=data: cp.reconcile(cp.parse_state(data), following))
        row.append(f"{count}: {elapsed / count * 1e6:.2f} us/tombstone ({elapsed * 1000:.1f} ms)")
    print("- tombstones (read state + reconcile): " + ", ".join(row))


def budgets(workdir: str, largest: dict[str, float]) -> None:
    print("\n## Budgets" + (" (figures only in --quick)" if QUICK else ""))
    pass_time, pass_rss = baseline()
    huge = os.path.join(workdir, "huge.json")
    with open(huge, "wb") as handle:
        handle.truncate(1 << 30)
    state_root = os.path.join(workdir, "rejections")
    samples = [run_cli(["--state-root", state_root, "--selection", huge]) for _ in range(15)]
    huge_time = statistics.median(s[0] for s in samples)
    huge_rss = statistics.median(s[1] for s in samples)
    print(f"- python -I -c pass: {pass_time * 1000:.1f} ms, {pass_rss / 1024:.1f} MiB")
    print(
        f"- 1 GiB selection: {samples[0][2]} in {huge_time * 1000:.1f} ms wall{budget('50 ms')}, "
        f"{(huge_rss - pass_rss) / 1024:.1f} MiB above python -c pass{budget('10 MiB')}"
    )
    bad = os.path.join(workdir, "bad.json")
    with open(bad, "w") as handle:
        json.dump({"schemaVersion": 1, "raw": "x"}, handle)
    rejected = statistics.median(run_cli(["--state-root", state_root, "--selection", bad])[0] for _ in range(15))
    # No budget: a rejection may import json now, so it costs more than an
    # empty interpreter by design; the figure is kept to watch its trend.
    print(f"- rejected selection: {rejected * 1000:.1f} ms = {rejected / pass_time:.2f}x python -I -c pass")
    # What the installed console script does: import with cached bytecode.
    import py_compile

    py_compile.compile(MODULE, doraise=True)
    entry = f"import sys; sys.path.insert(0, {ROOT!r}); from conversation_projection import main; sys.exit(main())"
    for label, target in (("rejected selection", bad), ("1 GiB selection", huge)):
        runs = [
            launch([sys.executable, "-I", "-c", entry, "--state-root", state_root, "--selection", target])
            for _ in range(15)
        ]
        elapsed = statistics.median(r[0] for r in runs)
        print(
            f"- {label} through the console script (cached bytecode): {elapsed * 1000:.1f} ms = "
            f"{elapsed / pass_time:.2f}x python -I -c pass"
        )
    with open(MODULE, encoding="utf-8") as handle:
        source = handle.read()
    compiling = median_time(lambda: compile(source, MODULE, "exec"))
    print(
        f"- compiling the module (`python conversation_projection.py` does it on every run): {compiling * 1000:.1f} ms"
    )
    print(f"- read+parse+validate of the largest selection: {largest['parse'] * 1000:.1f} ms{budget('250 ms')}")
    print(f"- --verify of the largest graph: {largest['verify'] * 1000:.1f} ms{budget('500 ms')}")
    print(
        f"- adapter work / Graphify build+export, largest: {largest['ratio'] * 100:.1f}% by stages, "
        f"{largest['same_run_ratio'] * 100:.1f}% in the same run{budget('10%')}"
    )


def hostile_text(unit: Callable[[], str]) -> str:
    """2,000 characters of the unit repeated, each repetition made afresh."""
    parts: list[str] = []
    length = 0
    while length < cp.MAX_TEXT_CHARS:
        parts.append(unit())
        length += len(parts[-1])
    return "".join(parts)[: cp.MAX_TEXT_CHARS]


_distinct = itertools.count()
_NOTES_RNG = random.Random(2026)


def distinct_text(unit: Callable[[], str]) -> str:
    """``hostile_text`` ending in a number of its own: no two texts alike."""
    return hostile_text(unit)[:-7] + f"{next(_distinct):07d}"


def every_keyword() -> str:
    """Every keyword of the secret gate's table and a run of token
    characters: each text calls for every row, none of which matches."""
    keywords = sorted({word for rule in cp.SECRET_RULES for word in rule.keywords})
    return ". ".join(keywords) + ". tokenrun12345678 "


# Notes of the kind an IT team keeps, every sentence about a password, a
# key or a token and none holding one, in several languages.
NOTES_ABOUT_SECRETS = (
    "Rotated the API key for the billing service and updated the token in CI; the old secret is revoked.",
    "The user asked how to reset the NAS password without losing the RAID settings.",
    "kubectl get secret app-creds shows the key exists but the password field is empty.",
    "The Wi-Fi password is on the sticker under the router; the admin password was changed last week.",
    "Token refresh fails when the client secret expires, so the credentials now live in Vault.",
    "Le mot de passe du wifi est sur l'étiquette ; la clé API est dans le coffre-fort.",
    "Das Passwort für den Router wurde geändert, der neue Schlüssel liegt im Tresor.",
    "La contraseña del servidor se cambia cada mes y el token de acceso está en el gestor.",
    "Hasło do routera jest na naklejce, a klucz API trzymamy w sejfie.",
    "密码已经更新，新的token保存在密码管理器里。",
    "パスワードは管理者に確認してください。",
    "Пароль от почты сменили, новый ключ API лежит в хранилище.",
)


def notes_about_secrets(rng: random.Random) -> bytes:
    """A selection as large as its bound allows of texts of
    NOTES_ABOUT_SECRETS in a random order, each ending in a number of its
    own."""

    def text(_unit: Callable[[], str]) -> str:
        parts: list[str] = []
        while sum(map(len, parts)) < cp.MAX_TEXT_CHARS:
            parts.append(rng.choice(NOTES_ABOUT_SECRETS) + " ")
        return "".join(parts)[: cp.MAX_TEXT_CHARS - 8] + f" {next(_distinct):07d}"

    return json.dumps(hostile_selection(lambda: "", text=text, ensure_ascii=False), ensure_ascii=False).encode()


def hostile_selection(
    unit: Callable[[], str], text: Callable[[Callable[[], str]], str] = hostile_text, ensure_ascii: bool = True
) -> dict[str, Any]:
    """Summaries of 2,000 characters of one unit repeated (or each of one
    unit, with ``text=lambda unit: unit()``), as many as fit just under
    2 MiB, written with json.dumps(ensure_ascii=...): the most of it a
    selection can hold."""
    summaries_per_branch = cp.MAX_SUMMARIES_PER_BRANCH
    per_summary = len(json.dumps(text(unit), ensure_ascii=ensure_ascii).encode()) + 90
    count = cp.MAX_SELECTION_BYTES // per_summary
    branches = []
    for b in range(count // summaries_per_branch + 1):
        summaries = [
            {"summaryId": f"s-{m:03d}", "role": "user", "kind": "summary", "approved": True, "text": text(unit)}
            for m in range(min(summaries_per_branch, count - b * summaries_per_branch))
        ]
        if summaries:
            branches.append({"branchId": f"b-{b:03d}", "sourceRevision": 1, "sources": [], "summaries": summaries})
    value = {"schemaVersion": 1, "corpusId": "hostile", "revision": 1, "branches": branches}
    while len(json.dumps(value, ensure_ascii=ensure_ascii).encode()) > cp.MAX_SELECTION_BYTES:
        branches[-1]["summaries"].pop()
    return value


def hostile(workdir: str) -> None:
    """The secret scan on its worst input: one prefix repeated, or many
    distinct key=value pairs that each reach the judgement, through the
    whole command line (a fresh `--dry-run` process reading, parsing and
    validating a 2 MiB selection of 2,000-character summaries), and in
    process on the selection's texts joined as the validation joins them."""
    print("\n## Hostile input for the secret scan")
    state_root = os.path.join(workdir, "hostile-state")
    units: dict[str, Callable[[], str]] = {repr(prefix): (lambda prefix=prefix: prefix) for prefix in HOSTILE_PREFIXES}
    units.update(HOSTILE_UNITS)
    if QUICK:
        # A prefix and a distinct unit show the section runs.
        units = {name: units[name] for name in (repr(HOSTILE_PREFIXES[0]), next(iter(HOSTILE_UNITS)))}
    for name, unit in units.items():
        path = os.path.join(workdir, "hostile.json")
        value = hostile_selection(unit, text=distinct_text)  # a text repeated is judged once
        data = json.dumps(value).encode()
        with open(path, "wb") as handle:
            handle.write(data)
        runs = [run_cli(["--state-root", state_root, "--selection", path, "--dry-run"]) for _ in range(REPEAT)]
        wall = statistics.median(r[0] for r in runs)
        texts = [s["text"] for b in value["branches"] for s in b["summaries"]]
        scan = median_time(lambda texts=texts: [cp.find_secret(text) for text in texts])
        print(
            f"- {name} x {len(data) / 1048576:.2f} MiB: --dry-run {runs[0][2]} in {wall * 1000:.0f} ms wall"
            f"{budget(f'{HOSTILE_BUDGET * 1000:.0f} ms')}; each text judged alone, in process: {scan * 1000:.0f} ms"
        )


# Every shape a reviewer of a JSON parser would try, as files a fresh
# process must judge (refuse, or check with --dry-run) within this much CPU.
SHAPE_BUDGET = 1.5
# A state of up to 64 MiB is read within this much CPU.
STATE_BUDGET = 4.0


def _nested(depth: int, inner: str) -> str:
    return "[" * depth + inner + "]" * depth


def _fill(unit: str, budget_bytes: int) -> str:
    """``unit`` repeated, comma-separated, to about ``budget_bytes``."""
    return ",".join([unit] * max(1, budget_bytes // (len(unit.encode()) + 1)))


def _descending_marks() -> str:
    """Thirty marks of the BMP, each of its own combining class, highest
    class first: the order NFKC sorts with the most steps."""
    import unicodedata

    by_class = {unicodedata.combining(chr(code)): chr(code) for code in range(0x300, 0x3000)}
    by_class.pop(0)
    return "".join(by_class[combining] for combining in sorted(by_class, reverse=True)[:30])


def _judged_value(length: int) -> str:
    """``length`` characters of three letters and a digit, with "/" and "="
    inside: a value every judgement reads to its end before low entropy
    turns it away."""
    pool = _HOSTILE_RNG.sample("abcdefghijmnoqrsuvwxyzABCDEFGHJLMNQRSUVWXYZ", 3) + _HOSTILE_RNG.sample("0123456789", 1)
    chars = [_HOSTILE_RNG.choice(pool) for _ in range(length)]
    chars[length // 3], chars[2 * length // 3] = "/", "="
    return "".join(chars)


def _texts_of(units: Iterator[str], then: Callable[[], str]) -> Callable[[Callable[[], str]], str]:
    """A ``text`` for hostile_selection: the units packed into texts of at
    most 2,000 characters, then ``then()`` for every text after them."""
    pending = next(units, None)

    def text(_unit: Callable[[], str]) -> str:
        nonlocal pending
        if pending is None:
            return then()
        packed = ""
        while pending is not None and len(packed) + len(pending) <= cp.MAX_TEXT_CHARS:
            packed += pending
            pending = next(units, None)
        return packed

    return text


def _prose() -> str:
    """2,000 characters of made-up lower-case words."""
    return " ".join(_random(_HOSTILE_RNG.randint(2, 9), "abcdefghijlmnoqrsuvwxyz") for _ in range(400))[:2000]


def _bounds_together(candidates: int, key_words: int, filler: Callable[[], str], length: int = 24) -> bytes:
    """Judged values of ``length`` characters that reach the end of the
    judgement, then key words with nothing to assign (280 to a text), then
    the filler."""
    pairs = (f"x{_random(6, 'bcdfghlmnr')}_token={_judged_value(length)} " for _ in range(candidates))
    keys = ("key to " * min(280, key_words - start) for start in range(0, key_words, 280))
    units = itertools.chain(pairs, (f"k{index:05d} {unit}" for index, unit in enumerate(keys)))
    return json.dumps(hostile_selection(lambda: "", text=_texts_of(units, filler))).encode()


def _selection_shapes() -> dict[str, bytes]:
    """Selections just under 2 MiB, each built to make one part of the
    parse, the checks or the secret scan work hardest."""
    room = cp.MAX_SELECTION_BYTES - 200
    head = '{"schemaVersion":1,"corpusId":"shape","revision":1,"branches":[],"x":'
    arrays = _nested(59, _fill("[]", room - 150))
    pairs = _fill('"k":0', room // 2)
    return {
        "1M empty arrays 60 deep, unknown field": (head + arrays + "}").encode(),
        "the same, then a repeated key": (head + arrays + ',"x":0}').encode(),
        "many tiny objects, unknown field": (head + "[" + _fill("{}", room - 100) + "]}").encode(),
        "many keys in one object": (head + "{" + ",".join(f'"k{i}":0' for i in range(room // 12)) + "}}").encode(),
        "one key repeated in one object": (head + "{" + pairs + "}}").encode(),
        "nesting just under the bound, repeated": (head + "[" + _fill(_nested(62, ""), room - 100) + "]}").encode(),
        "nesting past the bound": ("[" * room).encode(),
        # A repeated key under lists that are not the format's: deep, or wide.
        "a repeated key under 60 lists of 1,024 items": (
            '{"schemaVersion":1,"branches":'
            + "[" * 60
            + "0," * ((room - 60 * 2050) // 2)
            + '{"a":0,"a":0}]'
            + ("," + ",".join(["0"] * 1024) + "]") * 59
            + "}"
        ).encode(),
        "a repeated key after 600,000 items": (
            '{"schemaVersion":1,"branches":[[' + "0," * 600_000 + '{"a":0,"a":0}],' + "0," * 440_000 + "0]}"
        ).encode(),
        "long numbers": (head + "[" + _fill("1" * cp.MAX_NUMBER_CHARS, room - 100) + "]}").encode(),
        "a string of escapes": (head + '"' + "\\u0041" * (room // 7) + '"}').encode(),
        "surrogate pairs as escapes": (head + '"' + "\\ud83d\\ude00" * (room // 13) + '"}').encode(),
        "whitespace": (" " * room + "{}").encode(),
        "2 MiB of U+FDFA": json.dumps(
            hostile_selection(lambda: "\ufdfa", ensure_ascii=False), ensure_ascii=False
        ).encode(),
        "summaries of \\n escapes": json.dumps(hostile_selection(lambda: "a\n")).encode(),
        "tiny summaries": json.dumps(make_selection(220, 0, 100, 1)).encode(),
        # Every candidate judged to the end: a secret in each summary (each
        # counted in secretFields), or values that only their entropy clears.
        "a judged secret in every summary": json.dumps(
            hostile_selection(lambda: "pass=" + _random(10), text=lambda unit: unit())
        ).encode(),
        "judged values that are not secrets": json.dumps(
            hostile_selection(lambda: "pass=" + _random(10, "x9Q") + " ")
        ).encode(),
        # Each once cost a judgement, a pattern step or a Python loop turn
        # per few characters.
        "every keyword of the secret gate in every summary": json.dumps(
            hostile_selection(every_keyword, text=distinct_text, ensure_ascii=False), ensure_ascii=False
        ).encode(),
        "every keyword of the secret gate between typographic quotes": json.dumps(
            hostile_selection(lambda: "\u201c" + every_keyword() + "\u201d", text=distinct_text, ensure_ascii=False),
            ensure_ascii=False,
        ).encode(),
        # From an outside review: every keyword at the head of each text (so
        # it calls for every row), then key words, "of" words and bracketed
        # asides that never reach an "is".
        "every keyword, then key words, of words and asides": json.dumps(
            hostile_selection(
                lambda: (
                    "password for token " + _random(3, "abcdefghijklmnopqrstuvwxyz") + " (auth pass key pwd mdp psk) "
                ),
                text=lambda unit: distinct_text(lambda: every_keyword()[:500] + " " + hostile_text(unit)),
                ensure_ascii=False,
            ),
            ensure_ascii=False,
        ).encode(),
        # Not hostile: ordinary notes, as dense in key words as a team's
        # handover notes get, judged to their end.
        "notes about passwords, keys and tokens in six languages": notes_about_secrets(_NOTES_RNG),
        "values that assign their key again": json.dumps(
            hostile_selection(lambda: "#" + _random(3) + "_password=" + _random(2, "!$*+./:?@^|~"))
        ).encode(),
        # A text repeated is judged once: the scan's shapes below differ in
        # each text, in its last characters at least.
        "a run of ldap commands": json.dumps(hostile_selection(lambda: "ldapadd ", text=distinct_text)).encode(),
        "numbers after a key": json.dumps(hostile_selection(lambda: "pwd=000000 ", text=distinct_text)).encode(),
        # A key and a space alone before the value: each value a candidate,
        # or a long word the pattern reads for a digit.
        "a key, a space and a value": json.dumps(hostile_selection(lambda: "Token " + _random(8) + "1 ")).encode(),
        "short key words repeated": json.dumps(hostile_selection(lambda: "pw pat psk ", text=distinct_text)).encode(),
        **{
            name: json.dumps(
                hostile_selection(lambda unit=unit: unit, text=text, ensure_ascii=False), ensure_ascii=False
            ).encode()
            for name, unit, text in (
                ("key words before a connector word, one text repeated", "key to ", hostile_text),
                ("key words before a connector word, repeated", "key to ", distinct_text),
                ("a key word repeated", "key", distinct_text),
                ("a Polish key word before a connector word, repeated", "has\u0142o to ", distinct_text),
                # "Key" in another language beside its qualifier: each pair
                # read in both orders ("klucz API", "API klucz").
                ("a key noun and its qualifier, repeated", "klucz API ", distinct_text),
                # From an outside review: both before a connector word, the
                # rows with the longest patterns tried deep at each place.
                ("key nouns and key words before a connector word", "Klucz API to has\u0142o to ", distinct_text),
                # Words between a key and its "is": a relative clause, an
                # aside that never closes, an "of" word before an aside.
                ("a key word and a relative clause of ten words", "key that a b c d e f g h i j ", distinct_text),
                ("a key word and an aside that never closes", "password, a b c d e f g h i j ", distinct_text),
                ("a key word, an of word and a bracket", "password for a b c (d e f g ", distinct_text),
                ("a word for credentials before a user", "credentials: a / ", distinct_text),
                # A word after the key ("new", "changed") before an "of"
                # part, and after "is" before "to".
                ("a key word, a word after it and an of word", "contrase\u00f1a nueva del a b c d ", distinct_text),
                ("a key word, is, a participle and a to word", "wachtwoord is gewijzigd naar ", distinct_text),
                # Words between a key and a value set off by a space, or
                # before a sign; parts joined by the symbols that end values.
                ("a key word, an of word and words before a digit", "пароль от a b 1 ", distinct_text),
                ("a key word, words and a sign", "password a b: ", distinct_text),
                ("a key word and parts joined by symbols", "password=&a(b[c{d<e;f ", distinct_text),
                # A relative word after a comma, "namely" after an "of" part,
                # and values that open with a bracket.
                ("a key word, a comma and a relative word", "key, that a b c d e f g h i j ", distinct_text),
                ("a key word, an of part and a comma", "password for a b c d, namely ", distinct_text),
                ("a key word and values that open with a bracket", "password: (1{a[2<b ", distinct_text),
            )
        },
        "a key and a space before a long word": json.dumps(
            hostile_selection(lambda: "pw " + _random(250, "abcdefghijklmnopqrstuvwxyz") + " ")
        ).encode(),
        "soft hyphens after four accents": json.dumps(
            hostile_selection(lambda: "a\u0301\u0301\u0301\u0301\u00ad", ensure_ascii=False), ensure_ascii=False
        ).encode(),
        # A text repeated is folded once: the same shapes with each text its
        # own, and an outside review's runs of thirty marks, within the BMP
        # and above it (after a letter of either), and one here-string among
        # 2 MiB of chpasswd.
        **{
            f"{name}, each text its own": json.dumps(
                hostile_selection(lambda unit=unit: unit, text=distinct_text, ensure_ascii=False), ensure_ascii=False
            ).encode()
            for name, unit in (
                ("2 MiB of U+FDFA", "\ufdfa"),
                ("soft hyphens after four accents", "a\u0301\u0301\u0301\u0301\u00ad"),
                ("a letter and thirty marks", "a" + "\u0301" * 30),
                ("a letter and thirty marks above the BMP", "a" + "\U0001e8d6\U0001e94a" * 15),
                ("a letter above the BMP and thirty marks", "\U00010400" + "\U0001e8d6\U0001e94a" * 15),
            )
        },
        "chpasswd repeated after a here-string": json.dumps(
            hostile_selection(
                lambda: "chpasswd", text=lambda unit: ("x <<< y " + distinct_text(unit))[: cp.MAX_TEXT_CHARS]
            )
        ).encode(),
        "chpasswd every 128 characters after a here-string": json.dumps(
            hostile_selection(
                lambda: "chpasswd " + "a" * 119 + " ",
                text=lambda unit: ("x <<< y " + distinct_text(unit))[: cp.MAX_TEXT_CHARS],
            )
        ).encode(),
        # An outside review's: a command that starts twice in each word
        # ("unzip", "zip") or behind a path, with its flag once in each
        # text; a pipe before "auth login" repeated; and thirty marks of
        # thirty combining classes after each letter, in the order that
        # NFKC must reverse.
        "a command starting twice in each word, its flag in each text": json.dumps(
            hostile_selection(lambda: "xunzip ", text=lambda unit: ("-P " + distinct_text(unit))[: cp.MAX_TEXT_CHARS])
        ).encode(),
        "a command behind a path, its flag in each text": json.dumps(
            hostile_selection(
                lambda: "x/ldapsearch ", text=lambda unit: ("-w " + distinct_text(unit))[: cp.MAX_TEXT_CHARS]
            )
        ).encode(),
        "a pipe before auth login repeated": json.dumps(
            hostile_selection(lambda: "echo aB1xyz |" + "auth login " * 17, text=distinct_text)
        ).encode(),
        "a letter and thirty marks in descending classes, each text its own": json.dumps(
            hostile_selection(lambda: "a" + _descending_marks(), text=distinct_text, ensure_ascii=False),
            ensure_ascii=False,
        ).encode(),
        # A third outside review's: judgements read to their end up to the
        # bound, a flag that no bound counts, and both with key words up to
        # theirs.
        "judged values read to their end, then prose": _bounds_together(9_990, 0, _prose),
        "a bare flag repeated, each text its own": json.dumps(
            hostile_selection(lambda: " -p", text=distinct_text)
        ).encode(),
        "the bounds together: judged values, key words, bare flags": _bounds_together(
            9_990, 89_000, lambda: distinct_text(lambda: " -p")
        ),
        "a token inside a long string, then outside": (
            '{"schemaVersion":1,"x":"' + "NaN" * (room // 3) + '","y":NaN}'
        ).encode(),
        # A value counts once more against the bound per 32 characters: one
        # of 31 is the most judging per count.
        "judged values of 31 characters, then prose": _bounds_together(9_990, 0, _prose, length=31),
        # A value read through the symbols that end a bare value elsewhere,
        # and a Markdown table row's key: each key a candidate, or a value
        # of symbols that runs to no space.
        "symbols inside values after a key, repeated": json.dumps(
            hostile_selection(lambda: "pass=a&b;c(d)e<f", text=distinct_text)
        ).encode(),
        "symbols inside judged values": json.dumps(
            hostile_selection(lambda: "pass=" + _random(3) + "&" + _random(9) + " ", text=distinct_text)
        ).encode(),
        "table cells after a key, repeated": json.dumps(
            hostile_selection(lambda: "| pass | pass ", text=distinct_text)
        ).encode(),
        # A call named for a login, its arguments and literals; a key and a
        # Japanese particle: each "(" and each key a candidate.
        "login calls with literals, repeated": json.dumps(
            hostile_selection(lambda: "s.login(u, 'a.b', 'x1y!', ", text=distinct_text)
        ).encode(),
        "keys before a Japanese particle, repeated": json.dumps(
            hostile_selection(lambda: "PASSWORD\u306fpass1234\u306b", text=distinct_text, ensure_ascii=False),
            ensure_ascii=False,
        ).encode(),
    }


def _state_shapes() -> dict[str, bytes]:
    """state.json files up to its bound: the largest valid ones, and hostile
    ones in the adapter's canonical shape or not."""
    snapshot = cp.validate_selection(make_selection(3, 1, 1, 40))
    hashes = cp.SelectionHashes(snapshot)
    room = cp.MAX_STATE_BYTES - 1024
    tombstones = {f"t{i:07d}" for i in range(cp.MAX_TOMBSTONES - 10)}
    marked = [("b" + hashlib.sha256(str(i).encode()).hexdigest())[:64] for i in range(235_000)]
    marks = {i: {"sourceRevision": 7, "contentSha256": hashlib.sha256(i.encode()).hexdigest()} for i in marked}
    # As many marks as fit: four-character IDs, each tombstoned.
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
    short = ["".join(t) for t in itertools.islice(itertools.product(alphabet, alphabet, alphabet, alphabet), 550_000)]
    most = cp.state_bytes(
        cp._state_from(snapshot, hashes, {i: {"sourceRevision": 1, "contentSha256": "0" * 64} for i in short}, short)
    )
    valid = cp.state_bytes(cp._state_from(snapshot, hashes, {}, tombstones))
    canonical = '{"corpusId":"benchmark","highWater":{},"ledgerSha256":"' + "0" * 64 + '","x":'
    # Reformatted states are decoded strictly: 1 MiB of each hostile shape.
    small = 1024 * 1024 - 1024
    return {
        **_shapes_past_the_bounds(),
        "1M tombstones (valid)": valid,
        "235,000 marks, 53 MiB (valid)": cp.state_bytes(cp._state_from(snapshot, hashes, marks, marked)),
        "550,000 marks of four-character IDs (valid)": most,
        "the same, its fields in reverse order (valid)": json.dumps(
            dict(reversed(json.loads(most).items())), separators=(",", ":"), ensure_ascii=False
        ).encode(),
        "1M tombstones, one digit flipped": valid.replace(b"t0000001", b"t0000002", 1),
        "1M tombstones as schema 1 (no --migrate)": valid.replace(b'"stateSchemaVersion":2', b'"stateSchemaVersion":1'),
        "64 MiB of empty arrays, canonical head": (canonical + _nested(59, _fill("[]", room)) + "}\n").encode(),
        "1 MiB of empty arrays, reformatted": (" " + _nested(59, _fill("[]", small)) + "\n").encode(),
        "1 MiB of tiny objects, reformatted": (' {"x":[' + _fill("{}", small) + "]}\n").encode(),
        "1 MiB of keys, reformatted": (" {" + ",".join(f'"k{i}":0' for i in range(small // 12)) + "}\n").encode(),
    }


def _shapes_past_the_bounds() -> dict[str, bytes]:
    """States of 64 MiB whose arrays, objects or keys outside strings pass
    what a state of their size holds, or come just up to it, each with its
    ledger digest recomputed over the bytes as written (which anyone who
    edits them can do) or left stale."""
    from cp_testlib import fixture, rehashed_as_written

    snapshot = cp.validate_selection(fixture())
    data = cp.state_bytes(cp._state_from(snapshot, cp.SelectionHashes(snapshot), {}, set(snapshot["exclude"])))
    size = cp.MAX_STATE_BYTES - 64
    bounds = dict(cp.state_bounds(size))
    fillers = {
        "objects up to their bound": b",".join([b"{}"] * (bounds[b"{"] - data.count(b"{"))),
        "keys in one object, past their bound": b"{" + b",".join(b'"%x":0' % i for i in range(5_000_000)) + b"}",
        "32 million integers": b"0," * 32_000_000 + b"0",
        "16 million floats": b"0e0," * 16_000_000 + b"0e0",
        "keys short of a quick refusal, counted outside strings": b"{"
        + b",".join(b'"%x":0' % i for i in range(bounds[b":"] + cp.MAX_SELECTION_BYTES - data.count(b":")))
        + b"}",
    }
    shapes = {}
    for name, filler in fillers.items():
        edited = data.replace(b'"tombstones":[', b'"tombstones":[' + filler + b",", 1)
        edited = edited.replace(b'"tombstones":[', b'"tombstones":[' + b" " * max(0, size - len(edited)), 1)
        shapes[f"{name}, digest recomputed"] = rehashed_as_written(edited)
        shapes[f"{name}, digest stale"] = edited
    return shapes


def _cpu_of(command: list[str]) -> tuple[float, str]:
    """CPU seconds (user + system) of one fresh process, and its code."""
    done, seconds = children_cpu_seconds(lambda: subprocess.run(command, capture_output=True))
    line = done.stdout.decode().strip()
    return seconds, json.loads(line)["code"] if line else f"no line (exit {done.returncode})"


def hostile_shapes(workdir: str) -> None:
    """Each hostile shape through a fresh process: the selections by
    `--dry-run`, the states by `--dry-run` without a selection (read,
    validated, projected).  Prints each one's CPU time and the slowest."""
    print(f"\n## Hostile shapes, fresh process CPU (Python {sys.version.split()[0]})")
    figures: list[tuple[float, str]] = []
    state_root = os.path.join(workdir, "shape-state")
    for name, data in _selection_shapes().items():
        path = os.path.join(workdir, "shape.json")
        with open(path, "wb") as handle:
            handle.write(data)
        command = [sys.executable, "-I", MODULE, "--state-root", state_root, "--selection", path, "--dry-run"]
        runs = [_cpu_of(command) for _ in range(REPEAT)]
        seconds = statistics.median(r[0] for r in runs)
        figures.append((seconds, "selection: " + name))
        print(
            f"- selection, {name} ({len(data) / 1048576:.2f} MiB): {runs[0][1]} in {seconds:.3f} s"
            f"{budget(f'{SHAPE_BUDGET} s')}"
        )
    for name, data in _state_shapes().items():
        root = os.path.join(workdir, "shape-root")
        shutil.rmtree(root, ignore_errors=True)
        os.mkdir(root, 0o700)
        with open(os.path.join(root, cp.STATE_NAME), "wb") as handle:
            handle.write(data)
        runs = [_cpu_of([sys.executable, "-I", MODULE, "--state-root", root, "--dry-run"]) for _ in range(REPEAT)]
        seconds = statistics.median(r[0] for r in runs)
        figures.append((seconds, "state: " + name))
        print(
            f"- state, {name} ({len(data) / 1048576:.1f} MiB): {runs[0][1]} in {seconds:.3f} s"
            f"{budget(f'{STATE_BUDGET} s')}"
        )
    slowest = max(figures)
    print(f"Slowest: {slowest[1]}, {slowest[0]:.3f} s of CPU")


# Text that NFKC expands many times over: each repeated to 2 MiB must be
# judged within HOSTILE_BUDGET seconds of CPU too.
HOSTILE_FOLDS = {"U+FDFA (18x)": "\ufdfa", "U+33AF (6x, ASCII kept)": "\u33af", "U+3316 (6x)": "\u3316"}
# The floor of a build and the three largest selections (../shared/bench):
# a whole build may cost at most FLOOR_BUDGET times the floor's CPU.
BENCH = os.path.join(os.path.dirname(ROOT), "shared", "bench")
FLOOR_BUDGET = 1.05


def encoded_fold_selection(char: str) -> bytes:
    """Summaries of 2,000 of one character, written as UTF-8, as many as
    fit under 2 MiB."""
    summary = {"summaryId": "", "role": "user", "kind": "summary", "approved": True, "text": char * cp.MAX_TEXT_CHARS}
    per_summary = len(json.dumps(summary, ensure_ascii=False).encode()) + 8
    count = (cp.MAX_SELECTION_BYTES - 1024) // per_summary
    branches = [
        {
            "branchId": f"b-{b:03d}",
            "sourceRevision": 1,
            "sources": [],
            "summaries": [
                dict(summary, summaryId=f"s-{m:03d}")
                for m in range(min(cp.MAX_SUMMARIES_PER_BRANCH, count - b * cp.MAX_SUMMARIES_PER_BRANCH))
            ],
        }
        for b in range(-(-count // cp.MAX_SUMMARIES_PER_BRANCH))
    ]
    value = {"schemaVersion": 1, "corpusId": "hostile", "revision": 1, "branches": branches}
    return json.dumps(value, ensure_ascii=False).encode()


def hostile_folds(workdir: str) -> None:
    """A fresh `--dry-run` on 2 MiB of characters that fold into many."""
    print("\n## Hostile folding for the secret scan (fresh --dry-run, CPU)")
    state_root = os.path.join(workdir, "fold-state")
    for name, char in HOSTILE_FOLDS.items():
        path = os.path.join(workdir, "fold.json")
        with open(path, "wb") as handle:
            handle.write(encoded_fold_selection(char))
        command = [sys.executable, "-I", MODULE, "--state-root", state_root, "--selection", path, "--dry-run"]
        cpu = statistics.median(_cpu_of(command)[0] for _ in range(REPEAT))
        print(f"- {name} x {os.path.getsize(path) / 1048576:.2f} MiB: {cpu * 1000:.0f} ms CPU{budget('1500 ms')}")


def versus_floor(workdir: str) -> None:
    """A whole build against the team's floor script, kept outside this
    repository (only the work a build must do, with no checks), whole
    processes in turn (A B A B ...), user + system CPU, on each of its three
    largest shapes."""
    print("\n## A whole build against the floor (CPU, A B A B)")
    if not os.path.exists(os.path.join(BENCH, "floor.py")):
        print(f"- skipped: no floor at {BENCH}")
        return
    shapes_dir = os.path.join(workdir, "big")
    subprocess.run([sys.executable, os.path.join(BENCH, "gen_big.py"), shapes_dir], check=True, capture_output=True)
    for shape in ("wide", "deep", "long"):
        selection = os.path.join(shapes_dir, f"{shape}.json")
        adapter: list[float] = []
        floor: list[float] = []
        for attempt in range(REPEAT):
            state_root = os.path.join(workdir, f"floor-{shape}-adapter-{attempt}")
            floor_root = os.path.join(workdir, f"floor-{shape}-floor-{attempt}")
            adapter.append(
                _cpu_of([sys.executable, "-I", MODULE, "--state-root", state_root, "--selection", selection])[0]
            )
            floor.append(_cpu_of([sys.executable, "-I", os.path.join(BENCH, "floor.py"), selection, floor_root])[0])
        ratio = statistics.median(adapter) / statistics.median(floor)
        print(
            f"- {shape}: adapter {statistics.median(adapter):.2f} s, floor {statistics.median(floor):.2f} s CPU:"
            f" {ratio:.2f}x{budget(f'{FLOOR_BUDGET:.2f}x')}"
        )


def main() -> None:
    workdir = os.path.realpath(tempfile.mkdtemp(prefix="cp-bench-"))
    if "--shapes" in sys.argv:
        # This section alone: it needs no Graphify, so any CPython runs it.
        try:
            hostile_shapes(workdir)
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
        return
    try:
        print(f"# conversation projection benchmark (Python {sys.version.split()[0]}, {os.cpu_count()} cores)")
        print(f"Graphify import, fresh interpreter: {graphify_import_seconds() * 1000:.0f} ms")
        shapes = {
            "500 branches near 2 MiB": fit(500, 8, 4, 800),
            "100 sources + 100 summaries per branch": fit(40, 100, 100, 300),
            "2,000-character summaries": fit(110, 2, 9, 2000),
        }
        header = (
            "| selection | bytes | parse+validate | reconcile | extraction | state commit | graph check | receipt |"
            " Graphify build+export | adapter/Graphify | same run: adapter / Graphify | end-to-end | peak RSS |"
            " --verify |"
        )
        print("\n" + header)
        print("|" + "---|" * 14)
        results = {}
        for name, value in shapes.items():
            figures = stages(name.split()[0], value, workdir)
            results[name] = figures
            ms = {k: f"{v * 1000:.1f} ms" for k, v in figures.items()}
            print(
                f"| {name} | {figures['bytes'] / 1048576:.2f} MiB | {ms['parse']} | {ms['reconcile']} | "
                f"{ms['extraction']} | {ms['commit']} | {ms['take_graph']} | {ms['receipt']} | {ms['graphify']} | "
                f"{figures['ratio'] * 100:.1f}% | {ms['same_run_adapter']} / {ms['same_run_graphify']} = "
                f"{figures['same_run_ratio'] * 100:.1f}% | {ms['e2e']} | {figures['rss_mib']:.0f} MiB | "
                f"{ms['verify']} |"
            )
        largest = max(results.values(), key=lambda f: f["graphify"])
        budgets(workdir, largest)
        hostile(workdir)
        if not QUICK:
            # Minutes of runs at the bounds: read by hand, not in CI's smoke of this script.
            hostile_shapes(workdir)
        hostile_folds(workdir)
        versus_floor(workdir)
        growth(workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
