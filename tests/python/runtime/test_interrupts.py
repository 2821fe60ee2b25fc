"""The interrupt watchdog without MindSpore: a main thread that swallows KeyboardInterrupt (as
if stuck in C++) is ended by a second signal or after the grace period, cleaning up."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

SCRIPT = textwrap.dedent(
    """
    import os, sys, time
    from mindscope_runtime import interrupts

    folder = sys.argv[1]
    interrupts.install(lambda: print("STATUS interrupted", flush=True), float(sys.argv[2]))
    temp = os.path.join(folder, ".out.json.123.tmp")
    open(temp, "w").close()
    with interrupts.tracked(temp), interrupts.temp_dir("mindscope-test-") as tmp:
        ready = False
        while True:  # swallow Ctrl-C, like a main thread held by MindSpore's C++
            try:
                if not ready:
                    ready = True
                    print("READY", tmp, flush=True)
                time.sleep(60)
            except KeyboardInterrupt:
                print("KeyboardInterrupt", flush=True)
    """
)


def start(tmp_path: Path, grace: float) -> tuple[subprocess.Popen[str], Path]:
    script = tmp_path / "stuck.py"
    script.write_text(SCRIPT)
    proc = subprocess.Popen(
        [sys.executable, str(script), str(tmp_path), str(grace)],
        stdout=subprocess.PIPE, text=True, env={**os.environ, "TMPDIR": str(tmp_path)},
    )  # fmt: skip
    assert proc.stdout is not None
    ready = proc.stdout.readline().split()
    assert ready[0] == "READY", ready
    return proc, Path(ready[1])


@pytest.mark.parametrize(("grace", "signals"), [(0.5, [signal.SIGINT]), (30.0, [signal.SIGTERM,
                                                signal.SIGINT])])  # fmt: skip
def test_watchdog_forces_the_exit(tmp_path: Path, grace: float, signals: list[int]) -> None:
    proc, temp_dir = start(tmp_path, grace)
    assert temp_dir.is_dir()
    began = time.monotonic()
    for signum in signals:
        proc.send_signal(signum)
        time.sleep(0.3)
    out, _ = proc.communicate(timeout=20)
    assert proc.returncode == 130
    assert time.monotonic() - began < 10
    assert "KeyboardInterrupt" in out and out.rstrip().endswith("STATUS interrupted")
    assert not temp_dir.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["stuck.py"]
