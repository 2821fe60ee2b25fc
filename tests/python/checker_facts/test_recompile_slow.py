"""Slow: re-compile a sample of the generated cases with the real MindSpore 2.10 at LAX and
STRICT (each in a fresh forked process, by the generator's own worker) and hold each case's
header to what MindSpore does now: compiles or fails, and the line it names."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from scripts.checker_facts.cases import GeneratedCase, load
from scripts.checker_facts.execute import WORKER
from scripts.checker_facts.writer import GENERATED, HELDOUT

pytestmark = pytest.mark.slow
LEVELS = ("LAX", "STRICT")


def sample() -> list[GeneratedCase]:
    """The first case of each family (by name), the held-out slice's first: a fixed, small,
    varied sample (about 20 compiles)."""
    picked: dict[str, GeneratedCase] = {}
    for case in load(GENERATED):
        picked.setdefault(case.family, case)
    held = load(HELDOUT)[:1]
    return list(picked.values()) + held


CASES = sample()


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    pytest.importorskip("mindspore")
    folder = tmp_path_factory.mktemp("recompile")
    jobs = []
    for case in CASES:
        path = folder / f"{case.family}__{case.name}.py"
        path.write_text(case.source)
        jobs += [{"key": f"{case.name}:{lv}", "path": str(path), "mode": lv} for lv in LEVELS]
    done = subprocess.run(
        [sys.executable, str(WORKER)],
        input="".join(json.dumps(job) + "\n" for job in jobs),
        capture_output=True,
        text=True,
        cwd=folder,
        timeout=900,
        check=True,
    )
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    return {row["key"]: row for row in rows}


def test_the_sample_covers_several_families() -> None:
    assert len({c.family for c in CASES}) >= 5


@pytest.mark.parametrize("case", CASES, ids=[f"{c.family}-{c.name}" for c in CASES])
@pytest.mark.parametrize("level", LEVELS)
def test_recorded_verdict_and_line(
    results: dict[str, dict[str, Any]], case: GeneratedCase, level: str
) -> None:
    row, expect = results[f"{case.name}:{level}"], case.expect[level]
    assert row["ok"] == expect.ok, f"{row.get('type')}: {str(row.get('msg'))[:300]}"
    if not expect.ok:
        text = case.source.splitlines()
        named = [n for n in row["lines"] if not text[n - 1].lstrip().startswith(("def ", "@"))]
        if named:  # an error MindSpore raises while running the graph names no line
            assert named[0] == expect.line, (named, expect.line)
