"""`mindscope/fileMode` from the real server over stdio (pytest-lsp, VS Code's capabilities):
the mode, syntax level and compiled functions the status bar shows, checked against the
schema in schemas/file-mode.schema.json."""

from __future__ import annotations

import asyncio
import textwrap
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Optional

import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from mindscope_runtime.schemacheck import load_schema, validate

from ..diagnostics.lsp_session import CONFIG, initialize_params, open_document, replace_text

REPO = Path(__file__).resolve().parents[3]
SCHEMA = load_schema(REPO / "schemas" / "file-mode.schema.json")
TRAIN = REPO / "examples" / "cifar_resnet" / "train.py"

GRAPH_FILE = textwrap.dedent(
    """\
    import mindspore as ms
    from mindspore import nn, ops

    ms.set_context(mode=ms.GRAPH_MODE)


    class Net(nn.Cell):
        def construct(self, x):
            return scale(x)


    def scale(x):
        return x * 2


    @ms.jit
    def step(x):
        return ops.relu(x)
    """
)


def _accept_registrations(client: LanguageClient) -> None:
    """What VS Code does when the server registers a capability (e.g. file watching): accept."""

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)  # type: ignore[untyped-decorator]
    def on_register(params: types.RegistrationParams) -> None:
        pass


@pytest_lsp.fixture(config=CONFIG)  # type: ignore[untyped-decorator]
async def client(lsp_client: LanguageClient, tmp_path: Path) -> AsyncIterator[None]:
    _accept_registrations(lsp_client)
    await lsp_client.initialize_session(initialize_params(tmp_path))
    yield
    await lsp_client.shutdown_session()


def _plain(value: Any) -> Any:
    """pygls hands results of custom requests back as namedtuples: turn them into JSON again."""
    if hasattr(value, "_asdict"):
        return {key: _plain(item) for key, item in value._asdict().items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


async def _request(client: LanguageClient, params: dict[str, Any]) -> Any:
    # pygls' custom requests are untyped.
    return await client.protocol.send_request_async("mindscope/fileMode", params)  # type: ignore[no-untyped-call]


async def file_mode(client: LanguageClient, uri: str, cells: Optional[list[str]] = None) -> Any:
    params: dict[str, Any] = {"uri": uri}
    if cells is not None:
        params["cells"] = cells
    result = _plain(await _request(client, params))
    assert validate(result, SCHEMA) == [], result
    return result


def _open(client: LanguageClient, path: Path, text: str) -> str:
    uri = path.as_uri()
    open_document(client, uri, text)
    return uri


async def test_graph_mode_file(client: LanguageClient, tmp_path: Path) -> None:
    uri = _open(client, tmp_path / "net.py", GRAPH_FILE)
    mode = await file_mode(client, uri)
    assert mode["mode"] == "GRAPH_MODE" and mode["modeSource"] == "file"
    assert mode["modeChoices"] == ["GRAPH_MODE"]
    assert mode["modeAt"] == {
        "uri": uri,
        "line": 3,
        "text": "ms.set_context(mode=ms.GRAPH_MODE)",
    }
    assert (mode["level"], mode["levelSource"], mode["levelAt"]) == ("LAX", "setting", None)
    names = [(c["name"], c["kind"], c["line"]) for c in mode["compiled"]]
    assert names == [
        ("Net.construct", "construct", 7),
        ("scale", "callee", 11),
        ("step", "jit", 16),
    ]
    assert mode["compiledFunctions"] == 3 and mode["parsed"] is True


async def test_pynative_file_and_the_last_call_wins(client: LanguageClient, tmp_path: Path) -> None:
    text = GRAPH_FILE + "\nms.set_context(mode=ms.PYNATIVE_MODE)\n"
    uri = _open(client, tmp_path / "eager.py", text)
    mode = await file_mode(client, uri)
    assert (mode["mode"], mode["modeSource"], mode["modeSetCount"]) == ("PYNATIVE_MODE", "file", 2)
    assert mode["modeAt"]["line"] == text.splitlines().index(
        "ms.set_context(mode=ms.PYNATIVE_MODE)"
    )


async def test_no_set_context_means_pynative(client: LanguageClient, tmp_path: Path) -> None:
    uri = _open(client, tmp_path / "plain.py", "import mindspore as ms\nx = ms.Tensor(1)\n")
    mode = await file_mode(client, uri)
    assert (mode["mode"], mode["modeSource"], mode["modeAt"]) == ("PYNATIVE_MODE", "default", None)
    assert mode["compiledFunctions"] == 0 and mode["compiled"] == []


async def test_strict_from_set_context(client: LanguageClient, tmp_path: Path) -> None:
    text = GRAPH_FILE.replace(
        "ms.set_context(mode=ms.GRAPH_MODE)",
        "ms.set_context(mode=0,\n               jit_syntax_level=ms.STRICT)",
    )
    uri = _open(client, tmp_path / "strict.py", text)
    mode = await file_mode(client, uri)
    assert mode["mode"] == "GRAPH_MODE"  # mode=0 is GRAPH_MODE
    assert (mode["level"], mode["levelSource"]) == ("STRICT", "file")
    assert mode["levelAt"] == {
        "uri": uri,
        "line": 3,
        "text": "ms.set_context(mode=0, jit_syntax_level=ms.STRICT)",
    }


async def test_the_setting_gives_the_level_when_the_file_sets_none(
    client: LanguageClient, tmp_path: Path
) -> None:
    uri = _open(client, tmp_path / "net.py", GRAPH_FILE)
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(
            settings={"mindscope": {"graphMode": {"syntaxLevel": "STRICT"}}}
        )
    )
    mode = await file_mode(client, uri)
    assert (mode["level"], mode["levelSource"]) == ("STRICT", "setting")


