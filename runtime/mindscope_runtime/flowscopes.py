"""Cell instances for ops of a model file, from data flow alone (pure; `mindir`, `onnx`).

Why: a `.mindir` keeps MindSpore's scopes, which put the ops a function makes in every
instance of a Cell into its first one (all of a ViT's GeLUs in `blocks.0.mlp.act`), and
carries no source chains or live Cells to correct them with (sharedscopes.py).

How: an op that reads no weight, in a Cell `name-Class` under a parent of class P, may belong
to the same-named child of any instance of P the document knows (from other ops or
weights): `blocks.k.mlp/act-GELU` for each Mlp `blocks.k.mlp`. It goes to the candidate
nearest its producers and consumers in the scope tree, as in sharedscopes.py; so may any
instance of its own Cell's class. Weights settle an op at once; placing repeats until nothing
changes. Then an op of a called-once instance that reads what left it moves out
(oncescopes.py). Last, an op whose producers and consumers all sit inside one instance that
does not hold it moves there (`contain_by_flow`).
"""

from __future__ import annotations

from typing import Any

from mindscope_runtime.expansions import common_scope
from mindscope_runtime.irvalues import Location
from mindscope_runtime.oncescopes import ancestors, inside, leave_called_once
from mindscope_runtime.scopes import attr_path, owner_scope
from mindscope_runtime.sharedscopes import DataFlow, calling_construct, settle

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
    everywhere = _with_ancestors(known)
    for scope in everywhere:
        by_class.setdefault(_class(scope.rsplit("/", 1)[-1]), []).append(scope)
    parents = {scope.rpartition("/")[0] for scope in everywhere}
    # One list per kind of Cell, shared by its ops (5,000 Layers in stack10k: building and
    # scoring a fresh list per op made this quadratic).
    lists: dict[tuple[bool, str], list[str]] = {}
    candidates: dict[str, list[str]] = {}
    for node in compute:
        parent, _, last = node["scope"].rpartition("/")
        if parent and not _reads_weight(flow, node["id"]):
            with_children = node["scope"] in parents
            key = (with_children, _class(last) if with_children else f"{_class(parent)}/{last}")
            found = lists.get(key)
            if found is None:
                if with_children:
                    # a Cell with children making ops itself (`ops.relu` in a construct): any
                    # instance of its class the document knows
                    found = sorted(set(by_class.get(_class(last), [])))
                else:  # a leaf Cell: its namesake in each instance of its parent's class
                    found = sorted({f"{k}/{last}" for k in by_class.get(_class(parent), [])})
                lists[key] = found
            if len(found) > 1:
                candidates[node["id"]] = found
    moved = settle(flow, compute, {ref: (NO_SITE, found) for ref, found in candidates.items()})
    flow.unsettled = set()
    moved += leave_called_once(flow, compute)
    eligible = {n["id"] for n in compute if not _reads_weight(flow, n["id"])}
    return moved + contain_by_flow(nodes, edges, eligible)


def contain_by_flow(nodes: list[JsonDict], edges: list[JsonDict], eligible: set[str]) -> int:
    """Move each op in `eligible` whose producers and consumers all sit inside one Cell
    instance that does not hold it into that instance (svtr's Attention Muls MindSpore scoped
    to its STN head, which called the same helper first); return how many moved."""
    flow = DataFlow(nodes, edges, {})
    moved = 0
    for node in nodes:
        if node["id"] not in eligible:
            continue
        before = [flow.by_id[r]["scope"] for r in flow.producers(node["id"]) if r in flow.by_id]
        after = [flow.by_id[r]["scope"] for r in flow.consumers(node["id"])]
        around = common_scope(before + after) if before and after else None
        scope = node["scope"]
        if around and "/" in around and not inside(scope, around) and not inside(around, scope):
            node["scope"] = around
            moved += 1
    return moved


def function_made(
    nodes: list[JsonDict],
    edges: list[JsonDict],
    chains: dict[str, list[Location]],
    weight_names: dict[str, str],
) -> set[str]:
    """Compute ops a function made (not a `construct` itself) that read no weight: the ones
    whose MindSpore scope may be another Cell's (sharedscopes.py)."""
    flow = DataFlow(nodes, edges, {})
    return {
        n["id"]
        for n in nodes
        if n["category"] == "compute"
        and n["scope"].startswith("Default/")
        and calling_construct(chains.get(n["id"], [])) is not None
        and not any(r in weight_names for r in flow.producers(n["id"]))
    }


def _reads_weight(flow: DataFlow, ref: str) -> bool:
    return any(flow.weight_owners.get(p) for p in flow.preds.get(ref, []))


def _class(segment: str) -> str:
    return segment.rsplit("/", 1)[-1].partition("-")[2] or segment


def _with_ancestors(scopes: set[str]) -> set[str]:
    out: set[str] = set()
    for scope in scopes:
        out |= ancestors(scope)
    return out
