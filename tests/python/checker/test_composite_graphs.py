"""Composite APIs in compiled code (round 34, measured on MindSpore 2.10): MultitypeFuncGraph
creation (MS1070) and registrations (MS269, STRICT), HyperMap / Map sequences (MS1071, MS387),
hand-written Primitives (MS1072, MS386), `ops.Custom` built in the graph (MS1073), and the
MS1052 widening to Primitive methods and attribute writes."""

from __future__ import annotations

import textwrap

from mindscope_ls.checker import Finding, check_source


def codes(source: str, level: str = "LAX") -> list[str]:
    found: list[Finding] = check_source(textwrap.dedent(source), "m.py", level=level)
    return [f.code for f in found if f.severity.name.lower() != "information"]


HEAD = """
import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops

add = ops.MultitypeFuncGraph("add")


@add.register("Tensor", "Tensor")
def _add(x, y):
    return x + y

"""


def net(body: str, init: str = "pass") -> str:
    return HEAD + textwrap.dedent(
        f"""
        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                {init}

            def construct(self, x):
                {body}
        """
    )


def test_multitype_created_in_construct_not_in_init() -> None:
    assert "MS1070" in codes(net('g = ops.MultitypeFuncGraph("g")\n        return x'))
    assert "MS1070" not in codes(net("return self.g(x)", 'self.g = ops.MultitypeFuncGraph("g")'))


def test_hypermap_lengths_and_kinds() -> None:
    hm = "self.hm = ops.HyperMap()"
    assert "MS1071" in codes(net("return self.hm(add, (x, x), (x,))", hm))
    assert "MS1071" in codes(net("return self.hm(add, (x, x), [x, x])", hm))
    assert "MS1071" in codes(net("return self.hm(add, ((x, x), x), ((x,), x))", hm))
    # the function bound by the constructor: every argument is a sequence
    assert "MS1071" in codes(net("return self.hm((x, x), (x,))", "self.hm = ops.HyperMap(add)"))
    assert "MS1071" not in codes(net("return self.hm(add, (x, x), (x, x))", hm))
    # a Tensor leaf beside a tuple is not judged; unknown sequences neither
    assert "MS1071" not in codes(net("return self.hm(add, (x, x), (x, (x,)))", hm))
    assert "MS1071" not in codes(net("return self.hm(add, self.ws, (x,))", hm))


def test_hypermap_lists_returned_only_from_construct() -> None:
    hm = "self.hm = ops.HyperMap()"
    assert "MS387" in codes(net("return self.hm(add, [x, x], [x, x])", hm))
    assert "MS387" not in codes(net("r = self.hm(add, [x, x], [x, x])\n        return r[0]", hm))
    assert "MS387" not in codes(net("return self.hm(add, (x, x), (x, x))", hm))


def test_multitype_no_match_under_strict_only() -> None:
    bad = net("return add(x, 2)")
    assert "MS269" in codes(bad, "STRICT")
    assert "MS269" not in codes(bad, "LAX")
    assert "MS269" not in codes(net("return add(x, x)"), "STRICT")
    # constants only: the fallback runs them at STRICT too
    assert "MS269" not in codes(net("return x * add(2, 3)"), "STRICT")


def test_multitype_with_unknown_registration_not_judged() -> None:
    source = net("return add(x, 2)") + textwrap.dedent(
        """
        @add.register("Int", "Tensor")
        def _int(n, y):
            return y
        """
    )
    assert "MS269" not in codes(source, "STRICT")


PRIMITIVE = """
from mindspore.ops import PrimitiveWithInfer, prim_attr_register


class {name}(PrimitiveWithInfer):
    @prim_attr_register
    def __init__(self):
        pass
{infer}
    def __call__(self, a):
        return a * 2
"""

INFER = """
    def infer_shape(self, a):
        return a

    def infer_dtype(self, a):
        return a
"""


def test_user_primitive_fails_or_gives_none() -> None:
    call = "return self.op(x)"
    with_infer = PRIMITIVE.format(name="Twice", infer=INFER)
    no_infer = PRIMITIVE.format(name="Twice", infer="")
    assert "MS1072" in codes(net(call, "self.op = Twice()") + with_infer)
    found = codes(net(call, "self.op = Twice()") + no_infer)
    assert "MS386" in found and "MS1072" not in found
    # named like a MindSpore kernel: graph mode runs that kernel
    relu = PRIMITIVE.format(name="ReLU", infer=INFER)
    assert not {"MS1072", "MS386"} & set(codes(net(call, "self.op = ReLU()") + relu))
    # created in __init__ and never called in the graph
    assert "MS1072" not in codes(net("return x", "self.op = Twice()") + with_infer)


def test_custom_with_function_arguments() -> None:
    fn = "\ndef shape_of(a, b):\n    return a\n"
    built = 'op = ops.Custom(_add, out_shape={}, out_dtype=ms.float32, func_type="pyfunc")'
    bad = net(built.format("shape_of") + "\n        return op(x, x)") + fn
    ok = net(built.format("(3,)") + "\n        return op(x, x)") + fn
    assert "MS1073" in codes(bad)
    assert "MS1073" not in codes(ok)


def test_primitive_methods_and_writes() -> None:
    init = "self.op = ops.ReduceSum()"
    assert "MS1052" in codes(net('self.op.add_prim_attr("k", 1)\n        return x', init))
    assert "MS1052" in codes(net("self.op.keep_dims = True\n        return x", init))
    assert "MS1052" in codes(net('ops.Add().add_prim_attr("k", 1)\n        return x'))
    # a Cell's attribute written in construct is another rule's business
    assert "MS1052" not in codes(net("self.op = ops.Add()\n        return x", init))
    # not a Primitive method
    assert "MS1052" not in codes(net("return self.op(x, 0)", init))


def test_primitive_named_through_explicit_init() -> None:
    source = net("return self.op(x)", "self.op = Twice()") + textwrap.dedent(
        """
        from mindspore.ops import Primitive


        class Twice(Primitive):
            def __init__(self):
                Primitive.__init__(self, "Twice")

            def __call__(self, a):
                return a * 2
        """
    )
    assert "MS1072" in codes(source)


def test_stored_ops_partial_under_strict() -> None:
    local = "p = ops.partial(_add, 2.0)\n        return p(x)"
    init = "self.p = ops.partial(_add, 2.0)\n                self.hm = ops.HyperMap()"
    assert "MS207" in codes(net("return self.p(x)", "self.p = ops.partial(_add, 2.0)"), "STRICT")
    assert "MS207" in codes(net("return self.hm(self.p, (x, x))", init), "STRICT")
    assert "MS207" not in codes(net("return self.hm(self.p, (x, x))", init), "LAX")
    # built in construct: compiles
    assert "MS207" not in codes(net(local), "STRICT")


def test_registered_functions_are_compiled() -> None:
    body = """
    f = ops.MultitypeFuncGraph("f")


    @f.register({types})
    def _f(v):
        try:
            return v * 2
        except ValueError:
            return v
    """
    single = textwrap.dedent(body.format(types='"Tensor"'))
    assert "MS101" in codes(net("return f(x)") + single)
    # never used in compiled code: PyNative only
    assert "MS101" not in codes(net("return x") + single)
    # one overload among several, not for Tensors only: it may never be picked
    other = textwrap.dedent(
        """
        @f.register("Tensor")
        def _g(v):
            return v
        """
    )
    numbers = textwrap.dedent(body.format(types='"Number"'))
    assert "MS101" not in codes(net("return f(x)") + numbers + other)
