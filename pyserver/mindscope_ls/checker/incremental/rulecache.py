"""The findings of the function rules for one compiled function, kept between checks.

An edit re-parses one top-level block; the functions of every other block keep their nodes (the
blocks below an inserted line too, re-numbered), so their findings are taken from the previous
check when nothing else they depend on changed: the level, the Tensor parameters, the module's
names (and which of its classes are plain, closed ones), the class (attributes, bases,
positions), the classes the rules looked up, and (rarely) the rest of the text. Findings are
kept with the function's line and moved with it: the classes they may point into are part of
the key by where they are relative to that line, so a finding is reused only where everything
it points at moved by the same number of lines. The rules that read beyond the function (its
callers, the module's other code) are kept apart, by what `neighbourhood` says they may read.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from operator import itemgetter
from typing import Optional, SupportsIndex, Union, overload

from ..index.sources import split_lines
from ..model import Range, RawFinding
from ..registry import FUNCTION_CHECKS, FunctionCheck, rules_checked_by
from ..rule import node_range
from ..rules.about_checker import check_crashed
from ..rules.helpers.base import CACHEABLE, FunctionContext
from ..rules.helpers.classes import (
    ClassTable,
    Lookup,
    RecordingClassTable,
    relative_anchors,
    same_lookups,
)
from ..rules.helpers.discovery import CompiledFunction
from ..rules.helpers.instances import closed_classes
from ..rules.helpers.shared_values import function_only
from . import timing
from .memo import NodeMemo
from .neighbourhood import Neighbourhood
from .rebase import moved_findings


@dataclass(frozen=True)
class _Entry:
    # (position among the function checks, findings) of each cacheable rule that found any
    found: tuple[tuple[int, tuple[RawFinding, ...]], ...]
    looked_up: tuple[Lookup, ...]  # classes the rules resolved, relative to `line`
    text: Optional[str]  # the whole text, when the rules read lines outside the function
    line: int  # the function's first line when the findings were computed


_RESULTS: NodeMemo[_Entry] = NodeMemo()
_NEAR: NodeMemo[_Entry] = NodeMemo()  # the rules that read beyond the function


@dataclass
class Text:
    """The checked text and its lines, as the rules see them."""

    source: str
    lines: list[str]
    # `lines` splits at every line break `str.splitlines` knows, the parser only at "\n". When
    # they differ, a line's number in `lines` moves with edits elsewhere: findings read from
    # `lines` are then kept for this exact text only.
    exact: bool
    _tracked: Optional[_TrackedLines] = None

    @classmethod
    def of(cls, source: str) -> Text:
        lines = split_lines(source)
        breaks = source.count("\n") + (not source.endswith("\n"))
        return cls(source, lines, len(lines) == breaks)

    def tracked(self, start: int, stop: int) -> _TrackedLines:
        """The lines, noting reads outside [start, stop) (0-based); one copy per check."""
        if self._tracked is None:
            self._tracked = _TrackedLines(self.lines)
        self._tracked.watch(start, stop)
        return self._tracked


def function_findings(
    fn: CompiledFunction,
    level: str,
    classes: ClassTable,
    text: Text,
    near: Optional[Neighbourhood] = None,
) -> list[RawFinding]:
    """What every function rule reports for `fn`, in rule order. The rules that read beyond
    the function are kept too, by `near`'s key (run in every check without one)."""
    source, lines = text.source, text.lines
    line = fn.node.lineno
    cls = fn.cls
    deps = (
        level,
        frozenset(fn.tensor_params),
        fn.module.path,
        fn.module.env,
        cls.signature() if cls is not None else None,
        relative_anchors(cls, line) if cls is not None else None,
        closed_classes(fn.module),  # whether a name may be a plain object (`calls.py`)
        _plan(),  # the checks there are (a test may replace them)
    )

    def valid(entry: _Entry) -> bool:
        if entry.text is None and not text.exact:
            return False
        if entry.text is not None and entry.text != source:
            return False
        return same_lookups(classes, entry.looked_up, line)

    ran: list[FunctionContext] = []  # the cacheable rules' context, when they ran now
    entry = _RESULTS.get(fn.node, deps, lambda: _run(fn, level, classes, text, ran), valid)
    if near is None:
        ctx = _uncached_context(fn, level, classes, lines, ran)
        steps = ((position, _findings(check, ctx)) for position, check in _plan())
        outside = _Entry(tuple((p, f) for p, f in steps if f), (), None, line)
    else:
        caller = fn.caller
        where = (caller.path, node_range(caller.node), caller.description) if caller else None
        near_deps = (deps, where, fn.reason, near.key(fn.node))
        compute = partial(_run_outside, fn, level, classes, text, ran)
        outside = _NEAR.get(fn.node, near_deps, compute, valid)
    # Most rules find nothing in most functions: only the others, merged into rule order.
    moved = [(p, f, line - entry.line) for p, f in entry.found]
    moved.extend((p, f, line - outside.line) for p, f in outside.found)
    moved.sort(key=itemgetter(0))
    found: list[RawFinding] = []
    for _, findings, delta in moved:
        found.extend(moved_findings(findings, delta) if delta else findings)
    return found


