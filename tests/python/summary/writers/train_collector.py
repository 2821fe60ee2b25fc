"""Train a small network with Model.train and a SummaryCollector (real MindSpore 2.10,
GRAPH_MODE, 2 epochs of 4 steps), and write each step's loss and the final weights of `fc` as
the training saw them to OUT/expected.json. Usage: python train_collector.py OUT"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import mindspore as ms
import mindspore.dataset as ds
import numpy as np
from mindspore import Tensor, nn
from mindspore.train import Callback, Model, SummaryCollector


class Net(nn.Cell):  # type: ignore[misc]
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3)
        self.relu = nn.ReLU()
        self.flat = nn.Flatten()
        self.fc = nn.Dense(4 * 8 * 8, 10)

    def construct(self, x: Tensor) -> Tensor:
        return self.fc(self.flat(self.relu(self.conv(x))))


class Losses(Callback):  # type: ignore[misc]
    def __init__(self) -> None:
        self.steps: list[dict[str, float]] = []

    def on_train_step_end(self, run_context: Any) -> None:
        params = run_context.original_args()
        loss = params.net_outputs
        value = float(loss.asnumpy() if hasattr(loss, "asnumpy") else loss)
        self.steps.append({"step": params.cur_step_num, "value": value})


def main(out: Path) -> None:
    ms.set_device("CPU")
    ms.set_context(mode=ms.GRAPH_MODE)
    rng = np.random.default_rng(3)
    x = rng.random((16, 3, 8, 8), dtype=np.float32)
    y = rng.integers(0, 10, 16).astype(np.int32)
    data = ds.NumpySlicesDataset({"image": x, "label": y}, shuffle=False).batch(4)
    net = Net()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    model = Model(net, loss, nn.Momentum(net.trainable_params(), 0.01, 0.9))
    specified = {"collect_graph": True, "histogram_regular": "^fc", "collect_input_data": True}
    collector = SummaryCollector(str(out / "train"), collect_freq=1,
                                 collect_specified_data=specified)  # fmt: skip
    losses = Losses()
    model.train(2, data, callbacks=[collector, losses], dataset_sink_mode=False)
    weights = net.fc.weight.asnumpy()
    expected = {"loss": losses.steps, "fc_weight": {"min": float(weights.min()),
                "max": float(weights.max()), "count": int(weights.size)}}  # fmt: skip
    (out / "expected.json").write_text(json.dumps(expected), encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
