"""The graph-mode checker on real code: the MindSpore model zoos, as users install them.

usage: python bench/checker_realcode.py [--packages mindcv ...] [--levels LAX STRICT]
                                        [--show error] [--json OUT] [--refresh]

Downloads each package's latest wheel (`pip download --no-deps`, cached under
~/.cache/mindscope/realcode/), unpacks it, runs `mindscope check --format json` on its code at
each syntax level, and prints per package: files, lines, seconds, findings by severity and by
code. The peer, timed in the same run on the same files, is `ruff check` with the pyflakes rules
(`--select F`): the ratio says how many times ruff's time the checker takes. `--show error`
lists every error-level finding (the review in docs/checker-realcode.md starts from it).

A package whose own code and docs say which parts run in PyNative only (DECLARED) is checked
twice at each level: raw, and with the `pyproject.toml` a user of it would write
(`[tool.mindscope] pynative = [...]`, and `device = "..."` when the package says which device
it runs on; level shown as e.g. `LAX+pn`), whose graph-mode findings in those parts (and
failures for want of a CPU kernel, on Ascend) are information. docs/checker-realcode.md quotes
the evidence.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
import zipfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PACKAGES = ("mindcv", "mindocr", "mindyolo", "mindnlp", "mindone")
CACHE = Path.home() / ".cache" / "mindscope" / "realcode"
BIN = Path(sys.executable).parent
# What a user of the package declares PyNative-only, from the package's own evidence
# (docs/checker-realcode.md): mindone's Hugging Face model ports run eagerly (its README's
# examples never set GRAPH_MODE; qwen2_vl: "ms.set_context(mode = ms.GRAPH_MODE) # NOT
# SUPPORTED YET"). Its diffusers, trainers and other models claim GRAPH_MODE: not declared.
# Its `transformers` package is the library of those ports (`modeling_utils.py`, the masks):
# declared with them. Its ComfyUI port (`mindone/comfyui`) neither sets a mode nor uses `jit`
# anywhere: it runs in MindSpore's default, PyNative.
DECLARED: dict[str, tuple[str, ...]] = {
    "mindone": ("mindone/transformers/**", "mindone/comfyui/**"),
}
# The device a package says it runs on: mindone's METADATA ("most tasks were tested with
# MindSpore 2.6.0-2.7.1 on Ascend Atlas 800T A2 machines", for diffusers and transformers) and
# its `TrainingArguments.device_target` default ("Ascend").
DEVICE: dict[str, str] = {"mindone": "Ascend"}


@dataclass
class Run:
    package: str
    level: str
    files: int
    lines: int
    seconds: float
    findings: list[dict[str, Any]] = field(default_factory=list)

    def by_severity(self) -> Counter[str]:
        return Counter(f["severity"] for f in self.findings)

    def by_code(self) -> Counter[str]:
        return Counter(f"{f['code']}:{f['severity'][0]}" for f in self.findings)


def wheel(package: str, refresh: bool) -> Path:
    """The cached wheel of `package`, downloaded (its latest version) when missing."""
    CACHE.mkdir(parents=True, exist_ok=True)
    found = sorted(CACHE.glob(f"{package}-*.whl"))
    if found and not refresh:
        return found[-1]
    print(f"downloading {package} ...", file=sys.stderr, flush=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "-d", str(CACHE),
         "--no-cache-dir", package],
        check=True,
    )  # fmt: skip
    found = sorted(CACHE.glob(f"{package}-*.whl"), key=lambda p: p.stat().st_mtime)
    if not found:
        raise SystemExit(f"checker_realcode: pip gave no wheel for {package}")
    return found[-1]


def unpack(whl: Path) -> list[Path]:
    """The wheel's unpacked import roots (top-level folders and modules, not its metadata)."""
    target = CACHE / "unpacked" / whl.stem
    if not target.is_dir():
        with zipfile.ZipFile(whl) as archive:
            archive.extractall(target)
    return sorted(
        p
        for p in target.iterdir()
        if not p.name.endswith((".dist-info", ".data")) and (p.is_dir() or p.suffix == ".py")
    )


def python_files(roots: list[Path]) -> list[Path]:
    return [f for root in roots for f in ([root] if root.is_file() else root.rglob("*.py"))]


def count_lines(files: list[Path]) -> int:
    return sum(f.read_bytes().count(b"\n") for f in files)


def mindscope_command() -> list[str]:
    script = BIN / "mindscope"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "mindscope_ls.checker.output.cli"]


def pyproject(globs: tuple[str, ...], device: str | None = None) -> str:
    """The `pyproject.toml` a user writes to declare `globs` PyNative-only (and the device)."""
    text = "[tool.mindscope]\npynative = [" + ", ".join(json.dumps(g) for g in globs) + "]\n"
    return text + (f"device = {json.dumps(device)}\n" if device else "")


