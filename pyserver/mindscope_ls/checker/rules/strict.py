"""MS201-MS204: code LAX accepts through its Python fallback but STRICT rejects (MS205: joins).

MS204 covers a NumPy function given a list or tuple holding a Tensor computed in the graph too
(measured: `np.array([x[0, 0], x[1, 1]])` fails under STRICT; `np.array([x.shape[0], 2])`
compiles), and one holding a number read from such a Tensor (round 37: `np.zeros((n.item(),))`,
`np.array([int(n), 2])` fail under STRICT).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .graph_syntax import sub_cell_replaced
from .helpers import names, receivers
from .helpers.base import FunctionContext, cacheable
from .helpers.classes import ClassInfo
from .helpers.walk import of_type
from .strict_values import certain_tensor

ASNUMPY_UNDER_STRICT = Rule(
    "MS201",
    "asnumpy-under-strict",
    Group.STRICT,
    title="`.asnumpy()` / `.numpy()` / `.tolist()` in compiled code",
    message=(
        "`.{method}()` is not supported under jit_syntax_level=STRICT; keep the computation in "
        "Tensor ops."
    ),
    why="Under STRICT there is no Python fallback, so Tensors cannot leave the graph.",
    remedy="Keep the computation in `ops`, or use the default LAX level.",
    mindspore_says=(
        "AttributeError: In JIT strict mode, cannot get attributes asnumpy or the Tensor[Float32]"
        " object has no attribute: 'asnumpy'."
    ),
)

ATTRIBUTE_WRITE_UNDER_STRICT = Rule(
    "MS202",
    "attribute-write-under-strict",
    Group.STRICT,
    title="Assigning a non-Parameter attribute in compiled code",
    message=(
        "`self.{name}` is not a Parameter, and STRICT only allows writing Parameter attributes in"
        " compiled code; return the value or make it a Parameter."
    ),
    why="Under STRICT only Parameter attributes can be written inside the graph.",
    remedy="Make the attribute a Parameter, or return the value instead of storing it.",
    mindspore_says=(
        "TypeError: In JIT strict mode, if need to modify a member attribute of a class with "
        "self.n, the member attribute must be of the Parameter type. But got '1' with type 'int'."
    ),
)

LIST_SORT_REMOVE_UNDER_STRICT = Rule(
    "MS203",
    "list-sort-remove-under-strict",
    Group.STRICT,
    title="`list.sort()` / `list.remove()` in compiled code",
    message="`list.{method}()` is not supported under jit_syntax_level=STRICT; {advice}.",
    why="Under STRICT lists have no `sort` or `remove` method in the graph.",
    remedy=(
        "Use `sorted(...)` on a tuple of constants or `ops.sort` on a Tensor; build a new list "
        "instead of removing from one."
    ),
    mindspore_says=(
        "AttributeError: In JIT strict mode, cannot get attributes sort or the List[Int64*3] "
        "object has no attribute: 'sort'."
    ),
)

PYTHON_FUNCTION_ON_TENSOR_UNDER_STRICT = Rule(
    "MS204",
    "python-function-on-tensor-under-strict",
    Group.STRICT,
    title="Python, `math` or NumPy function applied to a Tensor in compiled code",
    message=(
        "`{name}(...)` of a Tensor computed in the graph (or a number read from one) is not "
        "supported under jit_syntax_level=STRICT; use Tensor methods or `ops` instead."
    ),
    why=(
        "Under STRICT there is no Python fallback: `str()`, `repr()`, `type()`, `math.*` and "
        "`numpy.*` functions need constant inputs, and a Tensor computed in the graph is not."
    ),
    remedy=(
        "Use the Tensor's own methods or `ops` (e.g. `ops.floor`, `x.dtype`), or use the default "
        "LAX level."
    ),
    mindspore_says=(
        "ValueError: When handling script 'type(x) in graph mode', the inputs should be constant,"
        " but found variable 'x' to be nonconstant."
    ),
)

TO_NUMPY = frozenset({"numpy", "tolist"})  # besides `asnumpy`, which needs no type
LIST_METHODS = frozenset({"sort", "remove"})
PYTHON_ONLY_BUILTINS = frozenset({"str", "repr", "type"})
PYTHON_ONLY_MODULES = ("math.", "numpy.")


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    lists = _list_names(ctx.fn.node)
    for node in ctx.of(ast.Call, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.With, ast.For):
        if isinstance(node, ast.Call):
            yield from _call(ctx, node, lists)
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            yield from _attribute_writes(ctx, node)
        elif isinstance(node, ast.With):
            # `with Ctx() as self.v:` writes `self.v` as an assignment does (measured on 2.10:
            # STRICT fails "must be of the Parameter type", naming the `with`; LAX compiles)
            for item in node.items:
                if item.optional_vars is not None:
                    bound = ast.Assign(targets=[item.optional_vars], value=item.context_expr)
                    yield from _attribute_writes(ctx, ast.copy_location(bound, node))
        elif isinstance(node, ast.For) and not isinstance(node.target, ast.Name):
            # `for self.a in range(2):` writes `self.a` each turn (measured on 2.10: STRICT
            # fails "must be of the Parameter type", naming the `for`; LAX compiles)
            bound = ast.Assign(targets=[node.target], value=node.iter)
            yield from _attribute_writes(ctx, ast.copy_location(bound, node))


def _call(ctx: FunctionContext, node: ast.Call, lists: set[str]) -> Iterator[RawFinding]:
    func = node.func
    if (
        isinstance(func, ast.Attribute)
        and _to_numpy(ctx, node, func)
        and receivers.kind_of(ctx, func.value) != receivers.PARAMETER  # MS155 at every level
    ):
        yield ASNUMPY_UNDER_STRICT.finding(node, method=func.attr)
        return
    if (
        isinstance(func, ast.Attribute)
        and func.attr in LIST_METHODS
        and (
            (isinstance(func.value, ast.Name) and func.value.id in lists)
            # `self.vals.sort()` of a list attribute (measured, round 35: fails STRICT alike)
            or receivers.kind_of(ctx, func.value) == receivers.LIST
        )
    ):
        yield LIST_SORT_REMOVE_UNDER_STRICT.finding(
            node,
            method=func.attr,
            advice="use `sorted(...)` or `ops.sort`" if func.attr == "sort" else "build a new list",
        )
        return
    name = _python_function(ctx, func)
    if name is not None and any(
        ctx.types.is_tensor(arg)
        or receivers.runtime_scalar(ctx, arg)
        or (name.startswith("numpy.") and _holds_tensor(ctx, arg))
        or (name == "type" and _mentions_tensor(ctx, arg))
        for arg in node.args
    ):
        # measured: `math.floor(n)`, `np.sqrt(n)`, `str(n)`, `repr(n)`, `type(n)` with
        # `n = int(t)` or `t.item()` fail too
        yield PYTHON_FUNCTION_ON_TENSOR_UNDER_STRICT.finding(node, name=name)


def _mentions_tensor(ctx: FunctionContext, arg: ast.expr) -> bool:
    """`type(x.shape)`, `type(x.shape[0] + 1)`, `type(len(x))`, `type([x.shape[0]])`,
    `type(self.w.dtype)`: MindSpore interprets the whole `type(...)` expression in Python and
    STRICT wants each name it reads constant, so a Tensor the graph computes anywhere in it
    fails ("the inputs should be constant, but found variable 'x'", measured on 2.10) even when
    the value asked about is a constant shape or dtype. Compile: `s = x.shape[0]; type(s)`, a
    loop variable over `x.shape`, `type(self.t.shape)` of a Tensor set in `__init__` and
    `isinstance(x.shape, tuple)`."""
    if isinstance(arg, (ast.Name, ast.Constant)):
        return False  # the name itself: the checks above
    for sub in ast.walk(arg):
        if isinstance(sub, (ast.Lambda, ast.comprehension)):
            return False
        if isinstance(sub, ast.Name) and ctx.types.is_tensor(sub):
            return True
        if (
            isinstance(sub, ast.Attribute)
            and isinstance(sub.value, ast.Name)
            and sub.value.id == "self"
            and receivers.kind_of(ctx, sub) == receivers.PARAMETER
        ):
            return True
    return False


def _holds_tensor(ctx: FunctionContext, data: ast.expr) -> bool:
    """A list or tuple display holding a Tensor computed in the graph, at any depth (measured:
    `np.array([x[0, 0], x[1, 1]])` fails under STRICT, `np.array([x.shape[0], 2])` compiles).
    A bare name is not trusted: `np.zeros((B, H, W))` of `construct(self, B, H, W)` is given
    ints by its callers (mindcv's EdgeNeXt)."""
    if not isinstance(data, (ast.List, ast.Tuple)):
        return False
    return any(
        (not isinstance(e, ast.Name) and certain_tensor(ctx, e))
        or (not isinstance(e, ast.Name) and receivers.runtime_scalar(ctx, e))
        or _holds_tensor(ctx, e)
        for e in data.elts
    )


def _to_numpy(ctx: FunctionContext, node: ast.Call, func: ast.Attribute) -> bool:
    if node.args or node.keywords:
        return False
    return func.attr == "asnumpy" or (func.attr in TO_NUMPY and ctx.types.is_tensor(func.value))


def _python_function(ctx: FunctionContext, func: ast.expr) -> Optional[str]:
    """`str`, `type`, `math.floor`, `np.array`, ...: functions only the Python fallback runs."""
    if isinstance(func, ast.Name) and func.id in PYTHON_ONLY_BUILTINS:
        return func.id
    qualname = ctx.fn.module.qualname(func)
    if qualname and qualname.startswith(PYTHON_ONLY_MODULES):
        return qualname
    return None


def _attribute_writes(
    ctx: FunctionContext, node: ast.Assign | ast.AugAssign | ast.AnnAssign
) -> Iterator[RawFinding]:
    if ctx.fn.cls is None or (ctx.fn.cls.is_jit_class and not ctx.fn.cls.is_cell):
        return  # a @jit_class's own writes: MS252 reports them where its method is called
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    for target in flat_targets(targets):
        if isinstance(target, ast.Subscript):
            yield from _item_write(ctx, target)
            continue
        if not (
            isinstance(target, ast.Attribute)
            and isinstance(target.value, ast.Name)
            and target.value.id == "self"
        ):
            continue
        attr = ctx.fn.cls.attr(target.attr)
        if attr is None:
            # A class attribute holding a constant (`warm = True` in the class body), written
            # through `self`: refused alike (measured: "must be of the Parameter type. But got
            # 'True'")
            held = _class_constant(ctx.fn.cls, target.attr)
            if held is not None:
                yield ATTRIBUTE_WRITE_UNDER_STRICT.finding(
                    target,
                    related=[ctx.related(held, f"`{target.attr}` set here")],
                    name=target.attr,
                )
            continue
        if attr.kind == "tensor":
            continue
        if isinstance(node, ast.Assign) and sub_cell_replaced(ctx, target, node.value):
            continue  # MS192, at every level
        yield ATTRIBUTE_WRITE_UNDER_STRICT.finding(
            target,
            related=[ctx.related(attr.node, f"`self.{target.attr}` set here")] if attr.node else [],
            name=target.attr,
        )


def flat_targets(targets: Sequence[ast.expr]) -> Iterator[ast.expr]:
    """The targets of an assignment, tuple and list targets opened: `self.a, self.b = 1, 2`,
    `y, self.a = x, 2`, `(self.a, y), z = ...` and `self.a, *r = t` failed under STRICT like
    `self.a = 1` (measured on 2.10: "if need to modify a member attribute of a class with
    self.a, the member attribute must be of the Parameter type"), naming the statement."""
    for target in targets:
        if isinstance(target, ast.Starred):
            target = target.value
        if isinstance(target, (ast.Tuple, ast.List)):
            yield from flat_targets(target.elts)
        else:
            yield target


def _item_write(ctx: FunctionContext, target: ast.Subscript) -> Iterator[RawFinding]:
    """`self.t[i] = v` of a Tensor attribute that is not a Parameter: STRICT writes items only
    of Parameters (measured: "When JIT_SYNTAX_LEVEL is not set to LAX self.t should be
    initialized as a 'Parameter' in the '__init__' function to perform assign subscript", at
    the item write; LAX compiles)."""
    assert ctx.fn.cls is not None
    name = names.self_attribute(target.value)
    attr = ctx.fn.cls.attr(name) if name is not None else None
    if attr is None or attr.kind != "const_tensor" or ctx.fn.cls.attr_varies(name or ""):
        return
    yield ATTRIBUTE_WRITE_UNDER_STRICT.finding(
        target,
        related=[ctx.related(attr.node, f"`self.{name}` set here")] if attr.node else [],
        name=name,
    )


def _list_names(fn: ast.AST) -> set[str]:
    """Names bound to a list display, a list comprehension or `list(...)` (measured on 2.10:
    `ks = list(self.heads.keys()); ks.sort()` fails under STRICT like a display's `sort`)."""
    found: set[str] = set()
    for node in of_type(fn, ast.Assign):
        if isinstance(node.value, (ast.List, ast.ListComp)) or _list_call(node.value):
            found.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return found


def _list_call(value: ast.expr) -> bool:
    return (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id == "list"
        and len(value.args) == 1
    )


def _class_constant(cls: ClassInfo, name: str) -> Optional[ast.Constant]:
    """The constant a class body (of `cls` or a base in the workspace) binds `name` to."""
    for info in cls.lineage():
        for stmt in info.node.body:
            if isinstance(stmt, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == name for t in stmt.targets
            ):
                value = stmt.value
                return value if isinstance(value, ast.Constant) else None
    return None
