"""Find the code MindSpore compiles: Cell.construct, @jit functions, ms.jit(fn), and callees."""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import partial
from itertools import accumulate
from typing import Optional

from ...incremental.memo import NodeMemo
from ...index.module import FunctionNode, ModuleInfo
from ...index.workspace import Workspace
from ...model import SyntaxLevel
from . import call_targets, names
from .abstract import MUTABLE
from .classes import ClassInfo, ClassTable
from .hook_places import registration_places
from .module_values import (
    argument_values,
    entry_point,
    global_binding,
    module_calls,
    ordered_parameters,
)
from .types import TensorTypes
from .walk import inside, of_type

MAX_FUNCTIONS = 20000
Target = tuple[ModuleInfo, FunctionNode, Optional[ClassInfo]]


@dataclass(frozen=True)
class CallPlan:
    """A call in a compiled function that may reach workspace code, read once from its body:
    `target` is ("self", attr), ("local", name), ("closure", name: a module-level name holding
    a nested `def` its factory returned) or ("global", dotted name), and the flags say
    which arguments are Tensors. Which function it reaches is looked up in every check."""

    node: ast.expr  # the call, or the `self.prop` read that runs a property's getter
    target: tuple[str, str]
    args: tuple[bool, ...]
    keywords: tuple[tuple[str, bool], ...]
    # What MindSpore names for the call when not the call itself: the `for` whose variable
    # holds the function (the loop is unrolled, each turn a call), the `partial(...)` made
    site: Optional[ast.AST] = None


@dataclass(frozen=True)
class Facts:
    """What a compiled function's body says given its Tensor parameters, its module's names and
    its class: the names that hold Tensors and the calls to follow."""

    tensor_names: frozenset[str]
    calls: tuple[CallPlan, ...]
    tensor_defs: frozenset[int] = frozenset()  # the bindings that give Tensors (ids of nodes)


_FACTS: NodeMemo[Facts] = NodeMemo()
_JIT_CALLS: NodeMemo[tuple[ast.Call, ...]] = NodeMemo()


@dataclass
class Caller:
    """Where a compiled helper is called from (shown as a related location)."""

    path: str
    node: ast.AST
    description: str


@dataclass
class CompiledFunction:
    module: ModuleInfo
    node: FunctionNode
    cls: Optional[ClassInfo]
    reason: str
    level: Optional[SyntaxLevel] = None  # set by jit(fullgraph=True)
    tensor_params: set[str] = field(default_factory=set)
    caller: Optional[Caller] = None
    # A helper whose result a graph's output is: called as `return helper(...)`, the only
    # return of a function that gives the output (measured on 2.10: `construct` returning
    # `self._body(x)` fails, at `_body`'s return, as `_body`'s return written there does).
    output_via: Optional[Caller] = None
    # judged at this level whatever the context's, though not a `jit` function (PyNative does
    # not compile it): a custom bprop that only a top-level `ms.grad(net)` differentiates
    at: Optional[SyntaxLevel] = None
    _facts: Optional[tuple[frozenset[str], Facts]] = field(default=None, repr=False)

    @property
    def gives_output(self) -> bool:
        """What the function returns leaves the graph: an entry point, or `output_via`."""
        return self.caller is None or self.output_via is not None

    @property
    def qualname(self) -> str:
        return f"{self.cls.name}.{self.node.name}" if self.cls else self.node.name

    def facts(self) -> Facts:
        """Kept between checks while the function's node, module names, class and Tensor
        parameters are the same."""
        params = frozenset(self.tensor_params)
        if self._facts is None or self._facts[0] != params:
            deps = (params, self.module.env, self.cls.signature() if self.cls else None)
            found = _FACTS.get(self.node, deps, lambda: _facts(self, params))
            self._facts = (params, found)
        return self._facts[1]

    def types(self) -> TensorTypes:
        facts = self.facts()
        return TensorTypes.known(
            self.module, self.cls, facts.tensor_names, self.node, facts.tensor_defs
        )


