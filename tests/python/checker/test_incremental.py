"""Re-checking after an edit gives exactly the findings a fresh check gives.

A workspace keeps parsed blocks, walk indexes, discovery facts and rule findings between checks
(keyed by node identity and what each result depends on); a fresh `Workspace` has none of them.
Random edit sequences over the examples and the corpus compare the two after every edit.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mindscope_ls.checker import Finding, Workspace, check_source

from .harness import case_files

REPO = Path(__file__).resolve().parents[3]
CORPUS = sorted((REPO / "tests" / "graphmode" / "cases").glob("*.pycase"))
EXAMPLES = sorted((REPO / "examples").rglob("*.py"))
SOURCES = [p.read_text(encoding="utf-8") for p in [*EXAMPLES, *case_files(), *CORPUS]]
LEVELS = ("LAX", "STRICT", "COMPATIBLE")
IDENTIFIER = re.compile(r"\b[A-Za-z_]\w*\b")
# Statements that trigger rules (or undo them) when inserted into a function body.
STATEMENTS = [
    "del y",
    "s = {1, 2}",
    "y = x.asnumpy()",
    "import os",
    "pass",
    "if x.sum() > 0:\n    y = 1",
    "if x.sum() > 0:\n    return x\nreturn 1",
    "self.count = 1",
    "z = str(x)",
    "for i in range(3):\n    pass\nelse:\n    x = x + 1",
    "for i in range(3):\n    if i:\n        break\nelse:\n    x = x + 1",
    "no_break = 1",  # the MS110 fix names its flag after what the whole file does not use
    "ms.set_context(device_target='CPU', jit_syntax_level=ms.STRICT)",
    "os.environ['MS_DEV_JIT_SYNTAX_LEVEL'] = '2'",
    "from mindspore import ms_function",
    "global g\ng = 1",
    "w = (yield x)",
    "d = {}\nd.pop(1)",
    "",
]
CHARS = "abxyz_019 .,:()[]+-*=\n\t#'\""


def _indent(text: str) -> str:
    return text[: len(text) - len(text.lstrip(" \t"))]


def edit(text: str, original: str, rng: random.Random) -> str:
    """One random edit: a character typed, a name changed, a line added or removed, Enter, a
    block duplicated, an import dropped, or back to the original text."""
    lines = text.split("\n")
    at = rng.randrange(len(lines))
    kind = rng.randrange(9)
    if kind == 0 and text:  # a keystroke
        pos = rng.randrange(len(text))
        return text[:pos] + rng.choice(CHARS) + text[pos:]
    if kind == 1:  # one name becomes another name of the file
        found = list(IDENTIFIER.finditer(text))
        if found:
            old, new = rng.choice(found), rng.choice(found).group()
            return text[: old.start()] + new + text[old.end() :]
    if kind == 2:  # a statement at the indentation of a line
        indent = _indent(lines[at])
        block = [indent + line for line in rng.choice(STATEMENTS).split("\n")]
        return "\n".join(lines[:at] + block + lines[at:])
    if kind == 3 and len(lines) > 1:  # a line deleted
        return "\n".join(lines[:at] + lines[at + 1 :])
    if kind == 4:  # Enter: every block below moves down
        return "\n".join([*lines[:at], _indent(lines[at]), *lines[at:]])
    if kind == 5:  # a top-level block duplicated under another name
        starts = [i for i, line in enumerate(lines) if line.startswith(("class ", "def "))]
        if starts:
            first = rng.choice(starts)
            last = next((s for s in starts if s > first), len(lines))
            copy = [lines[first].replace(" ", " Copy", 1), *lines[first + 1 : last]]
            return "\n".join([*lines, "", *copy])
    if kind == 6:  # an import dropped or aliased
        imports = [i for i, line in enumerate(lines) if line.startswith(("import ", "from "))]
        if imports:
            i = rng.choice(imports)
            lines[i] = rng.choice(["", lines[i] + " as other", "import mindspore.nn as nn"])
            return "\n".join(lines)
    if kind == 7:
        return original
    return text.replace("x", "y", 1)


def assert_same(source: str, path: str, workspace: Workspace, level: str) -> list[Finding]:
    again = check_source(source, path, level=level, workspace=workspace, report_parse_errors=True)
    fresh = check_source(source, path, level=level, workspace=Workspace(), report_parse_errors=True)
    assert again == fresh, (path, source)
    return again


def test_edit_sequences_over_every_file() -> None:
    rng = random.Random(20)
    for number, original in enumerate(SOURCES):
        workspace, text, path = Workspace(), original, f"file{number}.py"
        assert_same(text, path, workspace, "LAX")
        for _ in range(6):
            text = edit(text, original, rng)
            assert_same(text, path, workspace, rng.choice(LEVELS))


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.sampled_from(SOURCES),
    st.lists(st.tuples(st.integers(0, 2**32), st.sampled_from(LEVELS)), min_size=1, max_size=12),
)
def test_random_edits_match_a_fresh_check(original: str, steps: list[tuple[int, str]]) -> None:
    workspace, text = Workspace(), original
    assert_same(text, "m.py", workspace, "LAX")
    for seed, level in steps:
        text = edit(text, original, random.Random(seed))
        assert_same(text, "m.py", workspace, level)


BASE = """\
import mindspore as ms
from mindspore import nn, ops, Parameter, Tensor


