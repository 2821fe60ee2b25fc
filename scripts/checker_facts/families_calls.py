"""Snippets of calls: builtins and methods on each value kind, comprehensions.

Each list is data (value kind x operation); nothing here knows what MindSpore will do.
"""

from __future__ import annotations

from .program import Snippet

# Arguments for builtins, by kind.
ARGS = {
    "tuple_tensors": "(x, x + 1)",
    "list_tensors": "[x, x + 1]",
    "tuple_scalars": "(3, 1, 2)",
    "tensor": "x",
    "mutable_ints": "ms.mutable((3, 1, 2))",
}

BUILTINS = {
    "max": "max({a})",
    "min": "min({a})",
    "any": "any({a})",
    "all": "all({a})",
    "len": "len({a})",
    "sum": "sum({a})",
    "sorted": "sorted({a})",
    "enumerate": "[i for i, _ in enumerate({a})]",
    "zip": "[p for p in zip({a}, {a})]",
    "map": "tuple(map(lambda v: v * 2, {a}))",
    "filter": "tuple(filter(lambda v: v > 1, {a}))",
    "isinstance": "isinstance({a}, (tuple, list))",
    "list": "list({a})",
    "tuple": "tuple({a})",
    "reversed": "tuple(reversed({a}))",
    "compare_seq": "{a} == {a}",
    "in_seq": "x in {a}",
    "str": "str({a})",
    "type": "type({a})",
}

# range() and friends need constants: give them variables.
RANGES = {
    "range_const": "range(3)",
    "range_shape": "range(x.shape[0])",
    "range_mutable": "range(ms.mutable(3))",
    "range_tensor_int": "range(int(x.sum()))",
    "range_tensor": "range(x.sum())",
    "zip_range_shape": "zip(range(x.shape[0]), range(x.shape[1]))",
    "zip_mutable": "zip(ms.mutable((1, 2)), (3, 4))",
}

METHODS = {
    "tuple_index_tensors": "(x, x + 1).index(x)",
    "tuple_index_scalars": "(1, 2, 3).index(2)",
    "list_index_tensors": "[x, x + 1].index(x)",
    "list_count_scalars": "[1, 2, 2].count(2)",
    "str_format_scalar": "'{} items'.format(3)",
    "str_format_tensor": "'{} items'.format(x)",
    "str_format_object": "'{} items'.format(OBJ)",
    "str_percent_scalar": "'%d items' % 3",
    "str_percent_tensor": "'%s items' % x",
    "str_join_strs": "','.join(['a', 'b'])",
    "str_join_tensors": "','.join([str(x), str(x)])",
    "fstring_tensor": "f'value {x}'",
    "fstring_scalar": "f'value {3}'",
    "str_upper": "'abc'.upper()",
    "str_split": "'a,b'.split(',')",
    "str_replace": "'abc'.replace('a', 'b')",
    "str_startswith": "'abc'.startswith('a')",
    "str_find": "'abc'.find('b')",
    "dict_get": "{'a': x}.get('a')",
    "dict_get_default": "{'a': x}.get('b', x)",
    "dict_keys": "tuple({'a': x, 'b': x}.keys())",
    "dict_values": "tuple({'a': x, 'b': x}.values())",
    "dict_items": "tuple({'a': x}.items())",
    "dict_pop": "{'a': x, 'b': x}.pop('a')",
    "tensor_asnumpy": "x.asnumpy()",
    "tensor_tolist": "x.tolist()",
    "tensor_item": "x.sum().item()",
    "tensor_numpy": "x.numpy()",
    "tensor_shape": "x.shape",
    "tensor_dtype": "x.dtype",
    "tensor_ndim": "x.ndim",
    "tensor_size": "x.size",
    "tensor_astype": "x.astype(ms.int32)",
    "tensor_view": "x.view(3, 2)",
    "tensor_argmax": "x.argmax()",
    "tensor_topk": "x.topk(2)",
    "tensor_copy": "x.copy()",
    "copy_deepcopy": "copy.deepcopy(x)",
    "copy_copy_tuple": "copy.copy((x, x))",
    "int_of_tensor": "int(x.sum())",
    "float_of_tensor": "float(x.sum())",
    "bool_of_tensor": "bool(x.sum() > 0)",
    "numpy_of_tensor": "np.sum(x.asnumpy())",
    "math_const": "np.sqrt(4.0)",
    "tensor_from_numpy": "Tensor(np.ones((2, 3), np.float32))",
    "ops_cast": "ops.cast(x, ms.int32)",
}

