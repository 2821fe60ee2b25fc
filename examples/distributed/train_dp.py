"""Data-parallel training of ResNet-20 on synthetic CIFAR-10-shaped data, one process per rank.

    msrun --worker_num 2 --local_worker_num 2 --join True --log_dir msrun_logs \
        train_dp.py --steps 4 --batch-size 8

(msrun starts a bare `python`: put the environment's `bin` first on PATH.) Each rank trains on
its own shard of the data; `gradients_mean=True` averages the gradients with an AllReduce
after every backward pass, so all ranks keep identical weights.
"""

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Callable, Optional

import mindspore as ms
import numpy as np
from mindspore import nn
from mindspore.communication import get_group_size, get_rank, init

# The model lives beside the single-process example; mypy run from the repository root cannot
# see this sys.path entry, hence the ignore.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "cifar_resnet"))
from model import ResNet  # type: ignore[import-not-found,unused-ignore]

NUM_CLASSES = 10
IMAGE_SHAPE = (3, 32, 32)


def synthetic_shard(
    steps: int, batch_size: int, rank: int, seed: int = 0
) -> list[tuple[ms.Tensor, ms.Tensor]]:
    """This rank's batches: class templates plus noise, a different shard for every rank."""
    templates = np.random.default_rng(seed).standard_normal((NUM_CLASSES, *IMAGE_SHAPE))
    rng = np.random.default_rng(seed + 1 + rank)
    batches = []
    for _ in range(steps):
        labels = rng.integers(0, NUM_CLASSES, size=batch_size).astype(np.int32)
        noise = rng.standard_normal((batch_size, *IMAGE_SHAPE))
        images = (templates[labels] + noise).astype(np.float32)
        batches.append((ms.Tensor(images), ms.Tensor(labels)))
    return batches


def parse_args(argv: Optional[Sequence[str]] = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=4, help="training steps (default 4)")
    parser.add_argument("--batch-size", type=int, default=8, help="per-rank batch (default 8)")
    parser.add_argument("--lr", type=float, default=0.05, help="learning rate (default 0.05)")
    parser.add_argument(
        "--blocks", type=int, default=3, help="blocks per stage (3: ResNet-20, 1: ResNet-8)"
    )
    return parser.parse_args(argv)


def main(
    argv: Optional[Sequence[str]] = None, before_step: Optional[Callable[[int, int], None]] = None
) -> None:
    """`before_step(rank, step)` runs before each step (tests use it to make a rank fail)."""
    args = parse_args(argv)
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_device("CPU")
    init()  # joins the msrun cluster: one process per rank
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
    ms.set_seed(0)  # identical initial weights on every rank
    rank, size = get_rank(), get_group_size()

    net = ResNet(blocks_per_stage=args.blocks, num_classes=NUM_CLASSES)
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=args.lr, momentum=0.9)

    def forward_fn(images: ms.Tensor, labels: ms.Tensor) -> ms.Tensor:
        return loss_fn(net(images), labels)

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters)
    # Averages each gradient over the ranks (an AllReduce per fused bucket of gradients).
    reducer = nn.DistributedGradReducer(optimizer.parameters, mean=True, degree=size)

    def train_step(images: ms.Tensor, labels: ms.Tensor) -> ms.Tensor:
        loss, grads = grad_fn(images, labels)
        optimizer(reducer(grads))
        return loss

    train_step = ms.jit(train_step)  # forward, backward, AllReduce and update: one graph
    net.set_train()
    for step, (images, labels) in enumerate(synthetic_shard(args.steps, args.batch_size, rank), 1):
        if before_step is not None:
            before_step(rank, step)
        start = time.perf_counter()
        loss = train_step(images, labels).asnumpy()  # the call returns early: wait for it
        elapsed = time.perf_counter() - start
        print(
            f"rank {rank}/{size} step {step}/{args.steps} loss {loss:.4f} ({elapsed:.2f}s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
