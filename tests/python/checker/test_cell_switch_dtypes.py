"""MS1087 round 35: Cells picked by a Tensor index whose Tensor results differ in dtype. Each
shape was compiled with MindSpore 2.10 at LAX and STRICT and run in PyNative
(`tests/graphmode/cases/round35/sw_*`)."""

from __future__ import annotations

from mindscope_ls.checker import check_source

HEAD = "import numpy as np\nimport mindspore as ms\nfrom mindspore import Tensor, nn, ops\n\n\n"
RUN = "def run():\n    return Net()(Tensor(np.ones((2, 4), np.float32)), Tensor(1, ms.int32))\n"


def program(a: str, b: str, init: str = "self.layers = (A(), B())", pick: str = "") -> str:
    pick = pick or "return self.layers[i](x)"
    return (
        f"{HEAD}class A(nn.Cell):\n    def construct(self, x):\n        return {a}\n\n\n"
        f"class B(nn.Cell):\n    def construct(self, x):\n        return {b}\n\n\n"
        "class Net(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
        f"        {init}\n\n    def construct(self, x, i):\n        {pick}\n\n\n{RUN}"
    )


def found(source: str, level: str = "LAX") -> list[tuple[str, int]]:
    return sorted((f.code, f.line) for f in check_source(source, "m.py", level=level))


def test_dtypes_that_differ_fail_at_every_level() -> None:
    for a, b in [
        ("x.astype(ms.int32)", "x"),
        ("x.astype('int32')", "x"),
        ("ops.cast(x, ms.int32)", "x"),
        ("x.astype(ms.float16)", "x"),
        ("x.astype(ms.int32)", "x.astype(ms.int64)"),
        ("x > 0", "x"),
        ("x.astype(ms.int32) + 1", "x + 1"),
        ("ops.relu(x).astype(ms.int32)", "ops.relu(x)"),  # round 36: relu keeps the dtype
    ]:
        for level in ("LAX", "STRICT"):
            assert found(program(a, b), level) == [("MS1087", 8)], (a, b, level)


def test_a_list_and_a_local_tuple_of_sub_cells_are_followed() -> None:
    source = program("x.astype(ms.int32)", "x", init="self.layers = [A(), B()]")
    assert found(source) == [("MS1087", 8)]
    local = program(
        "x.astype(ms.int32)",
        "x",
        init="self.a = A()\n        self.b = B()",
        pick="cells = (self.a, self.b)\n        return cells[i](x)",
    )
    assert found(local) == [("MS1087", 8)]
    written = program(
        "x.astype(ms.int32)",
        "x",
        init="self.a = A()\n        self.b = B()",
        pick="return (self.a, self.b)[i](x)",
    )
    assert found(written) == [("MS1087", 8)]


def test_look_alikes_that_compile_stay_clean() -> None:
    for a, b in [
        ("x.astype(ms.float32)", "x"),  # the same dtype
        ("x.astype(ms.int32)", "(x * 2).astype(ms.int32)"),
        ("x.sum(axis=0)", "x"),  # ranks differ: compiles
    ]:
        assert found(program(a, b)) == [], (a, b)
    # a Python int index picks one Cell: no switch
    assert found(program("x.astype(ms.int32)", "x", pick="return self.layers[1](x)")) == []
