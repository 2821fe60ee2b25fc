"""Results computed from one AST node, kept between checks while the node lives.

The block parser hands back the same node objects for every top-level block an edit did not
touch (same text, same position), so a node's identity stands for its text and its lines. What
else a result depends on (the module's imports, the class's attributes, the level, ...) is its
`deps`: a stored result is used only while they compare equal. Entries go with their node, and
values must not refer to other trees (or an old tree would stay alive through them).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Generic, Optional, TypeVar
from weakref import WeakKeyDictionary

V = TypeVar("V")


# A few values per node: discovery meets a function first with some Tensor parameters and then
# with more, in every check; keeping both saves recomputing each of them every time.
PER_NODE = 4


class NodeMemo(Generic[V]):
    def __init__(self) -> None:
        self._entries: WeakKeyDictionary[ast.AST, list[tuple[object, V]]] = WeakKeyDictionary()

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
        entries = self._entries.get(node)
        if entries is None:
            entries = self._entries[node] = []
        for stored, value in entries:
            if stored == deps and (valid is None or valid(value)):
                return value
        value = compute()
        entries[:] = [e for e in entries[1 - PER_NODE :] if e[0] != deps]
        entries.append((deps, value))
        return value
