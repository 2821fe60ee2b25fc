"""Run `python -m mindscope_runtime graph|profile|stats|export` in a child process and read its
document.

The child starts as every Python child of the extension does (docs/security.md): through the
start script, so the notebook's folder is not first on its sys.path while our code and the
standard library are imported (a `json.py` or `mindscope_runtime/` beside the notebook would run).
The folder is still where the cells' own imports (`import utils`) are found: the start script
searches it after everything else, from MINDSCOPE_USER_PATH.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

# The extension's layout (and this repository's): pyserver/, kernel/, runtime/ side by side.
START_SCRIPT = Path(__file__).resolve().parents[2] / "pyserver" / "mindscope_start.py"


@dataclass
class RunResult:
    status: dict[str, Any]
    document: Optional[dict[str, Any]]
    stderr: str

    @property
    def error(self) -> str:
        err = self.status.get("error") or {}
        tail = self.stderr.strip().splitlines()[-1:]
        return str(err.get("message", "")) or (tail[0] if tail else "unknown error")


def run(
    command: str,
    target: str,
    options: list[str],
    timeout: float = 600,
    output: Optional[str] = None,
) -> RunResult:
    """`output`: where the command writes (default: a temporary document); a command that
    writes a folder (`export`) names its document in the status's `output`."""
    with tempfile.TemporaryDirectory(prefix="mindscope-run-") as folder:
        output = output or os.path.join(folder, f"{command}.json")
        argv = [*start_command("mindscope_runtime"), command, target, "-o", output]
        proc = subprocess.run(
            [*argv, *options, "--quiet"],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=child_env(dict(os.environ), os.getcwd()),
            cwd=os.getcwd(),
        )
        status = _status(proc.stdout)
        document = None
        written = str(status.get("output") or output)
        if os.path.isfile(written):
            with open(written, encoding="utf-8") as handle:
                document = json.load(handle)
    return RunResult(status, document, proc.stderr)


def start_command(module: str) -> list[str]:
    """`python -m module`, through the start script when it is there (the extension, a
    checkout); installed as a distribution only, `-P` (Python 3.11+) keeps the folder out."""
    if START_SCRIPT.is_file():
        return [sys.executable, str(START_SCRIPT), module]
    safe = ["-P"] if sys.version_info >= (3, 11) else []
    return [sys.executable, *safe, "-m", module]


def child_env(env: dict[str, str], notebook_folder: str) -> dict[str, str]:
    """The kernel's environment for the runtime child: the notebook's folder for the cells'
    imports (after ours and the standard library's), and a compile even while debugged."""
    env.pop("MS_JIT", None)  # the child compiles, even while this kernel is being debugged
    env["MINDSCOPE_USER_PATH"] = notebook_folder
    return env


def _status(stdout: str) -> dict[str, Any]:
    for line in reversed(stdout.strip().splitlines()):
        try:
            parsed: dict[str, Any] = json.loads(line)
            return parsed
        except ValueError:
            continue
    return {"ok": False, "error": {"kind": "no-status", "message": "the runtime printed no status"}}
