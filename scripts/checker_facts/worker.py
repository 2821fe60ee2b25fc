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

import importlib.util
import json
import os
import re
import signal
import sys
from typing import Any

LOCATION = re.compile(r"In file (.+?):(\d+)")
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


def named_lines(message: str, path: str) -> list[int]:
    real = os.path.realpath(path)
    found: list[int] = []
    for file, line in LOCATION.findall(message):
        if os.path.realpath(file) == real and int(line) not in found:
            found.append(int(line))
    return found


def _execute(index: int, path: str, mode: str) -> dict[str, Any]:
    import mindspore as ms

    if mode == "PYNATIVE":
        ms.set_context(mode=ms.PYNATIVE_MODE)
        ms.jit = _no_jit  # the program's `@ms.jit` runs as plain Python, like the Cells do
    else:
        ms.set_context(mode=ms.GRAPH_MODE, jit_syntax_level=getattr(ms, mode))
    name = f"checker_facts_program_{index}"
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # MindSpore looks the module up to parse its source
        spec.loader.exec_module(module)
        return {"ok": True, "value": plain(module.run())}
    except BaseException as error:  # SystemExit and the like from the program included
        message = str(error)
        return {
            "ok": False,
            "type": type(error).__name__,
            "msg": message[:MAX_MESSAGE],
            "lines": named_lines(message, path),
        }


def _no_jit(function: Any = None, **_options: Any) -> Any:
    return function if function is not None else (lambda f: f)


def run_job(index: int, job: dict[str, Any]) -> dict[str, Any]:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        signal.alarm(TIMEOUT)
        try:
            result = _execute(index, job["path"], job["mode"])
        except BaseException as error:
            result = {"ok": False, "type": type(error).__name__, "msg": str(error)[:MAX_MESSAGE]}
        try:
            data = json.dumps(result)
        except (TypeError, ValueError):
            data = json.dumps({**result, "value": {"object": "unrenderable"}})
        os.write(write, data.encode())
        os._exit(0)
    os.close(write)
    chunks = []
    while chunk := os.read(read, 1 << 16):
        chunks.append(chunk)
    os.close(read)
    _, status = os.waitpid(pid, 0)
    if chunks:
        out: dict[str, Any] = json.loads(b"".join(chunks))
    else:
        out = {"ok": False, "type": "Crash", "msg": f"child died (status {status})", "lines": []}
    return {"key": job["key"], **out}


def main() -> None:
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # whatever MindSpore or the programs print goes to stderr
    import mindspore as ms

    ms.set_device("CPU")
    for index, line in enumerate(sys.stdin):
        if line.strip():
            print(json.dumps(run_job(index, json.loads(line))), file=out, flush=True)


if __name__ == "__main__":
    main()
