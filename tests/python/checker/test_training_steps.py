"""Training-step idioms (round 36, `tr_`): Parameters reached through a tuple of them or a
module-level instance (MS130/MS133/MS155), `map()` of a function reading a module-level name
(MS162), gradients of a list of weights given to an optimizer (MS1130). Each shape here was
compiled with MindSpore 2.10 and run in PyNative (`tests/graphmode/cases/round36/tr_*`)."""

from __future__ import annotations

from mindscope_ls.checker import check_source

HEAD = "import numpy as np\nimport mindspore as ms\nfrom mindspore import Tensor, nn, ops\n\n\n"
INIT = (
    "class Step(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
    '        self.w = ms.Parameter(Tensor(np.ones(3, np.float32)), name="w")\n'
    "        self.opt = nn.SGD([self.w], learning_rate=0.1)\n"
    "        self.weights = ms.ParameterTuple([self.w])\n"
    '        self.acc = self.opt.parameters.clone(prefix="acc", init="zeros")\n'
    "        self.k = 0.5\n"
    "        self.sc = (0.5, 1.0)\n\n"
    "    def forward(self, x):\n        return (x * self.w).sum()\n\n"
    "    def construct(self, x):\n"
)


def found(source: str, level: str = "LAX") -> list[tuple[str, int]]:
    """(code, line in `source`) of each error or warning, lines counted from its first line."""
    offset = HEAD.count("\n")
    return sorted(
        (f.code, f.range.line - offset)
        for f in check_source(HEAD + source, "m.py", level=level)
        if f.severity.value in ("error", "warning")
    )


def step(body: str, extra: str = "") -> str:
    """`body` as the construct of a Cell holding a Parameter, an optimizer, a ParameterTuple and
    a clone; the body's first line is line 15 of the source."""
    lines = "".join(f"        {line}\n" for line in body.strip().splitlines())
    return extra + INIT + lines


# --- Parameters through a tuple of them -------------------------------------------------


def test_items_of_a_parameter_tuple_are_parameters() -> None:
    grads = "grads = ms.grad(self.forward, None, self.weights)(x)\n"
    looped = "for p, g in zip(self.opt.parameters, grads):\n    p.set_data(p - g)\nreturn x"
    assert found(step(grads + looped)) == [("MS130", 17)]
    frozen = "for i, p in enumerate(self.weights):\n    p.requires_grad = False\nreturn x"
    assert found(step(frozen)) == [("MS133", 16)]
    named = "names = [p.name for p in self.acc]\nreturn x, names[0]"
    assert found(step(named), "STRICT") == [("MS155", 15)]
    assert found(step("return x, self.opt.parameters[0].name")) == [("MS155", 15)]


def test_parameter_items_read_as_tensors_are_clean() -> None:
    summed = "for p in self.opt.parameters:\n    x = x + p.sum()\nreturn x"
    assert found(step(summed)) == []
    assigned = "for a, p in zip(self.acc, self.weights):\n    ops.assign(a, p * 0.9)\nreturn x"
    assert found(step(assigned)) == []


def test_train_one_step_cell_weights_are_parameters() -> None:
    source = (
        "class MyStep(nn.TrainOneStepCell):\n    def construct(self, x):\n"
        "        loss = self.network(x)\n"
        "        grads = self.grad(self.network, self.weights)(x, ops.ones_like(loss))\n"
        "        for w, g in zip(self.weights, grads):\n"
        "            w.set_data(w - g)\n        return loss\n"
    )
    assert found(source) == [("MS130", 6)]


# --- Parameters through module-level instances (`@ms.jit def train_step`) -----------------

GLOBALS = (
    "class Lin(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
    '        self.w = ms.Parameter(Tensor(np.ones(3, np.float32)), name="w")\n\n'
    "    def construct(self, x):\n        return x * self.w\n\n\n"
    "net = Lin()\noptimizer = nn.SGD(net.trainable_params(), learning_rate=0.1)\n\n\n"
    "@ms.jit\ndef train_step(x):\n"
)


def jit(body: str) -> str:
    """`body` in a jit function reading the module's `net` and `optimizer` (line 16 on)."""
    return GLOBALS + "".join(f"    {line}\n" for line in body.strip().splitlines())


def test_parameters_of_module_level_instances() -> None:
    assert found(jit("net.w.set_data(x)\nreturn x")) == [("MS130", 16)]
    assert found(jit("net.w.requires_grad = False\nreturn x")) == [("MS133", 16)]
    named = "for p in optimizer.parameters:\n    print(p.name)\nreturn x"
    assert found(jit(named)) == [("MS155", 17)]
    assert found(jit("n = optimizer.parameters[0].name\nreturn x")) == []  # unused: dropped
    assert found(jit("for p in optimizer.parameters:\n    x = x + p.sum()\nreturn x")) == []


