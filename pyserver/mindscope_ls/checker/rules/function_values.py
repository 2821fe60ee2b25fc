"""MS1042, MS1043, MS1074-MS1077, MS272, MS388, MS389: functions held as values in compiled
code (lambdas sharing a line, callable(), recursive lambdas, functions stored on `self`,
lambdas in `for` bodies, cache wrappers, partials built in loops).

Measured with MindSpore 2.10 on CPU, at LAX and STRICT alike; each program runs in PyNative.

- MS1042: graph mode compiles a lambda defined outside compiled code (a Cell attribute set in
  `__init__`, a module-level name) from its source: `inspect.getsourcelines(fn)` gives the
  whole statement the lambda starts on, and the parser wants that statement's value to be the
  lambda itself. `self.f = lambda t: t * 2`, `self.f = (lambda t: t * 2)`, an annotated
  assignment, `ACT = lambda t: ...` and a lambda first bound to its own name (`a = lambda ...;
  self.fs = {'a': a}`) compile. A lambda inside a dict, list or tuple display, a conditional
  expression (`fn if fn is not None else (lambda t: t)`), an `or`, or one of a tuple assignment
  fails when compiled code calls it ("Parse Lambda Function Fail. Node type must be Lambda, but
  got Dict" / List / Tuple / IfExp / BoolOp), and a display spread over several lines fails
  with "SyntaxError: illegal target for annotation". MindSpore names the compiled line that
  calls the lambda (`self.fs['a'](x)`, `for f in self.fs:`). Left alone: lambdas inside calls
  (`functools.partial(lambda ...)`, `sorted(key=lambda ...)`, which compiled), attributes
  compiled code never calls, and lambdas passed as constructor arguments.
- MS1043: `callable(v)` is not translated by graph mode: it runs in Python through the LAX
  fallback, which finds module names and the Cell's attributes but not the compiled function's
  own locals holding a function. `callable(f)` of a nested `def`, a local lambda, a local bound
  to `ops.relu`, `self.helper` or a sub-Cell fails at both levels ("NameError: name 'f' is not
  defined", no line named); `callable(self.act)`, `callable(scale)` of a module function and
  `callable(x)` of a Tensor parameter or an int local compile.
- MS354 (a warning: no error, other values): a `@constexpr` (`ops.constexpr`) function called
  from `construct` with the Cell's Tensor input (or a Tensor computed from it) is run when the
  graph compiles, without the Tensor's value: `twice(x)` (`return v * 2`) gave zeros where
  PyNative gave `x * 2`, `v + 1` gave 1, `v.sum()` gave 0. Compile alike: constexpr of
  `x.shape`, of a shape item, of a Tensor attribute set in `__init__` (a constant), and a call
  from an `@jit` function (PyNative compiles it too).
- MS207 (widened, STRICT only): a `functools.partial(...)` kept as a Cell attribute in
  `__init__` and called from `construct` with a Tensor input (`self.f(x)` for
  `partial(ops.mul, 2)`, `partial(ops.sum, dim=1)`, `partial(scale, s=2)`) is called through
  the Python fallback, which STRICT refuses ("the inputs should be constant, but found variable
  '__input_0__'"); LAX runs it, and a partial built inside `construct` compiles at both.
  Likewise a module-level `DOUBLE = functools.partial(ops.mul, 2)` (or `partial(scale, k=2)`)
  called from `construct` with its Tensor input (measured, round 31); `DOUBLE(3)` of a number
  compiles under STRICT. Round 34: `ops.partial(...)` kept the same ways fails alike, and so
  does a stored partial given to HyperMap as its function (`self.hm(self.p, (x, x))`); an
  `ops.partial(f, 2.0)` built in `construct` and given to HyperMap compiles.
- MS1074 (round 34): a local lambda calling itself by the name it is bound to
  (`fact = lambda n: ... fact(n - 1)`) fails at both levels, called or not ("NameError: The
  name 'fact' is not defined"); a nested `def` that recurses, a module-level recursive lambda
  and a lambda calling another local lambda compile.
- MS1075 (round 34): `self.fn = <function>` (a lambda, nested def, module function, `ops.relu`,
  `self.method`) in a Cell's compiled code followed by `self.fn(...)` fails at LAX ("TypeError:
  'int' object is not callable"); STRICT fails on the store (MS245 / MS202). The store alone,
  numbers stored and read back and local function aliases compile at LAX.
- MS272 (round 34, STRICT only): a module function decorated `@functools.lru_cache` /
  `@functools.cache` (or `self.f = functools.lru_cache()(g)`) called from a Cell's compiled
  code with a Tensor computed in the graph fails ("the inputs should be constant"); given a
  shape item, a str or an int it compiles, and so does an lru_cache-decorated Cell method.
  (Measured: an `@ms.jit` function calling the same cached helper compiled under STRICT, so
  the rule keeps to Cells.)
- MS388 / MS1076 / MS1077 (round 34): a lambda in a `for` body drops the function's return
  (see the section below); MS389: `functools.partial(f, s=s)` built in a `for` body binds the
  loop's last value.
- MS121 (widened): `kw.pop('s', 1)` of the function's own `**kw` fails under STRICT when the
  callers pass `s=` (the graph's dict has no `pop`; an empty `**kw` compiles), and at LAX
  when `v = kw.pop(...)` pops a number (the callers pass `s=2`, or never pass `s` and the
  default is a number: "For 'TupleGetItem',
  input[0] should be Sequence, but got Int64"); a popped Tensor compiles at LAX, and
  `kw.get('s', 1)`, `kw['t'] = 3` and `kw.update(...)` compile at both levels.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from functools import partial
from typing import Optional

from ..incremental.memo import NodeMemo
from ..index.module import FunctionNode, ModuleInfo
from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from . import composite_graphs, objects, returns, stdlib_calls
from .calls_shared import builtin, local_names
from .decorated_helpers import compiled_by_jit
from .helpers import module_values, names, shared_values
from .helpers.base import FunctionContext
from .helpers.instances import init_argument_values
from .helpers.walk import of_type

LAMBDA_NOT_ALONE = Rule(
    "MS1042",
    "lambda-not-alone",
    Group.FAILS,
    title="Compiled code calls a lambda written inside a larger expression",
    message=(
        "`{target}` holds a lambda written inside a {container} (line {line}); graph mode "
        "compiles a lambda from the statement it starts on and fails when that statement's "
        "value is not the lambda itself; assign each lambda to its own name first "
        "(`fn = lambda ...`) or use a `def`."
    ),
    why=(
        "MindSpore reads a lambda's source with `inspect.getsourcelines`, which gives the whole "
        "statement; the parser then expects that statement's value to be a `lambda` node, and "
        "a dict, list, tuple, conditional or `or` around it is rejected."
    ),
    remedy=(
        "Bind each lambda on its own line (`double = lambda t: t * 2`) and put the names in the "
        "container, or define the functions with `def`."
    ),
    mindspore_says=(
        "TypeError: Parse Lambda Function Fail. Node type must be Lambda, but got Dict. Please "
        "check lambda expression to make sure it is defined on a separate line."
    ),
)

CALLABLE_OF_LOCAL = Rule(
    "MS1043",
    "callable-of-local-function",
    Group.FAILS,
    title="`callable()` of a local name holding a function in compiled code",
    message=(
        "`callable({name})` runs in Python outside the graph, where the local `{name}` (a "
        "{what}) is not defined, and it fails at every level; call `{name}` directly, or test "
        "a Cell attribute or a module name instead."
    ),
    why=(
        "Graph mode has no translation of `callable`; the call is evaluated by the Python "
        "fallback, which sees module names and the Cell's attributes but not the compiled "
        "function's locals that hold functions, lambdas, methods or Cells."
    ),
    remedy="Drop the test (the value is known when the code is written) or test `self.<attr>`.",
    mindspore_says="NameError: name 'f' is not defined",
)

CACHED_FUNCTION_UNDER_STRICT = Rule(
    "MS272",
    "cached-function-on-graph-value-under-strict",
    Group.STRICT,
    title="A `functools.lru_cache` / `functools.cache` function given a Tensor, under STRICT",
    message=(
        "`{func}` is wrapped by a `functools` cache, which graph mode calls through its Python "
        "fallback, and STRICT allows that only on constants while `{arg}` is computed in the "
        "graph; drop the cache decorator (or use LAX)."
    ),
    why=(
        "A cache wrapper is not a Python function graph mode can parse: it is called through "
        "the Python fallback, which STRICT refuses for values computed in the graph."
    ),
    remedy="Remove `@functools.lru_cache` / `@functools.cache` from functions compiled code calls.",
    mindspore_says=(
        "ValueError: When handling script '__call_func_str__(__input_0__,) in graph mode', the "
        "inputs should be constant, but found variable '__input_0__' to be nonconstant."
    ),
)

RECURSIVE_LAMBDA = Rule(
    "MS1074",
    "recursive-lambda",
    Group.FAILS,
    title="A lambda that calls itself through the local name it is bound to",
    message=(
        "The lambda bound to `{name}` calls `{name}`, which graph mode does not see from inside "
        "the lambda; write it as a nested `def {name}(...)`, which may call itself."
    ),
    why=(
        "Graph mode parses a lambda as its own function whose free names are looked up in the "
        "enclosing function before the assignment binds the lambda, so the lambda's own name "
        "is not defined inside it."
    ),
    remedy="Use a nested `def` (it may recurse) or compute the value outside compiled code.",
    mindspore_says=("NameError: The name 'fact' is not defined, or not supported in graph mode."),
)

FUNCTION_STORED_ON_SELF = Rule(
    "MS1075",
    "function-stored-on-self",
    Group.FAILS,
    title="Compiled code stores a function on `self` and then calls it",
    message=(
        "`self.{attr} = {value}` stores {what} on the Cell in compiled code, and graph mode "
        "cannot call it back through `self.{attr}`; call the function directly or set "
        "`self.{attr}` in `__init__`."
    ),
    why=(
        "An attribute written in compiled code holds a graph value; a function is not one, so "
        "the later `self.attr(...)` reads a placeholder that cannot be called."
    ),
    remedy="Call the function itself (keep it in a local), or choose it in `__init__`.",
    mindspore_says="TypeError: 'int' object is not callable",
)

LAMBDA_IN_LOOP_RETURNS_NONE = Rule(
    "MS388",
    "lambda-in-for-body-returns-none",
    Group.DIVERGES,
    title="A lambda written inside a `for` loop's body makes the graph return None",
    message=(
        "A lambda inside this `for` body makes graph mode drop `{name}`'s return value (the "
        "graph gives None); define the lambda before the loop or use a nested `def`."
    ),
    why=(
        "MindSpore 2.10 builds a `for` body holding a lambda so that the function's own "
        "`return` is lost: the compiled function hands back None while PyNative returns the "
        "computed value."
    ),
    remedy="Bind the lambda once before the loop, or write a nested `def` instead.",
    mindspore_says="(no error: the Cell returns None)",
)

LAMBDA_IN_LOOP_RESULT_USED = Rule(
    "MS1076",
    "lambda-in-for-body-result-used",
    Group.FAILS,
    title="A helper whose `for` body holds a lambda, its result used in compiled code",
    message=(
        "`{name}` writes a lambda inside a `for` body, so graph mode makes it return None, "
        "and this call's result is computed with; define the lambda before the loop or use a "
        "nested `def`."
    ),
    why=(
        "MindSpore 2.10 loses the `return` of a function whose `for` body holds a lambda (it "
        "gives None); arithmetic on that None fails (LAX when it runs, STRICT when compiling)."
    ),
    remedy="Bind the lambda once before the loop, or write a nested `def` instead.",
    mindspore_says=(
        "TypeError: unsupported operand type(s) for *: 'NoneType' and 'float' (STRICT: "
        "ValueError: When handling script '__input_key_0__ * __input_key_1__ in graph mode', "
        "the inputs should be constant)"
    ),
)

LAMBDA_IN_LOOP_BRANCH = Rule(
    "MS1077",
    "lambda-in-for-body-branch",
    Group.FAILS,
    title="A lambda inside an `if` in a `for` loop's body",
    message=(
        "A lambda inside an `if` in a `for` body fails to compile in graph mode; define it "
        "before the loop or use a nested `def`."
    ),
    why=(
        "MindSpore 2.10 builds a `for` body holding a lambda without the function's `return`; "
        "inside an `if` branch the graph it builds is refused."
    ),
    remedy="Bind the lambda once before the loop, or write a nested `def` instead.",
    mindspore_says="RuntimeError: Failure: have return node!",
)

PARTIAL_KEYWORD_IN_LOOP = Rule(
    "MS389",
    "partial-keyword-of-loop-variable",
    Group.DIVERGES,
    title="`functools.partial(f, k=v)` built in a `for` body with the loop's variable",
    message=(
        "`functools.partial(..., {keyword}={value})` built in this `for` body binds the loop's "
        "last value in graph mode, not this iteration's; pass `{keyword}=` at the call instead."
    ),
    why=(
        "Graph mode resolves a partial's keyword arguments when the loop is compiled, so every "
        "iteration's partial sees the same (last) value of the loop variable."
    ),
    remedy="Call the function directly with the keyword (`f(x, s=s)`), or bind it positionally.",
    mindspore_says="(no error: a different value)",
)

CONSTEXPR_OF_TENSOR = Rule(
    "MS354",
    "constexpr-of-tensor-input",
    Group.DIVERGES,
    title="A `@constexpr` function called with a Tensor computed in the graph",
    message=(
        "`{name}` is a `@constexpr` function: graph mode runs it when it compiles, where "
        "`{arg}` has no value yet, so its result is not what PyNative computes from the "
        "Tensor; pass shapes, dtypes or numbers to `{name}`, or compute with ops instead."
    ),
    why=(
        "`@constexpr` functions are evaluated at compile time on constant inputs; a Tensor "
        "that is an input of the compiled function (or computed from one) has no value then, "
        "and the call gives a placeholder (zeros were measured) instead of Python's result."
    ),
    remedy="Give the constexpr function constants (`x.shape`, `x.dtype`) or drop `@constexpr`.",
    mindspore_says="(no error: `twice(x)` gave zeros in graph mode and `x * 2` in PyNative)",
)

_CONTAINERS = {
    ast.Dict: "dict display",
    ast.List: "list display",
    ast.Tuple: "tuple",
    ast.IfExp: "conditional expression",
    ast.BoolOp: "`and`/`or` expression",
    ast.Call: "call",
    ast.Subscript: "subscript",
}


def _embedded_lambda(value: ast.expr) -> Optional[tuple[ast.Lambda, str]]:
    """A lambda reachable from `value` only through displays, conditionals and `and`/`or`
    (not through calls), when `value` is not itself the lambda; with the outermost kind."""
    if isinstance(value, ast.Lambda):
        return None
    kind = _CONTAINERS.get(type(value))
    if kind is None:
        return None
    stack: list[ast.expr] = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Lambda):
            return node, kind
        if isinstance(node, ast.Dict):
            stack.extend(node.values)
        elif isinstance(node, (ast.List, ast.Tuple)):
            stack.extend(node.elts)
        elif isinstance(node, ast.IfExp):
            stack.extend((node.body, node.orelse))
        elif isinstance(node, ast.BoolOp):
            stack.extend(node.values)
        elif isinstance(node, ast.Subscript):  # `{"max": lambda ...}[mode]`
            stack.append(node.value)
    return None


def _pairs(stmt: ast.stmt) -> Iterator[tuple[ast.expr, ast.expr, ast.expr]]:
    """(target, value, the statement's whole value) of an assignment, tuple targets paired
    element by element."""
    if isinstance(stmt, ast.Assign):
        for target in stmt.targets:
            if (
                isinstance(target, ast.Tuple)
                and isinstance(stmt.value, ast.Tuple)
                and len(target.elts) == len(stmt.value.elts)
            ):
                for t, v in zip(target.elts, stmt.value.elts):
                    yield t, v, stmt.value
            else:
                yield target, stmt.value, stmt.value
    elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
        yield stmt.target, stmt.value, stmt.value


def _held(value: ast.expr, whole: ast.expr) -> Optional[tuple[ast.Lambda, str]]:
    if value is not whole and isinstance(value, ast.Lambda):
        return value, _CONTAINERS.get(type(whole), "larger expression")
    return _embedded_lambda(value)


def _attr_lambdas(ctx: FunctionContext) -> dict[str, tuple[ast.Lambda, str]]:
    """`self.<attr>` -> the embedded lambda an `__init__` of the class (or a base) gives it:
    assigned a display holding one, an item or `.get` of such a display (a local of
    `__init__` or a module name), `setattr(self, "attr", lambda ...)`, or a parameter whose
    lambda the module's constructor calls pass (or whose default is a lambda)."""
    found: dict[str, tuple[ast.Lambda, str]] = {}
    cls = ctx.fn.cls
    if cls is None:
        return found
    for info in cls.lineage():
        init = info.own_method("__init__")
        if init is None:
            continue
        local: dict[str, ast.expr] = {}
        for stmt in ast.walk(init):
            if (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
            ):
                local[stmt.targets[0].id] = stmt.value
        params = _init_lambdas(ctx, info.node, init)
        keys = partial(_constructed_with, ctx, info.node, init)
        for stmt in ast.walk(init):
            if isinstance(stmt, ast.Expr):
                attr_held = _setattr_lambda(stmt.value)
                if attr_held is not None and attr_held[0] not in found:
                    found[attr_held[0]] = attr_held[1]
                continue
            if not isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                continue
            for target, value, whole in _pairs(stmt):
                attr = names.self_attribute(target)
                if attr is None or attr in found:
                    continue
                held = _held(value, whole) or _picked(ctx, value, local, keys)
                if held is None and isinstance(value, ast.Name):
                    held = params.get(value.id)
                if held is not None:
                    found[attr] = held
    return found


def _picked(
    ctx: FunctionContext,
    value: ast.expr,
    local: dict[str, ast.expr],
    keys: Callable[[str], Optional[list[ast.expr]]],
) -> Optional[tuple[ast.Lambda, str]]:
    """A module name holding an embedded lambda, or the lambda an item / `.get` of a display
    picks (`acts[kind]`, `ACTS.get("a")`, `ACTS[activation]` of an `__init__` parameter whose
    values `keys` gives): see `_pick`."""
    base: Optional[ast.expr] = value
    key: Optional[ast.expr] = None
    if isinstance(value, ast.Subscript):
        base, key = value.value, value.slice
    elif (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr == "get"
        and value.args
    ):
        base, key = value.func.value, value.args[0]
    if not isinstance(base, ast.Name):
        return None
    if base is value:  # the name itself
        return None if base.id in local else _module_lambdas(ctx).get(base.id)
    if base.id in local:
        display: ast.expr = local[base.id]
    elif base.id in _module_lambdas(ctx):
        binding = module_values.global_binding(ctx.fn.module, base.id)
        if binding is None:
            return None
        display = binding.value
    else:
        return None
    if isinstance(key, ast.Name):  # every construction passes a constant key
        values = keys(key.id)
        if values and all(isinstance(v, ast.Constant) for v in values):
            helds = [_pick(display, v) for v in values]
            return helds[0] if all(h is not None for h in helds) else None
    return _pick(display, key)


def _constructed_with(
    ctx: FunctionContext, cls: ast.ClassDef, init: FunctionNode, param: str
) -> Optional[list[ast.expr]]:
    """What the module's `Cls(...)` calls (and the default) pass for `__init__`'s `param`."""
    tree = ctx.fn.module.tree
    if tree is None:
        return None
    calls = [
        c for c in of_type(tree, ast.Call) if isinstance(c.func, ast.Name) and c.func.id == cls.name
    ]
    return init_argument_values(calls, init, param, required=True) if calls else None


def _pick(display: ast.expr, key: Optional[ast.expr]) -> Optional[tuple[ast.Lambda, str]]:
    """The embedded lambda an item of a dict / list / tuple display gives: the entry a
    constant key selects, or any entry when every entry holds one. A key computed at run
    time may pick an entry that is no lambda (`ACTS[name]` of `{"gelu": ops.gelu, ...}`
    compiles for "gelu", measured), so it is reported only when all are."""
    if isinstance(display, ast.Dict):
        if any(k is None for k in display.keys):
            return None  # a `**` spread
        if isinstance(key, ast.Constant):
            entry = next(
                (
                    v
                    for k, v in zip(display.keys, display.values)
                    if isinstance(k, ast.Constant) and k.value == key.value
                ),
                None,
            )
            return _held(entry, display) if entry is not None else None
        values = display.values
    elif isinstance(display, (ast.List, ast.Tuple)):
        items = display.elts
        if isinstance(key, ast.Constant) and type(key.value) is int:
            index = key.value
            return _held(items[index], display) if -len(items) <= index < len(items) else None
        values = items
    else:
        return None
    helds = [_held(v, display) for v in values]
    return helds[0] if helds and all(h is not None for h in helds) else None


def _setattr_lambda(expr: ast.expr) -> Optional[tuple[str, tuple[ast.Lambda, str]]]:
    """`setattr(self, "f", lambda ...)`: the lambda's statement is the call."""
    if not (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id == "setattr"
        and len(expr.args) == 3
        and isinstance(expr.args[0], ast.Name)
        and expr.args[0].id == "self"
        and isinstance(expr.args[1], ast.Constant)
        and isinstance(expr.args[1].value, str)
        and isinstance(expr.args[2], ast.Lambda)
    ):
        return None
    return expr.args[1].value, (expr.args[2], "call")


def _init_lambdas(
    ctx: FunctionContext, cls: ast.ClassDef, init: ast.AST
) -> dict[str, tuple[ast.Lambda, str]]:
    """`__init__` parameters given a lambda: by a constructor call of the module written in
    the call (`Net(lambda t: ...)`, `Net(fn=lambda t: ...)`), or by a lambda default no
    constructor call overrides (its statement is the `def`)."""
    found: dict[str, tuple[ast.Lambda, str]] = {}
    tree = ctx.fn.module.tree
    if tree is None or not isinstance(init, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return found
    if init.args.vararg is not None or init.args.kwarg is not None:
        return found
    args = init.args
    positional = [a.arg for a in args.posonlyargs + args.args][1:]
    calls = [
        c for c in of_type(tree, ast.Call) if isinstance(c.func, ast.Name) and c.func.id == cls.name
    ]
    passed: set[str] = set()
    for call in calls:
        for name, arg in zip(positional, call.args):
            passed.add(name)
            if isinstance(arg, ast.Lambda):
                found.setdefault(name, (arg, "call"))
        for keyword in call.keywords:
            if keyword.arg is None:
                return {}
            passed.add(keyword.arg)
            if isinstance(keyword.value, ast.Lambda):
                found.setdefault(keyword.arg, (keyword.value, "call"))
    defaults = args.defaults
    for name, default in zip(positional[len(positional) - len(defaults) :], defaults):
        if isinstance(default, ast.Lambda) and name not in passed and calls:
            found.setdefault(name, (default, "`def` line"))
    return found


def _module_lambdas(ctx: FunctionContext) -> dict[str, tuple[ast.Lambda, str]]:
    """Module-level names bound once to a value holding an embedded lambda."""
    tree = ctx.fn.module.tree
    found: dict[str, tuple[ast.Lambda, str]] = {}
    if tree is None:
        return found
    counts: dict[str, int] = {}
    for stmt in tree.body:
        for target, value, whole in _pairs(stmt):
            if not isinstance(target, ast.Name):
                continue
            counts[target.id] = counts.get(target.id, 0) + 1
            held = _held(value, whole)
            if held is not None:
                found[target.id] = held
    return {name: held for name, held in found.items() if counts[name] == 1}


def _module_lambda(ctx: FunctionContext, value: ast.expr) -> Optional[tuple[ast.Lambda, str]]:
    if isinstance(value, ast.Name):
        return _module_lambdas(ctx).get(value.id)
    return None


def _root(expr: ast.expr) -> ast.expr:
    """`self.fs` of `self.fs['a']` / `self.fs[0]`."""
    while isinstance(expr, ast.Subscript):
        expr = expr.value
    return expr


def _holder(
    ctx: FunctionContext,
    expr: ast.expr,
    attrs: dict[str, tuple[ast.Lambda, str]],
    local: set[str],
) -> Optional[tuple[str, tuple[ast.Lambda, str]]]:
    attr = names.self_attribute(expr)
    if attr is not None and attr in attrs:
        found = f"self.{attr}", attrs[attr]
    elif isinstance(expr, ast.Name) and expr.id not in local:
        held = _module_lambdas(ctx).get(expr.id)
        if held is None:
            return None
        found = expr.id, held
    else:
        return None
    return None if _alone(ctx, found[1][0]) else found


def _check_lambdas(ctx: FunctionContext) -> Iterator[RawFinding]:
    if not ctx.fn.module.mentions("lambda"):
        return  # no lambda anywhere in the file: the common case
    fn = ctx.fn.node
    calls = ctx.of(ast.Call)
    loops = ctx.of(ast.For)
    if not calls and not loops:
        return
    attrs = _attr_lambdas(ctx)
    if not attrs and not _module_lambdas(ctx):
        return
    local = local_names(fn)
    seen: set[str] = set()
    for call in calls:
        found = _holder(ctx, _root(call.func), attrs, local)
        if found is not None and found[0] not in seen:
            seen.add(found[0])
            yield _finding(call, *found)
    for loop in loops:
        # `for f in self.fs: ... f(x)`: MindSpore names the `for` line
        if not isinstance(loop.target, ast.Name):
            continue
        name = loop.target.id
        called = any(
            isinstance(c.func, ast.Name) and c.func.id == name
            for stmt in loop.body
            for c in ast.walk(stmt)
            if isinstance(c, ast.Call)
        )
        if not called:
            continue
        found = _holder(ctx, loop.iter, attrs, local)
        if found is not None and found[0] not in seen:
            seen.add(found[0])
            yield _finding(loop.iter, *found)


_STATEMENTS = tuple(
    kind
    for kind in vars(ast).values()
    if isinstance(kind, type) and issubclass(kind, ast.stmt) and kind is not ast.stmt
)


def _alone(ctx: FunctionContext, lam: ast.Lambda) -> bool:
    """What MindSpore parses from the lambda's first line gives the lambda itself: the
    statement starting on that line has it as its value, or (on a continuation line) the line
    holds the lambda alone (`Net(\n    lambda t: t * 2\n)` compiled; `lambda t: t + 1):`
    failed, "unmatched ')'"). Unclear shapes count as alone."""
    tree = ctx.fn.module.tree
    if tree is None:
        return True
    # the outermost statement starting on the lambda's line (`a = 1; f = lambda: 0` is `a = 1`)
    starting = [s for s in of_type(tree, *_STATEMENTS) if s.lineno == lam.lineno]
    if starting:
        node = min(starting, key=lambda s: s.col_offset)
        value = getattr(node, "value", None)
        return isinstance(node, (ast.Assign, ast.AnnAssign, ast.Expr, ast.Return)) and (
            value is lam
        )
    if not 0 < lam.lineno <= len(ctx.lines):
        return True
    line = ctx.lines[lam.lineno - 1].encode("utf-8")
    if line[: lam.col_offset].decode("utf-8", "replace").strip():
        return False
    if lam.end_lineno != lam.lineno or lam.end_col_offset is None:
        return True
    return not line[lam.end_col_offset :].decode("utf-8", "replace").strip().startswith(")")


def _finding(at: ast.AST, target: str, held: tuple[ast.Lambda, str]) -> RawFinding:
    lam, container = held
    return LAMBDA_NOT_ALONE.finding(at, target=target, container=container, line=lam.lineno)


# ---- MS1043


def _function_locals(ctx: FunctionContext) -> dict[str, str]:
    """Names the compiled function binds to a function-like value: nested defs, lambdas,
    `self.<method>`, a sub-Cell attribute, a module function or a MindSpore function."""
    fn = ctx.fn.node
    found: dict[str, str] = {}
    for node in ast.walk(fn):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node is not fn:
            found[node.name] = "nested function"
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if not isinstance(target, ast.Name):
                continue
            what = _function_value(ctx, node.value)
            if what is not None:
                found[target.id] = what
    # a name also bound otherwise (a parameter, another assignment) is left alone
    params = {a.arg for a in ast.walk(fn.args) if isinstance(a, ast.arg)}
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name) and _function_value(ctx, node.value) is None:
                found.pop(target.id, None)
        elif isinstance(node, (ast.For, ast.comprehension)):
            for bound in ast.walk(node.target):
                if isinstance(bound, ast.Name):
                    found.pop(bound.id, None)
    for name in params:
        found.pop(name, None)
    return found


def _function_value(ctx: FunctionContext, value: ast.expr) -> Optional[str]:
    if isinstance(value, ast.Lambda):
        return "lambda"
    attr = names.self_attribute(value)
    cls = ctx.fn.cls
    if attr is not None and cls is not None:
        if any(info.own_method(attr) is not None for info in cls.lineage()):
            return "bound method"
        held = cls.attr(attr)
        if held is not None and held.kind == "cell":
            return "Cell"
        return None
    module = ctx.fn.module
    if isinstance(value, ast.Name) and value.id in module.functions:
        return "function"
    qualname = module.qualname(value) if isinstance(value, (ast.Name, ast.Attribute)) else None
    if qualname and qualname.startswith("mindspore.ops.") and qualname.split(".")[-1].islower():
        return "function"
    return None


def _check_callable(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls = [
        c
        for c in ctx.of(ast.Call)
        if isinstance(c.func, ast.Name)
        and c.func.id == "callable"
        and len(c.args) == 1
        and isinstance(c.args[0], ast.Name)
    ]
    if not calls or not builtin(ctx, "callable"):
        return
    held = _function_locals(ctx)
    for call in calls:
        arg = call.args[0]
        assert isinstance(arg, ast.Name)
        what = held.get(arg.id)
        if what is not None:
            yield CALLABLE_OF_LOCAL.finding(call, name=arg.id, what=what)


# ---- MS354

_CONSTEXPR = ("mindspore.ops.constexpr", "mindspore.ops.primitive.constexpr")


def _is_constexpr(ctx: FunctionContext, func: ast.expr) -> bool:
    module = ctx.fn.module
    if not isinstance(func, ast.Name):
        return False
    target = module.functions.get(func.id)
    if target is None or func.id in local_names(ctx.fn.node):
        return False
    for deco in target.decorator_list:
        expr = deco.func if isinstance(deco, ast.Call) else deco
        if isinstance(expr, (ast.Name, ast.Attribute)) and module.qualname(expr) in _CONSTEXPR:
            return True
    return False


def _check_constexpr(ctx: FunctionContext) -> Iterator[RawFinding]:
    if compiled_by_jit(ctx):  # PyNative compiles `@jit` functions too: both modes agree
        return
    for call in ctx.of(ast.Call):
        if not call.args or not _is_constexpr(ctx, call.func):
            continue
        for arg in call.args:
            if names.self_attribute(_root(arg)) is not None or ctx.types.is_constant_tensor(arg):
                continue
            if ctx.types.is_tensor(arg):
                assert isinstance(call.func, ast.Name)
                yield CONSTEXPR_OF_TENSOR.finding(call, name=call.func.id, arg=ast.unparse(arg))
                break


# ---- MS207 (widened): a `functools.partial` object kept as a Cell attribute


def _is_partial(qualname: Optional[str]) -> bool:
    """`functools.partial`, and `ops.partial` (measured, round 34: `self.p = ops.partial(f, 2.0)`
    in `__init__` of a MultitypeFuncGraph, a module function or `ops.mul`, and a module-level
    `SCALE2 = ops.partial(f, 2.0)`, called from `construct` with its Tensor input fail under
    STRICT alike: "When handling script '__call_func_str__(__input_0__,) in graph mode', the
    inputs should be constant"; `ops.partial(f, 2.0)` built in `construct` compiles)."""
    if qualname == "functools.partial":
        return True
    return bool(qualname) and qualname in OPS_PARTIAL


OPS_PARTIAL = frozenset(
    {"mindspore.ops.partial", "mindspore.ops.functional.partial", "mindspore.ops.composite.partial"}
)


def _partial_attrs(ctx: FunctionContext) -> set[str]:
    found: set[str] = set()
    cls = ctx.fn.cls
    if cls is None:
        return found
    module = ctx.fn.module
    for info in cls.lineage():
        init = info.own_method("__init__")
        if init is None:
            continue
        for stmt in ast.walk(init):
            if not isinstance(stmt, ast.Assign) or not isinstance(stmt.value, ast.Call):
                continue
            func = stmt.value.func
            if not isinstance(func, (ast.Name, ast.Attribute)):
                continue
            if not _is_partial(module.qualname(func)):
                continue
            found.update(a for a in map(names.self_attribute, stmt.targets) if a is not None)
    return found


def _module_partials(ctx: FunctionContext) -> set[str]:
    """Module-level names bound once to `functools.partial(...)` (measured: `DOUBLE =
    partial(ops.mul, 2)` or `partial(scale, k=2)` at module level, called from `construct` with
    its Tensor input, fails under STRICT; a partial built inside `construct` compiles)."""
    found: set[str] = set()
    tree = ctx.fn.module.tree
    if tree is None:
        return found
    for stmt in tree.body:
        if not (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, (ast.Name, ast.Attribute))
            and _is_partial(ctx.fn.module.qualname(stmt.value.func))
        ):
            continue
        name = stmt.targets[0].id
        if module_values.global_binding(ctx.fn.module, name) is stmt:
            found.add(name)
    return found


def _check_partials(ctx: FunctionContext) -> Iterator[RawFinding]:
    if ctx.level != SyntaxLevel.STRICT or not ctx.fn.module.mentions("partial"):
        return
    attrs = _partial_attrs(ctx)
    module_partials = _module_partials(ctx)
    if not attrs and not module_partials:
        return
    own = local_names(ctx.fn.node) if module_partials else set()
    for call in ctx.of(ast.Call):
        attr = names.self_attribute(call.func)
        func = call.func
        if isinstance(func, ast.Name) and func.id in module_partials and func.id not in own:
            attr = func.id
            label = func.id
        elif attr in attrs:
            label = f"self.{attr}"
        else:
            mapped = _mapped_partial(ctx, call, attrs)
            if mapped is not None:
                yield mapped
            continue
        for arg in [*call.args, *(k.value for k in call.keywords)]:
            if ctx.types.is_tensor(arg) and not ctx.types.is_constant_tensor(arg):
                yield stdlib_calls.STDLIB_ON_GRAPH_VALUE.finding(
                    call, func=label, arg=ast.unparse(arg)
                )
                break


def _mapped_partial(ctx: FunctionContext, call: ast.Call, attrs: set[str]) -> Optional[RawFinding]:
    """`self.hm(self.p, (x, y))`: HyperMap / Map calling the stored partial on each Tensor
    (measured, round 34: fails under STRICT like a direct call, "__call_func_str__")."""
    if not call.args or call.keywords:
        return None
    attr = names.self_attribute(call.args[0])
    if attr not in attrs:
        return None
    built = composite_graphs._constructor(ctx, call.func)
    if built is None or built.args or built.keywords:
        return None
    values = shared_values.abstract(ctx)
    for seq in call.args[1:]:
        if composite_graphs._holds_tensor(values.of(seq)):
            return stdlib_calls.STDLIB_ON_GRAPH_VALUE.finding(
                call, func=f"self.{attr}", arg=ast.unparse(seq)
            )
    return None


# ---- MS272: a function wrapped by `functools.lru_cache` / `functools.cache`

CACHE_WRAPPERS = frozenset({"functools.lru_cache", "functools.cache"})


def _cache_wrapped(module: ModuleInfo, expr: ast.expr) -> bool:
    """`functools.cache`, `lru_cache`, `functools.lru_cache(maxsize=8)`: a decorator (or the
    wrapper `functools.lru_cache()(f)` is built with) that makes a cache wrapper object."""
    if isinstance(expr, ast.Call):
        expr = expr.func
    return isinstance(expr, (ast.Name, ast.Attribute)) and module.qualname(expr) in CACHE_WRAPPERS


def _cached_functions(ctx: FunctionContext) -> set[str]:
    """Module functions decorated with a cache wrapper, not rebound elsewhere."""
    module = ctx.fn.module
    return {
        name
        for name, node in module.functions.items()
        if any(_cache_wrapped(module, d) for d in node.decorator_list)
    }


def _cached_attrs(ctx: FunctionContext) -> set[str]:
    """`self.f = functools.lru_cache()(g)` (or `functools.cache(g)`) in `__init__`."""
    found: set[str] = set()
    cls = ctx.fn.cls
    module = ctx.fn.module
    for info in cls.lineage() if cls is not None else ():
        init = info.own_method("__init__")
        for stmt in of_type(init, ast.Assign) if init is not None else ():
            value = stmt.value
            if isinstance(value, ast.Call) and value.args and _cache_wrapped(module, value.func):
                found.update(a for a in map(names.self_attribute, stmt.targets) if a is not None)
    return found


def _check_caches(ctx: FunctionContext) -> Iterator[RawFinding]:
    cls = ctx.fn.cls
    if (
        ctx.level != SyntaxLevel.STRICT
        or cls is None
        or not cls.is_cell
        or not ctx.fn.module.mentions("cache")
    ):
        return
    cached = _cached_functions(ctx)
    attrs = _cached_attrs(ctx)
    if not cached and not attrs:
        return
    own = local_names(ctx.fn.node) if cached else set()
    for call in ctx.of(ast.Call):
        func = call.func
        if isinstance(func, ast.Name) and func.id in cached and func.id not in own:
            label = func.id
        elif names.self_attribute(func) in attrs:
            label = ast.unparse(func)
        else:
            continue
        for arg in [*call.args, *(k.value for k in call.keywords)]:
            if ctx.types.is_tensor(arg) and not ctx.types.is_constant_tensor(arg):
                yield CACHED_FUNCTION_UNDER_STRICT.finding(call, func=label, arg=ast.unparse(arg))
                break


# ---- MS1074: a lambda calling itself by its local name


def _check_recursive_lambdas(ctx: FunctionContext) -> Iterator[RawFinding]:
    """`fact = lambda n: 1 if n <= 1 else n * fact(n - 1)` in compiled code, then `fact(4)`
    (measured on 2.10, construct, a helper method and an `@jit` function alike: "NameError: The
    name 'fact' is not defined", naming the lambda's line), even when nothing calls it. Compile:
    a nested `def fact(n)` that
    calls itself, a module-level recursive lambda, a lambda calling another local lambda, and
    `f = lambda t, g=f: g(t) + 1` (the default reads the earlier `f`)."""
    lambdas: list[ast.Lambda] = ctx.of(ast.Lambda)
    if not lambdas:
        return
    for assign in ctx.of(ast.Assign):
        value = assign.value
        if not (
            isinstance(value, ast.Lambda)
            and len(assign.targets) == 1
            and isinstance(assign.targets[0], ast.Name)
        ):
            continue
        name = assign.targets[0].id
        args = value.args
        own = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
        if name not in own and _calls_name(value.body, name):
            yield RECURSIVE_LAMBDA.finding(value, name=name)


def _calls_name(expr: ast.expr, name: str) -> bool:
    return any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == name
        for n in ast.walk(expr)
    )


