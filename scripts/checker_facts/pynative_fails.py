"""Which corpus cases that fail to compile fail in PyNative too.

usage: python -m scripts.checker_facts.pynative_fails   (about 2 minutes; rewrites the list)

A program that fails in PyNative as well (`Box() + 3`, `all()` of a 2-element Tensor) is an
error in any mode, not a graph-mode one: the corpora the checker is finally scored on hold only
programs PyNative runs. The differential generator runs PyNative only for programs that compile
at some level, so its cases that fail at every level were never run there. This runs every
case that fails at some level in PyNative, each in a child forked from a parent that imported
MindSpore once (as the corpus runner does), and writes the names of those that fail, with the
exception type, to `tests/graphmode/pynative_fails.txt`; `bench/checker_accuracy.py` scores the
corpus and the held-out slice with and without them.
"""

from __future__ import annotations

import os
import sys
import tempfile
from functools import partial
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
LIST = REPO / "tests/graphmode/pynative_fails.txt"
HEADER = (
    "# Corpus cases that fail to compile and fail in PyNative too (an error in any mode):\n"
    "# written by `python -m scripts.checker_facts.pynative_fails`; name<TAB>exception type.\n"
)


def read_list(path: Path = LIST) -> dict[str, str]:
    """Case name -> the exception PyNative raised, for the cases in the checked-in list."""
    if not path.exists():
        return {}
    rows = [line.split("\t") for line in path.read_text().splitlines() if line[:1] not in "#"]
    return {row[0]: row[1] for row in rows if len(row) == 2}


def main() -> None:
    sys.path[:0] = [str(REPO), str(REPO / "pyserver")]
    from tests.graphmode.corpus import all_cases, materialize

    from .forkrun import in_fork, mindspore_on_cpu, run_program

    cases = [c for c in all_cases() if not all(e.ok for e in c.expect.values())]
    found: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)  # MindSpore writes rank_0/ here on failures
        paths = materialize(cases, Path(folder))
        out = mindspore_on_cpu()
        for index, (case, path) in enumerate(zip(cases, paths)):
            # `read`: PyNative launches ops asynchronously, so an op with no CPU kernel
            # (`x.clone()`) fails only when the returned Tensor is read, as a user's print does.
            run = partial(
                run_program, str(path), f"mindscope_pynative_{index}", graph=False, read=True
            )
            result = in_fork(run, 120, 300)
            if not result["ok"]:
                found[case.name] = str(result.get("type"))
    LIST.write_text(HEADER + "".join(f"{name}\t{kind}\n" for name, kind in sorted(found.items())))
    print(f"{len(found)} of {len(cases)} failing cases fail in PyNative too: {LIST}", file=out)


if __name__ == "__main__":
    main()
