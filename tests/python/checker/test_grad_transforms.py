"""Automatic differentiation in compiled code (`rules/grad_transforms.py`): each shape here was
compiled with MindSpore 2.10 and run in PyNative (`tests/graphmode/cases/round33/gr_*`)."""

from __future__ import annotations

from mindscope_ls.checker import check_source

HEAD = (
    "import numpy as np\nimport mindspore as ms\n"
    "from mindspore import Parameter, ParameterTuple, Tensor, nn, ops\n\n\n"
)
RUN = "\n\ndef run():\n    return Net()(Tensor(np.ones((2, 3), np.float32)))\n"


def codes(source: str, level: str = "LAX") -> list[str]:
    return sorted(f.code for f in check_source(HEAD + source + RUN, "m.py", level=level))


INNER = (
    "class Inner(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
    '        self.w = Parameter(Tensor(np.ones(3, np.float32)), name="w"{frozen})\n\n'
    "    def construct(self, x):\n        return (x * self.w).sum()\n\n\n"
)


def holder(grad: str, call: str, frozen: str = "") -> str:
    return (
        INNER.format(frozen=frozen)
        + "class Net(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
        + f"        self.inner = Inner()\n        self.grad = {grad}\n"
        + "        self.weights = ParameterTuple((self.inner.w,))\n\n"
        + f"    def construct(self, x):\n        return {call}\n"
    )


def test_a_by_list_grad_operation_needs_the_weights() -> None:
    by_list = "ops.GradOperation(get_by_list=True)"
    assert codes(holder(by_list, "self.grad(self.inner)(x)")) == ["MS1057"]
    assert codes(holder("ops.GradOperation(False, True)", "self.grad(self.inner)(x)")) == ["MS1057"]
    assert codes(holder(by_list, "self.grad(self.inner, self.weights)(x)")) == []
    assert codes(holder("ops.GradOperation()", "self.grad(self.inner)(x)")) == []


def test_the_function_a_grad_operation_returns_is_callable() -> None:
    source = holder("ops.GradOperation()", "gfn(x)").replace(
        "        return gfn(x)", "        gfn = self.grad(self.inner)\n        return gfn(x)"
    )
    assert codes(source) == []  # it was MS156 ("`gfn` is a tensor")


def test_frozen_weights_diverge_only_when_frozen() -> None:
    call = "self.grad(self.inner, self.weights)(x)"
    by_list = "ops.GradOperation(get_by_list=True)"
    assert codes(holder(by_list, call, ", requires_grad=False")) == ["MS376"]
    assert codes(holder(by_list, call)) == []


def fn_grad(params: str, call: str) -> str:
    return (
        f"def f({params}):\n    return (x * 2).sum()\n\n\n"
        f"class Net(nn.Cell):\n    def construct(self, x):\n        return {call}\n"
    )


def test_defaults_left_out_of_a_transformed_call() -> None:
    assert codes(fn_grad("x, scale=2.0", "ms.grad(f)(x)")) == ["MS1059"]
    assert codes(fn_grad("x, **kw", "ops.grad(f)(x)")) == ["MS1059"]
    assert codes(fn_grad("x, scale=2.0", "ms.vmap(f)(x)")) == ["MS1059"]
    assert codes(fn_grad("x, scale=2.0", "ms.grad(f)(x, scale=3.0)")) == []
    assert codes(fn_grad("*xs", "ms.grad(f)(x)").replace("(x * 2)", "(xs[0] * 2)")) == []
    assert codes(fn_grad("x, scale=2.0", "ops.jacrev(f)(x)")) == []
    assert codes(fn_grad("x, scale=2.0", "ops.GradOperation()(f)(x)")) == []


def test_the_same_tensor_twice_or_a_container() -> None:
    two = "def f(a, b):\n    return (a * b).sum()\n\n\nclass Net(nn.Cell):\n"
    two += "    def construct(self, x):\n        return {}\n"
    assert codes(two.format("ms.grad(f)(x, x)")) == ["MS377"]
    assert codes(two.format("ms.grad(f, grad_position=1)((x, x), x * 2)")) == []
    assert codes(two.format("ms.grad(f)((x, x), x * 2)")) == ["MS377"]
    assert codes(two.format("ms.grad(f)(x, x * 2)")) == []


