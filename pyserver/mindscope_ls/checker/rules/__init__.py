"""The rules: each module checks one family of problems in a compiled function or a module."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ..index.module import ModuleInfo
from ..model import RawFinding
from . import deprecated, divergence, joins, objects, rebuild, recompile, statements, strict
from .helpers.base import FunctionContext

FunctionRule = Callable[[FunctionContext], Iterator[RawFinding]]
ModuleRule = Callable[[ModuleInfo], Iterator[RawFinding]]

FUNCTION_RULES: tuple[FunctionRule, ...] = (
    statements.check,
    joins.check,
    objects.check,
    strict.check,
    divergence.check,
)
MODULE_RULES: tuple[ModuleRule, ...] = (
    deprecated.check_module,
    recompile.check_module,
    rebuild.check_module,
)

__all__ = ["FUNCTION_RULES", "MODULE_RULES", "FunctionContext"]
