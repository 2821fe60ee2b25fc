"""What the module tells the abstract values: the dtype an entry point's callers give a
parameter (only when every call agrees and nothing else can call it), and module-level names
bound once to a Cell or a function. The joins these feed were compiled with MindSpore 2.10
(`tests/graphmode/cases/joins/user/`, `generated/joins/`)."""

from __future__ import annotations

import pytest

from mindscope_ls.checker import Severity, Workspace, check_source
from mindscope_ls.checker.index.module import ModuleInfo
from mindscope_ls.checker.rules.helpers.module_values import (
    argument_dtypes,
    global_binding,
    tensor_dtype,
)

NET = (
    "import numpy as np\nimport mindspore as ms\nfrom mindspore import Tensor, nn, ops\n\n\n"
    "class Net(nn.Cell):\n    def construct(self, x):\n"
    "        if x.sum() > 0:\n            y = x * 2\n        else:\n"
    "            y = x.astype(ms.int32)\n        return y\n\n\n"
)


def errors(source: str, level: str = "LAX") -> list[tuple[int, str]]:
    found = check_source(source, "m.py", level=level)
    return [(f.line, f.code) for f in found if f.severity is Severity.ERROR]


def dtypes(source: str, entry: str = "Net") -> dict[str, str]:
    return argument_dtypes(ModuleInfo.build("m.py", source), entry, ["x"])


@pytest.mark.parametrize(
    ("expr", "dtype"),
    [
        ("Tensor(np.ones((2, 3), np.float32))", "float32"),
        ("Tensor(np.ones((2, 3)), ms.float32)", "float32"),
        ("Tensor(np.ones((2, 3)), dtype=ms.int32)", "int32"),
        ("ms.Tensor(np.random.randn(2, 3).astype(np.float16))", "float16"),
        ("Tensor(np.array([1, 2], dtype=np.int64))", "int64"),
        ("ops.ones((2, 3), ms.float32)", "float32"),
        ("Tensor(np.ones((2, 3)))", "float64"),  # numpy's default (measured)
        ("Tensor([1.0, 2.0])", "float32"),  # MindSpore's default for Python floats
        ("np.ones((2, 3), np.float32)", None),  # not a Tensor
    ],
)
def test_written_out_dtypes(expr: str, dtype: str) -> None:
    import ast

    node = ast.parse(expr, mode="eval").body
    assert tensor_dtype(node) == dtype


F32 = "Tensor(np.ones(3), ms.float32)"
I32 = "Tensor(np.ones(3), ms.int32)"
RUN = "def run():\n    "


@pytest.mark.parametrize(
    ("caller", "want"),
    [
        (RUN + "return Net()(Tensor(np.ones((2, 3), np.float32)))\n", "float32"),
        (RUN + f"net = Net()\n    return net({F32})\n", "float32"),
        (RUN + f"t = {I32}\n    return Net()(t)\n", "int32"),
        (f"net = Net()\n\n\n{RUN}return net({F32})\n", "float32"),
        (RUN + f"net = Net()\n    return net({F32}), net({I32})\n", None),
        ("def run(x):\n    return Net()(x)\n", None),
        (RUN + f"net = Net()\n    model = ms.Model(net)\n    return net({F32})\n", None),
        # reading an attribute of the instance hands it to no one; `net.construct(...)` does
        (RUN + f"net = Net()\n    net.set_train(False)\n    return net({F32}), net.w\n", "float32"),
        (RUN + f"net = Net()\n    net.construct({I32})\n    return net({F32})\n", None),
        # a subclass that keeps `construct` calls it too (round 37, measured): its calls count
        (f"class Sub(Net):\n    pass\n\n\n{RUN}return Net()({F32})\n", "float32"),
        (f"class Sub(Net):\n    pass\n\n\n{RUN}return Sub()({F32})\n", "float32"),
        (f"class Sub(Net):\n    pass\n\n\n{RUN}return Net()({F32}), Sub()({I32})\n", None),
        # one that defines its own may call the base's with anything (`super().construct(...)`)
        (
            "class Sub(Net):\n    def construct(self, x):\n        return x\n\n\n"
            f"{RUN}return Net()({F32})\n",
            None,
        ),
        (
            "class Outer(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
            "        self.net = Net()\n",
            None,
        ),
        (RUN + "return 1\n", None),
    ],
)
def test_callers_agree_or_the_dtype_is_unknown(caller: str, want: str) -> None:
    assert dtypes(NET + caller).get("x") == want


