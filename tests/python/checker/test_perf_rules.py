"""MS501-MS503 on call sites: what recompiles is reported, the near misses are not.

Every near miss mirrors a run measured with MindSpore 2.10.0 (docs/rules/MS50x.md): a constant,
a bool flag, `mutable(...)`, a Tensor, a tuple built once, `*batch`, or a Cell in PyNative mode
compiled one graph (or one per flag value), so nothing is reported for them.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from mindscope_ls.checker import Severity, check_source

from .harness import apply_fix

HEADER = """\
import numpy as np
import mindspore as ms
import mindspore.dataset as ds
from mindspore import Tensor, nn, ops

ms.set_context(mode=ms.GRAPH_MODE)


class Net(nn.Cell):
    def construct(self, x, k=1, pair=None):
        return x * k


@ms.jit
def step_fn(x, k):
    return x * k


def double(x):
    return x * 2

"""


def _findings(body: str, header: str = HEADER) -> list[tuple[int, str, str]]:
    """(line relative to the body, code, reported text) for the MS5xx findings of `body`."""
    source = header + textwrap.dedent(body)
    lines = source.splitlines()
    found = []
    for f in check_source(source, "train.py"):
        if f.code.startswith("MS5"):
            assert f.severity is Severity.INFORMATION
            text = lines[f.line - 1][f.col : f.end_col] if f.line == f.end_line else ""
            found.append((f.line - header.count("\n"), f.code, text))
    return found


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (  # a loop counter passed to a Cell in GRAPH_MODE
            """\
            net = Net()
            x = Tensor(np.ones(3, np.float32))
            for step in range(10):
                net(x, step)
            """,
            [(4, "MS501", "step")],
        ),
        (  # a decayed learning rate, through a keyword, into a jit function
            """\
            def train(x):
                lr = 0.1
                for epoch in range(10):
                    step_fn(x, k=lr)
                    lr = lr * 0.9
            """,
            [(4, "MS501", "lr")],
        ),
        (  # a while counter, an expression of it, float() of it
            """\
            def train(x):
                net = Net()
                step = 0
                while step < 10:
                    net(x, step * 0.5)
                    step_fn(x, float(step))
                    step += 1
            """,
            [(5, "MS501", "step * 0.5"), (6, "MS501", "float(step)")],
        ),
        (  # the index of enumerate, and a changing number inside a tuple
            """\
            def train(x, batches):
                net = Net()
                for i, batch in enumerate(batches):
                    net(x, 1, (i, 3))
            """,
            [(4, "MS501", "i")],
        ),
        (  # the outer loop's counter reaches the inner loop's call
            """\
            def train(x, batches):
                for epoch in range(5):
                    for batch in batches:
                        step_fn(x, epoch)
            """,
            [(4, "MS501", "epoch")],
        ),
        (  # a trainer holding a jit method and a Cell built in __init__
            """\
            class Trainer:
                def __init__(self):
                    model = Net()
                    optimizer = nn.Momentum(model.trainable_params(), 0.1, 0.9)
                    self.net = nn.TrainOneStepCell(model, optimizer)

                @ms.jit
                def step(self, x, k):
                    return x * k

                def fit(self, x):
                    for i in range(3):
                        self.step(x, i)
                        self.net(x, i)
            """,
            [(13, "MS501", "i"), (14, "MS501", "i")],
        ),
    ],
)
def test_changing_numbers_are_reported(body: str, expected: list[tuple[int, str, str]]) -> None:
    assert _findings(body) == expected


@pytest.mark.parametrize(
    "body",
    [
        # constant values, bools, mutable and Tensor arguments: one graph (or one per flag)
        """\
        net = Net()
        x = Tensor(np.ones(3, np.float32))
        lr = 0.1
        for step in range(10):
            k = 2
            net(x, 0.5)
            net(x, lr)
            net(x, k)
            net(x, step % 2 == 0)
            net(x, ms.mutable(step))
            net(x, Tensor(step, ms.float32))
            net(x, (3, 4))
        """,
        # the value changed in an earlier loop, not between these calls
        """\
        def train(x):
            for i in range(3):
                pass
            for _ in range(10):
                step_fn(x, i)
        """,
        # no loop: one call, one compile
        """\
        def once(x, lr):
            return step_fn(x, lr * 2)
        """,
        # a short list of settings compiles one graph each, which is the point
        """\
        def sweep(x):
            for scale in [0.5, 1.0, 2.0]:
                step_fn(x, scale)
        """,
        # `range` shadowed: not the builtin
        """\
        def range(n):
            return [1.0] * n

        def train(x):
            for k in range(3):
                step_fn(x, k)
        """,
        # inside construct the loop is unrolled into the one graph
        """\
        class Deep(nn.Cell):
            def __init__(self):
                super().__init__()
                self.block = Net()

            def construct(self, x):
                for i in range(3):
                    x = self.block(x, i)
                return x
        """,
        # a class that may be a Cell (its base comes from elsewhere): its loops run compiled,
        # or over a fixed set of groups whose graphs are cached after the first step
        """\
        from mindspore.experimental.optim import Optimizer

        class SGD(Optimizer):
            @ms.jit
            def implementation(self, lr, group_id):
                return lr

            def step(self, grads):
                for group_id, group in enumerate(self.param_groups):
                    self.implementation(1.0, group_id)
        """,
        # an unknown callee (a parameter) is not assumed to compile
        """\
        def train(model, x):
            for i in range(3):
                model(x, i)
        """,
    ],
)
def test_numbers_that_do_not_recompile_are_not_reported(body: str) -> None:
    assert _findings(body) == []


def test_cells_compile_only_in_graph_mode() -> None:
    """MindSpore's default mode is PyNative, where calling a Cell compiles nothing."""
    pynative = HEADER.replace("ms.set_context(mode=ms.GRAPH_MODE)\n", "")
    body = """\
    net = Net()
    for step in range(10):
        net(1.0, step)
        step_fn(1.0, step)
    """
    assert _findings(body, pynative) == [(4, "MS501", "step")]
    assert _findings(body, HEADER.replace("mode=ms.GRAPH_MODE", "mode=0")) == [
        (3, "MS501", "step"),
        (4, "MS501", "step"),
    ]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            """\
            def steps(x):
                for _ in range(3):
                    x = ms.jit(double)(x)
                    x = Net()(x)
            """,
            [(3, "MS502", "ms.jit(double)"), (4, "MS502", "Net()")],
        ),
        (
            """\
            def steps(x):
                for _ in range(3):
                    net = Net()
                    x = net(x)

                    @ms.jit
                    def triple(v):
                        return v * 3

                    x = triple(x)
            """,
            [(3, "MS502", "Net()"), (6, "MS502", "ms.jit")],
        ),
        (  # a nested jit function rebuilt on every call of a function a loop calls
            """\
            def train_step(x):
                @ms.jit
                def forward(v):
                    return v * 2

                return forward(x)


            def train(x):
                for _ in range(3):
                    train_step(x)
            """,
            [(2, "MS502", "ms.jit")],
        ),
    ],
)
def test_compiled_objects_rebuilt_per_call_are_reported(
    body: str, expected: list[tuple[int, str, str]]
) -> None:
    assert _findings(body) == expected


