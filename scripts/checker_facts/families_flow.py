"""Snippets of control flow: joins of two values at a Tensor condition, loops, recursion.

Each list is data (value kind x operation); nothing here knows what MindSpore will do.
"""

from __future__ import annotations

from .program import Snippet

COND = "x.sum() > 0"
JOIN = ("MS112", r"Cannot join|join")
JOIN_NONE = ("MS205", r"Cannot join|join")

# Value kinds joined with a float32 Tensor; scalars are constants unless `mutable`.
KINDS = {
    "tensor_f32": "x + 1",
    "tensor_i32": "x.astype(ms.int32)",
    "tensor_f16": "x.astype(ms.float16)",
    "argmax": "x.argmax(axis=1)",
    "compare": "x > x.mean()",
    "int_const": "1",
    "float_const": "2.5",
    "bool_const": "True",
    "int_var": "ms.mutable(1)",
    "str": "'none'",
    "none": "None",
    "tuple_tensors": "(x, x)",
    "list_tensors": "[x, x]",
    "dict_tensors": "{'a': x}",
    "tuple_scalars": "(1, 2)",
    "list_scalars": "[1, 2]",
    "dict_scalars": "{'a': 1}",
    "cell": "SUB_CELL",
    "parameter": "PARAM",
    "function": "helper_fn",
    "object": "OBJ",
}

# Pairs where neither side is the plain float32 Tensor.
PAIRS = {
    "int_int": ("1", "2"),
    "int_float": ("1", "2.0"),
    "str_str": ("'a'", "'b'"),
    "none_int": ("None", "1"),
    "tuple_len": ("(x, x)", "(x, x, x)"),
    "tuple_list": ("(x, x)", "[x, x]"),
    "list_len": ("[x]", "[x, x]"),
    "dict_keys": ("{'a': x}", "{'b': x}"),
    "dict_same_keys": ("{'a': x}", "{'a': x + 1}"),
    "topk_tuple": ("ops.topk(x, 2)", "(x, x)"),
    "topk_topk": ("ops.topk(x, 2)", "ops.topk(x + 1, 2)"),
    "tuple_scalars": ("(1, 2)", "(3, 4)"),
    "parameter_tensor": ("PARAM", "x"),
    "mutable_ints": ("ms.mutable(1)", "ms.mutable(2)"),
    "i32_f16": ("x.astype(ms.int32)", "x.astype(ms.float16)"),
    "none_none": ("None", "None"),
}


# Each join form in a Cell; two of them also in a function or a called method (2 cores: the
# whole matrix would take an hour, and contexts rarely change a join's verdict).
JOIN_CONTEXTS = {
    "join_ifelse_assign": ("construct", "jit"),
    "join_early_return": ("construct", "method"),
}


def _join_forms(
    kind: str, a: str, b: str, code: dict[str, tuple[str, str]], with_contexts: bool = True
) -> list[Snippet]:
    forms = {
        "join_ifelse_assign": (
            (f"if {COND}:", f"    y = {a}", "else:", f"    y = {b}", "return y"),
            4,
        ),
        "join_early_return": ((f"if {COND}:", f"    return {a}", f"return {b}"), 2),
        "join_ifexp": ((f"y = {a} if {COND} else {b}", "return y"), 0),
        "join_const_cond": (
            ("if x.shape[0] > 1:", f"    y = {a}", "else:", f"    y = {b}", "return y"),
            4,
        ),
    }
    return [
        Snippet(
            "joins",
            op,
            kind,
            body,
            line,
            contexts=contexts if with_contexts else ("construct",),
            codes={} if op.endswith("const_cond") else code,
        )
        for op, (body, line) in forms.items()
        for contexts in [JOIN_CONTEXTS.get(op, ("construct",))]
    ]


def _join_codes(kind: str) -> dict[str, tuple[str, str]]:
    if kind == "none":
        return {"STRICT": JOIN_NONE}
    if kind.startswith(("tensor", "argmax", "compare")):
        return {}
    if kind in {"int_const", "float_const", "bool_const", "tuple_tensors", "tuple_scalars"}:
        return {"LAX": JOIN, "STRICT": JOIN}
    return {}


def joins() -> list[Snippet]:
    out: list[Snippet] = []
    for kind, other in KINDS.items():
        out += _join_forms(kind, "x * 2", other, _join_codes(kind))
        for op, word in (("join_and", "and"), ("join_or", "or")):
            body = (f"y = x.sum() {word} {other}", "return y")
            out.append(Snippet("joins", op, kind, body, 0, contexts=("construct",)))
    for kind, (a, b) in PAIRS.items():
        out += _join_forms(f"pair_{kind}", a, b, {}, with_contexts=False)
    return out


