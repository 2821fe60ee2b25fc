"""MS330: a compiled function decorated with a user decorator built on `functools.wraps`.

Measured with MindSpore 2.10 on CPU, at LAX and STRICT alike: graph mode parses a function
through `inspect.unwrap` (`graph/_parse/parser.py`, `Parser.__init__`; a Cell's `construct` too,
`get_original_cell_construct`), so a wrapper that `functools.wraps(fn)` (or
`functools.update_wrapper(wrapper, fn)`) marked with `__wrapped__` is skipped and the original
body compiled instead. A decorator that adds 1 to the result gave 3 in PyNative and 2 in graph
mode, with no error: on a helper construct calls, on a Cell method (`self.head(x)`), on
`construct` itself, through a decorator factory (`@scaled(3.0)`) and through `update_wrapper`.
The same decorator without `wraps` compiles the wrapper (PyNative and graph mode agree), and a
pass-through wrapper (`return fn(*args, **kwargs)`) changes nothing. Left alone: `@jit` roots
(PyNative compiles them too, so both modes skip the wrapper), decorators not defined in the
module (their wrapper is not seen), and wrappers whose every return forwards the call unchanged.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional, Union

from ..index.module import ModuleInfo
from ..model import Group, RawFinding
from ..rule import Rule
from . import statements
from .helpers import names
from .helpers.base import FunctionContext
from .helpers.walk import of_type

WRAPPER_SKIPPED = Rule(
    "MS330",
    "wraps-decorator-skipped",
    Group.DIVERGES,
    title="A compiled function decorated with a `functools.wraps` wrapper that changes its values",
    message=(
        "`@{decorator}` wraps `{name}` with `functools.{how}`, and graph mode compiles the "
        "unwrapped `{name}` (it follows `__wrapped__`), so what the wrapper `{wrapper}` adds is "
        "skipped while PyNative runs it; drop `functools.wraps` from the wrapper or do its work "
        "inside `{name}`."
    ),
    why=(
        "MindSpore parses a compiled function through `inspect.unwrap`: a wrapper marked by "
        "`functools.wraps` (or `update_wrapper`) is replaced by the function it wraps."
    ),
    remedy=(
        "Do the wrapper's work in the function itself, or build the wrapper without "
        "`functools.wraps` (graph mode then compiles the wrapper)."
    ),
    mindspore_says="(no error: the graph computes x * 2 where PyNative computes x * 2 + 1)",
)

FunctionNode = Union[ast.FunctionDef, ast.AsyncFunctionDef]
_WRAPS = ("functools.wraps", "functools.update_wrapper")
# `@jit` roots: PyNative compiles them as well, so both modes skip the wrapper alike.
_JIT_REASONS = ("decorated with @jit", "wrapped by ms.jit(...)")


def compiled_by_jit(ctx: FunctionContext) -> bool:
    """A `@jit` root, or a function its module's `@jit` function calls: PyNative compiles those
    too, so comparing the two modes shows no difference."""
    if ctx.fn.reason in _JIT_REASONS:
        return True
    caller = ctx.fn.caller
    if caller is None or not caller.description.startswith("called from compiled "):
        return False
    name = caller.description.removeprefix("called from compiled ")
    module = ctx.fn.module
    fn = module.functions.get(name)
    return fn is not None and any(names.is_jit(module, d) for d in fn.decorator_list)


def _decorator_function(module: ModuleInfo, deco: ast.expr) -> Optional[FunctionNode]:
    """The module's function a decorator expression names: `@deco` or a factory `@deco(k)`
    (then the function that factory returns)."""
    target = deco.func if isinstance(deco, ast.Call) else deco
    if not isinstance(target, ast.Name) or target.id not in module.functions:
        return None
    fn = module.functions[target.id]
    if not isinstance(deco, ast.Call):
        return fn
    inner = _returned_function(fn)
    return inner


def _returned_function(fn: FunctionNode) -> Optional[FunctionNode]:
    """The nested def `fn` returns by name (a decorator's wrapper, a factory's decorator)."""
    defs = {s.name: s for s in fn.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
    for stmt in fn.body:
        if isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.Name):
            return defs.get(stmt.value.id)
    return None


def _is_wraps(module: ModuleInfo, expr: ast.expr) -> bool:
    func = expr.func if isinstance(expr, ast.Call) else expr
    return module.qualname(func) in _WRAPS


def _wraps_marked(module: ModuleInfo, deco: FunctionNode, wrapper: FunctionNode) -> str:
    """How `wrapper` gets `__wrapped__`: `wraps` (decorated with `wraps(...)`),
    `update_wrapper` (passed to `update_wrapper(wrapper, ...)` in the decorator's body) or ""."""
    if any(isinstance(d, ast.Call) and _is_wraps(module, d) for d in wrapper.decorator_list):
        return "wraps"
    for stmt in deco.body:
        call = stmt.value if isinstance(stmt, (ast.Expr, ast.Assign, ast.Return)) else None
        if (
            isinstance(call, ast.Call)
            and _is_wraps(module, call)
            and call.args
            and isinstance(call.args[0], ast.Name)
            and call.args[0].id == wrapper.name
        ):
            return "update_wrapper"
    return ""


def _forwards(call: ast.expr, wrapped: str, wrapper: FunctionNode) -> bool:
    """`call` is `wrapped(<the wrapper's own parameters, unchanged>)`."""
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)):
        return False
    if call.func.id != wrapped:
        return False
    params = {a.arg for a in wrapper.args.posonlyargs + wrapper.args.args + wrapper.args.kwonlyargs}
    if wrapper.args.vararg:
        params.add(wrapper.args.vararg.arg)
    if wrapper.args.kwarg:
        params.add(wrapper.args.kwarg.arg)
    args = [a.value if isinstance(a, ast.Starred) else a for a in call.args]
    args += [k.value for k in call.keywords]
    return all(isinstance(a, ast.Name) and a.id in params for a in args)


