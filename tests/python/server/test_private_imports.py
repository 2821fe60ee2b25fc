"""No module imports another package's private names (`from pkg.mod import _name`): a private
name is free to change inside its package, so the packages of pyserver, kernel and runtime
import only each other's public names (the checker's face is `mindscope_ls.checker`)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
ROOTS = (REPO / "pyserver", REPO / "kernel", REPO / "runtime")


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_of(module: str, is_package: bool) -> str:
    """The unit a private name may travel in: the importer's subpackage of the distribution
    package (`mindscope_ls.checker`, `mindscope_kernel.magics`), or the top package itself
    for its own modules (`mindscope_ls.server`, `mindscope_runtime.cli`)."""
    parts = module.split(".")
    if is_package:
        parts = [*parts, "__init__"]
    return ".".join(parts[:2]) if len(parts) > 2 else parts[0]


def imported_module(node: ast.ImportFrom, importer: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = importer.split(".") if is_package else importer.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def private_imports(root: Path, path: Path, shown_from: Path = REPO) -> Iterator[str]:
    importer = module_name(root, path)
    is_package = path.name == "__init__.py"
    mine = package_of(importer, is_package)
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        source = imported_module(node, importer, is_package)
        if not source.startswith(("mindscope_ls", "mindscope_kernel", "mindscope_runtime")):
            continue  # third-party privates are their own business (pygls, IPython...)
        theirs = package_of(source, (root / source.replace(".", "/")).is_dir())
        for alias in node.names:
            private = alias.name.startswith("_") and not alias.name.startswith("__")
            if private and theirs != mine:
                where = f"{path.relative_to(shown_from)}:{node.lineno}"
                yield f"{where}: {importer} imports {alias.name} from {source} ({theirs})"


def test_the_packaging_rule_itself() -> None:
    assert package_of("mindscope_ls.checker.rules.loops", False) == "mindscope_ls.checker"
    assert package_of("mindscope_ls.checker", True) == "mindscope_ls.checker"
    assert package_of("mindscope_ls.server", False) == "mindscope_ls"
    node = ast.parse("from ..blocks import _x").body[0]
    assert isinstance(node, ast.ImportFrom)
    assert imported_module(node, "mindscope_ls.checker.parsing", False) == "mindscope_ls.blocks"


def test_a_private_import_across_packages_is_found(tmp_path: Path) -> None:
    package = tmp_path / "mindscope_ls"
    (package / "analysis").mkdir(parents=True)
    (package / "checker").mkdir()
    for init in (package, package / "analysis", package / "checker"):
        (init / "__init__.py").write_text("")
    (package / "checker" / "engine.py").write_text("from .levels import _level_set_by\n")
    bad = package / "analysis" / "filemode.py"
    bad.write_text("from mindscope_ls.checker.engine import _compiled_in, compiled_in\n")
    assert [p.split(": ", 1)[1] for p in private_imports(tmp_path, bad, tmp_path)] == [
        "mindscope_ls.analysis.filemode imports _compiled_in from mindscope_ls.checker.engine "
        "(mindscope_ls.checker)"
    ]
    # Inside its own package a private name is fine.
    assert list(private_imports(tmp_path, package / "checker" / "engine.py", tmp_path)) == []


def test_no_module_imports_another_packages_private_names() -> None:
    found = [
        problem
        for root in ROOTS
        for path in sorted(root.rglob("*.py"))
        for problem in private_imports(root, path)
    ]
    assert found == []
