"""MS501-MS503 on callees defined in another file of the workspace.

A training script usually imports its Cell (`from model import Net`, `from .nets import ResNet`,
`import mymodels`) and its `@jit` step (`from utils import train_step`): those are compiled just
as if they were defined in the script, so the same call sites are reported. A name that cannot
be resolved to a Cell or a `jit` function of the workspace is not.
"""

from __future__ import annotations

import random
import textwrap
from pathlib import Path
from typing import Optional

from mindscope_ls.checker import Finding, Workspace, check_source

GRAPH = "import mindspore as ms\n\nms.set_context(mode=ms.GRAPH_MODE)\n"

CELL = """\
from mindspore import nn


class Net(nn.Cell):
    def construct(self, x, k):
        return x * k
"""
PLAIN = """\
class Net:
    def __call__(self, x, k):
        return x * k
"""
UTILS = """\
import mindspore as ms


@ms.jit
def train_step(x, k):
    return x * k


def eager_step(x, k):
    return x * k
"""
LOOP = """\
def main(x):
    net = Net()
    for step in range(10):
        net(x, step)
"""


def _write(root: Path, files: dict[str, str]) -> dict[str, str]:
    sources = {}
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        text = textwrap.dedent(text)
        path.write_text(text)
        sources[str(path)] = text
    return sources


def _check(workspace: Workspace, root: Path, name: str) -> list[tuple[int, str, str]]:
    """(line, code, reported text) of the MS5xx findings of `name`; a fresh workspace of the
    same files finds the same."""
    path = str(root / name)
    current = workspace.get(path)
    assert current is not None
    source = current.source
    again = check_source(source, path, workspace=workspace)
    files = {m.path: m.source for m in workspace.modules()}
    fresh = check_source(source, path, workspace=Workspace(files, root=workspace.root))
    assert again == fresh
    return _summary(again, source)


def _summary(findings: list[Finding], source: str) -> list[tuple[int, str, str]]:
    lines = source.splitlines()
    return [
        (f.line, f.code, lines[f.line - 1][f.col : f.end_col])
        for f in findings
        if f.code.startswith("MS5")
    ]


def _findings(
    tmp_path: Path, files: dict[str, str], name: str = "train.py"
) -> list[tuple[int, str, str]]:
    _write(tmp_path, files)
    return _check(Workspace.from_folder(str(tmp_path)), tmp_path, name)


def test_a_cell_imported_by_absolute_import(tmp_path: Path) -> None:
    train = GRAPH + "from model import Net\n\n\n" + LOOP
    found = _findings(tmp_path, {"model.py": CELL, "train.py": train})
    assert found == [(10, "MS501", "step")]


def test_a_cell_imported_by_relative_import(tmp_path: Path) -> None:
    nets = CELL.replace("class Net", "class ResNet")
    train = GRAPH + "from .nets import ResNet\n\n\n" + LOOP.replace("Net()", "ResNet()")
    files = {"proj/__init__.py": "", "proj/nets.py": nets, "proj/train.py": train}
    assert _findings(tmp_path, files, "proj/train.py") == [(10, "MS501", "step")]


def test_a_cell_of_an_imported_module(tmp_path: Path) -> None:
    train = GRAPH + textwrap.dedent(
        """\
        import mymodels


        def main(x):
            net = mymodels.Net()
            for step in range(10):
                net(x, step)
                mymodels.Net()(x, 1)
        """
    )
    found = _findings(tmp_path, {"mymodels.py": CELL, "train.py": train})
    assert found == [(10, "MS501", "step"), (11, "MS502", "mymodels.Net()")]


def test_a_cell_through_bases_in_other_files(tmp_path: Path) -> None:
    base = CELL.replace("class Net", "class Base")
    middle = "from base import Base\n\n\nclass Middle(Base):\n    pass\n"
    model = "from middle import Middle\n\n\nclass Net(Middle):\n    pass\n"
    train = GRAPH + "from model import Net\n\n\nclass Mine(Net):\n    pass\n\n\n" + LOOP
    train = train.replace("Net()", "Mine()")
    files = {"base.py": base, "middle.py": middle, "model.py": model, "train.py": train}
    assert _findings(tmp_path, files) == [(14, "MS501", "step")]


def test_a_jit_function_imported_from_another_file(tmp_path: Path) -> None:
    # PyNative (no set_context): a `jit` function compiles anyway.
    train = textwrap.dedent(
        """\
        import utils
        from mindspore import Tensor
        from utils import eager_step, train_step


        def main(x):
            for step in range(10):
                train_step(x, step)
                utils.train_step(x, step)
                train_step(x, [Tensor(1), Tensor(2)])
                eager_step(x, step)
        """
    )
    found = _findings(tmp_path, {"utils.py": UTILS, "train.py": train})
    assert found == [
        (8, "MS501", "step"),
        (9, "MS501", "step"),
        (10, "MS503", "[Tensor(1), Tensor(2)]"),
    ]


def test_an_imported_cell_with_a_jit_construct_compiles_in_pynative(tmp_path: Path) -> None:
    base = "import mindspore as ms\n" + CELL.replace("class Net", "class Base").replace(
        "    def construct", "    @ms.jit\n    def construct"
    )
    model = "from base import Base\n\n\nclass Net(Base):\n    pass\n"
    plain_cell = "from model import Net\n\n\n" + LOOP
    found = _findings(tmp_path, {"base.py": base, "model.py": model, "train.py": plain_cell})
    assert found == [(7, "MS501", "step")]


