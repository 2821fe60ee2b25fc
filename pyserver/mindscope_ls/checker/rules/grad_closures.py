"""MS1091, MS395-MS396: what a function differentiated in compiled code reads besides its inputs.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative (every program below ran
there), the transform called in a Cell's `construct` (or a method it calls):

- MS1091: `ms.vjp(f, x)` / `ms.jvp(f, x, v)` (or `ops.vjp` / `ops.jvp`) of a nested `def` or a
  lambda that reads a graph value of the enclosing function: the input itself
  (`lambda t: t * x`), another input, a Tensor local (`w = x * 2`) or `self` (`t * self.k`).
  Graph mode fails at every level ("Illegal AnfNode for evaluating, node: ...:param_x"; through
  `self`: "For 'TupleGetItem', input[0] should be Sequence"). A nested function reading only its
  own parameters, and a module-level function, compile. `ms.grad` of the same closures compiles
  (MS395 is what it computes).
- MS395: `ms.grad(f)(x)`, `ms.value_and_grad(f)(x)`, `ops.GradOperation()(f)(x)` where `f` (a
  nested `def` or lambda) also reads the Tensor it is differentiated by from the enclosing
  function (`def f(t): return (t * x).sum()`, through an alias `y = x` too, at any
  differentiated position; also when the caller passes the same Tensor for `x` and a free `y`):
  PyNative follows the Tensor into the closure and adds that use into the gradient ([2, -4, 6] for
  `x = [1, -2, 3]`), graph mode takes the closure's value as a constant ([1, -2, 3]). A closure
  over another Tensor (`w = x * 2`, `self.k`, an input at a position not differentiated) agrees,
  and so does the same code in an `@ms.jit` function (PyNative compiles it too).
- MS396 (LAX): `.asnumpy()` inside the function differentiated in compiled code, its value
  reaching the returned loss (`x * float(x.asnumpy().sum())`, `x - x.asnumpy().mean()`,
  `x / np.abs(x.asnumpy()).max()`, `Tensor(x.asnumpy() * 2)`, even `loss + n` with `n` read from
  `x.asnumpy().shape`): JIT Fallback turns the loss into an interpreted value and graph mode
  returns a zero gradient for every input, where PyNative treats the NumPy value as a constant.
  An `.asnumpy()` whose value the loss does not use, and the same function called without a
  transform, agree; STRICT refuses `asnumpy` (MS201).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional, Union

from ..index.module import FunctionNode
from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from .calls_shared import local_names
from .decorated_helpers import compiled_by_jit
from .grad_transforms import (
    GRADS,
    _applications,
    _grad_operation,
    _jvp_target,
    _mindspore_name,
    _positions,
)
from .helpers import names
from .helpers.base import FunctionContext
from .helpers.call_targets import Bindings
from .helpers.walk import of_type
from .map_closures import called_function, free_graph_value, own_names

VJP_OF_CLOSURE = Rule(
    "MS1091",
    "vjp-of-closure",
    Group.FAILS,
    title="`vjp`/`jvp` in compiled code of a nested function reading a graph value it does not own",
    message=(
        "`{call}` differentiates {what}, which reads `{name}` of the enclosing function: graph "
        "mode's forward/backward-mode transform cannot take a closure over a graph value and "
        "fails at every level (PyNative runs it); pass `{name}` in as an input, or use a module "
        "function."
    ),
    why=(
        "`vjp`/`jvp` compiled inside a graph rebuild the function's graph with its inputs "
        "only; a free variable naming a parameter or a node of the enclosing graph is left "
        'without a value there ("Illegal AnfNode for evaluating").'
    ),
    remedy=(
        "Give the value as another input (`ms.vjp(lambda t, w: t * w, x, w)`), or define the "
        "function at module level taking it as a parameter; `ms.grad` of a closure compiles."
    ),
    mindspore_says=(
        "RuntimeError: Illegal AnfNode for evaluating, node: @..._construct_17:param_x"
        "(type:Parameter)"
    ),
)
GRAD_OF_CLOSURE_INPUT = Rule(
    "MS395",
    "grad-closure-reads-input",
    Group.DIVERGES,
    title=(
        "A nested function differentiated in compiled code that also reads, from the enclosing "
        "function, the Tensor it is differentiated by"
    ),
    message=(
        "`{fn}` reads `{name}` from the enclosing function and is differentiated by `{arg}`, "
        "the same Tensor: PyNative adds that use into the gradient, graph mode takes the "
        "closure's `{name}` as a constant (a different gradient); pass it as a parameter "
        "instead."
    ),
    why=(
        "PyNative differentiates with respect to the Tensor object, wherever the function "
        "reads it, closures included. The compiled graph differentiates the function's "
        "parameters only; a free variable is a constant of the enclosing graph."
    ),
    remedy=(
        "Read the Tensor through the parameter (`def f(t): return (t * t).sum()`), or apply "
        "`ops.stop_gradient` to the closure's use when a constant is what you mean."
    ),
    mindspore_says="(no error: graph mode gives [1, -2, 3] where PyNative gives [2, -4, 6])",
)
GRAD_THROUGH_ASNUMPY = Rule(
    "MS396",
    "grad-through-asnumpy",
    Group.DIVERGES,
    title=(
        "A function differentiated in compiled code whose loss uses `.asnumpy()` (LAX: "
        "all-zero gradients)"
    ),
    message=(
        "`{call}` differentiates `{fn}`, whose result uses `{value}`: at LAX JIT Fallback "
        "makes the loss an interpreted value and graph mode returns zero gradients, while "
        "PyNative uses the NumPy value as a constant; compute it with Tensor ops (and "
        "`ops.stop_gradient`)."
    ),
    why=(
        "`asnumpy()` in compiled code runs through JIT Fallback: what is computed from it is a "
        "Python object the graph cannot differentiate, so the gradient of a loss built from it "
        "is zero for every input."
    ),
    remedy=(
        "Use Tensor operations (`ops.stop_gradient(x.abs().max())`, `x.mean()`) for the "
        "constant, or compute it outside the differentiated function and pass it in."
    ),
    mindspore_says="(no error: graph mode gives [0, 0, 0] where PyNative gives [5, 5, 5])",
)

Scope = Union[ast.Lambda, ast.FunctionDef]
FALLBACK_LEVELS = frozenset({SyntaxLevel.LAX, SyntaxLevel.COMPATIBLE})
TRANSFORM_WORDS = ("grad", "Grad", "vjp", "jvp")


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    module = ctx.fn.module
    if not any(module.mentions(w) for w in TRANSFORM_WORDS):
        return
    yield from _vjp_closures(ctx)
    if compiled_by_jit(ctx):
        return  # PyNative compiles `@jit` functions too: both modes agree there
    yield from _closure_inputs(ctx)
    if ctx.level in FALLBACK_LEVELS and module.mentions("asnumpy"):
        yield from _asnumpy_losses(ctx)


# --- MS1091 ---------------------------------------------------------------------------


def _vjp_closures(ctx: FunctionContext) -> Iterator[RawFinding]:
    for call in ctx.of(ast.Call):
        if not call.args or _mindspore_name(ctx.fn.module, call.func) not in ("vjp", "jvp"):
            continue
        scope = called_function(ctx, call.args[0])
        if scope is None:
            continue
        name = free_graph_value(ctx, scope)
        if name is not None:
            what = "a lambda" if isinstance(scope, ast.Lambda) else f"`{scope.name}`"
            yield VJP_OF_CLOSURE.finding(call, call=ast.unparse(call.func), what=what, name=name)


# --- MS395 ----------------------------------------------------------------------------


def _is_grad(ctx: FunctionContext, made: ast.Call) -> bool:
    """`made` builds a reverse-mode gradient function: `ms.grad(f, ...)`,
    `ms.value_and_grad(f, ...)`, `ops.GradOperation(...)(f)`, `self.grad_op(f)`."""
    if _mindspore_name(ctx.fn.module, made.func) in GRADS:
        return True
    func = made.func
    op = func if isinstance(func, ast.Call) else None
    if op is not None and _mindspore_name(ctx.fn.module, op.func) == "GradOperation":
        return True
    return _grad_operation(ctx, func) is not None


def _closure_inputs(ctx: FunctionContext) -> Iterator[RawFinding]:
    outer = local_names(ctx.fn.node)
    bindings: Optional[dict[str, ast.expr]] = None
    for call, made in _applications(ctx):
        if not made.args or not _is_grad(ctx, made):
            continue
        scope = called_function(ctx, made.args[0])
        if scope is None:
            continue
        positions = _positions(ctx, made)
        if not positions or any(isinstance(a, ast.Starred) for a in call.args):
            continue
        own = own_names(scope)
        free = {
            n.id
            for n in ast.walk(scope)
            if isinstance(n, ast.Name)
            and isinstance(n.ctx, ast.Load)
            and n.id not in own
            and n.id in outer
        }
        if not free:
            continue
        if bindings is None:
            bindings = Bindings.of(ctx.fn.node, ctx.fn.cls).single
        read: dict[str, str] = {}  # the Tensor name read -> the free name that reads it
        for name in free:
            read.setdefault(name, name)
            alias = bindings.get(name)
            if isinstance(alias, ast.Name):
                read.setdefault(alias.id, name)
        for i, arg in enumerate(call.args):
            if (
                i in positions
                and isinstance(arg, ast.Name)
                and arg.id in read
                and _bound_once(ctx, arg.id)
                and ctx.types.is_tensor(arg)
            ):
                shown = "lambda" if isinstance(scope, ast.Lambda) else scope.name
                yield GRAD_OF_CLOSURE_INPUT.finding(arg, fn=shown, name=read[arg.id], arg=arg.id)
                break


def _bound_once(ctx: FunctionContext, name: str) -> bool:
    """`name` is a parameter the function never rebinds, or a local bound once: the closure
    and the argument then hold the same Tensor."""
    stores = sum(1 for n in ctx.of(ast.Name) if n.id == name and not isinstance(n.ctx, ast.Load))
    params = {a.arg for a in ast.walk(ctx.fn.node.args) if isinstance(a, ast.arg)}
    return stores == (0 if name in params else 1)


# --- MS396 ----------------------------------------------------------------------------


def _asnumpy_losses(ctx: FunctionContext) -> Iterator[RawFinding]:
    for call, made in _grad_applications(ctx):
        fn = made.args[0] if made.args else None
        target = _jvp_target(ctx, fn) if fn is not None else None
        if target is None or not _in_module(ctx, target[0]):
            continue
        used = _asnumpy_in_result(target[0])
        if used is not None:
            shown = "lambda" if isinstance(target[0], ast.Lambda) else target[0].name
            yield GRAD_THROUGH_ASNUMPY.finding(
                call,
                related=[ctx.related(used, "the NumPy value the loss uses")],
                call=ast.unparse(call.func) if len(ast.unparse(call.func)) < 60 else shown,
                fn=shown,
                value=ast.unparse(used),
            )


def _grad_applications(ctx: FunctionContext) -> Iterator[tuple[ast.Call, ast.Call]]:
    """`_applications` that build gradients, and `self.gf(x)` with `self.gf =
    ms.value_and_grad(self.loss)` set once in `__init__`."""
    for call, made in _applications(ctx):
        if _is_grad(ctx, made):
            yield call, made
    cls = ctx.fn.cls
    if cls is None:
        return
    for call in ctx.of(ast.Call):
        name = names.self_attribute(call.func)
        if name is None or cls.attr_varies(name):
            continue
        attr = cls.attr(name)
        node = attr.node if attr is not None else None
        if isinstance(node, ast.Call) and _mindspore_name(cls.module, node.func) in GRADS:
            yield call, node


def _in_module(ctx: FunctionContext, node: Union[FunctionNode, ast.Lambda]) -> bool:
    tree = ctx.fn.module.tree
    if tree is None:
        return False
    if isinstance(node, ast.Lambda):
        return any(n is node for n in ctx.of(ast.Lambda))
    return any(n is node for n in of_type(tree, ast.FunctionDef))


def _asnumpy_in_result(fn: Union[FunctionNode, ast.Lambda]) -> Optional[ast.Call]:
    """The first `.asnumpy()` call whose value reaches what `fn` returns (through names bound
    from it), else None."""
    results: list[ast.expr]
    if isinstance(fn, ast.Lambda):
        results = [fn.body]
    else:
        results = [r.value for r in of_type(fn, ast.Return) if r.value is not None]
    calls = [
        c
        for c in of_type(fn, ast.Call)
        if isinstance(c.func, ast.Attribute) and c.func.attr == "asnumpy" and not c.args
    ]
    if not calls or not results:
        return None
    tainted: dict[str, ast.Call] = {}
    assigns: list[Union[ast.Assign, ast.AugAssign, ast.AnnAssign]] = of_type(
        fn, ast.Assign, ast.AugAssign, ast.AnnAssign
    )
    for _ in range(3):  # names bound from names bound from it
        for assign in assigns:
            value = assign.value
            if value is None:
                continue
            source = _source(value, calls, tainted)
            if source is None:
                continue
            targets = assign.targets if isinstance(assign, ast.Assign) else [assign.target]
            for target in targets:
                for n in ast.walk(target):
                    if isinstance(n, ast.Name):
                        tainted.setdefault(n.id, source)
    for result in results:
        source = _source(result, calls, tainted)
        if source is not None:
            return source
    return None


def _source(
    expr: ast.expr, calls: list[ast.Call], tainted: dict[str, ast.Call]
) -> Optional[ast.Call]:
    for node in ast.walk(expr):
        if isinstance(node, ast.Call) and any(node is c for c in calls):
            return node
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in tainted:
            return tainted[node.id]
    return None
