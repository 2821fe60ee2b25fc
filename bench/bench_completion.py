"""Completion latency and memory: MindScope against plain jedi, through one LSP client.

usage: python bench/bench_completion.py [--repeat 10]

Both servers run in this interpreter (with MindSpore installed) over stdio. The peer is a
minimal pygls server that answers completion with jedi alone (`--serve-jedi`): the engine
that jedi-language-server and pylsp use (neither is installed here). Each request follows an
edit of the document, as when a user types; figures are per position: cold (first request
after start-up), warm median/max, and the server's peak RSS including child processes.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Optional

REPO = Path(__file__).resolve().parents[1]
MODEL = (REPO / "examples" / "cifar_resnet" / "model.py").read_text()
PROBES = {  # name -> line that is typed at the end of ResNet.construct
    "nn.": "        nn.",
    "ops.": "        ops.",
    "Tensor x.": "        x.",
    "self.": "        self.",
}


def model_file(lines: int = 580) -> str:
    """The example ResNet, its classes repeated under new names until ~`lines` long."""
    head, body = MODEL.split("\n\n\n", 1)
    parts, n = [head], 0
    while sum(p.count("\n") for p in parts) < lines - 20:
        parts.append(body.replace("BasicBlock", f"BasicBlock{n}").replace("ResNet", f"ResNet{n}"))
        n += 1
    return "\n\n\n".join(parts)


def with_probe(source: str, probe: str) -> tuple[str, int]:
    lines = source.splitlines()
    at = max(i for i, line in enumerate(lines) if "return self.fc(x)" in line)
    lines.insert(at, probe)
    return "\n".join(lines) + "\n", at


class Client:
    def __init__(self, command: list[str]) -> None:
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.next_id = 0

    def send(self, method: str, params: Any, request: bool = True) -> Optional[int]:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self.next_id += 1
            message["id"] = self.next_id
        body = json.dumps(message).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()
        return message.get("id")

    def request(self, method: str, params: Any) -> Any:
        ident = self.send(method, params)
        while True:
            message = self._read()
            if message.get("id") == ident and "method" not in message:
                return message.get("result")

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        length = 0
        while True:
            line = self.proc.stdout.readline()
            if not line.strip():
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        data: dict[str, Any] = json.loads(self.proc.stdout.read(length))
        return data

    def peak_rss_mb(self) -> float:
        return sum(_hwm_kb(pid) for pid in _tree(self.proc.pid)) / 1024

    def close(self) -> None:
        self.request("shutdown", None)
        self.send("exit", None, request=False)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()  # our own child, started above
            self.proc.wait()


def _tree(pid: int) -> list[int]:
    pids = [pid]
    for child in Path(f"/proc/{pid}/task").glob("*/children"):
        for text in child.read_text().split():
            pids.extend(_tree(int(text)))
    return pids


def _hwm_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def measure(command: list[str], source: str, repeat: int) -> dict[str, Any]:
    client = Client(command)
    uri = (REPO / "examples" / "cifar_resnet" / "bench_model.py").as_uri()
    client.request(
        "initialize",
        {
            "processId": os.getpid(),
            "rootUri": (REPO / "examples").as_uri(),
            "capabilities": {},
            "initializationOptions": {"warmUp": False},
        },
    )
    client.send("initialized", {}, request=False)
    text, _ = with_probe(source, "")
    doc = {"uri": uri, "languageId": "python", "version": 1, "text": text}
    client.send("textDocument/didOpen", {"textDocument": doc}, request=False)
    results: dict[str, Any] = {}
    version = 1
    for name, probe in PROBES.items():
        times, count = [], 0
        for _ in range(repeat + 1):
            version += 1
            edited, line = with_probe(source, probe)
            client.send(
                "textDocument/didChange",
                {
                    "textDocument": {"uri": uri, "version": version},
                    "contentChanges": [{"text": edited}],
                },
                request=False,
            )
            start = time.perf_counter()
            result = client.request(
                "textDocument/completion",
                {"textDocument": {"uri": uri}, "position": {"line": line, "character": len(probe)}},
            )
            times.append(time.perf_counter() - start)
            items = result["items"] if isinstance(result, dict) else result or []
            count = len(items)
        results[name] = {"cold": times[0], "warm": times[1:], "items": count}
    results["rss"] = client.peak_rss_mb()
    client.close()
    return results


def serve_jedi() -> None:
    """The peer: completion by jedi alone, nothing else."""
    import jedi
    from lsprotocol import types
    from pygls.lsp.server import LanguageServer

    server = LanguageServer("jedi-only", "0")

    @server.feature(types.TEXT_DOCUMENT_COMPLETION)
    def complete(ls: LanguageServer, params: types.CompletionParams) -> types.CompletionList:
        doc = ls.workspace.get_text_document(params.text_document.uri)
        script = jedi.Script(doc.source, path=doc.path)
        found = script.complete(params.position.line + 1, params.position.character)
        items = [types.CompletionItem(label=c.name) for c in found]
        return types.CompletionList(is_incomplete=False, items=items)

    server.start_io()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--serve-jedi", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_jedi:
        serve_jedi()
        return
    source = model_file()
    print(f"model file: {source.count(chr(10))} lines; {args.repeat} warm requests per position")
    ours = measure([sys.executable, "-m", "mindscope_ls"], source, args.repeat)
    peer = measure([sys.executable, __file__, "--serve-jedi"], source, args.repeat)
    print(
        f"{'position':<10} {'server':<10} {'cold ms':>9} {'warm p50':>9} "
        f"{'warm max':>9} {'items':>6}"
    )
    for name in PROBES:
        for label, res in (("mindscope", ours), ("jedi", peer)):
            row = res[name]
            print(
                f"{name:<10} {label:<10} {row['cold'] * 1000:9.1f} "
                f"{statistics.median(row['warm']) * 1000:9.1f} {max(row['warm']) * 1000:9.1f} "
                f"{row['items']:6d}"
            )
        cold = peer[name]["cold"] / ours[name]["cold"]
        warm = statistics.median(peer[name]["warm"]) / statistics.median(ours[name]["warm"])
        print(f"{'':<10} {'ratio':<10} {cold:8.1f}x {warm:8.1f}x")
    print(
        f"peak RSS (server + children): mindscope {ours['rss']:.0f} MB, jedi {peer['rss']:.0f} MB"
    )


if __name__ == "__main__":
    main()