class Discovery:
    """Computes the compiled functions of a whole workspace, following calls between files."""

    def __init__(self, workspace: Workspace):
        self.workspace = workspace
        self.classes = ClassTable(workspace)
        self.found: dict[int, CompiledFunction] = {}
        self._owners: dict[int, dict[int, ast.ClassDef]] = {}  # module -> method -> class
        self._queue: deque[CompiledFunction] = deque()
        self._sub_cells: set[int] = set()  # ClassDef ids of Cells built inside another Cell
        self._line_lengths: dict[int, list[int]] = {}  # module -> what `in_text` counts

    def run(self) -> list[CompiledFunction]:
        modules = [m for m in self.workspace.modules() if m.tree is not None]
        self._sub_cells = {id(node) for m in modules for node in self._held_cells(m)}
        for module in modules:
            self._roots(module)
        while self._queue and len(self.found) < MAX_FUNCTIONS:
            self._follow_calls(self._queue.popleft())
        return list(self.found.values())

    def in_text(self, module: ModuleInfo, text: str, near: ast.AST) -> bool:
        """`text in module.source`, searched from the line of `near` first: an entry point's
        `Name(` is mostly found in its own `class Name(Base):` or `def Name(` line, where a
        search from the top of the file went through all the lines above it."""
        source = module.source
        lengths = self._line_lengths.get(id(module))
        if lengths is None:  # the lengths of the lines before each line, "\n"s left out
            lengths = list(accumulate(map(len, source.split("\n")), initial=0))
            self._line_lengths[id(module)] = lengths
        line = getattr(near, "lineno", 1) - 1
        begin = lengths[line] + line if 0 <= line < len(lengths) else 0
        # the two ranges overlap by the text's length: together they are the whole source
        return source.find(text, begin) >= 0 or source.find(text, 0, begin + len(text)) >= 0

    def _add(self, fn: CompiledFunction) -> None:
        current = self.found.get(id(fn.node))
        if current is None:
            self.found[id(fn.node)] = fn
            self._queue.append(fn)
            return
        if current.caller is None and fn.caller is not None:
            current.caller = fn.caller  # a sub-Cell's construct: show where it is called
            current.output_via = None  # ... whose result its caller's code receives
        if current.output_via is None and fn.output_via is not None and current.caller:
            current.output_via = fn.output_via
            self._queue.append(current)
        new_params = fn.tensor_params - current.tensor_params
        if new_params:
            current.tensor_params |= new_params
            self._queue.append(current)
        if current.at is not None and fn.at is None and fn.level is None:
            current.at = None  # also reached from code compiled at the context's level
            self._queue.append(current)
        if fn.level == SyntaxLevel.STRICT and current.level != SyntaxLevel.STRICT:
            current.level = SyntaxLevel.STRICT
            self._queue.append(current)

    def _roots(self, module: ModuleInfo) -> None:
        assert module.tree is not None
        for cls_node in of_type(module.tree, ast.ClassDef):
            self._class_roots(module, cls_node)
        functions: list[FunctionNode] = of_type(module.tree, ast.FunctionDef, ast.AsyncFunctionDef)
        for node in functions:
            for deco in node.decorator_list:
                if names.is_jit(module, deco):
                    cls = self._enclosing_class(module, node)
                    self._add(self._jit_root(module, node, cls, deco, "decorated with @jit"))
        for stmt in module.tree.body:
            for call in _JIT_CALLS.get(stmt, None, partial(_jit_calls, stmt)):
                if names.is_jit(module, call):
                    self._wrapper_root(module, call)

    def _class_roots(self, module: ModuleInfo, node: ast.ClassDef) -> None:
        info = self.classes.info(module, node)
        if not info.is_cell:
            return
        construct = info.own_method("construct")
        if construct is not None:
            params = self._tensor_params(module, construct, info)
            if id(node) in self._sub_cells:
                # Built by another Cell, it is called by it: its first input is the data, the
                # others (flags, caches) are what the caller passes, learnt where the call
                # resolves. Measured: a bool flag passed through a CellList compiles. When the
                # first input is not a Tensor (`hidden_states: List[Tensor]`, `num_h: int`), the
                # next one is not taken in its place: none is.
                first = _param_names(construct, skip_self=True)[:1]
                params = [p for p in params if p in first]
            self._add(
                CompiledFunction(
                    module,
                    construct,
                    info,
                    f"construct of Cell {info.name}",
                    tensor_params=set(params),
                )
            )
            bprop = info.own_method("bprop")
            if bprop is not None and _differentiating_module(module):
                self._bprop_root(module, info, construct, bprop, set(params))
            if module.mentions("InsertGradientOf") and _differentiating_module(module):
                self._gradient_functions(module, info)

    def _gradient_functions(self, module: ModuleInfo, info: ClassInfo) -> None:
        """The function given to `ops.InsertGradientOf(f)` in a Cell (a module function or a
        method `self.f`) is compiled into the backward graph when the Cell is differentiated
        (measured on 2.10, round 37: `print('g', g)` in it writes two lines, `g.asnumpy()`
        fails, `LOG.append(1)` does not run). Its first parameter is the gradient, a Tensor."""
        for call in of_type(info.node, ast.Call):
            func = call.func
            last = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if last != "InsertGradientOf" or not call.args:
                continue
            arg = call.args[0]
            target: Optional[Target] = None
            if isinstance(arg, ast.Name) and arg.id in module.functions:
                target = (module, module.functions[arg.id], None)
            elif names.self_attribute(arg) is not None:
                found = info.find_method(names.self_attribute(arg) or "")
                if found is not None:
                    target = (found[0].module, found[1], found[0])
            if target is None:
                continue
            node = target[1]
            params = _param_names(
                node, skip_self=target[2] is not None and not names.is_static_method(node)
            )
            caller = Caller(module.path, call, f"given to InsertGradientOf in Cell {info.name}")
            self._add(
                CompiledFunction(
                    target[0],
                    node,
                    target[2],
                    caller.description,
                    tensor_params=set(params[:1]),
                    caller=caller,
                    at=None if _differentiates_in_class(module) else SyntaxLevel.LAX,
                )
            )

    def _bprop_root(
        self,
        module: ModuleInfo,
        info: ClassInfo,
        construct: FunctionNode,
        bprop: FunctionNode,
        construct_tensors: set[str],
    ) -> None:
        """A Cell's custom `bprop` is compiled into the backward graph when graph mode
        differentiates the Cell (measured on 2.10, round 37: `print(a, b)` in it writes a line
        per argument, an f-string of `dout.shape` prints `(3)`, `.asnumpy()` fails under STRICT
        inside a compiled `construct`). It is judged at LAX when only module-level code
        differentiates: a top-level `ms.grad(net)(x)` is a `jit` function, lenient whatever
        the context's level (`.asnumpy()` there compiles); PyNative still runs the bprop in
        Python, so the divergence rules judge it as compiled code.
        Its parameters are the inputs of `construct` (Tensors where those are), then `out` and
        `dout` (Tensors unless `construct` returns a tuple display). Wrappers that run their
        bprop from Python (`*args` in `construct`, an own `__call__`) are left out."""
        if construct.args.vararg is not None or bprop.args.vararg is not None:
            return
        if info.own_method("__call__") is not None:
            return
        inputs = _param_names(construct, skip_self=True)
        params = _param_names(bprop, skip_self=True)
        tuple_out = any(
            isinstance(r.value, ast.Tuple) for r in of_type(construct, ast.Return) if r.value
        )
        tensors = {p for p, i in zip(params, inputs) if i in construct_tensors}
        if not tuple_out and len(params) == len(inputs) + 2:
            tensors |= set(params[len(inputs) :])
        self._add(
            CompiledFunction(
                module,
                bprop,
                info,
                f"custom bprop of Cell {info.name}",
                tensor_params=tensors,
                at=None if _differentiates_in_class(module) else SyntaxLevel.LAX,
            )
        )

    def _held_cells(self, module: ModuleInfo) -> Iterator[ast.ClassDef]:
        """Workspace Cell classes that a Cell of `module` instantiates in its `__init__`."""
        assert module.tree is not None
        for cls_node in module.classes.values():
            info = self.classes.info(module, cls_node)
            init = info.own_method("__init__") if info.is_cell else None
            if init is None:
                continue
            for qualname in _HELD.get(init, module.env, partial(_called_names, module, init)):
                held = self.classes.resolve(qualname)
                if held is not None and held.is_cell and held.node is not cls_node:
                    yield held.node

    def _jit_root(
        self,
        module: ModuleInfo,
        node: FunctionNode,
        cls: Optional[ClassInfo],
        jit_expr: ast.expr,
        reason: str,
    ) -> CompiledFunction:
        # MindSpore 2.10 compiles `jit` functions leniently (LAX) whatever the context's
        # jit_syntax_level: only `jit(fullgraph=True)` makes them STRICT.
        level = SyntaxLevel.LAX
        if isinstance(jit_expr, ast.Call):
            full = names.keyword(jit_expr, "fullgraph")
            if isinstance(full, ast.Constant) and full.value is True:
                level = SyntaxLevel.STRICT
        params = self._tensor_params(module, node, cls)
        return CompiledFunction(module, node, cls, reason, level, set(params))

    def _wrapper_root(self, module: ModuleInfo, call: ast.Call) -> None:
        target = call.args[0]
        if isinstance(target, ast.Name) and target.id in module.functions:
            fn = module.functions[target.id]
            self._add(self._jit_root(module, fn, None, call, "wrapped by ms.jit(...)"))

    def _tensor_params(
        self, module: ModuleInfo, node: FunctionNode, cls: Optional[ClassInfo]
    ) -> list[str]:
        """An entry point's parameters that get Tensors: those without a constant default and
        without evidence of another kind of value (`_Evidence`)."""
        evidence = _Evidence(self, module, node, cls)
        return [p for p in _tensor_params(node, cls is not None) if not evidence.not_tensor(p)]

    def _enclosing_class(self, module: ModuleInfo, node: FunctionNode) -> Optional[ClassInfo]:
        owners = self._owners.get(id(module))
        if owners is None:
            owners = self._owners[id(module)] = {}
            for cls_node in module.classes.values():
                for stmt in cls_node.body:
                    owners.setdefault(id(stmt), cls_node)
        owner = owners.get(id(node))
        return self.classes.info(module, owner) if owner is not None else None

    def _follow_calls(self, fn: CompiledFunction) -> None:
        returned = _returned_call(fn.node) if fn.gives_output else None
        for plan in fn.facts().calls:
            target = self._call_target(fn, plan.target)
            if target is None:
                continue
            module, callee_node, cls = target
            # `self.check(x)` of a @staticmethod: its first parameter is `x`, not `self`
            bound = cls is not None and not names.is_static_method(callee_node)
            params = _param_names(callee_node, skip_self=bound)
            tensor_params = {
                params[i] for i, tensor in enumerate(plan.args[: len(params)]) if tensor
            }
            tensor_params |= {arg for arg, tensor in plan.keywords if tensor and arg in params}
            site = plan.site or plan.node
            caller = Caller(fn.module.path, site, f"called from compiled {fn.qualname}")
            found = CompiledFunction(
                module,
                callee_node,
                cls,
                caller.description,
                fn.level,
                tensor_params,
                caller,
                at=fn.at,
            )
            if plan.node is returned:
                found.output_via = caller
            self._add(found)
            if isinstance(plan.node, ast.Call):
                self._passed_functions(fn, plan.node, callee_node, params)
        if fn.module.mentions("MultitypeFuncGraph"):
            self._registered_functions(fn)
        if fn.cls is not None and fn.node.name == "construct" and fn.module.mentions("_hook("):
            self._hook_functions(fn)

    def _hook_functions(self, fn: CompiledFunction) -> None:
        """The hooks registered on the Cell or a sub-Cell its `construct` calls are compiled
        with it (measured on 2.10: graph mode runs forward, pre- and backward hooks inside the
        graph, so a hook's `print` prints one line an argument, its append to a module-level
        list is lost, and `.asnumpy()` in it fails under STRICT). The hooks followed are
        module functions and methods registered in the class's `__init__` on `self` or on
        `self.<attr>...` where `self.<attr>` is called by the class (not an item of a
        container: those hooks are not run, MS394), or on `net.<attr>...` in a module
        function that binds `net = Cls(...)`."""
        assert fn.cls is not None
        cls = fn.cls
        for target, hook, call in cell_hook_registrations(fn.module, cls.node):
            backward = isinstance(call.func, ast.Attribute) and "backward" in call.func.attr
            if backward and not fn.module.mentions("grad"):
                continue  # a backward hook runs only when a gradient is taken
            found: Optional[Target] = None
            if isinstance(hook, ast.Name) and hook.id in fn.module.functions:
                found = fn.module, fn.module.functions[hook.id], None
            elif isinstance(hook, ast.Attribute) and target[0] == "self":
                method = names.self_attribute(hook)
                owner = cls.find_method(method) if method is not None else None
                if owner is not None:
                    found = owner[0].module, owner[1], owner[0]
            if found is None:
                continue
            site: ast.AST = fn.node
            if len(target) > 1:
                calls = [
                    c
                    for c in of_type(cls.node, ast.Call)
                    if names.self_attribute(c.func) == target[1]
                ]
                if not calls:
                    continue  # the sub-Cell is not called: its hooks do not run
                site = min(calls, key=lambda c: (c.lineno, c.col_offset))
            caller = Caller(fn.module.path, site, f"a hook of a Cell compiled {fn.qualname} calls")
            self._add(
                CompiledFunction(
                    found[0], found[1], found[2], caller.description, fn.level, set(), caller
                )
            )

    def _registered_functions(self, fn: CompiledFunction) -> None:
        """The functions registered in a module-level MultitypeFuncGraph the compiled function
        names (calls it, or gives it to HyperMap / Map) are compiled with it (measured on 2.10:
        a `try` or `del` in the registered function fails at both levels, `.asnumpy()` under
        STRICT). Only a MultitypeFuncGraph's single registration, or one taking Tensors only
        (the overload graph mode picks for Tensors), is followed: another overload may never be
        picked. The parameters registered as "Tensor" hold Tensors."""
        registered = multitype_registrations(fn.module)
        if not registered:
            return
        stored = {n.id for n in of_type(fn.node, ast.Name) if not isinstance(n.ctx, ast.Load)}
        stored |= set(_param_names(fn.node, skip_self=False))
        for read in of_type(fn.node, ast.Name):
            entries = registered.get(read.id)
            if not entries or read.id in stored or not isinstance(read.ctx, ast.Load):
                continue
            for types, node in entries:
                if len(entries) > 1 and any(t != "Tensor" for t in types):
                    continue
                params = _param_names(node, skip_self=False)
                tensor_params = {p for p, t in zip(params, types) if t == "Tensor"}
                caller = Caller(
                    fn.module.path,
                    read,
                    f"registered in `{read.id}`, which compiled {fn.qualname} uses",
                )
                self._add(
                    CompiledFunction(
                        fn.module, node, None, caller.description, fn.level, tensor_params, caller
                    )
                )

    def _passed_functions(
        self, fn: CompiledFunction, call: ast.Call, callee: FunctionNode, params: list[str]
    ) -> None:
        """`apply(helper, x)` where `apply` calls its parameter: `helper` is compiled too."""
        for i, arg in enumerate(call.args[: len(params)]):
            if not (isinstance(arg, ast.Name) and arg.id in fn.module.functions):
                continue
            if not call_targets.calls_parameter(callee, params[i]):
                continue
            caller = Caller(
                fn.module.path, arg, f"passed to a function compiled {fn.qualname} calls"
            )
            node = fn.module.functions[arg.id]
            self._add(
                CompiledFunction(fn.module, node, None, caller.description, fn.level, set(), caller)
            )

    def _call_target(self, fn: CompiledFunction, target: tuple[str, str]) -> Optional[Target]:
        kind, name = target
        if kind == "self":
            assert fn.cls is not None
            found = fn.cls.find_method(name)
            if found is not None:
                return found[0].module, found[1], found[0]
            return self._sub_cell(fn.cls, name) or self._held_callable(fn.cls, name)
        if kind == "local":
            return fn.module, fn.module.functions[name], None
        if kind == "member":
            assert fn.cls is not None
            attr, method = name.split(".", 1)
            held = fn.cls.attr(attr)
            return self._method_of(held.class_qualname if held else None, method)
        if kind == "instance":
            qualname, method = name.split(":", 1)
            return self._method_of(qualname, method)
        if kind == "selfitem":
            assert fn.cls is not None
            holder, key = name.split(":", 1)
            held = fn.cls.attr(holder)
            node = held.node if held is not None else None
            item = call_targets.item_of(node, key) if isinstance(node, ast.expr) else None
            return self._function_in_class(fn.cls, item) if item is not None else None
        if kind == "globalitem":
            holder, key = name.split(":", 1)
            binding = global_binding(fn.module, holder)
            item = call_targets.item_of(binding.value, key) if binding is not None else None
            if isinstance(item, ast.Name) and item.id in fn.module.functions:
                return fn.module, fn.module.functions[item.id], None
            return None
        if kind == "super":
            assert fn.cls is not None
            for info in list(fn.cls.lineage())[1:]:
                base_method = info.own_method(name)
                if base_method is not None:
                    return info.module, base_method, info
            return None
        if kind == "nested":
            inner = nested_functions(fn.node).get(name)
            return (fn.module, inner, None) if inner is not None else None
        if kind == "sibling":
            assert fn.cls is not None
            sibling = sibling_function(fn.module, fn.cls.node, name)
            return (fn.module, sibling, None) if sibling is not None else None
        if kind == "closure":
            inner = factory_closure(fn.module, name)
            return (fn.module, inner, None) if inner is not None else None
        resolved = self.workspace.resolve_function(name)
        if resolved is not None and isinstance(
            resolved[1], (ast.FunctionDef, ast.AsyncFunctionDef)
        ):
            return resolved[0], resolved[1], None
        return self._class_function(name)

    def _class_function(self, dotted: str) -> Optional[Target]:
        """`Util.go(x)`: a static (or class) method called through its class."""
        owner, _, method = dotted.rpartition(".")
        info = self.classes.resolve(owner) if "." in owner else None
        found = info.find_method(method) if info is not None else None
        if found is None:
            return self._class_level(info, method) if info is not None else None
        static = names.is_static_method(found[1])
        return found[0].module, found[1], None if static else found[0]

    def _class_level(self, cls: ClassInfo, name: str) -> Optional[Target]:
        """A module function the class (or a base) binds in its body: `act = staticmethod(f)`."""
        for info in cls.lineage():
            function = call_targets.class_level_function(info.node, name)
            if function is not None and function in info.module.functions:
                return info.module, info.module.functions[function], None
        return None

    def _method_of(self, qualname: Optional[str], method: str) -> Optional[Target]:
        info = self.classes.resolve(qualname)
        found = info.find_method(method) if info is not None else None
        return (found[0].module, found[1], found[0]) if found is not None else None

    def _held_callable(self, cls: ClassInfo, attr: str) -> Optional[Target]:
        """`self.h(x)` where `__init__` set `self.h = Helper()` (its `__call__`), or a function
        (`_function_in_class`)."""
        held = cls.attr(attr)
        if held is None:
            return self._class_level(cls, attr)
        if isinstance(held.node, ast.expr):
            found = self._function_in_class(cls, held.node)
            if found is not None:
                return found
        if held.kind == "object":
            return self._method_of(held.class_qualname, "__call__")
        return None

    def _function_in_class(
        self, cls: ClassInfo, expr: ast.expr, depth: int = 0
    ) -> Optional[Target]:
        """The function an expression of `cls`'s `__init__` holds: `self._fast` (a method),
        `helper` (a module function, or an `__init__` parameter defaulting to one or given one
        by every construction of the class in its module), `ACTS["gelu"]` / `self.table["a"]`
        (an item of a dict display)."""
        if depth > 4:
            return None
        alias = names.self_attribute(expr)
        if alias is not None:
            found = cls.find_method(alias)
            return (found[0].module, found[1], found[0]) if found is not None else None
        item = call_targets.dict_item(expr, cls, cls.module)
        if item is not None:
            return self._function_in_class(cls, item, depth + 1)
        if isinstance(expr, ast.IfExp) and isinstance(expr.test, ast.Name):
            # `self._fast if fast else self._slow`: the branch `fast`'s value picks, when its
            # default (or every construction) gives a constant
            flag = call_targets.init_argument(cls.module, cls.node, expr.test.id)
            if isinstance(flag, ast.Constant):
                chosen = expr.body if flag.value else expr.orelse
                return self._function_in_class(cls, chosen, depth + 1)
            return None
        if not isinstance(expr, ast.Name):
            return None
        function = cls.module.functions.get(expr.id)
        if function is not None:
            return cls.module, function, None
        given = call_targets.init_argument(cls.module, cls.node, expr.id)
        return self._function_in_class(cls, given, depth + 1) if given is not None else None

    def _sub_cell(self, cls: ClassInfo, attr: str) -> Optional[Target]:
        """`self.inner(x)` where `self.inner = Inner()` is a Cell of the workspace."""
        held = cls.attr(attr)
        if held is None or held.kind != "cell" or held.class_qualname is None:
            return None
        info = self.classes.resolve(held.class_qualname)
        found = info.find_method("construct") if info is not None else None
        if found is None:
            return None
        return found[0].module, found[1], found[0]


