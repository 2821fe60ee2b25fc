"""The cheaper document sync gives VS Code's text after any edit (pygls's own sync drifts at
"\x0c", "\u2028"…), and the server's pre-encoded completion lists and chunked reading work
with a real client."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest_lsp
from hypothesis import given, settings
from hypothesis import strategies as st
from lsprotocol import types
from pygls.workspace import TextDocument
from pytest_lsp import ClientServerConfig, LanguageClient

from mindscope_ls.infra.transport import SyncedDocument

from .session import open_session
from .vscode_text import VSCodeText

BREAKS_PYTHON_KEEPS = ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
PIECE = st.sampled_from(["a", "é", "😋", "\n", "\r\n", "\r", " ", "(", *BREAKS_PYTHON_KEEPS])
TEXT = st.lists(PIECE, max_size=12).map("".join)


@st.composite
def _edits(draw: st.DrawFn) -> tuple[str, list[types.TextDocumentContentChangePartial]]:
    source = draw(TEXT)
    changes = []
    for _ in range(draw(st.integers(1, 6))):
        position = st.builds(types.Position, line=st.integers(0, 6), character=st.integers(0, 6))
        start, end = draw(position), draw(position)
        changes.append(
            types.TextDocumentContentChangePartial(
                range=types.Range(start=start, end=end), text=draw(TEXT)
            )
        )
    return source, changes


@given(_edits())
@settings(max_examples=400, deadline=None)
def test_incremental_edits_give_vscode_text(
    case: tuple[str, list[types.TextDocumentContentChangePartial]],
) -> None:
    source, changes = case
    ours = TextDocument("file:///a.py", source)
    ours.__class__ = SyncedDocument
    reference = VSCodeText(source)
    for change in changes:
        ours.apply_change(_copy(change))
        reference.apply(_copy(change))
        assert ours.source == reference.text
        assert list(ours.lines) == reference.lines()


def test_a_form_feed_line_survives_an_edit_below_it() -> None:
    # The case: pygls gave "a = 1\n\x0ccb = 2\n".
    document = TextDocument("file:///a.py", "a = 1\n\x0c\nb = 2\n")
    document.__class__ = SyncedDocument
    at = types.Position(line=2, character=0)
    document.apply_change(
        types.TextDocumentContentChangePartial(range=types.Range(start=at, end=at), text="c")
    )
    assert document.source == "a = 1\n\x0c\ncb = 2\n"
    assert len(document.lines) == 3


def _copy(change: types.TextDocumentContentChangePartial) -> types.TextDocumentContentChangePartial:
    start, end = change.range.start, change.range.end
    return types.TextDocumentContentChangePartial(
        range=types.Range(
            start=types.Position(line=start.line, character=start.character),
            end=types.Position(line=end.line, character=end.character),
        ),
        text=change.text,
    )


def test_a_full_change_replaces_the_kept_lines() -> None:
    document = TextDocument("file:///a.py", "a\nb\n")
    document.__class__ = SyncedDocument
    assert list(document.lines) == ["a\n", "b\n"]
    document.apply_change(types.TextDocumentContentChangeWholeDocument(text="c\n"))
    assert list(document.lines) == ["c\n"]


@pytest_lsp.fixture(  # type: ignore[untyped-decorator]
    config=ClientServerConfig(server_command=[sys.executable, "-m", "mindscope_ls"]),
)
async def client(lsp_client: LanguageClient, tmp_path: Path) -> AsyncIterator[None]:
    await open_session(lsp_client, tmp_path)
    yield
    await lsp_client.shutdown_session()


async def test_typed_edits_and_large_listings_go_through(
    client: LanguageClient, tmp_path: Path
) -> None:
    uri = (tmp_path / "typed.py").as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="python", version=1, text="from mindspore import ops\n\n"
            )
        )
    )
    for column, char in enumerate("y = ops."):  # one message per keystroke, as typed
        at = types.Position(line=1, character=column)
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=column + 2),
                content_changes=[
                    types.TextDocumentContentChangePartial(
                        range=types.Range(start=at, end=at), text=char
                    )
                ],
            )
        )
    result = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=1, character=len("y = ops.")),
        )
    )
    assert isinstance(result, types.CompletionList) and not result.is_incomplete
    items = {item.label: item for item in result.items}
    assert len(items) > 1000 and "matmul" in items
    matmul = items["matmul"]
    assert matmul.label_details is not None and matmul.label_details.detail
    # documentation and where the API lives come with resolve
    assert matmul.documentation is None and matmul.detail is None
    resolved = await client.completion_item_resolve_async(matmul)
    assert resolved.detail == "ops.matmul"
    assert isinstance(resolved.documentation, types.MarkupContent)
    assert "matmul(input, other)" in resolved.documentation.value
