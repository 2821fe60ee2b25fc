"""Arguments and signatures of compiled functions (round 36, `ar_`): positional-only parameters
(MS1125), lambdas written in a call to compiled code or as an entry point's default (MS1042),
parameters defaulting to functions, what an input holds on entry (joins), `f += 0.1` of an
input (MS320) and `v = d.pop(k)` of an input dict (MS121). Each shape was compiled with
MindSpore 2.10 and run in PyNative (`tests/graphmode/cases/round36/ar_*`)."""

from __future__ import annotations

import textwrap

from mindscope_ls.checker import check_source

HEAD = "import numpy as np\nimport mindspore as ms\nfrom mindspore import Tensor, nn, ops\n\n\n"
X = "    x = Tensor(np.array([1.0, 2.0, 3.0], np.float32))\n"


def found(source: str, level: str = "LAX") -> list[tuple[str, int]]:
    """(code, line in `source`) of each finding, lines counted from the source's first line."""
    offset = HEAD.count("\n")
    text = HEAD + textwrap.dedent(source)
    return sorted((f.code, f.range.line - offset) for f in check_source(text, "m.py", level=level))


def cell(construct: str, call: str, extra: str = "") -> str:
    body = textwrap.indent(textwrap.dedent(construct).strip(), "    ")
    more = textwrap.indent(textwrap.dedent(extra).strip(), "    ") if extra else ""
    return (
        f"class Net(nn.Cell):\n{body}\n\n{more}\n\n\ndef run():\n{X}    net = Net()\n"
        f"    return {call}\n"
    )


# --- MS1125 ---------------------------------------------------------------------------


def test_positional_only_parameters_of_compiled_functions_fail() -> None:
    entry = cell("def construct(self, x, /, y):\n    return x + y", "net(x, x)")
    assert found(entry) == [("MS1125", 3)]
    helper = cell(
        "def construct(self, x):\n    return self.f(x, x)",
        "net(x)",
        "def f(self, a, /, b):\n    return a - b",
    )
    assert ("MS1125", 6) in found(helper, "STRICT")
    nested = cell(
        "def construct(self, x):\n    def g(a, /):\n        return a * 2\n    return g(x)", "net(x)"
    )
    assert found(nested) == [("MS1125", 4)]
    jit = "@ms.jit\ndef f(x, /):\n    return x * 2\n\n\ndef run():\n" + X + "    return f(x)\n"
    assert found(jit) == [("MS1125", 3)]


def test_self_alone_before_the_slash_and_keyword_only_compile() -> None:
    assert found(cell("def construct(self, /, x):\n    return x * 2", "net(x)")) == []
    assert found(cell("def construct(self, x, *, k=2):\n    return x * k", "net(x)")) == []


# --- MS1042 ---------------------------------------------------------------------------


def test_a_lambda_written_in_the_call_to_compiled_code_fails() -> None:
    construct = "def construct(self, x, f):\n    return f(x)"
    assert found(cell(construct, "net(x, lambda t: t + 1)")) == [("MS1042", 11)]
    assert found(cell(construct, "net(x, (lambda t: t + 1,))")) == [("MS1042", 11)]
    assert found(cell(construct.replace("f)", "f=None)"), "net(x, f=lambda t: t)")) == [
        ("MS1042", 11)
    ]
    jit = "@ms.jit\ndef f(x, g):\n    return x\n\n\ndef run():\n" + X
    jit += "    return f(x, lambda t: t)\n"
    assert found(jit) == [("MS1042", 8)]


def test_a_lambda_bound_to_its_own_name_or_a_def_compiles() -> None:
    construct = "def construct(self, x, f):\n    return f(x)"
    named = cell(construct, "net(x, g)").replace("    net = Net()\n", "    g = lambda t: t\n")
    assert found(named.replace("net(x, g)", "Net()(x, g)")) == []
    inline = cell(
        "def construct(self, x):\n    return self.apply(x, lambda t: t * 2)",
        "net(x)",
        "def apply(self, x, g):\n    return g(x)",
    )
    assert found(inline) == []


def test_a_lambda_default_fails_on_construct_not_on_a_helper() -> None:
    entry = cell("def construct(self, x, f=lambda t: t + 1):\n    return x * 2", "net(x)")
    assert found(entry) == [("MS1042", 2)]
    helper = cell(
        "def construct(self, x):\n    return self.apply(x)",
        "net(x)",
        "def apply(self, x, f=lambda t: t + 1):\n    return f(x)",
    )
    assert found(helper) == []


# --- parameters and their defaults -----------------------------------------------------


def test_a_function_default_is_no_tensor() -> None:
    assert found(cell("def construct(self, x, act=ops.relu):\n    return act(x)", "net(x)")) == []


def test_an_input_rebound_to_a_tensor_under_a_tensor_if_fails_to_join() -> None:
    body = "def construct(self, x, k{}):\n    if x.sum() > 3:\n        k = x\n    return k"
    assert found(cell(body.format(""), "net(x, 2)")) == [("MS112", 4)]
    assert found(cell(body.format("=1"), "net(x)")) == [("MS112", 4)]
    assert found(cell(body.format("=(1, 2)"), "net(x)")) == [("MS112", 4)]
    assert found(cell(body.format("=None"), "net(x)"), "STRICT") == [("MS205", 4)]
    assert found(cell(body.format("=None"), "net(x, x)"), "STRICT") == []


def test_an_int_input_made_a_float_under_a_tensor_if_compiles_at_lax() -> None:
    body = "def construct(self, x, k=2):\n    if x.sum() > 3:\n        k = 0.5\n    return x * k"
    assert found(cell(body, "net(x)")) == []


# --- MS320 ------------------------------------------------------------------------------


def test_an_augmented_float_input_returned_is_float32() -> None:
    body = "def construct(self, x, f):\n    f += 0.1\n    return f"
    assert found(cell(body, "net(x, 0.2)")) == [("MS320", 3)]
    assert found(cell(body.replace("0.1", "0.5"), "net(x, 0.25)")) == []
    assert found(cell(body.replace("return f", "return x * f"), "net(x, 0.2)")) == []


# --- MS121 ------------------------------------------------------------------------------


def test_popping_a_tensor_of_an_input_dict_fails_at_lax() -> None:
    body = "def construct(self, d):\n    v = d.pop('a'{})\n    return v"
    call = "net(dd)"
    program = cell(body.format(""), call).replace(
        "    net = Net()\n", "    net = Net()\n    dd = {'a': x, 'b': x}\n"
    )
    assert found(program) == [("MS121", 3)]
    assert found(program.replace("d.pop('a')", "d.pop('a', None)")) == [("MS121", 3)]
    assert found(program.replace("d.pop('a')", "d.get('a')")) == []


# --- MS318 ------------------------------------------------------------------------------


def test_a_sub_cell_changing_the_list_construct_passes_it_diverges() -> None:
    sub = "class Sub(nn.Cell):\n    def construct(self, l):\n        l.append(l[0])\n"
    sub += "        return l[0]\n\n\n"
    init = "def __init__(self):\n    super().__init__()\n    self.sub = Sub()\n"
    read = "def construct(self, x):\n    l = [x]\n    self.sub(l)\n    return len(l)"
    assert found(sub + cell(init + read, "net(x)")) == [("MS318", 3)]
    unread = "def construct(self, x):\n    l = [x]\n    return self.sub(l)"
    assert found(sub + cell(init + unread, "net(x)")) == []
