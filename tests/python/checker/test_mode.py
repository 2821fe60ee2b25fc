"""Severity follows the mode that runs the code (checker/mode.py): graph-mode findings in code
that surely runs in PyNative are information saying why; compiled or unknown code keeps errors."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from mindscope_ls.checker import Severity, Workspace, absolute_globs, check_source
from mindscope_ls.checker.output.cli import main

HEAD = "import mindspore as ms\nfrom mindspore import nn\n"
NET = """
class Net(nn.Cell):
    def construct(self, x):
        del x
        return 1
"""
JIT_FN = """
@ms.jit
def step(x):
    del x
    return 1
"""
HELPER = """
def helper(x):
    try:
        y = x
    except Exception:
        y = x
    return y


class Net(nn.Cell):
    def construct(self, x):
        return helper(x)
"""


def severities(source: str, path: str = "net.py", **kwargs: object) -> list[tuple[str, str]]:
    found = check_source(source, path, **kwargs)  # type: ignore[arg-type]
    return [(f.code, f.severity.value) for f in found]


def test_unknown_mode_keeps_errors() -> None:
    assert severities(HEAD + NET) == [("MS102", "error")]


def test_a_file_that_sets_pynative_lowers_its_cells_with_why() -> None:
    source = HEAD + "ms.set_context(mode=ms.PYNATIVE_MODE)\n" + NET
    [finding] = check_source(source, "net.py")
    assert finding.severity is Severity.INFORMATION
    assert finding.message.startswith(
        "runs in PyNative here (set_context(mode=PYNATIVE_MODE) at line 3); "
        "would fail under GRAPH_MODE: `del`"
    )


@pytest.mark.parametrize(
    "setting",
    [
        "ms.set_context(mode=ms.GRAPH_MODE)",
        "ms.set_context(mode=0)",
        "ms.set_context(mode=ms.GRAPH_MODE if FAST else ms.PYNATIVE_MODE)",
        "ms.set_context(mode=MODE)",  # chosen at run time: may be GRAPH_MODE
        "ms.set_context(mode=ms.PYNATIVE_MODE)\nms.set_context(mode=ms.GRAPH_MODE)",
    ],
)
def test_a_file_that_may_set_graph_mode_keeps_errors_even_when_declared(setting: str) -> None:
    source = HEAD + "# mindscope: pynative\n" + setting + "\n" + NET
    assert severities(source, pynative=absolute_globs(["*"], "/")) == [("MS102", "error")]


def test_jit_code_in_a_pynative_file_stays_an_error() -> None:
    source = HEAD + "ms.set_context(mode=ms.PYNATIVE_MODE)\n" + NET + JIT_FN
    assert severities(source) == [("MS102", "information"), ("MS102", "error")]


@pytest.mark.parametrize("wrap", ["net = ms.jit(Net())", "net = Net()\nfast = ms.jit(net)"])
def test_a_cell_passed_to_jit_stays_an_error(wrap: str) -> None:
    source = HEAD + "# mindscope: pynative\n" + NET + "\n\n" + wrap + "\n"
    assert severities(source) == [("MS102", "error")]


def test_a_helper_called_from_jit_code_stays_an_error() -> None:
    source = (
        HEAD + "# mindscope: pynative\n" + HELPER + "\n\n@ms.jit\ndef f(x):\n    return helper(x)\n"
    )
    assert severities(source) == [("MS101", "error")]
    # The same helper called only from the PyNative Cell: information.
    assert severities(HEAD + "# mindscope: pynative\n" + HELPER) == [("MS101", "information")]


def test_the_comment_must_be_a_line_of_its_own() -> None:
    declared = HEAD + "# mindscope: pynative\n" + NET
    assert severities(declared) == [("MS102", "information")]
    mentioned = HEAD + "x = 1  # mindscope: pynative would say so\n" + NET
    assert severities(mentioned) == [("MS102", "error")]


def test_globs_match_absolute_paths_relative_to_their_root(tmp_path: Path) -> None:
    path = str(tmp_path / "legacy" / "net.py")
    source = HEAD + NET
    globs = absolute_globs(["legacy/**"], str(tmp_path))
    assert severities(source, path, pynative=globs) == [("MS102", "information")]
    other = absolute_globs(["models/**"], str(tmp_path))
    assert severities(source, path, pynative=other) == [("MS102", "error")]
    folder = absolute_globs(["legacy/"], str(tmp_path))
    assert severities(source, path, pynative=folder) == [("MS102", "information")]


def test_divergence_warnings_say_they_would_differ() -> None:
    source = (
        HEAD
        + "# mindscope: pynative\n"
        + "\n\nclass Net(nn.Cell):\n"
        + "    def construct(self, x):\n"
        + "        y = x\n"
        + "        y += 1\n"
        + "        return x + y\n"
    )
    found = check_source(source, "net.py")
    lowered = [f for f in found if f.group == "diverges-from-pynative"]
    for finding in lowered:
        assert finding.severity is Severity.INFORMATION
        assert "would differ under GRAPH_MODE: " in finding.message


def test_deprecations_are_not_about_the_mode() -> None:
    source = HEAD + "# mindscope: pynative\nms.set_context(deterministic='ON')\n"
    assert ("MS401", "warning") in severities(source)


def test_a_helper_in_an_undeclared_file_follows_nothing_but_its_own_file(tmp_path: Path) -> None:
    # The PyNative Cell calls a helper of a library module that says nothing: still an error.
    lib = HEAD + "\n\ndef helper(x):\n    del x\n    return 1\n"
    net = HEAD + "# mindscope: pynative\nfrom lib import helper\n\n\nclass Net(nn.Cell):\n"
    net += "    def construct(self, x):\n        return helper(x)\n"
    ws = Workspace({str(tmp_path / "lib.py"): lib, str(tmp_path / "net.py"): net}, str(tmp_path))
    found = check_source(lib, str(tmp_path / "lib.py"), workspace=ws)
    assert [(f.code, f.severity.value) for f in found] == [("MS102", "error")]


def _write(root: Path, name: str, text: str) -> Path:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_cli_pyproject_table_and_flag(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(tmp_path, "legacy/net.py", HEAD + NET)
    _write(tmp_path, "models/net.py", HEAD + NET)
    monkeypatch.chdir(tmp_path)
    assert main(["check", "legacy", "models"]) == 1
    capsys.readouterr()
    _write(tmp_path, "pyproject.toml", '[tool.mindscope]\npynative = ["legacy/*"]\n')
    assert main(["check", "legacy", "models", "--format", "json"]) == 1  # models/ still errs
    rows = json.loads(capsys.readouterr().out)
    assert [(r["path"], r["severity"]) for r in rows] == [
        (os.path.join("legacy", "net.py"), "information"),
        (os.path.join("models", "net.py"), "error"),
    ]
    assert main(["check", "legacy", "models", "--pynative", "models/**"]) == 0
    text = capsys.readouterr().out
    assert text.endswith("2 file(s) checked, 2 finding(s), 0 error(s)\n")
    assert "information MS102 runs in PyNative here" in text
    assert main(["check", "legacy", "--format", "sarif"]) == 0
    log = json.loads(capsys.readouterr().out)
    assert [r["level"] for r in log["runs"][0]["results"]] == ["note"]


@pytest.mark.parametrize(
    ("table", "said"),
    [
        ('[tool.mindscope]\npynative = "legacy"\n', "pynative must be a list of path globs"),
        ("[tool.mindscope\n", "cannot read it: "),
    ],
)
def test_cli_bad_pyproject_is_one_line_usage_error(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    table: str,
    said: str,
) -> None:
    _write(tmp_path, "net.py", HEAD + NET)
    _write(tmp_path, "pyproject.toml", table)
    monkeypatch.chdir(tmp_path)
    assert main(["check", "net.py"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err and err.startswith("mindscope: error: ")


def test_a_same_named_function_compiled_elsewhere_is_not_a_caller(tmp_path: Path) -> None:
    # graph.py sets GRAPH_MODE and compiles its own `helper`: not the PyNative file's.
    graph = HEAD + "ms.set_context(mode=ms.GRAPH_MODE)\n\n\ndef helper(x):\n    return x\n\n\n"
    graph += "class G(nn.Cell):\n    def construct(self, x):\n        return helper(x)\n"
    net = HEAD + "# mindscope: pynative\n" + HELPER
    paths = {str(tmp_path / "graph.py"): graph, str(tmp_path / "net.py"): net}
    ws = Workspace(paths, str(tmp_path))
    found = check_source(net, str(tmp_path / "net.py"), workspace=ws)
    assert [(f.code, f.severity.value) for f in found] == [("MS101", "information")]
