"""MS312-MS314: Python semantics graph mode does not keep, though the code compiles.

Measured with MindSpore 2.10 on CPU (LAX and STRICT unless said), against PyNative:

- `m = map(f, seq)` (also `filter`, `zip`, `enumerate`) is built as a sequence in the graph, not
  a one-shot iterator: a second `list(m)` or `for v in m` sees every item again (GRAPH_MODE
  returned [2, 4] twice where PyNative returned [2, 4] then []). `reversed` behaves as Python.
- Python code the graph does not compile is run once, while compiling: `np.random.rand()`,
  `random.random()` give the graph constants, so every call of the compiled Cell returns the same
  numbers (two calls gave equal results in GRAPH_MODE, different ones in PyNative); a helper that
  appends to a module-level list or bumps a module-level counter item (`LOG.append(1)`,
  `STATE[0] += 1`) does so once, at compile time (the second call returned x * 1 where PyNative
  returned x * 2); measured alike for `extend`, `insert`, `pop`, `update` and item writes.
  The clock too: `time.time()` returned the same value on two calls 0.3 s apart in GRAPH_MODE.
  Round 36 (`pm_`): `warnings.warn(...)` and `logging`/`logger` calls warn or log once for two
  calls (PyNative twice); the methods of a random generator object (`np.random.default_rng()`,
  `RandomState`, `random.Random()`, module-level or `self.rng`) and `secrets`/`uuid` give the
  same value on every call. A draw after `np.random.seed(0)` / `random.seed(1)` in the same
  function agrees with PyNative (both repeat): not reported.
- `a is b` between Tensors compares graph nodes: `x is x` was False at LAX (True in PyNative);
  STRICT fails to compile it (MS238).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from .helpers.base import FunctionContext, cacheable
from .helpers.flow import loads_after

ITERATOR_REUSED = Rule(
    "MS312",
    "iterator-reused",
    Group.DIVERGES,
    title="A `map`/`filter`/`zip`/`enumerate` result read twice",
    message=(
        "`{name}` is a one-shot iterator in Python (empty after its first use), but graph mode "
        "builds `{builtin}(...)` as a sequence, so this second use sees every item again; "
        "write `{name} = list({builtin}(...))` to get the same result in both modes."
    ),
    why=(
        "Graph mode builds the result of `map`, `filter`, `zip` and `enumerate` as a sequence, "
        "not an iterator: reading it a second time sees every item again, where Python's "
        "iterator is exhausted (PyNative returned [2, 4] then [] where GRAPH_MODE returned "
        "[2, 4] twice)."
    ),
    remedy="Make the sequence explicit with `list(...)`, or build the iterator again.",
    mindspore_says="(compiles; result differs from PyNative)",
)

COMPILE_TIME_ONCE = Rule(
    "MS313",
    "runs-once-at-compile-time",
    Group.DIVERGES,
    title="Python side effects run once, when the graph is compiled",
    message=(
        "{what} runs once, while graph mode compiles this function: {effect}; PyNative runs it "
        "on every call."
    ),
    why=(
        "Graph mode runs Python it does not compile (random numbers from NumPy or `random`, "
        "clock reads such as `time.time()`, writes into module-level lists and dicts) once, "
        "while compiling, and keeps the result as a constant: every later call of the "
        "compiled Cell reuses it (two calls returned the same numbers in GRAPH_MODE and "
        "different ones in PyNative)."
    ),
    remedy=(
        "Draw random numbers with MindSpore ops (`ops.rand`, `ops.randn`, ...) or pass them in "
        "as arguments; keep counters in a Parameter updated with `ops.assign`."
    ),
    mindspore_says="(compiles; result differs from PyNative)",
)

TENSOR_IDENTITY = Rule(
    "MS314",
    "tensor-identity",
    Group.DIVERGES,
    title="`is` / `is not` between Tensors in compiled code",
    message=(
        "`{text}` compares graph values, not the Tensor objects: graph mode gave {wrong} where "
        "PyNative gives {right}; compare values (`ops.equal(...).all()`) or decide it outside "
        "compiled code."
    ),
    why=(
        "A Tensor in the graph is a node, not the Python object: `x is x` evaluated to False "
        "in GRAPH_MODE at LAX (True in PyNative), and STRICT fails to compile it."
    ),
    remedy="Compare values with `ops.equal(a, b).all()`, or pass a flag in as an argument.",
    mindspore_says="(compiles; result differs from PyNative)",
)

TENSOR_IDENTITY_STRICT = Rule(
    "MS238",
    "tensor-identity-under-strict",
    Group.STRICT,
    title="`is` / `is not` between Tensors under STRICT",
    message=(
        "`{text}` between Tensors does not compile under jit_syntax_level=STRICT; compare "
        "values (`ops.equal(...).all()`) or decide it outside compiled code."
    ),
    why=(
        "STRICT has no identity for graph values: `x is y` with both Tensors raised a "
        "RuntimeError (Framework Unexpected Exception) while compiling."
    ),
    remedy="Compare values with `ops.equal(a, b).all()`, or pass a flag in as an argument.",
    mindspore_says="RuntimeError: Framework Unexpected Exception Raised",
)

ITERATOR_BUILTINS = frozenset({"map", "filter", "zip", "enumerate"})
# Calls of these modules draw fresh random numbers on each Python call.
RANDOM_MODULES = ("numpy.random.", "random.")
# Clock reads: the time graph mode read while compiling is a constant of the graph.
CLOCKS = frozenset(
    {
        "time.time",
        "time.time_ns",
        "time.perf_counter",
        "time.perf_counter_ns",
        "time.monotonic",
        "time.monotonic_ns",
        "time.process_time",
        "datetime.datetime.now",
        "datetime.datetime.utcnow",
        "datetime.date.today",
    }
)
NOT_RANDOM = frozenset(
    {"seed", "get_state", "set_state", "getstate", "setstate", "default_rng", "RandomState"}
)
LOG_METHODS = frozenset(
    {"debug", "info", "warning", "warn", "error", "critical", "exception", "log"}
)
LOGGERS = frozenset({"logging.getLogger"})
# Random generator objects: each call of their methods draws fresh numbers in Python.
GENERATORS = frozenset(
    {
        "numpy.random.default_rng",
        "numpy.random.RandomState",
        "numpy.random.Generator",
        "random.Random",
        "random.SystemRandom",
    }
)
# Cheap prefilter: a module that builds a generator names one of these.
GENERATOR_TEXTS = ("default_rng", "RandomState", "Generator", "Random(")
CONTAINER_MUTATORS = frozenset(
    {"append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault", "popitem"}
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    yield from _iterators(ctx)
    yield from _random_calls(ctx)
    yield from _identities(ctx)


def _iterators(ctx: FunctionContext) -> Iterator[RawFinding]:
    fn = ctx.fn.node
    for node in ctx.of(ast.Assign):
        if not (
            len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name)
            and node.value.func.id in ITERATOR_BUILTINS
            and ctx.fn.module.qualname(node.value.func) in (None, node.value.func.id)
        ):
            continue
        name = node.targets[0].id
        first = loads_after(fn, name, node)
        if first is None:
            continue
        second = loads_after(fn, name, first)
        if second is None:
            continue
        yield ITERATOR_REUSED.finding(
            second,
            related=[ctx.related(first, f"first use of `{name}`")],
            name=name,
            builtin=node.value.func.id,
        )


def _random_calls(ctx: FunctionContext) -> Iterator[RawFinding]:
    module = ctx.fn.module
    calls = ctx.of(ast.Call)
    # Seeded in the same function before every draw: each call draws the same numbers in
    # PyNative too (measured: `np.random.seed(0); np.random.rand()` agrees)
    seeded = {
        q.removesuffix("seed")
        for c in calls
        if isinstance(c, ast.Call)
        and (q := module.qualname(c.func) or "").endswith(".seed")
        and q.startswith(RANDOM_MODULES)
        and c.args
    }
    for call in calls:
        qualname = module.qualname(call.func)
        once = _runs_once(ctx, call, qualname)
        if once is not None:
            yield COMPILE_TIME_ONCE.finding(call, what=once[0], effect=once[1])
            continue
        if qualname is not None and qualname.startswith(tuple(seeded)):
            continue
        if qualname in CLOCKS:
            yield COMPILE_TIME_ONCE.finding(
                call,
                what=f"`{qualname}()`",
                effect="every call of the compiled code reuses the time it read then",
            )
            continue
        if (
            qualname is None
            or not qualname.startswith(RANDOM_MODULES)
            or qualname.rsplit(".", 1)[-1] in NOT_RANDOM
        ):
            continue
        yield COMPILE_TIME_ONCE.finding(
            call,
            what=f"`{qualname}(...)`",
            effect="every call of the compiled code reuses the numbers it drew then",
        )


def _runs_once(
    ctx: FunctionContext, call: ast.Call, qualname: Optional[str]
) -> Optional[tuple[str, str]]:
    """What `call` does once at compile time beyond the random modules' own functions and
    clocks: warnings and log records, draws of a random generator object, `secrets`, `uuid`."""
    if qualname is None:
        return None
    head, _, last = qualname.rpartition(".")
    if qualname == "warnings.warn":
        return "`warnings.warn(...)`", "later calls of the compiled code warn no more"
    module = ctx.fn.module
    if (head == "logging" and last in LOG_METHODS) or (
        last in LOG_METHODS and module.mentions("getLogger") and _made_by(ctx, call.func, LOGGERS)
    ):
        return f"`{ast.unparse(call.func)}(...)`", "later calls of the compiled code log nothing"
    if head in ("secrets", "uuid") and last not in ("UUID", "compare_digest"):
        return f"`{qualname}(...)`", "every call of the compiled code reuses the value it made then"
    if (
        last not in NOT_RANDOM
        and any(module.mentions(maker) for maker in GENERATOR_TEXTS)
        and _made_by(ctx, call.func, GENERATORS)
    ):
        return (
            f"`{ast.unparse(call.func)}(...)`",
            "every call of the compiled code reuses the numbers it drew then",
        )
    return None


def _made_by(ctx: FunctionContext, func: ast.expr, makers: frozenset[str]) -> bool:
    """`func` is a method of an object one of `makers` made (`RNG.random` with a module-level
    `RNG = np.random.default_rng()`, `self.rng.normal`, `logger.info`)."""
    if not isinstance(func, ast.Attribute):
        return False
    from .module_state import made_by

    return made_by(ctx, func.value) in makers


def check_globals(ctx: FunctionContext) -> Iterator[RawFinding]:
    """Writes into module-level lists and dicts (reads the module's tree: not cacheable)."""
    containers = _module_containers(ctx)
    if not containers:
        return
    local = {n.id for n in ctx.of(ast.Name) if isinstance(n.ctx, ast.Store)} | _parameters(
        ctx.fn.node
    )
    for node in ctx.of(ast.Call, ast.Assign, ast.AugAssign):
        name = _written_global(node)
        if name is None or name not in containers or name in local:
            continue
        yield COMPILE_TIME_ONCE.finding(
            node,
            what=f"Changing the module-level {containers[name]} `{name}`",
            effect="later calls of the compiled code neither change it again nor see it change",
        )


def _written_global(node: ast.AST) -> Optional[str]:
    if isinstance(node, ast.Call):
        func = node.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr in CONTAINER_MUTATORS
            and isinstance(func.value, ast.Name)
        ):
            return func.value.id
        return None
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]  # type: ignore[attr-defined]
    for target in targets:
        if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
            return target.value.id
    return None


