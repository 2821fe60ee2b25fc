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
import importlib.util
import json
import os
import re
import signal
import sys
import time
from typing import Any

LOCATION = re.compile(r"In file (.+?):(\d+)")
MAX_MESSAGE = 6000


def named_lines(message: str, path: str) -> list[int]:
    """Lines of `path` that a MindSpore message points at, in the order it names them."""
    real = os.path.realpath(path)
    found: list[int] = []
    for file, line in LOCATION.findall(message):
        if os.path.realpath(file) == real and int(line) not in found:
            found.append(int(line))
    return found


def _compile(index: int, path: str, level: str) -> dict[str, Any]:
    import mindspore as ms

    ms.set_context(mode=ms.GRAPH_MODE, jit_syntax_level=getattr(ms, level))
    name = f"mindscope_corpus_{index}"
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # MindSpore looks the module up to parse its source
        spec.loader.exec_module(module)
        module.run()
        return {"ok": True}
    except BaseException as error:  # report everything, SystemExit from the case included
        message = str(error)
        return {
            "ok": False,
            "type": type(error).__name__,
            "msg": message[:MAX_MESSAGE],
            "lines": named_lines(message, path),
        }


def _in_child(index: int, path: str, level: str, timeout: int, fd: int) -> None:
    signal.alarm(timeout)
    try:
        result = _compile(index, path, level)
    except BaseException as error:
        result = {"ok": False, "type": type(error).__name__, "msg": str(error)[:MAX_MESSAGE]}
    os.write(fd, json.dumps(result).encode())
    os._exit(0)


def run_case(index: int, path: str, level: str, timeout: int) -> dict[str, Any]:
    start = time.perf_counter()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        _in_child(index, path, level, timeout, write)
    os.close(write)
    chunks = []
    while chunk := os.read(read, 1 << 16):
        chunks.append(chunk)
    os.close(read)
    _, status = os.waitpid(pid, 0)
    data = b"".join(chunks)
    if data:
        result: dict[str, Any] = json.loads(data)
    else:
        result = {"ok": False, "type": "Crash", "msg": f"child died (wait status {status})"}
        result["lines"] = []
    result["file"] = path
    result["seconds"] = round(time.perf_counter() - start, 3)
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--level", default="LAX", choices=["LAX", "COMPATIBLE", "STRICT"])
    parser.add_argument("--timeout", type=int, default=120)
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # whatever MindSpore or the cases print goes to stderr
    import mindspore as ms

    ms.set_device("CPU")
    for index, path in enumerate(args.files):
        print(json.dumps(run_case(index, path, args.level, args.timeout)), file=out, flush=True)


if __name__ == "__main__":
    main()
