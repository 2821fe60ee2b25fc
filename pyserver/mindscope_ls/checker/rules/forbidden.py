"""MS130: APIs MindSpore refuses inside compiled code (`@jit_forbidden_register`, forbidden
modules), read from the facts table rather than listed here. Under `if self.training:` (or
`if self.flag:` of a constant the class sets) graph mode folds the test and compiles the call
only on the branch taken (measured on 2.10: `if self.training: self.fc.recompute()` compiles
while the Cell evaluates, fails at both levels after `set_train()`; `self.use_rc = False`
compiles, `True` fails): `check_folded` reports those calls when the branch may be taken.
MindSpore's deprecated dtype helpers (`ms.dtype_to_nptype`, `dtype_to_pytype`,
`pytype_to_dtype`, `get_py_obj_dtype`) log a deprecation warning through `mindspore.log`, which
graph mode refuses: measured on 2.10, `ms.dtype_to_nptype(x.dtype)` (also through `mstype.` and
`ms.common.dtype.`, and inside `np.finfo(...)`) fails at LAX and STRICT with "the method or
function 'mindspore.log.warning' is not supported" while PyNative runs it; the private
`_dtype_to_nptype` compiles (`DEPRECATED_DTYPE_HELPERS`). `ParameterTuple(...)` built in
compiled code fails at both levels too ("'type' object is not iterable", `PARAMETER_TUPLE`).
`self.h.remove()` of the `HookHandle` a hook registration in `__init__` returned fails at both
levels too (round 34; `_hook_handle`), in `construct` or a helper it calls; removed in
`__init__` it compiles.
MS137: NumPy reductions of a Tensor, which NumPy hands to the Tensor's own method with
arguments it does not take."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..facts import FACTS
from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from .helpers import folded, names, receivers
from .helpers import globals as globals_
from .helpers.base import FunctionContext, cacheable

FORBIDDEN_API = Rule(
    "MS130",
    "forbidden-api-in-graph",
    Group.FAILS,
    title="API that cannot be called in compiled code",
    message=(
        "`{name}` cannot be called inside compiled code; call it outside `construct`/`@jit` code "
        "(e.g. in `__init__` or before the call)."
    ),
    why=(
        "MindSpore marks these APIs (`Parameter.set_data`, `Cell.get_parameters`, hook "
        "registration, `set_context`, `initializer`, ...) as forbidden in graph mode: they change "
        "or inspect the network's state in Python, which a compiled graph cannot do."
    ),
    remedy=(
        "Call the API outside compiled code: in `__init__`, or in the Python code that calls the "
        "network; inside the graph, use `ops.assign` to update a Parameter."
    ),
    mindspore_says=(
        "RuntimeError: Failed to compile in GRAPH_MODE because the method or function "
        "'mindspore.nn.cell.Cell.get_parameters' is not supported in 'construct' or function with"
        " @jit decorator."
    ),
)

NUMPY_REDUCTION_OF_TENSOR = Rule(
    "MS137",
    "numpy-reduction-of-tensor",
    Group.FAILS,
    title="NumPy reduction (`np.sum`, `np.mean`, `np.max`, ...) of a Tensor in compiled code",
    message=(
        "`{name}(...)` of a Tensor calls the Tensor's own `.{method}()` with NumPy's `out=` "
        "argument, which it does not take; use `x.{method}()` or `ops.{method}(x)` instead."
    ),
    why=(
        "NumPy reduces an object that is not an ndarray by calling its method of the same name "
        "with `axis=None, out=None`; a MindSpore Tensor's `sum`/`mean`/`max`/... take `dim`/"
        "`keepdim` and reject `out`, so LAX's Python fallback fails (STRICT refuses the NumPy "
        "call itself: MS204)."
    ),
    remedy="Call the Tensor's method (`x.sum()`, `x.mean()`) or the `ops` function instead.",
    mindspore_says=(
        'TypeError: Failed calling sum with "sum(axis=None, out=None)". The valid calling should '
        'be: "Tensor.sum(dim=<None, Tensor, int, list of int, tuple of int>, keepdim=<bool>, ...)"'
        " (np.mean: mean() got an unexpected keyword argument 'out')"
    ),
)

# NumPy functions that hand a non-ndarray to its method with `out=` (measured: sum, mean, max,
# prod, any fail; `np.argmax` compiles) -> the `ops` function to use instead.
NUMPY_REDUCTIONS = {
    "numpy.sum": "sum",
    "numpy.mean": "mean",
    "numpy.max": "max",
    "numpy.amax": "max",
    "numpy.min": "min",
    "numpy.amin": "min",
    "numpy.prod": "prod",
    "numpy.any": "any",
    "numpy.all": "all",
}

# Functions the facts table leaves out, measured by hand (module docstring): each calls
# `logger.warning`, which graph mode refuses, at every level.
DEPRECATED_DTYPE_HELPERS = frozenset(
    f"{module}.{name}"
    for module in ("mindspore", "mindspore.common.dtype", "mindspore.dtype")
    for name in ("dtype_to_nptype", "dtype_to_pytype", "pytype_to_dtype", "get_py_obj_dtype")
)
# `ParameterTuple(...)` built in compiled code (measured on 2.10, LAX and STRICT, from a tuple or
# list of `self.w` Parameters, as grad weights or indexed): "TypeError: 'type' object is not
# iterable", no line named; PyNative builds it. Built in `__init__` it compiles.
PARAMETER_TUPLE = frozenset(
    {
        "mindspore.ParameterTuple",
        "mindspore.common.ParameterTuple",
        "mindspore.common.parameter.ParameterTuple",
    }
)

# The owner classes of forbidden methods, as the facts table names them, for each receiver kind.
OWNERS = {
    receivers.PARAMETER: ("Parameter", "Tensor"),
    receivers.CELL: ("Cell",),
}

# nn.Cell's own methods that a compile of `self.sub.<name>()` in `construct` refused or failed
# on (facts `graph_members`: `cells_and_names()` holds a `yield`, `parameters_dict()` calls
# the forbidden `get_parameters`, `buffers()`, ...), at any level.
CELL_METHODS_FAILING = frozenset(
    name
    for name, levels in FACTS.graph_members.get("cell", {}).items()
    if FACTS.member("cell", name) == "method" and {"refused", "fails"} & set(levels.values())
)
# Cell methods the facts probe leaves out (it calls only methods that need no argument, and
# `recompute(**kwargs)` takes keywords), measured by hand on 2.10: `self.recompute()`,
# `self.fc.recompute(mp_comm_recompute=False)`, `c.recompute()` over a CellList fail at LAX
# (its keyword check cannot be interpreted) and STRICT (it assigns `self._recompute_cell`).
CELL_METHODS_MEASURED = frozenset({"recompute"})
# Measured by hand on 2.10 (they take arguments): `self.add_flags(foo=True)`,
# `self.add_flags_recursive(...)`, `self.insert_child_to_cell("act", nn.ReLU())` (on a sub-Cell
# too) compile at LAX and fail under STRICT, which cannot assign the Cell's `_func_graph_flags`
# / `_cells` ("In JIT strict mode, if need to modify a member attribute of a class with
# self._func_graph_flags, the member attribute must be ..."). `apply(fn)` is left out: on a
# sub-Cell it compiled under STRICT.
CELL_METHODS_STRICT = frozenset({"add_flags", "add_flags_recursive", "insert_child_to_cell"})
# The names of forbidden methods, to pass over every other call at once.
METHOD_NAMES = (
    frozenset(q.rsplit(".", 1)[-1] for q in FACTS.forbidden_functions)
    | CELL_METHODS_FAILING
    | CELL_METHODS_MEASURED
    | CELL_METHODS_STRICT
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    guarded: Optional[dict[int, tuple[folded.Guard, ...]]] = None
    for call in ctx.of(ast.Call):
        name = _forbidden(ctx, call)
        if name is not None:
            if guarded is None:
                guarded = folded.guards(ctx)
            if _guards_of(ctx, call, guarded):
                continue  # under `if self.training:`: check_folded's
            yield FORBIDDEN_API.finding(call, name=name)
        elif ctx.level != SyntaxLevel.STRICT and call.args:
            yield from _numpy_reduction(ctx, call)


def check_folded(ctx: FunctionContext) -> Iterator[RawFinding]:
    """A forbidden call under `if self.training:` / `if self.flag:`: graph mode folds the
    test and compiles the call only when the attribute picks its branch (measured: it compiles
    while the Cell evaluates, fails after `set_train()`). Not cacheable: the attribute's value
    is read from the module's other code."""
    ifs: list[ast.If] = ctx.of(ast.If)
    if not ifs:
        return
    guarded = folded.guards(ctx)
    if not guarded:
        return
    for call in ctx.of(ast.Call):
        name = _forbidden(ctx, call)
        if name is None:
            continue
        held = _guards_of(ctx, call, guarded)
        if held and folded.taken(ctx, held):
            yield FORBIDDEN_API.finding(call, name=name)


