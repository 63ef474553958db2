"""How much of the paste corpus the secret gate refuses, by class.

    python -I tools/measure_paste_corpus.py [--seed N] [--show-misses] [--json]

Each case of tests/paste_corpus.py (conversation text as people paste it,
eight classes, a secret side and a clean side) is judged by the gate the
selection check uses on one text, ``judge_text``.  Prints, per class, the
secret texts refused n/N (%) and the clean texts refused n/N, the totals,
the goal (at least 97% of secret texts refused in every class, at most 1 in
200 clean texts refused) and the command line that printed them.

--show-misses lists each secret text that passed and each clean text that
was refused by case id, class and template id: never the text, which holds
generated secrets, unless --show-text asks for it (for debugging a miss).
--json prints the same figures as one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests"))

import paste_corpus

import conversation_projection as cp

DEFAULT_SEED = 39
GOAL_REFUSED = 0.97
GOAL_CLEAN_REFUSED = 1 / 200


def refused(text: str) -> bool:
    hit, _work = cp.judge_text(text)
    return hit is not None


def measure(seed: int) -> dict[str, Any]:
    """Figures per class: secret texts refused and clean texts refused, with
    the ids of the cases the gate got wrong."""
    classes: dict[int, dict[str, Any]] = {
        cls: {"name": name, "secret": 0, "secretRefused": 0, "clean": 0, "cleanRefused": 0, "misses": []}
        for cls, name in paste_corpus.CLASSES.items()
    }
    for case in paste_corpus.cases(seed):
        row = classes[case.cls]
        verdict = refused(case.text)
        side = "secret" if case.expected == paste_corpus.REFUSE else "clean"
        row[side] += 1
        row[side + "Refused"] += verdict
        if verdict != (case.expected == paste_corpus.REFUSE):
            row["misses"].append(
                {"id": case.id, "template": case.template, "expected": case.expected, "text": case.text}
            )
    totals = {
        key: sum(row[key] for row in classes.values()) for key in ("secret", "secretRefused", "clean", "cleanRefused")
    }
    return {"seed": seed, "classes": classes, "totals": totals}


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def table(figures: dict[str, Any], command: str) -> list[str]:
    lines = [f"paste corpus, seed {figures['seed']}: secret texts refused / clean texts refused, by class", ""]
    lines.append(f"{'class':<44} {'secret refused':>22} {'clean refused':>20}")
    for cls, row in figures["classes"].items():
        secret = f"{row['secretRefused']}/{row['secret']} ({percent(row['secretRefused'], row['secret'])})"
        clean = f"{row['cleanRefused']}/{row['clean']} ({percent(row['cleanRefused'], row['clean'])})"
        lines.append(f"{f'{cls}. ' + row['name']:<44} {secret:>22} {clean:>20}")
    t = figures["totals"]
    secret = f"{t['secretRefused']}/{t['secret']} ({percent(t['secretRefused'], t['secret'])})"
    clean = f"{t['cleanRefused']}/{t['clean']} ({percent(t['cleanRefused'], t['clean'])})"
    lines.append(f"{'total':<44} {secret:>22} {clean:>20}")
    short = [str(cls) for cls, row in figures["classes"].items() if row["secretRefused"] < GOAL_REFUSED * row["secret"]]
    lines.append("")
    lines.append(
        f"goal: >= {GOAL_REFUSED:.0%} of secret texts refused in every class (short of it: "
        f"{', '.join(short) or 'none'}); <= 1 in {round(1 / GOAL_CLEAN_REFUSED)} clean texts refused "
        f"({'met' if t['cleanRefused'] <= GOAL_CLEAN_REFUSED * t['clean'] else 'not met'})"
    )
    lines.append(f"command: {command}")
    return lines


def misses(figures: dict[str, Any], show_text: bool = False) -> list[str]:
    lines = ["", "misses (secret text passed / clean text refused): case id, class, template"]
    for cls, row in figures["classes"].items():
        for miss in row["misses"]:
            what = "passed" if miss["expected"] == paste_corpus.REFUSE else "refused"
            lines.append(f"{miss['id']:<16} class {cls} {what:<8} template {miss['template']}")
            if show_text:
                lines.append("    " + repr(miss["text"]))
    return lines


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--show-misses", action="store_true", help="list case ids the gate got wrong (no text)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--show-text", action="store_true", help="with --show-misses, each missed case's text too (debugging only)"
    )
    args = parser.parse_args(argv)
    figures = measure(args.seed)
    command = (
        "python -I tools/measure_paste_corpus.py " + " ".join(argv)
        if argv
        else "python -I tools/measure_paste_corpus.py"
    )
    for row in figures["classes"].values():
        for miss in row["misses"]:
            if not args.show_text:
                del miss["text"]
    if args.json:
        if not args.show_misses:
            for row in figures["classes"].values():
                del row["misses"]
        figures["command"] = command.strip()
        figures["goal"] = {"secretRefusedPerClass": GOAL_REFUSED, "cleanRefused": GOAL_CLEAN_REFUSED}
        print(json.dumps(figures, indent=2, ensure_ascii=False))
        return 0
    lines = table(figures, command.strip())
    if args.show_misses:
        lines += misses(figures, args.show_text)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
