"""Turn decoded `Event`s into a run's plain values: scalar series, histograms, images, tensor
statistics and the recorded graph (kept as the protobuf message until a graph is asked for)."""

from __future__ import annotations

import base64
import math
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Any, Optional

from mindscope_runtime.summary.tensors import tensor_sample

JsonDict = dict[str, Any]
IMAGES_KEPT = 100  # per tag, the most recent: images are the bulk of a summary


def finite(value: float) -> Optional[float]:
    """JSON has no NaN/Inf: they become null (histograms and tensors count them separately)."""
    return value if math.isfinite(value) else None


@dataclass
class ScalarSeries:
    steps: list[int] = field(default_factory=list)
    wall_times: list[float] = field(default_factory=list)
    values: list[float] = field(default_factory=list)


@dataclass
class RunData:
    """Everything read so far from one run's files, grouped by kind and tag."""

    tags: tuple[str, ...] = ()  # glob patterns; empty keeps every tag
    scalars: dict[str, ScalarSeries] = field(default_factory=dict)
    histograms: dict[str, list[JsonDict]] = field(default_factory=dict)
    images: dict[str, list[JsonDict]] = field(default_factory=dict)
    tensors: dict[str, list[JsonDict]] = field(default_factory=dict)
    graphs: list[tuple[int, float, Any]] = field(default_factory=list)
    version: Optional[str] = None
    events: int = 0
    first_wall_time: Optional[float] = None
    last_wall_time: Optional[float] = None
    _wanted: dict[str, bool] = field(default_factory=dict)

    def wants(self, tag: str) -> bool:
        known = self._wanted.get(tag)
        if known is None:
            known = not self.tags or any(fnmatchcase(tag, pattern) for pattern in self.tags)
            self._wanted[tag] = known
        return known

    def add(self, event: Any) -> None:
        self.events += 1
        what = event.WhichOneof("what")
        wall = event.wall_time
        if what == "summary":
            self._add_summary(event.step, wall, event.summary)
        elif what == "graph_def":
            self.graphs.append((event.step, wall, event.graph_def))
        elif what == "version":
            self.version = event.version
            return  # written when the file is opened: not a training time
        if self.first_wall_time is None or wall < self.first_wall_time:
            self.first_wall_time = wall
        if self.last_wall_time is None or wall > self.last_wall_time:
            self.last_wall_time = wall

    def _add_summary(self, step: int, wall: float, summary: Any) -> None:
        for value in summary.value:
            tag = value.tag
            if not self.wants(tag):
                continue
            kind = value.WhichOneof("value")
            if kind == "scalar_value":
                series = self.scalars.get(tag)
                if series is None:
                    series = self.scalars[tag] = ScalarSeries()
                series.steps.append(step)
                series.wall_times.append(wall)
                series.values.append(value.scalar_value)
            elif kind == "histogram":
                self.histograms.setdefault(tag, []).append(
                    histogram_sample(step, wall, value.histogram)
                )
            elif kind == "image":
                kept = self.images.setdefault(tag, [])
                kept.append(image_sample(step, wall, value.image))
                del kept[:-IMAGES_KEPT]
            elif kind == "tensor":
                self.tensors.setdefault(tag, []).append(tensor_sample(step, wall, value.tensor))


def histogram_sample(step: int, wall: float, histogram: Any) -> JsonDict:
    return {
        "step": step,
        "wallTime": wall,
        "min": finite(histogram.min),
        "max": finite(histogram.max),
        "sum": finite(histogram.sum),
        "count": histogram.count,
        "nanCount": histogram.nan_count,
        "posInfCount": histogram.pos_inf_count,
        "negInfCount": histogram.neg_inf_count,
        "buckets": [[b.left, b.width, b.count] for b in histogram.buckets],
    }


def image_sample(step: int, wall: float, image: Any) -> JsonDict:
    return {
        "step": step,
        "wallTime": wall,
        "width": image.width,
        "height": image.height,
        "colorspace": image.colorspace,
        "png": base64.b64encode(image.encoded_image).decode("ascii"),
    }
