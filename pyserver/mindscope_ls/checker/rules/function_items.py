"""MS149: a function made or bound in compiled code stored by an item write (`fs[k] = f`).

Measured with MindSpore 2.10 on CPU, at LAX and STRICT alike (PyNative runs them): graph mode
cannot write such a value into a list or dict item, in a loop or not, called afterwards or not:
`fs[i] = lambda v: v * i` ("RuntimeError: Unable to cast Python instance of type <class
'NoneType'> to C++ type 'std::string'"), `fs["a"] = f` of a def nested in the compiled function
("NameError: name '__input_key_2__' is not defined"), `fs[i] = self.act` of a method and
`fs[i] = ops.relu` ("The pointer[node] is null" at LAX; STRICT refuses the item write). What
compiles: the same functions in a dict or list display (`{"a": lambda v: v * 2}`), appended
(`fs.append(helper)`), a module-level function (`fs["a"] = helper`) or a Cell (`fs["a"] =
self.relu`) written into an empty container. Written into a container whose display already
holds a function (`fs = {"b": helper}; fs["c"] = helper`, or a Cell), those fail too
("Unsupported element type[unknown] to set element data type for KernelTensor" at LAX); a
Tensor written there compiles.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import names
from .helpers.base import FunctionContext

FUNCTION_ITEM_WRITE = Rule(
    "MS149",
    "function-item-write",
    Group.FAILS,
    title="A lambda, nested function, method or `ops` function stored by an item write",
    message=(
        "`{target} = {value}` stores {what} into an item, which graph mode cannot compile at any "
        "level; build the container as a display instead (`{container} = {{key: {value}, ...}}` "
        "or a list) or pick the function where it is called."
    ),
    why=(
        "Graph mode's item write (`setitem`) takes graph values; a function object made or bound "
        "in the graph is not one, and the compile fails."
    ),
    remedy=(
        "Put the functions in a dict or list display (`{'a': f, 'b': g}`), or choose the "
        "function with an `if` where it is called."
    ),
    mindspore_says=(
        "RuntimeError: Unable to cast Python instance of type <class 'NoneType'> to C++ type "
        "'std::string'"
    ),
)


def _nested_defs(fn: ast.AST) -> set[str]:
    return {
        n.name
        for n in ast.walk(fn)
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n is not fn
    }


def _what(ctx: FunctionContext, value: ast.expr, nested: set[str]) -> Optional[str]:
    if isinstance(value, ast.Lambda):
        return "a lambda"
    if isinstance(value, ast.Name) and value.id in nested:
        return f"the nested function `{value.id}`"
    attr = names.self_attribute(value)
    if attr is not None and ctx.fn.cls is not None and ctx.fn.cls.attr(attr) is None:
        method = next(
            (m for c in ctx.fn.cls.lineage() if (m := c.own_method(attr)) is not None),
            None,
        )
        plain = method is not None and not any(
            isinstance(d, ast.Name) and d.id in ("property", "staticmethod", "classmethod")
            for d in method.decorator_list
        )
        return f"the method `self.{attr}`" if plain else None
    if isinstance(value, ast.Attribute):
        qualname = ctx.fn.module.qualname(value) or ""
        # `ops.relu`: a function of MindSpore's functional API (`ops.ReLU` is a class).
        if qualname.startswith("mindspore.ops.") and value.attr[:1].islower():
            return f"the function `{ast.unparse(value)}`"
    return None


def _held_function(ctx: FunctionContext, value: ast.expr, nested: set[str]) -> Optional[str]:
    """A module-level function or a sub-Cell: fine written into an empty container, not into
    one whose display already holds a function (measured, LAX and STRICT)."""
    if isinstance(value, ast.Name) and value.id in ctx.fn.module.functions:
        return f"the function `{value.id}`"
    name = names.self_attribute(value)
    if name is not None and ctx.fn.cls is not None:
        attr = ctx.fn.cls.attr(name)
        if attr is not None and attr.kind == "cell":
            return f"the Cell `self.{name}`"
    return None


def _display_holds_function(
    ctx: FunctionContext, name: str, nested: set[str], bound: dict[str, list[ast.expr]]
) -> bool:
    """`name` is bound once, to a dict or list display holding a function."""
    values = bound.get(name, [])
    if len(values) != 1:
        return False
    display = values[0]
    if isinstance(display, ast.Dict):
        items: list[ast.expr] = list(display.values)
    elif isinstance(display, ast.List):
        items = list(display.elts)
    else:
        return False
    local = {n for n in nested}
    for item in items:
        if _what(ctx, item, local) is not None:
            return True
        if isinstance(item, ast.Name) and item.id in ctx.fn.module.functions:
            return True
    return False


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    assigns = [
        a
        for a in ctx.of(ast.Assign)
        if len(a.targets) == 1
        and isinstance(a.targets[0], ast.Subscript)
        and isinstance(a.targets[0].value, ast.Name)
    ]
    if not assigns:
        return
    nested = _nested_defs(ctx.fn.node)
    bound: dict[str, list[ast.expr]] = {}
    for a in ctx.of(ast.Assign):
        for t in a.targets:
            if isinstance(t, ast.Name):
                bound.setdefault(t.id, []).append(a.value)
    for assign in assigns:
        target = assign.targets[0]
        assert isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name)
        what = _what(ctx, assign.value, nested)
        if what is None:
            held = _held_function(ctx, assign.value, nested)
            if held is not None and _display_holds_function(ctx, target.value.id, nested, bound):
                what = f"{held} (the container already holds a function)"
        if what is None:
            continue
        yield FUNCTION_ITEM_WRITE.finding(
            assign.value,
            target=ast.unparse(target),
            value=ast.unparse(assign.value),
            what=what,
            container=ast.unparse(target.value),
        )
