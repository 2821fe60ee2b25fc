"""The device the code runs on (checker/device.py): failures for want of a CPU kernel (MS178,
MS179) are information on Ascend, declared or set by the file; errors on CPU, on GPU and when
nothing says."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mindscope_ls.checker import RULES, Severity, check_source
from mindscope_ls.checker.device import file_device
from mindscope_ls.checker.index.module import ModuleInfo
from mindscope_ls.checker.output.cli import main

NET = """import mindspore as ms
from mindspore import nn
{setting}

class Net(nn.Cell):
    def construct(self, x):
        y = x.cumsum(dim=1)
        del y
        return x
"""


def _codes(source: str, device: str | None = None) -> list[tuple[str, Severity]]:
    return [(f.code, f.severity) for f in check_source(source, "net.py", device=device)]


def test_cpu_only_rules_are_marked() -> None:
    assert {code for code, rule in RULES.items() if rule.cpu_only} == {
        "MS178",
        "MS179",
        "MS1009",
        "MS1013",
        "MS1034",
    }


def test_nothing_said_keeps_the_error() -> None:
    found = _codes(NET.format(setting=""))
    assert ("MS179", Severity.ERROR) in found and ("MS102", Severity.ERROR) in found


@pytest.mark.parametrize("device", ["Ascend", "ascend"])
def test_declared_ascend_lowers_only_the_cpu_kernel_finding(device: str) -> None:
    found = check_source(NET.format(setting=""), "net.py", device=device)
    by_code = {f.code: f for f in found}
    assert by_code["MS179"].severity is Severity.INFORMATION
    assert by_code["MS179"].message.startswith("runs on Ascend here (the declared device)")
    assert by_code["MS102"].severity is Severity.ERROR  # `del` fails on every device


@pytest.mark.parametrize("device", ["CPU", "GPU"])
def test_declared_cpu_or_gpu_keeps_the_error(device: str) -> None:
    assert ("MS179", Severity.ERROR) in _codes(NET.format(setting=""), device)


@pytest.mark.parametrize(
    ("setting", "lowered"),
    [
        ('ms.set_context(device_target="Ascend")', True),
        ('ms.set_device("Ascend")', True),
        ('ms.set_context(device_target="CPU")', False),
        ('ms.set_context(device_target="Ascend")\nms.set_context(device_target="CPU")', False),
        ("ms.set_context(device_target=TARGET)", False),  # chosen at run time
    ],
)
def test_the_file_sets_its_device(setting: str, lowered: bool) -> None:
    found = dict(_codes(NET.format(setting=setting)))
    want = Severity.INFORMATION if lowered else Severity.ERROR
    assert found["MS179"] is want


def test_a_declared_device_wins_over_the_file() -> None:
    source = NET.format(setting='ms.set_context(device_target="Ascend")')
    assert dict(_codes(source, "CPU"))["MS179"] is Severity.ERROR


def test_file_device_names_the_line() -> None:
    module = ModuleInfo.build("m.py", NET.format(setting='ms.set_device("Ascend")'))
    assert file_device(module) == ("Ascend", 3)


def _write(folder: Path, name: str, text: str) -> None:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_cli_flag_and_pyproject_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    source = NET.format(setting="").replace("        del y\n", "")
    _write(tmp_path, "net.py", source)
    monkeypatch.chdir(tmp_path)
    assert main(["check", "net.py"]) == 1
    capsys.readouterr()
    assert main(["check", "net.py", "--device", "Ascend", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["code"], r["severity"]) for r in rows] == [("MS179", "information")]
    _write(tmp_path, "pyproject.toml", '[tool.mindscope]\ndevice = "Ascend"\n')
    assert main(["check", "net.py"]) == 0
    assert main(["check", "net.py", "--device", "CPU"]) == 1  # the flag wins
    capsys.readouterr()
    _write(tmp_path, "pyproject.toml", '[tool.mindscope]\ndevice = "TPU"\n')
    assert main(["check", "net.py"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "device must be one of CPU, GPU, Ascend" in err
    assert main(["check", "net.py", "--device", "TPU"]) == 2
