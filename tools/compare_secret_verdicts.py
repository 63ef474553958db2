"""Compare the secret gate's verdicts with those of adapter 0.2.0, case by case.

    python -I tools/compare_secret_verdicts.py [--show-text]

Both modules are loaded by path under names of their own, so neither can
stand in for the other: conversation_projection.py (the gate under change)
and tests/released/conversation_projection_0_2_0.py (the release, kept as
it was).  Each case is one text, put as the only summary text of an
otherwise valid selection and judged by each module's public
``check_selection``; its verdict is what a user sees: "accepted", or the
refusal's code and rule ("selection_secret:github-token"), with the refusal's
``at`` pointer after an "@" where it is not the text's own.

The cases come from the generators the tests already have (imported from
tests/test_secret_gate.py and tests/secret_lookalikes.py, never copied), with
their fixed seeds, so every run judges the same texts:

- generated: test_secret_gate's ``corpus(seed)`` for seeds 1 and 2; three
  examples of every row of each module's table (its ``example``, after a key
  that carries its label where it has one); every assignment form;
- look-alikes: every group of secret_lookalikes.GROUPS, test_secret_gate's
  ``look_alikes()`` and its prose about credentials;
- peer: every shape row of each module's table in each of gitleaks' contexts
  (after the provider's name), and the generic shapes after each generic
  identifier in each context.

A case's key is "corpus:group:digest": the group names where the text comes
from (a family, a family and a context, a look-alike group) and the digest is
the first 12 hex digits of the SHA-256 of the text (UTF-8), so a key names one
text whatever the order the cases are made in.  A text that comes twice in one
group is one case.  A case's name says where it stands among the cases made
from one table ("generated:github-token:seed1:7", "peer:github-token:java:0",
the last number counting within the family where it follows a context or a
row); tools/secret_verdict_snapshot.py keys the gate's own verdicts by it.

Prints each difference (key, old verdict, new verdict, a description; the
text itself only with --show-text), then totals per corpus.  Exits 0: it is a
report: the verdicts meant are those of the snapshot that
tools/secret_verdict_snapshot.py writes and tests/test_secret_verdicts.py checks.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import os
import random
import sys
import time
import types
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESTS = os.path.join(ROOT, "tests")
CURRENT_PATH = os.path.join(ROOT, "conversation_projection.py")
RELEASED_PATH = os.path.join(TESTS, "released", "conversation_projection_0_2_0.py")
# The names the two modules are loaded under: neither is
# "conversation_projection", which the test helpers import for themselves.
CURRENT_NAME = "conversation_projection_under_comparison"
RELEASED_NAME = "conversation_projection_0_2_0"

ACCEPTED = "accepted"
GATE_CODE = "selection_secret"
CORPORA = ("generated", "look-alikes", "peer", "decided")
# The seeds test_secret_gate uses for the same sections.
CORPUS_SEEDS = (1, 2)
ROW_SEED = 0
FORMS_SEED = 44
SHAPES_SEED = 41
GENERIC_SEED = 42
# The rows the peer section places in gitleaks' contexts, as its test does.
PEER_JUDGED = ("shape", "labelled")
DIGEST_HEX = 12


def seeded(seed: int) -> random.Random:
    return random.Random(seed)  # noqa: S311 - reproducible test data, not a secret


def load_by_path(name: str, path: str) -> types.ModuleType:
    """The module at path, as sys.modules[name] (a dataclass needs its module
    there), whatever else is importable."""
    loaded = sys.modules.get(name)
    if loaded is not None:
        if os.path.realpath(getattr(loaded, "__file__", "") or "") != os.path.realpath(path):
            raise RuntimeError(f"{name} is already loaded from elsewhere")
        return loaded
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def suite_module(name: str) -> types.ModuleType:
    """A test module of tests/, the one already imported when there is one
    (pytest imports each test file under its own name)."""
    return sys.modules.get(name) or load_by_path(name, os.path.join(TESTS, name + ".py"))


@dataclass(frozen=True)
class Case:
    key: str
    corpus: str
    description: str
    text: str
    # Whether the text is shaped as a secret (a refusal is a find) or is a
    # look-alike (a refusal is a false one); the family it is an example
    # of, where one is known.
    secret: bool
    family: str | None = None
    name: str = ""


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:DIGEST_HEX]


def case(
    corpus: str, group: str, text: str, description: str, *, secret: bool, family: str | None = None, name: str
) -> Case:
    return Case(f"{corpus}:{group}:{digest(text)}", corpus, description, text, secret, family, f"{corpus}:{name}")


def family_rows(table: Sequence[Any]) -> Iterator[tuple[int, int, Any]]:
    """(index in the table, index among the rows of its family, row)."""
    seen: dict[str, int] = {}
    for index, rule in enumerate(table):
        within = seen.get(rule.family, 0)
        seen[rule.family] = within + 1
        yield index, within, rule


def row_view(rule: Any) -> types.SimpleNamespace:
    """What the tests' generators read of a row of the table (family, labels,
    example), with the release's defaults where a row lacks one."""
    return types.SimpleNamespace(
        family=rule.family,
        labels=tuple(getattr(rule, "labels", ()) or ()),
        example=getattr(rule, "example", None) or rule.pattern,
    )


