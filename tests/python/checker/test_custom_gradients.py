"""Round 37 (`cb_`): custom bprops, pyfunc Custom ops, gradient hooks, primitives built in
`construct` and printed Parameters. Each behaviour was measured with MindSpore 2.10 on CPU at
LAX and STRICT against PyNative (`tests/graphmode/cases/round37/cb_*`); these tests pin the
checker's answers on small variants."""

from __future__ import annotations

from mindscope_ls.checker import check_source

HEAD = (
    "import numpy as np\nimport mindspore as ms\nfrom mindspore import nn, ops, Tensor, Parameter\n"
    "from mindspore.ops import operations as P\n\nX = Tensor(np.ones(3, np.float32))\n\n\n"
)


def findings(source: str, level: str = "LAX") -> list[tuple[int, str, str]]:
    found = check_source(HEAD + source, "m.py", level=level)
    offset = HEAD.count("\n")
    return [(f.line - offset, f.code, f.severity.value) for f in found]


def codes(source: str, level: str = "LAX") -> set[str]:
    return {code for _, code, _ in findings(source, level)}


def bprop_cell(signature: str, construct: str = "x", call: str = "ms.grad(Net())(X)") -> str:
    return (
        "class Net(nn.Cell):\n"
        f"    def construct(self, {construct}):\n"
        "        return x * 2\n\n"
        f"    def bprop(self, {signature}):\n"
        "        return (dout * 3,)\n\n\n"
        f"def run():\n    return {call}\n"
    )


def test_bprop_with_an_extra_defaulted_parameter_fails_at_the_def() -> None:
    for signature in ("x, out, dout, k=1", "x, out, dout, *, k=1", "x, out, dout, **kw"):
        for level in ("LAX", "STRICT"):
            assert (5, "MS1160", "error") in findings(bprop_cell(signature), level), signature


def test_bprop_counts_that_match_are_clean() -> None:
    for signature in ("x, out, dout", "x, out=None, dout=None", "a, b, c"):
        assert "MS1160" not in codes(bprop_cell(signature))
    # `construct(self, x, y=2.0)` with a bprop naming x only: the one-input call fits
    assert "MS1160" not in codes(bprop_cell("x, out, dout", construct="x, y=2.0"))


def test_bprop_never_differentiated_is_clean() -> None:
    assert "MS1160" not in codes(bprop_cell("x, out, dout, k=1", call="Net()(X)"))


def test_bprop_body_is_compiled_code() -> None:
    source = (
        "class Net(nn.Cell):\n"
        "    def construct(self, x):\n"
        "        return x * 2\n\n"
        "    def bprop(self, x, out, dout):\n"
        "        print('bprop', dout)\n"
        "        return (dout * 3,)\n\n\n"
        "def run():\n    return ms.grad(Net())(X)\n"
    )
    assert (6, "MS3000", "warning") in findings(source)
    # not differentiated anywhere: the bprop is never compiled
    assert "MS3000" not in codes(source.replace("ms.grad(Net())(X)", "Net()(X)"))


def test_bprop_of_a_top_level_grad_is_judged_at_lax() -> None:
    source = (
        "class Net(nn.Cell):\n"
        "    def construct(self, x):\n"
        "        return x * 2\n\n"
        "    def bprop(self, x, out, dout):\n"
        "        return (Tensor(dout.asnumpy() * 3),)\n\n\n"
        "def run():\n    return ms.grad(Net())(X)\n"
    )
    assert not [f for f in findings(source, "STRICT") if f[2] == "error"]
    inner = source.replace(
        "def run():\n    return ms.grad(Net())(X)\n",
        "class Outer(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
        "        self.sub = Net()\n        self.g = ops.GradOperation()\n\n"
        "    def construct(self, x):\n        return self.g(self.sub)(x)\n\n\n"
        "def run():\n    return Outer()(X)\n",
    )
    assert (6, "MS201", "error") in findings(inner, "STRICT")


def custom_cell(body: str, init: str = "pass") -> str:
    return (
        "def dbl(a):\n    return a * 2\n\n\n"
        "class Net(nn.Cell):\n"
        f"    def __init__(self):\n        super().__init__()\n        {init}\n\n"
        f"    def construct(self, x):\n{body}\n\n\n"
        "def run():\n    return Net()(X)\n"
    )


def test_custom_op_of_a_function_compiled_code_defines() -> None:
    nested = custom_cell(
        "        def f(a):\n            return a * 2\n"
        "        return ops.Custom(f, (3,), ms.float32, 'pyfunc')(x)"
    )
    assert (13, "MS1161", "error") in findings(nested)
    lam = custom_cell(
        "        f = lambda a: a * 2\n        return ops.Custom(f, (3,), ms.float32, 'pyfunc')(x)"
    )
    assert (12, "MS1161", "error") in findings(lam, "STRICT")


def test_custom_op_of_a_module_function_or_built_in_init_is_clean() -> None:
    assert "MS1161" not in codes(
        custom_cell("        return ops.Custom(dbl, (3,), ms.float32, 'pyfunc')(x)")
    )
    built = custom_cell(
        "        return self.op(x)", init="self.op = ops.Custom(dbl, (3,), ms.float32, 'pyfunc')"
    )
    assert "MS1161" not in codes(built)