# ---- MS1075: a function stored on `self` in compiled code, then called


def _check_stored_functions(ctx: FunctionContext) -> Iterator[RawFinding]:
    """`self.fn = ops.relu` (a lambda, a nested `def`, `self.act`, ...) in a Cell's compiled
    code, then `self.fn(x)` later in the same function (measured on 2.10 at LAX: "TypeError:
    'int' object is not callable", no line named, in construct and in a helper method, whether
    or not `__init__` set `self.fn`; STRICT fails on the store itself, MS245 / MS202). Compile
    at LAX: the store alone (never called back), a number stored and read back, a local
    `fn = ops.relu; fn(x)`, and `self.fn = lambda ...` in `__init__`."""
    cls = ctx.fn.cls
    if cls is None or not cls.is_cell or ctx.level == SyntaxLevel.STRICT:
        return  # STRICT refuses the store itself: MS245 / MS202
    stores: dict[str, ast.Assign] = {}
    for assign in ctx.of(ast.Assign):
        if len(assign.targets) != 1:
            continue
        attr = names.self_attribute(assign.targets[0])
        if attr is not None and attr not in stores:
            stores[attr] = assign
    if not stores:
        return
    for call in ctx.of(ast.Call):
        attr = names.self_attribute(call.func)
        if attr is None or attr not in stores:
            continue
        stored = stores[attr]
        if call.lineno <= (stored.end_lineno or stored.lineno):
            continue
        what = _stored_function(ctx, stored.value)
        if what is not None:
            yield FUNCTION_STORED_ON_SELF.finding(
                stored, attr=attr, value=ast.unparse(stored.value)[:40], what=what
            )
            del stores[attr]


