"""MS1057-MS1059, MS376-MS377: automatic differentiation applied inside compiled code.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative (every program below ran
there; `@ms.jit` functions are compiled by PyNative as well, so only the Cell forms tell the two
modes apart):

- MS1057: an `ops.GradOperation(get_by_list=True)` (written inline, held by the Cell, or the
  `self.grad` a `nn.TrainOneStepCell` subclass inherits) applied to the network alone,
  `self.grad(self.net)(x)`: graph mode fails ("For 'S_Prim_grad', the size of input should be 2, but
  got 1"), PyNative returns the gradients. `self.grad(self.net, self.weights)(x)` and
  `GradOperation()` / `get_by_list=False` applied alone compile. A `GradOperation(sens_param= True)`
  (or the inherited `self.grad`) given a Python number as the sens, `self.grad(net)(x, 1.0)`, `1`,
  `self.scale` set to `1024.0` in `__init__`, or the float `self.sens` a `TrainOneStepCell` subclass
  inherits, fails too ("Type Join Failed: dtype1 = Float32, dtype2 = Any"); a Tensor sens
  (`Tensor(2.0, ms.float32)`, `ops.ones_like(loss)`) compiles. A list as the sens of a two-output
  Cell fails as well ("Type Join Failed: Abstract type AbstractList cannot join with
  AbstractTuple"); a tuple compiles.
- MS1058: a Cell's `bprop` returning one value rather than a tuple (`return dout * 5`,
  `return ops.zeros_like(x)`, `return [dout]`, `return dout`) fails as soon as graph mode
  differentiates the Cell ("For bprop function, output should be a tuple"): `ops.grad` of it
  in a `construct`, of an outer Cell calling it, at the top level, `nn.TrainOneStepCell`.
  PyNative accepts the single value. `return (dout * 5,)`, `return dout * 5,`, a name bound to
  a tuple, and the Cell run forward only compile.
- MS1059: `ms.grad(f)(x)`, `ms.value_and_grad(f)(x)`, `ms.vmap(f)(x)` (inline, or bound to a local
  first) in compiled code, where `f` (a module function, nested `def`, lambda, method, or a held
  Cell: `ms.grad(self.inner)(x)` with `construct(self, x, mask=None)`) has a parameter with a
  default, `*args` or `**kwargs` that the call leaves out (a `@staticmethod` through `self.loss`,
  each function of `for fn in (f1, f2)`, `*args` of a tuple counted by its items): graph mode calls
  `f` with exactly the arguments given ("The parameters number of the function is 2, but the number
  of provided arguments is 1"). Passing every parameter (by keyword too), `*xs` given exactly one
  argument, `ops.GradOperation()(f)(x)`, `ops.jacrev`/`ops.jacfwd`/`ops.jvp`, a Cell with defaulted
  `construct` inputs under `GradOperation`, and a grad function made in `__init__` or at module
  level all compile. `ms.vmap(ms.grad(f))(x)` calls `f` with `x` alone as well. Same message for
  `ops.jvp(f, x, v)` in compiled code when `f` (or a held Cell's `construct`) loops `while` on a
  condition reading its inputs ("... the function is 2, but the number of provided arguments is 3");
  an `if` on a Tensor, a `for` with `break`, a `while` on a Python counter, `ops.vjp` and a
  top-level `ops.jvp` compile.
- MS376: gradients with respect to a Parameter made with `requires_grad=False` (or set so in
  `__init__`), given as `weights` in a Cell's compiled code: PyNative returns zeros for it,
  graph mode the real gradient. Parameters left trainable, or set back to `requires_grad=True`,
  agree.
- MS377: at a position being differentiated, a tuple/list/dict of Tensors
  (`ms.grad(f)((x, y))`): PyNative returns no gradient (`()`), graph mode the gradients of the
  items; or the same Tensor given at two positions (`ms.grad(f)(x, x)`,
  `GradOperation(get_all=True)(net)(x, x)`): PyNative adds both uses into each gradient, graph
  mode keeps them apart. A container or a repeated Tensor at positions not differentiated, and
  distinct Tensors, agree. `mutable([x, y])` counts as a container, and `mutable(2)` at a
  differentiated position gets a 0 in graph mode and no entry in PyNative; a plain int agrees.
  The sens of a `GradOperation(sens_param=True)` is not a differentiated input (a tuple sens
  agrees); `grad_position=pos` with `pos = 1` bound once is read as 1.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional, Union

from ..index.module import FunctionNode, ModuleInfo
from ..model import Group, Range, RawFinding, Related
from ..rule import Rule, node_range
from .decorated_helpers import compiled_by_jit
from .helpers import names
from .helpers.base import FunctionContext
from .helpers.call_targets import Bindings
from .helpers.classes import ClassInfo
from .helpers.receivers import LAYER_PARAMETERS
from .helpers.walk import of_type

GRAD_OPERATION_APPLICATION = Rule(
    "MS1057",
    "grad-operation-application",
    Group.FAILS,
    title=(
        "A `GradOperation` applied in compiled code without the weights it differentiates, or "
        "given a Python number as its sens"
    ),
    message="`{call}` {problem}, which graph mode rejects; {advice}.",
    why=(
        "With `get_by_list=True` the compiled `GradOperation` is a two-input operation (the "
        "network and the ParameterTuple to differentiate), and with `sens_param=True` the last "
        "input is the output's gradient, a Tensor; PyNative tolerates the missing weights and a "
        "Python number, graph mode does not."
    ),
    remedy=(
        "Keep the weights in `__init__` (`self.weights = ParameterTuple(net.trainable_params())`"
        ", or the `self.weights` of `nn.TrainOneStepCell`) and pass them as the second argument;"
        " give the sens as a Tensor (`ops.fill(loss.dtype, loss.shape, 1.0)`)."
    ),
    mindspore_says=(
        "RuntimeError: For 'S_Prim_grad', the size of input should be 2, but got 1. Please "
        "check inputs of the operator. (sens 1.0: TypeError: Type Join Failed: dtype1 = "
        "Float32, dtype2 = Any)"
    ),
)
BPROP_NOT_TUPLE = Rule(
    "MS1058",
    "bprop-returns-single-value",
    Group.FAILS,
    title="A Cell's custom `bprop` returns one value, not a tuple",
    message=(
        "`{cls}.bprop` returns `{value}`, not a tuple: graph mode fails when it differentiates "
        "`{cls}` (a bprop must return a tuple with one gradient per input); return "
        "`({value},)`."
    ),
    why=(
        "Graph mode checks that a custom `bprop` returns a tuple of gradients, one per input of "
        "`construct`; PyNative accepts a single Tensor for a single input."
    ),
    remedy="Return a tuple: `return (dout * 2,)` (note the comma).",
    mindspore_says=(
        "TypeError: For bprop function, output should be a tuple, but got AbstractTensor(shape: "
        "(2, 3), ...)"
    ),
)
BPROP_READS_PARAMETER = Rule(
    "MS1086",
    "bprop-reads-parameter",
    Group.FAILS,
    title="A Cell's custom `bprop` reads one of the Cell's Parameters",
    message=(
        "`{cls}.bprop` reads the Parameter `{param}`: graph mode refuses a user-defined bprop "
        "that uses a Parameter when it differentiates `{cls}` (fails at every level); pass the "
        "value in as an input of `construct`, or compute it in a method the bprop calls."
    ),
    why=(
        "Graph mode builds a custom `bprop` into the backward graph on its own and does not let "
        "it capture the Cell's Parameters; PyNative calls it as a plain Python method."
    ),
    remedy=(
        "Read the Parameter in `construct` and hand the value over through `out` or an input, "
        "or move the read into a helper method of the Cell that the bprop calls."
    ),
    mindspore_says=(
        "RuntimeError: The user defined 'bprop' function in scope Default/sub-Sub does not "
        "support using Parameter."
    ),
)
BPROP_VARARGS = Rule(
    "MS1089",
    "bprop-varargs",
    Group.FAILS,
    title="A Cell's custom `bprop` takes `*args`",
    message=(
        "`{cls}.bprop` takes `*{vararg}`: graph mode needs a custom bprop to name each input "
        "of `construct` and then `out` and `dout` as its parameters, and fails when it "
        "differentiates `{cls}` (at every level); write them out: `{signature}`."
    ),
    why=(
        "Graph mode matches a custom bprop's parameters with the inputs of `construct` plus "
        "`out` and `dout` by counting named parameters; PyNative calls it with Python's "
        "argument passing, where `*args` takes them all."
    ),
    remedy="Name the parameters: `def bprop(self, x, y, out, dout):`.",
    mindspore_says=(
        "TypeError: The params of function 'bprop' of Primitive or Cell requires the forward "
        "inputs as well as the 'out' and 'dout'."
    ),
)
GRAD_DEFAULTS_NOT_FILLED = Rule(
    "MS1059",
    "transform-argument-count",
    Group.FAILS,
    title=(
        "A function transform in compiled code whose function graph mode calls with another "
        "number of arguments: defaults or `*args` left out, or `ops.jvp` through a `while` on "
        "a Tensor"
    ),
    message="`{call}` {problem}; {advice}.",
    why=(
        "A `grad`, `value_and_grad` or `vmap` built in compiled code calls the function's graph "
        "with exactly the arguments given: parameter defaults are not filled in, and `*args` / "
        "`**kwargs` count as one parameter each. Forward-mode `ops.jvp` cannot carry its "
        "tangents through the graph of a `while` loop on a Tensor, which then gets one argument "
        "too many."
    ),
    remedy=(
        "Pass the defaulted parameters explicitly, or bind them first with a small wrapper "
        "(`def loss(x): return f(x, 2.0)`), or build the grad function in `__init__`; for "
        "`ops.jvp`, loop over a constant `range` (with `break`) instead of `while`, or use "
        "reverse mode (`ms.grad`, `ops.vjp`)."
    ),
    mindspore_says=(
        "TypeError: The parameters number of the function is 2, but the number of provided "
        "arguments is 1."
    ),
)
FROZEN_PARAMETER_GRAD = Rule(
    "MS376",
    "grad-of-frozen-parameter",
    Group.DIVERGES,
    title="Gradients in compiled code with respect to a Parameter with `requires_grad=False`",
    message=(
        "`{param}` has `requires_grad=False`: PyNative returns a zero gradient for it, while "
        "graph mode computes the real one here; leave it out of the weights, or make it "
        "trainable."
    ),
    why=(
        "PyNative's automatic differentiation skips Parameters that do not require gradients "
        "and returns zeros in their place; the compiled graph differentiates every weight it "
        "is given."
    ),
    remedy=(
        "Pass only trainable Parameters as weights (`net.trainable_params()`), or set "
        "`requires_grad=True` when their gradient is wanted."
    ),
    mindspore_says="(no error: graph mode gives [2, 2, 2] where PyNative gives [0, 0, 0])",
)
GRAD_ARGUMENT_IDENTITY = Rule(
    "MS377",
    "grad-argument-identity",
    Group.DIVERGES,
    title=(
        "A differentiated argument that is a tuple/list/dict, or a Tensor given at two "
        "positions, in compiled code"
    ),
    message=("`{arg}` {problem}: PyNative {pynative}, graph mode {graph}; {advice}."),
    why=(
        "PyNative differentiates with respect to the Tensor objects it is given: a container "
        "is not one (no gradient), and a Tensor given twice gets the sum of both uses. The "
        "compiled graph differentiates each argument position on its own."
    ),
    remedy=(
        "Pass the Tensors as separate arguments, and give distinct Tensors to the positions "
        "you differentiate."
    ),
    mindspore_says="(no error: graph mode gives [1, 1, 1] where PyNative gives [2, 2, 2])",
)

FUNCTIONAL = frozenset({"grad", "value_and_grad", "vmap"})
GRADS = frozenset({"grad", "value_and_grad"})
TRAIN_ONE_STEP = "TrainOneStepCell"
# What differentiates a Cell once graph mode runs the program (MS1058).
DIFFERENTIATING = frozenset(
    {"grad", "value_and_grad", "GradOperation", "jacrev", "jacfwd", "vjp", TRAIN_ONE_STEP}
)
TUPLE_RESULT_OPS = frozenset({"topk", "sort", "split", "unique", "chunk", "unbind", "meshgrid"})


def _mindspore_name(module: ModuleInfo, func: ast.expr) -> Optional[str]:
    """The last part of the MindSpore API `func` names (`grad` for `ms.grad`), else None."""
    if not isinstance(func, (ast.Name, ast.Attribute)):
        return None
    qualname = module.qualname(func)
    if qualname is None or not qualname.startswith("mindspore."):
        return None
    return qualname.rsplit(".", 1)[-1]


def _applications(ctx: FunctionContext) -> Iterator[tuple[ast.Call, ast.Call]]:
    """(call of the transformed function, the transform's call): `T(f, ...)(args)` or
    `g = T(f, ...)` bound once then `g(args)`."""
    bindings: Optional[dict[str, ast.expr]] = None
    for call in ctx.of(ast.Call):
        made = call.func
        if isinstance(made, ast.Name):
            if bindings is None:
                bindings = Bindings.of(ctx.fn.node, ctx.fn.cls).single
            bound = bindings.get(made.id)
            if not isinstance(bound, ast.Call):
                continue
            made = bound
        if isinstance(made, ast.Call):
            yield call, made


# --- MS1057 ---------------------------------------------------------------------------


def _grad_operation(ctx: FunctionContext, expr: ast.expr) -> Optional[ast.Call]:
    """The `ops.GradOperation(...)` construction `expr` is or names (inline, `self.grad`)."""
    return gradient_operation(expr, ctx.fn.module, ctx.fn.cls)


def gradient_operation(
    expr: ast.expr, module: ModuleInfo, cls: Optional[ClassInfo]
) -> Optional[ast.Call]:
    """`ops.GradOperation(...)` written inline or held by the Cell (`self.grad`)."""
    if isinstance(expr, ast.Call) and _mindspore_name(module, expr.func) == "GradOperation":
        return expr
    name = names.self_attribute(expr)
    if name is None or cls is None or cls.attr_varies(name):
        return None
    attr = cls.attr(name)
    node = attr.node if attr is not None else None
    if isinstance(node, ast.Call) and _mindspore_name(cls.module, node.func) == "GradOperation":
        return node
    return None


def _by_list(made: ast.Call) -> bool:
    flag = names.keyword(made, "get_by_list")
    if flag is None and len(made.args) > 1:
        flag = made.args[1]
    return isinstance(flag, ast.Constant) and flag.value is True


def _inherited_train_grad(ctx: FunctionContext, expr: ast.expr, attr: str = "grad") -> bool:
    """`self.grad` of a subclass of `nn.TrainOneStepCell` that does not set it itself (MindSpore's
    is `GradOperation(get_by_list=True, sens_param=True)`; its `self.sens` is a float)."""
    cls = ctx.fn.cls
    if names.self_attribute(expr) != attr or cls is None or cls.attr(attr) is not None:
        return False
    for info in cls.lineage():
        for base in info.node.bases:
            qualname = info.module.qualname(base)
            if (
                qualname is not None
                and qualname.startswith("mindspore.")
                and qualname.endswith("." + TRAIN_ONE_STEP)
            ):
                return True
    return False


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    module = ctx.fn.module
    if not any(module.mentions(w) for w in ("grad", "Grad", "vmap", "jvp")):
        return
    yield from _without_weights(ctx)
    yield from _number_sens(ctx)
    yield from _defaults(ctx)
    yield from _jvp_through_while(ctx)
    if compiled_by_jit(ctx):
        return  # PyNative compiles `@jit` functions too: both modes agree there
    yield from _frozen_weights(ctx)
    yield from _argument_identity(ctx)


def _without_weights(ctx: FunctionContext) -> Iterator[RawFinding]:
    for call in ctx.of(ast.Call):
        if len(call.args) != 1 or call.keywords or isinstance(call.args[0], ast.Starred):
            continue
        made = _grad_operation(ctx, call.func)
        if (made is None or not _by_list(made)) and not _inherited_train_grad(ctx, call.func):
            continue
        yield GRAD_OPERATION_APPLICATION.finding(
            call,
            call=ast.unparse(call),
            problem="applies a `GradOperation(get_by_list=True)` to the network alone",
            advice=f"pass the weights, e.g. `{ast.unparse(call.func)}("
            f"{ast.unparse(call.args[0])}, self.weights)`",
        )


def _sens_param(made: ast.Call) -> bool:
    flag = names.keyword(made, "sens_param")
    if flag is None and len(made.args) > 2:
        flag = made.args[2]
    return isinstance(flag, ast.Constant) and flag.value is True


def _python_number(ctx: FunctionContext, expr: ast.expr) -> bool:
    """An int or float constant, or `self.<name>` the class sets to one."""
    name = names.self_attribute(expr)
    cls = ctx.fn.cls
    if name is not None and cls is not None and not cls.attr_varies(name):
        attr = cls.attr(name)
        expr = attr.node if attr is not None and isinstance(attr.node, ast.expr) else expr
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        expr = expr.operand
    return isinstance(expr, ast.Constant) and type(expr.value) in (int, float)


def _number_sens(ctx: FunctionContext) -> Iterator[RawFinding]:
    """`self.grad(net)(x, 1.0)` with a `GradOperation(sens_param=True)`: the sens must be a
    Tensor (measured: "Type Join Failed: dtype1 = Float32, dtype2 = Any")."""
    for call, made in _applications(ctx):
        if not call.args or isinstance(call.args[-1], ast.Starred) or call.keywords:
            continue
        op = _grad_operation(ctx, made.func)
        sens = op is not None and _sens_param(op)
        if not sens and not _inherited_train_grad(ctx, made.func):
            continue
        last = call.args[-1]
        if _python_number(ctx, last) or (
            _inherited_train_grad(ctx, last, "sens") and _inherited_train_grad(ctx, made.func)
        ):
            yield GRAD_OPERATION_APPLICATION.finding(
                last,
                call=ast.unparse(call),
                problem=f"gives the Python number `{ast.unparse(last)}` as the sens of a "
                "`GradOperation(sens_param=True)`",
                advice="pass a Tensor, e.g. `ops.fill(loss.dtype, loss.shape, 1.0)`",
            )
        elif isinstance(last, ast.List):
            yield GRAD_OPERATION_APPLICATION.finding(
                last,
                call=ast.unparse(call),
                problem="gives a list as the sens of a `GradOperation(sens_param=True)`",
                advice="pass a tuple with one Tensor per output",
            )


# --- MS1059 ---------------------------------------------------------------------------


def _target_function(
    ctx: FunctionContext, fn: ast.expr
) -> Optional[tuple[Union[FunctionNode, ast.Lambda], bool]]:
    """The function `fn` names and whether it is a bound method (its `self` not counted)."""
    if isinstance(fn, ast.Lambda):
        return fn, False
    if isinstance(fn, ast.Name):
        local = [d for d in ctx.of(ast.FunctionDef) if d.name == fn.id and d is not ctx.fn.node]
        if len(local) == 1:
            return local[0], False
        stores = [n for n in ctx.of(ast.Name) if n.id == fn.id and isinstance(n.ctx, ast.Store)]
        if not local and len(stores) == 1:  # `f = lambda a, b: ...` bound once (round 37)
            bound = Bindings.of(ctx.fn.node, ctx.fn.cls).single.get(fn.id)
            if isinstance(bound, ast.Lambda):
                return bound, False
        if local or stores or fn.id in {a.arg for a in _all_args(ctx.fn.node.args)}:
            return None
        found = ctx.fn.module.functions.get(fn.id)
        return (found, False) if found is not None else None
    name = names.self_attribute(fn)
    cls = ctx.fn.cls
    if name is None or cls is None or cls.attr(name) is not None:
        return None
    method = cls.find_method(name)
    decorators = (
        {d.id for d in method[1].decorator_list if isinstance(d, ast.Name)} if method else set()
    )
    if method is None or decorators & {"classmethod", "property"}:
        return None
    return method[1], "staticmethod" not in decorators


def _all_args(args: ast.arguments) -> list[ast.arg]:
    found = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    if args.vararg is not None:
        found.append(args.vararg)
    if args.kwarg is not None:
        found.append(args.kwarg)
    return found


def _defaults(ctx: FunctionContext) -> Iterator[RawFinding]:
    module = ctx.fn.module
    for call, made in _applications(ctx):
        transform = _mindspore_name(module, made.func)
        if transform not in FUNCTIONAL:
            continue
        fn = made.args[0] if made.args else names.keyword(made, "fn")
        given = _given(ctx, call)
        if fn is None or given is None:
            continue
        for target in _targets(ctx, fn):
            found = _unfilled(call, fn, transform, target, given)
            if found is not None:
                loop_var = fn.id if isinstance(fn, ast.Name) else None
                looped = _looped(ctx, loop_var) if loop_var is not None else None
                if looped is not None:  # MindSpore names the loop
                    found.related.append(ctx.related(looped, f"`{loop_var}` takes each function"))
                yield found
                break


def _jvp_through_while(ctx: FunctionContext) -> Iterator[RawFinding]:
    """`ops.jvp(f, x, v)` in compiled code where `f` (a function, method or held Cell's
    `construct`) loops `while` on a condition reading its inputs (measured: "The parameters
    number of the function is 2, but the number of provided arguments is 3"; an `if`, a `for`
    with `break` and a `while` on a Python counter compile)."""
    for call in ctx.of(ast.Call):
        if not call.args or _mindspore_name(ctx.fn.module, call.func) != "jvp":
            continue
        target = _jvp_target(ctx, call.args[0])
        if target is None:
            continue
        node, bound = target
        params = {a.arg for a in _all_args(node.args)[1 if bound else 0 :]}
        loop = next(
            (
                w
                for w in of_type(node, ast.While)
                if any(n.id in params for n in of_type(w.test, ast.Name))
            ),
            None,
        )
        if loop is None:
            continue
        yield GRAD_DEFAULTS_NOT_FILLED.finding(
            call,
            related=[ctx.related(loop, "the `while` loop on a Tensor")],
            call=ast.unparse(call),
            problem="runs forward-mode differentiation through a `while` loop on a Tensor, "
            "whose graph MindSpore then calls with one argument too many",
            advice="loop over a constant `range` with `break`, or use `ms.grad` / `ops.vjp`",
        )


def _jvp_target(
    ctx: FunctionContext, fn: ast.expr
) -> Optional[tuple[Union[FunctionNode, ast.Lambda], bool]]:
    """The function `ops.jvp` differentiates: one `_target_function` finds, or the `construct`
    of a Cell the class holds (`self.inner`)."""
    name = names.self_attribute(fn)
    cls = ctx.fn.cls
    if name is not None and cls is not None and not cls.attr_varies(name):
        attr = cls.attr(name)
        if attr is not None and attr.kind == "cell":
            held = ctx.classes.resolve(attr.class_qualname)
            found = held.find_method("construct") if held is not None else None
            return (found[1], True) if found is not None else None
    return _target_function(ctx, fn)


def _given(ctx: FunctionContext, call: ast.Call) -> Optional[int]:
    """How many arguments a call passes: `*args` of a name bound once to a tuple display
    counts its items; None when not known."""
    if any(k.arg is None for k in call.keywords):
        return None
    given = len(call.keywords)
    bindings: Optional[dict[str, ast.expr]] = None
    for arg in call.args:
        if not isinstance(arg, ast.Starred):
            given += 1
            continue
        value = arg.value
        if isinstance(value, ast.Name):
            if bindings is None:
                bindings = Bindings.of(ctx.fn.node, ctx.fn.cls).single
            value = bindings.get(value.id, value)
        if not isinstance(value, (ast.Tuple, ast.List)) or any(
            isinstance(e, ast.Starred) for e in value.elts
        ):
            return None
        given += len(value.elts)
    return given


def _looped(ctx: FunctionContext, name: str) -> Optional[ast.For]:
    found = Bindings.of(ctx.fn.node, ctx.fn.cls).looped.get(name)
    return found[0] if found is not None else None


def _targets(
    ctx: FunctionContext, fn: ast.expr
) -> list[tuple[Union[FunctionNode, ast.Lambda], bool]]:
    """The functions `fn` names; each item when it is the variable of a `for` over a tuple of
    functions (`for fn in (f1, f2): ms.grad(fn)(x)` compiles both)."""
    if (
        isinstance(fn, ast.Call)
        and fn.args
        and _mindspore_name(ctx.fn.module, fn.func) in FUNCTIONAL
    ):
        return _targets(ctx, fn.args[0])  # `ms.vmap(ms.grad(f))(x)` calls `f` with `x` alone
    if isinstance(fn, ast.Name):
        looped = Bindings.of(ctx.fn.node, ctx.fn.cls).looped.get(fn.id)
        if looped is not None:
            return [t for item in looped[1] if (t := _target_function(ctx, item)) is not None]
    target = _jvp_target(ctx, fn)  # a held Cell's `construct` too: `ms.grad(self.inner)(x)`
    return [target] if target is not None else []


def _unfilled(
    call: ast.Call,
    fn: ast.expr,
    transform: str,
    target: tuple[Union[FunctionNode, ast.Lambda], bool],
    given: int,
) -> Optional[RawFinding]:
    """The finding when `target` has more parameters than `given` (or `*args` and another
    count) and some of them are defaulted or variadic."""
    node, bound = target
    args = node.args
    expected = len(_all_args(args)) - (1 if bound else 0)
    variadic = args.vararg is not None or args.kwarg is not None
    defaulted = bool(args.defaults) or any(d is not None for d in args.kw_defaults)
    if given == expected or not (variadic or defaulted):
        return None
    if given > expected and not variadic:
        return None  # too many for any call: PyNative fails as well
    what = (
        "its defaults"
        if not variadic
        else ("`*" + args.vararg.arg + "`" if args.vararg is not None else "")
        + (" and " if args.vararg is not None and args.kwarg is not None else "")
        + ("`**" + args.kwarg.arg + "`" if args.kwarg is not None else "")
    )
    name = node.name if not isinstance(node, ast.Lambda) else "lambda"
    shown = ast.unparse(fn) if isinstance(fn, ast.Attribute) else name
    return GRAD_DEFAULTS_NOT_FILLED.finding(
        call,
        call=ast.unparse(call),
        problem=f"gives {given} argument(s) to `{shown}`, which has {expected} parameter(s): "
        f"`{transform}` in compiled code calls it without filling {what}",
        advice="pass every parameter explicitly",
    )


# --- MS376 ----------------------------------------------------------------------------


def _weights(ctx: FunctionContext, call: ast.Call, made: ast.Call) -> Optional[ast.expr]:
    """The weights a transform differentiates: `ms.grad(f, pos, weights)`, `weights=`, or the
    second argument of a `GradOperation(get_by_list=True)` application."""
    module = ctx.fn.module
    transform = _mindspore_name(module, made.func)
    if transform in GRADS:
        found = names.keyword(made, "weights")
        return found if found is not None else (made.args[2] if len(made.args) > 2 else None)
    return None


def _grad_op_weights(ctx: FunctionContext) -> Iterator[ast.expr]:
    for call in ctx.of(ast.Call):
        if len(call.args) != 2:
            continue
        made = _grad_operation(ctx, call.func)
        if made is not None and _by_list(made):
            yield call.args[1]


def _items(ctx: FunctionContext, expr: ast.expr, depth: int = 0) -> list[ast.expr]:
    """The Parameter expressions a weights expression lists (`(self.w, self.b)`,
    `ParameterTuple([...])`, `self.weights` set to one in `__init__`)."""
    if depth > 3:
        return []
    if isinstance(expr, (ast.Tuple, ast.List)):
        return list(expr.elts)
    if (
        isinstance(expr, ast.Call)
        and not expr.args
        and isinstance(expr.func, ast.Attribute)
        and expr.func.attr == "get_parameters"
    ):
        return _all_parameters(ctx, expr.func.value)
    if isinstance(expr, ast.Call) and len(expr.args) == 1 and not expr.keywords:
        qualname = (
            ctx.fn.module.qualname(expr.func)
            if isinstance(expr.func, (ast.Name, ast.Attribute))
            else None
        )
        if (qualname is not None and qualname.endswith("ParameterTuple")) or (
            isinstance(expr.func, ast.Name) and expr.func.id in ("tuple", "list")
        ):
            return _items(ctx, expr.args[0], depth + 1)
        return []
    name = names.self_attribute(expr)
    cls = ctx.fn.cls
    if name is not None and cls is not None and not cls.attr_varies(name):
        attr = cls.attr(name)
        if attr is not None and attr.kind == "tensor":
            return [expr]
        if attr is not None and isinstance(attr.node, ast.expr):
            return _items(ctx, attr.node, depth + 1)
    return []


def _all_parameters(ctx: FunctionContext, holder: ast.expr) -> list[ast.expr]:
    """`self.<p>` / `self.sub.<p>` for each Parameter the Cell `holder` (`self`, `self.sub`)
    sets itself: what its `get_parameters()` yields first."""
    cls = ctx.fn.cls
    if cls is None:
        return []
    if not (isinstance(holder, ast.Name) and holder.id == "self"):
        sub = names.self_attribute(holder)
        attr = cls.attr(sub) if sub is not None else None
        if attr is None or attr.kind != "cell":
            return []
        cls = ctx.classes.resolve(attr.class_qualname)
        if cls is None:
            return []
    return [
        ast.Attribute(value=holder, attr=name, ctx=ast.Load())
        for info in cls.lineage()
        for name, attr in info.attrs.items()
        if attr.kind == "tensor"
    ]


def _frozen(ctx: FunctionContext, item: ast.expr) -> bool:
    """`self.w` (or `self.sub.w`) holding a Parameter whose `__init__` leaves it
    `requires_grad=False`."""
    cls: Optional[ClassInfo] = ctx.fn.cls
    if cls is None or not isinstance(item, ast.Attribute):
        return False
    holder = item.value
    if not (isinstance(holder, ast.Name) and holder.id == "self"):
        sub = names.self_attribute(holder)
        attr = cls.attr(sub) if sub is not None else None
        if attr is None or attr.kind != "cell" or cls.attr_varies(sub or ""):
            return False
        cls = ctx.classes.resolve(attr.class_qualname)
        if cls is None:
            return False
    return _frozen_in(cls, item.attr)


def _frozen_in(cls: ClassInfo, name: str) -> bool:
    for info in cls.lineage():
        if name not in info.attrs:
            continue
        attr = info.attrs[name]
        made = attr.node
        if attr.kind != "tensor" or not isinstance(made, ast.Call) or info.attr_varies(name):
            return False
        flag = names.keyword(made, "requires_grad")
        if flag is None and len(made.args) > 2:
            flag = made.args[2]
        frozen = isinstance(flag, ast.Constant) and flag.value is False
        init = info.own_method("__init__")
        for assign in of_type(init, ast.Assign) if init is not None else []:
            target = assign.targets[0]
            if (
                len(assign.targets) == 1
                and isinstance(target, ast.Attribute)
                and target.attr == "requires_grad"
                and names.self_attribute(target.value) == name
                and isinstance(assign.value, ast.Constant)
            ):
                frozen = assign.value.value is False
        return frozen
    return False


def _frozen_weights(ctx: FunctionContext) -> Iterator[RawFinding]:
    found: list[ast.expr] = [
        w for call, made in _applications(ctx) if (w := _weights(ctx, call, made)) is not None
    ]
    found += list(_grad_op_weights(ctx))
    for weights in found:
        items = _items(ctx, weights)
        if not items and names.self_attribute(weights) is not None:
            items = [weights]  # a single Parameter: `ms.grad(f, None, self.w)`
        for item in items:
            if _frozen(ctx, item):
                yield FROZEN_PARAMETER_GRAD.finding(weights, param=ast.unparse(item))
                break


# --- MS377 ----------------------------------------------------------------------------


def _positions(ctx: FunctionContext, made: ast.Call) -> Optional[set[int]]:
    """The argument positions a grad transform differentiates, when written as constants."""
    transform = _mindspore_name(ctx.fn.module, made.func)
    if transform in GRADS:
        pos = names.keyword(made, "grad_position")
        if pos is None and len(made.args) > 1:
            pos = made.args[1]
        if pos is None:
            return {0}
        if isinstance(pos, ast.Name):  # `pos = 1` bound once before
            pos = Bindings.of(ctx.fn.node, ctx.fn.cls).single.get(pos.id, pos)
        if isinstance(pos, ast.Constant) and type(pos.value) is int:
            return {pos.value}
        if isinstance(pos, ast.Tuple) and all(
            isinstance(e, ast.Constant) and type(e.value) is int for e in pos.elts
        ):
            return {
                e.value for e in pos.elts if isinstance(e, ast.Constant) and type(e.value) is int
            }
        return None
    grad_op = made.func if isinstance(made.func, ast.Call) else None
    op = _grad_operation(ctx, made.func) if grad_op is None else grad_op
    if op is None or _mindspore_name(ctx.fn.module, op.func) != "GradOperation":
        return None
    get_all = names.keyword(op, "get_all")
    if get_all is None and op.args:
        get_all = op.args[0]
    if _sens_param(op):
        return None  # its last input is the sens: positions differ from `made`'s call
    if isinstance(get_all, ast.Constant) and get_all.value is True:
        return set(range(64))
    return None if _by_list(op) else {0}


def _mutable_of(ctx: FunctionContext, arg: ast.expr) -> Optional[ast.expr]:
    """`v` of `mutable(v)`."""
    if (
        isinstance(arg, ast.Call)
        and len(arg.args) == 1
        and _mindspore_name(ctx.fn.module, arg.func) == "mutable"
    ):
        return arg.args[0]
    return None


def _container(ctx: FunctionContext, arg: ast.expr, bindings: dict[str, ast.expr]) -> bool:
    if isinstance(arg, ast.Name):
        bound = bindings.get(arg.id)
        arg = bound if bound is not None else arg
    inner = _mutable_of(ctx, arg)
    arg = inner if inner is not None else arg
    if isinstance(arg, (ast.Tuple, ast.List)):
        return bool(arg.elts) and all(ctx.types.is_tensor(e) for e in arg.elts)
    if isinstance(arg, ast.Dict):
        return bool(arg.values) and all(ctx.types.is_tensor(v) for v in arg.values)
    return False


def _argument_identity(ctx: FunctionContext) -> Iterator[RawFinding]:
    bindings: Optional[dict[str, ast.expr]] = None
    for call, made in _applications(ctx):
        positions = _positions(ctx, made)
        if not positions or any(isinstance(a, ast.Starred) for a in call.args):
            continue
        if bindings is None:
            bindings = Bindings.of(ctx.fn.node, ctx.fn.cls).single
        for i, arg in enumerate(call.args):
            if i not in positions:
                continue
            if _container(ctx, arg, bindings):
                yield GRAD_ARGUMENT_IDENTITY.finding(
                    arg,
                    arg=ast.unparse(arg),
                    problem="is a container of Tensors at a differentiated position",
                    pynative="returns no gradient for it",
                    graph="the gradients of its items",
                    advice="pass its Tensors as separate arguments",
                )
                break
            number = _mutable_of(ctx, arg)
            if isinstance(number, ast.Constant) and type(number.value) in (int, float):
                yield GRAD_ARGUMENT_IDENTITY.finding(
                    arg,
                    arg=ast.unparse(arg),
                    problem="is a number made variable at a differentiated position",
                    pynative="leaves it out of the gradients",
                    graph="returns a 0 for it",
                    advice="pass it at a position not differentiated, or as a plain constant",
                )
                break
            if (
                isinstance(arg, ast.Name)
                and ctx.types.is_tensor(arg)
                and _read_twice(ctx, call, made, i, arg.id)
            ):
                yield GRAD_ARGUMENT_IDENTITY.finding(
                    arg,
                    arg=arg.id,
                    problem="is given at two positions and differentiated",
                    pynative="adds both uses into its gradient",
                    graph="keeps the positions apart",
                    advice="pass a copy for one of them, or differentiate one position",
                )
                break


def _read_twice(ctx: FunctionContext, call: ast.Call, made: ast.Call, at: int, name: str) -> bool:
    """`name`, given at position `at`, is given again (by position or keyword) for a parameter
    the differentiated function reads: only then does PyNative's sum differ."""
    fn = made.args[0] if made.args else None
    target = _jvp_target(ctx, fn) if fn is not None else None
    if target is None:
        return False
    node, bound = target
    params = [a.arg for a in (*node.args.posonlyargs, *node.args.args)][1 if bound else 0 :]
    others = [
        params[j]
        for j, o in enumerate(call.args)
        if j != at and j < len(params) and isinstance(o, ast.Name) and o.id == name
    ]
    others += [
        k.arg
        for k in call.keywords
        if k.arg and isinstance(k.value, ast.Name) and k.value.id == name
    ]
    read = {n.id for n in of_type(node, ast.Name) if isinstance(n.ctx, ast.Load)}
    return any(p in read for p in others)


# --- MS1058 ---------------------------------------------------------------------------


def check_module(module: ModuleInfo) -> Iterator[RawFinding]:
    tree = module.tree
    if tree is None or not module.mentions("bprop"):
        return
    classes = [
        c
        for c in of_type(tree, ast.ClassDef)
        if any(isinstance(s, ast.FunctionDef) and s.name == "bprop" for s in c.body)
        and any(isinstance(s, ast.FunctionDef) and s.name == "construct" for s in c.body)
    ]
    if not classes or not _differentiates(module, tree):
        return
    for cls in classes:
        bprop = next(s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == "bprop")
        construct = next(
            s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == "construct"
        )
        generic = construct.args.vararg is not None or any(
            isinstance(m, ast.FunctionDef) and m.name == "__call__" for m in cls.body
        )  # a wrapper (mindtorch's autograd Function): its own `__call__` runs it in Python
        if (
            bprop.args.vararg is not None
            and not generic
            and _may_differentiate(module, tree, cls.name)
        ):
            inputs = [a.arg for a in (*construct.args.posonlyargs, *construct.args.args)][1:]
            col = bprop.col_offset
            yield BPROP_VARARGS.finding(
                Range(bprop.lineno, col, bprop.lineno, col + len("def bprop")),
                related=_bprop_related(module, tree, bprop),
                cls=cls.name,
                vararg=bprop.args.vararg.arg,
                signature=f"def bprop(self, {', '.join([*inputs, 'out', 'dout'])}):",
            )
            continue
        read = _parameter_read(module, cls, bprop)
        if read is not None and not generic and _may_differentiate(module, tree, cls.name):
            col = bprop.col_offset
            yield BPROP_READS_PARAMETER.finding(
                Range(bprop.lineno, col, bprop.lineno, col + len("def bprop")),
                related=[
                    Related(module.path, node_range(read), "the Parameter read here"),
                    *_bprop_related(module, tree, bprop),
                ],
                cls=cls.name,
                param=ast.unparse(read),
            )
        for ret in _returns(bprop):
            if ret.value is not None and _single_value(module, bprop, construct, ret.value):
                related = [
                    Related(module.path, node_range(site), f"`{cls.name}` is called here")
                    for site in _call_sites(tree, cls.name)
                ]
                yield BPROP_NOT_TUPLE.finding(
                    ret.value, related=related, cls=cls.name, value=ast.unparse(ret.value)
                )


def _bprop_related(module: ModuleInfo, tree: ast.Module, bprop: ast.FunctionDef) -> list[Related]:
    """Where MindSpore's message may point besides the `def bprop` line: the bprop's last
    return and the module's differentiating calls (`ms.grad(...)`)."""
    related: list[Related] = []
    returns = [r for r in _returns(bprop)]
    if returns:
        last = max(returns, key=lambda r: (r.lineno, r.col_offset))
        related.append(Related(module.path, node_range(last), "the bprop returns here"))
    for call in of_type(tree, ast.Call):
        if _mindspore_name(module, call.func) in DIFFERENTIATING:
            related.append(Related(module.path, node_range(call), "differentiated here"))
    return related


def _may_differentiate(module: ModuleInfo, tree: ast.Module, cls_name: str) -> bool:
    """Some differentiation in the module may reach a `cls_name` Cell: False only when every
    one is `ms.grad(...)` / `value_and_grad(...)` of a Cell whose class is known (`Net()`,
    `self.net`, a name bound once to `Net()`) and neither it nor a Cell it holds (through
    `self.x = Cls(...)`, transitively) is a `cls_name` (measured: a Cell whose bprop reads a
    Parameter compiles when only another Cell of the module is differentiated)."""
    made: dict[str, set[str]] = {}
    held: dict[str, set[str]] = {}
    for holder in of_type(tree, ast.ClassDef):
        for assign in of_type(holder, ast.Assign):
            value = assign.value
            if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)):
                continue
            for target in assign.targets:
                name = names.self_attribute(target)
                if name is not None:
                    made.setdefault("self." + name, set()).add(value.func.id)
                    held.setdefault(holder.name, set()).add(value.func.id)
    for name, built in names_built(tree).items():
        made.setdefault(name, set()).update(built)
    targets: set[str] = set()
    for node in of_type(tree, ast.Attribute, ast.Name):
        last = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")
        if (
            last in DIFFERENTIATING
            and last not in ("grad", "value_and_grad")
            and _mindspore_name(module, node) in DIFFERENTIATING
        ):
            return True
    for call in of_type(tree, ast.Call):
        if _mindspore_name(module, call.func) not in ("grad", "value_and_grad"):
            continue
        fn = call.args[0] if call.args else None
        if isinstance(fn, ast.Call) and isinstance(fn.func, ast.Name):
            targets.add(fn.func.id)
            continue
        key = ast.unparse(fn) if isinstance(fn, (ast.Name, ast.Attribute)) else None
        classes = made.get(key) if key is not None else None
        if not classes or len(classes) != 1:
            return True
        targets |= classes
    todo = list(targets)
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name == cls_name:
            return True
        if name not in seen:
            seen.add(name)
            todo.extend(held.get(name, ()))
    return False


