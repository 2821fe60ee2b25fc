"""The dtype a Cell's `construct` returns for one call's arguments, read from its `return`s.

MindSpore compiles a sub-Cell inline with the arguments its call passes, so the Tensor a call
`self.a(x)` gives has the dtype the callee's returns give for them: `x.astype(ms.int32)` an
int32 Tensor whatever `x` is, `x` or `ops.relu(x)` the dtype of the Tensor passed. Used where
those results are joined (a Tensor `if`, Cells picked by a Tensor index): measured on 2.10,
sub-Cells returning int32 and float32 Tensors fail to join exactly as the same casts written
in place do ("Type Join Failed: dtype1 = Int32, dtype2 = Float32").

Written-out facts only: a parameter the callee never rebinds, a local it binds once, a cast
to a written dtype, a comparison (bool), an op or method that keeps its operand's dtype, and
`<one of those> + 1`. Anything else, or returns that disagree, give no dtype.
"""

from __future__ import annotations

import ast
from typing import Callable, Optional

from ...index.module import ModuleInfo
from . import names
from .dtype_keeping import KEEPS_DTYPE_METHODS, KEEPS_DTYPE_OPS
from .module_values import dtype_of
from .walk import of_type, own_nodes

ArgumentDtype = Callable[[ast.expr], Optional[str]]  # a passed Tensor's dtype, else None
MAX_DEPTH = 6
CASTS = frozenset({"mindspore.ops.cast", "mindspore.ops.functional.cast"})
_COMPARISONS = (ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq, ast.NotEq)


def returned_dtype(
    module: ModuleInfo, fn: ast.FunctionDef, call: ast.Call, argument_dtype: ArgumentDtype
) -> Optional[tuple[str, ast.expr]]:
    """The one dtype every `return` of method `fn` gives for `call`'s arguments (`self`
    skipped), with the first return's value; None when a return gives nothing or not known."""
    values = returned_values(fn)
    if not values or any(isinstance(a, ast.Starred) for a in call.args) or call.keywords:
        return None
    reader = _Reader(module, fn, call, argument_dtype)
    dtypes = {reader.dtype(v, 0) for v in values}
    if len(dtypes) != 1 or None in dtypes:
        return None
    dtype = dtypes.pop()
    assert dtype is not None
    return dtype, min(values, key=lambda v: (v.lineno, v.col_offset))


def returned_values(fn: ast.FunctionDef) -> Optional[list[ast.expr]]:
    """What each `return` of `fn` itself gives; None when one returns nothing."""
    returns = [n for n in own_nodes(fn) if isinstance(n, ast.Return)]
    if any(r.value is None for r in returns):
        return None
    return [r.value for r in returns if r.value is not None]


def returns_none(fn: ast.FunctionDef) -> bool:
    """Every path of `fn` gives None: each `return` is bare or `return None`, and the body
    ends in one (or in no return at all)."""
    returns = [n for n in own_nodes(fn) if isinstance(n, ast.Return)]
    if any(r.value is not None and not _is_none(r.value) for r in returns):
        return False
    return not any(isinstance(n, (ast.Yield, ast.YieldFrom, ast.Raise)) for n in own_nodes(fn))


def _is_none(value: ast.expr) -> bool:
    return isinstance(value, ast.Constant) and value.value is None


class _Reader:
    def __init__(
        self, module: ModuleInfo, fn: ast.FunctionDef, call: ast.Call, argument: ArgumentDtype
    ):
        self.module = module
        self.argument = argument
        stores: dict[str, list[ast.AST]] = {}
        for node in own_nodes(fn):
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                stores.setdefault(node.id, []).append(node)
        positional = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)][1:]
        # parameters the body never rebinds: they hold what the call passes
        self.given = {name: arg for name, arg in zip(positional, call.args) if name not in stores}
        self.once = {
            a.targets[0].id: a.value
            for a in of_type(fn, ast.Assign)
            if len(a.targets) == 1
            and isinstance(a.targets[0], ast.Name)
            and len(stores.get(a.targets[0].id, ())) == 1
        }

    def dtype(self, value: ast.expr, depth: int) -> Optional[str]:
        if depth > MAX_DEPTH:
            return None
        if isinstance(value, ast.Name):
            arg = self.given.get(value.id)
            if arg is not None:
                return self.argument(arg)
            bound = self.once.get(value.id)
            return self.dtype(bound, depth + 1) if bound is not None else None
        if isinstance(value, ast.Compare) and len(value.ops) == 1:
            known = self.dtype(value.left, depth + 1) or self.dtype(value.comparators[0], depth + 1)
            return "bool_" if isinstance(value.ops[0], _COMPARISONS) and known else None
        if isinstance(value, ast.Call):
            return self._call(value, depth)
        if isinstance(value, ast.BinOp) and isinstance(value.op, (ast.Add, ast.Sub, ast.Mult)):
            for side, other in ((value.left, value.right), (value.right, value.left)):
                if isinstance(other, ast.Constant) and type(other.value) is int:
                    dtype = self.dtype(side, depth + 1)
                    return dtype if dtype is not None and dtype != "bool_" else None
        return None

    def _call(self, call: ast.Call, depth: int) -> Optional[str]:
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in ("astype", "to") and call.args:
            return dtype_of(call.args[0]) if len(call.args) == 1 else None
        qualname = names.callee(self.module, func)
        if qualname in CASTS and len(call.args) == 2:
            return dtype_of(call.args[1])
        op = qualname.rsplit(".", 1)[-1] if qualname and names.is_ops_call(qualname) else None
        if op in KEEPS_DTYPE_OPS and call.args:
            return self.dtype(call.args[0], depth + 1)
        if isinstance(func, ast.Attribute) and func.attr in KEEPS_DTYPE_METHODS and op is None:
            return self.dtype(func.value, depth + 1)
        return None
