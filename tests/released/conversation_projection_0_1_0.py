"""Project a reviewed selection of conversation branches into a Graphify graph.

The module reads one explicit selection file and its own private state
directory, and nothing else.  It never prints input text, paths, exception
messages or tracebacks: every invocation prints exactly one JSON line made of
fixed codes, counts, revisions and digests.

Reading order follows the data: codes and limits; strict parsing and
validation (pure); reconciliation against the persisted state (pure); the
extraction (pure); the owned directory, the lock and atomic writes (I/O); the
Graphify boundary; ``main``.
"""

from __future__ import annotations

import errno
import math
import os
import stat
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
    from typing import Any, NoReturn, TypeAlias

# ---------------------------------------------------------------------------
# Codes, versions and limits
# ---------------------------------------------------------------------------

ADAPTER_VERSION = "0.1.0"
PROJECTION_SCHEMA_VERSION = 1
STATE_SCHEMA_VERSION = 1
SELECTION_SCHEMA_VERSION = 1
CONTEXT_GRAPH = "unknown-owner"
EMBEDDING_IDENTITY = "none"

EXIT_OK = 0
EXIT_INVALID = 2
EXIT_RETRY = 3

# Every code the adapter can print, with its exit code.  A code is a fixed
# string; nothing in a result is ever built from input.
CODES: dict[str, int] = {
    "built": EXIT_OK,
    "verified": EXIT_OK,
    "checked": EXIT_OK,
    "graphify_missing": EXIT_RETRY,
    "graphify_incompatible": EXIT_RETRY,
    "graphify_failed": EXIT_RETRY,
    "usage": EXIT_INVALID,
    "selection_unreadable": EXIT_INVALID,
    "selection_too_large": EXIT_INVALID,
    "selection_malformed": EXIT_INVALID,
    "selection_duplicate_key": EXIT_INVALID,
    "selection_unknown_field": EXIT_INVALID,
    "selection_schema": EXIT_INVALID,
    "selection_unapproved": EXIT_INVALID,
    "selection_not_summary": EXIT_INVALID,
    "selection_limit": EXIT_INVALID,
    "selection_duplicate_id": EXIT_INVALID,
    "selection_cycle": EXIT_INVALID,
    "selection_secret": EXIT_INVALID,
    "selection_conflict": EXIT_INVALID,
    "revision_stale": EXIT_INVALID,
    "source_revision_conflict": EXIT_INVALID,
    "corpus_mismatch": EXIT_INVALID,
    "state_missing": EXIT_INVALID,
    "state_not_empty": EXIT_INVALID,
    "state_unknown_entry": EXIT_INVALID,
    "state_symlink": EXIT_INVALID,
    "state_locked": EXIT_INVALID,
    "state_corrupt": EXIT_INVALID,
    "state_schema_unsupported": EXIT_INVALID,
    "state_access": EXIT_INVALID,
    "receipt_mismatch": EXIT_INVALID,
    "state_limit": EXIT_INVALID,
    "internal_error": EXIT_INVALID,
    "interrupted": EXIT_RETRY,
}
RESULT_WORD = {EXIT_OK: "ok", EXIT_INVALID: "invalid", EXIT_RETRY: "retry"}

MAX_SELECTION_BYTES = 2 * 1024 * 1024
MAX_STATE_BYTES = 64 * 1024 * 1024
MAX_OWNED_FILE_BYTES = 256 * 1024 * 1024
MAX_BRANCHES = 500
MAX_SOURCES_PER_BRANCH = 100
MAX_SUMMARIES_PER_BRANCH = 100
MAX_ID_LIST = 500
MAX_TEXT_CHARS = 2000
MAX_TOMBSTONES = 1_000_000
MAX_NESTING = 64
MAX_NUMBER_CHARS = 32
MAX_REVISION = 2**53 - 1
READ_CHUNK = 1 << 16

DIGITS = "0123456789"
LOWER = "abcdefghijklmnopqrstuvwxyz"
ID_FIRST = frozenset(LOWER + DIGITS)
ID_CHARS = frozenset(LOWER + DIGITS + "-")
MAX_ID_CHARS = 64
# A memory reference is an opaque handle: the ID alphabet, a little longer.
# With no ':', '/', '\\' or '.', it can never be a URI, a path or a host.
MAX_MEMORY_REF_CHARS = 128
HEX_DIGITS = frozenset(DIGITS + "abcdef")
# mkstemp's alphabet, in Graphify's ".gfy-XXXXXXXX.tmp" temporaries.
GFY_TEMP_CHARS = frozenset(LOWER + LOWER.upper() + DIGITS + "_")
GFY_TEMP_PREFIX = ".gfy-"
# Its replace fallback's temporaries: ".gfy-replace-bak-XXXXXXXX.tmp" first.
GFY_TEMP_KINDS = ("replace-bak-", "replace-")
# C0 controls other than tab, newline and carriage return, DEL and C1.
FORBIDDEN_TEXT_CHARS = frozenset(
    [chr(c) for c in range(0x20) if chr(c) not in "\t\n\r"] + [chr(c) for c in range(0x7F, 0xA0)]
)
# Text the reviewer cannot see as it is: controls that reorder what a file
# shows (embeddings, overrides, isolates), and characters that look blank.
ASCII_BLANK = " \t\n\r"
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
BLANK_GRAPHEMES = frozenset("\u115f\u1160\u3164\uffa0\u2800")
VISIBLE_CATEGORIES = frozenset("LNPS")
# Unicode tag characters spell ASCII that no one sees but a model reads.
# Their one visible use, the three recommended subdivision flags (England,
# Scotland, Wales: black flag, "gbeng"/"gbsct"/"gbwls" in tags, cancel tag),
# stays allowed; any other tag character is refused.
TAG_FIRST = "\U000e0000"
TAG_LAST = "\U000e007f"
TAG_FLAGS = tuple(
    "\U0001f3f4" + "".join(chr(0xE0000 + ord(letter)) for letter in code) + TAG_LAST
    for code in ("gbeng", "gbsct", "gbwls")
)
# A variation selector picks one glyph for the character before it; a run of
# them selects nothing visible and can carry hidden bytes.
VARIATION_SELECTOR_RUN = "[\ufe00-\ufe0f\U000e0100-\U000e01ef]{2}"
# Default-ignorable code points: drawn as nothing.  The secret scan reads text
# without them, and with compatibility forms folded (NFKC: full-width letters,
# ligatures), so that "gh\u200bp_…" or a full-width token is still a token.
INVISIBLE_RANGES = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFFB),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
VERSION_CHARS = frozenset(LOWER + LOWER.upper() + DIGITS + ".+-!_")
ROLES = frozenset({"user", "assistant", "unknown"})

SELECTION_FIELDS = frozenset({"schemaVersion", "corpusId", "revision", "branches", "exclude", "restore"})
SELECTION_REQUIRED = frozenset({"schemaVersion", "corpusId", "revision", "branches"})
BRANCH_FIELDS = frozenset({"branchId", "sourceRevision", "sources", "summaries", "parentBranchId"})
BRANCH_REQUIRED = frozenset({"branchId", "sourceRevision", "sources", "summaries"})
SOURCE_FIELDS = frozenset({"refId", "sha256"})
SUMMARY_FIELDS = frozenset({"summaryId", "role", "kind", "approved", "text", "memoryRef"})
SUMMARY_REQUIRED = frozenset({"summaryId", "role", "kind", "approved", "text"})
STATE_FIELDS = frozenset(
    {"stateSchemaVersion", "corpusId", "selectionRevision", "selectionDigest", "snapshot", "highWater", "tombstones"}
)
HIGH_WATER_FIELDS = frozenset({"sourceRevision", "contentSha256"})

STATE_NAME = "state.json"
EXTRACTION_NAME = "extraction.json"
GRAPH_NAME = "graph.json"
RECEIPT_NAME = "receipt.json"
LOCK_NAME = "projection.lock"
CACHE_NAME = "cache"
STAMP_NAME = "last_query_stamp"
TMP_SUFFIX = ".tmp"
PUBLISHED_NAMES = (STATE_NAME, EXTRACTION_NAME, GRAPH_NAME, RECEIPT_NAME)
TEMP_NAMES = tuple(name + TMP_SUFFIX for name in PUBLISHED_NAMES)
OWNED_FILES = frozenset((*PUBLISHED_NAMES, *TEMP_NAMES, LOCK_NAME))
# Removed in this order, the receipt first, so that no moment exists at which
# a receipt vouches for a half-removed set.
DERIVED_NAMES = (RECEIPT_NAME, GRAPH_NAME, EXTRACTION_NAME, *TEMP_NAMES)

if TYPE_CHECKING:
    JsonObject = dict[str, Any]
    GraphifyLoader = Callable[[], Mapping[str, Any]]
    LoadedSelection: TypeAlias = "tuple[JsonObject, SelectionPlaces] | ProjectionError | None"


# The counts every success reports, and what built and checked add.
COUNT_NAMES = ("branches", "sources", "summaries", "edges", "tombstones")
LEFT_OUT_NAMES = ("withheldBranches", "missingParents")


class ProjectionError(Exception):
    """A refusal or failure, named by one fixed code from ``CODES``.

    ``at`` is a JSON Pointer into the selection as written, built only from
    allowlisted field names and array indices; ``rule`` names the secret
    family that matched.  Neither ever holds input text."""

    def __init__(
        self, code: str, at: str | None = None, rule: str | None = None, graphify_version: str | None = None
    ) -> None:
        assert code in CODES, "unregistered code"
        super().__init__(code)
        self.code = code
        self.at = at
        self.rule = rule
        self.graphify_version = graphify_version
        self.withdrawn = False


def fail(code: str, at: str | None = None, rule: str | None = None, graphify_version: str | None = None) -> NoReturn:
    raise ProjectionError(code, at, rule, graphify_version)


# ---------------------------------------------------------------------------
# Strict JSON (pure)
# ---------------------------------------------------------------------------


def _reject_constant(_name: str) -> NoReturn:
    fail("selection_malformed")


def _bounded_int(token: str) -> int:
    if len(token) > MAX_NUMBER_CHARS:
        fail("selection_malformed")
    return int(token)


def _bounded_float(token: str) -> float:
    if len(token) > MAX_NUMBER_CHARS:
        fail("selection_malformed")
    value = float(token)
    if not math.isfinite(value):
        fail("selection_malformed")
    return value


class DuplicateKeyObject(dict):  # type: ignore[type-arg]
    """An object whose key repeated in the input.  The selection parser keeps
    it as a marker so that the refusal can say where it is."""


def _unique_object(pairs: list[tuple[str, Any]]) -> JsonObject:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        fail("selection_duplicate_key")
    return obj


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _depth_or_surrogate(value: Any, max_depth: int, find_surrogates: bool) -> bool:
    """True when containers nest deeper than ``max_depth`` or, if asked, a
    string (key or value) holds a lone surrogate.  A walk, not recursion."""
    pending: list[tuple[Any, int]] = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if depth > max_depth:
            return True
        children = item.values() if isinstance(item, dict) else item
        if find_surrogates and isinstance(item, dict) and any(_has_surrogate(k) for k in item):
            return True
        for child in children:
            if isinstance(child, (dict, list)):
                pending.append((child, depth + 1))
            elif find_surrogates and isinstance(child, str) and _has_surrogate(child):
                return True
    return False


def parse_json(
    data: bytes,
    max_depth: int | None = MAX_NESTING,
    object_pairs_hook: Callable[[list[tuple[str, Any]]], JsonObject] | None = None,
) -> Any:
    """Decode one strict JSON value with the json package's public decoder:
    UTF-8 without BOM, no NaN or Infinity, no lone surrogate, bounded nesting
    and numbers.  A repeated key is refused unless ``object_pairs_hook``
    says otherwise."""
    import json

    if data.startswith(b"\xef\xbb\xbf"):
        fail("selection_malformed")
    try:
        text = data.decode("utf-8", errors="strict")
    except UnicodeDecodeError:
        fail("selection_malformed")
    try:
        value = json.loads(
            text,
            object_pairs_hook=object_pairs_hook or _unique_object,
            parse_float=_bounded_float,
            parse_int=_bounded_int,
            parse_constant=_reject_constant,
        )
    except ProjectionError:
        raise
    except (ValueError, RecursionError, MemoryError):
        # json.JSONDecodeError is a ValueError.
        fail("selection_malformed")
    # Only a \\u escape can produce a surrogate: strict UTF-8 never does.
    find_surrogates = "\\ud" in text or "\\uD" in text
    walk = max_depth is not None or find_surrogates
    depth_bound = sys.maxsize if max_depth is None else max_depth
    if walk and isinstance(value, (dict, list)) and _depth_or_surrogate(value, depth_bound, find_surrogates):
        fail("selection_malformed")
    if isinstance(value, str) and find_surrogates and _has_surrogate(value):
        fail("selection_malformed")
    return value


