"""Run `python -m mindscope_runtime graph|profile|stats|export` in a child process and read its
document."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from typing import Any, Optional


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
        argv = [sys.executable, "-m", "mindscope_runtime", command, target, "-o", output]
        env = dict(os.environ)
        env.pop("MS_JIT", None)  # the child compiles, even while this kernel is being debugged
        env["PYTHONPATH"] = os.pathsep.join(p for p in (os.getcwd(), env.get("PYTHONPATH")) if p)
        proc = subprocess.run(
            [*argv, *options, "--quiet"],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=env,
            cwd=os.getcwd(),
        )
        status = _status(proc.stdout)
        document = None
        written = str(status.get("output") or output)
        if os.path.isfile(written):
            with open(written, encoding="utf-8") as handle:
                document = json.load(handle)
    return RunResult(status, document, proc.stderr)


def _status(stdout: str) -> dict[str, Any]:
    for line in reversed(stdout.strip().splitlines()):
        try:
            parsed: dict[str, Any] = json.loads(line)
            return parsed
        except ValueError:
            continue
    return {"ok": False, "error": {"kind": "no-status", "message": "the runtime printed no status"}}