@pytest.mark.parametrize(
    "body",
    [
        # created once, called in the loop
        """\
        def steps(x):
            fast = ms.jit(double)
            net = Net()
            for _ in range(3):
                x = fast(net(x))
        """,
        # a different model per iteration on purpose
        """\
        def sweep(x):
            for width in range(1, 4):
                Net(width)(x)
        """,
        # Cells built in a loop but not called there (building layers)
        """\
        def build():
            layers = []
            for _ in range(3):
                layers.append(Net())
            return nn.SequentialCell(layers)
        """,
        # nested jit functions closing over this iteration's model, or the caller's argument
        """\
        def evaluate(models, x):
            for model in models:
                @ms.jit
                def forward(v):
                    return model(v)

                forward(x)


        def train_step(net, x):
            @ms.jit
            def forward(v):
                return net(v)

            return forward(x)


        def train(net, x):
            for _ in range(3):
                train_step(net, x)
        """,
        # a nested jit function in a function that no loop calls
        """\
        def main(x):
            @ms.jit
            def forward(v):
                return v * 2

            return forward(x)
        """,
    ],
)
def test_compiled_objects_built_once_are_not_reported(body: str) -> None:
    assert _findings(body) == []


def test_graph_mode_set_by_number_in_a_file_without_jit() -> None:
    source = textwrap.dedent(
        """\
        import mindspore as ms
        from mindspore import nn

        ms.set_context(mode=0)


        class Net(nn.Cell):
            def construct(self, x, k):
                return x * k


        net = Net()
        for step in range(3):
            net(1.0, step)
        """
    )
    assert [(f.line, f.code) for f in check_source(source, "g.py")] == [(14, "MS501")]