def _stored_function(ctx: FunctionContext, value: ast.expr) -> Optional[str]:
    if isinstance(value, ast.Lambda):
        return "a lambda"
    if isinstance(value, ast.Name):
        nested = [d for d in ctx.of(ast.FunctionDef) if d.name == value.id and d is not ctx.fn.node]
        if nested:
            return f"the nested function `{value.id}`"
        if value.id in ctx.fn.module.functions and value.id not in local_names(ctx.fn.node):
            return f"the function `{value.id}`"
        return None
    method = names.self_attribute(value)
    cls = ctx.fn.cls
    if method is not None and cls is not None:
        found = cls.find_method(method)
        if found is not None and not found[1].decorator_list and cls.attr(method) is None:
            return f"the method `self.{method}`"
        return None
    if isinstance(value, ast.Attribute):
        return returns.library_function(ctx, value)
    return None


# ---- MS388, MS1076, MS1077: a lambda inside a `for` body
#
# Measured on 2.10, LAX and STRICT alike: a lambda anywhere in a `for` body of construct (bound
# to a name and called, called inline, `sorted(key=lambda ...)`, `map(lambda ...)`, over a
# tuple, a `range` or a CellList) makes construct return None where PyNative returns the
# value; in a helper method or module function the None fails where the caller computes with
# it (`self.helper(x) * 1.0`, `y = self.helper(x); y + 1`: LAX "unsupported operand type(s)",
# no line; STRICT names the caller's line). Inside an `if` in the loop: "Failure: have return
# node!" naming the lambda. Compile alike: the lambda bound before or after the loop, a
# `while` body, a nested `def` in the loop. Lambdas collected in the loop are MS304's.


