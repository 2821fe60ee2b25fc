"""The stdio bridge the VS Code controller talks to, against the real MindScope kernel: every
channel, the rich outputs, stdin, interrupt, the debugger, death and shutdown."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mindscope_kernel.bridge import wire
from mindscope_kernel.bridge.__main__ import missing_packages
from mindscope_kernel.bridge.client import BridgeClient


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is gone for our purpose: it only waits for its parent to reap it.
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().split(") ")[-1].startswith("Z"))


def _wait_gone(pid: int, timeout: float = 20) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not _alive(pid):
            return True
        time.sleep(0.1)
    return False


# --- the line protocol (no processes) -------------------------------------------------------


def test_parse_send_command() -> None:
    line = (
        '{"op":"send","channel":"control","msg_type":"debug_request",'
        '"content":{"seq":1},"msg_id":"m1"}'
    )
    assert wire.parse_command(line) == wire.Send("control", "debug_request", {"seq": 1}, "m1")


def test_parse_shutdown() -> None:
    assert wire.parse_command('{"op": "shutdown"}') == wire.Shutdown()


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("not json", "not JSON"),
        ("[1]", "JSON object"),
        ('{"op": "launch"}', "unknown op"),
        ('{"op": "send", "channel": "iopub", "msg_type": "x"}', "unknown channel"),
        ('{"op": "send", "channel": "shell", "msg_type": 3}', "string msg_type"),
    ],
)
def test_bad_commands_are_one_line_errors(line: str, reason: str) -> None:
    with pytest.raises(wire.WireError, match=reason):
        wire.parse_command(line)


def test_event_lines_carry_dates_and_drop_buffers() -> None:
    import datetime
    import json

    when = datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc)
    line = wire.event_line("message", msg={"header": {"date": when}, "buffers": [b"x"]})
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    decoded = json.loads(line)
    assert decoded["msg"]["header"]["date"] == "2026-01-02T03:04:05+00:00"
    assert decoded["msg"]["buffers"] == [None]


def test_missing_packages_names_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda n: None if n == "mindspore" else real(n)
    )
    assert missing_packages() == (["mindspore"], False)
    monkeypatch.setattr(importlib.util, "find_spec", lambda n: None)
    assert missing_packages() == (["ipykernel", "jupyter_client", "mindspore"], True)


# --- the real kernel through the bridge -----------------------------------------------------


@pytest.fixture(scope="module")
def bridge(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BridgeClient]:
    client = BridgeClient(tmp_path_factory.mktemp("nb"))
    started = client.wait_started()
    assert started["event"] == "started", started
    client.request("shell", "kernel_info_request", {})
    yield client
    client.kill()


@pytest.mark.slow
def test_first_cell_right_after_started_loses_no_output(tmp_path: Path) -> None:
    """`started` means iopub is subscribed: ZeroMQ drops what the kernel publishes before, so a
    first cell sent at once would otherwise lose its output and `idle` (and hang the client)."""
    for attempt in range(3):
        client = BridgeClient(tmp_path)
        try:
            assert client.wait_started()["event"] == "started"
            # The handshake's own kernel_info traffic is not relayed: no reply or status the
            # client cannot place (the kernel's unparented `starting` status may come).
            time.sleep(0.3)
            while not client.events.empty():
                event = client.events.get()
                assert event["event"] == "message", event
                assert not event["msg"]["parent_header"], event
            run = client.execute(f"print('first {attempt}')", timeout=60)
            assert run.stdout == f"first {attempt}\n"
            assert run.reply["content"]["status"] == "ok"
        finally:
            client.kill()


@pytest.mark.slow
def test_kernel_info_and_cwd(bridge: BridgeClient) -> None:
    info = bridge.request("shell", "kernel_info_request", {})["content"]
    assert info["implementation"] == "mindscope"
    assert "debugger" in info.get("supported_features", [])
    cwd = bridge.execute("import os; print(os.getcwd())").stdout.strip()
    assert Path(cwd).name.startswith("nb")
    assert bridge.kernel_pid and _alive(bridge.kernel_pid)


@pytest.mark.slow
def test_stream_result_and_execution_count(bridge: BridgeClient) -> None:
    first = bridge.execute("print('a'); 6 * 7")
    assert first.reply["content"]["status"] == "ok"
    assert first.stdout == "a\n"
    [result] = first.of_type("execute_result")
    assert result["content"]["data"]["text/plain"] == "42"
    count = first.reply["content"]["execution_count"]
    assert bridge.execute("1").reply["content"]["execution_count"] == count + 1


@pytest.mark.slow
def test_every_rich_mime_type_arrives(bridge: BridgeClient) -> None:
    code = (
        "from IPython.display import display, HTML, Markdown, SVG, JSON, Image\n"
        "import base64\n"
        "PNG = base64.b64decode('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk"
        "YPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==')\n"
        "display(HTML('<b>x</b>'), Markdown('**m**'), SVG('<svg xmlns=\"http://www.w3.org/2000/svg\"/>'),"
        " JSON({'k': 1}), Image(PNG))\n"
    )
    run = bridge.execute(code)
    assert run.reply["content"]["status"] == "ok", run.reply
    mimes = {m for d in run.of_type("display_data") for m in d["content"]["data"]}
    assert {"text/html", "text/markdown", "image/svg+xml", "application/json", "image/png"} <= mimes
    [png] = [d for d in run.of_type("display_data") if "image/png" in d["content"]["data"]]
    assert png["content"]["data"]["image/png"].startswith("iVBOR")  # base64 on the wire


@pytest.mark.slow
def test_update_display_and_clear_output(bridge: BridgeClient) -> None:
    code = (
        "from IPython.display import display, clear_output\n"
        "h = display('one', display_id='d1')\n"
        "h.update('two')\n"
        "clear_output(wait=True)\n"
        "print('after')\n"
    )
    run = bridge.execute(code)
    [shown] = run.of_type("display_data")
    [update] = run.of_type("update_display_data")
    assert shown["content"]["transient"]["display_id"] == "d1"
    assert update["content"]["transient"]["display_id"] == "d1"
    assert update["content"]["data"]["text/plain"] == "'two'"
    [clear] = run.of_type("clear_output")
    assert clear["content"]["wait"] is True


@pytest.mark.slow
def test_error_with_ansi_traceback(bridge: BridgeClient) -> None:
    run = bridge.execute("1 / 0")
    assert run.reply["content"]["status"] == "error"
    [error] = run.of_type("error")
    assert error["content"]["ename"] == "ZeroDivisionError"
    assert any("\x1b[" in line for line in error["content"]["traceback"])


@pytest.mark.slow
def test_input_goes_through_stdin(bridge: BridgeClient) -> None:
    prompts: list[str] = []

    def answer(content: dict[str, Any]) -> str:
        prompts.append(content["prompt"])
        return "MindSpore"

    run = bridge.execute("name = input('who? '); print('hi', name)", on_stdin=answer)
    assert prompts == ["who? "]
    assert run.stdout == "hi MindSpore\n"


@pytest.mark.slow
def test_interrupt_request_on_control(bridge: BridgeClient) -> None:
    msg_id = bridge.send(
        "shell",
        "execute_request",
        {"code": "import time\nprint('go', flush=True)\ntime.sleep(60)", "silent": False},
    )
    reply = None
    interrupted = False
    deadline = time.monotonic() + 60
    while reply is None and time.monotonic() < deadline:
        event = bridge.next_event()
        msg = event["msg"]
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        if msg["header"]["msg_type"] == "stream" and not interrupted:
            bridge.request("control", "interrupt_request", {})
            interrupted = True
        if event["channel"] == "shell":
            reply = msg
    assert reply is not None and interrupted
    assert reply["content"]["status"] == "error"
    assert reply["content"]["ename"] == "KeyboardInterrupt"
    assert bridge.execute("print('next')").stdout == "next\n"


@pytest.mark.slow
def test_debug_request_and_reply(bridge: BridgeClient) -> None:
    reply = bridge.request(
        "control",
        "debug_request",
        {"type": "request", "seq": 1, "command": "initialize", "arguments": {"adapterID": "x"}},
    )
    assert reply["header"]["msg_type"] == "debug_reply"
    assert reply["content"]["success"] is True
    assert reply["content"]["command"] == "initialize"


@pytest.mark.slow
def test_a_dying_kernel_is_reported(tmp_path: Path) -> None:
    client = BridgeClient(tmp_path)
    try:
        assert client.wait_started()["event"] == "started"
        pid = client.kernel_pid
        assert pid
        client.send("shell", "execute_request", {"code": "import os; os._exit(7)", "silent": False})
        events: list[dict[str, Any]] = []
        while not events or events[-1]["event"] not in ("died", "eof"):
            events.append(client.next_event())
        assert events[-1] == {"event": "died", "exit_code": 7}
        assert client.proc.wait(timeout=20) == 1
        assert _wait_gone(pid)
    finally:
        client.kill()


@pytest.mark.slow
@pytest.mark.parametrize("how", ["shutdown", "stdin closed"])
def test_shutdown_leaves_no_kernel(tmp_path: Path, how: str) -> None:
    client = BridgeClient(tmp_path)
    try:
        assert client.wait_started()["event"] == "started"
        pid = client.kernel_pid
        assert pid and _alive(pid)
        if how == "shutdown":
            assert client.shutdown() == 0
        else:
            assert client.proc.stdin is not None
            client.proc.stdin.close()
            assert client.proc.wait(timeout=30) == 0
        assert _wait_gone(pid)
    finally:
        client.kill()


@pytest.mark.slow
def test_killed_bridge_takes_the_kernel_down(tmp_path: Path) -> None:
    client = BridgeClient(tmp_path)
    try:
        assert client.wait_started()["event"] == "started"
        pid = client.kernel_pid
        assert pid
        client.proc.terminate()
        client.proc.wait(timeout=30)
        assert _wait_gone(pid)
    finally:
        client.kill()


SYSTEM_PYTHON = shutil.which("python3", path="/usr/bin")


@pytest.mark.skipif(
    SYSTEM_PYTHON is None
    or subprocess.run([SYSTEM_PYTHON, "-c", "import ipykernel"], capture_output=True).returncode
    == 0,
    reason="needs a Python without ipykernel",
)
def test_an_interpreter_without_ipykernel_says_what_to_install(tmp_path: Path) -> None:
    assert SYSTEM_PYTHON is not None and sys.executable != SYSTEM_PYTHON
    client = BridgeClient(tmp_path, python=SYSTEM_PYTHON)
    try:
        event = client.wait_started()
        assert event["event"] == "missing" and event["fatal"] is True
        assert {"ipykernel", "jupyter_client"} <= set(event["packages"])
        assert client.proc.wait(timeout=20) == 3
    finally:
        client.kill()
