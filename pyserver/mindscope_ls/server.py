"""The language server: its class, and the one list of the features it registers. Each feature
is a module in features/ with thin handlers; the work is in plain modules (analysis/,
documents/, services/, the checker)."""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
from typing import BinaryIO, Optional

from lsprotocol import types
from pygls.io_ import StdoutWriter, run_async
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from mindscope_ls import __version__
from mindscope_ls.analysis.completion import warm_jedi
from mindscope_ls.features import (
    cells,
    completion,
    configuration,
    definition,
    diagnostics,
    document_text,
    file_mode,
    hover,
    notebook_sync,
    signature,
    watched_files,
)
from mindscope_ls.infra import gcpause, trace, warmup
from mindscope_ls.infra.transport import ChunkReader, MindScopeProtocol
from mindscope_ls.services.check_scheduler import CheckScheduler
from mindscope_ls.services.workspace_index import folder_of
from mindscope_ls.settings import ServerOptions, parse_graph_mode, parse_options

log = logging.getLogger(__name__)


class MindScopeServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            "mindscope-ls",
            __version__,
            protocol_cls=MindScopeProtocol,
            notebook_document_sync=notebook_sync.SYNC_OPTIONS,
        )
        self.options = ServerOptions()
        self.folders: list[str] = []  # the workspace folders, the first one first
        self.idle_collections: Optional[gcpause.IdleCollections] = None

    @property
    def root(self) -> Optional[str]:
        return self.folders[0] if self.folders else None

    def folder_of(self, path: Optional[str]) -> Optional[str]:
        """The workspace folder a file belongs to (jedi's project for it)."""
        return folder_of(path, self.folders)

    def report_settings(self, problems: list[str]) -> None:
        """Bad setting values, each named, in the log and shown once to the user."""
        for problem in problems:
            log.warning("setting ignored: %s", problem)
        if problems:
            self.window_show_message(
                types.ShowMessageParams(
                    type=types.MessageType.Warning,
                    message="MindScope: " + "; ".join(problems),
                )
            )

    def report_server_error(self, error: Exception, source: type[Exception]) -> None:
        """In the log, never a popup: pygls shows "Error in server: Invalid Params" for a
        notification it could not read (a `didChange` with line -1, a `didOpen` without
        `text`), which the user can do nothing about. Requests are answered with the error."""
        log.error("%s: %s", source.__name__, error, exc_info=error)

    def _start_io_async(
        self, stdin: Optional[BinaryIO] = None, stdout: Optional[BinaryIO] = None
    ) -> None:
        """pygls's, with `ChunkReader` for its reader (see infra/transport.py)."""
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


def workspace_folders(params: types.InitializeParams) -> list[str]:
    """Every workspace folder the client names; the root URI when it names none."""
    uris = [f.uri for f in params.workspace_folders or []] or [params.root_uri or ""]
    paths = [to_fs_path(uri) for uri in uris if uri]
    return list(dict.fromkeys(p for p in paths if p))


def build_server() -> MindScopeServer:
    trace.start()  # when MINDSCOPE_TRACE names a file (infra/trace.py)
    gcpause.use_server_policy()
    server = MindScopeServer()
    checks = CheckScheduler(server)

    @server.feature(types.INITIALIZE)
    def on_initialize(ls: MindScopeServer, params: types.InitializeParams) -> None:
        problems: list[str] = []
        ls.options = parse_options(params.initialization_options, problems)
        ls.folders = workspace_folders(params)
        raw = params.initialization_options
        graph_mode = raw.get("graphMode") if isinstance(raw, dict) else None
        checks.settings = parse_graph_mode(graph_mode, problems)
        ls.report_settings(problems)

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
        checks.index.start(ls.folders)

    # The features, one module each (features/).
    completion.register(server)
    hover.register(server)
    signature.register(server)
    definition.register(server)
    diagnostics.register(server, checks)  # graph-mode diagnostics and their quick fixes
    configuration.register(server, checks)
    watched_files.register(server, checks)
    notebook_sync.register(server, checks)  # cells arrive with their notebook
    file_mode.register(server, checks)  # the mode and syntax level, for the status bar
    cells.register(server, checks)  # the Cell classes, for the CodeLens
    document_text.register(server)
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