def _loop_lambdas(fn: FunctionNode) -> list[tuple[ast.Lambda, bool]]:
    """The lambdas in the `for` bodies of `fn` itself (not in nested defs), and whether each
    sits in an `if` inside that loop."""
    found: list[tuple[ast.Lambda, bool]] = []

    def walk(node: ast.AST, in_for: bool, in_if: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            if isinstance(child, ast.Lambda):
                if in_for:
                    found.append((child, in_if))
                continue
            if isinstance(child, ast.For):
                for stmt in child.body:
                    walk_stmt(stmt, True, in_if)
                for stmt in child.orelse:
                    walk_stmt(stmt, in_for, in_if)
                continue
            if isinstance(child, ast.While):
                for stmt in [*child.body, *child.orelse]:
                    walk_stmt(stmt, False, False)
                continue
            walk(child, in_for, in_if or (in_for and isinstance(child, ast.If)))

    def walk_stmt(stmt: ast.stmt, in_for: bool, in_if: bool) -> None:
        holder = ast.Module(body=[stmt], type_ignores=[])
        walk(holder, in_for, in_if)

    for stmt in fn.body:
        walk_stmt(stmt, False, False)
    return found


def _collected_lambda(fn: FunctionNode, lam: ast.Lambda) -> bool:
    """A lambda appended, stored in an item or written in a display or comprehension: MS304
    reports those."""
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and any(a is lam for a in node.args):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in ("append", "insert", "extend"):
                return True
        if isinstance(node, (ast.List, ast.Tuple, ast.Set, ast.Dict)) and any(
            e is lam for e in (node.values if isinstance(node, ast.Dict) else node.elts)
        ):
            return True
        if isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.DictComp)) and any(
            n is lam for n in ast.walk(node)
        ):
            return True
        if (
            isinstance(node, ast.Assign)
            and node.value is lam
            and any(isinstance(t, ast.Subscript) for t in node.targets)
        ):
            return True
    return False


