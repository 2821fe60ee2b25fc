"""MS156, MS157, MS225: calls of values that cannot be called, or with the wrong arguments.

Measured with MindSpore 2.10 (`generated/calls/`): calling a Tensor, scalar, str or None fails;
a call to a module function with the wrong arguments fails; under STRICT `setattr` fails. The
one `check` here also runs the attribute, unpacking and iteration rules (`attributes.py`,
`unpacking.py`, `iteration.py`), so their nodes are gathered in one pass with one `Abstract`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..index.module import FunctionNode
from ..model import Group, RawFinding
from ..rule import Rule
from . import attributes, iteration, unpacking
from .calls_shared import builtin, describe, instance, local_names, missing_advice
from .helpers.abstract import Abstract
from .helpers.base import FunctionContext
from .helpers.instances import lacks

CALL_OF_NON_CALLABLE = Rule(
    "MS156",
    "call-of-non-callable",
    Group.FAILS,
    title="Calling a value that is not a function",
    message="`{name}` is a {kind} and cannot be called; call a function, Cell or op instead.",
    why="The graph compiler can only call functions, Cells, classes and ops.",
    remedy="Call the function the value came from, or index the value instead of calling it.",
    mindspore_says="ValueError: The object is not callable. Please check code.",
)

CALL_ARGUMENTS_MISMATCH = Rule(
    "MS157",
    "call-arguments-mismatch",
    Group.FAILS,
    title="A function called with arguments that do not match its parameters",
    message="`{name}()` {problem}; pass the arguments its `def` declares.",
    why=(
        "The graph compiler binds a call's arguments to the callee's parameters when it "
        "compiles; a missing, extra or unknown argument fails the compile."
    ),
    remedy="Match the call to the function's parameters (names, count, keyword-only ones).",
    mindspore_says=(
        "TypeError: The parameters number of the function is 1, but the number of provided "
        "arguments is 2."
    ),
)


SETATTR_UNDER_STRICT = Rule(
    "MS225",
    "setattr-under-strict",
    Group.STRICT,
    title="`setattr()` in compiled code",
    message=(
        "`setattr()` is not supported under jit_syntax_level=STRICT; set the attribute outside "
        "compiled code or return the value."
    ),
    why="Under STRICT compiled code cannot change attributes through `setattr`.",
    remedy="Return the new value, or set the attribute in `__init__` / outside the graph.",
    mindspore_says="RuntimeError: The third argument should be a dictionary, but got ",
)


NOT_CALLABLE = frozenset({"tensor", "scalar", "str", "None", "tuple", "list", "dict"})
# Measured: graph mode's print takes no `end` ("Got an unexpected keyword argument 'end'").
PRINT_UNSUPPORTED = frozenset({"end"})


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    """Not cacheable: MS157 reads the `def` of the module function a call names."""
    values = Abstract(ctx.types, ctx.fn.node)
    nodes: list[ast.AST] = ctx.of(ast.Attribute, ast.Call, ast.Assign, ast.For)
    for node in nodes:
        if isinstance(node, ast.Attribute):
            yield from attributes.check_attribute(ctx, values, node)
        elif isinstance(node, ast.Call):
            yield from _call(ctx, values, node)
        elif isinstance(node, ast.Assign):
            yield from unpacking.check_assign(ctx, values, node)
        elif isinstance(node, ast.For):
            yield from iteration.check_for(ctx, values, node)


def _call(ctx: FunctionContext, values: Abstract, call: ast.Call) -> Iterator[RawFinding]:
    func = call.func
    if not isinstance(func, ast.Name):
        return
    if func.id == "setattr" and builtin(ctx, "setattr"):
        yield SETATTR_UNDER_STRICT.finding(call)
        return
    if func.id == "len" and len(call.args) == 1:
        cls = instance(ctx, call.args[0])
        if cls is not None and lacks(ctx.fn.module, cls, "__len__") and builtin(ctx, "len"):
            advice = missing_advice(cls, "__len__")
            kind = f"`{cls.name}` object"
            yield attributes.ATTRIBUTE_OF_WRONG_KIND.finding(
                call, attr="__len__", kind=kind, advice=advice
            )
            return
        value = values.of(call.args[0])
        if value is not None and value.kind == "None" and builtin(ctx, "len"):
            advice = "check for None before taking the length"
            yield attributes.ATTRIBUTE_OF_WRONG_KIND.finding(
                call, attr="__len__", kind="None", advice=advice
            )
        if value is not None and value.kind == "str" and builtin(ctx, "len"):
            yield iteration.STR_LENGTH_UNDER_STRICT.finding(
                call, what="`len()` of", advice="count a tuple"
            )
        return
    if func.id == "print" and builtin(ctx, "print"):
        bad = next((k.arg for k in call.keywords if k.arg in PRINT_UNSUPPORTED), None)
        if bad is not None:
            yield CALL_ARGUMENTS_MISMATCH.finding(call, name="print", problem=f"has no `{bad}`")
        return
    value = values.of(func)
    if value is not None and value.kind in NOT_CALLABLE:
        yield CALL_OF_NON_CALLABLE.finding(call, name=func.id, kind=describe(value))
        return
    target = _module_function(ctx, func.id)
    if target is not None:
        problem = _mismatch(call, target.args)
        if problem:
            yield CALL_ARGUMENTS_MISMATCH.finding(call, name=func.id, problem=problem)


def _module_function(ctx: FunctionContext, name: str) -> Optional[FunctionNode]:
    """The plain module-level `def` a name calls, when nothing else binds that name."""
    module = ctx.fn.module
    target = module.functions.get(name)
    if target is None or target.decorator_list or name in local_names(ctx.fn.node):
        return None
    if name in module.imports or name in module.classes or module.tree is None:
        return None
    defs, rebound = _module_names(module.tree)
    once = defs.get(name) == 1 and name not in rebound
    return target if once and isinstance(target, ast.FunctionDef) else None


_MODULES = "_mindscope_calls_module_names"  # kept on the module tree: freed with it


def _module_names(tree: ast.Module) -> tuple[dict[str, int], set[str]]:
    """How many top-level `def`/`class` statements bind each name, and the names the other
    top-level statements bind (read once per module tree)."""
    held: Optional[tuple[dict[str, int], set[str]]] = tree.__dict__.get(_MODULES)
    if held is not None:
        return held
    defs: dict[str, int] = {}
    rebound: set[str] = set()
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defs[stmt.name] = defs.get(stmt.name, 0) + 1
            continue
        for n in ast.walk(stmt):
            if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
                rebound.add(n.id)
    tree.__dict__[_MODULES] = (defs, rebound)
    return defs, rebound


def _mismatch(call: ast.Call, params: ast.arguments) -> str:
    """What is wrong with binding `call`'s arguments to `params`, or ""."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    ):
        return ""  # *args / **kwargs: their length is not in the source
    positional = [a.arg for a in params.posonlyargs + params.args]
    if len(call.args) > len(positional) and params.vararg is None:
        return f"takes {len(positional)} positional arguments but is given {len(call.args)}"
    named = {k.arg for k in call.keywords if k.arg is not None}
    known = set(positional[len(params.posonlyargs) :]) | {a.arg for a in params.kwonlyargs}
    unknown = sorted(named - known)
    if unknown and params.kwarg is None:
        return f"has no parameter `{unknown[0]}`"
    required = positional[: len(positional) - len(params.defaults)]
    given = set(positional[: len(call.args)]) | named
    missing = [p for p in required if p not in given]
    missing += [
        a.arg
        for a, d in zip(params.kwonlyargs, params.kw_defaults)
        if d is None and a.arg not in named
    ]
    return f"is not given `{missing[0]}`" if missing else ""
