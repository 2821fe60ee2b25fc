"""The LSP fuzz run, longer than the suite's: random incremental edits with the line breaks
VS Code and Python do not share ("\\x0c", "\\u2028"…), the server's text compared with VS
Code's after every edit, requests interleaved (each must be answered), the server alive.

usage: python bench/lsp_fuzz.py [--runs 2] [--edits 2000] [--seed 1]

Prints per run: edits, requests, unanswered, text drifts, crashed, RSS at start and end, and
the time; the suite's bounded run is tests/python/server/test_lsp_fuzz.py (300 edits).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "pyserver"), str(ROOT)]

from tests.python.server.lspfuzz import run  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--edits", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print("run  edits  requests  unanswered  drifts  crashed  rss start  rss end  seconds")
    failed = False
    for index in range(args.runs):
        out = run(seed=args.seed + index, edits=args.edits)
        print(
            f"{index + 1:>3}  {out.edits:>5}  {out.requests:>8}  {out.unanswered:>10}  "
            f"{len(out.drifts):>6}  {out.crashed!s:>7}  {out.rss_start_mb:>6.0f} MB  "
            f"{out.rss_end_mb:>4.0f} MB  {out.seconds:>7.0f}"
        )
        for drift in out.drifts:
            print(f"     drift after {drift}")
        failed = failed or bool(out.drifts) or out.unanswered > 0 or out.crashed
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
