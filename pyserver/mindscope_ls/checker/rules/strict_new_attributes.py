"""MS245: a Cell's compiled method sets an attribute the Cell does not have, under STRICT.

Measured with MindSpore 2.10 (`tests/graphmode/cases/user2/`, `docs/objects/`): under STRICT
`self.extra = 5` in construct, where neither the Cell's classes nor `nn.Cell` have `extra`,
fails ("The 'Net' object has no attribute 'extra'", no line named); LAX sets it through its
Python fallback. An attribute the class already has is MS202's. Only Cells whose whole lineage
the workspace shows (classes of the workspace down to `nn.Cell` itself) are judged.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..facts import FACTS
from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from .helpers import names
from .helpers.base import FunctionContext
from .helpers.classes import ClassInfo

NEW_ATTRIBUTE_UNDER_STRICT = Rule(
    "MS245",
    "new-attribute-under-strict",
    Group.STRICT,
    title="Compiled code sets an attribute the Cell does not have (STRICT)",
    message=(
        "`self.{name}` is not an attribute of `{cls}` (its `__init__` never sets it): STRICT "
        "cannot add attributes to a Cell in compiled code; set it in `__init__` (a Parameter "
        "if compiled code changes it) or return the value."
    ),
    why=(
        "Under STRICT the graph can only write a Cell's existing Parameter attributes; an "
        "attribute the Cell does not have is looked up and not found."
    ),
    remedy=(
        "Create the attribute in `__init__` (a Parameter when compiled code updates it), "
        "return the value instead, or use the default LAX level."
    ),
    mindspore_says="AttributeError: The 'Net' object has no attribute 'extra'.",
)
CELL = frozenset({"mindspore.nn.Cell", "mindspore.nn.cell.Cell", "mindspore.Cell"})


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    cls = ctx.fn.cls
    if ctx.level != SyntaxLevel.STRICT or cls is None or not cls.is_cell:
        return
    args = ctx.fn.node.args.args
    if not args or args[0].arg != "self" or not _whole_lineage(cls):
        return
    writes: list[ast.Assign | ast.AnnAssign] = ctx.of(ast.Assign, ast.AnnAssign)
    reported: set[str] = set()
    for node in writes:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            name = names.self_attribute(target)
            if name is None or name in reported or not _new(ctx, cls, name):
                continue
            reported.add(name)
            yield NEW_ATTRIBUTE_UNDER_STRICT.finding(target, name=name, cls=cls.name)


def _whole_lineage(cls: ClassInfo) -> bool:
    """Each class of the lineage is the workspace's, and its bases are the workspace's classes
    or `nn.Cell` itself (no other MindSpore Cell, whose attributes are not listed here)."""
    for info in cls.lineage():
        module = info.module
        written = [module.qualname(base) for base in info.node.bases]
        if info.node.keywords or len([q for q in written if q not in CELL]) != len(info.bases):
            return False  # a base that is neither nn.Cell nor a class of the workspace
    return True


def _new(ctx: FunctionContext, cls: ClassInfo, name: str) -> bool:
    if name.startswith("_") or FACTS.member("cell", name) is not None:
        return False
    own = ctx.fn.node
    for info in cls.lineage():
        if name in info.attrs or info.own_method(name) is not None:
            return False
        for stmt in info.node.body:
            if stmt is own:
                continue
            for node in ast.walk(stmt):
                if (
                    isinstance(node, ast.Name)
                    and node.id == name
                    and not isinstance(node.ctx, ast.Load)
                ):
                    return False  # a class attribute
                if (
                    isinstance(node, ast.Attribute)
                    and node.attr == name
                    and not isinstance(node.ctx, ast.Load)
                ):
                    return False  # set by another method
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Name)
                    and node.func.id in ("setattr", "__setattr__")
                ):
                    return False
    return True
