"""Graph-mode support tables read statically (ast) from the installed MindSpore's own parser.

Nothing here imports MindSpore: each table is a literal or a decorated `def` in its sources, so
reading the files is enough and a table stays exactly what the parser ships.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Optional

# Where each table lives, relative to the `mindspore` package folder (2.10 layout).
RESOURCES = "graph/_parse/resources.py"
TROPE = "graph/_parse/trope.py"
PARSER = "graph/_parse/parser.py"
STANDARD_METHOD = "graph/_parse/standard_method.py"
DEPRECATED_METHODS = "graph/_parse/deprecated/deprecated_tensor_method.py"
TENSOR_METHOD = "ops/tensor_method.py"
THIRD_PARTY = "graph/_parse/jit_fallback_modules/third_party_modules.py"
FORBIDDEN = "graph/_utils/check_jit_forbidden_api.py"
VIEW_UNSUPPORTED_DECORATOR = "jit_view_unsupported"
FORBIDDEN_DECORATOR = "jit_forbidden_register"
# Primitives written by hand register their `__init__` arguments as attributes, which graph mode
# must know while compiling; generated ones (from op definitions) take them as inputs.
OPERATIONS = "ops/operations"
GENERATED_PRIMITIVES = "ops/auto_generate/gen_ops_prim.py"
ATTRIBUTE_INIT = "prim_attr_register"

# standard_method.py names container methods by a prefix; the parser's C++ method map binds
# e.g. `list.append` to `list_append`.
CONTAINER_PREFIXES = {"list_": "list", "dict_": "dict"}
# ...except these, which are the `list(...)`/`tuple(...)`/`dict(...)` builtins, not methods.
CONSTRUCTORS = {"list_func", "tuple_func", "dict_func"}


class TableError(Exception):
    """A table was not where MindSpore 2.10 keeps it: the layout changed."""


def _tree(root: Path, rel: str) -> ast.Module:
    path = root / rel
    if not path.is_file():
        raise TableError(f"{rel} not found under {root}: has MindSpore's layout changed?")
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _assigned(tree: ast.Module, name: str) -> ast.expr:
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            assert isinstance(node, ast.Assign)
            return node.value
    raise TableError(f"no top-level `{name} = ...` in the parser sources")


def _dotted(node: ast.expr) -> str:
    return ast.unparse(node)


def trope_builtins(root: Path) -> list[str]:
    """Names the parser re-exports from `builtins` (the system functions it translates)."""
    for node in _tree(root, TROPE).body:
        if isinstance(node, ast.ImportFrom) and node.module == "builtins":
            return sorted(alias.name for alias in node.names)
    raise TableError("trope.py imports nothing from builtins")


def converted_builtins(root: Path) -> dict[str, str]:
    """Builtin name -> the graph function `convert_object_map` turns it into (`T.len: M.ms_len`)."""
    table = _assigned(_tree(root, RESOURCES), "convert_object_map")
    assert isinstance(table, ast.Dict)
    found: dict[str, str] = {}
    for key, value in zip(table.keys, table.values):
        if (
            isinstance(key, ast.Attribute)
            and isinstance(key.value, ast.Name)
            and key.value.id == "T"
        ):
            found[key.attr] = _dotted(value)
    # `print` is added after the literal when security mode is off (the default build).
    found.setdefault("print", "F.print_")
    return dict(sorted(found.items()))


def class_functions(root: Path) -> list[str]:
    """Builtin classes the parser calls as functions (`convert_class_to_function_map`)."""
    table = _assigned(_tree(root, RESOURCES), "convert_class_to_function_map")
    assert isinstance(table, ast.Dict)
    names = []
    for key in table.keys:
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            names.append(key.value.split("'")[1])
    return sorted(names)


def constant_folded(root: Path) -> list[str]:
    """Builtins folded at compile time when all their inputs are constants."""
    table = _assigned(_tree(root, RESOURCES), "constant_fold_functions")
    assert isinstance(table, ast.List)
    return sorted(e.id for e in table.elts if isinstance(e, ast.Name))


def _name_tuple(root: Path, rel: str, name: str) -> list[str]:
    value = _assigned(_tree(root, rel), name)
    assert isinstance(value, (ast.Tuple, ast.List, ast.Set))
    out = []
    for elt in value.elts:
        if isinstance(elt, ast.Constant) and isinstance(elt.value, str):
            out.append(elt.value)
        elif isinstance(elt, ast.Name):
            out.append(elt.id)
    return sorted(set(out))


def unsupported_builtin_types(root: Path) -> list[str]:
    return _name_tuple(root, PARSER, "_unsupported_python_builtin_type")


def expr_statement_methods(root: Path) -> list[str]:
    """Methods whose call may stand alone as a statement (`x.append(1)`) and still count."""
    return _name_tuple(root, PARSER, "parse_expr_statement_white_list")


def third_party_modules(root: Path) -> list[str]:
    return _name_tuple(root, THIRD_PARTY, "third_party_modules_whitelist")


def standard_methods(root: Path) -> dict[str, list[str]]:
    """Container methods (`list_append` -> list.append) and the other public functions of
    standard_method.py, which are the Tensor methods implemented in Python."""
    kinds: dict[str, list[str]] = {"list": [], "dict": [], "tensor": []}
    for node in _tree(root, STANDARD_METHOD).body:
        if not isinstance(node, ast.FunctionDef) or node.name.startswith("_"):
            continue
        if node.name in CONSTRUCTORS:
            continue
        for prefix, kind in CONTAINER_PREFIXES.items():
            if node.name.startswith(prefix):
                kinds[kind].append(node.name[len(prefix) :])
                break
        else:
            kinds["tensor"].append(node.name)
    return {k: sorted(set(v)) for k, v in kinds.items()}


def tensor_methods(root: Path) -> list[str]:
    """Tensor method names the graph compiler binds: the keys of `deprecated_tensor_method_map`
    and the `tensor_<name>` functions of ops/tensor_method.py."""
    table = _assigned(_tree(root, DEPRECATED_METHODS), "deprecated_tensor_method_map")
    assert isinstance(table, ast.Dict)
    names = {
        k.value for k in table.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)
    }
    for node in _tree(root, TENSOR_METHOD).body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("tensor_"):
            names.add(node.name[len("tensor_") :])
    return sorted(names)


def _decorated(root: Path, decorator: str) -> list[str]:
    """`module.Qual.name` of every def under `root` decorated with `@decorator`."""
    found: list[str] = []
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8", errors="replace")
        if decorator not in text:
            continue
        module = ".".join(("mindspore", *path.relative_to(root).with_suffix("").parts))
        module = module.removesuffix(".__init__")
        found.extend(_decorated_in(ast.parse(text), module, decorator))
    return sorted(set(found))


def _decorated_in(tree: ast.Module, module: str, decorator: str) -> list[str]:
    found = []

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef):
                visit(node.body, f"{prefix}{node.name}.")
            elif isinstance(node, ast.FunctionDef):
                names = {_dotted(d).split(".")[-1] for d in node.decorator_list}
                if decorator in names:
                    found.append(f"{module}.{prefix}{node.name}")

    visit(tree.body, "")
    return found


def forbidden_modules(root: Path) -> list[str]:
    mods = []
    for node in ast.walk(_tree(root, FORBIDDEN)):
        if isinstance(node, ast.Call) and _dotted(node.func) == "add_jit_forbidden_module":
            arg: Optional[ast.expr] = node.args[0] if node.args else None
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                mods.append(arg.value)
    return sorted(mods)


def public_aliases(root: Path, functions: list[str], modules: list[str]) -> dict[str, str]:
    """`mindspore.set_context` -> `mindspore.context.set_context`: the names `mindspore/__init__.py`
    re-exports from a forbidden module or of a forbidden function, so a call through the public
    name is recognised without importing MindSpore."""
    forbidden = set(functions)
    found: dict[str, str] = {}
    for node in _tree(root, "__init__.py").body:
        if not isinstance(node, ast.ImportFrom) or not node.module:
            continue
        module = node.module if not node.level else f"mindspore.{node.module}"
        for alias in node.names:
            if alias.name == "*":
                continue
            target = f"{module}.{alias.name}"
            if target in forbidden or any(
                module == m or module.startswith(m + ".") for m in modules
            ):
                found[f"mindspore.{alias.asname or alias.name}"] = target
    return dict(sorted(found.items()))


def constant_argument_primitives(root: Path) -> list[str]:
    """The `ops.operations` primitives whose `__init__` takes arguments it registers as
    attributes (`@prim_attr_register`): built inside compiled code, every argument must be a
    compile-time constant ("When creating an instance of 'L2Normalize', all arguments are
    required to be constants"). A generated primitive of the same name is the public one."""
    folder = root / OPERATIONS
    if not folder.is_dir():
        raise TableError(f"{OPERATIONS} not found under {root}: has MindSpore's layout changed?")
    generated = {
        n.name for n in _tree(root, GENERATED_PRIMITIVES).body if isinstance(n, ast.ClassDef)
    }
    found: set[str] = set()
    for path in sorted(folder.rglob("*.py")):
        text = path.read_text(encoding="utf-8", errors="replace")
        if ATTRIBUTE_INIT not in text:
            continue
        for node in ast.parse(text).body:
            if (
                isinstance(node, ast.ClassDef)
                and node.name not in generated
                and _attribute_init(node)
            ):
                found.add(node.name)
    return sorted(found)


def _attribute_init(cls: ast.ClassDef) -> bool:
    for node in cls.body:
        if isinstance(node, ast.FunctionDef) and node.name == "__init__":
            decorators = {_dotted(d).split(".")[-1] for d in node.decorator_list}
            args = node.args
            takes = len(args.posonlyargs) + len(args.args) > 1 or args.kwonlyargs or args.vararg
            return ATTRIBUTE_INIT in decorators and bool(takes)
    return False


def build_static(root: Path) -> dict[str, Any]:
    """Every table the parser sources state, keyed for facts JSON."""
    converted = converted_builtins(root)
    methods = standard_methods(root)
    forbidden = _decorated(root, FORBIDDEN_DECORATOR)
    forbidden_mods = forbidden_modules(root)
    return {
        "builtins": {
            "translated": trope_builtins(root),
            "converted": converted,
            "class_as_function": class_functions(root),
            "constant_folded": constant_folded(root),
            "unsupported_types": unsupported_builtin_types(root),
        },
        "methods": {
            "tensor": sorted(set(tensor_methods(root)) | set(methods["tensor"])),
            "list": methods["list"],
            "dict": methods["dict"],
            "expr_statement": expr_statement_methods(root),
        },
        "forbidden_in_graph": {
            "functions": forbidden,
            "modules": forbidden_mods,
            "aliases": public_aliases(root, forbidden, forbidden_mods),
            "view_unsupported": _decorated(root, VIEW_UNSUPPORTED_DECORATOR),
        },
        "fallback": {"third_party_modules": third_party_modules(root)},
        "primitives": {"constant_arguments": constant_argument_primitives(root)},
    }
