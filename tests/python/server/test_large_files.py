"""A file past LARGE_FILE_CHARS is not indexed (issue 19): parsing a 100,000-line file held the
interpreter for seconds in the index thread, and the first completion and every keystroke of
the open document waited behind it (~30 s). At start-up, on a file event and when its document
closes, the index leaves it out, as the checks do while it is open."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from mindscope_ls.checker import Workspace
from mindscope_ls.documents.window import LARGE_FILE_CHARS
from mindscope_ls.services.check_scheduler import MAX_CHECKED_CHARS
from mindscope_ls.services.filewatch import apply_changes, revert_to_disk

CELL = "import mindspore.nn as nn\n\n\nclass Base(nn.Cell):\n    pass\n"


def _folder(tmp_path: Path) -> tuple[Path, Path]:
    small, huge = tmp_path / "small.py", tmp_path / "huge.py"
    small.write_text(CELL)
    with huge.open("w") as handle:
        handle.write(CELL)
        handle.write(("# " + "x" * 97 + "\n") * (LARGE_FILE_CHARS // 100 + 1))
    return small, huge


def _names(workspace: Workspace) -> set[str]:
    return {Path(m.path).name for m in workspace.modules()}


def test_the_checks_and_the_index_share_the_limit() -> None:
    assert MAX_CHECKED_CHARS == LARGE_FILE_CHARS


def test_start_up_indexing_leaves_out_a_file_past_the_limit(tmp_path: Path) -> None:
    _folder(tmp_path)
    assert _names(Workspace.from_folder(str(tmp_path))) == {"small.py", "huge.py"}
    assert _names(Workspace.from_folder(str(tmp_path), LARGE_FILE_CHARS)) == {"small.py"}


def test_a_file_event_or_a_close_does_not_index_it_either(tmp_path: Path) -> None:
    small, huge = _folder(tmp_path)
    workspace = Workspace({str(small): CELL, str(huge): CELL}, root=str(tmp_path))
    event = types.FileEvent(uri=huge.as_uri(), type=types.FileChangeType.Changed)
    assert apply_changes(workspace, str(tmp_path), [event], set())
    assert _names(workspace) == {"small.py"}
    workspace.update(str(huge), CELL)  # its document was open: the buffer was indexed
    revert_to_disk(workspace, str(tmp_path), str(huge))
    assert _names(workspace) == {"small.py"}
