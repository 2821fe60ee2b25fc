"""Every rule the checker ships: code, group, and what MindSpore 2.10 was seen to print."""

from __future__ import annotations

from dataclasses import dataclass

from .model import Group, Severity


@dataclass(frozen=True)
class Rule:
    code: str
    group: Group
    title: str
    why: str
    remedy: str
    mindspore_says: str  # what MindSpore 2.10.0 printed for the rule's example (CPU, GRAPH_MODE)
    about_checker: bool = False  # says the checker could not check something (a warning)

    @property
    def doc(self) -> str:
        return f"docs/rules/{self.code}.md"

    def severity(self, level: str) -> Severity:
        if self.about_checker:
            return Severity.WARNING
        if self.group in (Group.FAILS, Group.PARSE):
            return Severity.ERROR
        if self.group is Group.STRICT:
            return Severity.ERROR if level == "STRICT" else Severity.INFORMATION
        if self.group is Group.PERFORMANCE:
            return Severity.INFORMATION
        return Severity.WARNING


def _unsupported(code: str, what: str, node: str, remedy: str, kind: str = "statement") -> Rule:
    return Rule(
        code,
        Group.FAILS,
        f"`{what}` in compiled code",
        f"MindSpore's graph compiler parses the source of compiled functions and has no "
        f"translation for `{what}`; LAX mode does not fall back to Python for it.",
        remedy,
        f"RuntimeError: Unsupported {kind} '{node}'.",
    )


