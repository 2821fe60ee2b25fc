"""Snippets of silent divergence (issue 13): programs that may compile and compute something
other than PyNative. In-place Tensor methods on locals, inputs and Parameters, in loops with
branches; results of `map`/`filter`/`zip` read twice; Python run while compiling (random
numbers, module-level lists and dicts); `is` between Tensors; writes to the caller's Tensor.
Near misses (`sub_`, `copy_`, `y = y.add_(1)`, `reversed`, a single read) are here too.

Each entry is data; nothing here knows what MindSpore will do. The first line of a body holding
one of DIVERGING's marks is the operation's line (else the first line).
"""

from __future__ import annotations

from .program import Snippet

# Two calls of the compiled code: whether they agree (GRAPH_MODE keeps what it compiled).
TWICE = (
    "net = {call}",
    "first = net({input})",
    "second = net({input})",
    "return repr(first) == repr(second)",
)
TWICE_JIT = (
    "first = {call}({input})",
    "second = {call}({input})",
    "return repr(first) == repr(second)",
)
# The caller reads its argument after the call.
CALLER_READS = ("t = {input}", "out = {call}(t)", "return out, t")

MODULE = (
    "import random",
    "",
    "LOG = []",
    "STATE = {'calls': 0}",
    "",
    "",
    "def loss_inplace(v):",
    "    y = v * 1",
    "    for i in range(3):",
    "        if i % 2 == 0:",
    "            y.add_(v)",
    "    return (y * v).sum()",
)

# name -> (body, run lines)
VALUES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # in-place methods
    "add_loop_branch": (
        (
            "s = x * 1",
            "for i in range(3):",
            "    if i % 2 == 0:",
            "        s.add_(1)",
            "return s",
        ),
        (),
    ),
    "add_loop_tensor_cond": (
        (
            "s = x * 1",
            "for i in range(3):",
            "    if s.sum() < 10:",
            "        s.add_(1)",
            "return s",
        ),
        (),
    ),
    "mul_local": (("y = x * 1", "y.mul_(2)", "return y"), ()),
    "div_input": (("x.div_(2)", "return x * 1"), ()),
    "floor_divide_local": (("y = x * 1", "y.floor_divide_(2)", "return y"), ()),
    "remainder_local": (("y = x * 1", "y.remainder_(2)", "return y"), ()),
    "add_held_in_tuple": (("t = (x, x * 2)", "x.add_(1)", "return t[0]"), ()),
    "add_read_through_alias": (("y = x * 1", "z = y", "y.add_(1)", "return z"), ()),
    "add_input_caller_reads": (("x.add_(1)", "return x * 1"), CALLER_READS),
    "add_through_grad": (("return ms.grad(loss_inplace)(x)",), ()),
    "add_rebound": (("y = x * 1", "y = y.add_(1)", "return y"), ()),
    "add_result_used": (("y = x * 1", "z = y.add_(1)", "return z"), ()),
    "sub_local": (("y = x * 1", "y.sub_(1)", "return y"), ()),
    "copy_local": (("y = x * 1", "y.copy_(x * 2)", "return y"), ()),
    # in-place operators and item writes on the caller's Tensor
    "iadd_input_caller_reads": (("x += 1", "return x * 1"), CALLER_READS),
    "setitem_input_caller_reads": (("x[0] = 7.0", "return x * 1"), CALLER_READS),
    "iadd_local_loop_branch": (
        (
            "s = x * 1",
            "for i in range(3):",
            "    if s.sum() < 10:",
            "        s += Tensor(1.0, ms.float32)",
            "return s",
        ),
        (),
    ),
    # iterators read twice
    "map_read_twice": (
        ("m = map(lambda v: v * 2, [1, 2])", "a = list(m)", "b = list(m)", "return x, a, b"),
        (),
    ),
    "filter_read_twice": (
        ("m = filter(lambda v: v > 1, [1, 2, 3])", "a = list(m)", "b = list(m)", "return x, a, b"),
        (),
    ),
    "zip_looped_twice": (
        (
            "m = zip([1, 2], [3, 4])",
            "s = 0",
            "for a, b in m:",
            "    s = s + a * b",
            "for a, b in m:",
            "    s = s + a",
            "return x * s",
        ),
        (),
    ),
    "enumerate_read_twice": (
        ("m = enumerate([5, 6])", "a = list(m)", "b = list(m)", "return x, a, b"),
        (),
    ),
    "map_tensors_read_twice": (
        ("m = map(lambda v: v * 2, (x, x))", "a = tuple(m)", "b = tuple(m)", "return a, len(b)"),
        (),
    ),
    "reversed_read_twice": (
        ("m = reversed([5, 6])", "a = list(m)", "b = list(m)", "return x, a, b"),
        (),
    ),
    "map_read_once": (("m = map(lambda v: v * 2, [1, 2])", "return x, list(m)"), ()),
    # Python run once, while compiling
    "np_random_rand": (("r = np.random.rand()", "return x * r"), TWICE),
    "np_random_tensor": (
        ("r = Tensor(np.random.randn(2, 3).astype(np.float32))", "return x + r"),
        TWICE,
    ),
    "random_random": (("r = random.random()", "return x * r"), TWICE),
    "module_list_append": (("LOG.append(1)", "return x * len(LOG)"), TWICE),
    "module_dict_counter": (("STATE['calls'] += 1", "return x * STATE['calls']"), TWICE),
    "ops_rand": (("r = ops.rand(2, 3)", "return x + r"), TWICE),
    # identity of Tensors
    "is_alias": (("y = x", "if y is x:", "    return x * 2", "return x"), ()),
    "is_not_output": (("y = x", "return x, x is not y"), ()),
    "is_none": (("return x, x is None",), ()),
}

