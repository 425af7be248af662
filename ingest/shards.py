"""Plan the work: record files cut into shards of about ``shard_size`` records.

A shard is plain data (a file, a line range, the file's fingerprint) and
the unit of scheduling: one task, one set of output files, one completion
marker.  Large JSON Lines files are cut by line ranges; a cut is moved
forward past the lines of the session it would split, so every session is
whole in one shard and scored there with one radelci ledger.  The planner
only counts newlines and looks at the few lines next to each cut: the
session of a line comes from a regex on its raw bytes (``"session": …``),
with a JSON parse only when the regex is not conclusive.  Sessions are
taken to be contiguous runs of lines, as in a score keeper's log; a session
interleaved with others is cut where the planner cannot see it.

A ``.json`` list is cut the same way, by the lines its elements start on
(``plan_json``: the elements are streamed, so a large list is never held
whole).  Other files (a ``.json`` holding one record, ``.trk`` text) are one
shard each.  A ``.gz`` file
is decompressed once to plan it and, by each of its shards, from the start
up to the shard's range, so its shards cost more the later they start.
"""

from __future__ import annotations

import gzip
import hashlib
import re
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import orjson

from ingest.discover import SourceFile, is_json_lines
from tarock.formats.items import ReaderLimits
from tarock.formats.reader import json_list_elements, open_regular

DEFAULT_SHARD_SIZE = 20_000
"""Target records per shard: about a few seconds of work, so scheduling overhead stays negligible."""

_CHUNK = 1 << 20
_WINDOW = 8
"""Lines read before a planned cut to find the session of the last record before it."""
_HEAD = 1 << 16
"""Bytes of a line kept for finding its session."""
_JSON_RECORD_BYTES = 1500
"""Bytes per record assumed to estimate the records of a file read whole (progress only)."""
_SESSION = re.compile(rb'"session"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+(?![\d.eE])|null)')
_BLANK: Any = object()
"""``session_of`` a blank line: it belongs to no record, so it never decides a cut."""


@dataclass(frozen=True, slots=True)
class Shard:
    """One unit of ingest work: records ``start_line``..``end_line`` (None: to the end) of ``path``.

    ``key`` names the shard's output files and marker; it is derived from
    the file (absolute path and fingerprint), the line range and the store
    generation (engine version and options), so the same work always gets
    the same key.  A ``rescore`` shard re-scores the deals an earlier
    generation stored for that same range: it reads ``rescore_deals`` and
    copies ``rescore_rejects`` (Parquet files) instead of reading ``path``.
    ``est_records`` sizes the progress bar.  ``start_byte`` is where line
    ``start_line`` starts in an uncompressed file (None: unknown, read from
    the start), so a worker seeks there instead of reading every line before.
    """

    key: str
    path: str
    abspath: str
    fingerprint: str | None
    start_line: int
    end_line: int | None
    est_records: int
    rescore: bool = False
    rescore_deals: tuple[str, ...] = ()
    rescore_rejects: tuple[str, ...] = ()
    start_byte: int | None = None
    members: tuple[str, ...] = ()
    parts: tuple[tuple[str, ...], ...] = ()

    def describe(self) -> str:
        """``path:start-end`` for messages (a group: its number of members and key)."""
        if self.members:
            return f"group of {len(self.members)} shards {self.key}"
        return f"{self.path}:{self.start_line}-{'' if self.end_line is None else self.end_line}"


def shard_key(abspath: str, fingerprint: str | None, start_line: int, end_line: int | None, generation: str) -> str:
    """The deterministic key of a shard (24 hex digits of a SHA-256)."""
    text = orjson.dumps([abspath, fingerprint, start_line, end_line, generation])
    return hashlib.sha256(text).hexdigest()[:24]


def session_of(line: bytes) -> Any:
    """The session of a raw JSONL line (str or None), or ``_BLANK`` for a blank line.

    A number is the same session as its text, as the reader has it.
    """
    if not line.strip():
        return _BLANK
    found = _SESSION.findall(line)
    if len(found) == 1 and b"\\" not in found[0]:
        token = found[0]
        if token == b"null":
            return None
        return token[1:-1].decode("utf-8", "replace") if token[:1] == b'"' else str(int(token))
    try:
        obj = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    session = obj.get("session") if isinstance(obj, dict) else None
    if isinstance(session, bool) or not isinstance(session, (str, int)):
        return None
    return str(session)