_RULES = [
    Rule(
        "MS000",
        Group.PARSE,
        "File does not parse",
        "The file is not valid Python, so nothing in it can be compiled.",
        "Fix the syntax error.",
        "(Python's SyntaxError)",
    ),
    Rule(
        "MS001",
        Group.PARSE,
        "Part of the file was not checked",
        "A rule crashed on this code, or a chain of base or attribute classes is deeper than "
        "the checker follows. Rather than show nothing, the checker says what it could not "
        "check; every other finding is still reported.",
        "Findings for that part may be missing. A deep chain needs no change; a crashed rule "
        "is a bug in MindScope: please report it with the file.",
        "(nothing: this is about the checker, not MindSpore)",
        about_checker=True,
    ),
    _unsupported(
        "MS101",
        "try",
        "Try",
        "Remove the `try`: check the condition explicitly, or "
        "move the guarded code out of `construct`/`@jit` code.",
    ),
    _unsupported(
        "MS102",
        "del",
        "Delete",
        "Remove the `del` statement; rebinding the name is enough for the graph.",
    ),
    _unsupported(
        "MS103",
        "yield",
        "Yield",
        "Return a tuple or list instead of yielding values.",
        "expression",
    ),
    _unsupported(
        "MS104",
        "nonlocal",
        "Nonlocal",
        "Return the new value from the inner function, "
        "or keep the state in an attribute of the Cell.",
    ),
    _unsupported("MS105", "match", "Match", "Rewrite the `match` statement as `if`/`elif`."),
    _unsupported(
        "MS106",
        ":=",
        "NamedExpr",
        "Assign the value in its own statement before using it.",
        "expression",
    ),
    _unsupported("MS107", "import", "Import", "Move the import to the top of the module."),
    _unsupported("MS108", "class", "ClassDef", "Define the class at module level."),
    _unsupported(
        "MS109",
        "async",
        "AsyncFunctionDef",
        "Use a plain `def`; compiled code cannot be asynchronous.",
    ),
    Rule(
        "MS110",
        Group.FAILS,
        "`for`/`while` with an `else` clause",
        "The graph compiler does not translate the `else` clause of loops.",
        "Use a flag set before the loop and cleared on `break`, then an `if` after the loop.",
        "RuntimeError: The 'for...else...' statement is not supported now. "
        "(and 'while...else...' for while loops)",
    ),
    Rule(
        "MS111",
        Group.FAILS,
        "Set literal or set comprehension in compiled code",
        "Graph mode has no set type.",
        "Use a tuple (or list) of the distinct values instead.",
        "RuntimeError: Unsupported expression 'Set'. (and 'SetComp')",
    ),
    Rule(
        "MS112",
        Group.FAILS,
        "Branches of a Tensor condition return different types",
        "A condition on a Tensor is not known at compile time, so both branches are compiled "
        "and their results joined; a Tensor cannot be joined with a number or a tuple.",
        "Return the same type from both branches, e.g. wrap the number with "
        "`ops.zeros_like(x)`/`Tensor(...)`, or make the condition a Python constant.",
        "TypeError: Cannot join the return values of different branches, perhaps you need to "
        "make them equal. Type Join Failed: Abstract type AbstractTensor cannot join with "
        "AbstractScalar.",
    ),
    Rule(
        "MS113",
        Group.FAILS,
        "Variable bound in only one branch of a Tensor condition",
        "Both branches of a Tensor condition are compiled; a name used after the `if` must be "
        "bound on both paths.",
        "Bind the variable before the `if` or in both branches.",
        "UnboundLocalError: The local variable 'y' is not defined in false branch, but defined "
        "in true branch.",
    ),
    Rule(
        "MS114",
        Group.FAILS,
        "Variable bound in a Tensor-condition `while` used after the loop",
        "A `while` on a Tensor condition may run zero times, so names first bound in its body "
        "do not exist after it.",
        "Bind the variable before the `while`.",
        "UnboundLocalError: The local variable 'y' defined in the 'while' loop body cannot be "
        "used outside of the loop body. Please define variable 'y' before 'while'.",
    ),
    Rule(
        "MS115",
        Group.FAILS,
        "`Parameter(...)` created in compiled code",
        "Parameters are the Cell's state and must exist before compilation.",
        "Create the Parameter in `__init__` and use `self.<name>` in `construct`.",
        "ValueError: Failed to compile in GRAPH_MODE because creating class "
        "'mindspore.common.parameter.Parameter' instances is not supported in 'construct' or "
        "@jit decorated function.",
    ),
    Rule(
        "MS116",
        Group.FAILS,
        "`with` on an object that is not a `jit_class`",
        "Graph mode only runs `__enter__`/`__exit__` of classes decorated with `@jit_class`.",
        "Decorate the context manager's class with `@mindspore.jit_class`, or move the `with` "
        "out of compiled code.",
        "TypeError: Only support jit_class instance, but got PythonObject(type: <class "
        "'Ctx'>, ...)",
    ),
    Rule(
        "MS117",
        Group.FAILS,
        "Non-constant Tensor used as a dict key",
        "Dict keys must be known at compile time.",
        "Key the dict with strings or numbers, or use a tuple of Tensors.",
        "RuntimeError: make_dict evaluator key only supports string, number, type, none, "
        "constant tensor and tuple, but got ValueAny",
    ),
    Rule(
        "MS118",
        Group.FAILS,
        "Lambda with default arguments inside a comprehension",
        "The compiler cannot evaluate a lambda's default that refers to the comprehension "
        "variable.",
        "Build the functions outside compiled code, or use `functools.partial` in `__init__`.",
        "RuntimeError: Illegal AnfNode for evaluating, node: "
        "@Net_construct__lambda_...:param_i(type:Parameter)",
    ),
    Rule(
        "MS119",
        Group.FAILS,
        "Recursion on a Tensor condition",
        "A Tensor condition cannot stop a method's recursion at compile time, so the compiler "
        "unrolls `self.method(...)` calls until it hits its call-depth limit (a module-level "
        "function calling itself compiles in MindSpore 2.10).",
        "Use a `while` loop on the Tensor condition instead of recursion.",
        "RuntimeError: Exceed function call depth limit 1000, (function call depth: 1001, "
        "simulate call depth: 666).",
    ),
    Rule(
        "MS120",
        Group.FAILS,
        "Complex number literal in compiled code",
        "The graph compiler has no constant type for Python complex numbers such as `2j`.",
        "Build complex values outside compiled code (e.g. a `Tensor` made in `__init__`), or use "
        "`ops.Complex(real, imag)` on Tensors.",
        "TypeError: Unsupported Constant type : 2j",
    ),
    Rule(
        "MS121",
        Group.FAILS,
        "`dict.pop()` / `dict.setdefault()` in compiled code",
        "Graph mode's dict does not implement `pop` and `setdefault` with Python's semantics: "
        "`pop` does not return the value and `setdefault` fails on a missing key.",
        "Read the value with `d[key]` (or `d.get(key, default)`) and build a new dict without "
        "the key, or assign `d[key] = value` explicitly.",
        "TypeError: For 'TupleGetItem', input[0] should be Sequence, but got Int64. "
        "(ValueError: The key b does not exist in the dict:ValueAny for setdefault)",
    ),
    Rule(
        "MS201",
        Group.STRICT,
        "`.asnumpy()` / `.numpy()` / `.tolist()` in compiled code",
        "Under STRICT there is no Python fallback, so Tensors cannot leave the graph.",
        "Keep the computation in `ops`, or use the default LAX level.",
        "AttributeError: In JIT strict mode, cannot get attributes asnumpy or the "
        "Tensor[Float32] object has no attribute: 'asnumpy'.",
    ),
    Rule(
        "MS202",
        Group.STRICT,
        "Assigning a non-Parameter attribute in compiled code",
        "Under STRICT only Parameter attributes can be written inside the graph.",
        "Make the attribute a Parameter, or return the value instead of storing it.",
        "TypeError: In JIT strict mode, if need to modify a member attribute of a class with "
        "self.n, the member attribute must be of the Parameter type. But got '1' with type "
        "'int'.",
    ),
    Rule(
        "MS203",
        Group.STRICT,
        "`list.sort()` / `list.remove()` in compiled code",
        "Under STRICT lists have no `sort` or `remove` method in the graph.",
        "Use `sorted(...)` on a tuple of constants or `ops.sort` on a Tensor; build a new list "
        "instead of removing from one.",
        "AttributeError: In JIT strict mode, cannot get attributes sort or the List[Int64*3] "
        "object has no attribute: 'sort'.",
    ),
    Rule(
        "MS204",
        Group.STRICT,
        "Python, `math` or NumPy function applied to a Tensor in compiled code",
        "Under STRICT there is no Python fallback: `str()`, `repr()`, `type()`, `math.*` and "
        "`numpy.*` functions need constant inputs, and a Tensor computed in the graph is not.",
        "Use the Tensor's own methods or `ops` (e.g. `ops.floor`, `x.dtype`), or use the default "
        "LAX level.",
        "ValueError: When handling script 'type(x) in graph mode', the inputs should be "
        "constant, but found variable 'x' to be nonconstant.",
    ),
    Rule(
        "MS205",
        Group.STRICT,
        "A Tensor condition joins a Tensor with None",
        "Both paths of a Tensor condition are compiled and their values joined; LAX joins a "
        "Tensor with None through its Python fallback, STRICT cannot.",
        "Give both paths a Tensor (e.g. `ops.zeros_like(x)`), or make the condition a Python "
        "constant.",
        "TypeError: Cannot join the return values of different branches, perhaps you need to "
        "make them equal. (only under jit_syntax_level=STRICT)",
    ),
    Rule(
        "MS301",
        Group.DIVERGES,
        "Writing a global variable in compiled code",
        "Graph mode reads globals once at compile time; the write is not seen by the graph "
        "(PyNative returned 1 where GRAPH_MODE returned 0 for the example).",
        "Keep the counter in a Parameter or pass it as an argument.",
        "(compiles; result differs from PyNative)",
    ),
    Rule(
        "MS302",
        Group.DIVERGES,
        "Mutating a list attribute of the Cell in compiled code",
        "The graph works on a copy of the list taken at compile time, so `self.items.append(...)`"
        " is not seen (PyNative returned 1 where GRAPH_MODE returned 0 for the example).",
        "Build a local list, or move the bookkeeping out of `construct`.",
        "(compiles; result differs from PyNative)",
    ),
    Rule(
        "MS303",
        Group.DIVERGES,
        "In-place update of a Tensor alias",
        "In graph mode `y += 1` updates the Tensor `y` aliases, so the original changes too "
        "(PyNative rebinds `y` only: it returned 1 where GRAPH_MODE returned 2).",
        "Write `y = y + 1`, which creates a new Tensor in both modes.",
        "(compiles; result differs from PyNative)",
    ),
    Rule(
        "MS304",
        Group.DIVERGES,
        "Lambda created in a loop in compiled code",
        "Lambdas collected in a loop inside the graph are not called like in Python: the "
        "example returned None in GRAPH_MODE and a Tensor in PyNative.",
        "Define the function once outside the loop and pass the loop value as an argument.",
        "(compiles; result differs from PyNative)",
    ),
    Rule(
        "MS401",
        Group.DEPRECATED,
        "Deprecated `set_context` parameter",
        "MindSpore 2.10 warns that this `set_context` parameter will be removed.",
        "Use the replacement API named in the message.",
        "[WARNING] ME: For 'context.set_context', the parameter 'device_target' will be "
        "deprecated and removed in a future version. Please use the api mindspore.set_device() "
        "instead.",
    ),
    Rule(
        "MS402",
        Group.DEPRECATED,
        "Removed API `ms_function` / `ms_class`",
        "`mindspore.ms_function` and `mindspore.ms_class` no longer exist in MindSpore 2.10.",
        "Use `mindspore.jit` and `mindspore.jit_class`.",
        "AttributeError: module 'mindspore' has no attribute 'ms_function'",
    ),
    Rule(
        "MS501",
        Group.PERFORMANCE,
        "Python number that changes between calls to compiled code",
        "A compiled Cell or `jit` function caches its graph per argument key, and a Python "
        "`int` or `float` argument is part of that key by value (a Tensor only by shape and "
        "dtype): a loop counter or a decayed learning rate compiles a new graph on every call, "
        "which costs 100-400 ms where running the cached graph costs about 1 ms. "
        "The Cell or `jit` function may be defined in the same file or imported from another "
        "file of the workspace (`from model import Net`, `from utils import train_step`, "
        "a subclass of a Cell defined elsewhere).",
        "Pass the number as a Tensor (`Tensor(lr, ms.float32)`) or wrap it with "
        "`mindspore.mutable(lr)` so that one graph serves every value.",
        "(no message: it recompiles silently) 3 calls with 3 values compiled 3 graphs "
        "(MS_DEV_SAVE_GRAPHS=1 wrote 3 `*_validate_*.ir` files); the fixed example compiled 1.",
    ),
    Rule(
        "MS502",
        Group.PERFORMANCE,
        "Compiled Cell or `jit` function created again for each call",
        "MindSpore caches compiled graphs per Cell instance and per `jit` function object: "
        "`Net()(x)`, `ms.jit(fn)(x)` or a nested `@jit` def that runs on every iteration (or on "
        "every call of a function a loop calls) is compiled again each time. "
        "The Cell or `jit` function may be defined in the same file or imported from another "
        "file of the workspace (`from model import Net`, `from utils import train_step`, "
        "a subclass of a Cell defined elsewhere).",
        "Create the Cell or the `jit` function once, before the loop or at module level, and "
        "call that object in the loop.",
        '[WARNING] ME: The function "forward" at the file "...", line 5 has been compiled '
        "again. Try to reuse the function object decorated by @jit to reduce the compile time. "
        "(for `jit`; a new Cell recompiles silently) 3 iterations compiled 3 graphs "
        "(MS_DEV_SAVE_GRAPHS=1 wrote 3 `*_validate_*.ir` files); the fixed example compiled 1.",
    ),
    Rule(
        "MS503",
        Group.PERFORMANCE,
        "New list, tuple or dict of Tensors passed to compiled code on each call",
        "A list, tuple or dict argument of a compiled Cell or `jit` function is keyed as a "
        "constant, so a new container holding Tensors (a display like `[x, y]`, or the whole "
        "batch from `create_tuple_iterator()` / `create_dict_iterator()`) compiles a new graph "
        "on every call, even with the same Tensors inside. "
        "The Cell or `jit` function may be defined in the same file or imported from another "
        "file of the workspace (`from model import Net`, `from utils import train_step`, "
        "a subclass of a Cell defined elsewhere).",
        "Pass the Tensors as separate arguments (`net(*batch)`), or wrap the container with "
        "`mindspore.mutable(...)`.",
        "[WARNING] ME: Constant value tensor are detected in tuple or list, which might cause "
        "recompiling when tensor value changes. You can use mutable(Tensor) or "
        "mutable(tuple(Tensor)) to set tensor's value as variable to to avoid recompiling. "
        "3 calls compiled 3 graphs (MS_DEV_SAVE_GRAPHS=1 wrote 3 `*_validate_*.ir` files); "
        "the fixed example compiled 1.",
    ),
]

RULES: dict[str, Rule] = {rule.code: rule for rule in _RULES}
