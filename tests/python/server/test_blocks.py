"""The incremental block parser gives exactly the tree `ast.parse` gives, and reuses blocks."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mindscope_ls.analysis.blocks import BlockParser, block_starts, parse_or_none

REPO = Path(__file__).resolve().parents[3]
MODEL = (REPO / "examples" / "cifar_resnet" / "model.py").read_text(encoding="utf-8")

TRICKY = '''"""Module docstring
with a column-0 line inside it.
"""
import mindspore as ms
from mindspore import (
    nn,
    ops,
)

x = [
1,
2,
]

if x:
    y = 1
else:
    y = 2

try:
    import numpy
except ImportError:
    numpy = None
finally:
    pass

@ms.jit
@other
def step(x):
    s = """text
at column 0
"""
    return x

total = 1 + \\
2

class Net(nn.Cell):
    def construct(self, x):
        return x
'''


def _same(source: str) -> None:
    expected = ast.dump(ast.parse(source), include_attributes=True)
    parser = BlockParser()
    assert ast.dump(parser.parse(source), include_attributes=True) == expected
    # and again from a warm cache
    assert ast.dump(parser.parse(source), include_attributes=True) == expected


@pytest.mark.parametrize("source", [TRICKY, MODEL, "", "\n\n# only a comment\n", "x = 1"])
def test_tree_equals_ast_parse(source: str) -> None:
    _same(source)


def test_closing_brackets_and_continuations_do_not_start_blocks() -> None:
    lines = TRICKY.split("\n")
    starts = {lines[i].split()[0] if lines[i].split() else "" for i in block_starts(lines)}
    assert not starts & {")", "]", "else:", "except", "finally:", "def"}
    assert "@ms.jit" in starts


def test_only_the_edited_block_is_parsed_again() -> None:
    parser = BlockParser()
    parser.parse(MODEL)
    blocks = parser.parsed + parser.reused
    assert parser.parsed == 0  # a cold file is parsed whole, its blocks seeded from that tree
    assert blocks > 5
    edited = MODEL.replace("-> ms.Tensor:", "-> ms.Tensor:  # edited", 1)
    assert edited != MODEL
    tree = parser.parse(edited)
    assert parser.parsed == 1
    assert parser.reused == blocks - 1
    assert ast.dump(tree, include_attributes=True) == ast.dump(
        ast.parse(edited), include_attributes=True
    )


def test_blocks_that_moved_keep_their_trees_renumbered() -> None:
    """Enter above a block moves it: its nodes are kept (the checker's caches are keyed by
    them) and their lines re-numbered, to the tree `ast.parse` gives; and back again."""
    parser = BlockParser()
    before = parser.parse(MODEL)
    lines = MODEL.split("\n")
    first = block_starts(lines)[1]  # below the first block: every later block moves
    moved = "\n".join([*lines[:first], "", "# new", *lines[first:]])
    last = before.body[-1]
    for text in (moved, MODEL, moved):
        tree = parser.parse(text)
        assert ast.dump(tree, include_attributes=True) == ast.dump(
            ast.parse(text), include_attributes=True
        )
        assert parser.parsed <= 1
        assert parser.moved > 5
        assert tree.body[-1] is last


def test_the_same_block_twice_gets_two_trees() -> None:
    block = "def f(x):\n    return x\n"
    parser = BlockParser()
    parser.parse(block)
    tree = parser.parse(block + "\n" + block)
    assert tree.body[0] is not tree.body[1]
    assert ast.dump(tree, include_attributes=True) == ast.dump(
        ast.parse(block + "\n" + block), include_attributes=True
    )


def test_invalid_text_raises_what_ast_parse_raises() -> None:
    source = MODEL.replace("(self, x: ms.Tensor)", "(self, x: ms.Tensor", 1)
    assert source != MODEL
    with pytest.raises(SyntaxError) as ours:
        BlockParser().parse(source)
    with pytest.raises(SyntaxError) as theirs:
        ast.parse(source)
    assert (ours.value.msg, ours.value.lineno) == (theirs.value.msg, theirs.value.lineno)
    assert parse_or_none(BlockParser(), source) is None


def test_a_broken_block_leaves_the_others_parsed() -> None:
    source = "import os\n\ndef f(x):\n    y = x.\n\nclass A:\n    pass\n"
    result = BlockParser().parse_blocks(source)
    assert not result.complete
    assert [type(n).__name__ for n in result.tree.body] == ["Import", "ClassDef"]
    (error,) = result.errors
    assert (error.start, error.line) == (2, 4)
    assert result.tree.body[1].lineno == 6


def test_an_unclosed_bracket_does_not_merge_without_end() -> None:
    # every block after an unclosed bracket fails too: merging is capped, nothing hangs
    source = "x = foo(\n" + "".join(f"def f{i}():\n    return {i}\n" for i in range(50))
    result = BlockParser().parse_blocks(source)
    assert not result.complete
    assert any(isinstance(n, ast.FunctionDef) for n in result.tree.body)


_PIECES = [
    "import os\n",
    "x = (\n",
    ")\n",
    "1,\n",
    '"""\n',
    "'''\n",
    "def f(x):\n",
    "    return x\n",
    "class A:\n",
    "    pass\n",
    "if x:\n",
    "else:\n",
    "@dec\n",
    "y = 1 + \\\n",
    "# comment\n",
    "\n",
    "elsewhere = 1\n",
    "try:\n",
    "except E:\n",
    "    s = '''a\n",
    "b'''\n",
    "\tz = 2\n",
    "\f\n",
    "w = 3\r\n",
    "v = 4\r",
]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_PIECES), max_size=25), st.lists(st.sampled_from(_PIECES)))
def test_random_texts_parse_as_ast_parse_does(first: list[str], edit: list[str]) -> None:
    """Any text: the same tree as ast.parse or a SyntaxError as ast.parse; also after an edit
    on a warm parser (the cache must never leak a stale block)."""
    parser = BlockParser()
    for source in ("".join(first), "".join(first[:3] + edit + first[3:])):
        try:
            expected = ast.dump(ast.parse(source), include_attributes=True)
        except SyntaxError:
            assert parse_or_none(parser, source) is None
            continue
        assert ast.dump(parser.parse(source), include_attributes=True) == expected
