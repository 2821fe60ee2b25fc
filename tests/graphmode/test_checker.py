"""The checker against every corpus case, at every level the case declares: its verdict, and
the line, column and code of each error (and of each finding below error where declared).

Fast (no MindSpore): test_corpus.py holds the declarations themselves to real compiles.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mindscope_ls.checker import SyntaxLevel
from mindscope_ls.checker.output.cases import CaseError, parse_case

from .corpus import Case, all_cases, checker_verdict, mismatches

CASES = all_cases()
PAIRS = [(case, level) for case in CASES for level in case.expect]
IDS = [f"{case.name}-{level.value}" for case, level in PAIRS]


@pytest.mark.parametrize(("case", "level"), PAIRS, ids=IDS)
def test_checker_reports_what_the_case_declares(case: Case, level: SyntaxLevel) -> None:
    problems = mismatches(case, level, checker_verdict(case, level))
    if case.gap and problems:
        pytest.xfail(f"known gap: {case.gap}")
    assert not problems, problems


def test_every_case_declares_lax_and_strict() -> None:
    assert len(CASES) >= 300
    for case in CASES:
        assert {SyntaxLevel.LAX, SyntaxLevel.STRICT} <= set(case.expect), case.name


def test_sub_folders_are_read() -> None:
    assert any(case.path.parent.name == "rules" for case in CASES)


def test_header_errors_are_clear(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pycase"
    bad.write_text("# lax: fail 3:x MS101\n# strict: ok\nx = 1\n")
    with pytest.raises(CaseError, match=r"bad.pycase:1: `3:x MS101` is not LINE\[:COL\] \[CODE\]"):
        parse_case(bad)
    bad.write_text("# lax: ok\nx = 1\n")
    with pytest.raises(CaseError, match=re.escape("no `# strict: ok|fail LINE` line")):
        parse_case(bad)


def test_a_wrong_column_or_code_is_a_mismatch(tmp_path: Path) -> None:
    (case,) = [c for c in CASES if c.name == "MS101_bad"]
    for header in ("# lax: fail 11:10 MS101", "# lax: fail 11:9 MS102", "# lax: fail 12"):
        source = case.source.replace("# lax: fail 11:9 MS101", header, 1)
        changed = parse_case(case.path, source)
        verdict = checker_verdict(changed, SyntaxLevel.LAX)
        assert mismatches(changed, SyntaxLevel.LAX, verdict), header
