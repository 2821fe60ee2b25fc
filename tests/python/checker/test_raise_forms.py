"""MS1039, MS1040, MS254, MS255, MS1000's module-level names, MS219 without a return, and the
fallback rules left quiet in raise branches a folded test drops (measured on MindSpore 2.10)."""

from __future__ import annotations

import textwrap

from mindscope_ls.checker import Finding, Severity, check_source


def check(source: str, level: str = "LAX") -> list[Finding]:
    return check_source(textwrap.dedent(source), "m.py", level=level)


def errors(source: str, level: str = "LAX") -> list[tuple[int, str]]:
    return [(f.line, f.code) for f in check(source, level) if f.severity is Severity.ERROR]


HEAD = """
import sys
import numpy as np
from mindspore import Tensor, nn, ops

ERR = ValueError("bad")
Err = ValueError


def make_error(msg):
    return ValueError(msg)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.err = ValueError
        self.flag = False

"""


def cell(body: str) -> str:
    return HEAD + textwrap.indent(textwrap.dedent(body), "    ")


def test_bare_raise_fails_under_a_tensor_test_only() -> None:
    bad = cell(
        """
        def construct(self, x):
            if x.sum() > 100:
                raise
            return x
        """
    )
    assert [c for _, c in errors(bad)] == ["MS1039"]
    for test in ("x.shape[0] > 10", "self.flag"):
        ok = cell(
            f"""
            def construct(self, x):
                if {test}:
                    raise
                return x
            """
        )
        assert errors(ok) == [], test


def test_bare_raise_after_a_returning_tensor_test() -> None:
    src = cell(
        """
        def construct(self, x):
            if x.sum() > 0:
                return x
            raise
        """
    )
    assert [c for _, c in errors(src)] == ["MS1039"]


def test_attribute_class_needs_a_tensor_test_but_attribute_instance_does_not() -> None:
    called = "raise self.err('bad')"
    instance = "raise self.err"
    for raise_line, test, expected in [
        (called, "x.sum() > 100", ["MS1039"]),
        (called, "x.shape[0] > 10", []),
        (instance, "x.shape[0] > 10", ["MS1039"]),
        (instance, "self.flag", []),
        (
            "raise ValueError('a') if x.shape[1] > 1 else TypeError('b')",
            "x.shape[0] > 10",
            ["MS1039"],
        ),
    ]:
        src = cell(
            f"""
            def construct(self, x):
                if {test}:
                    {raise_line}
                return x
            """
        )
        assert [c for _, c in errors(src)] == expected, (raise_line, test)


def test_local_class_and_local_instance() -> None:
    cls = cell(
        """
        def construct(self, x):
            kind = ValueError if x.shape[0] > 1 else TypeError
            if x.sum() > 100:
                raise kind("bad")
            return x
        """
    )
    assert [c for _, c in errors(cls)] == ["MS1039"]
    inst = cell(
        """
        def construct(self, x):
            err = ValueError("bad")
            if x.sum() > 100:
                raise err
            return x
        """
    )
    assert errors(inst) == []
    assert [c for _, c in errors(inst, "STRICT")] == ["MS254"]
    folded = inst.replace("x.sum() > 100", "x.shape[0] > 10")
    assert errors(folded, "STRICT") == []


def test_module_level_names_raised() -> None:
    for raise_line in ("raise make_error('bad')", "raise Err('bad')", "raise ERR"):
        src = cell(
            f"""
            def construct(self, x):
                if x.shape[0] > 10:
                    {raise_line}
                return x
            """
        )
        assert [c for _, c in errors(src)] == ["MS1000"], raise_line
        folded = src.replace("x.shape[0] > 10", "self.flag")
        assert errors(folded) == [], raise_line


def test_exit_under_a_tensor_test() -> None:
    for call in ("sys.exit(1)", "exit(1)", "quit()"):
        src = cell(
            f"""
            def construct(self, x):
                if x.sum() > 100:
                    {call}
                return x
            """
        )
        assert [c for _, c in errors(src)] == ["MS1040"], call
        assert errors(src.replace("x.sum() > 100", "x.shape[0] > 10")) == [], call


