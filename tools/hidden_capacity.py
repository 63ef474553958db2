"""How much an invisible character can still carry: python tools/hidden_capacity.py

Hidden capacity left by the rules: for a pair of visible characters (c, d), how many
strings of invisible characters s make c+s+d acceptable; log2 of that count is what an
invisible choice can carry per visible character.  Candidates: every default-ignorable
code point alone, and every pair of the judged ones (longer runs are refused)."""

import collections
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import conversation_projection as cp

di = [chr(c) for a, b in cp._table_ranges(cp.UCD_DEFAULT_IGNORABLE) for c in range(a, b + 1)]
judged = [chr(c) for a, b in cp._table_ranges(cp.JUDGED_INVISIBLES) for c in range(a, b + 1)]
# CJK base with the most standardized variants
bases: collections.Counter[int] = collections.Counter()
for _key, a, b in cp.unicode_ranges(cp.UCD_STANDARDIZED_VARIANTS):
    for c in range(a, b + 1):
        bases[c] += 1
best_cjk = max((c for c in bases if 0x4E00 <= c <= 0x9FFF), key=lambda c: bases[c])
pairs = {
    "CJK ideograph with the most standardized variants, then an ideograph": (chr(best_cjk), "\u98fe"),
    "CJK ideograph, then an ideograph": ("\u845b", "\u98fe"),
    "emoji with both presentations, then a pictograph": ("\u2764", "\U0001f525"),
    "pictograph, then a pictograph": ("\U0001f468", "\U0001f469"),
    "Thai letters": ("\u0e01", "\u0e02"),
    "Devanagari letters": ("\u0915", "\u0937"),
    "Arabic letters": ("\u0645", "\u06cc"),
    "Latin letters": ("a", "b"),
    "Mongolian letters": ("\u1820", "\u1821"),
    "Latin letter, then a space": ("a", " "),
}
worst = 0.0
for name, (c, d) in pairs.items():
    ok = 1  # the empty string
    for s in di:
        if not cp.misplaced_invisible(c + s + d):
            ok += 1
    for s1 in judged:
        for s2 in judged:
            if not cp.misplaced_invisible(c + s1 + s2 + d):
                ok += 1
    bits = math.log2(ok)
    worst = max(worst, bits)
    print(f"{name}: {ok} choices, {bits:.2f} bits")
print(f"worst case: {worst:.2f} bits per visible character")
