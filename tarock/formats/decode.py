"""A typed fast path for reading one `tarock-record/1` JSON text into a ``Deal`` (issue 11).

``tarock.formats.codec.loads`` parses a record with orjson into dicts and lists and
then checks every field in Python (``deal_from_obj``), naming the field of
each problem.  Most records are plain — canonical names and card codes, no
unknown keys — and for those msgspec can decode the text straight into typed
structs, leaving only the checks types cannot express (players known, names
canonical, cards canonical) to Python.

``fast_deal`` returns the very ``Deal`` that ``deal_from_obj(orjson.loads(text))``
gives, or None to decline whenever it cannot be sure: an unknown key, an
alias (a card, contract, bid, bonus or ruleset name that is not canonical),
a value of another type, ``null`` where the reference treats it specially,
a whole number outside 64 signed bits (orjson reads most of those as
floats), anything the reference rejects.  A declined text is left to the
reference path, so every error message and every unusual record reads
exactly as before.

The content id (a record without ``id``) is the SHA-256 of the canonical JSON
(``records.content_id``).  Rather than building the canonical object from the
finished deal, the decoded structs are brought into canonical shape (fixed
key order comes with the struct's field order; null, empty and default
fields are left out by ``omit_defaults``; only what the reference reorders or
rewrites is set) and encoded by msgspec, whose output equals orjson's for
every string, whole number, true/false and null (tests/formats/test_record_decode.py
checks every code point), so the hash is byte for byte the reference's.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from datetime import date, datetime
from itertools import chain
from operator import itemgetter
from types import MappingProxyType
from typing import Annotated, Any, Literal, NamedTuple, cast

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType

from tarock.cards import CODE_INDEX, CODES
from tarock.deal import (
    BONUSES,
    CONTRACTS,
    EMPTY,
    FORMAT,
    KONTRA_LEVELS,
    RULESETS,
    Announcement,
    Claim,
    Deal,
    Event,
    Recorded,
)
from tarock.options import options_for

MAX_NAME = 100
"""The longest player name accepted; the same as ``tarock.formats.codec.MAX_NAME`` (a test keeps them equal)."""

SEQ_MAX = 2**63 - 1
"""The largest ``seq``: the store keeps it as a BIGINT (64 signed bits)."""
DECODE_ERRORS: tuple[type[Exception], ...] = (msgspec.DecodeError, TypeError, UnicodeEncodeError, RecursionError)
"""What a typed decoding that does not fit the text raises: the fast path then declines it.  RecursionError:
msgspec skips an unknown key's value by recursion, so a value nested too deep (a thousand brackets) raises it;
declined, the reader's depth limit makes that record one E_PARSE finding."""
SCORE_LIMIT = 10**9
"""The largest magnitude of a recorded score or radelci count: the store keeps a recorded score, and its
difference to the recomputed one, as 32-bit INTEGERs (docs/records.md)."""
TRICK_MAX = 2**31 - 1
"""The largest trick number of a table event or claim (``trick``, ``after_trick``): findings keep it as INTEGER."""

Int = Annotated[int, Meta(ge=-(2**63), le=2**63 - 1)]
"""A whole number in 64 signed bits: orjson reads larger ones as floats (or as ints up to 2**64 - 1,
which are simply declined here), while msgspec would read them as ints."""
Count = Annotated[int, Meta(ge=0, le=SEQ_MAX)]
"""A whole number at least 0 that the store keeps as a BIGINT (``seq``)."""
TrickNo = Annotated[int, Meta(ge=0, le=TRICK_MAX)]
"""A trick number of an event or claim (``after_trick``, ``trick``); out of range declines."""
Score = Annotated[int, Meta(ge=-SCORE_LIMIT, le=SCORE_LIMIT)]
"""A recorded score or radelci count; out of range declines (the reference rejects it, naming the range)."""
Card = Literal[CODES]  # type: ignore[valid-type]
"""A canonical card code; msgspec hands back the very ``CODES`` string (hash already known), so no copy."""
OptionValue = str | bool | Int | None
"""An option value the options can hold: ``options_for`` accepts no float, list or object."""


