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
                run = partial(run_program, str(path), f"mindscope_cpu_probe_{index}", read=True)
                if not in_fork(partial(run, graph=False), TIMEOUT, 2000).get("ok"):
                    continue
                result = in_fork(partial(run, graph=True), TIMEOUT, 2000)
                found = NO_KERNEL.search(str(result.get("msg", "")))
                print("probe", name, call, "ok" if result.get("ok") else "fails", file=sys.stderr)
                if found:
                    table[name] = {"call": call, "op": found.group(1)}
                    break
    print(json.dumps(table, sort_keys=True), file=out)


if __name__ == "__main__":
    main()
