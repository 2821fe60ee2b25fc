"""A multi-root workspace: every folder is indexed and watched, and a file's imports resolve
inside its own folder (as Python run from that folder would), whichever folder comes first."""

from __future__ import annotations

import textwrap
from collections.abc import AsyncIterator
from pathlib import Path

import attrs
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from .lsp_session import CONFIG, codes, initialize_params, open_document, wait_diagnostics

CELL_BLOCK = "from mindspore import nn\n\nclass Block(nn.Cell):\n    pass\n"


def head(module: str, base: str) -> str:
    return textwrap.dedent(
        f"""\
        from {module} import {base}

        class Head({base}):
            def construct(self, x):
                del x
                return 1
        """
    )


@pytest_lsp.fixture(config=CONFIG)  # type: ignore[untyped-decorator]
async def client(lsp_client: LanguageClient, tmp_path: Path) -> AsyncIterator[None]:
    first, second = tmp_path / "first", tmp_path / "second"
    for folder in (first, second):
        folder.mkdir()
    # The same module name in both folders: a Cell in the first, a plain class in the second.
    (first / "base.py").write_text(CELL_BLOCK, encoding="utf-8")
    (second / "base.py").write_text("class Block:\n    pass\n", encoding="utf-8")
    (second / "layers.py").write_text(CELL_BLOCK.replace("Block", "Layer"), encoding="utf-8")
    folders = [types.WorkspaceFolder(uri=f.as_uri(), name=f.name) for f in (first, second)]
    params = attrs.evolve(initialize_params(first), workspace_folders=folders)
    await lsp_client.initialize_session(params)
    yield
    await lsp_client.shutdown_session()


async def test_every_folder_is_indexed_and_imports_resolve_in_their_own_folder(
    client: LanguageClient, tmp_path: Path
) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    # A Cell base class in another file of the second folder (only the first was indexed).
    layered = (second / "layered.py").as_uri()
    open_document(client, layered, head("layers", "Layer"))
    assert codes(await wait_diagnostics(client, layered, lambda d: len(d) > 0)) == ["MS102"]
    in_first = (first / "head.py").as_uri()
    open_document(client, in_first, head("base", "Block"))
    assert codes(await wait_diagnostics(client, in_first, lambda d: len(d) > 0)) == ["MS102"]
    # `base` in the second folder is its own base.py, whose Block is no Cell.
    in_second = (second / "head.py").as_uri()
    open_document(client, in_second, head("base", "Block"))
    assert codes(await wait_diagnostics(client, in_second, lambda d: True)) == []


async def test_every_folder_is_watched(client: LanguageClient, tmp_path: Path) -> None:
    second = tmp_path / "second"
    layered = (second / "layered.py").as_uri()
    open_document(client, layered, head("layers", "Layer"))
    assert codes(await wait_diagnostics(client, layered, lambda d: len(d) > 0)) == ["MS102"]
    uri = (second / "later.py").as_uri()
    open_document(client, uri, head("late", "Late"))
    assert codes(await wait_diagnostics(client, uri, lambda d: True)) == []
    late = second / "late.py"
    late.write_text(CELL_BLOCK.replace("Block", "Late"), encoding="utf-8")
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=late.as_uri(), type=types.FileChangeType.Created)]
        )
    )
    assert codes(await wait_diagnostics(client, uri, lambda d: len(d) > 0)) == ["MS102"]
