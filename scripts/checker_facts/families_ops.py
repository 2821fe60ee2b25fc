"""Snippets of operators and subscripts: binary, unary, comparison and augmented operators over
pairs of value kinds; indexing, item assignment and `del` on each container kind.

Each table is data (value kind x operation); nothing here knows what MindSpore will do.
"""

from __future__ import annotations

from .program import Snippet

# Operands by kind (`x` is a float32 Tensor of shape (2, 3)).
OPERANDS = {
    "tensor": "x",
    "tensor_int": "x.astype(ms.int32)",
    "tensor_bool": "(x > 0)",
    "tensor_0d": "x.sum()",
    "int": "3",
    "float": "2.5",
    "bool": "True",
    "str": "'ab'",
    "none": "None",
    "tuple_tensors": "(x, x)",
    "tuple_ints": "(1, 2)",
    "list_ints": "[1, 2]",
    "list_tensors": "[x, x]",
    "dict": "{'a': 1}",
    "shape": "x.shape",
    "mutable_int": "ms.mutable(2)",
    "mutable_tuple": "ms.mutable((1, 2))",
    "parameter": "PARAM",
    "object": "OBJ",
    "jit_class": "Box()",
}

ARITHMETIC = {"add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//"}
ARITHMETIC |= {"mod": "%", "pow": "**"}
ARITHMETIC_PAIRS = (
    ("tensor", "tensor"),
    ("tensor", "int"),
    ("int", "tensor"),
    ("tensor_int", "float"),
    ("tensor_bool", "tensor_bool"),
    ("tensor", "none"),
    ("str", "tensor"),
    ("tuple_ints", "int"),
    ("shape", "int"),
    ("mutable_int", "int"),
)

# `+` and `*` mean more than arithmetic on sequences and strings.
SEQUENCE_OPS = (
    ("add", "tuple_ints", "tuple_ints"),
    ("add", "tuple_tensors", "tuple_tensors"),
    ("add", "list_ints", "list_ints"),
    ("add", "list_tensors", "list_ints"),
    ("add", "list_ints", "tuple_ints"),
    ("add", "str", "str"),
    ("add", "str", "int"),
    ("add", "shape", "tuple_ints"),
    ("add", "mutable_tuple", "tuple_ints"),
    ("add", "dict", "dict"),
    ("add", "none", "none"),
    ("add", "none", "int"),
    ("add", "object", "int"),
    ("add", "jit_class", "int"),
    ("add", "parameter", "tensor"),
    ("add", "tensor_0d", "float"),
    ("mul", "list_ints", "int"),
    ("mul", "list_tensors", "int"),
    ("mul", "str", "int"),
    ("mul", "int", "tuple_ints"),
    ("mul", "tuple_ints", "tensor_0d"),
    ("mul", "parameter", "int"),
    ("mul", "bool", "tensor"),
    ("sub", "tuple_ints", "tuple_ints"),
    ("mod", "str", "int"),
)

BITWISE = {"and": "&", "or": "|", "xor": "^", "lshift": "<<", "rshift": ">>"}
BITWISE_PAIRS = (
    ("tensor_int", "tensor_int"),
    ("tensor_bool", "tensor_bool"),
    ("tensor", "tensor"),
    ("int", "int"),
    ("bool", "bool"),
    ("tensor_int", "int"),
    ("tensor", "int"),
)

MATMUL = {
    "fits": "x @ x.T",
    "misfit": "x @ x",
    "int_tensor": "x.astype(ms.int32) @ x.T.astype(ms.int32)",
    "by_scalar": "x @ 2",
    "tuples": "(1, 2) @ (3, 4)",
    "parameter_fits": "PARAM @ x.T",
}

UNARY = {"neg": "-{a}", "pos": "+{a}", "invert": "~{a}", "not": "not {a}"}
UNARY_KINDS = (
    "tensor",
    "tensor_int",
    "tensor_bool",
    "tensor_0d",
    "int",
    "float",
    "bool",
    "str",
    "none",
    "tuple_ints",
    "shape",
    "object",
)

