"""Write the Unicode tables that conversation_projection.py embeds, from the Unicode data files.

    python tools/gen_unicode_tables.py [DATA_DIR]          print the block of tables
    python tools/gen_unicode_tables.py --write [DATA_DIR]  replace the block in the module

DATA_DIR holds the Unicode Character Database as Debian's `unicode-data` package installs
it (/usr/share/unicode, the default): Scripts.txt, ScriptExtensions.txt,
PropertyValueAliases.txt, PropList.txt, DerivedCoreProperties.txt,
StandardizedVariants.txt, extracted/DerivedGeneralCategory.txt and emoji/emoji-*.txt.  The
block is text the module keeps between two marker lines; tests/test_agent_reads.py runs
this script again and fails when the module's copy differs, so the tables cannot drift.

Every table is a string of code point ranges in hex ("0600-0604 061C"), wrapped.  A range
may run across code points that no data file assigns (they stand for nothing yet), never
across an assigned one that does not belong, nor across a default-ignorable one.  Tables
keyed by a name (a script, a selector) start each key's ranges with "NAME=".
"""

from __future__ import annotations

import bisect
import os
import re
import sys
from collections.abc import Iterable

HERE = os.path.dirname(os.path.abspath(__file__))
MODULE = os.path.join(os.path.dirname(HERE), "conversation_projection.py")
DEFAULT_DATA = "/usr/share/unicode"
BEGIN = "# BEGIN UNICODE TABLES: written by tools/gen_unicode_tables.py, checked against the data by a test."
END = "# END UNICODE TABLES"
WIDTH = 120
INDENT = "    "

# The letters and marks of these scripts take no joiner (rule 3): their words never need one.
NON_JOINING_SCRIPTS = frozenset({"Latin", "Greek", "Cyrillic", "Common", "Inherited", "Unknown"})
# Scripts written without spaces between words (rule 4).
SPACELESS_SCRIPTS = ("Thai", "Lao", "Khmer", "Myanmar", "Han", "Hiragana", "Katakana")
# What looks blank although its category is a letter or a symbol: the Hangul fillers and
# the blank braille pattern.
BLANK_LOOKING = (0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800)


def data_lines(path: str) -> Iterable[list[str]]:
    """The fields of each data line, comments and blank lines left out."""
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            content = line.split("#", 1)[0].strip()
            if content:
                yield [field.strip() for field in content.split(";")]


def code_points(field: str) -> range:
    first, _, last = field.partition("..")
    return range(int(first, 16), int(last or first, 16) + 1)


def property_sets(path: str, skip: frozenset[str] = frozenset()) -> dict[str, set[int]]:
    """Value (or binary property name) -> its code points, from a `cp ; value` file."""
    found: dict[str, set[int]] = {}
    for fields in data_lines(path):
        if fields[1] not in skip:
            found.setdefault(fields[1], set()).update(code_points(fields[0]))
    return found


def version_of(path: str) -> str:
    """The Unicode version a data file names in its first line ("# Scripts-15.0.0.txt")."""
    with open(path, encoding="utf-8") as handle:
        first = handle.readline()
    match = re.search(r"-(\d+\.\d+\.\d+)\.txt", first)
    if match is None:
        raise SystemExit(f"no version in the first line of {path}")
    return match.group(1)


class Data:
    """The properties the tables are made of."""

    def __init__(self, root: str) -> None:
        self.version = version_of(os.path.join(root, "DerivedCoreProperties.txt"))
        categories = property_sets(os.path.join(root, "extracted", "DerivedGeneralCategory.txt"), frozenset({"Cn"}))
        self.category_of = {cp: value for value, cps in categories.items() for cp in cps}
        self.script_of = {
            cp: value for value, cps in property_sets(os.path.join(root, "Scripts.txt")).items() for cp in cps
        }
        # Script_Extensions: the scripts a character of Common or Inherited is
        # used with (the long iteration mark, the ideographic full stop).
        short = {
            fields[1]: fields[2]
            for fields in data_lines(os.path.join(root, "PropertyValueAliases.txt"))
            if fields[0] == "sc"
        }
        self.extensions: dict[int, set[str]] = {}
        for fields in data_lines(os.path.join(root, "ScriptExtensions.txt")):
            for cp in code_points(fields[0]):
                self.extensions[cp] = {short[code] for code in fields[1].split()}
        core = property_sets(os.path.join(root, "DerivedCoreProperties.txt"))
        self.ignorable = core["Default_Ignorable_Code_Point"]
        self.unified = property_sets(os.path.join(root, "PropList.txt"))["Unified_Ideograph"]
        emoji = property_sets(os.path.join(root, "emoji", "emoji-data.txt"))
        self.pictographs = emoji["Emoji"] & emoji["Extended_Pictographic"]
        self.modifiers = emoji["Emoji_Modifier"]
        self.variation_bases = {
            int(fields[0].split()[0], 16)
            for fields in data_lines(os.path.join(root, "emoji", "emoji-variation-sequences.txt"))
        }
        self.standardized: dict[int, set[int]] = {}
        for fields in data_lines(os.path.join(root, "StandardizedVariants.txt")):
            base, selector = (int(cp, 16) for cp in fields[0].split())
            self.standardized.setdefault(selector, set()).add(base)
        # Ranges never run across these: every assigned or default-ignorable code point.
        self.blocking = sorted(set(self.category_of) | self.ignorable)

    def of_category(self, major: str) -> set[int]:
        return {cp for cp, value in self.category_of.items() if value[0] in major and cp not in self.ignorable}

    def ranges(self, members: set[int]) -> list[tuple[int, int]]:
        """Sorted, merged ranges; a gap holding nothing assigned is bridged."""
        merged: list[tuple[int, int]] = []
        for cp in sorted(members):
            if merged:
                first, last = merged[-1]
                after = bisect.bisect_right(self.blocking, last)
                if after == len(self.blocking) or self.blocking[after] >= cp:
                    merged[-1] = (first, cp)
                    continue
            merged.append((cp, cp))
        return merged