def canonical_bytes(value: Any) -> bytes:
    import json

    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def sha256_hex(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


# ---------------------------------------------------------------------------
# Selection validation (pure)
# ---------------------------------------------------------------------------
# Validation walks the selection as written, so that a refusal can say where
# (``at``), then returns the canonical form: every array sorted by its IDs.

# Allowlisted fields per kind of object, the kind each container field holds,
# and the kind of each array's items: the map a pointer may follow.
OBJECT_FIELDS = {
    "selection": SELECTION_FIELDS,
    "branch": BRANCH_FIELDS,
    "source": SOURCE_FIELDS,
    "summary": SUMMARY_FIELDS,
}
FIELD_KINDS = {"branches": "branch-list", "sources": "source-list", "summaries": "summary-list"}
ITEM_KINDS = {"branch-list": "branch", "source-list": "source", "summary-list": "summary"}


def find_duplicate_key(value: Any) -> str:
    """The pointer of the first object, in file order, that repeats a key.
    Below a field that is not allowlisted the pointer stays at the nearest
    enclosing object reached through allowlisted names."""
    pending: list[tuple[Any, str, str | None, bool]] = [(value, "", "selection", True)]
    while pending:
        item, pointer, kind, reachable = pending.pop()
        children: list[tuple[Any, str, str | None, bool]] = []
        if type(item) is DuplicateKeyObject:
            return pointer
        if isinstance(item, dict):
            fields = OBJECT_FIELDS.get(kind or "", frozenset()) if reachable else frozenset()
            for key, child in item.items():
                if not isinstance(child, (dict, list)):
                    continue
                if key in fields:
                    children.append((child, f"{pointer}/{key}", FIELD_KINDS.get(key), True))
                else:
                    children.append((child, pointer, None, False))
        elif isinstance(item, list):
            item_kind = ITEM_KINDS.get(kind or "")
            for index, child in enumerate(item):
                if isinstance(child, (dict, list)):
                    children.append((child, f"{pointer}/{index}" if reachable else pointer, item_kind, reachable))
        pending.extend(reversed(children))
    return ""


class SelectionPlaces:
    """Where each listed ID sits in the selection as written, so that
    reconciliation can point at an entry without ever naming it."""

    __slots__ = ("branches", "restore")

    def __init__(self, branches: Mapping[str, int], restore: Mapping[str, int]) -> None:
        self.branches = dict(branches)
        self.restore = dict(restore)

    def branch(self, branch_ids: Iterable[str], field: str) -> str:
        index = min(self.branches[branch_id] for branch_id in branch_ids)
        return f"/branches/{index}/{field}"

    def restore_entry(self, branch_ids: Iterable[str]) -> str:
        return f"/restore/{min(self.restore[branch_id] for branch_id in branch_ids)}"


class _Walk:
    """What one validation pass collects besides the canonical form: every
    string field to scan for secrets (when ``collect``) and every source
    reference, in file order, each with where it is.  A pointer is built only
    when it is needed: field pointers are (object pointer, field name)."""

    __slots__ = ("collect", "scanned", "source_refs")

    def __init__(self, collect: bool) -> None:
        self.collect = collect
        self.scanned: list[tuple[str, str, str]] = []
        self.source_refs: list[tuple[str, str, str]] = []


def _require_object(value: Any, fields: frozenset[str], required: frozenset[str], where: str) -> JsonObject:
    if not isinstance(value, dict):
        fail("selection_schema", where)
    if not value.keys() <= fields:
        fail("selection_unknown_field", where)
    if not required <= value.keys():
        fail("selection_schema", where)
    return value


def _require_list(value: Any, limit: int, where: str) -> list[Any]:
    if not isinstance(value, list):
        fail("selection_schema", where)
    if len(value) > limit:
        fail("selection_limit", where)
    return value


def is_id(value: Any, max_chars: int = MAX_ID_CHARS) -> bool:
    """Lowercase letters, digits and hyphens, first a letter or digit."""
    return (
        isinstance(value, str) and 0 < len(value) <= max_chars and value[0] in ID_FIRST and ID_CHARS.issuperset(value)
    )


def is_sha256(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 64 and HEX_DIGITS.issuperset(value)


def _require_id(value: Any, where: str, field: str, walk: _Walk, max_chars: int = MAX_ID_CHARS) -> str:
    """An ID in field ``field`` of the object at ``where`` ("" for an array item)."""
    if not is_id(value, max_chars):
        fail("selection_schema", f"{where}/{field}" if field else where)
    assert isinstance(value, str)
    if walk.collect:
        walk.scanned.append((where, field, value))
    return value


def _require_revision(value: Any, where: str) -> int:
    if type(value) is not int or not 1 <= value <= MAX_REVISION:
        fail("selection_schema", where)
    return value


def has_visible_character(text: str) -> bool:
    """True when some character would show: a letter, number, punctuation or
    symbol other than the blank-looking fillers."""
    import unicodedata

    for char in text:
        if "!" <= char <= "~":
            return True
        if char not in BLANK_GRAPHEMES and unicodedata.category(char)[0] in VISIBLE_CATEGORIES:
            return True
    return False


def _require_text(value: Any, where: str, walk: _Walk) -> str:
    """A summary's text, in the summary at ``where``."""
    if not isinstance(value, str):
        fail("selection_schema", where + "/text")
    if len(value) > MAX_TEXT_CHARS:
        fail("selection_limit", where + "/text")
    if value.isascii():
        # Most text: visible unless only spaces, tabs and line breaks; clean
        # unless it holds another control character.
        if not value.strip(ASCII_BLANK) or not (value.isprintable() or FORBIDDEN_TEXT_CHARS.isdisjoint(value)):
            fail("selection_schema", where + "/text")
    else:
        if _has_surrogate(value):
            fail("selection_malformed")
        # isprintable() is the fast path; tab, newline, joiners and other
        # format characters are allowed, so False only means "look closer".
        clean = value.isprintable() or (FORBIDDEN_TEXT_CHARS.isdisjoint(value) and BIDI_CONTROLS.isdisjoint(value))
        if not clean or not has_visible_character(value) or _has_hidden_tags(value):
            fail("selection_schema", where + "/text")
    if walk.collect:
        walk.scanned.append((where, "text", value))
    return value


def _has_hidden_tags(text: str) -> bool:
    """Tag characters anywhere but in a recommended subdivision flag, or a
    run of variation selectors: characters that carry text no one sees."""
    if text.isascii():
        return False
    import re

    if re.search(VARIATION_SELECTOR_RUN, text) is not None:
        return True
    # max() is a C-level pass: tag characters sit near the top of the range.
    if max(text) < TAG_FIRST:
        return False
    tags = f"[{TAG_FIRST}-{TAG_LAST}]"
    if re.search(tags, text) is None:
        return False
    for flag in TAG_FLAGS:
        text = text.replace(flag, "")
    return re.search(tags, text) is not None


_invisible_table: list[dict[int, None]] = []


def fold_for_scan(text: str) -> str:
    """The text as a reader sees it, for the secret scan: invisible
    characters removed, compatibility forms folded.  ASCII is left as is."""
    if text.isascii():
        return text
    import unicodedata

    if not _invisible_table:
        _invisible_table.append({c: None for first, last in INVISIBLE_RANGES for c in range(first, last + 1)})
    return unicodedata.normalize("NFKC", text.translate(_invisible_table[0]))


def _first_repeat(values: Sequence[str]) -> int | None:
    """The index of the first value seen before, or None."""
    seen: set[str] = set()
    for index, value in enumerate(values):
        if value in seen:
            return index
        seen.add(value)
    return None


def _check_source(value: Any, where: str, walk: _Walk) -> JsonObject:
    source = _require_object(value, SOURCE_FIELDS, SOURCE_FIELDS, where)
    ref_id = _require_id(source["refId"], where, "refId", walk)
    digest = source["sha256"]
    if not is_sha256(digest):
        fail("selection_schema", where + "/sha256")
    walk.source_refs.append((ref_id, digest, where))
    return {"refId": ref_id, "sha256": digest}


def _check_summary(value: Any, where: str, walk: _Walk) -> JsonObject:
    summary = _require_object(value, SUMMARY_FIELDS, SUMMARY_REQUIRED, where)
    summary_id = _require_id(summary["summaryId"], where, "summaryId", walk)
    role = summary["role"]
    if not isinstance(role, str) or role not in ROLES:
        fail("selection_schema", where + "/role")
    kind = summary["kind"]
    if not isinstance(kind, str) or kind != "summary":
        fail("selection_not_summary", where + "/kind")
    if summary["approved"] is not True:
        fail("selection_unapproved", where + "/approved")
    checked: JsonObject = {
        "summaryId": summary_id,
        "role": role,
        "kind": "summary",
        "approved": True,
        "text": _require_text(summary["text"], where, walk),
    }
    if "memoryRef" in summary:
        checked["memoryRef"] = _require_id(summary["memoryRef"], where, "memoryRef", walk, MAX_MEMORY_REF_CHARS)
    return checked


def _check_items(
    value: Any, where: str, walk: _Walk, check: Callable[[Any, str, _Walk], JsonObject], key: str, *, limit: int
) -> list[JsonObject]:
    """An array of at most ``limit`` objects, checked in file order, IDs
    unique under ``key``."""
    items = [check(item, f"{where}/{index}", walk) for index, item in enumerate(_require_list(value, limit, where))]
    repeat = _first_repeat([item[key] for item in items])
    if repeat is not None:
        fail("selection_duplicate_id", f"{where}/{repeat}/{key}")
    return items


def _check_branch(value: Any, where: str, walk: _Walk) -> JsonObject:
    branch = _require_object(value, BRANCH_FIELDS, BRANCH_REQUIRED, where)
    checked: JsonObject = {
        "branchId": _require_id(branch["branchId"], where, "branchId", walk),
        "sourceRevision": _require_revision(branch["sourceRevision"], where + "/sourceRevision"),
    }
    if "parentBranchId" in branch:
        checked["parentBranchId"] = _require_id(branch["parentBranchId"], where, "parentBranchId", walk)
    sources = _check_items(
        branch["sources"], where + "/sources", walk, _check_source, "refId", limit=MAX_SOURCES_PER_BRANCH
    )
    summaries = _check_items(
        branch["summaries"], where + "/summaries", walk, _check_summary, "summaryId", limit=MAX_SUMMARIES_PER_BRANCH
    )
    checked["sources"] = sorted(sources, key=lambda s: s["refId"])
    checked["summaries"] = sorted(summaries, key=lambda s: s["summaryId"])
    return checked


def _check_id_list(value: Any, where: str, walk: _Walk) -> list[str]:
    """IDs in file order."""
    ids = [
        _require_id(item, f"{where}/{i}", "", walk) for i, item in enumerate(_require_list(value, MAX_ID_LIST, where))
    ]
    repeat = _first_repeat(ids)
    if repeat is not None:
        fail("selection_duplicate_id", f"{where}/{repeat}")
    return ids


def cycle_members(parents: Mapping[str, str]) -> set[str]:
    """The branches that lie on a loop of parent links.

    Each branch has at most one parent, so a walk from every unvisited branch,
    marking nodes as it goes, visits each branch once: linear time."""
    done: set[str] = set()
    members: set[str] = set()
    for start in parents:
        path: dict[str, int] = {}
        node: str | None = start
        while node is not None and node not in done:
            if node in path:
                members.update(list(path)[path[node] :])
                break
            path[node] = len(path)
            node = parents.get(node)
        done.update(path)
    return members


def find_cycle(parents: Mapping[str, str]) -> bool:
    """True when following parent links among these branches loops."""
    return bool(cycle_members(parents))


def _check_cross_references(
    branches: list[JsonObject], walk: _Walk, exclude: list[str], restore: list[str]
) -> SelectionPlaces:
    """Uniqueness, loops and conflicts across the whole selection, found at
    the first place in file order."""
    branch_ids = [b["branchId"] for b in branches]
    repeat = _first_repeat(branch_ids)
    if repeat is not None:
        fail("selection_duplicate_id", f"/branches/{repeat}/branchId")
    places = SelectionPlaces({b: i for i, b in enumerate(branch_ids)}, {r: i for i, r in enumerate(restore)})
    listed = set(branch_ids)
    parents = {b["branchId"]: b["parentBranchId"] for b in branches if b.get("parentBranchId") in listed}
    looping = cycle_members(parents)
    if looping:
        fail("selection_cycle", places.branch(looping, "parentBranchId"))
    seen: dict[str, str] = {}
    for ref_id, digest, where in walk.source_refs:
        if seen.setdefault(ref_id, digest) != digest:
            fail("selection_conflict", where + "/sha256")
    excluded = set(exclude)
    for index, branch_id in enumerate(restore):
        if branch_id in excluded or branch_id not in listed:
            fail("selection_conflict", f"/restore/{index}")
    return places


def check_selection(value: Any, scan_secrets: bool = True) -> tuple[JsonObject, SelectionPlaces]:
    """Check a decoded selection against the allowlist.  Return its canonical
    form (the same fields, every array sorted by its IDs; an absent optional
    list stays absent, so the digest is the documented recipe applied to the
    input) and where each ID was written."""
    walk = _Walk(collect=scan_secrets)
    selection = _require_object(value, SELECTION_FIELDS, SELECTION_REQUIRED, "")
    if type(selection["schemaVersion"]) is not int or selection["schemaVersion"] != SELECTION_SCHEMA_VERSION:
        fail("selection_schema", "/schemaVersion")
    corpus_id = _require_id(selection["corpusId"], "", "corpusId", walk)
    revision = _require_revision(selection["revision"], "/revision")
    branches = [
        _check_branch(item, f"/branches/{index}", walk)
        for index, item in enumerate(_require_list(selection["branches"], MAX_BRANCHES, "/branches"))
    ]
    exclude = _check_id_list(selection.get("exclude", []), "/exclude", walk)
    restore = _check_id_list(selection.get("restore", []), "/restore", walk)
    places = _check_cross_references(branches, walk, exclude, restore)
    canonical: JsonObject = {
        "schemaVersion": SELECTION_SCHEMA_VERSION,
        "corpusId": corpus_id,
        "revision": revision,
        "branches": sorted(branches, key=lambda b: b["branchId"]),
    }
    for name, ids in (("exclude", exclude), ("restore", restore)):
        if name in selection:
            canonical[name] = sorted(ids)
    if scan_secrets:
        _refuse_secrets(walk.scanned)
    return canonical, places


def validate_selection(value: Any, scan_secrets: bool = True) -> JsonObject:
    """The canonical form of a decoded selection (see ``check_selection``)."""
    return check_selection(value, scan_secrets)[0]


def _refuse_secrets(fields: list[tuple[str, str, str]]) -> None:
    """One scan over every string field, each folded as a reader sees it,
    joined by NUL: no accepted text holds NUL, so no pattern can match
    across two fields, and folding one field never moves another."""
    import bisect

    folded = [fold_for_scan(text) for _where, _field, text in fields]
    starts: list[int] = []
    offset = 0
    for text in folded:
        starts.append(offset)
        offset += len(text) + 1
    hit = find_secret("\x00".join(folded))
    if hit is not None:
        position, rule = hit
        where, field, _text = fields[bisect.bisect_right(starts, position) - 1]
        fail("selection_secret", f"{where}/{field}" if field else where, rule)


def selection_digest(selection: JsonObject) -> str:
    """The documented recipe, spelled out; SelectionHashes gives the same value
    from the serialization it shares with the branch hashes."""
    return sha256_hex(canonical_bytes(selection))


def check_selection_bytes(data: bytes) -> tuple[JsonObject, SelectionPlaces]:
    """Parse and check a selection file's bytes."""
    if len(data) > MAX_SELECTION_BYTES:
        fail("selection_too_large")
    repeated: list[bool] = []

    def marking(pairs: list[tuple[str, Any]]) -> JsonObject:
        obj = dict(pairs)
        if len(obj) == len(pairs):
            return obj
        repeated.append(True)
        return DuplicateKeyObject(obj)

    value = parse_json(data, object_pairs_hook=marking)
    if repeated:
        fail("selection_duplicate_key", find_duplicate_key(value))
    return check_selection(value)


def parse_selection(data: bytes) -> JsonObject:
    return check_selection_bytes(data)[0]


# ---------------------------------------------------------------------------
# Secret-shaped text (pure)
# ---------------------------------------------------------------------------
# What is refused, as one table read top to bottom.  Each row is a family
# name (the fixed `rule` a refusal carries, listed in the README), a regular
# expression and keywords.  The facts behind the patterns (prefixes, lengths,
# alphabets) are those of the published gitleaks rules and detect-secrets
# plugins; the patterns are this project's own.
#
# How a pattern is written, so that the scan stays linear on 2 MiB of text:
# - It starts with a literal anchor: a prefix ("ghp_"), or a rarer character
#   with a short fixed-width lookbehind for the rest ("Q~", "="), so that the
#   regex engine jumps from one occurrence of the anchor to the next instead
#   of trying every position.  When the anchor starts with a letter or digit
#   (and the pattern does not check what precedes it itself) the compiler
#   adds a lookbehind right after it, so the row only matches at the start of
#   a token ("xghp_…" and the second "sk-" of "sk-sk-" do not); an escape
#   that a pasted JSON string or URL puts before a token (\n, \t, \u0022,
#   %22) is blanked in the copy of the text the token shapes are scanned in.
# - Every repetition is bounded, the long ones possessive; lookbehinds are
#   fixed-width and lookaheads read at most one value: nothing is scanned
#   more than a bounded number of times.
# - No character class admits NUL: the caller joins fields with it, so that
#   no match spans two fields.
# - Named groups ask for a judgement of what they captured: `value` must
#   look like a credential rather than a word, a name, a placeholder or a
#   reference; `secret` must not be a placeholder; `key` must name a secret
#   (and says whether it names a password, judged more strictly); an empty
#   `password` group says the value sits where a password goes, a `native`
#   one holds a key for a password in another script;
#   `user` is the user of a URL's credentials.
# - Keywords mark a shape that is a secret only when labelled (40 base64
#   characters are an AWS secret key after "aws"): such a row does not scan
#   on its own but names what a credential key labelled with it holds.
#
# What reaches Python costs microseconds, the scan itself nanoseconds: at
# most MAX_SECRET_CANDIDATES matches are judged per text.  A text that holds
# more credential-shaped candidates than that is refused as a whole
# (CANDIDATE_LIMIT_RULE), so that no bound lets a secret through unjudged.

# The words of a key that names a secret, in any case.  Each is found from
# its rarest letter (p, c, k or u): the letters after it are matched first,
# those before it are then checked behind.  Scanning for four letters is
# several times faster than for the first letter of every word, and no text
# is lowercased.
_CREDENTIAL_KEY_STEM = (
    r"[PpCcKkUu](?:"
    r"[Aa][Ss][Ss](?<=[Pp][Aa][Ss][Ss])"  # pass, password, passwd, passphrase, passcode, Passwort, passe
    r"|[Ww][Dd](?<=[Pp][Ww][Dd])"  # pwd
    r"|[Rr][Ee](?:[Tt](?<=[Ss][Ee][Cc][Rr][Ee][Tt])|[Dd](?<=[Cc][Rr][Ee][Dd]))"  # secret, cred, credential
    r"|[Ee](?:[Nn](?:[Nn][Ww][Oo][Rr][Tt]|(?<=[Tt][Oo][Kk][Ee][Nn]))|[Yy](?<=[Kk][Ee][Yy]))"  # token, Kennwort; key
    r"|[Tt][Hh](?<=[Aa][Uu][Tt][Hh])"  # auth, authorization
    r")"
)
# The bounds of a judged value: one of five characters or fewer is never
# taken for a credential, and no more than the longest is read.
MIN_VALUE_CHARS = 6
MAX_VALUE_CHARS = 256
# A value: quoted (spaces allowed inside; a JSON string's \"…\" too) or
# bare (up to a space, quote, bracket, "," ";" or "&" as in a query string;
# not starting with "-", which is the next flag).  Quotes are part of the
# capture; the judge removes them.  A bare value of letters of one case,
# "_", ".", "/" and "-" is a word or a name, which the judge would turn
# away: the two lookaheads do it first, so that prose ("the password is
# strong") costs no judgement.  They stop at the first other character; "="
# and ":" are not among theirs, so that "password=password=…" cannot make
# each key re-read the same run.  A bare value right before "(" or "[" is
# code that fetches the secret (os.getenv(…), os.environ[…]).
_BARE_VALUE_END = r"\s\"'`,;&()\[\]{}<>\x00"
_NAME_PUNCTUATION = r"_./\-"
_QUOTED_CHARS = f"{{{MIN_VALUE_CHARS},{MAX_VALUE_CHARS}}}+"
_BARE_TAIL_CHARS = f"{{{MIN_VALUE_CHARS - 1},{MAX_VALUE_CHARS - 1}}}+"
_VALUE = (
    r"\\?+"
    rf"(?P<value>\"[^\"\x00\n]{_QUOTED_CHARS}\"|'[^'\x00\n]{_QUOTED_CHARS}'|`[^`\x00\n]{_QUOTED_CHARS}`"
    rf"|(?=[a-z{_NAME_PUNCTUATION}]{{0,255}}+[^{_BARE_VALUE_END}a-z{_NAME_PUNCTUATION}])"
    rf"(?=[A-Z{_NAME_PUNCTUATION}]{{0,255}}+[^{_BARE_VALUE_END}A-Z{_NAME_PUNCTUATION}])"
    rf"[^{_BARE_VALUE_END}-][^{_BARE_VALUE_END}]{_BARE_TAIL_CHARS}(?![(\[]))"
)
# "is" in English, German, French and Spanish prose.
_PROSE_IS = r"(?:[Ii][Ss][Tt]?|[Ww][Aa][Ss]|[Aa][Rr][Ee]|[Ee][Ss][Tt]?)"
# Between a key and its value: `>` right after it (XML: <password>…</password>;
# the judge checks the tags), or an optional closing quote, bracket or
# backslash and spaces, then one of:
# - `= ("user", ` (a user and password pair after an auth key);
# - `:=`, `=>`, `=`, `==`, `:`, `?=`, or a full-width colon or equals sign;
# - "," before a quoted value (define('DB_PASSWORD', '…'), ["password", "…"]);
# - `value=` or `"value":` on the same line or the next (<add
#   key="ClearTextPassword" value="…"/>, Kubernetes `- name: DB_PASSWORD` /
#   `value: …`);
# - after a space, in prose: "for|of|on|at|to" and up to four words, then
#   "is" or ":" ("the password for the NAS is …"), "to" alone ("set the
#   password to …"), "is"/"was"/"are", or a quoted value (WITH PASSWORD '…');
# then an optional HTTP auth scheme.  The common prefix is read once and the
# next character picks the form, so that a key followed by none of them
# costs one failed step per form.
_ASSIGNMENT = (
    r"(?:>"
    r"|[\\\"'`\]]{0,3}+[ \t]{0,8}+(?:"
    r"=[ \t]{0,8}+\([ \t]{0,8}+(?:\"[^\"\x00\n]{1,64}+\"|'[^'\x00\n]{1,64}+')[ \t]{0,8}+,"
    r"|:=|=>|={1,3}|::?|\?=|\uff1a|\uff1d"
    r"|,[ \t]{0,8}+(?=\\?+[\"'])"
    r"|(?:,[ \t]{0,8}+|\r?\n[ \t]{0,16}+)?+\\?+[\"']?+[Vv][Aa][Ll][Uu][Ee]\\?+[\"']?+[ \t]{0,8}+[:=]"
    r"|(?<=[ \t])(?:"
    r"(?:[Ff][Oo][Rr]|[Oo][Ff]|[Oo][Nn]|[Aa][Tt]|[Tt][Oo])(?:[ \t]{1,8}+[^\s\x00:=\"'`,;()]{1,40}+){1,4}?[ \t]{0,8}+"
    r"(?:" + _PROSE_IS + r"(?=[ \t])|[:=])"
    r"|[Tt][Oo](?=[ \t])"
    r"|" + _PROSE_IS + r"(?=[ \t:])"
    r"|(?=\\?+[\"'])"
    r")))"
    r":?[ \t]{0,8}+"
    r"(?:(?i:bearer|basic|token|digest|apikey|api-key|key)[ \t]++)?+"
)
# "は", "是", "為", "为", "는", "은": the particle after a key in Japanese,
# Chinese and Korean prose.
_NATIVE_IS = r"[ \t]{0,8}+[\u306f\u662f\u70ba\u4e3a\ub294\uc740][ \t]{0,8}+"
# A PEM header is a key unless the sentence it sits in goes on after it in
# lower case ("-----BEGIN RSA PRIVATE KEY----- is what the file starts
# with"): a header alone, before a new sentence or before a base64 body
# (PGP's start in lower case) is what a truncated paste leaves.
_PEM_END = r"(?![\"'`)\].,;:!?]{0,3}+[ \t]++(?![A-Za-z0-9+/=]{16})[a-z])"
_UUID = r"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}"
# A token must not continue a longer token: checked right after an anchor
# that starts with a letter or digit.
IDENTIFIER_CHARS_CLASS = "[A-Za-z0-9_-]"


def _token_start(behind: str, before: str = IDENTIFIER_CHARS_CLASS) -> str:
    """A lookbehind true where text ending in `behind` starts a token: no
    `before` character precedes it.  (An escape right before a token, as in
    "\\nghp_…" or "%22ghp_…", is blanked before the scan: see
    _ESCAPES_BEFORE_A_SHAPE.)"""
    return f"(?<!{before}{behind})"


# An escape that a pasted JSON string or URL puts right before a token
# (\n, \t, \u0022, \x22, %22): its last character is blanked (same length,
# so offsets hold) in the copy of the text the token shapes are scanned in,
# so that the token still starts a token.  Unmatched groups expand to "".
_ESCAPES_BEFORE_A_SHAPE = (
    r"(\\)[nrtbfv0](?=[A-Za-z0-9_-])|(\\u[0-9A-Fa-f]{3})[0-9A-Fa-f](?=[A-Za-z0-9_-])"
    r"|(\\x[0-9A-Fa-f])[0-9A-Fa-f](?=[A-Za-z0-9_-])|(%[0-9A-Fa-f])[0-9A-Fa-f](?=[A-Za-z0-9_-])"
)
_ESCAPE_BLANKED = r"\1\2\3\4 "


SECRET_RULES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    # --- Private keys: PEM (RSA, DSA, EC, PKCS#8, encrypted, PGP), OpenSSH,
    # SSH2 (RFC 4716), PuTTY, age; bodies pasted without their header
    # (PKCS#1, PKCS#8, SEC1, openssh-key-v1) and JWK private members.
    ("private-key", r"-----BEGIN (?:[A-Z0-9]{1,16} ){0,3}PRIVATE KEY(?: BLOCK)?-----" + _PEM_END, ()),
    ("private-key", r"---- BEGIN SSH2 (?:ENCRYPTED )?PRIVATE KEY ----" + _PEM_END, ()),
    ("private-key", r"PuTTY-User-Key-File-[0-9]{1,2}: [a-z0-9-]{3,40}", ()),
    # DER SEQUENCE, INTEGER 0 and the modulus (PKCS#1) or the RSA algorithm
    # (PKCS#8), in base64: public keys and certificates never start so.
    ("private-key", r"MII[A-Za-z0-9+/]{3}IBAAK[A-Za-z0-9+/]{40,4000}+", ()),
    ("private-key", r"MII[A-Za-z0-9+/]{3}IBADAN[A-Za-z0-9+/]{40,4000}+", ()),
    ("private-key", r"MIG[A-Za-z0-9+/]AgEAMBMGByqGSM49[A-Za-z0-9+/]{40,400}+", ()),
    ("private-key", r"MC4CAQAwBQYDK2Vw[A-Za-z0-9+/]{40,100}+", ()),
    ("private-key", r"MHcCAQEE[A-Za-z0-9+/]{40,400}+", ()),
    ("private-key", r"b3BlbnNzaC1rZXktdjE[A-Za-z0-9+/]{40,8000}+", ()),  # "openssh-key-v1"
    ("private-key", r"\"d\"[ \t]{0,8}+:[ \t]{0,8}+\"(?P<value>[A-Za-z0-9_-]{43,1000}+)\"", ()),  # JWK
    ("age-secret-key", r"AGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58}", ()),
    # --- Cloud providers.
    ("aws-access-key-id", r"A(?:KIA|SIA|BIA|CCA|3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])", ()),
    ("aws-secret-access-key", r"[A-Za-z0-9/+]{40}", ("aws",)),
    ("amazon-bedrock-api-key", r"ABSK[A-Za-z0-9+/]{109,269}={0,2}", ()),
    ("amazon-bedrock-api-key", r"bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t[A-Za-z0-9+/=]{20,4000}+", ()),
    ("gcp-api-key", r"AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])", ()),
    ("google-oauth-client-secret", r"GOCSPX-[A-Za-z0-9_-]{28}(?![A-Za-z0-9_-])", ()),
    ("google-oauth-access-token", r"ya29\.[A-Za-z0-9_-]{30,2000}+", ()),
    (
        "azure-ad-client-secret",
        r"Q~(?<=[A-Za-z0-9_~.]{3}[0-9]Q~)"
        + _token_start(r"[A-Za-z0-9_~.]{3}[0-9]Q~", "[A-Za-z0-9_~.-]")
        + r"[A-Za-z0-9_~.-]{31,34}+(?![A-Za-z0-9_~.-])",
        (),
    ),
    # "=" anchors: the one-character lookbehind first turns away "==" runs.
    ("azure-storage-account-key", r"=(?<=[Yy]=)(?<=(?i:accountkey)=)[A-Za-z0-9+/]{86}==", ()),
    (
        "azure-shared-access-key",
        r"=(?<=[Yy]=)(?:(?<=(?i:sharedaccesskey)=)|(?<=;(?i:accesskey)=))[A-Za-z0-9+/]{43}=",
        (),
    ),
    ("digitalocean-token", r"do[opr]_v1_[a-f0-9]{64}(?![A-Za-z0-9])", ()),
    ("alibaba-access-key-id", r"LTAI[A-Za-z0-9]{20}(?![A-Za-z0-9])", ()),
    ("alibaba-secret-key", r"[A-Za-z0-9]{30}", ("alibaba",)),
    ("heroku-api-key", r"HRKU-AA[A-Za-z0-9_-]{58}(?![A-Za-z0-9_-])", ()),
    ("heroku-api-key", _UUID, ("heroku",)),
    ("cloudflare-api-key", r"[A-Za-z0-9_-]{40}|[a-f0-9]{37}", ("cloudflare",)),
    ("cloudflare-origin-ca-key", r"v1\.0-[a-f0-9]{24}-[a-f0-9]{146}", ()),
    ("flyio-token", r"fo1_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])", ()),
    ("flyio-token", r"fm(?:1[ar]|2)_[A-Za-z0-9+/]{100,4000}+", ()),
    ("databricks-token", r"dapi[a-f0-9]{32}(?:-[0-9])?(?![A-Za-z0-9])", ()),
    ("openshift-token", r"sha256~[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])", ()),
    ("scalingo-token", r"tk-us-[A-Za-z0-9_-]{48}(?![A-Za-z0-9_-])", ()),
    ("planetscale-token", r"pscale_(?:tkn|oauth|pw)_[A-Za-z0-9_=.-]{32,64}+", ()),
    ("pulumi-token", r"pul-[a-f0-9]{40}(?![A-Za-z0-9])", ()),
    (
        "terraform-cloud-token",
        r"\.atlasv1\.(?<=[A-Za-z0-9]{14}\.atlasv1\.)[A-Za-z0-9_=-]{60,70}+",
        (),
    ),
    ("clickhouse-api-secret", r"4b1d[A-Za-z0-9]{38}(?![A-Za-z0-9])", ()),
    ("tailscale-key", r"tskey-(?:api|auth|client|scim|webhook)-[A-Za-z0-9_]{6,64}+-[A-Za-z0-9_]{10,128}+", ()),
    ("supabase-token", r"sbp_[a-f0-9]{40}(?![A-Za-z0-9])", ()),
    ("supabase-token", r"sb_secret_[A-Za-z0-9_-]{31,64}+", ()),
    ("netlify-token", r"nfp_[A-Za-z0-9_]{36,44}+(?![A-Za-z0-9-])", ()),
    ("render-api-key", r"rnd_[A-Za-z0-9]{32}(?![A-Za-z0-9])", ()),
    # --- Source hosts.
    ("github-token", r"gh[pousr]_[A-Za-z0-9]{36,251}+(?![A-Za-z0-9])", ()),
    ("github-token", r"github_pat_[A-Za-z0-9_]{60,251}+", ()),
    ("gitlab-token", r"gl(?:pat|oas|dt|rt|cbt|ptt|ft|imt|agent|soat|ffct)-[A-Za-z0-9_-]{20,300}+", ()),
    ("gitlab-token", r"GR1348941[A-Za-z0-9_-]{20}(?![A-Za-z0-9_-])", ()),
    ("gitlab-token", r"_gitlab_session=[a-z0-9]{32}", ()),
    ("atlassian-api-token", r"ATATT3[A-Za-z0-9_=-]{150,250}+", ()),
    ("atlassian-api-token", r"ATCTT3[A-Za-z0-9_=-]{150,250}+", ()),
    ("sourcegraph-token", r"sgp_(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}(?![A-Za-z0-9])", ()),
    # --- CI, build and package registries.
    ("npm-token", r"npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])", ()),
    ("pypi-token", r"pypi-AgE[A-Za-z0-9_-]{60,1000}+", ()),
    ("rubygems-token", r"rubygems_[a-f0-9]{48}(?![A-Za-z0-9])", ()),
    ("clojars-token", r"CLOJARS_[A-Za-z0-9]{60}(?![A-Za-z0-9])", ()),
    ("docker-hub-token", r"dckr_(?:pat|oat)_[A-Za-z0-9_-]{27,40}+", ()),
    ("artifactory-token", r"AKCp[A-Za-z0-9]{69}(?![A-Za-z0-9])", ()),
    ("artifactory-token", r"cmVmd[A-Za-z0-9]{59}(?![A-Za-z0-9])", ()),
    ("octopus-deploy-api-key", r"API-[A-Z0-9]{26}(?![A-Za-z0-9])", ()),
    ("circleci-token", r"CCIP(?:AT|RJ)_[A-Za-z0-9_]{40,80}+", ()),
    ("buildkite-token", r"bkua_[a-f0-9]{40}(?![A-Za-z0-9])", ()),
    ("sonarqube-token", r"sq[upa]_[a-f0-9]{40}(?![A-Za-z0-9])", ()),
    ("prefect-token", r"pnu_[A-Za-z0-9]{36}(?![A-Za-z0-9])", ()),
    ("readme-token", r"rdme_[a-z0-9]{70}(?![A-Za-z0-9])", ()),
    ("postman-token", r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}", ()),
    ("infracost-token", r"ico-[A-Za-z0-9]{32}(?![A-Za-z0-9])", ()),
    (
        "harness-token",
        r"at\.(?<=[ps]at\.)" + _token_start(r"[ps]at\.") + r"[A-Za-z0-9_-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}",
        (),
    ),
    # --- Payment and commerce.
    ("stripe-api-key", r"sk_(?:live|test|prod)_[A-Za-z0-9]{10,247}+", ()),
    ("stripe-api-key", r"rk_(?:live|test|prod)_[A-Za-z0-9]{10,247}+", ()),
    ("stripe-api-key", r"whsec_[A-Za-z0-9]{32,128}+", ()),
    ("square-token", r"sq0(?:atp|csp)-[A-Za-z0-9_-]{22,60}+", ()),
    ("square-token", r"EAAA[A-Za-z0-9_-]{60}(?![A-Za-z0-9_-])", ()),
    ("braintree-access-token", r"access_token\$(?:production|sandbox)\$[a-z0-9]{16}\$[a-f0-9]{32}", ()),
    ("flutterwave-secret-key", r"FLWSECK(?:_TEST)?-[a-hA-H0-9]{12,32}+(?:-X)?", ()),
    ("shopify-token", r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}(?![A-Za-z0-9])", ()),
    ("plaid-access-token", r"access-(?:sandbox|development|production)-" + _UUID, ()),
    ("duffel-token", r"duffel_(?:test|live)_[A-Za-z0-9_=-]{43}(?![A-Za-z0-9_=-])", ()),
    ("shippo-token", r"shippo_(?:live|test)_[a-fA-F0-9]{40}(?![A-Za-z0-9])", ()),
    ("easypost-token", r"EZ[AT]K[A-Za-z0-9]{54}(?![A-Za-z0-9])", ()),
    ("facebook-access-token", r"EAA[MC][A-Za-z0-9]{100,1000}+", ()),
    ("razorpay-key", r"rzp_(?:live|test)_[A-Za-z0-9]{14}(?![A-Za-z0-9])", ()),
    # --- Messaging and chat.
    ("slack-token", r"xox(?:[abposre]-|e\.xox[bp]-)[A-Za-z0-9-]{10,250}+", ()),
    ("slack-token", r"xapp-[0-9]-[A-Za-z0-9-]{20,250}+", ()),
    ("slack-webhook", r"hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_-]{16,200}+", ()),
    # [MNO] and 23 or 25 characters (a base64 user ID), ".", 6, ".", 27 to 38;
    # anchored on the first dot, the ID checked behind.
    (
        "discord-bot-token",
        r"\.[A-Za-z0-9_-]{6}\."
        r"(?:(?<=[MNO][A-Za-z0-9_-]{23}\.[A-Za-z0-9_-]{6}\.)"
        + _token_start(r"[MNO][A-Za-z0-9_-]{23}\.[A-Za-z0-9_-]{6}\.")
        + r"|(?<=[MNO][A-Za-z0-9_-]{25}\.[A-Za-z0-9_-]{6}\.)"
        + _token_start(r"[MNO][A-Za-z0-9_-]{25}\.[A-Za-z0-9_-]{6}\.")
        + r")[A-Za-z0-9_-]{27,38}+",
        (),
    ),
    ("discord-api-key", r"[a-f0-9]{64}", ("discord",)),
    ("discord-webhook", r"discord(?:app)?\.com/api/webhooks/[0-9]{17,20}/[A-Za-z0-9_-]{60,68}", ()),
    ("telegram-bot-token", r":A(?<=[0-9]{8}:A)[A-Za-z0-9_-]{34}(?![A-Za-z0-9_-])", ()),
    ("twilio-api-key", r"SK[0-9a-fA-F]{32}(?![A-Za-z0-9])", ()),
    ("sendgrid-api-key", r"SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])", ()),
    ("brevo-api-key", r"x(?:keysib|smtpsib)-[a-f0-9]{64}-[A-Za-z0-9]{16}", ()),
    ("mailgun-api-key", r"key-[a-f0-9]{32}(?![A-Za-z0-9])", ()),
    (
        "mailchimp-api-key",
        r"-us(?<=[0-9a-f]{32}-us)" + _token_start(r"[0-9a-f]{32}-us", "[A-Za-z0-9]") + r"[0-9]{1,2}(?![A-Za-z0-9])",
        (),
    ),
    (
        "microsoft-teams-webhook",
        r"\.webhook\.office\.com/webhookb2/[A-Za-z0-9@-]{60,120}+/IncomingWebhook/[A-Za-z0-9]{32}/",
        (),
    ),
    # --- AI and ML providers.
    ("anthropic-api-key", r"sk-ant-(?:api|admin|sid)[0-9]{2}-[A-Za-z0-9_-]{80,120}+", ()),
    ("openai-api-key", r"sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,300}+", ()),
    # Other "sk-" keys (legacy OpenAI, DeepSeek, OpenRouter and kin): judged,
    # so that "sk-learn" or a kebab-case name is not a key.
    ("sk-api-key", r"sk-(?P<value>[A-Za-z0-9_-]{32,300}+)", ()),
    ("huggingface-token", r"hf_[A-Za-z0-9]{34,40}+(?![A-Za-z0-9])", ()),
    ("huggingface-token", r"api_org_[A-Za-z]{34}(?![A-Za-z0-9])", ()),
    ("groq-api-key", r"gsk_[A-Za-z0-9]{48}(?![A-Za-z0-9])", ()),
    ("perplexity-api-key", r"pplx-[A-Za-z0-9]{48}(?![A-Za-z0-9])", ()),
    ("replicate-api-token", r"r8_[A-Za-z0-9]{37}(?![A-Za-z0-9])", ()),
    ("langsmith-api-key", r"lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}(?![A-Za-z0-9])", ()),
    ("xai-api-key", r"xai-[A-Za-z0-9]{70,90}+(?![A-Za-z0-9])", ()),
    ("pinecone-api-key", r"pcsk_[A-Za-z0-9]{4,10}+_[A-Za-z0-9]{50,90}+(?![A-Za-z0-9])", ()),
    # --- Observability and SaaS APIs.
    ("grafana-token", r"glc_[A-Za-z0-9+/]{32,400}+={0,2}", ()),
    ("grafana-token", r"glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}(?![A-Za-z0-9])", ()),
    ("grafana-token", r"eyJrIjoi[A-Za-z0-9]{70,400}+", ()),
    ("dynatrace-token", r"dt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}", ()),
    ("new-relic-key", r"NR(?:AK-[A-Z0-9]{27}|II-[A-Za-z0-9_-]{32}|JS-[a-f0-9]{19})(?![A-Za-z0-9])", ()),
    ("sentry-token", r"sntryu_[a-f0-9]{64}(?![A-Za-z0-9])", ()),
    ("sentry-token", r"sntrys_eyJ[A-Za-z0-9+/=_]{60,400}+", ()),
    ("notion-token", r"ntn_[0-9]{11}[A-Za-z0-9]{35}(?![A-Za-z0-9])", ()),
    ("airtable-token", r"pat[A-Za-z0-9]{14}\.[a-f0-9]{64}(?![A-Za-z0-9])", ()),
    ("typeform-token", r"tfp_[A-Za-z0-9_.=-]{59}", ()),
    ("frameio-token", r"fio-u-[A-Za-z0-9_=-]{64}", ()),
    ("adobe-client-secret", r"p8e-[A-Za-z0-9]{32}(?![A-Za-z0-9])", ()),
    ("mapbox-secret-token", r"sk\.eyJ[A-Za-z0-9_-]{20,1000}+\.[A-Za-z0-9_-]{20,100}+", ()),
    ("linear-api-key", r"lin_api_[A-Za-z0-9]{40}(?![A-Za-z0-9])", ()),
    ("chieftools-token", r"ct[por]_[A-Za-z0-9]{30,248}+", ()),
    ("settlemint-token", r"sm_(?:aat|pat|sat)_[A-Za-z0-9]{16}(?![A-Za-z0-9])", ()),
    ("castai-api-key", r"castai_v1_[A-Za-z0-9]{64}_[A-Za-z0-9]{8}", ()),
    ("defined-networking-token", r"dnkey-[a-z0-9=_-]{26}-[a-z0-9=_-]{52}", ()),
    (
        "maxmind-license-key",
        r"_mmk(?<=[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk)"
        + _token_start(r"[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk", "[A-Za-z0-9]")
        + r"(?![A-Za-z0-9])",
        (),
    ),
    ("intra42-client-secret", r"s-s4t2(?:ud|af)-[a-f0-9]{64}(?![A-Za-z0-9])", ()),
    ("figma-token", r"figd_[A-Za-z0-9_-]{40,48}+", ()),
    ("contentful-token", r"CFPAT-[A-Za-z0-9_-]{43,48}+", ()),
    ("hubspot-token", r"pat-(?:na|eu|ap)[0-9]-" + _UUID, ()),
    # --- Secret managers.
    ("vault-token", r"hv[bsr]\.[A-Za-z0-9_-]{24,300}+", ()),
    ("vault-token", r"s\.[A-Za-z0-9]{24}", ("vault",)),  # legacy tokens: only labelled, "s." is too common
    ("doppler-token", r"dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}+", ()),
    (
        "onepassword-secret-key",
        r"A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}",
        (),
    ),
    ("onepassword-service-account-token", r"ops_eyJ[A-Za-z0-9+/]{250,4000}+", ()),
    # --- Credentials in any text.  Last, so that a token with a shape of
    # its own is named after it when it is also the value of an assignment.
    ("jwt", r"eyJ[A-Za-z0-9_-]{8,1000}+\.eyJ[A-Za-z0-9_-]{8,8000}+\.[A-Za-z0-9_-]{0,2000}+", ()),
    # A JWT base64-encoded once more (a header's first claim, encoded twice).
    (
        "jwt",
        r"ZXlK(?:aGJHY2lPaU|aGNIVWlPaU|aGNIWWlPaU|aGRXUWlPaU|aU5qUWlP|amNtbDBJanBi|amRIa2lPaU|bGNHc2lPbn"
        r"|bGJtTWlPaU|cWEzVWlPaU|cWQyc2lPb|cGMzTWlPaU|cGRpSTZJ|cmFXUWlP|clpYbGZiM0J6SWpwY|cmRIa2lPaUp"
        r"|dWIyNWpaU0k2|d01tTWlP|d01uTWlPaU|d2NIUWlPaU|emRXSWlPaU|emRuUWlP|MFlXY2lPaU|MGVYQWlPaUp|MWNtd2l"
        r"|MWMyVWlPaUp|MlpYSWlPaU|MlpYSnphVzl1SWpv|NElqb2|NE5XTWlP|NE5YUWlPaU|NE5YUWpVekkxTmlJNkl"
        r"|NE5YVWlPaU|NmFYQWlPaU)[A-Za-z0-9/_+-]{40,8000}+",
        (),
    ),
    # scheme://user:password@host, any scheme; the user may be empty
    # (redis://:…@), the password may hold an unencoded "/" or "#".
    (
        "url-credentials",
        r"://(?P<user>[^\s/?#@:\[\x00]{0,128}+):(?P<secret>[^\s/?#@\x00]{1,256}+(?:[/#][^\s/?#@\x00]{0,256}+){0,4}+)@",
        (),
    ),
    # ;Password=… in ADO.NET, ODBC and JDBC strings, ?password=… in URLs.
    (
        "connection-string-password",
        r"=(?<=[Dd]=)(?:(?<=[;&?](?i:password)=)|(?<=[;&?] (?i:password)=)|(?<=[;&?](?i:passwd)=)"
        r"|(?<=[;&?](?i:pwd)=)|(?<=[;&?] (?i:pwd)=))"
        r"(?P<secret>\"[^\"\x00\n]{1,128}+\"|'[^'\x00\n]{1,128}+'|\{[^}\x00\n]{1,128}+\}|[^\s;&\"'\x00]{1,128}+)",
        (),
    ),
    # --password=…, --api-key …, --db.password …, -passout pass:… (openssl),
    # -p… and -p'…' (mysql; not -pi/2 or -pthread), -p … (docker login,
    # sshpass; judged as loosely as a name, for -p is also a port or a path),
    # -u user:… (curl), -U user%… (smbclient).
    (
        "credential-flag",
        r"-(?<![^\s\"'=\x00]-)"
        r"(?:-?+(?P<key>(?:[A-Za-z0-9][A-Za-z0-9_.-]{0,23}?)??" + _CREDENTIAL_KEY_STEM + r"[A-Za-z0-9_.-]{0,24}+)"
        r"(?:=|[ \t]++)(?:pass:)?+"
        r"|p(?=[A-Za-z0-9!@#$%^&*_+=~.-]{6,64}+(?![^\s\"'`\x00])|\\?+[\"'])"
        r"|p[ \t]++"
        r"|(?:u|-user)(?:=|[ \t]++)[^\s:\"'\x00]{1,64}+:"
        r"|U[ \t]++[^\s%\"'\x00]{1,64}+%(?P<password>))" + _VALUE,
        (),
    ),
    # Command-specific password flags: redis-cli -a, ldapsearch -w, and the
    # user/password@service of sqlplus.
    (
        "credential-flag",
        r"redis-cli(?:[ \t]++[^\s\x00]{1,128}+){0,12}?[ \t]++-a[ \t]++(?P<password>)" + _VALUE,
        (),
    ),
    (
        "credential-flag",
        r"ldap(?:search|modify|add|delete|whoami|passwd|compare|modrdn|exop)"
        r"(?:[ \t]++[^\s\x00]{1,256}+){0,16}?[ \t]++-w[ \t]++(?P<password>)" + _VALUE,
        (),
    ),
    (
        "credential-flag",
        r"sqlplus(?:[ \t]++-[A-Za-z]{1,16}+){0,4}+[ \t]++[A-Za-z0-9_$#]{1,30}+/(?P<password>)"
        r"(?P<value>[^\s@/\"'\x00]{6,128}+)(?![^\s@\x00])",
        (),
    ),
    # key = value in code, JSON, YAML, INI, .env and `export`, HTTP headers
    # (Authorization: Bearer …, X-Api-Key: …), XML and prose ("the password
    # is …"), where the key names a secret.
    (
        "credential-assignment",
        r"(?P<key>" + _CREDENTIAL_KEY_STEM + r"[A-Za-z0-9_.-]{0,40}+)" + _ASSIGNMENT + _VALUE,
        (),
    ),
    # The same with "password" in Russian, Chinese, Japanese, Korean and
    # Spanish (the Latin-script Passwort, Kennwort and mot de passe are
    # found by the row above).  Every alternative starts with a literal, so
    # that the regex engine skips to those characters.
    (
        "credential-assignment",
        r"(?P<native>\u041f\u0430\u0440\u043e\u043b\u044c|\u043f\u0430\u0440\u043e\u043b\u044c"
        r"|\u041f\u0410\u0420\u041e\u041b\u042c|\u5bc6\u7801|\u5bc6\u78bc|\u53e3\u4ee4"
        r"|\u30d1\u30b9\u30ef\u30fc\u30c9|\ube44\ubc00\ubc88\ud638"
        r"|\u00f1a(?<=[Cc]ontrase\u00f1a)|\u00d1A(?<=CONTRASE\u00d1A))(?:"
        + _NATIVE_IS
        + r"|"
        + _ASSIGNMENT
        + r")"
        + _VALUE,
        (),
    ),
    # .netrc: machine … login … password …
    (
        "credential-assignment",
        r"machine[ \t]++[^\s\x00]{1,253}+\s{1,16}+login[ \t]++[^\s\x00]{1,128}+\s{1,16}+password[ \t]++(?P<password>)"
        + _VALUE,
        (),
    ),
)

# Shannon entropy (bits per character) a value needs: that of a random
# string over a 2**3 alphabet, relaxed for short values, whose entropy
# cannot reach it (log2 of the length is its ceiling).
ENTROPY_BITS = 3.0
ENTROPY_SLACK_BITS = 1.0
# The key is read back to the start of its identifier ("spring.datasource.
# password", "MY_…_MASTER_PASSWORD"), at most this far: a run this long
# without a break is a blob (a data: URI, a base64 body), not a key.
KEY_LOOKBACK = 96
# A keyword labels a value from the key or the words just before it.
LABEL_LOOKBACK = 48
IDENTIFIER_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-"
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
# At most this many matches are judged in one text (a selection's fields
# joined): each costs microseconds, and a text that needs more is refused
# as a whole under CANDIDATE_LIMIT_RULE rather than scanned in part.  A
# value of digits alone is never a credential (the judge would turn it
# away) and is not counted: logs full of "input_tokens=721429" stay far
# below; the bound is one judged key-and-value per 70 characters of a
# 2 MiB selection.
MAX_SECRET_CANDIDATES = 30_000
CANDIDATE_LIMIT_RULE = "credential-candidate-limit"
# Placeholders, masks, references and template syntax, matched in any case
# against a whole value.  "$VAR" alone is a placeholder only when VAR reads
# as a name (the judge checks; "$uperS3cret!" is not one).
PLACEHOLDER_PATTERN = (
    r"\$[{(].*|\$[A-Za-z_][A-Za-z0-9_]*(?:->|[\[{.:]).*|%[A-Za-z_][A-Za-z0-9_]*%"  # ${VAR} $(cmd) $var->{x} %VAR%
    r"|[<{\[].*|&lt;.*|#\{.*|@[A-Za-z_]+@|![A-Za-z]+"  # <value> {{ x }} [value] #{x} @VAR@ !vault
    r"|[a-z][a-z0-9+.-]{1,16}://.*"  # a URL: where a secret lives (credentials in it have a row)
    r"|#[0-9a-f]{3,8}"  # a colour
    r"|[*xX.#?_\-\u2022\u00b7]+"  # ****, xxxx, ****xxxx, ••••
    r"|(?:your|insert|replace|enter|paste|fill[-_.]?in)(?:[-_.]?[a-z]+)*+"  # YOUR_API_KEY, YourTokenHere
    r"|(?:change|replace)[-_.]?(?:me|it|this)|[a-z]{0,8}(?:password|passwd|secret|token)"
    r"|(?:[a-z0-9]{1,16}[-_.]){1,4}(?:password|passwd|pass|pwd|secret|token|key|credentials?)"  # NEO4J_PASSWORD
    r"|none|null|nil|undefined|true|false|empty|blank|optional|required|redacted|removed|hidden"
    r"|masked|pass|apikey|api[-_]key|value|string|default|sample|test|testing|dummy|fake|todo|tbd"
    r"|foo|bar|foobar|baz|placeholder|unknown|unset|not[-_]?set|n/?a"
)
# References to where a secret lives, by scheme (vault:secret/data/db#pw,
# env:DB_PASSWORD, file:/run/secrets/x): the rest must read as a path.
REFERENCE_SCHEMES = frozenset(
    {"vault", "env", "file", "fd", "op", "ssm", "secretsmanager", "keyring", "keychain", "sops", "secret"}
)
# Values that are data, not credentials: dates and times, IPv6 and MAC
# addresses, host names (lower case, the last label letters only) with a
# port, e-mail addresses, version numbers and paths.
STRUCTURED_PATTERN = (
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}(?:[Tt_][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:[.,][0-9]{1,9})?)?)?"
    r"(?:[Zz]|[+-][0-9]{2}(?::?[0-9]{2})?)?"
    r"|[0-9]{1,2}:[0-9]{2}(?::[0-9]{2})?(?:[.,][0-9]{1,9})?(?:[Zz]|[AaPp][Mm])?"
    r"|(?=[0-9A-Fa-f]*:[0-9A-Fa-f]*:)[0-9A-Fa-f:.]{2,45}(?:%[A-Za-z0-9]{1,16})?"
    r"|(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,24}(?::[0-9]{1,5})?"
    r"|[A-Za-z0-9._%+-]{1,64}@(?:[A-Za-z0-9-]{1,63}\.)+[A-Za-z]{2,24}"
    r"|v?[0-9]{1,6}(?:\.[0-9]{1,6}){1,3}(?:[-+][0-9A-Za-z.-]{1,32})?"
    r"|(?:~|\.{1,2})[/\\].*|/[^/]+/.*|[A-Za-z]:\\.*"
)
# A GPG key ID or fingerprint (signingkey = 3AA5C34371567BD2), after a key
# that does not name a password.
KEY_ID_PATTERN = r"(?:0x)?[0-9A-F]{16}|[0-9A-F]{40}"
# Identifier- or prose-shaped values.  A word: lower case, UPPER case,
# Capitalized or camelCase humps (of two or more lower-case letters, a last
# hump of one: AccessKeyId, or trailing capitals: AccessKeyID).  A random
# mixed-case string breaks the humps.
_WORD = r"(?:[a-z]++|[A-Z]++[a-z]*+)(?:[A-Z][a-z]{2,}+)*+(?:[A-Z]{2,}+|[A-Z][a-z]?+)?+"
# For keys that are not passwords a word or hump may end in up to three
# digits (oauth2, sha256, HS256, Socks5Auth), but not after trailing
# capitals ("latybNE266"), and a last capital stands alone only in a run
# of them (AccessKeyID, AccessKeyId; not "…LdiP").
_NUMBERED_WORD = (
    r"(?:[a-z]++|[A-Z]++[a-z]*+)[0-9]{0,3}+(?:[A-Z][a-z]{2,}+[0-9]{0,3}+)*+(?:[A-Z]{2,}+|[A-Z][a-z][0-9]{0,3}+)?+"
)
_SEPARATORS = r"[-_./:\\#@+=~&%?()\[\]]"
# Words and numbers between any separators: what a placeholder or a path
# is made of ("your-bot-token-goes-here", "vault:secret/data/db#pw").
WORDISH_PATTERN = rf"{_SEPARATORS}*+(?:{_WORD}|[0-9]++)(?:{_SEPARATORS}++(?:{_WORD}|[0-9]++))*+{_SEPARATORS}*+"
WORDISH_OR_NUMBERED_PATTERN = WORDISH_PATTERN.replace(_WORD, _NUMBERED_WORD)
# A name after a key that is not a password: numbered words and numbers
# between name punctuation only ("prod-db-credentials", "oauth2",
# "Socks5Auth"); a symbol such as "#", "!" or "@" makes it a password
# ("RG380#glgvm"), unless the value is a path (it has a "/").
_NAME_SEPARATORS = r"[-_./:]"
NAME_PATTERN = (
    rf"{_NAME_SEPARATORS}*+(?:{_NUMBERED_WORD}|[0-9]++)(?:{_NAME_SEPARATORS}++(?:{_NUMBERED_WORD}|[0-9]++))*+"
    rf"{_NAME_SEPARATORS}*+"
)
# A name after a key that names a password, judged strictly: words without
# digits between name punctuation (getPassword, prod-db-credentials,
# DB_PASSWORD), or numbers beside words of one case (backup-2024-11-30,
# DB_PASSWORD_2).  A word glued to digits, a Capitalized word beside digits
# or a symbol is a password: bakery2024summer, Qwerty_123, Welcome@123.
_STRICT_WORD = r"(?:[A-Z]++|[A-Z]?+[a-z]++(?:[A-Z][a-z]++)*+[A-Z]{0,4}+)"
STRICT_NAME_PATTERN = (
    rf"[-_./]*+{_STRICT_WORD}(?:[-_./]++{_STRICT_WORD})*+[-_./]*+"
    r"|[-_./]*+(?:[a-z]++|[0-9]++)(?:[-_./]++(?:[a-z]++|[0-9]++))*+[-_./]*+"
    r"|[-_./]*+(?:[A-Z]++|[0-9]++)(?:[-_./]++(?:[A-Z]++|[0-9]++))*+[-_./]*+"
)
# Code that names a value rather than holding it: an identifier or an
# attribute path, with subscripts or a call (cfg['db_pw'], settings.X).
CODE_PATTERN = r"[A-Za-z_][A-Za-z0-9_]*+(?:\.[A-Za-z_][A-Za-z0-9_]*+)*+(?:\[[^\]]{1,64}+\]|\([^)]{0,64}+\))*+"
# The words of a key, after splitting camelCase and separators.
PASSWORD_WORDS = frozenset(
    {
        *("pass", "passwd", "password", "passwords", "passphrase", "passcode", "pwd", "passwort", "kennwort"),
        *("passe", "passin", "passout"),
    }
)
SECRET_WORDS = PASSWORD_WORDS | frozenset(
    {"secret", "secrets", "token", "tokens", "auth", "authorization", "cred", "creds", "credential", "credentials"}
)
# A word ending in one of these names a secret too (dbpassword, clientsecret,
# accesstoken, basicauth), unless it is an ordinary word.
SECRET_WORD_ENDINGS = ("pass", "passwd", "password", "pwd", "secret", "token", "auth", "creds", "credentials")
PASSWORD_WORD_ENDINGS = ("pass", "passwd", "password", "pwd")
NOT_SECRET_WORDS = frozenset({"bypass", "compass", "encompass", "surpass", "trespass", "overpass", "underpass"})
# "key" names a secret only after one of these (api key, accessKey, …).
KEY_QUALIFIERS = frozenset(
    {
        *("api", "access", "secret", "private", "signing", "encryption", "decryption", "master", "client"),
        *("app", "application", "auth", "service", "account", "aws", "session", "shared", "license"),
        *("consumer", "admin", "root", "deploy", "webhook", "hmac", "jwt", "db", "database", "storage"),
        *("priv",),
    }
)
# A secret word followed by one of these is about the secret, not the
# secret itself (password_hash, secret_name, token_url, --password-stdin).
ABOUT_A_SECRET = frozenset(
    {
        *("id", "ids", "name", "names", "url", "uri", "urls", "path", "file", "filename", "dir", "type"),
        *("length", "len", "size", "count", "limit", "max", "min", "expiry", "expires", "expiration"),
        *("ttl", "timeout", "lifetime", "endpoint", "method", "mode", "header", "policy", "prompt"),
        *("field", "env", "var", "stdin", "label", "version", "format", "hash", "hashed", "digest"),
        *("sha", "sha1", "sha256", "sha512", "md5", "checksum", "fingerprint", "rotation", "reset"),
        *("strength", "enabled", "disabled", "required", "provider", "store", "ref", "reference", "arn"),
        *("hint", "pattern", "regex", "history", "age", "scheme", "algorithm", "alg", "kind", "location"),
        *("manager", "created", "updated", "prefix", "suffix", "usage", "scope", "scopes", "bucket"),
        *("index", "indices", "start", "end", "offset", "position", "pos"),
    }
)
# A secret word right after one of these is not a credential (max_tokens,
# csrf_token, public_key, next_page_token).
NOT_A_CREDENTIAL_BEFORE = frozenset(
    {
        *("max", "min", "num", "number", "total", "input", "output", "prompt", "completion", "csrf"),
        *("xsrf", "public", "publishable", "next", "page", "continuation", "pagination", "sort"),
        *("partition", "primary", "foreign", "cancel", "cancellation", "idempotency", "sync", "request"),
        *("change", "lock", "paging"),
    }
)
# Placeholders recognised by how they end or what they contain (any case).
PLACEHOLDER_ENDINGS = ("-here", "_here", ".here", "keyhere", "tokenhere", "secrethere", "passwordhere")
PLACEHOLDER_MARK = "example"
# A shape match whose last characters are this uniform is a mask
# (ghp_xxxx…, AKIAXXXX…); AWS documentation marks its examples EXAMPLE.
MASK_TAIL_CHARS = 16
MASK_MAX_DISTINCT = 3
EXAMPLE_MARK = "EXAMPLE"
# What a prose word before a key starts after; and the words before a key
# that change its verdict ("API key", "csrf token").
PROSE_WORD_START = frozenset(" \t\n\r\x00(\"'[{<")
WORDS_BEFORE_A_KEY = KEY_QUALIFIERS | NOT_A_CREDENTIAL_BEFORE
# A key's verdict: it names no secret, a secret, a password, or a password
# unless a prose word precedes it ("pass:" in YAML, not "boarding pass: …").
_NOT_SECRET, _SECRET, _PASSWORD, _PASSWORD_UNLESS_PROSE = range(4)
# HTTP authentication schemes, also inside a quoted header value.
AUTH_SCHEMES = frozenset({"bearer", "basic", "token", "digest", "apikey", "api-key", "key"})
# What "pass" alone may follow to be a key: the start, a space, a query
# string, XML, JSON or code ("user:pass" is a pair's name, not a key).
KEY_OPENERS = frozenset(" \t\n\r\x00?&;<{(\"'[,$")
# Words before "pass" that declare it rather than describe it (export
# pass=…), unlike prose ("boarding pass: BA2490").
DECLARATION_WORDS = frozenset({"export", "set", "let", "var", "const", "local", "declare", "readonly", "my", "our"})


