"""Slow: compile every corpus case with the real MindSpore 2.10 (GRAPH_MODE, CPU) at LAX and at
STRICT, each in a fresh process, and hold the checker to what MindSpore does.

Two runners (one per level) run at once, each forking a clean process per case from a parent that
imported MindSpore once: about 0.3-0.7 s per compile; `-k` compiles only the selected cases.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mindscope_ls.checker import SyntaxLevel

from .corpus import Case, all_cases, checker_verdict, compile_all, named_lines

pytestmark = pytest.mark.slow

CASES = all_cases()
PAIRS = [(case, level) for case in CASES for level in case.expect]
IDS = [f"{case.name}-{level.value}" for case, level in PAIRS]
LEVELS = tuple(sorted({level for case in CASES for level in case.expect}))
Runs = dict[str, dict[str, dict[str, Any]]]


@pytest.fixture(scope="module")
def runs(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Runs:
    """Compiles the cases this session selected (`-k` picks a few in seconds; CI selects all)."""
    pytest.importorskip("mindspore")
    selected = {
        item.callspec.params["case"].name
        for item in request.session.items
        if isinstance(item, pytest.Function)
        and item.module is request.module
        and hasattr(item, "callspec")
        and "case" in item.callspec.params
    }
    cases = [case for case in CASES if case.name in selected]
    return compile_all(cases, tmp_path_factory.mktemp("graphmode"), LEVELS)


def test_corpus_is_large_and_balanced() -> None:
    lax_fail = [c for c in CASES if not c.expect[SyntaxLevel.LAX].ok]
    lax_ok = [c for c in CASES if c.expect[SyntaxLevel.LAX].ok]
    strict_only = [c for c in lax_ok if not c.expect[SyntaxLevel.STRICT].ok]
    assert len(CASES) >= 150
    assert len(lax_fail) >= 60 and len(lax_ok) >= 60 and len(strict_only) >= 10
    styles = {c.name.split("__")[1] for c in CASES if "__" in c.name}
    assert len(styles) >= 8


@pytest.mark.parametrize(("case", "level"), PAIRS, ids=IDS)
def test_header_is_what_mindspore_does(runs: Runs, case: Case, level: SyntaxLevel) -> None:
    result, expect = runs[level][case.name], case.expect[level]
    message = f"{result.get('type')}: {str(result.get('msg'))[:400]}"
    assert result["ok"] == expect.ok, message
    named = named_lines(result, case.source)
    if not expect.ok and named and expect.line not in named:
        # MindSpore named only the call site of the offending callee: the checker must name it.
        verdict = checker_verdict(case, level)
        assert named & verdict.lines, (named, expect.line, message)


@pytest.mark.parametrize(("case", "level"), PAIRS, ids=IDS)
def test_checker_predicts_mindspore(runs: Runs, case: Case, level: SyntaxLevel) -> None:
    expect, result = case.expect[level], runs[level][case.name]
    verdict = checker_verdict(case, level, str(Path(result["file"])))
    if case.gap and (verdict.ok != expect.ok or verdict.line != expect.line):
        pytest.xfail(f"known gap: {case.gap}")
    assert verdict.ok == expect.ok, verdict
    if not expect.ok:
        assert verdict.line == expect.line, verdict
        named = named_lines(result, case.source)
        assert not named or named & verdict.lines, (named, verdict)
