"""Which Tensor methods, called PyTorch-style with `dim=`, compile in GRAPH_MODE to an op that has
no CPU kernel, while PyNative runs the same call on CPU.

usage: python -m scripts.checker_facts.probe_cpu_overloads MEMBERS.json > OUT.json

MEMBERS.json is the `members` table (probe_members.py). For every Tensor method and each call
in `CALLS` (the `dim=` keyword selects the method's PyTorch-style overload, e.g. `CumsumExt`),
`return x, x.<name>(<call>)` on a (2, 3) float32 Tensor runs once in PyNative and, when that
works, is compiled in GRAPH_MODE at LAX (kernel selection does not depend on the syntax level).
A method is recorded when the graph fails with "Unsupported op [<Op>] on CPU": its first such
call and the op. Each run is a child forked from a parent that imported MindSpore once.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from functools import partial
from pathlib import Path
from typing import Optional

from .forkrun import in_fork, mindspore_on_cpu, run_program

TIMEOUT = 60
CALLS = (
    "dim=0",
    "dim=1",
    "dim=1, keepdim=True",
    "1, dim=1",
    "2, dim=1",
    "dim=1, descending=True",
)
NO_KERNEL = re.compile(r"Unsupported op \[(\w+)\] on CPU")


def kernel_gap(path: Path, module: str) -> tuple[bool, Optional[str]]:
    """Whether PyNative runs the program (reading its result: PyNative is asynchronous), and
    the op GRAPH_MODE then lacks a CPU kernel for (None: it compiled or failed otherwise)."""
    run = partial(run_program, str(path), module, read=True)
    if not in_fork(partial(run, graph=False), TIMEOUT, 2000).get("ok"):
        return False, None
    result = in_fork(partial(run, graph=True), TIMEOUT, 2000)
    found = NO_KERNEL.search(str(result.get("msg", "")))
    return True, found.group(1) if found else None


HEAD = """import numpy as np
from mindspore import nn, Tensor


class Net(nn.Cell):
    def construct(self, x):
        return x, x.{name}({call})


def run():
    return Net()(Tensor(np.arange(6).reshape(2, 3).astype(np.float32) / 5))
"""


def main() -> None:
    members = json.loads(Path(sys.argv[1]).read_text())
    out = mindspore_on_cpu()
    table: dict[str, dict[str, str]] = {}
    methods = sorted(n for n, kind in members["tensor"].items() if kind == "method")
    with tempfile.TemporaryDirectory() as folder:
        index = 0
        for name in methods:
            for call in CALLS:
                index += 1
                path = Path(folder) / f"probe_{index}.py"
                path.write_text(HEAD.format(name=name, call=call))
                runs, missing = kernel_gap(path, f"mindscope_cpu_probe_{index}")
                if not runs:
                    continue
                print("probe", name, call, missing or "compiles", file=sys.stderr)
                if missing:
                    table[name] = {"call": call, "op": missing}
                    break
    print(json.dumps(table, sort_keys=True), file=out)


if __name__ == "__main__":
    main()