class Base(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor([1.0]))
        self.items = []

    def helper(self, x):
        return x * 2


def scale(x, k):
    return x * k
"""
USER = """\
from base import Base, scale


class Net(Base):
    def construct(self, x):
        self.w = x
        self.items.append(x)
        y = self.helper(x)
        return scale(y, 2)
"""
BASE_EDITS = [
    ("self.w = Parameter(Tensor([1.0]))", "self.w = 1"),  # no longer a Parameter: MS202
    (
        "        return x * 2",
        "        try:\n            return x * 2\n        except ValueError:\n            return x",
    ),  # the inherited helper now fails (MS101)
    ("    return x * k", "    del k\n    return x"),  # the helper in the other file: MS102
    ("class Base(nn.Cell):", "\nclass Base(nn.Cell):"),  # every range in base.py moves
    ("self.items = []", "self.items = ()"),
]


def test_edits_in_another_file_reach_the_checked_file(tmp_path: Path) -> None:
    (tmp_path / "base.py").write_text(BASE)
    (tmp_path / "user.py").write_text(USER)
    workspace = Workspace.from_folder(str(tmp_path))
    user = str(tmp_path / "user.py")
    base = str(tmp_path / "base.py")
    text = BASE
    before = assert_cross(workspace, {base: text, user: USER}, user)
    seen = {tuple(before)}
    for old, new in BASE_EDITS:
        text = text.replace(old, new)
        workspace.update(base, text)
        seen.add(tuple(assert_cross(workspace, {base: text, user: USER}, user)))
    assert len(seen) > 3  # the edits did change what is reported in user.py
    workspace.remove(base)
    assert assert_cross(workspace, {user: USER}, user) == []
    workspace.update(base, BASE)
    assert assert_cross(workspace, {base: BASE, user: USER}, user) == before


def assert_cross(workspace: Workspace, sources: dict[str, str], path: str) -> list[Finding]:
    again = check_source(sources[path], path, workspace=workspace)
    fresh = check_source(sources[path], path, workspace=Workspace(sources, root=workspace.root))
    assert again == fresh
    return again


LOOP = """\
from mindspore import nn


class S(nn.Cell):
    def construct(self, x):
        s = {1, 2}
        return x


class N(nn.Cell):
    def construct(self, x):
        for i in range(3):
            if i:
                break
        else:
            x = x + 1
        return x


def other():  # a comment
    return 1
