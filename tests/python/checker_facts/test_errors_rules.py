"""The tables of the issue-13 error rules (rules/arguments.py) say what MindSpore's sources say."""

from __future__ import annotations

import ast

from mindscope_ls.checker.rules.arguments import NO_KEYWORDS
from scripts.checker_facts.build import installed_mindspore
from scripts.checker_facts.tables import class_functions, converted_builtins


def _functions(root) -> dict[str, ast.FunctionDef]:  # type: ignore[no-untyped-def]
    tree = ast.parse((root / "graph/_parse/standard_method.py").read_text())
    return {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}


def test_builtins_without_keywords_are_translated_to_functions_without_keywords() -> None:
    root, _ = installed_mindspore()
    converted = converted_builtins(root)
    functions = _functions(root)
    classes = class_functions(root)
    for name in NO_KEYWORDS:
        # every one has a graph translation: a function, or a class called as `<name>_func`
        target = f"M.{name}_func" if name in classes else converted[name]
        if target.startswith("M."):
            args = functions[target[2:]].args
            # only `*data`: Python's keywords (`key=`, `default=`, `start=`) have no parameter
            assert args.vararg is not None, target
            assert not (args.args or args.kwonlyargs or args.kwarg), target
        else:
            assert target.startswith("Primitive("), target  # a primitive takes no keywords
    # enumerate keeps Python's `start` (`enumerate_(x, start=0)`): not in the table
    assert "enumerate" not in NO_KEYWORDS
    assert [a.arg for a in functions["enumerate_"].args.args] == ["x", "start"]