def _guards_of(
    ctx: FunctionContext, call: ast.Call, guarded: dict[int, tuple[folded.Guard, ...]]
) -> tuple[folded.Guard, ...]:
    if not guarded:
        return ()
    stmt = folded.statement_of(ctx, call)
    return guarded.get(id(stmt), ()) if stmt is not None else ()


def _numpy_reduction(ctx: FunctionContext, call: ast.Call) -> Iterator[RawFinding]:
    qualname = ctx.fn.module.qualname(call.func) or ""
    method = NUMPY_REDUCTIONS.get(qualname)
    if method is not None and ctx.types.is_tensor(call.args[0]):
        name = "np." + qualname.rsplit(".", 1)[-1]
        yield NUMPY_REDUCTION_OF_TENSOR.finding(call, name=name, method=method)


def check_globals(ctx: FunctionContext) -> Iterator[RawFinding]:
    """`ACT.register_forward_hook(...)` on a module-level Cell (`ACT = nn.ReLU()`): measured,
    the same refusal as on `self.act` (not cacheable: it reads the module's top-level names)."""
    calls: list[ast.Call] = ctx.of(ast.Call)
    for call in calls:
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr in METHOD_NAMES):
            continue
        if not isinstance(func.value, ast.Name) or not globals_.is_cell_instance(ctx, func.value):
            continue
        info = globals_.workspace_instance(ctx, func.value)
        if FACTS.forbidden_method("Cell", func.attr) and (
            info is None or info.find_method(func.attr) is None
        ):
            yield FORBIDDEN_API.finding(call, name=f"Cell.{func.attr}()")


