"""The layer statistics builder on a small model package, and the committed statistics."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any, Optional

import pytest
from lsprotocol import types

from mindscope_ls.analysis.apiitems import Listing
from mindscope_ls.analysis.inference import Inferencer
from mindscope_ls.analysis.layerstats.build import DATA_FILE, build, main
from mindscope_ls.analysis.layerstats.context import init_scope, layer_ranked, previous_layer
from mindscope_ls.analysis.layerstats.rank import followers, rank_by_context
from mindscope_ls.analysis.layerstats.where import method_around
from mindscope_ls.analysis.sourcemodel import model_around
from mindscope_ls.catalogue.load import catalogue_for

BLOCKS = """\
from mindspore import nn
import mindspore.nn as msnn
from mindspore.nn import BatchNorm2d


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)  # nn.Dense( in a comment is no call
        self.bn = BatchNorm2d(8)
        self.act = msnn.ReLU()

    def construct(self, x):
        return self.act(self.bn(self.conv(x)))


class NotACell:
    def __init__(self):
        self.conv = nn.Conv2d(3, 8, 3)
        self.fc = nn.Dense(8, 2)
"""

NET = """\
import mindspore as ms
from mindspore import mint, nn

from .blocks import Block


class Net(Block):
    def __init__(self):
        super().__init__()
        self.features = ms.nn.SequentialCell(
            [ms.nn.Conv2d(8, 8, 3), ms.nn.BatchNorm2d(8), ms.nn.MaxPool2d(2)]
        )
        self.head = mint.nn.Linear(8, 2)

    def helper(self):
        return nn.Dense(1, 1)
"""

TORCH = """\
import torch.nn as nn


class T(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)
        self.act = nn.ReLU()
"""

METADATA = "Metadata-Version: 2.1\nName: demo-models\nVersion: 1.2\n"


def _package(folder: Path) -> Path:
    files = {
        "demo_models-1.2.dist-info/METADATA": METADATA,
        "demo/__init__.py": "",
        "demo/blocks.py": BLOCKS,
        "demo/net.py": NET,
        "demo/torchy.py": TORCH,
        "demo/broken.py": "class Broken(nn.Cell:\n",
    }
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return folder


EXPECTED_NN = {
    # Block opens with Conv2d; Net (a Cell through Block, in another file) with SequentialCell.
    "first": {"Conv2d": 1, "SequentialCell": 1},
    "follows": {
        "BatchNorm2d": {"MaxPool2d": 1, "ReLU": 1},
        "Conv2d": {"BatchNorm2d": 2},
        "SequentialCell": {"Conv2d": 1},
    },
}


def _check(data: dict[str, Any]) -> None:
    assert data["sources"] == [
        {
            "package": "demo-models",
            "version": "1.2",
            "files": 5,
            "cells": 2,
            "layer_calls": 8,
            "transitions": 6,
        }
    ]
    assert data["namespaces"]["mindspore.nn"] == EXPECTED_NN
    # The layer after MaxPool2d is mint's: counted in the table of the namespace written.
    assert data["namespaces"]["mindspore.mint.nn"] == {
        "first": {},
        "follows": {"MaxPool2d": {"Linear": 1}},
    }


def test_builder_counts_layer_calls_of_cell_inits_in_source_order(tmp_path: Path) -> None:
    _check(build([_package(tmp_path / "src")]))


def test_builder_reads_a_wheel_and_writes_the_data_file(tmp_path: Path) -> None:
    folder = _package(tmp_path / "src")
    wheel = tmp_path / "demo_models-1.2-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for file in folder.rglob("*"):
            if file.is_file():
                archive.write(file, file.relative_to(folder).as_posix())
    out = tmp_path / "follows.json"
    assert main([str(wheel), "-o", str(out)]) == 0
    _check(json.loads(out.read_text()))


def test_committed_statistics_say_where_they_come_from() -> None:
    data = json.loads(DATA_FILE.read_text())
    packages = {source["package"] for source in data["sources"]}
    assert {"mindcv", "mindocr", "mindyolo"} <= packages
    for source in data["sources"]:
        assert source["version"] != "unknown" and source["cells"] > 0 and source["transitions"] > 0


def test_usual_followers_of_conv2d_rank_first() -> None:
    after_conv = followers("Conv2d")
    assert after_conv[:2] == ["BatchNorm2d", "ReLU"]
    assert "MaxPool2d" in followers("ReLU")
    ranking = rank_by_context("Conv2d")
    assert sorted(ranking, key=ranking.__getitem__) == after_conv
    # Every ranked sortText sorts before the plain items' "00<name>".
    assert all(text < "00a" and text < "000" for text in ranking.values())
    assert rank_by_context("NoSuchLayer") == {}
    assert followers(None)  # the usual first layers of an __init__


# -- the context of a new element of a layer list, typed with its brackets still open ----------

INIT = """\
import mindspore as ms
from collections import OrderedDict
from mindspore import nn


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
"""

# Each text ends where `nn.` is typed (or marks the cursor `<|>`); then the layer whose
# followers should rank first.
LAYER_LISTS = {
    "SequentialCell([ over lines": (
        "        self.f = nn.SequentialCell([\n"
        "            nn.Conv2d(3, 64, 3, pad_mode='same'),  # a ( in a comment\n"
        "            nn.",
        "Conv2d",
    ),
    "SequentialCell( with positional layers": (
        "        self.f = nn.SequentialCell(\n            nn.Conv2d(3, 64, 3),\n            nn.",
        "Conv2d",
    ),
    "CellList([": (
        "        self.f = nn.CellList([\n"
        "            nn.Dense(8, 8),\n"
        "            nn.Conv2d(3, 64, 3),\n"
        "            nn.Re",
        "Conv2d",
    ),
    "a list then SequentialCell(*layers)": (
        "        layers = [\n            nn.Conv2d(3, 64, 3),\n            nn.",
        "Conv2d",
    ),
    "layers.append": (
        "        layers = []\n"
        "        layers.append(nn.Conv2d(3, 64, 3))\n"
        "        layers.append(nn.",
        "Conv2d",
    ),
    "OrderedDict": (
        "        self.f = nn.SequentialCell(OrderedDict([\n"
        "            ('conv', nn.Conv2d(3, 64, 3)),\n"
        "            ('bn', nn.",
        "Conv2d",
    ),
    "CellDict({": (
        "        self.f = nn.CellDict({\n"
        "            'conv': nn.Conv2d(3, 64, 3),\n"
        "            'act': nn.",
        "Conv2d",
    ),
    "the first element: the list's own layer": (
        "        self.head = nn.Dense(8, 2)\n        self.f = nn.SequentialCell([\n            nn.",
        "SequentialCell",
    ),
    "an element inserted in a closed list": (
        "        self.f = nn.SequentialCell([\n"
        "            nn.Conv2d(3, 64, 3),\n"
        "            nn.BatchNorm2d(64),\n"
        "            nn.<|>\n"
        "            nn.MaxPool2d(2),\n"
        "        ])\n"
        "\n"
        "    def construct(self, x):\n"
        "        return self.f(x)\n",
        "BatchNorm2d",
    ),
}


def _cursor(text: str) -> tuple[str, int, int]:
    """`text` without its cursor mark `<|>`, and the cursor's position (the end without one)."""
    before, _, after = text.partition("<|>")
    lines = before.split("\n")
    return before + after, len(lines) - 1, len(lines[-1])


