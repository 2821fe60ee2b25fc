"""What `mindscope check` reads: the `.py` files under its paths, and each path it had to skip
with the reason (unreadable, not a regular file, too large), so no skip is silent."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..index.sources import Unread, read_source
from ..index.workspace import SKIP_DIRS


@dataclass
class Inputs:
    sources: dict[str, str] = field(default_factory=dict)  # path -> text, in order
    skipped: list[str] = field(default_factory=list)  # "path: why", one line each


def collect(paths: Sequence[str]) -> Inputs:
    inputs = Inputs()
    for path in paths:
        if os.path.isdir(path):
            _walk(path, inputs)
        else:
            _read(path, inputs)
    return inputs


def _walk(folder: str, inputs: Inputs) -> None:
    def unreadable(error: OSError) -> None:
        why = (error.strerror or type(error).__name__).lower()
        inputs.skipped.append(f"{error.filename or folder}: {why}")

    for dirpath, dirnames, filenames in os.walk(folder, onerror=unreadable):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and d[0] != ".")
        for name in sorted(filenames):
            if name.endswith(".py"):
                _read(os.path.join(dirpath, name), inputs)


def _read(path: str, inputs: Inputs) -> None:
    if path in inputs.sources:
        return
    text = read_source(path)
    if isinstance(text, Unread):
        inputs.skipped.append(f"{path}: {text}")
    else:
        inputs.sources[path] = text
