"""Results computed from one AST node, kept between checks while the node lives.

The block parser hands back the same node objects for every top-level block an edit did not
touch (same text; a block that moved has its lines re-numbered in place), so a node's identity
stands for its text, not for its lines: a result that holds line numbers must keep them
relative to the node (see `rebase`). What else a result depends on (the module's imports, the
class's attributes, the level, ...) is its `deps`: a stored result is used only while they
compare equal. Entries are kept on the node itself and go with it; values must not refer to
other trees (or an old tree would stay alive through them).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from itertools import count
from typing import Generic, Optional, TypeVar

V = TypeVar("V")


# A few values per node: discovery meets a function first with some Tensor parameters and then
# with more, in every check; keeping both saves recomputing each of them every time.
PER_NODE = 4


_NUMBERS = count()


class NodeMemo(Generic[V]):
    def __init__(self) -> None:
        # An attribute of the node, not a weak-keyed table: a value may hold its own node (a
        # scope holds its function), which kept a table's key alive for ever; on the node it
        # is a cycle the collector frees with the tree. Also cheaper than a weak reference.
        self._attr = f"_mindscope_memo{next(_NUMBERS)}"

    def get(
        self,
        node: ast.AST,
        deps: object,
        compute: Callable[[], V],
        valid: Optional[Callable[[V], bool]] = None,
    ) -> V:
        """The value stored for `node` with equal `deps` (and that `valid` accepts, for what is
        known only once computed), else `compute()`, then stored.

        `deps` are compared, not hashed: big tuples that are the same object compare at once.
        """
        attrs = node.__dict__
        entries: Optional[list[tuple[object, V]]] = attrs.get(self._attr)
        if entries is None:
            entries = attrs[self._attr] = []
        for stored, value in entries:
            if stored == deps and (valid is None or valid(value)):
                return value
        value = compute()
        entries[:] = [e for e in entries[1 - PER_NODE :] if e[0] != deps]
        entries.append((deps, value))
        return value
