"""Record scalars, histograms, images, tensors and the graph with a hand-written SummaryRecord
(real MindSpore 2.10, GRAPH_MODE), and write what was recorded to OUT/expected.json.
Usage: python write_record.py OUT"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import mindspore as ms
import numpy as np
from mindspore import Tensor, nn
from mindspore.train.summary import SummaryRecord

STEPS = 5


class Net(nn.Cell):  # type: ignore[misc]
    def __init__(self) -> None:
        super().__init__()
        self.dense = nn.Dense(4, 3)
        self.relu = nn.ReLU()

    def construct(self, x: Tensor) -> Tensor:
        return self.relu(self.dense(x))


def main(out: Path) -> None:
    ms.set_device("CPU")
    ms.set_context(mode=ms.GRAPH_MODE)
    rng = np.random.default_rng(7)
    net = Net()
    net(Tensor(np.ones((2, 4), np.float32)))  # compiled: the graph can be recorded
    expected: dict[str, list[dict[str, object]]] = {"loss": [], "lr": [], "weights": [],
                                                    "image": [], "tensor": []}  # fmt: skip
    with SummaryRecord(str(out / "run"), network=net) as record:
        for step in range(1, STEPS + 1):
            loss = np.float32(rng.random() * 3)
            lr = np.float32(0.1 / step)
            weights = rng.normal(size=(8, 16)).astype(np.float32) * step
            image = rng.integers(0, 256, size=(1, 3, 6, 8), dtype=np.uint8)
            tensor = rng.normal(size=(2, 3)).astype(np.float32)
            if step == 3:
                tensor[0, 1], tensor[1, 2] = np.nan, np.inf
            record.add_value("scalar", "loss", Tensor(loss))
            record.add_value("scalar", "learning_rate", Tensor(lr))
            record.add_value("histogram", "dense.weight", Tensor(weights))
            record.add_value("image", "input", Tensor(image))
            record.add_value("tensor", "activations", Tensor(tensor))
            record.record(step, train_network=net)
            expected["loss"].append({"step": step, "value": float(loss)})
            expected["lr"].append({"step": step, "value": float(lr)})
            expected["weights"].append({"step": step, "values": weights.ravel().tolist()})
            expected["image"].append({"step": step, "hwc": image[0].transpose(1, 2, 0).tolist()})
            expected["tensor"].append({"step": step, "values": [
                None if not np.isfinite(v) else float(v) for v in tensor.ravel()]})  # fmt: skip
    (out / "expected.json").write_text(json.dumps(expected), encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
