"""Which bindings reach a read: branches merge, loops carry the end of the body back."""

from __future__ import annotations

import ast

from mindscope_ls.checker.rules.helpers.reaching import reaching


def _reads(source: str, name: str) -> list[set[str]]:
    """For each read of `name` in source order: the source text of the values of the
    bindings reaching it ("<param>" for the parameter), or {"?"} when not followed."""
    fn = ast.parse(source).body[0]
    assert isinstance(fn, ast.FunctionDef)
    flow = reaching(fn)
    stores = {id(n): n for n in ast.walk(fn) if isinstance(n, (ast.Name, ast.arg))}
    found = []
    reads = [n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == name]
    for read in sorted(reads, key=lambda n: (n.lineno, n.col_offset)):
        if not isinstance(read.ctx, ast.Load):
            continue
        defs = flow.of(read)
        if defs is None:
            found.append({"?"})
            continue
        texts = set()
        for d in defs:
            if isinstance(stores.get(d), ast.arg):
                texts.add("<param>")
            else:
                value = flow.values.get(d)
                texts.add(ast.unparse(value) if value is not None else "<other>")
        found.append(texts)
    return found


def test_a_rebinding_replaces_what_reaches_later_reads() -> None:
    src = "def f(x):\n    a = x + 1\n    x = x.shape\n    return x[0], a\n"
    assert _reads(src, "x") == [{"<param>"}, {"<param>"}, {"x.shape"}]


def test_branches_merge_and_loops_carry_the_body_back() -> None:
    src = (
        "def f(x):\n"
        "    n = 2\n"
        "    if x:\n"
        "        n = len(x)\n"
        "    for i in range(n):\n"
        "        print(n)\n"
        "        n = x.sum()\n"
        "    return n\n"
    )
    merged = {"2", "len(x)"}
    assert _reads(src, "n") == [merged, merged | {"x.sum()"}, merged | {"x.sum()"}]


def test_a_return_ends_the_path_and_a_break_leaves_the_loop() -> None:
    src = (
        "def f(x):\n"
        "    n = 1\n"
        "    while x:\n"
        "        if x:\n"
        "            n = 2\n"
        "            break\n"
        "        n = 3\n"
        "        return n\n"
        "    return n\n"
    )
    assert _reads(src, "n") == [{"3"}, {"1", "2"}]


def test_names_bound_once_and_reads_in_comprehensions_are_not_followed() -> None:
    src = "def f(x):\n    y = x\n    y = [y for y in x]\n    return y, x\n"
    assert _reads(src, "y") == [{"?"}, {"[y for y in x]"}]
    assert _reads(src, "x") == [{"?"}, {"?"}, {"?"}]
