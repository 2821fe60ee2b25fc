"""The kernel's shell (`MindScopeKernel.shell_class`): IPython's ZMQ shell with a readable
summary of a GRAPH_MODE compile error on top of the traceback the front-end shows."""

from __future__ import annotations

from typing import Any

from ipykernel.zmqshell import ZMQInteractiveShell

from mindscope_kernel import errors


class MindScopeShell(ZMQInteractiveShell):
    def _showtraceback(self, etype: Any, evalue: Any, stb: list[str]) -> Any:
        try:
            lines = self.kernel.compile_error_summary(evalue) if evalue is not None else None
        except Exception:  # the summary must never hide the real error
            lines = None
        if lines:
            stb = errors.render(lines) + list(stb)
        return super()._showtraceback(etype, evalue, stb)  # type: ignore[no-untyped-call]
