"""Cell-level APIs and hooks in compiled code (round 37, `hk_`, measured with MindSpore 2.10 at LAX
and STRICT): hooks compiled with their Cell (their prints MS3000, module-level appends MS313,
`.asnumpy()` MS201), a hooked Cell called twice (MS3030), a CellList indexed by a run-time int
(MS3031; a SequentialCell: MS1032), attributes of Cell containers (MS1140), the truth of an
empty SequentialCell / CellDict (MS3032), hooks changed after the first call (MS3033), a lambda
hook written in the registration (MS1042), `insert_child_to_cell` in compiled code (MS1141,
MS335). Each positive has a measured look-alike that stays quiet."""

from __future__ import annotations

import pytest

from mindscope_ls.checker import check_source

HEAD = (
    "from collections import OrderedDict\nimport mindspore as ms\n"
    "from mindspore import Tensor, nn, mutable\n"
    "\n\nSEEN = []\n\n\ndef shift(cell, inputs, output):\n    return output + 1\n\n\n"
    "def keep(cell, inputs, output):\n    SEEN.append(1)\n\n\n"
    "def show(cell, inputs, output):\n    print('out', output)\n\n\n"
    "class Add(nn.Cell):\n    def __init__(self, k):\n        super().__init__()\n"
    "        self.k = k\n\n    def construct(self, x):\n        return x + self.k\n\n\n"
    "class Net(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
)
INIT_LINE = HEAD.count("\n")


def findings(init: str, body: str, level: str = "LAX", tail: str = "") -> list[tuple[int, str]]:
    source = (
        HEAD
        + "".join(f"        {line}\n" for line in init.splitlines())
        + "\n    def construct(self, x):\n"
        + "".join(f"        {line}\n" for line in body.splitlines())
        + tail
    )
    return sorted((f.range.line, f.code) for f in check_source(source, "m.py", level=level))


def codes(init: str, body: str, level: str = "LAX", tail: str = "") -> list[str]:
    return [code for _, code in findings(init, body, level, tail)]


def construct_line(init: str, offset: int) -> int:
    """The line of the `offset`-th (0-based) statement of `construct`."""
    return INIT_LINE + len(init.splitlines()) + 3 + offset


ACT = "self.act = nn.ReLU()\nself.act.register_forward_hook({hook})"


@pytest.mark.parametrize(
    ("hook", "code"), [("show", "MS3000"), ("keep", "MS313")], ids=["print", "append"]
)
def test_a_hook_is_compiled_with_its_cell(hook: str, code: str) -> None:
    found = codes(ACT.format(hook=hook), "return self.act(x)")
    assert code in found


def test_a_backward_hook_is_compiled_only_when_a_gradient_is_taken() -> None:
    init = "self.act = nn.ReLU()\nself.act.register_backward_hook(show)"
    assert "MS3000" not in codes(init, "return self.act(x)")
    tail = "\n\ndef run(x):\n    return ms.grad(Net())(x)\n"
    assert "MS3000" in codes(init, "return self.act(x)", tail=tail)


def test_a_hook_of_an_uncalled_sub_cell_is_not_compiled() -> None:
    init = "self.act = nn.ReLU()\nself.other = nn.ReLU()\nself.other.register_forward_hook(keep)"
    assert "MS313" not in codes(init, "return self.act(x)")


def test_a_hooked_cell_called_twice() -> None:
    init = ACT.format(hook="shift")
    body = "a = self.act(x)\nb = self.act(x * 0)\nreturn a, b"
    assert (construct_line(init, 1), "MS3030") in findings(init, body)
    loop = "for _ in range(2):\n    x = self.act(x)\nreturn x"
    assert "MS3030" in codes(init, loop)


@pytest.mark.parametrize(
    ("init", "body"),
    [
        (ACT.format(hook="shift"), "return self.act(x)"),  # once
        (ACT.format(hook="keep"), "return self.act(x) + self.act(x)"),  # returns None
        (
            "self.act = nn.ReLU()\nself.act.register_forward_pre_hook(shift)",
            "return self.act(x) + self.act(x)",
        ),  # a pre-hook runs once a call
        (ACT.format(hook="shift"), "for _ in range(1):\n    x = self.act(x)\nreturn x"),
    ],
    ids=["once", "no-result", "pre-hook", "one-turn"],
)
def test_a_hooked_cell_look_alikes(init: str, body: str) -> None:
    assert "MS3030" not in codes(init, body)


LAYERS = "self.layers = nn.CellList([Add(1.0), Add(2.0), Add(3.0)])"


@pytest.mark.parametrize(
    "body",
    [
        "i = int(x[0])\nreturn self.layers[i](x)",
        "i = mutable(1)\nreturn self.layers[i](x)",
        "i = mutable(-1)\nreturn self.layers[i](x)",
        "return self.layers[int(x[1].item())](x)",
    ],
)
def test_a_cell_list_indexed_at_run_time(body: str) -> None:
    assert "MS3031" in codes(LAYERS, body)


@pytest.mark.parametrize(
    "body",
    [
        "i = mutable(0)\nreturn self.layers[i](x)",
        "i = Tensor(1, ms.int32)\nreturn self.layers[i](x)",
        "for i in range(3):\n    x = self.layers[i](x)\nreturn x",
        "return self.layers[-1](x)",
    ],
)
def test_a_cell_list_indexed_by_constants_or_a_tensor(body: str) -> None:
    assert "MS3031" not in codes(LAYERS, body)