class _Announcement(Struct, forbid_unknown_fields=True, omit_defaults=True):
    """``{player, bonus}`` or ``{player, kontra, level, against?}``; an absent field is UNSET.

    UNSET rather than None: the reference rejects a bonus with a ``level`` or
    ``against`` key even when it is null, so a null here declines.
    """

    player: str
    bonus: str | UnsetType = UNSET
    kontra: str | UnsetType = UNSET
    level: Int | UnsetType = UNSET
    against: str | UnsetType = UNSET


class _Event(Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A table event; null fields are absent, as in the reference."""

    event: str
    trick: TrickNo | None = None
    after_trick: TrickNo | None = None
    player: str | None = None
    card: Card | None = None


class _Claim(Struct, forbid_unknown_fields=True):
    player: str
    after_trick: TrickNo


class _Recorded(Struct, forbid_unknown_fields=True, omit_defaults=True):
    scores: dict[str, Score]
    radelci: dict[str, Score] | None = None


class _Record(Struct, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """A whole record, its fields in canonical key order (``records.KNOWN_KEYS``): encoding is canonical."""

    format: str | None = None
    id: str | None = None
    session: str | Int | None = None
    seq: Count | None = None
    date: str | None = None
    ruleset: str
    options: dict[str, OptionValue] | None = None
    players: list[str]
    hands: dict[str, list[Card]] | None = None
    talon: list[Card] | None = None
    bidding: list[tuple[str, str]] | None = None
    contract: str
    declarer: str | list[str] | None = None
    called_king: Card | None = None
    talon_pick: list[Card] | None = None
    stash: list[Card] | None = None
    announcements: list[_Announcement] | None = None
    tricks: list[list[str]]  # codes, or "Name:CODE" plays
    conceded: bool | None = None
    claim: _Claim | None = None
    events: list[_Event] | None = None
    recorded: _Recorded | None = None
    openspiel: dict[str, Int | list[Int]] | UnsetType = UNSET
    """The one extra key read here: where ``tarock import openspiel`` keeps the game's seed and returns
    (extra keys follow the known ones, sorted: alone, it is last, as here)."""


_DECODER = msgspec.json.Decoder(_Record)
_ENCODER = msgspec.json.Encoder()

_CODE_GET = CODE_INDEX.get
_CARD_OF = CODE_INDEX.__getitem__
_FIRST, _SECOND = itemgetter(0), itemgetter(1)
_RULESET_SET = frozenset(RULESETS)
_CONTRACT_SETS = {ruleset: frozenset(names) for ruleset, names in CONTRACTS.items()}
_BIDS = {ruleset: names | {"pass"} for ruleset, names in _CONTRACT_SETS.items()}
_BONUS_SETS = {ruleset: frozenset(names) for ruleset, names in BONUSES.items()}
_KONTRA_TARGETS = {ruleset: names | {"game"} for ruleset, names in _BONUS_SETS.items()}
_EVENT_NEEDS: dict[str, tuple[str, ...]] = {
    "renons_called": ("after_trick",),
    "out_of_turn": ("trick", "player"),
    "two_cards": ("trick", "player", "card"),
    "missing_card": ("player", "card"),
    "claim": ("player", "after_trick"),
}
"""Each event kind and the fields it needs: ``records.EVENT_FIELDS`` (a test keeps them equal)."""

_PLAYED_CARD: dict[str, int] = {}
"""Named play text ("Ana:HK") -> its card, for texts of a canonical code after the first ':'."""
_PLAYED_BY: dict[str, str] = {}
"""Named play text -> the name before the first ':'; the same keys as ``_PLAYED_CARD``."""
_CARD_PLAYED = _PLAYED_CARD.__getitem__
_PLAYER_OF = _PLAYED_BY.__getitem__
_PLAYED_MAX = 1 << 16
"""The most named play texts kept; past it both are emptied."""


class _Decline(Exception):
    """The fast path cannot vouch for this record: the reference path reads it."""


def fast_deal(text: bytes | str) -> Deal | None:
    """The Deal of a plain record text, the same as the reference path gives; None to decline.

    None means only "not decided here": the text may still be a valid record
    (aliases, unknown keys, …) or an invalid one, and the caller reads it the
    reference way (``orjson.loads`` then ``records.deal_from_obj``).
    """
    found = _read(text, False)
    return None if found is None else found[0]


def fast_deal_and_text(text: bytes | str) -> tuple[Deal, str] | None:
    """``fast_deal``'s Deal with its canonical record text (``records.dumps`` of it), or None to decline.

    Ingest stores the canonical text of every deal; the decoded structs give it for the cost of one
    msgspec encoding, where ``records.dumps`` would rebuild it from the Deal.
    """
    found = _read(text, True)
    return None if found is None else (found[0], found[1].decode())  # type: ignore[union-attr]


def _read(text: bytes | str, want_text: bool) -> tuple[Deal, bytes | None] | None:
    try:
        record = _DECODER.decode(text)
    except DECODE_ERRORS:
        return None  # not JSON or not this shape; not text at all; a str holding a lone surrogate
    try:
        return _deal(record, want_text)
    except _Decline:
        return None


def _player(name: str, known: frozenset[str]) -> str:
    if name not in known:
        raise _Decline
    return name


def _named_play(text: str) -> tuple[str, int]:
    """A named play "Name:CODE" as (name, card) when CODE, all after the first ':', is canonical.

    The name and card do not depend on the deal (the caller checks the
    name), so they are kept for the next trick that holds the same text.
    """
    name, colon, code = text.partition(":")
    card = _CODE_GET(code)
    if not colon or card is None or len(name) > MAX_NAME:
        raise _Decline
    if len(_PLAYED_CARD) >= _PLAYED_MAX:
        _PLAYED_CARD.clear()
        _PLAYED_BY.clear()
    _PLAYED_CARD[text] = card
    _PLAYED_BY[text] = name
    return name, card


def _tricks(
    tricks: list[list[str]], known: frozenset[str]
) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[str, ...] | None, ...]]:
    """The cards of each trick and, for each, the names of its players or None when they are not named.

    The usual records, every trick unnamed or every trick named (plays seen
    before), take one pass or two; others are read trick by trick.
    """
    first = tricks[0][0] if tricks and tricks[0] else ""
    try:
        if ":" not in first:
            cards = tuple([tuple(map(_CARD_OF, plays)) for plays in tricks])
            return cards, (None,) * len(cards)
        cards = tuple([tuple(map(_CARD_PLAYED, plays)) for plays in tricks])
        names = tuple([tuple(map(_PLAYER_OF, plays)) for plays in tricks])
    except KeyError:  # a play of the other kind, one not seen before, or a text that is no play
        return _trick_by_trick(tricks, known)
    if () in names:  # an empty trick is unnamed
        return _trick_by_trick(tricks, known)
    if not known.issuperset(chain.from_iterable(names)):
        raise _Decline
    return cards, names


def _trick_by_trick(
    tricks: list[list[str]], known: frozenset[str]
) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[str, ...] | None, ...]]:
    """``_tricks`` one trick at a time: unnamed and named tricks mixed, named plays not seen before.

    Declines a trick mixing named and unnamed plays, and a play named with
    more than one ':' (a player name holding ':').
    """
    all_cards: list[tuple[int | None, ...]] = []
    all_names: list[tuple[str, ...] | None] = []
    for plays in tricks:
        codes = tuple(map(_CODE_GET, plays))
        if None not in codes:
            all_cards.append(codes)
            all_names.append(None)
            continue
        names, cards = zip(*map(_named_play, plays))
        if not known.issuperset(names):
            raise _Decline
        all_cards.append(cards)
        all_names.append(names)
    # every trick holding an unknown code (None) was read as named plays instead, or declined
    return cast(tuple[tuple[int, ...], ...], tuple(all_cards)), tuple(all_names)


def _check_date(text: str) -> None:
    """Declines unless ``text`` is an ISO 8601 date or date and time, by the reference's test.

    The reference tries a date, then a date and time; either order accepts
    the same texts, and this one raises no exception for the usual ones.
    """
    try:
        datetime.fromisoformat(text)
    except ValueError:
        try:
            date.fromisoformat(text)
        except ValueError:
            raise _Decline from None


def _scores(scores: dict[str, int], players: tuple[str, ...], known: frozenset[str]) -> dict[str, int]:
    """A {player: int} object in playing order, as the reference stores (and writes) it."""
    if not known.issuperset(scores):
        raise _Decline
    return {p: scores[p] for p in players if p in scores}


def _announcement(a: _Announcement, ruleset: str, known: frozenset[str]) -> Announcement:
    player = _player(a.player, known)
    if a.bonus is not UNSET:
        if a.kontra is not UNSET or a.level is not UNSET or a.against is not UNSET:
            raise _Decline
        if a.bonus not in _BONUS_SETS[ruleset]:
            raise _Decline
        return Announcement(player, bonus=a.bonus)
    if a.kontra is UNSET or a.kontra not in _KONTRA_TARGETS[ruleset] or a.level not in KONTRA_LEVELS:
        raise _Decline
    against = None if a.against is UNSET else _player(a.against, known)
    return Announcement(player, kontra=a.kontra, level=a.level, against=against)


def _event(e: _Event, known: frozenset[str]) -> Event:
    needs = _EVENT_NEEDS.get(e.event)
    if needs is None or any(getattr(e, key) is None for key in needs):
        raise _Decline
    if e.trick is not None and e.trick < 1:
        raise _Decline
    return Event(
        e.event,
        player=None if e.player is None else _player(e.player, known),
        trick=e.trick,
        after_trick=e.after_trick,
        card=None if e.card is None else _CARD_OF(e.card),
    )


def _declarer(value: str | list[str], ruleset: str, known: frozenset[str]) -> str | tuple[str, ...]:
    """One player, or (koenigrufen) several distinct ones; a list of one is that one, as in the reference."""
    if isinstance(value, str):
        return _player(value, known)
    names = tuple(value)
    if ruleset != "koenigrufen" or not names or len(set(names)) != len(names) or not known.issuperset(names):
        raise _Decline
    return names[0] if len(names) == 1 else names


def _deal(r: _Record, want_text: bool = False) -> tuple[Deal, bytes | None]:
    """Check a decoded record the way ``deal_from_obj`` does and build its Deal; _Decline when unsure.
    With the Deal its canonical JSON when ``want_text`` (or when its id is the content hash), else None.

    Every check the reference makes is made here too, or its case declines.
    Where the reference normalises a value (a numeric session, a one-name
    declarer list, scores in playing order) the struct takes the normalised
    value too, for ``_canonical``.
    """
    ruleset = r.ruleset
    if (r.format is not None and r.format != FORMAT) or ruleset not in _RULESET_SET:
        raise _Decline
    players = tuple(r.players)
    known = frozenset(players)
    if (
        len(players) not in (3, 4)
        or (ruleset == "koenigrufen" and len(players) != 4)
        or len(known) != len(players)
        or not all(map(str.strip, players))
        or max(map(len, players)) > MAX_NAME
        or r.contract not in _CONTRACT_SETS[ruleset]
        or r.id == ""
    ):
        raise _Decline
    tricks, trick_players = _tricks(r.tricks, known)
    session = r.session
    if isinstance(session, int):  # (never a bool: msgspec decodes a JSON bool as no int)
        r.session = session = str(session)
    options: Mapping[str, Any] = EMPTY
    if r.options is not None:
        try:
            options_for(ruleset, r.options)
        except (ValueError, TypeError):
            raise _Decline from None
        options = MappingProxyType(r.options)
    hands = None
    if r.hands is not None:
        if r.hands.keys() != known:
            raise _Decline
        hands = tuple([tuple(map(_CARD_OF, r.hands[p])) for p in players])
    bidding = None
    if r.bidding is not None:
        bidders, bids = map(_FIRST, r.bidding), map(_SECOND, r.bidding)
        if not known.issuperset(bidders) or not _BIDS[ruleset].issuperset(bids):
            raise _Decline
        bidding = tuple(r.bidding)
    declarer = None
    if r.declarer is not None:
        declarer = r.declarer = _declarer(r.declarer, ruleset, known)  # type: ignore[assignment]
    recorded = None
    if r.recorded is not None:
        rec = r.recorded
        rec.scores = _scores(rec.scores, players, known)
        if rec.radelci is not None:
            rec.radelci = _scores(rec.radelci, players, known)
        recorded = Recorded(
            scores=MappingProxyType(rec.scores),
            radelci=None if rec.radelci is None else MappingProxyType(rec.radelci),
        )
    claim = None
    if r.claim is not None:
        claim = Claim(_player(r.claim.player, known), r.claim.after_trick)
    announcements = (
        () if r.announcements is None else tuple([_announcement(a, ruleset, known) for a in r.announcements])
    )
    events = () if r.events is None else tuple([_event(e, known) for e in r.events])
    if r.date is not None:
        _check_date(r.date)
    given_id = r.id
    canonical = _canonical(r, players) if given_id is None or want_text else None
    deal = Deal(
        id=hashlib.sha256(canonical).hexdigest()[:16] if given_id is None else given_id,  # type: ignore[arg-type]
        id_given=given_id is not None,
        ruleset=ruleset,
        players=players,
        contract=r.contract,
        tricks=tricks,
        trick_players=trick_players,
        session=session,
        seq=r.seq,
        date=r.date,
        options=options,
        hands=hands,
        talon=None if r.talon is None else tuple(map(_CARD_OF, r.talon)),
        bidding=bidding,
        declarer=declarer,
        called_king=None if r.called_king is None else _CARD_OF(r.called_king),
        talon_pick=None if r.talon_pick is None else tuple(map(_CARD_OF, r.talon_pick)),
        stash=None if r.stash is None else tuple(map(_CARD_OF, r.stash)),
        announcements=announcements,
        conceded=r.conceded,
        claim=claim,
        events=events,
        recorded=recorded,
        extra=EMPTY if r.openspiel is UNSET else MappingProxyType({"openspiel": r.openspiel}),
    )
    return deal, canonical


def _canonical(r: _Record, players: tuple[str, ...]) -> bytes:
    """The record's canonical JSON (``records.dumps`` of its deal; without an id, what
    ``records.content_id`` hashes).

    The struct holds only canonical codes and names (anything else declines)
    and, from ``_deal``, a text session, a one-name declarer as a text and
    scores in playing order; what is left to make canonical is done here:
    the format written out, hands in playing order, options sorted by key,
    empty options, announcements and events left out.
    """
    r.format = FORMAT
    if r.hands is not None and tuple(r.hands) != players:
        r.hands = {p: r.hands[p] for p in players}
    if r.options is not None:
        r.options = {key: r.options[key] for key in sorted(r.options)} or None
    if not r.announcements:
        r.announcements = None
    if not r.events:
        r.events = None
    return _ENCODER.encode(r)


_SLOVENIAN_CONTRACT_NAMES = tuple(CONTRACTS["slovenian"])
Empty = Annotated[list[Any], Meta(max_length=0)]
"""An empty list (what a plain record may hold where announcements or table events go)."""


class _PlainRecord(_Record, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """A plain Slovenian record's shape (``plain_record``), checked by the typed decoding itself: the
    ruleset, format and contract canonical, hands and talon present, one declarer, nothing where table
    events, a claim or a concession go, and every play a canonical code (no named plays): each card comes
    back as the very ``CODES`` string, which the kernel recognises by identity.  A text of another shape
    fails to decode, and is read the usual way."""

    format: Literal[FORMAT] | None = None  # type: ignore[valid-type]
    id: Annotated[str, Meta(min_length=1)] | None = None
    ruleset: Literal["slovenian"]
    hands: dict[str, list[Card]]
    talon: list[Card]
    contract: Literal[_SLOVENIAN_CONTRACT_NAMES]  # type: ignore[valid-type]
    declarer: str | None = None
    tricks: list[list[Card]]
    conceded: None = None
    claim: None = None
    events: Empty | None = None


class _PlainNamedRecord(_PlainRecord, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """``_PlainRecord`` whose plays may also be written "Name:CODE" (the kernel reads both forms)."""

    tricks: list[list[str]]


_PLAIN_DECODER = msgspec.json.Decoder(_PlainRecord)
_PLAIN_NAMED_DECODER = msgspec.json.Decoder(_PlainNamedRecord)


class Plain(NamedTuple):
    """A plain Slovenian record as ingest's bulk path takes it: decoded, checked, in canonical shape."""

    line: int
    data: bytes
    """The record's text as read (to read it the usual way after all)."""
    record: _Record
    """The decoded struct, brought into canonical shape (a text session, hands in playing order …)."""
    players: tuple[str, ...]
    text: bytes
    """The canonical JSON (``records.dumps`` of the record's Deal)."""
    digest: str
    """The SHA-256 of ``text`` in hex: the stored copy's content hash (and, cut to 16, the content id)."""
    deal_id: str
    session: str | None
    seq: int | None
    pos: int = 0
    """Where the caller places the record in its file: ingest's stored key (``ingest.rows.source_pos``), which its
    bulk path writes as the ``deals`` row's ``source_pos``; 0 where nobody asks (``tarock check``)."""


