"""The checker never raises: truncated, garbled, huge or deeply nested input."""

from __future__ import annotations

import random

import pytest

from mindscope_ls.checker import Workspace, check_source
from mindscope_ls.checker.index.sources import decode

from .harness import case_files

REAL = (
    case_files("clean_mixed")[0].read_text()
    + "\n"
    + "\n".join(p.read_text() for p in case_files("MS11*_bad"))
)


def test_every_truncation_of_a_real_file() -> None:
    ws = Workspace()
    for end in range(0, len(REAL), 37):
        check_source(REAL[:end], "t.py")
        check_source(REAL[:end], "t.py", workspace=ws, report_parse_errors=True)


def test_every_line_dropped() -> None:
    lines = REAL.splitlines()
    for index in range(0, len(lines), 3):
        check_source("\n".join(lines[:index] + lines[index + 1 :]), "t.py")


def test_random_garbage_and_mutations() -> None:
    rng = random.Random(4)
    alphabet = "()[]{}:=.,+-*/ \n\t#'\"\\abcxyz019_@\x00é\ud800"
    for _ in range(300):
        noise = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 200)))
        check_source(noise, "g.py", report_parse_errors=True)
        at = rng.randrange(len(REAL))
        check_source(REAL[:at] + noise + REAL[at:], "g.py")


def test_parse_error_is_reported_only_on_request() -> None:
    assert check_source("def f(:\n", "b.py") == []
    (finding,) = check_source("def f(:\n", "b.py", report_parse_errors=True)
    assert finding.code == "MS000" and finding.line == 1
    assert check_source("x = 1\x00\n", "n.py", report_parse_errors=True)[0].code == "MS000"


def test_deep_nesting() -> None:
    deep = "x = " + "(" * 5000 + "1" + ")" * 5000 + "\n"
    assert [f.code for f in check_source(deep, "d.py", report_parse_errors=True)] == ["MS000"]
    nested = "from mindspore import nn\nclass N(nn.Cell):\n    def construct(self, x):\n"
    nested += "        y = " + " + ".join(["x"] * 3000) + "\n        return y\n"
    assert check_source(nested, "d.py") == []


def test_huge_file_is_checked_whole() -> None:
    """Timings belong in bench/bench_checker.py; here: a ~6,000-line file of 100 copies of a
    case gets 100 times that case's findings, on the last copy as on the first."""
    block = case_files("clean_mixed")[0].read_text().replace("class ", "class C{n}_")
    block += "\n\nclass Extra{n}(nn.Cell):\n    def construct(self, x):\n        return {{1, 2}}\n"
    one = check_source(block.replace("{n}", "0"), "one.py")
    assert one
    big = "\n".join(block.replace("{n}", str(i)) for i in range(100))
    found = check_source(big, "big.py")
    assert len(found) == 100 * len(one)
    assert sorted({f.code for f in found}) == sorted({f.code for f in one})


def test_decode_non_utf8() -> None:
    assert decode(b"x = '\xff\xfe'\n").startswith("x = '")
    assert decode(b"# -*- coding: latin-1 -*-\nx = '\xe9'\n").endswith("x = 'é'\n")
    assert decode(b"# -*- coding: nonsense -*-\nx = 1\n").endswith("x = 1\n")
    assert check_source(decode(b"\xff\xfe\x00garbage"), "b.py") == []


def test_a_long_sum_is_judged_in_linear_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each operator of `x + x + ... + x` was judged by reading the whole chain below it again
    (cubic: a 3,000-term sum hung the checker once MindSpore's import raised the recursion
    limit). Counted in calls, not timed."""
    from mindscope_ls.checker.rules.helpers.types import TensorTypes

    calls = 0
    original = TensorTypes.is_tensor

    def counting(self: TensorTypes, expr: object) -> bool:
        nonlocal calls
        calls += 1
        return original(self, expr)  # type: ignore[arg-type]

    monkeypatch.setattr(TensorTypes, "is_tensor", counting)
    terms = 200
    source = "from mindspore import nn\nclass N(nn.Cell):\n    def construct(self, x):\n"
    source += "        y = " + " + ".join(["x"] * terms) + "\n        return y\n"
    assert check_source(source, "d.py") == []
    assert calls < 40 * terms, calls


def test_deep_nesting_under_mindspores_recursion_limit() -> None:
    """Importing MindSpore raises the recursion limit to 10,000: a 3,000-term sum then gets
    past parsing and indexing into the rules, which must judge it or leave it unknown."""
    import sys

    nested = "from mindspore import nn\nclass N(nn.Cell):\n    def construct(self, x):\n"
    nested += "        y = " + " + ".join(["x"] * 3000) + "\n        return y\n"
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(10_000)
    try:
        assert check_source(nested, "d.py") == []
    finally:
        sys.setrecursionlimit(limit)
