"""MS310: writes to the state of an object the Cell holds, which the graph does not see.

Measured with MindSpore 2.10 on CPU, against PyNative: in `construct`, `self.box.value = 2` on a
`@jit_class` instance compiles at LAX, but the graph keeps reading the compile-time value (x * 1
where PyNative gives x * 2; the object holds 2 afterwards); so does `self.box.value += 1`, and
`c.value = 5` / `c.value += 1` on a local `c = Box()` of a `@jit_class`, read after the write
(x * 1 where PyNative gave x * 5); `self.obj.d['k'] = 2` on a dict
attribute of a plain object is lost at both levels (the dict still holds 1 afterwards, and the
graph reads 1). Writing a plain object's attribute (`self.obj.value = 2`) and the Cell's own
dict (`self.d['k'] = 2`) behave as in PyNative at LAX, so they are left alone, unless a method
called after the write reads the plain object's attribute (round 35: `self.cfg.k = 4; return
self.scale(x)` with `scale` reading `self.cfg.k` gave x * 1 at LAX and STRICT, PyNative x * 4).

MS367: an `if` on a Python attribute of the Cell that the compiled code writes only after it.

Measured the same way, at LAX, `net(x)` called three times: with `self.first = True` in
`__init__`, `if self.first: self.first = False; return x * 0` returned 0 on every call in
GRAPH_MODE (PyNative: 0, then 2, 2), though `net.first` was False after the first call; alike
`if not self.done: self.done = True`, `if self.mode == 'warmup': self.mode = 'run'`,
`if self.calls == 0: ...` followed by `self.calls += 1`, `if self.count < 1:` with the write
after the `if`, a write under a Tensor condition after the `if`, and a write in a method
`construct` calls after the `if` (`self.stop_warm()`). LAX decides the branch once, with the
value the attribute held while compiling, and the cached graph keeps it. Left alone (they agree
with PyNative): the write before the test (`self.count += 1; if self.count > 1:`,
`self.first = not self.first; if self.first:`), a value read (`x * self.count`),
`k = 0.0 if self.first else 2.0`, `while self.k < 2:`, `if self.first and x.shape[0] == 2:`.
STRICT refuses the write itself (MS202). The same with a class attribute read through `self`
(`warm = True` in the class body). A class attribute by the class's name (`if Net.warm:
Net.warm = False`), an attribute of a module-level object (`if STATE.first:`) or of a plain
object the Cell holds (`if self.state.first:`), each written a constant after the `if`, fold
the same way at LAX and STRICT (measured: 0, 0, 0 where PyNative gave 0, 2, 2).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from .helpers import receivers
from .helpers.base import FunctionContext, cacheable
from .helpers.classes import ClassInfo
from .helpers.flow import loads_after
from .helpers.walk import of_type

OBJECT_WRITE_UNSEEN = Rule(
    "MS310",
    "object-write-unseen",
    Group.DIVERGES,
    title="Writing the state of an object the Cell holds, in compiled code",
    message=(
        "`{target}` is {what}: {effect}, unlike PyNative; keep the value in a Parameter or a "
        "local and pass it on."
    ),
    why=(
        "The graph takes the objects a Cell holds as compile-time constants. Writing an "
        "attribute of a `@jit_class` instance reaches the object through LAX's fallback, but "
        "the graph goes on reading the value it compiled with (GRAPH_MODE returned x * 1 where "
        "PyNative returned x * 2); writing an item of a plain object's dict is lost altogether "
        "(the dict still held 1 afterwards, where PyNative's held 2)."
    ),
    remedy=(
        "Keep changing state in a Parameter of the Cell (`ops.assign`), or compute the value "
        "as a local in `construct` and return it."
    ),
    mindspore_says="(compiles; result differs from PyNative)",
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    cls = ctx.fn.cls
    if cls is None or not cls.is_cell:
        return
    writes: list[ast.Assign | ast.AugAssign] = ctx.of(ast.Assign, ast.AugAssign)
    for node in writes:
        for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
            found = _unseen(ctx, node, target)
            if found is not None:
                yield OBJECT_WRITE_UNSEEN.finding(
                    target, target=ast.unparse(target), what=found[0], effect=found[1]
                )


def _unseen(
    ctx: FunctionContext, node: ast.Assign | ast.AugAssign, target: ast.expr
) -> Optional[tuple[str, str]]:
    if isinstance(target, ast.Attribute):
        if _plain_object_read_in_helper(ctx, target, node):
            return (
                "an attribute of a plain object the Cell holds, read by a method called after",
                "that method's graph reads the value it was compiled with",
            )
        # Under STRICT the write fails instead (MS210, MS251).
        if ctx.level == SyntaxLevel.STRICT:
            return None
        if receivers.self_attr_name(target.value) is not None:
            if receivers.kind_of(ctx, target.value) != receivers.JIT_CLASS:
                return None
        elif not _local_jit_object(ctx, target.value, target.attr):
            return None
        if not _read_after(ctx, target, node):
            return None
        return (
            "an attribute of a `@jit_class` object",
            "the graph goes on reading the value it was compiled with",
        )
    if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Attribute):
        holder = target.value
        if receivers.self_attr_name(holder.value) is None:
            return None
        if receivers.kind_of(ctx, holder.value) is not None:
            return None  # a Cell, Parameter, jit_class, dict or list: not a plain object
        info = receivers.workspace_class(ctx, holder.value)
        if info is None or info.is_cell or info.is_jit_class:
            return None
        held = info.attr(holder.attr)
        if held is None or not isinstance(held.node, (ast.Dict, ast.DictComp)):
            return None
        return "an item of a plain object's dict", "graph mode loses the write"
    return None


def _plain_object_read_in_helper(
    ctx: FunctionContext, target: ast.Attribute, node: ast.stmt
) -> bool:
    """`self.cfg.k = 4`, `self.cfg` a plain workspace object, then `self.scale(x)` whose body
    reads `self.cfg.k` (measured, round 35, LAX and STRICT: the helper read the value
    `__init__` set, x * 1 where PyNative gave x * 4; the same read in `construct` agrees at
    LAX, and fails STRICT: MS233)."""
    holder = target.value
    if receivers.self_attr_name(holder) is None or receivers.kind_of(ctx, holder) is not None:
        return False
    info = receivers.workspace_class(ctx, holder)
    cls = ctx.fn.cls
    if info is None or info.is_cell or info.is_jit_class or cls is None:
        return False
    text = ast.unparse(target)
    end = (node.end_lineno or node.lineno, node.end_col_offset or 0)
    for call in ctx.of(ast.Call):
        method = receivers.self_attr_name(call.func)
        if method is None or (call.lineno, call.col_offset) < end:
            continue
        found = cls.find_method(method)
        if found is None or found[1] is ctx.fn.node:
            continue
        if any(
            isinstance(r.ctx, ast.Load) and r.attr == target.attr and ast.unparse(r) == text
            for r in of_type(found[1], ast.Attribute)
        ):
            return True
    return False


def _local_jit_object(ctx: FunctionContext, expr: ast.expr, attr: str) -> bool:
    """A local bound once to `Cls(...)` of a workspace `@jit_class` (measured at LAX: `c =
    Acc(); c.n = 5` or `c.n += 1`, then `x * c.n`, read the value `__init__` set, x * 1 where
    PyNative gave x * 5; STRICT fails, MS251). A plain class's object is MS233's, and an
    attribute the class never sets MS194's (the read fails at every level)."""
    if not isinstance(expr, ast.Name) or expr.id == "self":
        return False
    bound = receivers.only_binding(ctx, expr.id)
    if not isinstance(bound, ast.Call):
        return False
    info = ctx.classes.resolve(ctx.fn.module.qualname(bound.func))
    if info is None or not info.is_jit_class or info.is_cell:
        return False
    return any(attr in each.attrs for each in info.lineage())


