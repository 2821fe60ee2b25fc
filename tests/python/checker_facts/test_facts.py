"""The facts table: its loader, and that it says what MindSpore 2.10's parser sources say."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mindscope_ls.checker.facts import DATA, FACTS, FactsError, load_facts, parse_facts
from scripts.checker_facts.build import installed_mindspore, observed
from scripts.checker_facts.tables import TableError, build_static, converted_builtins


def test_builtins_the_graph_translates_and_those_it_does_not() -> None:
    for name in ("len", "range", "zip", "enumerate", "isinstance", "max", "min", "map", "filter"):
        assert FACTS.builtin_native(name), name
    for name in ("sorted", "reversed", "set", "open", "type"):
        assert not FACTS.builtin_native(name), name
    assert FACTS.constant_folded >= {"len", "max", "min", "any", "all", "type"}


def test_forbidden_apis_in_construct() -> None:
    assert FACTS.forbidden_method("Parameter", "set_data")
    assert FACTS.forbidden_method("Cell", "get_parameters")
    assert FACTS.forbidden_method("Cell", "trainable_params")
    assert not FACTS.forbidden_method("Cell", "construct")
    assert FACTS.forbidden_module("mindspore.common.initializer")
    assert not FACTS.forbidden_module("mindspore.ops")


def test_methods_by_kind() -> None:
    assert FACTS.method_native("list", "append") and FACTS.method_native("dict", "get")
    assert not FACTS.method_native("list", "sort")  # no graph implementation: LAX falls back
    assert FACTS.method_native("tensor", "astype") and FACTS.method_native("tensor", "argmax")
    assert not FACTS.method_native("tensor", "asnumpy")


def test_measured_return_dtypes() -> None:
    assert FACTS.returns("argmax", "float32") == "Tensor[Int64]"
    assert FACTS.returns("isnan", "float32") == "Tensor[Bool]"
    assert FACTS.returns("sum", "float16") == "Tensor[Float16]"
    assert FACTS.returns("no_such_method", "float32") is None


def test_loader_rejects_another_version_and_missing_tables(tmp_path: Path) -> None:
    data = json.loads(DATA.read_text())
    with pytest.raises(FactsError, match="version"):
        parse_facts({**data, "version": 99})
    with pytest.raises(FactsError, match="lacks a table"):
        parse_facts({k: v for k, v in data.items() if k != "methods"})
    broken = tmp_path / "facts.json"
    broken.write_text("{not json")
    with pytest.raises(FactsError, match="cannot read"):
        load_facts(broken)


def test_checked_in_table_is_what_the_installed_mindspore_says() -> None:
    """Fails when MindSpore changed and nobody ran `make facts` (static part only; the dtype
    probe imports MindSpore and is checked by the probe's own test)."""
    root, version = installed_mindspore()
    data = json.loads(DATA.read_text())
    assert data["mindspore"] == version
    fresh = build_static(root)
    for table in ("builtins", "methods", "forbidden_in_graph", "fallback"):
        assert data[table] == fresh[table], table
    assert data["observed"] == observed(), "the generated cases changed: run `make facts`"


def test_a_moved_table_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"resources\.py not found"):
        converted_builtins(tmp_path)


def test_observed_calls_come_from_generated_cases_only() -> None:
    assert FACTS.compiles("len", "tuple_tensors", "STRICT") is True
    assert FACTS.compiles("max", "tuple_tensors", "LAX") is False
    assert FACTS.compiles("list_sort", "statement", "LAX") is True
    assert FACTS.compiles("list_sort", "statement", "STRICT") is False
    # all__mutable_ints__construct is in the held-out slice: rules must not learn from it
    assert FACTS.compiles("all", "mutable_ints", "LAX") is None


def test_graph_members_are_members_compiled_at_both_levels() -> None:
    """Every compiled Parameter / sub-Cell member is one the members table lists, measured at
    LAX and STRICT (probe_graph_members.py): what MS155 and MS130 read instead of hand lists."""
    for kind in ("parameter", "cell"):
        table = FACTS.graph_members[kind]
        assert table, kind
        for name, levels in table.items():
            assert FACTS.member(kind, name) is not None, (kind, name)
            assert set(levels) == {"LAX", "STRICT"}
            assert set(levels.values()) <= {"ok", "refused", "fails", "other"}
    assert FACTS.graph_member("parameter", "name", "LAX") == "refused"
    assert FACTS.graph_member("parameter", "shape", "STRICT") == "ok"
    assert FACTS.graph_member("cell", "training", "COMPATIBLE") == "ok"
    assert FACTS.graph_member("cell", "cells_and_names", "LAX") == "fails"
