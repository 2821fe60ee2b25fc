"""The candidate scope nearest some scopes in the scope tree, in time linear in their depth.

Why: an op of a Cell class with thousands of instances (5,000 Layers in stack10k, 25,000 in
stack50k) has that many candidate scopes; scoring each for every op made reading a `.mindir`
quadratic (229 s for 50k ops). Candidates are kept in a trie of scope segments instead, each
trie node knowing the two shortest candidates below it, so a query visits only the trie
nodes on the paths of the scopes it is near and a few siblings of them.

Why it is exact: the score of a candidate `c` is the sum over the near scopes `n` of
`len(c) + len(n) - 2 * shared(c, n)` (segments up to the common ancestor and down again).
Let `b` be the deepest trie node on `c`'s path that also lies on some near scope's path:
below `b`, `c` shares nothing more with any near scope, so `shared(c, n)` depends on `b`
alone, and among the candidates leaving the near paths at `b` the shortest score best. The
two best of each such `b` are therefore the two best overall (two, to tell a tie).
"""

from __future__ import annotations

from typing import Optional

Best = list[tuple[int, str]]  # (segments, candidate), shortest first, at most two


class _Node:
    __slots__ = ("best", "children", "here", "ordered")

    def __init__(self) -> None:
        self.children: dict[str, _Node] = {}
        self.here: Optional[str] = None  # the candidate ending at this node
        self.best: Best = []  # the two shortest candidates at or below this node
        self.ordered: list[tuple[str, _Node]] = []  # children, shortest candidate first


class CandidateIndex:
    """Candidate scopes (`a/b/c`) of one kind of Cell, for `nearest` and `containing`."""

    def __init__(self, candidates: list[str]) -> None:
        self.known = set(candidates)
        self.work = 0  # trie nodes a query looked at, summed over queries (tests count it)
        self.root = _Node()
        for scope in self.known:
            node = self.root
            for segment in scope.split("/"):
                node = node.children.setdefault(segment, _Node())
            node.here = scope
        _summarise(self.root, 0)

    def containing(self, scope: Optional[str]) -> Optional[str]:
        """The deepest candidate that is `scope` or one of its ancestors."""
        if not scope:
            return None
        while scope not in self.known:
            if "/" not in scope:
                return None
            scope = scope.rpartition("/")[0]
        return scope

    def nearest(self, near: list[str]) -> Optional[str]:
        """The candidate nearest, summed over `near`, in the scope tree; None on a tie.

        Distances count segments up to the common ancestor and down again, so an op whose
        producer and consumer are its siblings (`fc1 → act → fc2` in one `mlp`) goes to the
        candidate beside them, and one fed from and feeding the root's children to the
        root's."""
        if not near or not self.known:
            return None
        split = [n.split("/") for n in near]
        fixed = sum(len(n) for n in split)
        # trie nodes on the near scopes' paths (the root included) and the segments to them
        on_paths: dict[int, tuple[_Node, list[str]]] = {id(self.root): (self.root, [])}
        for parts in split:
            node = self.root
            for depth, segment in enumerate(parts):
                nxt = node.children.get(segment)
                if nxt is None:
                    break
                node = nxt
                on_paths.setdefault(id(node), (node, parts[: depth + 1]))
        scored: list[tuple[int, str]] = []
        for node, path in on_paths.values():
            shared = sum(_shared(path, parts) for parts in split)
            best, looked = _leaving(node, on_paths)
            self.work += 1 + looked
            for length, candidate in best:
                scored.append((len(split) * length + fixed - 2 * shared, candidate))
        scored.sort()
        if len(scored) > 1 and scored[0][0] == scored[1][0]:
            return None
        return scored[0][1]


def _summarise(node: _Node, depth: int) -> None:
    """Fill `best` and `ordered` below `node` (iteratively: scopes may be deep)."""
    stack: list[tuple[_Node, int, bool]] = [(node, depth, False)]
    while stack:
        current, level, done = stack.pop()
        if not done:
            stack.append((current, level, True))
            stack.extend((child, level + 1, False) for child in current.children.values())
            continue
        best: Best = [(level, current.here)] if current.here is not None else []
        for child in current.children.values():
            best.extend(child.best)
        current.best = sorted(best)[:2]
        current.ordered = sorted(current.children.items(), key=lambda kv: kv[1].best[0])


def _leaving(node: _Node, on_paths: dict[int, tuple[_Node, list[str]]]) -> tuple[Best, int]:
    """The two shortest candidates that leave the near paths at `node` (itself, or below a
    child of it off those paths), and how many children that looked at."""
    best: Best = node.best[:1] if node.here is not None else []  # the shortest below it
    looked = 0
    for _, child in node.ordered:
        looked += 1
        if id(child) in on_paths:
            continue
        if len(best) >= 2 and child.best[0] >= best[1]:
            break  # children are ordered: none further can be among the two shortest
        best = sorted([*best, *child.best])[:2]
    return best, looked


def _shared(a: list[str], b: list[str]) -> int:
    shared = 0
    for x, y in zip(a, b):
        if x != y:
            break
        shared += 1
    return shared
