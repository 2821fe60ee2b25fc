"""Cell containers, hooks and custom bprops in compiled code (round 34, `cl_`): each shape here
was compiled with MindSpore 2.10 and run in PyNative (`tests/graphmode/cases/round34/cl_*`)."""

from __future__ import annotations

from mindscope_ls.checker import check_source

HEAD = (
    "import numpy as np\nimport mindspore as ms\n"
    "from mindspore import Parameter, Tensor, nn, ops\n\n\n"
)
X = "Tensor(np.ones((2, 3), np.float32))"


def codes(source: str, level: str = "LAX") -> list[str]:
    return sorted(f.code for f in check_source(HEAD + source, "m.py", level=level))


SUB = (
    "class Sub(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
    '        self.w = Parameter(Tensor(np.ones((2, 3), np.float32)), name="w")\n'
    "        self.t = Tensor(np.ones((2, 3), np.float32))\n\n"
    "    def construct(self, x):\n        return x * self.w\n\n"
    "    def bprop(self, x, out, dout):\n        return ({grad},)\n\n\n"
    "class Other(nn.Cell):\n    def construct(self, x):\n        return x * x\n\n\n"
)


def bprop(grad: str, run: str) -> list[str]:
    return codes(SUB.format(grad=grad) + f"def run():\n    return {run}\n")


def test_a_bprop_reading_a_parameter_fails_once_its_cell_is_differentiated() -> None:
    assert bprop("dout * self.w", f"ms.grad(Sub())({X})") == ["MS1086"]
    assert bprop("dout * self.w.value()", f"ms.grad(Sub())({X})") == ["MS1086"]
    assert bprop("dout * self.t", f"ms.grad(Sub())({X})") == []  # a Tensor, not a Parameter
    assert bprop("dout * self.w", f"Sub()({X})") == []  # never differentiated
    # only another Cell of the module is differentiated
    assert bprop("dout * self.w", f"(Sub()({X}), ms.grad(Other())({X}))") == []


def test_a_bprop_taking_star_args() -> None:
    source = SUB.format(grad="dout").replace(
        "def bprop(self, x, out, dout):\n        return (dout,)",
        "def bprop(self, *args):\n        return (args[-1],)",
    )
    assert codes(source + f"def run():\n    return ms.grad(Sub())({X})\n") == ["MS1089"]


AB = (
    "class A(nn.Cell):\n    def construct(self, {a_params}):\n        return {a_ret}\n\n\n"
    "class B(nn.Cell):\n    def construct(self, x):\n        return {b_ret}\n\n\n"
    "class Net(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
    "        self.layers = (A(), B())\n\n"
    "    def construct(self, x, i):\n        return self.layers[i](x)\n\n\n"
    "def run():\n    return Net()(" + X + ", {index})\n"
)


def switch(a_ret: str, b_ret: str = "x * 2", a_params: str = "x", index: str = "") -> list[str]:
    index = index or "Tensor(1, ms.int32)"
    return codes(AB.format(a_ret=a_ret, b_ret=b_ret, a_params=a_params, index=index))


def test_cells_picked_by_a_tensor_must_agree() -> None:
    assert switch("(x, x + 1)") == ["MS1087"]  # a tuple against a Tensor
    assert switch("1.0") == ["MS1087"]  # a number against a Tensor
    assert switch("x + y", a_params="x, y") == ["MS1087"]  # two inputs, the call gives one
    assert switch("x + y", a_params="x, y=1.0") == []  # a default fills it
    assert switch("(x, x + 1)", b_ret="(x, x, x)") == []  # tuples of different lengths join
    assert switch("ops.sum(x)") == []  # Tensors of different ranks join
    assert switch("(x, x + 1)", index="1") == []  # a Python int picks one Cell


HOOKED = (
    "def hook(cell, {params}):\n    return {ret}\n\n\n"
    "class Net(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
    "        self.seq = nn.SequentialCell([nn.ReLU(), nn.Tanh()])\n"
    "        self.act = nn.ReLU()\n        {target}.register_forward_hook(hook{kw})\n\n"
    "    def construct(self, x):\n        return self.seq(self.act(x))\n\n\n"
    "def run():\n    return Net()(" + X + ")\n"
)


def hooked(
    target: str, params: str = "args, output", ret: str = "output + 1", kw: str = ""
) -> list[str]:
    return codes(HOOKED.format(target=target, params=params, ret=ret, kw=kw))


def test_hooks_graph_mode_skips_or_calls_without_kwargs() -> None:
    assert hooked("self.seq[0]") == ["MS394"]  # an item of a SequentialCell: not run
    assert hooked("self.seq") == []  # the container itself: run
    assert hooked("self.act") == []  # a sub-Cell attribute: run
    assert hooked("self.seq[0]", ret="None") == []  # a hook returning None changes nothing
    kwargs = ", with_kwargs=True"
    assert hooked("self.act", "args, kwargs, output", kw=kwargs) == ["MS1088"]
    assert hooked("self.act", "*args", ret="args[-1]", kw=kwargs) == []
