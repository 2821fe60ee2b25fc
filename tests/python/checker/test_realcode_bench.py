"""bench/checker_realcode.py's pure parts: which files of a wheel are checked, how lines count."""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from bench import checker_realcode  # noqa: E402


def test_a_wheel_is_unpacked_to_its_import_roots_not_its_metadata(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(checker_realcode, "CACHE", tmp_path / "cache")
    whl = tmp_path / "zoo-1.0-py3-none-any.whl"
    with zipfile.ZipFile(whl, "w") as archive:
        archive.writestr("zoo/__init__.py", "")
        archive.writestr("zoo/models/net.py", "a = 1\nb = 2\n")
        archive.writestr("zoo/README.md", "not code\n")
        archive.writestr("helper.py", "x = 1\n")
        archive.writestr("zoo-1.0.dist-info/METADATA", "Name: zoo\n")
    roots = checker_realcode.unpack(whl)
    assert [r.name for r in roots] == ["helper.py", "zoo"]
    files = checker_realcode.python_files(roots)
    assert sorted(f.name for f in files) == ["__init__.py", "helper.py", "net.py"]
    assert checker_realcode.count_lines(files) == 3
    assert checker_realcode.unpack(whl) == roots  # unpacked once, then reused


def test_findings_are_counted_by_code_and_severity() -> None:
    run = checker_realcode.Run("zoo", "LAX", 1, 10, 0.1)
    run.findings = [
        {"code": "MS102", "severity": "error"},
        {"code": "MS102", "severity": "error"},
        {"code": "MS401", "severity": "warning"},
    ]
    assert run.by_code() == {"MS102:e": 2, "MS401:w": 1}
    assert run.by_severity() == {"error": 2, "warning": 1}


def test_a_declared_package_is_counted_with_its_declaration(tmp_path: Path) -> None:
    text = checker_realcode.pyproject(("zoo/models/**", "zoo/legacy.py"))
    assert text == '[tool.mindscope]\npynative = ["zoo/models/**", "zoo/legacy.py"]\n'
    package = next(iter(checker_realcode.DECLARED))
    runs = [
        checker_realcode.Run(package, "LAX", 1, 10, 0.1),
        checker_realcode.Run(package, "LAX+pn", 1, 10, 0.1),
        checker_realcode.Run("zoo", "LAX", 1, 10, 0.1),
    ]
    assert checker_realcode.runs_of(runs, "LAX") == [runs[0], runs[2]]
    assert checker_realcode.runs_of(runs, "LAX+pn") == [runs[1], runs[2]]
