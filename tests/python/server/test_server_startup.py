"""Start-up behaviour that the extension relies on for its error messages."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mindscope_ls.settings import ServerOptions, parse_options

REPO = Path(__file__).resolve().parents[3]


def test_options_default_and_lenient() -> None:
    assert parse_options(None) == ServerOptions()
    assert parse_options({"warmUp": "yes", "logLevel": "loud"}) == ServerOptions()
    assert parse_options({"warmUp": False, "logLevel": "debug"}) == ServerOptions(False, "debug")


def test_missing_dependencies_give_one_line_with_the_fix(tmp_path: Path) -> None:
    # An interpreter without pygls: a fresh venv without site packages.
    venv = tmp_path / "bare"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    env = {**os.environ, "PYTHONPATH": str(REPO / "pyserver")}
    proc = subprocess.run(
        [str(python), "-m", "mindscope_ls"],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 3
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "missing Python packages: pygls, lsprotocol, jedi" in lines[0]
    assert f"{python} -m pip install pygls lsprotocol jedi" in lines[0]


@pytest.mark.skipif(shutil.which("python3") is None, reason="no python3 on PATH")
def test_server_module_is_importable_without_mindspore() -> None:
    # The server must never import MindSpore: check that importing it leaves it unloaded.
    code = "import sys, mindscope_ls.server; print('mindspore' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == "False"