def _check_loop_lambdas(ctx: FunctionContext) -> Iterator[RawFinding]:
    if not ctx.of(ast.Lambda) or not ctx.of(ast.For):
        return
    fn = ctx.fn.node
    lambdas = [(lam, in_if) for lam, in_if in _loop_lambdas(fn) if not _collected_lambda(fn, lam)]
    for lam, in_if in lambdas:
        if in_if:
            yield LAMBDA_IN_LOOP_BRANCH.finding(lam)
            return
    entry = ctx.fn.caller is None and ctx.fn.cls is not None and not compiled_by_jit(ctx)
    if lambdas and entry and _returns_value(fn):
        yield LAMBDA_IN_LOOP_RETURNS_NONE.finding(lambdas[0][0], name=fn.name)


def _returns_value(fn: FunctionNode) -> bool:
    return any(isinstance(n, ast.Return) and n.value is not None for n in ast.walk(fn))


def _check_loop_lambda_callers(ctx: FunctionContext) -> Iterator[RawFinding]:
    """The call of a helper (a method through `self`, a module function) whose `for` body
    holds a lambda, where the call's result is an operand of arithmetic, directly or through a
    local bound once to it."""
    module = ctx.fn.module
    tree = module.tree
    if not ctx.of(ast.BinOp) or tree is None:
        return
    named = _LOOP_LAMBDA_FUNCTIONS.get(tree, None, lambda: _loop_lambda_functions(tree))
    if not named:
        return
    cls = ctx.fn.cls
    helpers: dict[int, str] = {}  # call -> the helper's name, for helpers with a loop lambda
    for call in ctx.of(ast.Call):
        target: Optional[FunctionNode] = None
        func = call.func
        called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if called not in named:
            continue
        if isinstance(func, ast.Name) and func.id in module.functions:
            target = module.functions[func.id]
        elif cls is not None and isinstance(func, ast.Attribute):
            name = names.self_attribute(func)
            found = cls.find_method(name) if name is not None else None
            target = found[1] if found is not None and not found[1].decorator_list else None
        if target is None or target is ctx.fn.node:
            continue
        if not of_type(target, ast.Lambda) or not of_type(target, ast.For):
            continue  # the cheap test, from the node index
        loop = [lam for lam, in_if in _loop_lambdas(target) if not in_if]
        if _returns_value(target) and any(not _collected_lambda(target, lam) for lam in loop):
            helpers[id(call)] = ast.unparse(func)
    if not helpers:
        return
    single: dict[str, list[ast.expr]] = {}
    for a in ctx.of(ast.Assign):
        if len(a.targets) == 1 and isinstance(a.targets[0], ast.Name):
            single.setdefault(a.targets[0].id, []).append(a.value)
    for op in ctx.of(ast.BinOp):
        for side in (op.left, op.right):
            if isinstance(side, ast.Name):
                bound = single.get(side.id, [])
                side = bound[0] if len(bound) == 1 else side
            name = helpers.pop(id(side), None)
            if name is not None:
                # STRICT names the arithmetic (measured: `y = self.helper(x)`, then `y + 1`)
                yield LAMBDA_IN_LOOP_RESULT_USED.finding(op, name=name)


