"""The one reader of MindSpore's `# In file` lines (runtime/infile.py), on MindSpore 2.10's real
messages (fixtures/infile/README.md), and its two callers: run failures and the kernel."""

from __future__ import annotations

from pathlib import Path

from mindscope_kernel.errors import Location as KernelLocation
from mindscope_kernel.errors import user_location as kernel_location
from mindscope_runtime.infile import construct_locations, innermost, is_framework_file
from mindscope_runtime.runfail import run_failure, user_location

FIXTURES = Path(__file__).parent / "fixtures" / "infile"
MS = "/venv/lib/python3.11/site-packages/mindspore"


def _text(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def _mine(path: str) -> bool:
    return not is_framework_file(path)


def test_numbered_frames_outer_first_with_columns() -> None:
    found = construct_locations(_text("shape_five_frames.txt"))
    assert [(loc.file, loc.line, loc.end_line, loc.column, loc.end_column) for loc in found] == [
        ("/work/proj/model.py", 19, 19, 15, 24),
        ("/work/proj/model.py", 14, 14, 11, 19),
        ("/work/proj/model.py", 9, 9, 11, 64),
        (f"{MS}/ops/function/math_func.py", 8724, 8724, 11, 49),
        (f"{MS}/ops/auto_generate/gen_ops_def.py", 7467, 7467, 11, 38),
    ]  # fmt: skip
    chosen = innermost(found, _mine)
    assert chosen is not None and (chosen.file, chosen.line) == ("/work/proj/model.py", 9)


def test_windows_paths_keep_their_drive_and_spaces() -> None:
    found = construct_locations(_text("shape_five_frames_windows.txt"))
    assert [loc.line for loc in found] == [19, 14, 9, 8724, 7467]
    assert found[0].file == "C:\\Users\\me\\My Project\\model.py"
    chosen = innermost(found, _mine)
    assert chosen is not None and (chosen.file, chosen.line) == (found[0].file, 9)


def test_bare_frames_of_a_cell_file_span_lines() -> None:
    found = construct_locations(_text("delete_in_cell_file.txt"))
    cell = "/work/proj/ipykernel_4242/3012345678.py"
    assert [(loc.file, loc.line, loc.end_line, loc.column) for loc in found] == [
        (cell, 2, 4, 4),
        (cell, 3, 3, 8),
    ]


def test_code_from_string() -> None:
    found = construct_locations(_text("delete_in_string.txt"))
    assert [(loc.file, loc.line, loc.end_line) for loc in found] == [
        ("<string>", 2, 5),
        ("<string>", 4, 4),
    ]


def test_in_file_lines_outside_the_construct_traceback_are_not_frames() -> None:
    quoted = "Bad value\n# In file /work/proj/elsewhere.py:3\n" + _text("delete_in_string.txt")
    assert [loc.file for loc in construct_locations(quoted)] == ["<string>", "<string>"]
    assert construct_locations("# In file /work/proj/model.py:3\nno traceback") == []
    assert construct_locations("") == []


def test_no_user_frame() -> None:
    found = construct_locations(_text("shape_five_frames.txt"))[3:]
    assert innermost(found, _mine) is None
    # A run failure still names a place: MindSpore's innermost frame.
    chosen = user_location(found)
    assert chosen is not None and chosen.line == 7467


def test_run_failures_name_the_users_innermost_line() -> None:
    error = run_failure(
        ValueError(_text("shape_five_frames.txt")), kind="stats-failed", inputs=[], root="Net"
    )
    assert (error.file, error.line) == ("/work/proj/model.py", 9)


def test_the_kernel_names_the_cells_innermost_lines() -> None:
    cell = "/work/proj/ipykernel_4242/3012345678.py"
    exc = RuntimeError(_text("delete_in_cell_file.txt"))
    assert kernel_location(exc, lambda path: path == cell) == KernelLocation(cell, 3, 3)
    assert kernel_location(exc, lambda path: False) is None
    # Numbered frames too (MindSpore 2.10 numbers them for a shape or type failure).
    shape = RuntimeError(_text("shape_five_frames.txt"))
    assert kernel_location(shape, _mine) == KernelLocation("/work/proj/model.py", 9, 9)
    strings = RuntimeError(_text("delete_in_string.txt"))
    assert kernel_location(strings, _mine) == KernelLocation("<string>", 4, 4)
