"""LSP latency and memory: MindScope against jedi-language-server, same files, same run.

usage: python bench/lsp_latency.py [--repeat 20] [--sizes 600,3000] [--only mindscope]
       [--baseline OTHER_CHECKOUT/pyserver [--baseline-last]] [--trace FOLDER]
       [--idle-first SECONDS]

A real LSP client (pytest-lsp's, with VS Code's recorded client capabilities) starts each
server over stdio, opens a generated MindSpore model file and types as a user does: each
request follows a line typed one character at a time (one incremental didChange per
keystroke) at a `construct` method that changes from one request to the next, and the line
is deleted afterwards. Completion is asked at the trigger `.` after `nn.`, `ops.`, a Tensor
`x.` (an unannotated `construct` argument) and `self.`; hover on an API name in the file
after a keystroke. Per row: the first request (the very first one after start-up is `cold`),
warm p50/p95 and the item count; per server: the peak RSS of the process tree (the sum of
each process's VmHWM, sampled while it runs, so helpers that exit are counted too).

Two clocks per request, both started when the request is sent (after its keystrokes):
`recv`, when the response's bytes arrive, and `total`, when this Python client has decoded
them into lsprotocol objects. VS Code decodes JSON natively (~1 ms for the ~190 KB of `ops.`);
this client builds a Python object per item (tens of ms for `ops.`'s ~1,500 on a busy
machine), the same for every server.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities
from pytest_lsp.client import make_test_lsp_client

BIN = Path(sys.executable).parent
SERVERS = {
    "mindscope": [sys.executable, "-m", "mindscope_ls"],
    "jedi-ls": [str(BIN / "jedi-language-server")],
}
TIMEOUT = 300.0

HEADER = '''"""Generated model zoo for the latency benchmark."""

import math

import numpy as np
import mindspore as ms
import mindspore.dataset as ds
import mindspore.dataset.vision as vision
from mindspore import Parameter, Tensor, nn, ops
from mindspore.common.initializer import Normal, initializer
'''

BLOCKS = [
    '''

class ConvBlock{n}(nn.Cell):
    """conv-bn-relu with an optional pooling step."""

    def __init__(self, in_channels: int = {c}, out_channels: int = {c2}, pool: bool = True):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, 3, pad_mode="pad", padding=1)
        self.bn = nn.BatchNorm2d(out_channels)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2) if pool else None

    def construct(self, x):
        x = self.relu(self.bn(self.conv(x)))
        if self.pool is not None:
            x = self.pool(x)
        return x
''',
    '''

class Residual{n}(nn.Cell):
    """Two 3x3 convolutions and a projected shortcut."""

    def __init__(self, channels: int = {c}, stride: int = 1):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, stride=stride, has_bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, has_bias=False)
        self.bn2 = nn.BatchNorm2d(channels)
        self.relu = nn.ReLU()
        self.down = nn.SequentialCell(
            nn.Conv2d(channels, channels, 1, stride=stride), nn.BatchNorm2d(channels)
        )

    def construct(self, x):
        identity = self.down(x)
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out = ops.add(out, identity)
        return self.relu(out)
''',
    '''

class Attention{n}(nn.Cell):
    """Multi-head self-attention written out with ops."""

    def __init__(self, dim: int = {c2}, heads: int = 8, dropout: float = 0.1):
        super().__init__()
        self.heads = heads
        self.scale = 1.0 / math.sqrt(dim // heads)
        self.qkv = nn.Dense(dim, dim * 3)
        self.proj = nn.Dense(dim, dim)
        self.softmax = nn.Softmax(axis=-1)
        self.drop = nn.Dropout(p=dropout)
        self.transpose = ops.Transpose()

    def construct(self, x, mask=None):
        b, n, d = x.shape
        qkv = self.qkv(x).reshape(b, n, 3, self.heads, d // self.heads)
        qkv = self.transpose(qkv, (2, 0, 3, 1, 4))
        q, k, v = qkv[0], qkv[1], qkv[2]
        scores = ops.matmul(q, k.swapaxes(-1, -2)) * self.scale
        if mask is not None:
            scores = ops.masked_fill(scores, mask, -1e9)
        attn = self.drop(self.softmax(scores))
        out = ops.matmul(attn, v).swapaxes(1, 2).reshape(b, n, d)
        return self.proj(out)
''',
    '''

class FeedForward{n}(nn.Cell):
    """Position-wise MLP with GELU."""

    def __init__(self, dim: int = {c2}, hidden: int = {c3}):
        super().__init__()
        self.fc1 = nn.Dense(dim, hidden)
        self.act = nn.GELU()
        self.fc2 = nn.Dense(hidden, dim)
        self.norm = nn.LayerNorm((dim,))

    def construct(self, x):
        h = self.fc2(self.act(self.fc1(self.norm(x))))
        return x + h


class EncoderLayer{n}(nn.Cell):
    def __init__(self, dim: int = {c2}):
        super().__init__()
        self.norm = nn.LayerNorm((dim,))
        self.attn = Attention{n}(dim)
        self.ffn = FeedForward{n}(dim)

    def construct(self, x):
        x = x + self.attn(self.norm(x))
        return self.ffn(x)
''',
    '''

class Classifier{n}(nn.Cell):
    """Backbone, global pooling and a linear head."""

    def __init__(self, num_classes: int = 10):
        super().__init__()
        self.stem = ConvBlock{n}(3, {c})
        self.body = nn.SequentialCell([Residual{n}({c}) for _ in range(2)])
        self.pool = ops.ReduceMean(keep_dims=False)
        self.flatten = nn.Flatten()
        self.head = nn.Dense({c}, num_classes)
        self.temperature = Parameter(Tensor(np.ones(1), ms.float32), name="t{n}")
        self.weight = Parameter(initializer(Normal(0.02), [{c}, {c}], ms.float32), name="w{n}")

    def construct(self, x):
        x = self.body(self.stem(x))
        x = self.pool(x, (2, 3))
        logits = self.head(self.flatten(x))
        return logits / self.temperature


def create_dataset{n}(path: str, batch_size: int = 32, train: bool = True):
    data = ds.Cifar10Dataset(path, shuffle=train)
    ops_list = [vision.Rescale(1.0 / 255.0, 0.0), vision.HWC2CHW()]
    if train:
        ops_list = [vision.RandomCrop((32, 32), (4, 4, 4, 4)), vision.RandomHorizontalFlip()]
    data = data.map(operations=ops_list, input_columns="image")
    return data.batch(batch_size, drop_remainder=True)


def train{n}(path: str, epochs: int = 1):
    net = Classifier{n}()
    loss_fn = nn.CrossEntropyLoss()
    optimizer = nn.Adam(net.trainable_params(), learning_rate=1e-3)

    def forward(data, label):
        logits = net(data)
        return loss_fn(logits, label), logits

    grad_fn = ms.value_and_grad(forward, None, optimizer.parameters, has_aux=True)

    @ms.jit
    def step(data, label):
        (loss, _), grads = grad_fn(data, label)
        optimizer(grads)
        return loss

    for epoch in range(epochs):
        for data, label in create_dataset{n}(path).create_tuple_iterator():
            loss = step(data, label)
        print(f"epoch {{epoch}}: loss {{loss.asnumpy():.4f}}")
''',
]


def model_source(lines: int) -> str:
    """Realistic MindSpore model code, about `lines` long (whole blocks)."""
    parts, n = [HEADER], 0
    while sum(p.count("\n") for p in parts) < lines:
        c = 16 * (1 + n % 4)
        for block in BLOCKS:
            parts.append(block.format(n=n, c=c, c2=c * 4, c3=c * 16))
        n += 1
    return "".join(parts)


def construct_sites(text: str) -> list[int]:
    """0-based lines of the first statement of each `construct`: where probes are typed."""
    lines = text.splitlines()
    return [i + 1 for i, line in enumerate(lines) if line.startswith("    def construct(")]


def hover_sites(text: str) -> list[types.Position]:
    """Positions inside `ops.<name>` / `nn.<name>` in the file, one per distinct line kind."""
    found: dict[str, types.Position] = {}
    for number, line in enumerate(text.splitlines()):
        for module in ("ops.", "nn.", "vision."):
            at = line.find(f" {module}") + 1 or line.find(f"({module}") + 1
            if at > 0:
                name_at = at + len(module) + 1
                key = line[at : line.find("(", at)]
                found.setdefault(key, types.Position(line=number, character=name_at))
    return list(found.values())


@dataclass
class Row:
    first: float = 0.0
    first_recv: float = 0.0
    warm: list[float] = field(default_factory=list)
    warm_recv: list[float] = field(default_factory=list)
    items: int = 0


@dataclass
class Result:
    startup: float = 0.0
    rows: dict[str, Row] = field(default_factory=dict)
    rss_mb: float = 0.0
    cold: float = 0.0  # the first request after start-up
    cold_recv: float = 0.0


_RESPONSE_ID = re.compile(rb'"id":\s*"([^"]*)"')
_PROBED = ("textDocument/completion", "textDocument/hover")


class Arrivals:
    """When each probed response's bytes arrived, before the client decodes them (the hooks
    sit on the client's outgoing messages and on the stream its reader reads)."""

    def __init__(self, client: LanguageClient) -> None:
        self.last_id = ""
        self.arrived: dict[str, float] = {}
        assert client._server is not None and client._server.stdout is not None
        stream = client._server.stdout
        read, send = stream.readexactly, client.protocol._send_data

        async def readexactly(n: int) -> bytes:
            body = await read(n)
            found = _RESPONSE_ID.search(body, 0, 400)
            if found:
                self.arrived[found.group(1).decode()] = time.perf_counter()
            return body

        def send_data(data: object) -> None:
            if getattr(data, "method", None) in _PROBED:
                self.last_id = str(getattr(data, "id", ""))
            send(data)

        stream.readexactly = readexactly  # type: ignore[method-assign]
        client.protocol._send_data = send_data  # type: ignore[method-assign]

    def since(self, start: float) -> float:
        """Seconds from `start` to the arrival of the latest probed request's response."""
        return self.arrived.pop(self.last_id, time.perf_counter()) - start


