"""MS245: a Cell's compiled method sets an attribute the Cell does not have, under STRICT.

Measured with MindSpore 2.10 (`tests/graphmode/cases/user2/`, `docs/objects/`): under STRICT
`self.extra = 5` in construct, where neither the Cell's classes nor `nn.Cell` have `extra`,
fails ("The 'Net' object has no attribute 'extra'", no line named); LAX sets it through its
Python fallback. An attribute the class already has is MS202's. Only Cells whose whole lineage
the workspace shows (classes of the workspace down to `nn.Cell` itself) are judged.

MS250: the same write in a Cell whose lineage the workspace does not show whole (it subclasses
`nn.Dense`, `nn.SequentialCell` or a Cell of a module not in the workspace). Measured: STRICT
fails either way, with "The 'MyDense' object has no attribute 'last'" for a name the base lacks
and "the member attribute must be of the Parameter type" for one it has (`self.in_channels`,
`self.bias_add` of `nn.Dense`); LAX and PyNative set it. Names the visible classes create are
left to MS202/MS245, and names MindSpore layers keep Parameters under (`weight`, `bias`,
`gamma`, ...) are left alone: writing a Parameter attribute is what STRICT allows (measured:
`self.weight = self.weight * 0.5` in an `nn.Dense` subclass compiles). MS250 also reports
`self.training = ...` / `self.requires_grad = ...` / `self.phase = ...` (`CELL_PLAIN_ATTRIBUTES`)
in any Cell: plain attributes (or setter properties) of `nn.Cell`,
refused under STRICT alike ("... with self.training, the member attribute must be of the
Parameter type"), when no visible class sets them itself (that write is MS202's).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..facts import FACTS
from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from .helpers import names
from .helpers.base import FunctionContext
from .helpers.classes import ClassInfo
from .strict import flat_targets

NEW_ATTRIBUTE_UNDER_STRICT = Rule(
    "MS245",
    "new-attribute-under-strict",
    Group.STRICT,
    title="Compiled code sets an attribute the Cell does not have (STRICT)",
    message=(
        "`self.{name}` is not an attribute of `{cls}` (its `__init__` never sets it): STRICT "
        "cannot add attributes to a Cell in compiled code; set it in `__init__` (a Parameter "
        "if compiled code changes it) or return the value."
    ),
    why=(
        "Under STRICT the graph can only write a Cell's existing Parameter attributes; an "
        "attribute the Cell does not have is looked up and not found."
    ),
    remedy=(
        "Create the attribute in `__init__` (a Parameter when compiled code updates it), "
        "return the value instead, or use the default LAX level."
    ),
    mindspore_says="AttributeError: The 'Net' object has no attribute 'extra'.",
)
ATTRIBUTE_OF_UNSEEN_BASE_UNDER_STRICT = Rule(
    "MS250",
    "attribute-of-unseen-base-under-strict",
    Group.STRICT,
    title=(
        "Compiled code sets an attribute a base Cell may hold: a base outside the workspace, "
        "or `nn.Cell`'s `training`/`requires_grad` (STRICT)"
    ),
    message=(
        "`self.{name}` is set in compiled code, and {reason}: STRICT can only write a Cell's "
        "Parameter attributes, so `{cls}` cannot take this write; set it in `__init__` as a "
        "Parameter (outside the network for `training`: `net.set_train()`), or return the "
        "value."
    ),
    why=(
        "Under STRICT the graph writes only Parameter attributes of a Cell: a name the Cell "
        "lacks is not found, and a plain attribute the base has is refused as not a Parameter."
    ),
    remedy=(
        "Create the attribute in `__init__` as a Parameter when compiled code updates it, "
        "return the value instead, or use the default LAX level."
    ),
    mindspore_says=(
        "AttributeError: The 'MyDense' object has no attribute 'last'. / TypeError: In JIT "
        "strict mode, if need to modify a member attribute of a class with self.in_channels, "
        "the member attribute must be of the Parameter type."
    ),
)
# Plain attributes of nn.Cell (and its properties with a setter) compiled code may write
# (measured: STRICT refuses each, "the member attribute must be of the Parameter type"; LAX and
# PyNative set them): `self.phase = "eval"`, also under a Tensor `if`, `self.cell_type = ...`.
CELL_PLAIN_ATTRIBUTES = frozenset(
    {
        "training",
        "requires_grad",
        "phase",
        "compile_phase",
        "bprop_debug",
        "cell_type",
        "mixed_precision_type",
        "parameter_layout_dict",
    }
)
# Attributes MindSpore's layers hold Parameters under: writing them is what STRICT allows.
PARAMETER_NAMES = frozenset(
    {"weight", "bias", "gamma", "beta", "moving_mean", "moving_variance", "embedding_table"}
)
CELL = frozenset({"mindspore.nn.Cell", "mindspore.nn.cell.Cell", "mindspore.Cell"})


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    cls = ctx.fn.cls
    if ctx.level != SyntaxLevel.STRICT or cls is None or not cls.is_cell:
        return
    args = ctx.fn.node.args.args
    if not args or args[0].arg != "self":
        return
    unseen = _unseen_base(cls)
    writes: list[ast.Assign | ast.AnnAssign] = ctx.of(ast.Assign, ast.AnnAssign)
    reported: set[str] = set()
    for node in writes:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in flat_targets(targets):  # `self.q, y = 1, x` alike (measured)
            name = names.self_attribute(target)
            if name is None or name in reported:
                continue
            if name in CELL_PLAIN_ATTRIBUTES and _new(ctx, cls, name, facts=False):
                reported.add(name)
                yield ATTRIBUTE_OF_UNSEEN_BASE_UNDER_STRICT.finding(
                    target,
                    name=name,
                    cls=cls.name,
                    reason=f"`{name}` is `nn.Cell`'s own plain attribute, not a Parameter",
                )
                continue
            if not _new(ctx, cls, name):
                continue
            reported.add(name)
            if unseen is None:
                yield NEW_ATTRIBUTE_UNDER_STRICT.finding(target, name=name, cls=cls.name)
            elif name not in PARAMETER_NAMES:
                reason = (
                    f"no class of `{cls.name}` this workspace shows creates it (its base "
                    f"`{unseen}` is not in the workspace)"
                )
                yield ATTRIBUTE_OF_UNSEEN_BASE_UNDER_STRICT.finding(
                    target, name=name, cls=cls.name, reason=reason
                )


def _unseen_base(cls: ClassInfo) -> Optional[str]:
    """None when each class of the lineage is the workspace's and its bases are the workspace's
    classes or `nn.Cell` itself; otherwise the source of a base that is neither (another
    MindSpore Cell, whose attributes are not listed here, or a class of an unseen module)."""
    for info in cls.lineage():
        module = info.module
        if info.node.keywords:
            return ast.unparse(info.node.keywords[0])
        others = [base for base in info.node.bases if module.qualname(base) not in CELL]
        if len(others) != len(info.bases):  # a base neither nn.Cell nor a class of the workspace
            names = {base.name for base in info.bases}
            unresolved = [base for base in others if _last(base) not in names] or others
            return ast.unparse(unresolved[0])
    return None


def _last(expr: ast.expr) -> str:
    return expr.attr if isinstance(expr, ast.Attribute) else ast.unparse(expr)


def _new(ctx: FunctionContext, cls: ClassInfo, name: str, facts: bool = True) -> bool:
    if name.startswith("_") or (facts and FACTS.member("cell", name) is not None):
        return False
    own = ctx.fn.node
    for info in cls.lineage():
        if name in info.attrs or info.own_method(name) is not None:
            return False
        for stmt in info.node.body:
            if stmt is own:
                continue
            for node in ast.walk(stmt):
                if (
                    isinstance(node, ast.Name)
                    and node.id == name
                    and not isinstance(node.ctx, ast.Load)
                ):
                    return False  # a class attribute
                if (
                    isinstance(node, ast.Attribute)
                    and node.attr == name
                    and not isinstance(node.ctx, ast.Load)
                ):
                    return False  # set by another method
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Name)
                    and node.func.id in ("setattr", "__setattr__")
                ):
                    return False
    return True
