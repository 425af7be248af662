"""Record files: read `tarock-record/1` JSON into Deals, write Deals back canonically.

Two layers:

* ``deal_from_obj`` / ``deal_to_obj`` / ``loads`` / ``dumps`` turn one parsed
  JSON object into a ``Deal`` and back.  Parsing validates every known field
  (types, names, cards) and normalises it (canonical contract and bonus
  names, cards as ints); anything impossible is a ``RecordError`` whose text
  names the field, with 0-based list positions (``tricks[3][1]`` is the
  second card of the fourth trick).  Writing gives the canonical form: fixed
  key order, canonical card codes, so ``dumps(loads(x))`` is a fixed point
  and a record's default id is a hash of it.
* ``read_records`` streams a record file (``.jsonl``/``.ndjson``/``.json``,
  each optionally ``.gz``) into ``ReadItem`` s: a deal, or an ``E_PARSE``
  finding with the place and the reason.  Like python-chess's PGN reader it
  never raises on bad input and never skips silently, and it never holds a
  whole file in memory: lines, list elements and decompressed bytes are all
  bounded by ``ReaderLimits``.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import re
import unicodedata
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

import orjson

from tarock.cards import CODE_INDEX, CODES, UnknownCardError, parse_card
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
from tarock.findings import Finding
from tarock.options import options_for
from tarock.record_decode import fast_deal, fast_deal_and_text

T = TypeVar("T")
"""What a ``read_records`` caller's ``take`` makes of a record it reads itself."""


class RecordError(ValueError):
    """A record that cannot be read as a deal; the text is the reason, naming the field."""


# --------------------------------------------------------------------------- parsing one record

KNOWN_KEYS = (
    "format",
    "id",
    "session",
    "seq",
    "date",
    "ruleset",
    "options",
    "players",
    "hands",
    "talon",
    "bidding",
    "contract",
    "declarer",
    "called_king",
    "talon_pick",
    "stash",
    "announcements",
    "tricks",
    "conceded",
    "claim",
    "events",
    "recorded",
)
"""The top-level keys of `tarock-record/1`, in canonical order; any other key is kept in ``extra``."""
_KNOWN = frozenset(KNOWN_KEYS)

EVENT_FIELDS: dict[str, tuple[str, ...]] = {
    "renons_called": ("after_trick",),
    "out_of_turn": ("trick", "player"),
    "two_cards": ("trick", "player", "card"),
    "missing_card": ("player", "card"),
    "claim": ("player", "after_trick"),
}
"""Each event kind and the fields it needs (DESIGN.md, "The record")."""
_EVENT_KEYS = frozenset(("event", "trick", "after_trick", "player", "card"))
_ANNOUNCEMENT_KEYS = frozenset(("player", "bonus", "kontra", "level", "against"))
_RECORDED_KEYS = frozenset(("scores", "radelci"))
_CLAIM_KEYS = frozenset(("player", "after_trick"))

_CODE_GET = CODE_INDEX.get
_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue"})
_SEPARATORS = re.compile(r"[\s_\-]+")
_CONTRACT_SETS = {ruleset: frozenset(names) for ruleset, names in CONTRACTS.items()}
_BIDS = {ruleset: names | {"pass"} for ruleset, names in _CONTRACT_SETS.items()}
_BONUS_SETS = {ruleset: frozenset(names) for ruleset, names in BONUSES.items()}
_KONTRA_TARGETS = {ruleset: names | {"game"} for ruleset, names in _BONUS_SETS.items()}
_RULESET_SET = frozenset(RULESETS)

_PLAY_CACHE: dict[str, tuple[str | None, int]] = {}
"""Play text ("HK", "Pagat", "Ana:HK") -> (named player or None, card); bounded by _PLAY_CACHE_MAX."""
_PLAY_CACHE_MAX = 1 << 16
_MAX_ALIAS = 64
"""Longer texts are not looked up as name aliases (nor kept in the lookup cache)."""
MAX_NAME = 100
"""The longest player name accepted, in characters."""


def _show(value: Any) -> str:
    """A value as short JSON text, for an error message."""
    try:
        text = orjson.dumps(value).decode()
    except TypeError:
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _q(text: str) -> str:
    """A text quoted for an error message, cut short when long."""
    return repr(text if len(text) <= 40 else text[:37] + "...")


