"""Every request gets an answer (issue 19): bad params get InvalidParams with a short message,
a URI that is not open and cannot be read gets one that says why, never a raw exception and
never silence; and a deep class chain shows up in the editor as MS001 beside the other file's
findings."""

from __future__ import annotations

import json
import queue
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .rawlsp import RawClient

INVALID_PARAMS, INTERNAL_ERROR = -32602, -32603


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("answers")
    (root / "latin.py").write_bytes(b"\xff\xfe\x00\x80 = 1\n")
    (root / "folder.py").mkdir()
    return root


@pytest.fixture(scope="module")
def client(folder: Path) -> Iterator[RawClient]:
    raw = RawClient(folder)
    yield raw
    raw.stop()


def _at(uri: str, line: int = 0, character: int = 0) -> dict[str, Any]:
    return {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}


@pytest.mark.parametrize(
    ("method", "params", "says"),
    [
        ("textDocument/hover", {**_at("file:///x.py", -1, -1)}, "position"),
        ("textDocument/completion", {"textDocument": {"uri": "file:///x.py"}}, "position"),
        ("textDocument/completion", None, "params"),
        ("textDocument/signatureHelp", "garbage", "text_document"),
    ],
)
def test_bad_params_get_invalid_params(
    client: RawClient, method: str, params: Any, says: str
) -> None:
    answer = client.request(method, params, timeout=15)
    assert answer, f"{method} got no answer"
    error = answer["error"]
    assert error["code"] == INVALID_PARAMS and says in error["message"]
    assert error["message"].startswith(f"Invalid params for {method}: ")
    assert "Traceback" not in json.dumps(answer) and len(error["message"]) < 300


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("missing.py", "no such file or directory"),
        ("folder.py", "not a regular file"),
        ("a%00b.py", "embedded null byte"),
    ],
)
@pytest.mark.parametrize(
    "method", ["textDocument/hover", "textDocument/completion", "textDocument/signatureHelp"]
)
def test_an_unreadable_unopened_uri_says_why(
    client: RawClient, folder: Path, method: str, name: str, why: str
) -> None:
    uri = folder.as_uri() + "/" + name
    answer = client.request(method, _at(uri), timeout=15)
    assert answer.get("error") == {
        "code": INVALID_PARAMS,
        "message": f"{uri} is not open and cannot be read: {why}",
    }


def test_an_unopened_file_that_is_not_utf8_is_answered(client: RawClient, folder: Path) -> None:
    uri = (folder / "latin.py").as_uri()
    for method in ("textDocument/hover", "textDocument/completion"):
        answer = client.request(method, _at(uri, 0, 2), timeout=30)
        assert "result" in answer, answer


def test_the_server_still_answers_after_all_that(client: RawClient) -> None:
    uri = "file:///tmp/mindscope-answers.py"
    client.open(uri, "from mindspore import ops\nops.\n")
    answer = client.request("textDocument/completion", _at(uri, 1, 4), timeout=60)
    assert "matmul" in {item["label"] for item in answer["result"]["items"]}
    assert client.text(uri) == "from mindspore import ops\nops.\n"
    assert (
        client.request("mindscope/documentText", {"textDocument": {"uri": "file:///no"}})["error"][
            "code"
        ]
        == INVALID_PARAMS
    )
    assert client.alive()


def _diagnostics(client: RawClient, uri: str, timeout: float = 60) -> list[dict[str, Any]]:
    deadline = time.monotonic() + timeout
    latest: dict[str, list[dict[str, Any]]] = {}
    while time.monotonic() < deadline:
        try:
            note = client.notifications.get(timeout=0.5)
        except queue.Empty:
            continue
        if note["method"] == "textDocument/publishDiagnostics":
            latest[note["params"]["uri"]] = note["params"]["diagnostics"]
            if latest.get(uri):
                return latest[uri]
    return latest.get(uri, [])


def test_a_deep_chain_is_a_diagnostic_and_hides_no_other_file(tmp_path: Path) -> None:
    from tests.python.checker.test_hardening import BAD, attribute_chain

    (tmp_path / "deep.py").write_text(attribute_chain(500))
    (tmp_path / "bad.py").write_text(BAD)
    raw = RawClient(tmp_path, {"warmUp": False, "graphMode": {"debounceMs": 50}})
    try:
        for name in ("bad.py", "deep.py"):
            uri = (tmp_path / name).as_uri()
            raw.open(uri, (tmp_path / name).read_text())
            found = _diagnostics(raw, uri)
            codes = [d["code"] for d in found]
            assert codes == (["MS101"] if name == "bad.py" else ["MS001"]), found
        # Once the index holds deep.py, bad.py is checked against it: still MS101.
        time.sleep(2)
        bad = (tmp_path / "bad.py").as_uri()
        raw.change(bad, 2, [{"text": BAD + "\n"}])
        assert [d["code"] for d in _diagnostics(raw, bad)] == ["MS101"]
    finally:
        raw.stop()
