"""Build the versioned graph document from a parsed IR module (pure: no MindSpore needed)."""

from __future__ import annotations

import math
import re
from typing import Any, Optional

from mindscope_runtime import GRAPH_DOC_VERSION
from mindscope_runtime.flowscopes import contain_by_flow, function_made, rehome_by_flow
from mindscope_runtime.irparse import IRModule, IRNode, describe_args
from mindscope_runtime.irvalues import Location, flatten_outputs
from mindscope_runtime.patterns import mark_patterns
from mindscope_runtime.scopes import CellInfo, build_scope_tree
from mindscope_runtime.sharedscopes import rehome_ops

JsonDict = dict[str, Any]

CONTROL_OPS = frozenset({"Return", "Switch", "SwitchLayer", "Partial", "Call"})
AUX_OPS = frozenset(
    {"Load", "UpdateState", "MakeTuple", "TupleGetItem", "Depend", "MakeList", "ListGetItem",
     "StopGradient", "ZerosLike", "J", "MakeDict", "DictGetItem", "EnvironCreate"}
)  # fmt: skip


def op_type(op: str) -> str:
    """`PrimFunc_ReLU` → `ReLU`; a call through a node or to a subgraph → `Call`."""
    if op.startswith(("%", "@")):
        return "Call"
    return op[len("PrimFunc_") :] if op.startswith("PrimFunc_") else op


def category(kind: str) -> str:
    if kind in CONTROL_OPS:
        return "control"
    return "aux" if kind in AUX_OPS else "compute"


def is_framework_file(path: str, framework_roots: tuple[str, ...]) -> bool:
    norm = path.replace("\\", "/")
    if any(root and norm.startswith(root.replace("\\", "/")) for root in framework_roots):
        return True
    return bool(re.search(r"/(site|dist)-packages/mindspore/", norm))


def node_id(graph_index: int, node: IRNode) -> str:
    return f"{graph_index}:{node.local_id or 'return'}"


def build_graph_document(
    module: IRModule,
    *,
    meta: JsonDict,
    cells: Optional[list[CellInfo]] = None,
    framework_roots: tuple[str, ...] = (),
    root_type: Optional[str] = None,
) -> JsonDict:
    """IR module → {version, kind, meta, nodes, edges, parameters, graphs, scopes, patterns}."""
    nodes: list[JsonDict] = []
    edges: list[JsonDict] = []
    graphs: list[JsonDict] = []
    chains: dict[str, list[Location]] = {}
    for gi, graph in enumerate(module.graphs):
        local = {n.local_id: node_id(gi, n) for n in graph.nodes if n.local_id is not None}
        graphs.append(
            {
                "index": gi,
                "name": graph.name,
                "entry": graph.name == module.entry,
                "params": graph.params,
                "source": _locations(graph.source, framework_roots),
            }
        )
        for node in graph.nodes:
            doc = _node(gi, node, framework_roots)
            chains[doc["id"]] = node.source
            nodes.append(doc)
            edges.extend(_edges(doc, local))
    outputs_by_id = {n["id"]: n["outputs"] for n in nodes}
    for edge in edges:
        produced = outputs_by_id.get(edge["from"], [])
        if produced and all(o.get("kind") == "monad" for o in produced):
            edge["kind"] = "control"
    parameters = [_parameter(p.id, p.name, p.abstract, p.is_weight, p.graph) for p in module.params]
    weights = [
        (p["name"], p["size"]) for p in parameters if p["kind"] == "weight" and not p["graph"]
    ]
    weight_names = {p["id"]: p["name"] for p in parameters if p["kind"] == "weight"}
    rehomed = rehome_ops(nodes, edges, chains, cells or [], weight_names)
    if not cells:  # a model file: no live Cells or source chains, data flow only
        rehomed += rehome_by_flow(nodes, edges, weight_names)
    elif any(c.construct for c in cells):  # a helper two Cell classes call keeps the first
        # caller's scope, whichever class calls it later
        rehomed += contain_by_flow(nodes, edges, function_made(nodes, edges, chains, weight_names))
    compute_scopes = [n["scope"] for n in nodes if n["category"] == "compute"]
    scopes = build_scope_tree(compute_scopes, cells or [], weights, root_type)
    patterns = mark_patterns(nodes, edges)
    full_meta = {**meta, "irEntry": module.entry, "jitConfig": module.jit_config}
    full_meta["rehomedOps"] = rehomed
    full_meta["counts"] = {
        "nodes": len(nodes),
        "computeOps": sum(1 for n in nodes if n["category"] == "compute"),
        "edges": len(edges),
        "graphs": len(graphs),
        "parameters": sum(1 for p in parameters if p["kind"] == "weight" and not p["graph"]),
        "parameterElements": sum(size for _, size in weights),
    }
    return {
        "kind": "mindscope.graph",
        "version": GRAPH_DOC_VERSION,
        "meta": full_meta,
        "error": None,
        "graphs": graphs,
        "nodes": nodes,
        "edges": edges,
        "parameters": parameters,
        "scopes": scopes,
        "patterns": patterns,
    }


