"""The language server over stdio as VS Code starts it, with no workspace folder: the features
these tests exercise need none, and the server then indexes nothing. A test module that needs
a folder or other options defines its own `client` fixture, which takes precedence."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities


@pytest_lsp.fixture(  # type: ignore[untyped-decorator]
    config=ClientServerConfig(server_command=[sys.executable, "-m", "mindscope_ls"]),
)
async def client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    params = types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        initialization_options={"warmUp": False},
    )
    await lsp_client.initialize_session(params)
    yield
    await lsp_client.shutdown_session()