COMPARE = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
COMPARE_PAIRS = (
    ("tensor", "tensor"),
    ("tensor", "int"),
    ("str", "str"),
    ("tuple_ints", "tuple_ints"),
    ("tensor", "none"),
    ("str", "tensor"),
    ("shape", "tuple_ints"),
    ("list_ints", "list_ints"),
)

IDENTITY = {
    "tensor_is_none": "x is None",
    "none_is_none": "None is None",
    "tensor_is_tensor": "x is x",
    "int_is_int": "1 is 1",
    "object_is_object": "OBJ is OBJ",
    "dtype_is_dtype": "x.dtype is ms.float32",
    "shape_is_tuple": "x.shape is (2, 3)",
    "param_is_none": "PARAM is None",
}

MEMBERSHIP = {
    "int_in_tuple": "1 in (1, 2)",
    "tensor_in_tuple": "x in (x, x)",
    "key_in_dict": "'a' in {'a': 1}",
    "char_in_str": "'a' in 'abc'",
    "int_in_list": "1 in [1, 2]",
    "int_in_shape": "2 in x.shape",
    "tensor_in_list": "x in [x, x]",
    "int_in_tensor": "1 in x",
    "tensor_0d_in_tuple": "x.sum() in (1, 2)",
    "int_in_mutable": "1 in ms.mutable((1, 2))",
}

CHAINED = {
    "ints": "0 < 1 < 3",
    "tensor_0d": "0 < x.sum() < 100",
    "tensors": "x < x + 1 < x + 2",
    "shape_dims": "0 < x.shape[0] <= x.shape[1]",
    "eq_chain": "1 == 1 == 1",
    "mixed_in": "1 in (1, 2) == True",
}

# (init lines, body lines): the operation is body[1] (body[0] binds the target).
AUGMENTED: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "tuple_add": ((), ("v = (x,)", "v += (x,)", "return v")),
    "tuple_add_int": ((), ("v = (1, 2)", "v += 3", "return x, v")),
    "list_add": ((), ("v = [x]", "v += [x]", "return v")),
    "list_mul": ((), ("v = [1, 2]", "v *= 2", "return x, v")),
    "str_add": ((), ("s = 'a'", "s += 'b'", "return x, s")),
    "str_add_tensor": ((), ("s = 'a'", "s += x", "return x, s")),
    "tensor_add": ((), ("y = x * 1", "y += 1", "return y")),
    "tensor_matmul": ((), ("y = x * 1", "y @= x.T", "return y")),
    "tensor_int_floordiv": ((), ("y = x.astype(ms.int32)", "y //= 2", "return y")),
    "tensor_pow": ((), ("y = x * 1", "y **= 2", "return y")),
    "int_add_tensor": ((), ("n = 1", "n += x", "return n")),
    "none_add": ((), ("n = None", "n += 1", "return x, n")),
    "dict_or": ((), ("d = {'a': x}", "d |= {'b': x}", "return d")),
    "self_int": (("self.n = 1",), ("y = x", "self.n += 1", "return y * self.n")),
    "self_tensor": (
        ("self.t = Tensor(np.ones((2, 3), np.float32))",),
        ("y = x", "self.t += y", "return self.t"),
    ),
    "self_param": (
        ("self.p = Parameter(Tensor(np.ones((2, 3), np.float32)), name='p')",),
        ("y = x", "self.p += y", "return self.p + 0"),
    ),
    "self_tuple": (("self.v = (1, 2)",), ("y = x", "self.v += (3,)", "return y, self.v")),
    "self_list": (("self.v = [1, 2]",), ("y = x", "self.v += [3]", "return y, self.v")),
}

# Subscript targets and the index kinds tried on each.
CONTAINERS = {
    "tuple_tensors": "(x, x + 1, x + 2)",
    "tuple_ints": "(1, 2, 3)",
    "list_tensors": "[x, x + 1, x + 2]",
    "list_ints": "[1, 2, 3]",
    "str": "'abc'",
}
INDEXES = {
    "int": "0",
    "neg": "-1",
    "slice_step": "0:3:2",
    "slice_rev": "::-1",
    "tensor_0d_int": "Tensor(1, ms.int32)",
    "tensor_var": "(x.sum() > 0).astype(ms.int32)",
    "shape_dim": "x.shape[0] - 1",
    "mutable": "ms.mutable(1)",
    "bool": "True",
    "out_of_range": "5",
    "float": "1.0",
}

