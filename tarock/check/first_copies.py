"""Where the first copy of each deal outside any session is: ``tarock check``'s memory of its loose deals.

A deal that names no session is scored where it comes, and a later copy of it (the same content hash) carries
the first copy's result (docs/records.md, "Sessions").  Keeping that result, or the first copy's text, for every
such deal makes the memory grow with the input; outside a session a deal's result depends on nothing but its
text (no ledger), so ``tarock.check.sessions.SessionScorer`` keeps only a *place* per deal -- one int: the index
of its file among the run's files, its line and the byte offset where that line starts -- and reads that one
line again when a copy comes (``read_place``).

Only an uncompressed JSON Lines file can be read at an offset the way ``tarock.formats.reader.read_records``
reads it (``start_byte``).  ``.json`` files (a list's elements are cut out of the text as it streams by),
``.trk`` files (a deal spans many lines) and anything gzipped (an offset into the decompressed bytes can only
be reached by decompressing from the start) have no place: their deals keep the first copy's result, or the
fast path's ``(file, line, text)``, as before.  OpenSpiel's logs and score sheets are not read by ``check``
itself: ``tarock import`` turns them into JSON Lines records, which have places -- but a sheet-only record
keeps its result (``SessionScorer._remember_loose``: the sheet audit of loose deals carries a state).

Where a line starts is learnt as the reader reads (``LineStarts``): its ``take_lines`` is offered each chunk
of the file from the start of the line it cuts next, so the offset of a line is the chunk's own offset plus
that position.  A line the reader gathers across chunks is handed whole to ``take``, whose length places the
next chunk; a line it never hands over (one past the line limit, or only white space) while it goes on into
the next chunk leaves the rest of that file without places.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tarock.formats.reader import TakeLines

FILE_BITS = 24
"""Bits of a place given to the file's index: a run of more files gives the rest no places."""
LINE_BITS = 40
"""Bits of a place given to the line number, above the file's index; the byte offset is above both (from bit
64, which ``tarock/accel/_checkline.c`` relies on too)."""
_OFFSET_SHIFT = 64
_FILE_MASK = (1 << FILE_BITS) - 1
_LINE_MASK = (1 << LINE_BITS) - 1


def place_of(file_index: int, line: int, offset: int) -> int | None:
    """The place of line ``line`` of the run's file ``file_index``, starting at byte ``offset`` (-1: not
    known), or None when it has none.  ``tarock/accel/_checkline.c`` (``place_of``) makes the same ints."""
    if offset < 0 or not 0 <= file_index <= _FILE_MASK or not 0 < line <= _LINE_MASK:
        return None
    return offset << _OFFSET_SHIFT | line << FILE_BITS | file_index


def unpack(place: int) -> tuple[int, int, int]:
    """A place's file index, line and byte offset."""
    return place & _FILE_MASK, (place >> FILE_BITS) & _LINE_MASK, place >> _OFFSET_SHIFT


def seekable(file: str) -> bool:
    """Whether ``read_records`` reads ``file`` as uncompressed JSON Lines (not ``.json``, ``.trk`` or ``.gz``),
    whose lines can be read again at their offsets."""
    return not file.endswith((".gz", ".json", ".trk"))


def read_place(files: list[str], place: int) -> tuple[str, int, bytes]:
    """The file, line number and text of the line at ``place`` (``files``: the run's files, by index), as
    ``read_records`` handed it over: the bytes up to its newline, which is left out."""
    index, line, offset = unpack(place)
    file = files[index]
    with open(file, "rb") as fh:
        fh.seek(offset)
        data = fh.readline()
    return file, line, data[:-1] if data.endswith(b"\n") else data


class LineStarts:
    """Where each line of one uncompressed JSON Lines file starts, learnt from ``read_records``'s calls of
    ``take_lines`` (``enter`` as a call starts, ``left`` with where it stopped) and ``take`` (``take``).

    ``read_records`` offers ``take_lines`` each chunk from the start of the line it cuts next, before it cuts
    that line; ``take`` is then offered that line, whole (gathered from the chunks that follow when it goes on
    past this one).  ``line`` and ``at`` are the line ``take`` was offered last and where it starts (-1: not
    known)."""

    __slots__ = ("_chunk", "_base", "_pos", "_line", "_length", "line", "at")

    def __init__(self) -> None:
        self._chunk: bytes | None = None  # the chunk take_lines was last offered
        self._base = 0  # the file offset of its first byte; -1: not known
        self._pos = 0  # where in it the last take_lines call stopped: where the line the reader cuts next starts
        self._line = 0  # that line's number
        self._length = -1  # that line's length once take was offered it; -1: not (yet)
        self.line = 0
        self.at = -1

    def enter(self, chunk: bytes, pos: int) -> int:
        """``take_lines`` is offered ``chunk`` from ``pos`` on: the file offset of the chunk's first byte, -1
        when it is not known."""
        if chunk is not self._chunk:
            before = self._chunk
            if before is None:  # the file's first chunk (a byte-order mark is skipped by pos)
                base = 0
            elif self._base < 0:
                base = -1
            elif self._pos >= len(before):  # the chunk before was used up
                base = self._base + len(before)
            elif self._length >= 0:  # the line cut last went on into this chunk: its newline is just before pos
                base = self._base + self._pos + self._length + 1 - pos
            else:  # a line the reader did not hand over went on into this chunk: its length is not known
                base = -1
            self._chunk, self._base = chunk, base
        return self._base

    def left(self, pos: int, line: int) -> None:
        """The ``take_lines`` call stopped at ``pos`` of its chunk, where line ``line`` starts."""
        self._pos, self._line, self._length = pos, line, -1

    def take(self, line: int, data: bytes) -> int:
        """``take`` is offered line ``line`` (its text ``data``): where it starts, -1 when that is not known."""
        at = -1
        if line == self._line and self._base >= 0:
            at = self._base + self._pos
            self._length = len(data)
        self.line, self.at = line, at
        return at

    def place(self, file_index: int, line: int) -> int | None:
        """The place of line ``line`` (the line ``take`` was offered last), or None."""
        return place_of(file_index, line, self.at) if line == self.line else None


def noting(starts: LineStarts, take: Callable[[int, bytes], Any] | None) -> tuple[Callable[[int, bytes], Any],
                                                                                 TakeLines]:
    """``read_records``'s ``take`` and ``take_lines`` that only tell ``starts`` where lines start: ``take``
    (None: one that takes nothing) sees each line as before, and ``take_lines`` takes none."""

    def take_lines(chunk: bytes, pos: int, line: int, max_bytes: int) -> tuple[int, int, None]:
        starts.enter(chunk, pos)
        starts.left(pos, line)
        return pos, line, None

    def take_noted(line: int, data: bytes) -> Any:
        starts.take(line, data)
        return None if take is None else take(line, data)

    return take_noted, take_lines