class _Scan:
    """One compiled regular expression and the rows it stands for: a judged
    row alone, or every plain row whose anchor starts with one character,
    each alternative closed by an empty marker group that names its row."""

    __slots__ = (
        "blanked",
        "has_key",
        "has_password",
        "has_user",
        "merged",
        "non_ascii",
        "regex",
        "rows",
        "value_group",
    )

    def __init__(self, regex: re.Pattern[str], rows: dict[str | None, tuple[int, str, int]]) -> None:
        self.regex = regex
        self.rows = rows  # marker group (None: the only row) -> (table index, family, anchor length)
        self.merged = None not in rows
        groups = regex.groupindex
        self.value_group = "value" if "value" in groups else "secret" if "secret" in groups else None
        self.has_key = "key" in groups
        # A key written in another script names a password by itself, and
        # can only be found in text that is not plain ASCII.
        self.non_ascii = "native" in groups
        self.has_password = "password" in groups or self.non_ascii
        self.has_user = "user" in groups
        # Token shapes read the text with escapes before tokens blanked;
        # keys, URLs and connection strings read it as written (a blanked
        # "%21" would cut a URL-encoded password short).
        self.blanked = self.value_group is None or not (self.has_key or self.has_password or self.has_user)


class _SecretScanner:
    def __init__(self) -> None:
        import re

        self.scans: list[_Scan] = []
        # Shapes that are secrets when their label carries a keyword.
        self.labelled: list[tuple[str, re.Pattern[str], tuple[str, ...]]] = []
        # Plain rows by the first character of their anchor: one scan jumps
        # to that character for all of them (a dozen rows start with "s"),
        # and by the second within it, so that at each "s" only the rows
        # that go on with its next character are tried ("sk-sk-…" costs the
        # four "sk" rows, not twenty).
        plain: dict[str, dict[str, list[str]]] = {}
        firsts: dict[str, str] = {}
        markers: dict[str, dict[str | None, tuple[int, str, int]]] = {}
        for index, (family, pattern, keywords) in enumerate(SECRET_RULES):
            if keywords:
                self.labelled.append((family, re.compile(pattern, re.ASCII), keywords))
                continue
            anchor, anchor_source = _literal_anchor(pattern)
            after = len(anchor_source)
            source = pattern
            # A pattern that checks what precedes its anchor does so itself.
            if anchor[:1].isalnum() and not pattern.startswith("(?<", after):
                source = f"{pattern[:after]}{_token_start(anchor_source)}{pattern[after:]}"
            if "(?P<" in pattern or not anchor:
                self.scans.append(_Scan(re.compile(source, re.ASCII), {None: (index, family, len(anchor))}))
                continue
            marker = f"row{index}"
            pieces = _literal_pieces(anchor_source)
            second = pieces[1] if len(pieces) > 1 else ""
            firsts[anchor[0]] = pieces[0]
            rest = source[len(pieces[0]) + len(second) :]
            plain.setdefault(anchor[0], {}).setdefault(second, []).append(f"{rest}(?P<{marker}>)")
            markers.setdefault(anchor[0], {})[marker] = (index, family, len(anchor))
        for first, by_second in plain.items():
            branches = "|".join(f"{second}(?:{'|'.join(rests)})" for second, rests in by_second.items())
            self.scans.append(_Scan(re.compile(f"{firsts[first]}(?:{branches})", re.ASCII), markers[first]))
        self.escape = re.compile(_ESCAPES_BEFORE_A_SHAPE, re.ASCII)
        self.placeholder = re.compile(PLACEHOLDER_PATTERN, re.ASCII | re.IGNORECASE)
        self.structured = re.compile(STRUCTURED_PATTERN, re.ASCII)
        self.key_id = re.compile(KEY_ID_PATTERN, re.ASCII)
        self.wordish = re.compile(WORDISH_PATTERN, re.ASCII)
        self.wordish_or_numbered = re.compile(WORDISH_OR_NUMBERED_PATTERN, re.ASCII)
        self.name = re.compile(NAME_PATTERN, re.ASCII)
        self.strict_name = re.compile(STRICT_NAME_PATTERN, re.ASCII)
        self.code = re.compile(CODE_PATTERN, re.ASCII)
        self.identifier = re.compile(r"[A-Za-z_][A-Za-z0-9_]*", re.ASCII)
        self.digit = re.compile(r"[0-9]", re.ASCII)
        self.vowel = re.compile(r"[AEIOUYaeiouy]", re.ASCII)
        self.lower_run = re.compile(r"[A-Z]?[a-z]++", re.ASCII)
        self.camel_hump = re.compile(r"(?<=[a-z0-9])(?=[A-Z])", re.ASCII)
        self.not_alnum = re.compile(r"[^a-z0-9]+", re.ASCII)
        # Verdicts by key (the word before it, its identifier) and by value
        # (the value, whether it must be a password): the same key or value
        # repeated is judged once.  Both stay small: every entry was a
        # judgement, and a text gets at most MAX_SECRET_CANDIDATES.
        self.key_verdicts: dict[tuple[str, str], int] = {}
        self.value_verdicts: dict[tuple[str, bool], bool] = {}


