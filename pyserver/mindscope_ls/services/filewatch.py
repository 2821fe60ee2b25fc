"""Keeps the workspace index in step with Python files created, changed or deleted on disk
(`workspace/didChangeWatchedFiles`), so a base Cell in a new file resolves without opening it.

The client watches `**/*.py` (the extension declares `synchronize.fileEvents`: a server-side
`client/registerCapability` would be a request every test client must answer); the events are
applied here as plain functions over the index.
"""

from __future__ import annotations

import os
from collections.abc import Container, Sequence
from typing import Optional

from lsprotocol import types
from pygls.uris import to_fs_path

from mindscope_ls.checker import Workspace, read_text
from mindscope_ls.documents.window import LARGE_FILE_CHARS

# Folders whose files are never indexed (virtualenvs, VCS, build output), as at start-up.
SKIPPED_DIRS = frozenset({".git", ".venv", "venv", "node_modules", "__pycache__", "build", "dist"})


def apply_changes(
    workspace: Workspace,
    root: Optional[str],
    changes: Sequence[types.FileEvent],
    open_paths: Container[str],
) -> bool:
    """Updates `workspace` from disk for each event; True when the index changed. Files open in
    the editor are skipped: their buffer, not the disk, is what the index holds for them. A
    file grown past LARGE_FILE_CHARS leaves the index."""
    before = workspace.version
    for change in changes:
        path = to_fs_path(change.uri)
        if path is None or not _indexed(path, root):
            continue
        path = os.path.normpath(path)
        if path in open_paths:
            continue
        if change.type == types.FileChangeType.Deleted:
            _remove(workspace, path)
        elif path.endswith(".py"):
            text = read_text(path, LARGE_FILE_CHARS)
            if text is None:
                workspace.remove(path)  # gone again, or unreadable
            else:
                workspace.update(path, text)
    return workspace.version != before


def revert_to_disk(workspace: Workspace, root: Optional[str], path: str) -> None:
    """A document was closed: the index holds the file as it is on disk again, or no longer
    holds it when start-up indexing would not have (outside the folder, or gone)."""
    path = os.path.normpath(path)
    indexed = _indexed(path, root) and path.endswith(".py")
    text = read_text(path, LARGE_FILE_CHARS) if indexed else None
    if text is None:
        workspace.remove(path)
    else:
        workspace.update(path, text)


def _indexed(path: str, root: Optional[str]) -> bool:
    """Whether start-up indexing would have included `path` (a folder for deletions)."""
    if root is None:
        return False
    try:
        relative = os.path.relpath(path, root)
    except ValueError:  # another drive
        return False
    parts = relative.replace("\\", "/").split("/")
    return parts[0] != ".." and not SKIPPED_DIRS.intersection(parts)


def _remove(workspace: Workspace, path: str) -> None:
    """Removes a file, or every indexed file under a deleted folder."""
    workspace.remove(path)
    prefix = path.rstrip(os.sep) + os.sep
    for module in workspace.modules():
        if module.path.startswith(prefix):
            workspace.remove(module.path)
