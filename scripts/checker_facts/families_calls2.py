"""Snippets of unpacking, attribute access, calls and iteration on each value kind.

Each list is data (value kind x operation); nothing here knows what MindSpore will do.
"""

from __future__ import annotations

from .program import Snippet

CONSTRUCT = ("construct",)  # 2 cores: these rarely change verdict between contexts
X3 = "ops.ones((3, 2), ms.float32)"  # a Tensor whose first axis is 3 (x's is 2)
X0 = ("", "def x0():", "    return Tensor(np.ones((2, 3), np.float32))")
PARAM_INIT = ("self.p = Parameter(x0(), name='p')",)

# Module-level helpers the call snippets use, by name (each program gets only its own).
HELPERS: dict[str, tuple[str, ...]] = {
    "h_args": ("def h_args(*args):", "    return args[0]"),
    "h_kwargs": ("def h_kwargs(**kw):", "    return kw['a']"),
    "h_mixed": ("def h_mixed(a, b=2, *rest, c=3, **kw):", "    return a * b * c"),
    "h_kwonly": ("def h_kwonly(a, *, scale):", "    return a * scale"),
    "h_list_default": ("def h_list_default(a, acc=[]):", "    acc.append(a)", "    return acc[0]"),
    "h_tensor_default": (
        "def h_tensor_default(a, t=Tensor(1.0, ms.float32)):",
        "    return a + t",
    ),
    "h_count": ("def h_count(*args):", "    return len(args)"),
    "make_adder": (
        "def make_adder(t):",
        "    def add(v):",
        "        return v + t",
        "",
        "    return add",
    ),
    "pair": ("def pair(v):", "    return v, v + 1"),
    "Sub": (
        "class Sub(nn.Cell):",
        "    def construct(self, a, scale=1):",
        "        return a * scale",
    ),
    "functools": ("import functools",),
}

# ---- unpacking: (body, index of the operation line)
UNPACKING: dict[str, tuple[tuple[str, ...], int]] = {
    "tensor_rows2": (("a, b = x", "return a + b"), 0),
    "tensor_rows3": ((f"a, b = {X3}", "return a + b"), 0),
    "tensor_three_of_two": (("a, b, c = x", "return a + b + c"), 0),
    "tensor_0d": (("a, b = x.sum()", "return a + b"), 0),
    "tuple_right": (("a, b = (x, x + 1)", "return a + b"), 0),
    "tuple_short": (("a, b, c = (x, x + 1)", "return a + b + c"), 0),
    "tuple_long": (("a, b = (x, x, x)", "return a + b"), 0),
    "list_right": (("a, b = [x, x + 1]", "return a + b"), 0),
    "list_wrong": (("a, b, c = [x, x + 1]", "return a + b + c"), 0),
    "shape": (("a, b = x.shape", "return x * a + b"), 0),
    "shape_wrong": (("a, b, c = x.shape", "return x * a"), 0),
    "dict_keys": (("a, b = {'p': x, 'q': x}", "return x, a + b"), 0),
    "dict_items": (("(k, v), (k2, v2) = {'p': x, 'q': x}.items()", "return v + v2"), 0),
    "dict_values": (("a, b = {'p': x, 'q': x + 1}.values()", "return a + b"), 0),
    "str_right": (("a, b = 'pq'", "return x, a + b"), 0),
    "str_wrong": (("a, b = 'pqr'", "return x, a + b"), 0),
    "none": (("a, b = None", "return x"), 0),
    "int": (("a, b = 3", "return x"), 0),
    "range": (("a, b = range(2)", "return x * a + b"), 0),
    "mutable": (("a, b = ms.mutable((1, 2))", "return x * a + b"), 0),
    "helper_pair": (("a, b = pair(x)", "return a + b"), 0),
    "topk": (("values, indices = x.topk(2)", "return values, indices"), 0),
    "split": (("a, b = ops.split(x, 1)", "return a + b"), 0),
    "starred_tuple": (("a, *rest = (x, x + 1, x + 2)", "return a, rest"), 0),
    "starred_tensor": (("a, *rest = x", "return a"), 0),
    "starred_middle": (("a, *mid, c = (1, 2, 3, 4)", "return x * c, mid"), 0),
    "starred_list_last": (("*init, last = [x, x + 1]", "return last"), 0),
    "nested_right": (("(a, b), c = (x, x + 1), x + 2", "return a + b + c"), 0),
    "nested_wrong": (("(a, b), c = (x, x + 1, x), x", "return a + c"), 0),
    "swap_tensors": (("a, b = x, x + 1", "a, b = b, a", "return a - b"), 1),
    "swap_list_items": (("v = [x, x + 1]", "v[0], v[1] = v[1], v[0]", "return v[0]"), 1),
    "for_pairs": (
        ("s = x * 0", "for a, b in ((x, x), (x, x + 1)):", "    s = s + a * b", "return s"),
        1,
    ),
    "for_pairs_wrong": (
        ("s = x * 0", "for a, b in ((x, x, x), (x, x)):", "    s = s + a * b", "return s"),
        1,
    ),
    "for_tensor_rows_pairs": (
        ("s = 0", f"for a, b in {X3}:", "    s = s + a * b", "return x * s"),
        1,
    ),
    "for_tensor_rows_wrong": (
        ("s = 0", "for a, b in x:", "    s = s + a * b", "return x * s"),
        1,
    ),
    "comprehension_pairs": (("y = [a * b for a, b in ((x, 1), (x, 2))]", "return y"), 0),
    "star_in_tuple_literal": (("y = (*(x, x), x)", "return y"), 0),
    "star_in_list_literal": (("y = [*[x, x], x]", "return y"), 0),
    "star_dict_literal": (("y = {**{'a': x}, 'b': x}", "return y['a']"), 0),
}

