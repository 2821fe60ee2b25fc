"""The completion function on its own: positions, broken code, item conversion."""

from __future__ import annotations

from lsprotocol import types

from mindscope_ls.analysis.completion import complete


def test_local_names_complete_with_kinds() -> None:
    source = "def forward(x):\n    return x\n\nfor\n"
    items = {item.label: item for item in complete(source, 3, 3, None)}
    assert items["for"].kind == types.CompletionItemKind.Keyword


def test_function_kind_and_order_is_kept() -> None:
    source = "def forward(x):\n    return x\n\nforw"
    items = complete(source, 3, 4, None)
    assert [i.label for i in items] == ["forward"]
    assert items[0].kind == types.CompletionItemKind.Function
    assert items[0].sort_text == "00000"


def test_positions_outside_the_source_return_nothing() -> None:
    assert complete("x = 1\n", 99, 0, None) == []
    # A column past the end of a line is clamped.
    labels = [i.label for i in complete("import os\nos.pat", 1, 500, None)]
    assert labels[0] == "path" and "pathsep" in labels


def test_syntax_errors_do_not_raise() -> None:
    for source in ["def (", "class :\n  x.", "\x00\x01", "(" * 500, "'''"]:
        complete(source, 0, len(source), None)
