"""`MINDSCOPE_TRACE`: a server started with it writes each request, its answer, the warm-up
stages and the garbage collections; the report reads them back."""

from __future__ import annotations

import json
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from mindscope_ls.infra import trace, tracereport

from .session import open_session

TRACE = Path(tempfile.mkdtemp(prefix="mindscope-trace-")) / "server.jsonl"
SOURCE = "from mindspore import nn\n\nlayer = nn.\n"


def _records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest_lsp.fixture(  # type: ignore[untyped-decorator]
    config=ClientServerConfig(
        server_command=[sys.executable, "-m", "mindscope_ls"],
        server_env={"MINDSCOPE_TRACE": str(TRACE)},
    ),
)
async def client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    await open_session(lsp_client, warm_up=True)
    yield
    await lsp_client.shutdown_session()


async def test_a_traced_server_writes_requests_answers_and_spans(client: LanguageClient) -> None:
    uri = "file:///trace/net.py"
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="python", version=1, text=SOURCE
            )
        )
    )
    result = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=2, character=11),
        )
    )
    assert isinstance(result, types.CompletionList) and result.items
    # The trace is written a line at a time: what happened so far is there already.
    records = _records(TRACE)
    requests = [r for r in records if r["ev"] == "request"]
    completion = next(r for r in requests if r["method"] == "textDocument/completion")
    assert any(r["ev"] == "answer" and r["id"] == completion["id"] for r in records)
    names = {r["name"] for r in records if r["ev"] == "end"}
    assert "completion" in names
    assert any(r["ev"] == "note" and r["method"] == "textDocument/didOpen" for r in records)
    assert any(r["ev"] == "read" for r in records)


def test_spans_events_and_collections_are_written_and_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import gc

    path = tmp_path / "unit.jsonl"
    assert not trace.enabled()
    with trace.span("untraced"):  # off: nothing written anywhere
        pass
    trace.start(str(path))
    try:
        trace.event("request", id=7, method="textDocument/hover")
        with trace.span("hover", uri="file:///x.py"):
            gc.collect(0)
            time.sleep(0.002)  # long enough for the report to list it
        trace.event("answer", id=7)
    finally:
        trace.stop()
    assert not trace.enabled()
    records = _records(path)
    assert [r["ev"] for r in records if r["ev"] != "gc"] == [
        "trace",
        "request",
        "begin",
        "end",
        "answer",
        "trace stopped",
    ]
    assert any(r["ev"] == "gc" and r["gen"] == 0 for r in records)
    ended = next(r for r in records if r["ev"] == "end")
    assert ended["name"] == "hover" and ended["uri"] == "file:///x.py" and ended["ms"] >= 0

    tracereport.report(path, min_ms=0)
    out = capsys.readouterr().out
    assert "textDocument/hover #7" in out
    assert "hover {'uri': 'file:///x.py'} (" in out
