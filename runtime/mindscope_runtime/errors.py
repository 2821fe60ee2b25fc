"""The one exception type the CLI turns into a JSON status line."""

from __future__ import annotations

from typing import Any, Optional


class RuntimeToolError(Exception):
    """A failure with a stable machine-readable `kind` and a one-line human message."""

    def __init__(
        self,
        kind: str,
        message: str,
        *,
        file: Optional[str] = None,
        line: Optional[int] = None,
        extra: Optional[dict[str, Any]] = None,
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.file = file
        self.line = line
        self.extra = extra or {}

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"kind": self.kind, "message": self.message}
        if self.file is not None:
            out["file"] = self.file
        if self.line is not None:
            out["line"] = self.line
        out.update(self.extra)
        return out


def one_line(text: str, limit: int = 500) -> str:
    """Collapse a (possibly multi-line) message into one bounded line."""
    first = " ".join(part.strip() for part in text.strip().splitlines() if part.strip())
    return first if len(first) <= limit else first[: limit - 1] + "…"
