"""The text of a document by URI: the synced copy when the client has it open, else the file
on disk (requests may name files the user has not opened)."""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

from pygls.uris import to_fs_path

from mindscope_ls.checker import read_text

if TYPE_CHECKING:
    from pygls.workspace import Workspace


def text_of(workspace: Workspace, uri: str) -> str:
    """The synced text of `uri`; a file the client has not opened is read from disk; "" when
    neither is there."""
    document = workspace.text_documents.get(unquote(uri))
    if document is not None:
        return str(document.source)
    if urlsplit(uri).scheme != "file":
        return ""
    path = to_fs_path(uri)
    return (read_text(path) if path else None) or ""
