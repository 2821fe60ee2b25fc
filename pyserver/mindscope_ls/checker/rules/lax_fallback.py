"""MS190-MS191, MS1023: what LAX's Python fallback runs but cannot finish.

Measured with MindSpore 2.10 (`tests/graphmode/cases/user2/`):

- `any([ops.isinf(g).any() for g in grads])` / `all(ops.isfinite(g).all() for g in grads)` over
  values computed in the graph: LAX hands the whole call to its Python fallback, whose
  comprehension sees neither module-level names nor (MS1023) the function's locals
  ("NameError: name 'ops' is not defined", no line named). Without such a name
  (`any([g.isnan().any() for g in (a, b)])`) it compiles; `sum()` is translated and compiles.
  STRICT refuses the call for its non-constant inputs (MS206).
- MS1023: the same fallback evaluates the comprehension as Python's `eval` does, so its element
  and conditions see neither the module's names nor the function's locals (only the first
  iterable is read in the function's scope). `thr = 2; any(v > thr for v in (1, 3))`,
  `all([v < self.k for v in (1, 2)])`, `all(d[k] > 0 for k in ('a', 'b'))` with `d = self.cfg`,
  `sorted(v * w for v in (3, 1))`, `set([v * w ...])`, `dict((k, w) for k in ...)` fail at
  LAX and STRICT, over constants too ("NameError: name 'thr' is not defined"), in a Cell's
  `construct` and in a `@jit` function; a local that shadows a module global too. Reading only
  the targets and builtins (`any(v > 2 for v in ks)`, `any(isinstance(v, int) for v in t)`),
  a lambda's own parameter, and `tuple`/`list`/`sum`/`min`/`max` of such a comprehension (the
  graph translates those) compile. Lambdas likewise: `sorted(('a', 'b'), key=lambda k: w[k])`,
  `sorted(self.cfg, key=lambda k: self.cfg[k])` and `any(map(lambda v: v > thr, (1, 3)))` fail
  at both levels, `l.sort(key=lambda v: v * w)` at LAX (STRICT has no `list.sort`, MS203);
  `sorted(t, key=lambda v: -v)`, `list(map(lambda v: v * w, t))`, `max(map(...))` and
  `filter(lambda v: v > thr, t)` compile.
- A Cell built in compiled code into an attribute (`self.fc = nn.Dense(4, 2)`, lazy
  initialisation) and called there: LAX builds it in the fallback, and the call fails ("'int'
  object is not callable", no line named). STRICT refuses the attribute write (MS202/MS245).
"""

from __future__ import annotations

import ast
import builtins as python_builtins
from collections.abc import Iterator

from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from .graph_syntax import sub_cell_replaced
from .helpers import names
from .helpers.base import FunctionContext, cacheable
from .helpers.elements import Elements

FALLBACK_COMPREHENSION_GLOBAL = Rule(
    "MS190",
    "fallback-comprehension-global",
    Group.FAILS,
    title="`any()`/`all()` of a comprehension over graph values that names a module global (LAX)",
    message=(
        "LAX runs this `{name}()` in its Python fallback, where the comprehension cannot see "
        "the module's `{missing}`; reduce with Tensor ops instead (e.g. `ops.stack([...])"
        ".any()`)."
    ),
    why=(
        "`any`/`all` of values computed in the graph are run by LAX's Python fallback; its "
        "`eval` does not give the comprehension the module's names (`ops`, `np`, helper "
        "functions), nor the function's locals (MS1023)."
    ),
    remedy=(
        "Stack the per-item results into a Tensor and reduce it (`ops.stack([...]).any()`), "
        "or call Tensor methods only (`g.isnan().any()`)."
    ),
    mindspore_says="NameError: name 'ops' is not defined",
)

