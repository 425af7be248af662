"""The session model every command shares (docs/records.md, "Sessions"): one implementation.

A session is its ``session`` id across all the inputs of one command.  Its deals are scored in ``seq``
order; ties, and a deal without ``seq``, keep file order (a deal without ``seq`` stays right after the
deal it follows in the input, of the same session).  Inside a session that numbers its deals, a repeated
or missing ``seq`` is a ``W_SEQ`` warning.  A deal already seen (the same content hash: SHA-256 of the
canonical record, ingest's dedup key) is scored once: its copy carries the first copy's result, marked
``duplicate_of``, and does not advance the radelci ledger.

Two passes over the input keep the memory bounded: ``SessionPlan`` notes each session's ``seq`` in input
order (a few integers per session, the list of ``seq`` only for a session out of order; ``plan_files``
reads a record that names no session no further than that); then
``SessionOrderer`` hands the deals over in scoring order — a deal of an in-order session at once, a deal
of an out-of-order session buffered until every deal before it has come — and says when a session is
over, so its ledger and its set of content hashes can go.  A deal outside any session is remembered for the
whole run, so ``check_stream`` keeps only its place (``tarock.check.first_copies``: the file, line and byte
offset, one int) where its file can be read at an offset, and reads the first copy again when a copy comes.
``check_stream`` is the whole thing for the checker; ``tarock score`` and ingest use it too.
"""

from __future__ import annotations

import hashlib
import os
from array import array
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Generic, Hashable, Iterable, Iterator, Sequence, TypeVar

import msgspec
from msgspec.structs import replace

from tarock.check.fast import CHECKLINE, WRITTEN, FastCheck, Lines, Written
from tarock.check.first_copies import LineStarts, noting, read_place, seekable
from tarock.check.result import CheckedFinding, CheckResult, DealCheck
from tarock.check.summary import parse_error
from tarock.deal import Deal
from tarock.findings import SEVERITY
from tarock.formats.decode import DECODE_ERRORS, Int, Plain, ValidPlainReader
from tarock.formats.items import ReaderLimits, ReadItem
from tarock.formats.reader import TakeLines, iter_record_files, plain_lines_without, read_line, read_records
from tarock.rules.sessions import SessionLedger

if TYPE_CHECKING:
    from tarock.check.checker import Checker

T = TypeVar("T")

_NO_SEQ = float("-inf")

FirstCopy = tuple[str, int, bytes]
"""Where the fast path read the first copy of a deal outside any session whose result it wrote itself, in a file
that cannot be read at an offset (``tarock.check.first_copies``): the file, the line and the record's text
(``SessionScorer.first_copy``)."""


class FirstCopyChanged(ValueError):
    """The line a first copy was read from holds another deal when it is read again for a copy: its file changed
    while it was checked."""


@dataclass(slots=True)
class _PlannedSession:
    count: int = 0
    has_seq: bool = False
    in_order: bool = True
    last: float = _NO_SEQ  # the effective seq of the last deal noted
    keys: array[float] | None = field(default_factory=lambda: array("d"))
    """Every deal's effective seq in input order; after ``finish``, sorted, and None for a session in order."""


class SessionPlan:
    """What the first pass learns: per session, how many deals, whether they come in order, and (only for
    a session out of order) the effective ``seq`` of each, to hand them over sorted."""

    def __init__(self) -> None:
        self.sessions: dict[str, _PlannedSession] = {}

    def note(self, session: str | None, seq: int | None) -> None:
        """One deal of the input, in input order."""
        if session is None:
            return
        p = self.sessions.get(session)
        if p is None:
            p = self.sessions[session] = _PlannedSession()
        key = p.last if seq is None else float(seq)
        if seq is not None:
            p.has_seq = True
        if key < p.last:
            p.in_order = False
        p.count += 1
        assert p.keys is not None
        p.keys.append(key)
        p.last = key

    def finish(self) -> None:
        """Sort the keys of the sessions out of order (call once, after the last ``note``)."""
        for p in self.sessions.values():
            p.keys = None if p.in_order or p.keys is None else array("d", sorted(p.keys))

    @property
    def in_order(self) -> bool:
        """Whether every session comes in scoring order already (then the input order is the order)."""
        return all(p.in_order for p in self.sessions.values())

    @classmethod
    def of(cls, deals: Iterable[tuple[str | None, int | None]]) -> "SessionPlan":
        plan = cls()
        for session, seq in deals:
            plan.note(session, seq)
        plan.finish()
        return plan


