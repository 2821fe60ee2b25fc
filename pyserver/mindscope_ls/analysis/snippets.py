"""MindSpore snippets (a Cell, a training step, a dataset pipeline), offered where a statement
starts. Expanded with their defaults, each one runs as it is (`test_snippets.py` runs them)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Optional

from lsprotocol import types

from mindscope_ls.analysis.sourcemodel import model_around

# The names a snippet uses -> the import that binds them (added when the file lacks it).
IMPORTS = {
    "ms": ("mindspore", "import mindspore as ms"),
    "nn": ("mindspore.nn", "from mindspore import nn"),
    "np": ("numpy", "import numpy as np"),
    "ds": ("mindspore.dataset", "import mindspore.dataset as ds"),
}


@dataclass(frozen=True)
class Snippet:
    label: str
    detail: str
    body: str  # LSP snippet syntax
    needs: tuple[str, ...]  # keys of IMPORTS


SNIPPETS = (
    Snippet(
        "mscell",
        "MindSpore Cell: __init__ + construct",
        """\
class ${1:Net}(nn.Cell):
    def __init__(self, in_features=${2:16}, out_features=${3:4}):
        super().__init__()
        self.dense = nn.Dense(in_features, out_features)
        self.relu = nn.ReLU()

    def construct(self, x):
        ${0:return self.relu(self.dense(x))}""",
        ("nn",),
    ),
    Snippet(
        "mstrain",
        "MindSpore training step: value_and_grad + optimizer",
        """\
loss_fn = ${1:nn.CrossEntropyLoss()}
optimizer = ${2:nn.Adam}(${3:net}.trainable_params(), learning_rate=${4:1e-3})


def forward_fn(data, label):
    logits = ${3:net}(data)
    return loss_fn(logits, label), logits


grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)


def train_step(data, label):
    (loss, _), grads = grad_fn(data, label)
    optimizer(grads)
    return loss
$0""",
        ("ms", "nn"),
    ),
    Snippet(
        "msdata",
        "MindSpore dataset pipeline: GeneratorDataset, map, batch",
        """\
def ${1:samples}():
    for index in range(${2:64}):
        yield np.full((${3:16},), index, np.float32), np.array(index % ${4:4})


${5:dataset} = ds.GeneratorDataset(${1:samples}, column_names=["data", "label"], shuffle=True)
${5:dataset} = ${5:dataset}.map(ds.transforms.TypeCast(ms.int32), input_columns="label")
${5:dataset} = ${5:dataset}.batch(${6:32}, drop_remainder=True)
$0""",
        ("ms", "np", "ds"),
    ),
)

_STATEMENT_START = re.compile(r"^\s*(?:[A-Za-z_]\w*)?$")
_PLACEHOLDER = re.compile(r"\$\{\d+:([^}]*)\}|\$\{\d+\}|\$\d+")
_LOOK_BACK = 60  # lines scanned for an unclosed bracket
_TOP_IMPORT = re.compile(r"(?:import|from)\s")
_DOCSTRING = re.compile(r"[rRuU]?(\"\"\"|'''|\"|')")


def expand(body: str) -> str:
    """The snippet as inserted when every placeholder keeps its default (ours do not nest)."""
    return _PLACEHOLDER.sub(lambda match: match.group(1) or "", body)


def snippet_items(source: str, line: int, column: int) -> list[types.CompletionItem]:
    """The snippets, when the cursor is where a statement starts; [] elsewhere."""
    lines = source.split("\n")
    if not 0 <= line < len(lines):
        return []
    before = lines[line][:column]
    if not _STATEMENT_START.match(before) or _inside_expression(lines, line, before):
        return []
    bound = {name: found.path for name, found in model_around(source, line).imports.items()}
    at = _import_position(lines, line)
    items = []
    word = before.lstrip()
    for snippet in SNIPPETS:
        if not _matches(word, snippet.label):
            continue
        if any(bound.get(name, IMPORTS[name][0]) != IMPORTS[name][0] for name in snippet.needs):
            continue  # the file binds `nn` (or …) to something else: the snippet would break
        missing = [IMPORTS[name][1] for name in snippet.needs if name not in bound]
        items.append(_item(snippet, missing, at))
    return items


def _matches(word: str, label: str) -> bool:
    """The typed word's letters appear in order in the label, the first one first (VS Code
    filters the same way, from the items of the word's first letter)."""
    word, label = word.lower(), label.lower()
    if not word:
        return True
    if word[0] != label[0]:
        return False
    rest = iter(label[1:])
    return all(char in rest for char in word[1:])


