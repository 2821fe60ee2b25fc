"""Calls in compiled code that reach workspace code less directly than `f(x)` / `self.m(x)`.

Measured on MindSpore 2.10 (CPU, LAX and STRICT): each of these compiles the function it
reaches, so a statement graph mode rejects there (`del y`) fails the whole graph:
- a function transform applied to a function: `ms.grad(loss)(x)`, `g = ops.grad(f); g(x)`,
  `ms.value_and_grad(self.loss)(x)`, `ms.vmap(g)(x)`, `ops.GradOperation()(f)(x)`;
- a method of an object held by the Cell: `self.helper.go(x)`, plain class or `@jit_class`
  (graph mode parses its methods as it parses `construct`);
- a method of an object built in the function: `h = Helper(); h.go(x)`, `Helper().go(x)`;
- a function taken by a loop variable: `for f in (f1, f2): x = f(x)`, or over `self.fns`;
- a base class's method through `super().helper(x)`; a static method through `Util.go(x)`;
- (resolved in discovery) `self.h(x)` of a held object (its `__call__`), `self.act(x)` with
  `self.act = self._fast` or `self.fn = helper` (or an `__init__` parameter defaulting to
  `helper`) set in `__init__`, and `apply(helper, x)` where `apply` calls its parameter;
- `getattr(self, "name")(x)`; an item of a dict display of functions (`ACTS["gelu"](x)`,
  `self.table["a"](x)`, `self.act = ACT2FN["gelu"]`); an `__init__` parameter every `Cls(f)`
  of the module gives the same function; `functools.partial(f, ...)`, `ops.partial(f, ...)`;
  a module function a class body binds (`act = staticmethod(f)`).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Optional

from ...index.module import FunctionNode, ModuleInfo
from . import names
from .classes import ClassInfo
from .module_values import global_binding
from .walk import of_type

# The last part of MindSpore's function transforms whose first argument is the function the
# returned callable compiles with its own arguments (`mindspore.grad`, `mindspore.ops.vmap`).
TRANSFORMS = frozenset({"grad", "value_and_grad", "vmap", "jacfwd", "jacrev"})
GRAD_OPERATION = "GradOperation"


@dataclass(frozen=True)
class Bindings:
    """What a compiled function's local names hold, for resolving calls of them: `single`, the
    names bound exactly once by a plain `name = value`; `looped`, the names bound only as the
    variable of a `for` over a literal tuple / list (or a Cell attribute holding one) of the
    items it takes (`for f in (f1, f2): x = f(x)` compiles both)."""

    single: dict[str, ast.expr]
    looped: dict[str, tuple[ast.For, list[ast.expr]]]  # also the loop: what MindSpore names

    @classmethod
    def of(cls, fn: FunctionNode, owner: Optional[ClassInfo]) -> Bindings:
        counts: dict[str, int] = {}
        for node in of_type(fn, ast.Name):
            if isinstance(node.ctx, ast.Store):
                counts[node.id] = counts.get(node.id, 0) + 1
        single: dict[str, ast.expr] = {}
        for assign in of_type(fn, ast.Assign):
            target = assign.targets[0]
            if len(assign.targets) == 1 and isinstance(target, ast.Name):
                single[target.id] = assign.value
        looped: dict[str, tuple[ast.For, list[ast.expr]]] = {}
        for loop in of_type(fn, ast.For):
            items = _literal_items(loop.iter, owner)
            if isinstance(loop.target, ast.Name) and items is not None:
                looped[loop.target.id] = (loop, items)
        once = {name for name, count in counts.items() if count == 1}
        return cls(
            {n: v for n, v in single.items() if n in once},
            {n: v for n, v in looped.items() if n in once},
        )


def _literal_items(expr: ast.expr, owner: Optional[ClassInfo]) -> Optional[list[ast.expr]]:
    if owner is not None:
        name = names.self_attribute(expr)
        held = owner.attr(name) if name is not None else None
        expr = held.node if held is not None and isinstance(held.node, ast.expr) else expr
    return list(expr.elts) if isinstance(expr, (ast.Tuple, ast.List)) else None


def super_method(func: ast.expr) -> Optional[str]:
    """`name` for `super().name` (or `super(Cls, self).name`)."""
    if (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Call)
        and isinstance(func.value.func, ast.Name)
        and func.value.func.id == "super"
    ):
        return func.attr
    return None


def init_default(init: Optional[FunctionNode], name: str) -> Optional[ast.expr]:
    """The default of `__init__`'s parameter `name` (`def __init__(self, act=gelu)`)."""
    if init is None:
        return None
    for arg, default in names.parameter_defaults(init):
        if arg.arg == name:
            return default
    return None