def test_an_imported_cell_does_not_compile_in_pynative(tmp_path: Path) -> None:
    train = "from model import Net\n\n\n" + LOOP + "        Net()(x, 1)\n"
    assert _findings(tmp_path, {"model.py": CELL, "train.py": train}) == []


def test_a_class_of_the_same_name_that_is_no_cell_is_not_reported(tmp_path: Path) -> None:
    train = GRAPH + "from model import Net\n\n\n" + LOOP + "        Net()(x, 1)\n"
    # `cells.Net` is a Cell, but the script imports `model.Net`, which is not.
    files = {"model.py": PLAIN, "cells.py": CELL, "train.py": train}
    assert _findings(tmp_path, files) == []


def test_names_that_resolve_nowhere_are_not_reported(tmp_path: Path) -> None:
    train = GRAPH + "from thirdparty import Net, train_step\n\n\n" + LOOP
    train += "        train_step(x, step)\n"
    assert _findings(tmp_path, {"model.py": CELL, "utils.py": UTILS, "train.py": train}) == []


def test_a_local_definition_of_the_imported_name_is_not_guessed_at(tmp_path: Path) -> None:
    train = GRAPH + "from model import Net\n\n\n" + PLAIN + "\n\n" + LOOP
    assert _findings(tmp_path, {"model.py": CELL, "train.py": train}) == []


def test_without_a_workspace_imported_names_are_unknown() -> None:
    train = GRAPH + "from model import Net\nfrom utils import train_step\n\n\n" + LOOP
    train += "        train_step(x, step)\n"
    assert _summary(check_source(train, "train.py"), train) == []


def test_edits_of_the_imported_files_reach_the_script(tmp_path: Path) -> None:
    train = GRAPH + "from model import Net\nfrom utils import train_step\n\n\n" + LOOP
    train += "        train_step(x, step)\n"
    _write(tmp_path, {"model.py": CELL, "utils.py": UTILS, "train.py": train})
    workspace = Workspace.from_folder(str(tmp_path))
    model, utils = str(tmp_path / "model.py"), str(tmp_path / "utils.py")
    both = [(11, "MS501", "step"), (12, "MS501", "step")]
    assert _check(workspace, tmp_path, "train.py") == both

    workspace.update(model, PLAIN)  # Net is no longer a Cell
    assert _check(workspace, tmp_path, "train.py") == [(12, "MS501", "step")]
    workspace.update(utils, UTILS.replace("@ms.jit\n", ""))  # nor train_step a jit function
    assert _check(workspace, tmp_path, "train.py") == []

    workspace.update(model, CELL)
    workspace.update(utils, UTILS)
    assert _check(workspace, tmp_path, "train.py") == both
    workspace.remove(model)
    assert _check(workspace, tmp_path, "train.py") == [(12, "MS501", "step")]
    workspace.update(model, "from cells import Net\n")  # re-exported from another file
    workspace.update(str(tmp_path / "cells.py"), CELL)
    assert _check(workspace, tmp_path, "train.py") == both


def test_a_local_cell_inheriting_an_imported_jit_construct(tmp_path: Path) -> None:
    model = "import mindspore as ms\n" + CELL.replace(
        "    def construct", "    @ms.jit\n    def construct"
    )
    train = "from model import Net\n\n\nclass Mine(Net):\n    pass\n\n\n" + LOOP
    train = train.replace("Net()", "Mine()")
    assert _findings(tmp_path, {"model.py": model, "train.py": train}) == [(11, "MS501", "step")]


MODEL_VERSIONS: list[Optional[str]] = [
    CELL,
    PLAIN,
    "import mindspore as ms\n"
    + CELL.replace("    def construct", "    @ms.jit\n    def construct"),
    "from cells import Net\n",
    "from base import Base\n\n\nclass Net(Base):\n    pass\n",
    None,  # deleted
]
UTILS_VERSIONS: list[Optional[str]] = [
    UTILS,
    UTILS.replace("@ms.jit\n", ""),
    "from mindspore import jit\n" + UTILS,
    None,
]
TRAIN_VERSIONS = [
    GRAPH
    + "from model import Net\nfrom utils import train_step\n\n\n"
    + LOOP
    + "        train_step(x, step)\n",
    "import model\nimport utils\n\n\n"
    + LOOP.replace("Net()", "model.Net()")
    + "        utils.train_step(x, [x, x])\n",
]


def test_random_edits_of_the_imported_files_match_a_fresh_check(tmp_path: Path) -> None:
    rng = random.Random(501)
    base = CELL.replace("class Net", "class Base")
    _write(tmp_path, {"cells.py": CELL, "base.py": base, "model.py": CELL, "utils.py": UTILS})
    _write(tmp_path, {"train.py": TRAIN_VERSIONS[0]})
    workspace = Workspace.from_folder(str(tmp_path))
    files: list[tuple[str, list[Optional[str]]]] = [
        ("model.py", MODEL_VERSIONS),
        ("utils.py", UTILS_VERSIONS),
        ("base.py", [base, PLAIN]),
        ("train.py", list(TRAIN_VERSIONS)),
    ]
    seen: set[tuple[tuple[int, str, str], ...]] = set()
    for _ in range(60):
        name, versions = rng.choice(files)
        text = rng.choice(versions)
        path = str(tmp_path / name)
        if text is None:
            workspace.remove(path)
        else:
            workspace.update(path, text)
        seen.add(tuple(_check(workspace, tmp_path, "train.py")))
    assert len(seen) > 3  # the edits did change what is reported in train.py
