"""Typed initialization options sent by the extension, with defaults and a lenient parser."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ServerOptions:
    # Warm jedi's cache of MindSpore in the background so the first `nn.` is fast.
    warm_up: bool = True
    log_level: str = "info"


def parse_options(raw: Any) -> ServerOptions:
    """Reads what the client sent; unknown keys and wrong types fall back to defaults."""
    if not isinstance(raw, dict):
        return ServerOptions()
    warm_up = raw.get("warmUp", True)
    log_level = raw.get("logLevel", "info")
    return ServerOptions(
        warm_up=warm_up if isinstance(warm_up, bool) else True,
        log_level=log_level if log_level in ("debug", "info", "warning", "error") else "info",
    )
