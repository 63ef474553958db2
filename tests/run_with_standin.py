"""Run the adapter's command line with the Graphify stand-in injected.

Usage: python -I tests/run_with_standin.py MODE ARGS...
"""

from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]

import standin_graphify  # noqa: E402

import conversation_projection  # noqa: E402

if __name__ == "__main__":
    sys.exit(conversation_projection.main(sys.argv[2:], loader=standin_graphify.make_loader(sys.argv[1])))