_CONTAINERS = "_mindscope_module_containers"  # kept on the module tree: freed with it


def _module_containers(ctx: FunctionContext) -> dict[str, str]:
    """Module-level names bound (once) to a list or dict display (read once per module tree,
    not once per function)."""
    tree = ctx.fn.module.tree
    if tree is None:
        return {}
    held: Optional[dict[str, str]] = tree.__dict__.get(_CONTAINERS)
    if held is None:
        held = tree.__dict__[_CONTAINERS] = _containers(tree)
    return held


def _containers(tree: ast.Module) -> dict[str, str]:
    found: dict[str, str] = {}
    bound: dict[str, int] = {}
    for stmt in tree.body:
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    bound[target.id] = bound.get(target.id, 0) + 1
                    if isinstance(stmt.value, (ast.List, ast.ListComp)):
                        found[target.id] = "list"
                    elif isinstance(stmt.value, (ast.Dict, ast.DictComp)):
                        found[target.id] = "dict"
    return {name: kind for name, kind in found.items() if bound[name] == 1}


def _parameters(fn: ast.AST) -> set[str]:
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        return set()
    args = fn.args
    return {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}


def _identities(ctx: FunctionContext) -> Iterator[RawFinding]:
    for node in ctx.of(ast.Compare):
        left = node.left
        for op, right in zip(node.ops, node.comparators):
            if (
                isinstance(op, (ast.Is, ast.IsNot))
                and ctx.types.is_tensor(left)
                and ctx.types.is_tensor(right)
            ):
                text = ast.unparse(ast.Compare(left=left, ops=[op], comparators=[right]))
                if ctx.level == SyntaxLevel.STRICT:
                    yield TENSOR_IDENTITY_STRICT.finding(node, text=text)
                else:
                    same = isinstance(op, ast.Is)
                    yield TENSOR_IDENTITY.finding(
                        node,
                        text=text,
                        wrong=str(not same) + " for a Tensor and itself",
                        right=str(same),
                    )
            left = right
