"""Rules as objects: one declaration per rule, collected from the rule modules; a crash in one
check is logged with its rules and the file and costs only that check's findings."""

from __future__ import annotations

import ast
import logging
from collections.abc import Iterator

import pytest

from mindscope_ls.checker import RULES, UNSUPPORTED_SYNTAX, Group, check_source
from mindscope_ls.checker.incremental import rulecache
from mindscope_ls.checker.registry import BY_SYMBOL, FUNCTION_CHECKS, RULE_MODULES, rules_of
from mindscope_ls.checker.rule import Rule

BAD = """\
import mindspore as ms
from mindspore import nn


class Net(nn.Cell):
    def construct(self, x):
        try:
            y = x + 1
        except ValueError:
            y = x
        if x > 0:
            return x
        return 1
"""


def test_every_rule_is_declared_once_in_a_rule_module() -> None:
    declared = [rule for module in RULE_MODULES for rule in rules_of(module)]
    assert sorted(r.code for r in declared) == sorted(RULES)
    assert len(BY_SYMBOL) == len(RULES)
    for rule in declared:
        assert rule.code[2] == {"0": "0", **{g: g for g in "12345"}}[rule.code[2]]
        assert rule.symbol == rule.symbol.lower() and " " not in rule.symbol, rule.symbol
        assert rule.message and rule.why and rule.remedy, rule.code


def test_groups_follow_the_first_digit() -> None:
    digit = {
        Group.PARSE: "0",
        Group.FAILS: "1",
        Group.STRICT: "2",
        Group.DIVERGES: "3",
        Group.DEPRECATED: "4",
        Group.PERFORMANCE: "5",
    }
    for rule in RULES.values():
        assert rule.code[2] == digit[rule.group], rule.code


def test_a_finding_is_made_by_its_rule() -> None:
    rule = RULES["MS108"]
    node = ast.parse("class A: pass").body[0]
    found = rule.finding(node, name="A")
    assert found.code == "MS108" and "`A`" in found.message and found.range.line == 1
    with pytest.raises(KeyError):
        rule.finding(node)  # a template argument left out is a bug of the rule, not a silence


def test_a_duplicate_declaration_is_refused() -> None:
    from types import ModuleType

    from mindscope_ls.checker import registry

    twin = ModuleType("twin")
    twin.A = RULES["MS101"]  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="MS101"):
        registry._collect((*RULE_MODULES, twin))


def test_unsupported_syntax_maps_node_classes_to_rules() -> None:
    assert UNSUPPORTED_SYNTAX[ast.Try] == "MS101"
    assert UNSUPPORTED_SYNTAX[ast.YieldFrom] == "MS103"
    assert UNSUPPORTED_SYNTAX[ast.SetComp] == "MS111"
    assert all(isinstance(RULES[code], Rule) for code in UNSUPPORTED_SYNTAX.values())


def test_a_crashing_function_check_is_logged_and_hides_no_other_rule(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    before = {f.code for f in check_source(BAD, "crash.py")}
    assert {"MS101", "MS112"} <= before

    def broken(ctx: object) -> Iterator[object]:
        raise ZeroDivisionError("division by zero")
        yield

    broken.__module__ = "mindscope_ls.checker.rules.objects"  # it stands for that family
    monkeypatch.setattr(rulecache, "FUNCTION_CHECKS", (broken, *FUNCTION_CHECKS))
    with caplog.at_level(logging.ERROR, logger="mindscope_ls.checker"):
        after = check_source(BAD, "crash.py")
    crash = [f for f in after if f.code == "MS001"]
    assert len(crash) == 1 and "ZeroDivisionError" in crash[0].message
    assert "objects rules (MS1062-MS1063, MS115-MS117, MS121)" in crash[0].message
    assert {f.code for f in after} == before | {"MS001"}
    logged = [r for r in caplog.records if r.exc_info is not None]
    assert logged and "crash.py" in logged[0].getMessage()
    assert "MS1062-MS1063, MS115-MS117, MS121" in logged[0].getMessage()
