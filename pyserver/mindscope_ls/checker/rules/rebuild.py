"""MS502: a compiled Cell or `jit` function created again for each call, and so compiled again.

MindSpore caches graphs per Cell instance and per `jit` function object: `ms.jit(fn)(x)`,
`Net()(x)` or a nested `@jit` def that runs once per iteration compiles every time (measured
with MindSpore 2.10.0, see docs/rules/MS502.md).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Optional

from ..fixes.edits import segment
from ..index.module import ModuleInfo
from ..model import Group, RawFinding, Related
from ..rule import Rule, node_range
from .helpers import names
from .helpers.callsites import CallSites, Compiled
from .helpers.scopes import Binding, Call, LoopNode, Scope
from .recompile import MAX_SHOWN, may_call_compiled

COMPILED_OBJECT_REBUILT = Rule(
    "MS502",
    "compiled-object-rebuilt",
    Group.PERFORMANCE,
    title="Compiled Cell or `jit` function created again for each call",
    message=(
        "{what} is created again {when}, so MindSpore compiles it again each time; create it once"
        " {where}."
    ),
    why=(
        "MindSpore caches compiled graphs per Cell instance and per `jit` function object: "
        "`Net()(x)`, `ms.jit(fn)(x)` or a nested `@jit` def that runs on every iteration (or on "
        "every call of a function a loop calls) is compiled again each time. The Cell or `jit` "
        "function may be defined in the same file or imported from another file of the workspace "
        "(`from model import Net`, `from utils import train_step`, a subclass of a Cell defined "
        "elsewhere)."
    ),
    remedy=(
        "Create the Cell or the `jit` function once, before the loop or at module level, and call"
        " that object in the loop."
    ),
    mindspore_says=(
        '[WARNING] ME: The function "forward" at the file "...", line 5 has been compiled again. '
        "Try to reuse the function object decorated by @jit to reduce the compile time. (for "
        "`jit`; a new Cell recompiles silently) 3 iterations compiled 3 graphs "
        "(MS_DEV_SAVE_GRAPHS=1 wrote 3 `*_validate_*.ir` files); the fixed example compiled 1."
    ),
)


@dataclass(frozen=True)
class Creation:
    """Where a compiled callee is made (`Net()`, `ms.jit(fn)`, a `@jit` decorator)."""

    node: ast.AST  # reported range
    compiled: Compiled
    loops: tuple[LoopNode, ...]
    reads: frozenset[str]  # names it reads: constructor arguments, or a def's free names


def check_module(module: ModuleInfo) -> Iterator[RawFinding]:
    if module.tree is None or not may_call_compiled(module.source):
        return
    sites = CallSites.of(module)
    seen: set[int] = set()
    for scope in sites.scopes:
        for creation, call in _created_and_called(sites, scope):
            if id(creation.node) in seen:
                continue
            finding = _in_loop(sites, scope, creation, call) or _per_call(
                sites, module.path, scope, creation
            )
            if finding is not None:
                seen.add(id(creation.node))
                yield finding


def _created_and_called(sites: CallSites, scope: Scope) -> Iterator[tuple[Creation, Call]]:
    """Creations of compiled callees in `scope` that the same scope then calls."""
    for call in scope.calls:
        func = call.node.func
        made = sites.created(func) if isinstance(func, ast.Call) else None
        if made is not None and sites.compiles(made):
            assert isinstance(func, ast.Call)
            yield Creation(func, made, call.loops, _reads(func)), call
        elif isinstance(func, ast.Name) and func.id in scope.bindings:
            for binding in scope.bindings[func.id]:
                creation = _creation(sites, binding, func.id)
                if creation is not None:
                    yield creation, call


def _creation(sites: CallSites, binding: Binding, name: str) -> Optional[Creation]:
    node = binding.node
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        deco = next((d for d in node.decorator_list if names.is_jit(sites.module, d)), None)
        if deco is None:
            return None
        reads = frozenset(n.id for n in ast.walk(node) if isinstance(n, ast.Name))
        return Creation(deco, Compiled("jit", name), binding.loops, reads)  # what it closes over
    if binding.index is not None or not isinstance(node, (ast.Assign, ast.AnnAssign)):
        return None
    made = sites.created(binding.value)
    if made is None or not sites.compiles(made):
        return None
    assert isinstance(binding.value, ast.Call)
    return Creation(binding.value, made, binding.loops, _reads(binding.value))


def _reads(call: ast.Call) -> frozenset[str]:
    args = [*call.args, *(kw.value for kw in call.keywords)]
    if isinstance(call.func, ast.Call):  # `ms.jit(fullgraph=True)(fn)`
        args += [kw.value for kw in call.func.keywords]
    return frozenset(n.id for a in args for n in ast.walk(a) if isinstance(n, ast.Name))


def _in_loop(
    sites: CallSites, scope: Scope, creation: Creation, call: Call
) -> Optional[RawFinding]:
    """Created and called in the same iteration of a loop, from loop-invariant arguments."""
    shared = [loop for loop in creation.loops if any(loop is c for c in call.loops)]
    if not shared:
        return None
    loop_ids = {id(loop) for loop in shared}
    for name in creation.reads:
        for binding in sites.bindings(scope, name):
            if any(id(loop) in loop_ids for loop in binding.loops):
                return None  # built from this iteration's values: a different object on purpose
    return COMPILED_OBJECT_REBUILT.finding(
        node_range(creation.node),
        related=[Related(sites.module.path, node_range(call.node), "called here in the same loop")],
        what=_what(creation, sites.lines),
        when="on every iteration",
        where="before the loop",
    )


def _per_call(
    sites: CallSites, path: str, scope: Scope, creation: Creation
) -> Optional[RawFinding]:
    """Created and called in a function that a loop of this file calls again and again."""
    fn = scope.node
    if creation.loops or not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    if fn.name not in sites.module.functions or creation.reads & set(scope.bindings):
        return None
    for other in sites.scopes:
        for call in other.calls:
            func = call.node.func
            if call.loops and isinstance(func, ast.Name) and func.id == fn.name:
                if any(b.node is not fn for b in sites.bindings(other, fn.name)):
                    continue  # the name means something else there
                return COMPILED_OBJECT_REBUILT.finding(
                    node_range(creation.node),
                    related=[
                        Related(
                            path, node_range(call.node), f"`{fn.name}` is called in a loop here"
                        )
                    ],
                    what=_what(creation, sites.lines),
                    when=f"on every call of `{fn.name}`",
                    where="at module level",
                )
    return None


def _what(creation: Creation, lines: list[str]) -> str:
    """`Net()`, `ms.jit(forward)` (quoted when short) or the `@jit` function `name`."""
    compiled = creation.compiled
    if isinstance(creation.node, ast.Call):
        text = segment(lines, creation.node)
        if text is not None and len(text) <= MAX_SHOWN and "\n" not in text:
            return f"`{text}`"
        return f"A new `{compiled.name}` Cell" if compiled.cell else "This `jit` function"
    return f"The `@jit` function `{compiled.name}`"
