"""The jit_syntax_level a file asks for: set_context(...), JitConfig(...), or the environment."""

from __future__ import annotations

import ast
from functools import partial
from typing import Optional

from .incremental.memo import NodeMemo
from .index.module import ModuleInfo
from .model import SyntaxLevel
from .rules.helpers import names
from .rules.helpers.walk import of_type

LEVELS: tuple[SyntaxLevel, ...] = tuple(SyntaxLevel)  # STRICT, COMPATIBLE, LAX
DEFAULT_LEVEL = SyntaxLevel.LAX


def normalize_level(level: Optional[str]) -> Optional[SyntaxLevel]:
    """'strict' -> SyntaxLevel.STRICT; None for anything that is not a level name."""
    if not level:
        return None
    upper = level.strip().upper()
    return SyntaxLevel(upper) if upper in SyntaxLevel.__members__ else None


def file_level(module: ModuleInfo) -> Optional[SyntaxLevel]:
    """The last level set in the file, in source order, or None."""
    if module.tree is None:
        return None
    if "jit_syntax_level" not in module.source and "MS_DEV_JIT_SYNTAX_LEVEL" not in module.source:
        return None  # cheap: most files set no level
    found = [
        (stmt.lineno + line, col, level)
        for stmt in module.tree.body
        for line, col, level in _SETTERS.get(
            stmt, module.env, partial(_levels_set_in, module, stmt)
        )
    ]
    return max(found)[2] if found else None


def _levels_set_in(module: ModuleInfo, stmt: ast.stmt) -> tuple[tuple[int, int, SyntaxLevel], ...]:
    """Where a top-level statement sets a level, relative to its first line (kept while it and
    the module's names are, wherever it moves)."""
    found: list[tuple[int, int, SyntaxLevel]] = []
    for node in of_type(stmt, ast.Call, ast.Assign):
        level = level_set_by(module, node)
        if level is not None:
            line = node.lineno - stmt.lineno  # type: ignore[attr-defined]
            found.append((line, node.col_offset, level))  # type: ignore[attr-defined]
    return tuple(found)


_SETTERS: NodeMemo[tuple[tuple[int, int, SyntaxLevel], ...]] = NodeMemo()


def level_set_by(module: ModuleInfo, node: ast.AST) -> Optional[SyntaxLevel]:
    """The level `node` sets: a `set_context`/`JitConfig` call or `os.environ[...] = ...`."""
    if isinstance(node, ast.Call):
        name = module.qualname(node.func) or ""
        last = name.rsplit(".", 1)[-1]
        if last in ("set_context", "JitConfig") and name.startswith("mindspore"):
            value = names.keyword(node, "jit_syntax_level")
            return names.level_of(module, value) if value is not None else None
        if last in ("set_jit_config", "jit_config"):
            value = names.keyword(node, "jit_syntax_level")
            return names.level_of(module, value) if value is not None else None
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        target = node.targets[0]
        if (
            isinstance(target, ast.Subscript)
            and module.qualname(target.value) == "os.environ"
            and isinstance(target.slice, ast.Constant)
            and target.slice.value == "MS_DEV_JIT_SYNTAX_LEVEL"
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
            and node.value.value.isdigit()
        ):
            return names.LEVEL_BY_INT.get(int(node.value.value))
    return None
