"""`mindscope check`: exit codes, text and JSON output."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from mindscope_ls.checker.output.cli import main, run_check

from .harness import CASES


def write(tmp: Path, name: str, case: str) -> Path:
    path = tmp / name
    path.write_text((CASES / f"{case}.pycase").read_text())
    return path


def test_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = write(tmp_path, "bad.py", "MS101_bad")
    ok = write(tmp_path, "ok.py", "MS101_ok")
    strict_only = write(tmp_path, "strict.py", "MS201_bad")
    assert main(["check", str(ok)]) == 0
    assert main(["check", str(bad)]) == 1
    assert main(["check", str(tmp_path)]) == 1
    assert main(["check", str(strict_only)]) == 0
    assert main(["check", "--level", "STRICT", str(strict_only)]) == 1
    assert main(["check", "--syntax-level", "strict", str(strict_only)]) == 1
    assert main(["check", "--level", "NOPE", str(ok)]) == 2
    assert main(["check", str(tmp_path / "missing.py")]) == 2
    assert main([]) == 2
    assert "MS101" in capsys.readouterr().out


def test_json_format(tmp_path: Path) -> None:
    bad = write(tmp_path, "bad.py", "MS111_bad")
    out = io.StringIO()
    assert run_check([str(bad)], "LAX", "json", out) == 1
    (item,) = json.loads(out.getvalue())
    assert set(item) == {
        "path",
        "line",
        "column",
        "end_line",
        "end_column",
        "code",
        "severity",
        "message",
    }
    assert (item["code"], item["line"], item["column"], item["severity"]) == (
        "MS111",
        11,  # the case's 3 header lines come first
        13,
        "error",
    )


def test_parse_errors_and_non_utf8(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text("def f(:\n")
    (tmp_path / "latin.py").write_bytes(b"x = '\xff'\n")
    out = io.StringIO()
    assert run_check([str(tmp_path)], "LAX", "text", out) == 1
    assert "MS000" in out.getvalue() and "2 file(s) checked" in out.getvalue()


def test_runs_as_module(tmp_path: Path) -> None:
    bad = write(tmp_path, "bad.py", "MS102_bad")
    done = subprocess.run(
        [sys.executable, "-m", "mindscope_ls.checker.output.cli", "check", str(bad)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1 and "MS102" in done.stdout
