"""Quick fixes: the edit removes the finding and leaves valid Python (compiling: test_mindspore)."""

from __future__ import annotations

import ast
import textwrap

import pytest

from mindscope_ls.checker import check_source

from .harness import apply_all_fixes, apply_fix, case_files

CELL_HEAD = "from mindspore import nn\nclass N(nn.Cell):\n    def construct(self, x):\n"

FIXABLE = [
    "MS102_bad",
    "MS104_bad",
    "MS110_bad",
    "MS110_break_bad",
    "MS111_bad",
    "MS118_bad",
    "MS303_bad",
    "MS401_bad",
    "MS402_bad",
]


@pytest.mark.parametrize("name", FIXABLE)
def test_fix_removes_finding(name: str) -> None:
    (case,) = case_files(name)
    source = case.read_text()
    findings = check_source(source, str(case))
    assert findings and all(f.fix is not None for f in findings)
    fixed = apply_all_fixes(source, findings)
    ast.parse(fixed)
    assert check_source(fixed, str(case)) == []


def test_set_fix_only_for_distinct_constants() -> None:
    src = (
        "from mindspore import nn\nclass N(nn.Cell):\n    def construct(self, x):\n        {body}\n"
    )
    for body, fixed in [
        ("a = {1}", "a = (1,)"),
        ("a = {'a', 'b'}", "a = ('a', 'b')"),
        ("a = {1, 1}", None),
        ("a = {x, 1}", None),
        ("a = {1, True}", None),
    ]:
        (finding,) = check_source(src.format(body=body), "m.py")
        if fixed is None:
            assert finding.fix is None, body
            continue
        assert finding.fix is not None
        assert fixed in apply_fix(src.format(body=body), finding.fix)


def test_loop_else_fix_skips_inline_break() -> None:
    src = textwrap.dedent("""
    from mindspore import nn
    class N(nn.Cell):
        def construct(self, x):
            for i in range(3):
                if i: break
            else:
                x = x + 1
            return x
    """)
    (finding,) = check_source(src, "m.py")
    assert finding.code == "MS110" and finding.fix is None


def test_fix_columns_with_unicode() -> None:
    src = CELL_HEAD + '        a = ("é", {1, 2})\n        return x\n'
    (finding,) = check_source(src, "m.py")
    assert finding.fix is not None
    assert '("é", (1, 2))' in apply_fix(src, finding.fix)
