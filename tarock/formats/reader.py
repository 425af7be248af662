"""Record files: stream `tarock-record/1` JSON (and ``.trk``) files into ``ReadItem`` s.

``read_records`` streams a record file (``.jsonl``/``.ndjson``/``.json``,
each optionally ``.gz``; ``.trk`` through ``tarock.formats.trk``) into
``ReadItem`` s: a deal, or an ``E_PARSE`` finding with the place and the
reason.  Like python-chess's PGN reader it never raises on bad input and never
skips silently, and it never holds a whole file in memory: lines, list
elements and decompressed bytes are all bounded by ``ReaderLimits``.
"""

from __future__ import annotations

import gzip
import os
import re
import stat
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import orjson

from tarock.findings import Finding
from tarock.formats.decode import fast_deal, fast_deal_and_text
from tarock.formats.items import MIB, ReaderLimits, ReadItem, _size_text

T = TypeVar("T")
"""What a ``read_records`` caller's ``take`` makes of a record it reads itself."""

_CHUNK = MIB
_BOM = b"\xef\xbb\xbf"
RECORD_SUFFIXES = (".json", ".jsonl", ".ndjson", ".trk")
"""File endings read as records, each also with ``.gz`` (``.trk``: the text format of ``tarock.formats.trk``)."""

SkipNotice = Callable[[Path, str], None]
"""Told of each file a directory holds that is not read: its path and why (one clause)."""

_KINDS = ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a directory"))


class NotRegularFile(OSError):
    """A path that is not a regular file (a FIFO, a device, a socket): never opened for reading.

    Reading a FIFO waits for a writer and a device such as ``/dev/zero`` never ends, so only
    regular files are read; the text says what the path is.
    """


def file_kind(mode: int) -> str:
    """What a file of this ``st_mode`` is, for messages: "a regular file", "a named pipe (FIFO)", …"""
    if stat.S_ISREG(mode):
        return "a regular file"
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def open_regular(path: str | os.PathLike[str]) -> Any:
    """Open ``path`` for binary reading if it is a regular file (symbolic links followed).

    Raises ``NotRegularFile`` for anything else, without opening a FIFO or a device: the
    type is looked at first, and the descriptor is opened non-blocking and looked at again
    (the path may change in between), so nothing waits for a writer.  Other ``OSError`` s
    (missing, unreadable) pass through.
    """
    before = os.stat(path)
    if not stat.S_ISREG(before.st_mode):
        raise NotRegularFile(f"the file is {file_kind(before.st_mode)}, not a regular file: only regular "
                             "files are read")
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegularFile(f"the file is {file_kind(mode)}, not a regular file: only regular files are read")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def open_problem(exc: OSError) -> str:
    """The E_PARSE text of a file that cannot be opened (``open_regular``'s error)."""
    if isinstance(exc, NotRegularFile):
        return str(exc)
    return f"the file cannot be opened ({exc.strerror or exc})"

class _StopReading(Exception):
    """The rest of a file cannot be read; the text is the reason for the E_PARSE finding."""


class _Source:
    """A file's (decompressed) bytes in chunks, holding a gzip file to ``max_gz_bytes``.

    ``read`` returns b"" at the end and raises _StopReading when the bytes
    cannot be read (not gzip, truncated, corrupt) or pass the limit; the
    bytes up to the limit are still returned first.
    """

    def __init__(self, stream: Any, gz_limit: int | None) -> None:
        self._stream = stream
        self._limit = gz_limit
        self._over = False
        self.total = 0

    def read(self) -> bytes:
        if self._over:
            raise _StopReading(f"the decompressed size passes the {_size_text(self._limit or 0)} limit")
        try:
            chunk: bytes = self._stream.read1(_CHUNK)  # read1: a truncated gzip keeps what came before
        except gzip.BadGzipFile as exc:
            raise _StopReading(f"the file is not valid gzip data ({exc})") from None
        except EOFError:
            raise _StopReading("the gzip data ends early: the file is truncated") from None
        except zlib.error as exc:
            raise _StopReading(f"the gzip data is corrupt ({exc})") from None
        except OSError as exc:
            raise _StopReading(f"the file cannot be read ({exc.strerror or exc})") from None
        if self._limit is not None and self.total + len(chunk) > self._limit:
            self._over = True
            chunk = chunk[: self._limit - self.total]
            if not chunk:
                return self.read()
        self.total += len(chunk)
        return chunk


