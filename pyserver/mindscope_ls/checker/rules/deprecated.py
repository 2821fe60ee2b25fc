"""MS401-MS402: deprecated and removed MindSpore API (checked in the whole file)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import partial
from typing import Optional

from ..fixes.edits import replace_node, segment
from ..incremental.memo import NodeMemo
from ..incremental.rebase import moved_findings
from ..index.module import ModuleInfo
from ..index.sources import split_lines
from ..model import Fix, Group, Range, RawFinding, TextEdit
from ..rule import Rule, node_range
from .helpers.walk import of_type

DEPRECATED_SET_CONTEXT_PARAMETER = Rule(
    "MS401",
    "deprecated-set-context-parameter",
    Group.DEPRECATED,
    title="Deprecated `set_context` parameter",
    message="The `set_context` parameter `{name}` is deprecated in MindSpore 2.10; {advice}.",
    why="MindSpore 2.10 warns that this `set_context` parameter will be removed.",
    remedy="Use the replacement API named in the message.",
    mindspore_says=(
        "[WARNING] ME: For 'context.set_context', the parameter 'device_target' will be "
        "deprecated and removed in a future version. Please use the api mindspore.set_device() "
        "instead."
    ),
    fix_title="Use `set_device`",
)

REMOVED_API = Rule(
    "MS402",
    "removed-api",
    Group.DEPRECATED,
    title="Removed API `ms_function` / `ms_class`",
    message="`{old}` was removed from MindSpore; use `mindspore.{new}` instead.",
    why="`mindspore.ms_function` and `mindspore.ms_class` no longer exist in MindSpore 2.10.",
    remedy="Use `mindspore.jit` and `mindspore.jit_class`.",
    mindspore_says="AttributeError: module 'mindspore' has no attribute 'ms_function'",
    fix_title="Use `{new}`",
)

# mindspore/context.py (2.10.0) `_check_context_deprecated`: parameter -> replacement.
DEPRECATED_CONTEXT = {
    "save_graphs": "the environment variable MS_DEV_SAVE_GRAPHS",
    "save_graphs_path": "the environment variable MS_DEV_SAVE_GRAPHS_PATH",
    "check_bprop": "",
    "max_call_depth": "mindspore.set_recursion_limit()",
    "enable_compile_cache": "the environment variable MS_COMPILER_CACHE_ENABLE",
    "enable_cache_path": "the environment variable MS_COMPILER_CACHE_PATH",
    "debug_level": "",
    "device_target": "mindspore.set_device()",
    "device_id": "mindspore.set_device()",
    "deterministic": "mindspore.set_deterministic()",
    "inter_op_parallel_num": "mindspore.runtime.dispatch_threads_num()",
    "pynative_synchronize": "mindspore.runtime.launch_blocking()",
    "max_device_memory": "mindspore.runtime.set_memory()",
    "variable_memory_max_size": "mindspore.runtime.set_memory()",
    "mempool_block_size": "mindspore.runtime.set_memory()",
    "memory_optimize_level": "mindspore.runtime.set_memory()",
    "runtime_num_threads": "mindspore.device_context.cpu.op_tuning.threads_num()",
}
TRIGGERS = ("set_context", "ms_function", "ms_class")
SET_CONTEXT = frozenset({"mindspore.set_context", "mindspore.context.set_context"})
REMOVED = {"ms_function": "jit", "ms_class": "jit_class"}
REMOVED_QUALNAMES = {
    f"{prefix}.{old}": new
    for old, new in REMOVED.items()
    for prefix in ("mindspore", "mindspore.common.api")
}


def check_module(module: ModuleInfo) -> Iterator[RawFinding]:
    if module.tree is None or not any(word in module.source for word in TRIGGERS):
        return
    lines = split_lines(module.source)
    # Findings are kept per top-level statement while it and the module's names are unchanged;
    # with line breaks the parser does not count, the fixes' text moves with the rest: not kept.
    exact = len(lines) == len(module.source.split("\n")) - module.source.endswith("\n")
    deps = (module.env, None if exact else module.source)
    for stmt in module.tree.body:
        line, found = _FINDINGS.get(stmt, deps, partial(_statement, module, stmt, lines))
        yield from moved_findings(found, stmt.lineno - line)


def _statement(
    module: ModuleInfo, stmt: ast.stmt, lines: list[str]
) -> tuple[int, tuple[RawFinding, ...]]:
    """The statement's findings and its line then: it may move (Enter above it)."""
    return stmt.lineno, _findings(module, stmt, lines)


