"""The subset of CBOR (RFC 8949) the Smithy RPC v2 CBOR protocol uses: maps,
arrays, text and byte strings, integers, floats, booleans, null, and epoch
timestamps (tag 1). moto 5.1.22 has no CBOR support; the Rust SDK's
CloudWatch client speaks only this protocol (moto_patches.cloudwatch_anomaly)."""

import struct
from datetime import datetime, timezone

_BREAK = object()


class CborError(ValueError):
    """A body that is not the CBOR this module reads."""


def decode(data: bytes):
    """The one value of a CBOR body (an empty body is None)."""
    if not data:
        return None
    value, end = _item(data, 0)
    if end != len(data):
        raise CborError(f"{len(data) - end} bytes after the value")
    return value


def _argument(data: bytes, pos: int, info: int):
    if info < 24:
        return info, pos
    sizes = {24: 1, 25: 2, 26: 4, 27: 8}
    if info not in sizes:
        raise CborError(f"unsupported additional information {info}")
    size = sizes[info]
    if pos + size > len(data):
        raise CborError("truncated argument")
    return int.from_bytes(data[pos:pos + size], "big"), pos + size


def _items_until_break(data: bytes, pos: int):
    out = []
    while True:
        value, pos = _item(data, pos)
        if value is _BREAK:
            return out, pos
        out.append(value)


def _item(data: bytes, pos: int):
    if pos >= len(data):
        raise CborError("truncated item")
    head = data[pos]
    major, info, pos = head >> 5, head & 0x1F, pos + 1
    if major == 7:
        return _simple(data, pos, info)
    if info == 31:
        if major not in (2, 3, 4, 5):
            raise CborError(f"indefinite length on major type {major}")
        items, pos = _items_until_break(data, pos)
        if major in (2, 3):
            return (b"" if major == 2 else "").join(items), pos
        if major == 4:
            return items, pos
        return dict(zip(items[::2], items[1::2])), pos
    arg, pos = _argument(data, pos, info)
    if major == 0:
        return arg, pos
    if major == 1:
        return -1 - arg, pos
    if major in (2, 3):
        raw = data[pos:pos + arg]
        return (raw if major == 2 else raw.decode("utf-8")), pos + arg
    if major == 4:
        out = []
        for _ in range(arg):
            value, pos = _item(data, pos)
            out.append(value)
        return out, pos
    if major == 5:
        out = {}
        for _ in range(arg):
            key, pos = _item(data, pos)
            out[key], pos = _item(data, pos)
        return out, pos
    value, pos = _item(data, pos)  # major 6: a tag
    if arg == 1:
        return datetime.fromtimestamp(value, tz=timezone.utc), pos
    return value, pos


def _simple(data: bytes, pos: int, info: int):
    if info == 20:
        return False, pos
    if info == 21:
        return True, pos
    if info in (22, 23):
        return None, pos
    if info == 31:
        return _BREAK, pos
    formats = {25: (">e", 2), 26: (">f", 4), 27: (">d", 8)}
    if info not in formats:
        raise CborError(f"unsupported simple value {info}")
    fmt, size = formats[info]
    return struct.unpack(fmt, data[pos:pos + size])[0], pos + size


def _head(major: int, arg: int) -> bytes:
    if arg < 24:
        return bytes([major << 5 | arg])
    for info, size in ((24, 1), (25, 2), (26, 4), (27, 8)):
        if arg < 1 << (8 * size):
            return bytes([major << 5 | info]) + arg.to_bytes(size, "big")
    raise CborError("integer too large")


def encode(value) -> bytes:
    """A value as CBOR; a datetime as an epoch timestamp (tag 1), None
    members of a map left out (Smithy omits absent members)."""
    if value is None:
        return b"\xf6"
    if isinstance(value, bool):
        return b"\xf5" if value else b"\xf4"
    if isinstance(value, int):
        return _head(0, value) if value >= 0 else _head(1, -1 - value)
    if isinstance(value, float):
        return b"\xfb" + struct.pack(">d", value)
    if isinstance(value, datetime):
        stamp = value if value.tzinfo else value.replace(tzinfo=timezone.utc)
        return b"\xc1" + encode(stamp.timestamp())
    if isinstance(value, str):
        raw = value.encode("utf-8")
        return _head(3, len(raw)) + raw
    if isinstance(value, bytes):
        return _head(2, len(value)) + value
    if isinstance(value, (list, tuple)):
        return _head(4, len(value)) + b"".join(encode(v) for v in value)
    if isinstance(value, dict):
        present = {k: v for k, v in value.items() if v is not None}
        return _head(5, len(present)) + b"".join(encode(k) + encode(v) for k, v in present.items())
    raise CborError(f"cannot encode {type(value).__name__}")
