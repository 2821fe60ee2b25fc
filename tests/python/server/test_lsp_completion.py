"""The real server over stdio, driven by pytest-lsp with VS Code's recorded client capabilities."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = REPO / "examples"
INIT_RESULT: types.InitializeResult | None = None


@pytest_lsp.fixture(  # type: ignore[untyped-decorator]
    config=ClientServerConfig(server_command=[sys.executable, "-m", "mindscope_ls"]),
)
async def client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    global INIT_RESULT
    params = types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        root_uri=EXAMPLES.as_uri(),
        initialization_options={"warmUp": False},
    )
    INIT_RESULT = await lsp_client.initialize_session(params)
    yield
    await lsp_client.shutdown_session()


def _open(client: LanguageClient, path: Path, text: str) -> str:
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="python", version=1, text=text
            )
        )
    )
    return uri


async def _labels(client: LanguageClient, uri: str, line: int, character: int) -> list[str]:
    result = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=line, character=character),
        )
    )
    assert result is not None
    items = result.items if isinstance(result, types.CompletionList) else result
    return [item.label for item in items]


async def test_server_identifies_itself(client: LanguageClient) -> None:
    assert INIT_RESULT is not None
    info = INIT_RESULT.server_info
    assert info is not None and info.name == "mindscope-ls"
    provider = INIT_RESULT.capabilities.completion_provider
    assert provider is not None and "." in (provider.trigger_characters or [])


@pytest.mark.slow
async def test_completes_nn_members(client: LanguageClient, tmp_path: Path) -> None:
    uri = _open(client, tmp_path / "model.py", "from mindspore import nn\n\nlayer = nn.\n")
    labels = await _labels(client, uri, 2, len("layer = nn."))
    assert "Conv2d" in labels and "Dense" in labels and "Cell" in labels


@pytest.mark.slow
async def test_completes_ops_members_with_module_alias(
    client: LanguageClient, tmp_path: Path
) -> None:
    uri = _open(client, tmp_path / "f.py", "import mindspore.ops as ops\nops.\n")
    labels = await _labels(client, uri, 1, len("ops."))
    assert "matmul" in labels and "relu" in labels


async def test_half_typed_code_gets_an_answer_not_a_crash(
    client: LanguageClient, tmp_path: Path
) -> None:
    uri = _open(client, tmp_path / "broken.py", "def f(:\n    x = (\nfrom mindspore import nn\nnn.")
    assert "Conv2d" in await _labels(client, uri, 3, 3)
    # A position past the end of the document is clamped to the end, not an error.
    assert "Conv2d" in await _labels(client, uri, 40, 7)
    # And the server is still alive for the next request.
    assert "def" in await _labels(client, uri, 0, 1)
