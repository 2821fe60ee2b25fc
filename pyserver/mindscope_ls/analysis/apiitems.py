"""Catalogue entries and the file's own Cell attributes as LSP completion items."""

from __future__ import annotations

import ast
import json
from functools import lru_cache
from typing import Any, NamedTuple, Optional

import attrs
from lsprotocol import types

from mindscope_ls.analysis.inference import Api, Inferencer, Instance, LocalClass, Value
from mindscope_ls.catalogue.model import Catalogue, Entry
from mindscope_ls.infra.warmup import pause_point

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


def entry_item(
    cat: Catalogue, name: str, entry: Entry, compiled: bool, group: int = 0
) -> types.CompletionItem:
    """One member: deprecated and (in compiled code) graph-unusable APIs rank last, tagged."""
    found = entry_json(cat, name, entry, compiled, group)
    details = found.get("labelDetails")
    return types.CompletionItem(
        label=name,
        kind=types.CompletionItemKind(found["kind"]),
        tags=[types.CompletionItemTag(tag) for tag in found.get("tags", ())] or None,
        label_details=types.CompletionItemLabelDetails(**details) if details else None,
        sort_text=found["sortText"],
        data=found.get("data"),
    )


def entry_json(
    cat: Catalogue, name: str, entry: Entry, compiled: bool, group: int = 0
) -> dict[str, Any]:
    """`entry_item` as the JSON sent: built directly, as `ops.` lists ~1,500 of them. Lean:
    `detail` and the documentation come with `completionItem/resolve`, and `data` is the
    entry's number (`entry_of`)."""
    notes: list[str] = []
    item: dict[str, Any] = {"label": name}
    if compiled and entry.graph is False:
        group += 3
        notes.append(NOT_IN_GRAPH)
    if entry.is_deprecated:
        group += 6
        item["tags"] = [types.CompletionItemTag.Deprecated.value]
        notes.append(DEPRECATED)
    signature = entry.signature or ""
    if len(signature) > _DETAIL_WIDTH:
        signature = signature[: _DETAIL_WIDTH - 2] + "…)"
    details = {"detail": signature or None, "description": ", ".join(notes) or None}
    label_details = {key: value for key, value in details.items() if value}
    if label_details:
        item["labelDetails"] = label_details
    item["kind"] = KIND.get(entry.kind, types.CompletionItemKind.Value).value
    item["sortText"] = f"{group:02d}{name.lower()}"
    number = _numbers(cat).get(entry.ident)
    if number is not None:
        item["data"] = number
    return item


@lru_cache(maxsize=4)
def _idents(cat: Catalogue) -> tuple[str, ...]:
    return tuple(cat.records)


@lru_cache(maxsize=4)
def _numbers(cat: Catalogue) -> dict[str, int]:
    return {ident: number for number, ident in enumerate(_idents(cat))}


def entry_of(cat: Catalogue, data: Any) -> Optional[Entry]:
    """The entry an item's `data` names (a number from `entry_item`, or `{"ident": …}`)."""
    if isinstance(data, int) and not isinstance(data, bool):
        idents = _idents(cat)
        return cat.entry(idents[data]) if 0 <= data < len(idents) else None
    ident = data.get("ident") if isinstance(data, dict) else None
    return cat.entry(ident) if isinstance(ident, str) else None


class Listing(NamedTuple):
    """A namespace's members as offered in one context (inside compiled code or not)."""

    cat: Catalogue
    namespace: str
    compiled: bool


def namespace_items(cat: Catalogue, namespace: str, compiled: bool) -> list[types.CompletionItem]:
    """The members of a namespace; built once per (catalogue, namespace, context)."""
    return list(_namespace_items(cat, namespace, compiled))


@lru_cache(maxsize=64)
def namespace_json(listing: Listing) -> str:
    """The `CompletionList` of a listing as JSON text, encoded once: `ops.` lists ~1,500 items
    (ASCII only, as the message's Content-Length counts characters)."""
    cat, namespace, compiled = listing
    items = []
    for name, ident in (cat.members(namespace) or {}).items():
        entry = cat.entry(ident)
        if entry is not None:
            items.append(entry_json(cat, name, entry, compiled))
            if len(items) % 128 == 0:
                pause_point()  # the warm-up builds `ops.` (~50 ms): a request goes first
    return json.dumps({"isIncomplete": False, "items": items}, separators=(",", ":"))


@lru_cache(maxsize=64)
def _namespace_items(
    cat: Catalogue, namespace: str, compiled: bool
) -> tuple[types.CompletionItem, ...]:
    items = []
    for name, ident in (cat.members(namespace) or {}).items():
        entry = cat.entry(ident)
        if entry is not None:
            items.append(entry_item(cat, name, entry, compiled))
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
        for item in _cell_api_items(inferencer.cat, compiled):
            items.setdefault(item.label, item)
    return list(items.values())


@lru_cache(maxsize=8)
def _cell_api_items(cat: Catalogue, compiled: bool) -> tuple[types.CompletionItem, ...]:
    """`nn.Cell`'s members, ranked after the class's own attributes and methods."""
    return tuple(
        attrs.evolve(
            item, sort_text=f"{int((item.sort_text or '00')[:2]) + 2:02d}{item.label.lower()}"
        )
        for item in namespace_items(cat, "mindspore.nn.Cell", compiled)
    )
