"""Mapping a compile error to the checker's rule code and line."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from mindscope_runtime.errormap import find_rule, map_compile_error, rule_from_message

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


WITH_SET = textwrap.dedent(
    """
    from mindspore import nn


    class TwoFailures(nn.Cell):
        def construct(self, x):
            seen = {1, 2}
            for i in range(3):
                del x
            return x
    """
)


def test_a_range_of_failing_lines_picks_the_error_the_message_names(tmp_path: Path) -> None:
    """MindSpore's `# In file F:6~8` spans lines; the finding whose rule the message names wins
    over another error on those lines (and over a narrower one)."""
    pytest.importorskip("mindscope_ls.checker")
    file = tmp_path / "net.py"
    file.write_text(WITH_SET)
    lines = WITH_SET.splitlines()
    first, last = lines.index("        seen = {1, 2}") + 1, lines.index("            del x") + 1
    found = find_rule("Unsupported statement 'Delete'.", str(file), first, "LAX", end_line=last)
    assert found is not None and (found.code, found.line) == ("MS102", last)
    found = find_rule("Unsupported expression 'Set'.", str(file), first, "LAX", end_line=last)
    assert found is not None and (found.code, found.line) == ("MS111", first)


def test_a_cell_checked_with_context_in_front_keeps_its_own_line_numbers() -> None:
    """The kernel checks a cell with the notebook's imports put in front (`line_offset` lines):
    the lines it gets back are the cell's, and the finding's quick fix comes along."""
    pytest.importorskip("mindscope_ls.checker")
    cell = "class Bad(nn.Cell):\n    def construct(self, x):\n        del x\n        return 1\n"
    context = "from mindspore import nn\n\n"
    found = find_rule(
        "Unsupported statement 'Delete'.", "/tmp/cell-7.py", 3, "LAX",
        source=context + cell, line_offset=2,
    )  # fmt: skip
    assert found is not None and found.source == "checker"
    assert (found.code, found.line, found.end_line) == ("MS102", 3, 3)
    assert found.fix_title == "Remove the `del` statement"


def test_the_syntax_map_is_the_checkers() -> None:
    checker = pytest.importorskip("mindscope_ls.checker")
    for node, code in checker.UNSUPPORTED_SYNTAX.items():
        assert rule_from_message(f"Unsupported statement '{node.__name__}'.") == code