def _kind(value: Any) -> str:
    """The JSON type of a value, as words ("a list", "a number", …)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


@lru_cache(maxsize=2048)
def _name_forms(text: str) -> tuple[str, ...]:
    """Spellings of a name to look up: lower case, no accents, words joined by '_'.

    German umlauts are tried both expanded ("König" -> "koenig") and bare
    ("konig"), Slovenian carons are dropped ("Berač" -> "berac").
    """
    low = text.strip().casefold()
    forms = []
    for variant in (low.translate(_UMLAUTS), low):
        plain = "".join(ch for ch in unicodedata.normalize("NFKD", variant) if not unicodedata.combining(ch))
        forms.append(_SEPARATORS.sub("_", plain).strip("_"))
    return tuple(forms)


def _name(value: Any, known: frozenset[str], where: str, what: str) -> str:
    """The canonical name among ``known`` that ``value`` spells, else RecordError."""
    if type(value) is not str:
        raise RecordError(f"{where} must be a {what} name, not {_kind(value)}")
    if value in known:
        return value
    if len(value) <= _MAX_ALIAS:
        for form in _name_forms(value):
            if form in known:
                return form
    raise RecordError(f"{where}: unknown {what} {_q(value)}")


def lookup_name(text: str, known: frozenset[str]) -> str | None:
    """The canonical name among ``known`` that ``text`` spells (same aliases as records), else None."""
    try:
        return _name(text, known, "", "")
    except RecordError:
        return None


def _int(value: Any, where: str, minimum: int | None = None) -> int:
    """``value`` as an int (true/false are not numbers here), at least ``minimum``."""
    if type(value) is not int:
        raise RecordError(f"{where} must be a whole number, not {_kind(value)}")
    if minimum is not None and value < minimum:
        raise RecordError(f"{where} must be at least {minimum}, not {value}")
    return value


def _object(value: Any, where: str) -> dict[str, Any]:
    if type(value) is not dict:
        raise RecordError(f"{where} must be an object, not {_kind(value)}")
    return value


def _only(obj: dict[str, Any], allowed: frozenset[str], where: str) -> None:
    """RecordError when an object has a field other than ``allowed`` (it would be lost on writing)."""
    if not obj.keys() <= allowed:
        raise RecordError(f"{where}: unknown field {_q(min(obj.keys() - allowed))}")


def _list(value: Any, where: str) -> list[Any]:
    if type(value) is not list:
        raise RecordError(f"{where} must be a list, not {_kind(value)}")
    return value


def _player(value: Any, players: frozenset[str], where: str) -> str:
    if type(value) is not str:
        raise RecordError(f"{where} must be a player name, not {_kind(value)}")
    if value not in players:
        raise RecordError(f"{where}: {_q(value)} is not one of the players")
    return value


def _card(text: Any, where: str) -> int:
    """The card a text names (code first, then aliases), else RecordError naming the text."""
    if type(text) is not str:
        raise RecordError(f"{where} must be a card text, not {_kind(text)}")
    card = _CODE_GET(text)
    if card is not None:
        return card
    try:
        return parse_card(text)
    except UnknownCardError:
        raise RecordError(f"{where}: unknown card {_q(text)}") from None


def _cards(value: Any, where: str) -> tuple[int, ...]:
    """A list of card texts as card ints, in the given order."""
    if type(value) is not list:
        raise RecordError(f"{where} must be a list of cards, not {_kind(value)}")
    try:
        cards = tuple(map(_CODE_GET, value))
    except TypeError:  # an unhashable item (a list or an object): the slow path names it
        cards = (None,)
    if None in cards:
        cards = tuple(_card(text, f"{where}[{i}]") for i, text in enumerate(value))
    return cards  # type: ignore[return-value]


def _play(text: Any, players: frozenset[str], where: str) -> tuple[str | None, int]:
    """One play of a trick, "HK" or "Ana:HK": (the named player or None, card).

    A text with one ':' is split there and what precedes it must be a
    player; with several (a player name holding ':') the longest player name
    that prefixes the text wins.  Card texts never hold ':'.
    """
    hit = _PLAY_CACHE.get(text) if type(text) is str else None
    if hit is not None and (hit[0] is None or hit[0] in players):
        return hit
    if type(text) is not str:
        raise RecordError(f"{where} must be a card text, not {_kind(text)}")
    prefix, colon, rest = text.partition(":")
    if ":" in rest:
        name = max((p for p in players if text.startswith(p + ":")), key=len, default=None)
        if name is None:
            raise RecordError(f"{where}: unknown player {_q(prefix)} in {_q(text)}")
        return name, _card(text[len(name) + 1 :], where)  # depends on the players: not cached
    if not colon:
        play: tuple[str | None, int] = (None, _card(text, where))
    elif prefix in players:
        play = (prefix, _card(rest, where))
    else:
        raise RecordError(f"{where}: unknown player {_q(prefix)} in {_q(text)}")
    if len(text) <= MAX_NAME + 8:
        if len(_PLAY_CACHE) >= _PLAY_CACHE_MAX:
            _PLAY_CACHE.clear()
        _PLAY_CACHE[text] = play
    return play


def _trick(value: Any, players: frozenset[str], index: int) -> tuple[tuple[int, ...], tuple[str, ...] | None]:
    """Trick ``index``: its cards and, when its plays are named, who played each."""
    if type(value) is list:
        try:
            cards = tuple(map(_CODE_GET, value))
        except TypeError:
            cards = (None,)
        if None not in cards:
            return cards, None  # type: ignore[return-value]
        try:
            hits = tuple(map(_PLAY_CACHE.get, value))
        except TypeError:
            hits = (None,)
        if None not in hits:
            names, cards = zip(*hits)
            if players.issuperset(names):  # every play named by a player of this deal
                return cards, names
    where = f"tricks[{index}]"
    if type(value) is not list:
        raise RecordError(f"{where} must be a list of cards, not {_kind(value)}")
    plays = [_play(text, players, f"{where}[{i}]") for i, text in enumerate(value)]
    names = tuple(name for name, _ in plays)
    cards = tuple(card for _, card in plays)
    if None not in names:
        return cards, names  # type: ignore[return-value]
    if any(name is not None for name in names):
        raise RecordError(f"{where}: either every card of a trick names its player or none does")
    return cards, None  # type: ignore[return-value]


def _announcement(value: Any, ruleset: str, players: frozenset[str], where: str) -> Announcement:
    obj = _object(value, where)
    _only(obj, _ANNOUNCEMENT_KEYS, where)
    player = _player(obj.get("player"), players, f"{where}.player")
    bonus, kontra = obj.get("bonus"), obj.get("kontra")
    if (bonus is None) == (kontra is None):
        raise RecordError(f"{where} must have either a bonus or a kontra")
    if bonus is not None:
        for key in ("level", "against"):
            if key in obj:
                raise RecordError(f"{where}: {key} belongs to a kontra, not to a bonus")
        return Announcement(player, bonus=_name(bonus, _BONUS_SETS[ruleset], f"{where}.bonus", "bonus"))
    target = _name(kontra, _KONTRA_TARGETS[ruleset], f"{where}.kontra", "kontra target")
    level = obj.get("level")
    if type(level) is not int or level not in KONTRA_LEVELS:
        raise RecordError(
            f"{where}.level must be one of {', '.join(map(str, KONTRA_LEVELS))}, not {_show(level)}"
        )
    against = obj.get("against")
    if against is not None:
        against = _player(against, players, f"{where}.against")
    return Announcement(player, kontra=target, level=level, against=against)


def _event(value: Any, players: frozenset[str], where: str) -> Event:
    obj = _object(value, where)
    _only(obj, _EVENT_KEYS, where)
    kind = obj.get("event")
    if type(kind) is not str or kind not in EVENT_FIELDS:
        raise RecordError(f"{where}.event must be one of {', '.join(EVENT_FIELDS)}, not {_show(kind)}")
    for key in EVENT_FIELDS[kind]:
        if obj.get(key) is None:
            raise RecordError(f"{where}: a {kind} event needs {key}")
    trick, after, player, card = (obj.get(k) for k in ("trick", "after_trick", "player", "card"))
    return Event(
        kind,
        player=None if player is None else _player(player, players, f"{where}.player"),
        trick=None if trick is None else _int(trick, f"{where}.trick", 1),
        after_trick=None if after is None else _int(after, f"{where}.after_trick", 0),
        card=None if card is None else _card(card, f"{where}.card"),
    )


def _scores(value: Any, players: tuple[str, ...], where: str) -> Mapping[str, int]:
    """A {player: int} object, stored in playing order."""
    obj = _object(value, where)
    for name, score in obj.items():
        if name not in players:
            raise RecordError(f"{where}: {_q(name)} is not one of the players")
        _int(score, f"{where}.{name}")
    return MappingProxyType({p: obj[p] for p in players if p in obj})


def _recorded(value: Any, players: tuple[str, ...]) -> Recorded:
    obj = _object(value, "recorded")
    _only(obj, _RECORDED_KEYS, "recorded")
    if "scores" not in obj:
        raise RecordError("recorded needs scores")
    radelci = obj.get("radelci")
    return Recorded(
        scores=_scores(obj["scores"], players, "recorded.scores"),
        radelci=None if radelci is None else _scores(radelci, players, "recorded.radelci"),
    )


def _players(value: Any, ruleset: str) -> tuple[str, ...]:
    if value is None:
        raise RecordError("players is missing")
    if (
        type(value) is not list
        or len(value) not in (3, 4)
        or any(type(p) is not str or not p.strip() or len(p) > MAX_NAME for p in value)
        or len(set(value)) != len(value)
    ):
        raise RecordError(f"players must be 3 or 4 distinct names of at most {MAX_NAME} characters")
    if ruleset == "koenigrufen" and len(value) != 4:
        raise RecordError("players must be 4 names in koenigrufen")
    return tuple(value)


def _declarer(value: Any, ruleset: str, players: frozenset[str]) -> str | tuple[str, ...]:
    """One player, or (koenigrufen) several playing the same negative game; [x] is x."""
    if type(value) is not list:
        return _player(value, players, "declarer")
    if ruleset != "koenigrufen":
        raise RecordError("declarer must be one player name; a list is only for koenigrufen")
    names = tuple(_player(p, players, f"declarer[{i}]") for i, p in enumerate(value))
    if not names or len(set(names)) != len(names):
        raise RecordError("declarer must list distinct players")
    return names[0] if len(names) == 1 else names


def _hands(value: Any, players: tuple[str, ...]) -> tuple[tuple[int, ...], ...]:
    obj = _object(value, "hands")
    if obj.keys() != set(players):
        for name in obj:
            if name not in players:
                raise RecordError(f"hands: {_q(name)} is not one of the players")
        missing = next(name for name in players if name not in obj)
        raise RecordError(f"hands has no hand for {_q(missing)}")
    return tuple(_cards(obj[name], f"hands.{name}") for name in players)


def _bidding(value: Any, ruleset: str, players: frozenset[str]) -> tuple[tuple[str, str], ...]:
    bids = []
    for i, item in enumerate(_list(value, "bidding")):
        if type(item) is not list or len(item) != 2:
            raise RecordError(f"bidding[{i}] must be a [player, bid] pair")
        player = _player(item[0], players, f"bidding[{i}][0]")
        bids.append((player, _name(item[1], _BIDS[ruleset], f"bidding[{i}][1]", "bid")))
    return tuple(bids)


def _claim(value: Any, players: frozenset[str]) -> Claim:
    obj = _object(value, "claim")
    _only(obj, _CLAIM_KEYS, "claim")
    return Claim(
        _player(obj.get("player"), players, "claim.player"),
        _int(obj.get("after_trick"), "claim.after_trick", 0),
    )


def _date(value: Any) -> str:
    if type(value) is not str:
        raise RecordError(f"date must be an ISO 8601 date text, not {_kind(value)}")
    try:
        date.fromisoformat(value)
    except ValueError:
        try:
            datetime.fromisoformat(value)
        except ValueError:
            raise RecordError(f"date {_show(value)} is not an ISO 8601 date or date and time") from None
    return value


def _options(value: Any, ruleset: str) -> Mapping[str, Any]:
    """The raw options, validated against the ruleset's options type."""
    obj = _object(value, "options")
    try:
        options_for(ruleset, obj)
    except (ValueError, TypeError) as exc:  # OptionError, or an unhashable preset value
        raise RecordError(f"options: {exc}") from None
    return MappingProxyType(dict(obj))