# ---- attributes: receivers x attribute names
RECEIVERS = {
    "tensor": "x",
    "parameter": "self.p",
    "scalar": "3",
    "tuple": "(x, x)",
    "none": "None",
    "object": "OBJ",
    "jit_class": "Box()",
    "cell": "SUB_CELL",
}
TENSOR_ATTRS = (
    "shape",
    "dtype",
    "ndim",
    "size",
    "T",
    "itemsize",
    "strides",
    "device",
    "data",
    "grad",
    "requires_grad",
    "name",
)
OTHER_ATTRS = ("shape", "dtype", "ndim", "data")

ATTRIBUTE_OPS: dict[str, tuple[tuple[str, ...], int, tuple[str, ...]]] = {
    # op -> (body, operation line, init lines)
    "getattr_const": (("y = getattr(x, 'shape')", "return x, y"), 0, ()),
    "getattr_tensor_cond_name": (
        ("name = 'ndim' if x.sum() > 0 else 'size'", "y = getattr(x, name)", "return x, y"),
        1,
        (),
    ),
    "getattr_default_missing": (("y = getattr(x, 'missing', 0)", "return x, y"), 0, ()),
    "getattr_default_present": (("y = getattr(x, 'ndim', 0)", "return x, y"), 0, ()),
    "getattr_missing": (("y = getattr(x, 'missing')", "return x, y"), 0, ()),
    "getattr_object": (("y = getattr(OBJ, 'value')", "return x * y"), 0, ()),
    "getattr_self": (("y = getattr(self, 'n')", "return x * y"), 0, ("self.n = 2",)),
    "getattr_self_cell": (
        ("y = getattr(self, 'sub')(x)", "return y"),
        0,
        ("self.sub = nn.ReLU()",),
    ),
    "hasattr_tensor": (("y = hasattr(x, 'shape')", "return x, y"), 0, ()),
    "hasattr_missing": (("y = hasattr(x, 'nope')", "return x, y"), 0, ()),
    "hasattr_object": (("y = hasattr(OBJ, 'value')", "return x, y"), 0, ()),
    "hasattr_self": (("y = hasattr(self, 'n')", "return x, y"), 0, ("self.n = 2",)),
    "setattr_object": (("setattr(OBJ, 'value', 2)", "return x"), 0, ()),
    "setattr_self": (("setattr(self, 'n', 3)", "return x * self.n"), 0, ("self.n = 2",)),
    "setattr_tensor": (("setattr(x, 'foo', 1)", "return x"), 0, ()),
    "dunder_class_name": (("y = x.__class__.__name__", "return x, y"), 0, ()),
    "dunder_class": (("y = x.__class__", "return x, y"), 0, ()),
    "type_name_tensor": (("y = type(x).__name__", "return x, y"), 0, ()),
    "type_name_object": (("y = type(OBJ).__name__", "return x, y"), 0, ()),
    "self_dict_len": (("y = len(self.__dict__)", "return x * y"), 0, ("self.n = 2",)),
    "object_dict": (("y = OBJ.__dict__['value']", "return x * y"), 0, ()),
    "self_missing": (("y = self.missing", "return x, y"), 0, ()),
    "object_missing": (("y = OBJ.missing", "return x, y"), 0, ()),
    "self_class_name": (("y = self.__class__.__name__", "return x, y"), 0, ()),
    "bound_method_ref": (("f = x.sum", "y = f()", "return y"), 1, ()),
    "module_attr": (("y = np.pi * x", "return y"), 0, ()),
    "dtype_compare": (("y = x.dtype == ms.float32", "return x, y"), 0, ()),
    "shape_last": (("y = x.shape[-1]", "return x * y"), 0, ()),
    "tensor_attr_write": (("x.foo = 1", "return x"), 0, ()),
}

