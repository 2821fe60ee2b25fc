"""Every rule the checker ships, collected from the rule modules, and the checks that report them.

A rule module (`rules/<family>.py`) declares its `Rule` objects at module level next to the
checks that report them: `check(ctx)` for each compiled function and/or `check_module(module)`
for the whole file. Adding a module here is all it takes to ship its rules and checks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from types import MappingProxyType, ModuleType

from .index.module import ModuleInfo
from .model import RawFinding
from .rule import Rule
from .rules import (
    about_checker,
    arguments,
    attributes,
    builtins,
    calls,
    cell_lists,
    cell_members,
    cell_plain_lists,
    cell_properties,
    closures,
    cpu_overloads,
    decorated_helpers,
    default_dicts,
    deprecated,
    dict_iteration,
    dict_keys,
    dict_spreads,
    divergence,
    divergence_buffers,
    divergence_cell_modes,
    divergence_constants,
    divergence_containers,
    divergence_dict_pop,
    divergence_dicts,
    divergence_inplace,
    divergence_inputs,
    divergence_membership,
    divergence_next,
    divergence_pow,
    divergence_python,
    divergence_range_output,
    divergence_reductions,
    divergence_scalars,
    divergence_stale,
    divergence_state,
    divergence_swap,
    dynamic,
    enumerate_iterators,
    filter_none,
    forbidden,
    function_items,
    graph_syntax,
    inplace_kernels,
    item_membership,
    itemgetter_strict,
    iteration,
    jit_class_strict,
    joins,
    lax_fallback,
    list_tensor_index,
    map_closures,
    methods,
    mutable_defaults,
    mutation,
    objects,
    objects_strict,
    operators,
    operators_strict,
    operators_truth,
    outputs,
    outputs_strict,
    print_self,
    printing,
    python_dynamic,
    rebuild,
    recompile,
    returns,
    scalars,
    statements,
    stdlib_calls,
    strict,
    strict_class_attributes,
    strict_new_attributes,
    strict_values,
    subscripts,
    tensor_expand,
    tolist_comprehension,
    unpacking,
    unrolled,
    while_grown_lists,
    while_lists,
)
from .rules.helpers.base import FunctionContext

FunctionCheck = Callable[[FunctionContext], Iterator[RawFinding]]
ModuleCheck = Callable[[ModuleInfo], Iterator[RawFinding]]

RULE_MODULES: tuple[ModuleType, ...] = (
    about_checker,
    statements,
    joins,
    outputs,
    outputs_strict,
    builtins,
    objects,
    forbidden,
    mutation,
    returns,
    strict,
    methods,
    divergence,
    divergence_buffers,
    divergence_constants,
    divergence_containers,
    divergence_dicts,
    enumerate_iterators,
    divergence_inplace,
    divergence_inputs,
    divergence_python,
    divergence_reductions,
    divergence_scalars,
    divergence_stale,
    divergence_state,
    calls,
    attributes,
    unpacking,
    iteration,
    deprecated,
    recompile,
    rebuild,
    operators,
    operators_strict,
    operators_truth,
    subscripts,
    arguments,
    dynamic,
    strict_values,
    closures,
    objects_strict,
    scalars,
    graph_syntax,
    unrolled,
    cell_lists,
    cell_members,
    cell_plain_lists,
    strict_new_attributes,
    strict_class_attributes,
    tolist_comprehension,
    dict_keys,
    dict_spreads,
    decorated_helpers,
    mutable_defaults,
    default_dicts,
    stdlib_calls,
    function_items,
    cell_properties,
    lax_fallback,
    python_dynamic,
    inplace_kernels,
    jit_class_strict,
    printing,
    tensor_expand,
    cpu_overloads,
    map_closures,
    list_tensor_index,
    divergence_membership,
    divergence_next,
    divergence_dict_pop,
    filter_none,
    divergence_swap,
    divergence_range_output,
    itemgetter_strict,
    print_self,
    dict_iteration,
    divergence_pow,
    item_membership,
    while_grown_lists,
    divergence_cell_modes,
)


def rules_of(module: ModuleType) -> list[Rule]:
    """The rules a rule module declares, in code order."""
    return sorted((v for v in vars(module).values() if isinstance(v, Rule)), key=lambda r: r.code)


def _collect(modules: tuple[ModuleType, ...]) -> dict[str, Rule]:
    found: dict[str, Rule] = {}
    symbols: set[str] = set()
    for module in modules:
        for rule in rules_of(module):
            if rule.code in found or rule.symbol in symbols:
                raise ValueError(f"rule {rule.code} ({rule.symbol}) is declared twice")
            found[rule.code] = rule
            symbols.add(rule.symbol)
    return dict(sorted(found.items()))


RULES: Mapping[str, Rule] = MappingProxyType(_collect(RULE_MODULES))
BY_SYMBOL: Mapping[str, Rule] = MappingProxyType({r.symbol: r for r in RULES.values()})

# The checks, in the order they run (findings are sorted by position afterwards).
FUNCTION_CHECKS: tuple[FunctionCheck, ...] = (
    statements.check,
    joins.check,
    outputs.check,
    outputs_strict.check,
    builtins.check,
    objects.check,
    objects.check_globals,
    forbidden.check,
    forbidden.check_globals,
    mutation.check,
    returns.check,
    strict.check,
    methods.check,
    divergence.check,
    divergence_constants.check,
    divergence_inplace.check,
    divergence_inplace.check_grad,
    divergence_python.check,
    divergence_python.check_globals,
    divergence_reductions.check,
    divergence_scalars.check,
    divergence_scalars.check_float_returns,
    divergence_scalars.check_format_specs,
    divergence_buffers.check,
    divergence_buffers.check_containers,
    divergence_state.check,
    calls.check,
    calls.check_outside,
    operators.check,
    operators_strict.check,
    operators_truth.check,
    subscripts.check,
    arguments.check,
    dynamic.check,
    strict_values.check,
    closures.check,
    objects_strict.check,
    scalars.check,
    graph_syntax.check,
    graph_syntax.check_globals,
    unrolled.check,
    while_lists.check,
    cell_lists.check,
    cell_members.check,
    cell_plain_lists.check,
    strict_new_attributes.check,
    strict_class_attributes.check,
    tolist_comprehension.check,
    tolist_comprehension.check_loops,
    dict_keys.check,
    lax_fallback.check,
    python_dynamic.check,
    inplace_kernels.check,
    inplace_kernels.check_set,
    jit_class_strict.check,
    printing.check,
    list_tensor_index.check,
    divergence_membership.check,
    divergence_next.check,
    filter_none.check,
    divergence_swap.check,
    divergence_range_output.check,
    itemgetter_strict.check,
    print_self.check,
    divergence_dict_pop.check,
    dict_iteration.check,
    divergence_dicts.check,
    dict_spreads.check,
    enumerate_iterators.check,
    tensor_expand.check,
    cpu_overloads.check,
    cpu_overloads.check_mint,
    cpu_overloads.check_scalar_cast,
    map_closures.check,
    decorated_helpers.check,
    mutable_defaults.check,
    default_dicts.check,
    stdlib_calls.check,
    function_items.check,
    cell_properties.check,
    divergence_pow.check,
    item_membership.check,
    while_grown_lists.check,
    divergence_cell_modes.check,
    divergence_cell_modes.check_to_float,
)
MODULE_CHECKS: tuple[ModuleCheck, ...] = (
    deprecated.check_module,
    recompile.check_module,
    rebuild.check_module,
    divergence_inputs.check_module,
    divergence_stale.check_module,
    divergence_containers.check_module,
)


def rules_checked_by(check: Callable[..., object]) -> str:
    """What a crash log names: `the statements rules (MS101-MS111, MS118, MS120)`."""
    module = next((m for m in RULE_MODULES if m.__name__ == check.__module__), None)
    family = check.__module__.rpartition(".")[2] or "unnamed"
    codes = [int(r.code[2:]) for r in rules_of(module)] if module is not None else []
    runs: list[list[int]] = []
    for code in codes:
        if runs and code == runs[-1][-1] + 1:
            runs[-1].append(code)
        else:
            runs.append([code])
    spans = [f"MS{r[0]:03}" + (f"-MS{r[-1]:03}" if len(r) > 1 else "") for r in runs]
    return f"the {family} rules" + (f" ({', '.join(spans)})" if spans else "")