def _read_after(ctx: FunctionContext, target: ast.Attribute, node: ast.stmt) -> bool:
    text = ast.unparse(target)
    end = (node.end_lineno or node.lineno, node.end_col_offset or 0)
    reads: list[ast.Attribute] = ctx.of(ast.Attribute)
    return any(
        isinstance(r.ctx, ast.Load)
        and r.attr == target.attr
        and (r.lineno, r.col_offset) >= end
        and ast.unparse(r) == text
        for r in reads
    )


BRANCH_ON_WRITTEN_ATTRIBUTE = Rule(
    "MS367",
    "branch-on-attribute-written-later",
    Group.DIVERGES,
    title="An `if` on a Python attribute that compiled code writes after it",
    message=(
        "`if {test}` tests `{ref}`, which this compiled code changes afterwards: graph mode "
        "picks the branch once, with the value `{ref}` held while compiling, and the cached "
        "graph keeps taking it on later calls (PyNative follows the new value); keep the flag "
        "in a Parameter, or decide outside the Cell."
    ),
    why=(
        "An `if` whose test is a Python attribute (of the Cell at LAX, of a class, a module "
        "object or an object the Cell holds at both levels) is folded while compiling; the "
        "write after it changes the attribute, but the graph is cached per input signature "
        "and not compiled again. Measured: `if self.first: self.first = False; return x * 0` "
        "returned 0 on every call in GRAPH_MODE (PyNative: 0, then x * 2)."
    ),
    remedy=(
        "Hold the flag or counter in a `Parameter` and test it as a Tensor, or test it in "
        "Python before calling the Cell and pass the choice in."
    ),
    mindspore_says="(compiles; result differs from PyNative)",
)

