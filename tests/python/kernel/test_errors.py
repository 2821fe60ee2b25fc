"""The kernel's compile-error summary maps through the runtime's one mapper (no kernel here)."""

from __future__ import annotations

import pytest

from mindscope_kernel.errors import Location, advice_for

CELL = "class Bad(nn.Cell):\n    def construct(self, x):\n        del x\n        return 1\n"


def test_a_cell_failure_gets_the_checkers_finding_and_its_fix() -> None:
    """The other cells' imports are put in front for the checker; the line stays the cell's."""
    pytest.importorskip("mindscope_ls.checker")
    advice = advice_for(
        CELL, "/tmp/cell-2.py", Location("/tmp/cell-2.py", 3, 3), "LAX",
        ["from mindspore import nn"], "RuntimeError: Unsupported statement 'Delete'.",
    )  # fmt: skip
    assert advice is not None and advice.code == "MS102"
    assert "del" in advice.message and advice.remedy == "Remove the `del` statement"


def test_with_nothing_found_on_the_lines_mindspores_message_names_the_rule() -> None:
    """The runtime's message fallback now serves the kernel too: the rule's title and remedy."""
    checker = pytest.importorskip("mindscope_ls.checker")
    advice = advice_for(
        "x = 1\n", "/tmp/cell-3.py", Location("/tmp/cell-3.py", 1, 1), "LAX", [],
        "RuntimeError: Unsupported statement 'Try'.",
    )  # fmt: skip
    rule = checker.RULES["MS101"]
    assert advice is not None and advice.code == "MS101"
    assert (advice.message, advice.remedy) == (rule.title, rule.remedy)


def test_an_unknown_failure_has_no_advice() -> None:
    advice = advice_for(
        "x = 1\n", "/tmp/cell-4.py", Location("/tmp/cell-4.py", 1, 1), "LAX", [],
        "For 'Add', the input shapes differ",
    )  # fmt: skip
    assert advice is None