# ---- calls: op -> (body, operation line, helpers, init lines)
CALLS: dict[str, tuple[tuple[str, ...], int, tuple[str, ...], tuple[str, ...]]] = {
    "star_tuple": (("y = h_args(*(x, x))", "return y"), 0, ("h_args",), ()),
    "star_list": (("y = h_args(*[x, x])", "return y"), 0, ("h_args",), ()),
    "star_tensor": (("y = h_args(*x)", "return y"), 0, ("h_args",), ()),
    "star_mutable": (("y = h_args(*ms.mutable((1, 2)))", "return x * y"), 0, ("h_args",), ()),
    "star_count": (("y = h_count(*(x, x, x))", "return x * y"), 0, ("h_count",), ()),
    "kwargs_literal": (("y = h_kwargs(**{'a': x})", "return y"), 0, ("h_kwargs",), ()),
    "kwargs_variable": (("d = {'a': x}", "y = h_kwargs(**d)", "return y"), 1, ("h_kwargs",), ()),
    "kwargs_explicit": (("y = h_kwargs(a=x, b=1)", "return y"), 0, ("h_kwargs",), ()),
    "star_and_kwargs": (("y = h_mixed(*(x,), **{'c': 2})", "return y"), 0, ("h_mixed",), ()),
    "keyword_arg": (("y = h_mixed(x, b=3)", "return y"), 0, ("h_mixed",), ()),
    "default_used": (("y = h_mixed(x)", "return y"), 0, ("h_mixed",), ()),
    "extra_positional": (("y = h_mixed(x, 2, 5, 6)", "return y"), 0, ("h_mixed",), ()),
    "keyword_only": (("y = h_kwonly(x, scale=2)", "return y"), 0, ("h_kwonly",), ()),
    "keyword_only_missing": (("y = h_kwonly(x)", "return y"), 0, ("h_kwonly",), ()),
    "too_many_args": (("y = helper_fn(x, x)", "return y"), 0, (), ()),
    "missing_arg": (("y = helper_fn()", "return x"), 0, (), ()),
    "unexpected_keyword": (("y = helper_fn(x, b=1)", "return y"), 0, (), ()),
    "mutable_default": (("y = h_list_default(x)", "return y"), 0, ("h_list_default",), ()),
    "tensor_default": (("y = h_tensor_default(x)", "return y"), 0, ("h_tensor_default",), ()),
    "call_tensor": (("y = x(1)", "return y"), 0, (), ()),
    "call_str": (("s = 'abc'", "y = s()", "return x"), 1, (), ()),
    "call_none": (("f = None", "y = f(x)", "return y"), 1, (), ()),
    "call_int": (("n = 3", "y = n(x)", "return y"), 1, (), ()),
    "call_object": (("y = OBJ(x)", "return y"), 0, (), ()),
    "new_custom": (("y = Custom().value", "return x * y"), 0, (), ()),
    "new_jit_class": (("y = Box().value", "return x * y"), 0, (), ()),
    "new_cell": (("y = nn.ReLU()(x)", "return y"), 0, (), ()),
    "new_tensor": (("y = Tensor(3.0)", "return x * y"), 0, (), ()),
    "partial": (
        ("f = functools.partial(ops.add, x)", "y = f(x)", "return y"),
        1,
        ("functools",),
        (),
    ),
    "partial_keyword": (
        ("f = functools.partial(h_mixed, b=3)", "y = f(x)", "return y"),
        1,
        ("functools", "h_mixed"),
        (),
    ),
    "lambda_capture": (("f = lambda v: v + x", "y = f(x)", "return y"), 1, (), ()),
    "lambda_immediate": (("y = (lambda v: v * 2)(x)", "return y"), 0, (), ()),
    "lambda_default": (("f = lambda v, k=2: v * k", "y = f(x)", "return y"), 1, (), ()),
    "lambda_star": (("f = lambda *a: a[0]", "y = f(x, x)", "return y"), 1, (), ()),
    "def_in_loop": (
        (
            "s = x * 0",
            "for i in range(3):",
            "    def f(v):",
            "        return v * i",
            "    s = s + f(x)",
            "return s",
        ),
        4,
        (),
        (),
    ),
    "closure_returned": (("y = make_adder(x)(x)", "return y"), 0, ("make_adder",), ()),
    "nested_def": (("def inner(v):", "    return v * 2", "y = inner(x)", "return y"), 2, (), ()),
    "nested_closure": (("def inner():", "    return x * 2", "y = inner()", "return y"), 2, (), ()),
    "subcell_kwargs": (
        ("y = self.sub(x, **{'scale': 2})", "return y"),
        0,
        ("Sub",),
        ("self.sub = Sub()",),
    ),
    "subcell_keyword": (
        ("y = self.sub(x, scale=2)", "return y"),
        0,
        ("Sub",),
        ("self.sub = Sub()",),
    ),
    "subcell_star": (("y = self.sub(*(x, 2))", "return y"), 0, ("Sub",), ("self.sub = Sub()",)),
    "unbound_tensor_method": (("y = Tensor.sum(x)", "return y"), 0, (), ()),
    "ops_keyword": (("y = ops.reduce_sum(x, axis=0)", "return y"), 0, (), ()),
}

