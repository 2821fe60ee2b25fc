"""Snippets of state and statements: mutation of objects and Parameters, forbidden APIs, what a
graph may return, value-changing code (silent divergence), statements MindSpore cannot parse.

Each list is data; nothing here knows what MindSpore will do.
"""

from __future__ import annotations

from .program import Snippet

CELL_CONTEXTS = ("construct", "method")
TWO = ("construct", "jit")  # 2 cores: the third context rarely changes these verdicts
ATTR_WRITE = {"STRICT": ("MS202", r"strict mode|Parameter type")}

# (init lines, body lines, index of the operation line in body, codes)
MUTATIONS: dict[str, tuple[tuple[str, ...], tuple[str, ...], int, dict[str, tuple[str, str]]]] = {
    "self_int_attr": (("self.n = 1",), ("self.n = 2", "return x * self.n"), 0, ATTR_WRITE),
    "self_tensor_attr": (("self.t = x0()",), ("self.t = x * 2", "return self.t"), 0, ATTR_WRITE),
    "sub_object_attr": (("self.obj = Custom()",), ("self.obj.value = 2", "return x"), 0, {}),
    "sub_cell_attr": (
        ("self.sub = nn.ReLU()",),
        ("self.sub.flag = 2", "return self.sub(x)"),
        0,
        {},
    ),
    "cell_list_attr": (
        ("self.cells = nn.CellList([nn.ReLU()])",),
        ("self.cells[0].flag = 2", "return self.cells[0](x)"),
        0,
        {},
    ),
    "jit_class_attr": (
        ("self.box = Box()",),
        ("self.box.value = 2", "return x * self.box.value"),
        0,
        {},
    ),
    "param_to_none": (
        ("self.p = Parameter(x0(), name='p')",),
        ("self.p = None", "return x"),
        0,
        {},
    ),
    "param_rebind_int": (
        ("self.p = Parameter(x0(), name='p')",),
        ("self.p = x.astype(ms.int32)", "return x"),
        0,
        {},
    ),
    "param_assign_tensor": (
        ("self.p = Parameter(x0(), name='p')",),
        ("self.p = x * 2", "return self.p"),
        0,
        {},
    ),
    "param_set_data": (
        ("self.p = Parameter(x0(), name='p')",),
        ("self.p.set_data(x * 2)", "return self.p"),
        0,
        {},
    ),
    "param_assign_op": (
        ("self.p = Parameter(x0(), name='p')",),
        ("ops.assign(self.p, x * 2)", "return self.p + 0"),
        0,
        {},
    ),
    "param_requires_grad": (
        ("self.p = Parameter(x0(), name='p')",),
        ("self.p.requires_grad = False", "return self.p + x"),
        0,
        {},
    ),
    "initializer_call": (
        (),
        ("w = initializer('ones', (2, 3), ms.float32)", "return x + w"),
        0,
        {},
    ),
    "get_parameters": (
        ("self.p = Parameter(x0(), name='p')",),
        ("ps = self.get_parameters()", "return x"),
        0,
        {},
    ),
    "trainable_params": (
        ("self.p = Parameter(x0(), name='p')",),
        ("ps = self.trainable_params()", "return x"),
        0,
        {},
    ),
    "new_parameter": (
        (),
        ("p = Parameter(x, name='q')", "return p"),
        0,
        {"LAX": ("MS115", "Parameter"), "STRICT": ("MS115", "Parameter")},
    ),
    "class_attr_write": ((), ("Net.flag = 2", "return x"), 0, {}),
    "self_dict_write": (
        ("self.d = {'a': 1}",),
        ("self.d['a'] = 2", "return x * self.d['a']"),
        0,
        {},
    ),
    "self_dict_tensor_write": (
        ("self.d = {'a': x0()}",),
        ("self.d['a'] = x", "return self.d['a']"),
        0,
        {},
    ),
    "obj_dict_write": (
        ("self.obj = Custom()",),
        ("self.obj.d['k'] = 2", "return x * self.obj.d['k']"),
        0,
        {},
    ),
    "self_list_append": (("self.items = []",), ("self.items.append(x)", "return x"), 0, {}),
    "global_write": ((), ("global COUNTER", "COUNTER = COUNTER + 1", "return x * COUNTER"), 1, {}),
    "same_name_params": (
        ("self.a = Parameter(x0(), name='w')", "self.b = Parameter(x0(), name='w')"),
        ("return x + self.a + self.b",),
        0,
        {},
    ),
    "hook_register": (
        ("self.sub = nn.ReLU()",),
        ("self.sub.register_forward_hook(helper_fn)", "return self.sub(x)"),
        0,
        {},
    ),
    "set_context_call": ((), ("ms.set_context(mode=ms.GRAPH_MODE)", "return x"), 0, {}),
}

