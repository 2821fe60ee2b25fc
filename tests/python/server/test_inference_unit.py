"""The inference and text scanning on their own: fast, no server, no MindSpore."""

from __future__ import annotations

from typing import Optional

import pytest

from mindscope_ls.analysis.completion import mindspore_items
from mindscope_ls.analysis.hover import signature_help
from mindscope_ls.analysis.inference import Api, Inferencer, Instance, LocalClass, Value
from mindscope_ls.analysis.sourcemodel import model_of, parse_tolerant
from mindscope_ls.analysis.textscan import call_context, dot_context, parse_expr
from mindscope_ls.catalogue.load import DATA_DIR, catalogue_for, pick, read

CAT = catalogue_for("2.10.0")
assert CAT is not None


def infer(source: str, expr: str, line: Optional[int] = None) -> Optional[Value]:
    """The value of `expr` at the end of `source` (or at a 1-based line)."""
    at = line if line is not None else source.rstrip("\n").count("\n") + 1
    assert CAT is not None
    inferencer = Inferencer(model_of(source, at - 1), CAT)
    parsed = parse_expr(expr)
    assert parsed is not None
    return inferencer.infer(parsed, inferencer.scope_at(at))


def public(value: Optional[Value]) -> str:
    if isinstance(value, Api):
        return value.entry.public
    if isinstance(value, Instance):
        return f"<{value.cls.public}>"
    if isinstance(value, LocalClass):
        return f"<{value.node.name}>" if value.instance else value.node.name
    return repr(value)


def test_import_styles_resolve_to_modules() -> None:
    src = (
        "import mindspore as ms\nimport mindspore.ops as P\nfrom mindspore import nn\n"
        "from mindspore.ops import functional as F\nimport mindspore.dataset.vision\n"
    )
    assert public(infer(src, "ms.ops")) == "mindspore.ops"
    assert public(infer(src, "P.matmul")) == "mindspore.ops.matmul"
    assert public(infer(src, "F.matmul")) == "mindspore.ops.matmul"  # the same object
    assert public(infer(src, "nn.Conv2d")) == "mindspore.nn.Conv2d"
    assert public(infer(src, "mindspore.dataset.vision")) == "mindspore.dataset.vision"
    assert infer(src, "nn.NoSuchLayer") is None


def test_values_that_are_tensors() -> None:
    src = (
        "import mindspore as ms\nfrom mindspore import nn, ops\n"
        "class Net(nn.Cell):\n"
        "    def __init__(self):\n        super().__init__()\n"
        "        self.fc = nn.Dense(2, 2)\n        self.mean = ops.ReduceMean()\n"
        "    def construct(self, x, y=None):\n"
        "        a = self.fc(x)\n        b = self.mean(a, 1)\n        c = a.sum() * 2\n"
        "        d = ops.max(a)\n        e = -c[0]\n        return e\n"
    )
    for name in ("x", "y", "a", "b", "c", "e"):
        assert public(infer(src, name)) == "<mindspore.Tensor>", name
    assert infer(src, "d") is None  # ops.max returns a tuple
    assert public(infer(src, "self")) == "<Net>"
    assert public(infer(src, "self.fc")) == "<mindspore.nn.Dense>"
    assert public(infer(src, "self.mean")) == "<mindspore.ops.ReduceMean>"


def test_plain_function_arguments_are_not_guessed() -> None:
    src = (
        "import mindspore as ms\ndef f(x, y: ms.Tensor, z: 'ms.Tensor | None' = None):\n    pass\n"
    )
    assert infer(src, "x", 3) is None
    assert public(infer(src, "y", 3)) == "<mindspore.Tensor>"
    assert public(infer(src, "z", 3)) == "<mindspore.Tensor>"


def test_assignments_follow_line_order() -> None:
    src = "from mindspore import ops, Tensor\nx = 3\nx = Tensor([1])\n"
    assert public(infer(src, "x", 3)) == "None"  # before the second assignment: an int
    assert public(infer(src, "x", 4)) == "<mindspore.Tensor>"


