"""Open, edit, ask, close: cycles of different generated model files against a real server,
with the RSS after each. Used by test_memory_cycles.py (bounded) and bench/lsp_memory.py."""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.lsp_latency import model_source  # the benchmarks' generated model

from .rawlsp import RawClient

# Shorter than the server's idle period (a second without messages): what a closed document
# left must go without waiting for the user to stop typing.
PAUSE_SECONDS = 0.8


@dataclass
class Cycles:
    rss_mb: list[float] = field(default_factory=list)  # after each cycle's idle moment
    unanswered: int = 0
    seconds: float = 0.0


def run(cycles: int, lines: int, same_file: bool = False) -> Cycles:
    started = time.monotonic()
    out = Cycles()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        client = RawClient(root, {"warmUp": False, "graphMode": {"debounceMs": 50}})
        try:
            base = model_source(lines)
            out.rss_mb.append(client.rss_mb())
            for index in range(cycles):
                name = "same" if same_file else f"model{index}"
                text = base.replace("ConvBlock", f"ConvBlock{name}")
                uri = (root / f"{name}.py").as_uri()
                _cycle(client, uri, text, out)
                time.sleep(PAUSE_SECONDS)
                out.rss_mb.append(client.rss_mb())
        finally:
            client.stop()
    out.seconds = time.monotonic() - started
    return out


def _cycle(client: RawClient, uri: str, text: str, out: Cycles) -> None:
    client.open(uri, text)
    middle = text.count("\n") // 2
    at = {"line": middle, "character": 0}
    for version in range(2, 5):
        client.change(uri, version, [{"range": {"start": at, "end": at}, "text": "y = ops.\n"}])
    asked = [
        client.ask(
            "textDocument/completion",
            {"textDocument": {"uri": uri}, "position": {"line": middle, "character": 8}},
        ),
        client.ask(
            "textDocument/hover",
            {"textDocument": {"uri": uri}, "position": {"line": 12, "character": 12}},
        ),
    ]
    for box in asked:
        try:
            box.get(timeout=120)
        except Exception:
            out.unanswered += 1
    time.sleep(0.3)  # the debounced check runs
    client.close_document(uri)
