"""MS1000: `raise` of an exception class graph mode does not know, in compiled code.

Measured with MindSpore 2.10 on CPU, at LAX and STRICT alike (PyNative runs them, the branch not
taken): the parser turns `raise E(...)` / `raise E` into a graph node only for a fixed list of
Python's exceptions (`STANDARD` below) and refuses any other class as soon as it parses the
statement, taken or not ("Unsupported exception type: MyErr. Raise only support some Python
standard exception types: ..."). So fail a class the module defines on an exception base
(`class MyErr(ValueError)`, bare or called, in construct or a helper it calls, under `if
x.sum() > 100`, `if x is None`, `if x.shape[0] > 10`, `if n > 5` of a helper's argument, inside
`for i in range(2)`) and builtins outside the list (`LookupError`, `FileNotFoundError`). What
compiles: the listed ones (`ValueError`, `RuntimeError`, ...), `raise e` of a name holding an
instance, `raise ValueError(...) from MyErr(...)`, and a raise under an `if` the parser folds
away: a test on `self.<attr>`, on a local constant (`n = 3; if n > 5`), or an `and` holding one
(`self.n > 5 and x.shape[0] > 1`). So only a raise whose every enclosing test reads the
function's arguments (or names computed from them, or loop targets) is reported. A raise under
a folded test is compiled only when its branch is taken, and then PyNative raises too: nothing
to report there.

Classes of other modules fail alike (measured): `from subprocess import CalledProcessError`,
`from mymod import MyError` ("Unsupported exception type"), and any dotted class
`raise np.linalg.LinAlgError(...)`, `raise mymod.MyError(...)` ("No active exception to
reraise"). The checker sees one file, so an imported name counts when it reads as an exception
class (`...Error`, `...Exception`, `...Warning`); a module's own class raised counts whatever its
base (a class with none cannot be raised in Python either).

A module-level name that is no class fails alike (measured, under a Tensor test, a shape test
and an int argument's test; not under `self.flag`): `raise make_error("bad")` of a module
function, `raise Err("bad")` of `Err = ValueError`, `raise ERR` of `ERR = ValueError("bad")`
("Unsupported exception type: make_error"): raise_forms.py reports them (it reads the module's
tree, so it is not cached with this check).
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from . import calls_shared
from .helpers import names
from .helpers.base import FunctionContext, cacheable
from .helpers.walk import walk

UNSUPPORTED_EXCEPTION = Rule(
    "MS1000",
    "raise-unsupported-exception",
    Group.FAILS,
    title="`raise` of an exception class graph mode does not support",
    message=(
        "`raise {name}` fails to compile at every level, even when the branch is not taken "
        "(graph mode raises only Python's standard exceptions, not {what}); raise a "
        "standard one such as `{base}` instead."
    ),
    why=(
        "MindSpore's parser makes a graph node of `raise` only for a fixed list of Python's "
        "exceptions (ValueError, TypeError, RuntimeError, ...) and refuses any other class "
        "while it parses the statement."
    ),
    remedy=(
        "Raise a standard exception (`ValueError`, `RuntimeError`, ...) in compiled code, or "
        "check the condition outside the Cell."
    ),
    mindspore_says="RuntimeError: Unsupported exception type: MyErr. Raise only support some "
    "Python standard exception types",
)

# The exception types MindSpore 2.10's parser accepts (its own message lists them).
STANDARD = frozenset(
    {
        "AssertionError",
        "AttributeError",
        "BaseException",
        "EnvironmentError",
        "Exception",
        "IOError",
        "IndentationError",
        "IndexError",
        "KeyError",
        "KeyboardInterrupt",
        "MemoryError",
        "NameError",
        "NotImplementedError",
        "OSError",
        "OverflowError",
        "RuntimeError",
        "RuntimeWarning",
        "StopIteration",
        "TypeError",
        "UnboundLocalError",
        "ValueError",
        "ZeroDivisionError",
    }
)


def _builtin_exception(name: str) -> bool:
    value = getattr(builtins, name, None)
    return isinstance(value, type) and issubclass(value, BaseException)


def _module_exception(ctx: FunctionContext, name: str, depth: int = 0) -> Optional[str]:
    """The standard-or-builtin exception a module class derives from (None: not an exception,
    or a base the checker cannot see)."""
    node = ctx.fn.module.classes.get(name)
    if node is None or depth > 8:
        return None
    for base in node.bases:
        if not isinstance(base, ast.Name):
            continue
        if base.id in ctx.fn.module.classes:
            found = _module_exception(ctx, base.id, depth + 1)
            if found is not None:
                return found
        elif _builtin_exception(base.id) and calls_shared.builtin(ctx, base.id):
            return base.id
    return None


def _raised_name(stmt: ast.Raise) -> Optional[ast.Name]:
    exc = _raised(stmt)
    return exc if isinstance(exc, ast.Name) else None


def _raised(stmt: ast.Raise) -> Optional[ast.expr]:
    exc = stmt.exc
    if isinstance(exc, ast.Call):
        exc = exc.func
    return exc


# How an imported name reads when it is an exception class (the checker sees one file only, so
# the name is the evidence: `from errors import ConfigError`).
EXCEPTION_SUFFIXES = ("Error", "Exception", "Warning")


def _imported_class(ctx: FunctionContext, stmt: ast.Raise) -> Optional[tuple[str, str]]:
    """(the raised text, what it is) for `raise Imported(...)` of a name imported from another
    module that reads as an exception class, or `raise pkg.errors.Foo(...)` of an imported
    module's attribute (measured: both fail at every level, the dotted one with "No active
    exception to reraise")."""
    exc = _raised(stmt)
    imports = ctx.fn.module.imports
    if isinstance(exc, ast.Name):
        target = imports.get(exc.id)
        if target is None or target.startswith("builtins") or exc.id in STANDARD:
            return None
        if not exc.id.endswith(EXCEPTION_SUFFIXES) or not exc.id[:1].isupper():
            return None
        module = target.rpartition(".")[0] or target
        return exc.id, f"the class `{exc.id}` imported from `{module}`"
    if not isinstance(exc, ast.Attribute) or not exc.attr[:1].isupper():
        return None
    root = exc.value
    while isinstance(root, ast.Attribute):
        root = root.value
    if not isinstance(root, ast.Name) or root.id not in imports or root.id in ctx.fn.module.classes:
        return None
    if exc.attr in STANDARD and imports[root.id] == "builtins":
        return None
    text = ast.unparse(exc)
    return text, f"the class `{text}` of another module"


