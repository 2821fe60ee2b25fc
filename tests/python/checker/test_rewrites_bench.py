"""The corpus rewrites of bench/checker_rewrites.py keep the lines of `construct`'s body, so a
finding's line is comparable between a case and its rewrite."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from bench.checker_rewrites import as_helper, as_inherited, as_sub_cell  # noqa: E402

CASE = """import numpy as np
from mindspore import Tensor, nn


class Net(nn.Cell):
    def construct(self, x, y):
        return x.item() + y


def run():
    return Net()(Tensor(np.ones((1, 1), np.float32)), 2)
"""


def _line_of(source: str, text: str) -> int:
    return next(i for i, line in enumerate(source.splitlines(), 1) if text in line)


def test_helper_moves_the_body_and_returns_it() -> None:
    out = as_helper(CASE)
    assert out is not None
    tree = ast.parse(out)
    methods = [f.name for f in tree.body[2].body]  # type: ignore[attr-defined]
    assert methods == ["_body", "construct"]
    assert "return self._body(x, y)" in out
    assert _line_of(out, "x.item()") == _line_of(CASE, "x.item()")


def test_sub_cell_wraps_the_cell_and_runs_the_outer_one() -> None:
    out = as_sub_cell(CASE)
    assert out is not None
    assert "self.inner = Net()" in out and "return self.inner(x, y)" in out
    assert "return _Outer()(Tensor(" in out
    assert _line_of(out, "x.item()") == _line_of(CASE, "x.item()")


def test_inherited_renames_the_cell_into_a_base() -> None:
    out = as_inherited(CASE)
    assert out is not None
    assert "class _BaseNet(nn.Cell):" in out and "class Net(_BaseNet):" in out
    assert _line_of(out, "x.item()") == _line_of(CASE, "x.item()")


def test_constructs_the_rewrites_cannot_pass_on_are_left_alone() -> None:
    defaults = CASE.replace("def construct(self, x, y):", "def construct(self, x, y=1):")
    assert as_helper(defaults) is None
    assert as_sub_cell(defaults) is None
    assert as_inherited(CASE.replace("def run():", "def other():")) is not None
    assert as_sub_cell(CASE.replace("def run():", "def other():")) is None