def _findings(module: ModuleInfo, stmt: ast.stmt, lines: list[str]) -> tuple[RawFinding, ...]:
    found: list[RawFinding] = []
    fallbacks = _import_fallbacks(stmt)
    for node in of_type(stmt, ast.Call, ast.Attribute, ast.ImportFrom):
        if isinstance(node, ast.Call) and module.qualname(node.func) in SET_CONTEXT:
            found.extend(_set_context(module, node, lines))
        elif isinstance(node, ast.Attribute):
            new = REMOVED_QUALNAMES.get(module.qualname(node) or "")
            if new is not None:
                fix = REMOVED_API.fix(_attr_edit(node, new), new=new)
                found.append(_removed(node, node.attr, new, fix))
        elif (
            isinstance(node, ast.ImportFrom)
            and (node.module or "") in ("mindspore",)
            and id(node) not in fallbacks
        ):
            found.extend(
                _removed(node, alias.name, REMOVED[alias.name], None)
                for alias in node.names
                if alias.name in REMOVED
            )
    return tuple(found)


_FINDINGS: NodeMemo[tuple[int, tuple[RawFinding, ...]]] = NodeMemo()


def _import_fallbacks(tree: ast.AST) -> set[int]:
    """Imports in `except ImportError:` handlers: compatibility code for older MindSpore."""
    found: set[int] = set()
    for node in of_type(tree, ast.Try):
        for handler in node.handlers:
            caught = handler.type
            names = [caught] if not isinstance(caught, ast.Tuple) else caught.elts
            if any(
                isinstance(n, ast.Name) and n.id in ("ImportError", "ModuleNotFoundError")
                for n in names
            ):
                found.update(id(stmt) for stmt in handler.body)
    return found


def _set_context(module: ModuleInfo, call: ast.Call, lines: list[str]) -> Iterator[RawFinding]:
    for kw in call.keywords:
        if kw.arg not in DEPRECATED_CONTEXT:
            continue
        replacement = DEPRECATED_CONTEXT[kw.arg]
        advice = f"use {replacement} instead" if replacement else "remove it"
        yield DEPRECATED_SET_CONTEXT_PARAMETER.finding(
            node_range(kw),
            fix=_set_device_fix(module, call, lines) if kw.arg == "device_target" else None,
            name=kw.arg,
            advice=advice,
        )


def _set_device_fix(module: ModuleInfo, call: ast.Call, lines: list[str]) -> Optional[Fix]:
    """`ms.set_context(device_target=X)` -> `ms.set_device(X)` when that is its only argument."""
    func = call.func
    if call.args or len(call.keywords) != 1 or not isinstance(func, ast.Attribute):
        return None
    if module.qualname(func.value) != "mindspore":
        return None
    owner = segment(lines, func.value)
    value = segment(lines, call.keywords[0].value)
    if owner is None or value is None:
        return None
    return DEPRECATED_SET_CONTEXT_PARAMETER.fix(replace_node(call, f"{owner}.set_device({value})"))


def _attr_edit(node: ast.Attribute, new: str) -> TextEdit:
    end_line = node.end_lineno or node.lineno
    end_col = node.end_col_offset or 0
    return TextEdit(Range(end_line, end_col - len(node.attr), end_line, end_col), new)


def _removed(node: ast.AST, old: str, new: str, fix: Optional[Fix]) -> RawFinding:
    return REMOVED_API.finding(node_range(node), fix=fix, old=old, new=new)