def _reads(expr: ast.AST, names: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in walk(expr))


def _test_kept(test: ast.expr, derived: set[str]) -> bool:
    """Whether the parser keeps both branches of an `if` on `test`: every operand of an
    `and`/`or`/`not` reads an argument-derived name (a constant one is folded away)."""
    if isinstance(test, ast.BoolOp):
        return all(_test_kept(v, derived) for v in test.values)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _test_kept(test.operand, derived)
    return _reads(test, derived)


def _derived(fn: ast.FunctionDef | ast.AsyncFunctionDef, method: bool) -> set[str]:
    """The arguments (not `self`), loop targets and names assigned from them."""
    args = [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]
    names = {a.arg for a in args[1 if method else 0 :]}
    names.update(a.arg for a in (fn.args.vararg, fn.args.kwarg) if a is not None)
    for node in walk(fn):
        if isinstance(node, (ast.For, ast.comprehension)):
            names.update(n.id for n in walk(node.target) if isinstance(n, ast.Name))
    changed = True
    while changed:
        changed = False
        for node in walk(fn):
            value: Optional[ast.expr] = None
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                value, targets = node.value, node.targets
            elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and node.value is not None:
                value, targets = node.value, [node.target]
            if value is None or not _reads(value, names):
                continue
            for target in targets:
                for n in walk(target):
                    if isinstance(n, ast.Name) and n.id not in names:
                        names.add(n.id)
                        changed = True
    return names


def _raises(body: list[ast.stmt], derived: set[str], kept: bool) -> Iterator[ast.Raise]:
    """The `raise` statements the parser reaches (not under a folded `if`, not in a `try`)."""
    for stmt in body:
        if isinstance(stmt, ast.Raise):
            if kept:
                yield stmt
        elif isinstance(stmt, ast.If):
            inner = kept and _test_kept(stmt.test, derived)
            yield from _raises(stmt.body, derived, inner)
            yield from _raises(stmt.orelse, derived, inner)
        elif isinstance(stmt, (ast.For, ast.While, ast.With)):
            yield from _raises(stmt.body, derived, kept)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    fn = ctx.fn.node
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or not ctx.of(ast.Raise):
        return
    method = ctx.fn.cls is not None and not names.is_static_method(fn)
    derived = _derived(fn, method)
    module = ctx.fn.module
    local = calls_shared.local_names(fn)
    for stmt in _raises(fn.body, derived, True):
        name = _raised_name(stmt)
        if name is None or name.id not in local:
            imported = _imported_class(ctx, stmt)
            if imported is not None:
                text, what = imported
                yield UNSUPPORTED_EXCEPTION.finding(stmt, name=text, what=what, base="ValueError")
                continue
        if name is None or name.id in STANDARD:
            continue
        if name.id in local or name.id in module.imports or name.id in module.functions:
            continue
        if name.id in module.classes:
            base = _module_exception(ctx, name.id)
            if base is None and not module.classes[name.id].bases:
                continue  # not an exception: Python itself refuses to raise it
            what = f"the module's class `{name.id}`"
            suggestion = base if base is not None and base in STANDARD else "ValueError"
        elif _builtin_exception(name.id) and calls_shared.builtin(ctx, name.id):
            what = f"the builtin `{name.id}`"
            suggestion = "RuntimeError" if name.id != "LookupError" else "KeyError"
        else:
            continue
        yield UNSUPPORTED_EXCEPTION.finding(stmt, name=name.id, what=what, base=suggestion)


# What raise_forms.py (MS1039, MS254, MS1040, MS1000's module-level names) shares.
derived_names = _derived
test_kept = _test_kept
module_exception = _module_exception
builtin_exception = _builtin_exception
imported_class = _imported_class
parsed_raises = _raises
