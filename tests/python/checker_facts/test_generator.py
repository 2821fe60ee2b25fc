"""The differential generator's pure parts: programs, headers, the held-out choice."""

from __future__ import annotations

from scripts.checker_facts.cases import parse
from scripts.checker_facts.families_flow import joins
from scripts.checker_facts.families_state import mutation
from scripts.checker_facts.outcome import Outcome, Verdict, distinct, normal
from scripts.checker_facts.program import Snippet, programs, render
from scripts.checker_facts.writer import held_out

SNIPPET = Snippet(
    "joins",
    "join_demo",
    "str",
    ("if x.sum() > 0:", "    y = x", "else:", "    y = 'a'", "return y"),
    3,
)


def test_op_line_points_at_the_operation_in_every_context() -> None:
    for context in ("construct", "jit", "method"):
        program = render(SNIPPET, context)
        assert program.source.splitlines()[program.op_line - 1].strip() == "y = 'a'", context
        assert "def run():" in program.source


def test_snippets_that_need_self_are_not_put_in_a_function() -> None:
    contexts = {p.context for p in programs([s for s in mutation() if s.needs_self])}
    assert "jit" not in contexts and contexts == {"construct", "method"}


def test_program_names_are_unique() -> None:
    names = [p.name for p in programs(joins())]
    assert len(names) == len(set(names))


def test_held_out_is_deterministic_and_about_a_fifth() -> None:
    names = [p.name for p in programs(joins())]
    chosen = [n for n in names if held_out("joins", n)]
    assert chosen == [n for n in names if held_out("joins", n)]
    assert 0.12 < len(chosen) / len(names) < 0.28


def _outcome(context: str, lax: Verdict, strict: Verdict) -> Outcome:
    return Outcome(render(SNIPPET, context), {"LAX": lax, "STRICT": strict}, {})


def test_contexts_that_behave_alike_are_one_case() -> None:
    fail = Verdict(False, 40, "MS112", "TypeError: Cannot join")
    same = [_outcome(c, fail, fail) for c in ("construct", "jit")]
    other = _outcome("method", Verdict(True), fail)
    kept = distinct([*same, other])
    assert [o.program.context for o in kept] == ["construct", "method"]


def test_header_round_trips_through_the_corpus_format() -> None:
    text = "# lax: ok\n# strict: fail 42 MS202\n# lax warns: 40 MS303\n# known gap: why\nimport x\n"
    case = parse("mutation", "demo", text)
    assert case.expect["LAX"].ok and not case.expect["STRICT"].ok
    assert (case.expect["STRICT"].line, case.expect["STRICT"].code) == (42, "MS202")
    assert case.warns == {"LAX": [(40, "MS303")]} and case.gap == "why"


def test_renderings_that_only_look_different_are_equal() -> None:
    assert normal({"_Int": 1}) == normal({"int": 1})
    assert normal({"float64": 2.0}) == normal({"float": 2.0})
    assert normal({"str": "<Custom object at 0x7f00aa>"}) == normal(
        {"str": "<Custom object at 0x7f11bb>"}
    )
    assert normal({"tuple": [{"int": 1}]}) != normal({"dict": [["'a'", {"int": 1}]]})