async def test_a_run_time_choice_is_reported_as_such(client: LanguageClient) -> None:
    # Not opened: the server reads the example from disk.
    mode = await file_mode(client, TRAIN.as_uri())
    assert mode["mode"] == "UNKNOWN"
    assert mode["modeChoices"] == ["GRAPH_MODE", "PYNATIVE_MODE"]
    line = TRAIN.read_text(encoding="utf-8").splitlines()[mode["modeAt"]["line"]]
    assert "set_context(mode=" in line


async def test_edits_are_seen(client: LanguageClient, tmp_path: Path) -> None:
    uri = _open(client, tmp_path / "net.py", GRAPH_FILE)
    assert (await file_mode(client, uri))["mode"] == "GRAPH_MODE"
    replace_text(client, uri, GRAPH_FILE.replace("GRAPH_MODE", "PYNATIVE_MODE"), version=2)
    assert (await file_mode(client, uri))["mode"] == "PYNATIVE_MODE"


async def test_a_half_typed_file_still_answers(client: LanguageClient, tmp_path: Path) -> None:
    text = GRAPH_FILE.replace("return scale(x)", "y = ops.\n        return scale(x")
    uri = _open(client, tmp_path / "typing.py", text)
    mode = await file_mode(client, uri)
    assert mode["parsed"] is False
    assert mode["mode"] == "GRAPH_MODE"  # read with the broken lines blanked
    broken = (tmp_path / "broken.py").as_uri()
    open_document(client, broken, "class Net(nn.Cell):\n    def construct(self, x:\n        if x >")
    assert (await file_mode(client, broken))["mode"] == "PYNATIVE_MODE"
    # Still serving after both.
    assert (await file_mode(client, uri))["modeAt"]["line"] == 3


async def test_notebook_cells_share_one_mode(client: LanguageClient, tmp_path: Path) -> None:
    notebook = tmp_path / "explore.ipynb"
    cells = [f"vscode-notebook-cell://{notebook}#W{i}sZmlsZQ%3D%3D" for i in range(4)]
    texts = [
        "%matplotlib inline\nimport mindspore as ms\nfrom mindspore import nn\n",
        "class Net(nn.Cell):\n    def construct(self, x):\n        return x\n",
        "ms.set_context(mode=ms.PYNATIVE_MODE)\nnet = Net()\n",
        "x = 1\nms.set_context(mode=ms.GRAPH_MODE, jit_syntax_level=ms.STRICT)\n",
    ]
    for uri, text in zip(cells, texts):
        open_document(client, uri, text)
    # Asked from any cell, the answer is the notebook's, read in the order the client gives.
    mode = await file_mode(client, notebook.as_uri(), cells)
    assert (mode["mode"], mode["modeSetCount"]) == ("GRAPH_MODE", 2)
    assert mode["modeAt"]["uri"] == cells[3] and mode["modeAt"]["line"] == 1
    assert (mode["level"], mode["levelAt"]["uri"]) == ("STRICT", cells[3])
    # The Cell's construct is found in its own cell (nn comes from the first cell's imports).
    assert [(c["name"], c["uri"], c["line"]) for c in mode["compiled"]] == [
        ("Net.construct", cells[1], 1)
    ]
    reordered = await file_mode(client, notebook.as_uri(), [cells[0], cells[3], cells[1], cells[2]])
    assert reordered["mode"] == "PYNATIVE_MODE"


@pytest_lsp.fixture(config=CONFIG)  # type: ignore[untyped-decorator]
async def client_with_helpers(lsp_client: LanguageClient, tmp_path: Path) -> AsyncIterator[None]:
    # On disk before the session: the workspace is indexed at start-up.
    (tmp_path / "helpers.py").write_text("def double(x):\n    return x * 2\n", encoding="utf-8")
    (tmp_path / "model.py").write_text(
        "from mindspore import nn\nfrom helpers import double\n\n\n"
        "class Net(nn.Cell):\n    def construct(self, x):\n        return double(x)\n",
        encoding="utf-8",
    )
    _accept_registrations(lsp_client)
    await lsp_client.initialize_session(initialize_params(tmp_path))
    yield
    await lsp_client.shutdown_session()


async def test_helpers_in_other_files_count_through_the_workspace_index(
    client_with_helpers: LanguageClient, tmp_path: Path
) -> None:
    helpers = (tmp_path / "helpers.py").as_uri()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 30
    mode = await file_mode(client_with_helpers, helpers)
    while not mode["compiledFunctions"] and loop.time() < deadline:
        await asyncio.sleep(0.1)  # polling: the index is built in the background at start-up
        mode = await file_mode(client_with_helpers, helpers)
    assert [(c["name"], c["kind"]) for c in mode["compiled"]] == [("double", "callee")]


async def test_no_uri_gets_null(client: LanguageClient) -> None:
    assert await _request(client, {}) is None
