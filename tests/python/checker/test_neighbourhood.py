"""The key that keeps the findings of rules reading beyond their function between checks
(`incremental/neighbourhood.py`): equal after an edit no other block can see, changed by
anything another block's rules may read."""

from __future__ import annotations

import ast

from mindscope_ls.checker import Workspace, check_source
from mindscope_ls.checker.incremental.neighbourhood import neighbourhood

SOURCE = """\
import mindspore as ms
from mindspore import nn, mutable

LIMIT = 3


class Block(nn.Cell):
    def construct(self, x):
        y = x * 2
        return y


class Other(nn.Cell):
    def construct(self, x):
        return x + LIMIT


class Top(nn.Cell):
    def __init__(self):
        super().__init__()
        self.block = Block()

    def construct(self, x):
        return self.block(x)


def run(x):
    net = Top()
    return net(x, mutable(2))
"""


def _keys(source: str, ws: Workspace) -> dict[str, object]:
    """Each class's `construct` key (and `run`'s), after checking `source` in `ws`."""
    check_source(source, "m.py", workspace=ws)
    module = ws.get("m.py")
    assert module is not None and module.tree is not None
    near = neighbourhood(module, ws.others("m.py"))
    assert near is not None
    keys: dict[str, object] = {}
    for stmt in module.tree.body:
        if isinstance(stmt, ast.ClassDef):
            construct = next(n for n in stmt.body if getattr(n, "name", "") == "construct")
            keys[stmt.name] = near.key(construct)
        elif isinstance(stmt, ast.FunctionDef):
            keys[stmt.name] = near.key(stmt)
    return keys


def _changed(edited: str) -> set[str]:
    ws = Workspace()
    before = _keys(SOURCE, ws)
    assert edited != SOURCE
    after = _keys(edited, ws)
    return {name for name in before if before[name] != after[name]}


def test_typing_a_local_name_changes_only_the_blocks_that_reach_the_edited_one() -> None:
    # `Top` names `Block`, `run` names `Top`: they reach it; `Other` does not.
    edited = SOURCE.replace("        return y\n", "        return yy\n")
    assert _changed(edited) == {"Block", "Top", "run"}


def test_a_number_typed_in_a_leaf_block_keeps_the_others() -> None:
    edited = SOURCE.replace("return x + LIMIT", "return x + LIMIT + 1")
    assert _changed(edited) == {"Other"}


def test_what_other_blocks_can_see_changes_every_key() -> None:
    edits = [
        SOURCE.replace("mutable(2)", "mutable(-2)"),  # a call's arguments (callers are read)
        SOURCE.replace("y = x * 2", "y = x.add_(2)"),  # a new call
        SOURCE.replace("y = x * 2", "global LIMIT\n        LIMIT = 4\n        y = x"),
        SOURCE.replace("LIMIT = 3", "LIMIT = 4"),  # module-level code
        SOURCE.replace(
            "def construct(self, x):\n        y", "def construct(self, x=1):\n        y"
        ),
        SOURCE.replace("        y = x * 2\n", "\n        y = x * 2\n"),  # the blocks below move
        SOURCE.replace("return x + LIMIT", "return x + self.limit"),  # an attribute
    ]
    for edited in edits:
        assert _changed(edited) == {"Block", "Other", "Top", "run"}, edited


def test_another_files_change_changes_every_key() -> None:
    ws = Workspace()
    ws.update("other.py", "A = 1\n")
    before = _keys(SOURCE, ws)
    ws.update("other.py", "A = 2\n")
    after = _keys(SOURCE, ws)
    assert all(before[name] != after[name] for name in before)
    ws.remove("other.py")
    assert all(after[name] != value for name, value in _keys(SOURCE, ws).items())
