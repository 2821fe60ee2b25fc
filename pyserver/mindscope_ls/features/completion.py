"""`textDocument/completion` and `completionItem/resolve`: thin, the work is in
analysis/completion.py (jedi and the catalogue) and analysis/hover.py (`resolve_item`)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Callable, Optional, Union

import attrs
from lsprotocol import types

from mindscope_ls.analysis.apiitems import namespace_json
from mindscope_ls.analysis.completion import answer
from mindscope_ls.analysis.hover import resolve_item
from mindscope_ls.catalogue.load import catalogue_for
from mindscope_ls.documents.position import At, request_at
from mindscope_ls.documents.window import windowed
from mindscope_ls.infra import trace
from mindscope_ls.infra.transport import Encoded, MindScopeProtocol

if TYPE_CHECKING:
    from mindscope_ls.server import MindScopeServer


def _complete(at: At, root: Optional[str], encoded: bool) -> Union[Encoded, types.CompletionList]:
    with trace.span("completion"):
        at, view = windowed(at)  # a very large file: its imports and the block around
        found = answer(at.source, at.line, at.character, at.path, root, doc=at.doc)
        if found.listing is not None and encoded:
            return Encoded(namespace_json(found.listing))
        items = list(found.items)
        if at.offset:
            items = to_cell(items, at.offset)
        elif view is not None:
            items = remap(items, lambda p: types.Position(view.file_line(p.line), p.character))
        return types.CompletionList(is_incomplete=False, items=items)


def register(server: MindScopeServer) -> None:
    # Pre-encoded namespace listings need the protocol that sends them as they are.
    encoded = isinstance(server.protocol, MindScopeProtocol)

    @server.feature(
        types.TEXT_DOCUMENT_COMPLETION,
        types.CompletionOptions(trigger_characters=["."], resolve_provider=True),
    )
    async def on_completion(ls: MindScopeServer, params: types.CompletionParams) -> Any:
        at = request_at(ls, params.text_document.uri, params.position)
        # jedi is synchronous: a worker thread keeps the server answering meanwhile.
        return await asyncio.to_thread(_complete, at, ls.folder_of(at.path), encoded)

    @server.feature(types.COMPLETION_ITEM_RESOLVE)
    def on_resolve(ls: MindScopeServer, item: types.CompletionItem) -> types.CompletionItem:
        cat = catalogue_for() if item.data is not None else None
        return resolve_item(cat, item) if cat is not None else item


def to_cell(items: list[types.CompletionItem], offset: int) -> list[types.CompletionItem]:
    """Items whose edits were computed on the notebook's program, with lines of the cell; an
    edit above the cell (an import a snippet adds) goes to the cell's first line."""
    return remap(items, lambda at: _position(at, offset))


def remap(
    items: list[types.CompletionItem], move: Callable[[types.Position], types.Position]
) -> list[types.CompletionItem]:
    """Items whose edits were computed on another text (a cell's program, a window of the
    file), with each position `move`d to the document's."""
    out: list[types.CompletionItem] = []
    for item in items:
        if item.text_edit is None and not item.additional_text_edits:
            out.append(item)
            continue
        edits = [_moved_edit(edit, move) for edit in item.additional_text_edits or []]
        text_edit = item.text_edit
        if isinstance(text_edit, types.TextEdit):
            text_edit = _moved_edit(text_edit, move)
        elif isinstance(text_edit, types.InsertReplaceEdit):
            text_edit = attrs.evolve(
                text_edit,
                insert=moved_range(text_edit.insert, move),
                replace=moved_range(text_edit.replace, move),
            )
        out.append(attrs.evolve(item, text_edit=text_edit, additional_text_edits=edits or None))
    return out


def _moved_edit(
    edit: types.TextEdit, move: Callable[[types.Position], types.Position]
) -> types.TextEdit:
    return attrs.evolve(edit, range=moved_range(edit.range, move))


def moved_range(at: types.Range, move: Callable[[types.Position], types.Position]) -> types.Range:
    return types.Range(start=move(at.start), end=move(at.end))


def _position(at: types.Position, offset: int) -> types.Position:
    if at.line < offset:
        return types.Position(line=0, character=0)
    return types.Position(line=at.line - offset, character=at.character)
