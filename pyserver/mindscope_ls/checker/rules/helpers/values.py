"""What the arguments of a call into compiled code hold, as far as the calling scope shows:
Python numbers that change from one loop iteration to the next, and Tensors."""

from __future__ import annotations

import ast
from typing import Optional

from . import names
from .callsites import CallSites, iterator_call
from .scopes import Binding, LoopNode, Scope

NUMBER_BUILTINS = frozenset({"int", "float"})
COUNTERS = frozenset({"range", "enumerate"})


class Values:
    def __init__(self, sites: CallSites, scope: Scope):
        self.sites = sites
        self.scope = scope
        # Name answers by (name, names being resolved): chains like `b = a + a` stay linear.
        self._numeric: dict[tuple[str, frozenset[str]], bool] = {}
        self._changed: dict[tuple[str, frozenset[str], int], Optional[ast.AST]] = {}

    def _bindings(self, name: str) -> list[Binding]:
        return self.sites.bindings(self.scope, name)

    # -- Python numbers ---------------------------------------------------------------------

    def numeric(self, expr: ast.expr, seen: frozenset[str] = frozenset()) -> bool:
        """True when `expr` certainly evaluates to a Python int or float (never a bool)."""
        if isinstance(expr, ast.Constant):
            return isinstance(expr.value, (int, float)) and not isinstance(expr.value, bool)
        if isinstance(expr, ast.Name):
            if expr.id in seen:
                return True  # `lr = lr * 0.9`: the other bindings decide
            key = (expr.id, seen)
            if key not in self._numeric:
                bindings = self._bindings(expr.id)
                inner = seen | {expr.id}
                self._numeric[key] = bool(bindings) and all(
                    self._numeric_binding(b, inner) for b in bindings
                )
            return self._numeric[key]
        if isinstance(expr, ast.BinOp):
            return not isinstance(expr.op, ast.MatMult) and (
                self.numeric(expr.left, seen) and self.numeric(expr.right, seen)
            )
        if isinstance(expr, ast.UnaryOp):
            return not isinstance(expr.op, ast.Not) and self.numeric(expr.operand, seen)
        if isinstance(expr, ast.IfExp):
            return self.numeric(expr.body, seen) and self.numeric(expr.orelse, seen)
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name):
            return expr.func.id in NUMBER_BUILTINS and not self._bindings(expr.func.id)
        return False

    def _numeric_binding(self, binding: Binding, seen: frozenset[str]) -> bool:
        node = binding.node
        if isinstance(node, (ast.For, ast.AsyncFor)):
            return self._counter(node, binding.index) is not None
        if binding.value is None or binding.index is not None:
            return False
        return self.numeric(binding.value, seen)

    def _counter(self, loop: ast.For | ast.AsyncFor, index: Optional[int]) -> Optional[str]:
        """`range` for `for i in range(n)`, `enumerate` for the `i` of `for i, x in
        enumerate(xs)`: loop targets that take a new integer on every iteration."""
        it = loop.iter
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name)):
            return None
        name = it.func.id
        if name not in COUNTERS or self._bindings(name):
            return None
        wanted = None if name == "range" else 0
        return name if index == wanted else None

    def varying(self, expr: ast.expr, loops: tuple[LoopNode, ...]) -> Optional[tuple[str, ast.AST]]:
        """(name, where it changes) when `expr` is a Python number that takes a new value on
        each iteration of one of `loops`."""
        if not loops or not self.numeric(expr):
            return None
        for name in _names_in(expr):
            where = self._changes(name, loops, frozenset())
            if where is not None:
                return name, where
        return None

    def _changes(
        self, name: str, loops: tuple[LoopNode, ...], seen: frozenset[str]
    ) -> Optional[ast.AST]:
        key = (name, seen, id(loops[-1]))
        if key not in self._changed:
            self._changed[key] = self._where_changed(name, loops, seen)
        return self._changed[key]

    def _where_changed(
        self, name: str, loops: tuple[LoopNode, ...], seen: frozenset[str]
    ) -> Optional[ast.AST]:
        inside = set(map(id, loops))
        for binding in self._bindings(name):
            if not any(id(loop) in inside for loop in binding.loops):
                continue
            node = binding.node
            if isinstance(node, (ast.For, ast.AsyncFor)):
                if self._counter(node, binding.index) is not None:
                    return node.target
                continue
            if isinstance(node, ast.AugAssign):
                return node
            if binding.value is None:
                continue
            for other in _names_in(binding.value):
                if other == name:
                    return node  # `lr = lr * 0.9`
                if other not in seen and self._changes(other, loops, seen | {name}) is not None:
                    return node
        return None

    # -- Tensors ----------------------------------------------------------------------------

    def tensor(self, expr: ast.expr, loops: tuple[LoopNode, ...]) -> bool:
        """True when `expr`, evaluated inside `loops`, certainly holds a Tensor: built by
        `Tensor(...)`/`ops.*`, or one item of a dataset iterator's batch."""
        module = self.sites.module
        if isinstance(expr, ast.Call):
            qualname = names.callee(module, expr.func)
            return qualname in names.TENSOR_FACTORIES or names.is_ops_call(qualname)
        if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Name):
            return self.batch(expr.value.id, loops) == "create_dict_iterator"
        if isinstance(expr, ast.Name):
            bindings = self._bindings(expr.id)
            return bool(bindings) and all(self._tensor_binding(b, loops) for b in bindings)
        return False

    def _tensor_binding(self, binding: Binding, loops: tuple[LoopNode, ...]) -> bool:
        node = binding.node
        if isinstance(node, (ast.For, ast.AsyncFor)):
            return binding.index is not None and self._iterates(node) == "create_tuple_iterator"
        if binding.value is None:
            return False
        if binding.index is None:
            return self.tensor(binding.value, loops)
        value = binding.value
        return (
            isinstance(value, ast.Name) and self.batch(value.id, loops) == "create_tuple_iterator"
        )

    def batch(self, name: str, loops: tuple[LoopNode, ...]) -> Optional[str]:
        """The iterator (`create_tuple_iterator`, ...) when `name` is the whole batch that one
        of `loops` takes from it, and nothing in those loops rebinds it."""
        inside = {id(loop) for loop in loops}
        found: Optional[str] = None
        for binding in self._bindings(name):
            node = binding.node
            if isinstance(node, (ast.For, ast.AsyncFor)) and id(node) in inside:
                if binding.index is not None:
                    return None
                found = self._iterates(node)
            elif any(id(loop) in inside for loop in binding.loops):
                return None
        return found

    def _iterates(self, loop: ast.For | ast.AsyncFor) -> Optional[str]:
        found = iterator_call(loop.iter)
        if found is not None or not isinstance(loop.iter, ast.Name):
            return found
        bindings = self._bindings(loop.iter.id)
        kinds = {iterator_call(b.value) if b.index is None else None for b in bindings}
        return kinds.pop() if len(kinds) == 1 else None


def _names_in(expr: ast.expr) -> list[str]:
    """Names an expression reads, except those it calls (`float(step)` reads `step`)."""
    called = {id(n.func) for n in ast.walk(expr) if isinstance(n, ast.Call)}
    return [n.id for n in ast.walk(expr) if isinstance(n, ast.Name) and id(n) not in called]
