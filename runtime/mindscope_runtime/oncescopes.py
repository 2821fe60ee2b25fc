"""Ops that cannot be in the instance a model file scopes them to (pure; `mindir`, `onnx`).

Why: MindSpore scopes the ops a helper makes (`+`, `h[-1]`, `ops.mean`) after the first Cell
that called it, so in a `.mindir` the root's `out + h[-1]` after an LSTM sits inside the LSTM,
and a root `pool`'s ReduceMean inside the first SqueezeExcite. The file has no source chain to
say otherwise, but it does say what one call of a Cell can do.

How: an instance whose weights (its own and its children's) are each read by one compute op
is called once; one call runs its ops between reading its inputs and returning, so none of
them can read a value computed outside it from its own output. An op that does (and reads no
weight) moves to the deepest scope holding its producers and the nearest ops reading a
weight that it feeds, outside that instance (as `flowscopes.contain_by_flow` places ops);
placing goes in file order (a topological order), so an op that reads a moved one is judged
against where that one went.
"""

from __future__ import annotations

from typing import Any, Optional

from mindscope_runtime.expansions import common_scope
from mindscope_runtime.sharedscopes import DataFlow

JsonDict = dict[str, Any]
MAX_BACK_WALK = 4096  # nodes visited per "does it depend on this instance?" walk


def leave_called_once(flow: DataFlow, compute: list[JsonDict]) -> int:
    """Move ops that read, from outside, what their called-once instance returned; return
    how many moved."""
    once = called_once(flow)
    if not once:
        return 0
    first: dict[str, int] = {}  # each instance's first op in file order
    for node in compute:
        for scope in ancestors(node["scope"]) & once:
            first.setdefault(scope, flow.order[node["id"]])
    moved = 0
    for node in compute:
        holders = _cannot_hold(flow, node, once, first)
        if not holders:
            continue
        beside = _consumers_placed(flow, node["id"], holders[0])
        producers = [flow.by_id[r]["scope"] for r in flow.producers(node["id"]) if r in flow.by_id]
        around = common_scope(producers + beside)
        if around and not inside(around, holders[0]):
            node["scope"] = around
            moved += 1
    return moved


def _consumers_placed(flow: DataFlow, start: str, outer: str) -> list[str]:
    """Scopes of the nearest ops reading a weight that `start` feeds, outside `outer`. Ops
    reading none are walked through: they may be as misplaced as `start` (an Attention's Mul
    and the MatMul after it, both scoped to svtr's STN head, look settled to each other)."""
    level, seen, found = [start], {start}, list[str]()
    while level and not found and len(seen) < MAX_BACK_WALK:
        after: list[str] = []
        for ref in level:
            for nxt in flow.succs.get(ref, []):
                node = flow.by_id.get(nxt)
                if nxt in seen or node is None:
                    continue
                seen.add(nxt)
                if node["category"] == "compute" and _reads_weight(flow, nxt):
                    if not inside(node["scope"], outer):
                        found.append(node["scope"])
                elif node["category"] in ("compute", "aux"):
                    after.append(nxt)
        level = after
    return found


def _reads_weight(flow: DataFlow, ref: str) -> bool:
    return any(flow.weight_owners.get(r) for r in flow.producers(ref))


def _cannot_hold(
    flow: DataFlow, node: JsonDict, once: set[str], first: dict[str, int]
) -> list[str]:
    """The called-once instances around `node` that read, through it, what they returned
    (outermost first); none for an op that reads a weight (the weight's Cell holds it)."""
    if _reads_weight(flow, node["id"]):
        return []
    producers = [r for r in flow.producers(node["id"]) if r in flow.by_id]
    return [
        s
        for s in sorted(ancestors(node["scope"]) & once, key=len)
        if any(
            not inside(flow.by_id[r]["scope"], s) and _depends_on(flow, r, s, first[s])
            for r in producers
        )
    ]


def called_once(flow: DataFlow) -> set[str]:
    """Scopes whose weights, their own and their children's, are each read by one op."""
    reads: dict[str, list[int]] = {}
    for ref, owner in flow.weight_owners.items():
        if owner:
            count = len(flow.consumers(ref))
            parts = owner.split("/")
            for cut in range(2, len(parts) + 1):  # not `Default`: the root runs once anyway
                reads.setdefault("/".join(parts[:cut]), []).append(count)
    return {scope for scope, counts in reads.items() if all(c == 1 for c in counts)}


def _depends_on(flow: DataFlow, start: str, scope: str, first: int) -> bool:
    """Does `start` read, directly or not, a compute op inside `scope`? Ops earlier in the
    file than the instance's first op cannot (the order is topological)."""
    stack, seen = [start], {start}
    while stack and len(seen) < MAX_BACK_WALK:
        ref = stack.pop()
        for prev in flow.preds.get(ref, []):
            node = flow.by_id.get(prev)
            if prev in seen or node is None or flow.order[prev] < first:
                continue
            if node["category"] == "compute" and inside(node["scope"], scope):
                return True
            seen.add(prev)
            stack.append(prev)
    return False


def ancestors(scope: str) -> set[str]:
    """`scope` and each scope above it."""
    parts = scope.split("/")
    return {"/".join(parts[:cut]) for cut in range(1, len(parts) + 1)}


def inside(scope: Optional[str], container: str) -> bool:
    """Is `scope` the scope `container` or one below it?"""
    return bool(scope) and (scope == container or str(scope).startswith(container + "/"))