class ValidPlainReader:
    """``plain_record`` of a record ``fast_deal`` reads too, so a valid one, for ``read_records``'s ``take``:
    its named plays, if any, are checked here as ``fast_deal`` checks them (each "Name:CODE" of a player of
    the deal, whose name holds no ':', and a canonical code) rather than left to the kernel.  ``tarock
    check``'s fast path takes these (``tarock.check.sessions``): a record it reads the usual way after all
    must not turn out unreadable.

    One reader per stream: it tries first the decoding the last record needed (card codes, or named plays,
    as OpenSpiel's records have), so a file of named plays does not fail the codes' decoding on every line.
    """

    def __init__(self) -> None:
        self.named_first = False

    def __call__(self, line: int, data: bytes) -> Plain | None:
        r: _PlainRecord
        if self.named_first:
            try:  # the named plays' decoding reads every text the codes' decoding reads
                r = _PLAIN_NAMED_DECODER.decode(data)
            except DECODE_ERRORS:
                return None
            if _all_named(r):
                return _plain(line, data, r)
            self.named_first = False
        try:
            r = _PLAIN_DECODER.decode(data)
        except DECODE_ERRORS:
            try:
                r = _PLAIN_NAMED_DECODER.decode(data)
            except DECODE_ERRORS:
                return None
            if not _all_named(r):
                return None
            self.named_first = True
        return _plain(line, data, r)