PRINTS = {
    "tensor": "x",
    "str_int": "'a', 3",
    "object": "OBJ",
    "tuple": "(x, 1)",
    "dict": "{'a': x}",
    "fstring": "f'{x}'",
    "shape": "x.shape",
    "none": "None",
    "cell": "SUB_CELL",
    "sep": "x, x, sep=','",
    "end": "x, end=''",
}

ISINSTANCE = {
    "tensor_tensor": "x, Tensor",
    "tensor_int": "x, int",
    "tensor_seq": "x, (tuple, list)",
    "tensor_parameter": "x, ms.Parameter",
    "parameter_parameter": "PARAM, ms.Parameter",
    "int_int": "3, int",
    "tuple_tuple": "(x, x), tuple",
    "object_class": "OBJ, Custom",
    "cell_cell": "SUB_CELL, nn.Cell",
    "tensor_ndarray": "x, np.ndarray",
    "none_type": "None, type(None)",
}

KINDS = {
    "tensor": "x",
    "tensor_0d": "x.sum()",
    "tuple": "(x, x)",
    "dict": "{'a': x}",
    "str": "'abc'",
    "object": "OBJ",
    "none": "None",
    "shape": "x.shape",
    "function": "helper_fn",
    "cell": "SUB_CELL",
    "int": "3",
}
LEN_KINDS = ("tensor", "tensor_0d", "tuple", "dict", "str", "object", "none", "shape")
ID_KINDS = ("tensor", "object", "int")
HASH_KINDS = ("tensor", "int", "str", "tuple")
CALLABLE_KINDS = ("tensor", "function", "cell", "object", "int")

