"""Masked CRC32C (Castagnoli) as TFRecord-style framing uses it.

`google-crc32c` (C, hardware-accelerated) when installed; otherwise a table-driven pure-Python
fallback that gives the same values, only slower.
"""

from __future__ import annotations

from typing import Callable

MASK_DELTA = 0xA282EAD8
_POLY = 0x82F63B78  # CRC32C, reflected


def _table() -> list[int]:
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ _POLY if crc & 1 else crc >> 1
        table.append(crc)
    return table


_TABLE = _table()


def crc32c_python(data: bytes) -> int:
    crc = 0xFFFFFFFF
    table = _TABLE
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def _fast() -> Callable[[bytes], int] | None:
    try:
        import google_crc32c
    except ImportError:
        return None
    if getattr(google_crc32c, "implementation", "c") != "c":
        return None  # its own pure-Python fallback is slower than ours
    value: Callable[[bytes], int] = google_crc32c.value
    return value


_FAST = _fast()
crc32c: Callable[[bytes], int] = _FAST or crc32c_python
IMPLEMENTATION = "google-crc32c" if _FAST else "python"


def masked(crc: int) -> int:
    return (((crc >> 15) | (crc << 17)) + MASK_DELTA) & 0xFFFFFFFF


def masked_crc32c(data: bytes) -> int:
    return masked(crc32c(data))
