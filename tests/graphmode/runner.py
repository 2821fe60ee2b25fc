"""Compile corpus cases with the real MindSpore, each in a fresh forked process.

usage: python runner.py [--level LAX|COMPATIBLE|STRICT] [--timeout SECONDS] FILE...

MindSpore is imported once (about 1.5 s); then every case runs in a child forked from that clean
parent, so no case sees another's compiled graphs, context or module state, and each costs only
its own compile. Each case file defines `run()`. One JSON line is printed per file: `ok`, the
exception `type` and `msg`, the `lines` of that file the message names (`In file F:N`) and the
`seconds` the case took. Run it with the cases' folder as cwd: failed compiles write rank_0/ there.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

if not __package__:  # run as a file (corpus.py does): the repository root makes `scripts` found
    sys.path.append(str(Path(__file__).resolve().parents[2]))

from scripts.checker_facts.forkrun import failure, in_fork, load_program, mindspore_on_cpu

MAX_MESSAGE = 6000


def _compile(index: int, path: str, level: str) -> dict[str, Any]:
    import mindspore as ms

    ms.set_context(mode=ms.GRAPH_MODE, jit_syntax_level=getattr(ms, level))
    try:
        load_program(path, f"mindscope_corpus_{index}").run()
        return {"ok": True}
    except BaseException as error:  # report everything, SystemExit from the case included
        return failure(error, path, MAX_MESSAGE)


def run_case(index: int, path: str, level: str, timeout: int) -> dict[str, Any]:
    start = time.perf_counter()
    result = in_fork(lambda: _compile(index, path, level), timeout, MAX_MESSAGE)
    result["file"] = path
    result["seconds"] = round(time.perf_counter() - start, 3)
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--level", default="LAX", choices=["LAX", "COMPATIBLE", "STRICT"])
    parser.add_argument("--timeout", type=int, default=120)
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    out = mindspore_on_cpu()
    for index, path in enumerate(args.files):
        print(json.dumps(run_case(index, path, args.level, args.timeout)), file=out, flush=True)


if __name__ == "__main__":
    main()
