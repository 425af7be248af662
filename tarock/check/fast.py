"""``tarock check``'s fast path: a plain, clean Slovenian record to its check result without the reference's
objects (issue 22).

Most records a club checks are plain (``tarock.formats.decode.plain_record``: complete, canonical, no table
events) and clean.  On the usual path such a record still becomes a ``Deal``, a ``Replay``, ``DealFacts``, a
``ScoreResult`` with its breakdown lines and trick dicts, all to be encoded into one JSON line.  Here the
decoded record goes the way ingest's bulk path takes it (``ingest.bulk``), through the same code: the rules
kernel's ``run_lane`` (``tarock/accel/_fastplay.c``, reached by ``tarock/accel/_checkline.c`` through its
capsule), which also writes the check result's ``tricks`` as JSON text; the compiled scorer
(``tarock.accel.scorer``), which writes the ``breakdown`` as JSON text; the bidding by
``tarock.accel.lane.bidding_agrees``.  The ``DealCheck`` holds those texts as ``msgspec.Raw``, so it encodes
to the very bytes the usual path's object encodes to (``tests/check/test_check_fast.py`` compares them over the
examples, the sample and generated deals with every renons kind).

``tarock check -f json`` goes further for a record outside any session (``FastCheck.line_checker``): the
reader hands whole runs of lines to one C call (``_checkline.check_lines``), which decodes each as
``ValidPlainReader`` would, writes its canonical text and content hash, replays and scores it as above and
appends its JSON line to the command's output buffer itself, stopping at the first line it does not write
(which then goes the way below, in its place).  Only what the C code cannot know comes from Python, once per
table, contract and options, or auction: the kernel's and the scorer's plans, the names' JSON texts, whether a
bidding agrees (docs/performance.md).

The kernel and the scorer vouch only for what they can; ``check`` returns None for anything else -- a deal
with announcements, options the accelerator does not declare (``tarock.accel.declared``), anything the
reference would have a word about, a score sheet that disagrees -- and the caller reads that record the usual
way.  Both ways keep one radelci ledger per session: the fast path updates the checker's own
``SessionLedger`` as ``SessionLedger.apply`` does.  Without the compiled extensions (or with
``TAROCK_REFERENCE=1``) there is no fast path.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any, NamedTuple, cast

import msgspec

from tarock import accel
from tarock.accel.lane import bidding_agrees, plan_for
from tarock.accel.scorer import plan_of, prepared, roster_of
from tarock.cards import CARD_POINTS, CODES
from tarock.check.first_copies import LineStarts
from tarock.check.result import BreakdownLine, DealCheck, Trick
from tarock.formats.decode import PLAIN_PARTS, Plain, plain_of
from tarock.options import OptionError, SlovenianOptions, options_for
from tarock.rules.sessions import SessionLedger
from tarock.rules.slovenian.contracts import CARDS_PER_HAND, CONTRACTS, Contract, allowed_contract
from tarock.rules.slovenian.scoring import session_end_per_radelc

RULESET = "slovenian"
_RAW = msgspec.Raw
_UNKNOWN: Any = object()
"""Not in a cache yet."""
_ENCODE = msgspec.json.encode


def _load() -> ModuleType | None:
    """``tarock.accel._checkline`` ready (its card texts given), or None: not built, or built against another
    kernel."""
    try:
        from tarock.accel import _checkline  # type: ignore[attr-defined]  # compiled: no stub
    except (ImportError, AttributeError):
        return None
    _checkline.init(tuple(_ENCODE(code) for code in CODES), tuple(CARD_POINTS))
    return _checkline


CHECKLINE: ModuleType | None = _load()
"""The fast path's C extension (``tarock/accel/_checkline.c``), or None: then there is no fast path."""


class Written:
    """What ``tarock.check.sessions.check_stream`` yields for a deal whose check result the fast path wrote as
    its JSON line straight to the output buffer (``FastCheck.line_checker``): a deal outside any session,
    ``ok``, with no finding, and no copy of a deal before it."""

    __slots__ = ()