_SCALARS = (bool, int, float, str, type(None))


def check_branch_flags(ctx: FunctionContext) -> Iterator[RawFinding]:
    cls = ctx.fn.cls
    if cls is None or not cls.is_cell:
        return
    ifs: list[ast.If] = ctx.of(ast.If)
    if not ifs:
        return
    tested: list[tuple[ast.If, str]] = []  # `self.A` of a scalar attribute (LAX)
    others: list[tuple[ast.If, str]] = []  # `Cls.A`, `OBJ.A`, `self.obj.A` (both levels)
    for node in ifs:
        ref = _tested_reference(node.test)
        if ref is None:
            continue
        name = receivers.self_attr_name(ref)
        if name is None:
            others.append((node, ast.unparse(ref)))
        elif ctx.level != SyntaxLevel.STRICT and _scalar_attribute(cls, name):
            tested.append((node, name))  # STRICT refuses the write itself (MS202)
    if not tested and not others:
        return  # the common case: no `if` on a scalar attribute
    if any("jit" in ast.unparse(d) for d in ctx.fn.node.decorator_list):
        return  # an `@jit` method is compiled in PyNative too: both modes agree
    if tested:
        writes = _attribute_writes(ctx, {name for _, name in tested})
        for node, name in tested:
            lines = writes.get(name)
            if not lines or min(lines) <= node.test.lineno:
                continue  # never written, or written before the test: the graph reads it anew
            if _fills_cache(ctx, node, name):
                continue
            yield BRANCH_ON_WRITTEN_ATTRIBUTE.finding(
                node.test, test=ast.unparse(node.test), ref=f"self.{name}"
            )
    if others:
        written = _constant_writes(ctx, {key for _, key in others})
        for node, key in others:
            lines = written.get(key)
            if not lines or min(lines) <= node.test.lineno:
                continue
            yield BRANCH_ON_WRITTEN_ATTRIBUTE.finding(
                node.test, test=ast.unparse(node.test), ref=key
            )


def _fills_cache(ctx: FunctionContext, node: ast.If, name: str) -> bool:
    """`if self.A is None: ...; self.A = v` with no `else`, a body doing nothing but compute
    `self.A` (locals read only inside it), and `self.A` read after the `if`: a lazily filled
    cache. Measured at LAX (three calls): `x + self.cache` after it gave what PyNative gave,
    whether `v` came from attributes or from `x`; a flag (`return x * 0` in the body) or an
    `else` branch (`else: x = x * 3`) still diverges."""
    if node.orelse:
        return False
    stored: set[str] = set()
    wrote = False
    for stmt in node.body:
        if not isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            return False
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        for target in targets:
            if isinstance(target, ast.Name):
                stored.add(target.id)
            elif receivers.self_attr_name(target) == name:
                wrote = True
            else:
                return False
    if not wrote:
        return False
    fn = ctx.fn.node
    if any(loads_after(fn, local, node) is not None for local in stored):
        return False
    end = node.end_lineno or node.lineno
    reads: list[ast.Attribute] = ctx.of(ast.Attribute)
    return any(
        read.lineno > end
        and isinstance(read.ctx, ast.Load)
        and receivers.self_attr_name(read) == name
        for read in reads
    )