def deal_from_obj(obj: Any) -> Deal:
    """Validate one parsed `tarock-record/1` object and normalise it into a Deal.

    Raises RecordError, whose text names the field, for anything a deal
    cannot hold; unknown top-level keys are kept in ``Deal.extra``.  When the
    record has no ``id``, the id is the content hash (``content_id``).
    """
    if type(obj) is not dict:
        raise RecordError(f"a record must be a JSON object, not {_kind(obj)}")
    get = obj.get
    fmt = get("format")
    if fmt is not None and fmt != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, not {_show(fmt)}")
    ruleset = get("ruleset")
    if ruleset is None:
        raise RecordError("ruleset is missing")
    ruleset = _name(ruleset, _RULESET_SET, "ruleset", "ruleset")
    players = _players(get("players"), ruleset)
    known = frozenset(players)
    contract = get("contract")
    if contract is None:
        raise RecordError("contract is missing")
    contract = _name(contract, _CONTRACT_SETS[ruleset], "contract", f"{ruleset} contract")
    tricks_value = get("tricks")
    if tricks_value is None:
        raise RecordError("tricks is missing")
    parsed = [_trick(t, known, i) for i, t in enumerate(_list(tricks_value, "tricks"))]

    given_id = get("id")
    if given_id is not None and (type(given_id) is not str or not given_id):
        raise RecordError("id must be a non-empty text")
    session = get("session")
    if session is not None:
        if type(session) is int:
            session = str(session)
        elif type(session) is not str:
            raise RecordError(f"session must be a text or a number, not {_kind(session)}")
    seq = get("seq")
    announcements = get("announcements")
    events = get("events")
    options = get("options")
    declarer = get("declarer")
    conceded = get("conceded")
    if conceded is not None and type(conceded) is not bool:
        raise RecordError(f"conceded must be true or false, not {_kind(conceded)}")
    deal = Deal(
        id=given_id or "",
        id_given=given_id is not None,
        ruleset=ruleset,
        players=players,
        contract=contract,
        tricks=tuple([cards for cards, _ in parsed]),
        trick_players=tuple([names for _, names in parsed]),
        session=session,
        seq=None if seq is None else _int(seq, "seq", 0),
        date=None if get("date") is None else _date(obj["date"]),
        options=EMPTY if options is None else _options(options, ruleset),
        hands=None if get("hands") is None else _hands(obj["hands"], players),
        talon=None if get("talon") is None else _cards(obj["talon"], "talon"),
        bidding=None if get("bidding") is None else _bidding(obj["bidding"], ruleset, known),
        declarer=None if declarer is None else _declarer(declarer, ruleset, known),
        called_king=None if get("called_king") is None else _card(obj["called_king"], "called_king"),
        talon_pick=None if get("talon_pick") is None else _cards(obj["talon_pick"], "talon_pick"),
        stash=None if get("stash") is None else _cards(obj["stash"], "stash"),
        announcements=()
        if announcements is None
        else tuple(
            _announcement(a, ruleset, known, f"announcements[{i}]")
            for i, a in enumerate(_list(announcements, "announcements"))
        ),
        conceded=conceded,
        claim=None if get("claim") is None else _claim(obj["claim"], known),
        events=()
        if events is None
        else tuple(_event(e, known, f"events[{i}]") for i, e in enumerate(_list(events, "events"))),
        recorded=None if get("recorded") is None else _recorded(obj["recorded"], players),
        extra=MappingProxyType({k: v for k, v in obj.items() if k not in _KNOWN}),
    )
    if given_id is None:
        # The hash needs the finished deal; the deal is new and not yet shared, so set it in place.
        object.__setattr__(deal, "id", content_id(deal))
    return deal


