"""MS208: compiled code assigns a Cell property that has a setter (STRICT).

Measured with MindSpore 2.10 on CPU: under STRICT, `self.s = 3.0` or `self.n += 1` in construct,
where the Cell defines `s` / `n` as a `@property` with a setter over a plain value, fails ("In
JIT strict mode, if need to modify a member attribute of a class with self.s, the member
attribute must be of the Parameter type. But got '2.0' with type 'float'"); LAX compiles it but
does not run the setter (graph mode gave x * 2 where PyNative, which ran it, gave x * 3). What
compiles alike: a property only read, and a getter that returns a Parameter (`return self.w`,
the setter assigning it).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers.base import FunctionContext
from .helpers.classes import ClassInfo

PROPERTY_WRITE_UNDER_STRICT = Rule(
    "MS208",
    "property-write-under-strict",
    Group.STRICT,
    title="Compiled code assigns a property of the Cell that has a setter",
    message=(
        "`self.{name}` is a property with a setter, which graph mode does not run: STRICT "
        "rejects the assignment (the member attribute must be a Parameter) and LAX compiles it "
        "without calling the setter; assign the attribute the setter writes, or keep the value "
        "in a Parameter."
    ),
    why=(
        "Graph mode treats `self.<name> = v` as a write of the attribute itself, not as a call "
        "of the property's setter; STRICT allows such writes only to Parameters."
    ),
    remedy="Write the underlying attribute (or a Parameter with `assign`) instead of the property.",
    mindspore_says=(
        "TypeError: In JIT strict mode, if need to modify a member attribute of a class with "
        "self.s, the member attribute must be of the Parameter type. But got '2.0' with type "
        "'float'."
    ),
)


def _property(cls: ClassInfo, name: str) -> Optional[tuple[ast.FunctionDef, bool]]:
    """The getter of `name` when the class (or a base) defines it as a property, and whether a
    setter is defined too."""
    for info in cls.lineage():
        getter: Optional[ast.FunctionDef] = None
        setter = False
        for stmt in info.node.body:
            if not isinstance(stmt, ast.FunctionDef) or stmt.name != name:
                continue
            for deco in stmt.decorator_list:
                if isinstance(deco, ast.Name) and deco.id == "property":
                    getter = stmt
                if (
                    isinstance(deco, ast.Attribute)
                    and deco.attr == "setter"
                    and isinstance(deco.value, ast.Name)
                    and deco.value.id == name
                ):
                    setter = True
        if getter is not None:
            return getter, setter
    return None


def _returns_parameter(cls: ClassInfo, getter: ast.FunctionDef) -> bool:
    """The getter returns `self.<attr>` holding a Tensor (a Parameter): STRICT accepts it."""
    for node in ast.walk(getter):
        if (
            isinstance(node, ast.Return)
            and isinstance(node.value, ast.Attribute)
            and isinstance(node.value.value, ast.Name)
            and node.value.value.id == "self"
        ):
            attr = cls.attr(node.value.attr)
            if attr is not None and attr.kind in ("tensor", "const_tensor"):
                return True
    return False


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    cls = ctx.fn.cls
    if cls is None or not cls.is_cell:
        return
    for node in ctx.of(ast.Assign, ast.AugAssign):
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign):
            targets = [node.target]
        else:
            continue
        for target in targets:
            if not (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == "self"
            ):
                continue
            found = _property(cls, target.attr)
            if found is None or not found[1] or _returns_parameter(cls, found[0]):
                continue
            yield PROPERTY_WRITE_UNDER_STRICT.finding(target, name=target.attr)
