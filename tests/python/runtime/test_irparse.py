"""The IR parser on real `*_execute_*.ir` dumps of MindSpore 2.10 (see fixtures/README.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mindscope_runtime.irparse import (
    find_execute_ir,
    parse_ir,
    parse_ir_file,
    parse_node_attrs,
    parse_node_head,
)
from mindscope_runtime.irvalues import (
    parse_abstract,
    parse_location,
    parse_signature,
    parse_value,
    split_top,
)

FIXTURES = Path(__file__).parent / "fixtures" / "ir"


def test_split_top_respects_brackets_and_quotes() -> None:
    assert split_top("a, (b, c), [d, e], {f: g}, \"h, i\"") == [
        "a", "(b, c)", "[d, e]", "{f: g}", '"h, i"'
    ]  # fmt: skip
    assert split_top("") == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I64(1)", 1),
        ("Bool(0)", False),
        ("F32(1e-05)", 1e-05),
        ("(3, 3)", [3, 3]),
        ("[x, w]", ["x", "w"]),
        ('"NCHW"', "NCHW"),
        ("None", None),
        ("Tensor(shape=[], dtype=Float32, value=0)", "Tensor(shape=[], dtype=Float32, value=0)"),
    ],
)
def test_parse_value(text: str, value: object) -> None:
    assert parse_value(text) == value


def test_parse_abstract_kinds() -> None:
    assert parse_abstract("<Tensor[Float32], (2, 3, 8, 8)>") == {
        "kind": "tensor", "dtype": "Float32", "shape": [2, 3, 8, 8]
    }  # fmt: skip
    ref = parse_abstract("<Ref[Tensor[Float32]], (8), ref_key=block.bn.gamma, is_parameter>")
    assert ref == {"kind": "tensor", "dtype": "Float32", "shape": [8], "ref": True}
    assert parse_abstract("<Tensor[Float32], (), value=...>")["shape"] == []
    assert parse_abstract("<UMonad, NoShape>") == {"kind": "monad", "dtype": "UMonad"}
    assert parse_abstract("<Int64, NoShape>") == {"kind": "scalar", "dtype": "Int64"}
    assert parse_abstract("<Func, NoShape>") == {"kind": "func"}


def test_parse_abstract_tuples() -> None:
    five = parse_abstract(
        "<Tuple[Tensor[Float32]*5], TupleShape((2, 8, 8, 8), (8), (8), (8), (8))>"
    )
    assert five["kind"] == "tuple"
    assert [e["shape"] for e in five["elements"]] == [[2, 8, 8, 8], [8], [8], [8], [8]]
    mixed = parse_abstract(
        "<Tuple[Tensor[Float32],Int64], TupleShape((2, 4), NoShape), "
        "elements_use_flags={[const vector]{1, 1}}>"
    )
    assert mixed["elements"] == [
        {"kind": "tensor", "dtype": "Float32", "shape": [2, 4]},
        {"kind": "scalar", "dtype": "Int64"},
    ]


def test_parse_signature() -> None:
    inputs, outputs = parse_signature(
        ": (<Tensor[Float32], (2, 3, 8, 8)>, <Tensor[Float32], (8, 3, 3, 3)>) "
        "-> (<Tensor[Float32], (2, 8, 8, 8)>)"
    )
    assert [i["shape"] for i in inputs] == [[2, 3, 8, 8], [8, 3, 3, 3]]
    assert outputs[0]["shape"] == [2, 8, 8, 8]
    assert parse_signature(": (<Tensor[Float32], (2, 10)>)") == (
        [], [{"kind": "tensor", "dtype": "Float32", "shape": [2, 10]}]
    )  # fmt: skip


def test_parse_location_variants() -> None:
    loc = parse_location("# In file /tmp/exp/net.py:12, 33~45/        return self.relu(x)/")
    assert loc is not None
    assert (loc.file, loc.line, loc.end_line, loc.column, loc.end_column) == (
        "/tmp/exp/net.py", 12, 12, 33, 45
    )  # fmt: skip
    assert loc.code == "return self.relu(x)"
    shared = parse_location(
        "# In file /a/b.py:21, 12~22/        y = self.block(x)/<~~This line of code can be "
        "shared by multiple nodes, and may be duplicated./"
    )
    assert shared is not None and shared.code == "y = self.block(x)"
    no_column = parse_location("# In file /m/array_func.py:1698~1801/def flatten(input):/")
    assert no_column is not None
    assert (no_column.line, no_column.end_line, no_column.column) == (1698, 1801, None)
    assert parse_location("# Fullname with scope: (Default/Load-op0)") is None


def test_parse_node_head_and_attrs() -> None:
    head = parse_node_head(
        "Conv2D(%para1_x, %0) {instance name: conv2d} primitive_attrs: {kernel_size: (3, 3), "
        'format: "NCHW"} cnode_attrs: {checkpoint: Bool(1)}'
    )
    assert head is not None
    op, args, attrs = head
    assert (op, args) == ("Conv2D", ["%para1_x", "%0"])
    assert attrs == {
        "instance_name": "conv2d",
        "primitive_attrs": {"kernel_size": [3, 3], "format": "NCHW"},
        "cnode_attrs": {"checkpoint": True},
    }
    call = parse_node_head("%4[@FuncUnion(@a, @b)]()")
    assert call == ("%4[@FuncUnion(@a, @b)]", [], {})
    assert parse_node_attrs("") == {}


def test_conv_bn_relu_module() -> None:
    module = parse_ir_file(FIXTURES / "conv_bn_relu_execute.ir")
    assert module.entry == "41_1_net_Net_construct_200"
    assert module.jit_config["debug_level"] == "RELEASE"
    assert [p.name for p in module.params][:2] == ["x", "block.conv.weight"]
    assert [p.is_weight for p in module.params][:2] == [False, True]
    (graph,) = module.graphs
    assert len(graph.nodes) == 18  # "Total number of cnodes: 18"
    conv = next(n for n in graph.nodes if n.op == "Conv2D")
    assert conv.full_name == "Default/block-Block/conv-Conv2d/Conv2D-op0"
    assert conv.outputs == [{"kind": "tensor", "dtype": "Float32", "shape": [2, 8, 8, 8]}]
    assert conv.attrs["primitive_attrs"]["pad_list"] == [1, 1, 1, 1]
    assert conv.source[0].file.endswith("net.py")
    assert graph.nodes[-1].op == "Return" and graph.nodes[-1].local_id is None


def test_control_flow_module_has_three_subgraphs() -> None:
    module = parse_ir_file(FIXTURES / "control_flow_execute.ir")
    assert len(module.graphs) == 3
    true_branch = module.graphs[1]
    assert true_branch.params == ["%para4_fc.bias", "%para5_fc.weight", "%para6_x", "%para7_u"]
    typed = {p.id: p for p in module.params}
    assert typed["%para6_x"].abstract["shape"] == [2, 4]
    assert typed["%para5_fc.weight"].is_weight
    call = module.graphs[0].nodes[5]
    assert call.op.startswith("%4[@FuncUnion(")


def test_wrapped_node_lines_are_joined() -> None:
    text = (
        "# IR entry: @g\n"
        "subgraph @g() {\n"
        "  %0(a) = Add(%para1_x, Tensor(shape=[2], dtype=Float32, value=[1,\n"
        "  2])) cnode_attrs: {checkpoint: Bool(1)}\n"
        "      : (<Tensor[Float32], (2)>, <Tensor[Float32], (2)>) -> (<Tensor[Float32], (2)>)\n"
        "      # Fullname with scope: (Default/Add-op0)\n"
        "}\n"
    )
    (graph,) = parse_ir(text).graphs
    (node,) = graph.nodes
    assert node.op == "Add" and len(node.args) == 2
    assert node.full_name == "Default/Add-op0"


def test_find_execute_ir_picks_the_execute_dump(tmp_path: Path) -> None:
    for name in (
        "23_task_emit_0096.ir",
        "24_execute_0097.ir",
        "opt_pass_0_py_interpret_to_execute_0014.ir",
    ):
        (tmp_path / name).write_text("")
    found = find_execute_ir(tmp_path)
    assert found is not None and found.name == "24_execute_0097.ir"
    assert find_execute_ir(tmp_path / "missing") is None
