"""The type pairs each Python operator has a graph overload for, read from MindSpore's sources.

`resources.py` maps each operator to a `MultitypeFuncGraph` of `ops/composite/multitype_ops/`
(`+` to `add`, `==` to `equal`, `x[i]` to `getitem`); each of those registers its overloads
per type signature: `@add.register("Tensor", "Number")`. A signature with no overload is not
compiled by the graph itself: STRICT fails, LAX hands it to the Python fallback. No import.
"""

from __future__ import annotations

import ast
from pathlib import Path

from .tables import TableError

FOLDER = "ops/composite/multitype_ops"
# operator -> (implementation file, the MultitypeFuncGraph it dispatches to)
OPERATORS: dict[str, tuple[str, str]] = {
    "+": ("add_impl.py", "add"),
    "+=": ("add_impl.py", "augassign_add"),
    "-": ("sub_impl.py", "sub"),
    "-=": ("sub_impl.py", "augassign_sub"),
    "*": ("mul_impl.py", "mul"),
    "*=": ("mul_impl.py", "augassign_mul"),
    "/": ("div_impl.py", "div"),
    "//": ("floordiv_impl.py", "floordiv"),
    "%": ("mod_impl.py", "mod"),
    "**": ("pow_impl.py", "pow_"),
    "&": ("bitwise_and_impl.py", "bitwise_and"),
    "|": ("bitwise_or_impl.py", "bitwise_or"),
    "^": ("bitwise_xor_impl.py", "bitwise_xor"),
    "<<": ("left_shift_impl.py", "left_shift"),
    ">>": ("right_shift_impl.py", "right_shift"),
    "==": ("equal_impl.py", "equal"),
    "!=": ("not_equal_impl.py", "not_equal"),
    "<": ("less_impl.py", "less"),
    "<=": ("less_equal_impl.py", "less_equal"),
    ">": ("greater_impl.py", "greater"),
    ">=": ("greater_equal_impl.py", "greater_equal"),
    "in": ("in_impl.py", "in_"),
    "not in": ("not_in_impl.py", "not_in_"),
    "not": ("logical_not_impl.py", "logical_not"),
    "neg": ("negative_impl.py", "negative"),
    "pos": ("uadd_impl.py", "uadd"),
    "~": ("invert_impl.py", "invert"),
    "getitem": ("getitem_impl.py", "getitem"),
    "setitem": ("setitem_impl.py", "setitem"),
}


class OverloadError(TableError):
    """An implementation file or its graph is missing: the sources changed shape."""


def registered(tree: ast.Module, graph: str) -> list[list[str]]:
    """The signatures `@graph.register("A", "B")` of a module, sorted."""
    found: set[tuple[str, ...]] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef):
            continue
        for deco in node.decorator_list:
            if (
                isinstance(deco, ast.Call)
                and isinstance(deco.func, ast.Attribute)
                and deco.func.attr == "register"
                and isinstance(deco.func.value, ast.Name)
                and deco.func.value.id == graph
                and all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in deco.args)
            ):
                found.add(tuple(a.value for a in deco.args))  # type: ignore[attr-defined]
    return [list(sig) for sig in sorted(found)]


def operator_overloads(root: Path) -> dict[str, list[list[str]]]:
    table: dict[str, list[list[str]]] = {}
    for symbol, (name, graph) in OPERATORS.items():
        path = root / FOLDER / name
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (OSError, SyntaxError) as error:
            raise OverloadError(f"cannot read {FOLDER}/{name}: {error}") from None
        signatures = registered(tree, graph)
        if not signatures:
            raise OverloadError(f"{FOLDER}/{name} registers no overload of `{graph}`")
        table[symbol] = signatures
    return table