def _literal_anchor(pattern: str) -> tuple[str, str]:
    """The literal text a pattern starts with, and its source: ("SG.",
    r"SG\\.") for r"SG\\.[A-Za-z0-9_-]{22}…"; a quantified last character is
    not part of it."""
    anchor: list[str] = []
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "\\" and index + 1 < len(pattern) and not pattern[index + 1].isalnum():
            literal, width = pattern[index + 1], 2
        elif char.isalnum() or char in "_-~:/=;,'\"!@#%&<> ":
            literal, width = char, 1
        else:
            break
        if pattern[index + width : index + width + 1] in ("?", "*", "+", "{"):
            break
        anchor.append(literal)
        index += width
    return "".join(anchor), pattern[:index]


def _literal_pieces(anchor_source: str) -> list[str]:
    """The source of each literal character of an anchor: ["S", "G", "\\\\."]
    for r"SG\\."."""
    pieces: list[str] = []
    index = 0
    while index < len(anchor_source):
        width = 2 if anchor_source[index] == "\\" else 1
        pieces.append(anchor_source[index : index + width])
        index += width
    return pieces


_secret_scanner_cache: list[_SecretScanner] = []


def _secret_scanner() -> _SecretScanner:
    # Compiled on first use, so that runs that stop earlier never pay for it.
    if not _secret_scanner_cache:
        _secret_scanner_cache.append(_SecretScanner())
    return _secret_scanner_cache[0]


