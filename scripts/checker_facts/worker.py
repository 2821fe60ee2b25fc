"""Run generated programs with the real MindSpore, each in a fresh forked process.

usage: python worker.py < jobs.jsonl > results.jsonl

Each input line is {"key", "path", "mode"} with mode LAX or STRICT (GRAPH_MODE at that
jit_syntax_level) or PYNATIVE (eager, `@jit` made a no-op so the function runs as Python). The
program defines `run()`; one JSON line comes out per job: `ok`, the exception `type` and `msg`,
the `lines` of the program the message names (`In file F:N`), and `value`, a plain rendering of
what `run()` returned (Tensors as dtype and numbers) to compare modes.
MindSpore is imported once; each job forks from that clean parent, so none sees another's state.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

if not __package__:  # run as a file (execute.py does): the repository root makes `scripts` found
    sys.path.append(str(Path(__file__).resolve().parents[2]))

from scripts.checker_facts.forkrun import failure, in_fork, load_program, mindspore_on_cpu

MAX_MESSAGE = 3000
TIMEOUT = int(os.environ.get("CHECKER_FACTS_TIMEOUT", "90"))


def plain(value: Any, depth: int = 0) -> Any:
    """A JSON rendering of a result that is equal across modes exactly when the values are."""
    import mindspore as ms

    if depth > 4:
        return "..."
    if isinstance(value, ms.Tensor):
        data = value.asnumpy()
        if data.dtype.kind in "fc":  # rounding a bool or int array raises (numpy casting)
            data = data.round(4)
        return {"tensor": str(value.dtype), "data": data.tolist()}
    if isinstance(value, (tuple, list)):
        return {type(value).__name__: [plain(v, depth + 1) for v in value]}
    if isinstance(value, dict):
        return {"dict": [[repr(k), plain(v, depth + 1)] for k, v in value.items()]}
    if value is None or isinstance(value, (bool, int, float, str)):
        return {type(value).__name__: value if not isinstance(value, float) else round(value, 4)}
    return {"object": type(value).__name__}


def _execute(index: int, path: str, mode: str) -> dict[str, Any]:
    import mindspore as ms

    if mode == "PYNATIVE":
        ms.set_context(mode=ms.PYNATIVE_MODE)
        ms.jit = _no_jit  # the program's `@ms.jit` runs as plain Python, like the Cells do
    else:
        ms.set_context(mode=ms.GRAPH_MODE, jit_syntax_level=getattr(ms, mode))
    try:
        module = load_program(path, f"checker_facts_program_{index}")
        return {"ok": True, "value": plain(module.run())}
    except BaseException as error:  # SystemExit and the like from the program included
        return failure(error, path, MAX_MESSAGE)


def _no_jit(function: Any = None, **_options: Any) -> Any:
    return function if function is not None else (lambda f: f)


def run_job(index: int, job: dict[str, Any]) -> dict[str, Any]:
    result = in_fork(lambda: _execute(index, job["path"], job["mode"]), TIMEOUT, MAX_MESSAGE)
    return {"key": job["key"], **result}


def main() -> None:
    out = mindspore_on_cpu()
    for index, line in enumerate(sys.stdin):
        if line.strip():
            print(json.dumps(run_job(index, json.loads(line))), file=out, flush=True)


if __name__ == "__main__":
    main()