class _LineScanner:
    """The lines of a byte stream, read in chunks: skip ahead cheaply, or read one line's head."""

    def __init__(self, read_chunk: Callable[[], bytes]) -> None:
        self._read = read_chunk
        self._buf = read_chunk()
        self._pos = 3 if self._buf.startswith(b"\xef\xbb\xbf") else 0
        self._base = 0
        """The offset in the stream of ``_buf``'s first byte."""
        self._eof = not self._buf
        self.line = 1
        """The number of the line that starts at the current position."""

    @property
    def offset(self) -> int:
        """The offset in the stream of the current position."""
        return self._base + self._pos

    def _more(self) -> bool:
        if self._eof:
            return False
        chunk = self._read()
        if not chunk:
            self._eof = True
            return False
        self._base += self._pos
        self._buf = self._buf[self._pos:] + chunk
        self._pos = 0
        return True

    def has_line(self) -> bool:
        """Whether a line starts at the current position (some byte is left)."""
        return self._pos < len(self._buf) or self._more()

    def skip_to(self, target: int) -> None:
        """Move to the start of line ``target`` (or to the end of the stream, if it is shorter)."""
        while self.line < target:
            newlines = _newlines(self._buf, self._pos)
            if self.line + newlines < target:
                self.line += newlines
                start = self._buf.rfind(b"\n", self._pos) + 1 if newlines else self._pos
                # keep one byte of the line after the last newline: enough to know it exists, never a huge line
                self._pos = max(start, len(self._buf) - 1)
                if not self._more():
                    return
                continue
            for _ in range(target - self.line):
                self._pos = self._buf.index(b"\n", self._pos) + 1
            self.line = target

    def read_line(self) -> bytes | None:
        """The head (``_HEAD`` bytes) of the current line, moving past it; None at the end."""
        if not self.has_line():
            return None
        parts: list[bytes] = []
        size = 0
        while True:
            end = self._buf.find(b"\n", self._pos)
            stop = len(self._buf) if end < 0 else end
            if size < _HEAD:
                parts.append(self._buf[self._pos:min(stop, self._pos + _HEAD - size)])
                size += len(parts[-1])
            self._pos = stop if end < 0 else end + 1
            if end >= 0 or not self._more():
                break
        self.line += 1
        return b"".join(parts)

    def count_rest(self) -> int:
        """Count the lines from here to the end (consuming them)."""
        count = 0
        while True:
            count += _newlines(self._buf, self._pos)
            tail = self._buf.rfind(b"\n", self._pos)
            trailing = len(self._buf) - (tail + 1 if tail >= 0 else self._pos)
            self._base += len(self._buf)
            self._buf, self._pos = b"", 0
            if not self._more():  # a partial line goes on in the next chunk, counted by its newline there
                return count + (1 if trailing else 0)


def _newlines(buf: bytes, start: int) -> int:
    """The newlines in ``buf`` from ``start`` (numpy counts them several times faster than ``bytes.count``)."""
    return int(np.count_nonzero(np.frombuffer(buf, np.uint8, offset=start) == 10)) if start < len(buf) else 0


def _chunks(path: str, limits: ReaderLimits) -> tuple[Callable[[], bytes], Callable[[], None]]:
    """(read a chunk, close) for a file's decompressed bytes; the stream just ends on any problem.

    The planner never reports problems: the last shard runs to the end of
    the file, and the reader turns a truncated, corrupt or oversized file
    into a reject there.
    """
    gz = path.endswith(".gz")
    try:
        raw = open_regular(path)  # never a FIFO or a device, even one swapped in since discovery
    except OSError:
        return (lambda: b""), (lambda: None)
    stream: Any = gzip.GzipFile(fileobj=raw, mode="rb") if gz else raw
    total = 0

    def read() -> bytes:
        nonlocal total
        try:
            chunk: bytes = stream.read1(_CHUNK) if gz else stream.read(_CHUNK)
        except (OSError, EOFError, zlib.error):
            return b""
        total += len(chunk)
        return b"" if gz and total > limits.max_gz_bytes else chunk

    def close() -> None:
        stream.close()
        raw.close()

    return read, close


