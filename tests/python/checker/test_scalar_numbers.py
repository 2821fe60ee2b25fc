"""Python numbers in compiled code (round 31, measured with MindSpore 2.10 at LAX and STRICT):
a rounded Python float where graph mode takes ints (MS1001) or returned after int arithmetic
(MS362), `round()` of a number read from a Tensor (MS1001), a bool Tensor plus a Python bool
(MS153), `int(t) ** -1` (MS319), `math.isclose` of float32 arithmetic (MS348), `int()` of a
float literal float32 cannot hold (MS349), and tests on a local read from a Tensor (MS112).
Each positive has a measured look-alike that compiles (or agrees) and stays quiet."""

from __future__ import annotations

import pytest

from mindscope_ls.checker import check_source

HEAD = (
    "import math\nimport mindspore as ms\nfrom mindspore import Tensor, nn, ops\n\n\n"
    "class Net(nn.Cell):\n    def construct(self, x, t):\n"
)


def codes(body: str, level: str = "LAX") -> list[str]:
    source = HEAD + "".join(f"        {line}\n" for line in body.splitlines())
    return sorted(f.code for f in check_source(source, "m.py", level=level))


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ("r = round(x.shape[0] / 3)\nreturn x.reshape(r, -1)", "MS1001"),
        ("r = round(x.shape[0] / 3)\nreturn x[:r]", "MS1001"),
        ("r = round(x.shape[0] / 4) + 1\nreturn x.reshape(r, -1)", "MS1001"),
        ("r = round(x.shape[0] / 4)\nreturn x.shape[r - 1]", "MS1001"),
        ("r = round(x.shape[0] / 4)\nreturn ops.ones(r)", "MS1001"),
        ("r = round(x.shape[0] / 4)\nreturn x.sum(axis=r)", "MS1001"),
        ("return round(int(t) * 0.5)", "MS1001"),
        ("k = int(t)\nreturn round(k / 2)", "MS1001"),
        ("return round(t.item() * 2, 1)", "MS1001"),
        ("return round(x.shape[0] / 4) + 1", "MS362"),
        ("return 7 % round(x.shape[0] / 4)", "MS362"),
        ("return (x > 0) + True", "MS153"),
        ("flag = x.shape[0] > 2\nreturn (x > 0) + flag", "MS153"),
        ("return (x != 0) - False", "MS153"),
        ("k = int(t)\nreturn x * k ** -1", "MS319"),
        ("return math.isclose(0.1 + 0.2, 0.3)", "MS348"),
        ("r = 0.1 * 3\nreturn math.isclose(r, 0.3)", "MS348"),
        ("return int(1e18)", "MS349"),
        ("big = 123456789.5\nreturn math.ceil(big)", "MS349"),
        ("k = int(t)\nreturn 1 if k > 3 else 0.5", "MS112"),
        ("r = abs(round(x.shape[0] / 4))\nreturn x.reshape(r, -1)", "MS1001"),
        ("m = x.shape[1]\nreturn x * 2 ** -m", "MS319"),
        ("e = -x.shape[0]\nreturn x * pow(4, e)", "MS319"),
        ("return True if float(t) > 3 else 0", "MS112"),
        ("return False if x.sum() > 0 else 0.5", "MS112"),
        ("big = 100000000000000000000\nreturn x", "MS175"),
        ("return -9223372036854775808", "MS175"),
        ("return math.sqrt(2) * 2", "MS320"),
        ("return int(math.log(1000) / math.log(10))", "MS349"),
    ],
)
def test_reported(body: str, code: str) -> None:
    assert code in codes(body), body


@pytest.mark.parametrize(
    "body",
    [
        "r = round(x.shape[0] / 3)\nreturn x.reshape((r, -1))",
        "r = round(x.shape[0] / 3)\nreturn ops.zeros((r, 3))",
        "r = round(x.shape[0] / 3)\nreturn ops.tile(x, (r, 1))",
        "r = int(round(x.shape[0] / 3))\nreturn x[:r]",
        "r = round(x.shape[0] / 4)\nreturn [1, 2, 3][r]",
        "return round(x.shape[0] / 4)",
        "return int(round(x.shape[0] / 4)) + 1",
        "return round(x.sum())",
        "return (x > 0) * True",
        "return (x > 0) | True",
        "return (x > 0) + 1",
        "return (x > 0).astype(ms.int32) + True",
        "k = int(t)\nreturn x * k ** -1.0",
        "return math.isclose(0.1 + 0.2, 0.3, rel_tol=1e-6)",
        "return math.isclose(x.shape[0] * 0.5, 2.0)",
        "return int(1e10)",
        "return min(x.shape[0], int(1e12))",
        "n = x.shape[0]\nreturn 1 if n > 3 else 2.5",
        "k = int(t)\nreturn x * (1 if k > 3 else 2)",
        "s = 1 if float(t) > 3 else 0.5\nreturn x * s",
        "r = max(round(x.shape[0] / 4), 1)\nreturn x.reshape(r, -1)",
        "r = math.floor(x.shape[0] / 4)\nreturn x.reshape(r, -1)",
        "m = x.shape[1]\nreturn x * 2.0 ** -m",
        "m = x.shape[1]\nreturn x * 2 ** (m - 1)",
        "k = int(t)\nreturn x * 2 ** -k",
        "return True if x.sum() > 0 else False",
        "s = True if x.sum() > 0 else 0\nreturn x * s",
        "return 9223372036854775807",
        "return -9223372036854775807",
        "return math.sqrt(2)",
        "return math.floor(math.log2(8))",
    ],
)
def test_quiet(body: str) -> None:
    found = codes(body)
    mine = {"MS1001", "MS362", "MS153", "MS319", "MS320", "MS348", "MS349", "MS112", "MS175"}
    assert not mine & set(found), (
        body,
        found,
    )


def test_helper_parameter_takes_construct_inputs() -> None:
    """`int(t)` in a helper given construct's 0-d input compiles (measured); a two-element
    input fails (MS129)."""
    source = (
        "import numpy as np\nimport mindspore as ms\nfrom mindspore import Tensor, nn\n\n\n"
        "class Net(nn.Cell):\n    def steps(self, t):\n        return int(t) * 2\n\n"
        "    def construct(self, x, t):\n        return x * self.steps(t)\n\n\n"
        "def run():\n    return Net()(Tensor(np.ones(3, np.float32)), Tensor(VALUE, ms.int32))\n"
    )
    quiet = check_source(source.replace("VALUE", "5"), "m.py", level="LAX")
    assert "MS129" not in {f.code for f in quiet}
    loud = check_source(source.replace("VALUE", "[5, 6]"), "m.py", level="LAX")
    assert "MS129" in {f.code for f in loud}
