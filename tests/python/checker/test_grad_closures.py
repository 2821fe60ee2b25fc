"""What a function differentiated in compiled code reads besides its inputs
(`rules/grad_closures.py`), and `ops.stop_gradient` / `ops.depend` passing non-Tensors through:
each shape here was compiled with MindSpore 2.10 and run in PyNative
(`tests/graphmode/cases/round35/gd_*`)."""

from __future__ import annotations

from mindscope_ls.checker import check_source

HEAD = "import numpy as np\nimport mindspore as ms\nfrom mindspore import Tensor, nn, ops\n\n\n"
RUN = "\n\ndef run():\n    return Net()(Tensor(np.ones((2, 3), np.float32)))\n"


def found(source: str, level: str = "LAX") -> list[tuple[str, int]]:
    """(code, line in `source`) of each finding, lines counted from the source's first line."""
    offset = HEAD.count("\n")
    return sorted(
        (f.code, f.range.line - offset)
        for f in check_source(HEAD + source + RUN, "m.py", level=level)
    )


def net(body: str, extra: str = "") -> str:
    lines = "".join(f"        {line}\n" for line in body.strip().splitlines())
    return extra + "class Net(nn.Cell):\n    def construct(self, x):\n" + lines


# --- MS1091 ---------------------------------------------------------------------------


def test_vjp_and_jvp_of_a_closure_over_a_graph_value_fail() -> None:
    vjp = "out, fn = ms.vjp(f, x)\nreturn fn(ops.ones_like(out))"
    assert found(net("def f(t):\n    return t * x\n" + vjp)) == [("MS1091", 5)]
    assert found(net("w = x * 2\ndef f(t):\n    return t * w\n" + vjp)) == [("MS1091", 6)]
    lam = "out, fn = ops.vjp(lambda t: t * x, x)\nreturn fn(ops.ones_like(out))"
    assert found(net(lam)) == [("MS1091", 3)]
    jvp = "def f(t):\n    return t * x\nreturn ms.jvp(f, x, ops.ones_like(x))"
    assert found(net(jvp), "STRICT") == [("MS1091", 5)]


def test_vjp_of_a_function_reading_only_its_parameters_is_clean() -> None:
    vjp = "out, fn = ms.vjp(f, x)\nreturn fn(ops.ones_like(out))"
    assert found(net("def f(t):\n    return t * t\n" + vjp)) == []
    module_fn = "def f(t):\n    return t * 2.0\n\n\n"
    assert found(net(vjp, module_fn)) == []
    # ms.grad of the same closure compiles (MS395 is about what it computes)
    assert found(net("w = x * 2\ndef f(t):\n    return (t * w).sum()\nreturn ms.grad(f)(x)")) == []


# --- MS395 ----------------------------------------------------------------------------


def test_grad_of_a_closure_reading_the_differentiated_tensor_diverges() -> None:
    body = "def f(t):\n    return (t * x).sum()\nreturn {}"
    assert found(net(body.format("ms.grad(f)(x)"))) == [("MS395", 5)]
    assert found(net(body.format("ms.value_and_grad(f)(x)"))) == [("MS395", 5)]
    assert found(net(body.format("ops.GradOperation()(f)(x)")), "STRICT") == [("MS395", 5)]
    alias = "y = x\ndef f(t):\n    return (t * y).sum()\nreturn ms.grad(f)(x)"
    assert found(net(alias)) == [("MS395", 6)]
    assert found(net("return ms.grad(lambda t: (t * x).sum())(x)")) == [("MS395", 3)]
    second = "y = x + 1\ndef f(a, b):\n    return (a * b * x).sum()\nreturn ms.grad(f, 1)(y, x)"
    assert found(net(second)) == [("MS395", 6)]


def test_grad_closure_look_alikes_are_clean() -> None:
    # another Tensor, a position not differentiated, a parameter read, an @ms.jit function
    other = "w = x * 2\ndef f(t):\n    return (t * w).sum()\nreturn ms.grad(f)(x)"
    assert found(net(other)) == []
    nondiff = "y = x + 1\ndef f(a, b):\n    return (a * b * x).sum()\nreturn ms.grad(f, 0)(y, x)"
    assert found(net(nondiff)) == []
    assert found(net("return ms.grad(lambda t: (t * t).sum())(x)")) == []
    jit = (
        "@ms.jit\ndef step(x):\n    def f(t):\n        return (t * x).sum()\n"
        "    return ms.grad(f)(x)\n\n\nclass Net(nn.Cell):\n    def construct(self, x):\n"
        "        return step(x)\n"
    )
    assert found(jit) == []
    rebound = "def f(t):\n    return (t * x).sum()\nx = x * 2\nreturn ms.grad(f)(x)"
    assert found(net(rebound)) == []