def _parameter_read(
    module: ModuleInfo, cls: ast.ClassDef, bprop: ast.FunctionDef
) -> Optional[ast.Attribute]:
    """The first `self.w` (a Parameter the class sets) or `self.fc.weight` (a Parameter of a
    MindSpore layer the class holds) that `bprop` itself reads. Measured on 2.10 (both
    levels, `ms.grad`, `GradOperation`, the Cell differentiated alone or inside another):
    `dout * self.w`, `self.w.value()`, `ops.matmul(dout, self.fc.weight)` fail, MindSpore
    naming the `def bprop` line (also a Parameter a base class in the module sets). Left
    alone (MS1086 and MS1089): a class whose `construct` takes `*args` or that defines its own
    `__call__` (mindtorch's autograd `Function` runs its bprop from Python); the
    same read in a method the bprop calls
    (`self.scale(dout)`), a sub-Cell called (`self.fc(dout)`), a Tensor or number attribute,
    and a Cell never differentiated compile."""
    params: set[str] = set()
    layers: dict[str, tuple[str, ...]] = {}
    lineage = [cls]  # and the module's own classes it derives from (`class Sub(Base)`)
    tree = module.tree
    local = {c.name: c for c in of_type(tree, ast.ClassDef)} if tree is not None else {}
    while len(lineage) < 8:
        bases = [
            local[b.id] for b in lineage[-1].bases if isinstance(b, ast.Name) and b.id in local
        ]
        if not bases or bases[0] in lineage:
            break
        lineage.append(bases[0])
    methods = [m for c in lineage for m in c.body]
    for method in methods:
        if not isinstance(method, ast.FunctionDef):
            continue
        for assign in of_type(method, ast.Assign):
            if not isinstance(assign.value, ast.Call) or len(assign.targets) != 1:
                continue
            name = names.self_attribute(assign.targets[0])
            qualname = names.callee(module, assign.value)
            if name is None or qualname is None:
                continue
            if qualname in names.PARAMETER:
                params.add(name)
            elif qualname.startswith("mindspore.") and names.is_cell_qualname(qualname):
                found = LAYER_PARAMETERS.get(qualname.rsplit(".", 1)[-1])
                if found:
                    layers[name] = found
    if not params and not layers:
        return None
    todo: list[ast.AST] = list(bprop.body)
    reads: list[ast.Attribute] = []
    while todo:
        node = todo.pop()
        if isinstance(node, SCOPES):
            continue
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            name = names.self_attribute(node)
            if name in params:
                reads.append(node)
                continue
            inner = names.self_attribute(node.value)
            if inner is not None and node.attr in layers.get(inner, ()):
                reads.append(node)
                continue
        todo.extend(ast.iter_child_nodes(node))
    return min(reads, key=lambda n: (n.lineno, n.col_offset)) if reads else None


