"""A 100,000-line file (issue 19): a block far down is parsed on its own, not behind tens of
thousands of newlines (which made a cold parse of the file cost ~11 s of CPU, ~3 s since), with
the same line numbers, errors included."""

from __future__ import annotations

import ast

import pytest

from mindscope_ls.analysis import blocks
from mindscope_ls.analysis.blocks import BlockError, parse_at, parse_text
from mindscope_ls.analysis.movingblocks import MovingBlockParser

BLOCK = "class Net(nn.Cell):\n    def construct(self, x):\n        return x + 1\n"


@pytest.mark.parametrize("start", [0, 5, blocks.NEWLINES_UP_TO, 50_000])
def test_lines_are_the_files(start: int) -> None:
    body = parse_at(start, BLOCK).body
    reference = ast.parse("\n" * start + BLOCK).body
    assert ast.dump(body[0], include_attributes=True) == ast.dump(
        reference[0], include_attributes=True
    )
    broken = parse_text(start, "def f(:\n    pass\n", "x.py")
    assert isinstance(broken, BlockError) and broken.line == start + 1


def test_a_far_block_is_parsed_without_the_lines_above(monkeypatch: pytest.MonkeyPatch) -> None:
    read: list[int] = []
    parse = ast.parse

    def counting(source: str, filename: str = "<unknown>") -> ast.Module:
        read.append(len(source))
        return parse(source, filename=filename)

    # A file of 8,000 blocks that does not parse as a whole: each block is parsed alone.
    text = "x = (\n" + "".join(BLOCK.replace("Net", f"Net{i}") for i in range(8_000))
    monkeypatch.setattr(ast, "parse", counting)
    result = MovingBlockParser().parse(text)
    assert len(result.blocks) > 7_900 and result.errors  # the broken one merged a few
    assert result.blocks[-1].body[0].lineno == text.count("\n") - 2
    # Before: ~100,000,000 characters read (every block behind its newlines); now ~the file.
    assert sum(read) < 3 * len(text) + blocks.NEWLINES_UP_TO * 1000