def generated(gate: types.ModuleType, tables: Sequence[Sequence[Any]]) -> Iterator[Case]:
    for seed in CORPUS_SEEDS:
        for family, texts in gate.corpus(seed).items():
            for index, text in enumerate(texts):
                description = f"{family}, corpus({seed}) text {index}"
                yield case(
                    "generated",
                    family,
                    text,
                    description,
                    secret=True,
                    family=family,
                    name=f"{family}:seed{seed}:{index}",
                )
    for table in tables:
        rng = seeded(ROW_SEED)
        for index, within, rule in family_rows(table):
            view = row_view(rule)
            for example in range(gate.EXAMPLES_PER_ROW):
                text = gate.row_example(view, rng)
                yield case(
                    "generated",
                    f"{view.family}/row",
                    text,
                    f"{view.family}, example of row {index}",
                    secret=True,
                    family=view.family,
                    name=f"{view.family}:row{within}:{example}",
                )
    forms = gate.TestAssignmentForms().forms(seeded(FORMS_SEED))
    for name, (text, family) in forms.items():
        description = f"{family}, assignment form {name!r}"
        yield case(
            "generated", f"{family}/{name}", text, description, secret=True, family=family, name=f"{family}:form:{name}"
        )


def look_alikes(gate: types.ModuleType) -> Iterator[Case]:
    for group, texts in gate.secret_lookalikes.GROUPS.items():
        for index, text in enumerate(texts):
            yield case("look-alikes", group, text, f"{group} text {index}", secret=False, name=f"{group}:{index}")
    for group, texts in (
        ("look_alikes()", gate.look_alikes()),
        ("PROSE_ABOUT_CREDENTIALS", gate.PROSE_ABOUT_CREDENTIALS),
    ):
        for index, text in enumerate(texts):
            description = f"test_secret_gate {group} text {index}"
            yield case("look-alikes", group, text, description, secret=False, name=f"{group}:{index}")


def peer(gate: types.ModuleType, tables: Sequence[Sequence[Any]]) -> Iterator[Case]:
    for table in tables:
        rng = seeded(SHAPES_SEED)
        for index, within, rule in family_rows(table):
            if getattr(rule, "judge", getattr(rule, "judged", PEER_JUDGED[0])) not in PEER_JUDGED:
                continue
            view = row_view(rule)
            for name, context in gate.GITLEAKS_CONTEXTS.items():
                text = gate.in_gitleaks_context(context, gate.provider_name(view), gate.from_pattern(view.example, rng))
                description = f"{view.family}, row {index}, in {name!r}"
                group, family = f"{view.family}/{name}", view.family
                yield case(
                    "peer", group, text, description, secret=True, family=family, name=f"{family}:{name}:{within}"
                )
    rng = seeded(GENERIC_SEED)
    for number, shape in enumerate(gate.GENERIC_SHAPES):
        for identifier in gate.GENERIC_IDENTIFIERS:
            for name, context in gate.GITLEAKS_CONTEXTS.items():
                text = gate.in_gitleaks_context(context, identifier, gate.from_pattern(shape, rng))
                description = f"generic {shape} after {identifier!r} in {name!r}"
                group = f"generic/{identifier}/{name}"
                yield case("peer", group, text, description, secret=True, name=f"generic:{identifier}:{name}:{number}")


# Texts whose answers were decided one by one: near-identical pairs, and the
# words for password in languages written in plain ASCII, each alone in its
# selection (whether it is secret-shaped is the answer decided for it).
MADE_UP_VALUE = "Xk9pQ2mZ" + "7vLwR4"
DECIDED = (
    ("password: Summer2024", True),
    ("Password Summer2024", False),
    (f'"password","{MADE_UP_VALUE}"', True),
    (f"password,{MADE_UP_VALUE}", False),
    ("PIN: 4f9Kx2LmQ8", False),
    (f"SUBSCRIPTION_KEY={MADE_UP_VALUE}aB", True),
    (f"Ocp-Apim-Subscription-Key: {MADE_UP_VALUE}aB", True),
    (f"senha: {MADE_UP_VALUE}", True),
    (f"wachtwoord: {MADE_UP_VALUE}", True),
    (f"salasana: {MADE_UP_VALUE}", True),
)


def decided() -> Iterator[Case]:
    for index, (text, secret) in enumerate(DECIDED):
        yield case("decided", "pairs", text, repr(text), secret=secret, name=f"pairs:{index}")