class Session:
    """One server, one open document, and the keystrokes typed into it."""

    def __init__(self, client: LanguageClient, uri: str, text: str) -> None:
        self.client, self.uri, self.text, self.version = client, uri, text, 1
        self.arrivals = Arrivals(client)

    def _change(self, change: types.TextDocumentContentChangeEvent) -> None:
        self.version += 1
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(
                    uri=self.uri, version=self.version
                ),
                content_changes=[change],
            )
        )

    def type_line(self, line: int, text: str) -> None:
        """Insert an empty line, then type `text` into it one character at a time."""
        at = types.Position(line=line, character=0)
        self._change(
            types.TextDocumentContentChangePartial(range=types.Range(start=at, end=at), text="\n")
        )
        for column, char in enumerate(text):
            pos = types.Position(line=line, character=column)
            self._change(
                types.TextDocumentContentChangePartial(
                    range=types.Range(start=pos, end=pos), text=char
                )
            )

    def delete_line(self, line: int) -> None:
        self._change(
            types.TextDocumentContentChangePartial(
                range=types.Range(
                    start=types.Position(line=line, character=0),
                    end=types.Position(line=line + 1, character=0),
                ),
                text="",
            )
        )

    def ident(self) -> types.TextDocumentIdentifier:
        return types.TextDocumentIdentifier(uri=self.uri)


