"""Bad setups get one line that says what to do, never a stack trace.

The setup scripts run for real against a crafted environment: a PATH without node, a registry
that refuses connections, a port someone else holds, an interpreter that does not exist.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]


def _copy_scripts(tmp_path: Path) -> Path:
    """A throwaway checkout holding only what the setup scripts read."""
    root = tmp_path / "checkout"
    shutil.copytree(REPO / "scripts", root / "scripts")
    for name in ("package.json", "package-lock.json", "pyproject.toml"):
        shutil.copy(REPO / name, root / name)
    shutil.copytree(REPO / "requirements", root / "requirements")
    return root


def _path_without(tmp_path: Path, *missing: str) -> str:
    """A PATH of symlinks to everything the scripts use, except `missing`."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in (
        "bash",
        "env",
        "cksum",
        "cut",
        "dirname",
        "grep",
        "mktemp",
        "tail",
        "rm",
        "id",
        "touch",
        "cat",
        "sed",
        "dpkg-query",
        "python3",
        "node",
        "npm",
    ):
        found = shutil.which(tool)
        if found and tool not in missing:
            (bin_dir / tool).symlink_to(found)
    return str(bin_dir)


def _run(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args,
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )


def _error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "error:" in line]


def test_no_node_is_one_line(tmp_path: Path) -> None:
    root = _copy_scripts(tmp_path)
    env = {"PATH": _path_without(tmp_path, "node", "npm"), "HOME": str(tmp_path)}
    proc = _run(["bash", "scripts/setup-node.sh"], env, root)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    (line,) = _error_lines(proc.stderr)
    assert "'node' was not found on PATH. Install Node.js 20" in line


def test_unreachable_registry_is_named(tmp_path: Path) -> None:
    root = _copy_scripts(tmp_path)
    env = {
        **os.environ,
        "HOME": str(tmp_path),
        # Nothing listens on port 9 of loopback, and an empty cache forces a fetch.
        "npm_config_registry": "http://127.0.0.1:9/",
        "npm_config_cache": str(tmp_path / "npm-cache"),
        "npm_config_fetch_retries": "0",
    }
    proc = _run(["bash", "scripts/setup-node.sh"], env, root)
    assert proc.returncode == 1
    (line,) = _error_lines(proc.stderr)
    assert "could not reach the package registry" in line
    assert "npm ci" in line


def test_missing_interpreter_is_one_line(tmp_path: Path) -> None:
    root = _copy_scripts(tmp_path)
    env = {**os.environ, "PYTHON": "/nonexistent/python3.11", "HOME": str(tmp_path)}
    proc = _run(["bash", "scripts/setup-python.sh"], env, root)
    assert proc.returncode == 1
    (line,) = _error_lines(proc.stderr)
    assert "'/nonexistent/python3.11' was not found" in line
    assert "PYTHON=/path/to/python3" in line
    assert not (root / ".venv").exists()


@pytest.mark.skipif(not (REPO / "dist" / "demo" / "serve.js").exists(), reason="run make build")
def test_port_in_use_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        proc = _run(
            ["node", str(REPO / "dist" / "demo" / "serve.js"), "--port", str(port)],
            {**os.environ},
            REPO,
        )
    assert proc.returncode == 1
    (line,) = _error_lines(proc.stderr)
    assert f"port {port} on 127.0.0.1 is in use by another program" in line
    assert "make demo PORT=" in line


def test_bad_port_number_is_one_line() -> None:
    proc = _run(
        ["node", str(REPO / "dist" / "demo" / "serve.js"), "--port", "http"], {**os.environ}, REPO
    )
    assert proc.returncode == 1
    (line,) = _error_lines(proc.stderr)
    assert '"http" is not a TCP port number' in line