TakeLines = Callable[[bytes, int, int, int], tuple[int, int, Any]]
"""``read_records``'s ``take_lines(chunk, pos, line, max_line_bytes) -> (pos, line, taken or None)``."""


@dataclass(slots=True)
class _Piece:
    """What a splitter cut out of a file: a record's bytes, or a ``problem`` found where it starts."""

    line: int
    column: int
    data: bytes
    problem: str | None = None
    parsed: dict[str, Any] | None = None  # the data already parsed (a .json list element)
    taken: Any = None  # what ``take_lines`` made of the lines from ``line`` on (no data of its own)
    index: int = 0  # the element's place among the list's elements that start on ``line`` (``ReadItem.index``)


def _split_lines(
    source: _Source, max_bytes: int, head_bytes: int, start_line: int, end_line: int | None,
    first_line: int = 1, take_lines: TakeLines | None = None,
) -> Iterator[_Piece]:
    """The lines start_line..end_line of a JSONL file, each at most ``max_bytes``.

    Lines are cut from chunks; lines before ``start_line`` are only counted.
    A longer line becomes a problem piece holding its first ``head_bytes``,
    and the rest of it is read past, never kept.  A read failure ends the
    pieces with a problem at the line being read.  ``first_line``: the
    number of the line ``source`` starts at (a stream opened past the start).
    ``take_lines`` (only with no ``end_line``) is offered the chunk before each line is cut: see
    ``read_records``.
    """
    line_no = first_line
    try:
        buf, pos = source.read(), 0
        if first_line == 1 and buf.startswith(_BOM):
            pos = len(_BOM)
        while line_no < start_line and buf:
            newlines = buf.count(b"\n", pos)
            if line_no + newlines < start_line:
                line_no += newlines
                buf, pos = source.read(), 0
                continue
            for _ in range(start_line - line_no):
                pos = buf.index(b"\n", pos) + 1
            line_no = start_line
        too_long = f"is longer than {_size_text(max_bytes)}"
        if end_line is not None:
            take_lines = None
        while buf and (end_line is None or line_no <= end_line):
            if take_lines is not None:
                at_line = line_no
                pos, line_no, taken = take_lines(buf, pos, line_no, max_bytes)
                if taken is not None:
                    yield _Piece(at_line, 1, b"", taken=taken)
                if pos >= len(buf):
                    buf, pos = source.read(), 0
                    continue
            end = buf.find(b"\n", pos)
            if end >= 0:
                line = buf[pos:end]
                pos = end + 1
                if len(line) > max_bytes:
                    yield _Piece(line_no, 1, line[:head_bytes], f"line {line_no} {too_long}")
                else:
                    yield _Piece(line_no, 1, line)
                line_no += 1
                continue
            # The line goes on in the next chunks: gather it, or once it is too long only look for its end.
            parts: list[bytes] | None = [buf[pos:]]
            head = b""
            size = len(buf) - pos
            while True:
                buf, pos = source.read(), 0
                if not buf:
                    break
                end = buf.find(b"\n")
                piece = buf if end < 0 else buf[:end]
                size += len(piece)
                if parts is not None:
                    parts.append(piece)
                    if size > max_bytes:
                        head = b"".join(parts)[:head_bytes]
                        parts = None
                if end >= 0:
                    pos = end + 1
                    break
            if parts is None:
                yield _Piece(line_no, 1, head, f"line {line_no} {too_long}")
            else:
                yield _Piece(line_no, 1, b"".join(parts))
            line_no += 1
    except _StopReading as stop:
        yield _Piece(line_no, 1, b"", str(stop))


_STRING = rb'"[^"\\]*+(?:\\.[^"\\]*+)*+"'
_NON_WS = re.compile(rb"[^ \t\r\n]")
_SCAN_TOP = re.compile(rb'(?:[^"\[\]{},]++|' + _STRING + rb")*+", re.DOTALL)
"""At list level: runs of plain bytes and whole strings; stops at a bracket, a comma or an open string."""
_SCAN_INNER = re.compile(rb'(?:[^"\[\]{}]++|' + _STRING + rb")*+", re.DOTALL)
"""Inside an element: the same, but commas are plain bytes."""

