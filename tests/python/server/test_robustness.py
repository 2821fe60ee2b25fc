"""Half-typed code, random edits, a 20,000-line file and a non-UTF-8 file never crash the server:
every completion, hover and signature help request gets an answer (maybe empty), never an
error, and the server keeps running."""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities
from pytest_lsp.client import make_test_lsp_client

from mindscope_ls.analysis.completion import mindspore_answer
from mindscope_ls.analysis.hover import hover, signature_help
from mindscope_ls.catalogue.load import catalogue_for

pytestmark = pytest.mark.slow
T = TypeVar("T")

BASE = """import mindspore as ms
from mindspore import nn, ops


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)

    def construct(self, x):
        y = self.conv(x)
        return ops.relu(y)
"""
SNIPPETS = [
    "ops.", "nn.", "self.", "x.", "ms.", "ops.matmul(", "nn.Conv2d(3, ", "(", ")", "[", "]",
    "def f(:", "class C(nn.", "\n", "\n    ", "    ", ":", "'", '"', '"""', "#", "\\",
    "lambda", "x = ", "ops.matmul(x, other=", "é", "😀", "\ufffd", "\t", "import ", "from ",
    "@ms.jit\n", "y.sum().", "self.conv(", "*", "**", ",", "=", "if x:\n        ",
]  # fmt: skip
EDIT = st.tuples(
    st.sampled_from(["insert", "delete"]),
    st.floats(min_value=0, max_value=1),
    st.one_of(st.sampled_from(SNIPPETS), st.text(max_size=12)),
    st.integers(min_value=1, max_value=30),
)


def apply(text: str, edit: tuple[str, float, str, int]) -> tuple[str, int]:
    """The text after the edit, and the offset where the cursor ends up."""
    kind, where, snippet, length = edit
    at = int(where * len(text))
    if kind == "insert":
        return text[:at] + snippet + text[at:], at + len(snippet)
    return text[:at] + text[at + length :], at


def position(text: str, offset: int) -> types.Position:
    """An LSP position (UTF-16 units, as VS Code counts) of a code-point offset."""
    line = text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    column = len(text[start:offset].encode("utf-16-le")) // 2
    return types.Position(line=line, character=column)


# -- the analysis itself, on many random edits -----------------------------------------------
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(EDIT, min_size=1, max_size=6))
def test_the_analysis_never_raises_on_random_edits(
    edits: list[tuple[str, float, str, int]],
) -> None:
    cat = catalogue_for("2.10.0")
    assert cat is not None
    text = BASE
    for edit in edits:
        text, offset = apply(text, edit)
        line = text.count("\n", 0, offset)
        column = offset - (text.rfind("\n", 0, offset) + 1)
        for at in (column, column + 3, 0):
            mindspore_answer(text, line, at, cat)
            hover(text, line, at, cat)
            signature_help(text, line, at, cat)


# -- the real server over stdio ---------------------------------------------------------------
class Driver:
    """A server and its client on an event loop of their own, for synchronous tests
    (hypothesis drives plain functions)."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.client: LanguageClient = self.run(self._start())
        self.version = 0

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = 120) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    async def _start(self) -> LanguageClient:
        client = make_test_lsp_client()
        await client.start_io(sys.executable, "-m", "mindscope_ls")
        await client.initialize_session(
            types.InitializeParams(
                capabilities=client_capabilities("visual-studio-code"),
                initialization_options={"warmUp": False},
            )
        )
        return client

    async def _notify(self, method: str, params: Any) -> None:
        self.client.protocol.notify(method, params)

    def open(self, uri: str, text: str) -> None:
        item = types.TextDocumentItem(uri=uri, language_id="python", version=0, text=text)
        self.run(self._notify("textDocument/didOpen", types.DidOpenTextDocumentParams(item)))

    def change(self, uri: str, text: str) -> None:
        self.version += 1
        doc = types.VersionedTextDocumentIdentifier(uri=uri, version=self.version)
        change = types.TextDocumentContentChangeWholeDocument(text=text)
        params = types.DidChangeTextDocumentParams(text_document=doc, content_changes=[change])
        self.run(self._notify("textDocument/didChange", params))

    def ask_all(self, uri: str, at: types.Position) -> None:
        """Completion, hover and signature help at `at`: each must answer, not fail."""
        doc = types.TextDocumentIdentifier(uri=uri)
        client = self.client
        self.run(client.text_document_completion_async(types.CompletionParams(doc, at)))
        self.run(client.text_document_hover_async(types.HoverParams(doc, at)))
        self.run(client.text_document_signature_help_async(types.SignatureHelpParams(doc, at)))

    def close(self) -> None:
        try:
            self.run(self.client.shutdown_session(), timeout=60)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)


@pytest.fixture(scope="module")
def server() -> Iterator[Driver]:
    driver = Driver()
    yield driver
    driver.close()


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(EDIT, min_size=1, max_size=3))
def test_the_server_answers_every_request_while_random_edits_are_typed(
    server: Driver, edits: list[tuple[str, float, str, int]]
) -> None:
    uri = "file:///tmp/mindscope-random-edits.py"
    text = BASE
    server.open(uri, text)
    for edit in edits:
        text, offset = apply(text, edit)
        server.change(uri, text)
        at = position(text, offset)
        server.ask_all(uri, at)
        # Past the end of the line: clamped, not an error.
        server.ask_all(uri, types.Position(line=at.line, character=at.character + 999))
    server.ask_all(uri, types.Position(line=text.count("\n") + 5, character=0))


def test_a_20000_line_file_is_answered(server: Driver) -> None:
    block = BASE.split("\n\n\n", 1)[1]
    parts = [BASE.split("\n\n\n", 1)[0]]
    parts += [block.replace("class Net", f"class Net{i}") for i in range(20_000 // 10)]
    text = "\n\n".join(parts) + "\nnet = Net7()\nnet.\nops.\n"
    assert text.count("\n") > 20_000
    uri = "file:///tmp/mindscope-huge.py"
    server.open(uri, text)
    lines = text.split("\n")
    for line in (len(lines) - 3, 10_001):  # `net.` at the end; mid-file, a jedi fallback
        server.ask_all(uri, types.Position(line=line, character=len(lines[line])))
    found = server.run(
        server.client.text_document_completion_async(
            types.CompletionParams(
                types.TextDocumentIdentifier(uri=uri),
                types.Position(line=len(lines) - 2, character=4),
            )
        )
    )
    assert isinstance(found, types.CompletionList) and "matmul" in {i.label for i in found.items}


def test_a_file_that_is_not_utf8_is_answered(server: Driver, tmp_path: Path) -> None:
    raw = (
        BASE.encode() + b"w = '\xff\xfe\x80abc'\n# \xc3\x28 latin-1: caf\xe9\nops.\n\xe9x = ops.ma"
    )
    path = tmp_path / "latin1.py"
    path.write_bytes(raw)
    # VS Code decodes with the file's encoding guess; bytes it cannot map arrive as U+FFFD.
    text = raw.decode("utf-8", errors="replace")
    assert "\ufffd" in text
    uri = path.as_uri()
    server.open(uri, text)
    lines = text.split("\n")
    for number, line in enumerate(lines):
        for column in sorted({0, len(line) // 2, len(line)}):
            server.ask_all(uri, position(text, sum(len(x) + 1 for x in lines[:number]) + column))
    found = server.run(
        server.client.text_document_completion_async(
            types.CompletionParams(
                types.TextDocumentIdentifier(uri=uri),
                types.Position(line=len(lines) - 2, character=4),
            )
        )
    )
    assert isinstance(found, types.CompletionList) and "matmul" in {i.label for i in found.items}
