"""The differential generator: compile small programs (value kind x operation x context) with
the real MindSpore at LAX and STRICT, run them in PyNative, and write one corpus case per
distinct behaviour under tests/graphmode/cases/generated/<family>/ (and the held-out slice).

usage: python -m scripts.checker_facts.differential [--family F] [--no-write] [--from-cache]

Resumable: results are cached by program hash in .build/checker_facts/, so a re-run compiles
only new or changed programs (a full run from scratch is ~3,000 runs, 15-30 min on 2 cores).
"""

from __future__ import annotations

import argparse
import sys
from importlib import metadata
from pathlib import Path

from .execute import Cache, execute
from .families_calls import builtins, comprehensions, methods
from .families_calls2 import attributes, calls, iteration, unpacking
from .families_constructs import constructs
from .families_divergence import values
from .families_errors import errors
from .families_flow import joins, loops, recursion
from .families_ops import operators, subscripts
from .families_state import divergence, mutation, returns, statements
from .outcome import Outcome, distinct, outcome
from .program import Program, Snippet, programs
from .writer import write_cases

REPO = Path(__file__).resolve().parents[2]
WORK = REPO / ".build/checker_facts"
FAMILIES = {
    "joins": joins,
    "loops": loops,
    "recursion": recursion,
    "builtins": builtins,
    "methods": methods,
    "comprehensions": comprehensions,
    "mutation": mutation,
    "returns": returns,
    "divergence": divergence,
    "diverge": values,
    "statements": statements,
    "unpacking": unpacking,
    "attributes": attributes,
    "calls": calls,
    "iteration": iteration,
    "operators": operators,
    "subscripts": subscripts,
    "errors": errors,
    "constructs": constructs,
}


def snippets(families: list[str]) -> list[Snippet]:
    return [s for name in families for s in FAMILIES[name]()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.checker_facts.differential")
    parser.add_argument("--family", action="append", choices=sorted(FAMILIES))
    parser.add_argument("--no-write", action="store_true", help="run, but leave the cases alone")
    parser.add_argument(
        "--from-cache", action="store_true", help="compile nothing: write what the cache holds"
    )
    args = parser.parse_args(argv)
    families = args.family or list(FAMILIES)
    WORK.mkdir(parents=True, exist_ok=True)
    cache = Cache(WORK / "cache.jsonl", metadata.version("mindspore"))
    todo: list[Program] = programs(snippets(families))
    if not args.from_cache:
        execute(todo, cache, WORK)
    results: list[Outcome] = []
    pending = skipped = 0
    for program in todo:
        rows = {m: cache.get(program, m) for m in ("LAX", "STRICT", "PYNATIVE")}
        got = outcome(program, rows)
        if got is not None:
            results.append(got)
        elif rows["LAX"] is None or rows["STRICT"] is None:
            pending += 1
        else:
            skipped += 1
    kept = distinct(results)
    print(
        f"{len(todo)} programs: {pending} not compiled yet, {skipped} without a usable verdict "
        f"(timeout, crash, PyNative not run yet), {len(kept)} distinct behaviours",
        file=sys.stderr,
    )
    if not args.no_write:
        written = write_cases(kept, families)
        print(f"wrote {written}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