COMPLETIONS = {
    "nn.": "        layer = nn.",
    "ops.": "        y = ops.",
    "Tensor x.": "        y = x.",
    "self.": "        y = self.",
}


Probe = tuple[float, float, int]  # total and recv seconds, items


async def _completion_probe(session: Session, site: int, probe: str) -> Probe:
    session.type_line(site, probe)
    start = time.perf_counter()
    result = await asyncio.wait_for(
        session.client.text_document_completion_async(
            types.CompletionParams(
                text_document=session.ident(),
                position=types.Position(line=site, character=len(probe)),
                context=types.CompletionContext(
                    trigger_kind=types.CompletionTriggerKind.TriggerCharacter,
                    trigger_character=".",
                ),
            )
        ),
        TIMEOUT,
    )
    elapsed = time.perf_counter() - start
    session.delete_line(site)
    items = result.items if isinstance(result, types.CompletionList) else result or []
    return elapsed, session.arrivals.since(start), len(items)


async def _hover_probe(session: Session, site: int, at: types.Position) -> Probe:
    session.type_line(site, "        # ")  # a keystroke or two elsewhere, then a hover
    shifted = types.Position(line=at.line + (at.line >= site), character=at.character)
    start = time.perf_counter()
    result = await asyncio.wait_for(
        session.client.text_document_hover_async(
            types.HoverParams(text_document=session.ident(), position=shifted)
        ),
        TIMEOUT,
    )
    elapsed = time.perf_counter() - start
    session.delete_line(site)
    return elapsed, session.arrivals.since(start), int(result is not None)


