"""Mapping a compile error to the checker's rule code and line."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from mindscope_runtime.errormap import map_compile_error, rule_from_message

SOURCE = textwrap.dedent(
    """
    from mindspore import nn


    class NoTry(nn.Cell):
        def construct(self, x):
            try:
                y = x + 1
            except ValueError:
                y = x
            return y
    """
)


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ("Unsupported statement 'Try'.", "MS101"),
        ("Unsupported statement 'Delete'.", "MS102"),
        ("Unsupported expression 'Set'.", "MS111"),
        ("Unsupported expression 'NamedExpr'.", "MS106"),
        ("The local variable 'y' is not defined in false branch, but defined in true branch.",
         "MS113"),
        ("For 'Add', something else entirely", None),
    ],
)  # fmt: skip
def test_rule_from_mindspore_message(message: str, code: str | None) -> None:
    assert rule_from_message(message) == code


def test_checker_finding_on_the_failing_line(tmp_path: Path) -> None:
    pytest.importorskip("mindscope_ls.checker")
    file = tmp_path / "net.py"
    file.write_text(SOURCE)
    line = SOURCE.splitlines().index("        try:") + 1
    rule = map_compile_error("Unsupported statement 'Try'.", str(file), line, "LAX")
    assert rule is not None and rule["source"] == "checker"
    assert rule["code"] == "MS101" and rule["line"] == line
    assert rule["doc"].endswith("MS101.md") and rule["message"]


def test_without_the_checker_the_message_still_maps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "mindscope_ls.checker", None)  # import now fails
    file = tmp_path / "net.py"
    file.write_text(SOURCE)
    rule = map_compile_error("Unsupported statement 'Try'.", str(file), 7, "LAX")
    assert rule == {"code": "MS101", "message": None, "doc": "docs/rules/MS101.md", "line": 7,
                    "column": None, "endLine": 7, "endColumn": None, "severity": "error",
                    "source": "message"}  # fmt: skip
    assert map_compile_error("some other failure", str(file), 7) is None
    assert map_compile_error("Unsupported statement 'Try'.", None, None)["code"] == "MS101"  # type: ignore[index]