@dataclass(slots=True)
class _Open(Generic[T]):
    planned: _PlannedSession | None
    pushed: int = 0
    last: float = _NO_SEQ
    cursor: int = 0
    buffer: dict[float, deque[T]] = field(default_factory=dict)
    buffered: int = 0


class SessionOrderer(Generic[T]):
    """The second pass: ``push`` each deal in input order, get back those now due, in scoring order.

    ``on_close(session)`` is called once a session's last planned deal has been handed over.  Deals the
    plan did not foresee (none, when both passes read the same input) are handed over at once.
    """

    def __init__(self, plan: SessionPlan, on_close: Callable[[str], None] | None = None) -> None:
        self.plan = plan
        self.on_close = on_close
        self.open: dict[str, _Open[T]] = {}

    def push(self, session: str | None, seq: int | None, item: T) -> Iterator[T]:
        if session is None:
            yield item
            return
        s = self.open.get(session)
        if s is None:
            s = self.open[session] = _Open(self.plan.sessions.get(session))
        key = s.last if seq is None else float(seq)
        s.last = key
        s.pushed += 1
        planned = s.planned
        if planned is None or planned.keys is None or s.pushed > planned.count:
            yield item
        else:
            s.buffer.setdefault(key, deque()).append(item)
            s.buffered += 1
            keys = planned.keys
            while s.cursor < len(keys):
                queue = s.buffer.get(keys[s.cursor])
                if not queue:
                    break
                s.cursor += 1
                s.buffered -= 1
                yield queue.popleft()
        if planned is not None and s.pushed >= planned.count and not s.buffered:
            self._close(session)

    def finish(self) -> Iterator[T]:
        """Whatever is still buffered (a deal the plan expected never came), each session in key order."""
        for session in list(self.open):
            s = self.open[session]
            for key in sorted(s.buffer):
                yield from s.buffer[key]
            self._close(session)

    def _close(self, session: str) -> None:
        if self.open.pop(session, None) is not None and self.on_close is not None:
            self.on_close(session)


def content_hash(deal: Deal) -> str:
    """ingest's dedup key: SHA-256 (hex) of the canonical record JSON."""
    from tarock.formats.codec import dumps  # the reference's writer, imported only when a deal needs it

    return hashlib.sha256(dumps(deal).encode()).hexdigest()


def _changed(file: str, line: int) -> FirstCopyChanged:
    return FirstCopyChanged(f"{file}:{line} changed while it was checked: that line no longer holds the deal "
                            "first read there, of which a copy came later")


def w_seq(message: str, file: str | None, line: int | None) -> CheckedFinding:
    return CheckedFinding("W_SEQ", SEVERITY["W_SEQ"], message, None, None, None, None, file, line)


@dataclass(slots=True)
class _SessionState:
    has_seq: bool
    seen: dict[str, DealCheck] = field(default_factory=dict)  # content hash -> the first copy's result
    last_seq: int | None = None
    last_place: str = ""


