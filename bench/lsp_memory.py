"""Server memory over open/edit/close cycles: different files against the same file (the
peer: what one document costs while it is open), in the same run.

usage: python bench/lsp_memory.py [--cycles 40] [--lines 3000]

Each cycle opens a generated model file, types three lines, asks a completion and a hover and
closes it, pausing less than the server's idle period. Prints the RSS after the first cycle
and at the end for both series, the growth per cycle, and the ratio of the growths (different
files / same file: 1 means a closed document leaves nothing behind). The suite's bounded run
is tests/python/server/test_memory_cycles.py.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "pyserver"), str(ROOT)]

from tests.python.server.memcycles import run  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=40)
    parser.add_argument("--lines", type=int, default=3000)
    args = parser.parse_args()
    growths = {}
    print(f"{args.cycles} cycles of {args.lines}-line files")
    print("series           start  after 1st  end     growth/cycle  unanswered  seconds")
    for name, same in (("different files", False), ("same file", True)):
        out = run(args.cycles, args.lines, same_file=same)
        growth = out.rss_mb[-1] - out.rss_mb[1]
        growths[name] = growth
        print(
            f"{name:<15}  {out.rss_mb[0]:>5.0f}  {out.rss_mb[1]:>9.0f}  {out.rss_mb[-1]:>5.0f}  "
            f"{growth / max(args.cycles - 1, 1):>9.2f} MB  {out.unanswered:>10}  "
            f"{out.seconds:>7.0f}"
        )
    peer = max(growths["same file"], 1.0)
    print(f"growth ratio, different / same file: {max(growths['different files'], 0) / peer:.2f}")


if __name__ == "__main__":
    main()
