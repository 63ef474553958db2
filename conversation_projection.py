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

# Startup is most of what a rejected selection costs, so modules that are
# slow to import stay off that path: json and re (with enum and functools
# behind them), hashlib, typing, dataclasses, contextlib.  Each is imported
# where it is first needed; a rejection needs none of them.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Callable, Iterator, Mapping, Sequence
    from typing import Any, NoReturn

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
    "internal_error": EXIT_INVALID,
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
# C0 controls other than tab, newline and carriage return, DEL and C1.
FORBIDDEN_TEXT_CHARS = frozenset(
    [chr(c) for c in range(0x20) if chr(c) not in "\t\n\r"] + [chr(c) for c in range(0x7F, 0xA0)]
)
VERSION_CHARS = frozenset(LOWER + LOWER.upper() + DIGITS + ".+-!_")
JSON_WHITESPACE = " \t\n\r"
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


class ProjectionError(Exception):
    """A refusal or failure, named by one fixed code from ``CODES``."""

    def __init__(self, code: str) -> None:
        assert code in CODES, "unregistered code"
        super().__init__(code)
        self.code = code


def fail(code: str) -> NoReturn:
    raise ProjectionError(code)


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


def _unique_object(pairs: list[tuple[str, Any]]) -> JsonObject:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        fail("selection_duplicate_key")
    return obj


class _DecoderContext:
    """What CPython's C scanner reads from a decoder: strict strings, our
    hooks, no object_hook."""

    strict = True
    object_hook = None
    object_pairs_hook = staticmethod(_unique_object)
    parse_float = staticmethod(_bounded_float)
    parse_int = staticmethod(_bounded_int)
    parse_constant = staticmethod(_reject_constant)


_scanner_cache: list[Callable[[str, int], tuple[Any, int]]] = []


def _scanner() -> Callable[[str, int], tuple[Any, int]]:
    """json's own C scanner, used directly: importing the json package costs
    more than a whole rejection (it brings re, enum and functools)."""
    if not _scanner_cache:
        try:
            from _json import make_scanner
        except ImportError:  # another implementation: the json package's scanner
            import json

            decoder = json.JSONDecoder(
                object_pairs_hook=_unique_object,
                parse_float=_bounded_float,
                parse_int=_bounded_int,
                parse_constant=_reject_constant,
            )
            _scanner_cache.append(decoder.raw_decode)
        else:
            context: Any = _DecoderContext()
            _scanner_cache.append(make_scanner(context))
    return _scanner_cache[0]


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


def parse_json(data: bytes, max_depth: int = MAX_NESTING) -> Any:
    """Decode one strict JSON value: UTF-8 without BOM, no duplicate keys,
    no NaN or Infinity, no lone surrogate, bounded nesting and numbers."""
    if data.startswith(b"\xef\xbb\xbf"):
        fail("selection_malformed")
    try:
        text = data.decode("utf-8", errors="strict")
    except UnicodeDecodeError:
        fail("selection_malformed")
    start = len(text) - len(text.lstrip(JSON_WHITESPACE))
    try:
        value, end = _scanner()(text, start)
    except ProjectionError:
        raise
    except (StopIteration, ValueError, RecursionError, MemoryError):
        fail("selection_malformed")
    if text[end:].lstrip(JSON_WHITESPACE):
        fail("selection_malformed")
    # Only a \\u escape can produce a surrogate: strict UTF-8 never does.
    find_surrogates = "\\ud" in text or "\\uD" in text
    if isinstance(value, (dict, list)) and _depth_or_surrogate(value, max_depth, find_surrogates):
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


def _require_object(value: Any, fields: frozenset[str], required: frozenset[str]) -> JsonObject:
    if not isinstance(value, dict):
        fail("selection_schema")
    if not value.keys() <= fields:
        fail("selection_unknown_field")
    if not required <= value.keys():
        fail("selection_schema")
    return value


def _require_list(value: Any, limit: int) -> list[Any]:
    if not isinstance(value, list):
        fail("selection_schema")
    if len(value) > limit:
        fail("selection_limit")
    return value


def is_id(value: Any, max_chars: int = MAX_ID_CHARS) -> bool:
    """Lowercase letters, digits and hyphens, first a letter or digit."""
    return (
        isinstance(value, str) and 0 < len(value) <= max_chars and value[0] in ID_FIRST and ID_CHARS.issuperset(value)
    )


