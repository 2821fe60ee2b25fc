"""Train ResNet-20 on synthetic CIFAR-10-shaped data.

    python train.py --steps 20 --batch-size 32 --mode graph

No dataset is downloaded: each class gets a fixed random "template" image and every sample is
its class template plus noise, so the loss visibly falls within a few dozen steps.
"""

import argparse
import time
from collections.abc import Sequence
from typing import Optional

import mindspore as ms
import mindspore.dataset as ds
import numpy as np
import numpy.typing as npt
from mindspore import nn

# `python train.py` puts this folder first on sys.path, so the model is imported from beside
# the script; mypy run from the repository root cannot see that, hence the ignore.
from model import resnet20  # type: ignore[import-not-found,unused-ignore]

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
    return parser.parse_args(argv)


def main(argv: Optional[Sequence[str]] = None) -> None:
    args = parse_args(argv)
    ms.set_context(mode=ms.GRAPH_MODE if args.mode == "graph" else ms.PYNATIVE_MODE)
    ms.set_device("CPU")
    ms.set_seed(0)  # same initial weights every run

    net = resnet20(NUM_CLASSES)
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=args.lr, momentum=0.9)

    def forward_fn(images: ms.Tensor, labels: ms.Tensor) -> ms.Tensor:
        return loss_fn(net(images), labels)

    # Differentiate w.r.t. the optimizer's parameters only (grad_position=None: not the inputs).
    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters)

    def train_step(images: ms.Tensor, labels: ms.Tensor) -> ms.Tensor:
        loss, grads = grad_fn(images, labels)
        optimizer(grads)
        return loss

    # In graph mode compile the whole step (forward, backward, update) into one graph: on CPU
    # that is ~3x faster per step than letting grad_fn and the optimizer compile separately.
    # Asking the context, not args.mode, keeps the step eager when a debugger forces PyNative.
    if ms.get_context("mode") == ms.GRAPH_MODE:
        train_step = ms.jit(train_step)

    net.set_train()
    dataset = make_dataset(args.steps, args.batch_size)
    for step, (images, labels) in enumerate(dataset.create_tuple_iterator(num_epochs=1), 1):
        start = time.perf_counter()
        loss = train_step(images, labels)
        elapsed = time.perf_counter() - start
        print(f"step {step}/{args.steps} loss {loss.asnumpy():.4f} ({elapsed:.2f}s)", flush=True)


if __name__ == "__main__":
    main()
