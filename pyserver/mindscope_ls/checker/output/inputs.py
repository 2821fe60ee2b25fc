"""What `mindscope check` reads: the `.py` files under its paths, and each path it had to skip
with the reason (unreadable, not a regular file, too large), so no skip is silent."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..index.sources import MAX_BYTES, TooLarge, Unread, read_source
from ..index.workspace import SKIP_DIRS


@dataclass
class Inputs:
    sources: dict[str, str] = field(default_factory=dict)  # path -> text, in order
    skipped: list[str] = field(default_factory=list)  # "path: why", one line each


# What a skip for size says next: how to check the file anyway.
RAISE_LIMIT = "--max-size MB checks it"


def collect(paths: Sequence[str], max_bytes: int = MAX_BYTES) -> Inputs:
    inputs = Inputs()
    for path in paths:
        if os.path.isdir(path):
            _walk(path, inputs, max_bytes)
        else:
            _read(path, inputs, max_bytes)
    return inputs


def _walk(folder: str, inputs: Inputs, max_bytes: int) -> None:
    def unreadable(error: OSError) -> None:
        why = (error.strerror or type(error).__name__).lower()
        inputs.skipped.append(f"{error.filename or folder}: {why}")

    for dirpath, dirnames, filenames in os.walk(folder, onerror=unreadable):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and d[0] != ".")
        for name in sorted(filenames):
            if name.endswith(".py"):
                _read(os.path.join(dirpath, name), inputs, max_bytes)


def _read(path: str, inputs: Inputs, max_bytes: int) -> None:
    if path in inputs.sources:
        return
    text = read_source(path, max_bytes)
    if isinstance(text, TooLarge):
        inputs.skipped.append(f"{path}: {text} ({RAISE_LIMIT})")
    elif isinstance(text, Unread):
        inputs.skipped.append(f"{path}: {text}")
    else:
        inputs.sources[path] = text