# Tensors the Cell holds, updated in place and read on the next call: (init lines, body).
HELD_STATE: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "parameter_add_": (
        ("self.p = Parameter(Tensor(np.zeros((2, 3), np.float32)), name='p')",),
        ("self.p.add_(1)", "return x + self.p"),
    ),
    "tensor_attr_mul_": (
        ("self.t = Tensor(np.ones((2, 3), np.float32))",),
        ("self.t.mul_(2)", "return x + self.t"),
    ),
    "parameter_assign": (
        ("self.p = Parameter(Tensor(np.zeros((2, 3), np.float32)), name='p')",),
        ("ops.assign(self.p, self.p + 1)", "return x + self.p"),
    ),
}

# Division of Tensors known at compile time (folded by the compiler) and near misses.
DIVISION_MODULE = ("A_INT = Tensor(7, ms.int32)", "B_INT = Tensor(2, ms.int32)")
DIVISIONS: dict[str, tuple[str, ...]] = {
    "int_consts_div": ("a = Tensor(7, ms.int32)", "b = Tensor(2, ms.int32)", "return x, a / b"),
    "int_literals_div": ("a = Tensor(7)", "b = Tensor(2)", "return x, a / b"),
    "int_arrays_div": (
        "a = Tensor(np.array([7, 8], np.int32))",
        "b = Tensor(np.array([2, 3], np.int32))",
        "return x, a / b",
    ),
    "module_int_consts_div": ("return x, A_INT / B_INT",),
    "int_float_consts_div": (
        "a = Tensor(7, ms.int32)",
        "b = Tensor(2.0, ms.float32)",
        "return x, a / b",
    ),
    "int_consts_ops_div": (
        "a = Tensor(7, ms.int32)",
        "b = Tensor(2, ms.int32)",
        "return x, ops.div(a, b)",
    ),
    "int_consts_div_times_input": (
        "a = Tensor(7, ms.int32)",
        "b = Tensor(2, ms.int32)",
        "return x * (a / b)",
    ),
    "float_consts_div": (
        "a = Tensor(7.0, ms.float32)",
        "b = Tensor(2.0, ms.float32)",
        "return x, a / b",
    ),
    "int_cast_left_div": (
        "a = Tensor(7, ms.int32)",
        "b = Tensor(2, ms.int32)",
        "return x, a.astype(ms.float32) / b",
    ),
    "int_consts_div_cast_result": (
        "a = Tensor(7, ms.int32)",
        "b = Tensor(2, ms.int32)",
        "return x, (a / b).astype(ms.float32)",
    ),
    "int_const_div_number": ("a = Tensor(7, ms.int32)", "return x, a / 2"),
    "int_input_div_const": ("y = x.astype(ms.int32)", "b = Tensor(2, ms.int32)", "return y / b"),
}

DIVERGING = (
    "_(",
    "+=",
    "] = ",
    "np.random",
    "random.random",
    "ops.rand",
    "LOG.",
    " is ",
    " / ",
    "ops.div(",
    "loss_inplace",
)


def _op_line(body: tuple[str, ...]) -> int:
    uses = [i for i, b in enumerate(body) if "(m)" in b or b.endswith(" in m:")]
    if body[0].startswith("m = ") and uses:
        return uses[1] if len(uses) > 1 else uses[0]  # an iterator: its second use differs
    for i, line in enumerate(body):
        if any(mark in line for mark in DIVERGING):
            return i
    return 0


def values() -> list[Snippet]:
    out = []
    for op, (body, run) in VALUES.items():
        line = _op_line(body)
        if run is TWICE:  # the Cell called twice, and the `@ms.jit` function called twice
            out.append(
                Snippet(
                    "diverge",
                    op,
                    "value",
                    body,
                    line,
                    module=MODULE,
                    run=TWICE,
                    contexts=("construct",),
                )
            )
            out.append(
                Snippet(
                    "diverge",
                    op,
                    "value",
                    body,
                    line,
                    module=MODULE,
                    run=TWICE_JIT,
                    contexts=("jit",),
                )
            )
        else:
            out.append(
                Snippet(
                    "diverge",
                    op,
                    "value",
                    body,
                    line,
                    module=MODULE,
                    run=run,
                    contexts=("construct", "jit"),
                )
            )
    for op, (init, body) in HELD_STATE.items():
        out.append(
            Snippet(
                "diverge",
                op,
                "state",
                body,
                _op_line(body),
                needs_self=True,
                init=init,
                module=MODULE,
                run=TWICE,
                contexts=("construct",),
            )
        )
    for op, body in DIVISIONS.items():
        out.append(
            Snippet(
                "diverge",
                op,
                "value",
                body,
                _op_line(body),
                module=DIVISION_MODULE,
                contexts=("construct", "jit"),
            )
        )
    return out