# --------------------------------------------------------------------------- writing one record


def _announcement_obj(a: Announcement) -> dict[str, Any]:
    if a.bonus is not None:
        return {"player": a.player, "bonus": a.bonus}
    out: dict[str, Any] = {"player": a.player, "kontra": a.kontra, "level": a.level}
    if a.against is not None:
        out["against"] = a.against
    return out


def _event_obj(e: Event) -> dict[str, Any]:
    out: dict[str, Any] = {"event": e.event}
    if e.trick is not None:
        out["trick"] = e.trick
    if e.after_trick is not None:
        out["after_trick"] = e.after_trick
    if e.player is not None:
        out["player"] = e.player
    if e.card is not None:
        out["card"] = CODES[e.card]
    return out


_CODE_OF = CODES.__getitem__


def _codes(cards: tuple[int, ...]) -> list[str]:
    return list(map(_CODE_OF, cards))


def deal_to_obj(deal: Deal) -> dict[str, Any]:
    """The canonical record object of a deal: fixed key order, canonical codes.

    Keys follow ``KNOWN_KEYS`` (``id`` only when the record gave one), then
    the extra keys sorted; fields that are None, and empty options,
    announcements and events, are left out.  Options are written sorted by key.
    The values of options and extra keys are the deal's own objects, not copies.
    """
    out: dict[str, Any] = {"format": deal.format}
    if deal.id_given:
        out["id"] = deal.id
    if deal.session is not None:
        out["session"] = deal.session
    if deal.seq is not None:
        out["seq"] = deal.seq
    if deal.date is not None:
        out["date"] = deal.date
    out["ruleset"] = deal.ruleset
    if deal.options:
        out["options"] = {key: deal.options[key] for key in sorted(deal.options)}
    out["players"] = list(deal.players)
    if deal.hands is not None:
        out["hands"] = {p: _codes(hand) for p, hand in zip(deal.players, deal.hands)}
    if deal.talon is not None:
        out["talon"] = _codes(deal.talon)
    if deal.bidding is not None:
        out["bidding"] = [[player, bid] for player, bid in deal.bidding]
    out["contract"] = deal.contract
    if deal.declarer is not None:
        out["declarer"] = deal.declarer if isinstance(deal.declarer, str) else list(deal.declarer)
    if deal.called_king is not None:
        out["called_king"] = CODES[deal.called_king]
    if deal.talon_pick is not None:
        out["talon_pick"] = _codes(deal.talon_pick)
    if deal.stash is not None:
        out["stash"] = _codes(deal.stash)
    if deal.announcements:
        out["announcements"] = [_announcement_obj(a) for a in deal.announcements]
    out["tricks"] = [
        _codes(cards) if names is None else [f"{n}:{CODES[c]}" for n, c in zip(names, cards)]
        for cards, names in zip(deal.tricks, deal.trick_players)
    ]
    if deal.conceded is not None:
        out["conceded"] = deal.conceded
    if deal.claim is not None:
        out["claim"] = {"player": deal.claim.player, "after_trick": deal.claim.after_trick}
    if deal.events:
        out["events"] = [_event_obj(e) for e in deal.events]
    if deal.recorded is not None:
        recorded: dict[str, Any] = {"scores": dict(deal.recorded.scores)}
        if deal.recorded.radelci is not None:
            recorded["radelci"] = dict(deal.recorded.radelci)
        out["recorded"] = recorded
    for key in sorted(deal.extra):
        out[key] = deal.extra[key]
    return out


