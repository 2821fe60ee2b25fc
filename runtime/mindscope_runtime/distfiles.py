"""Find each rank's Profiler output under one shared directory (pure file-system reads).

msrun ranks that share a Profiler `output_path` each write `<host>_<pid>_<ts>_ascend_ms/`;
on CPU the rank is only in the file names (`FRAMEWORK/cpu_op_detail_info_<rank>.csv`), there
are no `rank_N` folders. `profile-dist`'s bootstrap adds `mindscope_steps_<rank>.json` (step
intervals). Ascend writes `profiler_info_<rank>.json` and `ascend_mindspore_profiler_<rank>.db`,
which are recognised and reported, not read.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from mindscope_runtime.profparse import ProfilerFiles

JsonDict = dict[str, Any]

_CPU_DETAIL = re.compile(r"^cpu_op_detail_info_(\d+)\.csv$")
_ASCEND = re.compile(r"^(?:profiler_info_(\d+)\.json|ascend_mindspore_profiler_(\d+)\.db)$")
STEPS_FILE = re.compile(r"^mindscope_steps_(\d+)\.json$")


@dataclass(frozen=True)
class RankOutput:
    rank: int
    files: ProfilerFiles
    steps: Optional[JsonDict] = None  # the bootstrap's record: marks, host, pid, mode…


@dataclass
class JobOutput:
    ranks: list[RankOutput] = field(default_factory=list)
    unreadable: list[JsonDict] = field(default_factory=list)  # {"rank", "file", "message"}


def find_rank_outputs(root: Path) -> JobOutput:
    """Every rank's newest CPU output under `root`; Ascend-only ranks in `unreadable`."""
    newest: dict[int, Path] = {}
    for detail in root.rglob("cpu_op_detail_info_*.csv"):
        match = _CPU_DETAIL.match(detail.name)
        if not match or detail.parent.name != "FRAMEWORK":
            continue
        rank = int(match.group(1))
        if rank not in newest or detail.stat().st_mtime > newest[rank].stat().st_mtime:
            newest[rank] = detail
    steps = _steps_records(root)
    job = JobOutput()
    for rank in sorted(newest):
        job.ranks.append(RankOutput(rank, rank_files(newest[rank], rank), steps.get(rank)))
    job.unreadable = _ascend_only(root, set(newest))
    return job


def rank_files(detail: Path, rank: int) -> ProfilerFiles:
    framework = detail.parent
    run_dir = framework.parent

    def named(name: str, folder: Path) -> Optional[Path]:
        path = folder / name
        return path if path.is_file() else None

    return ProfilerFiles(
        run_dir=run_dir,
        op_detail=detail,
        op_type=named(f"cpu_op_type_info_{rank}.csv", framework),
        timestamps=named(f"cpu_op_execute_timestamp_{rank}.txt", framework),
        trace_view=named("trace_view.json", run_dir / "ASCEND_PROFILER_OUTPUT"),
        memory=named(f"cpu_ms_memory_record_{rank}.txt", framework),
    )


def _steps_records(root: Path) -> dict[int, JsonDict]:
    out: dict[int, JsonDict] = {}
    for path in root.rglob("mindscope_steps_*.json"):  # several machines: one folder each
        match = STEPS_FILE.match(path.name)
        if not match:
            continue
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue  # a rank that died while writing it: merged without step marks
        if isinstance(record, dict) and isinstance(record.get("marks"), list):
            out[int(match.group(1))] = record
    return out


def _ascend_only(root: Path, readable: set[int]) -> list[JsonDict]:
    found: dict[int, list[str]] = {}
    for path in root.rglob("*"):
        match = _ASCEND.match(path.name)
        if match:
            rank = int(match.group(1) or match.group(2))
            found.setdefault(rank, []).append(str(path.relative_to(root)))
    return [
        {"rank": rank, "file": sorted(files)[0], "message": ascend_message(rank, files)}
        for rank, files in sorted(found.items())
        if rank not in readable
    ]


def ascend_message(rank: int, files: list[str]) -> str:
    names = ", ".join(sorted(Path(f).name for f in files))
    return (
        f"rank {rank}: Ascend profiler output ({names}) is not read by MindScope, which reads "
        "the CPU FRAMEWORK/cpu_op_* files; open it in MindStudio Insight"
    )
