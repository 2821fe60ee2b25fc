"""A pytest-lsp session against the real server, and helpers to wait for diagnostics."""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

CONFIG = ClientServerConfig(server_command=[sys.executable, "-m", "mindscope_ls"])


def initialize_params(
    root: Path, graph_mode: dict[str, Any] | None = None
) -> types.InitializeParams:
    return types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        root_uri=root.as_uri(),
        initialization_options={"warmUp": False, "graphMode": graph_mode or {"debounceMs": 50}},
    )


def open_document(client: LanguageClient, uri: str, text: str, version: int = 1) -> None:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="python", version=version, text=text
            )
        )
    )


def replace_text(client: LanguageClient, uri: str, text: str, version: int) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


async def wait_diagnostics(
    client: LanguageClient,
    uri: str,
    done: Callable[[Sequence[types.Diagnostic]], bool],
    timeout: float = 30,
) -> Sequence[types.Diagnostic]:
    """Waits for publishDiagnostics notifications until `uri`'s diagnostics satisfy `done`."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        current = client.diagnostics.get(uri)
        if current is not None and done(current):
            return list(current)
        remaining = deadline - loop.time()
        if remaining <= 0:
            raise AssertionError(f"diagnostics for {uri} never matched; last: {current}")
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(
                client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), remaining
            )


def codes(diagnostics: object) -> list[str]:
    """The codes of a list of diagnostics, in order."""
    assert isinstance(diagnostics, (list, tuple))
    return [str(d.code) for d in diagnostics]


def apply_edits(text: str, edits: Sequence[types.TextEdit]) -> str:
    """Applies LSP edits (UTF-16 positions) to `text`, last edit first."""
    lines = text.split("\n")

    def offset(pos: types.Position) -> int:
        before = sum(len(line) + 1 for line in lines[: pos.line])
        line = lines[pos.line] if pos.line < len(lines) else ""
        units = line.encode("utf-16-le")[: pos.character * 2].decode("utf-16-le")
        return before + len(units)

    for edit in sorted(
        edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True
    ):
        start, end = offset(edit.range.start), offset(edit.range.end)
        text = text[:start] + edit.new_text + text[end:]
    return text