HOOK_REGISTRATIONS = frozenset(
    {
        "register_forward_hook",
        "register_forward_pre_hook",
        "register_backward_hook",
        "register_backward_pre_hook",
    }
)
_HOOKS: NodeMemo[tuple[tuple[tuple[str, ...], ast.expr, ast.Call], ...]] = NodeMemo()


def cell_hook_registrations(
    module: ModuleInfo, cls: ast.ClassDef
) -> tuple[tuple[tuple[str, ...], ast.expr, ast.Call], ...]:
    """(the chain `("self", attr, ...)`, the hook, the call) for each
    `self[.<attr>...].register_*_hook(hook)` in the class's `__init__` and each
    `net[.<attr>...].register_*_hook(hook)` in a module-level function binding `net =
    Cls(...)` (the chain starts with "self" there too). Items of containers are left out."""
    return _HOOKS.get(cls, module.env, partial(_cell_hook_registrations, module, cls))


def _cell_hook_registrations(
    module: ModuleInfo, cls: ast.ClassDef
) -> tuple[tuple[tuple[str, ...], ast.expr, ast.Call], ...]:
    tree = module.tree
    if tree is None:
        return ()
    places = registration_places(tree, cls)
    found: list[tuple[tuple[str, ...], ast.expr, ast.Call]] = []
    for place, owner in places:
        for call in ast.walk(place):
            if not (
                isinstance(call, ast.Call)
                and isinstance(call.func, ast.Attribute)
                and call.func.attr in HOOK_REGISTRATIONS
                and call.args
            ):
                continue
            chain: list[str] = []
            expr = call.func.value
            while isinstance(expr, ast.Attribute):
                chain.append(expr.attr)
                expr = expr.value
            if isinstance(expr, ast.Name) and expr.id == owner:
                found.append((("self", *reversed(chain)), call.args[0], call))
    return tuple(found)


