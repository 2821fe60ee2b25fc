"""Behaviour found while building tests/graphmode's corpus (each verified with MindSpore 2.10)."""

from __future__ import annotations

import textwrap

from mindscope_ls.checker import Severity, check_source


def errors(source: str, level: str = "LAX") -> list[tuple[str, int]]:
    found = check_source(textwrap.dedent(source), "m.py", level=level)
    return [(f.code, f.line) for f in found if f.severity is Severity.ERROR]


def test_import_fallback_for_old_mindspore_is_not_flagged() -> None:
    src = """
    try:
        from mindspore import jit
    except ImportError:
        from mindspore import ms_function as jit
    """
    assert check_source(textwrap.dedent(src), "m.py") == []


def test_recursion_of_a_module_function_compiles() -> None:
    src = """
    from mindspore import nn
    def halve(v):
        if v.sum() > 1:
            return halve(v / 2)
        return v
    class N(nn.Cell):
        def construct(self, x):
            return halve(x)
    """
    assert errors(src) == []


def test_jit_functions_ignore_a_strict_context_unless_fullgraph() -> None:
    src = """
    import mindspore as ms
    @ms.jit
    def f(x):
        return x.asnumpy()
    @ms.jit(fullgraph=True)
    def g(x):
        return x.asnumpy()
    """
    assert errors(src, "STRICT") == [("MS201", 8)]


def test_constant_tensor_dict_key_compiles_and_setitem_with_tensor_key_fails() -> None:
    src = """
    from mindspore import Tensor, nn
    class N(nn.Cell):
        def construct(self, x):
            a = {Tensor(1): x}
            b = {}
            b[x] = 1
            return x
    """
    assert errors(src) == [("MS117", 7)]


def test_a_dict_key_bound_once_to_a_literal_tensor_is_a_constant() -> None:
    """Measured: cases/docs/dict/doc_dict_tensor_key_const_ok compiles at LAX and STRICT."""
    src = """
    import mindspore as ms
    from mindspore import Tensor, nn
    class N(nn.Cell):
        def construct(self, x):
            k = Tensor(1, ms.int32)
            d = {k: x}
            return d[k]
    """
    assert errors(src) == [] and errors(src, "STRICT") == []


def test_sub_cell_error_names_the_call_site() -> None:
    src = """
    from mindspore import nn
    class Inner(nn.Cell):
        def construct(self, x):
            s = {1, 2}
            return x
    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = Inner()
        def construct(self, x):
            return self.inner(x)
    """
    (finding,) = check_source(textwrap.dedent(src), "m.py")
    assert finding.line == 5 and [r.range.line for r in finding.related] == [12]


def test_joins_found_by_the_corpus() -> None:
    head = "from mindspore import nn\nclass N(nn.Cell):\n    def construct(self, x):\n"
    bodies = {
        "        y = 0\n        if x.sum() > 0:\n            y = x.sum()\n        return x * y\n": [
            ("MS112", 6)
        ],
        "        return x if x.sum() > 0 else 0\n": [("MS112", 4)],
        "        if bool(x.sum() > 0):\n            return x\n        return -1\n": [("MS112", 5)],
        "        if x.sum() > 0:\n            return x, x\n        return x, 1\n": [("MS112", 5)],
        "        if x.sum() > 0:\n            y = x\n        elif x.sum() < 0:\n"
        "            y = -x\n        return y\n": [("MS113", 8)],
    }
    for body, expected in bodies.items():
        assert errors(head + body) == expected, body
    none_join = "        if x.sum() > 0:\n            return x\n        return None\n"
    assert errors(head + none_join) == []
    assert errors(head + none_join, "STRICT") == [("MS205", 5)]
