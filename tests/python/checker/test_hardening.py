"""Issue 19: a deep class chain or a crashing rule never hides findings; the CLI never skips a
path silently, never hangs on a FIFO, never prints a traceback."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Optional

import pytest

from mindscope_ls.checker import Workspace, check_source, engine
from mindscope_ls.checker.output.cli import main, run_check
from mindscope_ls.checker.registry import MODULE_CHECKS
from mindscope_ls.checker.rules.helpers.classes import MAX_DEPTH

BAD = (
    "import mindspore.nn as nn\n"
    "class Net(nn.Cell):\n"
    "    def construct(self, x):\n"
    "        try:\n"
    "            return x\n"
    "        except Exception:\n"
    "            return x\n"
)


def attribute_chain(depth: int) -> str:
    """Cells each holding the next one in an attribute, the deepest defined last."""
    parts = ["import mindspore.nn as nn"]
    for i in range(depth - 1):
        parts.append(
            f"class C{i}(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
            f"        self.inner = C{i + 1}()\n    def construct(self, x):\n"
            "        return self.inner(x)"
        )
    parts.append(f"class C{depth - 1}(nn.Cell):\n    def construct(self, x):\n        return x")
    return "\n".join(parts) + "\n"


def base_chain(depth: int) -> str:
    parts = ["import mindspore.nn as nn"]
    parts += [f"class C{i}(C{i + 1}):\n    pass" for i in range(depth - 1)]
    parts.append(f"class C{depth - 1}(nn.Cell):\n    def construct(self, x):\n        return x")
    return "\n".join(parts) + "\n"


@pytest.mark.parametrize("chain", [attribute_chain, base_chain])
def test_deep_chain_hides_no_other_file(chain: object, tmp_path: Path) -> None:
    deep = chain(500)  # type: ignore[operator]
    ws = Workspace({"bad.py": BAD, "deep.py": deep})
    assert [f.code for f in check_source(BAD, "bad.py", workspace=ws)] == ["MS101"]
    found = check_source(deep, "deep.py", workspace=ws)
    assert [(f.code, f.line) for f in found] == [("MS001", 2)]
    assert "500" in found[0].message and str(MAX_DEPTH) in found[0].message


@pytest.mark.parametrize("chain", [attribute_chain, base_chain])
def test_the_bound_is_reported_exactly_where_the_checker_stops(chain: object) -> None:
    assert check_source(chain(MAX_DEPTH + 1), "c.py") == []  # type: ignore[operator]
    found = check_source(chain(MAX_DEPTH + 2), "c.py")  # type: ignore[operator]
    assert [f.code for f in found] == ["MS001"]


def test_a_crashing_rule_is_reported_and_hides_no_other_rule(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    source = BAD + 'import mindspore as ms\nms.set_context(device_target="CPU")\n'
    before = {f.code for f in check_source(source, "r.py")}
    assert "MS101" in before and len(before) >= 2

    def broken(module: object) -> Iterator[object]:
        raise RecursionError("maximum recursion depth exceeded")
        yield  # a generator, like the rules

    monkeypatch.setattr(engine, "MODULE_CHECKS", (broken, *MODULE_CHECKS))
    after = check_source(source, "r.py")
    crash = [f for f in after if f.code == "MS001"]
    assert len(crash) == 1 and "RecursionError" in crash[0].message
    assert {f.code for f in after} == before | {"MS001"}


def test_a_crash_of_the_whole_check_is_a_finding(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> object:
        raise ValueError("boom")

    monkeypatch.setattr("mindscope_ls.checker.run_checks", broken)
    (finding,) = check_source(BAD, "w.py")
    assert finding.code == "MS001" and "ValueError: boom" in finding.message


def test_cli_reports_a_crash_on_stderr_and_in_sarif(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "deep.py").write_text(attribute_chain(500))
    done = _cli("--format", "sarif", str(tmp_path))
    assert done.returncode == 3, done.stderr
    assert "mindscope: warning:" in done.stderr and "MS001" in done.stderr
    (run,) = json.loads(done.stdout)["runs"]
    assert [r["ruleId"] for r in run["results"]] == ["MS101"]
    (invocation,) = run["invocations"]
    assert invocation["executionSuccessful"] is False
    (note,) = invocation["toolExecutionNotifications"]
    assert note["descriptor"]["id"] == "MS001"


def _cli(*args: str, cwd: Optional[Path] = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mindscope_ls.checker.output.cli", "check", *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
        check=False,
    )


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads unreadable files")
def test_unreadable_file_and_folder_are_reported(tmp_path: Path) -> None:
    (tmp_path / "ok.py").write_text("x = 1\n")
    locked = tmp_path / "locked.py"
    locked.write_text(BAD)
    folder = tmp_path / "sub"
    folder.mkdir()
    (folder / "m.py").write_text(BAD)
    locked.chmod(0)
    folder.chmod(0)
    try:
        done = _cli(str(tmp_path))
    finally:
        folder.chmod(0o755)
        locked.chmod(0o644)
    assert done.returncode == 3
    assert f"skipped {locked}: permission denied" in done.stderr
    assert f"skipped {folder}: permission denied" in done.stderr


def test_unreadable_file_as_root_is_reported(tmp_path: Path) -> None:
    # Whoever runs the tests: a path that cannot be opened as a file (a dangling link).
    (tmp_path / "gone.py").symlink_to(tmp_path / "nowhere.py")
    done = _cli(str(tmp_path))
    assert done.returncode == 3 and "skipped" in done.stderr and "gone.py" in done.stderr
    assert "0 file(s) checked, 1 skipped" in done.stdout


def test_a_fifo_is_skipped_not_read(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "hang.py")
    (tmp_path / "bad.py").write_text(BAD)
    for target in (tmp_path, tmp_path / "hang.py"):
        done = _cli(str(target))  # the timeout fails the test if it blocks
        assert done.returncode == 3 and "hang.py: not a regular file" in done.stderr
    assert "MS101" in _cli(str(tmp_path)).stdout


def test_a_file_too_large_says_so(tmp_path: Path) -> None:
    big = tmp_path / "big.py"
    with big.open("w") as handle:
        handle.write(BAD)
        handle.truncate(21_000_000)  # sparse: larger than the checker reads
    done = _cli(str(big))
    assert done.returncode == 3
    assert "big.py: 21.0 MB, larger than the 20 MB the checker reads" in done.stderr


def _with_an_error(path: Path, megabytes: float) -> None:
    """A real error (`try` in `construct`) at the top of `megabytes` of comment lines."""
    line = "# " + "x" * 97 + "\n"
    with path.open("w") as handle:
        handle.write(BAD)
        handle.write(line * int(megabytes * 10_000))


def test_a_fifty_megabyte_file_is_skipped_with_the_limit_and_the_flag(tmp_path: Path) -> None:
    big = tmp_path / "big.py"
    _with_an_error(big, 50)
    done = _cli(str(big))
    assert done.returncode == 3, done.stderr  # never "0 findings, exit 0"
    warning = f"mindscope: warning: skipped {big}: 50.0 MB, larger than the 20 MB the checker"
    assert warning in done.stderr and "(--max-size MB checks it)" in done.stderr
    assert "0 file(s) checked, 1 skipped" in done.stdout


def test_max_size_sets_the_limit(tmp_path: Path) -> None:
    # 2.5 MB, not 50: checking 50 MB takes ~12 s of CPU.
    big = tmp_path / "big.py"
    _with_an_error(big, 2.5)
    skipped = _cli(str(big), "--max-size", "2")
    assert skipped.returncode == 3 and "larger than the 2 MB the checker reads" in skipped.stderr
    done = _cli(str(big), "--max-size", "3")
    assert done.returncode == 1, done.stderr
    assert f"{big}:4:9: error MS101" in done.stdout and "skipped" not in done.stderr
    assert "1 file(s) checked, 1 finding(s)" in done.stdout


@pytest.mark.parametrize("size", ["0", "-3", "big"])
def test_a_bad_max_size_is_a_usage_error(tmp_path: Path, size: str) -> None:
    (tmp_path / "m.py").write_text(BAD)
    done = _cli(str(tmp_path), "--max-size", size)
    assert done.returncode == 2 and f"not a size in MB: '{size}'" in done.stderr


def test_relative_and_absolute_paths_mix(tmp_path: Path) -> None:
    (tmp_path / "rel").mkdir()
    (tmp_path / "rel" / "model.py").write_text(BAD)
    (tmp_path / "abs.py").write_text(BAD)
    done = _cli("rel/model.py", str(tmp_path / "abs.py"), cwd=tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stdout.count("MS101") == 2


def test_a_closed_pipe_is_quiet(tmp_path: Path) -> None:
    for i in range(400):
        (tmp_path / f"m{i}.py").write_text(BAD)
    reader = subprocess.Popen(["head", "-1"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    done = subprocess.run(
        [sys.executable, "-m", "mindscope_ls.checker.output.cli", "check", str(tmp_path)],
        stdout=reader.stdin,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
        check=False,
    )
    assert reader.stdin is not None
    reader.stdin.close()
    reader.wait(timeout=10)
    assert done.stderr == "" and done.returncode == 141


def test_ctrl_c_exits_130_quietly(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "wait.py")
    # A FIFO given to Python itself to block on: the check is busy when the signal comes.
    code = (
        # As at a terminal: Python raises KeyboardInterrupt only for a SIGINT neither ignored
        # nor blocked, and both are inherited from whatever started the test run.
        "import signal; signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})\n"
        "import sys; from mindscope_ls.checker.output import cli\n"
        "from mindscope_ls.checker.index import sources\n"
        "sources.read_source = lambda p, *args, **kwargs: open(p).read()\n"
        "import mindscope_ls.checker.output.inputs as c; c.read_source = sources.read_source\n"
        "sys.exit(cli.main(['check', sys.argv[1]]))\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code, str(tmp_path / "wait.py")],
        stderr=subprocess.PIPE,
        text=True,
    )
    # Signal only once the check is blocked reading the FIFO (a writer can open it without
    # blocking only when a reader has), however long the imports take on a loaded machine.
    deadline = time.monotonic() + 60
    writer = None
    while writer is None and time.monotonic() < deadline and proc.poll() is None:
        try:
            writer = os.open(tmp_path / "wait.py", os.O_WRONLY | os.O_NONBLOCK)
        except OSError:
            time.sleep(0.05)
    assert writer is not None, "the check never opened the file"
    try:
        # A signal that lands between open() and read() is noted but interrupts no system
        # call: read() would then block for ever. Wait until the child is inside read().
        _wait_until_reading(proc.pid)
        state = _signal_state(proc.pid)  # said if the signal does not stop it
        proc.send_signal(signal.SIGINT)
        try:
            _, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise AssertionError(f"SIGINT did not stop the check; it was {state}") from None
    finally:
        os.close(writer)
    assert proc.returncode == 130 and err.strip() == "mindscope: interrupted", err


def _signal_state(pid: int) -> str:
    """The child's wait channel and signal masks, as /proc shows them."""
    try:
        status = Path(f"/proc/{pid}/status").read_text().splitlines()
        channel = Path(f"/proc/{pid}/wchan").read_text()
    except OSError:
        return "not readable in /proc"
    masks = ", ".join(line for line in status if line.startswith(("SigBlk", "SigIgn", "SigCgt")))
    return f"in {channel!r} with {masks}"


def _wait_until_reading(pid: int) -> None:
    """Until `pid` blocks reading a pipe (Linux: its wait channel), or 0.2 s without /proc."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            channel = Path(f"/proc/{pid}/wchan").read_text()
        except OSError:
            time.sleep(0.2)
            return
        if "pipe_read" in channel or channel == "pipe_wait":
            time.sleep(0.05)  # asleep in read(): a signal now interrupts it
            return
        time.sleep(0.02)


def test_in_process_run_check_counts_skips(tmp_path: Path) -> None:
    (tmp_path / "ok.py").write_text("x = 1\n")
    os.mkfifo(tmp_path / "pipe.py")
    out = io.StringIO()
    assert run_check([str(tmp_path)], "LAX", "text", out) == 3
    assert out.getvalue().endswith("1 file(s) checked, 1 skipped, 0 finding(s), 0 error(s)\n")
    assert main(["check", str(tmp_path / "ok.py")]) == 0