_NAMED_PLAYS: dict[tuple[str, ...], frozenset[str] | None] = {}


def _all_named(r: _PlainRecord) -> bool:
    """Whether every play of the record is "Name:CODE" with a player of the deal and a canonical code, the
    name holding no ':' (``fast_deal``'s ``_named_play`` reads it so)."""
    players = tuple(r.players)
    plays = _NAMED_PLAYS.get(players, False)
    if plays is False:
        ok = not any(":" in p for p in players)
        plays = frozenset(f"{p}:{code}" for p in players for code in CODES) if ok else None
        if len(_NAMED_PLAYS) >= 256:
            _NAMED_PLAYS.clear()
        _NAMED_PLAYS[players] = plays
    return plays is not None and all(map(plays.issuperset, r.tricks))  # type: ignore[union-attr]


def plain_record(line: int, data: bytes, pos: int = 0) -> Plain | None:
    """The record of line ``line`` of a file, ``data``, when it is a plain, complete Slovenian record (its
    ``Plain.pos`` ``pos``); None otherwise.

    Plain: what ``fast_deal`` reads (the same checks, or the case declines;
    named plays are checked by the kernel) and, besides, hands and talon
    recorded, the declarer named by one name, and no table events, claim or
    concession (a bidding, announcements and a score sheet may be there).  A record declined
    here is read the usual way (``fast_deal``, then the reference), so None
    says nothing about whether it is valid (``ValidPlainReader`` checks named plays too).
    """
    try:
        r = _PLAIN_DECODER.decode(data)
    except DECODE_ERRORS:
        try:  # named plays?  (Anything else fails again, and is read the usual way.)
            r = _PLAIN_NAMED_DECODER.decode(data)
        except DECODE_ERRORS:
            return None
    return _plain(line, data, r, pos)