OTHER_READS = {
    "dict_str": "{'a': x, 'b': x + 1}['a']",
    "dict_missing": "{'a': x, 'b': x + 1}['c']",
    "dict_int_key": "{0: x, 1: x + 1}[1]",
    "dict_tensor_key": "{'a': x}[x.sum()]",
    "dict_mutable_key": "{'a': x}[ms.mutable('a')]",
    "shape_int": "x.shape[0]",
    "shape_neg": "x.shape[-1]",
    "shape_slice": "x.shape[1:]",
    "shape_tensor": "x.shape[Tensor(0, ms.int32)]",
    "shape_mutable": "x.shape[ms.mutable(0)]",
    "shape_out_of_range": "x.shape[5]",
    "parameter_int": "PARAM[0]",
    "nested_tuple": "((x, 1), 2)[0][1]",
    "object": "OBJ[0]",
    "none": "None[0]",
    "int": "3[0]",
}

TENSOR_READS = {
    "int": "x[0]",
    "neg": "x[-1]",
    "pair": "x[0, 1]",
    "column": "x[:, 1]",
    "slice_step": "x[::2]",
    "slice_rev": "x[::-1]",
    "none": "x[None]",
    "ellipsis": "x[...]",
    "ellipsis_int": "x[..., 0]",
    "list": "x[[0, 1]]",
    "tuple": "x[(0, 1)]",
    "bool_tensor": "x[x > 0]",
    "int_tensor": "x[Tensor([1, 0], ms.int32)]",
    "tensor_0d": "x[Tensor(1, ms.int32)]",
    "mutable": "x[ms.mutable(1)]",
    "bool": "x[True]",
    "float": "x[1.5]",
    "str": "x['a']",
    "out_of_range": "x[5]",
    "chained": "x[0][1]",
    "shape_dim": "x[x.shape[0] - 1]",
    "too_many": "x[0, 1, 2]",
}

TENSOR_WRITES = {
    "int": "y[0] = 1.0",
    "neg": "y[-1] = 1.0",
    "pair": "y[0, 1] = 2.0",
    "column": "y[:, 0] = 0.0",
    "slice_step": "y[::2] = 0.0",
    "ellipsis": "y[...] = 0.0",
    "none": "y[None] = 0.0",
    "list": "y[[0, 1]] = 0.0",
    "bool_tensor": "y[y > 0] = 0.0",
    "int_tensor": "y[Tensor([1], ms.int32)] = 0.0",
    "tensor_value": "y[0] = x[1]",
    "tuple_value": "y[0] = (1.0, 2.0, 3.0)",
    "str_value": "y[0] = 'a'",
    "out_of_range": "y[5] = 1.0",
}

OTHER_WRITES: dict[str, tuple[str, str]] = {
    "tuple_int": ("v = (x, x)", "v[0] = x"),
    "list_int": ("v = [x, x]", "v[1] = x * 2"),
    "list_neg": ("v = [x, x]", "v[-1] = x * 2"),
    "list_slice": ("v = [x, x]", "v[0:1] = [x * 2]"),
    "list_out_of_range": ("v = [x, x]", "v[5] = x"),
    "list_tensor_index": ("v = [x, x]", "v[Tensor(0, ms.int32)] = x"),
    "dict_existing": ("v = {'a': x}", "v['a'] = x * 2"),
    "dict_new": ("v = {'a': x}", "v['b'] = x * 2"),
    "dict_int_key": ("v = {'a': x}", "v[0] = x"),
    "str_int": ("v = 'abc'", "v[0] = 'z'"),
    "shape_int": ("v = x.shape", "v[0] = 1"),
}

