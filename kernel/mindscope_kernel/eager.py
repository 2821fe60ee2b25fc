"""Debug-time eager execution: while a debugger is attached, compiled code runs as Python.

Mechanism (measured on MindSpore 2.10): `Cell.__call__` only compiles when the context is
GRAPH_MODE *and* the environment variable `MS_JIT` is not `'0'`, and `@ms.jit` (capture_mode
"ast", the default) calls the undecorated function when `MS_JIT == '0'`. Both read the variable
at every call, so setting `MS_JIT=0` makes `construct` and jit functions run line by line in
Python, where debugpy's breakpoints stop. The context is also switched to PYNATIVE_MODE so every
op runs eagerly; the previous mode and `MS_JIT` come back when the session ends.

`start()`/`stop()` are called from the control thread (debug requests); the context is only
touched from the shell thread, in `before_cell()`/`after_cell()`.
"""

from __future__ import annotations

import os
import threading
from typing import Callable, Optional

from mindscope_kernel import msimport

JIT_ENV = "MS_JIT"
NOTICE = (
    "MindScope: debugger attached - GRAPH_MODE and @ms.jit run eagerly (PyNative) so "
    "breakpoints in construct() stop; {mode} comes back when the debugger detaches."
)
RESTORED = "MindScope: debugger detached - back to {mode}."


class EagerSwitch:
    def __init__(self, tell: Callable[[str], None]) -> None:
        self._tell = tell
        self._lock = threading.Lock()
        self.active = False  # a debug session is attached
        self._applied = False  # the shell thread has switched the context
        self._told = False
        self._saved_jit: Optional[str] = None
        self.saved_mode: Optional[str] = None  # "graph" | "pynative", the mode to come back to

    def start(self) -> None:
        with self._lock:
            if self.active:
                return
            self.active, self._told = True, False
            self._saved_jit = os.environ.get(JIT_ENV)
            os.environ[JIT_ENV] = "0"

    def stop(self) -> None:
        with self._lock:
            if not self.active:
                return
            self.active = False
            if self._saved_jit is None:
                os.environ.pop(JIT_ENV, None)
            else:
                os.environ[JIT_ENV] = self._saved_jit

    def before_cell(self) -> None:
        if self.active:
            self._enter()
        elif self._applied:
            self._leave()

    def after_cell(self) -> None:
        """A cell may have imported MindSpore or called set_context(mode=GRAPH_MODE)."""
        if self.active:
            self._enter()

    def set_saved_mode(self, mode: str) -> bool:
        """`%ms_mode` during a session changes the mode to come back to; False if inactive."""
        if not self._applied:
            return False
        self.saved_mode = mode
        return True

    def _enter(self) -> None:
        ms = msimport.loaded()
        if not self._told and (ms is not None or msimport.available()):
            self._told = True
            mode = self.saved_mode or (msimport.mode_name(ms) if ms else "pynative")
            self._tell(NOTICE.format(mode=_pretty(mode)))
        self._applied = True
        if ms is None:
            return
        current = msimport.mode_name(ms)
        if current != "pynative" or self.saved_mode is None:
            self.saved_mode = current
            msimport.set_mode(ms, "pynative")

    def _leave(self) -> None:
        self._applied = False
        ms = msimport.loaded()
        mode, self.saved_mode = self.saved_mode, None
        if ms is not None and mode is not None:
            msimport.set_mode(ms, mode)
            if mode == "graph":
                self._tell(RESTORED.format(mode=_pretty(mode)))


def _pretty(mode: str) -> str:
    return "GRAPH_MODE" if mode == "graph" else "PYNATIVE_MODE"
