"""Ops a model file scopes to a called-once Cell instance they cannot be in (oncescopes.py), on
documents shaped as MindSpore 2.10 exports them: the root's `+` after an LSTM named after the
LSTM's first `+`, and an Attention's Mul named after the STN head that first multiplied."""

from __future__ import annotations

from mindscope_runtime.graphdoc import build_graph_document
from tests.python.runtime.test_flowscopes import module, scopes, weights_of


def test_the_roots_add_after_an_lstm_leaves_the_lstm() -> None:
    weights = ["encoder.w", "head.w"]
    p = weights_of(weights)
    rnn = "Default/encoder-LSTM/rnn-Dyn"
    ops = [
        ("LSTM", f"{rnn}/LSTM-op0", ["%para1_x", p("encoder.w")]),
        ("Transpose", "Default/encoder-LSTM/Transpose-op0", ["%1"]),
        ("Squeeze", "Default/Squeeze-op0", ["%2"]),  # the root's, reading the LSTM's output
        ("StridedSlice", "Default/encoder-LSTM/StridedSlice-op0", ["%1"]),
        ("Add", f"{rnn}/Add-op0", ["%3", "%4"]),  # root: squeeze(out) + h[-1]
        ("Add", f"{rnn}/Add-op1", ["%5", "%4"]),
        ("MatMul", "Default/head-Dense/MatMul-op0", ["%6", p("head.w")]),
    ]  # fmt: skip
    doc = build_graph_document(module(ops, weights), meta={})
    assert [s for t, s in scopes(doc) if t == "Add"] == ["Default", "Default"]
    assert scopes(doc)[1] == ("Transpose", "Default/encoder-LSTM")
    assert doc["meta"]["rehomedOps"] == 2


def test_attention_ops_scoped_to_the_stn_head_go_to_the_attention() -> None:
    weights = ["transform.stn.fc.w", "backbone.mixer.qkv.w", "backbone.mixer.proj.w"]
    p = weights_of(weights)
    stn, mixer = "Default/transform-STN_ON/stn-STN", "Default/backbone-Net/mixer-Attention"
    ops = [
        ("MatMul", f"{stn}/fc-Dense/MatMul-op0", ["%para1_x", p("transform.stn.fc.w")]),
        ("Muls", f"{stn}/Muls-op0", ["%1"]),
        ("GridSampler2D", "Default/transform-STN_ON/GridSampler2D-op0", ["%para1_x", "%2"]),
        ("MatMul", f"{mixer}/qkv-Dense/MatMul-op0", ["%3", p("backbone.mixer.qkv.w")]),
        ("Muls", f"{stn}/Muls-op1", ["%4"]),  # q * scale, named after the STN's Mul
        ("MatMulExt", "Default/transform-STN_ON/MatMulExt-op0", ["%5", "%4"]),
        ("Softmax", f"{mixer}/softmax-Softmax/Softmax-op0", ["%6"]),
        ("MatMul", f"{mixer}/proj-Dense/MatMul-op0", ["%7", p("backbone.mixer.proj.w")]),
    ]  # fmt: skip
    doc = build_graph_document(module(ops, weights), meta={})
    assert scopes(doc)[4:6] == [("Muls", mixer), ("MatMulExt", mixer)]
    assert scopes(doc)[1] == ("Muls", stn)  # the STN's own
    assert doc["meta"]["rehomedOps"] == 2


def test_a_cell_called_twice_may_read_what_it_returned() -> None:
    """`self.fc` applied twice with a root op between: its weight is read twice, so nothing
    says the second call's ops are not its own."""
    weights = ["fc.w"]
    p = weights_of(weights)
    ops = [
        ("MatMul", "Default/fc-Dense/MatMul-op0", ["%para1_x", p("fc.w")]),
        ("ReLU", "Default/fc-Dense/ReLU-op0", ["%1"]),
        ("Neg", "Default/Neg-op0", ["%2"]),
        ("MatMul", "Default/fc-Dense/MatMul-op1", ["%3", p("fc.w")]),
        ("ReLU", "Default/fc-Dense/ReLU-op1", ["%4"]),
    ]  # fmt: skip
    doc = build_graph_document(module(ops, weights), meta={})
    assert scopes(doc)[4] == ("ReLU", "Default/fc-Dense")
    assert doc["meta"]["rehomedOps"] == 0


def test_a_weightless_cell_used_twice_keeps_its_ops() -> None:
    """ResNet's `self.relu` after bn1 and after bn2: nothing says it is called once."""
    weights = ["conv1.w", "conv2.w"]
    p = weights_of(weights)
    ops = [
        ("Conv2D", "Default/conv1-Conv2d/Conv2D-op0", ["%para1_x", p("conv1.w")]),
        ("ReLU", "Default/relu-ReLU/ReLU-op0", ["%1"]),
        ("Conv2D", "Default/conv2-Conv2d/Conv2D-op0", ["%2", p("conv2.w")]),
        ("ReLU", "Default/relu-ReLU/ReLU-op1", ["%3"]),
    ]  # fmt: skip
    doc = build_graph_document(module(ops, weights), meta={})
    assert [s for t, s in scopes(doc) if t == "ReLU"] == ["Default/relu-ReLU"] * 2
