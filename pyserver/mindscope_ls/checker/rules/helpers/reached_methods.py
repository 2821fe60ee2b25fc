"""The methods of a class that compiled code reaches: the roots (`construct`, `@jit` methods)
and the methods they call as `self.m(...)`, transitively (`__init__` never: it runs in Python)."""

from __future__ import annotations

import ast
from collections.abc import Iterable
from typing import Union

from . import names
from .walk import of_type

FunctionNode = Union[ast.FunctionDef, ast.AsyncFunctionDef]


def reached_methods(cls: ast.ClassDef, roots: Iterable[str]) -> list[FunctionNode]:
    methods = {
        i.name: i for i in cls.body if isinstance(i, (ast.FunctionDef, ast.AsyncFunctionDef))
    }
    todo = list(roots)
    seen: dict[str, FunctionNode] = {}
    while todo:
        name = todo.pop()
        fn = methods.get(name)
        if fn is None or name in seen or name == "__init__":
            continue
        seen[name] = fn
        for call in of_type(fn, ast.Call):
            attr = names.self_attribute(call.func)
            if attr is not None:
                todo.append(attr)
    return list(seen.values())
