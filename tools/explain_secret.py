"""Why a text passes the secret gate, or what refuses it: for maintainers.

    python tools/explain_secret.py < text.txt
    python tools/explain_secret.py 'password: Summer2024'
    python tools/explain_secret.py -- --help       # the text "--help"

Prints the text as the gate reads it (folded as a reader sees it), each row
its keywords call for, each candidate that row matched with the judgement
that decided it (``value_judgement: reason``, ``key_judgement: reason``, or
``secret``), and the verdict.  It prints the text it is given: run it on
your own examples, never on a selection whose contents are private.  The
command line of the adapter itself prints no content.  The words given are
joined by spaces into one text; a text that starts with "-" follows "--".
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import conversation_projection as cp


def explain(text: str) -> list[str]:
    lines: list[str] = []
    hit, work = cp.judge_text(text, explain=lines.append)
    lines.append(f"judging it took {work} units of work")
    if hit is None:
        lines.append("passes")
    else:
        lines.append(f"refused: {cp.hit_family(hit)} at offset {hit[0]}")
    return lines


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("words", nargs="*", help="the text to judge (default: standard input)")
    words = parser.parse_args(argv).words
    text = " ".join(words) if words else sys.stdin.read()
    print("\n".join(explain(text)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
