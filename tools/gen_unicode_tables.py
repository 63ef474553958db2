"""Write the Unicode tables that conversation_projection.py embeds, from the Unicode data files.

    python tools/gen_unicode_tables.py [DATA_DIR]          print the block of tables
    python tools/gen_unicode_tables.py --write [DATA_DIR]  replace the block in the module

DATA_DIR holds the Unicode Character Database as Debian's `unicode-data` package installs
it (/usr/share/unicode, the default): Scripts.txt, ScriptExtensions.txt,
PropertyValueAliases.txt, PropList.txt, DerivedCoreProperties.txt,
StandardizedVariants.txt, UnicodeData.txt, DerivedAge.txt, DerivedNormalizationProps.txt,
CaseFolding.txt, SpecialCasing.txt, extracted/DerivedGeneralCategory.txt,
extracted/DerivedNumericType.txt and emoji/emoji-*.txt.  The
block is text the module keeps between two marker lines; tests/test_agent_reads.py runs
this script again and fails when the module's copy differs, so the tables cannot drift.

Every table is a string of code point ranges in hex ("0600-0604 061C"), wrapped.  A range
may run across code points that no data file assigns (they stand for nothing yet), never
across an assigned one that does not belong, nor across a default-ignorable one.  Tables
keyed by a name (a script, a selector) start each key's ranges with "NAME=".  UCD_READINGS
bridges nothing: each of its ranges ends in ">TARGET", the first code point of what the
range reads as.
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
# The Unicode version before the data's: CPython 3.11 carries 14.0, 3.12 the data's 15.0.
PREVIOUS_VERSION = "14.0"
# Characters older than PREVIOUS_VERSION that CPython 3.11 reads otherwise than the
# data does (no data file says what changed): Unicode 15.0 made these modifier letters
# Other_Lowercase, so 3.11 calls them not lower case.  tests/test_agent_reads.py asks
# each CPython on the machine again and fails on a difference this leaves out.
CHANGED_SINCE_PREVIOUS = (0x10FC, 0xA7F2, 0xA7F3, 0xA7F4, 0xAB69)
# The planes where Unicode assigns new characters (0 to 3); a code point there that the
# data leaves unassigned reads as the one this far above it, in planes 4 to 7, which no
# version has assigned and which every CPython reads as unassigned.
ASSIGNABLE_PLANES_END = 0x40000
UNASSIGNED_SHIFT = 0x40000
# A stand-in is looked for in the planes above the BMP first (historic scripts, which no
# pattern of the module names), then in the BMP above Latin-1.
STAND_IN_START = 0x100


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
        self.age = {
            cp: value for value, cps in property_sets(os.path.join(root, "DerivedAge.txt")).items() for cp in cps
        }
        self.fields = unicode_data(os.path.join(root, "UnicodeData.txt"))
        self.core = core
        self.white_space = property_sets(os.path.join(root, "PropList.txt"))["White_Space"]
        numeric = property_sets(os.path.join(root, "extracted", "DerivedNumericType.txt"))
        self.numeric_type = {cp: value for value, cps in numeric.items() for cp in cps}
        # What case mapping, case folding or normalization may change or compose.
        self.cased_specially = {int(fields[0], 16) for fields in data_lines(os.path.join(root, "SpecialCasing.txt"))}
        self.cased_specially |= {int(fields[0], 16) for fields in data_lines(os.path.join(root, "CaseFolding.txt"))}
        quick_checks = property_sets(os.path.join(root, "DerivedNormalizationProps.txt"))
        self.not_quick = set().union(*(quick_checks[name] for name in ("NFD_QC", "NFC_QC", "NFKD_QC", "NFKC_QC")))
        self.in_decompositions = {
            int(part, 16) for fields in self.fields.values() for part in fields[5].split() if not part.startswith("<")
        }

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


def unicode_data(path: str) -> dict[int, list[str]]:
    """The fields of UnicodeData.txt by code point, its First/Last ranges spread out."""
    found: dict[int, list[str]] = {}
    first: int | None = None
    for fields in data_lines(path):
        code = int(fields[0], 16)
        if fields[1].endswith(", First>"):
            first = code
            continue
        for cp in range(code if first is None else first, code + 1):
            found[cp] = fields
        first = None
    return found


def answers(data: Data, cp: int) -> tuple[object, ...]:
    """What Python's str methods, re and unicodedata can tell of a character with no
    decomposition and no case mapping (makeunicodedata.py's flags): its category and
    combining class, its decimal and digit values and numeric type, the case properties
    lower(), upper(), isidentifier() and friends read, and whether it is a space."""
    fields = data.fields[cp]
    core = data.core
    space = fields[4] in ("WS", "B", "S") or fields[2] == "Zs" or cp in data.white_space
    return (
        fields[2],
        fields[3],
        fields[6],
        fields[7],
        data.numeric_type.get(cp),
        *(cp in core[name] for name in ("Lowercase", "Uppercase", "Cased", "Case_Ignorable")),
        *(cp in core[name] for name in ("XID_Start", "XID_Continue")),
        space,
    )


def compatibility_form(data: Data, cp: int) -> list[int]:
    """The full compatibility decomposition (NFKD) of a character, from the data."""
    mapping = data.fields[cp][5].split()
    if not mapping:
        return [cp]
    return [part for code in mapping if not code.startswith("<") for part in compatibility_form(data, int(code, 16))]


def can_stand_in(data: Data, cp: int) -> bool:
    """A character no supported CPython reads otherwise and that nothing changes: no
    decomposition, no case mapping, part of no other character's decomposition (so it
    composes with nothing), not default-ignorable, assigned before PREVIOUS_VERSION."""
    fields = data.fields.get(cp)
    return (
        fields is not None
        and cp >= STAND_IN_START
        and fields[2] != "Cs"
        and fields[2] != "Co"
        and not fields[5]
        and not any(fields[12:15])
        and cp not in data.cased_specially
        and cp not in data.not_quick
        and cp not in data.in_decompositions
        and cp not in data.ignorable
        and not 0xAC00 <= cp <= 0xD7A3
        and float(data.age[cp]) < float(PREVIOUS_VERSION)
        and cp not in CHANGED_SINCE_PREVIOUS
    )


def stand_ins(data: Data, added: list[int]) -> dict[int, int]:
    """For each added character without a decomposition, a distinct older one with
    the same answers; a run of consecutive added characters gets a run of consecutive
    stand-ins where one exists (so that characters that follow each other still do)."""
    pool: dict[tuple[object, ...], list[int]] = {}
    order = [cp for cp in sorted(data.fields) if cp >= 0x10000] + [cp for cp in sorted(data.fields) if cp < 0x10000]
    for cp in order:
        if can_stand_in(data, cp):
            pool.setdefault(answers(data, cp), []).append(cp)
    used: set[int] = set()
    found: dict[int, int] = {}
    runs: list[list[int]] = []
    for cp in added:
        if runs and runs[-1][-1] == cp - 1 and answers(data, cp)[:2] == answers(data, runs[-1][-1])[:2]:
            runs[-1].append(cp)
        else:
            runs.append([cp])
    for run in runs:
        wanted = [answers(data, cp) for cp in run]
        for start in pool.get(wanted[0], []):
            places = range(start, start + len(run))
            if all(
                p not in used and can_stand_in(data, p) and answers(data, p) == w
                for p, w in zip(places, wanted, strict=True)
            ):
                break
        else:
            # No run fits: each character gets the first free one with its answers.
            for cp, want in zip(run, wanted, strict=True):
                free = next((p for p in pool.get(want, []) if p not in used), None)
                if free is None:
                    raise SystemExit(f"no stand-in for U+{cp:04X}")
                found[cp] = free
                used.add(free)
            continue
        for cp, place in zip(run, places, strict=True):
            found[cp] = place
            used.add(place)
    return found


def readings(data: Data) -> list[tuple[int, int, int]]:
    """(first, last, target) for every character that CPython 3.11 to 3.13 read
    otherwise than the data does, or that a later version may assign: those the previous
    version did not assign and those in CHANGED_SINCE_PREVIOUS, each read as its
    compatibility form (one older character) or as a stand-in; and the unassigned ones,
    each read as the code point UNASSIGNED_SHIFT above it.  Consecutive characters with
    consecutive readings share a range."""
    major_minor = ".".join(data.version.split(".")[:2])
    added = sorted(cp for cp, age in data.age.items() if age == major_minor and cp not in data.ignorable)
    read: dict[int, int] = {}
    for cp in sorted({*added, *CHANGED_SINCE_PREVIOUS}):
        form = compatibility_form(data, cp)
        if form != [cp]:
            if len(form) != 1 or form[0] in added:
                raise SystemExit(f"U+{cp:04X} folds to {form}: not one older character")
            read[cp] = form[0]
    bare = [cp for cp in added if cp not in read]
    for cp in bare:
        if any(data.fields[cp][12:15]) or cp in data.cased_specially:
            raise SystemExit(f"U+{cp:04X} has a case mapping: no stand-in reads as it")
    read.update(stand_ins(data, bare))
    read.update((cp, cp + UNASSIGNED_SHIFT) for cp in unassigned(data))
    merged: list[tuple[int, int, int]] = []
    for cp in sorted(read):
        if merged and merged[-1][1] == cp - 1 and merged[-1][2] + cp - merged[-1][0] == read[cp]:
            merged[-1] = (merged[-1][0], cp, merged[-1][2])
        else:
            merged.append((cp, cp, read[cp]))
    return merged


def unassigned(data: Data) -> set[int]:
    """Code points of the assignable planes that the data leaves unassigned, other
    than noncharacters (unassigned for ever) and default-ignorable ones (drawn as
    nothing, whatever a later version assigns)."""
    return {
        cp
        for cp in range(ASSIGNABLE_PLANES_END)
        if cp not in data.category_of
        and cp not in data.ignorable
        and not 0xFDD0 <= cp <= 0xFDEF
        and cp & 0xFFFE != 0xFFFE
    }


def exact_ranges(members: set[int]) -> list[tuple[int, int]]:
    """Sorted, merged ranges of exactly these code points."""
    merged: list[tuple[int, int]] = []
    for cp in sorted(members):
        if merged and merged[-1][1] == cp - 1:
            merged[-1] = (merged[-1][0], cp)
        else:
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
    read = readings(data)
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
        *table(
            "UCD_READINGS",
            "What CPython's data may read otherwise: FIRST-LAST>TARGET reads each as the one as far from TARGET.",
            [
                f"{token}>{target:04X}"
                for token, (_f, _l, target) in zip(spelled([r[:2] for r in read]), read, strict=True)
            ],
        ),
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
