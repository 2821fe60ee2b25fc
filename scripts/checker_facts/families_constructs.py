"""Snippets for the `constructs` family: Python constructs a graph-syntax test suite exercises one
by one (dict and list methods, `global`, objects and Cells created or changed in compiled code,
CellList/CellDict use, Parameter APIs, str methods and formatting, Python scalar arithmetic,
builtins with keys and lambdas, Tensor members), each in `construct`, passing and failing
look-alikes side by side. Written in the round (issue 13, stop 24) whose rules learned these
families from the docs and from probes, so none of them is held out (`writer.SEEN_FAMILIES`).
Each entry is data; nothing here knows what MindSpore does with it: the generator compiles each
program at LAX and STRICT and runs it in PyNative.
"""

from __future__ import annotations

from .program import Snippet

# Module-level definitions, by the name a body uses (each program gets only the ones it names).
MODULE: dict[str, tuple[str, ...]] = {
    "math.": ("import math",),
    "Holder(": (
        "@jit_class",
        "class Holder:",
        "    def __init__(self, v):",
        "        self.v = v",
    ),
    "Keeper(": (
        "class Keeper:",
        "    def __init__(self, v):",
        "        self.v = v",
    ),
}

P_INIT = "self.p = Parameter(Tensor(np.ones((2, 3), np.float32)), name='p')"
BLOCKS = "self.blocks = nn.CellList([nn.ReLU(), nn.Sigmoid()])"
D = "d = {'a': 1, 'b': 2}"