def plain_of(line: int, data: bytes, r: _PlainRecord) -> Plain | None:
    """What ``ValidPlainReader`` gives for the text ``data`` once one of its decodings has read it as ``r``
    (``PLAIN_PARTS.decode`` or ``decode_named``; ``r`` may already be in canonical shape)."""
    if type(r) is _PlainNamedRecord and not _all_named(r):
        return None
    return _plain(line, data, r)


def _plain(line: int, data: bytes, r: _PlainRecord, pos: int = 0) -> Plain | None:
    """``plain_record``'s checks of a decoded record, and its Plain."""
    if r.date is not None and not _plain_date(r.date):
        return None
    players = tuple(r.players)
    known = _plain_roster(players)
    if known is None or r.hands.keys() != known or (r.declarer is not None and r.declarer not in known):
        return None
    if r.bidding is not None and (not known.issuperset(map(_FIRST, r.bidding))
                                  or not _BIDS["slovenian"].issuperset(map(_SECOND, r.bidding))):
        return None
    try:
        if r.recorded is not None:
            r.recorded.scores = _scores(r.recorded.scores, players, known)
            if r.recorded.radelci is not None:
                r.recorded.radelci = _scores(r.recorded.radelci, players, known)
        if r.announcements:
            for announcement in r.announcements:
                _announcement(announcement, "slovenian", known)
    except _Decline:
        return None
    if r.options is not None and not _plain_options(r.options):
        return None
    session = r.session
    if isinstance(session, int):  # (never a bool: msgspec decodes a JSON bool as no int)
        r.session = session = str(session)
    canonical = _canonical(r, players)
    digest = hashlib.sha256(canonical).hexdigest()
    return Plain(line, data, r, players, canonical, digest, digest[:16] if r.id is None else r.id, session,
                 r.seq, pos)


