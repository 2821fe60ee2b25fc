"""The Cell instance of each op of a graph-mode compile, from its IR dump (for `profile`).

The Profiler names ops as MindSpore does, and those names can put an op in another instance
of its Cell (see sharedscopes.py); the executed IR of the same compile says which instance
ran it, by the same full name.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Optional

from mindscope_runtime.graphdoc import build_graph_document
from mindscope_runtime.interrupts import temp_dir
from mindscope_runtime.irparse import find_execute_ir, parse_ir_file
from mindscope_runtime.msenv import IR_DUMP_FLAG, IR_DUMP_PATH, env_vars
from mindscope_runtime.scopes import CellInfo


@contextmanager
def ir_dump(enabled: bool) -> Iterator[Optional[Path]]:
    """A temporary folder that compiles inside the block dump their IR into (None: off).
    MindSpore reads the switch at a process's first compile only: without `enable_ir_dump`
    before that, the folder stays empty."""
    if not enabled:
        yield None
        return
    with temp_dir("mindscope-ir-") as folder, env_vars(**{IR_DUMP_FLAG: "1", IR_DUMP_PATH: folder}):
        yield Path(folder)


def scopes_by_name(folder: Optional[Path], cells: list[CellInfo]) -> Optional[dict[str, str]]:
    """Full name → scope of every compute op of the executed IR in `folder`; None without one."""
    ir_file = find_execute_ir(folder) if folder is not None else None
    if ir_file is None:
        return None
    document = build_graph_document(parse_ir_file(ir_file), meta={}, cells=cells)
    return {n["fullName"]: n["scope"] for n in document["nodes"] if n["category"] == "compute"}