def test_local_factories_and_annotations() -> None:
    src = (
        "from mindspore import nn\n"
        "def conv(c: int) -> nn.Conv2d:\n    return nn.Conv2d(c, c, 3)\n"
        "class B(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
        "        self.c = conv(3)\n        self.s: nn.Cell | None = None\n"
    )
    assert public(infer(src, "self.c", 8)) == "<mindspore.nn.Conv2d>"
    assert public(infer(src, "self.s", 8)) == "<mindspore.nn.Cell>"


def test_compiled_context() -> None:
    src = (
        "import mindspore as ms\nfrom mindspore import nn\n@ms.jit\ndef step(x):\n    pass\n"
        "def plain(x):\n    pass\nclass N(nn.Cell):\n    def construct(self, x):\n        pass\n"
    )
    assert CAT is not None
    inferencer = Inferencer(model_of(src, 0), CAT)
    assert inferencer.is_compiled(inferencer.scope_at(5))
    assert not inferencer.is_compiled(inferencer.scope_at(7))
    assert inferencer.is_compiled(inferencer.scope_at(10))


def test_text_scanning() -> None:
    ctx = dot_context("y = ops.matmul(a, b).su", 0, 23)
    assert ctx is not None and ctx.prefix == "su"
    assert dot_context("s = 'ops.", 0, 9) is None
    assert dot_context("# ops.", 0, 6) is None
    call = call_context("f(a,\n  g(1, 2), k=", 1, 14)
    assert call is not None and call.arg_index == 2 and call.keyword == "k"


def test_broken_code_still_parses_around_the_cursor() -> None:
    tree = parse_tolerant("import mindspore\ndef f(:\nx = (\nmindspore.", 3)
    assert tree.body  # the import survives
    assert mindspore_items("def f(:\n  x.", 1, 4, CAT) is None  # type: ignore[arg-type]


def test_signature_help_counts_arguments_and_star_args() -> None:
    assert CAT is not None
    help_ = signature_help("from mindspore import ops\nops.cat((a, b), ", 1, 16, CAT)
    assert help_ is not None and help_.active_parameter == 1


def test_catalogue_loads_and_picks_the_nearest_version() -> None:
    # How fast it loads is bench/lsp_latency.py's business (cold first request), not a test's.
    files = sorted(DATA_DIR.glob("mindspore-*.json.gz"))
    main = next(f for f in files if ".docs." not in f.name)
    cat = read(main)
    assert cat.lookup("mindspore.ops.matmul") is not None
    assert pick("2.10.0", ["2.10.0"]) == "2.10.0"
    assert pick("2.9.1", ["2.3.0", "2.10.0"]) == "2.10.0"
    assert pick(None, ["2.3.0", "2.10.0"]) == "2.10.0"
    assert pick("2.10.0", []) is None


@pytest.mark.parametrize("ns", ["mindspore.ops", "mindspore.nn", "mindspore.Tensor"])
def test_every_listed_name_has_an_entry(ns: str) -> None:
    assert CAT is not None
    listing = CAT.members(ns) or {}
    assert listing and all(CAT.entry(ident) is not None for ident in listing.values())


HALF_TYPED_CALL = """\
import mindspore as ms
from mindspore import nn, ops


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def construct(self, x):
        y = ops.concat((
            x,
            x.
"""


@pytest.mark.parametrize(
    "after",
    [
        "",  # nothing typed below yet
        "        return y\n\n    def other(self):\n        return 1\n",  # code below, unclosed
        "        ), axis=0)\n        return y\n",  # an element typed into a closed call
    ],
)
def test_a_call_spanning_lines_keeps_its_function_around_the_cursor(after: str) -> None:
    """Blanking lines cannot repair brackets opened lines above the cursor: the cursor's
    line becomes a value inside them, so `x` is still `construct`'s Tensor argument."""
    source = HALF_TYPED_CALL + after
    assert public(infer(source, "x", line=13)) == "<mindspore.Tensor>"
    assert public(infer(source, "self.dense", line=13)) == "<mindspore.nn.Dense>"
