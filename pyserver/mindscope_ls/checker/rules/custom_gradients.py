"""MS1160-MS1163, MS3050: custom gradients and pyfunc ops in graph mode (round 37, `cb_`).

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative (every program below runs
in PyNative):

- MS1160: a Cell's custom `bprop` whose named parameters are not the inputs of `construct` plus
  `out` and `dout`: an extra parameter with a default (`def bprop(self, x, out, dout, k=1)`,
  `scale=None`, two of them, keyword-only `*, k=1`, `**kw`) fails as soon as graph mode
  differentiates the Cell ("The number of parameter of this primal function is 1, but the
  number of parameters of bprop is 2"; through `nn.TrainOneStepCell`: "The output size of the
  'bprop' must match the number of parameters in its corresponding primal function"), through
  `ms.grad` at the top level, `ops.GradOperation` in an outer Cell and `TrainOneStepCell`
  alike; PyNative calls the bprop with Python's argument passing and fills the default. So does
  a `construct(self, x, y=2.0)` whose defaulted input the call leaves out while the bprop names
  it (graph mode counts the inputs given: every `ms.grad(Net())(x)` / `ops.GradOperation()(net)(x)`
  of the module giving one input). Compile alike: the counts equal (defaults on `out`
  and `dout`, or on every parameter, change nothing), the Cell run forward only. `*args` is
  MS1089's.
- MS1161: `ops.Custom(f, out_shape, out_dtype, func_type="pyfunc")` built in compiled code with a
  function that compiled code defines (a nested `def`, a lambda, a local bound to one; in
  `construct`, a helper method or a module function it calls): "For 'Custom', 'func' must be of
  type function or str, but got <class 'NoneType'>" at both levels (graph mode holds such a
  function as a graph, not a Python function). Compile alike: a module function, a static
  method, `self.fn` set to a module function, a method `self.f`, and the same nested `def` in
  `__init__`.
- MS1162: the function given to `ops.InsertGradientOf` is compiled into the backward graph, where
  `g.asnumpy()` / `g.tolist()` fail at both levels when the Cell is differentiated ("name
  '__call_func_str__' is not defined"; under STRICT inside a compiled `construct`, "cannot get
  attributes asnumpy"): used or not, printed, in a module function, a method, an op built in
  `construct`. Compile alike: `float(g.sum())`, `g.sum().item()`, `int(g.shape[0])`, NumPy
  constants (`np.ones(3)`, `np.sqrt(4.0)`), and the Cell run forward only.
- MS1163: `y.register_hook(f)` in compiled code with `f` a lambda or a nested `def` (also a local
  bound to a lambda) fails when graph mode differentiates ("The object is not callable. Please
  check code."), both levels. Compile and agree: a module function, a method `self.dbl`, and the
  Cell run forward only.
- MS3050 (warning): `ops.HookBackward(hook)` called in a Cell's compiled code does nothing there:
  the hook is not called when graph mode differentiates (`return (grad[0] * 3,)` leaves the
  gradient as it is, a `print` or `LOG.append` in it does not run), at both levels, the
  HookBackward made in `__init__` or in `construct`, its hook a module function or a method, the
  Cell differentiated by `ms.grad` or by an outer Cell's `GradOperation`. Alike: a hook whose
  body does nothing (`pass`), the Cell run forward only.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..index.module import FunctionNode, ModuleInfo
from ..model import Group, Range, RawFinding
from ..rule import Rule
from .composite_graphs import _is_ops
from .grad_transforms import (
    DIFFERENTIATING,
    _bprop_related,
    _differentiates,
    _may_differentiate,
    _mindspore_name,
    names_built,
)
from .helpers import names, receivers
from .helpers.base import FunctionContext
from .helpers.walk import of_type

BPROP_PARAMETER_COUNT = Rule(
    "MS1160",
    "bprop-parameter-count",
    Group.FAILS,
    title=(
        "A Cell's custom `bprop` whose parameters are not the inputs of `construct` plus `out` "
        "and `dout`"
    ),
    message=(
        "`{cls}.bprop` takes {got} named parameters where graph mode needs {need} (the "
        "{inputs} `construct` is given, then `out` and `dout`): it fails when it differentiates "
        "`{cls}`, at every level, though PyNative calls it as a Python method; {advice}."
    ),
    why=(
        "Graph mode matches a custom bprop with its Cell by counting: the bprop must name each "
        "input the forward call was given, then `out` and `dout`, no more (defaults and "
        "keyword-only parameters count too) and no fewer. PyNative calls it as a Python method."
    ),
    remedy=(
        "Give `bprop` exactly the parameters `(self, <inputs of construct>, out, dout)`; keep "
        "constants in `self` attributes instead of extra parameters, and pass every input of "
        "`construct` the bprop names."
    ),
    mindspore_says=(
        "TypeError: Function ..._Net_construct_7, The number of parameter of this primal "
        "function is 1, but the number of parameters of bprop is 2"
    ),
)

CUSTOM_LOCAL_FUNCTION = Rule(
    "MS1161",
    "custom-op-local-function",
    Group.FAILS,
    title="`ops.Custom(...)` built in compiled code with a function compiled code defines",
    message=(
        "`{func}` is {what} defined in compiled code, given to `ops.Custom(...)` there: graph "
        "mode holds it as a graph, not a Python function, and fails at every level; define "
        "it at module level (or build the op in `__init__`)."
    ),
    why=(
        "A pyfunc Custom op calls its function from the kernel as a Python function; a nested "
        "`def` or lambda met in compiled code is compiled into a graph, and the op receives "
        "None for it."
    ),
    remedy=(
        "Move the function to module level (or make it a static method) and pass its name; or "
        "create the `ops.Custom` op in `__init__`."
    ),
    mindspore_says=(
        "TypeError: For 'Custom', 'func' must be of type function or str, but got <class "
        "'NoneType'>"
    ),
)

INSERT_GRADIENT_HOST_READ = Rule(
    "MS1162",
    "insert-gradient-host-read",
    Group.FAILS,
    title="`.asnumpy()` / `.tolist()` in the function given to `ops.InsertGradientOf`",
    message=(
        "`{text}` in `{func}`, which `ops.InsertGradientOf` compiles into the backward graph: "
        "graph mode cannot read a gradient back to the host there and fails when it "
        "differentiates (every level); compute with Tensor ops (`ops.clip_by_value`, `g * s`)."
    ),
    why=(
        "InsertGradientOf's function runs inside the compiled backward pass, where LAX's "
        "Python fallback has no frame to run `asnumpy()` in (and STRICT has no such attribute); "
        "PyNative calls it in Python."
    ),
    remedy="Use Tensor operations on the gradient; print it with `ops.Print()` if needed.",
    mindspore_says="NameError: name '__call_func_str__' is not defined",
)

LOCAL_TENSOR_HOOK = Rule(
    "MS1163",
    "tensor-hook-local-function",
    Group.FAILS,
    title="`t.register_hook(f)` in compiled code with a function compiled code defines",
    message=(
        "`{text}` registers {what} defined in compiled code as a Tensor hook: graph mode cannot "
        'call it when it differentiates ("The object is not callable"), at every level; '
        "define the hook at module level or as a method (`self.hook`)."
    ),
    why=(
        "A Tensor hook registered in compiled code is called by the backward graph as a Python "
        "function; a lambda or nested `def` met in compiled code is a graph, not a callable "
        "Python object."
    ),
    remedy="Move the hook to module level (or a method of the Cell) and register it by name.",
    mindspore_says="ValueError: The object is not callable. Please check code.",
)

HOOK_BACKWARD_IGNORED = Rule(
    "MS3050",
    "hook-backward-ignored-in-graph",
    Group.DIVERGES,
    title="`ops.HookBackward` called in a Cell's compiled code: its hook never runs",
    message=(
        "`{text}`: graph mode does not call the hook of `ops.HookBackward` when it "
        "differentiates (the gradient is left as it is, the hook's prints and writes do not "
        "happen), while PyNative calls `{hook}`; use `ops.InsertGradientOf` to change a "
        "gradient in graph mode."
    ),
    why=(
        "HookBackward is a PyNative feature: the compiled backward graph passes the gradient "
        "through it unchanged."
    ),
    remedy=(
        "Change gradients with `ops.InsertGradientOf(fn)` (compiled into the backward graph), "
        "or run the Cell in PyNative where the hook matters."
    ),
    mindspore_says="(compiles; the hook is not called)",
)


# --- MS1160 ------------------------------------------------------------------------------


def check_module(module: ModuleInfo) -> Iterator[RawFinding]:
    tree = module.tree
    if tree is None:
        return
    if module.mentions("bprop"):
        yield from _bprop_counts(module, tree)
    if module.mentions("InsertGradientOf"):
        yield from _insert_gradient_reads(module, tree)


def _bprop_counts(module: ModuleInfo, tree: ast.Module) -> Iterator[RawFinding]:
    classes = [
        c for c in module.classes.values() if _method(c, "bprop") and _method(c, "construct")
    ]
    if not classes or not _differentiates(module, tree):
        return
    for cls in classes:
        bprop, construct = _method(cls, "bprop"), _method(cls, "construct")
        assert bprop is not None and construct is not None
        if bprop.args.vararg is not None or construct.args.vararg is not None:
            continue  # MS1089's, or a wrapper taking anything
        if (
            construct.args.kwonlyargs
            or construct.args.kwarg is not None
            or _method(cls, "__call__")
        ):
            continue
        inputs = [a.arg for a in (*construct.args.posonlyargs, *construct.args.args)][1:]
        required = len(inputs) - len(construct.args.defaults)
        params = (
            len(bprop.args.posonlyargs)
            + len(bprop.args.args)
            - 1
            + len(bprop.args.kwonlyargs)
            + (1 if bprop.args.kwarg is not None else 0)
        )
        given = params - 2
        need = f"{required + 2}" if required == len(inputs) else f"{required + 2}-{len(inputs) + 2}"
        told = "input" if len(inputs) == 1 else f"{len(inputs)} inputs"
        if required <= given <= len(inputs):
            counts = _applied_counts(module, tree).get(cls.name) if required < len(inputs) else None
            if not counts or given in counts:
                continue  # a call may give the bprop's count of inputs
            need = " or ".join(str(c + 2) for c in sorted(counts))
            told = " or ".join(str(c) for c in sorted(counts)) + " input(s)"
            advice = "give the bprop only the inputs the calls pass, or pass them all"
        elif not _may_differentiate(module, tree, cls.name):
            continue
        elif given > len(inputs):
            advice = "drop the extra parameters (keep constants in `self` attributes)"
        else:
            advice = "name every input of `construct` before `out, dout`"
        col = bprop.col_offset
        yield BPROP_PARAMETER_COUNT.finding(
            Range(bprop.lineno, col, bprop.lineno, col + len("def bprop")),
            related=_bprop_related(module, tree, bprop),  # MindSpore names its return
            cls=cls.name,
            got=params,
            need=need,
            inputs=told,
            advice=advice,
        )


def _applied_counts(module: ModuleInfo, tree: ast.Module) -> dict[str, set[int]]:
    """How many inputs each differentiation in the module gives a Cell of each class:
    `ms.grad(Net())(x)`, `ms.value_and_grad(net, ...)(x, y)`, `ops.GradOperation()(Net())(x)`
    with `net = Net()` bound once. Empty when any differentiation is written otherwise (a
    `TrainOneStepCell`, a grad function stored, `sens_param=True`, `*args`): its inputs are
    then unknown. Measured: `construct(self, x, y=2.0)` called with `x` only fails with a bprop
    naming `y` ("The number of parameter of this primal function is 1")."""
    made: dict[str, set[str]] = {}
    for name, built in names_built(tree).items():
        made.setdefault(name, set()).update(built)
    counts: dict[str, set[int]] = {}
    consumed: set[int] = set()
    for call in of_type(tree, ast.Call):
        inner = call.func
        if not isinstance(inner, ast.Call) or not inner.args:
            continue
        if any(isinstance(a, ast.Starred) for a in call.args) or call.keywords:
            continue
        what = _mindspore_name(module, inner.func)
        maker = inner.func
        if what in ("grad", "value_and_grad"):
            consumed.add(id(inner))
        elif isinstance(maker, ast.Call) and _mindspore_name(module, maker.func) == "GradOperation":
            if any(k.arg == "sens_param" for k in maker.keywords) or maker.args:
                continue
            consumed.add(id(maker))
        else:
            continue
        fn = inner.args[0]
        if isinstance(fn, ast.Call) and isinstance(fn.func, ast.Name):
            classes = {fn.func.id}
        elif isinstance(fn, ast.Name) and len(made.get(fn.id, ())) == 1:
            classes = made[fn.id]
        else:
            return {}
        for name in classes:
            counts.setdefault(name, set()).add(len(call.args))
    for node in of_type(tree, ast.Call):
        if _mindspore_name(module, node.func) in DIFFERENTIATING and id(node) not in consumed:
            return {}  # a differentiation whose inputs are not read here
    return counts


def _method(cls: ast.ClassDef, name: str) -> Optional[ast.FunctionDef]:
    for stmt in cls.body:
        if isinstance(stmt, ast.FunctionDef) and stmt.name == name:
            return stmt
    return None


# --- MS1162 ------------------------------------------------------------------------------

HOST_READS = frozenset({"asnumpy", "tolist"})


def _insert_gradient_reads(module: ModuleInfo, tree: ast.Module) -> Iterator[RawFinding]:
    if not _differentiates(module, tree) or module.mentions("TrainOneStep"):
        return  # measured: through `nn.TrainOneStepCell` LAX compiles it (STRICT: MS201's)
    seen: set[int] = set()
    for cls in module.classes.values():
        for call in of_type(cls, ast.Call):
            if not call.args or not _names_op(module, call.func, "InsertGradientOf"):
                continue
            fn = _function_of(module, cls, call.args[0])
            if fn is None or id(fn) in seen:
                continue
            seen.add(id(fn))
            for read in of_type(fn, ast.Call):
                func = read.func
                if isinstance(func, ast.Attribute) and func.attr in HOST_READS and not read.args:
                    yield INSERT_GRADIENT_HOST_READ.finding(
                        read, text=ast.unparse(read), func=fn.name
                    )
                    break


def _names_op(module: ModuleInfo, func: ast.expr, op: str) -> bool:
    last = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    return last == op and _is_ops(module.qualname(func), op)


def _function_of(module: ModuleInfo, cls: ast.ClassDef, expr: ast.expr) -> Optional[FunctionNode]:
    """The module function `f` or the method `self.f` named by `expr`."""
    if isinstance(expr, ast.Name):
        return module.functions.get(expr.id)
    name = names.self_attribute(expr)
    if name is not None:
        return _method(cls, name)
    return None


# --- MS1161, MS3050 ----------------------------------------------------------------------


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    module = ctx.fn.module
    if module.mentions("Custom"):
        yield from _custom_local(ctx)
    if module.mentions("register_hook") and _differentiating(module):
        yield from _hook_local(ctx)
    if module.mentions("HookBackward") and ctx.fn.level is None and _differentiating(module):
        yield from _hook_backward(ctx)


def _differentiating(module: ModuleInfo) -> bool:
    return module.tree is not None and _differentiates(module, module.tree)


def _local_defs(ctx: FunctionContext) -> set[str]:
    """The names of the functions a compiled function defines in its body."""
    defs: list[FunctionNode] = ctx.of(ast.FunctionDef, ast.AsyncFunctionDef)
    return {n.name for n in defs if n is not ctx.fn.node}


def _custom_local(ctx: FunctionContext) -> Iterator[RawFinding]:
    local_defs = _local_defs(ctx)
    for call in ctx.of(ast.Call):
        if not _is_ops(names.callee(ctx.fn.module, call), "Custom"):
            continue
        func = call.args[0] if call.args else names.keyword(call, "func")
        if isinstance(func, ast.Lambda):
            yield CUSTOM_LOCAL_FUNCTION.finding(call, func=ast.unparse(func), what="a lambda")
        elif isinstance(func, ast.Name):
            if func.id in local_defs:
                yield CUSTOM_LOCAL_FUNCTION.finding(call, func=func.id, what="a nested `def`")
            elif isinstance(receivers.only_binding(ctx, func.id), ast.Lambda):
                yield CUSTOM_LOCAL_FUNCTION.finding(call, func=func.id, what="a lambda")


def _hook_local(ctx: FunctionContext) -> Iterator[RawFinding]:
    local_defs = _local_defs(ctx)
    for call in ctx.of(ast.Call):
        func = call.func
        if not (
            isinstance(func, ast.Attribute)
            and func.attr == "register_hook"
            and len(call.args) == 1
            and ctx.types.is_tensor(func.value)
        ):
            continue
        hook = call.args[0]
        if isinstance(hook, ast.Lambda):
            what = "a lambda"
        elif isinstance(hook, ast.Name) and hook.id in local_defs:
            what = "a nested `def`"
        elif isinstance(hook, ast.Name) and isinstance(
            receivers.only_binding(ctx, hook.id), ast.Lambda
        ):
            what = "a lambda"
        else:
            continue
        yield LOCAL_TENSOR_HOOK.finding(call, text=ast.unparse(call), what=what)


def _hook_backward(ctx: FunctionContext) -> Iterator[RawFinding]:
    if ctx.fn.cls is None or not ctx.fn.cls.is_cell:
        return
    module = ctx.fn.module
    for call in ctx.of(ast.Call):
        func = call.func
        made: Optional[ast.Call] = None
        if isinstance(func, ast.Call) and _names_op(module, func.func, "HookBackward"):
            made = func
        else:
            held = receivers.self_attr(ctx, func)
            node = held.node if held is not None else None
            if isinstance(node, ast.Call) and _names_op(module, node.func, "HookBackward"):
                made = node
        if made is None or not made.args:
            continue
        hook = made.args[0]
        if _does_nothing(ctx, hook):
            continue
        yield HOOK_BACKWARD_IGNORED.finding(call, text=ast.unparse(call), hook=ast.unparse(hook))


def _does_nothing(ctx: FunctionContext, hook: ast.expr) -> bool:
    """A module function or method whose body is `pass`, a docstring or `return None`."""
    fn: Optional[FunctionNode] = None
    if isinstance(hook, ast.Name):
        fn = ctx.fn.module.functions.get(hook.id)
    elif ctx.fn.cls is not None and names.self_attribute(hook) is not None:
        found = ctx.fn.cls.find_method(names.self_attribute(hook) or "")
        fn = found[1] if found is not None else None
    if fn is None:
        return False
    for stmt in fn.body:
        if isinstance(stmt, ast.Pass):
            continue
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue
        if isinstance(stmt, ast.Return) and (
            stmt.value is None
            or (isinstance(stmt.value, ast.Constant) and stmt.value.value is None)
        ):
            continue
        return False
    return True