_ROSTERS: dict[tuple[str, ...], frozenset[str] | None] = {}
_DATES: dict[str, bool] = {}


def _plain_roster(players: tuple[str, ...]) -> frozenset[str] | None:
    """The set of a record's players when ``_deal`` accepts them (3 or 4 distinct non-blank names of at
    most ``MAX_NAME`` characters), else None; remembered per roster."""
    known = _ROSTERS.get(players, False)
    if known is False:
        names = frozenset(players)
        ok = len(players) in (3, 4) and len(names) == len(players) and all(map(str.strip, players)) \
            and max(map(len, players)) <= MAX_NAME
        known = names if ok else None
        if len(_ROSTERS) >= 4096:
            _ROSTERS.clear()
        _ROSTERS[players] = known
    return known  # type: ignore[return-value]


_OPTIONS: dict[str, bool] = {}


def _plain_options(options: dict[str, Any]) -> bool:
    """Whether ``options_for`` takes a record's options; remembered by their repr (which tells a text, a
    number and true apart: the values are texts, whole numbers, true/false or null)."""
    key = repr(options)
    ok = _OPTIONS.get(key)
    if ok is None:
        try:
            options_for("slovenian", options)
            ok = True
        except (ValueError, TypeError):
            ok = False
        if len(_OPTIONS) >= 4096:
            _OPTIONS.clear()
        _OPTIONS[key] = ok
    return ok


