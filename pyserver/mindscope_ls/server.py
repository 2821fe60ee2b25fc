"""LSP feature handlers: thin wrappers that hand the work to plain modules."""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
from typing import Any, BinaryIO, Optional

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from pygls.io_ import StdoutWriter, run_async
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from mindscope_ls import __version__
from mindscope_ls.analysis.completion import warm_jedi
from mindscope_ls.features import completion, file_mode, notebook_sync
from mindscope_ls.features.definition import register as register_definition
from mindscope_ls.infra import gcpause, trace, warmup
from mindscope_ls.infra.transport import ChunkReader, MindScopeProtocol
from mindscope_ls.options import ServerOptions, parse_options
from mindscope_ls.services import check_scheduler

log = logging.getLogger(__name__)
DOCUMENT_TEXT = "mindscope/documentText"


class MindScopeServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            "mindscope-ls",
            __version__,
            protocol_cls=MindScopeProtocol,
            notebook_document_sync=notebook_sync.SYNC_OPTIONS,
        )
        self.options = ServerOptions()
        self.root: Optional[str] = None
        self.idle_collections: Optional[gcpause.IdleCollections] = None

    def _start_io_async(
        self, stdin: Optional[BinaryIO] = None, stdout: Optional[BinaryIO] = None
    ) -> None:
        """pygls's, with `ChunkReader` for its reader (see transport.py)."""
        self._stop_event = threading.Event()
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        reader = ChunkReader(stdin or sys.stdin.buffer)
        try:
            asyncio.run(
                run_async(
                    stop_event=self._stop_event,
                    reader=reader,
                    protocol=self.protocol,
                    logger=log,
                    error_handler=self.report_server_error,
                )
            )
        except BrokenPipeError:
            log.error("Connection to the client is lost! Shutting down the server.")
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            self.shutdown()  # type: ignore[no-untyped-call]


def build_server() -> MindScopeServer:
    trace.start()  # when MINDSCOPE_TRACE names a file (trace.py)
    gcpause.use_server_policy()
    server = MindScopeServer()

    @server.feature(types.INITIALIZE)
    def on_initialize(ls: MindScopeServer, params: types.InitializeParams) -> None:
        ls.options = parse_options(params.initialization_options)
        if params.root_uri:
            ls.root = to_fs_path(params.root_uri)
        raw = params.initialization_options
        checks.configure(raw.get("graphMode") if isinstance(raw, dict) else None)

    @server.feature(types.INITIALIZED)
    def on_initialized(ls: MindScopeServer, params: types.InitializedParams) -> None:
        ls.idle_collections = gcpause.IdleCollections(
            asyncio.get_running_loop(), warmup.last_activity, warmup.answering_requests
        )
        if ls.options.warm_up:
            threading.Thread(
                target=_safe_warm_up, args=(ls,), name="mindscope-warm-up", daemon=True
            ).start()
        else:
            warmup.skip()
        if ls.root:
            checks.start_indexing(ls.root)

    # Completion, hover and signature help.
    completion.register(server)
    register_definition(server)  # go to definition (definition_feature.py)
    # Graph-mode diagnostics and their quick fixes.
    checks = check_scheduler.register(server)
    file_mode.register(server, checks)  # the mode and syntax level, for the status bar
    # Notebook cells arrive with their notebook; they are checked like documents.
    notebook_sync.register(server, checks)

    @server.feature(DOCUMENT_TEXT)
    def on_document_text(ls: MindScopeServer, params: Any) -> dict[str, Any]:
        """The server's copy of an open document: what tests compare with the editor's."""
        uri = getattr(getattr(params, "textDocument", None), "uri", None)
        document = ls.workspace.text_documents.get(uri) if isinstance(uri, str) else None
        if document is None:
            raise JsonRpcInvalidParams(f"not an open document: {uri}")
        return {"version": document.version, "text": document.source}

    return server


def _safe_warm_up(ls: MindScopeServer) -> None:
    def documents() -> list[tuple[str, str]]:
        # Read from this thread while the server adds documents: copy first, tolerate a race.
        try:
            opened = list(ls.workspace.text_documents.values())
        except RuntimeError:
            return []
        return [(d.uri, d.source) for d in opened if d.uri.startswith("file:")]

    try:
        warmup.warm_up(documents, lambda: warm_jedi(ls.root))
    except Exception:  # warm-up is an optimisation: never let it take the server down
        log.exception("warm-up failed")
