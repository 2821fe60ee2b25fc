"""What a rule is: its code, symbol, meaning and docs, declared once beside its check.

Rules create their findings (`RULE.finding(node, name=...)`) and fixes (`RULE.fix(edit)`), so a
finding always names a rule that exists: there is no code string to mistype.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Union

from .model import Fix, Group, Range, RawFinding, Related, Severity, SyntaxLevel, TextEdit


@dataclass(frozen=True)
class Rule:
    code: str  # MS101: the group is its first digit
    symbol: str  # try-in-graph: the readable name
    group: Group
    title: str
    message: str  # the finding's text, a `str.format` template filled by `finding(**args)`
    why: str
    remedy: str
    mindspore_says: str  # what MindSpore 2.10.0 printed for the rule's example (CPU, GRAPH_MODE)
    fix_title: str = ""  # template of its quick fix's title; "" when it offers none
    about_checker: bool = False  # says the checker could not check something (a warning)
    # fails only where graph mode lacks a CPU kernel: information on another device (device.py)
    cpu_only: bool = False

    @property
    def doc(self) -> str:
        return f"docs/rules/{self.code}.md"

    def severity(self, level: str) -> Severity:
        if self.about_checker:
            return Severity.WARNING
        if self.group in (Group.FAILS, Group.PARSE):
            return Severity.ERROR
        if self.group is Group.STRICT:
            return Severity.ERROR if level == SyntaxLevel.STRICT else Severity.INFORMATION
        if self.group is Group.PERFORMANCE:
            return Severity.INFORMATION
        return Severity.WARNING

    def finding(
        self,
        at: Union[ast.AST, Range],
        *,
        related: Iterable[Related] = (),
        fix: Union[Fix, None] = None,
        **args: object,
    ) -> RawFinding:
        """A finding of this rule at `at` (a node or a range), its message filled with `args`."""
        rng = at if isinstance(at, Range) else node_range(at)
        return RawFinding(self.code, self.message.format(**args), rng, list(related), fix)

    def fix(self, *edits: TextEdit, **args: object) -> Fix:
        """This rule's quick fix, its title filled with `args`."""
        return Fix(self.fix_title.format(**args), tuple(edits))


def node_range(node: ast.AST) -> Range:
    line = getattr(node, "lineno", 1) or 1
    col = getattr(node, "col_offset", 0) or 0
    end_line = getattr(node, "end_lineno", None) or line
    end_col = getattr(node, "end_col_offset", None)
    if end_col is None:
        end_col = col
    return Range(line, col, end_line, end_col)