def _plain_date(text: str) -> bool:
    """Whether ``_check_date`` accepts ``text``; remembered per text."""
    ok = _DATES.get(text)
    if ok is None:
        try:
            _check_date(text)
            ok = True
        except _Decline:
            ok = False
        if len(_DATES) >= 4096:
            _DATES.clear()
        _DATES[text] = ok
    return ok


class PlainParts(NamedTuple):
    """What reading a line as ``ValidPlainReader`` does takes, for ``tarock check``'s one-call fast path
    (``tarock/accel/_checkline.c``'s ``check_json``, which declines whatever these do not settle): the two typed
    decodings and the errors a text that does not fit raises, the encoder of the canonical record and its
    ``format``, the cached checks of a date, a roster and options, and the bids of a Slovenian bidding."""

    decode: Any
    decode_named: Any
    decode_errors: tuple[type[BaseException], ...]
    encode: Any
    format: str
    plain_date: Any
    plain_roster: Any
    plain_options: Any
    bids: frozenset[str]


PLAIN_PARTS = PlainParts(_PLAIN_DECODER.decode, _PLAIN_NAMED_DECODER.decode, DECODE_ERRORS, _ENCODER.encode, FORMAT, _plain_date,
                         _plain_roster, _plain_options, _BIDS["slovenian"])