def spelled(ranges: list[tuple[int, int]]) -> list[str]:
    return [f"{first:04X}" if first == last else f"{first:04X}-{last:04X}" for first, last in ranges]


def table(name: str, comment: str, tokens: list[str]) -> list[str]:
    """One assignment, on one line when it fits, else wrapped in parentheses."""
    lines = [f"# {comment}"]
    single = f'{name} = "{" ".join(tokens)}"'
    if len(single) <= WIDTH:
        return [*lines, single]
    rows: list[str] = []
    for token in tokens:
        if rows and len(INDENT) + len(rows[-1]) + len(token) + 3 <= WIDTH:
            rows[-1] += " " + token
        else:
            rows.append(token if not rows else " " + token)
    return [*lines, f"{name} = (", *(f'{INDENT}"{row}"' for row in rows), ")"]


def keyed(groups: dict[str, list[tuple[int, int]]]) -> list[str]:
    tokens: list[str] = []
    for key in sorted(groups):
        first, *rest = spelled(groups[key])
        tokens += [f"{key}={first}", *rest]
    return tokens


def block(data: Data) -> str:
    letters = data.of_category("L")
    marks = data.of_category("M")
    joining: dict[str, set[int]] = {}
    for cp in letters | marks:
        script = data.script_of.get(cp, "Unknown")
        if script not in NON_JOINING_SCRIPTS:
            joining.setdefault(script, set()).add(cp)
    inherited_marks = {cp for cp in marks if data.script_of.get(cp) == "Inherited"}
    spaceless = {cp for cp, script in data.script_of.items() if script in SPACELESS_SCRIPTS}
    spaceless.update(cp for cp, scripts in data.extensions.items() if scripts & set(SPACELESS_SCRIPTS))
    mongolian = {cp for cp in letters if data.script_of.get(cp) == "Mongolian"}
    visible = data.of_category("LNPS") - set(BLANK_LOOKING)
    selectors = {
        f"{selector:04X}": data.ranges(bases) for selector, bases in data.standardized.items() if selector >= 0xFE00
    }
    lines = [
        BEGIN,
        f'UNICODE_TABLES_VERSION = "{data.version}"',
        *table(
            "UCD_DEFAULT_IGNORABLE",
            "Default_Ignorable_Code_Point: drawn as nothing.",
            spelled(data.ranges(data.ignorable)),
        ),
        *table(
            "UCD_VISIBLE",
            "General category L, N, P or S, other than the Hangul fillers and the blank braille pattern.",
            spelled(data.ranges(visible)),
        ),
        *table("UCD_LETTERS", "General category L.", spelled(data.ranges(letters))),
        *table(
            "UCD_MARKS",
            "General category M, other than default-ignorable marks (the selectors).",
            spelled(data.ranges(marks)),
        ),
        *table(
            "UCD_INHERITED_MARKS",
            "Marks of the Inherited script: they belong to the script of the letter they follow.",
            spelled(data.ranges(inherited_marks)),
        ),
        *table(
            "UCD_JOINING_SCRIPTS",
            "Letters and marks by script, for every script but Latin, Greek, Cyrillic, Common and Inherited.",
            keyed({script: data.ranges(cps) for script, cps in joining.items()}),
        ),
        *table(
            "UCD_SPACELESS",
            "Script or Script_Extensions " + ", ".join(SPACELESS_SCRIPTS) + ": written without spaces.",
            spelled(data.ranges(spaceless)),
        ),
        *table("UCD_MONGOLIAN_LETTERS", "Letters of the Mongolian script.", spelled(data.ranges(mongolian))),
        *table(
            "UCD_STANDARDIZED_VARIANTS",
            "Bases of each variation selector U+FE00-U+FE0D in StandardizedVariants.txt.",
            keyed(selectors),
        ),
        *table("UCD_UNIFIED_IDEOGRAPHS", "Unified_Ideograph (PropList.txt).", spelled(data.ranges(data.unified))),
        *table(
            "UCD_EMOJI_VARIATION_BASES",
            "Characters with a text and an emoji presentation (emoji-variation-sequences.txt).",
            spelled(data.ranges(data.variation_bases)),
        ),
        *table(
            "UCD_EMOJI_PICTOGRAPHS",
            "Emoji and Extended_Pictographic: what an emoji ZWJ sequence joins.",
            spelled(data.ranges(data.pictographs)),
        ),
        *table("UCD_EMOJI_MODIFIERS", "Emoji_Modifier: the skin tones.", spelled(data.ranges(data.modifiers))),
        END,
    ]
    return "\n".join(lines) + "\n"


def module_block(source: str) -> tuple[int, int]:
    """Where the block starts and ends in the module's source."""
    start = source.index(BEGIN)
    end = source.index(END, start) + len(END) + 1
    return start, end


def main(argv: list[str]) -> int:
    write = "--write" in argv
    paths = [arg for arg in argv if arg != "--write"]
    text = block(Data(paths[0] if paths else DEFAULT_DATA))
    if not write:
        sys.stdout.write(text)
        return 0
    with open(MODULE, encoding="utf-8") as handle:
        source = handle.read()
    start, end = module_block(source)
    with open(MODULE, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(source[:start] + text + source[end:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