class SessionScorer:
    """Scores deals handed over in scoring order: duplicates once, ``W_SEQ`` warnings, a ledger per session.

    ``score(item)`` gives the deal's check result and whether it is a copy of one already scored.
    The reference's ``Checker`` (and the engine it imports) is made at its first use: a run whose every deal
    the fast path takes (``score_plain``) never imports it.  ``ledgers`` (one radelci ledger per session) are
    the checker's, shared by both paths.
    """

    def __init__(self, plan: SessionPlan, overrides: dict[str, object] | None = None,
                 checker: Checker | None = None) -> None:
        self.plan = plan
        self.overrides = overrides
        self._checker = checker
        self.ledgers: dict[str, SessionLedger] = {} if checker is None else checker.ledgers
        self.states: dict[str, _SessionState] = {}
        self.loose: dict[bytes, DealCheck | FirstCopy | int] = {}
        """Deals outside any session, by content hash (its first 16 bytes): the first copy's place (an int:
        ``tarock.check.first_copies``), where it has one; else its result or, when the fast path wrote that
        itself (``FastCheck.line_checker``), where it read it and its text.  ``first_copy`` works a result out
        again from a place or a text."""
        self.files: list[str] = []
        """The run's files, by the index a place holds (``check_stream``'s)."""
        self.fast: FastCheck | None = None
        self.limits = ReaderLimits()
        """What ``first_copy`` reads a copy with: ``check_stream``'s."""

    @property
    def checker(self) -> Checker:
        """The reference's checker, keeping its ledgers in ``ledgers``."""
        if self._checker is None:
            from tarock.check.checker import Checker  # the engine, imported only when a deal needs it

            self._checker = Checker(self.overrides)
            self._checker.ledgers = self.ledgers
        return self._checker

    def close(self, session: str) -> None:
        """A session is over: its ledger and its content hashes go."""
        self.states.pop(session, None)
        self.ledgers.pop(session, None)

    def _state(self, session: str) -> _SessionState:
        state = self.states.get(session)
        if state is None:
            planned = self.plan.sessions.get(session)
            state = self.states[session] = _SessionState(planned is not None and planned.has_seq)
        return state

    def seen(self, deal: Deal, digest: str) -> DealCheck | None:
        """The first copy's result when ``deal`` (content hash ``digest``) was scored before."""
        if deal.session is None:
            return self.first_copy(bytes.fromhex(digest[:32]))
        return self._state(deal.session).seen.get(digest)

    def first_copy(self, key: bytes) -> DealCheck | None:
        """The result of the first copy of a deal outside any session (``key``: 16 bytes of its content hash),
        if there was one.  Where only its place was kept, its line is read again from its file and its result
        worked out again, each time a copy comes; where the fast path wrote that result itself and kept the
        text, it is worked out from the text (once: then kept).  Outside a session a deal's result depends on
        nothing but its text (no ledger), and the fast path's and the usual path's results are the same."""
        first = self.loose.get(key)
        if first is None or type(first) is DealCheck:
            return first
        if type(first) is int:
            return self._check_again(key, *read_place(self.files, first), reread=True)
        assert type(first) is tuple
        result = self.loose[key] = self._check_again(key, *first, reread=False)
        return result

    def _check_again(self, key: bytes, file: str, line: int, data: bytes, reread: bool) -> DealCheck:
        """The check result of the first copy of a deal outside any session, from its text (``reread``: as read
        again from its file now, so it must still hold that deal): by the fast path when it vouches, else the
        usual way."""
        plain = None if self.fast is None else ValidPlainReader()(line, data)
        if reread and plain is not None and plain.digest[:32] != key.hex():
            raise _changed(file, line)
        result = None if plain is None or self.fast is None else self.fast.check(plain, file, self.ledgers)
        if result is None:
            deal = read_line(file, line, data, self.limits).deal
            if reread and (deal is None or (plain is None and content_hash(deal)[:32] != key.hex())):
                raise _changed(file, line)
            assert deal is not None  # read before as a valid record
            result = self.checker.check_deal(deal, file, line)
        return result

    def remember(self, deal: Deal, digest: str, result: DealCheck, place: int | None = None) -> None:
        """Note ``result`` as the first copy's of ``deal`` (content hash ``digest``); ``place``: where a deal
        outside any session was read (``tarock.check.first_copies``), kept in its stead."""
        if deal.session is None:
            self._remember_loose(bytes.fromhex(digest[:32]), result, place)
        else:
            self._state(deal.session).seen[digest] = result

    def _remember_loose(self, key: bytes, result: DealCheck, place: int | None) -> None:
        """A deal outside any session: its place rather than its result, where it has one.  A sheet-only deal's
        result is kept: the sheet audit of loose deals keeps a running state (``Checker.sheet_summary``), so
        its result does not depend on its text alone."""
        self.loose[key] = result if place is None or result.sheet_only else place

    def seq_warnings(self, session: str | None, seq: int | None, file: str | None,
                     line: int | None) -> list[CheckedFinding]:
        """``W_SEQ`` for a deal (not a copy) of a session that numbers its deals: ``seq`` missing or repeated.

        Call it once per deal, in scoring order."""
        if session is None:
            return []
        state = self._state(session)
        if seq is None:
            if state.has_seq:
                return [w_seq(f"no seq in session {session}, which numbers its deals: scored after "
                              "the deal before it in the input", file, line)]
            return []
        out = []
        if seq == state.last_seq:
            out.append(w_seq(f"seq {seq} repeats in session {session} (also {state.last_place}): "
                             "scored in input order", file, line))
        state.last_seq, state.last_place = seq, f"{file}:{line}"
        return out

    def score_plain(self, plain: Plain, file: str, fast: FastCheck, limits: ReaderLimits,
                    place: int | None = None) -> DealCheck:
        """``score``'s result for a plain record (``ValidPlainReader``) read from ``file``: by the fast path
        when it vouches for the deal, else read and checked the usual way (``place``: ``remember``'s)."""
        session, digest = plain.session, plain.digest
        key: Any
        if session is None:
            key = bytes.fromhex(digest[:32])
            first = self.first_copy(key)
        else:
            key = digest
            first = self._state(session).seen.get(key)
        if first is not None:
            return replace(first, file=file, line=plain.line, findings=[],
                           duplicate_of=f"{first.file}:{first.line}")
        extra = self.seq_warnings(session, plain.seq, file, plain.line)
        result = fast.check(plain, file, self.ledgers)
        if result is None:
            deal = read_line(file, plain.line, plain.data, limits).deal
            assert deal is not None  # ValidPlainReader takes valid records only
            result = self.checker.check_deal(deal, file, plain.line)
        if extra:
            result = replace(result, findings=result.findings + extra)
        if session is None:
            self._remember_loose(key, result, place)
        else:
            self._state(session).seen[key] = result
        return result

    def score(self, deal: Deal, file: str | None, line: int | None, digest: str | None = None,
              warnings: list[CheckedFinding] | None = None, place: int | None = None) -> tuple[DealCheck, bool]:
        """The check result of a deal handed over in scoring order, and whether it is a copy (``warnings``:
        its ``seq_warnings`` when already asked; ``place``: ``remember``'s)."""
        digest = digest if digest is not None else content_hash(deal)
        first = self.seen(deal, digest)
        if first is not None:
            return replace(first, file=file, line=line, findings=[],
                           duplicate_of=f"{first.file}:{first.line}"), True
        extra = self.seq_warnings(deal.session, deal.seq, file, line) if warnings is None else warnings
        result = self.checker.check_deal(deal, file, line)
        if extra:
            result = replace(result, findings=result.findings + extra)
        self.remember(deal, digest, result, place)
        return result, False