def _item(
    snippet: Snippet, missing: list[str], at: Optional[types.Position]
) -> types.CompletionItem:
    body, edits = snippet.body, None
    if missing and at is None:
        gap = "\n\n\n" if snippet.body.startswith(("class ", "def ")) else "\n\n"
        body = "\n".join(missing) + gap + body
    elif missing and at is not None:
        edits = [types.TextEdit(range=types.Range(start=at, end=at), new_text=_lines(missing))]
    return types.CompletionItem(
        label=snippet.label,
        kind=types.CompletionItemKind.Snippet,
        detail=snippet.detail,
        documentation=_documentation(snippet.label),
        insert_text=body,
        insert_text_format=types.InsertTextFormat.Snippet,
        additional_text_edits=edits,
        sort_text=f"~{snippet.label}",  # after the names in scope
    )


@cache
def _documentation(label: str) -> types.MarkupContent:
    snippet = next(s for s in SNIPPETS if s.label == label)
    code = expand(snippet.body).rstrip()
    return types.MarkupContent(kind=types.MarkupKind.Markdown, value=f"```python\n{code}\n```")


def _lines(texts: list[str]) -> str:
    return "".join(f"{text}\n" for text in texts)


def _import_position(lines: list[str], line: int) -> Optional[types.Position]:
    """Where missing imports go: after the last top-level import above the cursor, else after
    the module docstring, else the top. None when that is the cursor's line, which the
    completion itself replaces: the snippet then starts with the imports."""
    after = _docstring_end(lines, line)
    index = after
    while index < line:
        if _TOP_IMPORT.match(lines[index]):
            index = _statement_end(lines, index, line)
            after = index + 1
        index += 1
    return types.Position(line=after, character=0) if after < line else None


def _docstring_end(lines: list[str], line: int) -> int:
    """The line after the module docstring (0 without one), read from the text: a statement
    start is also typed while the rest of the file does not parse."""
    index = 0
    while index < line and (not lines[index].strip() or lines[index].startswith("#")):
        index += 1
    match = _DOCSTRING.match(lines[index]) if index < line else None
    if match is None:
        return 0
    quote = match.group(1)
    if len(quote) == 1 or quote in lines[index][match.end() :]:
        return index + 1
    end = next((i for i in range(index + 1, line) if quote in lines[i]), None)
    return end + 1 if end is not None else 0


def _statement_end(lines: list[str], index: int, limit: int) -> int:
    """The last line of the import starting at `index`: parentheses and backslashes."""
    open_paren = "(" in lines[index] and ")" not in lines[index]
    while index + 1 < limit and (open_paren or lines[index].rstrip().endswith("\\")):
        index += 1
        if open_paren and ")" in lines[index]:
            open_paren = False
    return index


def _inside_expression(lines: list[str], line: int, before: str) -> bool:
    """An unclosed bracket or a backslash continuation above the cursor (rough: strings
    and comments are skipped, a docstring that starts above the window is not seen)."""
    first = max(0, line - _LOOK_BACK)
    if line > 0 and lines[line - 1].rstrip().endswith("\\"):
        return True
    depth, quote = 0, ""
    text = "\n".join([*lines[first:line], before])
    index = 0
    while index < len(text):
        char = text[index]
        if quote:
            if char == "\\":
                index += 1
            elif text.startswith(quote, index):
                index += len(quote) - 1
                quote = ""
            elif char == "\n" and len(quote) == 1:
                quote = ""  # an unterminated one-line string ends with its line
        elif char == "#":
            newline = text.find("\n", index)
            index = len(text) if newline < 0 else newline - 1
        elif char in "'\"":
            quote = text[index : index + 3] if text.startswith(char * 3, index) else char
            index += len(quote) - 1
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(0, depth - 1)
        index += 1
    return depth > 0 or bool(quote)
