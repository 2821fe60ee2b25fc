"""MS1041, MS361: `super()` without arguments in a method that runs for a subclass's object.

Graph mode's parser (`mindspore/graph/_parse/parser.py`, `analyze_super`) turns `super()`
without arguments into `super(type(self), self)`, not Python's `super(<the class the method is
written in>, self)`. Measured with MindSpore 2.10 on CPU at LAX and STRICT, against PyNative:
when the method runs for an object of a subclass, the lookup starts after that subclass instead.

- MS1041: when that lookup finds the very method that calls it, the graph recurses until
  "RuntimeError: Exceed function call depth limit 1000" (at the call and its caller): a Cell
  `B(A)` whose `construct` (or helper `f`) calls `super().construct(x)`, run for `Net(B)` that
  inherits it or calls it with its own `super().construct(x)`; a cooperative mixin
  `AddOne.f` calling `super().f(x)` in `Net(AddOne, Base)`; the same chain of `@jit_class` or
  plain classes held by the Cell (`self.o = Leaf()`, `Leaf(Mid)`, `Mid(Base)`). Compiled:
  `super(B, self).construct(x)` (the named class is looked up in the MRO), the method of the
  object's own class calling `super()` (two levels), a subclass that overrides the method
  without `super()`, and a subclass the module never creates.
- MS361: when it finds another method than Python's (`B.f` calls `super().g(x)`, and `B`
  overrides `g` too), the graph calls `B.g` where PyNative calls `A.g` (x * 10 against x + 1).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from typing import Optional

from ..index.module import FunctionNode
from ..model import Group, RawFinding
from ..rule import Rule
from .helpers.base import FunctionContext
from .helpers.classes import ClassInfo
from .helpers.walk import of_type

SUPER_RECURSES = Rule(
    "MS1041",
    "super-recurses-in-subclass",
    Group.FAILS,
    title="`super()` without arguments in a method a subclass's object runs",
    message=(
        "`{call}` runs for a `{sub}` object, and graph mode reads `super()` as "
        "`super(type(self), self)`, which finds `{found}` again: the graph recurses without "
        "end; write `super({cls}, self).{name}(...)`."
    ),
    why=(
        "Graph mode compiles `super()` as `super(type(self), self)`: in a method of `B` run for "
        "an object of a subclass `Net(B)`, the lookup starts after `Net`, finds `B`'s method "
        "again and never reaches `B`'s base, until the call depth limit stops the compile."
    ),
    remedy=(
        "Name the class: `super(B, self).construct(x)` is looked up from `B` as in Python; "
        "or call the base's method directly."
    ),
    mindspore_says=(
        "RuntimeError: Exceed function call depth limit 1000, (function call depth: 1001, "
        "simulate call depth: 10)."
    ),
)

SUPER_OTHER_METHOD = Rule(
    "MS361",
    "super-finds-other-method",
    Group.DIVERGES,
    title="`super()` without arguments finds another method in a subclass's object",
    message=(
        "`{call}` runs for a `{sub}` object, and graph mode reads `super()` as "
        "`super(type(self), self)`: it calls `{graph}` where PyNative calls `{python}`; write "
        "`super({cls}, self).{name}(...)`."
    ),
    why=(
        "Graph mode compiles `super()` as `super(type(self), self)`: in a method of `B` run for "
        "an object of a subclass, the lookup starts after the subclass and finds `B`'s own "
        "override (GRAPH_MODE returned x * 10 where PyNative returned x + 1)."
    ),
    remedy="Name the class: `super(B, self).g(x)` is looked up from `B` as in Python.",
    mindspore_says="(compiles; result differs from PyNative)",
)

_MAX_CLASSES = 200  # classes of the module looked at for subclasses


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    """Not cacheable: reads the module's other classes and where they are created."""
    cls = ctx.fn.cls
    if cls is None:
        return
    calls = [c for c in ctx.of(ast.Call) if _bare_super(c)]
    if not calls:
        return
    method = ctx.fn.node
    if cls.own_method(method.name) is not method:
        return
    for sub in _created_subclasses(ctx, cls):
        mro = _mro(sub)
        if mro is None or cls not in mro:
            continue
        if not _reached(mro, method):
            continue
        after_cls = mro[mro.index(cls) + 1 :]
        for call in calls:
            assert isinstance(call.func, ast.Attribute)
            name = call.func.attr
            graph = _lookup(mro[1:], name)
            python = _lookup(after_cls, name)
            if graph is None or python is None or graph[1] is python[1]:
                continue
            text = ast.unparse(call.func) + "(...)"
            if graph[1] is method or any(
                _bare_super(c) and c.func.attr == name  # type: ignore[attr-defined]
                for c in of_type(graph[1], ast.Call)
            ):
                yield SUPER_RECURSES.finding(
                    call,
                    call=text,
                    sub=sub.name,
                    found=f"{graph[0].name}.{name}",
                    cls=cls.name,
                    name=name,
                )
            else:
                yield SUPER_OTHER_METHOD.finding(
                    call,
                    call=text,
                    sub=sub.name,
                    graph=f"{graph[0].name}.{name}",
                    python=f"{python[0].name}.{name}",
                    cls=cls.name,
                    name=name,
                )
        return  # one subclass is enough


