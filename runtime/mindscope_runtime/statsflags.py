"""Flag suspicious tensors in a stats run: vanishing/exploding gradients, dead ReLUs, NaN/Inf.

Pure: works on the records `stats_run` collects. Every flag names the rule that raised it, with
the measured value and the threshold, so a user can judge (and tune) it.
"""

from __future__ import annotations

import statistics
from dataclasses import asdict, dataclass
from typing import Any, Optional

JsonDict = dict[str, Any]

RELU_TYPES = frozenset({"ReLU", "ReLU6"})


@dataclass(frozen=True)
class Thresholds:
    """Defaults: gradient RMS < 1e-7, or < 1e-4 x the median gradient RMS, is
    vanishing; RMS > 1e3, or > 1 and > 1e3 x the median gradient RMS, is exploding; a ReLU whose
    units (axis 1) are ≥ 50% all-zero over the batch is dead."""

    vanishing_rms: float = 1e-7
    vanishing_ratio: float = 1e-4
    exploding_rms: float = 1e3
    exploding_ratio: float = 1e3
    dead_unit_fraction: float = 0.5

    def to_json(self) -> JsonDict:
        return {_camel(k): v for k, v in asdict(self).items()}


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def flag_all(
    inputs: list[JsonDict],
    outputs: list[JsonDict],
    gradients: list[JsonDict],
    loss: Optional[float],
    thresholds: Thresholds,
    default_loss: bool = False,
) -> tuple[list[JsonDict], Optional[JsonDict]]:
    """All flags (most severe first) and the first place NaN/Inf appear (or None).

    `default_loss`: the loss was the sum of the outputs; when that makes every gradient
    exactly 0 (a softmax's outputs sum to 1), one flag says so instead of one per weight."""
    first = first_non_finite(inputs, outputs)
    flags: list[JsonDict] = []
    if first is not None:
        flags.append(_non_finite_flag(first))
    if loss is None:
        flags.append(
            _flag(
                "non-finite-loss",
                "error",
                "loss",
                "loss",
                "",
                None,
                None,
                "loss is NaN or Inf",
                "the loss of the forward step is not finite",
            )
        )
    if default_loss and loss is not None and _all_zero(gradients):
        flags.append(_constant_loss_flag(loss))
    else:
        flags.extend(_gradient_flags(gradients, thresholds))
    flags.extend(_dead_relu_flags(outputs, thresholds))
    flags.sort(key=lambda f: 0 if f["severity"] == "error" else 1)
    return flags, first


def first_non_finite(inputs: list[JsonDict], outputs: list[JsonDict]) -> Optional[JsonDict]:
    """Where NaN/Inf first appear: an input, else the first Cell output (in completion order)
    holding them. Hooks fire when a Cell returns, so children come before their parents.

    `where` is `inside` when that Cell's inputs were finite (the Cell made them), `before`
    when its inputs already held NaN/Inf: then the parent's own code made them, between
    the previous Cell (`after`) and this one."""
    for record in inputs:
        stats = record["stats"]
        if stats["nanCount"] or stats["infCount"]:
            return {
                "subject": "input",
                "where": "input",
                "cell": None,
                "scope": None,
                "cellType": None,
                "name": record["name"],
                "order": None,
                "after": None,
                "nanCount": stats["nanCount"],
                "infCount": stats["infCount"],
            }
    previous: Optional[str] = None
    for record in outputs:
        stats = record["stats"]
        if stats["nanCount"] or stats["infCount"]:
            where = "before" if record.get("inputNonFinite") else "inside"
            return {
                "subject": "output",
                "where": where,
                "cell": record["cell"],
                "scope": record["scope"],
                "cellType": record["cellType"],
                "name": record["cell"] or "(root)",
                "order": record["order"],
                "after": previous,
                "nanCount": stats["nanCount"],
                "infCount": stats["infCount"],
            }
        previous = record["cell"]
    return None


def _non_finite_flag(first: JsonDict) -> JsonDict:
    counts = f"{first['nanCount']} NaN, {first['infCount']} Inf"
    if first["where"] == "input":
        message = f"NaN/Inf are already in {first['name']} ({counts})"
    elif first["where"] == "inside":
        message = f"NaN/Inf first appear in {first['name']}, from finite inputs ({counts})"
    else:
        parent = first["name"].rpartition(".")[0] or "the root Cell"
        after = f" after {first['after']}" if first["after"] is not None else ""
        message = (
            f"NaN/Inf first appear in the inputs of {first['name']}: made by the code of "
            f"{parent}'s construct{after} ({counts} in {first['name']}'s output)"
        )
    return _flag(
        "non-finite",
        "error",
        first["subject"],
        first["name"],
        first["scope"] or "",
        float(first["nanCount"] + first["infCount"]),
        0.0,
        "first input or Cell output (in completion order) with NaN or Inf",
        message,
    )