def test_helper_returning_none_after_tensor_flow_under_strict() -> None:
    bad = cell(
        """
        def check(self, x):
            if x.sum() > 100:
                print("large")

        def construct(self, x):
            self.check(x)
            return x
        """
    )
    assert errors(bad) == []
    assert [c for _, c in errors(bad, "STRICT")] == ["MS255"]
    returns = bad.replace("\n\n    def construct", "\n        return x\n\n    def construct")
    assert 'large")\n        return x' in returns
    assert errors(returns, "STRICT") == []
    assigns = bad.replace('print("large")', "y = x + 1")
    assert errors(assigns, "STRICT") == []
    folded = bad.replace("x.sum() > 100", "self.flag and x.sum() > 100")
    assert errors(folded, "STRICT") == []


def test_helper_of_a_jit_function_compiles_at_lax() -> None:
    src = """
    import numpy as np
    import mindspore as ms
    from mindspore import Tensor

    def check(x):
        if x.sum() > 100:
            raise ValueError("large")

    @ms.jit
    def f(x):
        check(x)
        return x
    """
    assert errors(src, "STRICT") == []


def test_construct_returning_nothing_after_tensor_flow() -> None:
    src = cell(
        """
        def construct(self, x):
            if x.sum() > 100:
                y = x + 1
        """
    )
    assert [c for _, c in errors(src, "STRICT")] == ["MS219"]
    assert errors(src.replace("x.sum() > 100", "x.shape[0] > 10"), "STRICT") == []


def test_fallback_formatting_in_a_dropped_raise_branch() -> None:
    dead = cell(
        """
        def construct(self, x):
            if x.shape[0] > 10:
                raise ValueError("bad %d" % x.shape[0])
            assert x.shape[1] == 3, "bad {}".format(x)
            return x
        """
    )
    assert errors(dead, "STRICT") == []
    live = cell(
        """
        def construct(self, x):
            if x.sum() > 100:
                raise ValueError("bad %d" % x.shape[0])
            return x
        """
    )
    assert [c for _, c in errors(live, "STRICT")] == ["MS215"]


def test_value_rules_in_a_dropped_branch_and_in_raised_values() -> None:
    src = cell(
        """
        def construct(self, x):
            if x.shape[0] > 10:
                raise ValueError(f"bad {x.tolist()} {x.device} {np.mean(x)}")
            return x
        """
    )
    assert errors(src) == [] and errors(src, "STRICT") == []
    live = src.replace("x.shape[0] > 10", "x.sum() > 100")
    assert errors(live) == []  # the raised message is built by the fallback at LAX
    assert {c for _, c in errors(live, "STRICT")} >= {"MS201", "MS223"}


def test_tuple_of_numbers_given_to_the_exception() -> None:
    for line, expected in [
        ('raise ValueError("bad", x.shape)', ["MS1039"]),
        ("raise ValueError(list(x.shape))", ["MS1039"]),
        ('raise ValueError("bad", (1, 2))', ["MS1039"]),
        ('raise ValueError({"a": 1})', ["MS1039"]),
        ('raise ValueError(("a", 1))', []),
        ('raise ValueError("bad", str(x.shape))', []),
        ('raise ValueError("bad", x.shape[0], x)', []),
    ]:
        src = cell(
            f"""
            def construct(self, x):
                if x.sum() > 100:
                    {line}
                return x
            """
        )
        assert [c for _, c in errors(src)] == expected, line
        assert errors(src.replace("x.sum() > 100", "x.shape[0] > 10")) == [], line
    asserted = cell(
        """
        def construct(self, x):
            assert x.sum() > 0, x.shape
            return x
        """
    )
    assert [c for _, c in errors(asserted)] == ["MS1039"]
    assert errors(asserted.replace("x.sum() > 0", "x.shape[0] == 2")) == []