@dataclass
class _Plan:
    checks: tuple[FunctionCheck, ...] = ()
    marked: int = 0
    steps: tuple[tuple[int, FunctionCheck], ...] = ()


_PLAN = _Plan()


def _plan() -> tuple[tuple[int, FunctionCheck], ...]:
    """The checks that run in every check (not cacheable), each with its position among all
    function checks: asked once for the checks and marks there are (a test may replace
    `FUNCTION_CHECKS`)."""
    if _PLAN.checks is not FUNCTION_CHECKS or _PLAN.marked != len(CACHEABLE):
        _PLAN.checks, _PLAN.marked = FUNCTION_CHECKS, len(CACHEABLE)
        _PLAN.steps = tuple(
            (position, check)
            for position, check in enumerate(FUNCTION_CHECKS)
            if check not in CACHEABLE
        )
    return _PLAN.steps


def _uncached_context(
    fn: CompiledFunction,
    level: str,
    classes: ClassTable,
    lines: list[str],
    ran: list[FunctionContext],
) -> FunctionContext:
    """The context of the rules that run in every check. After the cacheable rules ran on
    the function (a cold check), it takes over their types and what they derived from the
    function alone; not what read the module through their tracked lines."""
    if not ran:
        return FunctionContext(fn, fn.types(), level, classes, lines)
    ctx = FunctionContext(fn, ran[0].types, level, classes, lines)
    ctx.shared.update(function_only(ran[0]))
    return ctx


def _findings(check: FunctionCheck, ctx: FunctionContext) -> tuple[RawFinding, ...]:
    """What `check` reports at `ctx.level`; a crash costs only its own findings (MS001, logged)."""
    if timing.ENABLED:
        check = timing.timed(check)
    try:
        found = tuple(check(ctx))
    except Exception as error:
        node = ctx.fn.node
        at = Range(node.lineno, node.col_offset, node.lineno, node.col_offset + 3)
        what = f"checking `{ctx.fn.qualname}`"
        found = (check_crashed(rules_checked_by(check), ctx.path, what, error, at),)
    for finding in found:
        finding.level = ctx.level
    return found


def _run(
    fn: CompiledFunction, level: str, classes: ClassTable, text: Text, ran: list[FunctionContext]
) -> _Entry:
    recording, tracked = _watched(fn, classes, text)
    ctx = FunctionContext(fn, fn.types(), level, recording, tracked)
    ran.append(ctx)
    steps = ((p, check) for p, check in enumerate(FUNCTION_CHECKS) if check in CACHEABLE)
    return _entry(fn, steps, ctx, recording, tracked, text)


def _run_outside(
    fn: CompiledFunction, level: str, classes: ClassTable, text: Text, ran: list[FunctionContext]
) -> _Entry:
    recording, tracked = _watched(fn, classes, text)
    ctx = _uncached_context(fn, level, recording, tracked, ran)
    return _entry(fn, _plan(), ctx, recording, tracked, text)


def _watched(
    fn: CompiledFunction, classes: ClassTable, text: Text
) -> tuple[RecordingClassTable, _TrackedLines]:
    """A class table noting the classes looked up and lines noting reads outside `fn`."""
    node = fn.node
    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    return RecordingClassTable(classes, node.lineno), text.tracked(
        first - 1, node.end_lineno or node.lineno
    )


def _entry(
    fn: CompiledFunction,
    steps: Iterable[tuple[int, FunctionCheck]],
    ctx: FunctionContext,
    recording: RecordingClassTable,
    tracked: _TrackedLines,
    text: Text,
) -> _Entry:
    found = tuple((p, findings) for p, check in steps if (findings := _findings(check, ctx)))
    whole = tracked.outside or not text.exact
    source = text.source if whole else None
    return _Entry(found, tuple(recording.looked_up), source, fn.node.lineno)


class _TrackedLines(list[str]):
    """The file's lines, noting whether anything outside lines [start, stop) (0-based) is read."""

    start = stop = 0
    outside = False

    def watch(self, start: int, stop: int) -> None:
        self.start, self.stop, self.outside = start, stop, False

    @overload
    def __getitem__(self, index: SupportsIndex) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> list[str]: ...
    def __getitem__(self, index: Union[SupportsIndex, slice]) -> Union[str, list[str]]:
        if isinstance(index, slice):
            begin, end, _ = index.indices(len(self))
            if begin < self.start or end > self.stop:
                self.outside = True
        else:
            at = index.__index__()
            if not self.start <= (at if at >= 0 else at + len(self)) < self.stop:
                self.outside = True
        return super().__getitem__(index)

    def __iter__(self) -> Iterator[str]:
        self.outside = True
        return super().__iter__()

    def __reversed__(self) -> Iterator[str]:
        self.outside = True
        return super().__reversed__()

    def __contains__(self, item: object) -> bool:
        self.outside = True
        return super().__contains__(item)