_STRING_REST = re.compile(rb'[^"\\]*+(?:\\.[^"\\]*+)*+"', re.DOTALL)
"""The rest of a string up to and including its closing quote."""
_OPEN, _CLOSE = frozenset(b"[{"), frozenset(b"]}")
_QUOTE, _COMMA, _LIST_END, _OBJECT_START = ord('"'), ord(","), ord("]"), ord("{")


class _JsonSplitter:
    """Cuts the records out of a `.json` file as its bytes stream by.

    A file holding one value yields it whole; a top-level list yields each
    element with the line and column where it starts.  Only what decides
    where an element ends is tracked — bracket depth and whether the scan is
    inside a string (and after a backslash) — and regexes jump over
    everything else, whole strings included, so the per-byte work is in C.
    Elements are not parsed here; an element that is not valid JSON is left
    for orjson to describe.
    """

    def __init__(self, source: _Source, limits: ReaderLimits, start_line: int, end_line: int | None,
                 parse: bool = True) -> None:
        self._source = source
        self._parse = parse  # False: elements are cut out but never parsed on the way (ingest's planner)
        self._max = limits.max_line_bytes
        self._start_line = start_line
        self._end_line = end_line
        self._line = 1  # line number at self._line_pos of the current chunk
        self._line_pos = 0
        self._last_newline = -1  # file offset of the last newline counted
        self._base = 0  # file offset of the current chunk
        self._depth = 0  # 1 inside the top-level list
        self._in_string = False
        self._escaped = False
        self._waiting = True  # at list level, before an element
        self._after_comma = False
        self._parts: list[bytes] | None = None  # the current element so far; None when not kept
        self._elem: tuple[int, int, int] | None = None  # (line, column, index on its line) of the current element
        self._line_elements = (0, 0)  # (line, how many elements started on it so far)
        self._elem_start = 0
        self._elem_size = 0
        self._elem_skipped = False  # outside start_line..end_line: scanned, not kept
        self._parsed: Any = None  # the current element as parsed by _quick
        self._parsed_end = 0  # where in the chunk _quick's element ended
        self._done = False

    def _advance(self, buf: bytes, pos: int) -> tuple[int, int]:
        """Count lines up to ``pos`` of ``buf``; the (line, column) there."""
        newlines = buf.count(b"\n", self._line_pos, pos)
        if newlines:
            self._line += newlines
            self._last_newline = self._base + buf.rfind(b"\n", self._line_pos, pos)
        self._line_pos = pos
        return self._line, self._base + pos - self._last_newline

    def pieces(self) -> Iterator[_Piece]:
        """Each record (or problem) of the file, in order; a read failure ends them with a problem."""
        try:
            yield from self._pieces()
        except _StopReading as stop:
            yield _Piece(self._line, 1, b"", str(stop))

    def _pieces(self) -> Iterator[_Piece]:
        buf = self._source.read().removeprefix(_BOM)
        start = _NON_WS.search(buf)
        while start is None and buf:
            self._next_chunk(buf)
            buf = self._source.read()
            start = _NON_WS.search(buf)
        if start is None:
            yield _Piece(self._line, 1, b"", "the file holds no JSON record")
            return
        if buf[start.start()] != ord("["):
            yield from self._whole(buf, start.start())
            return
        self._depth = 1
        pos = start.start() + 1
        while buf:
            yield from self._scan(buf, pos)
            if self._done:
                return
            if self._parts is not None:
                self._keep(buf[self._elem_start :])
            if self._parsed is not None and buf[self._parsed_end :].strip():
                self._parsed = None  # text after the object: the element is not just the object
            self._elem_start = self._parsed_end = 0
            self._next_chunk(buf)
            buf, pos = self._source.read(), 0
        if self._depth and self._line >= self._start_line:
            if self._elem is None:
                yield _Piece(self._line, 1, b"", "the file ends before its list is closed")
            elif not self._elem_skipped:
                line, column, index = self._elem
                yield _Piece(line, column, b"", "the file ends before this record is complete", index=index)

    def _next_chunk(self, buf: bytes) -> None:
        """Count the lines of the chunk done with; offsets now refer to the next one."""
        self._advance(buf, len(buf))
        self._base += len(buf)
        self._line_pos = 0

    def _whole(self, buf: bytes, pos: int) -> Iterator[_Piece]:
        """A file holding one value: all of it, up to the size limit."""
        line, column = self._advance(buf, pos)
        if line < self._start_line or (self._end_line is not None and line > self._end_line):
            return
        parts, size = [buf[pos:]], len(buf) - pos
        while size <= self._max:
            buf = self._source.read()
            if not buf:
                yield _Piece(line, column, b"".join(parts))
                return
            parts.append(buf)
            size += len(buf)
        yield _Piece(
            line, column, b"".join(parts)[: self._max], f"the record is longer than {_size_text(self._max)}"
        )

    def _keep(self, data: bytes) -> None:
        """Add bytes to the current element, dropping it once it passes the size limit."""
        assert self._parts is not None
        self._elem_size += len(data)
        if self._elem_size > self._max:
            self._parts = None
        else:
            self._parts.append(data)

    def _begin(self, buf: bytes, pos: int) -> bool:
        """An element starts at ``pos``; False when it is past ``end_line`` (reading stops)."""
        line, column = self._advance(buf, pos)
        if self._end_line is not None and line > self._end_line:
            return False
        on_line, started = self._line_elements
        index = started if line == on_line else 0
        self._line_elements = (line, index + 1)
        self._elem = (line, column, index)
        self._elem_start = pos
        self._elem_size = 0
        self._elem_skipped = line < self._start_line
        self._parts = None if self._elem_skipped else []
        self._waiting = False
        return True

    def _end(self, buf: bytes, pos: int) -> Iterator[_Piece]:
        """The current element ends just before ``pos``."""
        assert self._elem is not None
        line, column, index = self._elem
        if not self._elem_skipped:
            if self._parts is not None:
                self._keep(buf[self._elem_start : pos])
            if self._parts is None:
                yield _Piece(line, column, b"", f"the record is longer than {_size_text(self._max)}", index=index)
            elif self._parsed is not None and not buf[self._parsed_end : pos].strip():
                yield _Piece(line, column, b"".join(self._parts), parsed=self._parsed, index=index)
            else:
                yield _Piece(line, column, b"".join(self._parts), index=index)
        self._elem = None
        self._parts = None
        self._parsed = None

    def _quick(self, buf: bytes, pos: int) -> int:
        """Try to take a whole object element starting at ``pos`` at once; where scanning goes on.

        The first '}' that balances the braces counted so far (strings not
        minded; bytes.find and bytes.count run in C) is a candidate end,
        checked by parsing: a JSON object is never a proper prefix of a
        longer valid text, so if the candidate parses it is exactly the
        element, and the parse is kept for ``_item``.  Otherwise (a brace
        inside a string, the element goes on past this chunk) the exact scan
        takes over at ``pos``.
        """
        if not self._parse or buf[pos] != _OBJECT_START:
            return pos
        balance = 0
        end = pos
        while True:
            start, end = end, buf.find(b"}", end) + 1
            if not end:
                return pos
            balance += buf.count(b"{", start, end) - buf.count(b"}", start, end)
            if balance <= 0:
                break
        try:
            self._parsed = orjson.loads(buf[pos:end])
        except orjson.JSONDecodeError:
            return pos
        self._parsed_end = end
        return end

    def _string(self, buf: bytes, pos: int) -> int:
        """Scan on inside a string from ``pos``; where the scan goes on after it (len(buf): still open)."""
        if self._escaped:
            self._escaped = False
            pos += 1
        match = _STRING_REST.match(buf, pos)
        if match:
            self._in_string = False
            return match.end()
        tail = buf[pos:]
        self._escaped = (len(tail) - len(tail.rstrip(b"\\"))) % 2 == 1
        return len(buf)

    def _scan(self, buf: bytes, pos: int) -> Iterator[_Piece]:
        """Walk one chunk from ``pos``, yielding the elements that end in it."""
        n = len(buf)
        while pos < n:
            if self._in_string:
                pos = self._string(buf, pos)
                continue
            if self._depth == 0:  # after the list: only whitespace may follow
                match = _NON_WS.search(buf, pos)
                if match:
                    line, column = self._advance(buf, match.start())
                    yield _Piece(line, column, b"", "there is text after the end of the list")
                    self._done = True
                return
            if self._waiting:
                match = _NON_WS.search(buf, pos)
                if match is None:
                    return
                pos = match.start()
                char = buf[pos]
                if char == _LIST_END or char == _COMMA:
                    if self._after_comma or char == _COMMA:
                        line, column = self._advance(buf, pos)
                        yield _Piece(line, column, b"", "the list has an empty element (a stray comma)")
                    if char == _LIST_END:
                        self._depth = 0
                    self._after_comma = char == _COMMA
                    pos += 1
                    continue
                if not self._begin(buf, pos):
                    self._done = True
                    return
                pos = self._quick(buf, pos)
            pos = (_SCAN_TOP if self._depth == 1 else _SCAN_INNER).match(buf, pos).end()  # type: ignore[union-attr]
            if pos >= n:
                return
            char = buf[pos]
            if char == _QUOTE:
                self._in_string = True
                pos += 1
            elif char in _OPEN:
                self._depth += 1
                pos += 1
            elif self._depth > 1:  # a closing bracket inside an element
                self._depth -= 1
                pos += 1
            elif char == _COMMA or char == _LIST_END:
                yield from self._end(buf, pos)
                self._waiting = True
                self._after_comma = char == _COMMA
                if char == _LIST_END:
                    self._depth = 0
                pos += 1
            else:  # '}' at list level closes nothing
                line, column = self._advance(buf, pos)
                yield _Piece(line, column, b"", f"line {line} has a '}}' that closes nothing")
                self._done = True
                return