def find_secret(text: str) -> tuple[int, str] | None:
    """Scan text made of fields joined by "\\x00"; return (offset, rule) of the
    earliest hit in the text (ties: earlier table row wins), or None.

    The offset is where the secret starts (for a judged value, where the
    value starts), always inside the field that holds it; the rule is a
    family name from SECRET_RULES, or CANDIDATE_LIMIT_RULE where the text
    holds more candidates than MAX_SECRET_CANDIDATES (the offset is then
    that of the first candidate past the limit).  Nothing of the value is
    returned."""
    scanner = _secret_scanner()
    scanner.key_verdicts.clear()
    scanner.value_verdicts.clear()
    best: tuple[int, int, str] | None = None  # offset, table index, family
    budget = MAX_SECRET_CANDIDATES
    blanked = scanner.escape.sub(_ESCAPE_BLANKED, text) if "\\" in text or "%" in text else text
    ascii_only = text.isascii()
    for scan in scanner.scans:
        if scan.non_ascii and ascii_only:
            continue
        search = scan.regex.search
        scanned = blanked if scan.blanked else text
        position = 0
        while True:
            match = search(scanned, position)
            if match is None or (best is not None and match.start() > best[0]):
                break
            if scan.value_group == "value" and match["value"].strip("\"'`").isdigit():
                position = match.end()
                continue
            budget -= 1
            if budget < 0:
                hit: tuple[int, int, str] | None = (match.start(), -1, CANDIDATE_LIMIT_RULE)
                resume = len(text)
            else:
                hit, resume = _judge(scanner, scan, scanned, match)
            if hit is not None:
                if best is None or hit < best:
                    best = hit
                break
            position = max(resume, match.start() + 1)
        if budget < 0:
            break
    return None if best is None else (best[0], best[2])


def _judge(
    scanner: _SecretScanner, scan: _Scan, text: str, match: re.Match[str]
) -> tuple[tuple[int, int, str] | None, int]:
    """(offset, table index, family) when this match is a secret, else None;
    and where the scan resumes: after the match, or inside a quoted value
    that was turned away, which may hold a credential of its own
    (Token: "see notes; the password is …")."""
    index, family, anchor_chars = scan.rows[match.lastgroup if scan.merged else None]
    group = scan.value_group
    if group is None:
        return (
            None if _plain_is_placeholder(scanner, match[0], anchor_chars) else (match.start(), index, family)
        ), match.end()
    raw = match[group]
    value, offset = _unwrapped(raw, match.start(group))
    quoted = raw[0] in "\"'`" and raw[-1] == raw[0] and len(raw) > 1
    resume = offset if quoted else match.end()
    if group == "secret":
        if not _is_secret_part(scanner, scan, match, raw[0] == "{", value):
            return None, match.end()
        return (offset, index, _shape_inside(scanner, value) or family), match.end()
    password = scan.non_ascii or (scan.has_password and match["password"] is not None)
    key_start = match.start("key") if scan.has_key else -1
    if key_start >= 0:
        key_end = match.end("key")
        verdict, identifier_start = _key_verdict(scanner, text, key_start, key_end)
        if verdict == _NOT_SECRET:
            return None, resume
        password = verdict != _SECRET
        if quoted and " " in value:
            # 'Authorization': 'Bearer …': the scheme inside the quotes.
            scheme, _, rest = value.partition(" ")
            if scheme.lower() in AUTH_SCHEMES and " " not in rest:
                value, offset = rest, offset + len(scheme) + 1
        between = text[key_end : match.start(group)]
        if " " in between.strip(" \t\"'`"):
            resume = min(resume, key_end)  # "to … is": what the words hold is scanned again
        if not _connector_fits(text, between, identifier_start, match.end(group), quoted):
            return None, resume
    if not _credential_value(scanner, value, password):
        return None, resume
    if key_start < 0:
        return (offset, index, family), match.end()
    identifier = text[identifier_start:key_end]
    if _repeats_key(scanner, value, identifier):
        return None, resume
    if _holds_its_key(scanner, value, identifier):
        return None, offset  # a pattern (s/password=.*/password=x/): judge what it holds
    label = text[max(0, identifier_start - LABEL_LOOKBACK) : key_end].lower()
    return (
        offset,
        index,
        _labelled_family(scanner, value, label) or _shape_inside(scanner, value) or family,
    ), match.end()


def _plain_is_placeholder(scanner: _SecretScanner, found: str, anchor_chars: int) -> bool:
    """A token shape that is a mask (ghp_xxxx…), an AWS documentation
    example (…EXAMPLE) or a placeholder in the token's clothes: a body of
    words with lower-case letters or separators (sk_test_yourSecretKeyHere,
    xoxb-your-bot-token-goes-here, sk_live_environment).  An upper-case body
    without separators stays a token: AWS key IDs are often all letters."""
    tail = found[-MASK_TAIL_CHARS:]
    if len(found) > anchor_chars + MASK_TAIL_CHARS and len(set(tail)) <= MASK_MAX_DISTINCT:
        return True
    if EXAMPLE_MARK in found:
        return True
    body = found[anchor_chars:]
    if body.upper() == body and not any(char in body for char in "-_./"):
        return False
    return scanner.wordish.fullmatch(body) is not None


def _is_secret_part(scanner: _SecretScanner, scan: _Scan, match: re.Match[str], braced: bool, value: str) -> bool:
    """The password of a URL or connection string: anything but a
    placeholder, a template (Pwd={cfg['db_pw']}), a port and path
    (http://host:5173/@vite/…) or the user name again (postgres:postgres@,
    a well-known default rather than a secret)."""
    if len(value) < MIN_VALUE_CHARS or _is_placeholder(scanner, value):
        return False
    head = value.partition("[")[0].partition("(")[0]
    if braced and scanner.code.fullmatch(value) and scanner.wordish_or_numbered.fullmatch(head):
        return False
    if scan.has_user:
        port = value.partition("/")[0].partition("#")[0]
        if port.isdigit() or value == match["user"]:
            return False
    return True


def _key_verdict(scanner: _SecretScanner, text: str, key_start: int, key_end: int) -> tuple[int, int]:
    """Whether the key names a secret or a password, and where its
    identifier starts.  The identifier is read back from the key to the
    start of its run of identifier characters; the word before it counts
    when prose puts one there ("API key", "csrf token", "mot de passe")."""
    head = text[max(0, key_start - KEY_LOOKBACK) : key_start]
    stripped = head.rstrip(IDENTIFIER_CHARS)
    if not stripped and key_start >= KEY_LOOKBACK:
        return _NOT_SECRET, key_start  # the tail of a blob
    identifier_start = key_start - (len(head) - len(stripped))
    identifier_start += min(_escape_length(stripped, text, identifier_start), key_start - identifier_start)
    # Only a word that can change the verdict is kept, so that the verdict
    # of one key is judged once whatever prose precedes it.
    word = ""
    if stripped.endswith((" ", "\t")):
        words = stripped.rstrip(" \t")
        word_start = len(words.rstrip(LETTERS))
        if word_start == 0 or words[word_start - 1] in PROSE_WORD_START:
            word = words[word_start:].lower()
    before = word if word in WORDS_BEFORE_A_KEY else ""
    identifier = text[identifier_start:key_end]
    if stripped.endswith(("?", "&")) and identifier.lower() in ("key", "apikey"):
        return _SECRET, identifier_start  # ?key=… in a URL: Google and other APIs
    verdict = scanner.key_verdicts.get((before, identifier))
    if verdict is None:
        verdict = _names_a_secret(scanner, before, identifier)
        scanner.key_verdicts[(before, identifier)] = verdict
    if verdict == _PASSWORD_UNLESS_PROSE:
        prose = bool(word) and word not in DECLARATION_WORDS
        opens = not stripped or stripped[-1] in KEY_OPENERS
        test_log = identifier == "PASS" and text.startswith(":", key_end)  # "--- PASS: TestV2API (0.01s)"
        flag = identifier.startswith("-")  # mysql --pass …, openssl -pass pass:…
        verdict = _PASSWORD if flag or (opens and not prose and not test_log) else _NOT_SECRET
    return verdict, identifier_start


def _escape_length(stripped: str, text: str, identifier_start: int) -> int:
    """How much of an identifier is the tail of an escape before it: the "n"
    of "\\napi_key", the "u0022" of "\\u0022api_key", the "22" of
    "%22api_key"."""
    head = text[identifier_start : identifier_start + 5]
    if stripped.endswith("%"):
        return 2 if _is_hex(head[:2], 2) else 0
    if not stripped.endswith("\\"):
        return 0
    if head[:1] == "u":
        return 5 if _is_hex(head[1:5], 4) else 0
    if head[:1] == "x":
        return 3 if _is_hex(head[1:3], 2) else 0
    return 1 if head[:1] in ("n", "r", "t", "b", "f", "v", "0") else 0


def _is_hex(chars: str, length: int) -> bool:
    return len(chars) == length and all(char in "0123456789abcdefABCDEF" for char in chars)


def _names_a_secret(scanner: _SecretScanner, before: str, identifier: str) -> int:
    """Whether some word of the key names a secret (password, apiToken,
    X-Api-Key, DB_PASS, "wifi password") and is not qualified away
    (password_hash, max_tokens, publicKeyToken, --password-stdin); and
    whether that word is a password's.  The key is read split at camelCase
    humps and, only when that finds no secret word (a key in odd case:
    pAsSwOrD), split at separators alone."""
    for split_humps in (True, False):
        words = _key_words(scanner, identifier, split_humps)
        found = False
        for index, word in enumerate(words):
            previous = words[index - 1] if index else before
            password = False
            if word in ("key", "keys"):
                names = previous in KEY_QUALIFIERS
            elif word.endswith(("key", "keys")):
                names = word.rstrip("s")[:-3] in KEY_QUALIFIERS
            else:
                password = word in PASSWORD_WORDS or (
                    word.endswith(PASSWORD_WORD_ENDINGS) and word not in NOT_SECRET_WORDS
                )
                names = (
                    password
                    or word in SECRET_WORDS
                    or (word.endswith(SECRET_WORD_ENDINGS) and word not in NOT_SECRET_WORDS)
                )
            found = found or names
            if not names or not ABOUT_A_SECRET.isdisjoint(words[index + 1 :]) or previous in NOT_A_CREDENTIAL_BEFORE:
                continue
            if word == "pass" and index == 0:  # DB_PASS, smtp.pass; "pass:" alone unless prose names it
                return _PASSWORD_UNLESS_PROSE
            return _PASSWORD if password else _SECRET
        if found:
            return _NOT_SECRET
    return _NOT_SECRET


def _key_words(scanner: _SecretScanner, label: str, split_humps: bool) -> list[str]:
    """ "X-Api-Key" -> ["x", "api", "key"]; "clientSecret" -> ["client", "secret"]
    (or ["clientsecret"] without splitting humps)."""
    spaced = scanner.camel_hump.sub(" ", label) if split_humps else label
    return [word for word in scanner.not_alnum.split(spaced.lower()) if word]


def _connector_fits(text: str, between: str, identifier_start: int, value_end: int, quoted: bool) -> bool:
    """What joins key and value, checked where the pattern cannot: a ">" is
    an XML element only inside <key>…</ (not mongodb://<user>:<password>@…),
    and a "," pairs a quoted key with a quoted value only."""
    connector = between.lstrip("\\\"'`] \t")[:1]
    if connector == ">":
        opening = text[max(0, identifier_start - 32) : identifier_start]
        in_tag = opening.endswith("<") or ("<" in opening and opening.rsplit("<", 1)[1].endswith(":"))
        return in_tag and text.startswith("</", value_end)
    if connector == ",":
        return quoted and between.lstrip("\\")[:1] in ("'", '"')
    return True


def _repeats_key(scanner: _SecretScanner, value: str, identifier: str) -> bool:
    """A value that is code repeating its key, or the other way round:
    Socks5Auth = Socks5Auth, password = dbPassword2.  Only a value that
    reads as an identifier counts: a random one may hold "key" by chance."""
    if not scanner.code.fullmatch(value) or not scanner.wordish_or_numbered.fullmatch(value):
        return False
    folded_value = value.lower()
    folded = identifier.lower()
    words = _key_words(scanner, identifier, True)
    return folded_value in folded or (bool(words) and words[-1] in folded_value)


def _holds_its_key(scanner: _SecretScanner, value: str, identifier: str) -> bool:
    """A value that assigns its own key again is an expression about the
    key, a sed or regex pattern, not its value; the scan goes on inside it."""
    words = _key_words(scanner, identifier, True)
    folded = value.lower()
    return bool(words) and (f"{words[-1]}=" in folded or f"{words[-1]}:" in folded)


def _credential_value(scanner: _SecretScanner, value: str, password: bool) -> bool:
    """A credential rather than a word, a name, a number, a placeholder, a
    reference or data, judged by characters and entropy rather than by a
    list of words: long enough, no space, a letter, not name-shaped (more
    strictly after a key that names a password), and the entropy of a
    random string of its length."""
    verdict = scanner.value_verdicts.get((value, password))
    if verdict is None:
        verdict = _judge_value(scanner, value, password)
        scanner.value_verdicts[(value, password)] = verdict
    return verdict


def _judge_value(scanner: _SecretScanner, value: str, password: bool) -> bool:
    if len(value) < MIN_VALUE_CHARS or " " in value or "\t" in value or value.lower() == value.upper():
        return False
    if value.isalpha() and (value.islower() or value.isupper() or value[1:].islower()):
        return False  # a word in any script: "stocké", "Пароль"
    if _is_placeholder(scanner, value) or scanner.structured.fullmatch(value):
        return False
    if password:
        if scanner.strict_name.fullmatch(value):
            return False
    elif (scanner.name.fullmatch(value) and _pronounceable(scanner, value)) or scanner.key_id.fullmatch(value):
        return False
    if "/" in value and scanner.wordish_or_numbered.fullmatch(value):
        return False  # a path or a reference
    return _entropy_enough(value)


