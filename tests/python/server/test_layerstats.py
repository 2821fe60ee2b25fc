"""The layer statistics builder on a small model package, and the committed statistics."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

from mindscope_ls.layerstats.build import DATA_FILE, build, main
from mindscope_ls.layerstats.rank import followers, rank_by_context

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