CELL_BUILT_IN_GRAPH = Rule(
    "MS191",
    "cell-built-in-graph",
    Group.FAILS,
    title="A Cell built into an attribute in compiled code and called there (LAX)",
    message=(
        "`self.{name}` is built (`{maker}(...)`) in compiled code and called here; LAX builds "
        "it in its Python fallback and cannot call the result: create the Cell in `__init__`."
    ),
    why=(
        "Building a Cell inside compiled code runs in LAX's Python fallback, whose result the "
        "graph cannot call as a Cell (lazy initialisation works in PyNative only)."
    ),
    remedy=(
        "Create the Cell in `__init__` (pass the sizes the lazy code would read from the "
        "input), or build the network once before compiling it."
    ),
    mindspore_says="TypeError: 'int' object is not callable",
)
FALLBACK_COMPREHENSION_LOCAL = Rule(
    "MS1023",
    "fallback-comprehension-local",
    Group.FAILS,
    title="A comprehension or lambda run through Python's `eval` reading a local",
    message=(
        "`{call}(...)` is run by Python's `eval` when compiled, where {what} cannot see the "
        "local `{missing}`; {advice}, or use Tensor ops."
    ),
    why=(
        "Graph mode has no translation of `any`, `all`, `sorted`, `set`, `dict` (nor of a "
        "`key=` function) and evaluates the whole call in Python with the function's locals "
        "as `eval`'s locals; a comprehension or lambda is a nested scope, so apart from a "
        "comprehension's first iterable it sees no local variable, `self` included."
    ),
    remedy=(
        "Build the items with a list comprehension in its own statement (the graph translates "
        "it) and pass the list; sort by a key that reads no local."
    ),
    mindspore_says="NameError: name 'thr' is not defined",
)

REDUCERS = frozenset({"any", "all"})
# Builtins the graph does not translate whose comprehension argument the fallback runs (measured:
# `sorted(..., reverse=True)` too); `tuple`, `list`, `sum`, `min`, `max` are translated.
EVALUATED = frozenset({"any", "all", "sorted", "set", "dict"})


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    if ctx.level == SyntaxLevel.STRICT:
        return
    yield from _reducers(ctx)
    yield from _built_cells(ctx)


