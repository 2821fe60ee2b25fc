"""Slow: compile every case with the real MindSpore 2.10 (GRAPH_MODE, CPU) in subprocesses.

Proves that each error rule's example fails, its fixed version and each quick fix compile, STRICT
rules fail only under STRICT, divergence rules really diverge from PyNative, and the clean example
compiles. Cases are batched into a few processes that run two at a time.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import pytest

from mindscope_ls.checker import RULES, Group, check_source

from .harness import Outcome, apply_all_fixes, case_files, finish, materialize, start

pytestmark = pytest.mark.slow


def _group(name: str) -> Group:
    return RULES[name.split("_")[0]].group


def _strict_divergence(name: str) -> bool:
    """A divergence rule whose example diverges under STRICT only (its LAX warns nothing)."""
    if name.split("_")[0] not in RULES or _group(name) is not Group.DIVERGES:
        return False
    rule = name.split("_")[0]
    return "# lax warns: none" in (case_files(f"{rule}_bad") or [Path()])[0].read_text()


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Outcome]]:
    pytest.importorskip("mindspore")
    folder = tmp_path_factory.mktemp("cases")
    sources = {p.stem: p.read_text() for p in case_files()}
    for name, text in list(sources.items()):
        if name.endswith("_bad"):
            fixed = apply_all_fixes(text, check_source(text, f"{name}.py"))
            if fixed != text:
                sources[name.replace("_bad", "_fixed")] = fixed
    paths = {p.stem: p for p in materialize(sources, folder)}

    def pick(*groups: Group, suffixes: tuple[str, ...] = ("_bad", "_ok", "_fixed")) -> list[Path]:
        return [
            p
            for n, p in paths.items()
            if n.startswith("clean") or (_group(n) in groups and n.endswith(suffixes))
        ]

    everything = list(paths.values())
    half = len(everything) // 2
    plans = {
        "lax-1": (everything[:half], "LAX", "graph"),
        "lax-2": (everything[half:], "LAX", "graph"),
        "strict": (
            pick(Group.STRICT) + [p for n, p in paths.items() if _strict_divergence(n)],
            "STRICT",
            "graph",
        ),
        "pynative": (pick(Group.DIVERGES), "LAX", "pynative"),
    }
    results: dict[str, dict[str, Outcome]] = {}
    logs: dict[str, str] = {}
    order = list(plans)
    for first, second in zip(order[::2], order[1::2]):  # two processes at a time: 2 cores
        procs = {key: start(*plans[key]) for key in (first, second)}
        for key, proc in procs.items():
            results[key], logs[key] = finish(proc)
    lax = {**results.pop("lax-1"), **results.pop("lax-2")}
    results["lax"] = lax
    results["logs"] = {k: Outcome(k, True, out=v) for k, v in logs.items()}
    return results


def _names(suffix: str, *groups: Group) -> list[str]:
    return [p.stem for p in case_files(f"*{suffix}") if _group(p.stem) in groups]


def test_error_rule_examples_fail_and_fixed_versions_compile(
    runs: dict[str, dict[str, Outcome]],
) -> None:
    lax = runs["lax"]
    for name in _names("_bad", Group.FAILS):
        assert not lax[f"{name}.py"].ok, f"{name} compiled but the checker says it fails"
    for name in _names("_ok", Group.FAILS, Group.STRICT, Group.DIVERGES, Group.DEPRECATED):
        assert lax[f"{name}.py"].ok, (name, lax[f"{name}.py"].msg)


def test_quick_fixes_compile(runs: dict[str, dict[str, Outcome]]) -> None:
    fixed = [k for k in runs["lax"] if k.endswith("_fixed.py")]
    assert len(fixed) >= 6
    for name in fixed:
        assert runs["lax"][name].ok, (name, runs["lax"][name].msg)


def test_strict_rules_fail_only_under_strict(runs: dict[str, dict[str, Outcome]]) -> None:
    for name in _names("_bad", Group.STRICT):
        assert runs["lax"][f"{name}.py"].ok, name
        assert not runs["strict"][f"{name}.py"].ok, name
        message = runs["strict"][f"{name}.py"].msg or ""
        # STRICT's own words, or the start of what the rule says MindSpore prints under STRICT
        said = RULES[name.split("_")[0]].mindspore_says.partition("Error: ")[2][:30]
        strict_only = ("strict mode", "Cannot join", "Try to set jit_syntax_level to LAX")
        assert any(m in message for m in strict_only) or (said and said in message), (
            name,
            message,
        )
    for name in _names("_ok", Group.STRICT):
        assert runs["strict"][f"{name}.py"].ok, name
    assert runs["strict"]["clean_mixed.py"].ok


def _shown(outcome: Outcome) -> tuple[Optional[str], Optional[str]]:
    """What a user sees of a run: the value `run()` returns and what it printed."""
    return outcome.out, outcome.printed


def test_divergence_rules_really_diverge(runs: dict[str, dict[str, Outcome]]) -> None:
    pynative = runs["pynative"]
    same = []  # every example that does not diverge, not only the first
    for name in _names("_bad", Group.DIVERGES):
        graph = runs["strict"] if _strict_divergence(name) else runs["lax"]
        ran = graph[f"{name}.py"]
        if not (ran.ok and _shown(ran) != _shown(pynative[f"{name}.py"])):
            same.append((name, _shown(ran)))
    assert not same
    differ = []
    for name in [*_names("_ok", Group.DIVERGES), *_names("_fixed", Group.DIVERGES)]:
        graph = runs["strict"] if _strict_divergence(name) else runs["lax"]
        if f"{name}.py" in graph and graph[f"{name}.py"].out != pynative[f"{name}.py"].out:
            differ.append(name)
    assert not differ


def test_deprecations_are_what_mindspore_says(runs: dict[str, dict[str, Outcome]]) -> None:
    lax = runs["lax"]
    assert lax["MS402_bad.py"].type == "AttributeError"
    assert "has no attribute 'ms_function'" in (lax["MS402_bad.py"].msg or "")
    logs = "".join(o.out or "" for o in runs["logs"].values())
    assert "the parameter 'device_target' will be deprecated" in logs


def test_clean_example_compiles_with_no_findings(runs: dict[str, dict[str, Outcome]]) -> None:
    (clean,) = case_files("clean_mixed")
    assert check_source(clean.read_text(), str(clean)) == []
    assert runs["lax"]["clean_mixed.py"].ok
