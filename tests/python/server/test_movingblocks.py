"""Blocks that only moved keep their trees (with a shift), and everything read through the
model is what a fresh parse of the text gives."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Optional

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mindscope_ls.analysis.blocks import block_starts
from mindscope_ls.analysis.inference import Api, Inferencer, LocalClass
from mindscope_ls.analysis.movingblocks import MovingBlockParser, block_starts_of
from mindscope_ls.analysis.sourcemodel import SourceModel, _Document
from mindscope_ls.catalogue.load import catalogue_for

REPO = Path(__file__).resolve().parents[3]
MODEL = (REPO / "examples" / "cifar_resnet" / "model.py").read_text(encoding="utf-8")
CAT = catalogue_for("2.10.0")
PIECES = [
    "import os\n",
    "from mindspore import nn\n",
    "x = (\n",
    ")\n",
    '"""\n',
    "def f(x):\n",
    "    return x\n",
    "class A(nn.Cell):\n",
    "    def construct(self, x):\n",
    "        return x\n",
    "if x:\n",
    "else:\n",
    "@dec\n",
    "y = 1 + \\\n",
    "# comment\n",
    "\n",
    "    pass\n",
    "z = nn.Dense(1, 2)\n",
]


def _model(document: _Document, source: str, line: int = -1) -> SourceModel:
    return document.model(source, line)


def _dump(tree: ast.AST) -> str:
    return ast.dump(tree, include_attributes=True)


def test_a_line_added_above_moves_the_blocks_below_without_parsing_them() -> None:
    document = _Document()
    _model(document, MODEL)
    moved = "# a new first line\n" + MODEL
    model = _model(document, moved)
    assert document.parser.parsed <= 1  # only the new comment's block
    assert model.shifts and set(model.shifts.values()) == {1}
    assert _dump(model.tree) == _dump(ast.parse(moved))
    # and back: the old positions come from the same trees
    assert _dump(_model(document, MODEL).tree) == _dump(ast.parse(MODEL))


def test_the_block_a_request_is_about_is_always_where_it_is() -> None:
    document = _Document()
    _model(document, MODEL)
    moved = "\n\n" + MODEL
    line = next(i for i, text in enumerate(moved.split("\n")) if "def construct" in text)
    model = _model(document, moved, line)
    cls, func, shift = model.locate(line + 1)
    assert shift == 0 and func is not None and func.name == "construct"
    assert cls is not None and cls.lineno <= line + 1 <= (cls.end_lineno or 0)


@given(st.lists(st.sampled_from(PIECES), max_size=25), st.data())
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_starts_match_the_block_parser(pieces: list[str], data: st.DataObject) -> None:
    source = "".join(pieces)
    starts, offsets = block_starts_of(source)
    lines = source.split("\n")
    assert starts == block_starts(lines)
    assert offsets == [sum(len(text) + 1 for text in lines[:start]) for start in starts]


@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=25), st.data())
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_edits_read_as_a_fresh_parse(pieces: list[str], data: st.DataObject) -> None:
    document = _Document()
    before = "".join(pieces)
    _model(document, before)
    at = data.draw(st.integers(0, len(pieces)))
    inserted = data.draw(st.lists(st.sampled_from(PIECES), max_size=3))
    removed = data.draw(st.integers(0, 2))
    after = "".join([*pieces[:at], *inserted, *pieces[at + removed :]])
    line = data.draw(st.integers(0, after.count("\n")))
    moved = _model(document, after, line)
    fresh = _model(_Document(), after, line)
    assert _dump(moved.tree) == _dump(fresh.tree)
    assert [moved.start(s) for s in moved.body] == [fresh.start(s) for s in fresh.body]
    assert _located(moved, line + 1) == _located(fresh, line + 1)
    assert moved.imports == fresh.imports or _imports_lines_differ_only(moved, fresh)


def _located(model: SourceModel, line: int) -> tuple[Optional[str], Optional[str], int]:
    cls, func, shift = model.locate(line)
    node = func or cls
    return (
        cls.name if cls else None,
        func.name if func else None,
        node.lineno + shift if node else 0,
    )


def _imports_lines_differ_only(a: SourceModel, b: SourceModel) -> bool:
    """Import.line of a moved block is where it was parsed: only paths must agree."""
    return {k: v.path for k, v in a.imports.items()} == {k: v.path for k, v in b.imports.items()}


def test_names_bound_in_moved_blocks_are_found_in_order() -> None:
    assert CAT is not None
    source = "from mindspore import nn\nlayer = nn.Dense(1, 2)\nclass Net(nn.Cell):\n    pass\n"
    document = _Document()
    _model(document, source + "net = Net()\n")
    moved = "import os\n\n" + source + "net = Net()\n"
    model = _model(document, moved, moved.count("\n"))
    assert model.shifts  # the import and the class moved down two lines
    inferencer = Inferencer(model, CAT)
    scope = inferencer.scope_at(moved.count("\n") + 1)
    layer = inferencer.infer(ast.parse("layer", mode="eval").body, scope)
    assert layer is not None and not isinstance(layer, Api)
    net = inferencer.infer(ast.parse("net", mode="eval").body, scope)
    assert isinstance(net, LocalClass) and net.instance and net.shift == 2
    assert inferencer.is_cell_class(net.node)


SPANNING = '''"""Docstring
with a line in column 0.
"""
import os
x = [
1,
]
@dec
def f():
    s = """
at column 0
"""
    return s
if x:
    pass
else:
    pass
y = 1; z = 2
'''


def test_a_first_parse_is_one_parse_cut_into_the_blocks_parse_would_find() -> None:
    for source in (SPANNING, MODEL, "", "# only a comment\n", "x = 1"):
        seeded = MovingBlockParser().parse(source)
        unseeded_parser = MovingBlockParser()
        unseeded_parser._cache = {"\0": (0, [])}  # something cached: no seeding
        unseeded = unseeded_parser.parse(source)
        assert [(b.start, b.end, b.text) for b in seeded.blocks] == [
            (b.start, b.end, b.text) for b in unseeded.blocks
        ]
        assert [_dump(ast.Module(body=b.body, type_ignores=[])) for b in seeded.blocks] == [
            _dump(ast.Module(body=b.body, type_ignores=[])) for b in unseeded.blocks
        ]


def test_duplicate_blocks_get_their_own_trees() -> None:
    block = "def f():\n    return 1\n"
    parser = MovingBlockParser()
    parser.parse(block)
    result = parser.parse(block + block)
    first, second = result.blocks
    assert first.body[0] is not second.body[0]
    assert second.body[0].lineno + second.shift == 3
