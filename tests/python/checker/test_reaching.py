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


TRICKY = """
def f(x, y=None):
    a = a = x
    b, b = x, y
    (c := x) + (c := y)
    d = [d for d in x] + [x for _ in d]
    e = lambda e=x: e + x
    g = f"{x!r:{y}} {f'{x}'}"
    x += x
    x: int = x + 1
    del a
    for x in (x, y):
        y = x if x else y
    with x as (p, x):
        x = p
    @dec(x)
    def inner(z=x):
        return x
    x = inner
    return x, y, {k: x for k in y}, (x for _ in y)
"""


def _flows(tree: ast.AST, fast: bool) -> list[tuple[object, ...]]:
    """Every function's reaching bindings, in walk order, as comparable data."""
    from mindscope_ls.checker.rules.helpers import reaching as module

    found: list[tuple[object, ...]] = []
    own_names = module._Walker._own_names
    try:
        if not fast:
            module._Walker._own_names = lambda self, node: None  # type: ignore[method-assign]
        for fn in ast.walk(tree):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                flow = module._Walker(fn).run()
                found.append((sorted(flow.reads.items()), sorted(flow.values), sorted(flow.params)))
    finally:
        module._Walker._own_names = own_names  # type: ignore[method-assign]
    return found


def test_names_found_by_position_are_those_the_walk_finds() -> None:
    """A statement's tracked names taken from the node index (no walk) give the same bindings
    as walking it: over every function of the corpus cases, and some that bind twice in one
    statement, in comprehensions, lambdas, f-strings and decorators."""
    from pathlib import Path

    cases = Path(__file__).resolve().parents[2] / "graphmode" / "cases"
    sources = [TRICKY, *(p.read_text(encoding="utf-8") for p in sorted(cases.rglob("*.pycase")))]
    compared = 0
    for source in sources:
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        fast = _flows(tree, fast=True)
        assert fast == _flows(tree, fast=False)
        compared += len(fast)
    assert compared > 1000
