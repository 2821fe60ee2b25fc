"""MS234: `__name__` (`__qualname__`, `__doc__`, `__module__`) of a function read in compiled
code under STRICT.

Measured with MindSpore 2.10 on CPU against PyNative (round 32): LAX reads these through its
Python fallback; STRICT fails ("In JIT strict mode, cannot get attributes __name__ or the Func
object has no attribute: '__name__'") for `self.m.__name__` of a method, `Net.twice.__name__`
of a staticmethod, `ops.relu.__name__` / `ops.relu.__doc__`, `self.act.__name__` with
`self.act = ops.relu` (or a module function) set in `__init__`, `f.__name__` of a local lambda,
`self.d.construct.__qualname__` of a sub-Cell, `fn = self.m; fn.__name__`, `fn.__name__` of
`for fn in (ops.relu, ops.sigmoid)`, `helper.__defaults__` / `__code__` /
`__annotations__` / `__dict__`, and `helper.__name__` of a module function when its value is
kept (`n = helper.__name__`,
`print(...)`, a return, a dict key, `b = helper.__name__ == 'helper'`). Compile alike:
`if helper.__name__ == 'helper':` of a module function written in the `if` test itself (the
parser folds a test that reads no local name; `... and x.shape[0] > 1` fails, as does a
`while` test or a conditional expression), a read whose result is never used (`d = helper.__doc__`),
`type(self).__name__`, `self.d.__class__.__name__`, `Cfg.__name__` of a class,
`self.cls_name`, and a name taken in `__init__` (`self.n = helper.__name__`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import call_targets, receivers
from .helpers.base import FunctionContext

FUNCTION_ATTRIBUTE_UNDER_STRICT = Rule(
    "MS234",
    "function-attribute-under-strict",
    Group.STRICT,
    title="`__name__` or `__doc__` of a function read in compiled code under STRICT",
    message=(
        "`{text}` reads `.{attr}` of the {what} `{base}`, which only LAX's Python fallback "
        "provides; under jit_syntax_level=STRICT take the name in `__init__` (`self.name = "
        "{base_short}.{attr}`) or use the default LAX level."
    ),
    why=(
        "Under STRICT a function in the graph is a graph node with no Python attributes: "
        "`__name__`, `__qualname__`, `__doc__` and `__module__` exist only through LAX's "
        "Python fallback."
    ),
    remedy="Read the attribute in `__init__` and keep the string as a Cell attribute.",
    mindspore_says=(
        "AttributeError: In JIT strict mode, cannot get attributes __name__ or the Func object "
        "has no attribute: '__name__'."
    ),
)

FUNCTION_ATTRIBUTES = frozenset(
    {
        "__name__",
        "__qualname__",
        "__doc__",
        "__module__",
        "__defaults__",
        "__kwdefaults__",
        "__code__",
        "__annotations__",
        "__dict__",
    }
)
_FUNCTION_MODULES = ("mindspore.ops.", "mindspore.mint.", "mindspore.numpy.")


def _library_function(qualname: Optional[str]) -> bool:
    """`mindspore.ops.relu` (a function), not `mindspore.ops.ReLU` (a class)."""
    if not qualname or not qualname.startswith(_FUNCTION_MODULES):
        return False
    last = qualname.rsplit(".", 1)[-1]
    return last[:1].islower() and not last.startswith("_")


def _function_value(ctx: FunctionContext, expr: ast.expr, depth: int = 0) -> Optional[str]:
    """What kind of function `expr` certainly is in compiled code, or None."""
    module = ctx.fn.module
    cls = ctx.fn.cls
    if isinstance(expr, ast.Name):
        if expr.id in module.functions and not _rebound(ctx, expr.id):
            return "module function"
        if _library_function(module.qualname(expr)) and not _rebound(ctx, expr.id):
            return "function"
        if _local_lambda(ctx, expr.id):
            return "lambda"
        return _bound_function(ctx, expr.id, depth)
    if not isinstance(expr, ast.Attribute):
        return None
    if isinstance(expr.value, ast.Name) and expr.value.id == "self" and cls is not None:
        held = cls.attr(expr.attr)
        if held is not None:
            value = held.node
            if isinstance(value, ast.Name) and value.id in module.functions:
                return "function"
            if isinstance(value, (ast.Name, ast.Attribute)) and _library_function(
                module.qualname(value)
            ):
                return "function"
            return None
        found = cls.find_method(expr.attr)
        if found is not None and not _is_property(found[1]):
            return "method"
        return None
    if expr.attr == "construct" and receivers.kind_of(ctx, expr.value) == receivers.CELL:
        return "method"  # `self.d.construct.__qualname__` of a sub-Cell (measured)
    if isinstance(expr.value, ast.Name) and expr.value.id in module.classes:
        for stmt in module.classes[expr.value.id].body:
            if isinstance(stmt, ast.FunctionDef) and stmt.name == expr.attr:
                return None if _is_property(stmt) else "method"
        return None
    if _library_function(module.qualname(expr)):
        return "function"
    return None


def _bound_function(ctx: FunctionContext, name: str, depth: int) -> Optional[str]:
    """A local bound once to a function value (`fn = self.m`), or the target of a `for` over
    a tuple or list display of function values (`for fn in (ops.relu, ops.sigmoid)`): both
    measured to fail under STRICT like the value itself."""
    if depth > 2:
        return None
    values = [
        node.value
        for node in ctx.of(ast.Assign)
        for t in node.targets
        if isinstance(t, ast.Name) and t.id == name
    ]
    loops = [
        node.iter
        for node in ctx.of(ast.For)
        if isinstance(node.target, ast.Name) and node.target.id == name
    ]
    if len(values) + len(loops) != 1:
        return None
    if values:
        return _function_value(ctx, values[0], depth + 1)
    items = loops[0]
    if not isinstance(items, (ast.Tuple, ast.List)) or not items.elts:
        return None
    kinds = [_function_value(ctx, e, depth + 1) for e in items.elts]
    return "function" if all(kinds) else None


def _is_property(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any(
        (isinstance(d, ast.Name) and d.id == "property")
        or (isinstance(d, ast.Attribute) and d.attr in ("setter", "getter"))
        for d in fn.decorator_list
    )


def _rebound(ctx: FunctionContext, name: str) -> bool:
    """`name` is assigned (or a parameter) in the compiled function: not the module's."""
    fn = ctx.fn.node
    args = fn.args
    if name in {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}:
        return True
    return any(
        isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)
        for n in ctx.of(ast.Name)
    )