def _forbidden(ctx: FunctionContext, call: ast.Call) -> Optional[str]:
    func = call.func
    qualname = names.callee(ctx.fn.module, func)
    if qualname and qualname.startswith("mindspore."):
        target = FACTS.forbidden_function(qualname)
        if target is not None:
            return target.rsplit(".", 1)[-1] + "(...)"
        if qualname in DEPRECATED_DTYPE_HELPERS or qualname in PARAMETER_TUPLE:
            return qualname.rsplit(".", 1)[-1] + "(...)"
    if isinstance(func, ast.Attribute) and func.attr == "remove" and _hook_handle(ctx, func.value):
        return "HookHandle.remove()"
    if isinstance(func, ast.Attribute) and func.attr in METHOD_NAMES:
        return _forbidden_method(ctx, func)
    return None


HOOK_REGISTRATIONS = frozenset(
    {
        "register_forward_hook",
        "register_forward_pre_hook",
        "register_backward_hook",
        "register_backward_pre_hook",
    }
)


def _hook_handle(ctx: FunctionContext, expr: ast.expr) -> bool:
    """`self.h` that `__init__` set to what `<cell>.register_forward_hook(...)` (or another
    hook registration) returned: a `HookHandle`, whose `remove` is forbidden in graph mode
    (measured on 2.10: `self.h.remove()` in `construct` or a helper it calls fails at both
    levels, "the method or function 'mindspore.common.hook_handle.HookHandle.remove' is not
    supported")."""
    held = receivers.self_attr(ctx, expr)
    node = held.node if held is not None else None
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in HOOK_REGISTRATIONS
    )


def _cell_method_fails(ctx: FunctionContext, name: str) -> bool:
    if name in CELL_METHODS_MEASURED:
        return True
    if name in CELL_METHODS_STRICT:
        return ctx.level == SyntaxLevel.STRICT
    return name in CELL_METHODS_FAILING and FACTS.graph_member("cell", name, ctx.level) in (
        "refused",
        "fails",
    )


def _forbidden_method(ctx: FunctionContext, func: ast.Attribute) -> Optional[str]:
    """`self.p.set_data`, `self.get_parameters`, `self.sub.register_forward_hook`: a method
    the facts table forbids on the receiver's kind, unless the workspace class defines its own."""
    kind = receivers.kind_of(ctx, func.value)
    if kind is None and func.attr in GIVEN_CELL_METHODS and _given_to_init(ctx, func.value):
        kind = receivers.CELL
    owners: tuple[str, ...] = OWNERS.get(kind, ()) if kind is not None else ()
    if not owners and ctx.types.is_tensor(func.value):
        owners = ("Tensor",)
    owner = next((o for o in owners if FACTS.forbidden_method(o, func.attr)), None)
    if owner is None and kind == receivers.CELL and _cell_method_fails(ctx, func.attr):
        owner = "Cell"
    if owner is None:
        return None
    info = receivers.workspace_class(ctx, func.value) if kind == receivers.CELL else None
    if info is not None and info.find_method(func.attr) is not None:
        return None  # the user's own method of that name
    return f"{owner}.{func.attr}()"


# Methods only a Cell has, by which a training step reads the weights of the network it was
# given (`self.net = net` in `__init__`): measured on 2.10 (round 36, `tr_`), an L2 term
# `for p in self.net.trainable_params():` (or `get_parameters()`) in a loss Cell's `construct`
# fails at both levels like the same call on `self.fc` ("the method or function
# 'mindspore.nn.cell.Cell.trainable_params' is not supported").
GIVEN_CELL_METHODS = frozenset({"trainable_params", "untrainable_params", "get_parameters"})


def _given_to_init(ctx: FunctionContext, expr: ast.expr) -> bool:
    """`self.<name>` that the Cell's `__init__` sets, once, to one of its own parameters."""
    cls = ctx.fn.cls
    name = receivers.self_attr_name(expr)
    if cls is None or not cls.is_cell or name is None or cls.attr_varies(name):
        return False
    held = cls.attr(name)
    init = cls.find_method("__init__")
    if held is None or not isinstance(held.node, ast.Name) or init is None:
        return False
    args = init[1].args
    own = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
    return held.node.id in own and len(cls.attribute_stores(name)) == 1
