"""Functional transforms inside compiled code (round 37, `fx_`): gradients of weights written as
a list (`rules/grad_list_results.py`: MS1150, MS3040), LAX zero gradients through list methods
(MS3041), and the widened MS311 (in-place methods in a nested function differentiated by
`ms.grad`, `GradOperation`, `ms.vjp`) and MS377 (a lambda bound once). Each shape was compiled
with MindSpore 2.10 and run in PyNative (`tests/graphmode/cases/round37/fx_*`)."""

from __future__ import annotations

from mindscope_ls.checker import check_source

HEAD = (
    "import numpy as np\nimport mindspore as ms\n"
    "from mindspore import Parameter, Tensor, nn, ops\n\n\n"
)
RUN = "\n\ndef run():\n    return Net()(Tensor(np.ones((3,), np.float32)))\n"
INIT = (
    "    def __init__(self):\n        super().__init__()\n"
    "        self.w = Parameter(Tensor(np.ones(3, np.float32)), name='w')\n"
    "        self.b = Parameter(Tensor(np.ones(3, np.float32)), name='b')\n\n"
    "    def loss(self, t):\n        return (t * self.w + self.b).sum()\n\n"
)


def found(source: str, level: str = "LAX") -> list[tuple[str, int]]:
    """(code, line in `source`) of each finding, lines counted from the source's first line."""
    offset = HEAD.count("\n")
    return sorted(
        (f.code, f.range.line - offset)
        for f in check_source(HEAD + source + RUN, "m.py", level=level)
    )


def net(body: str, extra: str = "", methods: str = "") -> str:
    """`Net` (a Parameter `w` and `b`, a method `loss`) whose `construct` holds `body`: its
    first line is line 11 of the source (line 1 with `extra` empty is `class Net`)."""
    lines = "".join(f"        {line}\n" for line in body.strip().splitlines())
    return (
        extra + "class Net(nn.Cell):\n" + INIT + methods + "    def construct(self, x):\n" + lines
    )


def at(body: str, *codes: str, line: int = 0, level: str = "LAX", methods: str = "") -> None:
    first = net("", methods=methods).count("\n") + 1
    assert found(net(body, methods=methods), level) == [(c, first + line) for c in codes]


# --- MS1150 / MS3040 ------------------------------------------------------------------


def test_return_ids_with_a_list_of_weights_fails() -> None:
    for level in ("LAX", "STRICT"):
        at("return ms.grad(self.loss, None, [self.w], return_ids=True)(x)", "MS1150", level=level)
    at(
        "ws = [self.w]\nreturn ms.value_and_grad(self.loss, None, ws, return_ids=True)(x)",
        "MS1150",
        line=1,
    )
    at("return ms.grad(self.loss, None, (self.w,), return_ids=True)(x)")
    at("return ms.grad(self.loss, None, self.w, return_ids=True)(x)")


def test_gradients_of_a_list_of_weights_returned_diverge() -> None:
    at("return ms.grad(self.loss, None, [self.w, self.b])(x)", "MS3040")
    at("g = ms.grad(self.loss, None, [self.w])(x)\nreturn x, g", "MS3040")
    at("loss, g = ms.value_and_grad(self.loss, None, [self.w])(x)\nreturn loss, g", "MS3040")
    at("return ms.grad(self.loss, 0, [self.w])(x)[1]", "MS3040")
    at("return ops.GradOperation(get_by_list=True)(self.loss, [self.w])(x)", "MS3040")
    step = "    def step(self, t):\n        return ms.grad(self.loss, None, [self.w])(t)\n\n"
    at("return self.step(x)", "MS3040", methods=step)
    mapped = "g = ms.grad(self.loss, None, [self.w])(x)\nreturn ops.HyperMap()(ops.square, g)"
    at(mapped, "MS3040", line=1)


def test_gradients_of_a_list_of_weights_used_otherwise_agree() -> None:
    at("return ms.grad(self.loss, None, (self.w, self.b))(x)")
    at("g = ms.grad(self.loss, None, [self.w, self.b])(x)\nreturn g[0] + g[1]")
    at("gw, gb = ms.grad(self.loss, None, [self.w, self.b])(x)\nreturn gw, gb")
    at("return tuple(ms.grad(self.loss, None, [self.w])(x))")
    at("loss, g = ms.value_and_grad(self.loss, None, [self.w])(x)\nreturn loss")
    at("g = ms.grad(self.loss, None, (self.w,))(x)\nreturn ops.HyperMap()(ops.square, g)")
    jit = (
        "    @ms.jit\n    def step(self, t):\n"
        "        return ms.grad(self.loss, None, [self.w])(t)\n\n"
    )
    at("return self.step(x)", methods=jit)


# --- MS3041 ---------------------------------------------------------------------------

POP = "l = [t, t * t]\na = l.{m}\nreturn (a + l[0]).sum()"


def nested(code: str) -> str:
    return "def f(t):\n" + "".join(f"    {line}\n" for line in code.splitlines())


def test_list_methods_in_a_differentiated_function_zero_the_gradient_at_lax() -> None:
    body = nested(POP.format(m="pop()")) + "return ms.grad(f)(x)"
    at(body, "MS3041", line=4)
    at(body, level="STRICT")
    insert = "l = [t]\nl.insert(0, t * t)\nreturn (l[0] + l[1]).sum()"
    at(nested(insert) + "return ops.GradOperation()(f)(x)", "MS3041", line=4)
    at(nested(POP.format(m="pop()")) + "out, fn = ms.vjp(f, x)\nreturn fn(x)", "MS3041", line=4)
    method = "    def g(self, t):\n" + "".join(
        f"        {line}\n" for line in POP.format(m="pop(0)").splitlines()
    )
    at("return ms.value_and_grad(self.g)(x)", "MS3041", methods=method + "\n")


def test_list_methods_the_loss_does_not_read_or_graph_ops_agree() -> None:
    unused = "l = [t, t * t]\nl.pop()\nreturn (t * t).sum()"
    at(nested(unused) + "return ms.grad(f)(x)")
    append = "l = [t]\nl.append(t * t)\nreturn (l[0] + l[1]).sum()"
    at(nested(append) + "return ms.grad(f)(x)")
    at(nested(POP.format(m="pop()")) + "return f(x)")


# --- MS311 / MS377 widened ------------------------------------------------------------


def test_in_place_method_in_a_nested_function_differentiated() -> None:
    code = "y = t * 1\ny.add_(t)\nreturn (y * t).sum()"
    at(nested(code) + "return ms.grad(f)(x)", "MS311", line=4)
    at(nested(code) + "return ops.GradOperation()(f)(x)", "MS311", line=4)
    at(nested(code) + "out, fn = ms.vjp(f, x)\nreturn fn(x)", "MS311", line=4)
    rebound = "y = t * 1\ny = y.mul_(2.0)\nreturn (y * t).sum()"
    at(nested(rebound) + "return ms.grad(f)(x)")


def test_same_tensor_at_two_positions_of_a_lambda_bound_once() -> None:
    body = "f = lambda a, b: (a * b).sum()\nreturn ms.grad(f, grad_position=(0,))(x, x)"
    assert ("MS377", net("").count("\n") + 2) in found(net(body))
