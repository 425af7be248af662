"""The ``record`` column's stored form: the canonical JSON with each card code written as one character.

A stored record is the canonical JSON of ``tarock.formats.codec.dumps`` (docs/store.md, ``deals.record``).
Its bytes are mostly card codes in quotes (``"T21"``, ``"HK"``: about a hundred a deal), which Parquet's
zstd compresses to some 170 bytes a deal.  Written as one character each, the same record compresses to
about 105: the ``deals`` files of 200,000 deals shrink by about 13 MiB.

The form is a plain substitution of bytes, so it gives back exactly the text it was given, whatever that
text means: ``"`` + a card code (``tarock.cards.CODES``) + ``"`` becomes the character ``U+0700 + card``
(two bytes of UTF-8, in the Syriac block, which no card-game record uses), and the record's leading ``{``
becomes ``~``.  A record that already holds one of those characters, or does not start with ``{``, is
stored as it is: so is every record of a store written before (``ENGINE_VERSION`` 2), and ``expand`` leaves
any text not starting with ``~`` alone.  The DuckDB views present ``record`` expanded (``ingest.store``
registers ``expand_column`` as the SQL function ``tarock_record``); a reader of the files expands it with
``expand``.

``compact`` works on a whole Arrow column at once with numpy (no Python per record): the ingest paths call
it once per partition.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from tarock.cards import CODES

MARK = "~"
"""The first character of a compact record (a canonical record starts with ``{``)."""

FIRST = 0x0700
"""The character of card 0; card ``c`` is ``FIRST + c``."""

_EXPANSIONS = {FIRST + card: f'"{code}"' for card, code in enumerate(CODES)}
_LEAD = 0xC0 | (FIRST >> 6)  # the first UTF-8 byte of every card character (0xDC)
_CODE_OF = {code.encode(): card for card, code in enumerate(CODES)}
_QUOTE = ord('"')


def _lookup(width: int) -> tuple[np.ndarray, np.ndarray]:
    """The card codes of ``width`` bytes as sorted integers (big-endian bytes) and the card of each."""
    pairs = sorted((int.from_bytes(code, "big"), card) for code, card in _CODE_OF.items() if len(code) == width)
    return np.array([key for key, _ in pairs], np.int64), np.array([card for _, card in pairs], np.int64)


_TABLES = {width: _lookup(width) for width in sorted({len(code) for code in _CODE_OF})}


def expand(text: str) -> str:
    """The record a stored ``record`` value stands for (text that is not compact is returned as it is)."""
    if text[:1] != MARK:
        return text
    return "{" + text[1:].translate(_EXPANSIONS)


def expand_column(column: pa.Array | pa.ChunkedArray) -> pa.Array:
    """``expand`` over a column of stored records (nulls stay null): the views' ``tarock_record``."""
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    return pa.array([None if text is None else expand(text) for text in column.to_pylist()], pa.string())


def _matches(data: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every quoted card code in ``data``: where each starts (its opening quote), its length with the
    quotes, and its card; in order, none overlapping."""
    quotes = np.flatnonzero(data == _QUOTE)
    starts, lengths, cards = [], [], []
    for width, (keys, values) in _TABLES.items():
        end = quotes + width + 1  # the closing quote
        ok = end < len(data)
        at = quotes[ok]
        at = at[data[at + width + 1] == _QUOTE]
        key = np.zeros(len(at), np.int64)
        for k in range(1, width + 1):
            key = key * 256 + data[at + k]
        index = np.minimum(np.searchsorted(keys, key), len(keys) - 1)
        hit = keys[index] == key
        starts.append(at[hit])
        lengths.append(np.full(int(hit.sum()), width + 2, np.int64))
        cards.append(values[index[hit]])
    start, length, card = (np.concatenate(parts) for parts in (starts, lengths, cards))
    order = np.argsort(start, kind="stable")
    start, length, card = start[order], length[order], card[order]
    # in valid JSON no two overlap (a closing quote is followed by , ] } or :); should any, the later stays text
    keep = np.ones(len(start), np.bool_)
    keep[1:] = start[1:] >= start[:-1] + length[:-1]
    return start[keep], length[keep], card[keep]


def compact(column: pa.Array | pa.ChunkedArray) -> pa.Array:
    """The stored form of a column of canonical records (see the module docstring); nulls stay null."""
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    column = column.cast(pa.large_string())  # 64-bit offsets: one buffer, whatever its size
    n = len(column)
    if n == 0:
        return column.cast(pa.string())
    offsets = np.frombuffer(column.buffers()[1], np.int64, n + 1, column.offset * 8)
    data = np.frombuffer(column.buffers()[2], np.uint8, int(offsets[-1] - offsets[0]), int(offsets[0])).copy()
    base = offsets - offsets[0]
    record_starts = base[:-1]
    valid = column.is_valid().to_numpy(zero_copy_only=False)
    lengths_of = np.diff(base)
    # a record is compacted when it starts with "{" and holds no byte that could begin a card character
    eligible = valid & (lengths_of > 0)
    first = np.zeros(n, np.uint8)
    first[eligible] = data[record_starts[eligible]]
    eligible &= first == ord("{")
    leads = np.flatnonzero(data == _LEAD)
    if len(leads):
        eligible[np.searchsorted(base, leads, side="right") - 1] = False
    start, length, card = _matches(data)
    start_owner = np.searchsorted(base, start, side="right") - 1
    take = eligible[start_owner]
    start, length, card = start[take], length[take], card[take]
    # each match: its two card-character bytes over its first two, the rest of it dropped
    data[start] = _LEAD
    data[start + 1] = 0x80 | ((FIRST + card) & 0x3F)
    data[record_starts[eligible]] = ord(MARK)
    drop = np.zeros(len(data), np.bool_)
    for k in range(2, int(length.max()) if len(length) else 2):
        longer = length > k
        drop[start[longer] + k] = True
    dropped_before = np.concatenate(([0], np.cumsum(drop)))
    new_offsets = (base - dropped_before[base]).astype(np.int64)
    kept = data[~drop]
    validity = pa.array(valid, pa.bool_()).buffers()[1] if column.null_count else None  # a bitmap from bit 0
    out = pa.LargeStringArray.from_buffers(n, pa.py_buffer(new_offsets), pa.py_buffer(kept), validity,
                                           column.null_count)
    return out.cast(pa.string())