def test_new_cells_in_pynative_are_not_reported() -> None:
    pynative = HEADER.replace("ms.set_context(mode=ms.GRAPH_MODE)\n", "")
    assert _findings("for _ in range(3):\n    Net()(1.0)\n", pynative) == []


def test_a_jit_construct_compiles_in_pynative_too() -> None:
    """Measured: a Cell whose `construct` is `@jit` compiled per new value and per new instance
    in PYNATIVE_MODE."""
    pynative = HEADER.replace("ms.set_context(mode=ms.GRAPH_MODE)\n", "")
    body = """\
    class Fast(nn.Cell):
        @ms.jit
        def construct(self, x, k):
            return x * k


    fast = Fast()
    for step in range(3):
        fast(1.0, step)
        Fast()(1.0, 2)
    """
    assert _findings(body, pynative) == [(9, "MS501", "step"), (10, "MS502", "Fast()")]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            """\
            def evaluate(dataset):
                net = Net()
                for batch in dataset.create_tuple_iterator():
                    net(batch)
                loader = dataset.create_dict_iterator()
                for batch in loader:
                    step_fn(batch, 2)
            """,
            [(4, "MS503", "batch"), (7, "MS503", "batch")],
        ),
        (
            """\
            def evaluate(dataset):
                net = Net()
                for x, y in dataset.create_tuple_iterator():
                    net(x, 1, [x, y])
                for batch in dataset.create_dict_iterator():
                    net(batch["x"], 1, {"y": batch["y"]})
                for _ in range(3):
                    net(1.0, 1, (Tensor(1.0), ops.ones(3)))
            """,
            [
                (4, "MS503", "[x, y]"),
                (6, "MS503", '{"y": batch["y"]}'),
                (8, "MS503", "(Tensor(1.0), ops.ones(3))"),
            ],
        ),
    ],
)
def test_new_containers_of_tensors_are_reported(
    body: str, expected: list[tuple[int, str, str]]
) -> None:
    assert _findings(body) == expected


@pytest.mark.parametrize(
    "body",
    [
        # unpacked, mutable, or one container reused: one graph
        """\
        def evaluate(dataset, a, b):
            net = Net()
            pair = (Tensor(1.0), Tensor(2.0))
            for batch in dataset.create_tuple_iterator():
                net(*batch)
                net(ms.mutable(batch))
                net(1.0, 1, pair)
            for batch in dataset.create_dict_iterator():
                net(**batch)
                net(batch["x"])
        """,
        # elements not known to be Tensors, and a call outside any loop
        """\
        def evaluate(a, b):
            net = Net()
            for _ in range(3):
                net(1.0, 1, [a, b])
            return net(1.0, 1, (Tensor(1.0), Tensor(2.0)))
        """,
    ],
)
def test_containers_that_compile_once_are_not_reported(body: str) -> None:
    assert _findings(body) == []


