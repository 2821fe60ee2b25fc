"""Compile case files with the real MindSpore, one JSON line per file (run in a subprocess).

usage: python ms_runner.py [--level LAX|STRICT] [--mode graph|pynative] FILE...
Each file defines `run()`; the result or the exception it raised is reported.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
from typing import Any


def _describe(value: Any) -> str:
    if hasattr(value, "asnumpy"):
        value = value.asnumpy().tolist()
    return repr(value)[:300]


def _run_one(index: int, path: str) -> dict[str, Any]:
    name = f"mindscope_case_{index}"
    result: dict[str, Any] = {"file": path}
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # MindSpore looks the module up to parse its source
        spec.loader.exec_module(module)
        result["out"] = _describe(module.run())
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
        print(json.dumps(_run_one(index, path)), file=out, flush=True)


if __name__ == "__main__":
    main()
