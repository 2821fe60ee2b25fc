"""Each rule has verified examples (tests/graphmode/cases/rules/, checked with the whole corpus by
tests/graphmode/test_checker.py) linking existing docs, with one-sentence messages."""

from __future__ import annotations

from pathlib import Path

from mindscope_ls.checker import RULES, check_source

from .harness import case_files

ROOT = Path(__file__).resolve().parents[3]
ALL = case_files()


def test_every_rule_has_a_failing_and_a_fixed_example() -> None:
    stems = {p.stem for p in ALL}
    for code in RULES:
        if code in ("MS000", "MS001"):  # about the file or the checker, not MindSpore
            continue
        assert f"{code}_bad" in stems, code
        assert f"{code}_ok" in stems, code


def test_findings_link_existing_docs() -> None:
    for case in case_files("*_bad"):
        for finding in check_source(case.read_text(), str(case)):
            assert finding.doc == f"docs/rules/{finding.code}.md"
            assert (ROOT / finding.doc).is_file()


def test_messages_are_one_sentence() -> None:
    for case in case_files("*_bad"):
        for finding in check_source(case.read_text(), str(case)):
            assert finding.message.endswith(".")
            assert ". " not in finding.message.rstrip(".").replace("e.g. ", ""), finding.message
