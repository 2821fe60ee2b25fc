"""Bad input through the real CLI: a clear JSON status, the right exit code, no partial output
(no document, no `.name.*.tmp`, no temp folder, no `rank_0/`). Slow: real MindSpore."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow

MODEL = textwrap.dedent(
    """
    from mindspore import nn


    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 8, 3, pad_mode="same")
            self.relu = nn.ReLU()
            self.flatten = nn.Flatten()
            self.fc = nn.Dense(8 * 8 * 8, 10)

        def construct(self, x):
            y = self.relu(self.conv(x))
            return self.fc(self.flatten(y))


    class Boom(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(4, 4)
            raise ValueError("broken __init__")
    """
)


def line_of(text: str) -> int:
    return MODEL.splitlines().index(text) + 1


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    (tmp_path / "model.py").write_text(MODEL)
    (tmp_path / "tmp").mkdir()
    return tmp_path


def start_cli(folder: Path, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "GLOG_v": "3", "TMPDIR": str(folder / "tmp")}
    return subprocess.Popen(
        [sys.executable, "-m", "mindscope_runtime", *args, "-o", str(folder / "out.json")],
        cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def finish(proc: subprocess.Popen[str]) -> tuple[int, dict[str, Any], str]:
    stdout, stderr = proc.communicate(timeout=240)
    lines = stdout.splitlines()
    assert len(lines) == 1, f"stdout must be one status line, got {stdout!r}\n{stderr[-3000:]}"
    return proc.returncode, json.loads(lines[0]), stderr


def assert_no_output(folder: Path) -> None:
    """Only the model is left: no document, no temp file beside it, no temp folder."""
    left = sorted(p.name for p in folder.iterdir() if p.name not in ("model.py", "tmp"))
    assert left == [], left
    assert list((folder / "tmp").iterdir()) == []


@pytest.mark.parametrize(
    ("args", "kind"),
    [
        (["graph", "missing.py:Net", "--input", "2,3,8,8"], "file-not-found"),
        (["profile", "model.py:Nope", "--input", "2,3,8,8"], "name-not-found"),
    ],
)
def test_missing_file_and_unknown_name(folder: Path, args: list[str], kind: str) -> None:
    code, status, _ = finish(start_cli(folder, *args, "--quiet"))
    assert code == 1 and status["ok"] is False and status["error"]["kind"] == kind
    assert ("missing.py" if kind == "file-not-found" else "'Nope'") in status["error"]["message"]
    assert_no_output(folder)


def test_exception_in_init_names_the_users_line(folder: Path) -> None:
    code, status, _ = finish(start_cli(folder, "stats", "model.py:Boom", "--input", "2,4"))
    assert code == 1 and status["error"]["kind"] == "init-failed"
    assert "ValueError: broken __init__" in status["error"]["message"]
    assert status["error"]["file"] == str(folder / "model.py")
    assert status["error"]["line"] == line_of('        raise ValueError("broken __init__")')
    assert_no_output(folder)


@pytest.mark.parametrize("command", ["graph", "profile"])  # stats: test_runfail.py
def test_wrong_input_shape_names_expected_and_given(folder: Path, command: str) -> None:
    code, status, _ = finish(start_cli(folder, command, "model.py:Net", "--input", "2,3,16"))
    assert code == 1 and status["ok"] is False, status
    error = status["error"]
    assert error["kind"] == "input-mismatch", error
    assert error["inputs"] == [{"shape": [2, 3, 16], "dtype": "Float32"}]
    # Given (2, 3, 16); MindSpore's own words for what it expected: rank 4, got 3.
    assert "(2, 3, 16)" in error["message"]
    assert "must be equal to 4, but got 3" in error["message"]
    assert "\n" not in error["message"] and "C++ Call Stack" not in error["message"]
    assert error["file"] == str(folder / "model.py")
    assert error["line"] == line_of("        y = self.relu(self.conv(x))")
    assert_no_output(folder)


def test_ctrl_c_mid_profile(folder: Path) -> None:
    """SIGINT while profiled steps run. MindSpore's graph runs replace the native SIGINT
    handler with one that sends SIGTERM (seen on 2.10): the CLI must still report it."""
    proc = start_cli(folder, "profile", "model.py:Net", "--input", "2,3,8,8",
                     "--steps", "1000000")  # fmt: skip
    assert proc.stderr is not None
    seen = []
    for line in proc.stderr:  # progress lines, unbuffered
        seen.append(line)
        if "profiling 1000000 step(s)" in line:
            break
    else:
        pytest.fail("the CLI ended before profiling: " + "".join(seen)[-3000:])
    time.sleep(1.5)  # well inside the steps: MindSpore's handler is the native one by now
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    code, status, stderr = finish(proc)
    assert time.monotonic() - sent < 30
    assert code == 130, (code, status, stderr[-3000:])
    assert status["ok"] is False and status["command"] == "profile"
    assert status["error"]["kind"] == "interrupted"
    assert_no_output(folder)


@pytest.mark.parametrize(
    ("statement", "says"),
    [("sys.exit(0)", "SystemExit: 0"), ('raise SystemExit("x")', "SystemExit: x")],
)
def test_sys_exit_at_import_still_gives_the_status(
    tmp_path: Path, statement: str, says: str
) -> None:
    (tmp_path / "tmp").mkdir()
    (tmp_path / "model.py").write_text(f"import sys\n{statement}\n")
    code, status, stderr = finish(start_cli(tmp_path, "graph", "model.py:Net", "--input", "2,3"))
    assert code == 1 and status["ok"] is False, (status, stderr[-2000:])
    assert status["error"]["kind"] == "import-failed"
    assert says in status["error"]["message"]
    assert (status["error"]["file"], status["error"]["line"]) == (str(tmp_path / "model.py"), 2)
    assert_no_output(tmp_path)


SPIN = textwrap.dedent(
    """
    from mindspore import nn


    class Spin(nn.Cell):
        def construct(self, x):
            while (x * 0).sum() < 1:  # a run-time loop on a Tensor: never ends, all in C++
                x = x + 1
            return x
    """
)


def test_ctrl_c_while_stuck_in_cpp_leaves_no_temp_folder(tmp_path: Path) -> None:
    """The main thread never returns to Python: the watchdog ends the process after its grace,
    and the IR session folder goes with the other temp folders."""
    (tmp_path / "tmp").mkdir()
    (tmp_path / "model.py").write_text(SPIN)
    proc = start_cli(tmp_path, "profile", "model.py:Spin", "--input", "2,3")
    assert proc.stderr is not None
    for line in proc.stderr:
        if "warm-up" in line:
            break
    else:
        pytest.fail("the CLI ended before the warm-up")
    time.sleep(3)  # compiled by now (tiny), and looping in C++
    assert any("ir-session" in p.name for p in (tmp_path / "tmp").iterdir())
    proc.send_signal(signal.SIGINT)
    code, status, stderr = finish(proc)
    assert code == 130 and status["error"]["kind"] == "interrupted", (status, stderr[-3000:])
    assert_no_output(tmp_path)
