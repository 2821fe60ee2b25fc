"""Where a number joined from two types (int / float / bool) under a Tensor condition fails.

Measured on 2.10 (`tests/graphmode/cases/round32/sj_*`), with `s` an int on one path and a
float (or a bool and an int) on the other of a Tensor condition:

- bound in `if` / `else` statements (or before the `if` and in one branch): the join fails
  ("Cannot join the return values of different branches") only when `s` reaches the output:
  `return s`, `return s + 1`, `return x, s` at both levels, `return [s]` at STRICT only. Used with
  Tensors or ops (`x * s`, `x > s`, `y = s + 1` then `x * y`, `int(s)`, `ops.full(.., s)`) it
  compiles at both levels.
- an `IfExp` (`s = 1 if t else 0.5`): only `return s` itself fails, at both levels. Returned in a
  tuple or list it compiles (giving a 0-d Tensor where PyNative gives a number); used with ops
  it compiles; at LAX everything else compiles too. At STRICT the value is left to the Python
  fallback, so the first Python operator or builtin applied to it fails ("the inputs should be
  constant"): `x * s`, `x / s`, `x > s`, `s + 1`, `x * int(s)`, `-s`.
"""

from __future__ import annotations

import ast
from typing import Optional

from ...index.module import FunctionNode
from .walk import of_type

NUMBERS = frozenset({"int", "float", "bool"})
OPERATORS = (ast.BinOp, ast.UnaryOp, ast.Compare)
BUILTINS = frozenset({"int", "float", "bool", "abs", "round", "str"})


def return_forms(fn: FunctionNode, name: str, after: ast.AST) -> set[str]:
    """How the reads of `name` after `after` reach a `return`: "name" (`return s`), "arith"
    (`return s + 1`, the other operand a number written out), "tuple" / "list" (an item of the
    returned display)."""
    end = (getattr(after, "end_lineno", 0) or 0, getattr(after, "end_col_offset", 0) or 0)
    forms: set[str] = set()
    for ret in of_type(fn, ast.Return):
        value = ret.value
        if value is None or (ret.lineno, ret.col_offset) < end:
            continue
        if _is(value, name):
            forms.add("name")
        elif isinstance(value, ast.BinOp) and _number_arith(value, name):
            forms.add("arith")
        elif isinstance(value, (ast.Tuple, ast.List)) and any(_is(e, name) for e in value.elts):
            forms.add("tuple" if isinstance(value, ast.Tuple) else "list")
    return forms


def statement_join_fails(forms: set[str], strict: bool) -> bool:
    """An `if`-statement join of numbers reaches the output in a form that fails."""
    return bool(forms & {"name", "arith", "tuple"}) or (strict and "list" in forms)


def first_python_use(fn: FunctionNode, value: ast.expr, name: Optional[str]) -> Optional[ast.expr]:
    """The first Python operator or builtin call in `fn` applied to the IfExp `value` itself or to
    a read of `name` (the name it is bound to), in source order; None if there is none."""
    parents = {id(c): p for p in ast.walk(fn) for c in ast.iter_child_nodes(p)}
    reads: list[ast.expr] = [value]
    if name is not None:
        reads += [n for n in of_type(fn, ast.Name) if n.id == name and isinstance(n.ctx, ast.Load)]
    uses = [u for u in (_python_use(parents, r) for r in reads) if u is not None]
    return min(uses, key=lambda u: (u.lineno, u.col_offset)) if uses else None


def _python_use(parents: dict[int, ast.AST], node: ast.expr) -> Optional[ast.expr]:
    parent = parents.get(id(node))
    if isinstance(parent, OPERATORS):
        return parent
    if (
        isinstance(parent, ast.Call)
        and isinstance(parent.func, ast.Name)
        and parent.func.id in BUILTINS
        and node in parent.args
    ):
        return parent
    return None


def _number_arith(op: ast.BinOp, name: str) -> bool:
    if _is(op.left, name):
        other = op.right
    elif _is(op.right, name):
        other = op.left
    else:
        return False
    return isinstance(other, ast.Constant) and isinstance(other.value, (int, float))


def _is(expr: ast.expr, name: str) -> bool:
    return isinstance(expr, ast.Name) and expr.id == name
