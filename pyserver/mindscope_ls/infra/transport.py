"""The server's side of the wire, made cheap per message: every keystroke is a `didChange`.

- `ChunkReader` reads stdin in one thread, a chunk at a time: pygls's reader asks a pool
  thread for every header line and every body, three thread hops per keystroke, and each hop
  waits for the GIL while another thread computes.
- `MindScopeProtocol` sends results that are already JSON text (`Encoded`) as they are, and
  tells background work that the user is active (`warmup.touch`, from the moment bytes are
  read) and which requests wait for an answer (`warmup.request_arrived`), and writes the
  `MINDSCOPE_TRACE` lines of each message (trace.py).
- `SyncedDocument` applies an incremental change to a kept list of lines: pygls copies the
  whole text line by line per keystroke and splits it again on every `lines` (~1 ms each on
  a 3,000-line file, and a request waits for the keystrokes typed before it). Its lines are
  the editor's (`split_lines`), so positions mean what they mean in VS Code.

Both lean on pygls internals (pinned in pyproject.toml): `test_transport.py` checks them.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import os
import threading
from collections.abc import Generator, Sequence
from typing import Any, BinaryIO, Optional
from urllib.parse import unquote

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.protocol import LanguageServerProtocol, lsp_method
from pygls.workspace import TextDocument, Workspace

from mindscope_ls.checker import Unread, read_source, split_lines
from mindscope_ls.documents.editorlines import apply_change
from mindscope_ls.infra import trace, warmup
from mindscope_ls.infra.answers import Answered, internal_error, invalid_params

log = logging.getLogger(__name__)


class ChunkReader:
    """pygls's `AsyncReader` over a stream that one thread reads as data comes."""

    def __init__(self, stream: BinaryIO) -> None:
        self._input = stream
        self._stream: Optional[asyncio.StreamReader] = None

    def _started(self) -> asyncio.StreamReader:
        if self._stream is None:
            loop = asyncio.get_running_loop()
            self._stream = asyncio.StreamReader(loop=loop)
            pump = threading.Thread(
                target=self._pump, args=(loop, self._stream), name="mindscope-stdin", daemon=True
            )
            pump.start()
        return self._stream

    def _pump(self, loop: asyncio.AbstractEventLoop, stream: asyncio.StreamReader) -> None:
        try:
            descriptor = self._input.fileno()
        except (OSError, ValueError, AttributeError):
            read = getattr(self._input, "read1", self._input.read)
        else:
            # The file descriptor, not the buffered file: a thread blocked in the buffered
            # file's read holds its lock, which aborts the interpreter's exit.
            def read(size: int) -> bytes:
                return os.read(descriptor, size)

        try:
            while True:
                try:
                    chunk = read(1 << 16)
                except (OSError, ValueError):
                    chunk = b""
                if not chunk:
                    loop.call_soon_threadsafe(stream.feed_eof)
                    return
                # Background work pauses from now, not once the loop gets the GIL to read it.
                warmup.touch()
                if trace.enabled():
                    trace.event("read", bytes=len(chunk))
                loop.call_soon_threadsafe(stream.feed_data, chunk)
        except RuntimeError:  # the loop closed: the server is exiting
            return

    async def readline(self) -> bytes:
        return await self._started().readline()

    async def readexactly(self, n: int) -> bytes:
        try:
            return await self._started().readexactly(n)
        except asyncio.IncompleteReadError:
            return b""  # end of input: pygls stops reading


class Encoded:
    """A result already encoded as JSON text (ASCII: Content-Length counts characters)."""

    def __init__(self, text: str) -> None:
        self.text = text


class SyncedDocument(TextDocument):
    """pygls's document, with its lines kept between edits."""

    _kept: Optional[tuple[str, list[str]]] = None  # (the source they split, the lines)

    @property
    def source(self) -> str:
        """The text; for a document that is not open, the file's, or InvalidParams saying why
        it cannot be read (pygls raised whatever `open` raised: IsADirectoryError…)."""
        if self._source is None and self.path is not None:
            text = read_source(self.path)
            if isinstance(text, Unread):
                raise JsonRpcInvalidParams(f"{self.uri} is not open and cannot be read: {text}")
            return text
        return self._source or ""

    @property
    def lines(self) -> Sequence[str]:
        return tuple(self._line_list())

    def _line_list(self) -> list[str]:
        source = self.source
        kept = self._kept
        if kept is None or kept[0] is not source:
            kept = self._kept = (source, split_lines(source, True))
        return kept[1]

    def _apply_incremental_change(self, change: types.TextDocumentContentChangePartial) -> None:
        """The edit as VS Code applies it (editorlines.py), on the changed lines only."""
        units = self.position_codec.impl.code_units_for_char
        lines = apply_change(self._line_list(), change, units)
        source = "".join(lines)
        self._source = source
        self._kept = (source, lines)

    def _apply_full_change(self, change: types.TextDocumentContentChangeEvent) -> None:
        super()._apply_full_change(change)
        self._kept = None