_DEPTH_TOKENS = re.compile(rb'"[^"\\]*+(?:\\.[^"\\]*+)*+"|[\[\]{}]', re.DOTALL)


def _too_deep(data: bytes, max_depth: int) -> bool:
    """Whether JSON text nests deeper than ``max_depth``; a scan only when the bracket count allows it."""
    if data.count(b"[") + data.count(b"{") <= max_depth:
        return False
    depth = 0
    for match in _DEPTH_TOKENS.finditer(data):
        char = data[match.start()]
        if char in _OPEN:
            depth += 1
            if depth > max_depth:
                return True
        elif char in _CLOSE:
            depth -= 1
    return False


def _raw(data: bytes, limit: int) -> str:
    """The first ``limit`` characters of a record's text, for a reject."""
    return data[: limit * 4].decode("utf-8", "replace")[:limit]


def _item(file: str, piece: _Piece, limits: ReaderLimits, canonical_text: bool = False) -> ReadItem:
    """The deal, or the E_PARSE finding, of one piece of a file (``canonical_text``: with the deal's
    canonical text when the typed fast path reads it)."""
    line, data, index = piece.line, piece.data, piece.index
    reason = piece.problem
    if reason is None:
        if _too_deep(data, limits.max_depth):
            reason = f"line {line} nests JSON deeper than {limits.max_depth} levels"
        elif canonical_text and (found := fast_deal_and_text(data)) is not None:
            return ReadItem(file, line, found[0], None, None, found[1], index)
        elif not canonical_text and (deal := fast_deal(data)) is not None:  # a plain record: the same Deal
            return ReadItem(file, line, deal, None, None, index=index)
        else:
            # the reference's reading, imported only when a record needs it (tarock check's fast path reads none)
            from tarock.formats.codec import RecordError, deal_from_obj, json_kind

            try:
                obj = orjson.loads(data) if piece.parsed is None else piece.parsed
            except orjson.JSONDecodeError as exc:
                at = line + exc.lineno - 1
                column = exc.colno + (piece.column - 1 if exc.lineno == 1 else 0)
                reason = f"line {at} is not valid JSON: {exc.msg} at column {column}"
            else:
                if type(obj) is not dict:
                    reason = f"line {line} holds {json_kind(obj)}, not a record object"
                else:
                    try:
                        return ReadItem(file, line, deal_from_obj(obj), None, None, index=index)
                    except RecordError as exc:
                        reason = str(exc)
    finding = Finding(code="E_PARSE", message=reason, file=file, line=line)
    return ReadItem(file, line, None, finding, _raw(data, limits.raw_limit) if data else None, index=index)


