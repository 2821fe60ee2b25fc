"""MS138-MS139, MS214-MS217: methods called on values graph mode cannot handle that way.

Which receiver kinds have which methods is data (`STRICT_METHODS`): the facts table's method
lists (read from MindSpore's `standard_method.py`) plus the methods its C++ method map adds,
as measured with MindSpore 2.10 on CPU (docs/checker-methods.md). A receiver whose kind the
source does not show is never reported.

MS214 also covers a parameter of the entry point that every call passes a str literal for
(measured: `n.split("_")`, `n.replace("a", "b")`, `n.endswith("c")` in `construct(self, x, n)`
with `Net()(x, "abc")` fail under STRICT, "the String object has no attribute"; `n.lower()`
compiles, and all of them at LAX).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Optional

from ..facts import FACTS
from ..model import Group, RawFinding
from ..rule import Rule
from . import builtins, mutable_scalars
from .bytes_values import is_bytes
from .helpers import names, receivers, shared_values, strs
from .helpers.abstract import Abstract, Value
from .helpers.base import FunctionContext, cacheable
from .helpers.elements import Elements
from .helpers.shapes import Shape
from .helpers.walk import of_type

SEQUENCE_SEARCH_OF_TENSORS = Rule(
    "MS138",
    "sequence-search-of-tensors",
    Group.FAILS,
    title="`.index()` / `.count()` of a sequence holding Tensors",
    message=(
        "`{kind}.{method}()` {why} cannot be compiled: graph mode compares the elements as "
        "scalars; compare the Tensors with `ops.equal` instead."
    ),
    why=(
        "Graph mode implements `tuple.index`/`list.index`/`count` by comparing elements as "
        "Python scalars; a Tensor element or argument (of more than one element) cannot be "
        "turned into one, at every syntax level."
    ),
    remedy=(
        "Compare the Tensors explicitly (`ops.equal`, `ops.stack(...)` then `argmax`), or search "
        "a tuple of constants."
    ),
    mindspore_says=(
        "ValueError: For Primitive[TensorToScalar], the input tensor's shape must be empty or "
        "{1}, but got [const vector]{2, 3}."
    ),
)

TUPLE_ITEM_ASSIGNMENT = Rule(
    "MS139",
    "tuple-item-assignment",
    Group.FAILS,
    title="Assigning an item of a tuple",
    message=(
        "`{name}` is a tuple, which cannot be changed item by item; build a new tuple (or use a "
        "list) instead."
    ),
    why="Tuples are immutable in graph mode as in Python; the graph compiler rejects the write.",
    remedy="Build a new tuple, e.g. `v = (new,) + v[1:]`, or make `v` a list.",
    mindspore_says="TypeError: 'tuple' object does not support item assignment",
)

STR_METHOD_UNDER_STRICT = Rule(
    "MS214",
    "str-method-under-strict",
    Group.STRICT,
    title="A `str` method graph mode lacks, under STRICT",
    message=(
        "`str.{method}()` is not supported under jit_syntax_level=STRICT (only {supported} are); "
        "compute the string outside compiled code."
    ),
    why=(
        "Under STRICT there is no Python fallback, and the graph's str type has only "
        "`format`, `upper` and `lower`."
    ),
    remedy="Compute the string in `__init__` or outside the Cell, or use the default LAX level.",
    mindspore_says=(
        "AttributeError: In JIT strict mode, cannot get attributes find or the String object has "
        "no attribute: 'find'."
    ),
)

FORMAT_TENSOR_UNDER_STRICT = Rule(
    "MS215",
    "format-tensor-under-strict",
    Group.STRICT,
    title="Formatting a Tensor into a str, under STRICT",
    message=(
        "{how} {what} is not supported under jit_syntax_level=STRICT; "
        "print the value itself (`print('x:', x)`) or return it."
    ),
    why=(
        "Under STRICT there is no Python fallback: `%` needs constant operands (a Tensor computed"
        " in the graph, even its `.shape`, is not one), and `str.format` of a Tensor becomes a "
        "graph op `Format` that the CPU backend does not have (the Tensor's shape and dtype "
        "format fine)."
    ),
    remedy="Pass the Tensor to `print` as its own argument, or return it and format it outside.",
    mindspore_says=(
        "ValueError: When handling script ''y is %s' % y in graph mode', the inputs should be "
        "constant, but found variable 'y' to be nonconstant. Try to set jit_syntax_level to LAX."
        " (`.format`: RuntimeError: Unsupported op [Format] on CPU)"
    ),
)


COPY_OF_TENSOR_UNDER_STRICT = Rule(
    "MS216",
    "copy-of-tensor-under-strict",
    Group.STRICT,
    title="`copy.copy` / `copy.deepcopy` of Tensors, under STRICT",
    message=(
        "`{name}(...)` of a Tensor computed in the graph is not supported under "
        "jit_syntax_level=STRICT; use the value itself (graph values are not shared) or "
        "`x.copy()`."
    ),
    why=(
        "The `copy` module only runs through LAX's Python fallback, which needs constant inputs "
        "under STRICT; a Tensor computed in the graph is not one."
    ),
    remedy="Use the Tensor itself, or `x.copy()` for a Tensor; copy constants in `__init__`.",
    mindspore_says=(
        "ValueError: When handling script '__call_func_str__(__input_0__,) in graph mode', the "
        "inputs should be constant, but found variable ... to be nonconstant."
    ),
)

CONTAINER_METHOD_UNDER_STRICT = Rule(
    "MS217",
    "container-method-under-strict",
    Group.STRICT,
    title="A `list` / `dict` method graph mode lacks, under STRICT",
    message=("`{kind}.{method}()` is not supported under jit_syntax_level=STRICT; {advice}."),
    why=(
        "Under STRICT there is no Python fallback, and the graph's lists and dicts have only "
        "the methods MindSpore implements (`append`, `insert`, `pop`, `count`, `index`, ... for "
        "lists; `get`, `keys`, `values`, `items`, `update`, ... for dicts)."
    ),
    remedy=(
        "Build a new list or dict instead (`list(v)`, `dict(d)` or a comprehension), or use the "
        "default LAX level."
    ),
    mindspore_says=(
        "AttributeError: In JIT strict mode, cannot get attributes copy or the List[Int64*2] "
        "object has no attribute: 'copy'."
    ),
)

# Methods each receiver kind has in the graph under STRICT (LAX runs any other one through its
# Python fallback). "list"/"dict": the facts table (`standard_method.py`) plus the C++ method
# map's own (measured: `count`/`index` are SequenceCount/SequenceIndex; dict views and `get`);
# "str": measured, every other str method fails. Kinds not listed are not checked.
STRICT_METHODS: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        "str": frozenset({"format", "upper", "lower"}),
        "list": FACTS.methods.get("list", frozenset()) | {"count", "index"},
        "dict": FACTS.methods.get("dict", frozenset()) | {"keys", "values", "items", "get"},
    }
)
# Methods other rules report (MS203: list sort/remove; MS121: dict pop/setdefault).
REPORTED_ELSEWHERE: Mapping[str, frozenset[str]] = MappingProxyType(
    {"list": frozenset({"sort", "remove"}), "dict": frozenset({"pop", "setdefault"})}
)
ADVICE = {"copy": "use the value itself or build a new one (`list(v)`, `dict(d)`)"}
SEARCHES = frozenset({"index", "count"})
SEQUENCES = frozenset({"tuple", "list"})
COPIES = frozenset({"copy.copy", "copy.deepcopy"})
COPY_NAMES = frozenset(c.rsplit(".", 1)[1] for c in COPIES)
# The methods a str, list, tuple or dict has in Python: any other called name (`reshape`,
# `sum`, ...) is no concern of these rules, whatever its receiver.
RECEIVER_METHODS = frozenset(
    m for kind in (str, list, tuple, dict) for m in dir(kind) if not m.startswith("__")
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    values = shared_values.abstract(ctx)
    nodes: list[ast.AST] = ctx.of(ast.Call, ast.Assign, ast.AugAssign, ast.BinOp)
    for node in nodes:
        if isinstance(node, ast.Call):
            yield from _call(ctx, values, node)
        elif isinstance(node, ast.BinOp):
            yield from _percent(ctx, values, node)
        elif isinstance(node, (ast.Assign, ast.AugAssign)):
            yield from _tuple_write(values, node)


def check_str_parameters(ctx: FunctionContext) -> Iterator[RawFinding]:
    """MS214 for `p.<method>()` of a parameter every call of the entry point passes a str
    literal for; it reads the callers, so it is not cacheable."""
    calls = [
        c
        for c in ctx.of(ast.Call)
        if isinstance(c.func, ast.Attribute)
        and isinstance(c.func.value, ast.Name)
        and c.func.attr not in STRICT_METHODS["str"]
        and not c.func.attr.startswith("__")
        and c.func.attr in RECEIVER_METHODS
    ]
    if not calls:
        return
    params = str_parameters(ctx)
    if not params:
        return
    supported = ", ".join(f"`{m}`" for m in sorted(STRICT_METHODS["str"]))
    for call in calls:
        assert isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name)
        if call.func.value.id in params and not builtins.evaluated_in_python(ctx, call):
            yield STR_METHOD_UNDER_STRICT.finding(call, method=call.func.attr, supported=supported)


def str_parameters(ctx: FunctionContext) -> frozenset[str]:
    """The parameters every call of the function's entry point in the module passes a str
    literal for (and the function never rebinds)."""
    return mutable_scalars.parameters_passed(
        ctx, lambda v: isinstance(v, ast.Constant) and isinstance(v.value, str)
    )


def _call(ctx: FunctionContext, values: Abstract, call: ast.Call) -> Iterator[RawFinding]:
    func = call.func
    last = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if last in COPY_NAMES:  # the cheap test before resolving the callee's module
        qualname = names.callee(ctx.fn.module, func)
        if qualname in COPIES:
            if any(_holds_tensor(ctx, values, arg) for arg in call.args):
                yield COPY_OF_TENSOR_UNDER_STRICT.finding(call, name=qualname)
            return
    if not isinstance(func, ast.Attribute) or func.attr not in RECEIVER_METHODS:
        return  # e.g. a Tensor method: no str/list/tuple/dict has it, no receiver to infer
    receiver = receiver_value(ctx, values, func.value)
    if receiver is None:
        return
    method = func.attr
    if receiver.kind in SEQUENCES and method in SEARCHES:
        yield from _search(ctx, values, call, receiver, method)
    elif receiver.kind == "str":
        yield from _str_method(ctx, values, call, method)
    elif receiver.kind in ("list", "dict") and not method.startswith("__"):
        kind = receiver.kind
        if method not in STRICT_METHODS[kind] and method not in REPORTED_ELSEWHERE[kind]:
            advice = ADVICE.get(method, "build a new list or dict instead")
            yield CONTAINER_METHOD_UNDER_STRICT.finding(
                call, kind=kind, method=method, advice=advice
            )


def _search(
    ctx: FunctionContext, values: Abstract, call: ast.Call, receiver: Value, method: str
) -> Iterator[RawFinding]:
    items = receiver.items or ()
    if any(item is not None and item.kind == "tensor" for item in items):
        why = "of a sequence holding Tensors"
    elif call.args and ctx.types.is_tensor(call.args[0]) and receiver.items is not None:
        why = "with a Tensor argument"
    else:
        return
    if _one_element(ctx, call):
        return
    yield SEQUENCE_SEARCH_OF_TENSORS.finding(call, kind=receiver.kind, method=method, why=why)


def _one_element(ctx: FunctionContext, call: ast.Call) -> bool:
    """Every Tensor in the search surely has one element (a 0-d input every call site passes):
    those compare as scalars and compile (measured: `[x, x + 1].index(x)` of a 0-d `x`)."""
    assert isinstance(call.func, ast.Attribute)
    elements = Elements(ctx.types, ctx.fn.node, ctx.lines)
    written = elements.items(call.func.value) or []
    tensors = [e for e in [*written, *call.args[:1]] if ctx.types.is_tensor(e)]
    shapes = shared_values.shapes(ctx)
    # `x[0, 1]` of a 2-D `x` has one element too (measured: `[x[0, 0], x[0, 1]].index(x[0, 1])`
    # compiles at LAX and STRICT)
    return bool(tensors) and all(elements.scalar(e) or _size_one(shapes.of(e)) for e in tensors)


def _size_one(shape: Optional[Shape]) -> bool:
    return shape is not None and all(d == 1 for d in shape)


def _str_method(
    ctx: FunctionContext, values: Abstract, call: ast.Call, method: str
) -> Iterator[RawFinding]:
    supported = STRICT_METHODS["str"]
    if method.startswith("__"):
        return
    if method not in supported:
        names_ = ", ".join(f"`{m}`" for m in sorted(supported))
        if not builtins.evaluated_in_python(ctx, call):
            yield STR_METHOD_UNDER_STRICT.finding(call, method=method, supported=names_)
    elif method == "format":
        arguments = [*call.args, *(kw.value for kw in call.keywords)]
        if any(
            _holds_tensor(ctx, values, arg) or receivers.runtime_scalar(ctx, arg)
            for arg in arguments
        ):
            yield FORMAT_TENSOR_UNDER_STRICT.finding(call, how="`str.format()` of", what=_TENSOR)
        elif any(mutable_scalars.mutable_number(ctx, arg) for arg in arguments):
            # measured: `'step {}'.format(n)` with `n = mutable(2)` ("Unsupported op [Format]")
            yield FORMAT_TENSOR_UNDER_STRICT.finding(call, how="`str.format()` of", what=_MUTABLE)


def _percent(ctx: FunctionContext, values: Abstract, node: ast.BinOp) -> Iterator[RawFinding]:
    """`'%s' % x`: the whole expression is run by the fallback, so any Tensor it names (even
    for `x.shape`) makes it non-constant."""
    if not isinstance(node.op, ast.Mod):
        return
    left = values.of(node.left)
    if left is None or left.kind != "str":
        return
    named = of_type(node.right, ast.Name)
    if any(ctx.types.is_tensor(name) or receivers.runtime_scalar(ctx, name) for name in named):
        # measured: `'%d' % n` with `n = int(t)` fails STRICT as for the Tensor itself
        yield FORMAT_TENSOR_UNDER_STRICT.finding(node, how="`%` formatting of", what=_TENSOR)
    elif any(mutable_scalars.mutable_number(ctx, name) for name in named):
        # and with `n = mutable(2)`: `'step %d' % n`, `'%d/%d' % (n, 3)` (measured)
        yield FORMAT_TENSOR_UNDER_STRICT.finding(node, how="`%` formatting of", what=_MUTABLE)


_TENSOR = "a Tensor computed in the graph"
_MUTABLE = "a `mutable()` number"


def _tuple_write(values: Abstract, node: ast.Assign | ast.AugAssign) -> Iterator[RawFinding]:
    """`t[0] = v`, and `t[0][1] = v` / `t[0][:, 0] += v` through an item of a tuple `t`: graph
    mode writes the item back into `t` (measured on 2.10, LAX and STRICT: a tuple of Tensors,
    of `ops.split`/`x.chunk` results, of a list, nested tuples fail; a list `t` compiles)."""
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    for target in targets:
        if not isinstance(target, ast.Subscript):
            continue
        root = target.value
        while isinstance(root, ast.Subscript):
            root = root.value
        if not isinstance(root, ast.Name):
            continue
        value = values.of(root)
        if value is not None and value.kind == "tuple":
            yield TUPLE_ITEM_ASSIGNMENT.finding(node, name=root.id)


def receiver_value(ctx: FunctionContext, values: Abstract, expr: ast.expr) -> Optional[Value]:
    """The receiver's value when the source shows it: a literal, a local bound to one, or a
    `self.<attr>` the Cell sets to a str constant."""
    value = values.of(expr)
    if value is not None:
        return value
    if strs.is_str(ctx, values, expr):  # `self.names[0]`, `n` of `for n in self.names`
        return Value("str")
    # bytes compile as a str: `b'ab'.startswith(b'a')`, `b'-'.join([b'a', b'b'])` failed under
    # STRICT alike ("the String object has no attribute: 'startswith'"), `b'ab'.upper()`
    # compiled (measured on 2.10)
    if is_bytes(ctx, expr):
        return Value("str")
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        return receiver_value(ctx, values, bound) if isinstance(bound, ast.Attribute) else None
    attr_name = names.self_attribute(expr)
    if attr_name is None or ctx.fn.cls is None:
        return None
    # `self.cfg.copy()` of a dict display `__init__` sets: measured to fail under STRICT
    # ("the Dictionary[[a,b,],[Int64*2]] object has no attribute: 'copy'")
    held = receivers.kind_of(ctx, expr)
    if held == receivers.DICT:
        return Value("dict")
    if held == receivers.LIST:
        return Value("list")
    attr = ctx.fn.cls.attr(attr_name)
    node = attr.node if attr is not None else None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return Value("str")
    return None


def _holds_tensor(ctx: FunctionContext, values: Abstract, expr: ast.expr) -> bool:
    """`expr` is a Tensor computed in the graph, or a tuple/list literal holding one."""
    if ctx.types.is_tensor(expr):
        return True
    if isinstance(expr, (ast.Tuple, ast.List)):
        return any(_holds_tensor(ctx, values, e) for e in expr.elts)
    value = values.of(expr) if isinstance(expr, ast.Name) else None
    return (
        value is not None
        and value.items is not None
        and any(v is not None and v.kind == "tensor" for v in value.items)
    )