# The dotted names an `__init__` calls, kept on its node while the module's names are the same
# (`ModuleInfo.qualname` reads nothing else): every check asks them of every Cell.
_HELD: NodeMemo[tuple[Optional[str], ...]] = NodeMemo()


def _called_names(module: ModuleInfo, init: FunctionNode) -> tuple[Optional[str], ...]:
    return tuple(
        module.qualname(call.func)
        for call in of_type(init, ast.Call)
        # `super().__init__()` and the like name no class
        if isinstance(call.func, (ast.Name, ast.Attribute))
    )


def _facts(fn: CompiledFunction, params: frozenset[str]) -> Facts:
    types = TensorTypes(fn.module, fn.node, fn.cls, params)
    plans: list[CallPlan] = []
    bindings: Optional[call_targets.Bindings] = None  # read only when a call needs them
    nested = nested_functions(fn.node)
    for call in of_type(fn.node, ast.Call):
        if isinstance(call.func, ast.Name) and call.func.id in nested:
            target: Optional[tuple[str, str]] = ("nested", call.func.id)
        else:
            target = _target_of(fn.module, fn.cls, call.func)
        targets = [target] if target is not None else []
        if target is None or target[0] == "global":
            if bindings is None:
                bindings = call_targets.Bindings.of(fn.node, fn.cls)
            indirect = _indirect_targets(fn.module, fn.cls, call.func, bindings)
            targets = indirect or targets
        if targets:
            args = tuple(types.is_tensor(arg) for arg in call.args)
            keywords = tuple(
                (kw.arg, types.is_tensor(kw.value)) for kw in call.keywords if kw.arg is not None
            )
            made = _through_partial(fn.module, call.func, bindings) if bindings else None
            if made is not None:
                args, keywords = (), ()  # bound leading arguments: positions do not line up
            loop = (
                bindings.looped.get(call.func.id)
                if bindings and isinstance(call.func, ast.Name)
                else None
            )
            site: Optional[ast.AST] = loop[0] if loop is not None else None
            if made is not None and made is not call.func:
                site = made  # `f = partial(g, ...)`: MindSpore names where it is made
            plans.extend(CallPlan(call, t, args, keywords, site) for t in targets)
    if fn.cls is not None:
        plans.extend(_property_reads(fn.cls, fn.node))
    return Facts(frozenset(types.names), tuple(plans), frozenset(types.tensor_defs))