def _reducers(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls: list[ast.Call] = ctx.of(ast.Call)
    wanted = [
        c
        for c in calls
        if isinstance(c.func, ast.Name)
        and c.func.id in REDUCERS
        and len(c.args) == 1
        and not c.keywords
        and isinstance(c.args[0], (ast.ListComp, ast.GeneratorExp))
    ]
    if not wanted:
        return
    module = ctx.fn.module
    local = _local_names(ctx)
    values = Elements(ctx.types, ctx.fn.node, ctx.lines)
    for call in wanted:
        name = call.func.id  # type: ignore[attr-defined]
        if name in local or module.qualname(call.func) != name:
            continue  # a local or module-level `any`
        comp = call.args[0]
        if not isinstance(comp, (ast.ListComp, ast.GeneratorExp)) or not values.variable(comp):
            continue
        missing = next(
            (n for n in _free_reads(comp) if n not in local and not hasattr(python_builtins, n)),
            None,
        )
        if missing is not None:
            yield FALLBACK_COMPREHENSION_GLOBAL.finding(call, name=name, missing=missing)


def _free_reads(scope: ast.ListComp | ast.GeneratorExp | ast.Lambda) -> Iterator[str]:
    """The names a comprehension's element, conditions and later iterables (or a lambda's
    body) read that nothing inside binds (targets, parameters, inner comprehensions')."""
    bound: set[str] = set()
    for node in ast.walk(scope):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound.add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
    if isinstance(scope, ast.Lambda):
        reads: list[ast.expr] = [scope.body]
    else:
        reads = [scope.elt, *(i for g in scope.generators for i in g.ifs)]
        reads += [g.iter for g in scope.generators[1:]]
    for expr in reads:
        for n in ast.walk(expr):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id not in bound:
                yield n.id


@cacheable
def check_locals(ctx: FunctionContext) -> Iterator[RawFinding]:
    """MS1023 at every level; at LAX not where MS190 names a missing module global."""
    calls: list[ast.Call] = ctx.of(ast.Call)
    wanted = [(c, scope) for c in calls for scope in _evaluated_scopes(ctx, c)]
    if not wanted:
        return
    local = _function_locals(ctx.fn.node)
    module = ctx.fn.module
    for call, (scope, what, advice) in wanted:
        func = call.func
        if isinstance(func, ast.Name) and (func.id in local or module.qualname(func) != func.id):
            continue  # a local or module-level `any`
        reads = list(_free_reads(scope))
        missing = next((n for n in reads if n in local), None)
        if missing is None:
            continue
        if (
            isinstance(scope, (ast.ListComp, ast.GeneratorExp))
            and ctx.level != SyntaxLevel.STRICT
            and any(n not in local and not hasattr(python_builtins, n) for n in reads)
        ):
            values = Elements(ctx.types, ctx.fn.node, ctx.lines)
            if values.variable(scope):
                continue  # MS190 reports the module global it misses first
        yield FALLBACK_COMPREHENSION_LOCAL.finding(
            call, call=ast.unparse(func), what=what, missing=missing, advice=advice
        )


_COMPREHENSION_ADVICE = "build the items in a list comprehension of its own statement"
_KEY_ADVICE = "sort by a key that reads no local (or outside compiled code)"


def _evaluated_scopes(
    ctx: FunctionContext, call: ast.Call
) -> Iterator[tuple[ast.ListComp | ast.GeneratorExp | ast.Lambda, str, str]]:
    """The nested scopes of `call` that the fallback's `eval` runs, with what to call them
    and the advice: the comprehension of `any(...)`, the lambda of `any(map(lambda ...))`,
    the `key=` lambda of `sorted()` (every level) or of `l.sort()` (LAX; STRICT: MS203)."""
    func = call.func
    args = call.args
    if isinstance(func, ast.Name) and func.id in EVALUATED and len(args) == 1:
        keywords = {k.arg for k in call.keywords}
        if keywords <= ({"reverse"} if func.id == "sorted" else set()):
            arg = args[0]
            if isinstance(arg, (ast.ListComp, ast.GeneratorExp)):
                yield arg, "its comprehension", _COMPREHENSION_ADVICE
            elif (
                func.id in REDUCERS
                and isinstance(arg, ast.Call)
                and isinstance(arg.func, ast.Name)
                and arg.func.id == "map"
                and arg.args
                and isinstance(arg.args[0], ast.Lambda)
            ):
                yield arg.args[0], "the lambda given to `map()`", _COMPREHENSION_ADVICE
    sorts = isinstance(func, ast.Name) and func.id == "sorted"
    if not sorts and isinstance(func, ast.Attribute) and func.attr == "sort":
        sorts = ctx.level != SyntaxLevel.STRICT and isinstance(func.value, ast.Name)
    if sorts:
        for k in call.keywords:
            if k.arg == "key" and isinstance(k.value, ast.Lambda):
                yield k.value, "its `key` lambda", _KEY_ADVICE


def _function_locals(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The parameters and the names the function's own scope binds (not comprehension
    targets, nor the names nested functions and lambdas bind)."""
    args = fn.args
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    found = {a.arg for a in every if a is not None}
    declared: set[str] = set()  # `global x`: a module name, which the fallback sees
    stack: list[ast.AST] = list(fn.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(node.name)
            continue
        if isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp)):
            continue
        if isinstance(node, ast.GeneratorExp):
            continue
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            found.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            found.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.Global):
            declared.update(node.names)
        stack.extend(ast.iter_child_nodes(node))
    return found - declared


def _local_names(ctx: FunctionContext) -> set[str]:
    args = ctx.fn.node.args
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    found = {a.arg for a in every if a is not None}
    stored: list[ast.Name] = ctx.of(ast.Name)
    found.update(n.id for n in stored if not isinstance(n.ctx, ast.Load))
    return found


def _built_cells(ctx: FunctionContext) -> Iterator[RawFinding]:
    cls = ctx.fn.cls
    if cls is None:
        return
    built: dict[str, str] = {}
    assigns: list[ast.Assign] = ctx.of(ast.Assign)
    for assign in assigns:
        value = assign.value
        if not isinstance(value, ast.Call):
            continue
        qualname = names.callee(ctx.fn.module, value.func)
        is_cell = names.is_cell_qualname(qualname)
        if not is_cell and qualname:
            resolved = ctx.classes.resolve(qualname)
            is_cell = resolved is not None and resolved.is_cell
        if not is_cell:
            continue
        for target in assign.targets:
            name = names.self_attribute(target)
            if name is not None and not sub_cell_replaced(ctx, target, value):
                # A sub-Cell `__init__` already set fails first, at the write (MS192).
                built.setdefault(name, ast.unparse(value.func))
    if not built:
        return
    calls: list[ast.Call] = ctx.of(ast.Call)
    for call in calls:
        name = names.self_attribute(call.func)
        if name in built:
            yield CELL_BUILT_IN_GRAPH.finding(call, name=name, maker=built[name])
            return