def _node(gi: int, node: IRNode, roots: tuple[str, ...]) -> JsonDict:
    kind = op_type(node.op)
    full = node.full_name if "/" in node.full_name else ""
    scope, _, name = full.rpartition("/")
    args = describe_args(node.args)
    for index, arg in enumerate(args):
        if index < len(node.inputs):
            arg.update(_shape_of(node.inputs[index]))
        _scalar_const(arg)
    source = _locations(node.source, roots)
    attrs = node.attrs.get("primitive_attrs", {})
    return {
        "id": node_id(gi, node),
        "graph": node.graph,
        "opType": kind,
        "primitive": node.op,
        "name": name or (node.local_id or "return"),
        "fullName": full,
        "scope": scope,
        "category": category(kind),
        "instanceName": node.attrs.get("instance_name"),
        "inputs": args,
        "outputs": [_shape_of(o) for o in flatten_outputs(node.outputs)],
        "attrs": attrs if isinstance(attrs, dict) else {},
        "source": source,
        "userSource": next((s for s in reversed(source) if not s["framework"]), None),
        "frameworkSource": next((s for s in reversed(source) if s["framework"]), None),
    }


_SCALAR_PREFIX = re.compile(r"^(I8|I16|I32|I64|U8|U16|U32|U64|F16|F32|F64|BF16|Bool)\(")
_SCALAR_DTYPES = {
    "I8": "Int8", "I16": "Int16", "I32": "Int32", "I64": "Int64", "U8": "UInt8",
    "U16": "UInt16", "U32": "UInt32", "U64": "UInt64", "F16": "Float16", "F32": "Float32",
    "F64": "Float64", "BF16": "BFloat16", "Bool": "Bool",
}  # fmt: skip


def _scalar_const(arg: JsonDict) -> None:
    """A constant written as one scalar (`I64(-1)`) is a scalar, whatever abstract the line's
    type list put beside it (a 1-tuple `(I64(-1))` keeps its tuple type)."""
    found = _SCALAR_PREFIX.match(arg.get("text", "")) if arg["kind"] == "const" else None
    if found is None or not arg["text"].endswith(")") or "," in arg["text"]:
        return
    arg.pop("elements", None)
    arg.update({"type": "scalar", "dtype": _SCALAR_DTYPES[found.group(1)]})


def _shape_of(abstract: JsonDict) -> JsonDict:
    out: JsonDict = {"type": abstract.get("kind", "other")}
    if "dtype" in abstract:
        out["dtype"] = abstract["dtype"]
    if abstract.get("kind") == "tensor":
        out["shape"] = abstract.get("shape")
    elif abstract.get("kind") in ("tuple", "list"):
        out["elements"] = [_shape_of(e) for e in abstract.get("elements", [])]
    return out


def _edges(doc: JsonDict, local: dict[str, str]) -> list[JsonDict]:
    out: list[JsonDict] = []
    for index, arg in enumerate(doc["inputs"]):
        if arg["kind"] == "node" and arg["ref"] in local:
            source = local[arg["ref"]]
            arg["ref"] = source
        elif arg["kind"] == "param":
            source = arg["ref"]
        else:
            continue
        kind = (
            "control"
            if doc["opType"] in ("UpdateState",) or (doc["opType"] == "Depend" and index > 0)
            else "data"
        )
        out.append({"from": source, "to": doc["id"], "toInput": index, "kind": kind})
    return out


def _locations(locations: list[Location], roots: tuple[str, ...]) -> list[JsonDict]:
    seen: set[tuple[str, int, Optional[int]]] = set()
    out: list[JsonDict] = []
    for loc in locations:
        key = (loc.file, loc.line, loc.column)
        if key in seen:
            continue
        seen.add(key)
        item = loc.to_json()
        item["framework"] = is_framework_file(loc.file, roots)
        out.append(item)
    return out


def _parameter(
    pid: str, name: str, abstract: JsonDict, is_weight: bool, graph: Optional[str]
) -> JsonDict:
    shape = abstract.get("shape") if abstract.get("kind") == "tensor" else None
    size = math.prod(shape) if isinstance(shape, list) else 0
    return {
        "id": pid,
        "name": name,
        "kind": "weight" if is_weight else "input",
        "dtype": abstract.get("dtype"),
        "shape": shape,
        "size": size,
        "graph": graph,
    }
