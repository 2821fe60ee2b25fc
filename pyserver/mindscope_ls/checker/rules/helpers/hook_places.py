"""Where hooks on a Cell class's instances are registered: read by discovery (which follows the
hooks as compiled code) and by the hook rules (`cell_hooks.py`)."""

from __future__ import annotations

import ast


def registration_places(tree: ast.Module, cls: ast.ClassDef) -> list[tuple[ast.FunctionDef, str]]:
    """(function, the name the instance has there): the class's `__init__` (`self`), and each
    module-level function binding `net = Cls(...)` (`net`)."""
    places = [
        (m, "self") for m in cls.body if isinstance(m, ast.FunctionDef) and m.name == "__init__"
    ]
    for fn in tree.body:
        if not isinstance(fn, ast.FunctionDef):
            continue
        for assign in ast.walk(fn):
            if (
                isinstance(assign, ast.Assign)
                and len(assign.targets) == 1
                and isinstance(assign.targets[0], ast.Name)
                and isinstance(assign.value, ast.Call)
                and isinstance(assign.value.func, ast.Name)
                and assign.value.func.id == cls.name
            ):
                places.append((fn, assign.targets[0].id))
    return places


def gives_value(fn: ast.AST) -> bool:
    """A `return` in `fn` (nested functions included) gives something other than None: a hook
    that returns a value replaces the output it was given."""
    return any(
        isinstance(r, ast.Return)
        and r.value is not None
        and not (isinstance(r.value, ast.Constant) and r.value.value is None)
        for r in ast.walk(fn)
    )
