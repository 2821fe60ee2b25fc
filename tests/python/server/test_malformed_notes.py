"""A notification the server cannot use (issue 19): a `didChange` with a bad range, a `didOpen`
without `text`, a change to a document that is not open. pygls showed the user an "Error in
server: Invalid Params" popup for each; the server logs them, shows nothing, and keeps every
document as the editor has it (an edit is applied whole or not at all)."""

from __future__ import annotations

import queue
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types

from mindscope_ls.infra.transport import SyncedDocument, SyncedWorkspace

from .rawlsp import RawClient

TEXT = "a = 1\nb = 2\n"


def _range(start: tuple[int, int], end: tuple[int, int]) -> dict[str, Any]:
    return {
        "start": {"line": start[0], "character": start[1]},
        "end": {"line": end[0], "character": end[1]},
    }


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("notes")


@pytest.fixture(scope="module")
def client(folder: Path) -> Iterator[RawClient]:
    raw = RawClient(folder)
    yield raw
    raw.stop()


def _popups(client: RawClient) -> list[str]:
    """The messages shown to the user so far: the server answered a request after the
    notifications, so whatever they showed has arrived."""
    shown: list[str] = []
    while True:
        try:
            note = client.notifications.get_nowait()
        except queue.Empty:
            return shown
        if note["method"] in ("window/showMessage", "window/showMessageRequest"):
            shown.append(note["params"]["message"])


def _change(uri: str, version: int, *changes: Any) -> dict[str, Any]:
    return {"textDocument": {"uri": uri, "version": version}, "contentChanges": list(changes)}


# name -> (document uri, another uri) -> (method, params)
BAD_NOTES: dict[str, Callable[[str, str], tuple[str, Any]]] = {
    "a negative line": lambda uri, other: (
        "textDocument/didChange",
        _change(uri, 2, {"range": _range((-1, 0), (0, 0)), "text": "X"}),
    ),
    "a good edit then a bad one": lambda uri, other: (
        "textDocument/didChange",
        _change(
            uri,
            2,
            {"range": _range((0, 0), (0, 0)), "text": "GOOD"},
            {"range": {"start": {"line": 0}}, "text": "X"},
        ),
    ),
    "no contentChanges": lambda uri, other: (
        "textDocument/didChange",
        {"textDocument": {"uri": uri, "version": 2}},
    ),
    "a document that is not open": lambda uri, other: (
        "textDocument/didChange",
        _change(other, 2, {"text": "q = 1\n"}),
    ),
    "didOpen without text": lambda uri, other: (
        "textDocument/didOpen",
        {"textDocument": {"uri": other, "languageId": "python", "version": 1}},
    ),
    "didClose of a document that is not open": lambda uri, other: (
        "textDocument/didClose",
        {"textDocument": {"uri": other}},
    ),
    "didSave with a string": lambda uri, other: ("textDocument/didSave", "garbage"),
}


@pytest.mark.parametrize("name", list(BAD_NOTES))
def test_a_bad_notification_is_logged_not_shown_and_the_text_stays(
    client: RawClient, folder: Path, name: str
) -> None:
    uri = (folder / f"{name.replace(' ', '_')}.py").as_uri()
    other = (folder / f"{name.replace(' ', '_')}_other.py").as_uri()
    client.open(uri, TEXT)
    assert client.text(uri) == TEXT
    _popups(client)
    method, params = BAD_NOTES[name](uri, other)
    client.notify(method, params)
    assert client.text(uri) == TEXT  # the editor did not apply it either: nothing changed
    assert client.text(other) is None  # never opened
    assert _popups(client) == [], name
    # The document goes on: the next edit applies where the editor applies it.
    client.change(uri, 3, [{"range": _range((1, 0), (1, 0)), "text": "c = 3\n"}])
    assert client.text(uri) == "a = 1\nc = 3\nb = 2\n"
    assert client.alive()
    client.close_document(uri)


def test_a_range_written_backwards_applies_as_the_editor_applies_it(
    client: RawClient, folder: Path
) -> None:
    uri = (folder / "backwards.py").as_uri()
    client.open(uri, TEXT)
    client.change(uri, 2, [{"range": _range((1, 0), (0, 0)), "text": "Y"}])  # start after end
    assert client.text(uri) == "Yb = 2\n"
    assert _popups(client) == []
    client.close_document(uri)


def test_an_edit_that_fails_half_way_changes_nothing() -> None:
    workspace = SyncedWorkspace(None)
    workspace.__class__ = SyncedWorkspace
    uri = "file:///w/m.py"
    workspace.put_text_document(
        types.TextDocumentItem(uri=uri, language_id="python", version=1, text=TEXT)
    )
    document = workspace.text_documents[uri]
    assert isinstance(document, SyncedDocument)
    at = types.Position(line=0, character=0)
    good = types.TextDocumentContentChangePartial(range=types.Range(start=at, end=at), text="Z")
    broken = types.TextDocumentContentChangePartial(range=None, text="X")  # type: ignore[arg-type]
    params = types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[good, broken],
    )
    assert workspace.apply_changes(params) is False
    assert document.source == TEXT and document.version == 1
    assert list(document.lines) == ["a = 1\n", "b = 2\n"]
    params.content_changes = [good]
    assert workspace.apply_changes(params) is True
    assert document.source == "Z" + TEXT and document.version == 2
