"""The language server over stdio as VS Code starts it, with no workspace folder: the features
these tests exercise need none, and the server then indexes nothing. A test module that needs
a folder or other options defines its own `client` fixture, which takes precedence."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator

import pytest_lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from .session import open_session


@pytest_lsp.fixture(  # type: ignore[untyped-decorator]
    config=ClientServerConfig(server_command=[sys.executable, "-m", "mindscope_ls"]),
)
async def client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    await open_session(lsp_client)
    yield
    await lsp_client.shutdown_session()
