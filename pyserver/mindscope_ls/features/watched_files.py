"""`workspace/didChangeWatchedFiles` and `workspace/didChangeWorkspaceFolders`: the workspace
index follows Python files created, changed or deleted on disk, and folders added or removed
(services/workspace_index.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.uris import to_fs_path

from mindscope_ls.services.check_scheduler import CheckScheduler

if TYPE_CHECKING:
    from mindscope_ls.server import MindScopeServer


def register(server: MindScopeServer, checks: CheckScheduler) -> None:
    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def on_watched_files(ls: MindScopeServer, params: types.DidChangeWatchedFilesParams) -> None:
        checks.index.files_changed(params.changes)

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    def on_folders(ls: MindScopeServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
        removed = [to_fs_path(f.uri) for f in params.event.removed]
        added = [to_fs_path(f.uri) for f in params.event.added]
        checks.index.stop([p for p in removed if p])
        checks.index.start([p for p in added if p])
        ls.folders = list(checks.index.folders)
        checks.recheck_open_documents()
