"""The syntax level comes from the file first, then the `level` argument, then LAX."""

from __future__ import annotations

import pytest

from mindscope_ls.checker import Severity, check_source

CELL = "class Net(nn.Cell):\n    def construct(self, x):\n        return x.asnumpy()\n"
HEAD = "import os\nimport mindspore as ms\nfrom mindspore import nn\n"


def severity(source: str, level: str | None = None) -> Severity:
    (finding,) = check_source(source, "m.py", level=level)
    return finding.severity


@pytest.mark.parametrize(
    "setting",
    [
        "ms.set_context(jit_syntax_level=ms.STRICT)",
        "ms.set_context(mode=ms.GRAPH_MODE, jit_syntax_level=0)",
        "ms.set_context(jit_syntax_level='STRICT')",
        "cfg = ms.JitConfig(jit_syntax_level='STRICT')",
        "os.environ['MS_DEV_JIT_SYNTAX_LEVEL'] = '0'",
    ],
)
def test_file_level_strict(setting: str) -> None:
    assert severity(HEAD + setting + "\n" + CELL) is Severity.ERROR


def test_file_level_overrides_argument() -> None:
    assert severity(HEAD + "ms.set_context(jit_syntax_level=ms.LAX)\n" + CELL, "STRICT") is (
        Severity.INFORMATION
    )
    assert severity(HEAD + CELL, "strict") is Severity.ERROR
    assert severity(HEAD + CELL, "nonsense") is Severity.INFORMATION
    assert severity(HEAD + CELL) is Severity.INFORMATION


def test_last_setting_wins() -> None:
    src = HEAD + "ms.set_context(jit_syntax_level=ms.STRICT)\n"
    src += "ms.set_context(jit_syntax_level=ms.LAX)\n" + CELL
    assert severity(src) is Severity.INFORMATION


def test_fullgraph_jit_is_strict_for_that_function_and_its_helpers() -> None:
    src = HEAD + (
        "def helper(x):\n    return x.asnumpy()\n"
        "@ms.jit(fullgraph=True)\ndef f(x):\n    return helper(x)\n"
        "@ms.jit\ndef g(x):\n    return x.asnumpy()\n"
    )
    found = check_source(src, "m.py")
    assert [(f.line, f.severity) for f in found] == [
        (5, Severity.ERROR),
        (11, Severity.INFORMATION),
    ]