def _is_json_list_file(name: str) -> bool:
    return name.removesuffix(".gz").endswith(".json")


def _is_trk_file(name: str) -> bool:
    return name.removesuffix(".gz").endswith(".trk")


def read_records(
    path: str | os.PathLike[str],
    limits: ReaderLimits = ReaderLimits(),
    start_line: int = 1,
    end_line: int | None = None,
    canonical_text: bool = False,
    take: Callable[[int, bytes], T | None] | None = None,
    start_byte: int | None = None,
    take_lines: TakeLines | None = None,
) -> Iterator[ReadItem | T]:
    """Stream the records of one file as ReadItems; bad input becomes E_PARSE items, never an exception.

    ``.json`` (and ``.json.gz``) files hold one record or a list of them;
    ``.trk`` (and ``.trk.gz``) files hold deals in the text format of
    ``tarock.formats.trk`` (a deal's line is where its first tag is); every other
    file is read as JSON Lines, one record per line, blank lines skipped.
    Only records starting on lines ``start_line``..``end_line`` (1-based,
    inclusive) are read, so a large file can be split into shards.
    A file that cannot be opened, or is no regular file (a FIFO, a device:
    ``open_regular``), yields one finding at line 0; a read failure
    (not gzip, truncated, past ``max_gz_bytes``) yields one finding at the
    line reached, and reading that file stops.  With ``canonical_text`` a
    JSON record read by the typed fast path comes with its canonical text
    (``ReadItem.text``), which ingest stores.  ``take(line, text)``, when given, sees each
    JSON Lines record first (within the line limit; ``take`` must decline text nested deeper than
    ``max_depth``): whatever it returns other than None is yielded in place of the record's item
    (ingest's bulk path reads plain records its own way).
    ``start_byte``, for an uncompressed JSON Lines file, is where line ``start_line`` starts
    (``ingest.shards`` plans it): the file is read from there instead of from the start.
    ``take_lines(chunk, pos, line, max_line_bytes)``, given with ``take`` for a whole JSON Lines file, takes
    many lines in one call (``tarock check``'s fast path): offered the chunk read so far from ``pos`` on, where
    line ``line`` starts, it takes whole lines (each within the line limit; a blank one skipped, as here) one
    after another, as ``take`` would take each, and stops at the first it does not take; it returns where it
    stopped (the position and that line's number) and what it made of the lines taken (yielded in their place:
    None for none).  The lines it stops at are read as usual.
    """
    if start_line < 1:
        raise ValueError(f"start_line must be at least 1, not {start_line}")
    file = str(path)
    gz = file.endswith(".gz")
    try:
        raw = open_regular(file)
    except OSError as exc:
        message = open_problem(exc)
        yield ReadItem(file, 0, None, Finding(code="E_PARSE", message=message, file=file, line=0), None)
        return
    stream = gzip.GzipFile(fileobj=raw, mode="rb") if gz else raw
    with raw, stream:
        source = _Source(stream, limits.max_gz_bytes if gz else None)
        if _is_trk_file(file):
            from tarock.formats.trk import read_trk_lines  # the .trk parser, imported only for a .trk file

            lines = _split_lines(source, limits.max_line_bytes, 4 * limits.raw_limit, 1, None)
            yield from read_trk_lines(file, lines, limits, start_line, end_line)
            return
        if _is_json_list_file(file):
            # a problem is reported by the shard whose lines hold it (every shard scans the lines before its own)
            pieces: Iterator[_Piece] = (p for p in _JsonSplitter(source, limits, start_line, end_line).pieces()
                      if p.line >= start_line and (end_line is None or p.line <= end_line))
        else:
            first_line = 1
            if start_byte and not gz:
                stream.seek(start_byte)
                first_line = start_line
            pieces = _split_lines(source, limits.max_line_bytes, 4 * limits.raw_limit, start_line, end_line,
                                  first_line, take_lines if take is not None else None)
        if take is not None and not _is_json_list_file(file):
            for piece in pieces:
                if piece.taken is not None:
                    yield piece.taken
                    continue
                if piece.problem is None:
                    data = piece.data
                    if not data or data.isspace():
                        continue
                    taken = take(piece.line, data)  # a record nested too deep is no record it takes
                    if taken is not None:
                        yield taken
                        continue
                yield _item(file, piece, limits, canonical_text)
            return
        for piece in pieces:
            if piece.problem is None and (not piece.data or piece.data.isspace()):
                continue
            yield _item(file, piece, limits, canonical_text)


