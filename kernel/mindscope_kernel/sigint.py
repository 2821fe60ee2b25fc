"""Keep Interrupt working: MindSpore's native libraries replace the process's SIGINT handler.

Measured on MindSpore 2.10 (CPU): the first GRAPH_MODE run installs a SIGINT handler from
`libmindspore_ms_backend.so`, later compiles one from `libmindspore_common.so`, the first
PyNative run one from `libmindspore_runtime_pipeline.so`, all behind Python's back
(`signal.getsignal` still reports Python's). With them in place, the kernel's Interrupt does not
raise KeyboardInterrupt: the loop keeps running or the process exits. A small guard thread puts
Python's own handler back (with `sigaction`, which any thread may call) whenever it was replaced.
"""

from __future__ import annotations

import ctypes
import signal
import sys
import threading
from typing import Any, Optional

_SIGACTION_SIZE = 256  # larger than struct sigaction on every Linux ABI
_POLL_SECONDS = 0.2


class SigintGuard:
    def __init__(self) -> None:
        self._libc: Any = None
        self._saved: Optional[ctypes.Array[ctypes.c_char]] = None
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None
        if sys.platform.startswith("linux"):
            try:
                self._libc = ctypes.CDLL(None, use_errno=True)
                self._saved = self._read()
            except (OSError, AttributeError):
                self._libc = None

    def _read(self) -> ctypes.Array[ctypes.c_char]:
        buf = ctypes.create_string_buffer(_SIGACTION_SIZE)
        self._libc.sigaction(signal.SIGINT, None, buf)
        return buf

    def restore(self) -> bool:
        """Put Python's handler back if a native library replaced it; True when it did."""
        if self._libc is None or self._saved is None:
            return False
        if self._read().raw[:8] == self._saved.raw[:8]:
            return False
        self._libc.sigaction(signal.SIGINT, self._saved, None)
        return True

    def start(self) -> None:
        """Watch in the background (once MindSpore is loaded: it may swap during a cell)."""
        if self._libc is None or self._thread is not None:
            return
        self._thread = threading.Thread(target=self._watch, name="mindscope-sigint", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _watch(self) -> None:
        while not self._stop.wait(_POLL_SECONDS):
            self.restore()