# ---- iteration: op -> (body, operation line, init lines)
D2 = "d = {'a': x, 'b': x + 1}"
ITERATION: dict[str, tuple[tuple[str, ...], int, tuple[str, ...]]] = {
    "tensor_rows": (("s = x[0] * 0", "for row in x:", "    s = s + row", "return s"), 1, ()),
    "tensor_0d": (("s = x * 0", "for v in x.sum():", "    s = s + v", "return s"), 1, ()),
    "tensor_row_after_loop": (("for row in x:", "    pass", "return row"), 2, ()),
    "dict_keys": (("s = x * 0", D2, "for k in d:", "    s = s + d[k]", "return s"), 2, ()),
    "dict_items": (
        ("s = x * 0", D2, "for k, v in d.items():", "    s = s + v", "return s"),
        2,
        (),
    ),
    "dict_values": (("s = x * 0", D2, "for v in d.values():", "    s = s + v", "return s"), 2, ()),
    "str_count": (("n = 0", "for c in 'abc':", "    n = n + 1", "return x * n"), 1, ()),
    "str_concat": (("t = ''", "for c in 'ab':", "    t = t + c", "return x, t"), 1, ()),
    "enumerate_tensor": (
        ("s = x[0] * 0", "for i, row in enumerate(x):", "    s = s + row * i", "return s"),
        1,
        (),
    ),
    "enumerate_tuple": (
        ("s = x * 0", "for i, t in enumerate((x, x + 1)):", "    s = s + t * i", "return s"),
        1,
        (),
    ),
    "enumerate_start": (
        ("s = x * 0", "for i, t in enumerate((x, x), 1):", "    s = s + t * i", "return s"),
        1,
        (),
    ),
    "zip_tensor_tuple": (
        ("s = x[0] * 0", "for row, k in zip(x, (1, 2)):", "    s = s + row * k", "return s"),
        1,
        (),
    ),
    "zip_tensors": (
        ("s = x[0] * 0", "for a, b in zip(x, x):", "    s = s + a * b", "return s"),
        1,
        (),
    ),
    "zip_unequal": (
        ("s = x * 0", "for a, b in zip((x, x, x), (1, 2)):", "    s = s + a * b", "return s"),
        1,
        (),
    ),
    "cell_list": (
        ("for cell in self.cells:", "    x = cell(x)", "return x"),
        0,
        ("self.cells = nn.CellList([nn.ReLU(), nn.Tanh()])",),
    ),
    "cell_list_enumerate": (
        ("for i, cell in enumerate(self.cells):", "    x = cell(x) * i", "return x"),
        0,
        ("self.cells = nn.CellList([nn.ReLU(), nn.Tanh()])",),
    ),
    "sequential_cell": (
        ("for cell in self.seq:", "    x = cell(x)", "return x"),
        0,
        ("self.seq = nn.SequentialCell([nn.ReLU(), nn.Tanh()])",),
    ),
    "tuple_of_cells": (
        ("for cell in self.cells:", "    x = cell(x)", "return x"),
        0,
        ("self.cells = (nn.ReLU(), nn.Tanh())",),
    ),
    "list_of_cells": (
        ("for cell in self.cells:", "    x = cell(x)", "return x"),
        0,
        ("self.cells = [nn.ReLU(), nn.Tanh()]",),
    ),
    "range_shape": (
        ("s = x[0] * 0", "for i in range(x.shape[0]):", "    s = s + x[i]", "return s"),
        1,
        (),
    ),
    "range_len": (
        ("s = x[0] * 0", "for i in range(len(x)):", "    s = s + x[i]", "return s"),
        1,
        (),
    ),
    "range_tensor_int": (
        ("s = x * 0", "for i in range(int(x.sum())):", "    s = s + x", "return s"),
        1,
        (),
    ),
    "shape_dims": (("n = 1", "for d in x.shape:", "    n = n * d", "return x * n"), 1, ()),
    "mutable_tuple": (
        ("s = x * 0", "for v in ms.mutable((1, 2)):", "    s = s + x * v", "return s"),
        1,
        (),
    ),
    "parameter_rows": (
        ("s = x[0] * 0", "for row in self.p:", "    s = s + row", "return s"),
        1,
        PARAM_INIT,
    ),
    "object": (("s = x * 0", "for v in OBJ:", "    s = s + v", "return s"), 1, ()),
    "none": (("s = x * 0", "for v in None:", "    s = s + v", "return s"), 1, ()),
    "int": (("s = x * 0", "for v in 3:", "    s = s + v", "return s"), 1, ()),
    "iter_next": (("it = iter((x, x + 1))", "y = next(it)", "return y"), 1, ()),
    "reversed_tuple": (
        ("s = x * 0", "for t in reversed((x, x + 1)):", "    s = s * 2 + t", "return s"),
        1,
        (),
    ),
    "break_tensor_cond": (
        (
            "s = x * 0",
            "for i in range(3):",
            "    if s.sum() > 5:",
            "        break",
            "    s = s + x",
            "return s",
        ),
        2,
        (),
    ),
    "continue_tensor_cond": (
        (
            "s = x * 0",
            "for i in range(3):",
            "    if s.sum() > 5:",
            "        continue",
            "    s = s + x",
            "return s",
        ),
        2,
        (),
    ),
    "break_const_cond": (
        (
            "s = x * 0",
            "for i in range(3):",
            "    if i == 1:",
            "        break",
            "    s = s + x",
            "return s",
        ),
        2,
        (),
    ),
    "break_over_tensor_rows": (
        (
            "s = x[0] * 0",
            "for row in x:",
            "    if row.sum() > 2:",
            "        break",
            "    s = s + row",
            "return s",
        ),
        2,
        (),
    ),
    "for_else_plain": (
        ("s = x * 0", "for i in range(2):", "    s = s + x", "else:", "    s = s * 2", "return s"),
        1,
        (),
    ),
    "for_else_break": (
        (
            "s = x * 0",
            "for i in range(3):",
            "    if s.sum() > 5:",
            "        break",
            "    s = s + x",
            "else:",
            "    s = s * 2",
            "return s",
        ),
        1,
        (),
    ),
    "loop_var_rebound": (
        ("s = x * 0", "for i in range(3):", "    i = i + 1", "    s = s + x * i", "return s"),
        1,
        (),
    ),
    "loop_var_after": (("for i in range(3):", "    pass", "return x * i"), 2, ()),
    "nested_tuple_targets": (
        ("s = x * 0", "for (a, b) in ((x, 1), (x, 2)):", "    s = s + a * b", "return s"),
        1,
        (),
    ),
}

