"""The kernel class. Subclassing IPythonKernel brings the Jupyter debug protocol and debugpy.

What MindScope adds, each in its own module: cell files on disk (`cellfiles`), eager execution
while a debugger is attached (`eager`, `debugplugin`), readable compile errors (`errors`, shown by
the kernel's shell class, `shell`) and the `%ms_*` magics (`magics`). MindSpore itself is only
imported when a cell needs it.
"""

from __future__ import annotations

import _thread
import os
import sys
import time
from typing import Any, Optional

from ipykernel.ipkernel import IPythonKernel
from traitlets import Type

from mindscope_kernel import __version__, debugplugin, errors, msimport
from mindscope_kernel.cellfiles import CellFiles
from mindscope_kernel.eager import EagerSwitch
from mindscope_kernel.shell import MindScopeShell
from mindscope_kernel.sigint import SigintGuard
from mindscope_kernel.stuckcell import StuckCellWatch


class MindScopeKernel(IPythonKernel):
    implementation = "mindscope"
    implementation_version = __version__
    banner = "MindScope kernel for MindSpore"
    shell_class = Type(MindScopeShell)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)  # type: ignore[no-untyped-call]
        self.cell_files = CellFiles()
        self.eager = EagerSwitch(tell=_tell)
        self.sigint = SigintGuard()  # captures Python's SIGINT handler before MindSpore loads
        self.stuck = StuckCellWatch(_thread.interrupt_main, self._tell_running_cell, self._end)
        self._running_parent: Optional[dict[str, Any]] = None
        self.mindspore_available = msimport.available()
        self._missing_told = False
        if not self.mindspore_available:
            self.banner = f"{self.banner}\n{msimport.MISSING_NOTICE}"
            self.log.warning(msimport.MISSING_NOTICE)
        shell = self.shell
        assert shell is not None
        shell.events.register("pre_run_cell", self._pre_run_cell)
        shell.events.register("post_run_cell", self._post_run_cell)
        from mindscope_kernel.magics import register

        register(shell, self)

    @property
    def kernel_info(self) -> dict[str, Any]:
        info: dict[str, Any] = super().kernel_info
        info["help_links"] = [
            *info.get("help_links", []),
            {"text": "MindSpore", "url": "https://www.mindspore.cn/docs/en/master/index.html"},
        ]
        return info

    async def do_execute(self, code: str, silent: bool, *args: Any, **kwargs: Any) -> Any:
        if not silent:
            shell = self.shell
            count = shell.execution_count if shell is not None else None
            self.cell_files.write(code, count)
        self._running_parent = self.get_parent("shell")  # type: ignore[no-untyped-call]
        self.stuck.started()
        try:
            return await super().do_execute(code, silent, *args, **kwargs)  # type: ignore[no-untyped-call]
        finally:
            self.stuck.finished()

    async def do_debug_request(self, msg: dict[str, Any]) -> Any:
        command = msg.get("command")
        if command == "disconnect":
            # debugpy never accepts a new session after `terminateDebuggee: true` (measured with
            # ipykernel 7.4 / debugpy 1.8.22), and the debuggee is this kernel: keep it alive.
            msg.setdefault("arguments", {})["terminateDebuggee"] = False
        reply = await super().do_debug_request(msg)  # type: ignore[no-untyped-call]
        ok = isinstance(reply, dict) and reply.get("success", False)
        if command in ("initialize", "attach") and ok:
            debugplugin.register()
        if command == "attach" and ok:
            self.eager.start()
        elif command == "disconnect":
            self.eager.stop()
        return reply

    def do_history(self, hist_access_type: str, *args: Any, **kwargs: Any) -> Any:
        """IPython labels the current session's rows 0 in a `range` reply even when asked by
        number; label them with the session's number, as `tail` and `search` do."""
        reply: dict[str, Any] = super().do_history(hist_access_type, *args, **kwargs)  # type: ignore[no-untyped-call]
        shell = self.shell
        if hist_access_type == "range" and shell is not None:
            current = shell.history_manager.session_number
            reply["history"] = [(s or current, *rest) for s, *rest in reply["history"]]
        return reply

    def _send_interrupt_children(self) -> None:
        """`interrupt_request` (the kernelspec's interrupt_mode is "message").

        A SIGINT would reach MindSpore's native handler, which ends the process; raising
        KeyboardInterrupt through Python's own handler stops the cell and keeps the kernel.
        A cell held by native code cannot stop that way: `stuck` tells the user and offers the
        restart.
        """
        if msimport.loaded() is None:
            super()._send_interrupt_children()  # type: ignore[no-untyped-call]
            return
        self.stuck.interrupt()

    def _tell_running_cell(self, text: str) -> None:
        """A stderr stream under the running cell (from any thread: iopub is thread-safe)."""
        if self.session is None:
            return
        content = {"name": "stderr", "text": text}
        topic = self._topic("stream")  # type: ignore[no-untyped-call]
        self.session.send(
            self.iopub_socket, "stream", content, parent=self._running_parent, ident=topic
        )

    def _end(self) -> None:
        """End the process (the main thread is held by native code): front-ends restart it."""
        self.cell_files.cleanup()
        time.sleep(0.5)  # let the iopub thread send the last stream
        os._exit(1)

    def do_shutdown(self, restart: bool) -> Any:
        self.eager.stop()
        self.sigint.stop()
        self.cell_files.cleanup()
        return super().do_shutdown(restart)  # type: ignore[no-untyped-call]

    def _pre_run_cell(self, info: Any = None) -> None:
        if not self.mindspore_available and not self._missing_told:
            self._missing_told = True
            _tell(msimport.MISSING_NOTICE)
        self.eager.before_cell()
        self._guard_sigint()

    def _post_run_cell(self, result: Any = None) -> None:
        self.eager.after_cell()
        self._guard_sigint()

    def _guard_sigint(self) -> None:
        if msimport.loaded() is not None:
            self.sigint.restore()
            self.sigint.start()

    def compile_error_summary(self, exc: BaseException) -> Optional[list[str]]:
        ms = msimport.loaded()
        if ms is None or not errors.is_compile_error(exc):
            return None
        return errors.summarize(exc, self.cell_files, errors.syntax_level_name(ms))


def _tell(line: str) -> None:
    print(line, file=sys.stdout, flush=True)
