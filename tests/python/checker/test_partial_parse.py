"""A file with a half-typed function is still checked everywhere else."""

from __future__ import annotations

from mindscope_ls.checker import Workspace, check_source

GOOD = """\
from mindspore import nn


class Net(nn.Cell):
    def construct(self, x):
        try:
            x = x + 1
        except ValueError:
            pass
        return x
"""
BROKEN = """

def half_typed(x:
    return x
"""


def codes(source: str, report_parse_errors: bool = False) -> list[tuple[str, int]]:
    found = check_source(source, "m.py", report_parse_errors=report_parse_errors)
    return [(f.code, f.line) for f in found]


def test_the_blocks_that_parse_are_checked() -> None:
    assert codes(GOOD + BROKEN) == [("MS101", 6)]
    assert codes(BROKEN + GOOD) == [("MS101", 10)]
    # MS000 names the first error, as `ast.parse` does, next to the other findings.
    assert codes(GOOD + BROKEN, report_parse_errors=True) == [("MS101", 6), ("MS000", 13)]


def test_typing_through_a_broken_state_keeps_the_other_findings() -> None:
    workspace = Workspace()
    steps = [GOOD, GOOD + "\ndef f(x", GOOD + "\ndef f(x):", GOOD + "\ndef f(x):\n    return x\n"]
    for step in steps:
        found = check_source(step, "m.py", workspace=workspace)
        assert [f.code for f in found] == ["MS101"]


def test_a_long_docstring_is_not_a_parse_error() -> None:
    # Column-0 lines inside a string look like block starts; past the block parser's merge limit
    # the whole text decides.
    docstring = '"""Module doc.\n' + "".join(f"line {i} of prose\n" for i in range(20)) + '"""\n'
    assert codes(docstring + GOOD, report_parse_errors=True) == [("MS101", 28)]


def test_a_file_that_does_not_parse_at_all() -> None:
    assert codes("def f(:\n", report_parse_errors=True) == [("MS000", 1)]
    assert codes("def f(:\n") == []


def test_an_open_bracket_does_not_hide_the_blocks_after_it() -> None:
    head, cell = GOOD.split("\n\n\n")
    source = "\n\n\n".join([head, *(cell.replace("Net", f"Net{i}") for i in range(12))])
    typing = source.replace("class Net1(nn.Cell):\n", "class Net1(nn.Cell):\n    y = f(\n")
    assert len(codes(source)) == 12
    workspace = Workspace()
    for text in (source, typing, source):
        found = check_source(text, "m.py", workspace=workspace)
        assert len(found) == (11 if text is typing else 12)
        assert found == check_source(text, "m.py")


def test_carriage_returns_end_lines() -> None:
    assert codes(GOOD.replace("\n", "\r")) == [("MS101", 6)]
    assert codes(GOOD.replace("\n", "\r\n")) == [("MS101", 6)]
