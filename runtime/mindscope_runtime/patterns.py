"""Mark known fusion patterns (Conv→BN→ReLU and friends) on a graph document's nodes."""

from __future__ import annotations

from typing import Any

JsonDict = dict[str, Any]

_ACTIVATIONS = frozenset(
    {"ReLU", "ReLU6", "ReLUV2", "SiLU", "GeLU", "GeLUExt", "FastGeLU", "Sigmoid", "Tanh",
     "LeakyReLU", "HSwish", "HSigmoid", "Mish", "Elu", "PReLU", "Swish"}
)  # fmt: skip
_CONV = frozenset({"Conv2D", "Conv3D", "Conv2DExt", "Conv2DPadding", "Conv1D", "Convolution"})
_NORM = frozenset({"BatchNorm", "BatchNormExt", "FusedBatchNorm", "BNTrainingReduce"})
_MATMUL = frozenset({"MatMul", "MatMulExt", "BatchMatMul", "Dense"})
_BIAS = frozenset({"BiasAdd", "Add", "AddExt"})
_LAYERNORM = frozenset({"LayerNorm", "LayerNormExt", "LayerNormV3"})

# Longest first: a node joins at most one pattern.
PATTERNS: list[tuple[str, list[frozenset[str]]]] = [
    ("Conv-BN-Act", [_CONV, _NORM, _ACTIVATIONS]),
    ("Conv-Bias-Act", [_CONV, _BIAS, _ACTIVATIONS]),
    ("MatMul-Bias-Act", [_MATMUL, _BIAS, _ACTIVATIONS]),
    ("Conv-BN", [_CONV, _NORM]),
    ("Conv-Act", [_CONV, _ACTIVATIONS]),
    ("MatMul-Bias", [_MATMUL, _BIAS]),
    ("MatMul-Act", [_MATMUL, _ACTIVATIONS]),
    ("Add-LayerNorm", [_BIAS, _LAYERNORM]),
]

# Ops that only route data; a pattern may pass through them.
_PASS_THROUGH = frozenset({"TupleGetItem", "Depend", "Load", "Cast", "Reshape"})


def mark_patterns(nodes: list[JsonDict], edges: list[JsonDict]) -> list[JsonDict]:
    """Find chains where each op's output feeds only the next op; set `node["pattern"]`."""
    by_id = {n["id"]: n for n in nodes}
    consumers: dict[str, list[str]] = {}
    for edge in edges:
        if edge.get("kind", "data") == "data":
            consumers.setdefault(edge["from"], []).append(edge["to"])
    found: list[JsonDict] = []
    taken: set[str] = set()
    for kind, steps in PATTERNS:
        for node in nodes:
            if node["id"] in taken or node["opType"] not in steps[0]:
                continue
            chain = _follow(node["id"], steps[1:], by_id, consumers, taken)
            if chain is None:
                continue
            ids = [node["id"], *chain]
            pattern_id = f"p{len(found)}"
            for nid in ids:
                taken.add(nid)
                by_id[nid]["pattern"] = pattern_id
            found.append(
                {"id": pattern_id, "kind": kind, "nodes": ids, "scope": _common(ids, by_id)}
            )
    return found


def _follow(
    start: str,
    steps: list[frozenset[str]],
    by_id: dict[str, JsonDict],
    consumers: dict[str, list[str]],
    taken: set[str],
) -> list[str] | None:
    chain: list[str] = []
    current = start
    for allowed in steps:
        nxt = _sole_compute_consumer(current, by_id, consumers)
        if nxt is None or nxt in taken or by_id[nxt]["opType"] not in allowed:
            return None
        chain.append(nxt)
        current = nxt
    return chain


def _sole_compute_consumer(
    node_id: str, by_id: dict[str, JsonDict], consumers: dict[str, list[str]]
) -> str | None:
    frontier = [node_id]
    seen: set[str] = set()
    found: set[str] = set()
    while frontier:
        current = frontier.pop()
        for nxt in consumers.get(current, []):
            if nxt in seen or nxt not in by_id:
                continue
            seen.add(nxt)
            if by_id[nxt]["opType"] in _PASS_THROUGH:
                frontier.append(nxt)
            elif by_id[nxt]["category"] == "compute":
                found.add(nxt)
    return next(iter(found)) if len(found) == 1 else None


def _common(ids: list[str], by_id: dict[str, JsonDict]) -> str:
    scopes = [str(by_id[i].get("scope", "")).split("/") for i in ids]
    common: list[str] = []
    for parts in zip(*scopes):
        if len(set(parts)) != 1:
            break
        common.append(parts[0])
    return "/".join(common)
