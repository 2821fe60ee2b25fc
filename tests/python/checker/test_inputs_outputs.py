"""What the top-level call passes into a compiled Cell and what comes back: Python numbers the
caller passes (MS320 on arithmetic returned), `**kwargs` returned under STRICT (MS309), a Cell
passed as an argument (no MS156), a dict input's item write (MS316 only for lists). Each shape
was compiled with MindSpore 2.10 at LAX and STRICT and run in PyNative
(`tests/graphmode/cases/round35/in_*`)."""

from __future__ import annotations

from mindscope_ls.checker import check_source

HEAD = (
    "import numpy as np\nimport mindspore as ms\n"
    "from mindspore import Tensor, mutable, nn, ops\n\n\n"
)


def found(source: str, level: str = "LAX") -> list[tuple[str, int]]:
    """(code, line in `source`) of each finding, lines counted from the source's first line."""
    offset = HEAD.count("\n")
    return sorted(
        (f.code, f.range.line - offset) for f in check_source(HEAD + source, "m.py", level=level)
    )


def program(params: str, body: str, call: str, extra: str = "") -> str:
    lines = "".join(f"        {line}\n" for line in body.strip().splitlines())
    return (
        extra
        + f"class Net(nn.Cell):\n    def construct(self, {params}):\n"
        + lines
        + "\n\ndef run():\n    x = Tensor(np.ones(2, np.float32))\n    net = Net()\n"
        + "".join(f"    {line}\n" for line in call.strip().splitlines())
    )


# --- MS320: arithmetic on a number the caller passes -----------------------------------


def test_float_arithmetic_on_a_passed_number_is_float32() -> None:
    assert found(program("x, a", "return a * 3", "return net(x, 0.1)")) == [("MS320", 3)]
    assert found(program("x, a", "return a + 0.2", "return net(x, 0.1)"), "STRICT") == [
        ("MS320", 3)
    ]
    assert found(program("x, n", "return n / 3", "return net(x, 1)")) == [("MS320", 3)]
    assert found(program("x, a", "return x, a * 3", "return net(x, 0.1)")) == [("MS320", 3)]
    assert found(program("x, a", "return a * 3", "return net(x, mutable(0.1))")) == [("MS320", 3)]
    assert found(program("x, a=0.1", "return a * 3", "return net(x)")) == [("MS320", 3)]
    assert found(program("x, a, b", "return a + b", "return net(x, 0.1, 0.2)")) == [("MS320", 3)]


def test_exact_or_tensor_results_stay_clean() -> None:
    assert found(program("x, a", "return a * 2", "return net(x, 0.5)")) == []
    assert found(program("x, a", "return a * 3", "return net(x, 1)")) == []
    assert found(program("x, n", "return n / 2", "return net(x, 3)")) == []
    assert found(program("x, a", "return x * (a * 3)", "return net(x, 0.1)")) == []
    assert found(program("x, a", "return a", "return net(x, 0.1)")) == []
    # different numbers from different calls, or a rebound input: not judged
    two = "net(x, 0.1)\nreturn net(x, 0.5)"
    assert found(program("x, a", "return a * 3", two)) == []
    assert found(program("x, a", "a = 0.5\nreturn a * 3", "return net(x, 0.1)")) == []


# --- MS309: `**kwargs` returned under STRICT -----------------------------------------


def test_kwargs_returned_under_strict_is_a_tuple() -> None:
    assert found(program("x, **kw", "return kw", "return net(x, a=x)"), "STRICT") == [("MS309", 3)]
    assert found(program("x, **kw", "return x, kw", "return net(x, a=x)"), "STRICT") == [
        ("MS309", 3)
    ]
    assert found(program("x, **kw", "return kw", "return net(x, a=x)")) == []
    assert found(program("x, **kw", 'return kw["a"]', "return net(x, a=x)"), "STRICT") == []


# --- no MS156: a Cell passed as an argument ----------------------------------------------


def test_cell_passed_to_construct_is_callable() -> None:
    assert found(program("x, c", "return c(x)", "return net(x, nn.ReLU())")) == []
    inner = "class Inner(nn.Cell):\n    def construct(self, x):\n        return x * 2\n\n\n"
    assert found(program("x, c", "return c(x) + 1", "return net(x, Inner())", inner)) == []
    seq = "return net(x, nn.SequentialCell([nn.ReLU(), nn.Tanh()]))"
    assert found(program("x, c", "return c(x)", seq), "STRICT") == []


# --- MS316: item writes on a list input, not a dict input at LAX --------------------------


def test_item_write_on_a_dict_input_agrees_at_lax() -> None:
    call = 'd = {"a": x}\nout = net(x, d)\nreturn out, len(d)'
    assert found(program("x, d", 'd["b"] = x\nreturn x', call)) == []
    lst = "l = [x]\nout = net(x, l)\nreturn out, l[0]"
    assert found(program("x, l", "l[0] = x * 2\nreturn x", lst)) == [("MS316", 3)]
