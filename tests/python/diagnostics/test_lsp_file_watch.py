"""Files created, changed and deleted on disk reach the workspace index through the protocol:
`workspace/didChangeWatchedFiles` (sent by VS Code for the `**/*.py` watcher the extension
declares) updates the index and re-checks the open documents that depend on the file."""

from __future__ import annotations

import textwrap
from collections.abc import AsyncIterator
from pathlib import Path

import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from .lsp_session import CONFIG, codes, initialize_params, open_document, wait_diagnostics

HEAD = textwrap.dedent(
    """\
    from base import Block

    class Head(Block):
        def construct(self, x):
            del x
            return 1
    """
)
BLOCK_CELL = "from mindspore import nn\n\nclass Block(nn.Cell):\n    pass\n"
BLOCK_PLAIN = "class Block:\n    pass\n"


@pytest_lsp.fixture(config=CONFIG)  # type: ignore[untyped-decorator]
async def client(lsp_client: LanguageClient, tmp_path: Path) -> AsyncIterator[None]:
    await lsp_client.initialize_session(initialize_params(tmp_path))
    yield
    await lsp_client.shutdown_session()


def _notify(client: LanguageClient, path: Path, change: types.FileChangeType) -> None:
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=path.as_uri(), type=change)])
    )


async def test_a_base_cell_in_a_file_created_later_is_found(
    client: LanguageClient, tmp_path: Path
) -> None:
    uri = (tmp_path / "head.py").as_uri()
    base = tmp_path / "base.py"
    open_document(client, uri, HEAD)
    # `Block` is unknown, so `Head` is not known to be a Cell: its `del` is not compiled code.
    assert codes(await wait_diagnostics(client, uri, lambda d: True)) == []

    base.write_text(BLOCK_CELL, encoding="utf-8")
    _notify(client, base, types.FileChangeType.Created)
    assert codes(await wait_diagnostics(client, uri, lambda d: len(d) > 0)) == ["MS102"]

    base.write_text(BLOCK_PLAIN, encoding="utf-8")
    _notify(client, base, types.FileChangeType.Changed)
    assert codes(await wait_diagnostics(client, uri, lambda d: len(d) == 0)) == []

    base.write_text(BLOCK_CELL, encoding="utf-8")
    _notify(client, base, types.FileChangeType.Changed)
    assert codes(await wait_diagnostics(client, uri, lambda d: len(d) > 0)) == ["MS102"]

    base.unlink()
    _notify(client, base, types.FileChangeType.Deleted)
    assert codes(await wait_diagnostics(client, uri, lambda d: len(d) == 0)) == []


async def test_a_deleted_folder_takes_its_files_out_of_the_index(
    client: LanguageClient, tmp_path: Path
) -> None:
    package = tmp_path / "blocks"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "base.py").write_text(BLOCK_CELL, encoding="utf-8")
    uri = (tmp_path / "head.py").as_uri()
    open_document(client, uri, HEAD.replace("from base", "from blocks.base"))
    _notify(client, package / "base.py", types.FileChangeType.Created)
    assert codes(await wait_diagnostics(client, uri, lambda d: len(d) > 0)) == ["MS102"]

    for child in package.iterdir():
        child.unlink()
    package.rmdir()
    _notify(client, package, types.FileChangeType.Deleted)
    assert codes(await wait_diagnostics(client, uri, lambda d: len(d) == 0)) == []
