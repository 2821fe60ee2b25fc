"""Pure text helpers for MindSpore docstrings: signature line, summary, sections, deprecation.

Used by the builder (with MindSpore) and by the server (on the full doc, for parameter docs).
"""

from __future__ import annotations

import re
from typing import Optional

_SIG_LINE = re.compile(r"^\s*([A-Za-z_][\w.]*)\((.*)\)\s*(?:->\s*(.+))?$")
_ROLE = re.compile(r":(?:func|class|meth|attr|mod|obj|doc|ref):`~?([^`<]+?)(?:\s*<[^>]+>)?`")
_SECTION = re.compile(
    r"^(Args|Arguments|Parameters|Inputs|Outputs|Returns|Raises|Note|Examples|"
    r"Supported Platforms|Keyword Args|Keyword Arguments|Tutorial Examples)"
    r"\s*:\s*$"
)
_API_DEPRECATED = re.compile(
    r"(?:this|the)\s+(?:interface|api|operator|function|class|method)\s+"
    r"(?:is|has been)\s+deprecated"
    r"|is deprecated from version|deprecated and will be removed|\bdeprecated since\b",
    re.IGNORECASE,
)
_ABOUT_ARGUMENT = re.compile(r"\b(?:parameters?|arguments?|value|input|overload)\b", re.I)
_REPLACEMENT = re.compile(
    r"(?:please\s+)?use\s+(?::\w+:)?`+~?([A-Za-z_][\w.]*)(?:\(\))?`+(?:\s+instead)?",
    re.IGNORECASE,
)
_PARAM = re.compile(r"^\s*(?:-\s*)?\*{0,2}([A-Za-z_]\w*)\*{0,2}\s*(\([^)]*\))?\s*[:-]\s*(.*)$")


def clean(doc: Optional[str]) -> str:
    """Dedented docstring without the leading/trailing blank lines."""
    if not doc:
        return ""
    lines = doc.expandtabs().splitlines()
    first, rest = lines[0].strip(), lines[1:]
    indents = [len(x) - len(x.lstrip()) for x in rest if x.strip()]
    margin = min(indents) if indents else 0
    body = [first] + [x[margin:].rstrip() for x in rest]
    return "\n".join(body).strip("\n").strip()


def signature_line(doc: str, name: str) -> Optional[tuple[str, Optional[str]]]:
    """`name(a, b=1) -> Tensor` as the doc's first line: ("(a, b=1)", "Tensor")."""
    first = doc.split("\n", 1)[0] if doc else ""
    match = _SIG_LINE.match(first)
    if not match or match.group(1).rsplit(".", 1)[-1] != name:
        return None
    return f"({match.group(2)})", (match.group(3) or "").strip() or None


def strip_roles(text: str) -> str:
    return _ROLE.sub(lambda m: f"`{m.group(1)}`", text)


def summary(doc: str, name: str, limit: int = 400) -> str:
    """The first prose paragraph: no signature line, no directives, roles reduced to code."""
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", doc) if p.strip()]
    for paragraph in paragraphs:
        if signature_line(paragraph, name) and "\n" not in paragraph:
            continue
        if paragraph.startswith(".. ") or _SECTION.match(paragraph.split("\n", 1)[0]):
            continue
        text = " ".join(line.strip() for line in paragraph.splitlines())
        text = strip_roles(text)
        return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
    return ""


def section(doc: str, title: str) -> list[str]:
    """The lines of a Google-style section (`Args:`), dedented by its first line's indent."""
    lines = doc.splitlines()
    for index, line in enumerate(lines):
        match = _SECTION.match(line.strip())
        if match and match.group(1) == title and not line.startswith(" " * 8):
            body: list[str] = []
            for item in lines[index + 1 :]:
                if item.strip() and not item.startswith((" ", "\t")):
                    break
                if item.strip() and _SECTION.match(item.strip()) and body:
                    indent = len(item) - len(item.lstrip())
                    first = len(body[0]) - len(body[0].lstrip())
                    if indent < first:
                        break
                body.append(item)
            return body
    return []


def parameters(doc: str, title: str = "Args") -> dict[str, str]:
    """Parameter name -> its description, from an `Args:`/`Inputs:` section."""
    body = [line for line in section(doc, title)]
    out: dict[str, str] = {}
    base = min((len(x) - len(x.lstrip()) for x in body if x.strip()), default=0)
    current: Optional[str] = None
    for line in body:
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        match = _PARAM.match(line) if indent == base else None
        if match:
            current = match.group(1)
            kind = match.group(2) or ""
            out[current] = strip_roles(f"{kind} {match.group(3)}".strip())
        elif current is not None:
            out[current] += " " + strip_roles(line.strip())
    return out


_RETURN_TYPES = {
    name.lower(): name
    for name in (
        "Tensor",
        "tuple",
        "list",
        "int",
        "float",
        "bool",
        "str",
        "dict",
        "Parameter",
        "COOTensor",
        "CSRTensor",
        "Number",
        "Scalar",
        "None",
    )
}


def returns(doc: str, arrow: Optional[str]) -> Optional[str]:
    """ "Tensor", "tuple" … what the API returns, from `-> X` or the Returns/Outputs section."""
    text = arrow
    if not text:
        body = section(doc, "Returns") or section(doc, "Outputs")
        text = next((x.strip() for x in body if x.strip()), "")
    if not text:
        return None
    head = re.split(r"[,.:\s(\[]", text.strip().lstrip("-* "), maxsplit=1)[0]
    return _RETURN_TYPES.get(head.lower())


def deprecation(doc: str, name: str) -> Optional[str]:
    """The replacement named by a deprecation notice ("" when none is named); None if current.

    Only the paragraphs before the first section count: `Args:` often deprecates an argument,
    which does not make the API itself deprecated.
    """
    own = re.compile(rf"`[\w.]*\b{re.escape(name)}`\s+is\s+deprecated", re.IGNORECASE)
    for paragraph in re.split(r"\n\s*\n", doc):
        if _SECTION.match(paragraph.strip().split("\n", 1)[0]):
            break
        if "Non-backward-compatible" in paragraph:
            continue
        text = strip_roles(paragraph).replace("\n", " ")
        for sentence in re.split(r"(?<=\.)\s+", text):
            if _ABOUT_ARGUMENT.search(sentence):
                continue  # "The parameter `x` is deprecated …": the API stays
            if _API_DEPRECATED.search(sentence) or own.search(sentence):
                match = _REPLACEMENT.search(text)
                return match.group(1) if match else ""
    return None
