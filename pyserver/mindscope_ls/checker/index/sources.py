"""Reading source files whatever their encoding."""

from __future__ import annotations

import io
import os
import re
import stat
import tokenize
from typing import Optional, Union

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


class Unread(str):
    """Why a file was not read, in a few words ("permission denied", "not a regular file")."""


class TooLarge(Unread):
    """A file skipped for its size only: a larger limit would read it."""


def _megabytes(size: int) -> str:
    return f"{size / 1e6:g} MB"


def read_source(path: str, max_bytes: int = MAX_BYTES) -> Union[str, Unread]:
    """The decoded text of `path`, or why it was not read. Only regular files are opened: a
    FIFO or a device would block the read, or never end."""
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            return Unread("not a regular file")
        if info.st_size > max_bytes:
            return TooLarge(
                f"{info.st_size / 1e6:.1f} MB, larger than the {_megabytes(max_bytes)} "
                "the checker reads"
            )
        with open(path, "rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as error:
        return Unread((error.strerror or type(error).__name__).lower())
    except ValueError as error:  # "embedded null byte"
        return Unread(str(error))
    if len(data) > max_bytes:  # it grew since `stat`
        return TooLarge(f"larger than the {_megabytes(max_bytes)} the checker reads")
    return decode(data).lstrip("\ufeff")


def read_text(path: str, max_bytes: int = MAX_BYTES) -> Optional[str]:
    """The decoded text of `path`, or None when it cannot be read or is too large."""
    text = read_source(path, max_bytes)
    return None if isinstance(text, Unread) else text


# Line breaks `str.splitlines` knows that Python's tokenizer and VS Code do not: both split
# only at "\r\n", "\r" and "\n" (a form feed is whitespace to Python, text to the editor).
_OTHER_BREAKS = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def split_lines(text: str, keepends: bool = False) -> list[str]:
    """`text.splitlines(keepends)`, but splitting only where Python and the editor do, so line
    numbers agree with `ast`'s and with LSP positions."""
    if _OTHER_BREAKS.search(text) is None:
        return text.splitlines(keepends)  # the same lines, at C speed
    lines: list[str] = _LINE.findall(text)
    return lines if keepends else [line.rstrip("\r\n") for line in lines]
