"""Graph-mode diagnostics and quick fixes through the protocol, from the real server."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from .lsp_session import (
    CONFIG,
    apply_edits,
    codes,
    initialize_params,
    open_document,
    replace_text,
    wait_diagnostics,
)

NET_WITH_SET = textwrap.dedent(
    """\
    import mindspore as ms
    from mindspore import nn


    class Net(nn.Cell):
        def construct(self, x):
            keep = {1, 2}
            return x * len(keep)
    """
)


@pytest_lsp.fixture(config=CONFIG)  # type: ignore[untyped-decorator]
async def client(lsp_client: LanguageClient, tmp_path: Path) -> AsyncIterator[None]:
    await lsp_client.initialize_session(initialize_params(tmp_path))
    yield
    await lsp_client.shutdown_session()


async def _actions_for_first_diagnostic(client: LanguageClient, uri: str) -> list[types.CodeAction]:
    """The code actions VS Code would ask for on the first diagnostic's range."""
    diagnostics = await wait_diagnostics(client, uri, lambda d: len(d) > 0)
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=diagnostics[0].range,
            context=types.CodeActionContext(diagnostics=list(diagnostics)),
        )
    )
    assert actions is not None
    return [a for a in actions if isinstance(a, types.CodeAction)]


async def test_set_literal_in_construct_is_an_error_with_docs(
    client: LanguageClient, tmp_path: Path
) -> None:
    uri = (tmp_path / "net.py").as_uri()
    open_document(client, uri, NET_WITH_SET)
    diagnostics = await wait_diagnostics(client, uri, lambda d: len(d) > 0)
    (d,) = diagnostics
    assert d.code == "MS111" and d.source == "MindScope"
    assert d.severity == types.DiagnosticSeverity.Error
    # The exact expression `{1, 2}` on line 7 (0-based 6), not the whole line.
    assert (d.range.start.line, d.range.start.character) == (6, 15)
    assert (d.range.end.line, d.range.end.character) == (6, 21)
    assert d.code_description is not None
    page = Path(urlsplit(d.code_description.href).path)
    assert page.name == "MS111.md" and page.is_file()


async def test_quick_fix_rewrites_the_set_and_suppression_silences_it(
    client: LanguageClient, tmp_path: Path
) -> None:
    uri = (tmp_path / "net.py").as_uri()
    open_document(client, uri, NET_WITH_SET)
    by_title = {a.title: a for a in await _actions_for_first_diagnostic(client, uri)}
    fix = next(a for t, a in by_title.items() if t.endswith("(MS111)"))
    assert fix.is_preferred and fix.edit is not None and fix.edit.changes is not None
    fixed = apply_edits(NET_WITH_SET, fix.edit.changes[uri])
    assert "keep = (1, 2)" in fixed

    replace_text(client, uri, fixed, 2)
    assert await wait_diagnostics(client, uri, lambda d: len(d) == 0) == []

    ignore = by_title["Ignore MS111 on this line"]
    assert ignore.edit is not None and ignore.edit.changes is not None
    silenced = apply_edits(NET_WITH_SET, ignore.edit.changes[uri])
    assert "keep = {1, 2}  # mindscope: ignore[MS111]" in silenced
    replace_text(client, uri, silenced, 3)
    assert await wait_diagnostics(client, uri, lambda d: len(d) == 0) == []


async def test_settings_turn_rules_off_and_change_the_level(
    client: LanguageClient, tmp_path: Path
) -> None:
    uri = (tmp_path / "strict.py").as_uri()
    text = NET_WITH_SET.replace("keep = {1, 2}", "keep = [1, 2]\n        y = x.asnumpy()")
    open_document(client, uri, text)
    (info,) = await wait_diagnostics(client, uri, lambda d: len(d) > 0)
    assert info.code == "MS201" and info.severity == types.DiagnosticSeverity.Information

    def configure(graph_mode: dict[str, object]) -> None:
        client.workspace_did_change_configuration(
            types.DidChangeConfigurationParams(settings={"mindscope": {"graphMode": graph_mode}})
        )

    configure({"syntaxLevel": "STRICT", "debounceMs": 50})
    await wait_diagnostics(
        client, uri, lambda d: [x.severity for x in d] == [types.DiagnosticSeverity.Error]
    )
    configure({"syntaxLevel": "STRICT", "rules": {"MS201": "off"}, "debounceMs": 50})
    assert await wait_diagnostics(client, uri, lambda d: len(d) == 0) == []


