"""Catalogue entries and the file's own Cell attributes as LSP completion items."""

from __future__ import annotations

import ast
from functools import lru_cache
from typing import Any, NamedTuple, Optional

import attrs
from lsprotocol import types
from lsprotocol.converters import get_converter

from mindscope_ls.catalogue.model import Catalogue, Entry
from mindscope_ls.inference import Api, Inferencer, Instance, LocalClass, Value

KIND = {
    "module": types.CompletionItemKind.Module,
    "class": types.CompletionItemKind.Class,
    "function": types.CompletionItemKind.Function,
    "method": types.CompletionItemKind.Method,
    "property": types.CompletionItemKind.Property,
    "constant": types.CompletionItemKind.Constant,
}
NOT_IN_GRAPH = "not in graph mode"
DEPRECATED = "deprecated"
_DETAIL_WIDTH = 48
_CONVERTER = get_converter()


def short_name(public: str) -> str:
    """`mindspore.nn.Conv2d` -> `nn.Conv2d`; `mindspore.Tensor` -> `Tensor`."""
    return public[len("mindspore.") :] if public.startswith("mindspore.") else public


def describe(value: Optional[Value]) -> Optional[str]:
    """A type as a user writes it, for `self.conv1: nn.Conv2d`."""
    if isinstance(value, Instance):
        return short_name(value.cls.public)
    if isinstance(value, LocalClass) and value.instance:
        return value.node.name
    if isinstance(value, Api):
        return short_name(value.entry.public)
    return None


def entry_item(name: str, entry: Entry, compiled: bool, group: int = 0) -> types.CompletionItem:
    """One member: deprecated and (in compiled code) graph-unusable APIs rank last, tagged."""
    notes: list[str] = []
    tags: list[types.CompletionItemTag] = []
    if compiled and entry.graph is False:
        group += 3
        notes.append(NOT_IN_GRAPH)
    if entry.is_deprecated:
        group += 6
        tags.append(types.CompletionItemTag.Deprecated)
        notes.append(DEPRECATED)
    signature = entry.signature or ""
    if len(signature) > _DETAIL_WIDTH:
        signature = signature[: _DETAIL_WIDTH - 2] + "…)"
    return types.CompletionItem(
        label=name,
        kind=KIND.get(entry.kind, types.CompletionItemKind.Value),
        tags=tags or None,
        label_details=types.CompletionItemLabelDetails(
            detail=signature or None, description=", ".join(notes) or None
        ),
        detail=short_name(entry.public),
        sort_text=f"{group:02d}{name.lower()}",
        data={"ident": entry.ident},
    )


class Listing(NamedTuple):
    """A namespace's members as offered in one context (inside compiled code or not)."""

    cat: Catalogue
    namespace: str
    compiled: bool


def namespace_items(cat: Catalogue, namespace: str, compiled: bool) -> list[types.CompletionItem]:
    """The members of a namespace; built once per (catalogue, namespace, context)."""
    return list(_namespace_items(cat, namespace, compiled))


@lru_cache(maxsize=64)
def namespace_json(listing: Listing) -> tuple[dict[str, Any], ...]:
    """The same items as JSON-ready dicts, serialized once: `ops.` lists ~1,500 of them."""
    return tuple(_CONVERTER.unstructure(item) for item in _namespace_items(*listing))


@lru_cache(maxsize=64)
def _namespace_items(
    cat: Catalogue, namespace: str, compiled: bool
) -> tuple[types.CompletionItem, ...]:
    items = []
    for name, ident in (cat.members(namespace) or {}).items():
        entry = cat.entry(ident)
        if entry is not None:
            items.append(entry_item(name, entry, compiled))
    return tuple(items)


def self_items(
    inferencer: Inferencer, node: ast.ClassDef, compiled: bool
) -> list[types.CompletionItem]:
    """`self.`: attributes set in the methods (typed), the class's methods, then Cell's API."""
    items: dict[str, types.CompletionItem] = {}
    for name in inferencer.self_attributes(node):
        value = inferencer.attribute_value(node, name)
        kind = types.CompletionItemKind.Field
        items[name] = types.CompletionItem(
            label=name,
            kind=kind,
            detail=describe(value),
            label_details=types.CompletionItemLabelDetails(description=describe(value)),
            sort_text=f"00{name.lower()}",
            insert_text=name,
        )
    for stmt in node.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name not in items:
            group = 2 if stmt.name.startswith("_") else 1
            items[stmt.name] = types.CompletionItem(
                label=stmt.name,
                kind=types.CompletionItemKind.Method,
                sort_text=f"{group:02d}{stmt.name.lower()}",
                insert_text=stmt.name,
            )
    if inferencer.is_cell_class(node):
        for item in namespace_items(inferencer.cat, "mindspore.nn.Cell", compiled):
            if item.label not in items:
                rank = int((item.sort_text or "00")[:2]) + 2
                items[item.label] = attrs.evolve(item, sort_text=f"{rank:02d}{item.label.lower()}")
    return list(items.values())
