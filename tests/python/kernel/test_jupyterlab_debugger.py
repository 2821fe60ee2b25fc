"""End to end in a real JupyterLab: a breakpoint set in the debugger UI stops inside `construct`
of a Cell defined in a GRAPH_MODE notebook. The browser side is jupyterlab_driver.js
(playwright-core in Debian's headless Chromium); the screenshot lands in
test-results/jupyterlab-debugger.png."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest

from mindscope_kernel.install import DISPLAY_NAME

from .kclient import install_spec

pytestmark = pytest.mark.slow
REPO = Path(__file__).resolve().parents[3]
DRIVER = Path(__file__).with_name("jupyterlab_driver.js")
SCREENSHOT = REPO / "test-results" / "jupyterlab-debugger.png"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")

SETUP = """\
import mindspore as ms
from mindspore import nn
ms.set_device("CPU")
ms.set_context(mode=ms.GRAPH_MODE)
x = ms.Tensor([[1.0, 2.0, 3.0, 4.0]], ms.float32)
"""
NET = """\
class Tiny(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(4, 3)

    def construct(self, x):
        y = self.fc(x)
        return y * 2

out = Tiny()(x)
print("out", out.shape)
"""
BREAK_LINE = 7  # `y = self.fc(x)`
NO_NEWS = {"fetchNews": "false", "checkForUpdates": False}

needs_browser = pytest.mark.skipif(
    shutil.which("node") is None
    or not Path(CHROMIUM).exists()
    or not (REPO / "node_modules" / "playwright-core").exists(),
    reason="needs node, playwright-core and Chromium",
)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _write_notebook(path: Path) -> None:
    nb = nbformat.v4.new_notebook()  # type: ignore[no-untyped-call]
    nb.cells = [nbformat.v4.new_code_cell(c) for c in (SETUP, NET)]  # type: ignore[no-untyped-call]
    nb.metadata["kernelspec"] = {"name": "mindscope", "display_name": DISPLAY_NAME}
    nb.metadata["kernelspec"]["language"] = "python"
    nbformat.write(nb, path)  # type: ignore[no-untyped-call]


def _jupyter_env(home: Path) -> dict[str, str]:
    install_spec(home / "prefix", "mindscope")
    settings = home / "config" / "lab" / "user-settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text(json.dumps(NO_NEWS))
    dirs = {"JUPYTER_DATA_DIR": "data", "JUPYTER_CONFIG_DIR": "config", "JUPYTER_RUNTIME_DIR": "rt"}
    env = {**os.environ, **{k: str(home / v) for k, v in dirs.items()}}
    env["JUPYTER_PATH"] = str(home / "prefix" / "share" / "jupyter")
    env["IPYTHONDIR"] = str(home / "ipython")
    return env


def _wait_for_server(url: str, proc: subprocess.Popen[bytes], deadline: float) -> None:
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"jupyter lab exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/api/status", timeout=5):
                return
        except OSError:
            time.sleep(0.25)
    raise TimeoutError("jupyter lab did not answer /api/status")


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    home = tmp_path_factory.mktemp("jupyterlab")
    root = home / "root"
    root.mkdir()
    _write_notebook(root / "debug.ipynb")
    port = _free_port()
    argv = [sys.executable, "-m", "jupyterlab", "--allow-root", "--no-browser",
            "--ServerApp.token=", "--ServerApp.password=", f"--port={port}",
            "--ServerApp.port_retries=0", f"--ServerApp.root_dir={root}"]  # fmt: skip
    log = (home / "lab.log").open("wb")
    proc = subprocess.Popen(argv, env=_jupyter_env(home), stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_for_server(url, proc, time.monotonic() + 120)
        yield url
    finally:
        proc.terminate()  # the server shuts its kernels down on SIGTERM
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def _drive(url: str) -> dict[str, Any]:
    SCREENSHOT.parent.mkdir(exist_ok=True)
    options = {"base": url, "notebook": "debug.ipynb", "cell": 1, "line": BREAK_LINE,
               "screenshot": str(SCREENSHOT), "timeoutMs": 150_000,
               "kernelDisplayName": DISPLAY_NAME, "expectOutput": "out (1, 3)"}  # fmt: skip
    proc = subprocess.run(
        ["node", str(DRIVER), json.dumps(options)],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=REPO,
        env={**os.environ, "CHROMIUM": CHROMIUM},
    )
    lines = proc.stdout.strip().splitlines()
    assert lines, f"the driver printed nothing; stderr: {proc.stderr[-2000:]}"
    report: dict[str, Any] = json.loads(lines[-1])
    return report


@needs_browser
def test_breakpoint_in_construct_stops_in_jupyterlab(lab: str) -> None:
    report = _drive(lab)
    assert report["ok"], json.dumps(report, indent=1)
    assert report["kernelName"] == DISPLAY_NAME
    assert report["frame"] == "construct" and report["location"].endswith(f":{BREAK_LINE}"), report
    assert report["highlighted"] and report["highlighted"][0].strip() == "y = self.fc(x)", report
    assert "x" in report["variables"] and "Tensor" in report["variables"], report
    assert any("out (1, 3)" in text for text in report["output"]), report
    assert SCREENSHOT.exists()
