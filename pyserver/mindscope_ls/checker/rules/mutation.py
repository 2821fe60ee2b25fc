"""MS131-MS134, MS210-MS211: writes to objects that compiled code cannot change."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from . import python_dynamic
from .helpers import receivers
from .helpers.base import FunctionContext, cacheable

SUBSCRIPT_ATTRIBUTE_WRITE = Rule(
    "MS131",
    "subscript-attribute-write",
    Group.FAILS,
    title="Assigning an attribute of an indexed item (`a[0].x = ...`)",
    message=(
        "Graph mode cannot assign an attribute of an indexed item (`{target}`); keep the value in"
        " an attribute of the Cell or pass it as an argument."
    ),
    why=(
        "An assignment target in compiled code must be a name or `obj.attr` on a name or "
        "attribute; the attribute of a subscript (`self.layers[0].flag`) has no translation."
    ),
    remedy=(
        "Set the attribute outside compiled code (in `__init__`), or keep the value in an "
        "attribute of the Cell itself."
    ),
    mindspore_says=(
        "RuntimeError: In graph mode, only attribute and name of class members can be assigned. "
        "But got Subscript."
    ),
)

SUB_CELL_ATTRIBUTE_WRITE = Rule(
    "MS132",
    "sub-cell-attribute-write",
    Group.FAILS,
    title="Assigning an attribute of a sub-Cell in compiled code",
    message=(
        "`self.{cell}.{name}` cannot be assigned in compiled code; set it outside `construct` or "
        "pass the value to the sub-Cell as an argument."
    ),
    why=(
        "A sub-Cell is compiled as a separate graph whose attributes are constants of the "
        "compiled network; assigning one from the outer graph fails to compile."
    ),
    remedy=(
        "Set the sub-Cell's attribute outside compiled code (in `__init__` or before calling the"
        " network), or pass the value as an argument of its `construct`."
    ),
    mindspore_says=(
        "RuntimeError: Default/Cast-op0 does not support this kernel data type (AttributeError: "
        "ClassMember: 'Namespace:mindspore.nn.layer.activation..<ReLU>' object has no attribute)"
    ),
)

PARAMETER_ATTRIBUTE_WRITE = Rule(
    "MS133",
    "parameter-attribute-write",
    Group.FAILS,
    title="Assigning an attribute of a Parameter (`requires_grad`, `name`) in compiled code",
    message=(
        "`{target}` cannot be set in compiled code: a Parameter's attributes are fixed once the "
        "graph is built; set it before calling the network."
    ),
    why="Inside the graph a Parameter is a reference to its data: its attributes cannot be set.",
    remedy=(
        "Set `requires_grad`, `name` and other Parameter attributes in `__init__` or before "
        "calling the network."
    ),
    mindspore_says="ValueError: Do not support to set attribute for a parameter.",
)

PARAMETER_TO_NONE = Rule(
    "MS134",
    "parameter-to-none",
    Group.FAILS,
    title="Rebinding a Parameter attribute to None in compiled code",
    message=(
        "`self.{name}` is a Parameter: assigning None to it in compiled code is an `Assign` of "
        "None, which fails; keep a Tensor in it or use a separate flag."
    ),
    why="Assigning to a Parameter attribute inside the graph assigns its data, and None is none.",
    remedy="Assign a Tensor of the Parameter's shape, or keep a separate attribute as a flag.",
    mindspore_says='TypeError: Failed calling Assign with "value=None".',
)

JIT_CLASS_ATTRIBUTE_WRITE_UNDER_STRICT = Rule(
    "MS210",
    "jit-class-attribute-write-under-strict",
    Group.STRICT,
    title="Assigning an attribute of a `@jit_class` object in compiled code",
    message=(
        "`self.{obj}.{name}` is an attribute of a `@jit_class` object: STRICT cannot assign it in "
        "compiled code; keep the value in a Parameter or return it."
    ),
    why=(
        "Under STRICT a `@jit_class` instance is a constant of the graph; its attributes can be "
        "read but not assigned (LAX assigns them through its Python fallback)."
    ),
    remedy="Keep mutable state in a Parameter of the Cell, or use the default LAX level.",
    mindspore_says=(
        "RuntimeError: Can not find kernel tensor for node : ValueNode<MsClassObject> "
        "MsClassObject: 'Box', output index: 0"
    ),
)

ATTRIBUTE_ITEM_WRITE_UNDER_STRICT = Rule(
    "MS211",
    "attribute-item-write-under-strict",
    Group.STRICT,
    title="Assigning an item of a dict or list attribute in compiled code",
    message=(
        "`self.{name}` is a {kind}, not a Parameter: STRICT cannot assign its items in compiled "
        "code; build a new {kind} and return it, or use a Parameter."
    ),
    why=(
        "Under STRICT only Parameter attributes can be written inside the graph, and that "
        "includes writing an item of a dict or list attribute."
    ),
    remedy=(
        "Build a new dict/list in `construct` and return or pass it on, make the attribute a "
        "Parameter, or use the default LAX level."
    ),
    mindspore_says=(
        "TypeError: When JIT_SYNTAX_LEVEL is not set to LAXself.d should be initialized as a "
        "'Parameter' in the '__init__' function to perform assign subscript, but got: {'a': 1}' "
        "with type 'dict'."
    ),
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    writes: list[ast.Assign | ast.AugAssign | ast.AnnAssign] = ctx.of(
        ast.Assign, ast.AugAssign, ast.AnnAssign
    )
    for node in writes:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            for sub in _stored(target):
                yield from _write(ctx, node, sub)


def _stored(target: ast.expr) -> Iterator[ast.expr]:
    """The targets an assignment stores to (unpacking tuples and lists)."""
    if isinstance(target, (ast.Tuple, ast.List)):
        for element in target.elts:
            yield from _stored(element.value if isinstance(element, ast.Starred) else element)
    else:
        yield target


def _write(ctx: FunctionContext, node: ast.stmt, target: ast.expr) -> Iterator[RawFinding]:
    if isinstance(target, ast.Attribute):
        yield from _attribute_write(ctx, node, target)
    elif isinstance(target, ast.Subscript) and ctx.level == SyntaxLevel.STRICT:
        name = receivers.self_attr_name(target.value)
        kind = receivers.kind_of(ctx, target.value) if name else None
        if name == "__dict__" and ctx.fn.cls is not None and ctx.fn.cls.is_cell:
            # measured on 2.10: `self.__dict__["k"] = v` fails under STRICT like any dict
            # attribute ("self.__dict__ should be initialized as a 'Parameter'"); LAX compiles it
            kind = receivers.DICT
        if name and kind in (receivers.DICT, receivers.LIST):
            yield ATTRIBUTE_ITEM_WRITE_UNDER_STRICT.finding(target, name=name, kind=kind)


def _attribute_write(
    ctx: FunctionContext, node: ast.stmt, target: ast.Attribute
) -> Iterator[RawFinding]:
    owner = target.value
    text = ast.unparse(target)
    if isinstance(owner, ast.Subscript):
        yield SUBSCRIPT_ATTRIBUTE_WRITE.finding(target, target=text)
        return
    kind = receivers.kind_of(ctx, owner)
    outer = receivers.self_attr_name(owner)
    if kind == receivers.PARAMETER:
        yield PARAMETER_ATTRIBUTE_WRITE.finding(target, target=text)
    elif kind == receivers.CELL and outer is not None:
        yield SUB_CELL_ATTRIBUTE_WRITE.finding(target, cell=outer, name=target.attr)
    elif kind == receivers.JIT_CLASS and outer is not None and ctx.level == SyntaxLevel.STRICT:
        if (outer, target.attr) in python_dynamic.held_new_attribute_reads(ctx):
            return  # a new attribute read back: MS194's, which MindSpore names (at the read)
        yield JIT_CLASS_ATTRIBUTE_WRITE_UNDER_STRICT.finding(target, obj=outer, name=target.attr)
    elif (
        isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Constant)
        and node.value.value is None
        and receivers.kind_of(ctx, target) == receivers.PARAMETER
    ):
        yield PARAMETER_TO_NONE.finding(node, name=target.attr)