def test_a_sequential_cell_indexed_by_a_mutable_int_fails() -> None:
    init = "self.seq = nn.SequentialCell([Add(1.0), Add(2.0)])"
    assert "MS1032" in codes(init, "i = mutable(1)\nreturn self.seq[i](x)")


@pytest.mark.parametrize(
    ("init", "body"),
    [
        ("self.d = nn.CellDict({'a': Add(1.0)})", "return self.d.a(x)"),
        ("self.d = nn.CellDict({'a': Add(1.0)})", "return x + len(self.d.cells())"),
        (LAYERS, "return x + len(self.layers.name_cells())"),
        ("self.layers = [Add(1.0), Add(2.0)]", "c = self.layers.pop()\nreturn c(x)"),
    ],
)
def test_attributes_of_cell_containers_fail(init: str, body: str) -> None:
    for level in ("LAX", "STRICT"):
        assert (construct_line(init, 0), "MS1140") in findings(init, body, level)


@pytest.mark.parametrize(
    ("init", "body"),
    [
        ("self.d = nn.CellDict({'a': Add(1.0)})", "self.d.clear()\nreturn x"),
        (
            "self.d = nn.CellDict({'a': Add(1.0)})",
            "for k in self.d.keys():\n    x = self.d[k](x)\nreturn x",
        ),
        (
            "self.seq = nn.SequentialCell(OrderedDict([('a', Add(1.0))]))",
            "return self.seq.a(x)",
        ),
        ("self.vals = [1.0, 2.0]", "self.vals.append(3.0)\nreturn x"),
    ],
)
def test_attributes_graph_mode_has(init: str, body: str) -> None:
    assert "MS1140" not in codes(init, body)


@pytest.mark.parametrize(
    ("init", "test"),
    [
        ("self.seq = nn.SequentialCell()", "if self.seq:"),
        ("self.seq = nn.SequentialCell([])", "if self.flag and self.seq:"),
        ("self.d = nn.CellDict()", "if self.d:"),
    ],
)
def test_the_truth_of_an_empty_cell_container(init: str, test: str) -> None:
    body = f"{test}\n    return x * 2\nreturn x"
    assert "MS3032" in codes(init + "\nself.flag = True", body)


@pytest.mark.parametrize(
    ("init", "test"),
    [
        ("self.seq = nn.SequentialCell()", "if not self.seq:"),
        ("self.seq = nn.SequentialCell()", "if len(self.seq) > 0:"),
        ("self.seq = nn.SequentialCell([Add(1.0)])", "if self.seq:"),
        ("self.seq = nn.CellList()", "if self.seq:"),
        ("self.seq = nn.SequentialCell()\nself.seq.append(Add(1.0))", "if self.seq:"),
    ],
)
def test_the_truth_of_cell_containers_that_agree(init: str, test: str) -> None:
    body = f"{test}\n    return x * 2\nreturn x"
    assert "MS3032" not in codes(init, body)


RUN = "\n\ndef run(x):\n    net = Net()\n    a = net(x)\n{change}\n    return a, net({arg})\n"


def test_a_hook_registered_after_the_first_call() -> None:
    tail = RUN.format(change="    net.act.register_forward_hook(shift)", arg="x")
    source_findings = findings("self.act = nn.ReLU()", "return self.act(x)", tail=tail)
    assert "MS3033" in [code for _, code in source_findings]


@pytest.mark.parametrize(
    "tail",
    [
        RUN.format(change="    net.act.register_forward_hook(shift)", arg="x * 0 + 1.0"),
        RUN.format(change="    net.act.register_forward_hook(keep)", arg="x"),
        "\n\ndef run(x):\n    net = Net()\n    net.act.register_forward_hook(shift)\n"
        "    return net(x), net(x)\n",
    ],
    ids=["other-input", "no-result", "before"],
)
def test_hooks_registered_before_or_for_other_inputs(tail: str) -> None:
    assert "MS3033" not in codes("self.act = nn.ReLU()", "return self.act(x)", tail=tail)


def test_a_lambda_written_in_the_registration_fails() -> None:
    init = "self.act = nn.ReLU()\nself.act.register_forward_hook(lambda c, i, o: o * 3)"
    assert (construct_line(init, 0), "MS1042") in findings(init, "return self.act(x)")
    alone = "self.act = nn.ReLU()\nh = lambda c, i, o: o * 3\nself.act.register_forward_hook(h)"
    assert "MS1042" not in codes(alone, "return self.act(x)")


def test_insert_child_to_cell_in_compiled_code() -> None:
    body = "self.insert_child_to_cell('extra', Add(5.0))\nreturn self.extra(x)"
    assert (construct_line("self.a = Add(1.0)", 1), "MS1141") in findings("self.a = Add(1.0)", body)
    assert "MS1141" not in codes("self.a = Add(1.0)", body, level="STRICT")  # MS130 there
    replaced = "self.insert_child_to_cell('a', Add(5.0))\nreturn self.a(x)"
    assert "MS335" in codes("self.a = Add(1.0)", replaced)
    guarded = (
        "self.insert_child_to_cell('extra', Add(5.0))\nif hasattr(self, 'extra'):\n"
        "    return self.extra(x)\nreturn x"
    )
    found = codes("self.a = Add(1.0)", guarded)
    assert "MS335" in found and "MS1141" not in found