def _tested_reference(test: ast.expr) -> Optional[ast.Attribute]:
    """`R` for a test `R`, `not R` or `R <op> <constant>`, where `R` is `self.A`, `Name.A` or
    `self.B.A`."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test = test.operand
    if isinstance(test, ast.Compare):
        if len(test.ops) != 1 or not isinstance(test.comparators[0], ast.Constant):
            return None
        test = test.left
    if not isinstance(test, ast.Attribute):
        return None
    owner = test.value
    if isinstance(owner, ast.Name):
        return test
    if isinstance(owner, ast.Attribute) and isinstance(owner.value, ast.Name):
        return test if owner.value.id == "self" else None
    return None


def _scalar_attribute(cls: ClassInfo, name: str) -> bool:
    """`self.<name>` holds a Python scalar: set so in `__init__`, or a class attribute."""
    held = cls.attr(name)
    if held is not None:
        value = held.node
        return (
            held.kind == "object"
            and isinstance(value, ast.Constant)
            and isinstance(value.value, _SCALARS)
        )
    for info in cls.lineage():
        for stmt in info.node.body:
            if isinstance(stmt, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == name for t in stmt.targets
            ):
                value = stmt.value
                return isinstance(value, ast.Constant) and isinstance(value.value, _SCALARS)
    return False


def _constant_writes(ctx: FunctionContext, wanted: set[str]) -> dict[str, list[int]]:
    """Key -> the lines where this function writes the attribute `key` (`Net.warm`,
    `STATE.first`, `self.state.first`), when every write stores a constant (`= False`,
    `+= 1`): a Python scalar the test folds."""
    found: dict[str, list[int]] = {}
    other: set[str] = set()
    writes: list[ast.Assign | ast.AugAssign] = ctx.of(ast.Assign, ast.AugAssign)
    for node in writes:
        for target in _targets(node):
            if not isinstance(target, ast.Attribute):
                continue
            key = ast.unparse(target)
            if key not in wanted:
                continue
            found.setdefault(key, []).append(node.lineno)
            value = node.value
            if isinstance(value, ast.UnaryOp) and isinstance(value.operand, ast.Constant):
                value = value.operand
            if not (isinstance(value, ast.Constant) and isinstance(value.value, _SCALARS)):
                other.add(key)
    return {key: lines for key, lines in found.items() if key not in other}


def _attribute_writes(ctx: FunctionContext, wanted: set[str]) -> dict[str, list[int]]:
    """`A` -> the lines where this function writes `self.A` (directly, or by calling a method
    of the class that does, at the call's line), for each `A` in `wanted`."""
    found: dict[str, list[int]] = {}
    objects: set[str] = set()  # written a call's result (`self.fc = nn.Dense(...)`): not a flag
    writes: list[ast.Assign | ast.AugAssign] = ctx.of(ast.Assign, ast.AugAssign)
    for node in writes:
        for target in _targets(node):
            name = receivers.self_attr_name(target)
            if name in wanted:
                found.setdefault(name, []).append(node.lineno)
                if isinstance(node.value, ast.Call):
                    objects.add(name)
    for name in objects:
        found.pop(name, None)
    cls = ctx.fn.cls
    if cls is None:
        return found
    for call in ctx.of(ast.Call):
        method = receivers.self_attr_name(call.func)
        if method is None or method == ctx.fn.node.name:
            continue
        hit = cls.find_method(method)
        if hit is None:
            continue
        inners: list[ast.Assign | ast.AugAssign] = of_type(hit[1], ast.Assign, ast.AugAssign)
        for inner in inners:
            for target in _targets(inner):
                name = receivers.self_attr_name(target)
                if name in wanted and name not in objects:
                    found.setdefault(name, []).append(call.lineno)
    return found


def _targets(node: ast.Assign | ast.AugAssign) -> list[ast.expr]:
    return list(node.targets) if isinstance(node, ast.Assign) else [node.target]
