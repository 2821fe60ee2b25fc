"""A Python client of the bridge speaking the same JSON lines as the extension: the tests and
bench/notebook_roundtrip.py drive the bridge through it exactly as VS Code does."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PACKAGE_ROOTS = [Path(__file__).resolve().parents[2]]  # kernel/: where mindscope_kernel lives


@dataclass
class Execution:
    reply: dict[str, Any]
    iopub: list[dict[str, Any]] = field(default_factory=list)
    first_output_s: float | None = None

    def of_type(self, msg_type: str) -> list[dict[str, Any]]:
        return [m for m in self.iopub if m["header"]["msg_type"] == msg_type]

    @property
    def stdout(self) -> str:
        return "".join(
            m["content"]["text"] for m in self.of_type("stream") if m["content"]["name"] == "stdout"
        )


class BridgeClient:
    def __init__(self, cwd: Path, python: str = sys.executable) -> None:
        env = dict(os.environ)
        paths = [str(p) for p in PACKAGE_ROOTS] + [env.get("PYTHONPATH", "")]
        env["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
        self.proc = subprocess.Popen(
            [python, "-m", "mindscope_kernel.bridge", "--cwd", str(cwd)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        self.events: queue.Queue[dict[str, Any]] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.kernel_pid: int | None = None

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.events.put(json.loads(line))
        self.events.put({"event": "eof"})

    def next_event(self, timeout: float = 60) -> dict[str, Any]:
        return self.events.get(timeout=timeout)

    def write(self, command: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write((json.dumps(command) + "\n").encode())
        self.proc.stdin.flush()

    def send(self, channel: str, msg_type: str, content: dict[str, Any]) -> str:
        msg_id = uuid.uuid4().hex
        self.write(
            {
                "op": "send",
                "channel": channel,
                "msg_type": msg_type,
                "content": content,
                "msg_id": msg_id,
            }
        )
        return msg_id

    def wait_started(self, timeout: float = 120) -> dict[str, Any]:
        """The `started` event (or whatever came instead: missing, failed, eof)."""
        deadline = time.monotonic() + timeout
        while True:
            event = self.next_event(max(0.1, deadline - time.monotonic()))
            if event["event"] == "missing" and not event["fatal"]:
                continue
            if event["event"] != "message":
                if event["event"] == "started":
                    self.kernel_pid = event["kernel_pid"]
                return event

    def request(
        self, channel: str, msg_type: str, content: dict[str, Any], timeout: float = 60
    ) -> dict[str, Any]:
        msg_id = self.send(channel, msg_type, content)
        deadline = time.monotonic() + timeout
        while True:
            event = self.next_event(max(0.1, deadline - time.monotonic()))
            if event["event"] != "message":
                raise RuntimeError(f"bridge: {event}")
            msg = event["msg"]
            if event["channel"] == channel and msg["parent_header"].get("msg_id") == msg_id:
                return dict(msg)

    def execute(self, code: str, timeout: float = 120, on_stdin: Any = None) -> Execution:
        """Runs `code`; returns once the reply and iopub's idle for it have both arrived."""
        start = time.perf_counter()
        msg_id = self.send(
            "shell",
            "execute_request",
            {
                "code": code,
                "silent": False,
                "store_history": True,
                "allow_stdin": True,
                "stop_on_error": True,
                "user_expressions": {},
            },
        )
        reply: dict[str, Any] | None = None
        idle = False
        result = Execution(reply={})
        deadline = time.monotonic() + timeout
        while reply is None or not idle:
            event = self.next_event(max(0.1, deadline - time.monotonic()))
            if event["event"] != "message":
                raise RuntimeError(f"bridge: {event}")
            msg, channel = event["msg"], event["channel"]
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind = msg["header"]["msg_type"]
            if channel == "shell":
                reply = msg
            elif channel == "stdin" and on_stdin is not None:
                self.send("stdin", "input_reply", {"value": on_stdin(msg["content"])})
            elif channel == "iopub":
                if kind == "status":
                    idle = idle or msg["content"]["execution_state"] == "idle"
                    continue
                if kind != "execute_input" and result.first_output_s is None:
                    result.first_output_s = time.perf_counter() - start
                result.iopub.append(msg)
        result.reply = reply
        return result

    def shutdown(self, timeout: float = 30) -> int:
        if self.proc.poll() is None:
            with contextlib.suppress(BrokenPipeError):
                self.write({"op": "shutdown"})
        return self.proc.wait(timeout=timeout)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