def _changes_values(wrapper: FunctionNode, wrapped: str) -> bool:
    """Some return of the wrapper gives more or other than the forwarded call's result."""
    forwarded: set[str] = set()
    changed = False
    returns = 0
    for node in ast.walk(wrapper):
        if isinstance(node, ast.Assign) and _forwards(node.value, wrapped, wrapper):
            forwarded.update(t.id for t in node.targets if isinstance(t, ast.Name))
    for node in ast.walk(wrapper):
        if isinstance(node, ast.Return):
            returns += 1
            value = node.value
            plain = value is not None and (
                _forwards(value, wrapped, wrapper)
                or (isinstance(value, ast.Name) and value.id in forwarded)
            )
            changed = changed or not plain
    return returns > 0 and changed


def _wrapped_name(deco: FunctionNode) -> Optional[str]:
    args = deco.args.posonlyargs + deco.args.args
    return args[0].arg if len(args) == 1 else None


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    node = ctx.fn.node
    if not node.decorator_list or compiled_by_jit(ctx):
        return
    module = ctx.fn.module
    for deco in node.decorator_list:
        outer = _decorator_function(module, deco)
        if outer is None:
            continue
        wrapped = _wrapped_name(outer)
        wrapper = _returned_function(outer)
        if wrapped is None or wrapper is None:
            continue
        how = _wraps_marked(module, outer, wrapper)
        if how and _changes_values(wrapper, wrapped):
            yield WRAPPER_SKIPPED.finding(
                deco, decorator=ast.unparse(deco), name=node.name, wrapper=wrapper.name, how=how
            )


# ---- MS104 (widened): a decorator's wrapper with `nonlocal`


def check_nonlocal_wrapper(ctx: FunctionContext) -> Iterator[RawFinding]:
    """A call in compiled code of a function (a module function, or a method through `self`)
    decorated with the module's own decorator whose wrapper, not marked by `functools.wraps`,
    declares `nonlocal` (a call counter): graph mode compiles the wrapper (measured on 2.10,
    "Unsupported statement 'Nonlocal'", naming the call in `construct`). With `wraps` graph mode
    compiles the wrapped function instead (MS330), and a wrapper keeping its state in a dict
    (`cache[n] = fn(n)`) compiles."""
    module = ctx.fn.module
    if not module.mentions("nonlocal"):
        return
    cls = ctx.fn.cls
    for call in ctx.of(ast.Call):
        func = call.func
        target: Optional[FunctionNode] = None
        if isinstance(func, ast.Name) and func.id in module.functions:
            target = module.functions[func.id]
        elif cls is not None and names.self_attribute(func) is not None:
            found = cls.find_method(func.attr)  # type: ignore[attr-defined]
            target = found[1] if found is not None else None
        if target is None or not target.decorator_list:
            continue
        for deco in target.decorator_list:
            outer = _decorator_function(module, deco)
            wrapper = _returned_function(outer) if outer is not None else None
            if outer is None or wrapper is None or _wraps_marked(module, outer, wrapper):
                continue
            if of_type(wrapper, ast.Nonlocal):
                yield statements.NONLOCAL_IN_GRAPH.finding(call)
                break