# Per module: the names of the functions (at any depth) that hold both a lambda and a `for`.
_LOOP_LAMBDA_FUNCTIONS: NodeMemo[frozenset[str]] = NodeMemo()


def _loop_lambda_functions(tree: ast.Module) -> frozenset[str]:
    defs: list[FunctionNode] = of_type(tree, ast.FunctionDef, ast.AsyncFunctionDef)
    found = {d.name for d in defs if of_type(d, ast.Lambda)}
    return frozenset(d.name for d in defs if d.name in found and of_type(d, ast.For))


# ---- MS389: a partial's keyword bound to the loop variable


def _check_partial_keywords_in_loops(ctx: FunctionContext) -> Iterator[RawFinding]:
    """Measured on 2.10 (LAX and STRICT): `for s in (1.0, 2.0): f = functools.partial(scale,
    s=s); out = out + f(x)` gave 5 where PyNative gave 4 (each partial used s=2.0), for a module
    function and a method, called at once or through a local. Right: the value bound
    positionally (`partial(scale, s)`, `partial(ops.mul, s)`), and a constant keyword."""
    if not ctx.fn.module.mentions("partial"):
        return
    module = ctx.fn.module
    for loop in ctx.of(ast.For):
        targets = {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}
        for stmt in loop.body:
            for call in ast.walk(stmt):
                if not (
                    isinstance(call, ast.Call) and isinstance(call.func, (ast.Name, ast.Attribute))
                ):
                    continue
                if module.qualname(call.func) != "functools.partial":
                    continue
                for kw in call.keywords:
                    reads = {n.id for n in ast.walk(kw.value) if isinstance(n, ast.Name)}
                    if kw.arg is not None and reads & targets:
                        yield PARTIAL_KEYWORD_IN_LOOP.finding(
                            call, keyword=kw.arg, value=ast.unparse(kw.value)
                        )
                        break