# --- MS162: map() of a function reading a module-level name ------------------------------


def test_map_of_a_lambda_reading_a_module_name_fails() -> None:
    ops_lambda = "t = tuple(map(lambda g: ops.abs(g), (x, x)))\nreturn t[0]"
    assert found(step(ops_lambda)) == [("MS162", 15)]
    builtin = "t = tuple(map(lambda g: abs(g), (x, x)))\nreturn t[0]"
    assert found(step(builtin), "STRICT") == [("MS162", 15)]
    nested = "def c(g):\n    return ops.relu(g)\nt = tuple(map(c, (x, x)))\nreturn t[0]"
    assert found(step(nested)) == [("MS162", 17)]
    item = "t = tuple(map(lambda g: g * self.sc[0], (x, x)))\nreturn t[0]"
    assert found(step(item)) == [("MS162", 15)]


def test_map_of_a_lambda_reading_folded_values_is_clean() -> None:
    for body in (
        "lambda g: g * self.k",
        "lambda g: g * Tensor(0.5)",
        "lambda g: g.clip(-0.1, 0.1)",
        "lambda g: g * 0.5",
    ):
        assert found(step(f"t = tuple(map({body}, (x, x)))\nreturn t[0]")) == [], body


# --- MS1130: gradients of a list of weights given to an optimizer -------------------------


def test_gradients_of_a_list_of_weights_to_an_optimizer_fail() -> None:
    made = "gf = ms.value_and_grad(self.forward, None, [self.w])\nloss, grads = gf(x)\n"
    assert found(step(made + "self.opt(grads)\nreturn loss")) == [("MS1130", 17)]
    clipped = "grads = ops.clip_by_global_norm(grads, 1.0)\nself.opt(grads)\nreturn loss"
    assert found(step(made + clipped), "STRICT") == [("MS1130", 18)]
    direct = "grads = ms.grad(self.forward, None, [p for p in self.weights])(x)\n"
    assert found(step(direct + "self.opt(grads)\nreturn x")) == [("MS1130", 16)]
    gradop = "grads = ops.GradOperation(get_by_list=True)(self.forward, [self.w])(x)\n"
    assert found(step(gradop + "self.opt(grads)\nreturn x")) == [("MS1130", 16)]


def test_gradients_of_a_tuple_or_converted_are_clean() -> None:
    tupled = "gf = ms.value_and_grad(self.forward, None, (self.w,))\nloss, grads = gf(x)\n"
    assert found(step(tupled + "self.opt(grads)\nreturn loss")) == []
    listed = "gf = ms.value_and_grad(self.forward, None, [self.w])\nloss, grads = gf(x)\n"
    assert found(step(listed + "self.opt(tuple(grads))\nreturn loss")) == []
    converted = "grads = tuple(g * 0.5 for g in grads)\nself.opt(grads)\nreturn loss"
    assert found(step(listed + converted)) == []
    assert found(step(listed + "return loss, grads[0]")) == []


# --- MS360: an attribute the Cell's own method sets, read back after the call -----------

LOGGER = (
    "class Step(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
    "        self.last = 0.0\n        self.count = 0\n\n"
    "    def log(self, v):\n        self.last = v\n\n"
    "    def tick(self):\n        self.count += 1\n        return self.count\n\n"
    "    def construct(self, x):\n"
)


def logger(body: str) -> str:
    """`body` as the construct of a Cell whose `log`/`tick` set `self.last`/`self.count`
    (line 15 on)."""
    return LOGGER + "".join(f"        {line}\n" for line in body.strip().splitlines())


def test_attribute_set_by_an_own_method_then_read_diverges() -> None:
    assert found(logger("self.log(x)\nreturn self.last")) == [("MS360", 16)]
    assert found(logger("self.tick()\nreturn x, self.count")) == [("MS360", 16)]


def test_own_method_results_and_earlier_reads_are_clean() -> None:
    assert found(logger("n = self.tick()\nreturn x, n")) == []
    assert found(logger("prev = self.last\nself.log(x)\nreturn x, prev")) == []
    assert found(logger("self.log(x)\nself.last = x\nreturn self.last")) == []


# --- MS130: the weights of the network a Cell was given -----------------------------------


def test_trainable_params_of_a_given_network_is_forbidden() -> None:
    source = (
        "class WithReg(nn.Cell):\n    def __init__(self, net):\n        super().__init__()\n"
        "        self.net = net\n\n    def construct(self, x):\n        reg = 0\n"
        "        for p in self.net.trainable_params():\n            reg = reg + p.sum()\n"
        "        return self.net(x) + reg\n"
    )
    assert found(source) == [("MS130", 8)]
    kept = source.replace(
        "self.net = net\n", "self.net = net\n        self.ps = net.trainable_params()\n"
    )
    assert found(kept.replace("self.net.trainable_params()", "self.ps")) == []
