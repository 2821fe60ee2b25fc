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
    return _checked(raw, folder=False)


def check_output_folder(raw: str | os.PathLike[str]) -> Path:
    """The absolute folder `-o` names for commands that write several files (`export`): an
    existing folder, or one that can be created; `bad-output` saying why not."""
    return _checked(raw, folder=True)


def _checked(raw: str | os.PathLike[str], folder: bool) -> Path:
    text = os.fspath(raw)
    if not text.strip():
        what = "the folder to write into" if folder else "the file to write, e.g. -o g.json"
        raise RuntimeToolError("bad-output", f"-o is empty: give {what}")
    if "\0" in text:
        raise _bad(text, "the path holds a NUL character")
    try:
        target = Path(text).expanduser().resolve()
        if folder and target.exists() and not target.is_dir():
            raise _bad(text, "is a file: this command writes into a folder")
        if not folder and target.is_dir():
            raise _bad(text, "is a folder; give a file path (e.g. inside it)")
        if not folder and target.exists() and not target.is_file():
            raise _bad(text, "exists and is not a regular file")
        parent = _nearest_existing(target if folder else target.parent)
    except (OSError, RuntimeError) as exc:  # RuntimeError: a symlink loop on Python < 3.13
        raise _bad(text, _reason(exc)) from exc
    if not parent.is_dir():
        raise _bad(text, f"{parent} is a file, not a folder")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise _bad(text, f"cannot write in {parent} (permission denied)")
    return target


def _nearest_existing(folder: Path) -> Path:
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return folder


def _reason(exc: BaseException) -> str:
    return exc.strerror.lower() if isinstance(exc, OSError) and exc.strerror else str(exc)
