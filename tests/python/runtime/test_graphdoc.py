"""Graph documents built from real IR fixtures: nodes, edges, scopes, patterns, schema."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mindscope_runtime.graphdoc import build_graph_document, op_type
from mindscope_runtime.irparse import parse_ir_file
from mindscope_runtime.schemacheck import load_schema, validate
from mindscope_runtime.scopes import CellInfo, attr_path, build_scope_tree, owner_scope

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = Path(__file__).parent / "fixtures" / "ir"
META: dict[str, Any] = {
    "mindsporeVersion": "2.10.0",
    "mode": "GRAPH_MODE",
    "syntaxLevel": "LAX",
    "capture": "ir-dump",
    "target": "net.py:Net",
    "inputs": [{"shape": [2, 3, 8, 8], "dtype": "Float32"}],
    "device": "CPU",
}


def _doc(name: str) -> dict[str, Any]:
    return build_graph_document(parse_ir_file(FIXTURES / name), meta=dict(META), root_type="Net")


def test_op_type_strips_primfunc_and_names_calls() -> None:
    assert op_type("PrimFunc_ReLU") == "ReLU"
    assert op_type("Conv2D") == "Conv2D"
    assert op_type("%4[@FuncUnion(@a, @b)]") == "Call"


def test_conv_node_has_shapes_scope_and_sources() -> None:
    doc = _doc("conv_bn_relu_execute.ir")
    conv = next(n for n in doc["nodes"] if n["opType"] == "Conv2D")
    assert conv["scope"] == "Default/block-Block/conv-Conv2d"
    assert conv["outputs"] == [{"type": "tensor", "dtype": "Float32", "shape": [2, 8, 8, 8]}]
    assert [i["shape"] for i in conv["inputs"]] == [[2, 3, 8, 8], [8, 3, 3, 3]]
    assert conv["userSource"]["file"].endswith("net.py")
    assert conv["userSource"]["line"] == 12
    assert conv["frameworkSource"]["file"].endswith("mindspore/nn/layer/conv.py")
    assert conv["attrs"]["kernel_size"] == [3, 3]


def test_compute_ops_and_edges() -> None:
    doc = _doc("conv_bn_relu_execute.ir")
    compute = [n["opType"] for n in doc["nodes"] if n["category"] == "compute"]
    assert compute == ["Conv2D", "BatchNorm", "ReLU", "Flatten", "MatMul", "BiasAdd"]
    ids = {n["id"] for n in doc["nodes"]} | {p["id"] for p in doc["parameters"]}
    assert all(e["from"] in ids and e["to"] in ids for e in doc["edges"])
    assert {"from": "%para1_x", "to": "0:%1", "toInput": 0, "kind": "data"} in doc["edges"]
    assert any(e["kind"] == "control" for e in doc["edges"])


def test_patterns_mark_conv_bn_relu_and_dense() -> None:
    doc = _doc("conv_bn_relu_execute.ir")
    kinds = {p["kind"]: p for p in doc["patterns"]}
    assert kinds["Conv-BN-Act"]["scope"] == "Default/block-Block"
    assert kinds["MatMul-Bias"]["scope"] == "Default/fc-Dense"
    relu = next(n for n in doc["nodes"] if n["opType"] == "ReLU")
    assert relu["pattern"] == kinds["Conv-BN-Act"]["id"]


def test_scope_tree_counts_parameters() -> None:
    doc = _doc("conv_bn_relu_execute.ir")
    (root,) = doc["scopes"]
    assert root["path"] == "Default" and root["cellType"] == "Net"
    assert root["paramCount"] == 8 * 3 * 3 * 3 + 4 * 8 + 10 * 512 + 10
    block = next(c for c in root["children"] if c["name"] == "block")
    bn = next(c for c in block["children"] if c["name"] == "bn")
    assert (bn["cellType"], bn["paramTensors"], bn["paramCount"]) == ("BatchNorm2d", 4, 32)
    assert root["totalOpCount"] == 6


def test_scope_helpers() -> None:
    assert attr_path("Default/block-Block/conv-Conv2d") == "block.conv"
    assert owner_scope("block.conv.weight", {"block.conv": "S", "": "R"}) == "S"
    assert owner_scope("head.weight", {"block.conv": "S", "": "R"}) == "R"
    trees = build_scope_tree(
        [], [CellInfo("", "Net", 0, 0), CellInfo("unused", "Identity", 0, 0)], [], "Net"
    )
    assert trees[0]["children"][0]["path"] == "Default/unused-Identity"


def test_control_flow_document() -> None:
    doc = _doc("control_flow_execute.ir")
    assert doc["meta"]["counts"]["graphs"] == 3
    assert [g["entry"] for g in doc["graphs"]] == [True, False, False]
    assert any(n["opType"] == "Call" for n in doc["nodes"])
    matmul = next(n for n in doc["nodes"] if n["opType"] == "MatMul")
    assert matmul["id"].startswith("1:") and matmul["scope"] == "Default/fc-Dense"


def test_fixture_documents_match_the_schema() -> None:
    schema = load_schema(ROOT / "schemas" / "graph-document.schema.json")
    for name in ("conv_bn_relu_execute.ir", "control_flow_execute.ir"):
        doc = _doc(name)
        doc["meta"]["capture"] = "ir-dump"
        assert validate(doc, schema) == []
