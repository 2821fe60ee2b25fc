"""What `mindscope check` reads: the `.py` files under its paths, and each path it had to skip
with the reason (unreadable, not a regular file, too large), so no skip is silent; and the
paths the user declares PyNative-only (`--pynative`, `[tool.mindscope] pynative`) and the device
the code runs on (`--device`, `[tool.mindscope] device`)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Optional

from ..device import DEVICES, device_name
from ..index.sources import MAX_BYTES, TooLarge, Unread, read_source
from ..index.workspace import SKIP_DIRS
from ..mode import absolute_globs


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


class BadProject(Exception):
    """A `pyproject.toml` whose `[tool.mindscope]` cannot be read: one line, said as is."""


def pynative_globs(paths: Sequence[str], given: Sequence[str]) -> tuple[str, ...]:
    """What is declared PyNative-only, as absolute globs: the `--pynative` globs (relative to
    the current folder) and `[tool.mindscope] pynative` of the nearest `pyproject.toml` above
    the checked paths (relative to its folder)."""
    globs = absolute_globs(given, os.getcwd())
    project = _nearest_pyproject(paths)
    if project is None:
        return globs
    return globs + absolute_globs(_declared(project), os.path.dirname(project))


def _nearest_pyproject(paths: Sequence[str]) -> Optional[str]:
    absolute = [os.path.abspath(p) for p in paths]
    if not absolute:
        return None
    folder = os.path.commonpath(absolute)
    if not os.path.isdir(folder):
        folder = os.path.dirname(folder)
    while True:
        candidate = os.path.join(folder, "pyproject.toml")
        if os.path.isfile(candidate):
            return candidate
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def declared_device(paths: Sequence[str], given: Optional[str]) -> Optional[str]:
    """The device the code runs on: `--device`, else `[tool.mindscope] device` of the nearest
    `pyproject.toml` above the checked paths; None when neither says."""
    if given is not None:
        return given
    project = _nearest_pyproject(paths)
    if project is None:
        return None
    value = _table(project).get("device")
    if value is None:
        return None
    device = device_name(value) if isinstance(value, str) else None
    if device is None:
        raise BadProject(f"{project}: [tool.mindscope] device must be one of {', '.join(DEVICES)}")
    return device


def _declared(project: str) -> list[str]:
    value = _table(project).get("pynative", [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise BadProject(f"{project}: [tool.mindscope] pynative must be a list of path globs")
    return value


def _table(project: str) -> dict[str, object]:
    """`[tool.mindscope]` of `project` ({} when it has none)."""
    try:
        import tomllib  # Python 3.11+; older Pythons check without the table
    except ImportError:  # pragma: no cover - the venv is 3.11
        return {}
    try:
        with open(project, "rb") as handle:
            data = tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise BadProject(f"{project}: cannot read it: {error}") from None
    tool = data.get("tool", {})
    table = tool.get("mindscope", {}) if isinstance(tool, dict) else {}
    return table if isinstance(table, dict) else {}