class _SessionOnly(msgspec.Struct):
    """What the first pass reads of most records: the session (every other key skipped unread)."""

    session: str | Int | None = None


_SESSION_ONLY = msgspec.json.Decoder(_SessionOnly)
_NO_SESSION = object()


def _no_session(line: int, data: bytes) -> object | None:
    """``read_records``'s ``take`` of the first pass: a record that names no session adds nothing to the plan
    whether or not it is valid, so it is taken unread (``_NO_SESSION``); any other (a session named, or text
    the tiny decoding cannot read) is left to the reader, which decides as the second pass will whether it
    is a deal, and with which ``session`` and ``seq`` (a record nested too deep too: ``DECODE_ERRORS``)."""
    try:
        return _NO_SESSION if _SESSION_ONLY.decode(data).session is None else None
    except DECODE_ERRORS:
        return None


_HOLDS: Callable[[bytes, bytes], bool] | None = None if CHECKLINE is None else CHECKLINE.holds
"""glibc's memmem (``tarock/accel/_checkline.c``), when built."""


def _may_name_a_session(data: bytes) -> bool:
    """Whether these bytes of a file may hold a record naming a session: the key ``session``, or any backslash
    (a JSON escape could spell the key).  The C ``holds`` is glibc's memmem, which makes this cheap."""
    return b"\\" in data or (_HOLDS(data, b"session") if _HOLDS is not None else b"session" in data)


def plan_files(paths: Sequence[str | os.PathLike[str]], limits: ReaderLimits = ReaderLimits()) -> SessionPlan:
    """The session plan of the records in these files: ``SessionPlan.of`` every deal ``read_records`` reads
    from them, without decoding the records that name no session (of a JSON Lines file)."""
    plan = SessionPlan()
    for path in paths:
        if plain_lines_without(path, _may_name_a_session, len(b"session") - 1):
            continue  # no record of it can name a session: it adds nothing to the plan
        for item in read_records(path, limits, take=_no_session):
            if isinstance(item, ReadItem) and item.deal is not None:
                plan.note(item.deal.session, item.deal.seq)
    plan.finish()
    return plan


