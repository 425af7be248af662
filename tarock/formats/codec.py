"""The JSON codec of `tarock-record/1`: one parsed JSON object into a ``Deal`` and back.

``deal_from_obj`` / ``deal_to_obj`` / ``loads`` / ``dumps`` turn one parsed
JSON object into a ``Deal`` and back.  Parsing validates every known field
(types, names, cards) and normalises it (canonical contract and bonus
names, cards as ints); anything impossible is a ``RecordError`` whose text
names the field, with 0-based list positions (``tricks[3][1]`` is the
second card of the fourth trick).  Writing gives the canonical form: fixed
key order, canonical card codes, so ``dumps(loads(x))`` is a fixed point
and a record's default id is a hash of it.  Reading whole files is
``tarock.formats.reader``'s job.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Mapping
from datetime import date, datetime
from functools import lru_cache
from types import MappingProxyType
from typing import Any

import orjson

from tarock.cards import CODE_INDEX, CODES, AmbiguousCardError, UnknownCardError, parse_card
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
from tarock.formats.decode import SCORE_LIMIT, SEQ_MAX, TRICK_MAX, fast_deal

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
"""Each event kind and the fields it needs (docs/records.md)."""
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


def json_kind(value: Any) -> str:
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
        raise RecordError(f"{where} must be a {what} name, not {json_kind(value)}")
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


def _int(value: Any, where: str, minimum: int, maximum: int) -> int:
    """``value`` as an int (true/false are not numbers here) from ``minimum`` to ``maximum``.

    The message names the range: the store's column types bound what it can keep.  A whole number past 64
    bits reaches here as a float (orjson reads it so): it is out of that range, not a fraction.
    """
    if type(value) is float and value.is_integer():
        raise RecordError(f"{where} must be between {minimum} and {maximum}, not {value:g}")
    if type(value) is not int:
        raise RecordError(f"{where} must be a whole number, not {json_kind(value)}")
    if not minimum <= value <= maximum:
        raise RecordError(f"{where} must be between {minimum} and {maximum}, not {value}")
    return value


def _object(value: Any, where: str) -> dict[str, Any]:
    if type(value) is not dict:
        raise RecordError(f"{where} must be an object, not {json_kind(value)}")
    return value


def _only(obj: dict[str, Any], allowed: frozenset[str], where: str) -> None:
    """RecordError when an object has a field other than ``allowed`` (it would be lost on writing)."""
    if not obj.keys() <= allowed:
        raise RecordError(f"{where}: unknown field {_q(min(obj.keys() - allowed))}")


def _list(value: Any, where: str) -> list[Any]:
    if type(value) is not list:
        raise RecordError(f"{where} must be a list, not {json_kind(value)}")
    return value


def _player(value: Any, players: frozenset[str], where: str) -> str:
    if type(value) is not str:
        raise RecordError(f"{where} must be a player name, not {json_kind(value)}")
    if value not in players:
        raise RecordError(f"{where}: {_q(value)} is not one of the players")
    return value


def _card(text: Any, where: str) -> int:
    """The card a text names (code first, then aliases), else RecordError naming the text."""
    if type(text) is not str:
        raise RecordError(f"{where} must be a card text, not {json_kind(text)}")
    card = _CODE_GET(text)
    if card is not None:
        return card
    try:
        return parse_card(text)
    except AmbiguousCardError as exc:
        raise RecordError(f"{where}: {exc}") from None
    except UnknownCardError:
        raise RecordError(f"{where}: unknown card {_q(text)}") from None


def _cards(value: Any, where: str) -> tuple[int, ...]:
    """A list of card texts as card ints, in the given order."""
    if type(value) is not list:
        raise RecordError(f"{where} must be a list of cards, not {json_kind(value)}")
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
        raise RecordError(f"{where} must be a card text, not {json_kind(text)}")
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
        raise RecordError(f"{where} must be a list of cards, not {json_kind(value)}")
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
        trick=None if trick is None else _int(trick, f"{where}.trick", 1, TRICK_MAX),
        after_trick=None if after is None else _int(after, f"{where}.after_trick", 0, TRICK_MAX),
        card=None if card is None else _card(card, f"{where}.card"),
    )


def _scores(value: Any, players: tuple[str, ...], where: str) -> Mapping[str, int]:
    """A {player: int} object, stored in playing order."""
    obj = _object(value, where)
    for name, score in obj.items():
        if name not in players:
            raise RecordError(f"{where}: {_q(name)} is not one of the players")
        _int(score, f"{where}.{name}", -SCORE_LIMIT, SCORE_LIMIT)
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
        _int(obj.get("after_trick"), "claim.after_trick", 0, TRICK_MAX),
    )


def _date(value: Any) -> str:
    if type(value) is not str:
        raise RecordError(f"date must be an ISO 8601 date text, not {json_kind(value)}")
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
        raise RecordError(f"a record must be a JSON object, not {json_kind(obj)}")
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
            raise RecordError(f"session must be a text or a number, not {json_kind(session)}")
    seq = get("seq")
    announcements = get("announcements")
    events = get("events")
    options = get("options")
    declarer = get("declarer")
    conceded = get("conceded")
    if conceded is not None and type(conceded) is not bool:
        raise RecordError(f"conceded must be true or false, not {json_kind(conceded)}")
    deal = Deal(
        id=given_id or "",
        id_given=given_id is not None,
        ruleset=ruleset,
        players=players,
        contract=contract,
        tricks=tuple([cards for cards, _ in parsed]),
        trick_players=tuple([names for _, names in parsed]),
        session=session,
        seq=None if seq is None else _int(seq, "seq", 0, SEQ_MAX),
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
