"""Graph-mode diagnostics and quick fixes over LSP: checks on open and (debounced) on change,
for .py files and notebook cells; the checking itself happens in plain functions."""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, Optional, TypeVar
from urllib.parse import unquote, urlsplit

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path
from pygls.workspace import TextDocument

from mindscope_ls.analysis.diagnostics import code_actions, to_diagnostic
from mindscope_ls.checker import Workspace, check_source
from mindscope_ls.checker.cellcontext import prepare
from mindscope_ls.infra import trace, warmup
from mindscope_ls.infra.release import release_document
from mindscope_ls.services.filewatch import apply_changes, revert_to_disk
from mindscope_ls.settings import GraphModeSettings, parse_graph_mode

log = logging.getLogger(__name__)

T = TypeVar("T")
NOTEBOOK_CELL_SCHEME = "vscode-notebook-cell"
# Past this size a file is not checked as it is typed (generated code, data dumped as Python).
MAX_CHECKED_CHARS = 2_000_000
# A check whose previous run took more CPU than this yields to the user (`_check`); shorter
# ones are not worth the yielding hook's overhead.
YIELD_ABOVE_SECONDS = 0.05


def _notebook_of(uri: str) -> Optional[str]:
    parts = urlsplit(uri)
    return parts.path if parts.scheme == NOTEBOOK_CELL_SCHEME else None


class DiagnosticsService:
    def __init__(self, server: LanguageServer) -> None:
        self.server = server
        self.settings = GraphModeSettings()
        self.workspace: Optional[Workspace] = None
        self._pending: dict[str, asyncio.Task[None]] = {}
        # The workspace index is shared by checks running in worker threads.
        self._lock = threading.Lock()
        self.root: Optional[str] = None
        # File events are applied in order; those that arrive while indexing wait for it.
        self._file_events: Optional[asyncio.Task[None]] = None
        self._early_changes: list[types.FileEvent] = []
        # The CPU time of each document's latest check: long checks yield to the user.
        self._cpu_seconds: dict[str, float] = {}

    def configure(self, raw: Any) -> None:
        self.settings = parse_graph_mode(raw)

    def with_workspace(self, work: Callable[[Optional[Workspace]], T]) -> T:
        """Runs `work` on the workspace index while no check uses it (for other features)."""
        with warmup.wanting_held_lock(), self._lock:  # a check paused for the user holds it
            return work(self.workspace)

    def start_indexing(self, root: str) -> None:
        """Indexes the workspace in a thread; documents checked meanwhile are checked again."""
        loop = asyncio.get_running_loop()
        self.root = root

        def index() -> None:
            built: list[Workspace] = []
            try:
                # After the warm-up's essentials and out of the user's way: the index serves
                # the checks only, which run again when it is ready.
                with trace.span("index"):
                    warmup.in_background(lambda: built.append(Workspace.from_folder(root)))
            except Exception:
                log.exception("indexing %s failed", root)
                return
            workspace = built[0]
            with warmup.wanting_held_lock(), self._lock:
                self.workspace = workspace
                apply_changes(workspace, root, self._early_changes, self._open_paths())
                self._early_changes.clear()
            loop.call_soon_threadsafe(self.recheck_open_documents)

        threading.Thread(target=index, name="mindscope-index", daemon=True).start()

    def files_changed(self, changes: Sequence[types.FileEvent]) -> None:
        """Applies file events to the index (in order, off the event loop), then re-checks the
        open documents, whose compiled code may depend on the changed files. The client watches
        `**/*.py` (extension/src/serverClient.ts)."""
        previous = self._file_events

        async def apply() -> None:
            if previous is not None:
                await asyncio.gather(previous, return_exceptions=True)
            if await asyncio.to_thread(self._apply_changes, changes):
                self.recheck_open_documents()

        self._file_events = asyncio.ensure_future(apply())

    def _apply_changes(self, changes: Sequence[types.FileEvent]) -> bool:
        if self.root is None:
            return False  # no workspace index to keep up to date
        with warmup.wanting_held_lock(), self._lock:
            if self.workspace is None:
                self._early_changes.extend(changes)  # indexing applies them when done
                return False
            return apply_changes(self.workspace, self.root, changes, self._open_paths())

    def _open_paths(self) -> set[str]:
        return {
            os.path.normpath(doc.path)
            for doc in self._open_documents()
            if _notebook_of(doc.uri) is None
        }

    def schedule(self, uri: str, delay_ms: Optional[int] = None) -> None:
        """Checks `uri` after a quiet period; a newer change replaces the pending check."""
        previous = self._pending.pop(uri, None)
        if previous is not None:
            previous.cancel()
        delay = self.settings.debounce_ms if delay_ms is None else delay_ms
        self._pending[uri] = asyncio.ensure_future(self._check_later(uri, delay / 1000))

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
            previous = self._file_events  # in order with file events

            async def unindex() -> None:
                if previous is not None:
                    await asyncio.gather(previous, return_exceptions=True)
                if await asyncio.to_thread(self._unindex, path):
                    self.recheck_open_documents()

            self._file_events = asyncio.ensure_future(unindex())

    def _unindex(self, path: str) -> bool:
        with warmup.wanting_held_lock(), self._lock:
            if self.workspace is None or os.path.normpath(path) in self._open_paths():
                return False  # not indexed yet; or opened again meanwhile
            before = self.workspace.version
            revert_to_disk(self.workspace, self.root, path)
            return self.workspace.version != before

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
        notebook = _notebook_of(document.uri)
        offset = 0
        path = document.path
        if notebook is not None:
            prepared = prepare(source, self._sibling_cells(document.uri, notebook))
            source, offset, path = prepared.source, prepared.offset, f"<cell {document.uri}>"
        with self._lock:
            findings = check_source(
                source,
                path,
                level=settings.syntax_level,
                workspace=self.workspace if notebook is None else None,
                disabled=settings.disabled,
                severities=settings.severities,
            )
        lines = document.lines

        def to_client(r: types.Range) -> types.Range:
            return document.position_codec.range_to_client_units(lines, r)

        return [
            to_diagnostic(f, to_client, offset)
            for f in findings
            if f.line > offset  # findings inside the prepended imports belong to other cells
        ]

    def _sibling_cells(self, uri: str, notebook: str) -> list[str]:
        return [
            doc.source
            for doc in self._open_documents()
            if doc.uri != uri and _notebook_of(doc.uri) == notebook
        ]

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


