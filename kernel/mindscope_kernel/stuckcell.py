"""Interrupt a cell that MindSpore's native code holds, or say that it cannot be.

Measured on MindSpore 2.10 (CPU): a GRAPH_MODE Cell whose `while` runs on a Tensor condition
loops inside MindSpore's C++ runtime. The kernel's interrupt (`_thread.interrupt_main`) only
takes effect when the main thread runs Python again, so the cell never stops, and no hook of
MindSpore's stops a running graph. So an interrupt starts a short timer: when the same cell is
still running after `grace_s`, the kernel says so under the cell (a stderr stream on iopub) and
offers the way out: a second interrupt ends the kernel process, which front-ends restart (the
notebook's variables are lost, as with Restart). A cell that does stop in time says nothing.
"""

from __future__ import annotations

import threading
from typing import Callable, Optional

GRACE_SECONDS = 3.0

NOTICE = (
    "MindScope: this cell is running a MindSpore graph in native code, which cannot be "
    "interrupted (e.g. a GRAPH_MODE `while` on a Tensor). Interrupt again to restart the "
    "kernel now (its variables are lost), or wait for the cell to finish.\n"
)
RESTARTING = "MindScope: restarting the kernel to stop the cell.\n"


class StuckCellWatch:
    """Thread-safe: the shell thread reports cells, the control thread interrupts."""

    def __init__(
        self,
        interrupt: Callable[[], None],
        tell: Callable[[str], None],
        restart: Callable[[], None],
        grace_s: float = GRACE_SECONDS,
    ) -> None:
        self._interrupt, self._tell, self._restart = interrupt, tell, restart
        self._grace = grace_s
        self._lock = threading.Lock()
        self._cell = 0  # which cell runs (a counter), 0 when none
        self._count = 0
        self._told: Optional[int] = None  # the cell the notice was given for
        self._timer: Optional[threading.Timer] = None

    def started(self) -> None:
        with self._lock:
            self._count += 1
            self._cell = self._count

    def finished(self) -> None:
        with self._lock:
            self._cell = 0
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

    def interrupt(self) -> None:
        """An interrupt request: interrupt the cell; check on it after the grace."""
        with self._lock:
            cell = self._cell
            if not cell:
                return  # nothing runs: nothing to interrupt
            if self._told == cell:  # the user was told, and asks again: restart
                restart = True
            else:
                restart = False
                if self._timer is None:
                    self._timer = threading.Timer(self._grace, self._check, args=(cell,))
                    self._timer.daemon = True
                    self._timer.start()
        if restart:  # in a thread of its own, so that the interrupt reply goes out first
            threading.Thread(target=self._restart_now, name="mindscope-restart").start()
            return
        self._interrupt()

    def _restart_now(self) -> None:
        self._tell(RESTARTING)
        self._restart()

    def _check(self, cell: int) -> None:
        with self._lock:
            self._timer = None
            if self._cell != cell:
                return
            self._told = cell
        self._tell(NOTICE)