def _pronounceable(scanner: _SecretScanner, value: str) -> bool:
    """Whether a name with both cases and digits reads like one: every run
    of three or more letters with a lower-case one holds a vowel (Socks5Auth,
    GPT2Tokenizer), as random characters in the shape of humps rarely do
    ("jrxWhou1LdiP")."""
    if value.lower() == value or value.upper() == value or not scanner.digit.search(value):
        return True
    return all(len(run) < 3 or scanner.vowel.search(run) for run in scanner.lower_run.findall(value))


def _entropy_enough(value: str) -> bool:
    """Shannon entropy of at least ENTROPY_BITS per character, relaxed for
    short values; the count of distinct characters bounds it from above
    and, when all differ, gives it."""
    length = len(value)
    needed = min(ENTROPY_BITS, math.log2(length) - ENTROPY_SLACK_BITS)
    distinct = len(set(value))
    if math.log2(distinct) < needed:
        return False
    if distinct == length:
        return True
    shares = [value.count(char) / length for char in set(value)]
    return -sum(share * math.log2(share) for share in shares) >= needed


def _is_placeholder(scanner: _SecretScanner, value: str) -> bool:
    """A placeholder, a mask, template syntax or a reference; "example"
    marks one only in a value made of words (example-token-123, not
    MyExample#2024q), AWS's upper-case EXAMPLE anywhere."""
    folded = value.lower()
    if folded.endswith(PLACEHOLDER_ENDINGS) or EXAMPLE_MARK in value:
        return True
    if PLACEHOLDER_MARK in folded and scanner.wordish_or_numbered.fullmatch(value):
        return True
    if value[0] == "$" and scanner.identifier.fullmatch(value, 1) and scanner.wordish_or_numbered.fullmatch(value, 1):
        return True  # $DB_PASSWORD, $token; not $uperS3cret
    if scanner.placeholder.fullmatch(value):
        return True
    scheme, colon, rest = value.partition(":")
    return (
        bool(colon) and scheme.lower() in REFERENCE_SCHEMES and scanner.wordish_or_numbered.fullmatch(rest) is not None
    )


def _unwrapped(raw: str, offset: int) -> tuple[str, int]:
    """The captured value without its quotes (or ODBC braces, or the
    backslash of a JSON string's \\"…\\") or, bare, without the punctuation
    that ends a sentence or closes Markdown emphasis; and where it starts."""
    if len(raw) >= 2 and raw[0] + raw[-1] in ('""', "''", "``", "{}"):
        inner = raw[1:-1]
        return (inner[:-1] if inner.endswith("\\") else inner), offset + 1
    value = raw.rstrip(".,:;")
    # "!", "?" and "*" end a sentence or close emphasis after a word
    # ("Strong!"), but belong to a password that has digits ("lhyky406KM!").
    word = value.rstrip("!?*")
    return (word if word.isalpha() else value), offset


def _labelled_family(scanner: _SecretScanner, value: str, label: str) -> str | None:
    """The family of a shape that is a secret when labelled with its
    keyword: 40 base64 characters after "aws", a UUID after "heroku"."""
    for family, shape, keywords in scanner.labelled:
        if any(word in label for word in keywords) and shape.fullmatch(value):
            return family
    return None


def _shape_inside(scanner: _SecretScanner, value: str) -> str | None:
    """The family of a shape the value of a key=value hit holds, so that the
    hit is named after it: client_secret=…8Q~… is an Azure AD client secret
    (its row is anchored on "Q~", after the value starts, so it would not
    win on offset), "apiKey": "sk-…" an sk- key."""
    best: tuple[int, int, str] | None = None
    for scan in scanner.scans:
        if scan.value_group is None or not (scan.has_key or scan.has_password or scan.has_user):
            for match in scan.regex.finditer(value):
                hit = _judge(scanner, scan, value, match)[0]
                if hit is not None:
                    best = hit if best is None else min(best, hit)
                    break
    return None if best is None else best[2]


# ---------------------------------------------------------------------------
# Reconciliation against the persisted state (pure)
# ---------------------------------------------------------------------------


class SelectionHashes:
    """The selection digest and each branch's content hash.  Sorted keys put
    "branches" first, so the canonical form is the branches' own canonical
    forms joined: one serialization gives every hash."""

    __slots__ = ("branches", "digest")

    def __init__(self, selection: JsonObject) -> None:
        parts = [canonical_bytes(b) for b in selection["branches"]]
        rest = canonical_bytes({k: v for k, v in selection.items() if k != "branches"})
        self.digest = sha256_hex(b'{"branches":[' + b",".join(parts) + b"]," + rest[1:])
        self.branches = {b["branchId"]: sha256_hex(p) for b, p in zip(selection["branches"], parts, strict=True)}


def branch_content_sha256(branch: JsonObject) -> str:
    """One branch's content hash, spelled out (see SelectionHashes)."""
    return sha256_hex(canonical_bytes(branch))


def refuse_first_use(selection: JsonObject, places: SelectionPlaces | None = None) -> None:
    """What a directory with no state refuses: a restore, as nothing is
    tombstoned yet.  A first state cannot pass its own bounds (a 2 MiB
    snapshot, at most MAX_ID_LIST tombstones), so nothing else can fail."""
    if selection.get("restore"):
        fail("selection_conflict", places.restore_entry(selection["restore"]) if places else None)


def new_state(selection: JsonObject, places: SelectionPlaces | None = None) -> JsonObject:
    """The state of a directory that accepted exactly this first selection."""
    refuse_first_use(selection, places)
    return _state_from(selection, SelectionHashes(selection), {}, set(selection.get("exclude", ())))


def _state_from(
    selection: JsonObject, hashes: SelectionHashes, high_water: Mapping[str, JsonObject], tombstones: Iterable[str]
) -> JsonObject:
    merged = dict(high_water)
    for branch in selection["branches"]:
        merged[branch["branchId"]] = {
            "sourceRevision": branch["sourceRevision"],
            "contentSha256": hashes.branches[branch["branchId"]],
        }
    return {
        "stateSchemaVersion": STATE_SCHEMA_VERSION,
        "corpusId": selection["corpusId"],
        "selectionRevision": selection["revision"],
        "selectionDigest": hashes.digest,
        "snapshot": selection,
        "highWater": dict(sorted(merged.items())),
        "tombstones": sorted(tombstones),
    }


def _behind_high_water(
    selection: JsonObject, hashes: SelectionHashes, high_water: Mapping[str, JsonObject]
) -> list[str]:
    """Branches whose sourceRevision is below their mark, or equal to it with
    other content."""
    behind: list[str] = []
    for branch in selection["branches"]:
        mark = high_water.get(branch["branchId"])
        if mark is None:
            continue
        revision = branch["sourceRevision"]
        if revision < mark["sourceRevision"] or (
            revision == mark["sourceRevision"] and hashes.branches[branch["branchId"]] != mark["contentSha256"]
        ):
            behind.append(branch["branchId"])
    return behind


def reconcile(
    state: JsonObject | None, selection: JsonObject, places: SelectionPlaces | None = None
) -> tuple[JsonObject, bool]:
    """Accept ``selection`` against ``state``; return the new state and
    whether the selection was a replay of the accepted one.  With ``places``
    a refusal says where in the selection the fault lies."""
    if state is None:
        return new_state(selection, places), False
    if selection["corpusId"] != state["corpusId"]:
        fail("corpus_mismatch", "/corpusId")
    if selection["revision"] < state["selectionRevision"]:
        fail("revision_stale", "/revision")
    hashes = SelectionHashes(selection)
    if selection["revision"] == state["selectionRevision"]:
        if hashes.digest != state["selectionDigest"]:
            fail("revision_stale", "/revision")
        return state, True
    previous = set(state["tombstones"])
    not_tombstoned = set(selection.get("restore", ())) - previous
    if not_tombstoned:
        fail("selection_conflict", places.restore_entry(not_tombstoned) if places else None)
    behind = _behind_high_water(selection, hashes, state["highWater"])
    if behind:
        fail("source_revision_conflict", places.branch(behind, "sourceRevision") if places else None)
    listed = {b["branchId"] for b in selection["branches"]}
    omitted = {b["branchId"] for b in state["snapshot"]["branches"]} - listed
    restore = set(selection.get("restore", ()))
    tombstones = (previous - restore) | set(selection.get("exclude", ())) | omitted
    return _state_from(selection, hashes, state["highWater"], tombstones), False


def committed_state_bytes(state: JsonObject) -> bytes:
    """state.json as it would be committed, or state_limit when its own
    reader would refuse it later: nothing is committed past those bounds."""
    if len(state["tombstones"]) > MAX_TOMBSTONES:
        fail("state_limit")
    data = state_bytes(state)
    if len(data) > MAX_STATE_BYTES:
        fail("state_limit")
    return data


def validate_state(value: Any) -> JsonObject:
    """Check a decoded state.json: its version, its shape and every
    invariant that acceptance guarantees."""
    if not isinstance(value, dict):
        fail("state_corrupt")
    version = value.get("stateSchemaVersion")
    if type(version) is not int:
        fail("state_corrupt")
    if version != STATE_SCHEMA_VERSION:
        fail("state_schema_unsupported")
    if value.keys() != STATE_FIELDS:
        fail("state_corrupt")
    try:
        snapshot = validate_snapshot(value["snapshot"])
    except ProjectionError:
        fail("state_corrupt")
    tombstones = value["tombstones"]
    high_water = value["highWater"]
    if not (_tombstones_well_formed(tombstones) and _high_water_well_formed(high_water)):
        fail("state_corrupt")
    # Dict equality would let true stand for 1: the scalars' types first.
    scalars_typed = (
        type(value["selectionRevision"]) is int
        and isinstance(value["corpusId"], str)
        and isinstance(value["selectionDigest"], str)
    )
    expected = _state_from(snapshot, SelectionHashes(snapshot), high_water, tombstones)
    ledger = set(tombstones)
    listed = {b["branchId"] for b in snapshot["branches"]}
    # Acceptance tombstones every branch it stops listing, and only restore
    # (which lists it) lifts a tombstone: a marked branch that is neither
    # listed nor tombstoned was edited out of the ledger by hand.
    consistent = (
        scalars_typed
        # The snapshot was compared with its canonical form already.
        and all(expected[name] == value[name] for name in STATE_FIELDS - {"snapshot"})
        and set(snapshot.get("exclude", ())) <= ledger
        and not set(snapshot.get("restore", ())) & ledger
        and high_water.keys() - listed <= ledger
    )
    if not consistent:
        fail("state_corrupt")
    return value


def _tombstones_well_formed(tombstones: Any) -> bool:
    """A list of IDs in strictly increasing order.  Checked in bulk: the
    ledger may hold a million entries, and is_id on each costs seconds."""
    if not isinstance(tombstones, list) or len(tombstones) > MAX_TOMBSTONES:
        return False
    if not tombstones:
        return True
    return (
        set(map(type, tombstones)) == {str}
        and min(map(len, tombstones)) > 0
        and max(map(len, tombstones)) <= MAX_ID_CHARS
        and ID_CHARS.issuperset("".join(tombstones))
        and ID_FIRST.issuperset([t[0] for t in tombstones])
        and all(map(str.__lt__, tombstones, tombstones[1:]))
    )


def _high_water_well_formed(high_water: Any) -> bool:
    return isinstance(high_water, dict) and all(
        is_id(branch_id)
        and isinstance(mark, dict)
        and mark.keys() == HIGH_WATER_FIELDS
        and type(mark["sourceRevision"]) is int
        and mark["sourceRevision"] >= 1
        and is_sha256(mark["contentSha256"])
        for branch_id, mark in high_water.items()
    )


def validate_snapshot(value: Any) -> JsonObject:
    """A persisted snapshot passes the selection rules, except the secret scan:
    it was scanned when accepted, and a later, stricter rule must not make an
    accepted state unreadable."""
    if not isinstance(value, dict) or not SELECTION_REQUIRED <= value.keys() <= SELECTION_FIELDS:
        fail("state_corrupt")
    canonical = validate_selection(value, scan_secrets=False)
    # Every value in the canonical form was type-checked, so plain equality
    # also pins the order of each array.
    if canonical != value:
        fail("state_corrupt")
    return canonical


def parse_state(data: bytes) -> JsonObject:
    if len(data) > MAX_STATE_BYTES:
        fail("state_corrupt")
    try:
        # No depth walk: validate_state checks every field's shape before it
        # compares anything, and json itself refuses runaway nesting.
        decoded = parse_json(data, max_depth=None)
    except ProjectionError:
        fail("state_corrupt")
    return validate_state(decoded)


def state_bytes(state: JsonObject) -> bytes:
    return canonical_bytes(state) + b"\n"


# ---------------------------------------------------------------------------
# The extraction (pure)
# ---------------------------------------------------------------------------


class Projection:
    """The extraction and the counts a result line reports."""

    __slots__ = ("counts", "extraction")

    def __init__(self, extraction: JsonObject, counts: dict[str, int]) -> None:
        self.extraction = extraction
        self.counts = counts


def _provenance(state: JsonObject) -> JsonObject:
    """What every node and edge carries about where it came from."""
    corpus_id = state["snapshot"]["corpusId"]
    return {
        "corpusId": corpus_id,
        "selectionRevision": state["selectionRevision"],
        "selectionDigest": state["selectionDigest"],
        "projectionSchemaVersion": PROJECTION_SCHEMA_VERSION,
        "embeddingIdentity": EMBEDDING_IDENTITY,
        "source_file": "selected:" + corpus_id,
    }


def _edge(provenance: JsonObject, source: str, target: str, relation: str, revision: int) -> JsonObject:
    return {
        **provenance,
        "source": source,
        "target": target,
        "relation": relation,
        "confidence": "EXTRACTED",
        "sourceRevision": revision,
    }


def _branch_nodes(provenance: JsonObject, branch: JsonObject) -> Iterator[JsonObject]:
    """The branch's own node, then its sources and summaries."""
    branch_id = branch["branchId"]
    revision = branch["sourceRevision"]
    yield {
        **provenance,
        "id": "branch:" + branch_id,
        "label": branch_id,
        "nodeKind": "branch",
        "file_type": "concept",
        "branchId": branch_id,
        "sourceRevision": revision,
    }
    for source in branch["sources"]:
        yield {
            **provenance,
            "id": "source:" + source["refId"],
            "label": source["refId"],
            "nodeKind": "source",
            "file_type": "document",
            "refId": source["refId"],
            "sha256": source["sha256"],
        }
    for summary in branch["summaries"]:
        node = {
            **provenance,
            "id": f"branch:{branch_id}:summary:{summary['summaryId']}",
            # The role leads the label so that every Graphify answer shows who said it.
            "label": f"{summary['role']}: {summary['text']}",
            "nodeKind": "summary",
            "file_type": "rationale",
            "summaryId": summary["summaryId"],
            "role": summary["role"],
            "kind": summary["kind"],
            "sourceRevision": revision,
        }
        if "memoryRef" in summary:
            node["memoryRef"] = summary["memoryRef"]
        yield node


def project(state: JsonObject) -> Projection:
    """Nodes and edges for every listed branch that is not tombstoned.
    Relations come only from parentBranchId, sources and summaries."""
    tombstones = set(state["tombstones"])
    projected = [b for b in state["snapshot"]["branches"] if b["branchId"] not in tombstones]
    projected_ids = {b["branchId"] for b in projected}
    provenance = _provenance(state)
    nodes: dict[str, JsonObject] = {}
    edges: list[JsonObject] = []
    for branch in projected:
        branch_node, *attached = _branch_nodes(provenance, branch)
        revision = branch["sourceRevision"]
        nodes[branch_node["id"]] = branch_node
        if branch.get("parentBranchId") in projected_ids:
            edges.append(
                _edge(provenance, branch_node["id"], "branch:" + branch["parentBranchId"], "forked_from", revision)
            )
        for node in attached:
            nodes[node["id"]] = node
            relation = "attached_source" if node["nodeKind"] == "source" else "approved_summary"
            edges.append(_edge(provenance, branch_node["id"], node["id"], relation, revision))
    extraction: JsonObject = {
        "nodes": [nodes[key] for key in sorted(nodes)],
        "edges": sorted(edges, key=lambda e: (e["source"], e["target"], e["relation"])),
        "hyperedges": [],
    }
    kinds = [n["nodeKind"] for n in nodes.values()]
    listed = state["snapshot"]["branches"]
    parents = [b["parentBranchId"] for b in projected if "parentBranchId" in b]
    counts = {
        "branches": len(projected),
        "sources": kinds.count("source"),
        "summaries": sum(len(b["summaries"]) for b in projected),
        "edges": len(edges),
        "tombstones": len(tombstones),
        "withheldBranches": len(listed) - len(projected),
        "missingParents": sum(1 for parent in parents if parent not in projected_ids),
    }
    return Projection(extraction, counts)


def extraction_bytes(projection: Projection) -> bytes:
    return canonical_bytes(projection.extraction) + b"\n"


def _is_extraction_of(data: bytes, projection: Projection) -> bool:
    """data == extraction_bytes(projection), without copying either side."""
    return data.endswith(b"\n") and memoryview(data)[:-1] == canonical_bytes(projection.extraction)


def receipt_bytes(state: JsonObject, graph_sha: str, extraction_sha: str, graphify_version: str | None) -> bytes:
    receipt = {
        "adapterVersion": ADAPTER_VERSION,
        "contextGraph": CONTEXT_GRAPH,
        "embeddingIdentity": EMBEDDING_IDENTITY,
        "extractionSha256": extraction_sha,
        "graphSha256": graph_sha,
        "graphifyVersion": graphify_version,
        "projectionSchemaVersion": PROJECTION_SCHEMA_VERSION,
        "selectionDigest": state["selectionDigest"],
        "selectionRevision": state["selectionRevision"],
    }
    return canonical_bytes(receipt) + b"\n"


# ---------------------------------------------------------------------------
# Reading the selection file (I/O, bounded)
# ---------------------------------------------------------------------------

_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_O_BINARY = getattr(os, "O_BINARY", 0)
_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def _read_bounded(fd: int, limit: int, too_large: str) -> bytes:
    """Read at most ``limit + 1`` bytes from an open regular file, in one
    read when its size is known (a 20 MiB graph is not copied twice)."""
    size = os.fstat(fd).st_size
    if size > limit:
        fail(too_large)
    chunks: list[bytes] = []
    remaining = limit + 1
    step = max(size + 1, READ_CHUNK)
    while remaining > 0:
        chunk = os.read(fd, min(step, remaining))
        if not chunk:
            break
        chunks.append(chunk)
        remaining -= len(chunk)
    data = b"".join(chunks)
    if len(data) > limit:
        fail(too_large)
    return data


def read_selection(path: str) -> bytes:
    # O_NONBLOCK: opening a FIFO must not wait for a writer.
    try:
        fd = os.open(path, os.O_RDONLY | _O_NONBLOCK | _O_BINARY | _O_CLOEXEC)
    except (OSError, ValueError):
        fail("selection_unreadable")
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            fail("selection_unreadable")
        return _read_bounded(fd, MAX_SELECTION_BYTES, "selection_too_large")
    except OSError:
        fail("selection_unreadable")
    finally:
        os.close(fd)


