"""Completion: MindSpore-aware from the catalogue where the inference knows the value, jedi
for everything else. Plain functions from (source, position) to LSP items.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Optional

import jedi
from lsprotocol import types

from mindscope_ls.analysis.apiitems import Listing, namespace_items, self_items
from mindscope_ls.analysis.inference import Api, Inferencer, Instance, LocalClass, members_namespace
from mindscope_ls.analysis.layerstats.context import layer_ranked  # layer context ranking
from mindscope_ls.analysis.snippets import snippet_items  # snippets
from mindscope_ls.analysis.sourcemodel import for_document, model_around
from mindscope_ls.analysis.textscan import dot_context, lines_of
from mindscope_ls.catalogue.load import catalogue_for
from mindscope_ls.catalogue.model import Catalogue
from mindscope_ls.infra import trace
from mindscope_ls.infra.warmup import wanting_held_lock


class JediLock:
    """jedi keeps global caches and is not thread-safe: the warm-up and requests share this
    lock. Taking it tells the warm-up, which pauses while the user is active but holds the
    lock meanwhile, to finish instead (`warmup.wanting_held_lock`)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()

    def __enter__(self) -> JediLock:
        with wanting_held_lock():
            self._lock.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self._lock.release()

    @contextmanager
    def for_warm_up(self) -> Iterator[None]:
        with self._lock:
            yield


JEDI_LOCK = JediLock()

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

WARM_UP_SOURCE = "import os\nos.\n"


def _project(root: Optional[str]) -> Optional[jedi.Project]:
    return jedi.Project(root) if root else None


@dataclass(frozen=True)
class Answer:
    """Completion items; or `listing` when they are exactly a namespace's cached listing,
    which the server sends as JSON encoded once (`apiitems.namespace_json`)."""

    found: Sequence[types.CompletionItem] = ()
    listing: Optional[Listing] = None

    @property
    def items(self) -> Sequence[types.CompletionItem]:
        return namespace_items(*self.listing) if self.listing is not None else self.found


def complete(
    source: str,
    line: int,
    character: int,
    path: Optional[str],
    root: Optional[str] = None,
    catalogue: Optional[Catalogue] = None,
) -> list[types.CompletionItem]:
    """Completions at a 0-based LSP position; an empty list when nobody can help."""
    return list(answer(source, line, character, path, root, catalogue).items)


def answer(
    source: str,
    line: int,
    character: int,
    path: Optional[str],
    root: Optional[str] = None,
    catalogue: Optional[Catalogue] = None,
    doc: Optional[str] = None,
) -> Answer:
    """`doc` names the document (its URI), whose previous parse is reused."""
    with for_document(doc):
        return _answer(source, line, character, path, root, catalogue)


def _answer(
    source: str,
    line: int,
    character: int,
    path: Optional[str],
    root: Optional[str],
    catalogue: Optional[Catalogue],
) -> Answer:
    lines = lines_of(source) or ("",)
    if line >= len(lines) + 1:
        return Answer(())
    text_line = lines[line] if line < len(lines) else ""
    column = min(character, len(text_line))
    with trace.span("catalogue"):
        cat = catalogue if catalogue is not None else catalogue_for()
    if cat is not None:
        known = mindspore_answer(source, line, column, cat)
        if known is not None:
            return known
    # >>> snippets (snippets.py): offered where a statement starts, after jedi's names
    snippets = snippet_items(source, line, column)
    # <<< snippets
    return Answer([*jedi_items(source, line, column, path, root), *snippets])


def mindspore_items(
    source: str, line: int, column: int, cat: Catalogue
) -> Optional[list[types.CompletionItem]]:
    """Items after `<expr>.` when `<expr>` is MindSpore's (or a Cell's `self`); else None."""
    found = mindspore_answer(source, line, column, cat)
    return list(found.items) if found is not None else None


def mindspore_answer(source: str, line: int, column: int, cat: Catalogue) -> Optional[Answer]:
    context = dot_context(source, line, column)
    if context is None:
        return None
    with trace.span("model"):
        model = model_around(source, line)
    inferencer = Inferencer(model, cat)
    scope = inferencer.scope_at(line + 1)
    value = inferencer.infer(context.expr, scope)
    compiled = inferencer.is_compiled(scope)
    if isinstance(value, (Api, Instance)):
        namespace = members_namespace(cat, value)
        if namespace is None:
            return None
        listing = Listing(cat, namespace, compiled)
        # >>> layer context (layerstats/context.py): its own items, not the cached listing
        ranked = layer_ranked(inferencer, scope, listing, source, line, column)
        if ranked is not None:
            return Answer(ranked)
        # <<< layer context
        return Answer(listing=listing)
    if isinstance(value, LocalClass) and value.instance:
        return Answer(self_items(inferencer, value.node, compiled))
    return None


def jedi_items(
    source: str, line: int, column: int, path: Optional[str], root: Optional[str]
) -> list[types.CompletionItem]:
    with JEDI_LOCK, trace.span("jedi"):
        return _jedi_complete(source, line, column, path, root)


def _jedi_complete(
    source: str, line: int, column: int, path: Optional[str], root: Optional[str]
) -> list[types.CompletionItem]:
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


def warm_jedi(root: Optional[str]) -> None:
    """Warms jedi on the standard library (`warmup.py` runs it last, out of the way). MindSpore
    names come from the catalogue, so jedi never has to parse MindSpore itself."""
    lines = WARM_UP_SOURCE.splitlines()
    with JEDI_LOCK.for_warm_up():  # quietly: this is the work that pauses for the others
        _jedi_complete(WARM_UP_SOURCE, 1, len(lines[1]), None, root)