def is_sha256(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 64 and HEX_DIGITS.issuperset(value)


def _require_id(value: Any) -> str:
    if not is_id(value):
        fail("selection_schema")
    assert isinstance(value, str)
    return value


def _require_revision(value: Any) -> int:
    if type(value) is not int or not 1 <= value <= MAX_REVISION:
        fail("selection_schema")
    return value


def _require_text(value: Any) -> str:
    if not isinstance(value, str):
        fail("selection_schema")
    if _has_surrogate(value):
        fail("selection_malformed")
    if len(value) > MAX_TEXT_CHARS:
        fail("selection_limit")
    # isprintable() is the fast path; tab, newline and format characters
    # are allowed, so a False from it only means "look closer".
    clean = value.isprintable() or FORBIDDEN_TEXT_CHARS.isdisjoint(value)
    if not value.strip() or not clean:
        fail("selection_schema")
    return value


def _unique_ids(ids: Sequence[str]) -> None:
    if len(set(ids)) != len(ids):
        fail("selection_duplicate_id")


def _check_source(value: Any) -> JsonObject:
    source = _require_object(value, SOURCE_FIELDS, SOURCE_FIELDS)
    ref_id = _require_id(source["refId"])
    digest = source["sha256"]
    if not is_sha256(digest):
        fail("selection_schema")
    return {"refId": ref_id, "sha256": digest}


def _check_summary(value: Any) -> JsonObject:
    summary = _require_object(value, SUMMARY_FIELDS, SUMMARY_REQUIRED)
    summary_id = _require_id(summary["summaryId"])
    role = summary["role"]
    if not isinstance(role, str) or role not in ROLES:
        fail("selection_schema")
    kind = summary["kind"]
    if not isinstance(kind, str) or kind != "summary":
        fail("selection_not_summary")
    if summary["approved"] is not True:
        fail("selection_unapproved")
    checked: JsonObject = {
        "summaryId": summary_id,
        "role": role,
        "kind": "summary",
        "approved": True,
        "text": _require_text(summary["text"]),
    }
    if "memoryRef" in summary:
        ref = summary["memoryRef"]
        if not is_id(ref, MAX_MEMORY_REF_CHARS):
            fail("selection_schema")
        checked["memoryRef"] = ref
    return checked


def _check_branch(value: Any) -> JsonObject:
    branch = _require_object(value, BRANCH_FIELDS, BRANCH_REQUIRED)
    checked: JsonObject = {
        "branchId": _require_id(branch["branchId"]),
        "sourceRevision": _require_revision(branch["sourceRevision"]),
    }
    if "parentBranchId" in branch:
        checked["parentBranchId"] = _require_id(branch["parentBranchId"])
    sources = [_check_source(s) for s in _require_list(branch["sources"], MAX_SOURCES_PER_BRANCH)]
    summaries = [_check_summary(s) for s in _require_list(branch["summaries"], MAX_SUMMARIES_PER_BRANCH)]
    _unique_ids([s["refId"] for s in sources])
    _unique_ids([s["summaryId"] for s in summaries])
    checked["sources"] = sorted(sources, key=lambda s: s["refId"])
    checked["summaries"] = sorted(summaries, key=lambda s: s["summaryId"])
    return checked


def _check_id_list(value: Any) -> list[str]:
    ids = [_require_id(item) for item in _require_list(value, MAX_ID_LIST)]
    _unique_ids(ids)
    return sorted(ids)


def find_cycle(parents: Mapping[str, str]) -> bool:
    """True when following parent links among these branches loops.

    Each branch has at most one parent, so a walk from every unvisited branch,
    marking nodes as it goes, visits each branch once: linear time."""
    done: set[str] = set()
    for start in parents:
        path: set[str] = set()
        node: str | None = start
        while node is not None and node not in done:
            if node in path:
                return True
            path.add(node)
            node = parents.get(node)
        done |= path
    return False


def _check_cross_references(branches: list[JsonObject], exclude: list[str], restore: list[str]) -> None:
    _unique_ids([b["branchId"] for b in branches])
    listed = {b["branchId"] for b in branches}
    parents = {b["branchId"]: b["parentBranchId"] for b in branches if b.get("parentBranchId") in listed}
    if find_cycle(parents):
        fail("selection_cycle")
    seen: dict[str, str] = {}
    for branch in branches:
        for source in branch["sources"]:
            if seen.setdefault(source["refId"], source["sha256"]) != source["sha256"]:
                fail("selection_conflict")
    if set(exclude) & set(restore) or not set(restore) <= listed:
        fail("selection_conflict")


def validate_selection(value: Any, scan_secrets: bool = True) -> JsonObject:
    """Check a decoded selection against the allowlist and return its
    canonical form: the same fields, every array sorted by its IDs.  An
    absent optional list stays absent, so that the digest is exactly the
    contract's recipe applied to the input."""
    selection = _require_object(value, SELECTION_FIELDS, SELECTION_REQUIRED)
    if type(selection["schemaVersion"]) is not int or selection["schemaVersion"] != SELECTION_SCHEMA_VERSION:
        fail("selection_schema")
    corpus_id = _require_id(selection["corpusId"])
    revision = _require_revision(selection["revision"])
    branches = [_check_branch(b) for b in _require_list(selection["branches"], MAX_BRANCHES)]
    exclude = _check_id_list(selection.get("exclude", []))
    restore = _check_id_list(selection.get("restore", []))
    _check_cross_references(branches, exclude, restore)
    canonical: JsonObject = {
        "schemaVersion": SELECTION_SCHEMA_VERSION,
        "corpusId": corpus_id,
        "revision": revision,
        "branches": sorted(branches, key=lambda b: b["branchId"]),
    }
    for name, ids in (("exclude", exclude), ("restore", restore)):
        if name in selection:
            canonical[name] = ids
    if scan_secrets and find_secret(_scannable_text(canonical)):
        fail("selection_secret")
    return canonical


def _scannable_text(selection: JsonObject) -> str:
    # NUL never occurs in accepted text, so no pattern can match across items.
    parts: list[str] = [selection["corpusId"]]
    for branch in selection["branches"]:
        parts.append(branch["branchId"])
        parts.extend(s["refId"] for s in branch["sources"])
        for summary in branch["summaries"]:
            parts.append(summary["summaryId"])
            parts.append(summary["text"])
            parts.append(summary.get("memoryRef", ""))
    return "\x00".join(parts)


def selection_digest(selection: JsonObject) -> str:
    """The contract's recipe, spelled out; SelectionHashes gives the same value
    from the serialization it shares with the branch hashes."""
    return sha256_hex(canonical_bytes(selection))


def parse_selection(data: bytes) -> JsonObject:
    if len(data) > MAX_SELECTION_BYTES:
        fail("selection_too_large")
    return validate_selection(parse_json(data))


# ---------------------------------------------------------------------------
# Secret-shaped text (pure)
# ---------------------------------------------------------------------------
# Modelled on the published gitleaks rules and detect-secrets plugins.  Each
# family is anchored on a literal prefix or a key word so that prose about
# secrets, commit SHAs, sha256 digests and UUIDs does not match.

# Every pattern starts with a literal, so the regex engine jumps from one
# occurrence of it to the next instead of trying every position; a family
# that must not follow a letter or digit says so, and that is checked in
# Python on the rare hits.  (A leading \\b made the scan 25 times slower.)
SECRET_PATTERNS: tuple[tuple[str, str, bool], ...] = (
    ("pem-private-key", r"-----BEGIN[ A-Z0-9]{0,32}PRIVATE KEY(?: BLOCK)?-----", False),
    ("aws-access-key-id", r"A(?:KIA|SIA|BIA|CCA|3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])", True),
    ("github-token", r"gh[pousr]_[A-Za-z0-9]{36,255}(?![A-Za-z0-9])", True),
    ("github-fine-grained", r"github_pat_[A-Za-z0-9_]{22,255}", True),
    ("gitlab-token", r"glpat-[A-Za-z0-9_-]{20,}", True),
    ("slack-token", r"xox[abposre]-[A-Za-z0-9-]{10,}", True),
    ("stripe-secret-live", r"sk_live_[A-Za-z0-9]{16,}", True),
    ("stripe-restricted-live", r"rk_live_[A-Za-z0-9]{16,}", True),
    ("google-api-key", r"AIza[0-9A-Za-z_-]{35}", True),
    ("anthropic-key", r"sk-ant-[A-Za-z0-9]{2,10}-[A-Za-z0-9_-]{20,}", True),
    ("openai-style-key", r"sk-(?=[A-Za-z0-9_-]*[0-9])(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{20,}", True),
    ("npm-token", r"npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])", True),
    ("pypi-token", r"pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{16,}", True),
    ("huggingface-token", r"hf_[A-Za-z0-9]{30,}(?![A-Za-z0-9])", True),
    ("jwt", r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}", True),
    ("url-credentials", r"://[^\s/:@\x00]{1,128}:[^\s/@\x00]{1,128}@", False),
    ("sendgrid-key", r"SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}", True),
    ("twilio-key", r"SK[0-9a-fA-F]{32}(?![A-Za-z0-9])", True),
)
# Matched against the lowercased text: these families ignore case.
LOWERCASE_SECRET_PATTERNS: tuple[tuple[str, str, bool], ...] = (
    ("aws-secret-key", r"aws[_-]?secret[_-]?(?:access[_-]?)?key[\"']?[ \t]*[:=][ \t]*[\"']?[a-z0-9/+=]{40}", True),
    ("slack-webhook", r"hooks\.slack\.com/(?:services|workflows|triggers)/[a-z0-9+/_-]{16,}", False),
    ("azure-account-key", r"accountkey=[a-z0-9+/=]{20,}", False),
)

# ``key = value`` or ``key: value``, found from the stems below and matched
# from the start of the word that holds the stem.  The value must look like
# a credential, not like a word of prose: see ``_credential_like``.
ASSIGNMENT_STEMS = ("pass", "pwd", "secret", "key", "token", "credential")
ASSIGNMENT_PATTERN = (
    r"(?:password|passwd|pwd|passphrase|secret|client[_-]?secret|secret[_-]?key|api[_-]?key|apikey"
    r"|access[_-]?key|access[_-]?token|auth[_-]?token|refresh[_-]?token|bearer[_-]?token|token"
    r"|private[_-]?key|credentials?)[\"']?[ \t]*(?::=|=>|:|=)[ \t]*"
    r"(?:\"([^\"\x00\n]{4,256})\"|'([^'\x00\n]{4,256})'|([^\s\"',;\x00]{4,256}))"
)
PLACEHOLDER_VALUES = frozenset(
    {"none", "null", "nil", "true", "false", "empty", "redacted", "changeme", "example", "required", "optional"}
)
_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")


class _SecretRules:
    def __init__(self) -> None:
        import re

        self.families = [(re.compile(p), bounded) for _, p, bounded in SECRET_PATTERNS]
        self.lowercase = [(re.compile(p), bounded) for _, p, bounded in LOWERCASE_SECRET_PATTERNS]
        self.assignment = re.compile(ASSIGNMENT_PATTERN)


_rules_cache: list[_SecretRules] = []


def _secret_rules() -> _SecretRules:
    # Compiled on first use, so that runs that stop earlier never pay for it.
    if not _rules_cache:
        _rules_cache.append(_SecretRules())
    return _rules_cache[0]


def _credential_like(value: str) -> bool:
    stripped = value.strip()
    if len(stripped) < 6 or stripped.lower() in PLACEHOLDER_VALUES:
        return False
    if stripped.startswith(("<", "${", "{{", "%", "$")) or set(stripped) <= {"*", "x", "X", "."}:
        return False
    has_digit = any(c.isdigit() for c in stripped)
    has_alpha = any(c.isalpha() for c in stripped)
    has_symbol = any(not c.isalnum() for c in stripped)
    has_inner_upper = any(c.isupper() for c in stripped[1:])
    # An English word after "password:" is prose; a mix of classes is not.
    return (has_digit and has_alpha) or (has_alpha and (has_symbol or has_inner_upper))


def _family_hit(patterns: list[tuple[re.Pattern[str], bool]], text: str) -> bool:
    for pattern, bounded in patterns:
        for match in pattern.finditer(text):
            start = match.start()
            if not bounded or start == 0 or text[start - 1] not in _ALNUM:
                return True
    return False


def _assignment_hit(rules: _SecretRules, original: str, lower: str) -> bool:
    for stem in ASSIGNMENT_STEMS:
        position = lower.find(stem)
        while position >= 0:
            start = position
            while start > 0 and position - start < 24 and lower[start - 1] in _WORD_CHARS:
                start -= 1
            if start == 0 or lower[start - 1] not in _ALNUM:
                match = rules.assignment.match(lower, start)
                if match is not None:
                    # The value keeps its case: take it from the original text.
                    group = next(i for i in (1, 2, 3) if match.group(i) is not None)
                    if _credential_like(original[match.start(group) : match.end(group)]):
                        return True
            position = lower.find(stem, position + 1)
    return False


def find_secret(text: str) -> bool:
    rules = _secret_rules()
    if _family_hit(rules.families, text):
        return True
    lower = text.lower()
    # Offsets agree between the two only when lowercasing kept the length
    # (a few characters, such as U+0130, grow); otherwise use the copy alone.
    if len(lower) != len(text):
        return _family_hit(rules.lowercase, lower) or _assignment_hit(rules, lower, lower)
    return _family_hit(rules.lowercase, lower) or _assignment_hit(rules, text, lower)


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


def new_state(selection: JsonObject) -> JsonObject:
    """The state of a directory that accepted exactly this first selection."""
    if selection.get("restore"):
        fail("selection_conflict")
    return _state_from(selection, SelectionHashes(selection), {}, set(selection.get("exclude", ())))


def _state_from(
    selection: JsonObject, hashes: SelectionHashes, high_water: Mapping[str, JsonObject], tombstones: set[str]
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


def _check_high_water(selection: JsonObject, hashes: SelectionHashes, high_water: Mapping[str, JsonObject]) -> None:
    for branch in selection["branches"]:
        mark = high_water.get(branch["branchId"])
        if mark is None:
            continue
        behind = branch["sourceRevision"] < mark["sourceRevision"]
        rewritten = branch["sourceRevision"] == mark["sourceRevision"] and (
            hashes.branches[branch["branchId"]] != mark["contentSha256"]
        )
        if behind or rewritten:
            fail("source_revision_conflict")


def reconcile(state: JsonObject | None, selection: JsonObject) -> tuple[JsonObject, bool]:
    """Accept ``selection`` against ``state``; return the new state and
    whether the selection was a replay of the accepted one."""
    if state is None:
        return new_state(selection), False
    if selection["corpusId"] != state["corpusId"]:
        fail("corpus_mismatch")
    if selection["revision"] < state["selectionRevision"]:
        fail("revision_stale")
    hashes = SelectionHashes(selection)
    if selection["revision"] == state["selectionRevision"]:
        if hashes.digest != state["selectionDigest"]:
            fail("revision_stale")
        return state, True
    previous = set(state["tombstones"])
    restore = set(selection.get("restore", ()))
    if not restore <= previous:
        fail("selection_conflict")
    _check_high_water(selection, hashes, state["highWater"])
    listed = {b["branchId"] for b in selection["branches"]}
    omitted = {b["branchId"] for b in state["snapshot"]["branches"]} - listed
    tombstones = (previous - restore) | set(selection.get("exclude", ())) | omitted
    if len(tombstones) > MAX_TOMBSTONES:
        fail("selection_limit")
    return _state_from(selection, hashes, state["highWater"], tombstones), False


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
    expected = _state_from(snapshot, SelectionHashes(snapshot), high_water, set(tombstones))
    consistent = (
        scalars_typed
        and expected == value
        and set(snapshot.get("exclude", ())) <= set(tombstones)
        and not set(snapshot.get("restore", ())) & set(tombstones)
    )
    if not consistent:
        fail("state_corrupt")
    return value


def _tombstones_well_formed(tombstones: Any) -> bool:
    return (
        isinstance(tombstones, list)
        and len(tombstones) <= MAX_TOMBSTONES
        and all(is_id(t) for t in tombstones)
        and tombstones == sorted(set(tombstones))
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
        decoded = parse_json(data)
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

    __slots__ = ("branches", "edges", "extraction", "sources", "summaries", "tombstones")

    def __init__(
        self, extraction: JsonObject, *, branches: int, sources: int, summaries: int, edges: int, tombstones: int
    ) -> None:
        self.extraction = extraction
        self.branches = branches
        self.sources = sources
        self.summaries = summaries
        self.edges = edges
        self.tombstones = tombstones


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
            "label": summary["text"],
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
    return Projection(
        extraction=extraction,
        branches=len(projected),
        sources=kinds.count("source"),
        summaries=sum(len(b["summaries"]) for b in projected),
        edges=len(edges),
        tombstones=len(tombstones),
    )


def extraction_bytes(projection: Projection) -> bytes:
    return canonical_bytes(projection.extraction) + b"\n"


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
    """Read at most ``limit + 1`` bytes from an open regular file."""
    if os.fstat(fd).st_size > limit:
        fail(too_large)
    chunks: list[bytes] = []
    remaining = limit + 1
    while remaining > 0:
        chunk = os.read(fd, min(READ_CHUNK, remaining))
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
        try:
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


# On Windows a symlink or a junction is a reparse point with one of these
# tags; other reparse points (cloud placeholders, deduplicated files) are not
# links and are judged like any other entry.
IO_REPARSE_TAG_SYMLINK = 0xA000000C
IO_REPARSE_TAG_MOUNT_POINT = 0xA0000003
LINK_REPARSE_TAGS = frozenset({IO_REPARSE_TAG_SYMLINK, IO_REPARSE_TAG_MOUNT_POINT})


def _is_link(st: os.stat_result) -> bool:
    return stat.S_ISLNK(st.st_mode) or getattr(st, "st_reparse_tag", 0) in LINK_REPARSE_TAGS


class OwnedDir:
    """A directory of the state: the root, or its cache/."""

    def __init__(self, path: str, fd: int | None) -> None:
        self.path = path
        self.fd = fd

    def _where(self, name: str) -> tuple[str, int | None]:
        if self.fd is not None:
            return name, self.fd
        return os.path.join(self.path, name), None

    def lstat(self, name: str) -> os.stat_result | None:
        where, dir_fd = self._where(name)
        try:
            return os.stat(where, dir_fd=dir_fd, follow_symlinks=False)
        except FileNotFoundError:
            return None

    def _refuse_link(self, name: str) -> None:
        st = self.lstat(name)
        if st is not None and _is_link(st):
            fail("state_symlink")

    def child(self, name: str) -> OwnedDir:
        """Open a subdirectory without following a symlink."""
        self._refuse_link(name)
        if self.fd is None:
            return OwnedDir(os.path.join(self.path, name), None)
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
        try:
            return _read_bounded(fd, limit, too_large)
        finally:
            os.close(fd)

    def create_exclusive(self, name: str) -> int:
        self._refuse_link(name)
        where, dir_fd = self._where(name)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_NOFOLLOW | _O_BINARY | _O_CLOEXEC
        fd = os.open(where, flags, 0o600, dir_fd=dir_fd)
        try:
            if hasattr(os, "fchmod"):
                os.fchmod(fd, 0o600)
        except BaseException:
            # It is ours and empty: leave no half-made file behind.
            os.close(fd)
            try:
                self.unlink(name)
            except OSError:
                pass
            raise
        return fd

    def unlink(self, name: str) -> None:
        # unlink never follows a symlink: it removes the name itself.
        where, dir_fd = self._where(name)
        try:
            os.unlink(where, dir_fd=dir_fd)
        except FileNotFoundError:
            pass

    def rmdir(self, name: str) -> None:
        where, dir_fd = self._where(name)
        try:
            os.rmdir(where, dir_fd=dir_fd)
        except FileNotFoundError:
            pass

    def rename(self, source: str, target: str) -> None:
        self._refuse_link(source)
        self._refuse_link(target)
        src, src_fd = self._where(source)
        dst, dst_fd = self._where(target)
        os.replace(src, dst, src_dir_fd=src_fd, dst_dir_fd=dst_fd)

    def names(self) -> list[str]:
        return sorted(os.listdir(self.fd if self.fd is not None else self.path))

    def sync(self) -> None:
        if self.fd is not None:
            os.fsync(self.fd)

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def write_atomic(self, name: str, data: bytes) -> None:
        """Publish ``data`` as ``name`` through its fixed .tmp twin: exclusive
        create, write, fsync, rename, fsync the directory."""
        temp = name + TMP_SUFFIX
        self.unlink(temp)
        fd = self.create_exclusive(temp)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        self.rename(temp, name)
        self.sync()


def _open_root_posix(path: str, create: bool) -> OwnedDir | None:
    """Walk from '/' with O_NOFOLLOW, so that no component can be a symlink."""
    parts = [p for p in path.split("/") if p]
    fd = os.open("/", DIR_FLAGS)
    try:
        for index, part in enumerate(parts):
            last = index == len(parts) - 1
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
        owned, fd = OwnedDir(path, fd), -1
        return owned
    finally:
        if fd >= 0:
            os.close(fd)


def _open_root_portable(path: str, create: bool) -> OwnedDir | None:
    probe = path
    while os.path.dirname(probe) != probe:
        try:
            if _is_link(os.lstat(probe)):
                fail("state_symlink")
        except FileNotFoundError:
            pass
        probe = os.path.dirname(probe)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        if not os.path.isdir(os.path.dirname(path)):
            fail("state_access")
        if not create:
            return None
        try:
            os.mkdir(path, 0o700)
        except FileExistsError:
            pass
        st = os.lstat(path)
    if not stat.S_ISDIR(st.st_mode):
        fail("state_access")
    return OwnedDir(path, None)


def open_root(root: str, create: bool) -> OwnedDir | None:
    """Open the state root, refusing a symlink or junction in any component.
    None when it does not exist and ``create`` is false."""
    absolute = os.path.abspath(root)
    if os.path.normcase(os.path.realpath(absolute)) != os.path.normcase(absolute):
        fail("state_symlink")
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
    order whatever the listing order: symlink, lock (when asked), non-empty
    first use, unknown entry.  Changes nothing."""
    names = owned.names()
    symlink = unknown = False
    for name in names:
        st = owned.lstat(name)
        if st is None:
            continue
        if _is_link(st):
            symlink = True
        elif name == CACHE_NAME and stat.S_ISDIR(st.st_mode):
            cache_symlink, cache_unknown = _scan_cache(owned)
            symlink |= cache_symlink
            unknown |= cache_unknown
        elif not stat.S_ISREG(st.st_mode) or (name not in OWNED_FILES and not is_graphify_temp(name)):
            unknown = True
    if symlink:
        fail("state_symlink")
    if refuse_lock and LOCK_NAME in names:
        fail("state_locked")
    if STATE_NAME not in names and any(name != LOCK_NAME for name in names):
        fail("state_not_empty")
    if unknown:
        fail("state_unknown_entry")


def is_graphify_temp(name: str) -> bool:
    """A name of the shape Graphify's to_json gives its temporary file."""
    middle = name[len(GFY_TEMP_PREFIX) : -len(TMP_SUFFIX)]
    return (
        name.startswith(GFY_TEMP_PREFIX)
        and name.endswith(TMP_SUFFIX)
        and 0 < len(middle) <= 64
        and GFY_TEMP_CHARS.issuperset(middle)
    )


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
# The lock (I/O)
# ---------------------------------------------------------------------------


class Lock:
    """``projection.lock``, taken by exclusive create.  Its owner removes it,
    and only while the name still holds the file it created: inode numbers
    are reused at once, so the content carries a random token as well."""

    def __init__(self, owned: OwnedDir) -> None:
        self.owned = owned
        self.identity: tuple[int, int, bytes] | None = None

    def acquire(self) -> None:
        try:
            fd = self.owned.create_exclusive(LOCK_NAME)
        except FileExistsError:
            fail("state_locked")
        # The PID tells an operator which process to look for.
        content = f"{os.getpid()} {os.urandom(8).hex()}\n".encode("ascii")
        try:
            st = os.fstat(fd)
            if os.write(fd, content) != len(content):
                raise OSError(errno.EIO, "short write")
        except BaseException:
            os.close(fd)
            try:
                self.owned.unlink(LOCK_NAME)
            except OSError:
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
        except (OSError, ProjectionError):
            pass
        self.identity = None


# ---------------------------------------------------------------------------
# The Graphify boundary
# ---------------------------------------------------------------------------
# A loader returns {"version", "validate", "build", "export"}.  The real one
# imports Graphify; tests pass an in-process stand-in of the same shape.


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


def load_graphify() -> Mapping[str, Any]:
    import importlib

    return {
        "version": graphify_version(),
        "validate": importlib.import_module("graphify.validate"),
        "build": importlib.import_module("graphify.build"),
        "export": importlib.import_module("graphify.export"),
    }


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
    version = modules.get("version")
    assert_valid = getattr(modules.get("validate"), "assert_valid", None)
    build_from_json = getattr(modules.get("build"), "build_from_json", None)
    to_json = getattr(modules.get("export"), "to_json", None)
    if not (
        _accepts(assert_valid, 1, ())
        and _accepts(build_from_json, 1, ("directed", "dedup"))
        and _accepts(to_json, 3, ("force", "built_at_commit"))
    ):
        fail("graphify_incompatible")
    assert assert_valid is not None and build_from_json is not None and to_json is not None
    return GraphifyApi(clean_version(version), assert_valid, build_from_json, to_json)


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
        self.devnull = os.open(os.devnull, os.O_WRONLY)
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
    merge, rename or drop.  Checked on the built graph, before export."""
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
    with silenced():
        try:
            modules: Mapping[str, Any] | None = loader()
        except Exception:
            modules = None
    if modules is None:
        fail("graphify_missing")
    from collections.abc import Mapping

    if not isinstance(modules, Mapping):
        fail("graphify_incompatible")
    return resolve_graphify(modules)


def build_graph(api: GraphifyApi, extraction: JsonObject, output_path: str, digest: str) -> None:
    """Validate, build, check and export.  ``extraction`` is handed over:
    Graphify may change it in place, so the caller has written its bytes
    already and keeps no other use for it.  Any exception, a graph that
    lost identities, or an export that does not report success is
    graphify_failed."""
    expected = {"nodes": extraction["nodes"][:], "edges": extraction["edges"][:]}
    written: Any = None
    with silenced():
        try:
            api.assert_valid(extraction)
            graph = api.build_from_json(extraction, directed=True, dedup=False)
            if graph_matches(graph, expected):
                written = api.to_json(graph, {}, output_path, force=True, built_at_commit=digest)
        except Exception:
            written = None
    if written is not True:
        fail("graphify_failed")


# ---------------------------------------------------------------------------
# Publication (I/O)
# ---------------------------------------------------------------------------


class Outcome:
    """A code, the status that goes with it on success, and Graphify's version."""

    __slots__ = ("code", "extra", "graphify_version")

    def __init__(self, code: str, extra: dict[str, Any], graphify_version: str | None = None) -> None:
        self.code = code
        self.extra = extra
        self.graphify_version = graphify_version


def _status(projection: Projection, state: JsonObject) -> dict[str, Any]:
    return {
        "selectionRevision": state["selectionRevision"],
        "selectionDigest": state["selectionDigest"],
        "branches": projection.branches,
        "sources": projection.sources,
        "summaries": projection.summaries,
        "edges": projection.edges,
        "tombstones": projection.tombstones,
    }


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
    try:
        if hasattr(os, "fchmod"):
            os.fchmod(fd, 0o600)
        data = _read_bounded(fd, MAX_OWNED_FILE_BYTES, "graphify_failed")
        os.fsync(fd)
    finally:
        os.close(fd)
    return data


def publish(owned: OwnedDir, state: JsonObject, loader: GraphifyLoader) -> Outcome:
    """Extraction, then the graph through Graphify, then the receipt, last.
    On a Graphify failure no derived file remains."""
    projection = project(state)
    extraction = extraction_bytes(projection)
    owned.write_atomic(EXTRACTION_NAME, extraction)
    status = _status(projection, state)
    version: str | None = None
    try:
        api = load_api(loader)
        version = api.version
        temp = GRAPH_NAME + TMP_SUFFIX
        # to_json writes through a symlinked destination: the name must not exist.
        owned.unlink(temp)
        build_graph(api, projection.extraction, os.path.join(owned.path, temp), state["selectionDigest"])
        graph = _take_graph(owned)
        owned.rename(temp, GRAPH_NAME)
        _remove_graphify_temps(owned)
        owned.sync()
    except ProjectionError as error:
        remove_derived(owned)
        return Outcome(error.code, {}, version)
    graph_sha = sha256_hex(graph)
    owned.write_atomic(RECEIPT_NAME, receipt_bytes(state, graph_sha, sha256_hex(extraction), version))
    return Outcome("built", dict(status, graphSha256=graph_sha), version)


def accept(owned: OwnedDir, selection: JsonObject | None) -> JsonObject:
    """Reconcile and, unless it is a replay or a rebuild, commit state.json."""
    state = read_state(owned)
    if selection is None:
        if state is None:
            fail("state_missing")
        return state
    accepted, replay = reconcile(state, selection)
    if not replay:
        owned.write_atomic(STATE_NAME, state_bytes(accepted))
    return accepted


def update(owned: OwnedDir, selection: JsonObject | ProjectionError | None, loader: GraphifyLoader) -> Outcome:
    """Under the lock, in a checked directory: invalidate the derived files
    first, then validate, commit and publish."""
    remove_derived(owned)
    try:
        if isinstance(selection, ProjectionError):
            raise selection
        return publish(owned, accept(owned, selection), loader)
    except BaseException:
        # Whatever stopped us, no half-published graph stays behind.
        try:
            remove_derived(owned)
        except OSError:
            pass
        raise


def dry_run(owned: OwnedDir | None, selection: JsonObject | ProjectionError | None) -> Outcome:
    """Validate and reconcile; read only."""
    if owned is not None:
        scan_directory(owned, refuse_lock=True)
    if isinstance(selection, ProjectionError):
        raise selection
    state = read_state(owned) if owned is not None else None
    if selection is None:
        if state is None:
            fail("state_missing")
        accepted = state
    else:
        accepted, _replay = reconcile(state, selection)
    return Outcome("checked", _status(project(accepted), accepted))


def verify(owned: OwnedDir | None) -> Outcome:
    """Exit 0 only for a complete, unaltered publication of the current state."""
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
    projection = project(state)
    return Outcome("verified", dict(_status(projection, state), graphSha256=graph_sha), version)


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
    """Exactly the contract's forms.  Nothing is ever printed from here:
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


def _json_scalar(value: Any) -> str:
    """JSON for the result line's values, which are fixed codes, digests,
    numbers and version strings; any other character is escaped anyway."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    text = str(value)
    escaped = "".join(c if " " <= c < "\x7f" and c not in '"\\' else f"\\u{ord(c):04x}" for c in text)
    return f'"{escaped}"'


def result_line(outcome: Outcome) -> str:
    """One JSON object with sorted keys, built by hand: the json package is
    not imported on the paths that need nothing else from it."""
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
    return "{" + ",".join(f'"{key}":{_json_scalar(result[key])}' for key in sorted(result)) + "}"


def _load_selection(path: str | None) -> JsonObject | ProjectionError | None:
    """Read and validate before any state is touched; a fault is kept and
    reported after the state's own checks, in the contract's order."""
    if path is None:
        return None
    try:
        return parse_selection(read_selection(path))
    except ProjectionError as error:
        return error


def run(args: Arguments, loader: GraphifyLoader) -> Outcome:
    selection = _load_selection(args.selection)
    read_only = args.verify or args.dry_run
    # An invalid selection never creates a state directory; nor does a check.
    owned = open_root(args.state_root, create=not read_only and isinstance(selection, dict))
    try:
        if args.verify:
            return verify(owned)
        if args.dry_run:
            return dry_run(owned, selection)
        if owned is None:
            if isinstance(selection, ProjectionError):
                raise selection
            fail("state_missing")
        # A read-only scan first, so that a refusal does not even create and
        # remove the lock; then again under the lock, which closes the race.
        scan_directory(owned, refuse_lock=True)
        lock = Lock(owned)
        lock.acquire()
        try:
            scan_directory(owned, refuse_lock=False)
            return update(owned, selection, loader)
        finally:
            lock.release()
    finally:
        if owned is not None:
            owned.close()


def execute(argv: Sequence[str], loader: GraphifyLoader = load_graphify) -> tuple[int, str]:
    """Run one invocation and return its exit code and result line."""
    try:
        outcome = run(parse_arguments(argv), loader)
    except ProjectionError as error:
        outcome = Outcome(error.code, {})
    except OSError:
        outcome = Outcome("state_access", {})
    except BaseException:
        outcome = Outcome("internal_error", {})
    return CODES[outcome.code], result_line(outcome)


def main(argv: Sequence[str] | None = None, loader: GraphifyLoader = load_graphify) -> int:
    previous_umask = os.umask(0o077)
    try:
        exit_code, line = execute(sys.argv[1:] if argv is None else argv, loader)
    finally:
        os.umask(previous_umask)
    try:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()
    except (OSError, ValueError):
        pass
    return exit_code


if __name__ == "__main__":
    sys.exit(main())