def test_the_join_uses_the_callers_dtype() -> None:
    call = "def run():\n    return Net()(Tensor(np.ones((2, 3), np.float32)))\n"
    assert errors(NET + call) == [(9, "MS112")]
    same = call.replace("np.float32", "np.int32")
    assert errors(NET + same) == []  # int32 * 2 is int32: the paths join
    assert errors(NET) == []  # no caller: unknown


def test_module_names_bound_once() -> None:
    source = "A = 1\nB = 1\nB = 2\n\n\ndef f():\n    global C\n    C = 3\n\n\nC = 0\n"
    module = ModuleInfo.build("m.py", source)
    assert global_binding(module, "A") is not None
    assert global_binding(module, "B") is None
    assert global_binding(module, "C") is None


@pytest.mark.parametrize(
    ("other", "lax"),
    [
        ("ACT", "MS112"),
        ("helper", "MS112"),
        ("self.act", "MS112"),
        ("ms.mutable(1)", "MS112"),
        ("ms.mutable(x)", None),
        ("[x, x]", "MS112"),
        ("OTHER", None),  # bound twice: unknown
    ],
)
def test_cells_functions_and_mutables_join_no_tensor(other: str, lax: str) -> None:
    source = (
        "import mindspore as ms\nfrom mindspore import nn\n\nACT = nn.ReLU()\n"
        "OTHER = nn.ReLU()\nOTHER = 1\n\n\ndef helper(a):\n    return a\n\n\n"
        "class Net(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
        "        self.act = nn.ReLU()\n\n    def construct(self, x):\n"
        f"        if x.sum() > 0:\n            return (x, x)\n        return {other}\n"
    ).replace("return (x, x)", "return x" if other != "[x, x]" else "return (x, x)")
    assert [code for _, code in errors(source)] == ([lax] if lax else [])


def test_editing_a_caller_or_a_global_rechecks_the_construct() -> None:
    """The construct's block is unchanged, so its findings are cached: what it read from the
    module (the caller's dtype, `ACT`) must tie them to the rest of the text."""
    workspace = Workspace()
    call = "def run():\n    return Net()(Tensor(np.ones((2, 3), np.float32)))\n"
    first = check_source(NET + call, "m.py", level="LAX", workspace=workspace)
    assert [f.code for f in first] == ["MS112"]
    edited = call.replace("np.float32", "np.int32")
    assert check_source(NET + edited, "m.py", level="LAX", workspace=workspace) == []
    glob = NET.replace("y = x.astype(ms.int32)", "y = ACT") + "ACT = nn.ReLU()\n"
    assert [f.code for f in check_source(glob, "m.py", level="LAX", workspace=workspace)] == [
        "MS112"
    ]
    rebound = glob + "ACT = 1\n"
    assert check_source(rebound, "m.py", level="LAX", workspace=workspace) == []


@pytest.mark.parametrize(
    ("where", "strict"),
    [
        ("class Net(nn.Cell):\n    def construct(self, x):\n", [(8, "MS218")]),
        ("@ms.jit\ndef f(x):\n", []),  # measured: compiles in an @ms.jit function
    ],
)
def test_a_list_of_numbers_joins_no_tensor_in_a_cell_under_strict(
    where: str, strict: list[tuple[int, str]]
) -> None:
    body = "if x.sum() > 0:\n    return x\nreturn [1, 2]\n"
    indent = "        " if where.startswith("class") else "    "
    source = "import mindspore as ms\nfrom mindspore import nn\n\n\n" + where
    source += "".join(indent + line + "\n" for line in body.splitlines())
    assert errors(source, "LAX") == []
    assert errors(source, "STRICT") == strict


def test_a_helper_gets_the_dtype_its_callers_parameters_receive() -> None:
    helper = (
        "import numpy as np\nimport mindspore as ms\nfrom mindspore import Tensor, nn\n\n\n"
        "def post(t):\n    if t.max() > 0:\n        return t.astype(ms.int32)\n    return t * 0.5\n"
        "\n\nclass Net(nn.Cell):\n    def construct(self, x):\n        return post(x)\n\n\n"
    )
    call = "def run():\n    return Net()(Tensor(np.ones(3), ms.float32))\n"
    assert errors(helper + call) == [(8, "MS112")]
    unknown = "def run(data):\n    return Net()(data)\n"
    assert errors(helper + unknown) == []
    rebinds = helper.replace("return post(x)", "x = x + 1\n        return post(x)")
    assert errors(rebinds + call) == []  # construct rebinds x: unknown
    other = "def other(y):\n    return post(y)\n\n\n"
    assert errors(helper + other + call) == []  # another caller, of unknown dtype
