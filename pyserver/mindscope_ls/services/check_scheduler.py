"""Graph-mode checks of open documents: on open and (debounced) on change, for .py files and
notebook cells, in a worker thread, published when the document has not changed meanwhile.
The checking itself happens in plain functions (the checker, analysis/diagnostics.py)."""

from __future__ import annotations

import asyncio
import logging
import os
import time
from typing import Optional
from urllib.parse import unquote, urlsplit

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path
from pygls.workspace import TextDocument

from mindscope_ls.analysis.diagnostics import to_diagnostic
from mindscope_ls.checker import absolute_globs, check_source
from mindscope_ls.documents.notebook import cell_view, later_cells, notebook_of
from mindscope_ls.documents.window import LARGE_FILE_CHARS
from mindscope_ls.infra import trace, warmup
from mindscope_ls.infra.release import release_document
from mindscope_ls.services.workspace_index import WorkspaceIndex
from mindscope_ls.settings import GraphModeSettings

log = logging.getLogger(__name__)

# Past this size a file is not checked as it is typed, nor indexed (filewatch.py).
MAX_CHECKED_CHARS = LARGE_FILE_CHARS
# A check whose previous run took more CPU than this yields to the user (`_check`); shorter
# ones are not worth the yielding hook's overhead.
YIELD_ABOVE_SECONDS = 0.05


class CheckScheduler:
    def __init__(self, server: LanguageServer) -> None:
        self.server = server
        self.settings = GraphModeSettings()
        self.index = WorkspaceIndex(self._open_paths, self.recheck_open_documents)
        self._pending: dict[str, asyncio.Task[None]] = {}
        # The CPU time of each document's latest check: long checks yield to the user.
        self._cpu_seconds: dict[str, float] = {}

    def _open_paths(self) -> set[str]:
        return {
            os.path.normpath(doc.path)
            for doc in self._open_documents()
            if notebook_of(doc.uri) is None
        }

    def schedule(self, uri: str, delay_ms: Optional[int] = None) -> None:
        """Checks `uri` after a quiet period; a newer change replaces the pending check."""
        previous = self._pending.pop(uri, None)
        if previous is not None:
            previous.cancel()
        delay = self.settings.debounce_ms if delay_ms is None else delay_ms
        self._pending[uri] = asyncio.ensure_future(self._check_later(uri, delay / 1000))

    def schedule_changed(self, uri: str) -> None:
        """`uri` changed: it is checked again, and so are the notebook cells after it, whose
        programs include it (documents/notebook.py)."""
        self.schedule(uri)
        for later in later_cells(self.server.workspace, uri):
            self.schedule(later)

    def _open_documents(self) -> list[TextDocument]:
        return list(self.server.workspace.text_documents.values())

    def _open_document(self, uri: str) -> Optional[TextDocument]:
        # pygls keys its documents by the unquoted URI; clients send them quoted.
        document: Optional[TextDocument] = self.server.workspace.text_documents.get(unquote(uri))
        return document

    def recheck_open_documents(self) -> None:
        for document in self._open_documents():
            self.schedule(document.uri, 0)

    def forget(self, uri: str) -> None:
        """`uri` was closed: no pending check, no diagnostics, nothing kept for it."""
        self._cpu_seconds.pop(uri, None)
        task = self._pending.pop(uri, None)
        if task is not None:
            task.cancel()
        self._publish(uri, None, [])
        path = to_fs_path(uri) if urlsplit(uri).scheme == "file" else None
        release_document(uri, path)
        if path is not None:
            self.index.closed(path)

    async def _check_later(self, uri: str, delay: float) -> None:
        try:
            await asyncio.sleep(delay)
            await _after_requests()
            document = self._open_document(uri)
            if document is None:
                return
            version = document.version
            with trace.span("check", uri=uri):
                diagnostics = await asyncio.to_thread(self._check, document)
            current = self._open_document(uri)
            if diagnostics is not None and current is not None and current.version == version:
                self._publish(uri, version, diagnostics)
        except asyncio.CancelledError:
            pass
        except Exception:  # a bug in a rule must cost one check, never the server
            log.exception("checking %s failed", uri)
        finally:
            if self._pending.get(uri) is asyncio.current_task():
                del self._pending[uri]

    def _check(self, document: TextDocument) -> Optional[list[types.Diagnostic]]:
        """`diagnose` in a worker thread. A check that took long last time (the first one of a
        file, ~200-500 ms at 3,000 lines) pauses while the user is active and stops once the
        document changes (None): a request arriving meanwhile would share the GIL with it."""
        uri, version = document.uri, document.version
        started = time.thread_time()
        if self._cpu_seconds.get(uri, YIELD_ABOVE_SECONDS) < YIELD_ABOVE_SECONDS:
            found: Optional[list[types.Diagnostic]] = self.diagnose(document)
        else:

            def superseded() -> bool:
                current = self._open_document(uri)
                return current is None or current.version != version

            found = warmup.run_yielding(lambda: self.diagnose(document), superseded)
        if found is not None:
            self._cpu_seconds[uri] = time.thread_time() - started
        return found

    def diagnose(self, document: TextDocument) -> list[types.Diagnostic]:
        settings = self.settings
        source = document.source
        if not settings.enabled:
            return []
        if len(source) > MAX_CHECKED_CHARS:
            log.warning("%s has %d characters: not checked", document.uri, len(source))
            return []
        offset = 0
        path = document.path
        view = cell_view(self.server.workspace, document.uri)
        if view is not None:  # a cell is checked as its program: the cells above it, then it
            source, offset, path = view.source, view.offset, f"<cell {document.uri}>"
        with self.index.lock:
            findings = check_source(
                source,
                path,
                level=settings.syntax_level,
                workspace=self.index.for_path(path) if view is None else None,
                disabled=settings.disabled,
                severities=settings.severities,
                pynative=self._pynative_globs(),
                device=settings.device,
            )
        lines = document.lines

        def to_client(r: types.Range) -> types.Range:
            return document.position_codec.range_to_client_units(lines, r)

        return [
            to_diagnostic(f, to_client, offset)
            for f in findings
            if f.line > offset  # findings in the cells above belong to those cells
        ]

    def _pynative_globs(self) -> tuple[str, ...]:
        """`mindscope.graphMode.pynativeOnly`, relative to each workspace folder."""
        globs = self.settings.pynative_only
        if not globs:
            return ()
        folders = getattr(self.server, "folders", None) or [os.getcwd()]
        return tuple(g for folder in folders for g in absolute_globs(globs, folder))

    def _publish(
        self, uri: str, version: Optional[int], diagnostics: list[types.Diagnostic]
    ) -> None:
        self.server.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=diagnostics)
        )


async def _after_requests() -> None:
    """Lets requests being answered finish before a check starts: both need the GIL, and a
    user waits on the request, not on the squiggles. Never waits longer than a second."""
    for _ in range(200):
        if not warmup.answering_requests():
            return
        await asyncio.sleep(0.005)
