"""One generated program: a snippet (value kind x operation) placed in a context, as source.

A snippet is the body of a function of `x`, a float32 Tensor of shape (2, 3) whose sum is
positive (so `x.sum() > 0` takes the first branch in PyNative). It may use the module objects
of PRELUDE (a Cell, a Parameter, a plain object, a function) and, when it `needs_self`, the
Cell's own attributes set by its `init` lines. Contexts: `construct` itself, a `@ms.jit`
function, and a method that `construct` calls.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

CONTEXTS = ("construct", "jit", "method")

PRELUDE = """import copy

import numpy as np

import mindspore as ms
import mindspore.nn as nn
import mindspore.ops as ops
from mindspore import Parameter, Tensor, jit_class
from mindspore.common.initializer import initializer


def helper_fn(a):
    return a


class Custom:
    def __init__(self):
        self.value = 1
        self.d = {"k": 1}


@jit_class
class Box:
    def __init__(self):
        self.value = 1


SUB_CELL = nn.ReLU()
OBJ = Custom()
PARAM = Parameter(Tensor(np.ones((2, 3), np.float32)), name="param")
COUNTER = 0
"""

INPUT = "Tensor(np.array([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], np.float32))"


@dataclass(frozen=True)
class Snippet:
    family: str
    op: str
    kind: str
    body: tuple[str, ...]
    op_line: int = 0  # index in `body` of the line the operation is on
    needs_self: bool = False
    init: tuple[str, ...] = ()
    module: tuple[str, ...] = ()  # extra module-level lines (helpers, classes)
    members: tuple[str, ...] = ()  # extra lines of the Cell's class body (methods)
    contexts: tuple[str, ...] = CONTEXTS
    # level -> (rule code, regex the message must match): given only where a rule of today's
    # checker clearly covers this behaviour
    codes: dict[str, tuple[str, str]] = field(default_factory=dict)
    # The body of `run()` when the default (one call on INPUT) cannot show the behaviour, e.g.
    # two calls, or the caller reading its argument afterwards: `{call}` is `Net()` or
    # `compute`, `{input}` the input Tensor's expression.
    run: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return f"{self.op}__{self.kind}"


@dataclass(frozen=True)
class Program:
    snippet: Snippet
    context: str
    source: str
    op_line: int  # 1-based line of the operation in `source`

    @property
    def name(self) -> str:
        return f"{self.snippet.name}__{self.context}"

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.source.encode()).hexdigest()[:20]


def _indent(lines: tuple[str, ...], depth: int) -> list[str]:
    pad = " " * (4 * depth)
    return [pad + line if line else "" for line in lines]


def render(snippet: Snippet, context: str) -> Program:
    lines = PRELUDE.splitlines()
    if snippet.module:
        lines += ["", *snippet.module]
    lines += ["", ""]
    if context == "jit":
        lines += ["@ms.jit", "def compute(x):"]
        start = len(lines)
        lines += _indent(snippet.body, 1)
        call = "compute"
    else:
        lines += ["class Net(nn.Cell):", "    def __init__(self):", "        super().__init__()"]
        lines += _indent(snippet.init, 2)
        lines += [""]
        if context == "method":
            lines += ["    def construct(self, x):", "        return self.compute(x)", ""]
            lines += ["    def compute(self, x):"]
        else:
            lines += ["    def construct(self, x):"]
        start = len(lines)
        lines += _indent(snippet.body, 2)
        if snippet.members:
            lines += ["", *_indent(snippet.members, 1)]
        call = "Net()"
    body = [line.format(call=call, input=INPUT) for line in snippet.run]
    lines += ["", "", "def run():", *_indent(tuple(body or [f"return {call}({INPUT})"]), 1), ""]
    return Program(snippet, context, "\n".join(lines), start + snippet.op_line + 1)


def programs(snippets: list[Snippet]) -> list[Program]:
    out = []
    for snippet in snippets:
        for context in snippet.contexts:
            if context == "jit" and snippet.needs_self:
                continue
            out.append(render(snippet, context))
    return out
