"""MS185 for loops unrolled along one call chain: the passes of nested constant loops multiply
and the loops that follow add up (MindSpore 2.10, `round32/cf_nested_for_*`, `cf_two_for_*`)."""

from __future__ import annotations

import pytest

from mindscope_ls.checker import check_source

HEAD = "import mindspore as ms\nfrom mindspore import nn\n\n\n@ms.jit\ndef f(x):\n"


def codes(body: str) -> list[tuple[int, str]]:
    source = HEAD + "".join(f"    {line}\n" for line in body.splitlines())
    return [(f.line, f.code) for f in check_source(source, "m.py", level="LAX")]


@pytest.mark.parametrize(
    ("body", "want"),
    [
        ("for i in range(22):\n    for j in range(22):\n        x = x + 1", [(7, "MS185")]),
        ("for i in range(2):\n    for j in range(240):\n        x = x + 1", []),  # 482
        (
            "for i in range(260):\n    x = x + 1\nfor j in range(260):\n    x = x - 1",
            [(7, "MS185")],
        ),
        ("for i in range(240):\n    x = x + 1\nfor j in range(240):\n    x = x - 1", []),
        (
            "if x.shape[0] > 2:\n    for i in range(300):\n        x = x + 1\n"
            "else:\n    for i in range(300):\n        x = x - 1",
            [],
        ),  # one branch per path
        (
            "for i in range(30):\n    for j in range(30):\n        if x.sum() > 0:\n"
            "            break\n        x = x + 1",
            [],
        ),  # an early exit: not counted
        (
            "for i in range(25):\n    for w in ("
            + ", ".join(str(n) for n in range(21))
            + "):\n        x = x * w",
            [(7, "MS185")],
        ),  # 21 numbers in range(25): 550
    ],
)
def test_loops_on_one_chain(body: str, want: list[tuple[int, str]]) -> None:
    assert [c for c in codes(body + "\nreturn x") if c[1] == "MS185"] == want
