"""Compare the verdicts of the gate and the text rules under every CPython 3.11 to 3.13 on the machine.

    python tools/compare_python_verdicts.py [--show-text]

CPython 3.11, 3.12 and 3.13 carry Unicode 14.0, 15.0 and 15.1.  Each is asked, in a fresh
``python -I`` process, what its str methods, re and unicodedata answer for every code
point (ANSWERS); a character whose answers differ between them is an unsettled one.  Then
each judges the same texts, in another fresh process that loads conversation_projection.py
by path and runs its public ``check_selection`` on a selection holding the text as its only
summary text (the verdict as compare_secret_verdicts.py spells it):

- the corpus: every case of tools/compare_secret_verdicts.py (the gate's generated
  samples, its look-alikes and the gitleaks-style peer section);
- every unsettled character in each of templates(): a password key that starts or ends
  with it, a value that starts, ends or goes on with it, a placeholder word it ends, a
  token it stands before or after, a Greek word whose final sigma it follows, the
  character alone, after marks, and in place of the letter it folds to in key words.

Prints each text whose verdicts differ (the interpreters and their verdicts; the text
itself only with --show-text), then "verdict differences between 3.11, 3.12, 3.13 over N
texts: D".  Exits 0: it is a report; tests/test_agent_reads.py holds the figure at 0.
"""

from __future__ import annotations

import argparse
import array
import json
import os
import random
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESTS = os.path.join(ROOT, "tests")
MODULE = os.path.join(ROOT, "conversation_projection.py")
sys.path[:0] = [TESTS, os.path.dirname(os.path.abspath(__file__))]

import compare_secret_verdicts  # noqa: E402
import secret_samples  # noqa: E402
from cp_testlib import branch, released_pythons, selection, summary  # noqa: E402

# What a child prints: for every code point a CRC-32 of what a string method, re or
# unicodedata answers for it, as unsigned 32-bit integers in the machine's order, twice:
# of the answers the module's gate and text rules may ask, then of those and the ones
# they never ask (numeric values, identifiers).
ANSWERS = r"""
import array, re, sys, unicodedata, zlib
import _sre

try:
    from re._casefix import _EXTRA_CASES
except ImportError:
    _EXTRA_CASES = {}
word, digit, space = re.compile(r"\w"), re.compile(r"\d"), re.compile(r"\s")
unassigned = zlib.crc32(b"Cn")
read, out = array.array("I"), array.array("I")
for code in range(sys.maxunicode + 1):
    char = chr(code)
    category = unicodedata.category(char)
    if category == "Cn" and code not in _EXTRA_CASES:
        read.append(unassigned)
        out.append(unassigned)
        continue
    answers = [
        category, unicodedata.combining(char), unicodedata.decimal(char, None), unicodedata.digit(char, None),
        *(unicodedata.normalize(form, char) for form in ("NFC", "NFD", "NFKC", "NFKD")),
        char.lower(), char.upper(), char.casefold(), char.title(), char.swapcase(),
        char.isalpha(), char.isalnum(), char.isdigit(), char.isdecimal(), char.islower(), char.isupper(),
        char.istitle(), char.isspace(), char.isprintable(), char.splitlines() != [char],
        word.match(char) is not None, digit.match(char) is not None, space.match(char) is not None,
        _sre.unicode_iscased(code), _sre.unicode_tolower(code), _EXTRA_CASES.get(code),
        # Final sigma: whether the character is cased or case-ignorable.
        ("\u03a3" + char).lower(), ("A\u03a3" + char).lower(),
    ]
    read.append(zlib.crc32(repr(answers).encode("utf-8", "surrogatepass")))
    answers += [char.isnumeric(), unicodedata.numeric(char, None), char.isidentifier(), ("a" + char).isidentifier()]
    out.append(zlib.crc32(repr(answers).encode("utf-8", "surrogatepass")))
sys.stdout.buffer.write(read.tobytes() + out.tobytes())
"""

# What a child runs for a JSON file of a selection and texts: the verdict of the
# selection with each text as its one summary text, as JSON.
JUDGE = r"""
import importlib.util, json, sys

spec = importlib.util.spec_from_file_location("conversation_projection_judged", sys.argv[1])
module = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = module
spec.loader.exec_module(module)
TEXT_AT = "/branches/0/summaries/0/text"
verdicts = []
with open(sys.argv[2], encoding="utf-8") as handle:
    given = json.load(handle)
value = given["selection"]
for text in given["texts"]:
    value["branches"][0]["summaries"][0]["text"] = text
    try:
        module.check_selection(value)
    except module.ProjectionError as error:
        verdict = str(error.code)
        if getattr(error, "rule", None) is not None:
            verdict += ":" + error.rule
        if error.at != TEXT_AT:
            verdict += "@" + str(error.at)
        verdicts.append(verdict)
    else:
        verdicts.append("accepted")
json.dump(verdicts, sys.stdout)
"""

SEED = 40


