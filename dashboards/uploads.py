"""Uploaded record files into the store, exactly as ``tarock ingest`` stores them (no Streamlit here).

Each upload is checked before anything is written: its name must end like a
record file (``.json``, ``.jsonl``, ``.ndjson``, ``.trk``, each optionally
``.gz``), it must fit ``MAX_UPLOAD_BYTES``, a ``.gz`` must decompress to at
most ``MAX_DECOMPRESSED_BYTES``, and at least one record in it must parse —
a file with no record at all (a picture, a spreadsheet, a log) is refused
with a message and stores nothing.  Each batch is written to a private
directory of its own (``tempfile.mkdtemp``: a random name, mode 0700), each
file in a sub-directory named by its content hash (two uploads of one name
stay apart) and created exclusively, never through a symbolic link; the
accepted files are ingested with ``ingest.commands.ingest`` in this
process, and the directory is removed afterwards, whether the ingest
succeeded or not: the store keeps the canonical records, not the files.
(A fixed shared path such as ``/tmp/tarock-uploads`` let another user of
the machine plant a link there and have an upload overwrite its target.)
"""

from __future__ import annotations

import gzip
import hashlib
import os
import re
import shutil
import tempfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from analysis.totals import update as update_totals
from analysis.ratings import update as update_ratings
from dashboards.launch import MAX_UPLOAD_MB
from ingest.commands import ingest
from ingest.coordinator import IngestSummary
from tarock.formats.reader import read_records, RECORD_SUFFIXES

MAX_UPLOAD_BYTES = MAX_UPLOAD_MB * 1024 * 1024
INFLATED_MB_ENV = "TAROCK_UPLOAD_MAX_INFLATED_MB"
DEFAULT_INFLATED_MB = 256


def _inflated_limit() -> int:
    """``$TAROCK_UPLOAD_MAX_INFLATED_MB`` (a whole number of MB, at least 1) in bytes, else 256 MB."""
    text = os.environ.get(INFLATED_MB_ENV, "").strip()
    mb = int(text) if text.isdigit() and int(text) >= 1 else DEFAULT_INFLATED_MB
    return mb * 1024 * 1024


MAX_DECOMPRESSED_BYTES = _inflated_limit()
"""A ``.gz`` upload must not inflate past this: counted chunk by chunk while it inflates, so a gzip bomb
is refused having held one chunk (1 MiB), before it is read as records.  256 MB holds about 170,000 deals,
far more than a club's evening; ``$TAROCK_UPLOAD_MAX_INFLATED_MB`` (read when the server starts) sets another
limit, and ``tarock ingest`` takes larger files."""

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True, slots=True)
class Refused:
    """An upload that was not ingested, and why (one sentence)."""

    name: str
    reason: str


@dataclass
class UploadResult:
    """What happened to a batch of uploads: the ingest summary (None when nothing was accepted),
    the stored path of each accepted file by its upload name, and the refused files."""

    summary: IngestSummary | None
    stored_as: dict[str, str] = field(default_factory=dict)
    refused: list[Refused] = field(default_factory=list)


def safe_name(name: str) -> str:
    """The upload's base name with anything but letters, digits, ``.``, ``_`` and ``-`` replaced."""
    base = Path(name.replace("\\", "/")).name
    return _UNSAFE.sub("_", base).strip("._") or "upload.jsonl"


def _size(n: int) -> str:
    """A limit as people say it: "50 MB", "1024 MB", "100 bytes"."""
    return f"{n >> 20} MB" if n >= 1 << 20 else f"{n} bytes"


def _problem(name: str, data: bytes) -> str | None:
    """Why an upload cannot be ingested as named and sized, or None."""
    if name.lower().endswith(".toml"):
        return (f"{name} is a rules table (a house table), not records: nothing was stored. Score record files "
                f"under it with `tarock ingest --rules {name}`, or set it beside other tables with "
                "`tarock score --compare`.")
    if not name.lower().removesuffix(".gz").endswith(RECORD_SUFFIXES):
        return f"{name} is not a record file: the name must end in {', '.join(RECORD_SUFFIXES)} (optionally .gz)"
    if len(data) > MAX_UPLOAD_BYTES:
        return f"{name} is larger than {_size(MAX_UPLOAD_BYTES)}"
    if not data:
        return f"{name} is empty"
    return None


def _inflates_too_far(path: Path) -> bool:
    """Whether a ``.gz`` file decompresses past ``MAX_DECOMPRESSED_BYTES`` (False when it is not valid gzip).

    Checked while it inflates, a chunk at a time: it stops at the first chunk past the limit and never
    holds more than one.
    """
    total = 0
    try:
        with gzip.open(path, "rb") as fh:
            while chunk := fh.read1(1 << 20):
                total += len(chunk)
                if total > MAX_DECOMPRESSED_BYTES:
                    return True
    except (OSError, EOFError, zlib.error):
        return False  # not gzip at all: the record check below refuses it
    return False


def _has_a_record(path: Path) -> bool:
    """Whether at least one item of the file parses as a record (reading stops at the first)."""
    return any(item.deal is not None for item in read_records(path))


def _write_new(path: Path, data: bytes) -> None:
    """Create ``path`` (it must not exist, and is never reached through a link) holding ``data``, mode 0600."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)


def ingest_uploads(files: list[tuple[str, bytes]], store_dir: str) -> UploadResult:
    """Check every ``(name, content)`` upload, then ingest the accepted ones into ``store_dir`` in one run.

    The store's ratings and totals are brought up to date after (``analysis.ratings.update``: the new
    deals only; ``analysis.totals.update``).
    Raises what ``ingest.commands.ingest`` raises (``StoreBusy`` while another
    ingest holds the store, ``GenerationMismatch`` for a store scored under
    other options).
    """
    result = UploadResult(None)
    root = Path(tempfile.mkdtemp(prefix="tarock-uploads-"))  # mode 0700, a name no one could guess
    accepted: list[Path] = []
    try:
        for name, data in files:
            problem = _problem(name, data)
            if problem is not None:
                result.refused.append(Refused(name, problem))
                continue
            folder = root / hashlib.sha256(data).hexdigest()[:16]
            folder.mkdir(mode=0o700, exist_ok=True)
            path = folder / safe_name(name)
            if path.exists():  # the same bytes under the same name earlier in this batch: the same answer
                if path in accepted:
                    result.stored_as[name] = str(path)
                else:
                    result.refused.append(Refused(name, f"{name} is the same file as one refused above"))
                continue
            _write_new(path, data)
            if path.name.endswith(".gz") and _inflates_too_far(path):
                result.refused.append(Refused(name, f"{name} decompresses to more than "
                                                    f"{_size(MAX_DECOMPRESSED_BYTES)}, the limit for an "
                                                    f"upload (${INFLATED_MB_ENV}): nothing was stored; "
                                                    "`tarock ingest` takes larger files"))
            elif not _has_a_record(path):
                result.refused.append(Refused(name, f"{name} is not a record file: no tarock record could be "
                                                    "read from it, so nothing was stored"))
            else:
                accepted.append(path)
                result.stored_as[name] = str(path)
        if accepted:
            result.summary = ingest(accepted, store_dir, executor="local:1", quiet=True)
            update_ratings(store_dir)  # as `tarock ingest` does: the Players page's ratings include the upload
            update_totals(store_dir)  # and its players' and pairs' totals
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return result
