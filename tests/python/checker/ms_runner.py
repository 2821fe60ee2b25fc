"""Compile case files with the real MindSpore, one JSON line per file (run in a subprocess).

usage: python ms_runner.py [--level LAX|STRICT] [--mode graph|pynative] FILE...
Each file defines `run()`; the result or the exception it raised is reported. MindSpore is
imported once; each file runs in a child forked from that parent (as the corpus runner does), so
a case that crashes the process or leaves state behind costs only its own line: a batch that ran
every case in one process lost the rest of its cases once, and the test saw a KeyError.
"""

from __future__ import annotations

import argparse
import ctypes
import importlib.util
import json
import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

if not __package__:  # run as a file: the repository root makes `scripts` found
    sys.path.append(str(Path(__file__).resolve().parents[3]))

from scripts.checker_facts.forkrun import in_fork

TIMEOUT = 120  # seconds for one case


def _describe(value: Any) -> str:
    if hasattr(value, "asnumpy"):
        value = value.asnumpy().tolist()
    return repr(value)[:300]


@contextmanager
def _printed() -> Iterator[Callable[[], str]]:
    """What the process writes to its stdout meanwhile: graph mode's `print` writes from C++,
    which `contextlib.redirect_stdout` does not see, so fd 1 itself goes to a file."""
    saved = os.dup(1)
    with tempfile.TemporaryFile() as file:
        sys.stdout.flush()
        os.dup2(file.fileno(), 1)
        try:
            yield lambda: _read(file)
        finally:
            sys.stdout.flush()
            ctypes.CDLL(None).fflush(None)  # C stdio buffers too
            os.dup2(saved, 1)
            os.close(saved)


def _read(file: Any) -> str:
    sys.stdout.flush()
    ctypes.CDLL(None).fflush(None)
    file.seek(0)
    text: str = file.read().decode(errors="replace")
    return text[-2000:]


def _run_one(index: int, path: str) -> dict[str, Any]:
    name = f"mindscope_case_{index}"
    result: dict[str, Any] = {"file": path}
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # MindSpore looks the module up to parse its source
        spec.loader.exec_module(module)
        with _printed() as printed:
            result["out"] = _describe(module.run())
            result["printed"] = printed()
        result["ok"] = True
    except BaseException as error:  # report everything, including SystemExit from the case
        result["ok"] = False
        result["type"] = type(error).__name__
        lines = [line for line in str(error).splitlines() if line.strip()]
        result["msg"] = "\n".join(lines[:3])[:800]
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--level", default="LAX")
    parser.add_argument("--mode", default="graph")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # whatever the cases print goes to stderr
    import mindspore as ms

    ms.set_device("CPU")
    mode = ms.GRAPH_MODE if args.mode == "graph" else ms.PYNATIVE_MODE
    ms.set_context(mode=mode, jit_syntax_level=getattr(ms, args.level))
    for index, path in enumerate(args.files):
        result = in_fork(partial(_run_one, index, path), TIMEOUT, 800)
        result = {k: result.get(k) for k in ("ok", "out", "printed", "type", "msg")}
        result["file"] = path  # a child that died reports none
        print(json.dumps(result), file=out, flush=True)


if __name__ == "__main__":
    main()
