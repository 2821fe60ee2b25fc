"""Cell instances for ops of a model file, from data flow alone (pure; `mindir`, `onnx`).

Why: a `.mindir` keeps MindSpore's scopes, which put the ops a function makes in every
instance of a Cell into its first one (all of a ViT's GeLUs in `blocks.0.mlp.act`), and
carries no source chains or live Cells to correct them with (sharedscopes.py).

How: an op that reads no weight, in a Cell `name-Class` under a parent of class P, may belong
to the same-named child of any instance of P the document knows (from other ops or
weights): `blocks.k.mlp/act-GELU` for each Mlp `blocks.k.mlp`. It goes to the candidate
nearest its producers and consumers in the scope tree, as in sharedscopes.py; weights
settle an op at once; placing repeats until nothing changes.
"""

from __future__ import annotations

from typing import Any

from mindscope_runtime.scopes import attr_path, owner_scope
from mindscope_runtime.sharedscopes import MAX_ROUNDS, DataFlow

JsonDict = dict[str, Any]
NO_SITE = ("", 0)


def rehome_by_flow(
    nodes: list[JsonDict], edges: list[JsonDict], weight_names: dict[str, str]
) -> int:
    """Set `scope` of ops whose data flows through another instance's Cells; return moves."""
    compute = [n for n in nodes if n["category"] == "compute" and "/" in n["scope"]]
    known = {n["scope"] for n in compute}
    flow = DataFlow(nodes, edges, {})
    by_attr = {attr_path(s): s for s in _with_ancestors(known)}
    flow.weight_owners = {ref: owner_scope(name, by_attr) for ref, name in weight_names.items()}
    known |= {s for s in flow.weight_owners.values() if s}
    by_class: dict[str, list[str]] = {}
    for scope in _with_ancestors(known):
        by_class.setdefault(_class(scope.rsplit("/", 1)[-1]), []).append(scope)
    candidates: dict[str, list[str]] = {}
    for node in compute:
        parent, _, last = node["scope"].rpartition("/")
        if parent and "/" in node["scope"] and not _reads_weight(flow, node["id"]):
            found = sorted({f"{k}/{last}" for k in by_class.get(_class(parent), [])})
            if len(found) > 1:
                candidates[node["id"]] = found
    flow.unsettled = set(candidates)
    moved = 0
    for _ in range(MAX_ROUNDS):
        placed = 0
        for node in compute:
            if node["id"] not in flow.unsettled:
                continue
            owner = flow.owner(node, NO_SITE, candidates[node["id"]])
            if owner is None:
                continue
            flow.unsettled.discard(node["id"])
            placed += 1
            if owner != node["scope"]:
                node["scope"] = owner
                moved += 1
        if not placed:
            break
    return moved


def _reads_weight(flow: DataFlow, ref: str) -> bool:
    return any(flow.weight_owners.get(p) for p in flow.preds.get(ref, []))


def _class(segment: str) -> str:
    return segment.rsplit("/", 1)[-1].partition("-")[2] or segment


def _with_ancestors(scopes: set[str]) -> set[str]:
    out: set[str] = set()
    for scope in scopes:
        parts = scope.split("/")
        out.update("/".join(parts[:i]) for i in range(1, len(parts) + 1))
    return out