# ---- MS121 (widened): `kwargs.pop(...)` of the function's own `**kwargs`


def _keyword_values(ctx: FunctionContext, key: str) -> Optional[list[ast.expr]]:
    """What the module's calls pass as `key=`; None when a call spreads `**d` (unknown)."""
    tree = ctx.fn.module.tree
    if tree is None:
        return None
    found: list[ast.expr] = []
    for node in of_type(tree, ast.Call):
        for keyword in node.keywords:
            if keyword.arg is None:
                return None
            if keyword.arg == key:
                found.append(keyword.value)
    return found


def _number(expr: Optional[ast.expr]) -> bool:
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
        expr = expr.operand
    return isinstance(expr, ast.Constant) and type(expr.value) in (int, float, bool)


def _check_kwargs_pop(ctx: FunctionContext) -> Iterator[RawFinding]:
    """Under STRICT only when a call in the module passes the popped key: with nothing passed
    the graph's `**kw` is an empty dict and `kw.pop(k, None)` compiles (measured on mindone's
    `kwargs.pop("adapter_names", None)` pattern); `attn(x, dropout=0.1)` then
    `kw.pop("dropout", None)` fails ("the Dictionary[[dropout],[Float32]] object has no
    attribute: 'pop'")."""
    fn = ctx.fn.node
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or fn.args.kwarg is None:
        return
    kwarg = fn.args.kwarg.arg
    for call in ctx.of(ast.Call):
        func = call.func
        if not (
            isinstance(func, ast.Attribute)
            and func.attr == "pop"
            and isinstance(func.value, ast.Name)
            and func.value.id == kwarg
            and call.args
            and isinstance(call.args[0], ast.Constant)
            and isinstance(call.args[0].value, str)
        ):
            continue
        if ctx.level == SyntaxLevel.STRICT:
            if not _keyword_values(ctx, str(call.args[0].value)):
                continue  # see _check_kwargs_pop
        elif not _pops_number(ctx, call):
            continue
        yield objects.DICT_POP_SETDEFAULT.finding(call, method="pop")