WRITTEN = Written()


class Lines(NamedTuple):
    """What ``tarock.check.sessions.check_stream`` yields for lines in a row whose check results the fast path
    wrote as JSON lines straight to the output buffer (``LineChecker.take_lines``): deals outside any
    session, each ``ok``, with no finding, and no copy of a deal before it."""

    deals: int


class LineChecker:
    """The C calls of ``FastCheck.line_checker`` for one file, with their context: ``take_lines`` and ``take``
    for ``read_records``.  ``take_lines`` stops at a line it does not write; its verdict on that line is kept for
    ``take``, which is asked about that very line next.  ``starts`` (None for a file that cannot be read at an
    offset) learns where each line starts, which the C calls note as the place of a first copy."""

    __slots__ = ("_context", "_check_json", "_check_lines", "_pending_line", "_pending", "_starts")

    def __init__(self, context: tuple[Any, ...], checkline: ModuleType, starts: LineStarts | None) -> None:
        self._context = context
        self._check_json: Callable[..., Any] = checkline.check_json
        self._check_lines: Callable[..., tuple[int, int, int, Any]] = checkline.check_lines
        self._pending_line = -1
        self._pending: Any = None
        self._starts = starts

    def take_lines(self, chunk: bytes, pos: int, line: int, max_bytes: int) -> tuple[int, int, Lines | None]:
        starts = self._starts
        base = -1 if starts is None else starts.enter(chunk, pos)
        pos, line, written, stopped = self._check_lines(self._context, chunk, pos, line, max_bytes, base)
        if starts is not None:
            starts.left(pos, line)
        if stopped is not None:
            self._pending_line, self._pending = line, None if stopped is False else stopped
        return pos, line, Lines(written) if written else None

    def take(self, line: int, data: bytes) -> Plain | Written | None:
        at = -1 if self._starts is None else self._starts.take(line, data)
        if line == self._pending_line:
            self._pending_line = -1
            verdict = self._pending
        else:
            verdict = self._check_json(self._context, line, data, at)
        if verdict is None or verdict is WRITTEN:
            return verdict
        return plain_of(line, data, verdict)  # read as ValidPlainReader reads it: the usual fast path


@dataclass(frozen=True, slots=True)
class _Spec:
    """How to check deals of one contract, number of players and options: worked out once."""

    options: SlovenianOptions
    contract: Contract
    args: tuple[Any, ...]
    """``_checkline.replay``'s arguments after the record's: cards per hand, whether the contract has a
    declarer, whether the declarer leads, whether a king is called, the kernel's plan."""
    score_plan: tuple[Any, ...]
    end_per_radelc: int
    klop: bool
    """Whether the contract is Klop (each player's card points rather than the two sides')."""


