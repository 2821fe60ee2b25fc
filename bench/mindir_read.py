"""Reading a big `.mindir` into a graph document: this reader against an earlier one (issue 18).

Usage: .venv/bin/python bench/mindir_read.py [--sizes stack10k,stack50k] [--peer-rev REV]
       [--peer-sizes stack10k,stack50k]

Reads `~/.cache/mindscope/bench/<size>.mindir` (stack10k from bench/graph_models.py, stack50k
from bench/compose_mindir.py) with `read_mindir_document`, each read in a fresh process, and
prints wall and CPU seconds and peak RSS for this worktree's runtime and, in the same run, for
the runtime at `--peer-rev` (default: the reader before the candidate trie, whose
flow re-homing scored every Cell instance for every op), extracted with `git archive`. The
documents must be the same, node for node and edge for edge (compared by digest, without
`createdAt` / `parseSeconds`). The machine is shared: compare the CPU seconds and the ratio of
one run, not wall times across runs. The peer's 50k read takes minutes.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CACHE = Path.home() / ".cache" / "mindscope" / "bench"
PEER_REV = "9b89dc7"  # the last commit whose mindir read was quadratic in Cell instances

CHILD = r"""
import hashlib, json, resource, sys, time
from pathlib import Path
from mindscope_runtime.mindirdoc import read_mindir_document
started, cpu = time.perf_counter(), time.process_time()
doc = read_mindir_document(Path(sys.argv[1]))
wall, cpu = time.perf_counter() - started, time.process_time() - cpu
for key in ("createdAt", "parseSeconds"):
    doc["meta"].pop(key, None)
digest = hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:16]
print(json.dumps({"wall": wall, "cpu": cpu, "rssMb": resource.getrusage(
    resource.RUSAGE_SELF).ru_maxrss / 1024, "digest": digest, **doc["meta"]["counts"]}))
"""


def peer_runtime(rev: str, into: Path) -> Path:
    """The `runtime/` folder of `rev`, extracted under `into`."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", rev, "runtime"], check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / "runtime"


def read(runtime: Path, model: Path) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(runtime)}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(model)],
        env=env, cwd=tempfile.gettempdir(), capture_output=True, text=True,
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"mindir_read: reading {model.name} failed:\n{done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def row(label: str, result: dict[str, Any]) -> str:
    return (f"  {label:<26} {result['wall']:8.2f} s wall {result['cpu']:8.2f} s CPU "
            f"{result['rssMb']:7.0f} MB RSS  ({result['computeOps']:,} ops, "
            f"{result['edges']:,} edges, digest {result['digest']})")  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="stack10k,stack50k")
    parser.add_argument("--peer-rev", default=PEER_REV)
    parser.add_argument("--peer-sizes", default=None, help="default: all of --sizes")
    args = parser.parse_args()
    sizes = args.sizes.split(",")
    peer_arg = args.sizes if args.peer_sizes is None else args.peer_sizes
    peer_sizes = set(peer_arg.split(",")) - {""}
    missing = [s for s in sizes if not (CACHE / f"{s}.mindir").is_file()]
    if missing:
        raise SystemExit(
            f"mindir_read: no {', '.join(missing)} in {CACHE}: run bench/graph_models.py "
            "(stack10k) and bench/compose_mindir.py (stack50k)"
        )
    print(
        f"mindir read, this worktree vs runtime at {args.peer_rev} (each read in a fresh process)"
    )
    with tempfile.TemporaryDirectory() as tmp:
        peer = peer_runtime(args.peer_rev, Path(tmp)) if peer_sizes else None
        for size in sizes:
            model = CACHE / f"{size}.mindir"
            print(f"{size} ({model.stat().st_size / 1e6:.1f} MB):")
            mine = read(ROOT / "runtime", model)
            print(row("this reader", mine))
            if peer is None or size not in peer_sizes:
                continue
            theirs = read(peer, model)
            print(row(f"reader at {args.peer_rev}", theirs))
            same = "same document" if mine["digest"] == theirs["digest"] else "DOCUMENTS DIFFER"
            print(f"  ratio {args.peer_rev} / this: {theirs['wall'] / mine['wall']:.1f}x wall, "
                  f"{theirs['cpu'] / mine['cpu']:.1f}x CPU, "
                  f"{theirs['rssMb'] / mine['rssMb']:.2f}x RSS; {same}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
