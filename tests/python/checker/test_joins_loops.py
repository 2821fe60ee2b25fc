"""MS146: a `while` on a Tensor condition that feeds a carried value back through concat/stack
(MindSpore 2.10 unrolls it to its call-depth limit; `cases/rules/MS146_*`, `generated/loops/`)."""

from __future__ import annotations

import pytest

from mindscope_ls.checker import Severity, check_source

HEAD = "import mindspore as ms\nfrom mindspore import nn, ops, mint\n\n\n@ms.jit\ndef f(x):\n"


def codes(body: str) -> list[tuple[int, str]]:
    source = HEAD + "".join(f"    {line}\n" for line in body.splitlines())
    found = check_source(source, "m.py", level="LAX")
    return [(f.line, f.code) for f in found if f.severity is Severity.ERROR]


@pytest.mark.parametrize(
    ("body", "want"),
    [
        ("y = x\nwhile y.sum() < 100:\n    y = ops.concat((y, x))\nreturn y", [(8, "MS146")]),
        (
            "y = x\nwhile x.sum() < 9:\n    y = ops.stack([x, y])\n    x = x + 1\nreturn y",
            [(8, "MS146")],
        ),
        ("y = x\nwhile y.sum() < 100:\n    y = mint.cat((y, y))\nreturn y", [(8, "MS146")]),
        (
            "while x.sum() < 100:\n    x = ops.concat((x, x))\nreturn x",
            [(7, "MS146")],
        ),  # a parameter
        ("y = x\nwhile y.sum() < 100:\n    y = ops.concat((y, x))[:2]\nreturn y", []),  # cut back
        ("y = x\nwhile y.sum() < 100:\n    y = ops.concat((y, x))\n    y = y[:2]\nreturn y", []),
        ("y = x\nwhile y.sum() < 100:\n    z = ops.concat((y, x))\n    y = y * 2\nreturn y", []),
        ("y = x\nwhile y.sum() < 100:\n    y = ops.concat((y, x))\n    break\nreturn y", []),
        (
            "y = x\nwhile True:\n    y = ops.concat((y, x))\n"
            "    if y.shape[0] > 8:\n        break\nreturn y",
            [],
        ),
        ("y = x\nfor _ in range(3):\n    y = ops.concat((y, x))\nreturn y", []),  # unrolled 3 times
    ],
)
def test_a_carried_value_that_grows(body: str, want: list[tuple[int, str]]) -> None:
    assert codes(body) == want
