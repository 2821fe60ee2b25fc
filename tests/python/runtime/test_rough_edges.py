"""Issue 18's rough edges: a scalar constant typed as a scalar, documents honouring the umask,
one warning for a constant default loss, `flagKinds` once each, and a model package that
imports a MindSpore API this MindSpore lacks named in one line."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import Any

import pytest

from mindscope_runtime.atomic import write_json_atomic
from mindscope_runtime.errors import RuntimeToolError
from mindscope_runtime.graphdoc import build_graph_document
from mindscope_runtime.irparse import IRGraph, IRModule, IRNode
from mindscope_runtime.statsflags import Thresholds, flag_all
from mindscope_runtime.targets import load_module

TENSOR: dict[str, Any] = {"kind": "tensor", "dtype": "Float32", "shape": [2, 3]}
TUPLE: dict[str, Any] = {"kind": "tuple", "elements": [{"kind": "scalar", "dtype": "Int64"}]}


def one_node_module(args: list[str], inputs: list[dict[str, Any]]) -> IRModule:
    node = IRNode(graph="g", local_id="%1", debug_name="x", op="PrimFunc_Softmax", args=args,
                  attrs={}, inputs=inputs, outputs=[TENSOR],
                  full_name="Default/Softmax-op0")  # fmt: skip
    return IRModule(entry="g", attrs={}, jit_config={}, params=[],
                    graphs=[IRGraph(name="g", params=[], nodes=[node])])  # fmt: skip


def test_a_scalar_constant_is_a_scalar_whatever_the_type_list_says() -> None:
    doc = build_graph_document(one_node_module(["%0", "I64(-1)"], [TENSOR, TUPLE]), meta={})
    arg = doc["nodes"][0]["inputs"][1]
    assert (arg["type"], arg["dtype"], "elements" in arg) == ("scalar", "Int64", False)


def test_a_one_tuple_constant_stays_a_tuple() -> None:
    doc = build_graph_document(one_node_module(["%0", "(I64(-1))"], [TENSOR, TUPLE]), meta={})
    assert doc["nodes"][0]["inputs"][1]["type"] == "tuple"


@pytest.mark.parametrize(("mask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_documents_honour_the_umask(tmp_path: Path, mask: int, mode: int) -> None:
    old = os.umask(mask)
    try:
        written = write_json_atomic(tmp_path / "doc.json", {"kind": "x"})
    finally:
        os.umask(old)
    assert stat.S_IMODE(written.stat().st_mode) == mode


def zero_gradients(count: int) -> list[dict[str, object]]:
    return [{"parameter": f"p{i}", "scope": "Default", "stats": {"rms": 0.0, "nanCount": 0,
             "infCount": 0}} for i in range(count)]  # fmt: skip


def test_a_constant_default_loss_is_one_warning_naming_the_cause() -> None:
    flags, _ = flag_all([], [], zero_gradients(186), 1.0, Thresholds(), default_loss=True)
    assert [f["kind"] for f in flags] == ["constant-loss"]
    assert "--loss-from" in flags[0]["message"] and "sum of the outputs" in flags[0]["message"]


def test_zero_gradients_under_the_users_loss_are_still_flagged_each() -> None:
    flags, _ = flag_all([], [], zero_gradients(3), 1.0, Thresholds(), default_loss=False)
    assert [f["kind"] for f in flags] == ["vanishing-gradient"] * 3


def test_a_package_importing_a_removed_mindspore_api_is_named_in_one_line(
    tmp_path: Path,
) -> None:
    site = tmp_path / "site-packages" / "oldocr"
    site.mkdir(parents=True)
    (site / "__init__.py").write_text("from mindspore.parallel._transformer import Layer\n")
    model = tmp_path / "model.py"
    model.write_text("import oldocr\n")
    sys.path.insert(0, str(site.parent))
    try:
        with pytest.raises(RuntimeToolError) as caught:
            load_module(model)
    finally:
        sys.path.remove(str(site.parent))
        sys.modules.pop("oldocr", None)
    message = caught.value.message
    assert "\n" not in message
    assert "oldocr imports mindspore.parallel._transformer" in message
    assert "oldocr does not support this MindSpore" in message