def _tree(pid: int) -> list[int]:
    pids = [pid]
    for child in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError):
            pids.extend(p for text in child.read_text().split() for p in _tree(int(text)))
    return pids


def _hwm_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


async def _sample_rss(pid: int, peaks: dict[int, int], stop: asyncio.Event) -> None:
    while not stop.is_set():
        for child in _tree(pid):
            peaks[child] = max(peaks.get(child, 0), _hwm_kb(child))
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.05)


async def measure(
    command: list[str],
    path: Path,
    repeat: int,
    env: Optional[dict[str, str]] = None,
    idle: float = 0.0,
) -> Result:
    # The servers measured earlier left objects in this client: without this, its collections
    # while decoding (`total`) grew slower for each server measured after them (the second of
    # two identical servers measured its first `ops.` at ~135 ms against ~50).
    gc.collect()
    gc.freeze()
    text = path.read_text()
    result = Result()
    client = make_test_lsp_client()

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)  # type: ignore[untyped-decorator]
    def on_register(params: types.RegistrationParams) -> None:
        """Accepts what a server registers (file watchers), as VS Code does."""

    await client.start_io(*command, env=env)
    assert client._server is not None
    peaks: dict[int, int] = {}
    stop = asyncio.Event()
    sampler = asyncio.create_task(_sample_rss(client._server.pid, peaks, stop))
    start = time.perf_counter()
    await client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            root_uri=path.parent.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=path.parent.as_uri(), name="bench")],
        )
    )
    result.startup = time.perf_counter() - start
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=path.as_uri(), language_id="python", version=1, text=text
            )
        )
    )
    session = Session(client, path.as_uri(), text)
    # The user reads a while before typing: the server's background work (warm-up, index,
    # checks) runs meanwhile, and the peak RSS then counts all of it.
    await asyncio.sleep(idle)
    sites, hovers = construct_sites(text), hover_sites(text)

    def completion(probe: str) -> Callable[[int], Awaitable[Probe]]:
        return lambda i: _completion_probe(session, sites[i % len(sites)], probe)

    def hover(i: int) -> Awaitable[Probe]:
        return _hover_probe(session, sites[(i + 1) % len(sites)], hovers[i % len(hovers)])

    probes = {name: completion(probe) for name, probe in COMPLETIONS.items()}
    probes["hover"] = hover
    for name, probe in probes.items():
        row = result.rows[name] = Row()
        for i in range(repeat + 1):
            elapsed, recv, row.items = await probe(i)
            if i == 0:
                row.first, row.first_recv = elapsed, recv
                if not result.cold:
                    result.cold, result.cold_recv = elapsed, recv
            else:
                row.warm.append(elapsed)
                row.warm_recv.append(recv)
        print(f"  {path.name} {command[-1]} {name}: first {row.first * 1e3:.0f} ms", flush=True)
    stop.set()
    await sampler
    result.rss_mb = sum(peaks.values()) / 1024
    await client.shutdown_session()
    return result


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def report(lines: int, results: dict[str, Result]) -> None:
    print(f"\n== {lines}-line model file (ms; recv: response received, total: and decoded) ==")
    print(
        f"{'request':<10} {'server':<10} {'first':>7} {'recv':>7} {'recv p50':>9} "
        f"{'recv p95':>9} {'p50':>7} {'p95':>7} {'items':>6}"
    )
    names = next(iter(results.values())).rows
    for name in names:
        for server, res in results.items():
            row = res.rows[name]
            print(
                f"{name:<10} {server:<10} {row.first * 1e3:7.1f} {row.first_recv * 1e3:7.1f} "
                f"{statistics.median(row.warm_recv) * 1e3:9.1f} {_p95(row.warm_recv) * 1e3:9.1f} "
                f"{statistics.median(row.warm) * 1e3:7.1f} {_p95(row.warm) * 1e3:7.1f} "
                f"{row.items:6d}"
            )
    for server, res in results.items():
        print(
            f"{server:<10} start-up {res.startup * 1e3:7.0f} ms, cold first request "
            f"{res.cold * 1e3:8.1f} ms (recv {res.cold_recv * 1e3:.1f}), "
            f"peak RSS (tree) {res.rss_mb:6.0f} MB"
        )
    ours, peer = results.get("mindscope"), results.get("jedi-ls")
    if ours and peer:
        print(f"cold ratio jedi-ls / mindscope: {peer.cold / ours.cold:.0f}x")


