"""MS1150, MS3040-MS3041: gradients taken in compiled code, where a list changes what comes out.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative (round 37, `fx_`; every
program below ran in PyNative; `@ms.jit` functions are compiled by PyNative too, so only the
Cell forms tell the two modes apart):

- MS1150: `ms.grad(f, None, [self.w], return_ids=True)` (also `ms.value_and_grad`, with a
  `grad_position`, through a local bound to the list display) built in compiled code fails at
  every level ("Abstract of parameter should be AbstractRefTensor, but got AbstractList"),
  naming the transform's line. Weights given as a tuple, a `ParameterTuple` or one Parameter
  compile, and so does the list without `return_ids`.
- MS3040: the same list of weights without `return_ids`: graph mode returns the weights'
  gradients as a list, PyNative as a tuple. When `construct` returns them as they are (the
  transform's result, a local bound once to it, the second of `loss, grads =
  ms.value_and_grad(...)`, inside a returned tuple, from a method `construct` returns, with a
  `grad_position`, `has_aux`, `ops.GradOperation(get_by_list=True)(f, [...])` inline or held by
  the Cell), the output differs. The gradients indexed, unpacked, iterated, given to
  `tuple(...)` or `len`, the weights as a tuple or a `ParameterTuple`, a list attribute set in
  `__init__` (`self.ws = [...]`, held as a tuple) and the gradient function built in
  `__init__` agree. (Given to an optimizer the list fails instead: MS1130.) Mapped by a
  `HyperMap` / `Map` and returned, the list stays a list (measured).
- MS3041 (LAX): a function differentiated in compiled code (a nested `def`, a method, a module
  function, a sub-Cell's `construct`; through `ms.grad`, `ms.value_and_grad` or
  `ops.GradOperation()`) that changes a list of its own with `pop`, `insert`, `extend` or
  `reverse` and whose loss then reads the list (or the popped value): JIT Fallback runs the
  method in Python and the gradient is zero for every input, where PyNative differentiates
  the Tensors the list holds. STRICT agrees; `append`, an item write, `l + [...]`, `clear()`
  followed by `append`, and a `pop` whose list and value the loss never reads agree.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..index.module import FunctionNode, ModuleInfo
from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from .decorated_helpers import compiled_by_jit
from .grad_closures import _grad_applications, _in_module
from .grad_transforms import _jvp_target, _mindspore_name, gradient_operation
from .helpers import names
from .helpers.base import FunctionContext
from .helpers.call_targets import Bindings
from .helpers.classes import ClassInfo
from .helpers.flow import loads_after
from .helpers.walk import of_type

RETURN_IDS_WEIGHT_LIST = Rule(
    "MS1150",
    "grad-return-ids-weight-list",
    Group.FAILS,
    title="`return_ids=True` with the weights written as a list, in compiled code",
    message=(
        "`{transform}` is given the weights as a list and `return_ids=True` in compiled code: "
        "graph mode cannot pair the ids with a list of Parameters and fails at every level "
        "(PyNative runs it); pass the weights as a tuple or a `ParameterTuple`."
    ),
    why=(
        "With `return_ids`, the compiled gradient operation reads each weight as a Parameter "
        "reference; a list display compiled in the graph is a list value, not a tuple of "
        "Parameters, and the operation rejects it."
    ),
    remedy=(
        "Write the weights as a tuple (`(self.w, self.b)`), use a `ParameterTuple` built in "
        "`__init__`, or build the gradient function in `__init__`."
    ),
    mindspore_says=(
        "RuntimeError: Abstract of parameter should be AbstractRefTensor, but got "
        "AbstractList{element[0]: AbstractRefTensor(key: w ...)}"
    ),
)
WEIGHT_LIST_GRADS_RETURNED = Rule(
    "MS3040",
    "grads-of-weight-list-returned",
    Group.DIVERGES,
    title="`construct` returns the gradients of weights written as a list",
    message=(
        "`{text}` takes gradients for weights written as a list in compiled code: graph mode "
        "gives them back as a list, PyNative as a tuple, and `construct` returns them as they "
        "are; pass the weights as a tuple (or `ParameterTuple`), or return `tuple(...)`."
    ),
    why=(
        "A gradient transform applied in compiled code returns the weights' gradients in the "
        "container the weights came in; PyNative's transform always builds a tuple."
    ),
    remedy=(
        "Write the weights as a tuple or a `ParameterTuple`, build the gradient function in "
        "`__init__`, or convert the result with `tuple(grads)`."
    ),
    mindspore_says="(compiles; returns [Tensor, ...] where PyNative returns (Tensor, ...))",
)
GRAD_THROUGH_LIST_METHOD = Rule(
    "MS3041",
    "grad-through-list-method",
    Group.DIVERGES,
    title=(
        "A function differentiated in compiled code whose loss reads a list changed by "
        "`pop`/`insert`/`extend`/`reverse` (LAX: all-zero gradients)"
    ),
    message=(
        "`{call}` differentiates `{fn}`, whose loss reads `{name}` after `{name}.{method}(...)`: "
        "at LAX JIT Fallback runs the list method in Python and graph mode returns zero "
        "gradients, while PyNative differentiates the Tensors the list holds; index the "
        "Tensors you need, or build a new list (`l = l + [...]`, `l[:-1]`)."
    ),
    why=(
        "Under LAX, these list methods of a graph list run through JIT Fallback: what the loss "
        "computes from the list afterwards is an interpreted value the graph cannot "
        "differentiate, so the gradient of every input is zero."
    ),
    remedy=(
        "Take the items by index (`l[-1]`, `l[:-1]`), build a new list with `+`, or use "
        "`append` (compiled as a graph operation)."
    ),
    mindspore_says="(no error: graph mode gives [0, 0, 0] where PyNative gives [3, -3, 7])",
)

GRADS = frozenset({"grad", "value_and_grad"})
FALLBACK_LEVELS = frozenset({SyntaxLevel.LAX, SyntaxLevel.COMPATIBLE})
# list methods that JIT Fallback runs at LAX (measured); `append` is a graph operation
FALLBACK_LIST_METHODS = frozenset({"pop", "insert", "extend", "reverse"})


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    module = ctx.fn.module
    if not any(module.mentions(w) for w in ("grad", "Grad", "vjp")):
        return
    yield from _return_ids(ctx)
    if compiled_by_jit(ctx):
        return  # PyNative compiles `@jit` functions too: both modes agree there
    yield from _returned_lists(ctx)
    if ctx.level in FALLBACK_LEVELS and any(module.mentions(m) for m in FALLBACK_LIST_METHODS):
        yield from _list_method_losses(ctx)


# --- which transforms take a list of weights --------------------------------------------


def _weights(made: ast.Call, module: ModuleInfo, cls: Optional[ClassInfo]) -> Optional[ast.expr]:
    """The weights `made` gives: `ms.grad(f, pos, weights)` / `ms.value_and_grad(...)`, or the
    application `op(f, weights)` of an `ops.GradOperation(get_by_list=True)`."""
    last = _mindspore_name(module, made.func)
    if last in GRADS:
        weights = names.keyword(made, "weights")
        if weights is None and len(made.args) > 2:
            weights = made.args[2]
        return weights
    op = gradient_operation(made.func, module, cls)
    if op is not None and len(made.args) > 1:
        return made.args[1]
    return None


def _is_list(expr: Optional[ast.expr], single: dict[str, ast.expr]) -> bool:
    if isinstance(expr, ast.Name):
        expr = single.get(expr.id)
    return isinstance(expr, (ast.List, ast.ListComp))


def _flag(made: ast.Call, name: str) -> bool:
    value = names.keyword(made, name)
    return isinstance(value, ast.Constant) and value.value is True


# --- MS1150 -----------------------------------------------------------------------------


def _return_ids(ctx: FunctionContext) -> Iterator[RawFinding]:
    single: Optional[dict[str, ast.expr]] = None
    for made in ctx.of(ast.Call):
        if _mindspore_name(ctx.fn.module, made.func) not in GRADS or not _flag(made, "return_ids"):
            continue
        if single is None:
            single = Bindings.of(ctx.fn.node, ctx.fn.cls).single
        if _is_list(_weights(made, ctx.fn.module, ctx.fn.cls), single):
            yield RETURN_IDS_WEIGHT_LIST.finding(made, transform=ast.unparse(made.func))


# --- MS3040 -----------------------------------------------------------------------------


def _returned_lists(ctx: FunctionContext) -> Iterator[RawFinding]:
    cls = ctx.fn.cls
    if ctx.fn.node.name != "construct" or cls is None or not cls.is_cell:
        return
    for ret in ctx.of(ast.Return):
        if ret.value is None:
            continue
        found = _list_grads_in(ret.value, ctx.fn.node, ctx.fn.module, cls, 0)
        if found is not None:
            yield WEIGHT_LIST_GRADS_RETURNED.finding(found, text=_short(found))


def _short(node: ast.expr) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 70 else text[:67] + "..."


def _list_grads_in(
    value: ast.expr, fn: FunctionNode, module: ModuleInfo, cls: ClassInfo, depth: int
) -> Optional[ast.expr]:
    """The expression that makes the list of gradients `value` returns as it is (a call of a
    list-weight transform, through locals bound once, tuples, and methods returning it)."""
    bindings = Bindings.of(fn, cls)
    single = bindings.single
    seen: set[str] = set()
    while isinstance(value, ast.Name) and value.id not in seen:
        seen.add(value.id)
        bound = single.get(value.id)
        if bound is None:
            return _unpacked(value.id, fn, module, cls, single)
        value = bound
    if isinstance(value, ast.Tuple):
        for elt in value.elts:
            found = _list_grads_in(elt, fn, module, cls, depth + 1) if depth < 4 else None
            if found is not None:
                return found
        return None
    if (
        isinstance(value, ast.Subscript)
        and isinstance(value.slice, ast.Constant)
        and value.slice.value == 1
        and isinstance(value.value, ast.Call)
    ):  # `ms.grad(f, 0, [w])(x)[1]`: the second of the pair
        return value if _list_pair(value.value.func, module, cls, single) else None
    if not isinstance(value, ast.Call):
        return None
    made = value.func
    if isinstance(made, ast.Name):
        bound = single.get(made.id)
        made = bound if bound is not None else made
    if (
        isinstance(made, ast.Call)
        and not _flag(made, "return_ids")  # that fails instead (MS1150)
        and _is_list(_weights(made, module, cls), single)
    ):
        return value
    if depth < 4 and _mapper(value.func, module, cls):
        # `self.hm(f, grads)`: HyperMap / Map give back the list they are given (MS387)
        for arg in value.args[1:]:
            if _list_grads_in(arg, fn, module, cls, depth + 1) is not None:
                return value
    method = names.self_attribute(value.func)
    if method is not None and depth < 4 and cls.attr(method) is None:
        found_method = cls.find_method(method)
        node = found_method[1] if found_method is not None else None
        if node is not None and not any("jit" in ast.unparse(d) for d in node.decorator_list):
            for ret in of_type(node, ast.Return):
                if ret.value is not None and (
                    _list_grads_in(ret.value, node, module, cls, depth + 1) is not None
                ):
                    return value
    return None


def _mapper(func: ast.expr, module: ModuleInfo, cls: ClassInfo) -> bool:
    """`ops.HyperMap()` / `ops.Map()` written inline or held by the Cell."""
    made: Optional[ast.AST] = func if isinstance(func, ast.Call) else None
    name = names.self_attribute(func)
    if made is None and name is not None and not cls.attr_varies(name):
        attr = cls.attr(name)
        made = attr.node if attr is not None else None
    return isinstance(made, ast.Call) and _mindspore_name(module, made.func) in ("HyperMap", "Map")


def _unpacked(
    name: str, fn: FunctionNode, module: ModuleInfo, cls: ClassInfo, single: dict[str, ast.expr]
) -> Optional[ast.expr]:
    """`loss, grads = ms.value_and_grad(f, None, [...])(x)` (or `ms.grad` with a position):
    `grads`, the second of the pair, is the list."""
    for assign in of_type(fn, ast.Assign):
        target = assign.targets[0]
        if (
            len(assign.targets) != 1
            or not isinstance(target, ast.Tuple)
            or len(target.elts) != 2
            or not isinstance(target.elts[1], ast.Name)
            or target.elts[1].id != name
            or not isinstance(assign.value, ast.Call)
        ):
            continue
        if _list_pair(assign.value.func, module, cls, single):
            return assign.value
    return None


def _list_pair(
    made: ast.expr, module: ModuleInfo, cls: ClassInfo, single: dict[str, ast.expr]
) -> bool:
    """`made` (or the local bound once to it) is a transform giving (value, the list-weights'
    gradients) without `has_aux`."""
    if isinstance(made, ast.Name):
        bound = single.get(made.id)
        made = bound if bound is not None else made
    return (
        isinstance(made, ast.Call)
        and not _flag(made, "has_aux")
        and _pair(made, module)
        and _is_list(_weights(made, module, cls), single)
    )


def _pair(made: ast.Call, module: ModuleInfo) -> bool:
    """The transform gives (something, weights' gradients): `value_and_grad`, or `grad` with a
    `grad_position` that is not None."""
    last = _mindspore_name(module, made.func)
    if last == "value_and_grad":
        return True
    if last != "grad":
        return False
    pos = names.keyword(made, "grad_position")
    if pos is None and len(made.args) > 1:
        pos = made.args[1]
    return pos is not None and not (isinstance(pos, ast.Constant) and pos.value is None)


# --- MS3041 -----------------------------------------------------------------------------


def _list_method_losses(ctx: FunctionContext) -> Iterator[RawFinding]:
    applied: list[tuple[ast.Call, ast.Call]] = list(_grad_applications(ctx))
    applied += [  # `out, fn = ms.vjp(f, x)`: `fn(v)` gives zeros alike
        (c, c) for c in ctx.of(ast.Call) if _mindspore_name(ctx.fn.module, c.func) == "vjp"
    ]
    for call, made in applied:
        fn = made.args[0] if made.args else None
        target = _jvp_target(ctx, fn) if fn is not None else None
        if target is None or isinstance(target[0], ast.Lambda) or not _in_module(ctx, target[0]):
            continue
        if any("jit" in ast.unparse(d) for d in target[0].decorator_list):
            continue  # PyNative compiles a `@jit` function too
        found = _list_method_read(target[0])
        if found is None:
            continue
        method_call, name = found
        assert isinstance(method_call.func, ast.Attribute)
        shown = target[0].name
        yield GRAD_THROUGH_LIST_METHOD.finding(
            call,
            related=[ctx.related(method_call, f"`{name}.{method_call.func.attr}(...)`")],
            call=_short(call.func),
            fn=shown,
            name=name,
            method=method_call.func.attr,
        )


def _list_method_read(fn: FunctionNode) -> Optional[tuple[ast.Call, str]]:
    """The first `l.pop()`/`insert`/`extend`/`reverse` of a list display `fn` binds, whose
    list is read afterwards or whose value is used."""
    lists = {
        t.id
        for a in of_type(fn, ast.Assign)
        if isinstance(a.value, (ast.List, ast.ListComp))
        for t in a.targets
        if isinstance(t, ast.Name)
    }
    if not lists:
        return None
    statements: list[ast.Assign | ast.Return | ast.AugAssign] = of_type(
        fn, ast.Assign, ast.Return, ast.AugAssign
    )
    used_values = {id(s.value) for s in statements if s.value is not None}
    for call in sorted(of_type(fn, ast.Call), key=lambda c: (c.lineno, c.col_offset)):
        func = call.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr in FALLBACK_LIST_METHODS
            and isinstance(func.value, ast.Name)
            and func.value.id in lists
            and (id(call) in used_values or loads_after(fn, func.value.id, call) is not None)
        ):
            return call, func.value.id
    return None
