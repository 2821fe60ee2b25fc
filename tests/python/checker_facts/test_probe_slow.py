"""Slow: the dtype probe measures what Tensor methods return with the real MindSpore."""

from __future__ import annotations

import pytest

import json

from mindscope_ls.checker.facts import DATA
from scripts.checker_facts.build import probe_dtypes, probe_members

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