async def test_notebook_cells_see_the_imports_of_other_cells(
    client: LanguageClient, tmp_path: Path
) -> None:
    notebook = tmp_path / "explore.ipynb"
    imports = f"vscode-notebook-cell://{notebook}#W0sZmlsZQ%3D%3D"
    model = f"vscode-notebook-cell://{notebook}#W1sZmlsZQ%3D%3D"
    open_document(
        client, imports, "%matplotlib inline\nimport mindspore as ms\nfrom mindspore import nn\n"
    )
    cell = textwrap.dedent(
        """\
        class Net(nn.Cell):
            def construct(self, x):
                try:
                    return x
                except Exception:
                    return x
        """
    )
    open_document(client, model, cell)
    (d,) = await wait_diagnostics(client, model, lambda d: len(d) > 0)
    assert d.code == "MS101"
    assert d.range.start.line == 2  # the `try` in this cell, not shifted by the imports
    assert codes(await wait_diagnostics(client, imports, lambda d: True)) == []


async def test_broken_and_huge_documents_never_break_the_server(
    client: LanguageClient, tmp_path: Path
) -> None:
    broken = (tmp_path / "broken.py").as_uri()
    open_document(client, broken, "class Net(nn.Cell):\n    def construct(self, x:\n        if x >")
    assert await wait_diagnostics(client, broken, lambda d: True) == []
    huge = (tmp_path / "huge.py").as_uri()
    open_document(client, huge, "x = 1\n" * 400_000)
    assert await wait_diagnostics(client, huge, lambda d: True, timeout=60) == []
    # Still serving: a new real problem is found after all that.
    uri = (tmp_path / "after.py").as_uri()
    open_document(client, uri, NET_WITH_SET)
    assert codes(await wait_diagnostics(client, uri, lambda d: len(d) > 0)) == ["MS111"]


@pytest_lsp.fixture(config=CONFIG)  # type: ignore[untyped-decorator]
async def client_with_base(lsp_client: LanguageClient, tmp_path: Path) -> AsyncIterator[None]:
    # The workspace is indexed at start-up, so the base class is on disk before the session.
    (tmp_path / "base.py").write_text(
        "from mindspore import nn\n\nclass Block(nn.Cell):\n    pass\n", encoding="utf-8"
    )
    await lsp_client.initialize_session(initialize_params(tmp_path))
    yield
    await lsp_client.shutdown_session()


async def test_cells_defined_in_other_workspace_files_are_known(
    client_with_base: LanguageClient, tmp_path: Path
) -> None:
    uri = (tmp_path / "sub.py").as_uri()
    text = textwrap.dedent(
        """\
        from base import Block

        class Head(Block):
            def construct(self, x):
                del x
                return 1
        """
    )
    open_document(client_with_base, uri, text)
    diagnostics = await wait_diagnostics(client_with_base, uri, lambda d: len(d) > 0)
    assert codes(diagnostics) == ["MS102"]


@pytest.mark.slow
async def test_the_quick_fixed_file_compiles_in_graph_mode(
    client: LanguageClient, tmp_path: Path
) -> None:
    path = tmp_path / "net.py"
    uri = path.as_uri()
    open_document(client, uri, NET_WITH_SET)
    fix = next(a for a in await _actions_for_first_diagnostic(client, uri) if a.is_preferred)
    assert fix.edit is not None and fix.edit.changes is not None
    fixed = apply_edits(NET_WITH_SET, fix.edit.changes[uri])
    run = fixed + textwrap.dedent(
        """
        ms.set_context(mode=ms.GRAPH_MODE)
        ms.set_device("CPU")
        print("OUT", Net()(ms.Tensor([1.0, 2.0])).asnumpy().tolist())
        """
    )
    path.write_text(run, encoding="utf-8")
    # MindSpore compiles construct from the source file, so it runs as a script.
    proc = subprocess.run(
        [sys.executable, str(path)], capture_output=True, text=True, timeout=240, cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "OUT [2.0, 4.0]" in proc.stdout