def plain_lines_without(path: str | os.PathLike[str], holds: Callable[[bytes], bool], overlap: int) -> bool:
    """Whether ``path`` is an uncompressed JSON Lines file (as ``read_records`` reads it: not .json, .trk or
    .gz) in no stretch of whose bytes ``holds`` finds what it looks for (``overlap``: how many bytes that spans,
    less one, so a chunk boundary hides nothing); False when it cannot be read.  ``tarock check``'s first pass
    skips a file that cannot name a session (``tarock.check.sessions.plan_files``)."""
    file = str(path)
    if file.endswith(".gz") or _is_json_list_file(file) or _is_trk_file(file):
        return False
    try:
        with open_regular(file) as raw:
            tail = b""
            while chunk := raw.read(_CHUNK):
                if holds(chunk) or (tail and holds(tail + chunk[:overlap])):
                    return False
                tail = chunk[-overlap:] if overlap else b""
    except OSError:
        return False
    return True


def json_list_elements(path: str | os.PathLike[str], limits: ReaderLimits = ReaderLimits()) -> Iterator[
        tuple[int, bytes | None]]:
    """``(line, text)`` of each item of a ``.json`` (or ``.json.gz``) file, in order, as ``read_records`` cuts
    them out: a list's elements, or the one value of a file that holds no list; ``text`` is None for an
    item that is a problem (too long, a stray comma, …).  Nothing is parsed and at most one element
    (up to ``max_line_bytes``) is held, so ingest's planner can cut a large list into line ranges.  A file
    that cannot be opened or read just ends the items there.
    """
    file = str(path)
    try:
        raw = open_regular(file)
    except OSError:
        return
    stream = gzip.GzipFile(fileobj=raw, mode="rb") if file.endswith(".gz") else raw
    with raw, stream:
        source = _Source(stream, limits.max_gz_bytes if file.endswith(".gz") else None)
        for piece in _JsonSplitter(source, limits, 1, None, parse=False).pieces():
            yield piece.line, (piece.data if piece.problem is None else None)


