"""Parse Project-ConversationContext.ps1 with tree-sitter's PowerShell grammar.

PowerShell itself cannot be installed on the Linux CI machine, so the script
is checked statically there: any ERROR or MISSING node fails.  It runs for
real in the GitHub workflow.

Usage: python -I tests/check_powershell.py [SCRIPT]
"""

from __future__ import annotations

import os
import sys
from typing import Any

SCRIPT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Project-ConversationContext.ps1")


def syntax_errors(source: bytes) -> list[tuple[int, int, str]]:
    """Positions (line, column, kind) of every ERROR or MISSING node."""
    import tree_sitter
    import tree_sitter_powershell

    parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_powershell.language()))
    tree = parser.parse(source)
    found: list[tuple[int, int, str]] = []
    pending: list[Any] = [tree.root_node]
    while pending:
        node = pending.pop()
        if node.is_error or node.is_missing:
            found.append((node.start_point[0] + 1, node.start_point[1] + 1, "missing" if node.is_missing else "error"))
        pending.extend(node.children)
    return sorted(found)


def main(argv: list[str]) -> int:
    path = argv[1] if len(argv) > 1 else SCRIPT
    with open(path, "rb") as handle:
        errors = syntax_errors(handle.read())
    for line, column, kind in errors:
        print(f"{os.path.basename(path)}:{line}:{column}: syntax {kind}")
    print(f"powershell parse: {len(errors)} syntax error(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