def _call_sites(tree: ast.Module, cls_name: str) -> list[ast.Call]:
    """`self.x(...)` in the module's classes whose `__init__` sets `self.x = Cls(...)`: where
    MindSpore names a failing bprop of a Cell another Cell calls."""
    sites: list[ast.Call] = []
    for holder in of_type(tree, ast.ClassDef):
        held = {
            name
            for assign in of_type(holder, ast.Assign)
            if isinstance(assign.value, ast.Call)
            and isinstance(assign.value.func, ast.Name)
            and assign.value.func.id == cls_name
            for target in assign.targets
            if (name := names.self_attribute(target)) is not None
        }
        if held:
            sites += [c for c in of_type(holder, ast.Call) if names.self_attribute(c.func) in held]
    return sites


def _differentiates(module: ModuleInfo, tree: ast.Module) -> bool:
    for node in of_type(tree, ast.Attribute, ast.Name):
        last = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")
        if last in DIFFERENTIATING and _mindspore_name(module, node) in DIFFERENTIATING:
            return True
    return False


SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _returns(fn: ast.FunctionDef) -> Iterator[ast.Return]:
    todo: list[ast.AST] = list(fn.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Return):
            yield node
        elif not isinstance(
            node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
        ):
            todo.extend(ast.iter_child_nodes(node))


