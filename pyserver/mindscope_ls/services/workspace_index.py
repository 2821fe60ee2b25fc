"""The checker's index of every workspace folder, kept in step with the disk.

Each folder is indexed on its own (a module name resolves inside the folder that holds the
file, as Python would run it from there), in a thread, after the warm-up's essentials. File
events (`workspace/didChangeWatchedFiles`) and closed documents are applied in order, off the
event loop; events arriving while indexing wait for it. One lock guards all the indexes: checks
in worker threads use them (`lock`), and other features borrow them with `with_workspace`.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Callable, Sequence
from typing import Optional, TypeVar

from lsprotocol import types

from mindscope_ls.checker import Workspace
from mindscope_ls.documents.window import LARGE_FILE_CHARS
from mindscope_ls.infra import trace, warmup
from mindscope_ls.services.filewatch import apply_changes, revert_to_disk

log = logging.getLogger(__name__)
T = TypeVar("T")


def folder_of(path: Optional[str], folders: Sequence[str]) -> Optional[str]:
    """The innermost of `folders` holding `path`; else the first folder (a file opened from
    elsewhere is read against the main folder, as with one folder)."""
    if path is not None:
        path = os.path.normpath(path)
        inside = [f for f in folders if _contains(f, path)]
        if inside:
            return max(inside, key=len)
    return folders[0] if folders else None


def _contains(folder: str, path: str) -> bool:
    try:
        return os.path.commonpath([os.path.normpath(folder), path]) == os.path.normpath(folder)
    except ValueError:  # another drive
        return False


class WorkspaceIndex:
    def __init__(self, open_paths: Callable[[], set[str]], changed: Callable[[], None]) -> None:
        self._open_paths = open_paths  # files whose editor buffer, not the disk, is indexed
        self._changed = changed  # called on the event loop when an index changed
        self.lock = threading.Lock()
        self.folders: list[str] = []
        self._indexes: dict[str, Workspace] = {}
        self._early: dict[str, list[types.FileEvent]] = {}
        self._file_events: Optional[asyncio.Task[None]] = None

    def for_path(self, path: Optional[str]) -> Optional[Workspace]:
        """The index of the folder `path` belongs to; None before it is built. Hold `lock`."""
        folder = folder_of(path, self.folders)
        return self._indexes.get(folder) if folder is not None else None

    def with_workspace(self, path: Optional[str], work: Callable[[Optional[Workspace]], T]) -> T:
        """Runs `work` on the index of `path`'s folder while no check uses it."""
        with warmup.wanting_held_lock(), self.lock:  # a check paused for the user holds it
            return work(self.for_path(path))

    def start(self, folders: Sequence[str]) -> None:
        """Indexes each folder in a thread; documents checked meanwhile are checked again."""
        loop = asyncio.get_running_loop()
        for folder in folders:
            if folder in self.folders:
                continue
            self.folders.append(folder)
            self._early[folder] = []
            threading.Thread(
                target=self._index, args=(folder, loop), name="mindscope-index", daemon=True
            ).start()

    def _index(self, folder: str, loop: asyncio.AbstractEventLoop) -> None:
        built: list[Workspace] = []
        try:
            # After the warm-up's essentials and out of the user's way: the index serves the
            # checks only, which run again when it is ready.
            with trace.span("index"):
                warmup.in_background(
                    lambda: built.append(Workspace.from_folder(folder, LARGE_FILE_CHARS))
                )
        except Exception:
            log.exception("indexing %s failed", folder)
            return
        with warmup.wanting_held_lock(), self.lock:
            if folder not in self.folders:
                return  # removed meanwhile
            workspace = self._indexes[folder] = built[0]
            apply_changes(workspace, folder, self._early.pop(folder, []), self._open_paths())
        loop.call_soon_threadsafe(self._changed)

    def stop(self, folders: Sequence[str]) -> None:
        """Folders removed from the workspace: their indexes go."""
        with warmup.wanting_held_lock(), self.lock:
            for folder in folders:
                if folder in self.folders:
                    self.folders.remove(folder)
                self._indexes.pop(folder, None)
                self._early.pop(folder, None)

    def files_changed(self, changes: Sequence[types.FileEvent]) -> None:
        """Applies file events to every folder's index (in order, off the event loop); the
        open documents are checked again when an index changed. The client watches `**/*.py`
        (extension/src/serverClient.ts)."""
        self._in_order(lambda: self._apply_changes(changes))

    def closed(self, path: str) -> None:
        """A document was closed: its folder's index holds the file's disk text again."""
        self._in_order(lambda: self._unindex(path))

    def _in_order(self, apply: Callable[[], bool]) -> None:
        previous = self._file_events

        async def run() -> None:
            if previous is not None:
                await asyncio.gather(previous, return_exceptions=True)
            if await asyncio.to_thread(apply):
                self._changed()

        self._file_events = asyncio.ensure_future(run())

    def _apply_changes(self, changes: Sequence[types.FileEvent]) -> bool:
        changed = False
        with warmup.wanting_held_lock(), self.lock:
            for folder in self.folders:
                workspace = self._indexes.get(folder)
                if workspace is None:
                    self._early[folder].extend(changes)  # indexing applies them when done
                elif apply_changes(workspace, folder, changes, self._open_paths()):
                    changed = True
        return changed

    def _unindex(self, path: str) -> bool:
        with warmup.wanting_held_lock(), self.lock:
            folder = folder_of(path, self.folders)
            workspace = self._indexes.get(folder) if folder is not None else None
            if workspace is None or os.path.normpath(path) in self._open_paths():
                return False  # not indexed yet; or opened again meanwhile
            before = workspace.version
            revert_to_disk(workspace, folder, path)
            return workspace.version != before
