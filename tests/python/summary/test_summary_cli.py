"""`python -m mindscope_runtime summary` in a subprocess, on a file MindSpore 2.10 wrote."""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from mindscope_runtime.schemacheck import load_schema, validate
from tests.python.summary.records import FIXTURE, frame, scalar_event

ROOT = Path(__file__).resolve().parents[3]
SCHEMAS = ROOT / "schemas"


def _cli(*args: str, cwd: Path) -> tuple[int, dict[str, Any], str]:
    done = subprocess.run([sys.executable, "-m", "mindscope_runtime", "summary", *args],
                          cwd=cwd, capture_output=True, text=True, timeout=60)  # fmt: skip
    lines = done.stdout.splitlines()
    assert len(lines) == 1, done.stdout
    return done.returncode, json.loads(lines[0]), done.stderr


def _workspace(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURE, tmp_path / "logs" / "exp1")
    shutil.copytree(FIXTURE, tmp_path / "logs" / "exp2")
    return tmp_path / "logs"


def test_every_run_under_the_root_in_one_valid_document(tmp_path: Path) -> None:
    root = _workspace(tmp_path)
    code, status, _ = _cli(str(root), "-o", "out.json", "--graph-out", "g.json", cwd=tmp_path)
    assert (code, status["ok"]) == (0, True)
    assert status["summary"]["runs"] == 2 and status["summary"]["scalarPoints"] == 20
    document = json.loads((tmp_path / "out.json").read_text())
    assert validate(document, load_schema(SCHEMAS / "summary-document.schema.json")) == []
    assert [run["name"] for run in document["runs"]] == ["exp1", "exp2"]
    graph = json.loads((tmp_path / "g.json").read_text())
    assert validate(graph, load_schema(SCHEMAS / "graph-document.schema.json")) == []
    assert graph["meta"]["capture"] == "summary" and graph["meta"]["counts"]["nodes"] > 0


def test_csv_of_the_selected_tags(tmp_path: Path) -> None:
    root = _workspace(tmp_path)
    code, status, _ = _cli(str(root / "exp1"), "--format", "csv", "--tag", "lo*", cwd=tmp_path)
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(Path(status["output"]).read_text())))
    assert {row["tag"] for row in rows} == {"loss"}
    assert [int(row["step"]) for row in rows] == [2, 2, 3, 4, 5]
    assert all(float(row["value"]) > 0 for row in rows)


def test_a_missing_folder_and_a_folder_without_summaries_are_one_line_errors(
    tmp_path: Path,
) -> None:
    code, status, stderr = _cli(str(tmp_path / "nope"), cwd=tmp_path)
    assert (code, status["error"]["kind"]) == (1, "file-not-found")
    assert "Traceback" not in stderr
    code, status, _ = _cli(str(tmp_path), cwd=tmp_path)
    assert (code, status["error"]["kind"]) == (1, "no-summaries")
    assert str(tmp_path) in status["error"]["message"]


def test_corrupt_records_are_listed_in_the_status(tmp_path: Path) -> None:
    root = _workspace(tmp_path)
    path = next((root / "exp1").iterdir())
    data = bytearray(path.read_bytes())
    data[-10] ^= 0xFF
    path.write_bytes(bytes(data))
    code, status, _ = _cli(str(root), "-o", "out.json", cwd=tmp_path)
    assert code == 0
    assert [(i["kind"], i["file"]) for i in status["issues"]] == [("corrupt-payload", str(path))]


def test_follow_streams_only_the_new_values(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    path = run / "events.out.events.summary.1.0.host_MS"
    path.write_bytes(b"".join(frame(scalar_event(s, s / 10)) for s in range(1, 4)))
    args = [sys.executable, "-m", "mindscope_runtime", "summary", str(tmp_path), "--follow",
            "--interval", "0.05", "--max-seconds", "20"]  # fmt: skip
    with subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True) as p:
        assert p.stdout is not None
        first = json.loads(p.stdout.readline())
        assert first["meta"]["incremental"] is False
        assert first["runs"][0]["scalars"][0]["steps"] == [1, 2, 3]
        with path.open("ab") as handle:
            handle.write(frame(scalar_event(4, 0.4)) + frame(scalar_event(5, 0.5)))
        update = json.loads(p.stdout.readline())
        p.terminate()
    assert update["meta"]["incremental"] is True
    steps = [s for doc_run in update["runs"] for series in doc_run["scalars"]
             for s in series["steps"]]  # fmt: skip
    assert steps in ([4, 5], [4])  # both appended at once; a poll may split them
    assert validate(update, load_schema(SCHEMAS / "summary-document.schema.json")) == []