def loops() -> list[Snippet]:
    bodies = {
        "carried_dtype": (
            "y = x",
            "while y.sum() < 100:",
            "    y = (y * 2).astype(ms.int32)",
            "return y",
        ),
        "carried_f16": (
            "y = x",
            "while y.sum() < 100:",
            "    y = (y * 2).astype(ms.float16)",
            "return y",
        ),
        "carried_same": ("y = x", "while y.sum() < 100:", "    y = y * 2", "return y"),
        "concat_growth": (
            "y = x",
            "while y.sum() < 100:",
            "    y = ops.concat((y, x))",
            "return y",
        ),
        "return_inside": (
            "y = x",
            "while y.sum() < 100:",
            "    y = y * 2",
            "    if y.sum() > 50:",
            "        return y",
            "return y + 1",
        ),
        "return_inside_scalar": (
            "y = x",
            "while y.sum() < 100:",
            "    y = y * 2",
            "    if y.sum() > 50:",
            "        return 1",
            "return y",
        ),
        "carried_to_tuple": ("y = x", "while y.sum() < 100:", "    y = (y, y)", "return y"),
        "numpy_inside": (
            "y = x",
            "while y.sum() < 100:",
            "    y = y * Tensor(np.ones((2, 3), np.float32) * 2)",
            "return y",
        ),
        "numpy_call_inside": (
            "y = x",
            "while y.sum() < 100:",
            "    y = Tensor(np.abs(y.asnumpy()) * 2)",
            "return y",
        ),
        "scalar_counter": (
            "i = 0",
            "y = x",
            "while y.sum() < 100:",
            "    y = y * 2",
            "    i = i + 1",
            "return y, i",
        ),
        "const_while": (
            "i = 0",
            "y = x",
            "while i < 3:",
            "    y = y * 2",
            "    i = i + 1",
            "return y",
        ),
        "break_inside": (
            "y = x",
            "while y.sum() < 100:",
            "    y = y * 2",
            "    if y.max() > 20:",
            "        break",
            "return y",
        ),
        "for_range_tensor_if": (
            "y = x",
            "for i in range(3):",
            "    if y.sum() > 10:",
            "        y = y - 1",
            "    y = y * 2",
            "return y",
        ),
        "for_tensor_rows": ("s = 0", "for row in x:", "    s = s + row.sum()", "return s"),
        "for_tuple_tensors": ("s = x", "for t in (x, x * 2):", "    s = s + t", "return s"),
        "while_list_append": (
            "out = []",
            "y = x",
            "while y.sum() < 100:",
            "    y = y * 2",
            "    out.append(y)",
            "return y",
        ),
        "while_bound_inside": ("while x.sum() < 100:", "    z = x * 2", "    x = z", "return z"),
        "for_else": (
            "y = x",
            "for i in range(2):",
            "    y = y + i",
            "else:",
            "    y = y * 2",
            "return y",
        ),
    }
    codes = {
        "for_else": {"LAX": ("MS110", "else"), "STRICT": ("MS110", "else")},
        "while_bound_inside": {"LAX": ("MS114", "while"), "STRICT": ("MS114", "while")},
    }
    op_lines = {
        k: next((i for i, line in enumerate(v) if line.startswith("    ")), 0)
        for k, v in bodies.items()
    }
    return [
        Snippet("loops", op, "tensor_f32", body, op_lines[op], codes=codes.get(op, {}))
        for op, body in bodies.items()
    ]


def recursion() -> list[Snippet]:
    module = (
        "def fact(n):",
        "    if n <= 1:",
        "        return 1",
        "    return n * fact(n - 1)",
        "",
        "",
        "def ping(x):",
        "    if x.sum() > 100:",
        "        return x",
        "    return pong(x * 2)",
        "",
        "",
        "def pong(x):",
        "    return ping(x + 1)",
    )
    return [
        Snippet(
            "recursion", "const_recursion", "int_const", ("return x * fact(4)",), 0, module=module
        ),
        Snippet(
            "recursion", "mutual_tensor_cond", "tensor_f32", ("return ping(x)",), 0, module=module
        ),
        Snippet(
            "recursion",
            "method_tensor_cond",
            "tensor_f32",
            ("return self.grow(x)",),
            0,
            needs_self=True,
            members=(
                "def grow(self, x):",
                "    if x.sum() > 100:",
                "        return x",
                "    return self.grow(x * 2)",
            ),
            contexts=("construct",),
            codes={"LAX": ("MS119", "depth"), "STRICT": ("MS119", "depth")},
        ),
    ]