# ---- MS1051

METHOD_WRAPPER_DROPS_SELF = Rule(
    "MS1051",
    "method-wrapper-without-self",
    Group.FAILS,
    title="A method of a class decorated with a wrapper whose first parameter is not `self`",
    message=(
        "`@{decorator}` replaces the method `{name}` with `{wrapper}({params})`, and graph mode "
        "passes the instance only to a method whose first parameter is named `self`, so "
        "`{name}` is called without it and fails at every level; name the wrapper's first "
        "parameter `self` (`def {wrapper}(self, *args)`) or mark it with `functools.wraps`."
    ),
    why=(
        "Graph mode binds `self` to a method it compiles only through a first parameter named "
        "`self`; a wrapper taking `*args` (or `obj, *args`) receives the call's own arguments, "
        "and the wrapped method then misses one."
    ),
    remedy=(
        "Write the wrapper as `def wrapper(self, *args, **kwargs): return fn(self, *args, "
        "**kwargs)`, or decorate it with `functools.wraps(fn)` (graph mode then compiles the "
        "method itself)."
    ),
    mindspore_says=(
        "TypeError: The parameters number of the function is 2, but the number of provided "
        "arguments is 1."
    ),
)


def _called_through_class(module: ModuleInfo, cls_name: str, name: str) -> bool:
    """`Net.helper(self, x)`: the instance is passed explicitly (measured to compile)."""
    tree = module.tree
    if tree is None:
        return False
    return any(
        isinstance(c.func, ast.Attribute)
        and c.func.attr == name
        and isinstance(c.func.value, ast.Name)
        and c.func.value.id == cls_name
        for c in of_type(tree, ast.Call)
    )


def _returned_lambda(fn: FunctionNode) -> Optional[ast.Lambda]:
    for stmt in fn.body:
        if isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.Lambda):
            return stmt.value
    return None


def check_method_wrapper(ctx: FunctionContext) -> Iterator[RawFinding]:
    """MS1051, measured with MindSpore 2.10 on CPU, LAX and STRICT alike: a method of a Cell
    (or of a `@jit_class`, or a sub-Cell's method, or `construct` itself) decorated with a
    module decorator whose wrapper is `def wrapper(*args)` / `(*args, **kwargs)` /
    `(obj, *args)` and forwards `fn(*args)` fails ("The parameters number of the function is
    2, but the number of provided arguments is 1"; with keywords "Miss argument input for
    parameter:a"), MindSpore naming the decorator line and the call. A decorator factory
    (`@scale_by(3)`) alike. Compile: a wrapper whose first parameter is `self` (`(self, a)`,
    `(self, *args)`), a wrapper marked with `functools.wraps` / `update_wrapper` (graph mode
    unwraps it), the same decorator on a module function or under `@staticmethod`, and the
    method called as `Net.helper(self, x)`."""
    node = ctx.fn.node
    cls = ctx.fn.cls
    if cls is None or not node.decorator_list or compiled_by_jit(ctx):
        return
    module = ctx.fn.module
    if any(
        isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod")
        for d in node.decorator_list
    ):
        return
    if _called_through_class(module, cls.name, node.name):
        return
    # the decorator applied last (the top one) makes the function the class holds
    deco = node.decorator_list[0]
    outer = _decorator_function(module, deco)
    if outer is None:
        return
    wrapped = _wrapped_name(outer)
    named = _returned_function(outer)
    if named is not None and _wraps_marked(module, outer, named):
        return
    # or `return lambda *args: fn(*args)` (measured alike)
    wrapper: Optional[Union[FunctionNode, ast.Lambda]] = named or _returned_lambda(outer)
    if wrapped is None or wrapper is None:
        return
    args = wrapper.args
    positional = args.posonlyargs + args.args
    if positional and positional[0].arg == "self":
        return
    if not positional and args.vararg is None:
        return  # takes nothing: PyNative fails as well
    params = ", ".join(
        [a.arg for a in positional]
        + ([f"*{args.vararg.arg}"] if args.vararg else [])
        + ([f"**{args.kwarg.arg}"] if args.kwarg else [])
    )
    text = ast.unparse(deco)
    label = wrapper.name if not isinstance(wrapper, ast.Lambda) else "lambda"
    yield METHOD_WRAPPER_DROPS_SELF.finding(
        deco, decorator=text, name=node.name, wrapper=label, params=params
    )
    if node.name == "construct":
        # the Cell called from Python: MindSpore names the wrapper's call of `fn` instead
        call = next(
            (
                c
                for c in of_type(wrapper, ast.Call)
                if isinstance(c.func, ast.Name) and c.func.id == wrapped
            ),
            None,
        )
        if call is not None:
            yield METHOD_WRAPPER_DROPS_SELF.finding(
                call, decorator=text, name=node.name, wrapper=label, params=params
            )


