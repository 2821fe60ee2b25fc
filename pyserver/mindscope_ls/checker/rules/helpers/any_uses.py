"""Where STRICT first trips over a helper's result that could not be joined.

Measured on 2.10 at STRICT: a helper method (or nested function) whose Tensor-conditioned
returns cannot be joined (float32 vs int32, a float vs a `raise`) does not fail at its
returns when the caller applies a Python operator to the result: the result goes to the
Python fallback, which refuses it there ("When handling script '__input_key_0__ *
__input_key_1__ in graph mode', the inputs should be constant"), and MindSpore names that
line. Seen for `r * 2`, `2 * r`, `r + x`, `-r`, `r > 0`, `r.sum()`, `y = r` then `y * 2`, and
`ops.square(r) * 2`; the result returned, put in a tuple or given to `ops.relu` / `ops.matmul`
alone fails at the returns as at LAX. The same holds for a conditional expression on a Tensor
whose branches cannot join (`s = x if t else x.astype(ms.int32)`, or a Tensor and an int):
`s * 2` / `s + x` fail there at STRICT, `return s`, `ops.relu(s)` or `(s, x)` at the `IfExp`.
"""

from __future__ import annotations

import ast
from typing import Optional

from ...index.module import FunctionNode
from .walk import of_type

OPERATORS = (ast.BinOp, ast.UnaryOp, ast.Compare)
OPS_MODULES = frozenset({"ops", "mint", "F", "P"})
MAX_STEPS = 8


def python_use(caller: FunctionNode, value: ast.expr) -> Optional[ast.expr]:
    """The operator or attribute read in `caller` that first takes `value` (a call's result, a
    conditional expression's; through `ops.*(...)` calls and a name bound once), or None when
    the value reaches none."""
    parents = {id(c): p for p in ast.walk(caller) for c in ast.iter_child_nodes(p)}
    node: ast.AST = value
    for _ in range(MAX_STEPS):
        parent = parents.get(id(node))
        if isinstance(parent, OPERATORS):
            return parent
        if isinstance(parent, ast.Attribute) and parent.value is node:
            return parent
        if isinstance(parent, ast.Call) and node in parent.args and _ops_call(parent):
            node = parent
            continue
        if isinstance(parent, ast.Assign) and parent.value is node:
            read = _next_read(caller, parent)
            if read is None:
                return None
            node = read
            continue
        return None
    return None


def _ops_call(call: ast.Call) -> bool:
    func = call.func
    return (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and func.value.id in OPS_MODULES
    )


def _next_read(caller: FunctionNode, assign: ast.Assign) -> Optional[ast.Name]:
    """The first read of `name = value`'s name after it, when the function binds it once."""
    if len(assign.targets) != 1 or not isinstance(assign.targets[0], ast.Name):
        return None
    name = assign.targets[0].id
    found = [n for n in of_type(caller, ast.Name) if n.id == name]
    if sum(1 for n in found if not isinstance(n.ctx, ast.Load)) != 1:
        return None
    end = (assign.end_lineno or assign.lineno, assign.end_col_offset or 0)
    after = [n for n in found if (n.lineno, n.col_offset) >= end and isinstance(n.ctx, ast.Load)]
    return after[0] if after else None
