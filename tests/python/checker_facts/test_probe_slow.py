"""Slow: the dtype probe measures what Tensor methods return with the real MindSpore."""

from __future__ import annotations

import json

import pytest

from mindscope_ls.checker.facts import DATA
from scripts.checker_facts.build import (
    probe_cpu_mint,
    probe_cpu_overloads,
    probe_dtypes,
    probe_graph_members,
    probe_members,
)

pytestmark = pytest.mark.slow


def test_probe_measures_return_dtypes() -> None:
    pytest.importorskip("mindspore")
    got = probe_dtypes(["argmax", "isnan", "sort", "add_", "no_such_method"])
    assert got["argmax"]["float32"] == "Tensor[Int64]"
    assert got["isnan"]["float16"] == "Tensor[Bool]"
    assert got["sort"]["float32"] == "tuple[Tensor[Float32], Tensor[Int32]]"
    assert "add_" not in got and "no_such_method" not in got  # in-place: never called blind


def test_members_table_is_what_the_installed_mindspore_has() -> None:
    """Fails when MindSpore changed and nobody ran `make facts`."""
    pytest.importorskip("mindspore")
    got = probe_members()
    assert json.loads(DATA.read_text())["members"] == got
    assert got["parameter"]["name"] == "property" and got["cell"]["training"] == "attribute"
    assert got["cell"]["cells_and_names"] == "method" and got["tensor"]["shape"] == "property"


def test_graph_members_table_agrees_with_a_fresh_compile() -> None:
    """A sample of the compiled table (`graph_members`), compiled again with the installed
    MindSpore: a Parameter's refused and readable members, a sub-Cell's readable flag, a
    method whose own code graph mode cannot compile, a Tensor member STRICT refuses and a
    Tensor method graph mode has no registration for."""
    pytest.importorskip("mindspore")
    sample = {
        "parameter": {"name": "property", "shape": "property"},
        "cell": {"training": "attribute", "cells_and_names": "method"},
        "tensor": {"stride": "method", "diag": "method", "shape": "property"},
    }
    got = probe_graph_members(sample)
    table = json.loads(DATA.read_text())["graph_members"]
    for kind, names in sample.items():
        for name in names:
            assert got[kind][name] == table[kind][name], (kind, name)
    assert got["tensor"]["stride"] == {"LAX": "ok", "STRICT": "refused"}
    for name in ("stride", "diag"):  # methods are called too
        assert got["tensor_call"][name] == table["tensor_call"][name], name
    assert got["tensor_call"]["diag"] == {"LAX": "unregistered", "STRICT": "unregistered"}
    # a Tensor member graph mode runs on a Tensor at LAX but refuses on a Parameter
    for name in ("stride", "diag"):
        assert got["parameter_tensor"][name] == table["parameter_tensor"][name], name
    assert got["parameter_tensor"]["stride"]["LAX"] == "refused"
    assert "shape" not in got["parameter_tensor"]  # the Parameter's own property: "parameter"


def test_cpu_overloads_table_agrees_with_a_fresh_run() -> None:
    """`cumsum(dim=...)` runs in PyNative on CPU and compiles to CumsumExt, which has no CPU
    kernel; `mean(dim=...)` compiles to an op that has one."""
    pytest.importorskip("mindspore")
    got = probe_cpu_overloads({"tensor": {"cumsum": "method", "mean": "method"}})
    table = json.loads(DATA.read_text())["cpu_overloads"]
    assert got == {"cumsum": table["cumsum"]}
    assert got["cumsum"]["op"] == "CumsumExt"


def test_cpu_mint_rows_agree_with_a_fresh_run() -> None:
    """`mint.diff(x)` runs in PyNative on CPU and compiles to an op without a CPU kernel; the
    table's `mint.` rows are what probe_cpu_mint.py finds now."""
    pytest.importorskip("mindspore")
    got = probe_cpu_mint()
    table = json.loads(DATA.read_text())["cpu_overloads"]
    assert got == {k: v for k, v in table.items() if k.startswith("mint.")}
    assert "mint.diff" in got
