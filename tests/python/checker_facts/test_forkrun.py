"""The fork-compile module the facts worker and the corpus runner share
(scripts/checker_facts/forkrun.py): its pure parts and the fork, without MindSpore."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from scripts.checker_facts.forkrun import failure, in_fork, load_program, named_lines

# MindSpore 2.10's traceback of a `try` in a construct (trimmed), with the program's own path.
MESSAGE = """Unsupported statement 'Try'.
- The Traceback of Net Construct Code:
# In file {path}:10~11, 8~20
        try:
# 0 In file {path}:12, 4~9
# 1 In file /venv/lib/python3.11/site-packages/mindspore/nn/cell.py:99, 4~9
# In file {path}:10
"""


def test_named_lines_are_the_programs_own_in_order_once(tmp_path: Path) -> None:
    program = tmp_path / "case.py"
    program.write_text("x = 1\n")
    message = MESSAGE.format(path=program)
    assert named_lines(message, str(program)) == [10, 12]
    # The same file through a symlink is the same file.
    link = tmp_path / "link.py"
    link.symlink_to(program)
    assert named_lines(MESSAGE.format(path=link), str(program)) == [10, 12]
    assert named_lines(message, str(tmp_path / "other.py")) == []


def test_failure_keeps_the_type_a_bounded_message_and_the_lines(tmp_path: Path) -> None:
    program = tmp_path / "case.py"
    error = RuntimeError(MESSAGE.format(path=program))
    result = failure(error, str(program), 20)
    assert result == {
        "ok": False,
        "type": "RuntimeError",
        "msg": "Unsupported statemen",
        "lines": [10, 12],
    }


def test_load_program_registers_the_module(tmp_path: Path) -> None:
    program = tmp_path / "case.py"
    program.write_text("def run():\n    return 42\n")
    module = load_program(str(program), "forkrun_test_program")
    assert module.run() == 42
    assert sys.modules["forkrun_test_program"] is module


def _value() -> dict[str, Any]:
    return {"ok": True, "pid": os.getpid()}


def _raises() -> dict[str, Any]:
    raise ValueError("x" * 50)


def _dies() -> dict[str, Any]:
    os._exit(3)


def _unrenderable() -> dict[str, Any]:
    return {"ok": True, "value": object()}


def _sleeps() -> dict[str, Any]:
    import time

    time.sleep(30)
    return {"ok": True}


def test_in_fork_runs_in_a_child_and_reads_what_it_says() -> None:
    result = in_fork(_value, 30, 100)
    assert result["ok"] and result["pid"] != os.getpid()
    assert in_fork(_raises, 30, 10) == {"ok": False, "type": "ValueError", "msg": "x" * 10}
    assert in_fork(_unrenderable, 30, 100) == {"ok": True, "value": {"object": "unrenderable"}}


def test_a_child_that_dies_or_hits_the_alarm_is_a_crash() -> None:
    died = in_fork(_dies, 30, 100)
    assert (died["type"], died["lines"]) == ("Crash", [])
    assert died["msg"] == f"child died (wait status {3 << 8})"
    alarm = in_fork(_sleeps, 1, 100)
    assert alarm["type"] == "Crash" and "wait status 14" in alarm["msg"]  # SIGALRM
