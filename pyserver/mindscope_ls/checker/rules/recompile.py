"""MS501, MS503: arguments that make MindSpore compile a graph again on every call.

A compiled Cell or `jit` function is cached per argument key: a Python number is part of the key
by value, and a list, tuple or dict holding Tensors gets a new key with each new container
(measured with MindSpore 2.10.0: one compiled graph per call, see docs/rules/MS501.md).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..fixes.edits import replace_node, segment
from ..index.module import ModuleInfo
from ..model import Fix, Group, RawFinding, Related
from ..rule import Rule, node_range
from .helpers.callsites import CallSites, Compiled, has_workspace
from .helpers.scopes import Call, LoopNode
from .helpers.values import Values

CHANGING_PYTHON_NUMBER = Rule(
    "MS501",
    "changing-python-number",
    Group.PERFORMANCE,
    title="Python number that changes between calls to compiled code",
    message=(
        "{arg} is a Python number that changes between calls, so `{callee}` is compiled again for"
        " every new value; pass it as a Tensor or wrap it with `mindspore.mutable()`."
    ),
    why=(
        "A compiled Cell or `jit` function caches its graph per argument key, and a Python `int` "
        "or `float` argument is part of that key by value (a Tensor only by shape and dtype): a "
        "loop counter or a decayed learning rate compiles a new graph on every call, which costs "
        "100-400 ms where running the cached graph costs about 1 ms. The Cell or `jit` function "
        "may be defined in the same file or imported from another file of the workspace (`from "
        "model import Net`, `from utils import train_step`, a subclass of a Cell defined "
        "elsewhere)."
    ),
    remedy=(
        "Pass the number as a Tensor (`Tensor(lr, ms.float32)`) or wrap it with "
        "`mindspore.mutable(lr)` so that one graph serves every value."
    ),
    mindspore_says=(
        "(no message: it recompiles silently) 3 calls with 3 values compiled 3 graphs "
        "(MS_DEV_SAVE_GRAPHS=1 wrote 3 `*_validate_*.ir` files); the fixed example compiled 1."
    ),
    fix_title="Wrap with `{wrapper}(...)`",
)

NEW_CONTAINER_EACH_CALL = Rule(
    "MS503",
    "new-container-each-call",
    Group.PERFORMANCE,
    title="New list, tuple or dict of Tensors passed to compiled code on each call",
    message="{arg} is {what} on every call, so `{callee}` is compiled again each time; {advice}.",
    why=(
        "A list, tuple or dict argument of a compiled Cell or `jit` function is keyed as a "
        "constant, so a new container holding Tensors (a display like `[x, y]`, or the whole "
        "batch from `create_tuple_iterator()` / `create_dict_iterator()`) compiles a new graph on"
        " every call, even with the same Tensors inside. The Cell or `jit` function may be "
        "defined in the same file or imported from another file of the workspace (`from model "
        "import Net`, `from utils import train_step`, a subclass of a Cell defined elsewhere)."
    ),
    remedy=(
        "Pass the Tensors as separate arguments (`net(*batch)`), or wrap the container with "
        "`mindspore.mutable(...)`."
    ),
    mindspore_says=(
        "[WARNING] ME: Constant value tensor are detected in tuple or list, which might cause "
        "recompiling when tensor value changes. You can use mutable(Tensor) or "
        "mutable(tuple(Tensor)) to set tensor's value as variable to to avoid recompiling. 3 "
        "calls compiled 3 graphs (MS_DEV_SAVE_GRAPHS=1 wrote 3 `*_validate_*.ir` files); the "
        "fixed example compiled 1."
    ),
    fix_title="Wrap with `{wrapper}(...)`",
)

MAX_SHOWN = 40  # longer argument texts are not quoted in messages
MUTABLE = frozenset(
    {"mindspore.mutable", "mindspore.common.mutable", "mindspore.common.mutable.mutable"}
)
CONTAINERS = {ast.List: "list", ast.Tuple: "tuple", ast.Dict: "dict"}


def may_call_compiled(source: str) -> bool:
    """Cheap test: compiled calls need `jit` or `set_context(mode=GRAPH_MODE)`, or a callee
    imported from another file of the workspace, and repetition needs a loop."""
    if "for " not in source and "while " not in source:
        return False
    if "jit" in source or "set_context" in source:
        return True
    return "import" in source and has_workspace()


def check_module(module: ModuleInfo) -> Iterator[RawFinding]:
    if module.tree is None or not may_call_compiled(module.source):
        return
    sites = CallSites.of(module)
    for scope in sites.scopes:
        values = Values(sites, scope)
        for call, callee in sites.compiled_calls(scope):
            if call.loops:
                yield from _arguments(module.path, sites.lines, values, call, callee)


def _arguments(
    path: str, lines: list[str], values: Values, call: Call, callee: Compiled
) -> Iterator[RawFinding]:
    keywords = [kw.value for kw in call.node.keywords if kw.arg is not None]  # not `**batch`
    for arg in [*call.node.args, *keywords]:
        if isinstance(arg, ast.Starred):
            continue
        module = values.sites.module
        for item in [arg, *_elements(arg)]:
            changing = values.varying(item, call.loops)
            if changing is not None:
                fix = (
                    _mutable_fix(CHANGING_PYTHON_NUMBER, module, lines, arg)
                    if item is arg
                    else None
                )
                yield _number(path, lines, item, callee, changing, fix)
                break
        else:
            container = _tensor_container(values, arg, call.loops)
            if container is not None:
                fix = _mutable_fix(NEW_CONTAINER_EACH_CALL, module, lines, arg)
                yield _container(path, lines, arg, callee, container, call.loops[-1], fix)


def _mutable_fix(rule: Rule, module: ModuleInfo, lines: list[str], arg: ast.expr) -> Optional[Fix]:
    """Wrap the argument with `mutable(...)`, spelled as the file imports MindSpore."""
    text = segment(lines, arg)
    if text is None:
        return None
    for local, target in sorted(module.imports.items()):
        if target == "mindspore":
            wrapper = f"{local}.mutable"
        elif target in MUTABLE:
            wrapper = local
        else:
            continue
        return rule.fix(replace_node(arg, f"{wrapper}({text})"), wrapper=wrapper)
    return None


def _elements(arg: ast.expr) -> list[ast.expr]:
    if isinstance(arg, (ast.List, ast.Tuple)):
        return [e for e in arg.elts if not isinstance(e, ast.Starred)]
    if isinstance(arg, ast.Dict):
        return list(arg.values)
    return []


def _number(
    path: str,
    lines: list[str],
    arg: ast.expr,
    callee: Compiled,
    changing: tuple[str, ast.AST],
    fix: Optional[Fix],
) -> RawFinding:
    name, where = changing
    text = _quoted(lines, arg)
    return CHANGING_PYTHON_NUMBER.finding(
        node_range(arg),
        related=[Related(path, node_range(where), f"`{name}` changes here on every iteration")],
        fix=fix,
        arg=text,
        callee=callee.name,
    )


def _tensor_container(
    values: Values, arg: ast.expr, loops: tuple[LoopNode, ...]
) -> Optional[tuple[str, Optional[str]]]:
    """(kind, iterator) when `arg` is a new list/tuple/dict of Tensors on each iteration."""
    kind = CONTAINERS.get(type(arg))
    if kind is not None:
        return (kind, None) if any(values.tensor(e, loops) for e in _elements(arg)) else None
    if isinstance(arg, ast.Name):
        iterator = values.batch(arg.id, loops)
        if iterator is not None:
            return ("dict" if iterator == "create_dict_iterator" else "list", iterator)
    return None


def _container(
    path: str,
    lines: list[str],
    arg: ast.expr,
    callee: Compiled,
    found: tuple[str, Optional[str]],
    loop: LoopNode,
    fix: Optional[Fix],
) -> RawFinding:
    kind, iterator = found
    what = f"a new {kind} of Tensors from `{iterator}`" if iterator else f"a new {kind} of Tensors"
    unpack = "**" if kind == "dict" else "*"
    advice = (
        f"unpack it (`{unpack}{_plain(lines, arg)}`) or wrap it with `mindspore.mutable()`"
        if isinstance(arg, ast.Name)
        else f"pass the Tensors as separate arguments or wrap the {kind} with `mindspore.mutable()`"
    )
    return NEW_CONTAINER_EACH_CALL.finding(
        node_range(arg),
        related=[
            Related(path, node_range(_header(loop)), "called again on every iteration of this loop")
        ],
        fix=fix,
        arg=_quoted(lines, arg),
        what=what,
        callee=callee.name,
        advice=advice,
    )


def _header(loop: LoopNode) -> ast.AST:
    return loop.target if isinstance(loop, (ast.For, ast.AsyncFor)) else loop.test


def _plain(lines: list[str], node: ast.AST) -> str:
    return segment(lines, node) or "..."


def _quoted(lines: list[str], node: ast.AST) -> str:
    text = segment(lines, node)
    if text is None or len(text) > MAX_SHOWN or "\n" in text:
        return "This argument"
    return f"`{text}`"