def calls_parameter(fn: FunctionNode, param: str) -> bool:
    """`fn` calls its parameter `param` (`def apply(f, x): return f(x)`) and never rebinds it."""
    if any(n.id == param and isinstance(n.ctx, ast.Store) for n in of_type(fn, ast.Name)):
        return False
    return any(isinstance(c.func, ast.Name) and c.func.id == param for c in of_type(fn, ast.Call))


def transformed(
    module: ModuleInfo, func: ast.expr, bindings: dict[str, ast.expr]
) -> Optional[ast.expr]:
    """The function a call of `func` compiles when `func` is a transform's result
    (`ms.grad(loss)`, or a name bound once to one): the transform's first argument."""
    if isinstance(func, ast.Name):
        bound = bindings.get(func.id)
        if not isinstance(bound, ast.Call):
            return None
        func = bound
    if not isinstance(func, ast.Call):
        return None
    inner = func.func
    if bound_arguments(module, func):
        return func.args[0] if func.args else None  # functools.partial(f, ...), ops.partial
    if isinstance(inner, ast.Call) and _is_mindspore(module, inner.func, GRAD_OPERATION):
        return func.args[0] if func.args else None  # ops.GradOperation(...)(f)
    if not any(_is_mindspore(module, inner, name) for name in TRANSFORMS):
        return None
    if func.args:
        return func.args[0]
    for kw in func.keywords:
        if kw.arg in ("fn", "func"):
            return kw.value
    return None


def member(func: ast.expr) -> Optional[str]:
    """`attr.method` for `self.attr.method`."""
    if not isinstance(func, ast.Attribute):
        return None
    holder = func.value
    if (
        isinstance(holder, ast.Attribute)
        and isinstance(holder.value, ast.Name)
        and holder.value.id == "self"
    ):
        return f"{holder.attr}.{func.attr}"
    return None


def instance_method(
    module: ModuleInfo, func: ast.expr, bindings: dict[str, ast.expr]
) -> Optional[tuple[str, str]]:
    """(class dotted name, method) for `Cls(...).method` or `obj.method` with `obj = Cls(...)`
    bound once, where `Cls` is not MindSpore's."""
    if not isinstance(func, ast.Attribute):
        return None
    made = func.value
    if isinstance(made, ast.Name):
        made = bindings.get(made.id)  # type: ignore[assignment]
    if not isinstance(made, ast.Call) or not isinstance(made.func, (ast.Name, ast.Attribute)):
        return None
    qualname = module.qualname(made.func)
    if qualname is None or qualname.startswith("mindspore.") or "." not in qualname:
        return None
    if not qualname.rsplit(".", 1)[-1][:1].isupper():
        return None  # a factory function's result: its class is not known
    return qualname, func.attr


def _is_mindspore(module: ModuleInfo, func: ast.expr, last: str) -> bool:
    if not isinstance(func, (ast.Name, ast.Attribute)):
        return False
    qualname = module.qualname(func)
    return (
        qualname is not None
        and qualname.startswith("mindspore.")
        and qualname.rsplit(".", 1)[-1] == last
    )


def getattr_names(func: ast.expr, bindings: Bindings) -> list[str]:
    """The method names `getattr(self, "name")` (or `getattr(self, n)` with `n` looping over
    literal strs) gives: graph mode resolves the constant name and compiles that method."""
    if not (
        isinstance(func, ast.Call)
        and isinstance(func.func, ast.Name)
        and func.func.id == "getattr"
        and len(func.args) == 2
        and isinstance(func.args[0], ast.Name)
        and func.args[0].id == "self"
    ):
        return []
    name = func.args[1]
    if isinstance(name, ast.Name) and name.id in bindings.looped:
        items = bindings.looped[name.id][1]
    else:
        items = [name]
    found = [i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)]
    return found if len(found) == len(items) else []


