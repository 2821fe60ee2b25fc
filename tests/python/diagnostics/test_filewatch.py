"""File events against a real workspace index: what is read from disk, what is left alone."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from mindscope_ls.checker import Workspace
from mindscope_ls.services.filewatch import apply_changes

CREATED, CHANGED, DELETED = (
    types.FileChangeType.Created,
    types.FileChangeType.Changed,
    types.FileChangeType.Deleted,
)


def _event(path: Path, kind: types.FileChangeType) -> types.FileEvent:
    return types.FileEvent(uri=path.as_uri(), type=kind)


def _indexed(workspace: Workspace) -> set[str]:
    return {Path(m.path).name for m in workspace.modules()}


def test_created_changed_and_deleted_files_update_the_index(tmp_path: Path) -> None:
    workspace = Workspace.from_folder(str(tmp_path))
    base = tmp_path / "base.py"
    base.write_text("A = 1\n", encoding="utf-8")
    assert apply_changes(workspace, str(tmp_path), [_event(base, CREATED)], set())
    module = workspace.get(str(base))
    assert module is not None and module.source == "A = 1\n"
    base.write_text("A = 2\n", encoding="utf-8")
    assert apply_changes(workspace, str(tmp_path), [_event(base, CHANGED)], set())
    module = workspace.get(str(base))
    assert module is not None and module.source == "A = 2\n"
    # An event for unchanged text leaves the index (and its version) alone.
    assert not apply_changes(workspace, str(tmp_path), [_event(base, CHANGED)], set())
    base.unlink()
    assert apply_changes(workspace, str(tmp_path), [_event(base, DELETED)], set())
    assert workspace.get(str(base)) is None


def test_open_skipped_and_outside_files_are_left_alone(tmp_path: Path) -> None:
    root = tmp_path / "project"
    (root / ".venv").mkdir(parents=True)
    opened, skipped, outside = root / "open.py", root / ".venv" / "lib.py", tmp_path / "o.py"
    for path in (opened, skipped, outside):
        path.write_text("X = 1\n", encoding="utf-8")
    workspace = Workspace(root=str(root))
    workspace.update(str(opened), "X = 'the buffer'\n")
    events = [_event(p, CHANGED) for p in (opened, skipped, outside)]
    assert not apply_changes(workspace, str(root), events, {str(opened)})
    module = workspace.get(str(opened))
    assert module is not None and module.source == "X = 'the buffer'\n"
    assert _indexed(workspace) == {"open.py"}


def test_a_deleted_folder_removes_the_files_under_it(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    for name in ("a.py", "b.py"):
        (package / name).write_text("X = 1\n", encoding="utf-8")
    (tmp_path / "pkgx.py").write_text("X = 1\n", encoding="utf-8")  # a sibling with the prefix
    workspace = Workspace.from_folder(str(tmp_path))
    assert _indexed(workspace) == {"a.py", "b.py", "pkgx.py"}
    assert apply_changes(workspace, str(tmp_path), [_event(package, DELETED)], set())
    assert _indexed(workspace) == {"pkgx.py"}