def check(
    package: str, roots: list[Path], level: str, files: int, lines: int, declared: bool = False
) -> Run:
    """One `mindscope check` run; `declared`: with the package's DECLARED pyproject.toml beside
    its import roots (where the CLI looks for it), removed after the run."""
    command = [*mindscope_command(), "check", *map(str, roots), "--level", level]
    project = roots[0].parent / "pyproject.toml"
    if declared:
        project.write_text(pyproject(DECLARED[package], DEVICE.get(package)))
    try:
        start = time.perf_counter()
        done = subprocess.run([*command, "--format", "json"], capture_output=True, text=True)
        seconds = time.perf_counter() - start
    finally:
        if declared:
            project.unlink()
    # 1: errors found; 3: incomplete (MS001: the checker crashed on some code, in the findings
    # too): results like any other, counted.
    if done.returncode not in (0, 1, 3):
        sys.stderr.write(done.stderr)
        raise SystemExit(f"checker_realcode: mindscope check exited {done.returncode}")
    label = f"{level}+pn" if declared else level
    return Run(package, label, files, lines, seconds, json.loads(done.stdout))


def ruff_seconds(roots: list[Path]) -> float:
    ruff = shutil.which("ruff", path=str(BIN)) or shutil.which("ruff")
    if ruff is None:
        raise SystemExit("checker_realcode: ruff (the peer) is not installed")
    command = [ruff, "check", "--isolated", "--no-cache", "--select", "F", "--exit-zero",
               "--quiet", *map(str, roots)]  # fmt: skip
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def print_run(run: Run) -> None:
    sev = run.by_severity()
    codes = " ".join(f"{code}={n}" for code, n in sorted(run.by_code().items())) or "-"
    print(
        f"{run.package:9} {run.level:6} {run.files:6} {run.lines:8} {run.seconds:8.1f} "
        f"{sev['error']:6} {sev['warning']:7} {sev['information']:5}  {codes}"
    )


def show(runs: list[Run], severity: str, roots: dict[str, Path]) -> None:
    for run in runs:
        for f in run.findings:
            if f["severity"] == severity:
                path = Path(f["path"]).resolve().relative_to(roots[run.package])
                print(f"  {run.level:6} {f['code']} {path}:{f['line']}  {f['message'][:90]}")


def runs_of(runs: list[Run], label: str) -> list[Run]:
    """The runs one total line adds up: for `LAX+pn`, each declared package's declared run
    and the other packages' plain LAX runs."""
    level, _, declared = label.partition("+")
    if not declared:
        return [r for r in runs if r.level == label]
    return [r for r in runs if r.level == label or (r.level == level and r.package not in DECLARED)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packages", nargs="+", default=list(PACKAGES))
    parser.add_argument("--levels", nargs="+", default=["LAX", "STRICT"], type=str.upper)
    parser.add_argument("--show", choices=["error", "warning", "information"])
    parser.add_argument("--json", type=Path, help="write every finding of every run here")
    parser.add_argument("--refresh", action="store_true", help="download the wheels again")
    args = parser.parse_args()

    runs: list[Run] = []
    peer = 0.0
    unpacked: dict[str, Path] = {}
    print(
        f"{'package':9} {'level':6} {'files':>6} {'lines':>8} {'seconds':>8} "
        f"{'errors':>6} {'warnings':>7} {'info':>5}  findings (code:severity=count)"
    )
    for package in args.packages:
        whl = wheel(package, args.refresh)
        print(f"{package}: {whl.name}", file=sys.stderr)
        roots = unpack(whl)
        unpacked[package] = (CACHE / "unpacked" / whl.stem).resolve()
        files = python_files(roots)
        lines = count_lines(files)
        peer += ruff_seconds(roots)
        for level in args.levels:
            for declared in (False, True) if package in DECLARED else (False,):
                runs.append(check(package, roots, level, len(files), lines, declared))
                print_run(runs[-1])
                sys.stdout.flush()
    for level in dict.fromkeys(r.level for r in runs):
        of_level = runs_of(runs, level)
        errors = sum(r.by_severity()["error"] for r in of_level)
        seconds = sum(r.seconds for r in of_level)
        lines = sum(r.lines for r in of_level)
        print(
            f"all       {level:6} {sum(r.files for r in of_level):6} {lines:8} {seconds:8.1f} "
            f"{errors:6}  ({lines / seconds:,.0f} lines/s; peer ruff --select F {peer:.1f} s,"
            f" ratio {seconds / peer:.0f}x)"
        )
    if args.show:
        show(runs, args.show, unpacked)
    if args.json:
        dump = [{"package": r.package, "level": r.level, "findings": r.findings} for r in runs]
        args.json.write_text(json.dumps(dump, indent=1))


if __name__ == "__main__":
    main()
