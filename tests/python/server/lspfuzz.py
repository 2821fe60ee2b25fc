"""A bounded LSP fuzz run: random incremental edits (the line breaks VS Code and Python do not
share among them: "\\x0c", "\\u2028"…) against a real server, the server's copy compared after
every edit with VS Code's (vscode_text.py), and requests interleaved — each must be answered,
and the server must live. Used by test_lsp_fuzz.py (bounded) and bench/lsp_fuzz.py (longer)."""

from __future__ import annotations

import queue
import random
import time
from dataclasses import dataclass, field
from typing import Any

from .rawlsp import RawClient
from .vscode_text import VSCodeText

SEED_TEXT = (
    "import mindspore as ms\nfrom mindspore import nn, ops\n\n\n"
    "class Net(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
    "        self.dense = nn.Dense(4, 2)\n\n    def construct(self, x):\n"
    "        y = ops.relu(x)\n        return self.dense(y)\n"
)
PIECES = [
    "a", "x", " ", "(", ")", ".", ":", "ops.", "self.", "nn.", "é", "😋", "\t",
    "\n", "\r\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029",
    "    return x\n", "try:\n", "def f(:\n", '"""', "\ufeff",
]  # fmt: skip
REQUESTS = ["textDocument/completion", "textDocument/hover", "textDocument/signatureHelp"]


@dataclass
class Outcome:
    edits: int = 0
    requests: int = 0
    unanswered: int = 0
    drifts: list[str] = field(default_factory=list)
    crashed: bool = False
    rss_start_mb: float = 0.0
    rss_end_mb: float = 0.0
    seconds: float = 0.0


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _random_position(rng: random.Random, ref: VSCodeText) -> dict[str, int]:
    lines = ref.lines() or [""]
    line = rng.randrange(len(lines) + 2)  # a little past the end too: clamped
    width = _utf16(lines[line].rstrip("\r\n")) if line < len(lines) else 0
    return {"line": line, "character": rng.randrange(width + 3)}


def _random_text(rng: random.Random) -> str:
    return "".join(rng.choice(PIECES) for _ in range(rng.randrange(0, 4)))


def run(seed: int, edits: int, uri: str = "file:///tmp/mindscope-fuzz.py") -> Outcome:
    rng = random.Random(seed)
    outcome = Outcome()
    started = time.monotonic()
    client = RawClient(options={"warmUp": False, "graphMode": {"debounceMs": 20}})
    try:
        outcome.rss_start_mb = client.rss_mb()
        ref = VSCodeText(SEED_TEXT)
        client.open(uri, ref.text)
        pending: list[queue.Queue[dict[str, Any]]] = []
        for version in range(2, edits + 2):
            start, end = _random_position(rng, ref), _random_position(rng, ref)
            if rng.random() < 0.5:
                end = dict(start)
            change = {"range": {"start": start, "end": end}, "text": _random_text(rng)}
            client.change(uri, version, [change])
            ref.apply(_as_change(change))
            outcome.edits += 1
            if rng.random() < 0.3:
                method = rng.choice(REQUESTS)
                params = {"textDocument": {"uri": uri}, "position": _random_position(rng, ref)}
                pending.append(client.ask(method, params))
                outcome.requests += 1
            server_text = client.text(uri)  # also a request: answered in order
            outcome.requests += 1
            if server_text is None:
                outcome.unanswered += 1
            elif server_text != ref.text and len(outcome.drifts) < 5:
                outcome.drifts.append(f"edit {version - 1}: {change!r}")
            if not client.alive():
                outcome.crashed = True
                break
        for box in pending:
            try:
                box.get(timeout=60)
            except queue.Empty:
                outcome.unanswered += 1
        outcome.crashed = outcome.crashed or not client.alive()
        outcome.rss_end_mb = client.rss_mb() if client.alive() else 0.0
    finally:
        client.stop()
    outcome.seconds = time.monotonic() - started
    return outcome


def _as_change(change: dict[str, Any]) -> Any:
    from lsprotocol import types

    def pos(p: dict[str, int]) -> types.Position:
        return types.Position(line=p["line"], character=p["character"])

    rng = change["range"]
    return types.TextDocumentContentChangePartial(
        range=types.Range(start=pos(rng["start"]), end=pos(rng["end"])), text=change["text"]
    )
