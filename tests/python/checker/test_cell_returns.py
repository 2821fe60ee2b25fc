"""Round 36: the dtype a sub-Cell's `construct` returns, joined under a Tensor `if`
(`helpers/cell_returns.py`), and MS112 at STRICT named where a Python operator takes the joined
value. Each shape was compiled with MindSpore 2.10 at LAX and STRICT and run in PyNative
(`tests/graphmode/cases/round36/cr_*`, `js_*`)."""

from __future__ import annotations

import ast

from mindscope_ls.checker import check_source
from mindscope_ls.checker.index.module import ModuleInfo
from mindscope_ls.checker.rules.helpers.cell_returns import returned_dtype

HEAD = "import numpy as np\nimport mindspore as ms\nfrom mindspore import Tensor, nn, ops\n\n\n"
JOIN = "if x.sum() > 0:\n            r = self.a(x)\n        else:\n            r = self.b(x)\n"


def program(a: str, b: str, body: str = JOIN + "        return r", dtype: str = "float32") -> str:
    return (
        f"{HEAD}class A(nn.Cell):\n    def construct(self, x):\n        {a}\n\n\n"
        f"class B(nn.Cell):\n    def construct(self, x):\n        {b}\n\n\n"
        "class Net(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
        "        self.a = A()\n        self.b = B()\n\n    def construct(self, x):\n"
        f"        {body}\n\n\n"
        f"def run():\n    return Net()(Tensor(np.ones((2, 4), np.{dtype})))\n"
    )


def found(source: str, level: str = "LAX") -> list[tuple[str, int]]:
    return sorted((f.code, f.line) for f in check_source(source, "m.py", level=level))


def test_sub_cells_of_other_dtypes_fail_to_join() -> None:
    for a, b in [
        ("return x.astype(ms.int32)", "return x"),
        ("return ops.cast(x, ms.float16)", "return x"),
        ("return x > 0", "return x * 2"),
        ("return x.astype(ms.int32).reshape((8,))", "return ops.relu(x)"),
        ("y = x.astype(ms.int32)\n        return y", "return x"),
        ("x = x.astype(ms.int32)\n        return x", "return x"),
    ]:
        source = program(a, b)
        line = source.splitlines().index("            r = self.a(x)") + 1
        for level in ("LAX", "STRICT"):
            assert found(source, level) == [("MS112", line)], (a, b, level)


def test_sub_cells_of_one_dtype_join() -> None:
    assert found(program("return x.astype(ms.float32)", "return ops.relu(x)")) == []
    # an int32 input: the int32 cast and the input itself agree
    assert found(program("return x.astype(ms.int32)", "return x", dtype="int32")) == []
    # no Tensor condition: added, not joined
    added = program("return x.astype(ms.int32)", "return x", "return self.a(x) + self.b(x)")
    assert found(added) == []


def test_strict_names_the_operator_that_takes_the_joined_value() -> None:
    source = program(
        "return x.astype(ms.int32)", "return ops.relu(x)", JOIN + "        return r * 2"
    )
    lines = source.splitlines()
    assert found(source, "LAX") == [("MS112", lines.index("            r = self.a(x)") + 1)]
    assert found(source, "STRICT") == [("MS112", lines.index("        return r * 2") + 1)]
    # returned as it is: STRICT fails at the branch as LAX does
    kept = program("return x.astype(ms.int32)", "return x", JOIN + "        return (r, x)")
    assert found(kept, "STRICT") == [
        ("MS112", kept.splitlines().index("            r = self.a(x)") + 1)
    ]


def test_returned_dtype_reads_only_written_out_facts() -> None:
    source = "import mindspore as ms\nfrom mindspore import ops\n"
    module = ModuleInfo.build("m.py", source + "x = 1\n")  # imports resolve `ms.int32`

    def of(body: str, passed: str = "float32") -> object:
        fn = ast.parse(f"def construct(self, x, y):\n    {body}\n").body[0]
        call = ast.parse("f(a, b)").body[0].value  # type: ignore[attr-defined]
        assert isinstance(fn, ast.FunctionDef) and isinstance(call, ast.Call)
        found = returned_dtype(module, fn, call, lambda arg: passed)
        return found[0] if found is not None else None

    assert of("return x.astype(ms.int32)") == "int32"
    assert of("return ops.relu(y)", "float16") == "float16"
    assert of("return x > y") == "bool_"
    assert of("return x + 1") == "float32"
    assert of("if x:\n        return x\n    return x.astype(ms.int32)") is None  # disagree
    assert of("return self.fc(x)") is None  # a layer's dtype is not read here
    assert of("x = x * y\n    return x") is None  # rebound: not what was passed
    assert of("return") is None


def test_a_sub_cell_giving_none_joins_no_tensor_under_strict() -> None:
    for a in ("y = x * 2", "return None", "if x.sum() > 100:\n            return\n        y = x"):
        source = program(a, "return x")
        line = source.splitlines().index("            r = self.a(x)") + 1
        for level, severity in (("LAX", "information"), ("STRICT", "error")):
            findings = check_source(source, "m.py", level=level)
            got = [(f.code, f.line, str(f.severity.name).lower()) for f in findings]
            assert got == [("MS205", line, severity)], (a, level, got)
    # called as a statement, or its result tested with `is None`: nothing is joined
    assert found(program("return None", "return x", "self.a(x)\n        return self.b(x)")) == []
    checked = "r = self.a(x)\n        if r is None:\n            r = self.b(x)\n        return r"
    assert found(program("return None", "return x", checked), "STRICT") == []


def test_cells_picked_by_a_tensor_index_one_giving_none_fail_under_strict() -> None:
    def switch(a: str, b: str = "return x * 2", held: str = "(A(), B())") -> str:
        return (
            f"{HEAD}class A(nn.Cell):\n    def construct(self, x):\n        {a}\n\n\n"
            f"class B(nn.Cell):\n    def construct(self, x):\n        {b}\n\n\n"
            "class Net(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
            f"        self.layers = {held}\n\n    def construct(self, x, i):\n"
            "        return self.layers[i](x)\n"
        )

    for a, held in [
        ("return None", "(A(), B())"),
        ("return", "(A(), B())"),
        ("return", "[A(), B()]"),
    ]:
        source = switch(a, held=held)
        line = source.splitlines().index(f"        {a}") + 1
        assert found(source, "STRICT") == [("MS205", line)], (a, held)
        assert found(source, "LAX") == []
    assert found(switch("return x", "return x * 2"), "STRICT") == []
