"""Starting a session with the real server as VS Code does: the capabilities it sends, the
folder it opens, and its answer to the server's registrations."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities


async def open_session(
    client: LanguageClient,
    root: Optional[Path] = None,
    capabilities: Optional[types.ClientCapabilities] = None,
    warm_up: bool = False,
) -> types.InitializeResult:
    """Initializes the session; with a `root` folder, whose files the server then watches."""
    if root is not None:

        @client.feature(types.CLIENT_REGISTER_CAPABILITY)  # type: ignore[untyped-decorator]
        def on_register(params: types.RegistrationParams) -> None:
            """Accepts the server's file watchers, as VS Code does."""

    params = types.InitializeParams(
        capabilities=capabilities or client_capabilities("visual-studio-code"),
        root_uri=root.as_uri() if root is not None else None,
        initialization_options={"warmUp": warm_up},
    )
    result: types.InitializeResult = await client.initialize_session(params)
    return result