def cases(tables: Sequence[Sequence[Any]]) -> list[Case]:
    """Every case of the corpora, each key once, in the order made."""
    gate = suite_module("test_secret_gate")
    unique: dict[str, Case] = {}
    for made in (generated(gate, tables), look_alikes(gate), peer(gate, tables), decided()):
        for item in made:
            unique.setdefault(item.key, item)
    return list(unique.values())


# Where the one summary text stands in the selection judge() builds.
TEXT_AT = "/branches/0/summaries/0/text"


def judge(module: types.ModuleType, text: str) -> str:
    """The verdict of the module's selection check on a selection that holds
    the text as its one summary text (made by the tests' own helpers)."""
    lib = suite_module("cp_testlib")
    value = lib.selection(1, [lib.branch("b", summaries=[lib.summary("s", text)])])
    try:
        module.check_selection(value)
    except module.ProjectionError as error:
        verdict = str(error.code)
        rule = getattr(error, "rule", None)
        at = getattr(error, "at", None)
        if rule is not None:
            verdict += f":{rule}"
        if at != TEXT_AT:
            verdict += f"@{at}"
        return verdict
    return ACCEPTED


@dataclass(frozen=True)
class Outcome:
    case: Case
    old: str
    new: str


@dataclass
class Tally:
    """One gate's figures over one corpus."""

    secret_shaped: int = 0
    refused: int = 0  # secret-shaped texts refused as selection_secret
    named: int = 0  # ... under the family they are an example of
    with_family: int = 0
    look_alikes: int = 0
    refused_look_alikes: int = 0  # look-alikes refused as selection_secret
    other_refusals: int = 0  # texts refused with another code

    def add(self, item: Case, verdict: str) -> None:
        is_secret = verdict.startswith(GATE_CODE + ":")
        if verdict != ACCEPTED and not is_secret:
            self.other_refusals += 1
        if item.secret:
            self.secret_shaped += 1
            self.refused += is_secret
            if item.family is not None:
                self.with_family += 1
                self.named += verdict.split("@", 1)[0] == f"{GATE_CODE}:{item.family}"
        else:
            self.look_alikes += 1
            self.refused_look_alikes += is_secret

    def line(self) -> str:
        return (
            f"secret-shaped refused {self.refused}/{self.secret_shaped}, "
            f"named by their family {self.named}/{self.with_family}; "
            f"look-alikes refused {self.refused_look_alikes}/{self.look_alikes}; "
            f"other refusals {self.other_refusals}"
        )


@dataclass
class Comparison:
    outcomes: list[Outcome]
    old: dict[str, Tally]  # by corpus, and "all"
    new: dict[str, Tally]
    seconds: float

    @property
    def differences(self) -> list[Outcome]:
        return [outcome for outcome in self.outcomes if outcome.old != outcome.new]


def load_gates() -> tuple[types.ModuleType, types.ModuleType]:
    """(released, current), each loaded by path."""
    return load_by_path(RELEASED_NAME, RELEASED_PATH), load_by_path(CURRENT_NAME, CURRENT_PATH)


def compare(progress: Callable[[str], None] | None = None) -> Comparison:
    started = time.process_time()
    released, current = load_gates()
    made = cases([released.SECRET_RULES, current.SECRET_RULES])
    if progress is not None:
        progress(f"{len(made)} cases made in {time.process_time() - started:.1f} s of CPU")
    old = {name: Tally() for name in (*CORPORA, "all")}
    new = {name: Tally() for name in (*CORPORA, "all")}
    outcomes = []
    for item in made:
        outcome = Outcome(item, judge(released, item.text), judge(current, item.text))
        outcomes.append(outcome)
        for tallies, verdict in ((old, outcome.old), (new, outcome.new)):
            tallies[item.corpus].add(item, verdict)
            tallies["all"].add(item, verdict)
    return Comparison(outcomes, old, new, time.process_time() - started)


def report(comparison: Comparison, show_text: bool = False) -> Iterable[str]:
    for outcome in comparison.differences:
        item = outcome.case
        yield f"{item.key}  {outcome.old} -> {outcome.new}  ({item.description}, {len(item.text)} characters)"
        if show_text:
            yield f"    {item.text[:200]!r}"
    for corpus in (*CORPORA, "all"):
        count = sum(1 for outcome in comparison.outcomes if corpus in ("all", outcome.case.corpus))
        differ = sum(1 for outcome in comparison.differences if corpus in ("all", outcome.case.corpus))
        yield f"{corpus}: {count} cases, {differ} differ"
        yield f"  0.2.0:   {comparison.old[corpus].line()}"
        yield f"  current: {comparison.new[corpus].line()}"
    yield f"{comparison.seconds:.1f} s of CPU"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--show-text", action="store_true", help="print each differing text (cut at 200 characters)")
    args = parser.parse_args(argv)
    comparison = compare(progress=lambda line: print(line, file=sys.stderr))
    for line in report(comparison, args.show_text):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
