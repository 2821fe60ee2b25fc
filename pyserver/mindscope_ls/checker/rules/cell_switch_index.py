"""MS1065: a tuple or list of Cells or functions indexed by an int64 Tensor in compiled code.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative (PyNative indexes a
Python tuple or list with a one-element Tensor through `__index__`): graph mode compiles a
tuple or list of Cells or functions indexed by a Tensor to `switch_layer`, whose index must be
an int32 Tensor; an int64 one fails at every level ("switch_layer index must be an int32, but
got Int64"). Measured to fail: `self.layers[i](x)` with `self.layers = (nn.ReLU(), nn.Tanh())`
(a tuple, a list, a list comprehension of Cells, a tuple of `ops.relu`-style functions) and `i`
an `ops.argmax(...)` result, `argmax(...) % 2`, `(cond).astype(ms.int64)`, `Tensor(1)`, a
`construct` parameter its caller passes `Tensor(1)` / `Tensor(np.array(1))` for, a local
`fs = (ops.relu, ops.tanh)` in a `@ms.jit` function, `f = self.layers[i]; f(x)`. Compiles: the
same with an int32 index (`.astype(ms.int32)`, `ops.argmin`, `Tensor(1, ms.int32)`,
`ops.cast(..., ms.int32)`), a Python int or `mutable(1)` index, `int(t)`, a dict of Cells, and a
tuple of Tensors indexed by an int64 Tensor (no switch). An index of unknown dtype is left
alone. Round 34: a tuple written out of sub-Cell attributes, `(self.a, self.b)[i](x)`, fails
the same way with an int64 `i` and compiles with an int32 one.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from . import joins  # MS205, reported by the switch too (a module import: one declaration)
from .helpers import cell_returns, names, receivers
from .helpers.base import FunctionContext, cacheable
from .helpers.shared_values import abstract
from .helpers.walk import own_nodes

CELL_SWITCH_INT64_INDEX = Rule(
    "MS1065",
    "cell-switch-int64-index",
    Group.FAILS,
    title="A tuple or list of Cells or functions indexed by an int64 Tensor in compiled code",
    message=(
        "`{item}` picks one of the {what} with the int64 Tensor `{index}`; graph mode compiles "
        "that to `switch_layer`, which takes an int32 index only (fails at every level); cast "
        "it first: `{index_cast}`."
    ),
    why=(
        "Graph mode selects among Cells or functions by a Tensor index with `switch_layer`, "
        "whose index must be an int32 Tensor; `argmax` and `Tensor(1)` give int64."
    ),
    remedy="Cast the index to int32 (`i.astype(ms.int32)`) or index with a Python int.",
    mindspore_says="ValueError: switch_layer index must be an int32, but got Int64",
)

_CELL_LIST = "mindspore.nn.CellList"


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    subscripts = [
        s
        for s in ctx.of(ast.Subscript)
        if isinstance(s.ctx, ast.Load) and not isinstance(s.slice, (ast.Slice, ast.Constant))
    ]
    if not subscripts:
        return
    values = None
    for node in subscripts:
        index = node.slice
        if not ctx.types.is_tensor(index):
            continue
        what = _callables(ctx, node.value)
        if what is None:
            continue
        if values is None:
            values = abstract(ctx, module=True)
        if values.dtype(index) != "int64":
            continue
        text = ast.unparse(index)
        simple = isinstance(index, (ast.Name, ast.Call, ast.Attribute, ast.Subscript))
        cast = f"{text}.astype(ms.int32)" if simple else f"({text}).astype(ms.int32)"
        yield CELL_SWITCH_INT64_INDEX.finding(
            node, item=ast.unparse(node), what=what, index=text, index_cast=cast
        )


def _callables(ctx: FunctionContext, seq: ast.expr) -> Optional[str]:
    """What `seq` holds when it is a tuple or list of Cells or functions: a `self.<attr>`
    assigned one in `__init__` (or an nn.CellList), or a local bound once to a written-out
    tuple or list of functions."""
    held = receivers.self_attr(ctx, seq)
    if held is not None:
        if held.kind == "cell" and held.class_qualname == _CELL_LIST:
            return "Cells of the CellList"
        node = held.node
        if held.kind == "cell":
            return None
        if isinstance(node, (ast.Tuple, ast.List)) and node.elts:
            module = ctx.fn.cls.module if ctx.fn.cls is not None else ctx.fn.module
            kinds = {_callable(ctx, module, e) for e in node.elts}
            if None in kinds:
                return None
            return "Cells" if kinds == {"cell"} else "functions"
        if isinstance(node, ast.ListComp) and len(node.generators) == 1:
            module = ctx.fn.cls.module if ctx.fn.cls is not None else ctx.fn.module
            kind = _callable(ctx, module, node.elt)
            return None if kind is None else ("Cells" if kind == "cell" else "functions")
        return None
    if isinstance(seq, (ast.Tuple, ast.List)) and len(seq.elts) > 1:
        # `(self.a, self.b)[i]`: sub-Cell attributes gathered where they are indexed (round 34)
        kinds = {receivers.kind_of(ctx, e) if names.self_attribute(e) else None for e in seq.elts}
        return "Cells" if kinds == {receivers.CELL} else None
    if isinstance(seq, ast.Name):
        bound = receivers.only_binding(ctx, seq.id)
        if isinstance(bound, (ast.Tuple, ast.List)) and bound.elts:
            module = ctx.fn.module
            if all(_callable(ctx, module, e) == "function" for e in bound.elts):
                return "functions"
    return None


def _callable(ctx: FunctionContext, module: object, elt: ast.expr) -> Optional[str]:
    """ "cell" for a Cell made by a call of a Cell class, "function" for a functional op
    named (`ops.relu`), else None."""
    if isinstance(elt, ast.Call):
        qualname = names.callee(module, elt)  # type: ignore[arg-type]
        if names.is_cell_qualname(qualname):
            return "cell"
        info = ctx.classes.resolve(qualname)
        return "cell" if info is not None and info.is_cell else None
    if isinstance(elt, (ast.Name, ast.Attribute)):
        qualname = module.qualname(elt)  # type: ignore[attr-defined]
        if names.is_ops_call(qualname):
            return "function"
    return None


SWITCH_BRANCHES_DISAGREE = Rule(
    "MS1087",
    "cell-switch-branches-disagree",
    Group.FAILS,
    title=(
        "Cells picked by a Tensor index that take different arguments or return different "
        "kinds or dtypes"
    ),
    message=(
        "`{item}` picks one of the Cells with the Tensor `{index}`: graph mode compiles every "
        "one of them as a branch of `switch_layer`, and {problem} (fails at every level); "
        "make the Cells agree, or index with a Python int."
    ),
    why=(
        "Graph mode turns a tuple or list of Cells indexed by a Tensor into `switch_layer`: "
        "each Cell is called with the same arguments and their results must join into one "
        "type (Tensors of one dtype); PyNative calls only the Cell the index picks."
    ),
    remedy=(
        "Give every Cell the same `construct` parameters and make each return the same kind "
        "of value (all Tensors of one dtype, or tuples), or pick the Cell with a Python int."
    ),
    mindspore_says=(
        "TypeError: The parameters number of the function is 2, but the number of provided "
        "arguments is 1. / TypeError: Cannot join the return values of different branches, "
        "perhaps you need to make them equal."
    ),
)

# MindSpore layers whose `construct(x)` returns one Tensor
_TENSOR_LAYERS = frozenset(
    {
        "ReLU",
        "ReLU6",
        "Tanh",
        "Sigmoid",
        "GELU",
        "SiLU",
        "Softmax",
        "LogSoftmax",
        "LeakyReLU",
        "ELU",
        "Identity",
        "Flatten",
        "Dense",
        "Conv1d",
        "Conv2d",
        "Conv3d",
    }
)
_ARITH = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Pow, ast.MatMult, ast.Mod)


def check_branches(ctx: FunctionContext) -> Iterator[RawFinding]:
    """MS1087. Measured on 2.10 (LAX and STRICT alike; PyNative calls only the Cell picked):
    `self.layers[i](x)` with `self.layers = (A(), B())` (or a list) and `i` an int32 Tensor
    fails when one Cell's `construct` takes more (or fewer) positional parameters than the
    call gives ("The parameters number of the function is 2, but the number of provided
    arguments is 1", naming that `construct` and the call), and when one returns a tuple
    (or a list, or a number) where another returns a Tensor ("Cannot join the return values
    of different branches", naming the returns). Compiles: a parameter with a default or
    `*rest`, tuples of different lengths, Tensors of different shapes or ranks, Cells that
    agree. `return None` against a Tensor fails only under STRICT (MS205 here, round 36).
    Round 35: Tensors of different dtypes fail too ("Type Join Failed: dtype1 = Int32, dtype2
    = Float32"; measured for int32/float32, float16/float32, float64/float32, int32/int64,
    bool/float32, `ops.cast` and `.astype('int32')` alike, with a tuple, a list, a local tuple
    `cells = (self.a, self.b)` of sub-Cell attributes, any index value); Cells returning the
    same dtype (`x.astype(ms.float32)` of a float32 `x`, two int32 casts) compile. A dtype the
    checker cannot read (a layer's) leaves the call alone; `ops.relu(x)` keeps `x`'s
    (`cell_returns`, round 36). A CellList indexed by
    a Tensor fails in PyNative already, so it is not looked at."""
    calls = [
        c
        for c in ctx.of(ast.Call)
        if isinstance(c.func, ast.Subscript)
        and isinstance(c.func.ctx, ast.Load)
        and not isinstance(c.func.slice, (ast.Slice, ast.Constant))
    ]
    if not calls:
        return
    for call in calls:
        sub = call.func
        assert isinstance(sub, ast.Subscript)
        if not ctx.types.is_tensor(sub.slice):
            continue
        branches = _branches(ctx, sub.value)
        if branches is None:
            continue
        problem, at = _disagreement(ctx, call, branches)
        if problem is None:
            if ctx.level == SyntaxLevel.STRICT:
                yield from _none_against_tensor(ctx, call, sub, branches)
            continue
        yield SWITCH_BRANCHES_DISAGREE.finding(
            at if at is not None else call,
            item=ast.unparse(sub),
            index=ast.unparse(sub.slice),
            problem=problem,
        )


Branch = tuple[str, Optional[ast.FunctionDef]]


def _none_against_tensor(
    ctx: FunctionContext, call: ast.Call, sub: ast.Subscript, branches: list[Branch]
) -> Iterator[RawFinding]:
    """Under STRICT, one Cell's `construct` gives None (`return None`, a bare `return`) where
    another's gives a Tensor: the switch joins them as a Tensor `if` does (measured on 2.10:
    "Cannot join the return values of different branches", naming the `return None`; LAX
    compiles)."""
    none = tensor = None
    for name, fn in branches:
        if fn is not None and cell_returns.returns_none(fn):
            returns = [n for n in own_nodes(fn) if isinstance(n, ast.Return)]
            if returns and none is None:
                none = (name, min(returns, key=lambda r: (r.lineno, r.col_offset)))
        elif (fn is not None and (_returns_kind(ctx, fn, call) or ("",))[0] == "a Tensor") or (
            fn is None and name in _TENSOR_LAYERS
        ):
            tensor = name
    if none is None or tensor is None:
        return
    name, at = none
    yield joins.TENSOR_NONE_JOIN_UNDER_STRICT.finding(
        at.value or at,
        what=f"`{name}.construct`, which `{ast.unparse(sub)}` may call, gives",
        kind="None",
        other=f"`{tensor}.construct` a Tensor",
    )


def _branches(ctx: FunctionContext, seq: ast.expr) -> Optional[list[Branch]]:
    """(class name, its workspace `construct` or None for a MindSpore layer) for each Cell of
    a tuple or list attribute written out in `__init__`; None unless all are known Cells."""
    node = _cells_written(ctx, seq)
    if node is None or len(node.elts) < 2:
        return None
    module = ctx.fn.cls.module if ctx.fn.cls is not None else ctx.fn.module
    found: list[Branch] = []
    for elt in node.elts:
        if names.self_attribute(elt) is not None:
            # `(self.a, self.b)[i]`: the Cell each attribute was assigned in `__init__`
            attr = receivers.self_attr(ctx, elt)
            elt = attr.node if attr is not None and attr.kind == "cell" else None  # type: ignore[assignment]
        if not isinstance(elt, ast.Call):
            return None
        qualname = names.callee(module, elt)
        if qualname is None:
            return None
        if qualname.startswith("mindspore.") and names.is_cell_qualname(qualname):
            found.append((qualname.rsplit(".", 1)[-1], None))
            continue
        info = ctx.classes.resolve(qualname)
        if info is None or not info.is_cell:
            return None
        method = info.find_method("construct")
        if method is None or not isinstance(method[1], ast.FunctionDef):
            return None
        found.append((info.name, method[1]))
    return found


def _cells_written(ctx: FunctionContext, seq: ast.expr) -> Optional[ast.Tuple | ast.List]:
    """The tuple or list of Cells `seq` names: a `self.<attr>` assigned one in `__init__`, one
    written where it is indexed (`(self.a, self.b)[i]`), or a local bound once to one."""
    held = receivers.self_attr(ctx, seq)
    if held is not None:
        node = held.node if held.kind != "cell" else None
        return node if isinstance(node, (ast.Tuple, ast.List)) else None
    if isinstance(seq, ast.Name):
        bound = receivers.only_binding(ctx, seq.id)
        if isinstance(bound, (ast.Tuple, ast.List)) and all(
            names.self_attribute(e) is not None for e in bound.elts
        ):
            return bound
        return None
    if isinstance(seq, (ast.Tuple, ast.List)) and all(
        names.self_attribute(e) is not None for e in seq.elts
    ):
        return seq
    return None


def _disagreement(
    ctx: FunctionContext, call: ast.Call, branches: list[Branch]
) -> tuple[Optional[str], Optional[ast.AST]]:
    if not call.keywords and not any(isinstance(a, ast.Starred) for a in call.args):
        given = len(call.args)
        for name, fn in branches:
            if fn is None:
                continue
            args = fn.args
            positional = [*args.posonlyargs, *args.args][1:]
            required = len(positional) - len(args.defaults)
            if given < required or (args.vararg is None and given > len(positional)):
                takes = len(positional)
                return (
                    f"`{name}.construct` takes {takes} argument{'s' if takes != 1 else ''} "
                    f"where the call gives {given}",
                    None,
                )
    problem, at = _dtypes_disagree(ctx, call, branches)
    if problem is not None:
        return problem, at
    kinds: list[tuple[str, Optional[ast.AST]]] = []
    for name, fn in branches:
        if fn is None:
            if name in _TENSOR_LAYERS:
                kinds.append(("a Tensor", None))
            else:
                return None, None
            continue
        kind = _returns_kind(ctx, fn, call)
        if kind is None:
            return None, None
        kinds.append(kind)
    if len({k for k, _ in kinds}) < 2:
        return None, None
    first = next((k for k in kinds if k[1] is not None), None)
    if first is None:
        return None, None
    others = sorted({k for k, _ in kinds if k != first[0]})
    return (
        f"their results cannot join: one returns {first[0]}, another {others[0]}",
        first[1],
    )


def _returns_kind(
    ctx: FunctionContext, fn: ast.FunctionDef, call: ast.Call
) -> Optional[tuple[str, ast.AST]]:
    """What every `return` of `fn` gives: "a tuple", "a list", "a number" or "a Tensor" (an
    `ops` call, arithmetic on a parameter, or a parameter the call gives a Tensor for), with
    the first return's value; None if mixed or unknown."""
    positional = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)][1:]
    params = set(positional)
    tensors = {
        name
        for name, arg in zip(positional, call.args)
        if not isinstance(arg, ast.Starred) and ctx.types.is_tensor(arg)
    }
    module = ctx.fn.cls.module if ctx.fn.cls is not None else ctx.fn.module
    values = cell_returns.returned_values(fn)
    if not values:
        return None
    kinds = {
        "a Tensor"
        if isinstance(v, ast.Name) and v.id in tensors
        else _value_kind(module, params, v)
        for v in values
    }
    if len(kinds) != 1 or None in kinds:
        return None
    first = min(values, key=lambda v: (v.lineno, v.col_offset))
    kind = kinds.pop()
    assert kind is not None
    return kind, first