"""


def test_findings_that_read_the_rest_of_the_file() -> None:
    workspace = Workspace()
    before = assert_same(LOOP, "loop.py", workspace, "LAX")
    # The MS110 fix names its flag after what the file does not use yet.
    after = assert_same(LOOP.replace("return 1", "no_break = 1"), "loop.py", workspace, "LAX")
    assert before != after
    # A form feed is a line break to `str.splitlines`, not to the parser: one above the class
    # moves the lines its fixes read while its block, and so its nodes, stay the same.
    assert_same(LOOP.replace("import nn", "import nn  # \x0c"), "loop.py", workspace, "LAX")


def _block_starts(lines: list[str]) -> list[int]:
    return [i for i, line in enumerate(lines) if line[:1].isalpha() or line.startswith("@")]


def _moves(text: str, rng: random.Random) -> list[str]:
    """Texts where the blocks below a line moved: lines inserted above compiled code (at the
    top, at a block start, inside a block), blank lines and a block's first line deleted."""
    lines = text.split("\n")
    starts = _block_starts(lines) or [0]
    at = rng.choice(starts)
    inside = rng.randrange(len(lines))
    blank = next((i for i, line in enumerate(lines) if not line.strip()), None)
    texts = [
        "\n" + text,
        "\n".join([*lines[:at], "", "", *lines[at:]]),
        "\n".join([*lines[:at], "# a comment", *lines[at:]]),
        "\n".join([*lines[:inside], _indent(lines[inside]), *lines[inside:]]),
        "\n".join([*lines[:at], "x_inserted = 1", *lines[at:]]),
    ]
    if blank is not None:
        texts.append("\n".join(lines[:blank] + lines[blank + 1 :]))
    texts.append("\n".join(lines[:at] + lines[at + 1 :]))
    return texts


def test_lines_inserted_and_deleted_above_compiled_code() -> None:
    """Blocks that only moved keep their nodes (re-numbered) and the findings kept for them:
    every kept finding, related location and fix must move with them, and nothing kept may
    point at a class that did not move with them."""
    rng = random.Random(7)
    for number, original in enumerate(SOURCES):
        workspace, path = Workspace(), f"moved{number}.py"
        assert_same(original, path, workspace, "LAX")
        for text in _moves(original, rng):
            assert_same(text, path, workspace, "LAX")
            assert_same(original, path, workspace, "LAX")  # and back up


TWO_CLASSES = """\
import mindspore as ms
from mindspore import nn, Parameter, Tensor


class Base(nn.Cell):
    def __init__(self):
        super().__init__()
        self.items = []
        self.w = Parameter(Tensor([1.0]))


# between


class Net(Base):
    def construct(self, x):
        self.items.append(x)
        self.w = x
        return x


@ms.jit
def step(x):
    y = x
    y += 1
    return x + y
"""


def test_a_finding_that_points_into_another_block_moves_with_it() -> None:
    """`Net`'s findings point at `Base`'s attributes: when a line goes in between the two,
    only `Net` moves, and its kept findings must not be moved as a whole."""
    workspace = Workspace()
    before = assert_same(TWO_CLASSES, "two.py", workspace, "LAX")
    assert any(r.path == "two.py" and r.range.line < 10 for f in before for r in f.related)
    for text in (
        TWO_CLASSES.replace("# between", "# between\n"),
        TWO_CLASSES.replace("# between\n", ""),
        "\n\n" + TWO_CLASSES,
        TWO_CLASSES.replace("class Base", "\nclass Base").replace("# between\n", ""),
    ):
        assert_same(text, "two.py", workspace, "LAX")
        assert_same(TWO_CLASSES, "two.py", workspace, "LAX")


CALLED_LATER = """\
import numpy as np
import mindspore as ms
from mindspore import Tensor


@ms.jit
def forward(x):
    if x.sum() > 0:
        return 1
    return x


def run():
    {call}
"""


def test_a_call_written_later_reaches_the_callee_findings() -> None:
    """With no call of `forward`, its findings know no dtype; once a call passes a float32
    Tensor they do. The cached findings must not keep the first answer."""
    workspace = Workspace()
    before = CALLED_LATER.format(call="pass")
    after = CALLED_LATER.format(call="return forward(Tensor(np.ones((2, 3), np.float32)))")
    assert_same(before, "m.py", workspace, "LAX")
    found = assert_same(after, "m.py", workspace, "LAX")
    assert any("float32" in f.message for f in found), found


LOOP_MOVED = """\
import mindspore as ms
{above}

@ms.jit
def forward(x):
    for i in range(3):
        x = x + i
    return x + i
"""


def test_a_loop_name_read_after_the_loop_is_found_after_lines_move() -> None:
    workspace = Workspace()
    assert_same(LOOP_MOVED.format(above=""), "m.py", workspace, "LAX")
    found = assert_same(LOOP_MOVED.format(above="\n\n# moved\n"), "m.py", workspace, "LAX")
    assert [f.code for f in found if f.code == "MS165"], found
