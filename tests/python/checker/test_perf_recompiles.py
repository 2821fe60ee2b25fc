"""Slow: the MS5xx examples really recompile, and their fixed versions compile once.

Each case runs in a fresh MindSpore process (GRAPH_MODE, CPU) with MS_DEV_SAVE_GRAPHS=1, which
dumps one `*_validate_*.ir` per graph compiled: counting those files counts compiles, without
timing anything. Every example calls compiled code three times.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from mindscope_ls.checker import RULES, Group, check_source

from .harness import PYTHON, RUNNER, apply_all_fixes, case_files, materialize

pytestmark = pytest.mark.slow
CALLS = 3
PERFORMANCE = sorted(code for code, rule in RULES.items() if rule.group is Group.PERFORMANCE)


def _compiled_graphs(name: str, source: str, tmp_path: Path) -> int:
    """Runs the case's `run()` in a fresh process; the number of graphs MindSpore compiled."""
    folder = tmp_path / name
    folder.mkdir()
    (path,) = materialize({name: source}, folder)
    dumps = folder / "graphs"
    env = dict(
        os.environ,
        MS_DEV_SAVE_GRAPHS="1",
        MS_DEV_SAVE_GRAPHS_PATH=str(dumps),
        GLOG_v="3",
        PYTHONWARNINGS="ignore",
    )
    proc = subprocess.run(
        [str(PYTHON), str(RUNNER), str(path)],
        capture_output=True,
        text=True,
        env=env,
        cwd=folder,  # MindSpore writes rank_0/ into the working directory
        timeout=600,
    )
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["ok"], (name, result)
    return sum(1 for _ in dumps.rglob("*_validate_*.ir"))


def test_every_performance_rule_has_examples() -> None:
    assert PERFORMANCE, "no MS5xx rules in the catalogue"
    stems = {p.stem for p in case_files("MS5*")}
    for code in PERFORMANCE:
        assert {f"{code}_bad", f"{code}_ok"} <= stems, code


@pytest.mark.parametrize("code", PERFORMANCE)
def test_failing_example_compiles_on_every_call(code: str, tmp_path: Path) -> None:
    (bad,) = case_files(f"{code}_bad")
    assert _compiled_graphs(bad.stem, bad.read_text(), tmp_path) == CALLS


@pytest.mark.parametrize("code", PERFORMANCE)
def test_fixed_example_compiles_once(code: str, tmp_path: Path) -> None:
    (ok,) = case_files(f"{code}_ok")
    assert _compiled_graphs(ok.stem, ok.read_text(), tmp_path) == 1


@pytest.mark.parametrize("code", ["MS501", "MS503"])
def test_quick_fix_makes_it_compile_once(code: str, tmp_path: Path) -> None:
    (bad,) = case_files(f"{code}_bad")
    source = bad.read_text()
    fixed = apply_all_fixes(source, check_source(source, bad.name))
    assert "ms.mutable(" in fixed and fixed != source
    assert _compiled_graphs(f"{code}_quickfix", fixed, tmp_path) == 1
