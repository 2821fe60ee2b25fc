"""Namespace listings: the JSON sent is the items' own, lean, and resolve finds their entry."""

from __future__ import annotations

import json

import pytest
from lsprotocol import types
from lsprotocol.converters import get_converter

from mindscope_ls.analysis.apiitems import Listing, entry_of, namespace_items, namespace_json
from mindscope_ls.analysis.hover import resolve_item
from mindscope_ls.catalogue.load import catalogue_for

CAT = catalogue_for("2.10.0")
CONVERTER = get_converter()


@pytest.mark.parametrize("namespace", ["mindspore.ops", "mindspore.nn", "mindspore.Tensor"])
@pytest.mark.parametrize("compiled", [False, True])
def test_the_encoded_listing_is_the_items(namespace: str, compiled: bool) -> None:
    assert CAT is not None
    text = namespace_json(Listing(CAT, namespace, compiled))
    assert text.isascii()  # the Content-Length of a pre-encoded message counts characters
    sent = json.loads(text)
    assert sent["isIncomplete"] is False
    items = namespace_items(CAT, namespace, compiled)
    assert sent["items"] == [CONVERTER.unstructure(item) for item in items]
    assert len(items) == len(CAT.members(namespace) or {})


def test_items_are_lean_and_resolve_adds_where_and_what() -> None:
    assert CAT is not None
    items = {i.label: i for i in namespace_items(CAT, "mindspore.ops", False)}
    matmul = items["matmul"]
    assert matmul.detail is None and matmul.documentation is None
    assert isinstance(matmul.data, int)
    entry = entry_of(CAT, matmul.data)
    assert entry is not None and entry.public == "mindspore.ops.matmul"
    resolved = resolve_item(CAT, CONVERTER.structure(CONVERTER.unstructure(matmul), type(matmul)))
    assert resolved.detail == "ops.matmul"
    assert isinstance(resolved.documentation, types.MarkupContent)
    assert "matmul(input, other)" in resolved.documentation.value


def test_resolve_leaves_foreign_items_alone() -> None:
    assert CAT is not None
    for data in (None, -1, 10**9, True, "x", {"ident": "nope"}, [1]):
        item = types.CompletionItem(label="x", data=data)
        assert resolve_item(CAT, item).documentation is None
    # the form layer-context and older items carry
    entry = CAT.lookup("mindspore.ops.matmul")
    assert entry is not None and entry_of(CAT, {"ident": entry.ident}) == entry
