"""Completion after `nn.` in a Cell's `__init__`: the layers that usually follow the one
written above the cursor rank first. Every item of the namespace is kept."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Optional

import attrs
from lsprotocol import types

from mindscope_ls.analysis.apiitems import Listing, namespace_items
from mindscope_ls.analysis.inference import Api, Inferencer, Scope
from mindscope_ls.analysis.layerstats.rank import rank_by_context
from mindscope_ls.analysis.layerstats.scan import LAYER_NAMESPACES
from mindscope_ls.analysis.layerstats.where import method_around
from mindscope_ls.analysis.textscan import parse_expr

# A call's callee: `nn.Conv2d(`, `ms.nn.Conv2d (`, a bare `Conv2d(` from `from … import`.
_CALLEE = re.compile(r"([A-Za-z_][\w.]*)\s*\(")
_DOT_TAIL = re.compile(r"[\w.]*$")
_DEF = re.compile(r"\s*(?:async\s+)?def\s")
_MAX_LINES = 300  # an __init__ longer than this is rare: look no further back
_MAX_TRIES = 40  # callees resolved before giving up (each is an inference)


def layer_ranked(
    inferencer: Inferencer, scope: Scope, listing: Listing, source: str, line: int, column: int
) -> Optional[list[types.CompletionItem]]:
    """The listing's items re-ranked in `__init__` of a Cell class; None anywhere else, where
    the cached listing is sent as it is."""
    if listing.compiled or listing.namespace not in LAYER_NAMESPACES:
        return None
    scope = init_scope(scope, source, line, column) or scope
    func, cls = scope.func, scope.cls
    if func is None or cls is None or func.name != "__init__" or not inferencer.is_cell_class(cls):
        return None
    previous = previous_layer(inferencer, scope, source, line, column)
    ranked = _ranked(listing, previous)
    return list(ranked) if ranked is not None else None


@lru_cache(maxsize=32)  # every keystroke after `nn.` on one line asks for the same list
def _ranked(
    listing: Listing, previous: Optional[str]
) -> Optional[tuple[types.CompletionItem, ...]]:
    ranking = rank_by_context(previous, listing.namespace)
    if not ranking:
        return None
    note = f"often after {previous}" if previous else "often first"
    items = []
    for item in namespace_items(*listing):
        sort_text = ranking.get(item.label)
        # Deprecated items (a later group) stay last even when the corpus used them a lot.
        if sort_text is not None and (item.sort_text or "").startswith("00"):
            details = types.CompletionItemLabelDetails(
                detail=item.label_details.detail if item.label_details else None,
                description=note,
            )
            item = attrs.evolve(item, sort_text=sort_text, label_details=details)
        items.append(item)
    return tuple(items)


def init_scope(scope: Scope, source: str, line: int, column: int) -> Optional[Scope]:
    """The method around the cursor when the file's parse lost it: typing a new element of a
    layer list spread over lines leaves its brackets open and the class unparsable (None when
    the scope is known, or the cursor is in no class)."""
    if scope.func is not None and scope.cls is not None:
        return None
    first = max(0, line - _MAX_LINES)
    found = method_around(_lines_before(source, line, column), first)
    if found is None or found[1] is None:
        return None
    cls, func = found
    return Scope(cls, func, line + 1)


def _lines_before(source: str, line: int, column: int) -> list[str]:
    """The lines up to the cursor (0-based), the last one cut before the `nn.` completed."""
    lines = source.split("\n")[max(0, line - _MAX_LINES) : line + 1]
    if lines:
        current = lines[-1][:column]
        tail = _DOT_TAIL.search(current)
        lines[-1] = current[: tail.start()] if tail else current
    return lines


def previous_layer(
    inferencer: Inferencer, scope: Scope, source: str, line: int, column: int
) -> Optional[str]:
    """The last layer constructor called in the function around the cursor (0-based), before
    it, leaving out the `nn.` being completed."""
    lines = _lines_before(source, line, column)
    if not lines:
        return None
    # The text from the `def` line: found in the text itself, so it holds while the file is
    # being edited and the parsed tree's line numbers lag behind.
    start = next((i for i in range(len(lines) - 1, -1, -1) if _DEF.match(lines[i])), 0)
    text = "\n".join(_code_part(text) for text in lines[start:])
    for tries, match in enumerate(reversed(list(_CALLEE.finditer(text)))):
        if tries >= _MAX_TRIES:
            break
        expr = parse_expr(match.group(1))
        value = inferencer.infer(expr, scope) if expr is not None else None
        if isinstance(value, Api) and value.entry.kind == "class":
            namespace, _, name = value.entry.public.rpartition(".")
            if namespace in LAYER_NAMESPACES:
                return name
    return None


def _code_part(text: str) -> str:
    """The line without a trailing comment (a `#` before any quote; rough, and enough here)."""
    hash_at = text.find("#")
    if hash_at < 0 or any(quote in text[:hash_at] for quote in "'\""):
        return text
    return text[:hash_at]
