"""Where operators' operands come from beyond plain expressions: augmented assignments (`n += 1`
runs `n + 1` on the value bound just before) and instances of the module's own classes (a plain
or jit_class object has an operator only if its class defines the dunder: Python's TypeError
otherwise, at every level, measured in `generated/operators/`).

`lst += v` of a local list: Python extends the list with any iterable, but graph mode runs it
as `lst + v`, which takes a list only. Measured on 2.10 at LAX and STRICT: `l += (2, 3)`,
`l += t` (a tuple), `l += x.shape`, `l += range(2)`, `l += zip(a, b)`, `l += "bc"` failed
("can only concatenate list (not "tuple") to list"), `l += {"b": 1}` too ("For operation
'augassign_add', current input arguments types are <List, Dictionary>"), in a loop as well
(`outs = []` then `outs += (x * i,)`); `l += [v]`, `l.extend((2, 3))` compile.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from typing import Optional

from .helpers import instances
from .helpers.abstract import Value
from .helpers.base import FunctionContext
from .helpers.module_values import global_binding, note_read

OPERATOR_NAMES: dict[type[ast.operator], str] = {
    ast.Add: "add",
    ast.Sub: "sub",
    ast.Mult: "mul",
    ast.Div: "truediv",
    ast.FloorDiv: "floordiv",
    ast.Mod: "mod",
    ast.Pow: "pow",
    ast.BitAnd: "and",
    ast.BitOr: "or",
    ast.BitXor: "xor",
    ast.LShift: "lshift",
    ast.RShift: "rshift",
    ast.MatMult: "matmul",
}


def augmented(ctx: FunctionContext) -> Iterator[ast.BinOp]:
    """`n op= v` as the operator it runs, `n op v`, where the statement before it in the same
    block binds `n = value` (nothing between rebinds it): `n = None; n += 1`."""
    augs = [a for a in ctx.of(ast.AugAssign) if isinstance(a.target, ast.Name)]
    if not augs:
        return
    wanted = {id(a) for a in augs}
    for body in _bodies(ctx):
        for index, stmt in enumerate(body):
            if id(stmt) in wanted and isinstance(stmt, ast.AugAssign):
                assert isinstance(stmt.target, ast.Name)
                prior = _prior(body[:index], stmt.target.id)
                if prior is not None and not isinstance(prior, (ast.List, ast.ListComp)):
                    # (`v += (2,)` extends a list in place, which `v + (2,)` would not)
                    yield ast.copy_location(ast.BinOp(prior, stmt.op, stmt.value), stmt)


# What holds statement lists (`body`, `orelse`, `finalbody`): read from the node index, not
# a walk of every node of the function.
_BLOCKS: tuple[type[ast.AST], ...] = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.If,
    ast.With,
    ast.AsyncWith,
    ast.Try,
    *((ast.TryStar,) if hasattr(ast, "TryStar") else ()),
    ast.ExceptHandler,
    ast.match_case,
)


def _bodies(ctx: FunctionContext) -> Iterator[list[ast.stmt]]:
    for node in ctx.of(*_BLOCKS):
        for field in ("body", "orelse", "finalbody"):
            body = getattr(node, field, None)
            if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
                yield body


def _prior(before: list[ast.stmt], name: str) -> Optional[ast.expr]:
    """The value of the last `name = value` among `before`, if no later statement binds it."""
    for stmt in reversed(before):
        if (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and stmt.targets[0].id == name
        ):
            return stmt.value
        if any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(stmt)):
            return None  # read or rebound on the way: not followed
    return None


# What `lst += v` cannot take in graph mode (by the value's kind, or the builtin building it).
NOT_LIST_KINDS = frozenset({"tuple", "str", "dict"})
NOT_LIST_CALLS = frozenset({"range", "zip"})


def list_extensions(
    ctx: FunctionContext, kind_of: Callable[[ast.expr], Optional[Value]]
) -> Iterator[tuple[ast.AugAssign, str]]:
    """`lst += v` where every binding of the local `lst` is a list display, a list
    comprehension or `list(...)`, and `v` is a tuple, str, dict, `range()` or `zip()`: with
    what `v` is called in the message."""
    augs = [
        a
        for a in ctx.of(ast.AugAssign)
        if isinstance(a, ast.AugAssign)
        and isinstance(a.op, ast.Add)
        and isinstance(a.target, ast.Name)
    ]
    for aug in augs:
        assert isinstance(aug.target, ast.Name)
        what = _not_a_list(aug.value, kind_of)
        if what is not None and _only_lists(ctx, aug.target.id):
            yield aug, what


def _not_a_list(value: ast.expr, kind_of: Callable[[ast.expr], Optional[Value]]) -> Optional[str]:
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
        if value.func.id in NOT_LIST_CALLS:
            return f"`{value.func.id}()` object"
        return None
    if isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Slice):
        value_of = value.value  # `x.shape[2:]` is a tuple as `x.shape` is
    else:
        value_of = value
    if isinstance(value_of, ast.Attribute) and value_of.attr == "shape":
        return "tuple"
    known = kind_of(value)
    if known is not None and known.kind in NOT_LIST_KINDS:
        return describe(known)
    return None


def _only_lists(ctx: FunctionContext, name: str) -> bool:
    """The function binds `name` only by `name = <list>` statements (and `+=`)."""
    node = ctx.fn.node
    args = node.args
    if name in {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}:
        return False
    stores = [n for n in ctx.of(ast.Name) if n.id == name and not isinstance(n.ctx, ast.Load)]
    assigns = [
        a
        for a in ctx.of(ast.Assign)
        if isinstance(a, ast.Assign)
        and len(a.targets) == 1
        and isinstance(a.targets[0], ast.Name)
        and a.targets[0].id == name
    ]
    augmented = sum(
        1
        for a in ctx.of(ast.AugAssign)
        if isinstance(a, ast.AugAssign) and isinstance(a.target, ast.Name) and a.target.id == name
    )
    if not assigns or len(stores) != len(assigns) + augmented:
        return False  # also bound by a loop, an unpacking, a `with`, ...: unknown
    return all(_list_value(a.value) for a in assigns)


def _list_value(value: ast.expr) -> bool:
    if isinstance(value, (ast.List, ast.ListComp)):
        return True
    return (
        isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "list"
    )


UNARY_DUNDERS = {ast.USub: "__neg__", ast.UAdd: "__pos__", ast.Invert: "__invert__"}
PYTHON_VALUES = frozenset({"scalar", "str", "None", "tuple", "list"})


def object_class(ctx: FunctionContext, expr: ast.expr) -> Optional[ast.ClassDef]:
    """The module's own closed class `expr` is an instance of (`Box()`, a global `OBJ =
    Custom()`); the lines read are noted for the findings cache."""
    module = ctx.fn.module
    if not isinstance(expr, (ast.Name, ast.Call)):
        return None
    if isinstance(expr, ast.Name) and expr.id in {
        n.id for n in ctx.of(ast.Name) if isinstance(n.ctx, ast.Store)
    }:
        return None  # a local, not the global
    cls = instances.instance_class(module, expr)
    if cls is None:
        return None
    binding = global_binding(module, expr.id) if isinstance(expr, ast.Name) else None
    for node in (cls, binding):
        if node is not None:
            for line in range(node.lineno, (node.end_lineno or node.lineno) + 1):
                note_read(ctx.lines, line)
    return cls


def object_operands(
    ctx: FunctionContext, node: ast.BinOp, left: Optional[Value], right: Optional[Value]
) -> Optional[tuple[str, str]]:
    """A plain object (or jit_class one) with a Python value, neither defining the operator:
    Python's TypeError, at every level (measured: `Box() + 3`)."""
    known, side = (right, node.left) if left is None else (left, node.right)
    if known is None or known.kind not in PYTHON_VALUES:
        return None
    cls = object_class(ctx, side)
    name = OPERATOR_NAMES.get(type(node.op))
    if cls is None or name is None:
        return None
    if {f"__{name}__", f"__r{name}__"} & instances.attributes(cls):
        return None
    what = f"{cls.name} object"
    other = describe(known)
    return (what, other) if side is node.left else (other, what)


def describe(value: Value) -> str:
    return {"None": "None", "str": "str"}.get(value.kind, value.describe())