class FastCheck:
    """The fast path of one ``check`` run: ``check(plain, file, ledgers)`` gives a plain record's check result,
    or None to have it read the usual way.  ``make`` gives None where there is no fast path."""

    def __init__(self, overrides: Mapping[str, Any] | None, default: SlovenianOptions,
                 score: Callable[..., Any], checkline: ModuleType) -> None:
        self.overrides = overrides
        self.default = default
        self._score = score
        self._replay: Callable[..., Any] = checkline.replay
        self._specs: dict[tuple[str, int, int], _Spec | None] = {}
        """By contract, number of players and the options' identity (the options kept alive by the spec; a
        spec of None holds none, so the default options alone are cached by identity for None)."""
        self._rosters: dict[tuple[str, ...], tuple[tuple[bytes, ...], tuple[bytes, ...]] | None] = {}
        self._options: dict[str, SlovenianOptions | None] = {}
        self._biddings: dict[tuple[Any, ...], tuple[SlovenianOptions, bool]] = {}
        """Whether a bidding agrees with the record's contract and declarer (``bidding_agrees``), by the bids
        as recorded, the players, the declarer, the contract and the options' identity, with the options
        (kept alive, so the id stays theirs): a club's auctions recur, and this spares turning names into
        seats."""
        self._scratch = bytearray()
        self._line_rosters: dict[tuple[str, ...], tuple[Any, ...] | None] = {}
        self._line_specs: dict[tuple[Any, ...], tuple[Any, ...] | None] = {}
        """``line_checker``'s caches, which ``_checkline.check_json`` fills by calling ``_line_roster`` and
        ``_line_spec`` (by players; by contract, number of players and the options' repr)."""
        self._checkline = checkline
        self._context_fields: tuple[str, ...] = checkline.CONTEXT_FIELDS
        self._spec_fields: tuple[str, ...] = checkline.SPEC_FIELDS
        self._roster_fields: tuple[str, ...] = checkline.ROSTER_FIELDS
        at = accel.ANSWERS
        assert at is not None
        self._klop_points = at.klop_facts.klop_points
        self._declarer_points = at.facts.declarer_points
        self._opponents_points = at.facts.opponents_points

    @classmethod
    def make(cls, overrides: Mapping[str, Any] | None) -> FastCheck | None:
        score = prepared()
        if accel.KERNEL is None or accel.ANSWERS is None or score is None or CHECKLINE is None:
            return None
        try:
            default = options_for(RULESET, None, overrides)
        except OptionError:
            return None
        if not isinstance(default, SlovenianOptions):
            return None
        return cls(overrides, default, score, CHECKLINE)

    def check(self, plain: Plain, file: str | None, ledgers: dict[str, SessionLedger]) -> DealCheck | None:
        """The check result of a plain record read from ``file``, scored with its session's radelci (the
        ledger in ``ledgers`` updated), or None (nothing changed) when the fast path cannot vouch for it."""
        r = plain.record
        if r.announcements:  # valid announcements are the Python engine's to say: the usual path
            return None
        players = plain.players
        options = self._options_of(r.options)
        if options is None:
            return None
        key = (r.contract, len(players), id(options))
        spec = self._specs.get(key, _UNKNOWN)
        if spec is _UNKNOWN or (spec is not None and spec.options is not options):
            spec = self._spec(key, options)
        if spec is None:
            return None
        names = self._rosters.get(players, _UNKNOWN)
        if names is _UNKNOWN:
            names = self._roster(players)
        if names is None:
            return None
        texts, roster = names
        if r.bidding is not None:
            bidding_key = (tuple(r.bidding), players, r.declarer, r.contract, id(options))
            known = self._biddings.get(bidding_key)
            if known is not None and known[0] is options:
                agrees = known[1]
            else:
                agrees = self._bidding_agrees(bidding_key, spec, options)
            if not agrees:
                return None
        replayed = self._replay(r, players, texts, *spec.args)
        if replayed is None:
            return None
        seat, partner, facts, tricks = replayed
        session = plain.session
        ledger = None if session is None else ledgers.get(session)
        before = (0,) * len(players) if ledger is None else tuple([ledger.radelci.get(p, 0) for p in players])
        scored = self._score(spec.score_plan, roster, None if seat < 0 else seat, None if partner < 0 else partner,
                             facts, before, 0, self._scratch, None, True)
        self._scratch.clear()
        if scored is None:
            return None
        won, scores, after, _, breakdown = scored
        recorded = None
        sheet = r.recorded
        if sheet is not None:  # a sheet that says anything else has findings (tarock.check.audit): the usual path
            if any(sheet.scores.get(p, 0) != s for p, s in zip(players, scores)):
                return None
            if sheet.radelci is not None and any(sheet.radelci.get(p, 0) != a for p, a in zip(players, after)):
                return None
            recorded = dict(sheet.scores)
        if spec.klop:
            card_points = dict(zip(players, facts[self._klop_points]))
        else:
            card_points = {"declarer_side": facts[self._declarer_points],
                           "opponents": facts[self._opponents_points]}
        score_by_name = dict(zip(players, scores))
        after_by_name = dict(zip(players, after))
        if session is not None:  # what SessionLedger.apply does with the reference's result
            if ledger is None:
                ledger = ledgers[session] = SessionLedger()
            ledger.join(players)
            ledger.end_per_radelc = spec.end_per_radelc
            ledger.radelci.update(after_by_name)
            totals = ledger.totals
            for p, s in score_by_name.items():
                totals[p] += s
            ledger.scored += 1
        return DealCheck(
            id=plain.deal_id, file=file, line=plain.line, session=session, seq=plain.seq, status="ok",
            findings=[], ruleset=RULESET, players=list(players), contract=r.contract,
            declarer=None if seat < 0 else players[seat], partner=None if partner < 0 else players[partner],
            tricks=cast(list[Trick], _RAW(tricks)), card_points=card_points, scores=score_by_name,
            breakdown=cast(list[BreakdownLine], _RAW(breakdown)),
            radelci_before=dict(zip(players, before)), radelci_after=after_by_name, won=won, penalty="none",
            unpenalised=None, recorded=recorded,
        )

    def line_checker(self, file: str, out: bytearray, loose: dict[bytes, Any],
                     reader: Callable[[int, bytes], Plain | None], file_index: int = -1,
                     starts: LineStarts | None = None) -> LineChecker:
        """``read_records``'s ``take`` and ``take_lines`` for the lines of ``file`` (a JSON Lines file): a plain,
        clean record outside any session is checked in C (``_checkline.check_lines``, many lines in one call, or
        ``check_json``: the reading ``reader`` does, the content hash, the kernel's replay, the compiled scorer)
        and its check result's JSON line appended to ``out`` (yielded as ``Written``; its content hash noted in
        ``loose`` with where it was, ``SessionScorer.first_copy``: its place, ``tarock.check.first_copies``, by
        ``file_index`` (the file's among the run's) and where ``starts`` says its line starts, or else its text);
        any other plain record is read as ``reader`` reads it (the usual ``score_plain``); anything else is the
        reader's.  Without ``starts`` (a file that cannot be read at an offset) no place is noted."""
        values: dict[str, Any] = {
            "out": out, "file": file, "file_json": _ENCODE(file), "sha256": hashlib.sha256,
            "decode": PLAIN_PARTS.decode, "decode_named": PLAIN_PARTS.decode_named,
            "decode_errors": PLAIN_PARTS.decode_errors, "encode": PLAIN_PARTS.encode, "format": PLAIN_PARTS.format,
            "plain_date": PLAIN_PARTS.plain_date, "bids": PLAIN_PARTS.bids,
            "rosters": self._line_rosters, "roster_of": self._line_roster, "specs": self._line_specs,
            "spec_of": self._line_spec, "bidding_agrees": self._line_bidding_agrees, "sort_options": _sorted_options,
            "scorer": self._score, "scratch": self._scratch, "loose": loose, "written": WRITTEN,
            "file_index": file_index if starts is not None else -1,
        }
        return LineChecker(tuple(values[name] for name in self._context_fields), self._checkline, starts)

    def _line_roster(self, players: tuple[str, ...]) -> tuple[Any, ...] | None:
        """``check_json``'s roster of a table (laid out by ``ROSTER_FIELDS``), or None when the reader or the
        scorer do not take these names."""
        names = None if PLAIN_PARTS.plain_roster(players) is None else self._roster(players)
        if names is None:
            return None
        values = {"texts": names[0], "scorer_roster": names[1],
                  "named_plays": not any(":" in p for p in players)}  # ValidPlainReader's named plays
        return tuple(values[name] for name in self._roster_fields)

    def _line_spec(self, contract: str, n: int, raw: dict[str, Any] | None) -> tuple[Any, ...] | None:
        """``check_json``'s spec of a contract, number of players and a record's options (canonical: sorted by
        key, None for none), laid out by ``SPEC_FIELDS``; None when the fast path does not take them."""
        if raw is not None and not PLAIN_PARTS.plain_options(raw):  # options the reader does not take
            return None
        options = self._options_of(raw)
        if options is None:
            return None
        spec = self._spec((contract, n, id(options)), options)
        if spec is None:
            return None
        c = spec.contract
        per_hand, has_declarer, declarer_leads, calls_king, lane_plan = spec.args
        values = {"per_hand": per_hand, "has_declarer": has_declarer, "declarer_leads": declarer_leads,
                  "calls_king": calls_king, "lane_plan": lane_plan, "score_plan": spec.score_plan, "klop": spec.klop,
                  "contract_json": _ENCODE(c.name), "biddings": {}, "contract": c, "options": spec.options}
        return tuple(values[name] for name in self._spec_fields)

    def _line_bidding_agrees(self, bidding: tuple[tuple[str, str], ...], players: tuple[str, ...],
                             declarer: str | None, spec: tuple[Any, ...]) -> bool:
        """``check_json``'s question whether a bidding agrees with the contract and declarer (``bidding_agrees``)."""
        fields = self._spec_fields
        contract: Contract = spec[fields.index("contract")]
        declarers = (players.index(declarer),) if contract.has_declarer and declarer is not None else ()
        return bidding_agrees(bidding, players, contract, declarers, spec[fields.index("options")])

    def _options_of(self, raw: dict[str, Any] | None) -> SlovenianOptions | None:
        """The options a record's ``options`` (None: none) stand for with the overrides (``_resolve``,
        remembered), or None when they are not valid Slovenian options."""
        if raw is None:
            return self.default
        options = self._options.get(repr(raw), _UNKNOWN)
        return self._resolve(raw) if options is _UNKNOWN else options

    def _resolve(self, raw: dict[str, Any]) -> SlovenianOptions | None:
        """A record's options with the overrides, remembered by the options' repr (which tells a text, a
        number and true apart), or None when they are not valid Slovenian options."""
        try:
            resolved = options_for(RULESET, raw, self.overrides)
        except OptionError:
            resolved = None
        options = resolved if isinstance(resolved, SlovenianOptions) else None
        if len(self._options) >= 4096:
            self._options.clear()
        self._options[repr(raw)] = options
        return options

    def _bidding_agrees(self, key: tuple[Any, ...], spec: _Spec, options: SlovenianOptions) -> bool:
        """``bidding_agrees`` of the bidding in ``key`` (``check``'s), remembered."""
        bidding, players, declarer = key[0], key[1], key[2]
        contract = spec.contract
        declarers = (players.index(declarer),) if contract.has_declarer and declarer is not None else ()
        agrees = bidding_agrees(bidding, players, contract, declarers, options)
        if len(self._biddings) >= 1 << 16:
            self._biddings.clear()
        self._biddings[key] = (options, agrees)
        return agrees

    def _spec(self, key: tuple[str, int, int], options: SlovenianOptions) -> _Spec | None:
        contract_name, n, _ = key
        c = CONTRACTS[contract_name]
        plan = plan_for(contract_name, options)  # None: options the accelerator does not declare
        spec = None
        if plan is not None and n in CARDS_PER_HAND and allowed_contract(c, n, options):
            score_plan = plan_of(contract_name, options)
            if score_plan is not None:
                args = (CARDS_PER_HAND[n], c.has_declarer, c.declarer_leads, c.calls_king and n == 4,
                        plan.kernel_plan)
                spec = _Spec(options, c, args, score_plan, session_end_per_radelc(options), c.is_klop)
        if len(self._specs) >= 4096:
            self._specs.clear()
        if spec is not None or options is self.default:
            self._specs[key] = spec
        return spec

    def _roster(self, players: tuple[str, ...]) -> tuple[tuple[bytes, ...], tuple[bytes, ...]] | None:
        roster = roster_of(players)
        names = None if roster is None else (tuple([_ENCODE(p) for p in players]), roster)
        if len(self._rosters) >= 4096:
            self._rosters.clear()
        self._rosters[players] = names
        return names


def _sorted_options(options: dict[str, Any]) -> dict[str, Any]:
    """A record's options sorted by key, as the canonical record writes them (``tarock.formats.decode``)."""
    return {key: options[key] for key in sorted(options)}
