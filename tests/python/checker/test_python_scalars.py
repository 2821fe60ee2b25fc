"""Python scalars in compiled code (round 34, `tests/graphmode/cases/round34/sc_*`): each
expression here was compiled with MindSpore 2.10 at LAX and STRICT and run in PyNative."""

from __future__ import annotations

import ast

from mindscope_ls.checker import check_source
from mindscope_ls.checker.rules.divergence_int_division import _divide

HEAD = (
    "import math\nimport sys\nimport numpy as np\nimport mindspore as ms\n"
    "from mindspore import Tensor, nn\n\n\n"
)
RUN = "\n\ndef run():\n    return Net()(Tensor(np.ones((4,), np.float32)))\n"


def codes(body: str, level: str = "LAX") -> list[str]:
    lines = "".join(f"        {line}\n" for line in body.strip("\n").split("\n"))
    source = HEAD + "class Net(nn.Cell):\n    def construct(self, x):\n" + lines + RUN
    return sorted(f.code for f in check_source(source, "m.py", level=level))


def test_graph_mode_divides_ints_through_float32() -> None:
    # measured: 123456789 // 10 -> 12345679, % 10 -> -1; 1700000000 % 60 -> -40
    assert _divide(ast.FloorDiv(), 123456789, 10) == (12345678, 12345679)
    assert _divide(ast.Mod(), 123456789, 10) == (9, -1)
    assert _divide(ast.Mod(), 1700000000, 60) == (20, -40)
    assert _divide(ast.Mod(), 2**40 + 1, 3) == (2, -32767)
    # the float32 quotient floors to the same int: agrees
    assert _divide(ast.FloorDiv(), -123456789, 10) == (-12345679, -12345679)


def test_int_division_warns_only_when_the_values_differ() -> None:
    assert codes("t = 1700000000\nreturn t % 60") == ["MS390"]
    assert codes("return 123456789 // 10") == ["MS390"]
    assert codes("t = 1700000\nreturn t % 60") == []  # below 2 ** 24
    assert codes("a = 2 ** 40\nreturn a % 1024") == []  # exact in float32
    assert codes("return -123456789 // 10") == []


def test_negative_base_to_a_fractional_power() -> None:
    assert codes("return (-4) ** 0.5") == ["MS391"]
    assert codes("a = -9.0\nreturn a ** 0.5") == ["MS391"]
    assert codes("n = -x.shape[0]\nreturn n ** 0.5") == ["MS391"]
    assert codes("return -4 ** 0.5") == []  # -(4 ** 0.5)
    assert codes("return (-2.0) ** 3, (-2) ** 2.0") == []  # integer exponents
    assert codes("a = 9.0\nreturn a ** 0.5") == []


def test_sys_maxsize_and_shifts_overflow() -> None:
    assert codes("return sys.maxsize + 1") == ["MS175"]
    assert codes("a = 1 << 62\nreturn a * 2") == ["MS175"]
    assert codes("return 1 << 63") == ["MS175"]
    assert codes("return sys.maxsize - 1, -sys.maxsize - 1, -1 << 62") == []


def test_complex_values() -> None:
    assert codes("c = complex(1, 2)\nreturn c", "STRICT") == ["MS275"]
    assert codes("c = complex(3, 4)\nreturn c.conjugate()", "STRICT") == ["MS275"]
    assert codes("return complex(3, 4).real + 1", "STRICT") == []
    assert codes("return abs(complex(3, 4))", "STRICT") == []
    assert codes("c = complex(3, 4)\nreturn x * abs(c)") == ["MS1078"]
    assert codes("c = complex(3, 4)\nreturn x * float(abs(c))") == []


def test_range_of_a_bool() -> None:
    loop = "s = 0\nfor i in range({args}):\n    s += i\nreturn x * s"
    assert codes(loop.format(args="True, 3")) == ["MS1079"]
    assert codes("flag = not True\n" + loop.format(args="flag, 3")) == ["MS1079"]
    assert codes(loop.format(args="x.shape[0] > 2, 4")) == ["MS1079"]
    assert codes(loop.format(args="int(x.shape[0] > 2), 4")) == []
    assert codes(loop.format(args="True + 0, 3")) == []


def test_range_of_a_bool_call() -> None:
    loop = "s = 0\nfor i in range({args}):\n    s += i\nreturn x * s"
    assert codes(loop.format(args="isinstance(x, Tensor), 3")) == ["MS1079"]
    assert codes(loop.format(args="bool(1), 3")) == ["MS1079"]
    assert codes(loop.format(args="len([True, False])")) == []


def test_sum_of_a_long_constant_range_is_unrolled() -> None:
    assert codes("return x * sum(range(499))") == ["MS185"]
    assert codes("return x * max(range(5000))") == ["MS185"]
    assert codes("return x * sum(range(480))") == []
    assert codes("return x * sum(range(0, 3000, 10))") == []  # 300 items
    assert codes("return x * len(range(100000))") == []


def test_math_of_ints_beyond_int64() -> None:
    assert codes("return math.factorial(21)") == ["MS175"]
    assert codes("return float(math.comb(100, 50))") == ["MS175"]
    assert codes("return sum([2 ** 62, 2 ** 62])") == ["MS175"]
    assert codes("return max(1 << 62, 3) * 2") == ["MS175"]
    assert codes("return math.factorial(20), math.comb(30, 15)") == []
    assert codes("return sum([2 ** 61, 2 ** 61])") == []