# --- MS396 ----------------------------------------------------------------------------

SCALED = (
    "def loss(x):\n    s = float(np.abs(x.asnumpy()).max())\n    return (x * x / s).sum()\n\n\n"
)


def test_a_loss_through_asnumpy_has_zero_gradients_at_lax() -> None:
    assert found(net("return ms.grad(loss)(x)", SCALED)) == [("MS201", 2), ("MS396", 8)]
    inline = "def loss(x):\n    return (x * float(x.asnumpy().sum())).sum()\n\n\n"
    assert found(net("return ms.value_and_grad(loss)(x)", inline)) == [
        ("MS201", 2),
        ("MS396", 7),
    ]
    # STRICT refuses asnumpy itself: MS201, no warning
    assert found(net("return ms.grad(loss)(x)", SCALED), "STRICT") == [("MS201", 2)]


def test_asnumpy_look_alikes_are_clean() -> None:
    unused = "def loss(x):\n    v = x.asnumpy()\n    return (x * x).sum()\n\n\n"
    assert found(net("return ms.grad(loss)(x)", unused)) == [("MS201", 2)]
    assert found(net("return loss(x)", SCALED)) == [("MS201", 2)]
    tensor_ops = (
        "def loss(x):\n    s = ops.stop_gradient(x.abs().max())\n    return (x / s).sum()\n\n\n"
    )
    assert found(net("return ms.grad(loss)(x)", tensor_ops)) == []


def test_a_grad_function_made_in_init_is_followed() -> None:
    source = (
        "class Net(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
        "        self.gf = ms.value_and_grad(self.loss)\n\n"
        "    def loss(self, x):\n        m = x.asnumpy().mean()\n"
        "        return ((x - m) ** 2).sum()\n\n"
        "    def construct(self, x):\n        return self.gf(x)\n"
    )
    assert found(source) == [("MS396", 11)]  # `self.loss` is not discovered (no MS201)


# --- ops.stop_gradient / ops.depend ---------------------------------------------------


def test_stop_gradient_and_depend_pass_non_tensors_through() -> None:
    shape = "s = ops.{}\nreturn x.reshape(s[1], s[0])"
    assert found(net(shape.format("stop_gradient(x.shape)"))) == []
    assert found(net(shape.format("depend(x.shape, x)"))) == []
    counted = "n = ops.stop_gradient(3)\nfor _ in range(n):\n    x = x + 1\nreturn x"
    assert found(net(counted)) == []
    # of a Tensor it is still a Tensor: `range()` of it fails (MS123)
    tensor = "n = ops.stop_gradient(x.sum())\nfor _ in range(n):\n    x = x + 1\nreturn x"
    assert [c for c, _ in found(net(tensor))] == ["MS123"]


# --- MS155: `.name` of a Parameter taken from a ParameterTuple ----------------------------

HOLDER = (
    "class Net(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
    '        self.w = ms.Parameter(Tensor(np.ones(3, np.float32)), name="w")\n'
    "        self.weights = ms.ParameterTuple([self.w])\n\n"
    "    def construct(self, x):\n        grads = ms.grad(self.loss, None, self.weights)(x)\n"
    "        return {}\n\n"
    "    def loss(self, x):\n        return (x * self.w).sum()\n"
)


def test_the_name_of_a_parameter_looped_from_a_parameter_tuple_fails() -> None:
    by_name = "{w.name: g for w, g in zip(self.weights, grads)}"
    assert found(HOLDER.format(by_name)) == [("MS155", 9)]
    assert found(HOLDER.format("[p.name for p in self.weights]"), "STRICT") == [("MS155", 9)]
    # other members of the same Parameters compile
    assert found(HOLDER.format("[g * w.shape[0] for w, g in zip(self.weights, grads)]")) == []