def _env(base: dict[str, str], trace: Optional[str], name: str) -> dict[str, str]:
    """`base`, with MINDSCOPE_TRACE naming this server's file in the `trace` folder."""
    return {**base, "MINDSCOPE_TRACE": str(Path(trace) / f"{name}.jsonl")} if trace else base


async def run(
    sizes: list[int],
    repeat: int,
    only: Optional[str],
    baseline: Optional[str] = None,
    trace: Optional[str] = None,
    baseline_last: bool = False,
    idle: float = 0.0,
) -> None:
    print(f"{repeat} warm requests per row; python {sys.version.split()[0]}, pid {os.getpid()}")
    with tempfile.TemporaryDirectory(prefix="lsp-latency-") as folder:
        for lines in sizes:
            path = Path(folder) / f"model_{lines}.py"
            path.write_text(model_source(lines))
            runs = [
                (server, command, _env(dict(os.environ), trace, f"{server}-{lines}"))
                for server, command in SERVERS.items()
                if only is None or only == server
            ]
            if baseline:
                # Another checkout's server (its `pyserver` folder), for before/after; first
                # unless `baseline_last` (run both orders: the order still shows a little).
                env = _env({**os.environ, "PYTHONPATH": baseline}, trace, f"baseline-{lines}")
                at = len(runs) if baseline_last else 0
                runs.insert(at, ("baseline", SERVERS["mindscope"], env))
            measured = {
                name: await measure(cmd, path, repeat, env, idle) for name, cmd, env in runs
            }
            shown = ["baseline", *SERVERS]
            results = {name: measured[name] for name in shown if name in measured}
            report(len(path.read_text().splitlines()), results)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--sizes", default="600,3000")
    parser.add_argument("--only", choices=list(SERVERS))
    parser.add_argument("--baseline", help="the pyserver folder of another checkout, run too")
    parser.add_argument("--baseline-last", action="store_true", help="measure it after the rest")
    parser.add_argument(
        "--idle-first", type=float, default=0.0, help="seconds between opening and typing"
    )
    parser.add_argument(
        "--trace", help="a folder: each server writes its MINDSCOPE_TRACE there (tracing.md)"
    )
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.trace:
        Path(args.trace).mkdir(parents=True, exist_ok=True)
    options = (args.baseline, args.trace, args.baseline_last, args.idle_first)
    asyncio.run(run(sizes, args.repeat, args.only, *options))


if __name__ == "__main__":
    main()