# op -> (body, operation line, init lines)
CONSTRUCTS: dict[str, tuple[tuple[str, ...], int, tuple[str, ...]]] = {
    # ---- dicts
    "dict_update_kw": ((D, "d.update(c=3)", "return x * d['c']"), 1, ()),
    "dict_update_dict": ((D, "d.update({'c': 3})", "return x * d['c']"), 1, ()),
    "dict_or": ((D, "e = d | {'c': 3}", "return x * e['c']"), 1, ()),
    "dict_ior": ((D, "d |= {'c': 3}", "return x * d['c']"), 1, ()),
    "dict_keys_or": ((D, "k = d.keys() | {'c'}", "return x * len(k)"), 1, ()),
    "dict_values_sum": ((D, "return x * sum(d.values())"), 1, ()),
    "dict_items_loop": ((D, "for k, v in d.items():", "    x = x + v", "return x"), 1, ()),
    "dict_get_default": ((D, "return x * d.get('z', 3)"), 1, ()),
    "dict_pop_default": ((D, "n = d.pop('z', 3)", "return x * n"), 1, ()),
    "dict_copy_write": ((D, "e = d.copy()", "e['a'] = 5", "return x * d['a']"), 2, ()),
    "dict_alias_write": ((D, "e = d", "e['a'] = 5", "return x * d['a']"), 2, ()),
    "dict_fromkeys": (("d = dict.fromkeys(['a', 'b'], 1)", "return x * d['a']"), 0, ()),
    "dict_of_zip": (("d = dict(zip(['a', 'b'], [1, 2]))", "return x * d['b']"), 0, ()),
    "dict_comp_tensor": (
        ("d = {k: x * i for i, k in enumerate(['a', 'b'])}", "return d['b']"),
        0,
        (),
    ),
    "dict_in": ((D, "return x * ('a' in d)"), 1, ()),
    "dict_len": ((D, "return x * len(d)"), 1, ()),
    "dict_clear": ((D, "d.clear()", "return x * len(d)"), 1, ()),
    "dict_del_item": ((D, "del d['a']", "return x * len(d)"), 1, ()),
    "dict_tensor_value_rebind": (
        ("d = {'a': x}", "d['a'] = d['a'] + 1", "return d['a']"),
        1,
        (),
    ),
    "dict_unpack_merge": ((D, "e = {**d, 'c': 3}", "return x * e['c']"), 1, ()),
    "dict_unpack_tensor": (("d = {'a': x}", "e = {**d}", "return e['a'] + 1"), 1, ()),
    "dict_setdefault_new": ((D, "n = d.setdefault('c', 3)", "return x * n"), 1, ()),
    "dict_keys_list": ((D, "k = list(d.keys())", "return x * len(k)"), 1, ()),
    # ---- globals
    "global_new_name": (("global NEW_G", "NEW_G = 3", "return x * NEW_G"), 1, ()),
    "global_counter_rebind": (
        ("global COUNTER", "COUNTER = COUNTER + 1", "return x * COUNTER"),
        1,
        (),
    ),
    "global_read": (("return x * COUNTER",), 0, ()),
    # ---- objects created or changed in compiled code
    "jit_class_from_tensor": (("h = Holder(x)", "return h.v + 1"), 0, ()),
    "jit_class_from_const": (("h = Holder(2)", "return x * h.v"), 0, ()),
    "jit_class_from_shape": (("h = Holder(x.shape[0])", "return x * h.v"), 0, ()),
    "object_from_tensor": (("k = Keeper(x)", "return k.v + 1"), 0, ()),
    "object_from_const": (("k = Keeper(2)", "return x * k.v"), 0, ()),
    "jit_class_new_attr": (("b = Box()", "b.extra = 2", "return x * b.extra"), 1, ()),
    "jit_class_attr_write": (("b = Box()", "b.value = 2", "return x * b.value"), 1, ()),
    "object_local_attr_write": (("o = Custom()", "o.value = 5", "return x * o.value"), 1, ()),
    "object_local_attr_read": (("o = Custom()", "return x * o.value"), 0, ()),
    # ---- Cells
    "subcell_reassign": (
        ("self.act = nn.Sigmoid()", "return self.act(x)"),
        0,
        ("self.act = nn.ReLU()",),
    ),
    "subcell_set_none": (("self.act = None", "return x"), 0, ("self.act = nn.ReLU()",)),
    "cell_list_append": (
        ("self.blocks.append(nn.ReLU())", "return self.blocks[0](x)"),
        0,
        (BLOCKS,),
    ),
    "cell_list_reversed": (
        ("for b in reversed(self.blocks):", "    x = b(x)", "return x"),
        0,
        (BLOCKS,),
    ),
    "cell_list_len": (("return x * len(self.blocks)",), 0, (BLOCKS,)),
    "cell_list_negative_index": (("return self.blocks[-1](x)",), 0, (BLOCKS,)),
    "cell_list_slice_loop": (
        ("for b in self.blocks[1:]:", "    x = b(x)", "return x"),
        0,
        (BLOCKS,),
    ),
    "cell_list_enumerate": (
        ("for i, b in enumerate(self.blocks):", "    x = b(x) * (i + 1)", "return x"),
        0,
        (BLOCKS,),
    ),
    "cell_list_zip": (
        ("for b, s in zip(self.blocks, (1.0, 2.0)):", "    x = b(x) * s", "return x"),
        0,
        (BLOCKS,),
    ),
    "sequential_index": (
        ("return self.seq[1](x)",),
        0,
        ("self.seq = nn.SequentialCell([nn.ReLU(), nn.Sigmoid()])",),
    ),
    "cell_dict_key": (
        ("return self.cd['a'](x)",),
        0,
        ("self.cd = nn.CellDict({'a': nn.ReLU()})",),
    ),
    "cell_type_compare": (
        ("if type(self.act) == nn.ReLU:", "    return x", "return x + 1"),
        0,
        ("self.act = nn.ReLU()",),
    ),
    "cell_isinstance": (
        ("if isinstance(self.act, nn.ReLU):", "    return x", "return x + 1"),
        0,
        ("self.act = nn.ReLU()",),
    ),
    "cell_new_attr": (("self.extra = 5", "return x * self.extra"), 0, ()),
    "cell_delattr": (("delattr(self, 'act')", "return x"), 0, ("self.act = nn.ReLU()",)),
    "cell_getattr_name": (("return getattr(self, 'act')(x)",), 0, ("self.act = nn.ReLU()",)),
    "cell_hasattr": (
        ("if hasattr(self, 'act'):", "    return self.act(x)", "return x"),
        0,
        ("self.act = nn.ReLU()",),
    ),
    "cell_tensor_attr_item_write": (
        ("self.t[0] = 5", "return x + self.t[0]"),
        0,
        ("self.t = Tensor(np.zeros(3, np.float32))",),
    ),
    "cell_list_attr_item_aug": (
        ("self.counts[0] += 1", "return x * self.counts[0]"),
        0,
        ("self.counts = [0, 0]",),
    ),
    "cell_dict_attr_item_aug": (
        ("self.stats['n'] += 1", "return x * self.stats['n']"),
        0,
        ("self.stats = {'n': 0}",),
    ),
    "cell_scalar_attr_aug": (("self.n += 1", "return x * self.n"), 0, ("self.n = 0",)),
    "cell_list_attr_append": (
        ("self.seen.append(1)", "return x * len(self.seen)"),
        0,
        ("self.seen = []",),
    ),
    "return_self": (("return self",), 0, ()),
    # ---- Parameters
    "param_asnumpy": (("return x * self.p.asnumpy().sum()",), 0, (P_INIT,)),
    "param_tolist": (("return x * len(self.p.tolist())",), 0, (P_INIT,)),
    "param_name_read": (("n = self.p.name", "return x + self.p"), 0, (P_INIT,)),
    "param_requires_grad_read": (("return x * self.p.requires_grad",), 0, (P_INIT,)),
    "param_set_data": (("self.p.set_data(x)", "return x + self.p"), 0, (P_INIT,)),
    "param_assign_value": (("self.p.assign_value(x)", "return x + self.p"), 0, (P_INIT,)),
    "param_ops_assign": (("ops.assign(self.p, x)", "return x + self.p"), 0, (P_INIT,)),
    "param_initializer": (
        ("w = initializer('ones', (2, 3), ms.float32)", "return x + w"),
        0,
        (),
    ),
    "param_get_parameters": (
        ("n = len(list(self.get_parameters()))", "return x * n"),
        0,
        (P_INIT,),
    ),
    "param_trainable_params": (
        ("n = len(self.trainable_params())", "return x * n"),
        0,
        (P_INIT,),
    ),
    "mutable_scalar": (("n = ms.mutable(2)", "return x * n"), 0, ()),
    "mutable_tensor_tuple": (("t = ms.mutable((x, x))", "return t[0] + t[1]"), 0, ()),
    # ---- str
    "fstring_spec_int": (("n = 3", "return x, f'{n:04d}'"), 1, ()),
    "fstring_spec_float": (("return x, f'{0.5:.2f}'",), 0, ()),
    "str_format_spec": (("return x, '{:.2f}'.format(0.5)",), 0, ()),
    "str_percent": (("return x, '%d items' % 3",), 0, ()),
    "str_join": (("return x, '-'.join(['a', 'b'])",), 0, ()),
    "str_upper": (("return x, 'ab'.upper()",), 0, ()),
    "str_split": (("return x * len('a,b'.split(','))",), 0, ()),
    "str_replace": (("return x, 'a-b'.replace('-', '_')",), 0, ()),
    "str_startswith": (("return x * 'abc'.startswith('a')",), 0, ()),
    "str_find": (("return x * 'abc'.find('c')",), 0, ()),
    "str_strip": (("return x, ' a '.strip()",), 0, ()),
    "str_multiply": (("return x, 'ab' * 2",), 0, ()),
    "str_in": (("return x * ('b' in 'abc')",), 0, ()),
    "str_index_char": (("return x, 'abc'[1]",), 0, ()),
    # ---- Python scalars
    "float_sum_returned": (("return x, 0.1 + 0.2",), 0, ()),
    "float_shape_div": (("return x, x.shape[0] / 3",), 0, ()),
    "float_third": (("return x, 1 / 3",), 0, ()),
    "int_pow_negative": (("return x * 2 ** -1",), 0, ()),
    "shape_pow_negative": (("return x * x.shape[-1] ** -1",), 0, ()),
    "shape_pow_negative_float": (("return x * x.shape[-1] ** -0.5",), 0, ()),
    "int_big_power": (("return x, 10 ** 20",), 0, ()),
    "int_floordiv_negative": (("return x, -7 // 2",), 0, ()),
    "int_mod_negative": (("return x, -7 % 3",), 0, ()),
    "float_floordiv": (("return x, 7.5 // 2",), 0, ()),
    "round_half": (("return x, round(2.5)",), 0, ()),
    "round_digits": (("return x, round(3.14159, 2)",), 0, ()),
    "divmod_ints": (("return x, divmod(7, 2)",), 0, ()),
    "int_of_negative_float": (("return x, int(-3.9)",), 0, ()),
    "float_of_str": (("return x, float('1.5')",), 0, ()),
    "bool_of_zero_float": (("return x * bool(0.0)",), 0, ()),
    "math_sqrt": (("return x, math.sqrt(2.0)",), 0, ()),
    "math_floor": (("return x * math.floor(2.5)",), 0, ()),
    "math_log": (("return x, math.log(10)",), 0, ()),
    "abs_int_min": (("return x, abs(-2 ** 63)",), 0, ()),
    "int_of_big_float": (("return x, int(1e20)",), 0, ()),
    # ---- lists and tuples
    "list_insert": (("l = [1, 2]", "l.insert(0, 5)", "return x * l[0]"), 1, ()),
    "list_extend": (("l = [1, 2]", "l.extend([3])", "return x * l[2]"), 1, ()),
    "list_pop_index": (("l = [1, 2]", "n = l.pop(0)", "return x * n"), 1, ()),
    "list_remove": (("l = [1, 2]", "l.remove(1)", "return x * l[0]"), 1, ()),
    "list_index": (("return x * [1, 2, 3].index(2)",), 0, ()),
    "list_count": (("return x * [1, 2, 2].count(2)",), 0, ()),
    "list_sort": (("l = [3, 1]", "l.sort()", "return x * l[0]"), 1, ()),
    "list_reverse": (("l = [1, 2]", "l.reverse()", "return x * l[0]"), 1, ()),
    "list_clear": (("l = [1, 2]", "l.clear()", "return x * len(l)"), 1, ()),
    "list_copy_write": (("l = [1, 2]", "m = l.copy()", "m[0] = 9", "return x * l[0]"), 2, ()),
    "list_alias_append": (("l = [1]", "m = l", "m.append(2)", "return x * len(l)"), 2, ()),
    "list_repeat": (("l = [1] * 3", "return x * len(l)"), 0, ()),
    "list_tensor_item_write": (("l = [x, x]", "l[0] = x + 1", "return l[0]"), 1, ()),
    "list_sum_tensors": (("return sum([x, x])",), 0, ()),
    "list_nested_append": (("l = [[1], [2]]", "l[0].append(3)", "return x * len(l[0])"), 1, ()),
    "list_slice_assign": (("l = [1, 2, 3]", "l[0:2] = [5]", "return x * l[0]"), 1, ()),
    "list_del_item": (("l = [1, 2, 3]", "del l[0]", "return x * l[0]"), 1, ()),
    "list_in_const": (("return x * (1 in [1, 2])",), 0, ()),
    "list_tensor_in": (("l = [x]", "return x * (x in l)"), 1, ()),
    "tuple_index": (("return x * (1, 2).index(2)",), 0, ()),
    "tuple_count": (("return x * (1, 2, 2).count(2)",), 0, ()),
    "tuple_concat_tensors": (("t = (x,) + (x,)", "return t[1]"), 0, ()),
    "tuple_repeat": (("t = (1,) * 3", "return x * len(t)"), 0, ()),
    "tuple_compare": (("return x * ((1, 2) < (1, 3))",), 0, ()),
    "star_assign": (("a, *b = [1, 2, 3]", "return x * len(b)"), 0, ()),
    "star_call_list": (("return helper_fn(*[x])",), 0, ()),
    "chained_assign": (("a = b = 2", "return x * a * b"), 0, ()),
    # ---- builtins with keys, lambdas, iterators
    "enumerate_start": (
        ("for i, v in enumerate([1, 2], 1):", "    x = x * i", "return x"),
        0,
        (),
    ),
    "range_negative_step": (("for i in range(3, 0, -1):", "    x = x + i", "return x"), 0, ()),
    "sorted_key_lambda": (("return x * sorted([3, 1, 2], key=lambda v: -v)[0]",), 0, ()),
    "sorted_reverse": (("return x * sorted([3, 1, 2], reverse=True)[0]",), 0, ()),
    "max_key_lambda": (("return x * max([1, 3, 2], key=lambda v: -v)",), 0, ()),
    "any_generator": (("return x * any(v > 1 for v in [1, 2])",), 0, ()),
    "all_list": (("return x * all([1, 0])",), 0, ()),
    "map_lambda_sum": (("return x * sum(map(lambda v: v * 2, [1, 2]))",), 0, ()),
    "filter_lambda_len": (("return x * len(list(filter(lambda v: v > 1, [1, 2, 3])))",), 0, ()),
    "isinstance_tuple_types": (("return x * isinstance(1, (int, float))",), 0, ()),
    "type_is_int": (("return x * (type(1) is int)",), 0, ()),
    "callable_function": (("return x * callable(helper_fn)",), 0, ()),
    "id_same_tensor": (("return x * (id(x) == id(x))",), 0, ()),
    "exec_statement": (("exec('y = 1')", "return x"), 0, ()),
    "eval_expression": (("return x * eval('1 + 2')",), 0, ()),
    "lambda_default_arg": (("f = lambda a, b=2: a * b", "return f(x)"), 0, ()),
    "nested_def_list_write": (
        ("acc = [0]", "def add(v):", "    acc[0] += v", "add(2)", "return x * acc[0]"),
        3,
        (),
    ),
    "nested_def_nonlocal": (
        ("n = 0", "def inc():", "    nonlocal n", "    n += 1", "inc()", "return x * n"),
        4,
        (),
    ),
    "iter_next": (("it = iter([1, 2])", "return x * next(it)"), 1, ()),
    "reversed_list": (("return x * list(reversed([1, 2]))[0]",), 0, ()),
    "slice_object": (("s = slice(0, 1)", "return x[s]"), 1, ()),
    # ---- statements
    "assert_shape": (("assert x.shape[0] == 2", "return x"), 0, ()),
    "assert_tensor_value": (("assert x.sum() > 0", "return x"), 0, ()),
    "raise_under_shape": (
        ("if x.shape[0] > 5:", "    raise ValueError('big')", "return x"),
        1,
        (),
    ),
    "raise_under_tensor": (
        ("if x.sum() > 100:", "    raise ValueError('big')", "return x"),
        1,
        (),
    ),
    "pass_in_branch": (("if x.shape[0] > 1:", "    pass", "return x"), 0, ()),
    # ---- Tensor members
    "tensor_item": (("return x * x[0, 0].item()",), 0, ()),
    "tensor_tolist_len": (("return x * len(x.tolist())",), 0, ()),
    "tensor_asnumpy_shape": (("return x * x.asnumpy().shape[0]",), 0, ()),
    "tensor_dim": (("return x * x.dim()",), 0, ()),
    "tensor_half": (("return x.half()",), 0, ()),
    "tensor_double": (("return x.double()",), 0, ()),
    "tensor_is_contiguous": (("return x * x.is_contiguous()",), 0, ()),
    "tensor_storage_offset": (("return x * x.storage_offset()",), 0, ()),
    "tensor_clone": (("return x.clone()",), 0, ()),
    "tensor_nbytes": (("return x * x.nbytes",), 0, ()),
    "tensor_itemsize": (("return x * x.itemsize",), 0, ()),
    "tensor_size_attr": (("return x * x.size",), 0, ()),
    "tensor_numel": (("return x * x.numel()",), 0, ()),
    "tensor_transpose_attr": (("return x.T",), 0, ()),
    "tensor_fill_": (("y = x.copy()", "y.fill_(1.0)", "return y"), 1, ()),
    "tensor_zero_": (("y = x + 0", "y.zero_()", "return y"), 1, ()),
    "tensor_strides": (("return x * x.strides[0]",), 0, ()),
    "tensor_nonzero_len": (("return x * len(x.nonzero())",), 0, ()),
    "tensor_bool_of_scalar": (("if bool(x[0, 0] > 0):", "    return x", "return -x"), 0, ()),
}


def _module(body: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(
        line for key, lines in MODULE.items() if any(key in b for b in body) for line in lines
    )


def constructs() -> list[Snippet]:
    return [
        Snippet(
            "constructs",
            op,
            "program",
            body,
            line,
            needs_self=bool(init) or any("self" in b for b in body),
            init=init,
            module=_module(body),
            contexts=("construct",),
        )
        for op, (body, line, init) in CONSTRUCTS.items()
    ]
