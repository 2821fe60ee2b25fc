"""Data-flow attribution for model files (no source chains, no live Cells), on documents
shaped as MindSpore 2.10 exports them: every block's GeLU named after block 0's, and a helper
two Cell classes call named after the first caller (svtr's STN head)."""

from __future__ import annotations

from typing import Any, Callable

from mindscope_runtime.graphdoc import build_graph_document
from mindscope_runtime.irparse import IRGraph, IRModule, IRNode, IRParam

T: dict[str, Any] = {"kind": "tensor", "dtype": "Float32", "shape": [2, 8]}
B = "Default/blocks-CellList"


def module(ops: list[tuple[str, str, list[str]]], weights: list[str]) -> IRModule:
    """`ops`: (op type, MindSpore's full name, args); `%N` is the N-th op (1-based)."""
    params = [IRParam("%para1_x", "x", T, False)] + [
        IRParam(f"%para{i + 2}_{w}", w, T, True) for i, w in enumerate(weights)
    ]
    nodes = [
        IRNode(graph="g", local_id=f"%{i + 1}", debug_name="", op=op, args=args, attrs={},
               inputs=[T] * len(args), outputs=[T], full_name=name)
        for i, (op, name, args) in enumerate(ops)
    ]  # fmt: skip
    return IRModule(entry="g", attrs={}, jit_config={}, params=params,
                    graphs=[IRGraph(name="g", params=["%para1_x"], nodes=nodes)])  # fmt: skip


def weights_of(weights: list[str]) -> Callable[[str], str]:
    """name → the parameter id `module` gives that weight."""
    return lambda name: f"%para{weights.index(name) + 2}_{name}"


def scopes(doc: dict[str, Any]) -> list[tuple[str, str]]:
    return [(n["opType"], n["scope"]) for n in doc["nodes"] if n["category"] == "compute"]


def test_each_blocks_gelu_goes_beside_its_own_dense_layers() -> None:
    weights = [f"blocks.{k}.mlp.{fc}" for k in range(3) for fc in ("fc1.weight", "fc2.w")]
    p = weights_of(weights)
    ops: list[tuple[str, str, list[str]]] = []
    last = "%para1_x"
    for k in range(3):
        mlp = f"{B}/{k}-Block/mlp-Mlp"
        base = len(ops)
        ops += [
            ("MatMul", f"{mlp}/fc1-Dense/MatMul-op0", [last, p(f"blocks.{k}.mlp.fc1.weight")]),
            ("GeLU", f"{B}/0-Block/mlp-Mlp/act-GELU/GeLU-op{k}", [f"%{base + 1}"]),
            ("MatMul", f"{mlp}/fc2-Dense/MatMul-op0", [f"%{base + 2}", p(f"blocks.{k}.mlp.fc2.w")]),
        ]  # fmt: skip
        last = f"%{base + 3}"
    doc = build_graph_document(module(ops, weights), meta={})
    gelus = [s for t, s in scopes(doc) if t == "GeLU"]
    assert gelus == [f"{B}/{k}-Block/mlp-Mlp/act-GELU" for k in range(3)]
    assert doc["meta"]["rehomedOps"] == 2
    assert {p["path"] for p in doc["scopes"][0]["children"]} >= {f"{B}"}


def test_a_helper_op_named_after_another_class_goes_where_its_data_flows() -> None:
    weights = ["head.fc.weight", "mixer.proj.weight", "mixer.out.weight"]
    p = weights_of(weights)
    ops = [
        ("Muls", "Default/head-Head/Muls-op0", ["%para1_x"]),
        ("MatMul", "Default/head-Head/fc-Dense/MatMul-op0", ["%1", p("head.fc.weight")]),
        ("MatMul", "Default/mixer-Mixer/proj-Dense/MatMul-op0", ["%2", p("mixer.proj.weight")]),
        ("Muls", "Default/head-Head/Muls-op1", ["%3"]),
        ("MatMul", "Default/mixer-Mixer/out-Dense/MatMul-op0", ["%4", p("mixer.out.weight")]),
    ]  # fmt: skip
    doc = build_graph_document(module(ops, weights), meta={})
    muls = [s for t, s in scopes(doc) if t == "Muls"]
    assert muls == ["Default/head-Head", "Default/mixer-Mixer"]


def test_ops_with_neighbours_in_several_cells_keep_their_scope() -> None:
    weights = ["a.fc.weight", "b.fc.weight"]
    p = weights_of(weights)
    ops = [
        ("MatMul", "Default/a-Dense/MatMul-op0", ["%para1_x", p("a.fc.weight")]),
        ("ReLU", "Default/act-ReLU/ReLU-op0", ["%1"]),
        ("MatMul", "Default/b-Dense/MatMul-op0", ["%2", p("b.fc.weight")]),
    ]
    doc = build_graph_document(module(ops, weights), meta={})
    assert scopes(doc)[1] == ("ReLU", "Default/act-ReLU")
    assert doc["meta"]["rehomedOps"] == 0
