"""Reading source files whatever their encoding."""

from __future__ import annotations

import io
import tokenize
from typing import Optional

MAX_BYTES = 20_000_000


def decode(data: bytes) -> str:
    """Decode Python source bytes by their declared encoding, replacing what does not decode."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except (SyntaxError, LookupError):
        encoding = "utf-8"
    try:
        return data.decode(encoding, errors="replace")
    except LookupError:
        return data.decode("utf-8", errors="replace")


def read_text(path: str) -> Optional[str]:
    """The decoded text of `path`, or None when it cannot be read or is too large."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError:
        return None
    if len(data) > MAX_BYTES:
        return None
    return decode(data).lstrip("\ufeff")
