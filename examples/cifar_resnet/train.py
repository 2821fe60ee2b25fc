"""Train ResNet-20 on synthetic CIFAR-10-shaped data.

    python train.py --steps 20 --batch-size 32 --mode graph

No dataset is downloaded: each class gets a fixed random "template" image and every sample is
its class template plus noise, so the loss visibly falls within a few dozen steps.

It records a MindSpore summary (SummaryRecord) in summaries/run-<time>/ beside this file (or
--summary-dir; --no-summary to skip): the loss and learning rate every step, a histogram of the
first convolution's weights every --summary-every steps, one input image, and the compiled graph.
Open it with "MindScope: Open Training Dashboard" or from the side panel's Training runs.
"""

import argparse
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Optional

import mindspore as ms
import mindspore.dataset as ds
import numpy as np
import numpy.typing as npt
from mindspore import nn
from mindspore.train.summary import SummaryRecord

# `python train.py` puts this folder first on sys.path, so the model is imported from beside
# the script; mypy run from the repository root cannot see that, hence the ignore.
from model import resnet20  # type: ignore[import-not-found,unused-ignore]

# mindspore ships no type information, so mypy sees nn.Cell as Any; allow subclassing it.
# mypy: allow-subclassing-any

NUM_CLASSES = 10
IMAGE_SHAPE = (3, 32, 32)


class SyntheticCifar:
    """A random-access source for GeneratorDataset: (image float32 CHW, label int32)."""

    def __init__(self, size: int, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        templates = rng.standard_normal((NUM_CLASSES, *IMAGE_SHAPE)).astype(np.float32)
        self.labels = rng.integers(0, NUM_CLASSES, size=size).astype(np.int32)
        noise = rng.standard_normal((size, *IMAGE_SHAPE)).astype(np.float32)
        self.images = templates[self.labels] + noise

    def __getitem__(self, index: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int32]]:
        return self.images[index], self.labels[index]

    def __len__(self) -> int:
        return len(self.labels)


class TrainStep(nn.Cell):
    """One training step (forward, backward, update) as a Cell: in GRAPH_MODE it compiles into
    one graph (on CPU ~3x faster per step than compiling the gradient and the optimizer apart),
    and SummaryRecord can record that graph, which it cannot take from an @ms.jit function."""

    def __init__(self, net: nn.Cell, loss_fn: nn.Cell, optimizer: nn.Optimizer) -> None:
        super().__init__()
        self.net = net
        self.loss_fn = loss_fn
        self.optimizer = optimizer
        # Differentiate w.r.t. the optimizer's parameters only (grad_position=None: not inputs).
        self.grad_fn = ms.value_and_grad(self.forward, None, optimizer.parameters)

    def forward(self, images: ms.Tensor, labels: ms.Tensor) -> ms.Tensor:
        return self.loss_fn(self.net(images), labels)

    def construct(self, images: ms.Tensor, labels: ms.Tensor) -> ms.Tensor:
        loss, grads = self.grad_fn(images, labels)
        self.optimizer(grads)
        return loss


def make_dataset(steps: int, batch_size: int, seed: int = 0) -> ds.Dataset:
    source = SyntheticCifar(steps * batch_size, seed)
    # One worker and no subprocesses: the arrays are already in memory.
    dataset = ds.GeneratorDataset(
        source, column_names=["image", "label"], shuffle=False, num_parallel_workers=1
    )
    return dataset.batch(batch_size, drop_remainder=True)


def parse_args(argv: Optional[Sequence[str]] = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20, help="training steps (default 20)")
    parser.add_argument("--batch-size", type=int, default=32, help="batch size (default 32)")
    parser.add_argument("--mode", choices=["graph", "pynative"], default="graph")
    parser.add_argument("--lr", type=float, default=0.05, help="learning rate (default 0.05)")
    parser.add_argument("--summary-dir", type=Path, help="default summaries/run-<time>/ here")
    parser.add_argument("--summary-every", type=int, default=5, help="histogram period (steps)")
    parser.add_argument("--no-summary", action="store_true", help="record no summary")
    parser.add_argument("--step-delay", type=float, default=0.0, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def summary_dir(args: argparse.Namespace) -> Path:
    if args.summary_dir is not None:
        return Path(args.summary_dir)
    return Path(__file__).resolve().parent / "summaries" / time.strftime("run-%Y%m%d-%H%M%S")


def main(argv: Optional[Sequence[str]] = None) -> None:
    args = parse_args(argv)
    ms.set_context(mode=ms.GRAPH_MODE if args.mode == "graph" else ms.PYNATIVE_MODE)
    ms.set_device("CPU")
    ms.set_seed(0)  # same initial weights every run

    net = resnet20(NUM_CLASSES)
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=args.lr, momentum=0.9)

    step_cell = TrainStep(net, loss_fn, optimizer)
    step_cell.set_train()
    dataset = make_dataset(args.steps, args.batch_size)
    record = None if args.no_summary else SummaryRecord(str(summary_dir(args)), network=step_cell)
    try:
        for step, (images, labels) in enumerate(dataset.create_tuple_iterator(num_epochs=1), 1):
            start = time.perf_counter()
            loss = step_cell(images, labels)
            elapsed = time.perf_counter() - start
            print(
                f"step {step}/{args.steps} loss {loss.asnumpy():.4f} ({elapsed:.2f}s)", flush=True
            )
            if record is not None:
                record_step(record, step_cell, step, loss, images, args)
            time.sleep(args.step_delay)  # tests: a training slow enough to watch live
    finally:
        if record is not None:
            record.close()


def record_step(
    record: "SummaryRecord",
    step_cell: "TrainStep",
    step: int,
    loss: ms.Tensor,
    images: ms.Tensor,
    args: argparse.Namespace,
) -> None:
    """One step into the summary, flushed so a dashboard sees it at once."""
    if step == 1:
        # The first record() writes only the compiled graph and keeps the values pending, which
        # would then be written as step 2: write the graph on its own first.
        record.record(step, train_network=step_cell)
    record.add_value("scalar", "loss", loss)
    record.add_value("scalar", "learning_rate", ms.Tensor(np.float32(args.lr)))
    if step == 1 or step % args.summary_every == 0:
        weight = next(p for p in step_cell.net.trainable_params() if p.ndim == 4)  # first conv
        record.add_value("histogram", f"{weight.name}", weight.value())
    if step == 1:
        record.add_value("image", "input", images[:1])
    record.record(step)
    record.flush()


if __name__ == "__main__":
    main()