def read_line(file: str, line: int, data: bytes, limits: ReaderLimits = ReaderLimits(),
              canonical_text: bool = False) -> ReadItem:
    """The item of one JSON Lines record, as ``read_records`` reads it (for a record ``take`` took back)."""
    return _item(file, _Piece(line, 1, data), limits, canonical_text)


def _skip_reason(path: Path) -> str | None:
    """Why a file found in a directory is not read (None: it is read)."""
    name = path.name
    if not name.removesuffix(".gz").endswith(RECORD_SUFFIXES):
        if name.lower().removesuffix(".gz").endswith(RECORD_SUFFIXES):
            return "its suffix is not in lower case (only .json, .jsonl, .ndjson and .trk, optionally .gz, are read)"
        return "its name does not end in .json, .jsonl, .ndjson or .trk (optionally .gz)"
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        return f"it cannot be read ({exc.strerror or exc})"
    if not stat.S_ISREG(mode):
        return f"it is {file_kind(mode)}, not a regular file"
    return None


def iter_record_files(paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
                      on_skip: SkipNotice | None = None) -> list[Path]:
    """The record files under ``paths``: directories are searched recursively.

    A directory contributes its regular files (symbolic links followed) ending in .json,
    .jsonl, .ndjson or .trk (or those plus .gz), sorted; every other file in it — another
    name, an upper-case suffix, a FIFO, a device, a broken link — is left out and, when
    ``on_skip`` is given, reported to it with the reason.  A path given directly is kept
    whatever its name or kind (a missing one too), so reading it reports the problem.  The
    order is that of ``paths``; a file is listed once.
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    found: list[Path] = []
    for item in paths:
        path = Path(item)
        if not path.is_dir():
            found.append(path)
            continue
        inside = []
        skipped = []
        for root, dirs, names in os.walk(path):
            dirs.sort()
            for name in names:
                file = Path(root, name)
                reason = _skip_reason(file)
                if reason is None:
                    inside.append(file)
                else:
                    skipped.append((file, reason))
        found.extend(sorted(inside))
        if on_skip is not None:
            for file, reason in sorted(skipped):
                on_skip(file, reason)
    return list(dict.fromkeys(found))


def read_many(
    paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]], limits: ReaderLimits = ReaderLimits(),
    on_skip: SkipNotice | None = None,
) -> Iterator[ReadItem]:
    """The records of every file under ``paths`` (see ``iter_record_files``), file after file."""
    for path in iter_record_files(paths, on_skip):
        yield from read_records(path, limits)
