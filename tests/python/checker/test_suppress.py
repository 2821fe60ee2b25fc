"""`# mindscope: ignore[...]` comments."""

from __future__ import annotations

from mindscope_ls.checker import check_source, suppressed
from mindscope_ls.checker.suppress import parse_suppressions

SRC = """from mindspore import nn
class Net(nn.Cell):
    def construct(self, x):
        s = {1}{comment}
        del s
        return x
"""


def codes(comment: str) -> list[str]:
    return [f.code for f in check_source(SRC.replace("{comment}", comment), "m.py")]


def test_ignore_specific_code() -> None:
    assert codes("") == ["MS111", "MS102"]
    assert codes("  # mindscope: ignore[MS111]") == ["MS102"]
    assert codes("  # mindscope: ignore[ms102, MS111]") == ["MS102"]  # only this line's findings
    assert codes("  # mindscope: ignore[MS999]") == ["MS111", "MS102"]


def test_ignore_everything_on_line_and_in_file() -> None:
    assert codes("  # mindscope: ignore") == ["MS102"]
    assert codes("  # mindscope: ignore-file[MS102]") == ["MS111"]
    assert codes("  # mindscope:ignore-file") == []


def test_suppressed_splits_findings() -> None:
    source = SRC.replace("{comment}", "")
    findings = check_source(source, "m.py")
    lines = source.replace("{1}", "{1}  # mindscope: ignore[MS111]").splitlines()
    kept, dropped = suppressed(findings, lines)
    assert [f.code for f in kept] == ["MS102"] and [f.code for f in dropped] == ["MS111"]


def test_parse_suppressions() -> None:
    rules = parse_suppressions(["x = 1  # mindscope: ignore[MS101,MS102]", "# nothing"])
    assert rules.by_line == {1: {"MS101", "MS102"}}