def _all_zero(gradients: list[JsonDict]) -> bool:
    return bool(gradients) and all(g["stats"]["rms"] == 0 for g in gradients)


def _constant_loss_flag(loss: float) -> JsonDict:
    return _flag(
        "constant-loss",
        "warning",
        "loss",
        "loss",
        "",
        loss,
        None,
        "every gradient is exactly 0 under the default loss (the sum of the outputs)",
        f"the default loss, the sum of the outputs, is constant ({loss:g}) for this model "
        "(e.g. softmax outputs sum to 1), so every gradient is 0: give a real loss with "
        "--loss-from file.py:loss_fn",
    )


def _gradient_flags(gradients: list[JsonDict], t: Thresholds) -> list[JsonDict]:
    rms_values = [g["stats"]["rms"] for g in gradients if g["stats"]["rms"] is not None]
    healthy = [r for r in rms_values if r >= t.vanishing_rms]  # a median of the living
    median = statistics.median(healthy) if healthy else 0.0
    out: list[JsonDict] = []
    for grad in gradients:
        stats, name, scope = grad["stats"], grad["parameter"], grad["scope"] or ""
        if stats["nanCount"] or stats["infCount"]:
            out.append(
                _flag(
                    "non-finite-gradient",
                    "error",
                    "gradient",
                    name,
                    scope,
                    float(stats["nanCount"] + stats["infCount"]),
                    0.0,
                    "gradient holds NaN or Inf",
                    f"gradient of {name} holds {stats['nanCount']} NaN and {stats['infCount']} Inf",
                )
            )
            continue
        rms = stats["rms"]
        if rms is None:
            continue
        flag = _vanishing(name, scope, rms, median, len(healthy), t) or _exploding(
            name, scope, rms, median, len(healthy), t
        )
        if flag is not None:
            out.append(flag)
    return out


def _vanishing(
    name: str, scope: str, rms: float, median: float, count: int, t: Thresholds
) -> Optional[JsonDict]:
    if rms < t.vanishing_rms:
        return _flag(
            "vanishing-gradient",
            "warning",
            "gradient",
            name,
            scope,
            rms,
            t.vanishing_rms,
            f"gradient RMS < {t.vanishing_rms:g}",
            f"gradient of {name} vanishes: RMS {rms:.3g}",
        )
    if count >= 2 and median > 0 and rms / median < t.vanishing_ratio:
        return _flag(
            "vanishing-gradient",
            "warning",
            "gradient",
            name,
            scope,
            rms / median,
            t.vanishing_ratio,
            f"gradient RMS < {t.vanishing_ratio:g} x the median parameter's",
            f"gradient of {name} is {rms / median:.3g} x the median gradient "
            f"(RMS {rms:.3g} vs {median:.3g})",
        )
    return None


def _exploding(
    name: str, scope: str, rms: float, median: float, count: int, t: Thresholds
) -> Optional[JsonDict]:
    if rms > t.exploding_rms:
        return _flag(
            "exploding-gradient",
            "warning",
            "gradient",
            name,
            scope,
            rms,
            t.exploding_rms,
            f"gradient RMS > {t.exploding_rms:g}",
            f"gradient of {name} explodes: RMS {rms:.3g}",
        )
    if count >= 3 and median > 0 and rms > 1.0 and rms / median > t.exploding_ratio:
        return _flag(
            "exploding-gradient",
            "warning",
            "gradient",
            name,
            scope,
            rms / median,
            t.exploding_ratio,
            f"gradient RMS > 1 and > {t.exploding_ratio:g} x the median parameter's",
            f"gradient of {name} is {rms / median:.3g} x the median gradient",
        )
    return None


def _dead_relu_flags(outputs: list[JsonDict], t: Thresholds) -> list[JsonDict]:
    out: list[JsonDict] = []
    for record in outputs:
        dead = record.get("deadUnitFraction")
        if record["cellType"] not in RELU_TYPES or dead is None:
            continue
        if dead >= t.dead_unit_fraction:
            name = record["cell"] or "(root)"
            out.append(
                _flag(
                    "dead-relu",
                    "warning",
                    "output",
                    name,
                    record["scope"],
                    dead,
                    t.dead_unit_fraction,
                    f"≥ {t.dead_unit_fraction:.0%} of units are 0 for the whole batch",
                    f"{name}: {dead:.0%} of its units output 0 for every sample",
                )
            )
    return out


def _flag(
    kind: str,
    severity: str,
    subject: str,
    name: str,
    scope: str,
    value: Optional[float],
    threshold: Optional[float],
    rule: str,
    message: str,
) -> JsonDict:
    return {
        "kind": kind,
        "severity": severity,
        "subject": subject,
        "name": name,
        "scope": scope,
        "value": value,
        "threshold": threshold,
        "rule": rule,
        "message": message,
    }