def insert_cell(fn_body: str, call: str = "ms.grad(Net())(X)") -> str:
    return (
        f"def fn(g):\n{fn_body}\n\n\n"
        "class Net(nn.Cell):\n"
        "    def __init__(self):\n        super().__init__()\n"
        "        self.ins = ops.InsertGradientOf(fn)\n\n"
        "    def construct(self, x):\n        return (self.ins(x) * 3).sum()\n\n\n"
        f"def run():\n    return {call}\n"
    )


def test_insert_gradient_function_reading_the_host() -> None:
    source = insert_cell("    return Tensor(g.asnumpy() * 2)")
    assert (2, "MS1162", "error") in findings(source)
    assert (2, "MS1162", "error") in findings(source, "STRICT")
    assert "MS1162" not in codes(insert_cell("    return g * float(g.sum())"))
    # forward only: the function is never compiled
    assert "MS1162" not in codes(insert_cell("    return Tensor(g.asnumpy())", call="Net()(X)"))


def test_insert_gradient_function_is_compiled_code() -> None:
    assert (2, "MS3000", "warning") in findings(insert_cell("    print('g', g)\n    return g"))


def test_tensor_hook_defined_in_compiled_code() -> None:
    source = (
        "class Net(nn.Cell):\n"
        "    def construct(self, x):\n"
        "        y = x * 2\n"
        "        y.register_hook(lambda g: g * 3)\n"
        "        return y.sum()\n\n\n"
        "def run():\n    return ms.grad(Net())(X)\n"
    )
    assert (4, "MS1163", "error") in findings(source)
    assert "MS1163" not in codes(source.replace("ms.grad(Net())(X)", "Net()(X)"))
    named = "def dbl(g):\n    return g * 2\n\n\n" + source.replace("lambda g: g * 3", "dbl")
    assert "MS1163" not in codes(named)


def hook_cell(hook_body: str, call: str = "ms.grad(Net())(X)") -> str:
    return (
        f"def hook(grad):\n{hook_body}\n\n\n"
        "class Net(nn.Cell):\n"
        "    def __init__(self):\n        super().__init__()\n"
        "        self.hook = ops.HookBackward(hook)\n\n"
        "    def construct(self, x):\n        return self.hook(x * 2).sum()\n\n\n"
        f"def run():\n    return {call}\n"
    )


def test_hook_backward_is_ignored_in_graph_mode() -> None:
    source = hook_cell("    return (grad[0] * 3,)")
    assert (11, "MS3050", "warning") in findings(source)
    assert (11, "MS3050", "warning") in findings(source, "STRICT")
    assert "MS3050" not in codes(hook_cell("    pass"))
    assert "MS3050" not in codes(hook_cell("    print(grad)", call="Net()(X)"))


def print_cell(body: str, decorator: str = "") -> str:
    return (
        "class Net(nn.Cell):\n"
        "    def __init__(self):\n        super().__init__()\n"
        "        self.p = Parameter(Tensor(np.zeros(3, np.float32)), name='p')\n\n"
        f"    {decorator}def construct(self, x):\n{body}\n        return x\n\n\n"
        "def run():\n    return Net()(X)\n"
    )


def test_printed_parameter_gives_its_values_in_graph_mode() -> None:
    for body in ("        print(self.p)", "        p = self.p\n        print(p)"):
        for level in ("LAX", "STRICT"):
            assert "MS3002" in codes(print_cell(body), level), (body, level)
    for body in ("        print(self.p * 1)", "        print(self.p.value())"):
        assert "MS3002" not in codes(print_cell(body)), body


def test_cast_primitive_built_in_construct_has_its_dtype() -> None:
    for cast in ("P.Cast()(x, ms.int32)", "self.cast(x, ms.int32)"):
        source = (
            "class Net(nn.Cell):\n"
            "    def __init__(self):\n        super().__init__()\n        self.cast = P.Cast()\n\n"
            f"    def construct(self, x):\n        y = {cast}\n"
            "        if x.sum() > 0:\n            y = x\n        return y\n\n\n"
            "def run():\n    return Net()(X)\n"
        )
        assert (9, "MS112", "error") in findings(source), cast
        same = source.replace("ms.int32", "ms.float32")
        assert "MS112" not in codes(same), cast


def test_bprop_naming_an_input_the_differentiating_calls_leave_out() -> None:
    source = bprop_cell("x, y, out, dout", construct="x, y=2.0")
    assert (5, "MS1160", "error") in findings(source)
    both = bprop_cell("x, y, out, dout", construct="x, y=2.0", call="ms.grad(Net())(X, X)")
    assert "MS1160" not in codes(both)
    gradop = bprop_cell(
        "x, y, out, dout", construct="x, y=2.0", call="ops.GradOperation()(Net())(X)"
    )
    assert (5, "MS1160", "error") in findings(gradop, "STRICT")
