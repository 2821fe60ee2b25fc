"""LSP feature handlers: thin wrappers that hand the work to plain modules."""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Optional

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from mindscope_ls import __version__
from mindscope_ls.completion import complete, warm_up
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

    @server.feature(types.INITIALIZED)
    def on_initialized(ls: MindScopeServer, params: types.InitializedParams) -> None:
        if ls.options.warm_up:
            threading.Thread(target=_safe_warm_up, args=(ls.root,), daemon=True).start()

    @server.feature(
        types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=["."])
    )
    async def on_completion(
        ls: MindScopeServer, params: types.CompletionParams
    ) -> types.CompletionList:
        document = ls.workspace.get_text_document(params.text_document.uri)
        # LSP counts UTF-16 units; jedi counts code points.
        position = document.position_codec.position_from_client_units(
            document.lines, params.position
        )
        # jedi is synchronous: a worker thread keeps the server answering meanwhile.
        items = await asyncio.to_thread(
            complete, document.source, position.line, position.character, document.path, ls.root
        )
        return types.CompletionList(is_incomplete=False, items=items)

    return server


def _safe_warm_up(root: Optional[str]) -> None:
    try:
        warm_up(root)
    except Exception:  # warm-up is an optimisation: never let it take the server down
        log.exception("jedi warm-up failed")
