"""Which `mindspore.mint` functions compile in GRAPH_MODE to an op that has no CPU kernel, while
PyNative runs the same call on CPU.

usage: python -m scripts.checker_facts.probe_cpu_mint > OUT.json

For every public function of `mindspore.mint` and each argument list in `CALLS`,
`return x, mint.<name>(<call>)` on a (2, 3) float32 Tensor runs once in PyNative and, when that
works, is compiled in GRAPH_MODE at LAX (kernel selection does not depend on the syntax level).
A function is recorded, as `mint.<name>` with its first call and op, only when every call
PyNative ran failed in the graph with "Unsupported op [<Op>] on CPU" (an overload of another
argument type that compiles keeps it out: the checker cannot tell the overloads apart).
The rows join the `cpu_overloads` table (probe_cpu_overloads.py holds the Tensor methods).
"""

from __future__ import annotations

import inspect
import json
import sys
import tempfile
from pathlib import Path
from typing import Optional

from .forkrun import mindspore_on_cpu
from .probe_cpu_overloads import kernel_gap

CALLS = ("x", "x, x", "x, 2.0", "x, 1")
HEAD = """import numpy as np
from mindspore import nn, Tensor, mint


class Net(nn.Cell):
    def construct(self, x):
        return x, mint.{name}({call})


def run():
    return Net()(Tensor(np.arange(6).reshape(2, 3).astype(np.float32) / 5 + 0.1))
"""


def functions() -> list[str]:
    from mindspore import mint

    return sorted(
        n
        for n in dir(mint)
        if not n.startswith("_")
        and callable(getattr(mint, n))
        and not inspect.isclass(getattr(mint, n))
        and not inspect.ismodule(getattr(mint, n))
    )


def probe(folder: str, name: str) -> Optional[dict[str, str]]:
    """The first call and its op when every call PyNative runs lacks a CPU graph kernel."""
    found: Optional[dict[str, str]] = None
    for index, call in enumerate(CALLS):
        path = Path(folder) / f"mint_{name}_{index}.py"
        path.write_text(HEAD.format(name=name, call=call))
        runs, missing = kernel_gap(path, f"mindscope_mint_probe_{name}_{index}")
        if not runs:
            continue
        print("probe mint", name, call, missing or "compiles", file=sys.stderr)
        if missing is None:
            return None  # compiled, or failed for another reason
        found = found or {"call": call, "op": missing}
    return found


def main() -> None:
    out = mindspore_on_cpu()
    table: dict[str, dict[str, str]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for name in functions():
            row = probe(folder, name)
            if row is not None:
                table[f"mint.{name}"] = row
    print(json.dumps(table, sort_keys=True), file=out)


if __name__ == "__main__":
    main()
