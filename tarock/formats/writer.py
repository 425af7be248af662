"""Writing record files, and converting between the formats: the writer the importers share.

``write_records`` writes deals to a ``.trk``, ``.json`` or ``.jsonl`` file (each
optionally ``.gz``), the format taken from the name; ``convert`` copies every deal
of one record file into another.
"""

from __future__ import annotations

import gzip
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tarock.deal import Deal
from tarock.findings import Finding
from tarock.formats.codec import dumps
from tarock.formats.items import ReaderLimits
from tarock.formats.reader import read_records
from tarock.formats.trk import dumps_trk, TRK_SUFFIX

@dataclass(frozen=True, slots=True)
class Counts:
    """What a conversion or an import did: records written, inputs rejected (with their findings)."""

    written: int
    rejected: int
    findings: tuple[Finding, ...] = ()
    notices: tuple[str, ...] = ()  # what the reader decided on the way (e.g. a guessed text encoding)


def _kind(path: str | os.PathLike[str]) -> str:
    """``trk``, ``json`` or ``jsonl`` from a file name (``.gz`` ignored)."""
    name = str(path).removesuffix(".gz")
    if name.endswith(TRK_SUFFIX):
        return "trk"
    if name.endswith(".json"):
        return "json"
    if name.endswith((".jsonl", ".ndjson")):
        return "jsonl"
    raise ValueError(f"{path}: the file name must end in .trk, .json, .jsonl or .ndjson (optionally .gz)")


def _umask() -> int:
    """This process's umask (read from /proc where there is one: setting it to ask is not thread-safe)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_records(deals: Iterable[Deal], path: str | os.PathLike[str]) -> int:
    """Write deals to ``path`` in the format its name says (atomically: a temp file, then a rename).

    ``.jsonl``: one canonical record per line; ``.json``: a list of them;
    ``.trk``: the canonical text; ``.gz`` compresses any of them
    (reproducibly: no time stamp).  The file gets the mode a plain ``open``
    would give it (0666 less the umask), not the temp file's 0600.
    Returns the number of deals written.
    """
    kind = _kind(path)
    target = Path(path)
    written = 0
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent or ".")
    try:
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as raw:
            sink: Any = gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) if str(path).endswith(".gz") \
                else raw
            with sink:
                written = _write_kind(deals, kind, sink.write)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return written


def _write_kind(deals: Iterable[Deal], kind: str, write: Callable[[bytes], Any]) -> int:
    count = 0
    if kind == "json":
        write(b"[")
    for deal in deals:
        if kind == "trk":
            write(((b"\n" if count else b"") + dumps_trk(deal).encode()))
        elif kind == "json":
            write((b"\n" if not count else b",\n") + dumps(deal).encode())
        else:
            write(dumps(deal).encode() + b"\n")
        count += 1
    if kind == "json":
        write(b"\n]\n")
    return count


def convert(in_path: str | os.PathLike[str], out_path: str | os.PathLike[str],
            limits: ReaderLimits = ReaderLimits()) -> Counts:
    """Copy every deal of ``in_path`` to ``out_path``, each file's format taken from its name.

    Inputs that are not deals (``E_PARSE``) are not written; they are
    counted and returned as findings, so the caller can report them.
    """
    _kind(out_path)
    rejects: list[Finding] = []

    def deals() -> Iterator[Deal]:
        for item in read_records(in_path, limits):
            if item.deal is not None:
                yield item.deal
            elif item.finding is not None:
                rejects.append(item.finding)

    written = write_records(deals(), out_path)
    return Counts(written, len(rejects), tuple(rejects))
