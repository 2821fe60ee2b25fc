"""MS142: a Cell's `__init__` storing a value under the name of an nn.Cell method that graph
mode's compilation calls.

Measured with MindSpore 2.10 on CPU, at LAX and STRICT alike (PyNative never calls them): the
graph compile of a Cell calls some of nn.Cell's own methods on it, so `self.name_cells = ...`
(a number, str, tuple, list, dict, ...) set in `__init__` fails whether or not `construct`
reads it ("TypeError: 'float' object is not callable", no line named). Of every nn.Cell member
(the facts table's `members["cell"]`, each set to a tuple in `__init__`): `extend_repr`,
`get_scope` and `name_cells` fail on any compiled Cell, sub-Cells too; `check_names`,
`compile`, `compile_and_run`, `generate_scope`, `get_flags`, `init_parameters_data` and
`parameters_dict` only on the Cell that is called (a sub-Cell holding them compiles), so they
are reported only for a Cell no class of the file creates. The other members compile with such
a value (`self.cells = (1.0, 2.0)` included), or fail in PyNative as well (a property with no
setter or a typed one: `phase`, `cls_name`; `cells_and_names`, `get_parameters`; any Cell
stored under a member's name: "child cell already exists"), which is not graph mode's doing;
`arguments_key` read in `construct` gives compile's string instead (not reported).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers.base import FunctionContext
from .helpers.classes import ClassInfo
from .helpers.walk import of_type

CELL_METHOD_SHADOWED = Rule(
    "MS142",
    "cell-method-shadowed",
    Group.FAILS,
    title="An attribute named like an nn.Cell method that graph compilation calls",
    message=(
        "`self.{name}` hides nn.Cell's `{name}()` method, which graph mode calls when it "
        "compiles {which}: compiling fails at every level ('{kind}' object is not callable; "
        "PyNative never calls it); rename the attribute (e.g. `self.{name}_`)."
    ),
    why=(
        "Compiling a Cell calls some of nn.Cell's own methods on it (`name_cells`, "
        "`get_scope`, `extend_repr`, and on the called Cell `compile`, `parameters_dict`, "
        "`check_names`, ...); an instance attribute of the same name replaces the method."
    ),
    remedy="Give the attribute a name nn.Cell does not use (`self.name_cells_`, `self.cfg_dict`).",
    mindspore_says="TypeError: 'float' object is not callable",
)

# Called on every compiled Cell, sub-Cells included (measured).
EVERY_CELL = frozenset({"extend_repr", "get_scope", "name_cells"})
# Called on the Cell the network is compiled from only (measured: a sub-Cell compiles).
CALLED_CELL = frozenset(
    {
        "check_names",
        "compile",
        "compile_and_run",
        "generate_scope",
        "get_flags",
        "init_parameters_data",
        "parameters_dict",
    }
)
NOT_CALLABLE = (
    ast.Constant,
    ast.Tuple,
    ast.List,
    ast.Dict,
    ast.Set,
    ast.ListComp,
    ast.DictComp,
    ast.SetComp,
    ast.JoinedStr,
)
KINDS = {
    ast.Tuple: "tuple",
    ast.List: "list",
    ast.Dict: "dict",
    ast.Set: "set",
    ast.ListComp: "list",
    ast.DictComp: "dict",
    ast.SetComp: "set",
    ast.JoinedStr: "str",
}


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    cls = ctx.fn.cls
    if cls is None or not cls.is_cell or ctx.fn.node.name != "construct":
        return
    top = None
    for info in cls.lineage():
        if info.module is not ctx.fn.module:
            continue
        init = info.own_method("__init__")
        if init is None:
            continue
        for node in of_type(init, ast.Assign):
            if len(node.targets) != 1:
                continue
            target = node.targets[0]
            if not (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == "self"
                and isinstance(node.value, NOT_CALLABLE)
            ):
                continue
            name = target.attr
            if name not in EVERY_CELL and name not in CALLED_CELL:
                continue
            if name in CALLED_CELL:
                if top is None:
                    top = not _created_by_a_class(ctx, cls)
                if not top:
                    continue
            yield CELL_METHOD_SHADOWED.finding(
                target,
                name=name,
                which="any Cell" if name in EVERY_CELL else "the Cell it is called on",
                kind=_kind(node.value),
            )


def _kind(value: ast.expr) -> str:
    if isinstance(value, ast.Constant):
        return type(value.value).__name__
    return KINDS.get(type(value), "object")


def _created_by_a_class(ctx: FunctionContext, cls: ClassInfo) -> bool:
    """Some class of the file creates `cls` (`self.head = Head(...)`): it may be a sub-Cell."""
    tree = ctx.fn.module.tree
    if tree is None:
        return True
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for call in ast.walk(node):
                if (
                    isinstance(call, ast.Call)
                    and isinstance(call.func, ast.Name)
                    and call.func.id == cls.name
                ):
                    return True
    return False