def item_of(display: ast.expr, key: str) -> Optional[ast.expr]:
    """The value a dict display gives `key` (the last one written, as Python keeps)."""
    if not isinstance(display, ast.Dict):
        return None
    found: Optional[ast.expr] = None
    for k, v in zip(display.keys, display.values):
        if isinstance(k, ast.Constant) and k.value == key:
            found = v
    return found


def dict_item(expr: ast.expr, owner: ClassInfo, module: ModuleInfo) -> Optional[ast.expr]:
    """`ACTS["gelu"]` of a module-level dict display, `self.table["a"]` of one the class holds."""
    if not (isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Constant)):
        return None
    key = expr.slice.value
    if not isinstance(key, str):
        return None
    holder = names.self_attribute(expr.value)
    if holder is not None:
        held = owner.attr(holder)
        node = held.node if held is not None else None
        return item_of(node, key) if isinstance(node, ast.expr) else None
    if isinstance(expr.value, ast.Name):
        binding = global_binding(module, expr.value.id)
        return item_of(binding.value, key) if binding is not None else None
    return None


def init_argument(module: ModuleInfo, cls: ast.ClassDef, param: str) -> Optional[ast.expr]:
    """What `__init__`'s parameter `param` holds when every construction `Cls(...)` in the module
    gives it the same name or constant (what it passes, else the default); with no
    construction in the module, the default."""
    init = next(
        (s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None
    )
    if init is None or module.tree is None:
        return None
    default = init_default(init, param)
    positional = [a.arg for a in [*init.args.posonlyargs, *init.args.args]][1:]
    given: list[Optional[ast.expr]] = []
    for call in of_type(module.tree, ast.Call):
        if not (isinstance(call.func, ast.Name) and call.func.id == cls.name):
            continue
        value = next((k.value for k in call.keywords if k.arg == param), None)
        if value is None and param in positional and positional.index(param) < len(call.args):
            value = call.args[positional.index(param)]
        given.append(value if value is not None else default)
    if not given:
        given = [default]
    first = given[0]
    if first is None or not isinstance(first, (ast.Name, ast.Constant)):
        return None
    text = ast.unparse(first)
    return first if all(v is not None and ast.unparse(v) == text for v in given) else None


def bound_arguments(module: ModuleInfo, made: ast.expr) -> bool:
    """`functools.partial(f, ...)` / `ops.partial(f, ...)`: a call of the result compiles `f`
    with leading arguments bound (measured: a `del` in `f` fails the graph), so the call's own
    arguments do not line up with `f`'s parameters."""
    if not isinstance(made, ast.Call) or not isinstance(made.func, (ast.Name, ast.Attribute)):
        return False
    qualname = module.qualname(made.func)
    return qualname == "functools.partial" or (
        qualname is not None
        and qualname.startswith("mindspore.")
        and qualname.rsplit(".", 1)[-1] == "partial"
    )


def class_level_function(cls: ast.ClassDef, name: str) -> Optional[str]:
    """The module function a class body binds to `name`: `act = helper`,
    `act = staticmethod(helper)` (called as `self.act(x)` or `Net.act(x)`: measured, compiled)."""
    found: Optional[str] = None
    for stmt in cls.body:
        if not (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and stmt.targets[0].id == name
        ):
            continue
        value = stmt.value
        if (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Name)
            and value.func.id == "staticmethod"
            and len(value.args) == 1
        ):
            value = value.args[0]
        found = value.id if isinstance(value, ast.Name) else None
    return found


def is_property(method: FunctionNode) -> bool:
    """A getter: decorated with `@property` (or `functools.cached_property`)."""
    return any(
        (isinstance(d, ast.Name) and d.id in ("property", "cached_property"))
        or (isinstance(d, ast.Attribute) and d.attr == "cached_property")
        for d in method.decorator_list
    )