def _bare_super(call: ast.Call) -> bool:
    """`super().<name>(...)`: `super` called without arguments."""
    func = call.func
    return (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Call)
        and isinstance(func.value.func, ast.Name)
        and func.value.func.id == "super"
        and not func.value.args
        and not func.value.keywords
    )


def _created_subclasses(ctx: FunctionContext, cls: ClassInfo) -> Iterator[ClassInfo]:
    """The module's classes other than `cls` that have it as a base and that the module
    creates (`Name(` outside its own `class Name(` line)."""
    module = ctx.fn.module
    source = module.source
    for node in list(module.classes.values())[:_MAX_CLASSES]:
        if node is cls.node or not node.bases:
            continue
        if not re.search(rf"(?<![\w.])(?<!class ){re.escape(node.name)}\(", source):
            continue
        yield ctx.classes.info(module, node)


def _mro(info: ClassInfo) -> Optional[list[ClassInfo]]:
    """Python's C3 order of the workspace classes, or None when a base is neither one of them
    nor `nn.Cell` / `object` (its methods could come first)."""
    local = info._local
    if local is None:
        return None
    known = {id(b.node): b for b in info.bases}
    heads: list[ClassInfo] = []
    for qualname, is_cell in local.bases:
        last = (qualname or "").rsplit(".", 1)[-1]
        match = next((b for b in info.bases if b.name == last), None)
        if match is not None:
            heads.append(match)
        elif not (qualname in ("object", "builtins.object") or (is_cell and last == "Cell")):
            return None
    if len(heads) != len(known):
        return None
    seqs: list[list[ClassInfo]] = []
    for head in heads:
        tail = _mro(head)
        if tail is None:
            return None
        seqs.append(tail)
    seqs.append(list(heads))
    order = [info]
    while any(seqs):
        seqs = [s for s in seqs if s]
        for seq in seqs:
            candidate = seq[0]
            if not any(candidate in s[1:] for s in seqs):
                break
        else:
            return None  # no consistent order: Python refuses the class itself
        order.append(candidate)
        seqs = [s[1:] if s[0] is candidate else s for s in seqs]
    return order


def _lookup(order: list[ClassInfo], name: str) -> Optional[tuple[ClassInfo, FunctionNode]]:
    for info in order:
        found = info.own_method(name)
        if found is not None:
            return info, found
    return None


def _reached(mro: list[ClassInfo], method: FunctionNode) -> bool:
    """The subclass's object runs `method`: it inherits it, or its own override calls it
    through `super()` (which is right in the class's own method)."""
    first = _lookup(mro, method.name)
    if first is None:
        return False
    if first[1] is method:
        return True
    if first[0] is not mro[0]:
        return False
    calls_super = any(
        _bare_super(c) and c.func.attr == method.name  # type: ignore[attr-defined]
        for c in of_type(first[1], ast.Call)
    )
    after = _lookup(mro[1:], method.name)
    return calls_super and after is not None and after[1] is method
