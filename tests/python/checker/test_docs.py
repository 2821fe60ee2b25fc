"""docs/rules is generated from the catalog and the verified cases: keep it in sync."""

from __future__ import annotations

from pathlib import Path

from mindscope_ls.checker import RULES
from mindscope_ls.checker.output.docgen import render, render_index

from .harness import CASES

DOCS = Path(__file__).resolve().parents[3] / "docs" / "rules"


def test_rule_pages_are_up_to_date() -> None:
    for code, rule in RULES.items():
        page = DOCS / f"{code}.md"
        assert page.read_text() == render(rule, CASES), (
            f"{page} is stale: python -m mindscope_ls.checker.output.docgen "
            "tests/graphmode/cases/rules docs/rules"
        )
    assert (DOCS / "README.md").read_text() == render_index()