def test_messages_name_the_fix_and_the_loop() -> None:
    source = HEADER + textwrap.dedent(
        """\
        def evaluate(dataset):
            for batch in dataset.create_dict_iterator():
                step_fn(batch, 2)
        """
    )
    (finding,) = [f for f in check_source(source, "train.py") if f.code == "MS503"]
    assert "`**batch`" in finding.message and "`create_dict_iterator`" in finding.message
    (related,) = finding.related
    assert related.range.line == finding.line - 1
    assert finding.doc == "docs/rules/MS503.md"


def test_quick_fix_wraps_the_argument_with_mutable() -> None:
    source = HEADER + "for step in range(3):\n    step_fn(1.0, step)\n"
    (finding,) = [f for f in check_source(source, "train.py") if f.code == "MS501"]
    assert finding.fix is not None
    assert apply_fix(source, finding.fix).endswith("step_fn(1.0, ms.mutable(step))\n")
    loop = "\n\n@jit\ndef f(x, k):\n    return x * k\n\n\nfor i in range(3):\n    f(1.0, i)\n"
    (named,) = check_source("from mindspore import jit, mutable" + loop, "a.py")
    assert named.fix is not None and named.fix.edits[0].new_text == "mutable(i)"
    (bare,) = check_source("from mindspore import jit" + loop, "b.py")
    assert bare.code == "MS501" and bare.fix is None  # no name to spell `mutable` with


ODD = """\
import mindspore as ms
from mindspore import jit, mutable, nn

ms.set_context(mode=0)
step_fn = jit(lambda x, k: x * k)
net = nn.Dense(3, 3)


async def feed(source):
    async for item in source:
        step_fn(item, 1)


def shapes(batches, obj):
    for (a, b), *rest in batches:
        net(a, b)
    for obj.attr in range(3):
        net(obj.attr)
    while (n := len(batches)) > 0:
        net(n)
        batches = batches[1:]
    for i in range(3):
        try:
            net(i)
        except ValueError:
            net(i + 1)
        match i:
            case 0:
                net(i)
        with open("f") as (fa, fb):
            net(fa)
        global G
        G = i
        net(G)
        lr = lambda: i  # noqa: E731
        net(lr())
        net(*[i], **{"k": i})
"""


def test_odd_code_never_breaks_the_rules() -> None:
    """The MS5xx rules are called directly here: the engine would hide an exception."""
    from mindscope_ls.checker.index.module import ModuleInfo
    from mindscope_ls.checker.rules import rebuild, recompile

    from .harness import case_files

    sources = [ODD, *(p.read_text() for p in case_files())]
    corpus = Path(__file__).resolve().parents[2] / "graphmode" / "cases"
    sources += [p.read_text() for p in sorted(corpus.glob("*.pycase"))]
    for source in sources:
        module = ModuleInfo.build("odd.py", source)
        list(recompile.check_module(module))
        list(rebuild.check_module(module))
    found = [(f.line, f.code) for f in check_source(ODD, "odd.py") if f.code.startswith("MS5")]
    # `net(i)` in `try`, `except` and `case`, and `G` rebound from `i` in the loop
    assert found == [(24, "MS501"), (26, "MS501"), (29, "MS501"), (34, "MS501")]


def test_long_chains_of_names_stay_linear() -> None:
    """`a1 = a0 + a0`, `a2 = a1 + a1`, ...: each name is resolved once, not 2**60 times."""
    chain = "".join(f"    a{k} = a{k - 1} + a{k - 1}\n" for k in range(1, 60))
    body = "for i in range(3):\n    a0 = i\n" + chain + "    step_fn(1.0, a59)\n"
    assert _findings(body) == [(62, "MS501", "a59")]
