"""Completion in a 100,000-line file: MindScope against plain jedi, same file, same run.

usage: python bench/large_file.py [--lines 100000] [--edits 5] [--baseline OTHER/pyserver]

Each server (over stdio) opens the generated model file, then per edit: a line typed at the
end of the last `construct` (one incremental didChange), a completion at its `.`, and the line
deleted again. The first row is the first completion after opening (the issue: ~30 s), the
others show whether edits slow it down (the issue: 3.1 -> 20.7 s over five). The peer is
bench_completion.py's minimal pygls server answering with jedi alone.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "pyserver"), str(ROOT)]

from bench.bench_completion import Client  # noqa: E402
from bench.lsp_latency import model_source  # noqa: E402

PROBES = ("        self.", "        x.")


def measure(command: list[str], path: Path, edits: int) -> dict[str, list[float]]:
    client = Client(command)
    client.request(
        "initialize",
        {
            "processId": os.getpid(),
            "rootUri": path.parent.as_uri(),
            "capabilities": {},
            "initializationOptions": {"warmUp": False},
        },
    )
    client.send("initialized", {}, request=False)
    text = path.read_text()
    uri = path.as_uri()
    doc = {"uri": uri, "languageId": "python", "version": 1, "text": text}
    client.send("textDocument/didOpen", {"textDocument": doc}, request=False)
    lines = text.splitlines()
    site = max(i for i, line in enumerate(lines) if line.startswith("    def construct(")) + 1
    times: dict[str, list[float]] = {probe.strip(): [] for probe in PROBES}
    version = 1
    for _ in range(edits):
        for probe in PROBES:
            version += 1
            at = {"line": site, "character": 0}
            _change(client, uri, version, {"start": at, "end": at}, probe + "\n")
            start = time.perf_counter()
            client.request(
                "textDocument/completion",
                {"textDocument": {"uri": uri}, "position": {"line": site, "character": len(probe)}},
            )
            times[probe.strip()].append(time.perf_counter() - start)
            version += 1
            below = {"line": site + 1, "character": 0}
            _change(client, uri, version, {"start": at, "end": below}, "")
    client.close()
    return times


def _change(client: Client, uri: str, version: int, where: dict[str, Any], text: str) -> None:
    client.send(
        "textDocument/didChange",
        {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": where, "text": text}],
        },
        request=False,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--edits", type=int, default=5)
    parser.add_argument("--baseline", help="the pyserver folder of another checkout, run too")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="large-file-") as folder:
        path = Path(folder) / "model.py"
        path.write_text(model_source(args.lines))
        size = path.stat().st_size / 1e6
        print(f"{path.read_text().count(chr(10))} lines ({size:.1f} MB), {args.edits} edits")
        servers = {
            "mindscope": [sys.executable, "-m", "mindscope_ls"],
            "jedi": [sys.executable, str(ROOT / "bench" / "bench_completion.py"), "--serve-jedi"],
        }
        if args.baseline:  # before/after: another checkout's server, first
            base = ["env", f"PYTHONPATH={args.baseline}", *servers["mindscope"]]
            servers = {"baseline": base, **servers}
        results = {name: measure(command, path, args.edits) for name, command in servers.items()}
    print(f"{'probe':<7} {'server':<10} {'first s':>8} {'then p50':>9} {'last s':>7}  each (s)")
    for probe in (p.strip() for p in PROBES):
        for name, times in results.items():
            row = times[probe]
            rest = statistics.median(row[1:]) if len(row) > 1 else row[0]
            each = " ".join(f"{t:.2f}" for t in row)
            print(f"{probe:<7} {name:<10} {row[0]:8.2f} {rest:9.2f} {row[-1]:7.2f}  {each}")
        ours, peer = results["mindscope"][probe], results["jedi"][probe]
        print(
            f"{probe:<7} ratio jedi / mindscope: first {peer[0] / ours[0]:.1f}x, "
            f"then {statistics.median(peer) / statistics.median(ours):.1f}x"
        )


if __name__ == "__main__":
    main()