# ---------------------------------------------------------------------------
# The owned directory (I/O)
# ---------------------------------------------------------------------------
# On POSIX every operation is relative to a descriptor of the state root,
# opened component by component with O_NOFOLLOW, so a name swapped for a
# symlink after a check is never followed.  Windows has no dir_fd: there each
# operation re-checks its name with lstat, reparse points (junctions)
# included, immediately before acting on it.

SUPPORTS_DIR_FD = (
    os.name == "posix"
    and {os.open, os.stat, os.unlink, os.rename, os.mkdir, os.rmdir} <= os.supports_dir_fd
    and os.listdir in os.supports_fd
)
DIR_FLAGS = os.O_RDONLY | _O_DIRECTORY | _O_NOFOLLOW | _O_CLOEXEC
# Graphify's to_json resolves the name it is given to an absolute path and
# creates its temporaries beside it (".gfy-replace-bak-XXXXXXXX.tmp" is the
# longest), so a root this close to PATH_MAX could never build.
GRAPHIFY_NAME_ALLOWANCE = 64
DEFAULT_PATH_MAX = 4096


# On Windows a symlink or a junction is a reparse point with one of these
# tags; other reparse points (cloud placeholders, deduplicated files) are not
# links and are judged like any other entry.
IO_REPARSE_TAG_SYMLINK = 0xA000000C
IO_REPARSE_TAG_MOUNT_POINT = 0xA0000003
LINK_REPARSE_TAGS = frozenset({IO_REPARSE_TAG_SYMLINK, IO_REPARSE_TAG_MOUNT_POINT})


def _is_link(st: os.stat_result) -> bool:
    return stat.S_ISLNK(st.st_mode) or getattr(st, "st_reparse_tag", 0) in LINK_REPARSE_TAGS


class _StateErrors:
    """Inside ``with STATE_IO``, an OS error is one on the state directory:
    ``state_access``.  OS errors anywhere else are not mapped here."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, _trace: object) -> None:
        if isinstance(error, OSError):
            raise ProjectionError("state_access") from None


STATE_IO = _StateErrors()


class OwnedDir:
    """A directory of the state: the root, or its cache/."""

    def __init__(self, path: str, fd: int | None, created: bool = False) -> None:
        self.path = path
        self.fd = fd
        self.created = created

    def _where(self, name: str) -> tuple[str, int | None]:
        if self.fd is not None:
            return name, self.fd
        return os.path.join(self.path, name), None

    def lstat(self, name: str) -> os.stat_result | None:
        where, dir_fd = self._where(name)
        with STATE_IO:
            try:
                return os.stat(where, dir_fd=dir_fd, follow_symlinks=False)
            except FileNotFoundError:
                return None

    def identity(self) -> tuple[int, int]:
        """(device, inode) of this directory as opened."""
        with STATE_IO:
            st = os.fstat(self.fd) if self.fd is not None else os.stat(self.path)
        return st.st_dev, st.st_ino

    def _refuse_link(self, name: str) -> None:
        st = self.lstat(name)
        if st is not None and _is_link(st):
            fail("state_symlink")

    def child(self, name: str) -> OwnedDir:
        """Open a subdirectory without following a symlink."""
        self._refuse_link(name)
        if self.fd is None:
            return OwnedDir(os.path.join(self.path, name), None)
        with STATE_IO:
            try:
                return OwnedDir(os.path.join(self.path, name), os.open(name, DIR_FLAGS, dir_fd=self.fd))
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    fail("state_symlink")
                raise

    def open_read(self, name: str, writable: bool = False) -> int | None:
        """Open an existing regular file without following a symlink.
        ``writable`` for a file we fsync: Windows cannot flush a read-only handle."""
        self._refuse_link(name)
        where, dir_fd = self._where(name)
        access = os.O_RDWR if writable else os.O_RDONLY
        flags = access | _O_NOFOLLOW | _O_NONBLOCK | _O_BINARY | _O_CLOEXEC
        with STATE_IO:
            try:
                fd = os.open(where, flags, dir_fd=dir_fd)
            except FileNotFoundError:
                return None
            except OSError as exc:
                if exc.errno == errno.ELOOP:
                    fail("state_symlink")
                raise
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                os.close(fd)
                fail("state_unknown_entry")
        return fd

    def read(self, name: str, limit: int, too_large: str) -> bytes | None:
        fd = self.open_read(name)
        if fd is None:
            return None
        with STATE_IO:
            try:
                return _read_bounded(fd, limit, too_large)
            finally:
                os.close(fd)

    def create_exclusive(self, name: str, if_exists: str = "state_access") -> int:
        """A new file, mode 0600, never through a symlink; ``if_exists`` is
        the code when the name is taken."""
        self._refuse_link(name)
        where, dir_fd = self._where(name)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_NOFOLLOW | _O_BINARY | _O_CLOEXEC
        with STATE_IO:
            try:
                fd = os.open(where, flags, 0o600, dir_fd=dir_fd)
            except FileExistsError:
                fail(if_exists)
            try:
                if hasattr(os, "fchmod"):
                    os.fchmod(fd, 0o600)
            except BaseException:
                # It is ours and empty: leave no half-made file behind.
                os.close(fd)
                try:
                    self.unlink(name)
                except ProjectionError:
                    pass
                raise
        return fd

    def unlink(self, name: str) -> None:
        # unlink never follows a symlink: it removes the name itself.
        where, dir_fd = self._where(name)
        with STATE_IO:
            try:
                os.unlink(where, dir_fd=dir_fd)
            except FileNotFoundError:
                pass

    def rmdir(self, name: str) -> None:
        where, dir_fd = self._where(name)
        with STATE_IO:
            try:
                os.rmdir(where, dir_fd=dir_fd)
            except FileNotFoundError:
                pass

    def rename(self, source: str, target: str) -> None:
        self._refuse_link(source)
        self._refuse_link(target)
        src, src_fd = self._where(source)
        dst, dst_fd = self._where(target)
        with STATE_IO:
            os.replace(src, dst, src_dir_fd=src_fd, dst_dir_fd=dst_fd)

    def names(self) -> list[str]:
        with STATE_IO:
            return sorted(os.listdir(self.fd if self.fd is not None else self.path))

    def sync(self) -> None:
        if self.fd is not None:
            with STATE_IO:
                os.fsync(self.fd)

    def close(self) -> None:
        if self.fd is not None:
            fd, self.fd = self.fd, None
            os.close(fd)

    def write_atomic(self, name: str, data: bytes) -> None:
        """Publish ``data`` as ``name`` through its fixed .tmp twin: exclusive
        create, write, fsync, rename, fsync the directory."""
        temp = name + TMP_SUFFIX
        self.unlink(temp)
        fd = self.create_exclusive(temp)
        with STATE_IO:
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view) :]
                os.fsync(fd)
            finally:
                os.close(fd)
        self.rename(temp, name)
        self.sync()


def _path_max(fd: int) -> int:
    try:
        return os.fpathconf(fd, "PC_PATH_MAX")
    except (OSError, ValueError, AttributeError):
        return DEFAULT_PATH_MAX


def _open_root_posix(path: str, create: bool) -> OwnedDir | None:
    """Walk from '/' with O_NOFOLLOW, so that no component can be a symlink;
    '..' is resolved by the kernel, after the component before it was checked."""
    parts = [p for p in path.split("/") if p not in ("", ".")]
    canonical: list[str] = []
    created = False
    fd = os.open("/", DIR_FLAGS)
    try:
        for index, part in enumerate(parts):
            last = index == len(parts) - 1
            canonical = canonical[:-1] if part == ".." else [*canonical, part]
            if last and len(os.fsencode("/" + "/".join(canonical))) + GRAPHIFY_NAME_ALLOWANCE >= _path_max(fd):
                fail("state_access")
            try:
                child = os.open(part, DIR_FLAGS, dir_fd=fd)
            except FileNotFoundError:
                if not last:
                    fail("state_access")
                if not create:
                    return None
                # Another invocation may create it first; the lock decides.
                try:
                    os.mkdir(part, 0o700, dir_fd=fd)
                    created = True
                except FileExistsError:
                    pass
                child = os.open(part, DIR_FLAGS, dir_fd=fd)
            except OSError as exc:
                if _is_link(os.stat(part, dir_fd=fd, follow_symlinks=False)):
                    fail("state_symlink")
                if exc.errno == errno.ENOTDIR:
                    fail("state_access")
                raise
            os.close(fd)
            fd = child
        owned, fd = OwnedDir(path, fd, created), -1
        return owned
    finally:
        if fd >= 0:
            os.close(fd)


def _path_prefixes(path: str) -> list[str]:
    """Each ancestor of ``path`` as written, '..' kept, outermost first."""
    prefixes: list[str] = []
    probe = path
    while True:
        parent = os.path.dirname(probe)
        if parent == probe:
            break
        prefixes.append(probe)
        probe = parent
    return prefixes[::-1]


def _open_root_portable(path: str, create: bool) -> OwnedDir | None:
    created = False
    # Every prefix as written, so that "lnk\\.." is checked as "lnk" first.
    for prefix in _path_prefixes(path):
        if os.path.basename(prefix) in ("", ".", ".."):
            continue
        try:
            if _is_link(os.lstat(prefix)):
                fail("state_symlink")
        except FileNotFoundError:
            pass
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        if not os.path.isdir(os.path.dirname(path)):
            fail("state_access")
        if not create:
            return None
        try:
            os.mkdir(path, 0o700)
            created = True
        except FileExistsError:
            pass
        st = os.lstat(path)
    if not stat.S_ISDIR(st.st_mode):
        fail("state_access")
    return OwnedDir(path, None, created)


def open_root(root: str, create: bool) -> OwnedDir | None:
    """Open the state root, refusing a symlink or junction in any component.
    None when it does not exist and ``create`` is false.  The path is not
    normalized first: '..' after a symlink must meet the symlink."""
    with STATE_IO:
        absolute = root if os.path.isabs(root) else os.path.join(os.getcwd(), root)
        if SUPPORTS_DIR_FD:
            return _open_root_posix(absolute, create)
        return _open_root_portable(absolute, create)


def _scan_cache(owned: OwnedDir) -> tuple[bool, bool]:
    """(symlink seen, unknown entry seen) inside cache/."""
    cache = owned.child(CACHE_NAME)
    try:
        symlink = unknown = False
        for name in cache.names():
            st = cache.lstat(name)
            if st is None:
                continue
            if _is_link(st):
                symlink = True
            elif name != STAMP_NAME or not stat.S_ISREG(st.st_mode):
                unknown = True
        return symlink, unknown
    finally:
        cache.close()


def scan_directory(owned: OwnedDir, refuse_lock: bool) -> None:
    """Check every entry against the owned names.  Refusals come in a fixed
    order whatever the listing order: symlink, lock (when asked), a foreign
    name on first use, an unknown entry.  Changes nothing.

    A directory without state.json that holds only owned names, what a first
    run killed before its commit leaves, counts as empty."""
    names = owned.names()
    symlink = foreign = wrong_type = lock_held = False
    for name in names:
        st = owned.lstat(name)
        if st is None:
            continue
        if _is_link(st):
            symlink = True
        elif name == CACHE_NAME:
            if stat.S_ISDIR(st.st_mode):
                cache_symlink, cache_unknown = _scan_cache(owned)
                symlink |= cache_symlink
                wrong_type |= cache_unknown
            else:
                wrong_type = True
        elif name not in OWNED_FILES and not is_graphify_temp(name):
            foreign = True
        elif not stat.S_ISREG(st.st_mode):
            # An owned name of the wrong type: a lock that is a directory
            # cannot be cleared the documented way, so it is not a lock.
            wrong_type = True
        elif name == LOCK_NAME:
            lock_held = True
    if symlink:
        fail("state_symlink")
    if refuse_lock and lock_held:
        fail("state_locked")
    if foreign and STATE_NAME not in names:
        fail("state_not_empty")
    if foreign or wrong_type:
        fail("state_unknown_entry")


def is_graphify_temp(name: str) -> bool:
    """A name of the shape Graphify gives its temporary files: to_json's
    ".gfy-XXXXXXXX.tmp" and its replace fallback's ".gfy-replace-*.tmp" and
    ".gfy-replace-bak-*.tmp"."""
    if not (name.startswith(GFY_TEMP_PREFIX) and name.endswith(TMP_SUFFIX)):
        return False
    middle = name[len(GFY_TEMP_PREFIX) : -len(TMP_SUFFIX)]
    for kind in GFY_TEMP_KINDS:
        if middle.startswith(kind):
            middle = middle[len(kind) :]
            break
    return 0 < len(middle) <= 64 and GFY_TEMP_CHARS.issuperset(middle)


def _remove_graphify_temps(owned: OwnedDir) -> None:
    for name in owned.names():
        if is_graphify_temp(name):
            owned.unlink(name)


def remove_derived(owned: OwnedDir) -> None:
    """Invalidate the published graph: the receipt first, then the graph,
    the extraction, every temporary, the query stamp and its empty cache/."""
    for name in DERIVED_NAMES:
        owned.unlink(name)
    _remove_graphify_temps(owned)
    st = owned.lstat(CACHE_NAME)
    if st is not None and stat.S_ISDIR(st.st_mode) and not _is_link(st):
        cache = owned.child(CACHE_NAME)
        try:
            cache.unlink(STAMP_NAME)
            cache.sync()
        finally:
            cache.close()
        owned.rmdir(CACHE_NAME)
    owned.sync()


# ---------------------------------------------------------------------------
# The lock and signals (I/O)
# ---------------------------------------------------------------------------


class Lock:
    """``projection.lock``, taken by exclusive create.  Its owner removes it,
    and only while the name still holds the file it created: inode numbers
    are reused at once, so the content carries a random token as well."""

    def __init__(self, owned: OwnedDir) -> None:
        self.owned = owned
        self.identity: tuple[int, int, bytes] | None = None

    def acquire(self) -> None:
        fd = self.owned.create_exclusive(LOCK_NAME, if_exists="state_locked")
        # The PID tells an operator which process to look for.
        content = f"{os.getpid()} {os.urandom(8).hex()}\n".encode("ascii")
        try:
            with STATE_IO:
                st = os.fstat(fd)
                if os.write(fd, content) != len(content):
                    raise OSError(errno.EIO, "short write")
        except BaseException:
            os.close(fd)
            try:
                self.owned.unlink(LOCK_NAME)
            except ProjectionError:
                pass
            raise
        os.close(fd)
        self.identity = (st.st_dev, st.st_ino, content)

    def release(self) -> None:
        if self.identity is None:
            return
        try:
            st = self.owned.lstat(LOCK_NAME)
            same_file = st is not None and (st.st_dev, st.st_ino) == self.identity[:2]
            if same_file and self.owned.read(LOCK_NAME, 64, "state_locked") == self.identity[2]:
                self.owned.unlink(LOCK_NAME)
        except ProjectionError:
            pass
        self.identity = None


class Signals:
    """SIGINT, SIGTERM and SIGHUP become a flag that the run checks between
    its steps, so that, as with git's lockfile, it removes its lock and
    temporaries before it answers ``interrupted``.  A second signal during
    that clean-up only sets the flag again: it cannot cut the clean-up short."""

    NAMES = ("SIGINT", "SIGTERM", "SIGHUP")

    def __init__(self) -> None:
        self.received = False
        self.previous: dict[int, Any] = {}

    def _handle(self, _signum: int, _frame: object) -> None:
        self.received = True

    def _numbers(self) -> list[int]:
        import signal

        return [getattr(signal, name) for name in self.NAMES if hasattr(signal, name)]

    def install(self) -> None:
        """Handle each signal, except one the caller chose to ignore (nohup,
        a background job): that one stays ignored."""
        import signal

        self.received = False
        for number in self._numbers():
            try:
                if signal.getsignal(number) is signal.SIG_IGN:
                    continue
                self.previous[number] = signal.signal(number, self._handle)
            except (ValueError, OSError):
                pass  # not the main thread: the caller keeps its own handlers

    def restore(self) -> None:
        import signal

        for number, handler in self.previous.items():
            try:
                signal.signal(number, handler)
            except (ValueError, OSError, TypeError):
                pass
        self.previous.clear()

    def check(self) -> None:
        if self.received:
            fail("interrupted")

    def hold_until_exit(self) -> None:
        """Block the signals for what is left of the process: the answer is
        printed, and the interpreter puts the default handlers back while it
        shuts down, when a signal would still turn the reported exit status
        into a death by signal.  Blocked, it is simply never delivered."""
        import signal

        if hasattr(signal, "pthread_sigmask"):
            try:
                signal.pthread_sigmask(signal.SIG_BLOCK, self._numbers())
            except (ValueError, OSError):
                pass


SIGNALS = Signals()


# ---------------------------------------------------------------------------
# The Graphify boundary
# ---------------------------------------------------------------------------
# A loader returns {"version", "validate", "build", "export"}.  The real one
# imports Graphify; tests pass an in-process stand-in of the same shape.
# What Graphify raises is graphify_*; what the adapter's own code raises is not.


def clean_version(value: Any) -> str | None:
    """A version string fit for the result line (PEP 440 characters, short),
    or None: versions come from package metadata and from the receipt."""
    if isinstance(value, str) and 0 < len(value) <= 64 and VERSION_CHARS.issuperset(value):
        return value
    return None


def graphify_version() -> str | None:
    try:
        from importlib import metadata

        return clean_version(metadata.version("graphifyy"))
    except Exception:
        return None


class GraphifyImportFailed(Exception):
    """Graphify is installed (its metadata says which version) but does not
    import; a loader raises it so that the version is still reported."""

    def __init__(self, version: str | None) -> None:
        super().__init__("graphify does not import")
        self.graphify_version = version


def load_graphify() -> Mapping[str, Any]:
    import importlib

    version = graphify_version()
    try:
        modules = {part: importlib.import_module(f"graphify.{part}") for part in ("validate", "build", "export")}
    except BaseException:  # SystemExit or KeyboardInterrupt from its import is a failed import too
        raise GraphifyImportFailed(version) from None
    return {"version": version, **modules}


class GraphifyApi:
    """The three calls the adapter makes, checked before any is made."""

    __slots__ = ("assert_valid", "build_from_json", "to_json", "version")

    def __init__(
        self,
        version: str | None,
        assert_valid: Callable[..., Any],
        build_from_json: Callable[..., Any],
        to_json: Callable[..., Any],
    ) -> None:
        self.version = version
        self.assert_valid = assert_valid
        self.build_from_json = build_from_json
        self.to_json = to_json


def _accepts(function: Any, positional: int, keywords: Sequence[str]) -> bool:
    import inspect

    if not callable(function):
        return False
    try:
        parameters = inspect.signature(function).parameters
    except (TypeError, ValueError):
        return False
    kinds = {p.kind for p in parameters.values()}
    by_position = [p for p in parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if len(by_position) < positional and inspect.Parameter.VAR_POSITIONAL not in kinds:
        return False
    for keyword in keywords:
        parameter = parameters.get(keyword)
        if parameter is None and inspect.Parameter.VAR_KEYWORD not in kinds:
            return False
        if parameter is not None and parameter.kind is inspect.Parameter.POSITIONAL_ONLY:
            return False
    return True


def resolve_graphify(modules: Mapping[str, Any]) -> GraphifyApi:
    version = clean_version(modules.get("version"))
    assert_valid = getattr(modules.get("validate"), "assert_valid", None)
    build_from_json = getattr(modules.get("build"), "build_from_json", None)
    to_json = getattr(modules.get("export"), "to_json", None)
    if not (
        _accepts(assert_valid, 1, ())
        and _accepts(build_from_json, 1, ("directed", "dedup"))
        and _accepts(to_json, 3, ("force", "built_at_commit"))
    ):
        fail("graphify_incompatible", graphify_version=version)
    assert assert_valid is not None and build_from_json is not None and to_json is not None
    return GraphifyApi(version, assert_valid, build_from_json, to_json)


class silenced:
    """Keep Graphify's output off our stdout and stderr, at the descriptor
    level too, because what it prints can quote selected text."""

    def __enter__(self) -> None:
        import io

        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError, AttributeError):
                pass
        self.streams = (sys.stdout, sys.stderr)
        self.saved: list[tuple[int, int]] = []
        self.devnull = os.open(os.devnull, os.O_WRONLY | _O_CLOEXEC)
        for target in (1, 2):
            try:
                self.saved.append((target, os.dup(target)))
                os.dup2(self.devnull, target)
            except OSError:
                pass
        sys.stdout = io.StringIO()
        sys.stderr = io.StringIO()

    def __exit__(self, *_exc: object) -> None:
        sys.stdout, sys.stderr = self.streams
        for target, saved in self.saved:
            os.dup2(saved, target)
            os.close(saved)
        os.close(self.devnull)


def graph_matches(graph: Any, extraction: JsonObject) -> bool:
    """Graphify's graph must hold exactly the extraction's node ids and
    (source, target, relation) edges, directed: it may add attributes, never
    merge, rename or drop.  Checked on the built graph, before export.  The
    graph is Graphify's object: whatever it raises counts as a mismatch."""
    expected_nodes = {n["id"] for n in extraction["nodes"]}
    expected_edges = {(e["source"], e["target"], e["relation"]) for e in extraction["edges"]}
    try:
        directed = graph.is_directed()
        nodes = set(graph.nodes)
        edges = list(graph.edges(data="relation"))
    except Exception:
        return False
    return (
        directed is True
        and nodes == expected_nodes
        and len(edges) == len(expected_edges)
        and (set(edges) == expected_edges)
    )