def _value_kind(module: object, params: set[str], value: ast.expr) -> Optional[str]:
    if isinstance(value, ast.Tuple):
        return "a tuple"
    if isinstance(value, ast.List):
        return "a list"
    if isinstance(value, ast.Constant):
        if isinstance(value.value, (int, float)):
            return "a number"
        return None
    if isinstance(value, ast.Call):
        qualname = names.callee(module, value)  # type: ignore[arg-type]
        if (
            qualname is not None
            and names.is_ops_call(qualname)
            and qualname.rsplit(".", 1)[-1] not in _TUPLE_OPS
        ):
            return "a Tensor"
        return None
    if isinstance(value, ast.BinOp) and isinstance(value.op, _ARITH):
        sides = (value.left, value.right)
        if any(
            isinstance(s, (ast.Tuple, ast.List, ast.Constant)) and not _number(s) for s in sides
        ):
            return None
        if any(isinstance(s, ast.Name) and s.id in params for s in sides) and all(
            _number(s) or (isinstance(s, ast.Name) and s.id in params) for s in sides
        ):
            return None if all(isinstance(s, ast.Name) for s in sides) else "a Tensor"
    return None


def _number(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) in (int, float)


_TUPLE_OPS = frozenset(
    {"topk", "sort", "split", "unique", "chunk", "unbind", "meshgrid", "max", "min"}
)


