"""Which members of a Parameter, a sub-Cell and a Tensor graph mode lets `construct` use, compiled.

usage: python -m scripts.checker_facts.probe_graph_members MEMBERS.json [KIND ...] > OUT.json

(KIND: only these kinds of programs, e.g. `parameter_tensor`; all of them by default.)

MEMBERS.json is the `members` table (probe_members.py). For each Parameter property or
attribute, `return x, self.w.<name>`; for each nn.Cell property or attribute,
`return x, self.sub.<name>`; for each nn.Cell method that takes no argument,
`return x, self.sub.<name>()` (a value the graph does not use is dropped before it is
resolved: measured, `v = self.w.name` alone compiles). For every Tensor member,
`return x, x.<name>` (kind "tensor": STRICT refuses the members it has no translation for when
they are read, e.g. `x.stride`); for every Tensor method, `return x, x.<name>()` with no
arguments (kind "tensor_call": a method graph mode has no registration for is only refused
when called, "As a deprecated Tensor method, 'diag' should be registered"; only these
"unregistered" verdicts are used). The same Tensor members are tried on the Parameter (kind
"parameter_tensor": `self.w.<name>`, a method called with no arguments, and the Parameter's
own methods), where graph mode refuses more than on a Tensor: "the 'Parameter' object's method
'init_data' is not supported". Each program is compiled in GRAPH_MODE at LAX and at STRICT in a
child forked from a parent that imported MindSpore once (forkrun.py). A result is "ok"
(compiles), "unregistered" (above), "refused" (MindSpore names the member: "the 'Parameter'
object's method 'name' is not supported in 'construct'", "cannot get attributes name"),
"fails" (another error: a method whose own code the graph cannot compile, e.g.
`cells_and_names()`'s "Unsupported expression 'Yield'"), or "other" (the value cannot be an
output: "Illegal type in the graph").
"""

from __future__ import annotations

import inspect
import json
import sys
import tempfile
from functools import partial
from pathlib import Path
from typing import Any

from .forkrun import in_fork, mindspore_on_cpu, run_program

LEVELS = ("LAX", "STRICT")
TIMEOUT = 60
HEAD = """import numpy as np
import mindspore as ms
from mindspore import nn, Parameter, Tensor


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones((2,), np.float32)), name="w")
        self.sub = nn.ReLU()

    def construct(self, x):
        return x, {expr}


def run():
    return Net()(Tensor(np.ones((2,), np.float32)))
"""


def programs(members: dict[str, dict[str, str]]) -> list[tuple[str, str, str]]:
    """(kind, member, expression) for every member to try."""
    from mindspore import nn

    found: list[tuple[str, str, str]] = []
    for name, kind in sorted(members["parameter"].items()):
        if kind != "method":
            found.append(("parameter", name, f"self.w.{name}"))
    for name, kind in sorted(members["cell"].items()):
        if kind != "method":
            found.append(("cell", name, f"self.sub.{name}"))
        elif name != "construct" and _no_arguments(getattr(nn.Cell, name, None)):
            found.append(("cell", name, f"self.sub.{name}()"))

    for name, kind in sorted(members.get("tensor", {}).items()):
        found.append(("tensor", name, f"x.{name}"))
        if kind == "method":
            # Without arguments: graph mode looks the method up before it checks them, so
            # a call missing some still tells whether the method is registered.
            found.append(("tensor_call", name, f"x.{name}()"))
    own = members["parameter"]
    for name, kind in sorted({**members.get("tensor", {}), **own}.items()):
        if own.get(name, "method") == "method":  # the Parameter's attributes: kind "parameter"
            call = "()" if kind == "method" else ""
            found.append(("parameter_tensor", name, f"self.w.{name}{call}"))
    return found


def _no_arguments(method: Any) -> bool:
    try:
        signature = inspect.signature(method)
    except (TypeError, ValueError):
        return False
    rest = list(signature.parameters.values())[1:]
    if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in rest):
        return False  # `set_inputs(*inputs)`, `recompute(**kwargs)`: no call without them is real
    return all(p.default is not p.empty for p in rest)


def verdict(result: dict[str, Any], name: str) -> str:
    if result.get("ok"):
        return "ok"
    message = str(result.get("msg", ""))
    if f"deprecated Tensor method, '{name}' should be registered" in message:
        return "unregistered"
    named = (f"'{name}'", f".{name}'", f"attributes {name} ", f"'{name}()'")
    if any(n in message for n in named):
        return "refused"
    # the value read cannot be an output (a TypeVar, a set): says nothing of the read itself
    return "other" if message.startswith("Illegal type in the graph") else "fails"


def main() -> None:
    members = json.loads(Path(sys.argv[1]).read_text())
    out = mindspore_on_cpu()
    table: dict[str, dict[str, dict[str, str]]] = {
        "parameter": {},
        "cell": {},
        "tensor": {},
        "tensor_call": {},
        "parameter_tensor": {},
    }
    kinds = set(sys.argv[2:]) or set(table)
    with tempfile.TemporaryDirectory() as folder:
        for index, (kind, name, expr) in enumerate(programs(members)):
            if kind not in kinds:
                continue
            path = Path(folder) / f"probe_{index}.py"
            path.write_text(HEAD.format(expr=expr))
            row = {}
            for level in LEVELS:
                work = partial(
                    run_program, str(path), f"mindscope_probe_{index}", graph=True, level=level
                )
                result = in_fork(work, TIMEOUT, 2000)
                row[level] = verdict(result, name)
                said = str(result.get("msg", "")).strip().splitlines()[:1]
                print("probe", kind, name, level, row[level], said, file=sys.stderr, flush=True)
            table[kind][name] = row
    print(json.dumps(table, sort_keys=True), file=out)


if __name__ == "__main__":
    main()