def _property_reads(cls: ClassInfo, node: FunctionNode) -> list[CallPlan]:
    """`self.scale` read where the class defines `scale` as a `@property`: graph mode compiles
    the getter (measured on 2.10: a `try` or `del` in it fails at both levels). `len(self.b)`
    compiles `b`'s `__len__` (its `obj[i]` does not compile `__getitem__`)."""
    plans: list[CallPlan] = []
    for attr in of_type(node, ast.Attribute):
        name = names.self_attribute(attr)
        if name is None or not isinstance(attr.ctx, ast.Load):
            continue
        found = cls.find_method(name)
        if found is not None and call_targets.is_property(found[1]):
            plans.append(CallPlan(attr, ("self", name), (), ()))
    for call in of_type(node, ast.Call):
        if (
            isinstance(call.func, ast.Name)
            and call.func.id == "len"
            and len(call.args) == 1
            and names.self_attribute(call.args[0]) is not None
        ):
            held = names.self_attribute(call.args[0])
            plans.append(CallPlan(call, ("member", f"{held}.__len__"), (), ()))
    return plans


def _target_of(
    module: ModuleInfo, cls: Optional[ClassInfo], func: ast.expr
) -> Optional[tuple[str, str]]:
    """What a call's function names, when it may be workspace code (not MindSpore's).
    `make(2)(x)` calls what `make` returns, not `make`: handing `x` to `make`'s parameters
    made a false MS156 (measured on 2.10: `twice(lambda t: t + 1)(x)`, whose `twice(f)` returns
    `lambda t: f(f(t))`, compiles)."""
    if isinstance(func, ast.Call):
        return None
    attr = names.self_attribute(func)
    if attr is not None and cls is not None:
        return ("self", attr)
    qualname = names.callee(module, func)
    if qualname is None or qualname.startswith("mindspore."):
        return None
    if isinstance(func, ast.Name) and func.id in module.functions:
        return ("local", func.id)
    if isinstance(func, ast.Name) and factory_closure(module, func.id) is not None:
        return ("closure", func.id)
    if (
        isinstance(func, ast.Name)
        and cls is not None
        and sibling_function(module, cls.node, func.id)
    ):
        return ("sibling", func.id)
    if "." not in qualname:  # a builtin or a local: no module of the workspace to look in
        return None
    return ("global", qualname)


