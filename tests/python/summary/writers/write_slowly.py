"""Write one scalar record per line read on stdin, flushing each, and answer `wrote N`:
lets a test read the file while this (real MindSpore) process still writes it.
Usage: python write_slowly.py OUT"""

from __future__ import annotations

import sys
from pathlib import Path

import mindspore as ms
import numpy as np
from mindspore import Tensor
from mindspore.train.summary import SummaryRecord


def main(out: Path) -> None:
    ms.set_device("CPU")
    with SummaryRecord(str(out)) as record:
        print("ready", flush=True)
        for step, _ in enumerate(sys.stdin, start=1):
            record.add_value("scalar", "loss", Tensor(np.float32(1.0 / step)))
            record.record(step)
            record.flush()
            print(f"wrote {step}", flush=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
