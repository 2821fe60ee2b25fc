"""Checks on `-o` before anything runs: a run that cannot write its document must fail first,
in one line, not after the model has run (and not with raw errno text)."""

from __future__ import annotations

import os
from pathlib import Path

from mindscope_runtime.errors import RuntimeToolError


def _bad(raw: str, why: str) -> RuntimeToolError:
    return RuntimeToolError("bad-output", f"-o {raw!r}: {why}")


def check_output(raw: str | os.PathLike[str]) -> Path:
    """The absolute file `-o` names, or `bad-output` saying why it cannot be written."""
    text = os.fspath(raw)
    if not text.strip():
        raise RuntimeToolError("bad-output", "-o is empty: give the file to write, e.g. -o g.json")
    if "\0" in text:
        raise _bad(text, "the path holds a NUL character")
    try:
        target = Path(text).expanduser().resolve()
        if target.is_dir():
            raise _bad(text, "is a folder; give a file path (e.g. inside it)")
        if target.exists() and not target.is_file():
            raise _bad(text, "exists and is not a regular file")
        folder = _nearest_existing(target.parent)
    except (OSError, RuntimeError) as exc:  # RuntimeError: a symlink loop on Python < 3.13
        raise _bad(text, _reason(exc)) from exc
    if not folder.is_dir():
        raise _bad(text, f"{folder} is a file, not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise _bad(text, f"cannot write in {folder} (permission denied)")
    return target


def _nearest_existing(folder: Path) -> Path:
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return folder


def _reason(exc: BaseException) -> str:
    return exc.strerror.lower() if isinstance(exc, OSError) and exc.strerror else str(exc)


def check_output_folder(raw: str | os.PathLike[str]) -> Path:
    """The absolute folder `-o` names for commands that write several files (`export`): an
    existing folder, or one that can be created; `bad-output` saying why not."""
    text = os.fspath(raw)
    if not text.strip():
        raise RuntimeToolError("bad-output", "-o is empty: give the folder to write into")
    if "\0" in text:
        raise _bad(text, "the path holds a NUL character")
    try:
        target = Path(text).expanduser().resolve()
        if target.exists() and not target.is_dir():
            raise _bad(text, "is a file: this command writes into a folder")
        folder = _nearest_existing(target)
    except (OSError, RuntimeError) as exc:
        raise _bad(text, _reason(exc)) from exc
    if not folder.is_dir():
        raise _bad(text, f"{folder} is a file, not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise _bad(text, f"cannot write in {folder} (permission denied)")
    return target
