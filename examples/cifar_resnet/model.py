import mindspore as ms
from mindspore import nn, ops

# A ResNet-20 for 32x32 images (He et al., 2016, section 4.2): three stages of three
# BasicBlocks with 16/32/64 channels. Small enough that a GRAPH_MODE compile on CPU takes
# seconds, yet deep enough that the Cell scope tree (layer1/0/conv1-Conv2d ...) is realistic.
#
# mindspore ships no type information, so mypy sees nn.Cell as Any; allow subclassing it.
# mypy: allow-subclassing-any


def conv3x3(in_channels: int, out_channels: int, stride: int = 1) -> nn.Conv2d:
    """3x3 convolution with "same" padding; the bias is redundant before BatchNorm."""
    return nn.Conv2d(
        in_channels, out_channels, 3, stride=stride, pad_mode="pad", padding=1, has_bias=False
    )


class BasicBlock(nn.Cell):
    """conv-bn-relu, conv-bn, plus the (possibly projected) input, then relu."""

    def __init__(self, in_channels: int, out_channels: int, stride: int = 1) -> None:
        super().__init__()
        self.conv1 = conv3x3(in_channels, out_channels, stride)
        self.bn1 = nn.BatchNorm2d(out_channels)
        self.conv2 = conv3x3(out_channels, out_channels)
        self.bn2 = nn.BatchNorm2d(out_channels)
        self.relu = nn.ReLU()
        # A 1x1 projection only when the residual cannot be added as is (option B of the
        # paper); otherwise None, which graph mode folds away as a constant at compile time.
        self.shortcut: nn.Cell | None = None
        if stride != 1 or in_channels != out_channels:
            self.shortcut = nn.SequentialCell(
                nn.Conv2d(in_channels, out_channels, 1, stride=stride, has_bias=False),
                nn.BatchNorm2d(out_channels),
            )

    def construct(self, x: ms.Tensor) -> ms.Tensor:
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        if self.shortcut is not None:
            identity = self.shortcut(x)
        return self.relu(out + identity)


class ResNet(nn.Cell):
    """Stem, three stages that halve the resolution and double the width, pool, classifier."""

    def __init__(self, blocks_per_stage: int = 3, num_classes: int = 10, width: int = 16) -> None:
        super().__init__()
        self.conv1 = conv3x3(3, width)
        self.bn1 = nn.BatchNorm2d(width)
        self.relu = nn.ReLU()
        self.layer1 = self._make_stage(width, width, blocks_per_stage, stride=1)
        self.layer2 = self._make_stage(width, width * 2, blocks_per_stage, stride=2)
        self.layer3 = self._make_stage(width * 2, width * 4, blocks_per_stage, stride=2)
        # keep_dims=False turns (N, C, 1, 1) into (N, C): no Flatten needed before the head.
        self.mean = ops.ReduceMean(keep_dims=False)
        self.fc = nn.Dense(width * 4, num_classes)

    @staticmethod
    def _make_stage(
        in_channels: int, out_channels: int, blocks: int, stride: int
    ) -> nn.SequentialCell:
        # Only the first block of a stage changes the shape; the rest keep it.
        layers = [BasicBlock(in_channels, out_channels, stride)]
        layers += [BasicBlock(out_channels, out_channels) for _ in range(blocks - 1)]
        return nn.SequentialCell(layers)

    def construct(self, x: ms.Tensor) -> ms.Tensor:
        x = self.relu(self.bn1(self.conv1(x)))
        x = self.layer1(x)
        x = self.layer2(x)
        x = self.layer3(x)
        x = self.mean(x, (2, 3))  # global average pool over H and W
        return self.fc(x)


def resnet20(num_classes: int = 10) -> ResNet:
    """ResNet-20: 1 stem conv + 3 stages x 3 blocks x 2 convs + 1 dense layer."""
    return ResNet(blocks_per_stage=3, num_classes=num_classes)


def make_inputs(batch_size: int = 2) -> tuple[ms.Tensor]:
    """One CIFAR-10-shaped batch (N, 3, 32, 32) of float32, the arguments of ResNet.construct."""
    # numpy with a fixed seed, so every call returns the same batch (ops.randn with seed=0
    # draws a fresh random seed, and even a fixed seed gives new values on every call).
    import numpy as np  # local: keeps the MindSpore imports the first lines of the file

    rng = np.random.default_rng(0)
    images = rng.standard_normal((batch_size, 3, 32, 32)).astype(np.float32)
    return (ms.Tensor(images),)
