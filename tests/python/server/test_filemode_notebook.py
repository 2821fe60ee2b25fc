"""The notebook's file-mode summary (analysis/filemode.notebook_mode) reads each cell in its
program, the one notebook model: what the cells above define and import, never the cells below."""

from __future__ import annotations

from mindscope_ls.analysis.filemode import Compiled, notebook_mode

IMPORTS = "import mindspore as ms\nfrom mindspore import nn, ops\n"
GRAPH = "ms.set_context(mode=ms.GRAPH_MODE)\n"
NET = "class Net(nn.Cell):\n    def construct(self, x):\n        return x\n"


def test_a_mode_set_in_one_cell_is_seen_by_a_cell_below() -> None:
    cells = [IMPORTS, GRAPH, "x = 1\n", "y = 2\n" + NET]
    mode = notebook_mode(cells, setting_level=None)
    assert (mode.mode, mode.mode_source, mode.mode_set_count) == ("GRAPH_MODE", "file", 1)
    assert mode.mode_at is not None and (mode.mode_at.part, mode.mode_at.line) == (1, 1)
    # Found in its own cell, with the names the first cell imports, at its line in that cell.
    assert mode.compiled == (Compiled("Net.construct", "construct", 3, 3),)
    assert mode.parsed


def test_a_later_cell_never_leaks_into_an_earlier_one() -> None:
    # Run top to bottom, the first cell fails on `ms` and `nn`: what cell 2 imports is not there.
    cells = [GRAPH + NET, "x = 1\n", IMPORTS]
    mode = notebook_mode(cells, setting_level=None)
    assert (mode.mode, mode.mode_source, mode.mode_at) == ("PYNATIVE_MODE", "default", None)
    assert mode.compiled == ()
    level = notebook_mode(
        ["ms.set_context(jit_syntax_level=ms.STRICT)\n", IMPORTS], setting_level="LAX"
    )
    assert (level.level, level.level_source) == ("LAX", "setting")


def test_reordered_cells_are_read_in_the_new_order() -> None:
    pynative = "ms.set_context(mode=ms.PYNATIVE_MODE)\n"
    first = notebook_mode([IMPORTS, GRAPH, pynative], setting_level=None)
    assert first.mode == "PYNATIVE_MODE" and first.mode_at is not None
    assert first.mode_at.part == 2
    second = notebook_mode([IMPORTS, pynative, GRAPH], setting_level=None)
    assert second.mode == "GRAPH_MODE" and second.mode_at is not None
    assert (second.mode_at.part, second.mode_set_count) == (2, 2)
    # The import moved below the setter: the setter no longer names MindSpore's set_context.
    moved = notebook_mode([GRAPH, IMPORTS], setting_level=None)
    assert (moved.mode, moved.mode_set_count) == ("PYNATIVE_MODE", 0)


def test_the_level_is_the_last_one_a_cell_sets_in_notebook_order() -> None:
    strict = "ms.set_context(jit_syntax_level=ms.STRICT)\n"
    lax = "\nms.set_context(jit_syntax_level=ms.LAX)\n"
    mode = notebook_mode([IMPORTS, strict, lax], setting_level=None)
    assert (mode.level, mode.level_source) == ("LAX", "file")
    assert mode.level_at is not None and (mode.level_at.part, mode.level_at.line) == (2, 2)
    earlier = notebook_mode([IMPORTS, lax, strict, "x = 1\n"], setting_level=None)
    assert earlier.level == "STRICT" and earlier.level_at is not None
    assert earlier.level_at.part == 2


def test_a_helper_of_an_earlier_cell_is_compiled_by_the_cell_that_calls_it() -> None:
    helper = "def scale(x):\n    return x * 2\n"
    step = "@ms.jit\ndef step(x):\n    return scale(x)\n"
    mode = notebook_mode([IMPORTS, helper, step], setting_level=None)
    assert {(c.name, c.kind, c.part, c.line) for c in mode.compiled} == {
        ("scale", "callee", 1, 1),
        ("step", "jit", 2, 2),
    }
    assert mode.compiled_count == 2


def test_magics_and_a_half_typed_cell() -> None:
    cells = ["%matplotlib inline\n" + IMPORTS, "def broken(:\n", GRAPH]
    mode = notebook_mode(cells, setting_level=None)
    assert mode.mode == "GRAPH_MODE" and mode.mode_at is not None
    assert (mode.mode_at.part, mode.mode_at.line) == (2, 1)
    assert not mode.parsed
    assert notebook_mode(cells[:1] + cells[2:], setting_level=None).parsed
