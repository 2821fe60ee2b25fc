"""What the checker keeps for a tree goes with the tree: indexes and cached results are kept on
the nodes, so an edited block's old nodes (and a dropped workspace's trees) can be freed."""

from __future__ import annotations

import gc
import weakref

from mindscope_ls.checker import Workspace, check_source


def test_old_trees_are_freed() -> None:
    from .test_incremental import TWO_CLASSES

    workspace = Workspace()
    check_source(TWO_CLASSES, "two.py", workspace=workspace)
    module = workspace.get("two.py")
    assert module is not None and module.tree is not None
    old = [weakref.ref(stmt) for stmt in module.tree.body]
    del module
    edited = TWO_CLASSES.replace("return x\n", "return x + 1\n")  # every block with a return
    check_source(edited, "two.py", workspace=workspace)
    gc.collect()
    module = workspace.get("two.py")
    assert module is not None and module.tree is not None
    kept = {id(stmt) for stmt in module.tree.body}
    dropped = [ref for ref in old if ref() is None or id(ref()) not in kept]
    assert dropped and all(ref() is None for ref in dropped)  # edited blocks: not kept alive
    del module
    workspace = Workspace()
    gc.collect()
    assert all(ref() is None for ref in old)


LOOP = """\
import mindspore as ms


@ms.jit
def step(x):
    return x * 2


def train():
    for i in range(3):
        step(i)
"""


def test_the_module_rules_keep_nothing_after_the_check() -> None:
    workspace = Workspace()
    found = check_source(LOOP, "loop.py", workspace=workspace)
    assert any(f.code == "MS501" for f in found)  # the analysis of call sites ran
    module = workspace.get("loop.py")
    assert module is not None and module.tree is not None
    old = [weakref.ref(stmt) for stmt in module.tree.body]
    del module
    workspace = Workspace()
    gc.collect()
    assert all(ref() is None for ref in old)
