"""Completion offers exactly what the installed MindSpore exposes; hover and signature help
show each runtime object's real signature. The truth is computed from live MindSpore in a
subprocess (the server itself never imports it), independently of the catalogue builder.

Public, as the issue defines it: `dir()` names without a leading underscore that `getattr`
really returns, minus other packages' modules (`dataset.os`), `from __future__` features and
`typing` leftovers.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Optional

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from mindscope_ls.analysis.hover import hover, signature_help
from mindscope_ls.catalogue.load import catalogue_for
from mindscope_ls.catalogue.model import Catalogue

pytest.importorskip("mindspore")
pytestmark = pytest.mark.slow

# namespace -> (source that binds it, the expression completed with a dot)
NAMESPACES = {
    "mindspore": ("import mindspore as ms\n", "ms"),
    "mindspore.nn": ("from mindspore import nn\n", "nn"),
    "mindspore.ops": ("from mindspore import ops\n", "ops"),
    "mindspore.mint": ("from mindspore import mint\n", "mint"),
    "mindspore.Tensor": ("import mindspore as ms\nx = ms.Tensor([1.0])\n", "x"),
}

LIVE = r"""
import importlib, inspect, json, logging, re, sys, types, warnings
logging.disable(logging.WARNING); warnings.simplefilter("ignore")
import mindspore

def public(namespace, path):
    found = {}
    for name in dir(namespace):
        if name.startswith("_"):
            continue
        try:
            value = getattr(namespace, name)
        except Exception:
            continue
        if isinstance(value, types.ModuleType) and not value.__name__.startswith(path + "."):
            continue
        if type(value).__name__ == "_Feature" or getattr(value, "__module__", "") == "typing":
            continue
        found[name] = value
    return found

def signature(value, member):
    if isinstance(value, property) or not callable(value):
        return None
    try:
        sig = inspect.signature(value)
    except (TypeError, ValueError):
        return None
    params = list(sig.parameters.values())
    strip = member or inspect.isclass(value) or inspect.ismethoddescriptor(value)
    if strip and params and params[0].name == "self":
        sig = sig.replace(parameters=params[1:])
    text = str(sig.replace(return_annotation=inspect.Signature.empty))
    text = re.sub(r" at 0x[0-9a-fA-F]+>", ">", text)
    # A module default prints its file; the catalogue (rightly) shows the module's name.
    return re.sub(r"<module '([\w.]+)' from '[^']*'>", r"\1", text)

out = {}
for path in sys.argv[1:]:
    module_path, _, cls = path.rpartition(".")
    if cls[:1].isupper():
        owner = getattr(importlib.import_module(module_path), cls)
        names = {}
        for name in dir(owner):
            if name.startswith("_"):
                continue
            try:
                value = getattr(owner, name)
            except Exception:
                continue
            static = inspect.getattr_static(owner, name, None)
            names[name] = static if isinstance(static, property) else value
        out[path] = {n: signature(v, True) for n, v in names.items()}
    else:
        module = importlib.import_module(path)
        out[path] = {n: signature(v, False) for n, v in public(module, path).items()}
json.dump(out, sys.stdout)
"""
# Signatures that say nothing: the catalogue takes the docstring's instead (checked elsewhere).
OPAQUE = {"(*args, **kwargs)", "(*args)", "(**kwargs)"}
LSP_SAMPLE = 25


@pytest.fixture(scope="module")
def live() -> dict[str, dict[str, Optional[str]]]:
    out = subprocess.run(
        [sys.executable, "-c", LIVE, *NAMESPACES],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    data: dict[str, dict[str, Optional[str]]] = json.loads(out.stdout)
    return data


@pytest.fixture(scope="module")
def cat() -> Catalogue:
    found = catalogue_for("2.10.0")
    assert found is not None
    return found


def _code_block(markdown: str) -> str:
    match = re.match(r"```python\n(.*?)\n```", markdown, re.S)
    assert match, markdown
    return match.group(1)


def _hover_text(cat: Catalogue, namespace: str, name: str) -> Optional[str]:
    head, expr = NAMESPACES[namespace]
    source = f"{head}{expr}.{name}(\n"
    line = source.count("\n") - 1
    found = hover(source, line, len(expr) + 1, cat)
    if found is None:
        return None
    assert isinstance(found.contents, types.MarkupContent)
    return found.contents.value


def _checkable(live: dict[str, dict[str, Optional[str]]]) -> list[tuple[str, str, str]]:
    return [
        (namespace, name, sig)
        for namespace, names in live.items()
        for name, sig in sorted(names.items())
        if sig is not None and sig not in OPAQUE
    ]


def test_every_runtime_signature_is_what_hover_and_signature_help_show(
    live: dict[str, dict[str, Optional[str]]], cat: Catalogue
) -> None:
    checked, wrong = 0, []
    for namespace, name, sig in _checkable(live):
        head, expr = NAMESPACES[namespace]
        text = _hover_text(cat, namespace, name)
        shown = _code_block(text) if text else None
        source = f"{head}{expr}.{name}("
        lines = source.split("\n")
        help_ = signature_help(source, len(lines) - 1, len(lines[-1]), cat)
        label = help_.signatures[0].label if help_ else None
        if shown is None or not shown.endswith(sig) or label is None or not label.endswith(sig):
            wrong.append(f"{namespace}.{name}: runtime {sig}; hover {shown}; signature {label}")
        checked += 1
    assert checked > 2000  # most names have a real signature
    assert not wrong, "\n".join(wrong[:40]) + f"\n({len(wrong)} of {checked})"


def _open(client: LanguageClient, uri: str, text: str) -> types.TextDocumentIdentifier:
    item = types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=item))
    return types.TextDocumentIdentifier(uri=uri)


async def test_completion_offers_exactly_the_runtime_names_and_a_sample_hovers_right(
    client: LanguageClient, live: dict[str, dict[str, Optional[str]]], tmp_path: Path
) -> None:
    for index, (namespace, (head, expr)) in enumerate(NAMESPACES.items()):
        text = f"{head}{expr}.\n"
        doc = _open(client, (tmp_path / f"ns{index}.py").as_uri(), text)
        result = await client.text_document_completion_async(
            types.CompletionParams(
                text_document=doc,
                position=types.Position(line=text.count("\n") - 1, character=len(expr) + 1),
            )
        )
        assert isinstance(result, types.CompletionList)
        offered = {item.label for item in result.items}
        expected = set(live[namespace])
        assert not expected - offered, f"{namespace}: missing {sorted(expected - offered)}"
        assert not offered - expected, f"{namespace}: phantom {sorted(offered - expected)}"
    # The same answers through the real server for a sample of names.
    sample = random.Random(3).sample(_checkable(live), LSP_SAMPLE)
    for index, (namespace, name, sig) in enumerate(sample):
        head, expr = NAMESPACES[namespace]
        text = f"{head}{expr}.{name}(\n"
        doc = _open(client, (tmp_path / f"h{index}.py").as_uri(), text)
        line = text.count("\n") - 1
        found: Any = await client.text_document_hover_async(
            types.HoverParams(
                text_document=doc, position=types.Position(line=line, character=len(expr) + 1)
            )
        )
        assert found is not None, f"{namespace}.{name}"
        assert _code_block(found.contents.value).endswith(sig), f"{namespace}.{name}"