# ---- MS353

NESTED_DECORATOR_IGNORED = Rule(
    "MS353",
    "nested-def-decorator-ignored",
    Group.DIVERGES,
    title="A decorator on a function defined inside compiled code",
    message=(
        "graph mode ignores `@{decorator}` on `{name}`, defined inside compiled code: calling "
        "`{name}` runs its own body without the wrapper `{wrapper}`, which PyNative runs; call "
        "the wrapper explicitly (`{name} = {call}({name})`) or do its work inside `{name}`."
    ),
    why=(
        "Graph mode compiles a `def` nested in compiled code from its body alone and drops its "
        "decorator list, so what a decorator's wrapper adds is skipped."
    ),
    remedy=(
        "Apply the decorator as a call (`g = deco(g)`, which graph mode compiles), or move the "
        "decorated function out of compiled code."
    ),
    mindspore_says="(no error: the graph computes x + 1 where PyNative computes (x + 1) * 3)",
)


def _local_decorator(
    module: ModuleInfo, scope: FunctionNode, deco: ast.expr
) -> Optional[FunctionNode]:
    """The function a nested def's decorator names: a def of the same enclosing function or
    of the module (`@deco`), or what a factory returns (`@scaled(3)`)."""
    target = deco.func if isinstance(deco, ast.Call) else deco
    if not isinstance(target, ast.Name):
        return None
    defs: list[FunctionNode] = of_type(scope, ast.FunctionDef, ast.AsyncFunctionDef)
    local = {s.name: s for s in defs if s is not scope}
    fn = local.get(target.id)
    if fn is None:
        return _decorator_function(module, deco)
    return _returned_function(fn) if isinstance(deco, ast.Call) else fn


def check_nested(ctx: FunctionContext) -> Iterator[RawFinding]:
    """MS353, measured with MindSpore 2.10 on CPU, LAX and STRICT alike: a `def` nested in
    `construct` (or a helper it calls) under `@deco`, where `deco` (a nested or module-level
    function, with or without `functools.wraps`, or a factory `@scaled(3)`) returns a wrapper
    multiplying the result by 3, gave 2 in graph mode and 6 in PyNative: the decorator is not
    applied. Compile alike: the same decorator applied as a call (`h = deco(g)`), a pass-through
    decorator (`return fn`) or wrapper (`return fn(t)`), `@functools.lru_cache`, a decorated
    def never called, and a `@jit` function (PyNative compiles it too)."""
    fn = ctx.fn.node
    if compiled_by_jit(ctx):
        return
    defs: list[FunctionNode] = ctx.of(ast.FunctionDef, ast.AsyncFunctionDef)
    nested = [inner for inner in defs if inner is not fn and inner.decorator_list]
    if not nested:
        return
    module = ctx.fn.module
    called = {c.func.id for c in ctx.of(ast.Call) if isinstance(c.func, ast.Name)}
    for inner in nested:
        if inner.name not in called:
            continue
        for deco in inner.decorator_list:
            outer = _local_decorator(module, fn, deco)
            if outer is None:
                continue
            wrapped = _wrapped_name(outer)
            wrapper = _returned_function(outer)
            if wrapped is None or wrapper is None or not _changes_values(wrapper, wrapped):
                continue
            yield NESTED_DECORATOR_IGNORED.finding(
                deco,
                decorator=ast.unparse(deco),
                name=inner.name,
                wrapper=wrapper.name,
                call=ast.unparse(deco),
            )
            break