_REGISTRATIONS: NodeMemo[dict[str, list[tuple[tuple[str, ...], FunctionNode]]]] = NodeMemo()


def multitype_registrations(
    module: ModuleInfo,
) -> dict[str, list[tuple[tuple[str, ...], FunctionNode]]]:
    """Module-level `name = ops.MultitypeFuncGraph(...)` -> the module functions registered in
    it with `@name.register("Tensor", ...)` (or `name.register(...)(fn)`), with their type
    names ("?" for a type not written as a string)."""
    tree = module.tree
    if tree is None:
        return {}
    return _REGISTRATIONS.get(tree, None, partial(_registrations, module, tree))


def _registrations(
    module: ModuleInfo, tree: ast.Module
) -> dict[str, list[tuple[tuple[str, ...], FunctionNode]]]:
    found: dict[str, list[tuple[tuple[str, ...], FunctionNode]]] = {
        name: []
        for name, called in module_calls(module)
        if called.startswith("mindspore.ops.") and called.endswith(".MultitypeFuncGraph")
    }

    def register(call: ast.expr) -> Optional[tuple[str, tuple[str, ...]]]:
        if (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute)
            and call.func.attr == "register"
            and isinstance(call.func.value, ast.Name)
            and call.func.value.id in found
        ):
            types = tuple(
                a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else "?"
                for a in call.args
            )
            return call.func.value.id, types
        return None

    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for deco in stmt.decorator_list:
                item = register(deco)
                if item is not None:
                    found[item[0]].append((item[1], stmt))
        elif (
            isinstance(stmt, ast.Expr)
            and isinstance(stmt.value, ast.Call)
            and len(stmt.value.args) == 1
            and isinstance(stmt.value.args[0], ast.Name)
            and stmt.value.args[0].id in module.functions
        ):
            item = register(stmt.value.func)
            if item is not None:
                found[item[0]].append((item[1], module.functions[stmt.value.args[0].id]))
    return {name: entries for name, entries in found.items() if entries}


def nested_functions(node: FunctionNode) -> dict[str, FunctionNode]:
    """The functions defined inside `node` (at any depth) whose name is bound nowhere else in
    it: a call by that name in compiled code runs the nested function, which MindSpore compiles
    with its caller (measured on 2.10: a nested `def pick(t)` returning `t` or `0` under a
    Tensor `if` fails to join as a method would)."""
    defs: list[FunctionNode] = of_type(node, ast.FunctionDef, ast.AsyncFunctionDef)
    if len(defs) < 2:
        return {}
    names_of = [d.name for d in defs if d is not node]
    stored = {n.id for n in of_type(node, ast.Name) if not isinstance(n.ctx, ast.Load)}
    return {
        d.name: d
        for d in defs
        if d is not node and names_of.count(d.name) == 1 and d.name not in stored
    }


# id() of each class defined in a module-level function's body -> the functions that body
# defines once (a test's `def helper` beside its `class Net`). Kept on the module's tree.
_SIBLINGS: NodeMemo[dict[int, dict[str, FunctionNode]]] = NodeMemo()


def sibling_function(module: ModuleInfo, cls: ast.ClassDef, name: str) -> Optional[FunctionNode]:
    """The function `name` defined beside `cls` in the body of the module-level function
    that defines the class (bound nowhere else in that body), else None."""
    tree = module.tree
    if tree is None or module.classes.get(cls.name) is cls:
        return None
    return _SIBLINGS.get(tree, None, partial(_siblings, module)).get(id(cls), {}).get(name)


def _siblings(module: ModuleInfo) -> dict[int, dict[str, FunctionNode]]:
    found: dict[int, dict[str, FunctionNode]] = {}
    for outer in module.functions.values():
        classes = [s for s in outer.body if isinstance(s, ast.ClassDef)]
        if not classes:
            continue
        stored = [n.id for n in of_type(outer, ast.Name) if not isinstance(n.ctx, ast.Load)]
        defs = [s for s in outer.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))]
        once = {d.name: d for d in defs if [e.name for e in defs].count(d.name) == 1}
        defined = {k: v for k, v in once.items() if k not in stored}
        for cls in classes:
            found[id(cls)] = defined
    return found


def _through_partial(
    module: ModuleInfo, func: ast.expr, bindings: call_targets.Bindings
) -> Optional[ast.expr]:
    """The `functools.partial(...)` / `ops.partial(...)` call `func` is or names."""
    made = bindings.single.get(func.id) if isinstance(func, ast.Name) else func
    return made if made is not None and call_targets.bound_arguments(module, made) else None


def _indirect_targets(
    module: ModuleInfo, cls: Optional[ClassInfo], func: ast.expr, bindings: call_targets.Bindings
) -> list[tuple[str, str]]:
    """A function transform's function, a held object's method, a built object's method, a
    base class's method through `super()`, the functions a loop variable takes: see
    `call_targets`."""
    inner = call_targets.transformed(module, func, bindings.single)
    if inner is not None:
        direct = _target_of(module, cls, inner)
        return [direct] if direct is not None else _indirect_targets(module, cls, inner, bindings)
    if isinstance(func, ast.Name) and func.id in bindings.looped:
        found = (_target_of(module, cls, item) for item in bindings.looped[func.id][1])
        return [t for t in found if t is not None]
    if isinstance(func, ast.Subscript):
        holder = names.self_attribute(func.value) if cls is not None else None
        key = func.slice.value if isinstance(func.slice, ast.Constant) else None
        if isinstance(key, str) and holder is not None:
            return [("selfitem", f"{holder}:{key}")]
        if isinstance(key, str) and isinstance(func.value, ast.Name):
            return [("globalitem", f"{func.value.id}:{key}")]
        return []
    if cls is not None:
        attrs = call_targets.getattr_names(func, bindings)
        if attrs:
            return [("self", name) for name in attrs]
        held = call_targets.member(func)
        if held is not None:
            return [("member", held)]
        inherited = call_targets.super_method(func)
        if inherited is not None:
            return [("super", inherited)]
    made = call_targets.instance_method(module, func, bindings.single)
    return [("instance", f"{made[0]}:{made[1]}")] if made is not None else []


