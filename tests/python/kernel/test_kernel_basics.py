"""The installed kernelspec starts the real kernel through jupyter_client."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager


def _install(prefix: Path, name: str) -> Path:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "mindscope_kernel",
            "install",
            "--prefix",
            str(prefix),
            "--name",
            name,
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert f"Installed the MindScope kernelspec '{name}'" in proc.stdout
    return prefix / "share" / "jupyter" / "kernels" / name


def test_install_writes_a_debugger_kernelspec_with_logos(tmp_path: Path) -> None:
    spec_dir = _install(tmp_path, "ms-test")
    spec = json.loads((spec_dir / "kernel.json").read_text())
    assert spec["metadata"] == {"debugger": True}
    assert "MindSpore" in spec["display_name"]
    assert spec["argv"][:3] == [sys.executable, "-m", "mindscope_kernel"]
    assert {p.name for p in spec_dir.glob("logo-*.png")} == {"logo-32x32.png", "logo-64x64.png"}


def test_install_rejects_two_destinations() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mindscope_kernel", "install", "--user", "--prefix", "/tmp/x"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert "not allowed with argument" in proc.stderr


@pytest.fixture
def kernel(tmp_path: Path) -> Iterator[Any]:
    spec_dir = _install(tmp_path, "ms-run")
    ksm = KernelSpecManager(kernel_dirs=[str(spec_dir.parent)])
    km = KernelManager(kernel_name="ms-run", kernel_spec_manager=ksm)
    km.start_kernel()
    client = km.blocking_client()
    client.start_channels()
    client.wait_for_ready(timeout=60)
    yield client
    client.stop_channels()
    km.shutdown_kernel(now=True)


def _run(client: Any, code: str) -> tuple[str, list[str]]:
    msg_id = client.execute(code)
    outputs: list[str] = []
    while True:
        msg = client.get_iopub_msg(timeout=60)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        if msg["msg_type"] == "stream":
            outputs.append(msg["content"]["text"])
        if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            break
    reply = client.get_shell_msg(timeout=60)
    return reply["content"]["status"], outputs


@pytest.mark.slow
def test_kernel_reports_itself_and_runs_code(kernel: Any) -> None:
    info = kernel.kernel_info(reply=True)["content"]
    assert info["implementation"] == "mindscope"
    assert "debugger" in info["supported_features"]  # protocol 5.5 spelling of debugger: true
    status, out = _run(kernel, "print(6 * 7)")
    assert status == "ok" and "".join(out).strip() == "42"
