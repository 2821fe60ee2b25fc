"""The Parameters a training step reaches through a tuple of them: `for p in self.weights`,
`for p, g in zip(self.opt.parameters, grads)`, `self.acc[0]` of a `clone()`.

A training step holds its weights as a `ParameterTuple`: built in `__init__`
(`ParameterTuple(net.trainable_params())`), an optimizer's `parameters`, a `clone()` of either
(`self.opt.parameters.clone(prefix="acc", init="zeros")`), or `self.weights` that
`nn.TrainOneStepCell` sets for its subclasses. Measured on 2.10 (LAX and STRICT): an item of one,
looped over or indexed by a constant, is a Parameter in graph mode like `self.w`: `p.set_data(v)`
is forbidden (MS130), `p.requires_grad = False` fails ("Do not support to set attribute for a
parameter", MS133) and `p.name` fails (MS155).

Only what the class's `__init__` shows is known (`classes.py`): the result depends on the
function and its class, which the rule cache keys on.
"""

from __future__ import annotations

import ast
from typing import Optional

from . import names
from .base import FunctionContext
from .classes import ClassInfo

# The wrappers of `mindspore.nn` that set `self.weights` (a ParameterTuple) and `self.optimizer`.
TRAIN_ONE_STEP = frozenset(
    {
        "TrainOneStepCell",
        "TrainOneStepWithLossScaleCell",
        "GradAccumulationCell",
    }
)


def is_optimizer(qualname: Optional[str]) -> bool:
    """`mindspore.nn.SGD`, `mindspore.nn.optim.Adam`, ...: an optimizer MindSpore ships."""
    if not qualname or not qualname.startswith("mindspore.nn."):
        return False
    if qualname.startswith("mindspore.nn.optim."):
        return True
    return qualname.rsplit(".", 1)[-1] in OPTIMIZERS


OPTIMIZERS = frozenset(
    {
        "SGD",
        "Momentum",
        "Adam",
        "AdamWeightDecay",
        "AdamOffload",
        "AdaMax",
        "Adadelta",
        "Adagrad",
        "ASGD",
        "FTRL",
        "Lamb",
        "LARS",
        "LazyAdam",
        "ProximalAdagrad",
        "RMSProp",
        "Rprop",
        "Optimizer",
    }
)


def _train_one_step_subclass(cls: ClassInfo) -> bool:
    for info in cls.lineage():
        for base in info.node.bases:
            if not isinstance(base, (ast.Name, ast.Attribute)):
                continue
            qualname = info.module.qualname(base) or ""
            last = qualname.rsplit(".", 1)[-1]
            if qualname.startswith("mindspore.") and last in TRAIN_ONE_STEP:
                return True
    return False


def optimizer_attr(cls: ClassInfo, expr: ast.expr) -> bool:
    """`self.opt` holding an optimizer `__init__` built, or `self.optimizer` of a
    TrainOneStepCell subclass that does not set it itself."""
    name = names.self_attribute(expr)
    if name is None or cls.attr_varies(name):
        return False
    attr = cls.attr(name)
    if attr is None:
        return name == "optimizer" and _train_one_step_subclass(cls)
    return attr.kind == "cell" and is_optimizer(attr.class_qualname)


def parameter_sequence(cls: ClassInfo, expr: ast.expr, depth: int = 0) -> bool:
    """`expr` (read in a method of `cls`, or in its `__init__`) holds a tuple of Parameters."""
    if depth > 3:
        return False
    if isinstance(expr, ast.Attribute) and expr.attr == "parameters":
        return optimizer_attr(cls, expr.value)
    if (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Attribute)
        and expr.func.attr == "clone"
    ):
        return parameter_sequence(cls, expr.func.value, depth + 1)
    if isinstance(expr, ast.Call):
        func = expr.func
        named = isinstance(func, (ast.Name, ast.Attribute))
        qualname = cls.module.qualname(func) if named else None
        return qualname is not None and qualname.endswith(".ParameterTuple")
    name = names.self_attribute(expr)
    if name is None or cls.attr_varies(name):
        return False
    attr = cls.attr(name)
    if attr is None:
        return name == "weights" and _train_one_step_subclass(cls)
    made = attr.node
    if not isinstance(made, ast.expr) or made is expr:
        return False
    return parameter_sequence(cls, made, depth + 1)


def parameter_item(ctx: FunctionContext, expr: ast.expr) -> bool:
    """`expr` is an item of a tuple of Parameters: `seq[0]` (a constant index), or a name bound
    only as the variable of `for p in seq`, `for p, g in zip(seq, grads)` or `for i, p in
    enumerate(seq)` (a loop or a comprehension)."""
    cls = ctx.fn.cls
    seq = item_of(ctx, expr) if cls is not None else None
    return seq is not None and cls is not None and parameter_sequence(cls, seq)


def item_of(ctx: FunctionContext, expr: ast.expr) -> Optional[ast.expr]:
    """The sequence `expr` is an item of: `seq` of `seq[0]` (a constant index), or what a name
    bound only as a loop variable loops over (`for p in seq`, `zip(seq, grads)`, `enumerate`)."""
    if isinstance(expr, ast.Subscript):
        index = expr.slice
        if isinstance(index, ast.Constant) and type(index.value) is int:
            return expr.value
        return None
    if not isinstance(expr, ast.Name):
        return None
    stores = [n for n in ctx.of(ast.Name) if n.id == expr.id and not isinstance(n.ctx, ast.Load)]
    if len(stores) != 1:
        return None
    loops: list[ast.For | ast.comprehension] = ctx.of(ast.For, ast.comprehension)
    for loop in loops:
        over = looped(loop.target, loop.iter, stores[0])
        if over is not None:
            return over
    return None


def looped(target: ast.expr, over: ast.expr, store: ast.Name) -> Optional[ast.expr]:
    """The sequence `store` takes its items from in `for target in over`, if any."""
    if target is store:
        return over
    if not (isinstance(target, ast.Tuple) and isinstance(over, ast.Call)):
        return None
    func = over.func
    if isinstance(func, ast.Name) and func.id == "zip" and not over.keywords:
        for item, seq in zip(target.elts, over.args):
            if item is store:
                return seq
    if (
        isinstance(func, ast.Name)
        and func.id == "enumerate"
        and len(over.args) == 1
        and len(target.elts) == 2
        and target.elts[1] is store
    ):
        return over.args[0]
    return None
