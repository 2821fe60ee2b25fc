"""MS1135-MS1137, MS3025: standard-library objects compiled code cannot keep as Python does.

Measured with MindSpore 2.10 on CPU, LAX and STRICT, against PyNative (round 36, `pm_`):

- MS1135: graph mode rewrites `seq.append(v)` (also `extend`, `insert`, `clear`, `reverse`) as
  `seq = <what the method returns>`, as it does for a list. A `collections.deque` returns None
  from those methods, so its name holds None afterwards: `d = deque([1, 2]); d.append(3)` then
  `len(d)`, `d[2]`, `for v in d` or a second `d.append(...)` fail ("'NoneType' object has no
  attribute '__len__'", "'NoneType' object is not subscriptable", "'none' object is not
  iterable"); a module-level deque too (`Q.append(2); len(Q)`). `v = d.pop()` fails where it
  is (graph mode's list `pop` gives the pair (list, item): "For 'TupleGetItem', input[0] should
  be Sequence, but got Int64"). Compile: `appendleft`, `extendleft`, `popleft`, `rotate`,
  `remove`, a deque only read (`d[0]`, `len(d)`, `for`), a deque changed and never read again,
  `self.q.append(1)` of a deque attribute.
- MS1136: `next(it)` of an `itertools` object (`count()`, `cycle(...)`, `repeat(...)`,
  `islice(...)`, `chain(...)`; a module-level one, a local, or `self.step = itertools.count()`)
  fails at every level: graph mode's `next` indexes its argument ("'itertools.count' object is
  not subscriptable"). `zip(itertools.count(), xs)` in a `for` compiles.
- MS1137: `isinstance(v, List)` with a `typing` alias (`List`, `Dict`, `Tuple`, `Sequence`,
  `Iterable`, `Union[int, float]`, `Optional[int]`, also inside a tuple of types) fails at every
  level ("isinstance() arg 2 must be a type or tuple of types"); PyNative accepts them.
  `isinstance(v, (list, tuple))` and `collections.abc.Sequence` compile.
- MS3025: `heapq.heapify(h)`, `heappush`, `heappop`, `heapreplace`, `heappushpop` and
  `bisect.insort` run in Python on a copy of the list: `h` read afterwards still holds its old
  items (`h = [3, 1, 2]; heapq.heapify(h); h[0]` is 3, PyNative 1; `heappush(h, 0)` then `len(h)`
  is unchanged), a module-level list too. `heapq.nlargest`, `bisect.bisect` (no change) agree.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import names
from .helpers.base import FunctionContext
from .helpers.flow import loads_after
from .helpers.module_values import global_binding, module_calls
from .helpers.walk import of_type

DEQUE_METHOD_REBINDS = Rule(
    "MS1135",
    "deque-method-rebinds-name",
    Group.FAILS,
    title="A `collections.deque` changed by `append`/`extend`/`insert`/`clear`/`reverse`/`pop` "
    "in compiled code, then read",
    message=(
        "`{name}` is a `collections.deque`: graph mode compiles `{name}.{method}(...)` as it "
        "does a list's, binding `{name}` to what the method returns (None), so this read of "
        "`{name}` fails."
    ),
    why=(
        "Graph mode rewrites a list's in-place methods (`append`, `extend`, `insert`, `clear`, "
        "`reverse`; `pop` gives a pair) to rebind the name to the new list. A deque's methods "
        "return None, so the name holds None afterwards (measured on 2.10: `d.append(3)` then "
        "`len(d)` failed with \"'NoneType' object has no attribute '__len__'\", at LAX and "
        "STRICT)."
    ),
    remedy="Use a list (`d = [1, 2]; d.append(3)`; `d = d[-n:]` for a bounded queue).",
    mindspore_says="AttributeError: 'NoneType' object has no attribute '__len__'",
)

ITERTOOLS_NEXT = Rule(
    "MS1136",
    "next-of-itertools-object",
    Group.FAILS,
    title="`next()` of an `itertools` object (`count`, `cycle`, ...) in compiled code",
    message=(
        "`{it}` is an `{kind}` object: graph mode's `next()` indexes its argument, which an "
        "itertools object does not support, so this fails."
    ),
    why=(
        "Graph mode compiles `next(seq)` as `(seq[0], seq[1:])`; an `itertools` object cannot "
        "be indexed (measured on 2.10: `next(itertools.count())` failed with "
        "\"'itertools.count' object is not subscriptable\" at LAX and STRICT)."
    ),
    remedy=(
        "Keep the counter outside the graph and pass it in, or use a Parameter updated with "
        "`ops.assign`; index a tuple or list instead of `cycle`/`islice`."
    ),
    mindspore_says="TypeError: 'itertools.count' object is not subscriptable",
)

TYPING_ISINSTANCE = Rule(
    "MS1137",
    "isinstance-of-typing-alias",
    Group.FAILS,
    title="`isinstance()` against a `typing` alias (`List`, `Dict`, `Union[...]`, ...)",
    message=(
        "`{alias}` is a `typing` alias, not a class: graph mode's `isinstance` takes only types "
        "and tuples of types, so this fails (PyNative accepts it)."
    ),
    why=(
        "Graph mode checks the second argument of `isinstance` itself (measured on 2.10: "
        "`isinstance(v, List)`, `typing.Sequence`, `Union[int, float]` and `Optional[int]` "
        'failed with "isinstance() arg 2 must be a type or tuple of types" at LAX and STRICT).'
    ),
    remedy="Test against the builtin type: `isinstance(v, list)`, `isinstance(n, (int, float))`.",
    mindspore_says="TypeError: isinstance() arg 2 must be a type or tuple of types.",
)

OPERATOR_CONTAINS_REVERSED = Rule(
    "MS1138",
    "operator-contains-reversed",
    Group.FAILS,
    title="`operator.contains(seq, item)` in compiled code tests `seq in item`",
    message=(
        "Graph mode compiles `{call}` as `{seq} in {item}` (its `in` with the operands "
        "the other way round), which fails for {what}; write `{item} in {seq}`."
    ),
    why=(
        "MindSpore maps `operator.contains` to its own `in` without swapping the operands "
        "(measured on 2.10: `operator.contains([1, 2], 2)` failed with \"argument of type 'int' "
        "is not iterable\", `operator.contains(('a', 'b'), 'a')` with \"'in <string>' requires "
        'string as left operand", at LAX and STRICT).'
    ),
    remedy="Write the membership test with `in`: `item in seq`.",
    mindspore_says="TypeError: argument of type 'int' is not iterable",
)

INT_ENUM_MEMBER_ATTRIBUTE = Rule(
    "MS1139",
    "int-enum-member-attribute",
    Group.FAILS,
    title="`.value` / `.name` of an `IntEnum` member in compiled code",
    message=(
        "`{expr}` is a member of the IntEnum `{cls}`, which graph mode holds as a plain int: "
        "an int has no `.{attr}`, so this fails."
    ),
    why=(
        "Graph mode converts an `IntEnum` (or `IntFlag`) member to its int value when it "
        "reads it (measured on 2.10: `K.B.value` failed with \"'Int' object has no attribute "
        "'value'\" at LAX and STRICT; a plain `Enum` member's `.value` compiles)."
    ),
    remedy="Use the member itself (it is an int already) or read `.value` outside the graph.",
    mindspore_says="AttributeError: 'Int' object has no attribute 'value'",
)

INT_ENUM_RETURNED = Rule(
    "MS3026",
    "int-enum-member-returned",
    Group.DIVERGES,
    title="An `IntEnum` member returned from compiled code comes back as a plain int",
    message=(
        "`{expr}` is a member of the IntEnum `{cls}`: graph mode returns its int value "
        "(PyNative returns the member, whose `repr`, `.name` and `is` tests differ)."
    ),
    why=(
        "Graph mode holds an `IntEnum` member as its int (measured on 2.10: `return K.B` gave "
        "2 where PyNative gave <K.B: 2>, `[K.A, K.B]` gave [1, 2])."
    ),
    remedy="Convert the result back outside the graph (`K(out)`), or return a Tensor.",
    mindspore_says="(compiles; result differs from PyNative)",
)

HEAP_LIST_UNCHANGED = Rule(
    "MS3025",
    "heapq-bisect-list-unchanged",
    Group.DIVERGES,
    title="`heapq` / `bisect.insort` changing a list in compiled code: the list stays as it was",
    message=(
        "`{call}` changes `{name}` in place in PyNative; graph mode runs it on a copy, so "
        "`{name}` read afterwards still holds its old items."
    ),
    why=(
        "Graph mode runs `heapq` and `bisect` functions through its Python fallback with a copy "
        "of the list (measured on 2.10: `h = [3, 1, 2]; heapq.heapify(h)` left `h[0] == 3`, "
        "`heappush(h, 0)` left `len(h)` unchanged, at LAX and STRICT)."
    ),
    remedy="Use what they compute instead (`h = sorted(h)`, `h = sorted(h + [v])`), or "
    "compute outside the graph.",
    mindspore_says="(compiles; result differs from PyNative)",
)

DEQUE_REBINDING = frozenset({"append", "extend", "insert", "clear", "reverse"})
TYPING_ALIASES = frozenset(
    {
        "List",
        "Dict",
        "Tuple",
        "Set",
        "FrozenSet",
        "Sequence",
        "MutableSequence",
        "Mapping",
        "MutableMapping",
        "Iterable",
        "Iterator",
        "Collection",
        "Union",
        "Optional",
        "Callable",
    }
)
HEAP_FUNCTIONS = frozenset(
    {
        "heapq.heapify",
        "heapq.heappush",
        "heapq.heappop",
        "heapq.heapreplace",
        "heapq.heappushpop",
        "bisect.insort",
        "bisect.insort_left",
        "bisect.insort_right",
    }
)
PACKAGES = frozenset({"collections", "itertools", "typing", "heapq", "bisect", "operator", "enum"})
INT_ENUMS = frozenset({"enum.IntEnum", "enum.IntFlag"})


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls = [c for c in ctx.of(ast.Call) if isinstance(c, ast.Call)]
    yield from _typing_isinstance(ctx, calls)  # `int | float` needs no import
    if not names.imports_package(ctx.fn.module, PACKAGES):
        return
    if ctx.fn.module.mentions("IntEnum") or ctx.fn.module.mentions("IntFlag"):
        yield from _int_enums(ctx)
    if not calls:
        return
    yield from _contains(ctx, calls)
    yield from _deques(ctx, calls)
    yield from _itertools_next(ctx, calls)
    yield from _heaps(ctx, calls)


def _local_names(ctx: FunctionContext) -> set[str]:
    fn = ctx.fn.node
    found = {n.id for n in ctx.of(ast.Name) if isinstance(n.ctx, ast.Store)}
    args = getattr(fn, "args", None)
    if isinstance(args, ast.arguments):
        found |= {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
    declared = {n for g in ctx.of(ast.Global) if isinstance(g, ast.Global) for n in g.names}
    return found - declared


def made_by(ctx: FunctionContext, expr: ast.expr) -> Optional[str]:
    """The qualified name of the call that made what `expr` holds: a local bound once to a call,
    a module-level `NAME = call(...)` the function does not rebind, `self.<name>` assigned a call
    outside `construct`; else None."""
    module = ctx.fn.module
    if isinstance(expr, ast.Call):
        return module.qualname(expr.func)
    if isinstance(expr, ast.Name):
        bound = [
            a.value
            for a in ctx.of(ast.Assign)
            if isinstance(a, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == expr.id for t in a.targets)
        ]
        if bound:
            if len(bound) == 1 and isinstance(bound[0], ast.Call):
                return module.qualname(bound[0].func)
            return None
        if expr.id in _local_names(ctx):
            return None
        for name, called in module_calls(module):
            if name == expr.id:
                return called or None
        return None
    attr = names.self_attribute(expr)
    cls = ctx.fn.cls
    if attr is None or cls is None:
        return None
    made = {
        module.qualname(sub.value.func)
        for sub in of_type(cls.node, ast.Assign)
        if isinstance(sub.value, ast.Call)
        and any(names.self_attribute(t) == attr for t in sub.targets)
    }
    return made.pop() if len(made) == 1 else None


def _is_deque(qualname: Optional[str]) -> bool:
    return qualname == "collections.deque"


def _deques(ctx: FunctionContext, calls: list[ast.Call]) -> Iterator[RawFinding]:
    fn = ctx.fn.node
    values = {id(s.value) for s in ctx.of(ast.Expr) if isinstance(s, ast.Expr)}
    loops = [n for n in ctx.of(ast.For, ast.While) if isinstance(n, (ast.For, ast.While))]
    reported: set[int] = set()
    for call in calls:
        func = call.func
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
            continue
        method = func.attr
        pop_value = method == "pop" and id(call) not in values
        if not (pop_value or (method in DEQUE_REBINDING and id(call) in values)):
            continue
        if not _is_deque(made_by(ctx, func.value)):
            continue
        name = func.value.id
        if pop_value:
            where: Optional[ast.AST] = call
        else:
            where = loads_after(fn, name, call)
            if where is None and any(_inside(call, loop) for loop in loops):
                where = func.value  # read again on the loop's next turn
        if where is None or id(where) in reported:
            continue
        reported.add(id(where))
        yield DEQUE_METHOD_REBINDS.finding(where, name=name, method=method)


def _inside(node: ast.AST, outer: ast.AST) -> bool:
    body = [*getattr(outer, "body", [])]
    return any(node is sub for stmt in body for sub in ast.walk(stmt))


def itertools_object(ctx: FunctionContext, expr: ast.expr) -> Optional[str]:
    """`itertools.count` (...) when `expr` holds an object an `itertools` function made."""
    made = made_by(ctx, expr)
    return made if made is not None and made.startswith("itertools.") else None


def _itertools_next(ctx: FunctionContext, calls: list[ast.Call]) -> Iterator[RawFinding]:
    if not names.imports_package(ctx.fn.module, frozenset({"itertools"})):
        return
    for call in calls:
        if not (
            isinstance(call.func, ast.Name)
            and call.func.id == "next"
            and len(call.args) == 1
            and not call.keywords
        ):
            continue
        kind = itertools_object(ctx, call.args[0])
        if kind is not None:
            yield ITERTOOLS_NEXT.finding(call, it=ast.unparse(call.args[0]), kind=kind)


def _typing_alias(ctx: FunctionContext, expr: ast.expr) -> Optional[ast.expr]:
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.BitOr):
        return expr  # `int | float`: a `types.UnionType` (measured: fails like `Union[...]`)
    if isinstance(expr, ast.Tuple):
        return next((e for e in expr.elts if _typing_alias(ctx, e) is not None), None)
    target = expr.value if isinstance(expr, ast.Subscript) else expr
    if not isinstance(target, (ast.Name, ast.Attribute)):
        return None
    qualname = ctx.fn.module.qualname(target) or ""
    head, _, last = qualname.rpartition(".")
    return expr if head == "typing" and last in TYPING_ALIASES else None


def _typing_isinstance(ctx: FunctionContext, calls: list[ast.Call]) -> Iterator[RawFinding]:
    for call in calls:
        if (
            isinstance(call.func, ast.Name)
            and call.func.id == "isinstance"
            and len(call.args) == 2
            and not call.keywords
        ):
            alias = _typing_alias(ctx, call.args[1])
            if alias is not None and not _under_none_guard(ctx, call):
                yield TYPING_ISINSTANCE.finding(call, alias=ast.unparse(alias))


def _under_none_guard(ctx: FunctionContext, node: ast.AST) -> bool:
    """`node` sits under `if p is not None:` of a parameter `p` defaulting to None: graph mode
    folds the test when the caller leaves `p` out and never evaluates the branch (measured on
    2.10: `if masks is not None: isinstance(masks, List)` compiles when no mask is passed and
    fails when one is; mindone's attention processors are written so)."""
    optional = {a.arg for a in names.none_default_parameters(ctx.fn.node)}
    if not optional:
        return False
    tests: list[ast.If] = ctx.of(ast.If)
    for test in tests:
        t = test.test
        if (
            isinstance(t, ast.Compare)
            and isinstance(t.left, ast.Name)
            and t.left.id in optional
            and len(t.ops) == 1
            and isinstance(t.ops[0], ast.IsNot)
            and isinstance(t.comparators[0], ast.Constant)
            and t.comparators[0].value is None
            and any(node is sub for stmt in test.body for sub in ast.walk(stmt))
        ):
            return True
    return False


def _heaps(ctx: FunctionContext, calls: list[ast.Call]) -> Iterator[RawFinding]:
    if not names.imports_package(ctx.fn.module, frozenset({"heapq", "bisect"})):
        return
    fn = ctx.fn.node
    for call in calls:
        if not call.args or not isinstance(call.args[0], ast.Name):
            continue
        if ctx.fn.module.qualname(call.func) not in HEAP_FUNCTIONS:
            continue
        name = call.args[0].id
        read = loads_after(fn, name, call)
        if read is None:
            continue
        yield HEAP_LIST_UNCHANGED.finding(
            call, call=ast.unparse(call), name=name, related=[ctx.related(read, f"`{name}` read")]
        )


def _contains(ctx: FunctionContext, calls: list[ast.Call]) -> Iterator[RawFinding]:
    """`operator.contains(seq, item)` with an item `in` cannot take `seq` on its left: a number
    (or a shape's dim), or a str when `seq` is no str."""
    for call in calls:
        if len(call.args) != 2 or call.keywords:
            continue
        if ctx.fn.module.qualname(call.func) != "operator.contains":
            continue
        seq, item = call.args
        what = None
        if (isinstance(item, ast.Constant) and isinstance(item.value, (int, float))) or _shape_dim(
            item
        ):
            what = "a number on the right"
        elif (
            isinstance(item, ast.Constant)
            and isinstance(item.value, str)
            and isinstance(seq, (ast.Tuple, ast.List, ast.Dict, ast.Set))
        ):
            what = "a str on the right of a non-str"
        if what is not None:
            yield OPERATOR_CONTAINS_REVERSED.finding(
                call,
                call=ast.unparse(call),
                seq=ast.unparse(seq),
                item=ast.unparse(item),
                what=what,
            )


def _shape_dim(expr: ast.expr) -> bool:
    return (
        isinstance(expr, ast.Subscript)
        and isinstance(expr.value, ast.Attribute)
        and expr.value.attr == "shape"
        and isinstance(expr.slice, ast.Constant)
    )


def _int_enum_classes(ctx: FunctionContext) -> dict[str, ast.ClassDef]:
    module = ctx.fn.module
    tree = module.tree
    if tree is None:
        return {}
    return {
        stmt.name: stmt
        for stmt in tree.body
        if isinstance(stmt, ast.ClassDef)
        and any(module.qualname(b) in INT_ENUMS for b in stmt.bases)
    }


def _int_enum_member(
    ctx: FunctionContext, expr: ast.expr, classes: dict[str, ast.ClassDef]
) -> Optional[str]:
    """The IntEnum class `expr` (`K.B`, a module-level `STAGE = K.B`, `self.stage` set only to
    `K.B`) is a member of."""
    bound = _member_binding(ctx, expr)
    if bound is not None:
        expr = bound
    if (
        isinstance(expr, ast.Attribute)
        and isinstance(expr.value, ast.Name)
        and expr.value.id in classes
        and any(
            isinstance(t, ast.Name) and t.id == expr.attr
            for stmt in classes[expr.value.id].body
            if isinstance(stmt, ast.Assign)
            for t in stmt.targets
        )
    ):
        return expr.value.id
    return None


def _member_binding(ctx: FunctionContext, expr: ast.expr) -> Optional[ast.expr]:
    """What a module-level name (not a local) or a `self.<attr>` is bound to, when bound once."""
    if isinstance(expr, ast.Name) and expr.id not in _local_names(ctx):
        bound = global_binding(ctx.fn.module, expr.id)
        return bound.value if bound is not None else None
    attr = names.self_attribute(expr)
    cls = ctx.fn.cls
    return cls.bound_once(attr) if attr is not None and cls is not None else None


def _int_enums(ctx: FunctionContext) -> Iterator[RawFinding]:
    if not names.imports_package(ctx.fn.module, frozenset({"enum"})):
        return
    attrs = [
        a
        for a in ctx.of(ast.Attribute)
        if isinstance(a, ast.Attribute) and isinstance(a.value, ast.Attribute)
    ]
    returns = [r for r in ctx.of(ast.Return) if isinstance(r, ast.Return) and r.value is not None]
    if not attrs and not returns:
        return
    classes = _int_enum_classes(ctx)
    if not classes:
        return
    for attr in attrs:
        if attr.attr not in ("value", "name") or not isinstance(attr.ctx, ast.Load):
            continue
        cls = _int_enum_member(ctx, attr.value, classes)
        if cls is not None:
            yield INT_ENUM_MEMBER_ATTRIBUTE.finding(
                attr, expr=ast.unparse(attr.value), cls=cls, attr=attr.attr
            )
    if not _entry(ctx):
        return
    for ret in returns:
        value = ret.value
        if value is None:
            continue
        items = value.elts if isinstance(value, (ast.Tuple, ast.List)) else [value]
        for item in items:
            cls = _int_enum_member(ctx, item, classes)
            if cls is not None:
                yield INT_ENUM_RETURNED.finding(item, expr=ast.unparse(item), cls=cls)
                break


def _entry(ctx: FunctionContext) -> bool:
    """The function's result reaches Python: a Cell's `construct` or a jit function no
    compiled code calls."""
    fn = ctx.fn
    if fn.caller is not None:
        return False
    if fn.cls is not None:
        return fn.node.name == "construct"
    return bool(getattr(fn.node, "decorator_list", None))
