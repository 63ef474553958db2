"""The secret gate's verdicts and its family list, written from the gate itself.

    python -I tools/secret_verdict_snapshot.py           # what differs; exits 1 if anything does
    python -I tools/secret_verdict_snapshot.py --write   # write both, then review `git diff`

The snapshot, tests/secret_verdicts.txt, holds the gate's verdict on every
case of the generated corpus, the look-alikes, the gitleaks-style peer section
and the decided pairs: the cases tools/compare_secret_verdicts.py makes (its
docstring says how), from this module's table alone.  One case a line,
sorted: the case's name, a tab, its verdict: "accepted", "refused:<family>",
or, for any other refusal, the code and rule with the pointer after an "@"
as the comparison prints them.  It names cases and families, never a text.
tests/test_secret_verdicts.py fails when a verdict differs from it.

The family list of docs/secret-gate.md, between its two markers, is written
from SECRET_RULES: how many rows and families the table has, then one item
a family, "- `family` (N patterns): sources." in the order of the table.

A change to the table or the judgements is one run of --write: the diff of
the snapshot is the change in verdicts, case by case, to be reviewed with
the change.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import types
from collections.abc import Sequence
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SNAPSHOT_PATH = os.path.join(ROOT, "tests", "secret_verdicts.txt")
PAGE_PATH = os.path.join(ROOT, "docs", "secret-gate.md")
COMMAND = "python -I tools/secret_verdict_snapshot.py --write"
HEADER = f"# The secret gate's verdict on each case, written by `{COMMAND}`; review its diff.\n"
BEGIN = f"<!-- Written from SECRET_RULES by `{COMMAND}`: change the table, not this list. -->"
END = "<!-- End of the written family list. -->"
REFUSED = "refused:"
# The judges of the rows the peer section places in gitleaks' contexts.
PUBLISHED_SHAPES = ("shape", "labelled")


def comparison_tool() -> types.ModuleType:
    """tools/compare_secret_verdicts.py, which makes the cases and judges them."""
    name = "compare_secret_verdicts"
    loaded = sys.modules.get(name)
    if loaded is not None:
        return loaded
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, "tools", name + ".py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def the_gate() -> types.ModuleType:
    """conversation_projection as the tests' generators import it."""
    gate: types.ModuleType = comparison_tool().suite_module("cp_testlib").cp
    return gate


def short_verdict(verdict: str, code: str) -> str:
    refused, _, rule = verdict.partition(":")
    if refused == code and rule and "@" not in rule:
        return REFUSED + rule
    return verdict


def verdicts() -> tuple[dict[str, str], dict[str, Any]]:
    """{case name: verdict} over every case, and the figures of each corpus
    (the comparison's tallies, by corpus and "all")."""
    tool, gate = comparison_tool(), the_gate()
    found: dict[str, str] = {}
    tallies = {corpus: tool.Tally() for corpus in (*tool.CORPORA, "all")}
    for item in tool.cases([gate.SECRET_RULES]):
        if item.name in found:
            raise RuntimeError(f"two cases named {item.name}")
        verdict = tool.judge(gate, item.text)
        found[item.name] = short_verdict(verdict, tool.GATE_CODE)
        tallies[item.corpus].add(item, verdict)
        tallies["all"].add(item, verdict)
    return found, tallies


def snapshot_text(found: dict[str, str]) -> str:
    return HEADER + "".join(f"{name}\t{found[name]}\n" for name in sorted(found))


def read_snapshot(path: str = SNAPSHOT_PATH) -> dict[str, str]:
    """The snapshot as written; none when there is no file."""
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except FileNotFoundError:
        return {}
    kept: dict[str, str] = {}
    for line in lines:
        if line and not line.startswith("#"):
            name, _, verdict = line.partition("\t")
            kept[name] = verdict
    return kept


def differences(kept: dict[str, str], found: dict[str, str]) -> list[str]:
    """Each case whose verdict is not the kept one, as "name: old -> new" whose verdict is not the kept one
    ("none" for a side that lacks the case), sorted by name."""
    return [
        f"{name}: {kept.get(name, 'none')} -> {found.get(name, 'none')}"
        for name in sorted(kept.keys() | found.keys())
        if kept.get(name) != found.get(name)
    ]


def mismatch_report(kept: dict[str, str], found: dict[str, str], shown: int = 200) -> list[str]:
    """What to tell a maintainer when verdicts differ from the snapshot:
    the first cases that differ and the command that accepts them; none
    when nothing differs."""
    changed = differences(kept, found)
    if not changed:
        return []
    return [
        f"{len(changed)} verdicts differ from {os.path.relpath(SNAPSHOT_PATH, ROOT)} (case: snapshot -> now):",
        *changed[:shown],
        *([f"... and {len(changed) - shown} more"] if len(changed) > shown else []),
        f"if the change is meant: {COMMAND}, and review the diff with the change",
    ]


def family_list(rules: Sequence[Any], contexts: int) -> list[str]:
    """The written family list, from the rows' family, source and judge."""
    counts: dict[str, int] = {}
    sources: dict[str, list[str]] = {}
    for rule in rules:
        counts[rule.family] = counts.get(rule.family, 0) + 1
        named = sources.setdefault(rule.family, [])
        source = getattr(rule, "source", "")
        if source and source not in named:
            named.append(source)
    shapes = sum(1 for rule in rules if getattr(rule, "judge", None) in PUBLISHED_SHAPES)
    lines = [
        BEGIN,
        "",
        f"The table has {len(rules)} rows in {len(counts)} families. The tests place each of its {shapes}",
        f"published shapes (rows judged `shape` or `labelled`) in each of gitleaks' {contexts} contexts:",
        f"{shapes * contexts:,} cases.",
        "",
    ]
    for family, count in counts.items():
        lines.append(f"- `{family}` ({count} pattern{'s' if count > 1 else ''}): {'; '.join(sources[family])}.")
    return [*lines, "", END]


def current_family_list() -> list[str]:
    gate = comparison_tool().suite_module("test_secret_gate")
    return family_list(the_gate().SECRET_RULES, len(gate.GITLEAKS_CONTEXTS))


def written_family_list(page: str) -> list[str]:
    """The lines of the page from BEGIN to END; none without both."""
    lines = page.splitlines()
    if BEGIN not in lines or END not in lines:
        return []
    return lines[lines.index(BEGIN) : lines.index(END) + 1]


def with_family_list(page: str, written: list[str]) -> str:
    lines = page.splitlines()
    start, end = lines.index(BEGIN), lines.index(END)
    return "\n".join([*lines[:start], *written, *lines[end + 1 :]]) + "\n"


def write(found: dict[str, str]) -> None:
    with open(SNAPSHOT_PATH, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(snapshot_text(found))
    with open(PAGE_PATH, encoding="utf-8") as handle:
        page = handle.read()
    with open(PAGE_PATH, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(with_family_list(page, current_family_list()))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--write", action="store_true", help="write the snapshot and the family list of the page")
    args = parser.parse_args(argv)
    found, tallies = verdicts()
    if args.write:
        write(found)
    report = mismatch_report(read_snapshot(), found, shown=len(found))
    with open(PAGE_PATH, encoding="utf-8") as handle:
        stale_list = written_family_list(handle.read()) != current_family_list()
    for corpus, tally in tallies.items():
        print(f"{corpus}: {tally.line()}")
    print(f"{len(found)} cases")
    for line in report:
        print(line)
    if stale_list:
        print(f"the family list of {os.path.relpath(PAGE_PATH, ROOT)} is not as the table has it: {COMMAND}")
    return 1 if report or stale_list else 0


if __name__ == "__main__":
    sys.exit(main())
