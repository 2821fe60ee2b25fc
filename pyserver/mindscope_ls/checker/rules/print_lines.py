"""MS3000: `print` of several arguments (or of none) in a Cell's compiled code.

Measured with MindSpore 2.10 on CPU (round 36, `sf_`), LAX and STRICT alike, the process's
stdout of GRAPH_MODE against PyNative: graph mode's `print` writes each positional argument on
a line of its own, where Python joins them with a space on one line: `print('k', 3)` wrote
`k\\n3\\n` (PyNative `k 3`), `print('a', 'b')`, `print(1, 2)`, `print('x:', x)`,
`print('n', x.shape[0])`, `print('v', None)`, `print('dtype', x.dtype)`, `print('step', i)` in a
`for` (every step two lines), `print(*args)` of a tuple `('a', 'b')`, in `construct` and in a
helper method it calls. `print()` with no argument writes nothing (PyNative an empty line).
What prints the same: one argument (`print('a b')`, `print(f'k {k}')`, `print('%d items' % k)`,
`print('{} items'.format(k))`), and an `@ms.jit` function (PyNative compiles it too). A `print`
given `sep=`/`end=`/`flush=`/`file=` fails to compile (another rule's); it is left alone.
A `print` one of whose arguments LAX evaluates in Python (a str formatted from a value known only
at run time: `f'{n}'`, `str(n)`, `'%d' % n`, `'{}'.format(n)` with `n = int(x.sum())`, `f'{x}'`
of a Tensor; a NumPy value; `x.asnumpy()`) is run whole by the fallback and writes one line like
Python (measured: `print('picked', f'head{idx}')`), so it is left alone too.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..model import Group, RawFinding
from ..rule import Rule
from .divergence_print_format import cell_prints
from .helpers import receivers
from .helpers.base import FunctionContext, cacheable

PRINT_ARGS_ON_LINES = Rule(
    "MS3000",
    "print-args-on-lines",
    Group.DIVERGES,
    title="`print` of several arguments (or none) in a Cell's compiled code",
    message=(
        "Graph mode's `print` writes {what} (PyNative writes {python}); build one str "
        "(`print(f'...')`) if the layout of the output matters."
    ),
    why=(
        "Graph mode's print kernel takes its arguments as separate values and writes each on "
        "a line of its own: `print('loss', 3)` wrote `loss` and `3` on two lines in GRAPH_MODE "
        "where PyNative wrote `loss 3`; `print()` wrote nothing where PyNative wrote an empty "
        "line."
    ),
    remedy="Format one str and print it (`print(f'loss {loss}')`), or print outside the graph.",
    mindspore_says="(compiles; prints differently from PyNative)",
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    for call in cell_prints(ctx):
        if call.keywords:
            continue  # `sep=`/`end=`/...: fails to compile (MS171's)
        if any(_interpreted(a) for a in call.args):
            continue  # LAX runs the whole print in Python: one line (STRICT: MS309's)
        if len(call.args) >= 2 or _spread(ctx, call.args):
            yield PRINT_ARGS_ON_LINES.finding(
                call,
                what="each argument on a line of its own",
                python="them on one line, separated by spaces",
            )
        elif not call.args:
            yield PRINT_ARGS_ON_LINES.finding(
                call, what="nothing for `print()`", python="an empty line"
            )


def _spread(ctx: FunctionContext, args: list[ast.expr]) -> bool:
    """`print(*t)` of a tuple or list display of two or more items (also through a local)."""
    if len(args) != 1 or not isinstance(args[0], ast.Starred):
        return False
    held = args[0].value
    if isinstance(held, ast.Name):
        bound = receivers.only_binding(ctx, held.id)
        held = bound if bound is not None else held
    return isinstance(held, (ast.Tuple, ast.List)) and len(held.elts) >= 2


_KNOWN_ATTRS = frozenset({"shape", "dtype", "ndim"})
_FORMATTERS = frozenset({"str", "repr", "format"})
_HOST = frozenset({"asnumpy", "numpy", "tolist"})


def _interpreted(arg: ast.expr) -> bool:
    """An argument LAX's fallback evaluates in Python, which makes it run the whole `print`."""
    for node in ast.walk(arg):
        if isinstance(node, ast.FormattedValue) and not _compile_time(node.value):
            return True
        if (
            isinstance(node, ast.BinOp)
            and isinstance(node.op, ast.Mod)
            and isinstance(node.left, (ast.Constant, ast.JoinedStr))
            and not _compile_time(node.right)
        ):
            return True
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name in _FORMATTERS and not all(_compile_time(a) for a in node.args):
                return True
            if name in _HOST:
                return True
            root = func
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name) and root.id in ("np", "numpy"):
                return True
    return False


def _compile_time(expr: ast.expr) -> bool:
    """A value the compiler knows: a literal, `self.<attr>`, a Tensor's shape/dtype/ndim (or an
    item of its shape), `len(...)`, or a tuple of those."""
    if isinstance(expr, ast.Constant):
        return True
    if isinstance(expr, (ast.Tuple, ast.List)):
        return all(_compile_time(e) for e in expr.elts)
    if isinstance(expr, ast.Subscript):
        return _compile_time(expr.value)
    if isinstance(expr, ast.Attribute):
        return expr.attr in _KNOWN_ATTRS or (
            isinstance(expr.value, ast.Name) and expr.value.id == "self"
        )
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name):
        return expr.func.id == "len"
    return False