DELETES: dict[str, tuple[str, str]] = {
    "list_int": ("v = [x, x]", "del v[0]"),
    "list_slice": ("v = [x, x, x]", "del v[0:2]"),
    "dict_key": ("v = {'a': x, 'b': x}", "del v['a']"),
    "tuple_int": ("v = (x, x)", "del v[0]"),
    "tensor_int": ("v = x * 1", "del v[0]"),
}

# Operators and subscripts do not depend much on where they are: in a Cell only (2 cores).
OP_CONTEXTS = ("construct",)


def _expr(family: str, op: str, kind: str, expr: str) -> Snippet:
    return Snippet(family, op, kind, (f"y = {expr}", "return x, y"), 0, contexts=OP_CONTEXTS)


def _binary(op: str, symbol: str, left: str, right: str) -> Snippet:
    expr = f"{OPERANDS[left]} {symbol} {OPERANDS[right]}"
    return _expr("operators", op, f"{left}_x_{right}", expr)


def operators() -> list[Snippet]:
    out = [_binary(op, s, a, b) for op, s in ARITHMETIC.items() for a, b in ARITHMETIC_PAIRS]
    out += [_binary(op, ARITHMETIC[op], a, b) for op, a, b in SEQUENCE_OPS]
    out += [_binary(op, s, a, b) for op, s in BITWISE.items() for a, b in BITWISE_PAIRS]
    out += [_expr("operators", "matmul", kind, expr) for kind, expr in MATMUL.items()]
    out += [
        _expr("operators", op, kind, form.format(a=OPERANDS[kind]))
        for op, form in UNARY.items()
        for kind in UNARY_KINDS
    ]
    out += [_binary(op, s, a, b) for op, s in COMPARE.items() for a, b in COMPARE_PAIRS]
    out += [_expr("operators", "is", kind, expr) for kind, expr in IDENTITY.items()]
    out += [
        _expr("operators", "is_not", kind, expr.replace(" is ", " is not "))
        for kind, expr in IDENTITY.items()
    ]
    out += [_expr("operators", "in", kind, expr) for kind, expr in MEMBERSHIP.items()]
    out += [
        _expr("operators", "not_in", kind, expr.replace(" in ", " not in ", 1))
        for kind, expr in MEMBERSHIP.items()
    ]
    out += [_expr("operators", "chained", kind, expr) for kind, expr in CHAINED.items()]
    for kind, (init, body) in AUGMENTED.items():
        out.append(
            Snippet(
                "operators",
                "augassign",
                kind,
                body,
                1,
                needs_self=bool(init),
                init=init,
                contexts=("construct", "jit") if not init else OP_CONTEXTS,
            )
        )
    return out


def subscripts() -> list[Snippet]:
    out = [
        _expr("subscripts", f"{container}_read", index, f"{target}[{key}]")
        for container, target in CONTAINERS.items()
        for index, key in INDEXES.items()
    ]
    out += [_expr("subscripts", "read", kind, expr) for kind, expr in OTHER_READS.items()]
    out += [_expr("subscripts", "tensor_read", kind, expr) for kind, expr in TENSOR_READS.items()]
    out += [
        Snippet(
            "subscripts",
            "tensor_write",
            kind,
            ("y = x * 1", line, "return y"),
            1,
            contexts=OP_CONTEXTS,
        )
        for kind, line in TENSOR_WRITES.items()
    ]
    out += [
        Snippet("subscripts", "write", kind, (bind, line, "return x, v"), 1, contexts=OP_CONTEXTS)
        for kind, (bind, line) in OTHER_WRITES.items()
    ]
    out += [
        Snippet("subscripts", "del", kind, (bind, line, "return x, v"), 1, contexts=OP_CONTEXTS)
        for kind, (bind, line) in DELETES.items()
    ]
    out.append(
        Snippet(
            "subscripts",
            "write",
            "self_param",
            ("y = x", "self.p[0] = 1.0", "return y + self.p"),
            1,
            needs_self=True,
            init=("self.p = Parameter(Tensor(np.ones((2, 3), np.float32)), name='p')",),
            contexts=OP_CONTEXTS,
        )
    )
    return out
