"""stats, mindir, profile --train and compile-error mapping through the real CLI (slow)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from mindscope_runtime.schemacheck import load_schema, validate

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[3]

MODELS = textwrap.dedent(
    """
    import sys

    import numpy as np
    import mindspore as ms
    from mindspore import nn, ops


    class Vanishing(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Dense(16, 32)
            self.relu = nn.ReLU()
            self.fc2 = nn.Dense(32, 32)
            self.fc3 = nn.Dense(32, 4)

        def construct(self, x):
            y = self.relu(self.fc1(x))
            y = self.fc2(y) * 1e-12  # planted: every gradient before fc3.bias vanishes
            return self.fc3(y)


    class MakesNaN(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Dense(16, 8)
            self.fc2 = nn.Dense(8, 4)

        def construct(self, x):
            return self.fc2(ops.log(self.fc1(x) - 100.0))


    def mse(output, x):
        return ((output - 1.0) ** 2).mean()


    class LeNet(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
            self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
            self.relu = nn.ReLU()
            self.pool = nn.MaxPool2d(2, 2)
            self.flatten = nn.Flatten()
            self.fc1 = nn.Dense(16 * 5 * 5, 120)
            self.fc2 = nn.Dense(120, 84)
            self.fc3 = nn.Dense(84, 10)

        def construct(self, x):
            x = self.pool(self.relu(self.conv1(x)))
            x = self.pool(self.relu(self.conv2(x)))
            x = self.flatten(x)
            x = self.relu(self.fc1(x))
            x = self.relu(self.fc2(x))
            return self.fc3(x)


    class Residual(nn.Cell):
        def __init__(self, channels):
            super().__init__()
            self.conv1 = nn.Conv2d(channels, channels, 3, pad_mode="same")
            self.bn1 = nn.BatchNorm2d(channels)
            self.conv2 = nn.Conv2d(channels, channels, 3, pad_mode="same")
            self.bn2 = nn.BatchNorm2d(channels)
            self.relu = nn.ReLU()

        def construct(self, x):
            y = self.relu(self.bn1(self.conv1(x)))
            return self.relu(x + self.bn2(self.conv2(y)))


    class SmallResNet(nn.Cell):
        def __init__(self):
            super().__init__()
            self.stem = nn.Conv2d(3, 8, 3, pad_mode="same")
            self.block1 = Residual(8)
            self.block2 = Residual(8)
            self.pool = nn.AdaptiveAvgPool2d(1)
            self.flatten = nn.Flatten()
            self.head = nn.Dense(8, 10)

        def construct(self, x):
            x = self.block2(self.block1(self.stem(x)))
            return self.head(self.flatten(self.pool(x)))


    class EncoderBlock(nn.Cell):
        def __init__(self):
            super().__init__()
            self.layer = nn.TransformerEncoderLayer(
                d_model=16, nhead=2, dim_feedforward=32, dropout=0.0, batch_first=True
            )

        def construct(self, x):
            return self.layer(x)


    class SetLiteral(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(4, 4)

        def construct(self, x):
            allowed = {1, 2}
            return self.fc(x)


    SHAPES = {"LeNet": (2, 1, 32, 32), "SmallResNet": (2, 3, 16, 16), "EncoderBlock": (2, 5, 16)}

    if __name__ == "__main__":
        ms.set_device("CPU")
        for name, shape in SHAPES.items():
            net = globals()[name]()
            net.set_train(False)
            x = ms.Tensor(np.ones(shape, np.float32))
            ms.export(net, x, file_name=f"{sys.argv[1]}/{name}", file_format="MINDIR")
    """
)
SHAPES = {"LeNet": "2,1,32,32", "SmallResNet": "2,3,16,16", "EncoderBlock": "2,5,16"}


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("models") / "models.py"
    path.write_text(MODELS)
    return path


def run_cli(*args: str, cwd: Path) -> tuple[int, dict[str, Any]]:
    proc = subprocess.run(
        [sys.executable, "-m", "mindscope_runtime", *args, "--quiet"],
        cwd=cwd, env={**os.environ, "GLOG_v": "3"}, capture_output=True, text=True, timeout=240,
    )  # fmt: skip
    lines = proc.stdout.splitlines()
    assert len(lines) == 1, f"stdout must be one status line, got {proc.stdout!r}"
    return proc.returncode, json.loads(lines[0])


def schema(name: str) -> dict[str, Any]:
    return load_schema(ROOT / "schemas" / f"{name}-document.schema.json")


def test_stats_catches_a_planted_vanishing_gradient(models: Path) -> None:
    out = models.parent / "stats.json"
    code, status = run_cli("stats", f"{models}:Vanishing", "--input", "4,16", "-o", str(out),
                           cwd=models.parent)  # fmt: skip
    assert code == 0 and status["ok"], status
    doc = json.loads(out.read_text())
    assert validate(doc, schema("stats")) == []
    assert doc["meta"]["loss"]["name"] == "sum" and doc["meta"]["mode"] == "PYNATIVE_MODE"
    assert [o["cell"] for o in doc["outputs"]] == ["fc1", "relu", "fc2", "fc3", ""]
    assert doc["outputs"][0]["stats"]["shape"] == [4, 32]
    assert doc["outputs"][1]["deadUnitFraction"] is not None
    vanishing = {f["name"] for f in doc["flags"] if f["kind"] == "vanishing-gradient"}
    assert {"fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"} <= vanishing
    assert "fc3.bias" not in vanishing
    assert not any(f["kind"] == "exploding-gradient" for f in doc["flags"])
    grads = {g["parameter"]: g for g in doc["gradients"]}
    assert grads["fc1.weight"]["scope"] == "Default/fc1-Dense"
    assert grads["fc3.bias"]["stats"]["mean"] == pytest.approx(4.0)  # d(sum)/d(bias) = batch


def test_stats_finds_where_nan_first_appears_with_a_user_loss(models: Path) -> None:
    out = models.parent / "stats-nan.json"
    code, status = run_cli("stats", f"{models}:MakesNaN", "--input", "4,16",
                           "--loss-from", ":mse", "-o", str(out), cwd=models.parent)  # fmt: skip
    assert code == 0, status
    doc = json.loads(out.read_text())
    assert validate(doc, schema("stats")) == []
    assert doc["meta"]["loss"] == {"name": "models.py:mse", "value": None}
    first = doc["firstNonFinite"]
    assert first["cell"] == "fc2" and first["where"] == "before" and first["after"] == "fc1"
    assert doc["flags"][0]["kind"] == "non-finite"
    assert {"non-finite-loss", "non-finite-gradient"} <= {f["kind"] for f in doc["flags"]}


def test_mindir_round_trips_to_the_compiled_graph(models: Path) -> None:
    folder = models.parent
    subprocess.run([sys.executable, str(models), str(folder)], check=True, cwd=folder,
                   env={**os.environ, "GLOG_v": "3"}, capture_output=True, timeout=240)  # fmt: skip
    for name, shape in SHAPES.items():
        from_file, compiled = folder / f"{name}-mindir.json", folder / f"{name}-graph.json"
        code, status = run_cli("mindir", str(folder / f"{name}.mindir"), "-o", str(from_file),
                               cwd=folder)  # fmt: skip
        assert code == 0 and status["summary"]["capture"] == "mindir", status
        ir_dir = folder / f"{name}-ir"
        code, status = run_cli("graph", f"{models}:{name}", "--input", shape, "-o",
                               str(compiled), "--keep-ir", str(ir_dir), cwd=folder)  # fmt: skip
        assert code == 0, status
        a, b = json.loads(from_file.read_text()), json.loads(compiled.read_text())
        assert_matches_mindspore_pb(b, ir_dir / "ms_output_optimize.pb")
        assert validate(a, schema("graph")) == []
        ops_a = Counter(
            (n["opType"], n["fullName"]) for n in a["nodes"] if n["category"] == "compute"
        )
        ops_b = Counter(
            (n["opType"], n["fullName"]) for n in b["nodes"] if n["category"] == "compute"
        )
        assert ops_a == ops_b, name
        assert a["meta"]["rootCell"] == name
        assert a["scopes"][0]["paramCount"] == b["scopes"][0]["paramCount"]


def _unnumbered(full_name: str) -> str:
    return re.sub(r"-op\d+$", "", full_name)


def pb_ops(path: Path) -> Counter[tuple[str, str, str, str]]:
    """(op type, scope, name, output types) of every node of MindSpore's own protobuf dump of
    the optimised graph, read with MindSpore's `anf_ir_pb2` (not our parsers). Its `-opN`
    suffixes are numbered apart from the .ir's, so names are compared without them."""
    from mindspore.train import anf_ir_pb2

    model = anf_ir_pb2.ModelProto()
    model.ParseFromString(path.read_bytes())

    def types(t: Any) -> str:
        if t.data_type == anf_ir_pb2.DT_TUPLE:
            return "(" + ",".join(types(e) for e in t.sequence_type.elem_types) + ")"
        dtype = anf_ir_pb2.DataType.Name(t.tensor_type.elem_type)[3:].lower()
        shape = [d.size for d in t.tensor_type.shape.dim]
        return f"{dtype}{shape}" if t.tensor_type.HasField("shape") else dtype

    return Counter(
        (n.op_type, n.scope, _unnumbered(n.full_name), types(n.output_type))
        for n in model.graph.node
    )


def doc_ops(doc: dict[str, Any]) -> Counter[tuple[str, str, str, str]]:
    def types(outputs: list[dict[str, Any]], with_shape: bool) -> str:
        parts = [f"{o['dtype'].lower()}{o['shape'] if with_shape else ''}" for o in outputs]
        return parts[0] if len(parts) == 1 and with_shape else "(" + ",".join(parts) + ")"

    return Counter(
        (
            n["opType"],
            n["fullName"].rpartition("/")[0],  # MindSpore's scope; `scope` may correct it
            _unnumbered(n["fullName"]),
            types(n["outputs"], len(n["outputs"]) == 1),
        )
        for n in doc["nodes"]
        if n["category"] == "compute"
    )


def assert_matches_mindspore_pb(doc: dict[str, Any], pb: Path) -> None:
    """Every compute op of the document, with its scope and output shapes, is one MindSpore
    reports, and vice versa (the .pb also holds Load/UpdateState/MakeTuple… glue)."""
    glue = {"Load", "UpdateState", "MakeTuple", "TupleGetItem", "Depend"}
    theirs, ours = pb_ops(pb), doc_ops(doc)
    compute = Counter({k: v for k, v in theirs.items() if k[0] not in glue})
    assert ours == compute, (ours - compute, compute - ours)
    assert doc["meta"]["counts"]["computeOps"] == sum(compute.values())
    assert sum(ours.values()) >= 5


def test_mindir_errors(models: Path) -> None:
    folder = models.parent
    bad = folder / "bad.mindir"
    bad.write_bytes(b"\x0a\xff\xff\xff\x0fnot protobuf")
    for path, kind in ((bad, "bad-mindir"), (folder / "missing.mindir", "file-not-found")):
        out = folder / f"{kind}.json"
        code, status = run_cli("mindir", str(path), "-o", str(out), cwd=folder)
        assert code == 1 and status["error"]["kind"] == kind
        assert not out.exists()


def test_profile_a_training_step(models: Path) -> None:
    out = models.parent / "train-profile.json"
    code, status = run_cli("profile", f"{models}:LeNet", "--input", "2,1,32,32", "--train",
                           "--optimizer", "momentum", "--steps", "2", "-o", str(out),
                           cwd=models.parent)  # fmt: skip
    assert code == 0 and status["summary"]["step"] == "train", status
    doc = json.loads(out.read_text())
    assert validate(doc, schema("profile")) == []
    assert doc["meta"]["step"] == {"kind": "train", "optimizer": "momentum", "lr": 1e-3,
                                   "loss": "sum"}  # fmt: skip
    types = {row["type"] for row in doc["ops"]}
    assert {"Conv2D", "Conv2DBackpropInput", "ApplyMomentum"} <= types, types
    assert any(row["scope"].startswith("Gradients/") for row in doc["ops"])


def test_compile_error_maps_to_the_checker_rule(models: Path) -> None:
    folder = models.parent
    out = folder / "set-literal.json"
    code, status = run_cli("graph", f"{models}:SetLiteral", "--input", "2,4", "-o", str(out),
                           cwd=folder)  # fmt: skip
    assert code == 1 and status["error"]["rule"] == "MS111", status
    doc = json.loads(out.read_text())
    assert validate(doc, schema("graph")) == []
    rule = doc["error"]["rule"]
    line = MODELS.splitlines().index("        allowed = {1, 2}") + 1
    assert rule["source"] == "checker" and rule["line"] == line == doc["error"]["line"]
    code, status = run_cli("profile", f"{models}:SetLiteral", "--input", "2,4", "-o",
                           str(folder / "p.json"), cwd=folder)  # fmt: skip
    assert code == 1 and status["error"]["kind"] == "compile-failed"
    assert status["error"]["rule"] == "MS111" and status["error"]["line"] == line
    assert not (folder / "p.json").exists() and not (folder / "rank_0").exists()
