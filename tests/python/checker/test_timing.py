"""The per-rule timing hook (`MINDSCOPE_CHECK_TIMES=1`): off, nothing is wrapped; on, every
check's time is added under its name and its findings are unchanged."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from mindscope_ls.checker import Workspace, check_source
from mindscope_ls.checker.incremental import timing
from mindscope_ls.checker.rules import joins

BAD = """import mindspore as ms

@ms.jit
def f(x):
    try:
        y = x
    except Exception:
        y = x
    return y
"""


def _check(n: int) -> Iterator[int]:
    yield from range(n)


def test_off_hands_back_the_check_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(timing, "ENABLED", False)
    assert timing.timed(_check) is _check


def test_on_times_each_check_under_its_module_and_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(timing, "ENABLED", True)
    monkeypatch.setattr(timing, "TOTALS", {})
    assert timing.name_of(joins.check) == "rules.joins.check"
    assert list(timing.timed(_check)(3)) == [0, 1, 2]
    with timing.phase("a phase"):
        pass
    assert len(timing.TOTALS) == 2 and "a phase" in timing.TOTALS


def test_findings_are_the_same_timed(monkeypatch: pytest.MonkeyPatch) -> None:
    plain = check_source(BAD, "t.py", workspace=Workspace())
    monkeypatch.setattr(timing, "ENABLED", True)
    monkeypatch.setattr(timing, "TOTALS", {})
    timed = check_source(BAD, "t.py", workspace=Workspace())
    assert [f.code for f in timed] == [f.code for f in plain] and plain
    assert "rules.statements.check" in timing.TOTALS
    assert "discovery" in timing.TOTALS