FOR_ELSE = {"LAX": ("MS110", "else"), "STRICT": ("MS110", "else")}


def _snip(
    family: str,
    op: str,
    kind: str,
    body: tuple[str, ...],
    line: int,
    init: tuple[str, ...] = (),
    module: tuple[str, ...] = (),
    codes: dict[str, tuple[str, str]] | None = None,
) -> Snippet:
    return Snippet(
        family,
        op,
        kind,
        body,
        line,
        needs_self=bool(init) or any("self" in b for b in body),
        init=init,
        module=module,
        contexts=CONSTRUCT,
        codes=codes or {},
    )


def _helpers(names: tuple[str, ...]) -> tuple[str, ...]:
    out: list[str] = []
    for name in names:
        out += ["", *HELPERS[name], ""]
    return tuple(out)


def unpacking() -> list[Snippet]:
    module = _helpers(("pair",))
    return [
        _snip("unpacking", op, "assign", body, line, module=module if "pair(" in body[0] else ())
        for op, (body, line) in UNPACKING.items()
    ]


def attributes() -> list[Snippet]:
    out = []
    for kind, recv in RECEIVERS.items():
        names = TENSOR_ATTRS if kind in ("tensor", "parameter") else OTHER_ATTRS
        init = PARAM_INIT if kind == "parameter" else ()
        for attr in names:
            body = (f"v = {recv}", f"y = v.{attr}", "return x, y")
            out.append(_snip("attributes", attr, kind, body, 1, init, X0 if init else ()))
    for op, (body, line, init) in ATTRIBUTE_OPS.items():
        out.append(_snip("attributes", op, "access", body, line, init))
    return out


def calls() -> list[Snippet]:
    out = []
    for op, (body, line, helpers, init) in CALLS.items():
        out.append(_snip("calls", op, "call", body, line, init, _helpers(helpers)))
    for kind, args in PRINTS.items():
        out.append(_snip("calls", "print", f"of_{kind}", (f"print({args})", "return x"), 0))
    for kind, args in ISINSTANCE.items():
        out.append(
            _snip(
                "calls", "isinstance", f"of_{kind}", (f"y = isinstance({args})", "return x, y"), 0
            )
        )
    for name, kinds in (("len", LEN_KINDS), ("id", ID_KINDS), ("hash", HASH_KINDS)):
        for kind in kinds:
            body = (f"y = {name}({KINDS[kind]})", "return x, y")
            out.append(_snip("calls", name, f"of_{kind}", body, 0))
    for kind in CALLABLE_KINDS:
        body = (f"y = callable({KINDS[kind]})", "return x, y")
        out.append(_snip("calls", "callable", f"of_{kind}", body, 0))
    return out


def iteration() -> list[Snippet]:
    out = []
    for op, (body, line, init) in ITERATION.items():
        codes = FOR_ELSE if op.startswith("for_else") else None
        out.append(
            _snip(
                "iteration", op, "loop", body, line, init, X0 if init == PARAM_INIT else (), codes
            )
        )
    return out