METHOD_STATEMENTS = {
    "list_append": ("v = [x]", "v.append(x)", "return v"),
    "list_insert": ("v = [x]", "v.insert(0, x)", "return v"),
    "list_extend": ("v = [x]", "v.extend([x])", "return v"),
    "list_pop": ("v = [x, x + 1]", "v.pop()", "return v"),
    "list_reverse": ("v = [x, x + 1]", "v.reverse()", "return v"),
    "list_clear": ("v = [x, x + 1]", "v.clear()", "return x"),
    "list_sort": ("v = [3, 1, 2]", "v.sort()", "return x, v"),
    "list_sort_key": ("v = [3, 1, 2]", "v.sort(key=lambda a: -a)", "return x, v"),
    "list_remove": ("v = [3, 1, 2]", "v.remove(1)", "return x, v"),
    "list_setitem": ("v = [x, x]", "v[0] = x * 2", "return v"),
    "tuple_setitem": ("v = (x, x)", "v[0] = x * 2", "return v"),
    "dict_setitem": ("d = {'a': x}", "d['b'] = x * 2", "return d"),
    "dict_setitem_tensor_key": ("d = {'a': x}", "d[x.sum()] = x", "return x"),
    "dict_update": ("d = {'a': x}", "d.update({'b': x})", "return d"),
    "dict_clear": ("d = {'a': x}", "d.clear()", "return x"),
    "dict_setdefault": ("d = {'a': x}", "d.setdefault('b', x)", "return d"),
    "tensor_setitem": ("y = x * 1", "y[0] = 5.0", "return y"),
    "tensor_setitem_mask": ("y = x * 1", "y[y > 1] = 0.0", "return y"),
}

COMPREHENSIONS = {
    "list_over_tuple": "[t * 2 for t in (x, x)]",
    "list_over_range": "[x * i for i in range(3)]",
    "list_tensor_pred": "[t for t in (x, x + 1) if t.sum() > 0]",
    "list_const_pred": "[i for i in range(4) if i % 2 == 0]",
    "list_two_for": "[i + j for i in range(2) for j in range(2)]",
    "list_two_for_tensors": "[a + b for a in (x, x) for b in (x, x)]",
    "dict_comp": "{str(i): x * i for i in range(2)}",
    "dict_comp_tensor_pred": "{str(i): x for i in range(2) if x.sum() > i}",
    "set_comp": "{i for i in range(3)}",
    "generator_sum": "sum(t.sum() for t in (x, x))",
    "nested_comp": "[[i * j for j in range(2)] for i in range(2)]",
    "comp_over_tensor": "[row * 2 for row in x]",
    "comp_over_mutable": "[v * 2 for v in ms.mutable((1, 2))]",
    "comp_with_call": "[ops.relu(t) for t in (x, -x)]",
}


# Calls do not depend much on where they are: in a Cell only (2 cores, see JOIN_CONTEXTS).
CALL_CONTEXTS = ("construct",)


def _expr(family: str, op: str, kind: str, expr: str) -> Snippet:
    return Snippet(family, op, kind, (f"y = {expr}", "return x, y"), 0, contexts=CALL_CONTEXTS)


def builtins() -> list[Snippet]:
    out = [
        _expr("builtins", name, kind, form.format(a=arg))
        for name, form in BUILTINS.items()
        for kind, arg in ARGS.items()
    ]
    out += [
        _expr("builtins", "range", kind, f"len(tuple({expr}))") for kind, expr in RANGES.items()
    ]
    return out


def methods() -> list[Snippet]:
    strict_numpy = {"STRICT": ("MS201", r"asnumpy|numpy|tolist|strict")}
    out = []
    codes: dict[str, tuple[str, str]]
    for op, expr in METHODS.items():
        codes = strict_numpy if op in {"tensor_asnumpy", "tensor_tolist", "tensor_numpy"} else {}
        line = (f"y = {expr}", "return x, y")
        out.append(Snippet("methods", op, "call", line, 0, contexts=CALL_CONTEXTS, codes=codes))
    for op, body in METHOD_STATEMENTS.items():
        codes = {}
        if op in {"list_sort", "list_remove"}:
            codes = {"STRICT": ("MS203", r"sort|remove")}
        if op == "dict_setitem_tensor_key":
            codes = {"LAX": ("MS117", "key"), "STRICT": ("MS117", "key")}
        if op in {"dict_setdefault", "dict_pop"}:
            codes = {"LAX": ("MS121", "."), "STRICT": ("MS121", ".")}
        out.append(
            Snippet("methods", op, "statement", body, 1, contexts=CALL_CONTEXTS, codes=codes)
        )
    return out


def comprehensions() -> list[Snippet]:
    codes = {"LAX": ("MS111", "Set"), "STRICT": ("MS111", "Set")}
    return [
        Snippet(
            "comprehensions",
            op,
            "expr",
            (f"y = {expr}", "return x, y"),
            0,
            contexts=("construct", "jit"),
            codes=codes if op == "set_comp" else {},
        )
        for op, expr in COMPREHENSIONS.items()
    ]
