"""LSP feature handlers: thin wrappers that hand the work to plain modules."""

from __future__ import annotations

import logging
import threading
from typing import Optional

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from mindscope_ls import __version__, diagnostic_feature, features
from mindscope_ls.completion import warm_up
from mindscope_ls.options import ServerOptions, parse_options

log = logging.getLogger(__name__)


class MindScopeServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("mindscope-ls", __version__)
        self.options = ServerOptions()
        self.root: Optional[str] = None


def build_server() -> MindScopeServer:
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
        if ls.options.warm_up:
            threading.Thread(target=_safe_warm_up, args=(ls.root,), daemon=True).start()
        if ls.root:
            checks.start_indexing(ls.root)

    # Completion, hover and signature help.
    features.register(server)
    # Graph-mode diagnostics and their quick fixes.
    checks = diagnostic_feature.register(server)

    return server


def _safe_warm_up(root: Optional[str]) -> None:
    try:
        warm_up(root)
    except Exception:  # warm-up is an optimisation: never let it take the server down
        log.exception("jedi warm-up failed")
