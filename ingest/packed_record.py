"""The ``record`` column's stored form: the canonical JSON with each card code packed into one byte.

A stored record is the canonical JSON of ``tarock.formats.codec.dumps`` (docs/store.md, ``deals.record``).
Most of its bytes are card codes in quotes (``"T21"``, ``"HK"``: about a hundred a deal), which Parquet's
zstd compressed to some 170 bytes a deal, the largest column of the store.  The files hold instead
``record_packed`` (BLOB): the same bytes with each quoted card code as one byte, which compresses to about
115 bytes a deal.  The substitution is of bytes, not of JSON, so ``unpack_bytes(pack_text(x)) == x`` for
any text (tests/ingest/test_packed_record.py).  Read left to right (``pack_text``):

* ``"`` + a card code (``tarock.cards.CODES``) + ``"`` becomes the byte ``CARD_BYTE + card`` (0x80 … 0xB5),
  unless it starts right where the last packed code ended (``"T1""T2"``, never in JSON);
* a comma between two packed codes is dropped: unpacking puts one between two card bytes;
* a byte of the text in the card bytes' range (a continuation byte of UTF-8: ``č`` is 0xC4 0x8D) is kept
  behind ``ESCAPE`` (0xFF), a byte UTF-8 never uses.

``pack`` and ``unpack`` do it for a whole Arrow column: by the C extension ``ingest._packrecord`` (a
projection of these loops, about a microsecond a record) when it is built, else by the loops.  Ingest packs a
partition's records at once (``ingest.rows``); the views present ``record`` unpacked through the SQL function
``tarock_record`` (``ingest.store``); a reader of the files calls ``unpack`` or ``unpack_bytes``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa

from tarock.cards import CODES

CARD_BYTE = 0x80
"""The byte of card 0; card ``c`` is ``CARD_BYTE + c``."""
ESCAPE = 0xFF
"""Put before a byte of the text that lies in the card bytes' range."""

_LAST_CARD_BYTE = CARD_BYTE + len(CODES) - 1
_QUOTE, _COMMA = ord('"'), ord(",")
_QUOTED = [f'"{code}"'.encode() for code in CODES]
_CARD_OF_QUOTED = {quoted: card for card, quoted in enumerate(_QUOTED)}
_WIDTHS = sorted({len(quoted) for quoted in _QUOTED})


def _load() -> Any:
    try:
        from ingest import _packrecord  # type: ignore[attr-defined]  # compiled: no stub
    except ImportError:
        return None
    _packrecord.init(list(CODES), CARD_BYTE, ESCAPE)
    return _packrecord


PACKRECORD = _load()
"""``ingest._packrecord``, or None where it is not built (then the loops below run)."""


def _code_at(data: bytes, p: int, end: int) -> tuple[int, int]:
    """(card, quoted length) of a quoted card code starting at ``data[p]`` within ``end``; (-1, 0) if none."""
    if p >= end or data[p] != _QUOTE:
        return -1, 0
    for width in _WIDTHS:
        card = _CARD_OF_QUOTED.get(data[p:p + width], -1) if p + width <= end else -1
        if card >= 0:
            return card, width
    return -1, 0


def pack_text(text: str) -> bytes:
    """One record's stored form (the reference the C extension projects)."""
    data = text.encode()
    out = bytearray()
    p, end, prev_end = 0, len(data), -1
    while p < end:
        byte = data[p]
        card, length = _code_at(data, p, end) if p != prev_end else (-1, 0)
        if card >= 0:
            out.append(CARD_BYTE + card)
            p = prev_end = p + length
            if p < end and data[p] == _COMMA and _code_at(data, p + 1, end)[0] >= 0:
                p += 1  # the comma between two codes
        else:
            if CARD_BYTE <= byte <= _LAST_CARD_BYTE:
                out.append(ESCAPE)
            out.append(byte)
            p += 1
    return bytes(out)


def unpack_bytes(data: bytes) -> str:
    """The record a ``record_packed`` value stands for (the reference the C extension projects)."""
    out = bytearray()
    p, end = 0, len(data)
    while p < end:
        byte = data[p]
        if byte == ESCAPE and p + 1 < end:
            out.append(data[p + 1])
            p += 2
        elif CARD_BYTE <= byte <= _LAST_CARD_BYTE:
            out += _QUOTED[byte - CARD_BYTE]
            p += 1
            if p < end and CARD_BYTE <= data[p] <= _LAST_CARD_BYTE:
                out.append(_COMMA)
        else:
            out.append(byte)
            p += 1
    return out.decode()


def _recoded(column: pa.Array | pa.ChunkedArray, source: pa.DataType, target: pa.DataType, compiled: str,
             loop: Any) -> pa.Array:
    """``column`` (``source`` values) as ``target`` values, each value recoded by the C extension's
    ``compiled`` function, or by ``loop``; nulls stay null."""
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks() if column.num_chunks else pa.array([], source)
    if PACKRECORD is None:
        return pa.array([None if value is None else loop(value) for value in column.to_pylist()], target)
    large = column.cast(pa.large_binary())  # the same bytes, 64-bit offsets: one buffer whatever its size
    n = len(large)
    offset_buffer = large.buffers()[1]
    assert offset_buffer is not None  # a binary array always has its offsets
    offsets = np.frombuffer(memoryview(offset_buffer), np.int64, n + 1, large.offset * 8)
    data = large.buffers()[2] if n else b""
    out, out_offsets = getattr(PACKRECORD, compiled)(data if data is not None else b"", offsets)
    validity = pa.array(large.is_valid().to_numpy(zero_copy_only=False)).buffers()[1] if large.null_count else None
    large_target = pa.large_binary() if target == pa.binary() else pa.large_string()
    recoded = pa.Array.from_buffers(large_target, n, [validity, pa.py_buffer(out_offsets), pa.py_buffer(out)],
                                    large.null_count)
    return recoded.cast(target)


def pack(column: pa.Array | pa.ChunkedArray) -> pa.Array:
    """The stored form (``record_packed``, binary) of a column of records (strings)."""
    return _recoded(column, pa.string(), pa.binary(), "pack", pack_text)


def unpack(column: pa.Array | pa.ChunkedArray) -> pa.Array:
    """The records (strings) of a column of ``record_packed`` values: the views' ``tarock_record``."""
    return _recoded(column, pa.binary(), pa.string(), "unpack", unpack_bytes)