def _local_lambda(ctx: FunctionContext, name: str) -> bool:
    """`name` is bound once in the function, to a lambda."""
    values = [
        node.value
        for node in ctx.of(ast.Assign)
        for t in node.targets
        if isinstance(t, ast.Name) and t.id == name
    ]
    return len(values) == 1 and isinstance(values[0], ast.Lambda)


def _exempt(ctx: FunctionContext) -> set[int]:
    """ids of nodes whose function attributes compile: inside an `if` test (folded by the
    parser, for a module function named directly) and inside the value of an assignment to
    names the function never reads (dropped as dead code)."""
    in_tests: set[int] = set()
    local = {n.id for n in ctx.of(ast.Name) if isinstance(n.ctx, ast.Store)}
    args = ctx.fn.node.args
    local.update(a.arg for a in args.posonlyargs + args.args + args.kwonlyargs)
    for test in ctx.of(ast.If):
        # measured: `if helper.__name__ == 'h' and x.shape[0] > 1:` fails (x is a local)
        if any(isinstance(n, ast.Name) and n.id in local for n in ast.walk(test.test)):
            continue
        in_tests.update(id(n) for n in ast.walk(test.test))
    loaded = {n.id for n in ctx.of(ast.Name) if isinstance(n.ctx, ast.Load)}
    dead: set[int] = set()
    for node in ctx.of(ast.Assign):
        if all(isinstance(t, ast.Name) and t.id not in loaded for t in node.targets):
            dead.update(id(n) for n in ast.walk(node.value))
    return in_tests | {-i for i in dead}


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    if call_targets.is_property(ctx.fn.node):
        return  # a getter construct reads is run on the Python object (as for MS1052)
    candidates = [
        node
        for node in ctx.of(ast.Attribute)
        if node.attr in FUNCTION_ATTRIBUTES and isinstance(node.ctx, ast.Load)
    ]
    if not candidates:
        return
    exempt = _exempt(ctx)
    for node in candidates:
        if -id(node) in exempt:
            continue
        base = node.value
        what = _function_value(ctx, base)
        if what is None:
            continue
        if what == "module function" and id(node) in exempt:
            continue
        text = ast.unparse(base)
        yield FUNCTION_ATTRIBUTE_UNDER_STRICT.finding(
            node,
            text=ast.unparse(node),
            attr=node.attr,
            what=what,
            base=text,
            base_short=text,
        )