def register(server: LanguageServer) -> DiagnosticsService:
    service = DiagnosticsService(server)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def on_open(ls: LanguageServer, params: types.DidOpenTextDocumentParams) -> None:
        # After the usual quiet period: the first completion or hover of a freshly opened file
        # then runs alone instead of sharing the GIL with a whole-file check (~300 ms at 3,000
        # lines), and the squiggles follow a moment later.
        service.schedule(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def on_change(ls: LanguageServer, params: types.DidChangeTextDocumentParams) -> None:
        service.schedule(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def on_close(ls: LanguageServer, params: types.DidCloseTextDocumentParams) -> None:
        service.forget(params.text_document.uri)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def on_watched_files(ls: LanguageServer, params: types.DidChangeWatchedFilesParams) -> None:
        service.files_changed(params.changes)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    def on_configuration(ls: LanguageServer, params: types.DidChangeConfigurationParams) -> None:
        settings = params.settings.get("mindscope") if isinstance(params.settings, dict) else None
        if isinstance(settings, dict):
            service.configure(settings.get("graphMode"))
            service.recheck_open_documents()

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
    )
    def on_code_action(
        ls: LanguageServer, params: types.CodeActionParams
    ) -> list[types.CodeAction]:
        document = ls.workspace.get_text_document(params.text_document.uri)
        lines = document.lines

        def to_client(r: types.Range) -> types.Range:
            # Fix ranges were stored in code points; the edit goes out in the client's units.
            return document.position_codec.range_to_client_units(lines, r)

        return code_actions(document.uri, lines, params.context.diagnostics, to_client)

    return service