def _pops_number(ctx: FunctionContext, call: ast.Call) -> bool:
    """LAX: `v = kw.pop(k[, default])` fails when what it pops is a number (measured: `s=2`
    passed, or the number default with `k` never passed); a popped Tensor compiles."""
    assigned = any(
        isinstance(a, ast.Assign)
        and a.value is call
        and len(a.targets) == 1
        and isinstance(a.targets[0], ast.Name)
        for a in ctx.of(ast.Assign)
    )
    if not assigned or call.keywords:
        return False
    key = call.args[0]
    assert isinstance(key, ast.Constant)
    passed = _keyword_values(ctx, str(key.value))
    if passed is None:
        return False
    if not passed:
        return len(call.args) == 2 and _number(call.args[1])
    return all(_number(v) for v in passed) and (len(call.args) == 1 or _number(call.args[1]))


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    yield from _check_kwargs_pop(ctx)
    yield from _check_partials(ctx)
    yield from _check_caches(ctx)
    yield from _check_recursive_lambdas(ctx)
    yield from _check_stored_functions(ctx)
    yield from _check_loop_lambdas(ctx)
    yield from _check_loop_lambda_callers(ctx)
    yield from _check_partial_keywords_in_loops(ctx)
    yield from _check_lambdas(ctx)
    yield from _check_callable(ctx)
    yield from _check_constexpr(ctx)
