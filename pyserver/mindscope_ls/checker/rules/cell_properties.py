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

from ..model import Group, RawFinding, SyntaxLevel
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


SETTER_SKIPPED_AT_LAX = Rule(
    "MS369",
    "property-setter-skipped-at-lax",
    Group.DIVERGES,
    title="Compiled code assigns a Cell property with a setter and then reads what it set",
    message=(
        "`self.{name} = ...` does not run the setter of the property `{name}` in graph mode at "
        "LAX, so the later use of `self.{read}` (line {line}) still sees the value from "
        "before the assignment where PyNative sees the new one; assign the attribute the "
        "setter writes, or keep the value in a Parameter."
    ),
    why=(
        "Graph mode compiles `self.<name> = v` as a write of the attribute itself and never "
        "calls the property's setter, and the write of a plain attribute is not seen by the "
        "later reads of the same graph."
    ),
    remedy="Write the underlying attribute directly, or hold the value in a Parameter.",
    mindspore_says=(
        "(no error: the graph computed x * 2 where PyNative, which ran the setter, gave x * 3)"
    ),
)


def _setter_writes(cls: ClassInfo, name: str) -> set[str]:
    """The `self.<attr>` names the setter of property `name` assigns."""
    written: set[str] = set()
    for info in cls.lineage():
        for stmt in info.node.body:
            if not isinstance(stmt, ast.FunctionDef) or stmt.name != name:
                continue
            if not any(
                isinstance(d, ast.Attribute) and d.attr == "setter" for d in stmt.decorator_list
            ):
                continue
            for node in ast.walk(stmt):
                if isinstance(node, (ast.Assign, ast.AugAssign)):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    for target in targets:
                        if (
                            isinstance(target, ast.Attribute)
                            and isinstance(target.value, ast.Name)
                            and target.value.id == "self"
                        ):
                            written.add(target.attr)
    return written


def _later_read(ctx: FunctionContext, after: ast.AST, attrs: set[str]) -> Optional[ast.Attribute]:
    """The first `self.<attr>` read (of `attrs`) on a line after `after`."""
    line: int = getattr(after, "end_lineno", None) or getattr(after, "lineno", None) or 0
    best: Optional[ast.Attribute] = None
    cls = ctx.fn.cls
    for node in ctx.of(ast.Attribute):
        if not (
            isinstance(node.value, ast.Name)
            and node.value.id == "self"
            and node.lineno > line
            and (best is None or node.lineno < best.lineno)
        ):
            continue
        if isinstance(node.ctx, ast.Load) and node.attr in attrs:
            best = node
        elif cls is not None and node.attr not in attrs:
            # `return self.use(x)` where `use` reads `self._s` (measured alike)
            found = cls.find_method(node.attr)
            if found is not None and _reads_self(found[1], attrs):
                best = node
    return best


def _reads_self(method: ast.AST, attrs: set[str]) -> bool:
    return any(
        isinstance(n, ast.Attribute)
        and isinstance(n.ctx, ast.Load)
        and n.attr in attrs
        and isinstance(n.value, ast.Name)
        and n.value.id == "self"
        for n in ast.walk(method)
    )


def _same_constant(cls: ClassInfo, node: ast.Assign | ast.AugAssign, backing: set[str]) -> bool:
    """`self.scale = 2.0` where `__init__` set each attribute the setter writes to 2.0: the
    skipped setter changes nothing (measured alike)."""
    if not isinstance(node, ast.Assign) or not isinstance(node.value, ast.Constant):
        return False
    for name in backing:
        attr = cls.attr(name)
        init = attr.node if attr is not None else None
        if not isinstance(init, ast.Constant) or init.value != node.value.value:
            return False
    return bool(backing)


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
    """The getter returns `self.<attr>` holding a Parameter: STRICT accepts it (a Tensor built
    in `__init__`, `self._s = Tensor(...)`, fails like a float: measured, round 32)."""
    for node in ast.walk(getter):
        if (
            isinstance(node, ast.Return)
            and isinstance(node.value, ast.Attribute)
            and isinstance(node.value.value, ast.Name)
            and node.value.value.id == "self"
        ):
            attr = cls.attr(node.value.attr)
            if attr is not None and attr.kind == "tensor":
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
            if ctx.level == SyntaxLevel.STRICT:
                continue
            # measured at LAX (round 32): `self.scale = 3.0` then `x * self._s` (or
            # `x * self.scale`, or `self.scale += 1.0`) gave x * 2 where PyNative gave x * 3; no
            # read after the write (or the same value written) prints alike
            backing = _setter_writes(cls, target.attr)
            read = _later_read(ctx, node, {target.attr} | backing)
            if read is not None and not _same_constant(cls, node, backing):
                yield SETTER_SKIPPED_AT_LAX.finding(
                    target, name=target.attr, read=read.attr, line=read.lineno
                )
