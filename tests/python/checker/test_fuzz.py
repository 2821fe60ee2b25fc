"""Hypothesis: syntax errors, partial code and huge files never crash the analyzer.

`check_source` swallows exceptions to protect its host, so these tests call the engine itself
(`run_checks`): any exception a rule raises on odd input fails the test.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mindscope_ls.checker import Workspace
from mindscope_ls.checker.engine import run_checks
from mindscope_ls.checker.model import Finding

from .harness import case_files

CORPUS = Path(__file__).resolve().parents[2] / "graphmode" / "cases"
SOURCES = [p.read_text() for p in [*case_files(), *sorted(CORPUS.glob("*.pycase"))[::5]]]
FRAGMENTS = [
    "if x.sum() > 0:\n",
    "    return x\n",
    "else:\n",
    "try:\n",
    "while x.mean() < 1:\n",
    "class A(nn.Cell):\n",
    "    def construct(self, x):\n",
    "@ms.jit\ndef f(x):\n",
    "nonlocal y\n",
    "y = {1, 2}\n",
    "lambda v, k=k: v\n",
    "(",
    ")",
    ":",
    "\t",
    "é",
    "\x00",
    "\\",
    '"""',
]
SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))


def _check(source: str, level: str = "LAX", report: bool = True) -> list[Finding]:
    findings = run_checks(
        source,
        "fuzz.py",
        level=level,
        workspace=None,
        report_parse_errors=report,
        disabled=(),
        severities=None,
    )
    assert isinstance(findings, list)
    return findings


@SETTINGS
@given(st.text(max_size=400))
def test_arbitrary_text(text: str) -> None:
    _check(text)


@SETTINGS
@given(st.sampled_from(SOURCES), st.integers(min_value=0), st.sampled_from(["LAX", "STRICT"]))
def test_truncated_cases(source: str, cut: int, level: str) -> None:
    _check(source[: cut % (len(source) + 1)], level)


@SETTINGS
@given(
    st.sampled_from(SOURCES),
    st.lists(st.tuples(st.integers(min_value=0), st.sampled_from(FRAGMENTS)), max_size=6),
)
def test_cases_with_spliced_fragments(source: str, edits: list[tuple[int, str]]) -> None:
    for at, fragment in edits:
        at %= len(source) + 1
        source = source[:at] + fragment + source[at:]
    _check(source)


@SETTINGS
@given(st.sampled_from(SOURCES), st.integers(min_value=0), st.integers(min_value=0))
def test_cases_with_lines_deleted(source: str, start: int, count: int) -> None:
    lines = source.splitlines(keepends=True)
    start %= len(lines) + 1
    _check("".join(lines[:start] + lines[start + count % 8 :]), "STRICT")


@settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(SOURCES), st.integers(min_value=50, max_value=120))
def test_huge_files(source: str, copies: int) -> None:
    body = source.replace("def run():", "def run_():")
    big = "\n".join(body.replace("class ", f"class K{i}_") for i in range(copies))
    _check(big)
    deep = "x = " + "[" * 400 + "]" * 400 + "\n" + body
    _check(deep)


@SETTINGS
@given(st.lists(st.sampled_from(SOURCES), min_size=1, max_size=4), st.data())
def test_workspace_of_broken_files(sources: list[str], data: st.DataObject) -> None:
    texts = {f"pkg/m{i}.py": s[: data.draw(st.integers(0, len(s)))] for i, s in enumerate(sources)}
    workspace = Workspace(texts, root="pkg")
    for path, text in texts.items():
        findings = run_checks(
            text,
            path,
            level="LAX",
            workspace=workspace,
            report_parse_errors=True,
            disabled=(),
            severities=None,
        )
        assert all(f.line >= 1 and f.col >= 0 for f in findings)