def plan_lines(path: str, shard_size: int, limits: ReaderLimits) -> list[tuple[int, int | None, int, int]]:
    """``(start_line, end_line, estimated records, start offset)`` of the shards of a JSON Lines file.

    A cut planned after line ``k`` moves forward while the next line belongs
    to the session of the last record at or before ``k`` (blank lines go
    along); the last shard runs to the end of the file (``end_line`` None).
    The start offset is that of the shard's first line in the (decompressed)
    bytes.
    """
    if shard_size < 1:
        raise ValueError(f"shard_size must be at least 1, not {shard_size}")
    read, close = _chunks(path, limits)
    try:
        scanner = _LineScanner(read)
        ranges: list[tuple[int, int | None, int, int]] = []
        start, start_byte = 1, 0
        last_session: Any = None  # session of the last non-blank line read since the last skip
        while True:
            want = start + shard_size - 1  # the shard's last line, unless a session runs on
            if scanner.line < want - _WINDOW + 1:
                scanner.skip_to(want - _WINDOW + 1)
                last_session = None
            ended = False
            while scanner.line <= want:
                text = scanner.read_line()
                if text is None:
                    ended = True
                    break
                session = session_of(text)
                if session is not _BLANK:
                    last_session = session
            cut, cut_byte = want + 1, scanner.offset
            while not ended and last_session is not None:
                cut_byte = scanner.offset
                text = scanner.read_line()
                if text is None:
                    ended = True
                    break
                session = session_of(text)
                if session is not _BLANK and session != last_session:
                    last_session = session
                    break
                cut += 1
            if ended or not (scanner.line > cut or scanner.has_line()):
                break
            ranges.append((start, cut - 1, cut - start, start_byte))
            start, start_byte = cut, cut_byte
        rest = scanner.line - start + scanner.count_rest()
        ranges.append((start, None, max(rest, 1), start_byte))
        return ranges
    finally:
        close()


def plan_json(path: str, shard_size: int, limits: ReaderLimits) -> list[tuple[int, int | None, int, None]]:
    """``(start_line, end_line, records, None)`` of the shards of a ``.json`` file: its list cut by lines.

    The list's elements are streamed (``json_list_elements``: one element held
    at a time, never parsed) and counted by the line each starts on; a cut
    falls between two lines, after at least ``shard_size`` elements, and moves
    on past the elements of the session it would split, as ``plan_lines``
    does.  Elements that start on one line stay together (a list written on a
    single line is one shard).  A worker reads its range by scanning the file
    from its start (no offset: the reader seeks only in JSON Lines).
    """
    if shard_size < 1:
        raise ValueError(f"shard_size must be at least 1, not {shard_size}")
    ranges: list[tuple[int, int | None, int, None]] = []
    start, count, last_line = 1, 0, 0
    last_session: Any = None  # the session of the last element, once the shard is (nearly) full
    for line, text in json_list_elements(path, limits):
        if count >= shard_size and line > last_line:
            session = None if text is None else session_of(text)
            if last_session is None or session != last_session:
                ranges.append((start, line - 1, count, None))
                start, count = line, 0
            last_session = session
        elif count + 1 >= shard_size:
            last_session = None if text is None else session_of(text)
        count += 1
        last_line = line
    ranges.append((start, None, max(count, 1), None))
    return ranges


def plan_shards(files: Iterable[SourceFile], generation: str, shard_size: int = DEFAULT_SHARD_SIZE,
                limits: ReaderLimits | None = None) -> list[Shard]:
    """The shards of ``files`` for a store generation: JSON Lines cut by ``plan_lines``, other files whole."""
    shards = []
    for src in files:
        ranges: list[tuple[int, int | None, int, int | None]]
        if src.fingerprint is not None and is_json_lines(src.path):
            ranges = list(plan_lines(src.path, shard_size, limits or ReaderLimits()))
        elif src.fingerprint is not None and src.path.removesuffix(".gz").endswith(".json"):
            ranges = list(plan_json(src.path, shard_size, limits or ReaderLimits()))
        else:
            ranges = [(1, None, max(1, src.size // _JSON_RECORD_BYTES), 0)]
        seekable = not src.path.endswith(".gz")
        for start, end, est, start_byte in ranges:
            key = shard_key(src.abspath, src.fingerprint, start, end, generation)
            shards.append(Shard(key, src.path, src.abspath, src.fingerprint, start, end, est,
                                start_byte=start_byte if seekable and start > 1 and start_byte else None))
    return shards


def plan_rescore(markers: Iterable[dict[str, Any]], source_dir: str, generation: str) -> list[Shard]:
    """Rescore shards for a generation: one per completed shard (``markers``) of the generation in ``source_dir``.

    Each gets the key a fresh ingest of the same file range would get in
    the new generation, so a later ingest of the unchanged file skips it.
    Group shards are left out: the run groups the new shards again.
    """
    shards = []
    for m in markers:
        if m.get("members"):  # a group is built again from its members' rescore shards (ingest.groups)
            continue
        files = m["files"]
        key = shard_key(m["abspath"], m["fingerprint"], m["start_line"], m["end_line"], generation)
        shards.append(Shard(
            key, m["path"], m["abspath"], m["fingerprint"], m["start_line"], m["end_line"], m["counts"]["read"],
            rescore=True,
            rescore_deals=tuple(f"{source_dir}/{rel}" for rel in files.get("deals", ())),
            rescore_rejects=tuple(f"{source_dir}/{rel}" for rel in files.get("rejects", ())),
        ))
    return shards
