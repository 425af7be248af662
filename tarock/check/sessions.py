"""The session model every command shares (docs/records.md, "Sessions"): one implementation.

A session is its ``session`` id across all the inputs of one command.  Its deals are scored in ``seq``
order; ties, and a deal without ``seq``, keep file order (a deal without ``seq`` stays right after the
deal it follows in the input, of the same session).  Inside a session that numbers its deals, a repeated
or missing ``seq`` is a ``W_SEQ`` warning.  A deal already seen (the same content hash: SHA-256 of the
canonical record, ingest's dedup key) is scored once: its copy carries the first copy's result, marked
``duplicate_of``, and does not advance the radelci ledger.

Two passes over the input keep the memory bounded: ``SessionPlan`` notes each session's ``seq`` in input
order (a few integers per session, the list of ``seq`` only for a session out of order); then
``SessionOrderer`` hands the deals over in scoring order — a deal of an in-order session at once, a deal
of an out-of-order session buffered until every deal before it has come — and says when a session is
over, so its ledger and its set of content hashes can go.  ``check_stream`` is the whole thing for the
checker; ``tarock score`` and ingest use it too.
"""

from __future__ import annotations

import hashlib
from array import array
from collections import deque
from dataclasses import dataclass, field
from typing import Callable, Generic, Hashable, Iterable, Iterator, TypeVar

from msgspec.structs import replace

from tarock.check.checker import Checker
from tarock.check.result import CheckedFinding, CheckResult, DealCheck
from tarock.check.summary import parse_error
from tarock.deal import Deal
from tarock.findings import SEVERITY
from tarock.formats.codec import dumps
from tarock.formats.items import ReadItem

T = TypeVar("T")

_NO_SEQ = float("-inf")


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
    return hashlib.sha256(dumps(deal).encode()).hexdigest()


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
    """

    def __init__(self, plan: SessionPlan, overrides: dict[str, object] | None = None,
                 checker: Checker | None = None) -> None:
        self.plan = plan
        self.checker = checker if checker is not None else Checker(overrides)
        self.states: dict[str, _SessionState] = {}
        self.loose: dict[bytes, DealCheck] = {}  # deals outside any session, by content hash (16 bytes)

    def close(self, session: str) -> None:
        """A session is over: its ledger and its content hashes go."""
        self.states.pop(session, None)
        self.checker.ledgers.pop(session, None)

    def _state(self, session: str) -> _SessionState:
        state = self.states.get(session)
        if state is None:
            planned = self.plan.sessions.get(session)
            state = self.states[session] = _SessionState(planned is not None and planned.has_seq)
        return state

    def seen(self, deal: Deal, digest: str) -> DealCheck | None:
        """The first copy's result when ``deal`` (content hash ``digest``) was scored before."""
        if deal.session is None:
            return self.loose.get(bytes.fromhex(digest[:32]))
        return self._state(deal.session).seen.get(digest)

    def remember(self, deal: Deal, digest: str, result: DealCheck) -> None:
        if deal.session is None:
            self.loose[bytes.fromhex(digest[:32])] = result
        else:
            self._state(deal.session).seen[digest] = result

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

    def score(self, deal: Deal, file: str | None, line: int | None, digest: str | None = None,
              warnings: list[CheckedFinding] | None = None) -> tuple[DealCheck, bool]:
        """The check result of a deal handed over in scoring order, and whether it is a copy (``warnings``:
        its ``seq_warnings`` when already asked)."""
        digest = digest if digest is not None else content_hash(deal)
        first = self.seen(deal, digest)
        if first is not None:
            return replace(first, file=file, line=line, findings=[],
                           duplicate_of=f"{first.file}:{first.line}"), True
        extra = self.seq_warnings(deal.session, deal.seq, file, line) if warnings is None else warnings
        result = self.checker.check_deal(deal, file, line)
        if extra:
            result = replace(result, findings=result.findings + extra)
        self.remember(deal, digest, result)
        return result, False


def check_stream(open_items: Callable[[], Iterable[ReadItem]],
                 overrides: dict[str, object] | None = None) -> Iterator[CheckResult]:
    """Every input item's check result under the session model: unreadable items where they come, deals
    in scoring order (docs/records.md, "Sessions").  ``open_items`` is called twice (two passes)."""
    plan = SessionPlan.of((item.deal.session, item.deal.seq) for item in open_items() if item.deal is not None)
    scorer = SessionScorer(plan, overrides)
    orderer: SessionOrderer[ReadItem] = SessionOrderer(plan, scorer.close)
    for item in open_items():
        deal = item.deal
        if deal is None:
            assert item.finding is not None
            yield parse_error(item.finding)
            continue
        for ready in orderer.push(deal.session, deal.seq, item):
            assert ready.deal is not None
            yield scorer.score(ready.deal, ready.file, ready.line)[0]
    for ready in orderer.finish():
        assert ready.deal is not None
        yield scorer.score(ready.deal, ready.file, ready.line)[0]


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


__all__ = ["SessionOrderer", "SessionPlan", "SessionScorer", "check_stream", "content_hash", "ordered", "Hashable"]