def load_api(loader: GraphifyLoader) -> GraphifyApi:
    version: str | None = None
    with silenced():
        try:
            modules: Mapping[str, Any] | None = loader()
        except Exception as error:
            modules = None
            version = clean_version(getattr(error, "graphify_version", None))
    if modules is None:
        fail("graphify_missing", graphify_version=version)
    from collections.abc import Mapping

    if not isinstance(modules, Mapping):
        fail("graphify_incompatible")
    return resolve_graphify(modules)


def _graphify_call(function: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[bool, Any]:
    """Call Graphify silenced: (True, its result), or (False, None) when it raised."""
    with silenced():
        try:
            return True, function(*args, **kwargs)
        except BaseException:  # SystemExit from a library is still its failure
            return False, None


def build_graph(api: GraphifyApi, extraction: JsonObject, output_name: str, digest: str) -> None:
    """Validate, build, check and export to ``output_name`` in the working
    directory.  ``extraction`` is handed over: Graphify may change it in
    place, so the caller has written its bytes already.  A call that raises,
    a graph that lost identities, or an export that does not report success
    is graphify_failed."""
    expected = {"nodes": extraction["nodes"][:], "edges": extraction["edges"][:]}
    valid, _ = _graphify_call(api.assert_valid, extraction)
    if not valid:
        fail("graphify_failed")
    built, graph = _graphify_call(api.build_from_json, extraction, directed=True, dedup=False)
    if not built or not graph_matches(graph, expected):
        fail("graphify_failed")
    exported, written = _graphify_call(api.to_json, graph, {}, output_name, force=True, built_at_commit=digest)
    if not exported or written is not True:
        fail("graphify_failed")


class _InsideRoot:
    """The working directory is the opened root for the duration, so that
    Graphify is handed a short name relative to the verified directory and
    never a path to re-resolve.  Graphify must leave it there."""

    def __init__(self, owned: OwnedDir) -> None:
        self.owned = owned
        self.saved_fd: int | None = None
        self.saved_path: str | None = None

    def __enter__(self) -> None:
        try:
            self.saved_fd = os.open(".", os.O_RDONLY | _O_DIRECTORY | _O_CLOEXEC)
        except OSError:
            try:
                self.saved_path = os.getcwd()
            except OSError:
                pass  # nowhere to return to; the process ends soon after
        try:
            self.identity = self.owned.identity()
            with STATE_IO:
                if self.owned.fd is not None:
                    os.fchdir(self.owned.fd)
                else:
                    os.chdir(self.owned.path)
        except BaseException:
            self.__exit__()
            raise

    def stayed(self) -> bool:
        """Whether the working directory is still the root it entered."""
        try:
            st = os.stat(".")
        except OSError:
            return False
        return (st.st_dev, st.st_ino) == self.identity == self.owned.identity()

    def __exit__(self, *_exc: object) -> None:
        try:
            if self.saved_fd is not None:
                os.fchdir(self.saved_fd)
            elif self.saved_path is not None:
                os.chdir(self.saved_path)
        except OSError:
            pass
        finally:
            if self.saved_fd is not None:
                os.close(self.saved_fd)


# ---------------------------------------------------------------------------
# Publication (I/O)
# ---------------------------------------------------------------------------


class Outcome:
    """What one invocation answers: a code, the status that goes with success,
    Graphify's version, and for a refusal where (``at``), which secret rule,
    and whether the published graph was withdrawn."""

    __slots__ = ("at", "code", "extra", "graphify_version", "rule", "withdrawn")

    def __init__(self, code: str, extra: dict[str, Any], graphify_version: str | None = None) -> None:
        self.code = code
        self.extra = extra
        self.graphify_version = graphify_version
        self.at: str | None = None
        self.rule: str | None = None
        self.withdrawn = False

    @classmethod
    def refusal(cls, error: ProjectionError) -> Outcome:
        outcome = cls(error.code, {}, error.graphify_version)
        outcome.at = error.at
        outcome.rule = error.rule
        outcome.withdrawn = error.withdrawn
        return outcome


def _status(projection: Projection, state: JsonObject, left_out: bool) -> dict[str, Any]:
    """Revision, digest and counts; with ``left_out`` also what was not projected."""
    names = COUNT_NAMES + LEFT_OUT_NAMES if left_out else COUNT_NAMES
    status = {name: projection.counts[name] for name in names}
    status["selectionRevision"] = state["selectionRevision"]
    status["selectionDigest"] = state["selectionDigest"]
    return status


def read_state(owned: OwnedDir) -> JsonObject | None:
    data = owned.read(STATE_NAME, MAX_STATE_BYTES, "state_corrupt")
    return None if data is None else parse_state(data)


def _take_graph(owned: OwnedDir) -> bytes:
    """What to_json left in graph.json.tmp: a regular file, made 0600 and fsynced."""
    temp = GRAPH_NAME + TMP_SUFFIX
    st = owned.lstat(temp)
    if st is None or not stat.S_ISREG(st.st_mode):
        fail("graphify_failed")
    fd = owned.open_read(temp, writable=True)
    if fd is None:
        fail("graphify_failed")
    with STATE_IO:
        try:
            if hasattr(os, "fchmod"):
                os.fchmod(fd, 0o600)
            data = _read_bounded(fd, MAX_OWNED_FILE_BYTES, "graphify_failed")
            os.fsync(fd)
        finally:
            os.close(fd)
    return data


def _build_published_graph(owned: OwnedDir, state: JsonObject, projection: Projection, api: GraphifyApi) -> bytes:
    """Graphify writes graph.json.tmp inside the root; it becomes graph.json."""
    temp = GRAPH_NAME + TMP_SUFFIX
    # to_json writes through a symlinked destination: the name must not exist.
    owned.unlink(temp)
    inside = _InsideRoot(owned)
    with inside:
        build_graph(api, projection.extraction, temp, state["selectionDigest"])
        if not inside.stayed():
            fail("graphify_failed")
    SIGNALS.check()
    graph = _take_graph(owned)
    owned.rename(temp, GRAPH_NAME)
    _remove_graphify_temps(owned)
    owned.sync()
    return graph


def publish(owned: OwnedDir, state: JsonObject, loader: GraphifyLoader) -> Outcome:
    """Extraction, then the graph through Graphify, then the receipt, last."""
    projection = project(state)
    extraction = extraction_bytes(projection)
    owned.write_atomic(EXTRACTION_NAME, extraction)
    SIGNALS.check()
    api = load_api(loader)
    try:
        SIGNALS.check()
        graph = _build_published_graph(owned, state, projection, api)
        SIGNALS.check()
    except ProjectionError as error:
        error.graphify_version = api.version
        raise
    graph_sha = sha256_hex(graph)
    owned.write_atomic(RECEIPT_NAME, receipt_bytes(state, graph_sha, sha256_hex(extraction), api.version))
    # From here the graph is published: a signal no longer changes the answer.
    status = dict(_status(projection, state, left_out=True), graphSha256=graph_sha)
    return Outcome("built", status, api.version)


def accept(owned: OwnedDir, selection: JsonObject | None, places: SelectionPlaces | None = None) -> JsonObject:
    """Reconcile and, unless it is a replay or a rebuild, commit state.json."""
    state = read_state(owned)
    if selection is None:
        if state is None:
            fail("state_missing")
        return state
    accepted, replay = reconcile(state, selection, places)
    if not replay:
        data = committed_state_bytes(accepted)
        SIGNALS.check()
        owned.write_atomic(STATE_NAME, data)
    return accepted


def update(owned: OwnedDir, loaded: LoadedSelection, loader: GraphifyLoader) -> Outcome:
    """Under the lock, in a checked directory: withdraw the derived files
    first, then validate, commit and publish.  A refusal from here on says
    ``withdrawn``; whatever stopped it, no half-published graph stays."""
    try:
        remove_derived(owned)
        SIGNALS.check()
        if isinstance(loaded, ProjectionError):
            raise loaded
        selection, places = loaded if loaded is not None else (None, None)
        return publish(owned, accept(owned, selection, places), loader)
    except BaseException as error:
        try:
            remove_derived(owned)
        except ProjectionError:
            pass
        if isinstance(error, ProjectionError):
            error.withdrawn = True
            raise
        internal = ProjectionError("internal_error")
        internal.withdrawn = True
        raise internal from None


def dry_run(owned: OwnedDir | None, loaded: LoadedSelection) -> Outcome:
    """Validate and reconcile; read only."""
    if owned is not None:
        scan_directory(owned, refuse_lock=True)
    if isinstance(loaded, ProjectionError):
        raise loaded
    state = read_state(owned) if owned is not None else None
    if loaded is None:
        if state is None:
            fail("state_missing")
        accepted = state
    else:
        accepted, replay = reconcile(state, *loaded)
        if not replay:
            committed_state_bytes(accepted)
    return Outcome("checked", _status(project(accepted), accepted, left_out=True))


def verify(owned: OwnedDir | None) -> Outcome:
    """Exit 0 only for a complete, unaltered publication of the current
    state: the receipt, both hashes, and the extraction derived afresh."""
    if owned is None:
        fail("state_missing")
    scan_directory(owned, refuse_lock=True)
    state = read_state(owned)
    if state is None:
        fail("state_missing")
    found = [
        owned.read(name, MAX_OWNED_FILE_BYTES, "receipt_mismatch")
        for name in (RECEIPT_NAME, GRAPH_NAME, EXTRACTION_NAME)
    ]
    receipt_data, graph_data, extraction_data = found
    if receipt_data is None or graph_data is None or extraction_data is None:
        fail("receipt_mismatch")
    try:
        receipt = parse_json(receipt_data)
    except ProjectionError:
        fail("receipt_mismatch")
    version = clean_version(receipt.get("graphifyVersion")) if isinstance(receipt, dict) else None
    graph_sha = sha256_hex(graph_data)
    # Every field of the receipt is fixed by the state and the two hashes, so
    # one comparison covers them all; a version that is not clean cannot match.
    expected_receipt = receipt_bytes(state, graph_sha, sha256_hex(extraction_data), version)
    if receipt_data != expected_receipt:
        fail("receipt_mismatch")
    # The receipt vouches for the files; the state must vouch for the receipt.
    projection = project(state)
    if not _is_extraction_of(extraction_data, projection):
        fail("receipt_mismatch")
    return Outcome("verified", dict(_status(projection, state, left_out=False), graphSha256=graph_sha), version)


# ---------------------------------------------------------------------------
# Command line and the result line
# ---------------------------------------------------------------------------


class Arguments:
    __slots__ = ("dry_run", "selection", "state_root", "verify")

    def __init__(self, state_root: str, selection: str | None, verify: bool, dry_run: bool) -> None:
        self.state_root = state_root
        self.selection = selection
        self.verify = verify
        self.dry_run = dry_run

    def _key(self) -> tuple[str, str | None, bool, bool]:
        return (self.state_root, self.selection, self.verify, self.dry_run)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Arguments) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())


VALUE_FLAGS = ("--state-root", "--selection")
SWITCHES = ("--verify", "--dry-run")


def parse_arguments(argv: Sequence[str]) -> Arguments:
    """Exactly the documented forms.  Nothing is ever printed from here:
    any fault is the fixed code ``usage``."""
    values: dict[str, str] = {}
    switches: set[str] = set()
    index = 0
    while index < len(argv):
        token = argv[index]
        flag, equals, inline = token.partition("=")
        if flag in VALUE_FLAGS:
            if equals:
                value = inline
            elif index + 1 < len(argv):
                index += 1
                value = argv[index]
            else:
                fail("usage")
            if flag in values or not value or value.startswith("--") or "\x00" in value:
                fail("usage")
            values[flag] = value
        elif token in SWITCHES and token not in switches:
            switches.add(token)
        else:
            fail("usage")
        index += 1
    if "--state-root" not in values:
        fail("usage")
    is_verify = "--verify" in switches
    if is_verify and ("--selection" in values or "--dry-run" in switches):
        fail("usage")
    return Arguments(values["--state-root"], values.get("--selection"), is_verify, "--dry-run" in switches)


def result_line(outcome: Outcome) -> str:
    """One JSON object with sorted keys.  Its values are fixed codes,
    pointers made of allowlisted names, digests, numbers and version strings."""
    import json

    exit_code = CODES[outcome.code]
    result: dict[str, Any] = {
        "result": RESULT_WORD[exit_code],
        "code": outcome.code,
        "exitCode": exit_code,
        "contextGraph": CONTEXT_GRAPH,
        "embeddingIdentity": EMBEDDING_IDENTITY,
        "projectionSchemaVersion": PROJECTION_SCHEMA_VERSION,
        "adapterVersion": ADAPTER_VERSION,
        "graphifyVersion": outcome.graphify_version,
    }
    if exit_code == EXIT_OK:
        result.update(outcome.extra)
    else:
        if outcome.at is not None:
            result["at"] = outcome.at
        if outcome.rule is not None:
            result["rule"] = outcome.rule
        if outcome.withdrawn:
            result["withdrawn"] = True
    return json.dumps(result, sort_keys=True, separators=(",", ":"))


def _load_selection(path: str | None) -> LoadedSelection:
    """Read and validate before any state is touched; a fault is kept and
    reported after the state's own checks, in the documented order."""
    if path is None:
        return None
    try:
        return check_selection_bytes(read_selection(path))
    except ProjectionError as error:
        return error


def _open_for_update(state_root: str, loaded: LoadedSelection) -> OwnedDir | None:
    """Open the root; create it only for a first selection that reconciles,
    so that a first run refused for any reason leaves nothing behind."""
    owned = open_root(state_root, create=False)
    if owned is None and isinstance(loaded, tuple):
        # The same refusal the update will meet, without hashing it all twice.
        refuse_first_use(*loaded)
        # Interrupted before anything exists: nothing to clean up.
        SIGNALS.check()
        owned = open_root(state_root, create=True)
    return owned


def _remove_if_empty(owned: OwnedDir) -> None:
    """A first run refused after it created the root leaves no directory.
    rmdir removes only an empty directory, so nothing else can be lost."""
    try:
        os.rmdir(owned.path)
    except OSError:
        pass


def run(args: Arguments, loader: GraphifyLoader) -> Outcome:
    # A signal from here on is answered at the first check after the derived
    # files are withdrawn, so that "interrupted" always means they are gone.
    loaded = _load_selection(args.selection)
    if args.verify or args.dry_run:
        owned = open_root(args.state_root, create=False)
    else:
        owned = _open_for_update(args.state_root, loaded)
    try:
        return _run_in(owned, args, loaded, loader)
    except ProjectionError:
        if owned is not None and owned.created:
            owned.close()
            _remove_if_empty(owned)
        raise
    finally:
        if owned is not None:
            owned.close()


def _run_in(owned: OwnedDir | None, args: Arguments, loaded: LoadedSelection, loader: GraphifyLoader) -> Outcome:
    """The checks, then the lock and the update, in an opened root."""
    if args.verify or args.dry_run:
        outcome = verify(owned) if args.verify else dry_run(owned, loaded)
        SIGNALS.check()
        return outcome
    if owned is None:
        if isinstance(loaded, ProjectionError):
            raise loaded
        fail("state_missing")
    # A read-only scan first, so that a refusal does not even create and
    # remove the lock; then again under the lock, which closes the race.
    scan_directory(owned, refuse_lock=True)
    lock = Lock(owned)
    lock.acquire()
    try:
        scan_directory(owned, refuse_lock=False)
        return update(owned, loaded, loader)
    finally:
        lock.release()


def execute(argv: Sequence[str], loader: GraphifyLoader = load_graphify) -> tuple[int, str]:
    """Run one invocation and return its exit code and result line."""
    try:
        outcome = run(parse_arguments(argv), loader)
    except ProjectionError as error:
        outcome = Outcome.refusal(error)
    except BaseException:
        outcome = Outcome("internal_error", {})
    return CODES[outcome.code], result_line(outcome)


def _reserve_standard_descriptors() -> None:
    """A closed stdin, stdout or stderr would hand its number to the next
    file opened, and the result line or a warning would land in state files:
    point any closed one at the null device first."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            try:
                opened = os.open(os.devnull, os.O_RDWR)
            except OSError:
                return
            if opened != fd:
                os.dup2(opened, fd)
                os.close(opened)


def emit(line: str) -> None:
    """Write the result line to descriptor 1.  A closed, full or broken
    stdout loses the line, never the exit status, and prints nothing."""
    data = (line + "\n").encode("ascii")
    try:
        while data:
            data = data[os.write(1, data) :]
    except OSError:
        pass


def main(argv: Sequence[str] | None = None, loader: GraphifyLoader = load_graphify) -> int:
    """The command line.  Run as a program (no ``argv``), the signals are
    blocked once the line is printed: a signal then must not turn the reported
    exit status into a death by signal.  Called with ``argv`` (in-process),
    the caller's handlers come back."""
    _reserve_standard_descriptors()
    previous_umask = os.umask(0o077)
    SIGNALS.install()
    try:
        exit_code, line = execute(sys.argv[1:] if argv is None else argv, loader)
        emit(line)
    finally:
        os.umask(previous_umask)
        if argv is None:
            SIGNALS.hold_until_exit()
        else:
            SIGNALS.restore()
    return exit_code


if __name__ == "__main__":
    sys.exit(main())
