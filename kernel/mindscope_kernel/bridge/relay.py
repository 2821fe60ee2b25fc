"""Starts one kernel and relays its channels: a single thread polls the ZeroMQ sockets and the
bridge's stdin together, so no socket is ever touched from two threads."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import IO, Any

import zmq
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager

from mindscope_kernel.bridge.wire import (
    Send,
    Shutdown,
    WireError,
    event_line,
    message_fields,
    parse_command,
)
from mindscope_kernel.install import DEFAULT_NAME, write_spec

# How often the relay checks that the kernel process still lives when nothing arrives.
ALIVE_CHECK_MS = 500
# How long the kernel may take to answer on shell and on iopub before the bridge gives up.
READY_TIMEOUT_S = 110


def start_kernel(cwd: str, spec_dir: Path) -> KernelManager:
    """The kernel exactly as the installed kernelspec describes it, in this interpreter."""
    write_spec(spec_dir / DEFAULT_NAME, sys.executable)
    specs = KernelSpecManager(kernel_dirs=[str(spec_dir)])
    km = KernelManager(kernel_name=DEFAULT_NAME, kernel_spec_manager=specs)
    km.start_kernel(cwd=cwd)
    return km


class Relay:
    def __init__(self, km: KernelManager, out: IO[bytes]) -> None:
        self.km = km
        self.out = out
        self.session = km.session
        # Shell and stdin share one identity: the kernel addresses input_request to it.
        identity = self.session.bsession
        self.sockets: dict[str, zmq.Socket[Any]] = {
            "shell": km.connect_shell(identity=identity),
            "control": km.connect_control(identity=identity),
            "stdin": km.connect_stdin(identity=identity),
            "iopub": km.connect_iopub(),
        }
        self.channel_of = {sock: name for name, sock in self.sockets.items()}
        self.pending = b""
        self.own: set[str] = set()  # msg_ids of the handshake's requests: never relayed

    def wait_ready(self, timeout: float = READY_TIMEOUT_S) -> bool:
        """True once the kernel answers kernel_info on shell *and* iopub delivers a message.

        ZeroMQ drops what a PUB socket sends before the SUB's connection is up (the slow
        joiner), so without this the first cell's output and its `idle` could be lost and the
        client would wait forever. Same handshake as jupyter_client's `wait_for_ready`.
        """
        shell, iopub = self.sockets["shell"], self.sockets["iopub"]
        poller = zmq.Poller()
        poller.register(shell, zmq.POLLIN)
        poller.register(iopub, zmq.POLLIN)
        replied = heard = False
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.km.is_alive():
            # Each request makes the kernel publish busy/idle: heard once iopub is up.
            self.own.add(self.send(Send("shell", "kernel_info_request", {}, None)))
            round_end = time.monotonic() + 1.0
            while time.monotonic() < round_end:
                ready = dict(poller.poll(100))
                replied = replied or (shell in ready and self._drain_quietly(shell))
                heard = heard or (iopub in ready and self._drain_quietly(iopub))
                if replied and heard:
                    return True
        return False

    def _drain_quietly(self, sock: zmq.Socket[Any]) -> bool:
        """Reads what waits on `sock` without relaying it; True if anything was read."""
        got = False
        while True:
            try:
                sock.recv_multipart(zmq.NOBLOCK)
            except zmq.Again:
                return got
            got = True

    def emit(self, event: str, **fields: object) -> None:
        self.out.write(event_line(event, **fields))
        self.out.flush()

    def run(self, stdin_fd: int) -> int:
        poller = zmq.Poller()
        for sock in self.sockets.values():
            poller.register(sock, zmq.POLLIN)
        poller.register(stdin_fd, zmq.POLLIN)
        while True:
            ready = dict(poller.poll(ALIVE_CHECK_MS))
            for sock, channel in self.channel_of.items():
                if sock in ready:
                    self.relay_from(sock, channel)
            if stdin_fd in ready and not self.read_commands(stdin_fd):
                return self.shutdown()
            if not ready and not self.km.is_alive():
                self.drain()
                self.emit("died", exit_code=self.exit_code())
                return 1

    def exit_code(self) -> int | None:
        process = getattr(self.km.provisioner, "process", None)
        code = process.poll() if process is not None else None
        return code if isinstance(code, int) else None

    def relay_from(self, sock: zmq.Socket[Any], channel: str) -> None:
        while True:
            try:
                frames = sock.recv_multipart(zmq.NOBLOCK)
            except zmq.Again:
                return
            _, parts = self.session.feed_identities(frames)
            msg = self.session.deserialize(parts)
            if msg["parent_header"].get("msg_id") in self.own:
                continue  # a late answer to the handshake
            self.emit("message", channel=channel, msg=message_fields(msg))

    def drain(self) -> None:
        # What the kernel said before dying still reaches the extension.
        for sock, channel in self.channel_of.items():
            self.relay_from(sock, channel)

    def read_commands(self, fd: int) -> bool:
        """False when stdin closed or a shutdown was asked for."""
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return False
        *lines, self.pending = (self.pending + chunk).split(b"\n")
        for line in lines:
            if not line.strip():
                continue
            try:
                command = parse_command(line.decode())
            except WireError as e:
                self.emit("error", message=str(e))
                continue
            if isinstance(command, Shutdown):
                return False
            self.send(command)
        return True

    def send(self, command: Send) -> str:
        """Sends a command's message; returns its msg_id."""
        header = self.session.msg_header(command.msg_type)
        if command.msg_id:
            header["msg_id"] = command.msg_id
        msg = self.session.msg(command.msg_type, command.content, header=header)
        self.session.send(self.sockets[command.channel], msg)
        return str(header["msg_id"])

    def shutdown(self) -> int:
        if self.km.is_alive():
            self.km.shutdown_kernel(now=False)
        for sock in self.sockets.values():
            sock.close(linger=0)
        self.emit("stopped")
        return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m mindscope_kernel.bridge")
    parser.add_argument("--cwd", default=os.getcwd(), help="the kernel's working directory")
    args = parser.parse_args(argv)
    out = sys.stdout.buffer
    # From here on stdout carries only protocol lines.
    sys.stdout = sys.stderr
    with tempfile.TemporaryDirectory(prefix="mindscope-kernelspec-") as spec_dir:
        try:
            km = start_kernel(args.cwd, Path(spec_dir))
        except Exception as e:  # reported to the extension as one line
            out.write(event_line("failed", message=f"{type(e).__name__}: {e}"))
            out.flush()
            return 2
        relay = Relay(km, out)
        if not relay.wait_ready():
            died = not km.is_alive()
            relay.emit(
                "failed",
                message="the kernel died while starting"
                if died
                else f"the kernel did not answer within {READY_TIMEOUT_S} s",
            )
            if not died:
                km.shutdown_kernel(now=True)
            return 2
        # The extension ends the bridge with SIGTERM when it cannot wait: stop the kernel too.
        signal.signal(signal.SIGTERM, lambda *_: _terminate(km))
        pid = km.provisioner.pid if km.provisioner else None  # type: ignore[attr-defined]
        relay.emit("started", kernel_pid=pid)
        try:
            return relay.run(sys.stdin.fileno())
        finally:
            if km.is_alive():
                km.shutdown_kernel(now=True)


def _terminate(km: KernelManager) -> None:
    if km.is_alive():
        km.shutdown_kernel(now=True)
    sys.exit(0)
