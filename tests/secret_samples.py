"""The one generator of secret-shaped test samples.

Nothing secret-shaped is ever committed: every sample is made at run time
from `random`, either from the small alphabets below or from a pattern of
the module's table (a row's ``example``), read with the standard library's
own regular expression parser.  Lookarounds and anchors are skipped, a
repetition picks a length in its range, and a long run of one character
class holds a digit, a lower- and an upper-case letter wherever the class
has them (as real tokens almost always do; chance alone could otherwise
make one read as a word).
"""

from __future__ import annotations

import random
import re
import string
from typing import Any

try:
    import re._constants as sre_constants
    import re._parser as sre_parse
except ImportError:  # pragma: no cover - Python before 3.11
    import sre_constants  # type: ignore[no-redef]
    import sre_parse  # type: ignore[no-redef]

UPPER = string.ascii_uppercase
LOWER = string.ascii_lowercase
DIGITS = string.digits
ALNUM = string.ascii_letters + DIGITS
URLSAFE = ALNUM + "_-"
B64 = ALNUM + "+/"
HEX = "0123456789abcdef"
# What a negated class or "." draws from: printable, no space or quote.
DRAWABLE = ALNUM + "!#$%&*+-./:=?@^_~"
# Lengths drawn for an open-ended repetition, above its minimum.
OPEN_ENDED_EXTRA = 24
# A run this long of one class is made to hold every kind of character the
# class admits.
MIXED_FROM = 8


def rand(alphabet: str, length: int, rng: random.Random) -> str:
    return "".join(rng.choice(alphabet) for _ in range(length))


def mixed(alphabet: str, length: int, rng: random.Random) -> str:
    """Random text of the alphabet that has a digit, a lower- and an upper-
    case letter (where the alphabet has them)."""
    classes = [c for c in (DIGITS, LOWER, UPPER) if set(c) & set(alphabet)]
    if length < len(classes):
        return rand(alphabet, length, rng)
    while True:
        value = rand(alphabet, length, rng)
        if all(set(value) & set(c) for c in classes):
            return value


def password(rng: random.Random) -> str:
    """A made-up password: letters of both cases, digits, a symbol."""
    parts = [rand(UPPER, 2, rng), rand(LOWER, 5, rng), rand(DIGITS, 3, rng), rng.choice("!^*")]
    rng.shuffle(parts)
    return "".join(parts)


def human_password(rng: random.Random) -> str:
    """A password as people choose them: a capitalized made-up word, a
    symbol and digits (Welcome@123, Qwerty_123 in shape, never in letters)."""
    word = rng.choice(UPPER) + rand(LOWER, rng.randint(4, 7), rng)
    return word + rng.choice("@#_!") + rand(DIGITS, rng.randint(3, 4), rng)


def symbol_password(rng: random.Random) -> str:
    """A made-up password with an unencoded "#" or "/" in it, as pasted into
    a URL's credentials."""
    return password(rng) + rng.choice("#/") + rand(ALNUM, 4, rng)


def uuid(rng: random.Random) -> str:
    return "-".join(rand(HEX, n, rng) for n in (8, 4, 4, 4, 12))


def _class_chars(items: list[tuple[Any, Any]]) -> str:
    chars: list[str] = []
    negate = False
    for op, arg in items:
        if op is sre_constants.NEGATE:
            negate = True
        elif op is sre_constants.LITERAL:
            chars.append(chr(arg))
        elif op is sre_constants.RANGE:
            chars.extend(chr(c) for c in range(arg[0], arg[1] + 1) if c < 128)
        elif op is sre_constants.CATEGORY:
            chars.extend(
                {
                    sre_constants.CATEGORY_DIGIT: DIGITS,
                    sre_constants.CATEGORY_WORD: ALNUM + "_",
                    sre_constants.CATEGORY_SPACE: " ",
                }.get(arg, "")
            )
    if negate:
        return "".join(c for c in DRAWABLE if c not in chars)
    return "".join(dict.fromkeys(c for c in chars if c.isprintable()))


def _length(low: int, high: int, rng: random.Random) -> int:
    if high == sre_constants.MAXREPEAT:
        high = low + OPEN_ENDED_EXTRA
    return rng.randint(low, min(high, low + 2 * OPEN_ENDED_EXTRA))


def _generate(parsed: Any, rng: random.Random) -> str:
    out: list[str] = []
    for op, arg in parsed:
        if op is sre_constants.LITERAL:
            out.append(chr(arg))
        elif op is sre_constants.NOT_LITERAL:
            out.append(rng.choice([c for c in DRAWABLE if ord(c) != arg]))
        elif op is sre_constants.ANY:
            out.append(rng.choice(DRAWABLE))
        elif op is sre_constants.IN:
            out.append(rng.choice(_class_chars(arg)))
        elif op in (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT, sre_constants.POSSESSIVE_REPEAT):
            low, high, sub = arg
            count = _length(low, high, rng)
            items = list(sub)
            if len(items) == 1 and items[0][0] is sre_constants.IN and count >= MIXED_FROM:
                out.append(mixed(_class_chars(items[0][1]), count, rng))
            else:
                out.extend(_generate(sub, rng) for _ in range(count))
        elif op is sre_constants.SUBPATTERN:
            out.append(_generate(arg[-1], rng))
        elif op is sre_constants.ATOMIC_GROUP:
            out.append(_generate(arg, rng))
        elif op is sre_constants.BRANCH:
            out.append(_generate(rng.choice(arg[1]), rng))
        # Lookarounds, anchors and group references add nothing.
    return "".join(out)


def from_pattern(pattern: str, rng: random.Random) -> str:
    """A random string of the pattern's shape."""
    return _generate(sre_parse.parse(pattern, re.ASCII), rng)