def test_a_bprop_returning_one_tensor() -> None:
    cell = (
        "class Net(nn.Cell):\n    def construct(self, x):\n        return x * 2\n\n"
        "    def bprop(self, x, out, dout):\n        return {}\n\n\n"
        "def grads(x):\n    return ops.grad(Net())(x)\n"
    )
    assert codes(cell.format("dout * 5")) == ["MS1058"]
    assert codes(cell.format("[dout]")) == ["MS1058"]
    assert codes(cell.format("(dout * 5,)")) == []
    assert codes(cell.format("dout * 5,")) == []
    forward_only = cell.format("dout * 5").replace("ops.grad(Net())(x)", "Net()(x)")
    assert codes(forward_only) == []


def test_a_python_number_as_sens() -> None:
    sens = "ops.GradOperation(sens_param=True)"
    assert codes(holder(sens, "self.grad(self.inner)(x, 1.0)")) == ["MS1057"]
    assert codes(holder(sens, "self.grad(self.inner)(x, 1)")) == ["MS1057"]
    assert codes(holder(sens, "self.grad(self.inner)(x, Tensor(1.0, ms.float32))")) == []
    assert codes(holder("ops.GradOperation()", "self.grad(self.inner)(x, 1.0)")) == []


def test_more_forms_of_left_out_defaults() -> None:
    loop = (
        "def f1(x):\n    return (x * x).sum()\n\n\ndef f2(x, s=3.0):\n    return (x * s).sum()"
        "\n\n\nclass Net(nn.Cell):\n    def construct(self, x):\n        out = ()\n"
        "        for fn in ({}):\n            out = out + (ms.grad(fn)(x),)\n        return out\n"
    )
    assert codes(loop.format("f1, f2")) == ["MS1059"]
    assert codes(loop.format("f1, f1")) == []
    star = fn_grad("*xs", "ms.grad(f)(*args)").replace("(x * 2)", "(xs[0] * 2)")
    star = star.replace("        return", "        args = (x, x)\n        return")
    assert codes(star) == ["MS1059"]
    assert codes(star.replace("args = (x, x)", "args = (x,)")) == []


def test_jvp_through_a_while_on_a_tensor() -> None:
    jvp = (
        "def f(x):\n{}    return x\n\n\nclass Net(nn.Cell):\n    def construct(self, x):\n"
        "        return ops.jvp(f, x, ops.ones_like(x))\n"
    )
    assert codes(jvp.format("    while x.sum() < 20:\n        x = x * 2\n")) == ["MS1059"]
    counter = "    i = 0\n    while i < 3:\n        x = x * 2\n        i += 1\n"
    assert codes(jvp.format(counter)) == []
    assert codes(jvp.format("    if x.sum() > 0:\n        x = x * 2\n")) == []


def test_a_repeated_tensor_only_when_both_parameters_are_read() -> None:
    unused = "def f(a, b):\n    return a.sum()\n\n\nclass Net(nn.Cell):\n"
    unused += "    def construct(self, x):\n        return ms.grad(f)(x, x)\n"
    assert codes(unused) == []  # PyNative's sum adds nothing: b is not read
    kw = unused.replace("a.sum()", "(a * b).sum()").replace("(x, x)", "(x, b=x)")
    assert codes(kw) == ["MS377"]


def test_sens_forms_and_mutable_inputs() -> None:
    pair = (
        "class Inner(nn.Cell):\n    def construct(self, x, y):\n        return x * 2, y * 3\n\n\n"
        "class Net(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
        "        self.inner = Inner()\n        self.grad = ops.GradOperation({})\n\n"
        "    def construct(self, x):\n        return self.grad(self.inner)(x, x + 1{})\n"
    )
    sens = "get_all=True, sens_param=True"
    tup = ", (ops.ones_like(x), ops.ones_like(x))"
    assert codes(pair.format(sens, tup)) == []  # the sens is no differentiated input
    assert codes(pair.format(sens, tup.replace("(ops", "[ops").replace("x))", "x)]"))) == ["MS1057"]
    one = pair.replace("self.grad(self.inner)(x, x + 1{})", "self.grad(self.inner)({})")
    one = one.replace(
        "def construct(self, x, y):\n        return x * 2, y * 3",
        "def construct(self, xs):\n        return xs[0] * xs[1]",
    )
    assert codes(one.format("", "ms.mutable([x, x * 2])")) == ["MS377"]
    assert codes(one.format("", "[x, x * 2]")) == ["MS377"]
