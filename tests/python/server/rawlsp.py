"""A bare LSP client over stdio that sends any JSON (malformed params included) and tells an
answered request from an unanswered one: for the fuzz, memory and bad-request tests (and
bench/lsp_fuzz.py). pytest-lsp's client only sends well-typed params."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any, BinaryIO, Optional

SERVER = [sys.executable, "-m", "mindscope_ls"]


class RawClient:
    def __init__(self, root: Optional[Path] = None, options: Optional[dict[str, Any]] = None):
        self.proc = subprocess.Popen(
            SERVER,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=str(root) if root else None,
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._out: IO[bytes] = self.proc.stdin
        self._next = 0
        self._answers: dict[int, queue.Queue[dict[str, Any]]] = {}
        self._lock = threading.Lock()
        self.notifications: queue.Queue[dict[str, Any]] = queue.Queue()
        threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True).start()
        init = {
            "processId": os.getpid(),
            "rootUri": root.as_uri() if root else None,
            "capabilities": {"general": {"positionEncodings": ["utf-16"]}},
            "initializationOptions": options or {"warmUp": False},
        }
        assert "result" in self.request("initialize", init, timeout=60)
        self.notify("initialized", {})

    def _read(self, stream: BinaryIO) -> None:
        while True:
            length = None
            while True:
                header = stream.readline()
                if not header:
                    return
                if header in (b"\r\n", b"\n"):
                    break
                name, _, value = header.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            if length is None:
                continue
            message = json.loads(stream.read(length))
            if "id" in message and "method" not in message:
                with self._lock:
                    box = self._answers.get(message["id"])
                if box is not None:
                    box.put(message)
            elif "method" in message and "id" not in message:
                self.notifications.put(message)

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self._out.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self._out.flush()

    def notify(self, method: str, params: Any) -> None:
        self.send({"method": method, "params": params})

    def ask(self, method: str, params: Any) -> queue.Queue[dict[str, Any]]:
        """Sends a request; its answer arrives in the returned queue."""
        with self._lock:
            self._next += 1
            ident = self._next
            box: queue.Queue[dict[str, Any]] = queue.Queue()
            self._answers[ident] = box
        message: dict[str, Any] = {"id": ident, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return box

    def request(self, method: str, params: Any, timeout: float = 30) -> dict[str, Any]:
        """The answer (a result or an error), or {} when none came within `timeout`."""
        try:
            return self.ask(method, params).get(timeout=timeout)
        except queue.Empty:
            return {}

    def open(self, uri: str, text: str, version: int = 1) -> None:
        item = {"uri": uri, "languageId": "python", "version": version, "text": text}
        self.notify("textDocument/didOpen", {"textDocument": item})

    def change(self, uri: str, version: int, changes: list[dict[str, Any]]) -> None:
        doc = {"uri": uri, "version": version}
        self.notify("textDocument/didChange", {"textDocument": doc, "contentChanges": changes})

    def close_document(self, uri: str) -> None:
        self.notify("textDocument/didClose", {"textDocument": {"uri": uri}})

    def text(self, uri: str) -> Optional[str]:
        """The server's copy of an open document."""
        found = self.request("mindscope/documentText", {"textDocument": {"uri": uri}})
        result = found.get("result")
        return result["text"] if isinstance(result, dict) else None

    def rss_mb(self) -> float:
        with open(f"/proc/{self.proc.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return 0.0

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stop(self) -> None:
        if self.alive():
            self.request("shutdown", None, timeout=20)
            self.notify("exit", None)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
