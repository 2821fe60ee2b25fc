"""Workspaces for files checked on their own, kept for the next check of the same file.

A check without a workspace (a notebook cell, a file opened without a folder, before the folder
is indexed) would parse and analyse the whole text again after every keystroke; keeping a small
workspace per path lets it re-check only what changed, as a shared workspace does.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager

from ..index.workspace import Workspace

KEPT = 8  # paths; the least recently checked goes first


class ScratchWorkspaces:
    def __init__(self, kept: int = KEPT):
        self.kept = kept
        self._lock = threading.Lock()
        self._items: OrderedDict[str, tuple[threading.Lock, Workspace]] = OrderedDict()

    @contextmanager
    def use(self, path: str) -> Iterator[Workspace]:
        """The workspace that holds only `path`, for one check at a time."""
        with self._lock:
            entry = self._items.pop(path, None) or (threading.Lock(), Workspace())
            self._items[path] = entry
            while len(self._items) > self.kept:
                self._items.popitem(last=False)
        with entry[0]:
            yield entry[1]

    def forget(self, path: str) -> None:
        with self._lock:
            self._items.pop(path, None)
