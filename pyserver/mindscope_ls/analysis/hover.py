"""Hover and signature help from the catalogue: the real signature, the summary, graph-mode
and deprecation notes, and the official page."""

from __future__ import annotations

import ast
import re
from typing import Optional

from lsprotocol import types

from mindscope_ls.analysis.apiitems import describe, entry_of, short_name
from mindscope_ls.analysis.inference import (
    Api,
    Inferencer,
    Instance,
    LocalClass,
    LocalFunction,
    Value,
)
from mindscope_ls.analysis.sourcemodel import FunctionNode, model_around, model_of
from mindscope_ls.analysis.textscan import call_context, expression_at
from mindscope_ls.catalogue import docparse
from mindscope_ls.catalogue.model import Catalogue, Entry

_GRAPH_NOTE = {
    True: "Graph mode: usable in `construct` and `@jit` code.",
    False: "Graph mode: **not usable** in `construct` or `@jit` code; call it outside.",
}


def entry_markdown(cat: Catalogue, entry: Entry, title: Optional[str] = None) -> str:
    name = title or entry.public
    signature = entry.signature if entry.kind in ("function", "method", "class") else None
    prefix = "class " if entry.kind == "class" else ""
    parts = [f"```python\n{prefix}{name}{signature or ''}\n```"]
    if entry.summary:
        parts.append(entry.summary)
    if entry.is_deprecated:
        instead = f" Use `{entry.deprecated}` instead." if entry.deprecated else ""
        parts.append(f"**Deprecated** in MindSpore {cat.version}.{instead}")
    if entry.graph is not None:
        parts.append(_GRAPH_NOTE[entry.graph])
    url = cat.doc_url(entry)
    if url:
        parts.append(f"[MindSpore {cat.version} documentation]({url})")
    return "\n\n".join(parts)


def resolve_item(cat: Catalogue, item: types.CompletionItem) -> types.CompletionItem:
    """What `completionItem/resolve` adds to a catalogue item: where it lives, its docs."""
    entry = entry_of(cat, item.data)
    if entry is not None:
        item.detail = item.detail or short_name(entry.public)
        item.documentation = types.MarkupContent(
            kind=types.MarkupKind.Markdown, value=entry_markdown(cat, entry)
        )
    return item


def hover(source: str, line: int, character: int, cat: Catalogue) -> Optional[types.Hover]:
    expr = expression_at(source, line, character)
    if expr is None:
        return None
    inferencer = Inferencer(model_of(source, line), cat)
    value = inferencer.infer(expr, inferencer.scope_at(line + 1))
    text = _value_markdown(cat, expr, value)
    if text is None:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))


def _value_markdown(cat: Catalogue, expr: ast.expr, value: Optional[Value]) -> Optional[str]:
    if isinstance(value, Api):
        return entry_markdown(cat, value.entry)
    written = ast.unparse(expr)
    if isinstance(value, Instance):
        head = f"```python\n{written}: {short_name(value.cls.public)}\n```"
        return f"{head}\n\n{entry_markdown(cat, value.cls)}"
    if isinstance(value, LocalClass) and value.instance:
        return f"```python\n{written}: {describe(value)}\n```"
    return None


def signature_help(
    source: str, line: int, character: int, cat: Catalogue
) -> Optional[types.SignatureHelp]:
    call = call_context(source, line, character)
    if call is None:
        return None
    inferencer = Inferencer(model_around(source, line), cat)
    callee = inferencer.infer(call.callee, inferencer.scope_at(line + 1))
    found = _callable(inferencer, callee)
    if found is None:
        return None
    title, signature, docs, summary = found
    label = f"{title}{signature}"
    params = _parameters(label, len(title))
    active = _active(label, params, call.arg_index, call.keyword)
    information = [
        types.ParameterInformation(
            label=(start, end),
            documentation=_markdown(docs.get(_bare(label[start:end]))),
        )
        for start, end in params
    ]
    return types.SignatureHelp(
        signatures=[
            types.SignatureInformation(
                label=label,
                documentation=_markdown(summary),
                parameters=information,
                active_parameter=active,
            )
        ],
        active_signature=0,
        active_parameter=active,
    )


def _callable(
    inferencer: Inferencer, callee: Optional[Value]
) -> Optional[tuple[str, str, dict[str, str], str]]:
    """(title, "(params)", parameter docs, summary) of what is being called."""
    cat = inferencer.cat
    signature = callee.entry.signature if isinstance(callee, Api) else None
    if isinstance(callee, Api) and signature:
        entry = callee.entry
        doc = cat.full_doc(entry.ident)
        summary = entry_markdown(cat, entry).split("\n\n", 1)[-1]
        return short_name(entry.public), signature, docparse.parameters(doc), summary
    call = callee.cls.call_signature if isinstance(callee, Instance) else None
    if isinstance(callee, Instance) and call:
        entry = callee.cls
        doc = cat.full_doc(entry.ident)
        args = docparse.parameters(doc, "Inputs") or docparse.parameters(doc)
        title = (
            f"{short_name(entry.public)}.construct" if entry.is_cell else short_name(entry.public)
        )
        return title, call, args, entry.summary
    if isinstance(callee, LocalClass) and callee.instance:
        method = next((n for n in callee.node.body if getattr(n, "name", "") == "construct"), None)
        if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return f"{callee.node.name}.construct", _local_signature(method, 1), {}, ""
    if isinstance(callee, LocalFunction):
        skip = 1 if callee.owner is not None else 0
        return callee.node.name, _local_signature(callee.node, skip), {}, ""
    return None


def _local_signature(node: FunctionNode, skip: int) -> str:
    args = node.args
    copy = ast.arguments(
        posonlyargs=args.posonlyargs,
        args=args.args[skip:] if not args.posonlyargs else args.args,
        vararg=args.vararg,
        kwonlyargs=args.kwonlyargs,
        kw_defaults=args.kw_defaults,
        kwarg=args.kwarg,
        defaults=args.defaults[-len(args.args[skip:]) :] if args.args[skip:] else [],
    )
    return f"({ast.unparse(copy)})"


def _parameters(label: str, offset: int) -> list[tuple[int, int]]:
    """(start, end) of each parameter in `title(a, b=1, *, c)`, markers `*`, `/` excluded."""
    spans: list[tuple[int, int]] = []
    depth, start = 0, offset + 1
    for index in range(offset + 1, len(label)):
        char = label[index]
        if char in "([{":
            depth += 1
        elif char in ")]}" and depth > 0:
            depth -= 1
        elif (char == "," and depth == 0) or (char == ")" and depth == 0):
            text = label[start:index]
            stripped = text.strip()
            if stripped and stripped not in ("*", "/"):
                lead = len(text) - len(text.lstrip())
                spans.append((start + lead, start + lead + len(stripped)))
            start = index + 1
            if char == ")":
                break
    return spans


def _bare(param: str) -> str:
    return re.split(r"[=:]", param.lstrip("*"), maxsplit=1)[0].strip()


def _active(label: str, params: list[tuple[int, int]], index: int, keyword: Optional[str]) -> int:
    """The parameter being written: by keyword, else by position (`*args` takes the rest)."""
    names = [label[start:end] for start, end in params]
    if keyword is not None:
        found = [i for i, name in enumerate(names) if _bare(name) == keyword]
        return found[0] if found else len(params)
    for i, name in enumerate(names):
        if name.startswith("**"):
            break
        if name.startswith("*") and index >= i:
            return i
    return index


def _markdown(text: Optional[str]) -> Optional[types.MarkupContent]:
    if not text:
        return None
    return types.MarkupContent(kind=types.MarkupKind.Markdown, value=text)
