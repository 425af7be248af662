"""What the record readers yield, and the bounds they keep: shared by the JSON reader and ``.trk``."""

from __future__ import annotations

from dataclasses import dataclass

from tarock.deal import Deal
from tarock.findings import Finding

MIB = 1 << 20
GIB = 1 << 30


def _size_text(n: int) -> str:
    """A byte count as people say it: "16 MiB", "8 GiB", "100 bytes"."""
    for unit, size in (("GiB", GIB), ("MiB", MIB), ("KiB", 1024)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n} bytes"


@dataclass(frozen=True, slots=True)
class ReaderLimits:
    """Bounds that keep a hostile or broken file a reject rather than a crash (docs/records.md, "Reader limits").

    ``max_line_bytes`` bounds a JSONL line and an element of a JSON list (or
    a whole single-record JSON file); ``raw_limit`` is how many characters of
    a rejected record ``ReadItem.raw`` keeps.
    """

    max_line_bytes: int = 16 * MIB
    max_depth: int = 64
    max_gz_bytes: int = 8 * GIB
    raw_limit: int = 2000


@dataclass(frozen=True, slots=True)
class ReadItem:
    """One record read from a file: a ``deal``, or an ``E_PARSE`` ``finding`` with its ``raw`` text.

    ``line`` is the 1-based line where the record starts (0: the file could
    not be opened).  ``raw`` is set for rejects only.  ``text`` is the deal's
    canonical record text (``dumps(deal)``) when the reader was asked for it
    and made it on the way (``read_records(..., canonical_text=True)``), else None.
    ``index`` tells apart the records that start on one line: a ``.json`` list written with several
    elements on a line numbers them 0, 1, 2 … in order there; every other record is 0.  So (``line``,
    ``index``) is a record's place in its file, unique by construction (the store's key, ``ingest.rows``).
    """

    file: str
    line: int
    deal: Deal | None
    finding: Finding | None
    raw: str | None
    text: str | None = None
    index: int = 0
