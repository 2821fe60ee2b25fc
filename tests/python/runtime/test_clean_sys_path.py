"""No code from an opened folder runs when the extension starts a Python child in it.

Every child starts as `python pyserver/mindscope_start.py MODULE ARGS` (extension/src/
pythonChild.ts). A folder holding `json.py`, `runpy.py`, `mindscope_ls/` and
`mindscope_runtime/` that each leave a marker file when imported is the working directory; the
language server, its probe and the .mindir decoder must start and leave no marker, on every
supported Python found here (3.9 to 3.11). The control shows the same folder does run with the
plain `python -m` the extension used before. Debug in PyNative, as debug/provider.ts and
debug/config.ts start it: debugpy's adapter through the start script, launching the start script
with the launcher module in the script's folder (real debugpy over stdio).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[3]
START = REPO / "pyserver" / "mindscope_start.py"
MINDIR = Path(__file__).parent / "fixtures" / "tiny_net.mindir"
SHADOWS = ("json.py", "runpy.py", "mindscope_ls/__init__.py", "mindscope_ls/__main__.py",
           "mindscope_runtime/__init__.py", "mindscope_runtime/__main__.py")  # fmt: skip

sys.path.insert(0, str(START.parent))
from mindscope_start import safe_path  # noqa: E402


def hostile_folder(tmp_path: Path) -> tuple[Path, Path]:
    folder, markers = tmp_path / "workspace", tmp_path / "markers"
    markers.mkdir()
    for name in SHADOWS:
        file = folder / name
        file.parent.mkdir(parents=True, exist_ok=True)
        marker = markers / name.replace("/", "_")
        file.write_text(f"open({str(marker)!r}, 'w').close()\n")
    shutil.copy(MINDIR, folder / "model.mindir")
    return folder, markers


def ran(markers: Path) -> list[str]:
    return sorted(p.name for p in markers.iterdir())


def child_env(*dirs: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSAFEPATH")}
    # The extension's layout (serverEnv.ts / runtime/env.ts), plus an empty element: a user's
    # `PYTHONPATH=$PYTHONPATH:…` with nothing before it means "the current folder".
    env["PYTHONPATH"] = os.pathsep.join(["", *(str(REPO / d) for d in dirs)])
    return env


def interpreters() -> list[str]:
    found = [sys.executable]
    pyenv = Path.home() / ".pyenv" / "versions"
    for minor in ("3.9", "3.10"):
        found += sorted(str(p / "bin" / "python") for p in pyenv.glob(f"{minor}.*"))[:1]
    return found


@pytest.mark.parametrize("python", interpreters())
def test_the_probe_imports_nothing_from_the_folder(tmp_path: Path, python: str) -> None:
    folder, markers = hostile_folder(tmp_path)
    control = subprocess.run([python, "-m", "mindscope_ls", "--probe"], cwd=folder,
                             env=child_env("pyserver"), capture_output=True, text=True)  # fmt: skip
    assert ran(markers) != [], control.stderr  # the hazard is real with `-m`
    for marker in markers.iterdir():
        marker.unlink()
    probe = subprocess.run([python, str(START), "mindscope_ls", "--probe"], cwd=folder,
                           env=child_env("pyserver"), capture_output=True, text=True)  # fmt: skip
    assert probe.returncode == 0, probe.stderr
    assert "python" in json.loads(probe.stdout.splitlines()[-1])
    assert ran(markers) == []


def _frame(message: dict[str, object]) -> bytes:
    body = json.dumps(message).encode()
    return f"Content-Length: {len(body)}\r\n\r\n".encode() + body


def test_the_language_server_answers_and_imports_nothing_from_the_folder(tmp_path: Path) -> None:
    folder, markers = hostile_folder(tmp_path)
    params: dict[str, object] = {"processId": None, "rootUri": folder.as_uri(), "capabilities": {}}
    init: dict[str, object] = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params}
    messages: list[dict[str, object]] = [
        init,
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ]
    server = subprocess.run(
        [sys.executable, str(START), "mindscope_ls"],
        cwd=folder,
        input=b"".join(_frame(m) for m in messages),
        env=child_env("pyserver"),
        capture_output=True,
        timeout=120,
    )
    assert b'"capabilities"' in server.stdout, server.stderr.decode()[-2000:]
    assert ran(markers) == []


def test_the_mindir_decoder_imports_nothing_from_the_folder(tmp_path: Path) -> None:
    folder, markers = hostile_folder(tmp_path)
    out = tmp_path / "graph.json"
    run = subprocess.run(
        [sys.executable, str(START), "mindscope_runtime", "mindir", "model.mindir", "-o", str(out)],
        cwd=folder, env=child_env("runtime", "pyserver", "kernel"), capture_output=True,
        text=True, timeout=120,
    )  # fmt: skip
    assert json.loads(run.stdout.splitlines()[-1])["ok"] is True, run.stderr[-2000:]
    assert json.loads(out.read_text())["kind"] == "mindscope.graph"
    assert ran(markers) == []


def test_safe_path_drops_the_folder_relative_entries_and_the_scripts_own() -> None:
    path = ["/ext/pyserver", "", ".", "rel/dir", "/w", "/w/", "/ext/pyserver", "/lib/python3.11"]
    assert safe_path(path, "/w", True) == ["/ext/pyserver", "/lib/python3.11"]
    assert safe_path(path, "/w", False) == ["/ext/pyserver", "/ext/pyserver", "/lib/python3.11"]


def test_the_start_script_runs_the_module_as_main_with_its_arguments(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, str(START), "json.tool", "--compact"],
                         cwd=hostile_folder(tmp_path)[0], input='{"a": [1, 2]}',
                         capture_output=True, text=True)  # fmt: skip
    assert run.stdout.strip() == '{"a":[1,2]}', run.stderr
    usage = subprocess.run([sys.executable, str(START)], capture_output=True, text=True)
    assert usage.returncode == 2 and "usage" in usage.stderr


def send(proc: subprocess.Popen[bytes], seq: int, command: str, **arguments: Any) -> None:
    body = json.dumps({"seq": seq, "type": "request", "command": command, "arguments": arguments})
    assert proc.stdin is not None
    proc.stdin.write(f"Content-Length: {len(body)}\r\n\r\n{body}".encode())
    proc.stdin.flush()


def read(proc: subprocess.Popen[bytes]) -> dict[str, Any]:
    assert proc.stdout is not None
    length = 0
    while True:
        line = proc.stdout.readline()
        if not line:
            raise EOFError("the adapter closed its output")
        if line.strip() == b"":
            break
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    message: dict[str, Any] = json.loads(proc.stdout.read(length))
    return message


@pytest.mark.slow
def test_the_debug_launcher_runs_the_script_and_nothing_from_its_folder(tmp_path: Path) -> None:
    folder, markers = hostile_folder(tmp_path)
    script = folder / "train.py"
    script.write_text("import json\nprint('trained', json.dumps([1]))\n")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(str(REPO / d) for d in ("runtime", "pyserver", "kernel")),
    }
    adapter = subprocess.Popen(
        [sys.executable, str(START), "debugpy.adapter"],
        cwd=REPO,  # a static child: the extension's folder
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        send(adapter, 1, "initialize", adapterID="mindscope", clientID="test")
        send(adapter, 2, "launch", program=str(START),
             args=["mindscope_runtime.pynative_launch", str(script)], cwd=str(folder),
             env={"MS_JIT": "0", "PYTHONPATH": env["PYTHONPATH"]}, python=[sys.executable],
             console="internalConsole", redirectOutput=True, justMyCode=True)  # fmt: skip
        output, deadline, configured = "", time.monotonic() + 120, False
        while time.monotonic() < deadline:
            message = read(adapter)
            if message.get("event") == "initialized" and not configured:
                send(adapter, 3, "configurationDone")
                configured = True
            if message.get("event") == "output":
                output += message["body"].get("output", "")
            if message.get("event") in ("terminated", "exited"):
                break
        assert "trained [1]" in output, output[-2000:]
        # The script's own `import json` is the stdlib's, and none of our packages were replaced.
        assert ran(markers) == [], output[-2000:]
    finally:
        adapter.kill()
        adapter.wait()