def _single_value(
    module: ModuleInfo, bprop: ast.FunctionDef, construct: ast.FunctionDef, value: ast.expr
) -> bool:
    """`value` is surely one Tensor (or a list), not a tuple."""
    if isinstance(value, (ast.BinOp, ast.List, ast.ListComp)):
        return True
    if isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.USub):
        return True
    if isinstance(value, ast.Call):
        name = _mindspore_name(module, value.func)
        qualname = module.qualname(value.func) if name is not None else None
        return (
            names.is_ops_call(qualname)
            and name not in TUPLE_RESULT_OPS
            and name not in names.NON_TENSOR_OPS
        )
    if isinstance(value, ast.Name):
        params = [a.arg for a in bprop.args.args]
        if value.id in params:
            if value.id == params[0]:
                return False  # `self`
            # an input or `out`/`dout`: one Tensor unless construct returns a tuple
            return not any(isinstance(r.value, ast.Tuple) for r in _returns(construct)) and not any(
                isinstance(p.annotation, ast.Subscript) for p in bprop.args.args
            )
        stores = [
            n for n in of_type(bprop, ast.Name) if n.id == value.id and isinstance(n.ctx, ast.Store)
        ]
        if len(stores) != 1:
            return False
        for assign in of_type(bprop, ast.Assign):
            if (
                len(assign.targets) == 1
                and isinstance(assign.targets[0], ast.Name)
                and assign.targets[0].id == value.id
            ):
                bound = assign.value
                if isinstance(bound, ast.Name):
                    return False
                return _single_value(module, bprop, construct, bound)
    return False


def names_built(tree: ast.AST) -> dict[str, set[str]]:
    """Each name bound by `name = Callee(...)` anywhere in `tree` -> the callees' names
    (`net = Net()`: {"net": {"Net"}})."""
    made: dict[str, set[str]] = {}
    assigns: list[ast.Assign] = of_type(tree, ast.Assign)
    for assign in assigns:
        value = assign.value
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
            for target in assign.targets:
                if isinstance(target, ast.Name):
                    made.setdefault(target.id, set()).add(value.func.id)
    return made