def _context(text: str) -> tuple[Optional[str], list[types.CompletionItem]]:
    cat = catalogue_for("2.10.0")
    assert cat is not None
    text, line, column = _cursor(text)
    inferencer = Inferencer(model_around(text, line), cat)
    scope = inferencer.scope_at(line + 1)
    listing = Listing(cat, "mindspore.nn", False)
    ranked = layer_ranked(inferencer, scope, listing, text, line, column)
    found = init_scope(scope, text, line, column) or scope
    previous = previous_layer(inferencer, found, text, line, column)
    return previous, list(ranked or ())


@pytest.mark.parametrize("name", list(LAYER_LISTS))
def test_the_previous_element_of_a_layer_list_is_the_context(name: str) -> None:
    body, expected = LAYER_LISTS[name]
    previous, items = _context(INIT + body)
    assert previous == expected
    cat = catalogue_for("2.10.0")
    assert cat is not None
    assert {item.label for item in items} == set(cat.members("mindspore.nn") or {})
    ranked = sorted(items, key=lambda item: (item.sort_text or item.label, item.label))
    assert [item.label for item in ranked[:3]] == followers(expected)[:3]


def test_a_half_typed_class_is_recovered_from_its_text() -> None:
    lines = (
        INIT + "        self.f = nn.SequentialCell([\n            nn.Conv2d(3, 8, 3),\n"
    ).split("\n")
    found = method_around(lines, 0)
    assert found is not None
    cls, func = found
    assert cls.name == "Net" and func is not None and func.name == "__init__"
    assert cls.lineno == 6 and func.lineno == 7  # the file's line numbers
    # Cut from line 3 on, the nodes still carry the file's numbers.
    cut = method_around(lines[3:], 3)
    assert cut is not None and cut[0].lineno == 6


def test_no_method_is_made_up_where_there_is_none() -> None:
    module = INIT + "        pass\n\n\nlayers = [\n    nn.Conv2d(3, 64, 3),\n    "
    assert method_around(module.split("\n"), 0) is None
    in_the_class_body = (
        "class Net(nn.Cell):\n    layers = [\n        nn.Conv2d(3, 64, 3),\n        "
    )
    found = method_around(in_the_class_body.split("\n"), 0)
    assert found is not None and found[0].name == "Net" and found[1] is None
    unclosed_string = INIT + "        self.f = nn.SequentialCell([nn.Conv2d(3, 8, 3, pad_mode='sa"
    assert method_around(unclosed_string.split("\n"), 0) is None
    assert method_around(["import mindspore", "x = ["], 0) is None


@pytest.mark.parametrize(
    "body",
    [
        # construct: compiled code, no layers are built there.
        "        self.f = nn.Dense(2, 2)\n\n    def construct(self, x):\n"
        "        y = [\n            nn.Conv2d(3, 64, 3),\n            nn.",
        # a module-level list after the class.
        "        pass\n\n\nlayers = [\n    nn.Conv2d(3, 64, 3),\n    nn.",
    ],
)
def test_outside_a_cell_init_a_layer_list_is_not_ranked(body: str) -> None:
    assert _context(INIT + body)[1] == []


def test_a_class_that_is_no_cell_is_not_ranked() -> None:
    text = (
        "from mindspore import nn\n\n\nclass Plain:\n    def __init__(self):\n"
        "        self.f = [\n            nn.Conv2d(3, 64, 3),\n            nn."
    )
    assert _context(text)[1] == []
