"""Ctrl-C that works while MindSpore runs.

Measured on MindSpore 2.10: every graph run installs MindSpore's own native SIGINT handler
(`mindspore::DefaultIntHandler`, which only does `kill(getpid(), SIGTERM)`), while
`signal.getsignal(SIGINT)` still reports Python's. Ctrl-C then ended the process by SIGTERM:
no status line, temp files left behind. So the CLI:

- handles SIGTERM in Python as well as SIGINT (both raise KeyboardInterrupt in the main
  thread), which also catches MindSpore's forwarded Ctrl-C;
- re-installs its SIGINT handler after each step (`reclaim_sigint`), so Ctrl-C reaches Python
  directly whenever it can;
- runs a watchdog thread woken by `signal.set_wakeup_fd` (written by the C-level handler even
  while the main thread is busy in C++): a second signal, or the main thread failing to unwind
  within `grace_s` (stuck in a long compile), forces the exit: tracked temp paths are removed,
  the status line is written and the process ends with 130.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Callable, Optional

_lock = threading.Lock()
_tracked: set[str] = set()
_created: list[str] = []  # every temp_dir, for `remove_leftovers`
_finished = threading.Event()
_installed = False


def _raise_interrupt(signum: int, frame: Optional[FrameType]) -> None:
    raise KeyboardInterrupt(signal.Signals(signum).name)


def install(force_exit: Callable[[], None], grace_s: float = 5.0) -> None:
    """Handle SIGINT and SIGTERM as KeyboardInterrupt and start the watchdog (main thread)."""
    global _installed
    if _installed or threading.current_thread() is not threading.main_thread():
        return
    reader, writer = socket.socketpair()
    writer.setblocking(False)
    signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, _raise_interrupt)
    watchdog = threading.Thread(
        target=_watch, args=(reader, writer, force_exit, grace_s), daemon=True
    )
    watchdog.start()
    _installed = True


def reclaim_sigint() -> None:
    """Put Python's handler back after MindSpore replaced the native one (main thread only)."""
    if _installed and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, _raise_interrupt)


def finish() -> bool:
    """The main thread is done and will write the status; False if the watchdog already did."""
    with _lock:
        if _finished.is_set():
            return False
        _finished.set()
        return True


@contextlib.contextmanager
def tracked(path: str | os.PathLike[str]) -> Iterator[None]:
    """Remove `path` (file or folder) on a forced exit while the block runs."""
    key = str(path)
    with _lock:
        _tracked.add(key)
    try:
        yield
    finally:
        with _lock:
            _tracked.discard(key)


@contextlib.contextmanager
def temp_dir(prefix: str) -> Iterator[str]:
    """A `tempfile.TemporaryDirectory` that a forced exit removes too."""
    with tempfile.TemporaryDirectory(prefix=prefix) as folder, tracked(folder):
        _created.append(folder)
        yield folder


def remove_leftovers() -> None:
    """Remove temp folders that MindSpore's threads wrote into again after their cleanup
    (call when ending the process after an interruption)."""
    for folder in _created:
        shutil.rmtree(folder, ignore_errors=True)


def _watch(
    reader: socket.socket, writer: socket.socket, force_exit: Callable[[], None], grace: float
) -> None:
    signals = 0
    while not _finished.is_set():
        reader.settimeout(grace if signals else None)
        try:
            got = reader.recv(64)
        except socket.timeout:  # TimeoutError since 3.10
            got = b""
        except OSError:
            return
        signals += len(got)
        if signals >= 2 or (signals and not got):  # a second Ctrl-C, or the grace ran out
            _force(force_exit)
            return


def _force(force_exit: Callable[[], None]) -> None:
    with _lock:
        if _finished.is_set():
            return
        _finished.set()
        for path in sorted(set(_tracked) | set(_created), key=len, reverse=True):
            if os.path.isdir(path):
                shutil.rmtree(path, ignore_errors=True)
            else:
                with contextlib.suppress(OSError):
                    Path(path).unlink()
    try:
        force_exit()
    finally:
        os._exit(130)