class SyncedWorkspace(Workspace):
    """Creates `SyncedDocument`s (and holds no state of its own, see `MindScopeProtocol`)."""

    def apply_changes(self, params: types.DidChangeTextDocumentParams) -> bool:
        """All of a `didChange`'s edits, or none: one that cannot be applied leaves the
        document as it was (text and version) and is logged. False when nothing changed."""
        uri = params.text_document.uri
        document = self.text_documents.get(unquote(uri))
        if not isinstance(document, SyncedDocument):
            log.warning("textDocument/didChange ignored: %s is not open", uri)
            return False
        kept = (document._source, document._kept, document.version)
        try:
            for change in params.content_changes:
                self.update_text_document(params.text_document, change)
        except Exception:
            document._source, document._kept, document.version = kept
            log.exception("textDocument/didChange ignored: %s stays at version %s", uri, kept[2])
            return False
        return True

    def _create_text_document(
        self,
        doc_uri: str,
        source: Optional[str] = None,
        version: Optional[int] = None,
        language_id: Optional[str] = None,
    ) -> TextDocument:
        document = super()._create_text_document(doc_uri, source, version, language_id)
        document.__class__ = SyncedDocument
        return document


class MindScopeProtocol(LanguageServerProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._method_of: dict[Any, str] = {}  # requests being answered

    def structure_message(self, data: dict[str, Any]) -> Any:
        """pygls's, answering a request whose params do not fit instead of dropping it."""
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            if not (isinstance(data, dict) and "id" in data and "method" in data):
                raise
            self._send_response(data["id"], None, invalid_params(str(data["method"]), error))
            return Answered()

    def _send_handler_result(self, future: Any, *, msg_id: Any) -> None:
        """pygls's, with a short message for an unexpected exception (answers.py)."""
        method = self._method_of.pop(msg_id, None)
        error = None if future.cancelled() else future.exception()
        if error is None or isinstance(error, JsonRpcException):
            super()._send_handler_result(future, msg_id=msg_id)
            return
        self._request_futures.pop(msg_id, None)
        self._send_response(msg_id, None, internal_error(method, error))

    def _handle_request(self, msg_id: Any, method_name: str, params: Any) -> None:
        self._method_of[msg_id] = method_name  # for `_send_handler_result`'s message
        super()._handle_request(msg_id, method_name, params)

    def handle_message(self, message: Any) -> None:
        if isinstance(message, Answered):
            return
        warmup.touch()
        if trace.enabled():
            _trace_arrival(message)
        ident = getattr(message, "id", None)
        if ident is not None and getattr(message, "method", None) is not None:
            # A request: background work pauses until it is answered, queued or not.
            warmup.request_arrived(ident)
        super().handle_message(message)

    @lsp_method(types.INITIALIZE)
    def lsp_initialize(
        self, params: types.InitializeParams
    ) -> Generator[Any, Any, types.InitializeResult]:
        result: types.InitializeResult = yield from super().lsp_initialize(params)
        # pygls builds its Workspace here; no document is open before `initialized`.
        self.workspace.__class__ = SyncedWorkspace
        return result

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(
        self, params: types.DidChangeTextDocumentParams
    ) -> Generator[Any, Any, None]:
        """pygls's, with the edits applied all or none (`SyncedWorkspace.apply_changes`)."""
        workspace = self.workspace
        if isinstance(workspace, SyncedWorkspace) and not workspace.apply_changes(params):
            return
        if not isinstance(workspace, SyncedWorkspace):  # before `initialize`: pygls's own
            for change in params.content_changes:
                workspace.update_text_document(params.text_document, change)
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None

    def _send_data(self, data: Any) -> None:
        self._send(data)
        ident = getattr(data, "id", None)
        if ident is not None and getattr(data, "method", None) is None:  # an answer
            warmup.request_answered(ident)
            if trace.enabled():
                trace.event("answer", id=ident)

    def _send(self, data: Any) -> None:
        result = getattr(data, "result", None)
        if not isinstance(result, Encoded) or self.writer is None:
            super()._send_data(data)
            return
        body = f'{{"id":{json.dumps(data.id)},"jsonrpc":"2.0","result":{result.text}}}'
        if getattr(self, "_include_headers", True):
            body = (
                f"Content-Length: {len(body)}\r\n"
                f"Content-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n{body}"
            )
        try:
            written = self.writer.write(body.encode(self.CHARSET))
            if inspect.isawaitable(written):  # a websocket: keep the task referenced
                self._writing = asyncio.ensure_future(written)
        except BrokenPipeError:
            log.exception("Error sending data. BrokenPipeError")
            raise


def _trace_arrival(message: Any) -> None:
    method = getattr(message, "method", None)
    if method is None:
        return  # the client's answer to a request of ours
    ident = getattr(message, "id", None)
    if ident is None:
        trace.event("note", method=method)
    else:
        trace.event("request", id=ident, method=method)
