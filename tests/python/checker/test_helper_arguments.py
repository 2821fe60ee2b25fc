"""A compiled helper's parameters take the dtypes its calls pass (a Cell method called as
`self.pick(x)`, a function nested in construct), and at STRICT a helper's returns that cannot
join are reported where the caller applies a Python operator to the result. Each shape here
was compiled with MindSpore 2.10 (`tests/graphmode/cases/round32/hp_*`, `hs_*`)."""

from __future__ import annotations

import ast

import pytest

from mindscope_ls.checker import Severity, Workspace, check_source
from mindscope_ls.checker.rules.helpers.any_uses import python_use

HEAD = "import numpy as np\nimport mindspore as ms\nfrom mindspore import Tensor, nn, ops\n\n\n"
PICK = (
    "    def pick(self, x):\n        if x.sum() > 0:\n            return x\n"
    "        return x.astype(ms.int32)\n\n"
)


def net(construct: str, dtype: str = "float32", methods: str = PICK) -> str:
    return (
        HEAD
        + "class Net(nn.Cell):\n"
        + methods
        + "    def construct(self, x):\n"
        + construct
        + f"\n\n\ndef run():\n    return Net()(Tensor(np.ones((2, 3), np.{dtype})))\n"
    )


def errors(source: str, level: str = "LAX", workspace: Workspace | None = None) -> list[str]:
    found = check_source(source, "m.py", level=level, workspace=workspace)
    return [f"{f.line}:{f.code}" for f in found if f.severity is Severity.ERROR]


def test_a_method_takes_the_dtype_construct_passes() -> None:
    assert errors(net("        return self.pick(x)")) == ["9:MS112"]
    assert errors(net("        return self.pick(x)", dtype="int32")) == []


@pytest.mark.parametrize(
    ("construct", "expected"),
    [
        ("        y = x.astype(ms.float16)\n        return self.pick(y)", ["9:MS112"]),
        ("        y = x.astype(ms.int32)\n        return self.pick(y)", []),
        ("        return self.pick(ops.cast(x, ms.int32))", []),
        ("        return self.pick(x=x)", ["9:MS112"]),
    ],
)
def test_what_the_caller_binds_or_casts_is_followed(construct: str, expected: list[str]) -> None:
    assert errors(net(construct)) == expected


def test_other_uses_of_the_method_say_nothing() -> None:
    """Called on another object or kept as a value, or the class is subclassed: other calls
    may pass other dtypes."""
    outside = net("        return self.pick(x)") + "\n\ndef other(n, y):\n    return n.pick(y)\n"
    assert errors(outside) == []
    stored = net("        f = self.pick\n        return f(x)")
    assert errors(stored) == []
    subclassed = net("        return self.pick(x)") + "\n\nclass Sub(Net):\n    pass\n"
    assert errors(subclassed) == []


def test_each_call_is_compiled_with_its_own_dtypes() -> None:
    source = net("        return self.pick(x), self.pick(x.astype(ms.int32))", dtype="int32")
    assert errors(source) == []
    mixed = net("        return self.pick(x.astype(ms.int32)), self.pick(x)")
    assert errors(mixed) == ["9:MS112"]


def test_a_nested_function_takes_its_callers_dtype() -> None:
    nested = (
        "        def grow(t):\n            if t.sum() > 0:\n                return t\n"
        "            return t.astype(ms.int32)\n        return grow(x)"
    )
    assert errors(net(nested, methods="")) == ["10:MS112"]
    assert errors(net(nested, dtype="int32", methods="")) == []


def test_editing_the_run_call_rechecks_the_helper() -> None:
    workspace = Workspace()
    source = net("        return self.pick(x)")
    assert errors(source, workspace=workspace) == ["9:MS112"]
    assert errors(source.replace("np.float32", "np.int32"), workspace=workspace) == []
    assert errors(source, workspace=workspace) == ["9:MS112"]


@pytest.mark.parametrize(
    ("construct", "strict_line"),
    [
        ("        return self.pick(x) * 2", 13),
        ("        return -self.pick(x)", 13),
        ("        return self.pick(x).sum()", 13),
        ("        y = self.pick(x)\n        return y + 1", 14),
        ("        return ops.square(self.pick(x)) * 2", 13),
        ("        return ops.relu(self.pick(x))", 9),
        ("        return self.pick(x), 1", 9),
    ],
)
def test_strict_names_the_callers_operator(construct: str, strict_line: int) -> None:
    source = net(construct)
    assert errors(source) == ["9:MS112"]
    assert errors(source, level="STRICT") == [f"{strict_line}:MS112"]


def use_of(source: str) -> str | None:
    fn = ast.parse(source).body[0]
    assert isinstance(fn, ast.FunctionDef)
    call = next(n for n in ast.walk(fn) if isinstance(n, ast.Call) and ast.unparse(n.func) == "h")
    use = python_use(fn, call)
    return ast.unparse(use) if use is not None else None


@pytest.mark.parametrize(
    ("body", "use"),
    [
        ("return h(x) * 2", "h(x) * 2"),
        ("return h(x) > 0", "h(x) > 0"),
        ("y = h(x)\n    z = 1\n    return ops.exp(y) + z", "ops.exp(y) + z"),
        ("return h(x).shape", "h(x).shape"),
        ("return h(x)", None),
        ("return ops.relu(h(x))", None),
        ("y = h(x)\n    y = y * 2\n    return y", None),
        ("return g(h(x)) * 2", None),
    ],
)
def test_python_use(body: str, use: str | None) -> None:
    assert use_of(f"def f(x):\n    {body}\n") == use
