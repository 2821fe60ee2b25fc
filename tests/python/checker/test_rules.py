"""Discovery, tensor inference, ranges and related locations, on small inline sources."""

from __future__ import annotations

import textwrap

from mindscope_ls.checker import Finding, Severity, Workspace, check_source


def check(source: str, **kwargs: object) -> list[Finding]:
    return check_source(textwrap.dedent(source), "m.py", **kwargs)  # type: ignore[arg-type]


def codes(source: str, **kwargs: object) -> list[str]:
    return [f.code for f in check(source, **kwargs)]


CELL_HEAD = "from mindspore import nn\nclass N(nn.Cell):\n    def construct(self, x):\n"

TRY_BODY = """
        try:
            x = x + 1
        except ValueError:
            pass
        return x
"""


def test_import_styles_of_cell() -> None:
    for header, base in [
        ("import mindspore.nn as nn", "nn.Cell"),
        ("import mindspore", "mindspore.nn.Cell"),
        ("from mindspore.nn import Cell", "Cell"),
        ("from mindspore import nn", "nn.Dense"),
        ("import mindspore as ms", "ms.nn.Cell"),
    ]:
        src = f"{header}\nclass Net({base}):\n    def construct(self, x):{TRY_BODY}"
        assert codes(src) == ["MS101"], header


def test_plain_class_is_not_compiled() -> None:
    src = f"class Net:\n    def construct(self, x):{TRY_BODY}"
    assert codes(src) == []


def test_subclass_of_subclass_and_uncalled_methods() -> None:
    src = """
    from mindspore import nn
    class Base(nn.Cell):
        pass
    class Mid(Base):
        def helper(self, x):
            del x
    class Net(Mid):
        def unused(self, x):
            del x
        def construct(self, x):
            s = {1}
            return x
    """
    found = check(src)
    assert [(f.code, f.line) for f in found] == [("MS111", 12)]


def test_jit_forms() -> None:
    for deco in ["@ms.jit", "@ms.jit()", "@ms.jit(capture_mode='ast')", "@jit", "@mindspore.jit"]:
        src = (
            "import mindspore\nimport mindspore as ms\nfrom mindspore import jit\n"
            f"{deco}\ndef f(x):\n    del x\n"
        )
        assert codes(src) == ["MS102"], deco
    wrapped = "import mindspore as ms\ndef f(x):\n    del x\ng = ms.jit(f)\n"
    assert codes(wrapped) == ["MS102"]
    assert codes("import functools\n@functools.lru_cache\ndef f(x):\n    del x\n") == []


def test_helpers_are_followed_and_point_back_to_the_caller() -> None:
    src = """
    from mindspore import nn, ops
    def helper(v):
        return {v}
    class Net(nn.Cell):
        def _inner(self, x):
            return helper(x)
        def construct(self, x):
            return self._inner(x)
    """
    (finding,) = check(src)
    assert finding.code == "MS111" and finding.line == 4
    assert any("called from compiled Net._inner" in r.message for r in finding.related)


def test_tensor_condition_versus_constant_condition() -> None:
    tensor = """
    from mindspore import nn
    class Net(nn.Cell):
        def construct(self, x):
            if x.sum() > 0:
                y = x
            return y
    """
    assert codes(tensor) == ["MS113"]
    for cond in ["self.training", "x.shape[0] > 1", "x is None", "len(x) > 1", "x.ndim == 2"]:
        assert codes(tensor.replace("x.sum() > 0", cond)) == [], cond


def test_ops_and_subcells_make_tensors() -> None:
    src = """
    from mindspore import nn, ops
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(3, 3)
            self.red = ops.ReduceSum()
        def construct(self, x):
            h = self.fc(x)
            m = self.red(h)
            if m > 0:
                return h
            return 1
    """
    (finding,) = check(src)
    assert finding.code == "MS112"
    assert (finding.line, finding.col, finding.end_col) == (12, 19, 20)
    assert [r.range.line for r in finding.related] == [13, 11]


def test_helper_parameter_is_tensor_only_if_a_tensor_is_passed() -> None:
    src = """
    from mindspore import nn
    class Net(nn.Cell):
        def pick(self, x, flag):
            if flag:
                y = x
            return y
        def construct(self, x):
            return self.pick(x, True)
    """
    assert codes(src) == []
    assert codes(src.replace("self.pick(x, True)", "self.pick(x, x > 0)")) == ["MS113"]


def test_strict_rules_are_information_at_lax_and_errors_at_strict() -> None:
    src = CELL_HEAD + "        return x.asnumpy()\n"
    (lax,) = check(src)
    (strict,) = check(src, level="STRICT")
    assert (lax.code, lax.severity, lax.level) == ("MS201", Severity.INFORMATION, "LAX")
    assert (strict.severity, strict.level) == (Severity.ERROR, "STRICT")


def test_divergence_and_deprecation_are_warnings() -> None:
    src = """
    import mindspore as ms
    from mindspore import nn
    ms.set_context(device_target="CPU", max_call_depth=100)
    class Net(nn.Cell):
        def construct(self, x):
            y = x
            y *= 2
            return x + y
    """
    found = check(src)
    assert [(f.code, f.severity) for f in found] == [
        ("MS401", Severity.WARNING),
        ("MS401", Severity.WARNING),
        ("MS303", Severity.WARNING),
    ]
    assert found[0].fix is None  # two arguments: no mechanical set_device rewrite


def test_with_on_jit_class_is_fine_and_unknown_objects_are_not_flagged() -> None:
    src = """
    import mindspore as ms
    from mindspore import nn
    from somewhere import Thing
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.thing = Thing()
        def construct(self, x):
            with self.thing:
                x = x + 1
            return x
    """
    assert codes(src) == []


def test_columns_count_characters_not_bytes() -> None:
    src = CELL_HEAD + '        s = ("é", {1})\n        return x\n'
    (finding,) = check(src)
    assert (finding.col, finding.end_col) == (18, 21)


def test_workspace_resolves_bases_and_helpers_in_other_files() -> None:
    base = "from mindspore import nn\nclass Base(nn.Cell):\n    pass\n"
    helpers = "def helper(v):\n    del v\n    return 1\n"
    model = (
        "from pkg.base import Base\nfrom pkg import helpers\n"
        "class Net(Base):\n    def construct(self, x):\n        return helpers.helper(x)\n"
    )
    ws = Workspace(
        {"/r/pkg/base.py": base, "/r/pkg/helpers.py": helpers, "/r/pkg/model.py": model}, root="/r"
    )
    found = check_source(helpers, "/r/pkg/helpers.py", workspace=ws)
    assert [f.code for f in found] == ["MS102"]
    assert found[0].related[0].path.endswith("model.py")
    assert check_source(helpers, "/r/pkg/helpers.py") == []  # alone: nobody compiles it


def test_workspace_from_folder(tmp_path: object) -> None:
    from pathlib import Path

    root = Path(str(tmp_path))
    (root / "a.py").write_text("from mindspore import nn\nclass A(nn.Cell):\n    pass\n")
    (root / "b.py").write_text(
        "from a import A\nclass B(A):\n    def construct(self, x):\n        del x\n"
    )
    ws = Workspace.from_folder(str(root))
    found = check_source((root / "b.py").read_text(), str(root / "b.py"), workspace=ws)
    assert [f.code for f in found] == ["MS102"]