def _dtypes_disagree(
    ctx: FunctionContext, call: ast.Call, branches: list[Branch]
) -> tuple[Optional[str], Optional[ast.AST]]:
    """Round 35: Cells that all return a Tensor, but of dtypes known to differ (`x.astype(
    ms.int32)` against `x`, `ops.cast(x, ms.float16)`, `x > 0`): the join fails ("Type Join
    Failed: dtype1 = Int32, dtype2 = Float32"); one dtype unknown leaves it alone."""
    found: list[tuple[str, str, ast.AST]] = []
    for name, fn in branches:
        if fn is None:
            return None, None
        returned = _returned_dtype(ctx, fn, call)
        if returned is None:
            return None, None
        found.append((name, *returned))
    if len({d for _, d, _ in found}) < 2:
        return None, None
    name, dtype, at = found[0]
    other = next((n, d) for n, d, _ in found if d != dtype)
    return (
        f"their results cannot join: `{name}` returns {_a(dtype)} Tensor, `{other[0]}` "
        f"{_a(other[1])} one",
        at,
    )


def _a(dtype: str) -> str:
    dtype = dtype.rstrip("_")
    return f"an {dtype}" if dtype.startswith("int") else f"a {dtype}"


def _returned_dtype(
    ctx: FunctionContext, fn: ast.FunctionDef, call: ast.Call
) -> Optional[tuple[str, ast.AST]]:
    """The one dtype every `return` of `fn` gives, with the first return's value."""
    module = ctx.fn.cls.module if ctx.fn.cls is not None else ctx.fn.module
    values = abstract(ctx, module=True)

    def argument(arg: ast.expr) -> Optional[str]:
        return values.dtype(arg) if ctx.types.is_tensor(arg) else None

    return cell_returns.returned_dtype(module, fn, call, argument)