def factory_closure(module: ModuleInfo, name: str) -> Optional[FunctionNode]:
    """The nested `def` a module-level `name = make(...)` holds, where the module's function
    `make` defines it in its body and returns it (`return inc`): a closure compiled code may
    call (measured on 2.10: its `nonlocal` fails, its writes run at compile time)."""
    binding = global_binding(module, name)
    value = binding.value if binding is not None else None
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)):
        return None
    factory = module.functions.get(value.func.id)
    if factory is None or factory.decorator_list:
        return None
    nested = {
        s.name: s for s in factory.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
    }
    returned = [
        s.value.id
        for s in factory.body
        if isinstance(s, ast.Return) and isinstance(s.value, ast.Name)
    ]
    if len(returned) != 1 or returned[0] not in nested:
        return None
    found = nested[returned[0]]
    return found if not found.decorator_list else None


def _returned_call(node: FunctionNode) -> Optional[ast.expr]:
    """The call `node`'s only valued `return` hands out as it is (`return self._body(x)`)."""
    returns: list[ast.Return] = [r for r in of_type(node, ast.Return) if r.value is not None]
    if not returns or not isinstance(returns[-1].value, ast.Call):
        return None
    nested: list[ast.AST] = of_type(node, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
    inner = [n for n in nested if n is not node]
    own = [r for r in returns if not any(inside(scope, r) for scope in inner)]
    return own[0].value if len(own) == 1 else None


def _jit_calls(stmt: ast.stmt) -> tuple[ast.Call, ...]:
    """Calls that may be `jit(fn)` by their shape; whether `jit` is MindSpore's depends on the
    module's imports."""
    return tuple(c for c in of_type(stmt, ast.Call) if c.args and _named(c.func, "jit"))


def _named(func: ast.expr, name: str) -> bool:
    return (isinstance(func, ast.Name) and func.id == name) or (
        isinstance(func, ast.Attribute) and func.attr == name
    )


def _param_names(node: FunctionNode, skip_self: bool) -> list[str]:
    args = node.args
    ordered = [a.arg for a in [*args.posonlyargs, *args.args]]
    if skip_self and ordered:
        ordered = ordered[1:]
    return ordered + [a.arg for a in args.kwonlyargs]


def _tensor_params(node: FunctionNode, skip_self: bool) -> list[str]:
    """Parameters of a compiled entry point that get Tensors: those without a constant default
    or a scalar annotation."""
    pairs = names.parameter_defaults(node)
    if skip_self and (node.args.posonlyargs or node.args.args):
        pairs = pairs[1:]
    return [
        a.arg
        for a, default in pairs
        if not isinstance(default, ast.Constant) and not _scalar_annotation(a.annotation)
    ]


# Annotations naming a Python value that is never a Tensor (`List[Tensor]` is a list).
PYTHON_TYPES = frozenset(
    {
        "int",
        "float",
        "bool",
        "str",
        "bytes",
        "complex",
        "tuple",
        "list",
        "dict",
        "set",
        "frozenset",
        "List",
        "Tuple",
        "Dict",
        "Set",
        "FrozenSet",
        "Sequence",
        "Mapping",
        "MutableMapping",
        "Iterable",
        "Iterator",
        "Callable",
        "Type",
        "type",
    }
)
UNIONS = frozenset({"Optional", "Union"})
# Builtins whose call gives a Python value (passed by a caller: the parameter is not a Tensor).
PYTHON_VALUE_CALLS = frozenset({"len", "int", "float", "bool", "str", "tuple", "list", "dict"})
DTYPE_TYPES = ("mindspore.dtype", "mindspore.Type", "mindspore.common.dtype.")
# Packages whose names an entry point may be handed (`f(x, ops.relu)`): none names a Tensor.
OUTSIDE_PACKAGES = frozenset({"mindspore", "numpy", "math", "operator", "functools"})


class _Evidence:
    """What says an entry point's parameter holds no Tensor: its annotation (a Python type, a
    workspace class, a dtype, a Cell), or every call of the entry point in its module passing a
    Python value (`Net()(Session(), x)`, a literal, a shape tuple). Without evidence the
    parameter stays a Tensor: what MindSpore is usually given. The body is no evidence: an
    attribute no Tensor has (`y.requires_grad`, `x.device`) is more often a port's mistake on a
    Tensor (MS155) than an object's interface."""

    def __init__(
        self, discovery: Discovery, module: ModuleInfo, node: FunctionNode, cls: Optional[ClassInfo]
    ):
        self.discovery, self.module, self.node, self.cls = discovery, module, node, cls
        self._args = {
            a.arg: a for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
        }
        self._passed: Optional[dict[str, list[Optional[ast.expr]]]] = None
        self._passed_read = False

    def not_tensor(self, name: str) -> bool:
        arg = self._args.get(name)
        if arg is not None and arg.annotation is not None and self._annotation(arg.annotation):
            return True
        if self._python_default(name):
            return True
        return self._callers_pass_python(name)

    def _python_default(self, name: str) -> bool:
        """A default that is no Tensor (round 36, measured): `act=ops.relu`, `fn=helper`,
        `dtype=ms.int32`, `f=lambda t: ...`, `shape=(3, 1)`, `w=[1.0, 2.0]`, `cfg={...}`,
        `n=-1`. (A constant default never made the parameter a Tensor.)"""
        default = next((d for a, d in names.parameter_defaults(self.node) if a.arg == name), None)
        if default is None:
            return False
        if isinstance(default, ast.UnaryOp):
            return isinstance(default.operand, ast.Constant)
        if isinstance(default, (ast.Lambda, ast.Tuple, ast.List, ast.Dict, ast.Set)):
            return True
        if isinstance(default, (ast.Name, ast.Attribute)):
            return self._imported_or_defined(default)
        return False

    def _annotation(self, ann: ast.expr) -> bool:
        if isinstance(ann, ast.Constant):
            if ann.value is None:
                return True
            if isinstance(ann.value, str):  # a forward reference: "InferenceSession"
                try:
                    parsed = ast.parse(ann.value, mode="eval").body
                except SyntaxError:
                    return False
                return not isinstance(parsed, ast.Constant) and self._annotation(parsed)
            return False
        if isinstance(ann, ast.BinOp) and isinstance(ann.op, ast.BitOr):  # `int | None`
            return self._annotation(ann.left) and self._annotation(ann.right)
        if isinstance(ann, ast.Subscript):
            base = _last(ann.value)
            if base in UNIONS:
                inner = ann.slice
                members = inner.elts if isinstance(inner, ast.Tuple) else [inner]
                return all(self._annotation(m) for m in members)
            return base in PYTHON_TYPES
        if not isinstance(ann, (ast.Name, ast.Attribute)):
            return False
        if isinstance(ann, ast.Name) and ann.id in PYTHON_TYPES:
            return True
        qualname = self.module.qualname(ann)
        if qualname is None:
            return False
        if qualname.startswith(DTYPE_TYPES) or names.is_cell_qualname(qualname):
            return True
        if qualname.startswith("typing."):
            return qualname.rsplit(".", 1)[-1] in PYTHON_TYPES
        return self._workspace_object(qualname)

    def _workspace_object(self, qualname: str) -> bool:
        info = self.discovery.classes.resolve(qualname)
        return info is not None and _plain_object(info)

    def _callers_pass_python(self, name: str) -> bool:
        if not self._passed_read:
            self._passed_read = True
            types = TensorTypes.known(self.module, self.cls, frozenset())
            entry = entry_point(types, self.node)
            # no `Name(` in the module: no call to read (spares building its call table)
            near = (
                self.cls.node if self.cls is not None else self.node
            )  # `class Name(` / `def Name(`
            if entry is not None and self.discovery.in_text(self.module, f"{entry}(", near):
                params = ordered_parameters(self.node, skip_self=self.cls is not None)
                self._passed = argument_values(self.module, entry, params)
        passed = (self._passed or {}).get(name)
        return bool(passed) and all(self._python_value(v) for v in passed or [])

    def _python_value(self, expr: Optional[ast.expr]) -> bool:
        if expr is None:
            return False
        if isinstance(
            expr,
            (ast.Constant, ast.Tuple, ast.List, ast.Dict, ast.Set, ast.JoinedStr, ast.Lambda),
        ):
            return True
        if isinstance(expr, (ast.ListComp, ast.DictComp, ast.SetComp)):
            return True
        if isinstance(expr, ast.Attribute) and expr.attr in ("shape", "dtype", "ndim"):
            return True
        if isinstance(expr, (ast.Name, ast.Attribute)) and self._imported_or_defined(expr):
            return True
        if isinstance(expr, ast.Attribute) and self._sub_cell(expr):
            return True
        if isinstance(expr, ast.Call):
            func = expr.func
            if isinstance(func, ast.Name) and func.id in PYTHON_VALUE_CALLS:
                return True
            if self.module.qualname(func) in MUTABLE and expr.args:
                # `mutable(2)`, `mutable([1, 2], True)`: a variable int or list, not a Tensor
                # (measured: `range(n)`, `n in (1, 2)` of a `mutable(3)` argument compile and
                # agree with PyNative)
                return self._python_value(expr.args[0])
            if (self.module.qualname(func) or "").startswith("numpy."):
                return True  # a numpy array stays one in the graph (measured: `x + arr` fails)
            if names.is_cell_qualname(self.module.qualname(func) or ""):
                # `net(x, nn.ReLU())`: measured (round 35), a construct calling a Cell it is
                # handed compiles and agrees at LAX and STRICT
                return True
            if isinstance(func, ast.Name) and func.id in self.module.classes:
                info = self.discovery.classes.info(self.module, self.module.classes[func.id])
                return _plain_object(info)  # a Cell of the workspace too (`net(x, Inner())`)
        return False

    def _sub_cell(self, expr: ast.Attribute) -> bool:
        """`self.act`, a sub-Cell attribute of a Cell of the module: measured (round 34), a
        `construct` passing `self.act` to a jit function that calls it compiles (the Cell is
        no Tensor)."""
        if not (isinstance(expr.value, ast.Name) and expr.value.id == "self"):
            return False
        kinds = set()
        for cls_node in self.module.classes.values():
            info = self.discovery.classes.info(self.module, cls_node)
            held = info.attr(expr.attr)
            if held is not None:
                kinds.add(held.kind if info.is_cell else None)
        return kinds == {"cell"}  # every class of the module that sets it holds a Cell there

    def _imported_or_defined(self, expr: ast.Name | ast.Attribute) -> bool:
        """A function or class the module defines (`f(x, relu)`, `f(x, Head)`), or a name of
        MindSpore, numpy or the standard library (`ops.relu`, `nn.ReLU`, `ms.float32`,
        `math.pi`): measured, a jit function compiles with these as arguments, and none is a
        Tensor."""
        if isinstance(expr, ast.Name):
            if expr.id in self.module.functions or expr.id in self.module.classes:
                return True
            if expr.id not in self.module.imports:
                return False
        qualname = self.module.qualname(expr)
        return qualname is not None and qualname.split(".")[0] in OUTSIDE_PACKAGES


def _plain_object(info: ClassInfo) -> bool:
    """A class of the workspace that does not derive from a Tensor (a Cell is no Tensor
    either)."""
    return not any(
        "Tensor" in (_last(b) or "") or "Parameter" in (_last(b) or "")
        for c in info.lineage()
        for b in c.node.bases
    )


def _last(expr: ast.expr) -> Optional[str]:
    if isinstance(expr, ast.Attribute):
        return expr.attr
    return expr.id if isinstance(expr, ast.Name) else None


def _scalar_annotation(annotation: Optional[ast.expr]) -> bool:
    """`num_patches: int`: the author says a Python scalar comes in (mindone's MLCD rotary
    embedding gets `shape // patch` ints from its caller), not a Tensor."""
    return isinstance(annotation, ast.Name) and annotation.id in ("int", "float", "bool", "str")


def discover(workspace: Workspace) -> list[CompiledFunction]:
    """All compiled functions of `workspace`."""
    return Discovery(workspace).run()


def _differentiating_module(module: ModuleInfo) -> bool:
    """The module may differentiate in graph mode (`grad`, `value_and_grad`, `GradOperation`,
    `TrainOneStepCell`, `vjp`, `jacrev`/`jacfwd`): read from its text only."""
    return (
        module.mentions("grad")
        or module.mentions("GradOperation")
        or module.mentions("TrainOneStep")
        or module.mentions("vjp")
        or module.mentions("jacrev")
        or module.mentions("jacfwd")
    )


_DIFF_CALLS = frozenset({"grad", "value_and_grad", "GradOperation", "vjp", "jacrev", "jacfwd"})


def _differentiates_in_class(module: ModuleInfo) -> bool:
    """A class body of the module differentiates (`ops.GradOperation()` in `__init__`,
    `ms.grad(self.net)` in `construct`) or builds a `TrainOneStepCell`: compiled at the
    context's level, not as a `jit` function."""
    if module.mentions("TrainOneStep"):
        return True
    assert module.tree is not None
    for cls in module.classes.values():
        for call in of_type(cls, ast.Call):
            func = call.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name in _DIFF_CALLS:
                return True
    return False