def check_stream(files: Sequence[str | os.PathLike[str]], overrides: dict[str, object] | None = None,
                 limits: ReaderLimits = ReaderLimits(), out: bytearray | None = None
                 ) -> Iterator[CheckResult | Written | Lines]:
    """The check result of every record of these files (read twice: two passes) under the session model:
    unreadable items where they come, deals in scoring order (docs/records.md, "Sessions").

    A plain record of a JSON Lines file goes to the fast path (``tarock.check.fast``) when there is one: it
    is read by ``ValidPlainReader`` (which gives its session, seq and content hash), and read the usual way only
    when the fast path declines it.  Its results are for printing: the fast path's hold ``tricks`` and
    ``breakdown`` as JSON text (``tarock.check.result.DealCheck``).

    With ``out`` (the caller's buffer of JSON lines, which it appends each result it is given to), the fast
    path writes the JSON line of a plain clean record outside any session there itself and yields ``WRITTEN``
    in its place, or ``Lines(deals)`` in place of so many such records in a row (``FastCheck.line_checker``):
    ``ok`` deals with no finding."""
    paths = iter_record_files(files)
    plan = plan_files(paths, limits)
    scorer = SessionScorer(plan, overrides)
    fast = FastCheck.make(overrides)
    scorer.fast, scorer.limits, scorer.files = fast, limits, [str(path) for path in paths]
    reader = None if fast is None else ValidPlainReader()
    orderer: SessionOrderer[tuple[str, Plain | ReadItem]] = SessionOrderer(plan, scorer.close)
    for index, path in enumerate(paths):
        file = str(path)
        starts = LineStarts() if seekable(file) else None  # where its lines start: the places of first copies
        take: Callable[[int, bytes], Plain | Written | None] | None = reader
        take_lines: TakeLines | None = None
        if fast is not None and reader is not None and out is not None:
            lines = fast.line_checker(file, out, scorer.loose, reader, index, starts)
            take, take_lines = lines.take, lines.take_lines
        elif starts is not None:
            take, take_lines = noting(starts, reader)
        for entry in read_records(path, limits, take=take, take_lines=take_lines):
            if entry is WRITTEN or type(entry) is Lines:
                yield entry
                continue
            if type(entry) is Plain:
                session, seq = entry.session, entry.seq
            else:
                assert isinstance(entry, ReadItem)
                deal = entry.deal
                if deal is None:
                    assert entry.finding is not None
                    yield parse_error(entry.finding)
                    continue
                session, seq = deal.session, deal.seq
            if session is None:  # scored where it comes (SessionOrderer.push hands it over at once)
                place = None if starts is None else starts.place(index, entry.line)
                yield _score_entry(scorer, fast, (file, entry), limits, place)
                continue
            for ready in orderer.push(session, seq, (file, entry)):
                yield _score_entry(scorer, fast, ready, limits)
    for ready in orderer.finish():
        yield _score_entry(scorer, fast, ready, limits)


def _score_entry(scorer: SessionScorer, fast: FastCheck | None, ready: tuple[str, Plain | ReadItem],
                 limits: ReaderLimits, place: int | None = None) -> DealCheck:
    file, entry = ready
    if type(entry) is Plain:
        assert fast is not None
        return scorer.score_plain(entry, file, fast, limits, place)
    assert isinstance(entry, ReadItem) and entry.deal is not None
    return scorer.score(entry.deal, entry.file, entry.line, place=place)[0]


def ordered(entries: Iterable[T], key: Callable[[T], tuple[str | None, int | None]]) -> list[T]:
    """``entries`` (all in memory) in scoring order: each session's deals sorted as the model says."""
    entries = list(entries)
    plan = SessionPlan.of(key(e) for e in entries)
    orderer: SessionOrderer[T] = SessionOrderer(plan)
    out: list[T] = []
    for e in entries:
        out.extend(orderer.push(*key(e), e))
    out.extend(orderer.finish())
    return out


__all__ = ["SessionOrderer", "SessionPlan", "SessionScorer", "check_stream", "content_hash", "ordered", "plan_files",
           "Hashable"]