def templates(rng: random.Random) -> list[Callable[[str], str]]:
    """Texts around one character, their values made at run time."""
    value = secret_samples.password(rng)
    token = "ghp_" + secret_samples.mixed(secret_samples.ALNUM, 36, rng)
    long_value = secret_samples.mixed(secret_samples.ALNUM, 20, rng)
    return [
        lambda c: f"{c}password: {value}",
        lambda c: f"password{c}: {value}",
        lambda c: f"db{c}password = {value}",
        lambda c: f"password: {value}{c}",
        lambda c: f"password: {c}{value}",
        lambda c: f"password: changeme{c}",
        lambda c: f"Authorization: Bearer changeme{c}",
        lambda c: f"The password is {c}Summer",
        lambda c: f'{{"api_key": "{long_value[:10]}{c}{long_value[10:]}"}}',
        lambda c: f"token: {c * 12}",
        lambda c: f"{token}{c}",
        lambda c: f"{c}{token}",
        lambda c: f"\u039f\u0394\u039f\u03a3{c} secret: {value}",
        lambda c: c,
        lambda c: f"Notes on {c} and the cafe\u0301{c}\u0316 rules.",
    ]


# Key words a character may stand in, for one of their letters that it folds to.
KEY_WORDS = ("password", "passwort", "\u043f\u0430\u0440\u043e\u043b\u044c", "secret", "token", "credentials")


def in_key_words(char: str, folded: str, value: str) -> list[str]:
    """A password assignment for each key word that holds the character's fold,
    the character in the place of the first such letter."""
    return [
        f"{word[:index]}{char}{word[index + len(folded) :]}: {value}"
        for word in KEY_WORDS
        for index in [word.find(folded)]
        if folded and index >= 0
    ]


@dataclass(frozen=True)
class Difference:
    text: str
    verdicts: dict[str, str]


def side_by_side(pythons: dict[int, str], args: Sequence[str]) -> list[bytes]:
    """What each interpreter prints for the same arguments, run at once."""
    children = [
        subprocess.Popen([pythons[minor], "-I", *args], stdout=subprocess.PIPE, stdin=subprocess.DEVNULL)
        for minor in sorted(pythons)
    ]
    outputs = [child.communicate(timeout=1800)[0] for child in children]
    if any(child.returncode for child in children):
        raise RuntimeError("a child failed")
    return outputs


def unsettled(pythons: dict[int, str]) -> tuple[list[int], list[int]]:
    """The code points whose answers differ between the interpreters: those
    the module may ask, and all of them (see ANSWERS)."""
    tables = []
    for output in side_by_side(pythons, ["-c", ANSWERS]):
        tables.append(array.array("I"))
        tables[-1].frombytes(output)
    differ = [code for code, values in enumerate(zip(*tables, strict=True)) if len(set(values)) > 1]
    size = len(tables[0]) // 2
    return [code for code in differ if code < size], [code - size for code in differ if code >= size]


def texts(characters: Iterable[int]) -> list[str]:
    """The corpus, then every character in every template, and in the key
    words that hold what it folds to (as the module reads it); each text once."""
    import conversation_projection as cp

    made = [item.text for item in compare_secret_verdicts.cases([cp.SECRET_RULES])]
    rng = random.Random(SEED)  # noqa: S311 - reproducible test data, not a secret
    shapes = templates(rng)
    value = secret_samples.password(rng)
    for code in characters:
        made += [shape(chr(code)) for shape in shapes]
        made += in_key_words(chr(code), cp.fold_for_scan(chr(code)).lower(), value)
    return list(dict.fromkeys(made))


def differences(pythons: dict[int, str], judged: Sequence[str], module: str = MODULE) -> list[Difference]:
    """Each text whose verdict is not the same under every interpreter."""
    with tempfile.TemporaryDirectory() as work:
        path = os.path.join(work, "texts.json")
        value = selection(1, [branch("b", summaries=[summary("s", "")])])
        with open(path, "w", encoding="utf-8") as handle:
            json.dump({"selection": value, "texts": list(judged)}, handle)
        columns = [json.loads(output) for output in side_by_side(pythons, ["-c", JUDGE, module, path])]
    names = [f"3.{minor}" for minor in sorted(pythons)]
    return [
        Difference(text, dict(zip(names, row, strict=True)))
        for text, *row in zip(judged, *columns, strict=True)
        if len(set(row)) > 1
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--show-text", action="store_true", help="print each differing text")
    parser.add_argument("--module", default=MODULE, help="the module judged (another copy of it, say)")
    args = parser.parse_args(argv)
    pythons = released_pythons()
    names = ", ".join(f"3.{minor}" for minor in sorted(pythons))
    characters = unsettled(pythons)[1]
    print(f"{len(characters)} characters whose answers differ between {names}", file=sys.stderr)
    judged = texts(characters)
    found = differences(pythons, judged, args.module)
    for difference in found:
        line = "  ".join(f"{name} {verdict}" for name, verdict in difference.verdicts.items())
        print(line + (f"  {difference.text[:200]!r}" if args.show_text else ""))
    print(f"verdict differences between {names} over {len(judged)} texts: {len(found)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
