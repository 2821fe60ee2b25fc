"""Completion through jedi: plain functions from (source, position) to LSP items."""

from __future__ import annotations

import threading
from typing import Any, Optional

import jedi
from lsprotocol import types

# jedi keeps global caches and is not thread-safe: the warm-up thread and requests share a lock.
JEDI_LOCK = threading.Lock()

_KIND_BY_JEDI_TYPE = {
    "module": types.CompletionItemKind.Module,
    "class": types.CompletionItemKind.Class,
    "instance": types.CompletionItemKind.Variable,
    "function": types.CompletionItemKind.Function,
    "param": types.CompletionItemKind.Variable,
    "path": types.CompletionItemKind.File,
    "keyword": types.CompletionItemKind.Keyword,
    "property": types.CompletionItemKind.Property,
    "statement": types.CompletionItemKind.Variable,
}

WARM_UP_SOURCE = "import mindspore as ms\nfrom mindspore import nn, ops\nnn.\nops.\nms.\n"


def _project(root: Optional[str]) -> Optional[jedi.Project]:
    return jedi.Project(root) if root else None


def complete(
    source: str, line: int, character: int, path: Optional[str], root: Optional[str] = None
) -> list[types.CompletionItem]:
    """Completions at a 0-based LSP position; an empty list when jedi cannot help."""
    lines = source.splitlines() or [""]
    if line >= len(lines) + 1:
        return []
    text_line = lines[line] if line < len(lines) else ""
    column = min(character, len(text_line))
    with JEDI_LOCK:
        script = jedi.Script(source, path=path, project=_project(root))
        try:
            found = script.complete(line + 1, column)
        except Exception:  # jedi raises on some half-typed code; a user typing is not an error
            return []
        return [_to_item(c, index) for index, c in enumerate(found)]


def _to_item(completion: Any, index: int) -> types.CompletionItem:
    name: str = completion.name
    return types.CompletionItem(
        label=name,
        kind=_KIND_BY_JEDI_TYPE.get(completion.type, types.CompletionItemKind.Text),
        # Keep jedi's order (it ranks public before private names).
        sort_text=f"{index:05d}",
        insert_text=name,
    )


def warm_up(root: Optional[str]) -> None:
    """Parses MindSpore's modules once so that the user's first completion is served from cache."""
    lines = WARM_UP_SOURCE.splitlines()
    for line_no in (2, 3, 4):
        complete(WARM_UP_SOURCE, line_no, len(lines[line_no]), None, root)
