"""MindSpore's `Event` message class, built with `protobuf` from the vendored descriptors.

A private DescriptorPool: the same process may also import MindSpore's own `summary_pb2`
(the kernel does), whose files would clash in the default pool.
"""

from __future__ import annotations

import base64
from functools import cache
from typing import Any

from mindscope_runtime.summary import schema_descriptors


@cache
def _pool() -> Any:
    from google.protobuf import descriptor_pool

    pool = descriptor_pool.DescriptorPool()
    for text in (schema_descriptors.ANF_IR, schema_descriptors.SUMMARY):
        pool.AddSerializedFile(base64.b64decode(text))
    return pool


def message_class(full_name: str) -> Any:
    """The generated class of `mindspore.irpb.<Name>`."""
    descriptor = _pool().FindMessageTypeByName(full_name)
    try:
        from google.protobuf.message_factory import GetMessageClass
    except ImportError:  # protobuf < 4.21
        from google.protobuf.message_factory import MessageFactory

        return MessageFactory(_pool()).GetPrototype(descriptor)
    return GetMessageClass(descriptor)


@cache
def event_class() -> Any:
    return message_class("mindspore.irpb.Event")


def parse_event(payload: bytes) -> Any:
    """An `Event`; raises google.protobuf.message.DecodeError on bad bytes."""
    event = event_class()()
    event.ParseFromString(payload)
    return event
