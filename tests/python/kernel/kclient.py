"""Drive a real kernel through jupyter_client, the way JupyterLab and VS Code do."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager

INIT_ARGS = {
    "clientID": "mindscope-tests",
    "clientName": "mindscope-tests",
    "adapterID": "python",
    "pathFormat": "path",
    "linesStartAt1": True,
    "columnsStartAt1": True,
    "supportsVariableType": True,
    "supportsVariablePaging": True,
    "supportsRunInTerminalRequest": True,
    "locale": "en",
}


def install_spec(prefix: Path, name: str, python: str = sys.executable) -> Path:
    subprocess.run(
        [python, "-m", "mindscope_kernel", "install", "--prefix", str(prefix), "--name", name],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return prefix / "share" / "jupyter" / "kernels" / name


@dataclass
class Result:
    status: str
    reply: dict[str, Any]
    stdout: str = ""
    stderr: str = ""
    outputs: list[dict[str, Any]] = field(default_factory=list)  # display_data/execute_result
    error: Optional[dict[str, Any]] = None

    @property
    def text(self) -> str:
        return self.stdout + self.stderr


class Kernel:
    """One running kernel with a blocking client; `debug()` sends DAP requests on control."""

    def __init__(self, spec_dir: Path, cwd: Path, env: Optional[dict[str, str]] = None) -> None:
        ksm = KernelSpecManager(kernel_dirs=[str(spec_dir.parent)])
        self.km = KernelManager(kernel_name=spec_dir.name, kernel_spec_manager=ksm)
        extra: dict[str, Any] = {"env": env} if env is not None else {}
        self.km.start_kernel(cwd=str(cwd), **extra)
        self.client = self.km.blocking_client()
        self.client.start_channels()
        self.client.wait_for_ready(timeout=90)
        self._seq = 0
        self.events: list[dict[str, Any]] = []
        self._backlog: list[dict[str, Any]] = []  # iopub messages read while waiting for events

    def _iopub(self, timeout: float) -> dict[str, Any]:
        if self._backlog:
            return self._backlog.pop(0)
        msg: dict[str, Any] = self.client.get_iopub_msg(timeout=timeout)
        return msg

    def close(self) -> None:
        self.client.stop_channels()
        self.km.shutdown_kernel(now=True)

    # --- shell ---------------------------------------------------------------------------
    def execute(self, code: str, timeout: float = 180) -> Result:
        return self.collect(self.client.execute(code), timeout)

    def collect(self, msg_id: str, timeout: float = 180) -> Result:
        """Gather iopub output of `msg_id` until idle, then its execute_reply."""
        out = Result("", {})
        deadline = time.monotonic() + timeout
        while True:
            msg = self._iopub(max(0.1, deadline - time.monotonic()))
            kind, content = msg["msg_type"], msg["content"]
            if kind == "debug_event":
                self.events.append(content)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            if kind == "stream":
                name = content["name"]
                out.stdout += content["text"] if name == "stdout" else ""
                out.stderr += content["text"] if name == "stderr" else ""
            elif kind in ("display_data", "execute_result"):
                out.outputs.append(content)
            elif kind == "error":
                out.error = content
            elif kind == "status" and content["execution_state"] == "idle":
                break
        reply = self.shell_reply(msg_id, max(1.0, deadline - time.monotonic()))
        out.status, out.reply = reply["status"], reply
        return out

    def shell_reply(self, msg_id: str, timeout: float = 60) -> dict[str, Any]:
        while True:
            msg = self.client.get_shell_msg(timeout=timeout)
            if msg["parent_header"].get("msg_id") == msg_id:
                content: dict[str, Any] = msg["content"]
                return content

    # --- debug adapter protocol on the control channel ----------------------------------
    def debug(self, command: str, arguments: Optional[dict[str, Any]] = None) -> dict[str, Any]:
        self._seq += 1
        content = {"type": "request", "seq": self._seq, "command": command}
        content["arguments"] = arguments or {}
        msg = self.client.session.msg("debug_request", content)
        self.client.control_channel.send(msg)
        while True:
            reply = self.client.control_channel.get_msg(timeout=60)
            if reply["parent_header"].get("msg_id") == msg["header"]["msg_id"]:
                body: dict[str, Any] = reply["content"]
                return body

    def wait_event(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 120) -> Any:
        for seen in self.events:
            if pred(seen):
                self.events.remove(seen)
                return seen
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                msg = self.client.get_iopub_msg(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                break
            if msg["msg_type"] != "debug_event":
                self._backlog.append(msg)
            elif pred(msg["content"]):
                return msg["content"]
            else:
                self.events.append(msg["content"])
        raise TimeoutError("no matching debug_event; seen: " + json.dumps(self.events)[:500])

    def start_debugging(self) -> None:
        assert self.debug("initialize", INIT_ARGS)["success"]
        assert self.debug("attach", {})["success"]

    def set_breakpoint(self, code: str, line: int, path: Optional[str] = None) -> str:
        """dumpCell (for cells) + setBreakpoints + configurationDone; the source path."""
        if path is None:
            path = self.debug("dumpCell", {"code": code})["body"]["sourcePath"]
        bp = {"source": {"path": path}, "breakpoints": [{"line": line}], "sourceModified": False}
        reply = self.debug("setBreakpoints", bp)
        assert reply["body"]["breakpoints"][0]["verified"], reply
        self.debug("configurationDone")
        return path

    def locals_of(self, frame_id: int) -> dict[str, dict[str, Any]]:
        scopes = self.debug("scopes", {"frameId": frame_id})["body"]["scopes"]
        ref = next(s for s in scopes if s["name"] == "Locals")["variablesReference"]
        found = self.debug("variables", {"variablesReference": ref})["body"]["variables"]
        return {v["name"]: v for v in found}


# A small Cell the magics tests define in a cell (`net` is an instance with arguments).
TINY = """\
class Tiny(nn.Cell):
    def __init__(self, n=3):
        super().__init__()
        self.fc = nn.Dense(4, n)
        self.act = nn.ReLU()

    def construct(self, x):
        return self.act(self.fc(x))

net = Tiny(5)
"""