RETURNS = {
    "function": "helper_fn",
    "lambda": "lambda a: a",
    "object": "OBJ",
    "jit_class_object": "Box()",
    "cell": "SUB_CELL",
    "class": "Custom",
    "none": "None",
    "str": "'text'",
    "dict_tensors": "{'a': x}",
    "nested_tuple": "(x, (x, (1, 'a')))",
    "dtype": "x.dtype",
    "shape": "x.shape",
    "slice": "slice(0, 1)",
    "parameter": "PARAM",
    "numpy_array": "np.ones(3)",
    "custom_instance": "Custom()",
}

DIVERGENCE = {
    "alias_augassign": ("y = x", "y += 1", "return x"),
    "alias_add_": ("y = x", "y.add_(1)", "return x"),
    "input_add_": ("x.add_(1)", "return x"),
    "loop_branch_augassign": (
        "s = x * 1",
        "for i in range(3):",
        "    if i % 2 == 0:",
        "        s += Tensor(1.0, ms.float32)",
        "return s",
    ),
    "loop_alias_augassign": ("y = x", "for i in range(2):", "    y += x", "return x"),
    "map_result": ("m = map(lambda v: v * 2, (x, x))", "return tuple(m)"),
    "fstring_return": ("return x, f'{x.sum()}'",),
    "str_of_tensor": ("return x, str(x.sum())",),
    "list_sort_key_desc": ("v = [3, 1, 2]", "v.sort(key=lambda a: -a)", "return x, v"),
    "lambdas_in_loop": (
        "fs = []",
        "for i in range(3):",
        "    fs.append(lambda a: a * i)",
        "return fs[0](x)",
    ),
    "tensor_inplace_mul": ("y = x", "y *= 2", "return x"),
    "setitem_alias": ("y = x", "y[0] = 7.0", "return x"),
}

STATEMENTS = {
    "yield": (("yield x",), 0, "MS103"),
    "del": (("y = x", "del y", "return x"), 1, "MS102"),
    "try_finally": (("try:", "    y = x * 2", "finally:", "    y = x", "return y"), 0, "MS101"),
    "try_except": (
        ("try:", "    y = x * 2", "except ValueError:", "    y = x", "return y"),
        0,
        "MS101",
    ),
    "nonlocal": (("def inner():", "    nonlocal x", "    return x", "return inner()"), 1, "MS104"),
    "walrus": (("if (y := x * 2).sum() > 0:", "    return y", "return x"), 0, "MS106"),
    "import": (("import math", "return x * math.pi"), 0, "MS107"),
    "class_def": (("class Local:", "    pass", "return x"), 0, "MS108"),
    "while_else": (
        ("i = 0", "while i < 2:", "    i = i + 1", "else:", "    i = 5", "return x * i"),
        1,
        "MS110",
    ),
    "set_literal": (("s = {1, 2}", "return x"), 0, "MS111"),
    "complex_literal": (("c = 2j", "return x"), 0, "MS120"),
    "assert_stmt": (("assert x.shape[0] == 2", "return x"), 0, ""),
    "raise_stmt": (("if x.shape[0] == 3:", "    raise ValueError('bad')", "return x"), 1, ""),
    "raise_tensor_cond": (("if x.sum() > 100:", "    raise ValueError('bad')", "return x"), 1, ""),
    "global_read": (("return x * COUNTER",), 0, ""),
    "with_plain_object": (("with OBJ:", "    y = x", "return y"), 0, ""),
    "async_def": (("async def inner():", "    return 1", "return x"), 0, "MS109"),
    "starred_call": (("args = (x, x)", "return ops.add(*args)"), 1, ""),
    "print_tensor": (("print(x)", "return x"), 0, ""),
}


def mutation() -> list[Snippet]:
    out = []
    for op, (init, body, line, codes) in MUTATIONS.items():
        self_needed = any("self" in b for b in body) or bool(init) or op == "class_attr_write"
        contexts = CELL_CONTEXTS if self_needed else ("construct", "jit", "method")
        out.append(
            Snippet(
                "mutation",
                op,
                "state",
                body,
                line,
                needs_self=self_needed,
                init=init,
                module=("", "def x0():", "    return Tensor(np.ones((2, 3), np.float32))"),
                contexts=contexts,
                codes=codes,
            )
        )
    return out


def returns() -> list[Snippet]:
    return [
        Snippet("returns", f"return_{kind}", kind, ("y = x * 2", f"return {expr}"), 1, contexts=TWO)
        for kind, expr in RETURNS.items()
    ]


# What marks the line that changes the value: an in-place update, an item write, a sort with
# arguments, a lambda collected in a loop (else the first line).
DIVERGING = ("+=", "_(", "*=", "] = ", ".sort(", "append(lambda")


def divergence() -> list[Snippet]:
    out = []
    for op, body in DIVERGENCE.items():
        line = next((i for i, b in enumerate(body) if any(m in b for m in DIVERGING)), 0)
        out.append(Snippet("divergence", op, "value", body, line))
    return out


def statements() -> list[Snippet]:
    out = []
    for op, (body, line, code) in STATEMENTS.items():
        codes = {"LAX": (code, "."), "STRICT": (code, ".")} if code else {}
        out.append(Snippet("statements", op, "statement", body, line, codes=codes))
    return out