def content_id(deal: Deal) -> str:
    """The default id: the first 16 hex digits of SHA-256 of the canonical JSON without an id."""
    obj = deal_to_obj(deal)
    obj.pop("id", None)
    return hashlib.sha256(orjson.dumps(obj)).hexdigest()[:16]


def dumps(deal: Deal) -> str:
    """The canonical compact JSON text of a deal (UTF-8, no spaces)."""
    return orjson.dumps(deal_to_obj(deal)).decode()


def loads(text: str | bytes) -> Deal:
    """The deal of one JSON record text; RecordError when it is not one.

    A plain record takes msgspec's typed fast path (``fast_deal``, the same
    Deal); anything it declines is read here, with orjson and ``deal_from_obj``.
    """
    deal = fast_deal(text)
    if deal is not None:
        return deal
    try:
        obj = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        raise RecordError(f"not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    return deal_from_obj(obj)


# --------------------------------------------------------------------------- reading files

MIB = 1 << 20
GIB = 1 << 30
_CHUNK = MIB
_BOM = b"\xef\xbb\xbf"
RECORD_SUFFIXES = (".json", ".jsonl", ".ndjson", ".trk")
"""File endings read as records, each also with ``.gz`` (``.trk``: the text format of ``tarock.trk``)."""


def _size_text(n: int) -> str:
    """A byte count as people say it: "16 MiB", "8 GiB", "100 bytes"."""
    for unit, size in (("GiB", GIB), ("MiB", MIB), ("KiB", 1024)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n} bytes"


@dataclass(frozen=True, slots=True)
class ReaderLimits:
    """Bounds that keep a hostile or broken file a reject rather than a crash (DESIGN.md, "Reader limits").

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
    """

    file: str
    line: int
    deal: Deal | None
    finding: Finding | None
    raw: str | None
    text: str | None = None


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


@dataclass(slots=True)
class _Piece:
    """What a splitter cut out of a file: a record's bytes, or a ``problem`` found where it starts."""

    line: int
    column: int
    data: bytes
    problem: str | None = None
    parsed: dict[str, Any] | None = None  # the data already parsed (a .json list element)


def _split_lines(
    source: _Source, max_bytes: int, head_bytes: int, start_line: int, end_line: int | None,
    first_line: int = 1,
) -> Iterator[_Piece]:
    """The lines start_line..end_line of a JSONL file, each at most ``max_bytes``.

    Lines are cut from chunks; lines before ``start_line`` are only counted.
    A longer line becomes a problem piece holding its first ``head_bytes``,
    and the rest of it is read past, never kept.  A read failure ends the
    pieces with a problem at the line being read.  ``first_line``: the
    number of the line ``source`` starts at (a stream opened past the start).
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
        while buf and (end_line is None or line_no <= end_line):
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

    def __init__(self, source: _Source, limits: ReaderLimits, start_line: int, end_line: int | None) -> None:
        self._source = source
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
        self._elem: tuple[int, int] | None = None  # (line, column) of the current element
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
                line, column = self._elem
                yield _Piece(line, column, b"", "the file ends before this record is complete")

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
        self._elem = (line, column)
        self._elem_start = pos
        self._elem_size = 0
        self._elem_skipped = line < self._start_line
        self._parts = None if self._elem_skipped else []
        self._waiting = False
        return True

    def _end(self, buf: bytes, pos: int) -> Iterator[_Piece]:
        """The current element ends just before ``pos``."""
        assert self._elem is not None
        line, column = self._elem
        if not self._elem_skipped:
            if self._parts is not None:
                self._keep(buf[self._elem_start : pos])
            if self._parts is None:
                yield _Piece(line, column, b"", f"the record is longer than {_size_text(self._max)}")
            elif self._parsed is not None and not buf[self._parsed_end : pos].strip():
                yield _Piece(line, column, b"".join(self._parts), parsed=self._parsed)
            else:
                yield _Piece(line, column, b"".join(self._parts))
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
        if buf[pos] != _OBJECT_START:
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
    line, data = piece.line, piece.data
    reason = piece.problem
    if reason is None:
        if _too_deep(data, limits.max_depth):
            reason = f"line {line} nests JSON deeper than {limits.max_depth} levels"
        elif canonical_text and (found := fast_deal_and_text(data)) is not None:
            return ReadItem(file, line, found[0], None, None, found[1])
        elif not canonical_text and (deal := fast_deal(data)) is not None:  # a plain record: the same Deal
            return ReadItem(file, line, deal, None, None)
        else:
            try:
                obj = orjson.loads(data) if piece.parsed is None else piece.parsed
            except orjson.JSONDecodeError as exc:
                at = line + exc.lineno - 1
                column = exc.colno + (piece.column - 1 if exc.lineno == 1 else 0)
                reason = f"line {at} is not valid JSON: {exc.msg} at column {column}"
            else:
                if type(obj) is not dict:
                    reason = f"line {line} holds {_kind(obj)}, not a record object"
                else:
                    try:
                        return ReadItem(file, line, deal_from_obj(obj), None, None)
                    except RecordError as exc:
                        reason = str(exc)
    finding = Finding(code="E_PARSE", message=reason, file=file, line=line)
    return ReadItem(file, line, None, finding, _raw(data, limits.raw_limit) if data else None)


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
) -> Iterator[ReadItem | T]:
    """Stream the records of one file as ReadItems; bad input becomes E_PARSE items, never an exception.

    ``.json`` (and ``.json.gz``) files hold one record or a list of them;
    ``.trk`` (and ``.trk.gz``) files hold deals in the text format of
    ``tarock.trk`` (a deal's line is where its first tag is); every other
    file is read as JSON Lines, one record per line, blank lines skipped.
    Only records starting on lines ``start_line``..``end_line`` (1-based,
    inclusive) are read, so a large file can be split into shards.
    A file that cannot be opened yields one finding at line 0; a read failure
    (not gzip, truncated, past ``max_gz_bytes``) yields one finding at the
    line reached, and reading that file stops.  With ``canonical_text`` a
    JSON record read by the typed fast path comes with its canonical text
    (``ReadItem.text``), which ingest stores.  ``take(line, text)``, when given, sees each
    JSON Lines record first (within the line limit; ``take`` must decline text nested deeper than
    ``max_depth``): whatever it returns other than None is yielded in place of the record's item
    (ingest's bulk path reads plain records its own way).
    ``start_byte``, for an uncompressed JSON Lines file, is where line ``start_line`` starts
    (``ingest.shards`` plans it): the file is read from there instead of from the start.
    """
    if start_line < 1:
        raise ValueError(f"start_line must be at least 1, not {start_line}")
    file = str(path)
    gz = file.endswith(".gz")
    try:
        stream = gzip.open(file, "rb") if gz else open(file, "rb")  # noqa: SIM115 (closed by the with below)
    except OSError as exc:
        message = f"the file cannot be opened ({exc.strerror or exc})"
        yield ReadItem(file, 0, None, Finding(code="E_PARSE", message=message, file=file, line=0), None)
        return
    with stream:
        source = _Source(stream, limits.max_gz_bytes if gz else None)
        if _is_trk_file(file):
            from tarock.trk import read_trk_lines  # the text format builds on this module

            lines = _split_lines(source, limits.max_line_bytes, 4 * limits.raw_limit, 1, None)
            yield from read_trk_lines(file, lines, limits, start_line, end_line)
            return
        if _is_json_list_file(file):
            pieces = _JsonSplitter(source, limits, start_line, end_line).pieces()
        else:
            first_line = 1
            if start_byte and not gz:
                stream.seek(start_byte)
                first_line = start_line
            pieces = _split_lines(source, limits.max_line_bytes, 4 * limits.raw_limit, start_line, end_line,
                                  first_line)
        if take is not None and not _is_json_list_file(file):
            for piece in pieces:
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


def read_line(file: str, line: int, data: bytes, limits: ReaderLimits = ReaderLimits(),
              canonical_text: bool = False) -> ReadItem:
    """The item of one JSON Lines record, as ``read_records`` reads it (for a record ``take`` took back)."""
    return _item(file, _Piece(line, 1, data), limits, canonical_text)


def iter_record_files(paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]]) -> list[Path]:
    """The record files under ``paths``: directories are searched recursively.

    A directory contributes its files ending in .json, .jsonl, .ndjson or
    .trk (or those plus .gz), sorted; a path given directly is kept whatever
    its name (a missing one too, so reading it reports the problem).  The order is
    that of ``paths``; a file is listed once.
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
        for root, dirs, names in os.walk(path):
            dirs.sort()
            for name in names:
                if name.removesuffix(".gz").endswith(RECORD_SUFFIXES):
                    inside.append(Path(root, name))
        found.extend(sorted(inside))
    return list(dict.fromkeys(found))


def read_many(
    paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]], limits: ReaderLimits = ReaderLimits()
) -> Iterator[ReadItem]:
    """The records of every file under ``paths`` (see ``iter_record_files``), file after file."""
    for path in iter_record_files(paths):
        yield from read_records(path, limits)
