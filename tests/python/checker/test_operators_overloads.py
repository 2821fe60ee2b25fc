"""The operator overload table the facts read from MindSpore's multitype_ops sources."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mindscope_ls.checker.facts import DATA, FACTS
from scripts.checker_facts.build import installed_mindspore
from scripts.checker_facts.overloads import OverloadError, operator_overloads, registered


def test_checked_in_overloads_are_what_the_installed_mindspore_registers() -> None:
    root, _ = installed_mindspore()
    data = json.loads(DATA.read_text())
    assert data["operator_overloads"] == operator_overloads(root), "run `make facts`"


def test_overloads_by_operand_types() -> None:
    assert FACTS.overloaded("==", "Tensor", "None") is True
    assert FACTS.overloaded("==", "Tensor", "String") is False  # LAX falls back, STRICT fails
    assert FACTS.overloaded("!=", "Tensor", "Tuple") is False
    assert FACTS.overloaded("+", "Tensor", "Tuple") is True
    assert FACTS.overloaded("+", "None", "Number") is False
    assert FACTS.overloaded("getitem", "Tensor", "Ellipsis") is True
    assert FACTS.overloaded("no such operator", "Tensor") is None


def test_registered_reads_only_the_named_graph() -> None:
    import ast

    tree = ast.parse(
        "@add.register('Tensor', 'Number')\ndef _a(x, y): pass\n"
        "@_add_backward.register('None', 'None')\ndef _b(x, y): pass\n"
    )
    assert registered(tree, "add") == [["Tensor", "Number"]]


def test_a_moved_implementation_is_a_clear_error(tmp_path: Path) -> None:
    moved = r"cannot read ops/composite/multitype_ops/add_impl\.py"
    with pytest.raises(OverloadError, match=moved):
        operator_overloads(tmp_path)
