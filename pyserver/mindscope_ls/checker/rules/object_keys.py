"""MS1044: a dict display in compiled code keyed by an Enum member, an object or a class.

Measured with MindSpore 2.10 on CPU at LAX and STRICT (round31 `ob_dk_*`): a dict display whose
key is a member of an `enum.Enum` (`{Mode.TRAIN: 2.0}`, `{self.mode: 2.0}`), an instance of a
plain class or `@jit_class` (`{self.s: 2.0}`, a module-level `OBJ`), or a plain class of the
workspace (`{Scale: 2.0}`) fails at the display: "make_dict evaluator key only supports string,
number, type, none, constant tensor and tuple, but got PythonObject". Compiled: the member's
`.value` as the key, an `IntEnum` or `str`-mixed Enum member, a dict with such keys built in
`__init__` and read with `self.d[self.mode]`, `dict([(Mode.TRAIN, 2.0)])`, and objects as
values (`{'s': self.s}`). A class is refused as a key too, though the message names "type":
a plain class, an Enum class, a `@jit_class` class and `nn.ReLU` all failed; a tuple holding an
Enum member (`{(Mode.TRAIN, 1): 2.0}`) compiled. `self.d.get(Mode.EVAL, 1.0)` (or
`self.d.get(self.mode, 1.0)`) of a dict built in `__init__` fails the same way ("dict_getitem
evaluator key only supports ..."), where `self.d[Mode.EVAL]` compiles.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import python_objects, receivers
from .helpers.base import FunctionContext

OBJECT_DICT_KEY = Rule(
    "MS1044",
    "object-dict-key",
    Group.FAILS,
    title="A dict display or `.get` in compiled code keyed by an Enum member, an object or a class",
    message=(
        "`{key}` is {what}, which graph mode's dict does not take as a key (only a str, "
        "number, None, type, constant Tensor or tuple); key it by `{advice}`, or build the "
        "dict in `__init__`."
    ),
    why=(
        "Graph mode builds a dict display from keys it can hash while compiling: strs, numbers, "
        "None, constant Tensors and tuples of them. An Enum member, an instance of a Python "
        "class and a plain class are opaque objects to it, and the compile stops at the dict."
    ),
    remedy=(
        "Key the dict by the member's `.value` or `.name` (or a str of your own), or build it "
        "in `__init__` and only read it in `construct`."
    ),
    mindspore_says=(
        "RuntimeError: make_dict evaluator key only supports string, number, type, none, "
        "constant tensor and tuple, but got PythonObject(type: <enum 'Mode'>, value: "
        "Mode.TRAIN)"
    ),
)


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    """Not cacheable: reads the module's global instances."""
    yield from _gets(ctx)
    displays: list[ast.Dict] = ctx.of(ast.Dict)
    for display in displays:
        for key in display.keys:
            if key is None:
                continue
            found = _opaque_key(ctx, key)
            if found is not None:
                yield OBJECT_DICT_KEY.finding(
                    key, key=ast.unparse(key), what=found[0], advice=found[1]
                )
                break


def _opaque_key(ctx: FunctionContext, key: ast.expr) -> Optional[tuple[str, str]]:
    what = python_objects.python_object(ctx, key)
    if what is not None:
        if what.startswith("the Enum"):
            return what, f"{ast.unparse(key)}.value"
        return what, "a str naming it"
    module = ctx.fn.module
    if isinstance(key, ast.Name) and key.id in module.classes and not _rebound(ctx, key.id):
        return f"the class `{key.id}`", f"'{key.id}'"
    if isinstance(key, (ast.Name, ast.Attribute)):
        qualname = module.qualname(key) or ""
        last = qualname.rsplit(".", 1)[-1]
        if qualname.startswith("mindspore.nn.") and last[:1].isupper():
            return f"the class `{ast.unparse(key)}`", f"'{last}'"
    return None


def _rebound(ctx: FunctionContext, name: str) -> bool:
    return any(isinstance(n.ctx, ast.Store) and n.id == name for n in ctx.of(ast.Name))


def _gets(ctx: FunctionContext) -> Iterator[RawFinding]:
    """`self.d.get(key, ...)` with an Enum member or object `key`: the dict was built in
    `__init__`, but graph mode's `get` takes the same keys as a display ("dict_getitem
    evaluator key only supports ..."; `self.d[key]` compiles)."""
    cls = ctx.fn.cls
    if cls is None:
        return
    for call in ctx.of(ast.Call):
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr == "get" and call.args):
            continue
        name = receivers.self_attr_name(func.value)
        held = cls.attr(name) if name is not None else None
        if held is None or not isinstance(held.node, ast.Dict) or cls.attr_varies(name or ""):
            continue
        key = call.args[0]
        what = python_objects.python_object(ctx, key)
        if what is not None:
            advice = f"{ast.unparse(key)}.value" if what.startswith("the Enum") else "a str"
            yield OBJECT_DICT_KEY.finding(key, key=ast.unparse(key), what=what, advice=advice)
