"""The compiled scorer of a clean Slovenian deal (``tarock.accel._fastscore``): ingest's bulk path.

``score_lane`` gives what ``tarock.rules.slovenian.scoring.score_deal`` gives for a deal without offenders -- whether the
declarer's side won, the scores, the radelci after the hand, each player's breakdown as the JSON ingest
stores and the breakdown's (row, component, value) triples -- straight from the compiled kernel's raw facts
tuple (``tarock.accel._fastplay.lane``), in about a microsecond instead of the ``DealFacts``, ``ScoreResult`` and
``orjson`` calls of the reference path.

The reference stays ``tarock.rules.slovenian.scoring``: the C module holds no sentence and no number of the rules.  At import
this module writes every text with the scoring module's own tables and helpers -- a text with a name or a
number in it by scoring a probe deal and cutting the sentence at the probe's marks -- escapes it for JSON and
hands it to the C module.  A deal the C scorer does not support comes back as None; the caller scores it
with the reference.  ``tests/accel/test_fast_score.py`` checks both agree byte for byte.

Call it through ``scorer()``: ``score_lane``, or None when the extension was not built or the accelerator is
switched off (``TAROCK_REFERENCE=1``, ``tarock.accel.reference()``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from types import ModuleType
from typing import Any

import orjson

from tarock import accel
from tarock.rules.slovenian import scoring
from tarock.facts import DECLARER, OPPONENTS, DealFacts, Side
from tarock.options import DEFAULT_SLOVENIAN, SlovenianOptions
from tarock.rules.rulesets import ALL_COMPONENTS

Result = tuple[bool | None, tuple[int, ...], tuple[int, ...], tuple[str, ...]]
"""(won, scores, radelci after, breakdown JSON), per player in playing order."""

_COMPONENTS = ("game", "difference", "trula", "kings", "pagat_ultimo", "king_ultimo", "valat", "mondfang", "klop",
               "radelc")
"""The components of a clean deal's lines, in the order of the C module's enum."""
_BONUSES = _COMPONENTS[2:7]
"""The bonuses, in the order of the C module's bonus table."""
_ANNOUNCED = _BONUSES + ("mondfang",)
"""What can be announced, in the order of ``_extra``'s announcer codes."""
_KONTRA_TARGETS = ("game", "pagat_ultimo", "king_ultimo", "valat", "mondfang")
"""The kontras scoring reads, in the order of ``_extra``'s kontra indices."""
_KONTRAS = (1, 2, 4, 8, 16)
_KONTRA_INDEX = {k: i for i, k in enumerate(_KONTRAS)}
_SIDE_CODES: Mapping[Side, int] = {DECLARER: 1, OPPONENTS: 2}
"""The kernel's codes of the sides (``tarock.accel.lane._SIDES``)."""
_KLOP, _NORMAL, _NEGATIVE, _VALAT, _POINTS = range(5)
"""How the C module scores a contract: Klop; Tri .. Solo ena; flat, won without taking a trick / without
losing one / with the card points."""
_CONTRACT_INDEX = {name: i for i, name in enumerate(scoring._RULES)}
_ROUNDINGS = ("nearest5", "none")
_SCOPES = ("declarer", "each_player")
_NAME_LIMIT = 200
"""The longest name (JSON-escaped, in bytes) the C module takes: all lines of a deal fit its buffer."""
_CACHE_LIMIT = 4096

_MARKS = tuple(f"\ue000{seat}\ue000" for seat in range(4))
"""The probe deals' player names: marks no sentence holds otherwise."""
_HELD = (9173, 9281)
"""Radelci the probe deals' players hold: numbers no sentence holds otherwise."""


# --- the reference's texts, for the C module ------------------------------------------------------------


def _json(text: str) -> bytes:
    """``text`` as it stands inside a JSON string written by orjson (UTF-8, quotes and controls escaped)."""
    return orjson.dumps(text)[1:-1]


def _part(line: scoring.Line) -> tuple[bytes, int]:
    """A line's (escaped detail, value): how the C module's tables hold it."""
    return _json(line.detail), line.value


def _klop_part(points: int, tricks: int) -> tuple[bytes, int, bool]:
    """A Klop player's (text, value, ±70 result), looked up as ``scoring._score_klop`` does."""
    value, text, full = (scoring._KLOP_BY_POINTS.get(points) if tricks != 0 else None) \
        or scoring._klop_result(points, tricks)
    return _json(text), value, full


def _kind(c: scoring._Contract) -> int:
    if c.name == "klop":
        return _KLOP
    if c.normal:
        return _NORMAL
    if c.name in scoring.NEGATIVE_CONTRACTS:
        return _NEGATIVE
    return _VALAT if c.name in scoring.VALAT_CONTRACTS else _POINTS


def _probe(contract: str, options: SlovenianOptions, held: Sequence[int], **facts: Any) -> scoring.ScoreResult:
    """A probe deal of four marked players scored by the reference, the first ones holding ``held`` radelci."""
    players = _MARKS
    return scoring.score_deal(DealFacts(players, contract, options=options, **facts), dict(zip(players, held)))


def _line_of(result: scoring.ScoreResult, component: str) -> scoring.Line:
    """The one line of ``component`` in a probe deal's breakdown."""
    (line,) = (line for line in result.lines if line.component == component)
    return line


def _cut(text: str, marks: Sequence[str]) -> list[bytes]:
    """``text`` cut at each of ``marks`` in turn, the pieces JSON-escaped; ValueError unless each is there once."""
    pieces = []
    for mark in marks:
        head, found, text = text.partition(mark)
        pieces.append(head)
        if not found:
            raise ValueError(f"fast_score: {mark!r} not where expected in a reference sentence")
    pieces.append(text)
    if any(mark in piece for piece in pieces for mark in marks):
        raise ValueError("fast_score: a probe mark occurs twice in a reference sentence")
    return [_json(piece) for piece in pieces]


def _radelc_texts() -> tuple[list[bytes], list[bytes], list[bytes]]:
    """The radelc sentences cut around names and numbers: the declarer's radelc (before and after the
    number), each player's (head, " holds ", separator, tail) and a Klop player's (around name and number)."""
    tri = {"declarer": 0, "partner": 1, "card_points": (40, 30)}
    declarer = _probe("tri", replace(DEFAULT_SLOVENIAN, radelc_scope="declarer"), _HELD[:1], **tri)
    each = _probe("tri", replace(DEFAULT_SLOVENIAN, radelc_scope="each_player"), _HELD, **tri)
    klop = _probe("klop", replace(DEFAULT_SLOVENIAN, klop_radelc_double=True), _HELD[:1],
                  klop_points=(10, 20, 20, 20), klop_tricks=(1, 1, 1, 1))
    head, holds, separator, holds_again, tail = _cut(_line_of(each, "radelc").detail,
                                                     [_MARKS[0], str(_HELD[0]), _MARKS[1], str(_HELD[1])])
    if holds != holds_again:
        raise ValueError("fast_score: each player's radelc sentence is not a list of alike parts")
    return (_cut(_line_of(declarer, "radelc").detail, [str(_HELD[0])]), [head, holds, separator, tail],
            _cut(_line_of(klop, "radelc").detail, [_MARKS[0], str(_HELD[0])]))


def _tables() -> tuple[Any, ...]:
    """``_fastscore.init``'s arguments, each table flat in the order of the C module's array:
    components (escaped name, index in ALL_COMPONENTS, doubled by a radelc); contracts (kind, Mondfang
    applies, radelc for everyone); game lines by contract, won, kontra; difference lines by card points,
    diff_rounding, kontra; bonus lines by bonus, by the declarer's side, made, announced, kontra; Klop results
    by card points, took a trick; the radelc sentences' pieces; the card points that win; a full Klop result."""
    rules = scoring._RULES.values()
    return (
        tuple((_json(name), ALL_COMPONENTS.index(name), name in scoring.DOUBLED_BY_RADELC) for name in _COMPONENTS),
        tuple((_kind(c), c.mondfang, c.award_reason is not None) for c in rules),
        tuple(_part(scoring._game_line(c, (), won, k)) for c in rules for won in (False, True) for k in _KONTRAS),
        tuple(_part(scoring._difference_line((), points, rounding, k))
              for points in range(scoring.KLOP_FULL + 1) for rounding in _ROUNDINGS for k in _KONTRAS),
        tuple(_part(scoring._bonus_line((), bonus, side, made, announced, k))
              for bonus in _BONUSES for side in (OPPONENTS, DECLARER) for made in (False, True)
              for announced in (False, True) for k in _KONTRAS),
        tuple(_klop_part(points, tricks) for points in range(scoring.KLOP_FULL + 1) for tricks in (0, 1)),
        *map(tuple, _radelc_texts()),
        scoring.WIN_THRESHOLD,
        scoring.KLOP_FULL,
    )


def _load() -> ModuleType | None:
    """The C module loaded with the reference's texts, or None when it was not built."""
    try:
        from tarock.accel import _fastscore
    except ImportError:
        return None
    _fastscore.init(*_tables())
    return _fastscore


_KERNEL = _load()
BUILT: bool = _KERNEL is not None
"""Whether the C scorer was built and loaded at import (``scorer()`` also heeds ``tarock.accel``)."""
_score = _KERNEL.score if _KERNEL is not None else None


# --- per options, roster, announcements: worked out once ------------------------------------------------


def _mondfang_texts(options: SlovenianOptions) -> tuple[tuple[bytes, bytes, int], ...]:
    """Per (announced against the owner, kontra): the Mondfang sentence cut at the owner's name, and its value."""
    texts = []
    for announced in ((), (("mondfang", OPPONENTS),)):  # the probe's owner is the declarer
        for k in _KONTRAS:
            line = _line_of(_probe("tri", options, (), declarer=0, partner=1, card_points=(40, 30), mondfang=(0,),
                                  announced=announced, kontra={"mondfang": k}), "mondfang")
            before, after = _cut(line.detail, [_MARKS[0]])
            texts.append((before, after, line.value))
    return tuple(texts)


_PLANS: dict[tuple[str, int], tuple[Any, ...]] = {}
"""The C module's plan of a contract under some options, by (contract, id(options)); a plan holds its options,
so no other object takes that id while it is here."""


def _new_plan(contract: str, options: SlovenianOptions) -> tuple[Any, ...] | None:
    """What the C module needs of a contract and the options (``_fastscore.c``'s ``read_plan``), or None for
    what it does not support: a contract or option value the reference does not know."""
    if contract not in _CONTRACT_INDEX or not isinstance(options, SlovenianOptions) \
            or options.diff_rounding not in _ROUNDINGS or options.radelc_scope not in _SCOPES \
            or type(options.mondfang_value) is not int:
        return None
    plan = (_CONTRACT_INDEX[contract], int(options.diff_rounding == "none"), int(bool(options.silent_pagat_failure)),
            int(bool(options.radelci)), int(options.radelc_scope == "each_player"),
            int(bool(options.klop_radelc_double)), _mondfang_texts(options), options)
    if len(_PLANS) >= _CACHE_LIMIT:
        _PLANS.clear()
    _PLANS[contract, id(options)] = plan
    return plan


_ROSTERS: dict[tuple[str, ...], tuple[bytes, ...]] = {}


def _new_roster(players: tuple[str, ...]) -> tuple[bytes, ...] | None:
    """The players' names JSON-escaped, or None for a roster the C module does not take (not 3 or 4
    distinct names, a name orjson refuses or longer than ``_NAME_LIMIT`` escaped)."""
    if len(players) not in (3, 4) or not all(isinstance(p, str) for p in players) or len(set(players)) != len(players):
        return None
    try:
        names = tuple(map(_json, players))
    except orjson.JSONEncodeError:  # a lone surrogate
        return None
    if max(map(len, names)) > _NAME_LIMIT:
        return None
    if len(_ROSTERS) >= _CACHE_LIMIT:
        _ROSTERS.clear()
    _ROSTERS[players] = names
    return names


_ANNOUNCERS: dict[tuple[tuple[str, Side], ...], tuple[int, ...] | None] = {}


def _announcer_codes(announced: tuple[tuple[str, Side], ...]) -> tuple[int, ...] | None:
    """Per bonus of ``_ANNOUNCED``, the sides that announced it (``scoring._announcers``: in order, each once),
    two bits a side; None when a side is neither."""
    if announced in _ANNOUNCERS:
        return _ANNOUNCERS[announced]
    by_bonus = scoring._announcers(announced)
    sides = [by_bonus.get(bonus, ()) for bonus in _ANNOUNCED]
    codes = None
    if all(side in _SIDE_CODES for of_bonus in sides for side in of_bonus):
        codes = tuple(sum(_SIDE_CODES[side] << 2 * i for i, side in enumerate(of_bonus)) for of_bonus in sides)
    if len(_ANNOUNCERS) >= _CACHE_LIMIT:
        _ANNOUNCERS.clear()
    _ANNOUNCERS[announced] = codes
    return codes


def extra_of(announced: tuple[tuple[str, Side], ...], kontra: Mapping[str, int] | None) -> tuple[int, ...] | None:
    """The announcer codes and kontra indices the C module reads (``score_prepared``'s ``extra``), or None for a
    kontra it does not take."""
    codes = _announcer_codes(announced) if announced else (0,) * len(_ANNOUNCED)
    if codes is None:
        return None
    indices = []
    for target in _KONTRA_TARGETS:
        k = kontra.get(target, 1) if kontra else 1
        if type(k) is not int or k not in _KONTRA_INDEX:
            return None
        indices.append(_KONTRA_INDEX[k])
    return codes + tuple(indices)


# --- the entry point ----------------------------------------------------------------------------------------


def score_lane(contract: str, players: tuple[str, ...], declarer: int | None, partner: int | None,
               options: SlovenianOptions, facts: tuple[Any, ...], before: tuple[int, ...], first_row: int,
               components: bytearray, announced: tuple[tuple[str, Side], ...] = (),
               kontra: Mapping[str, int] | None = None) -> Result | None:
    """A clean deal scored as ``scoring.score_deal`` scores it, or None when the C scorer does not support it.

    ``facts`` is ``tarock.accel._fastplay.lane``'s raw facts tuple, ``before`` the radelci each player holds,
    ``announced`` and ``kontra`` the deal's valid announcements and kontras (``DealFacts``'s).  Returns
    (won, scores, radelci after, breakdown JSON), per player in ``players`` order: the breakdown JSON is
    ``orjson.dumps`` of the player's lines as dicts (players, component, detail, value), byte for byte.
    Appends to ``components``, per line and player listed in it in breakdown order, three little-endian
    int32: ``first_row`` + the player's seat, the line's index in ``ALL_COMPONENTS``, its value; nothing
    when it returns None.  None for: another number of players than 3 or 4, names not distinct or very long,
    a kontra other than 2, 4, 8, 16, facts outside the kernel's ranges.  Only through ``scorer()``.
    """
    plan = _PLANS.get((contract, id(options))) or _new_plan(contract, options)
    roster = _ROSTERS.get(players) or _new_roster(players)
    if plan is None or roster is None:
        return None
    extra = None
    if announced or kontra:
        extra = extra_of(announced, kontra)
        if extra is None:
            return None
    return _score(plan, roster, declarer, partner, facts, before, first_row, components, extra)  # type: ignore[misc]


def plan_of(contract: str, options: SlovenianOptions) -> tuple[Any, ...] | None:
    """``score_prepared``'s plan of a contract under ``options``, or None when the C scorer does not take them."""
    return _PLANS.get((contract, id(options))) or _new_plan(contract, options)


def roster_of(players: tuple[str, ...]) -> tuple[bytes, ...] | None:
    """``score_prepared``'s roster of the players, or None when the C scorer does not take them."""
    return _ROSTERS.get(players) or _new_roster(players)


def prepared() -> Callable[..., Result | None] | None:
    """The C scorer itself, for a caller that keeps ``plan_of`` and ``roster_of``: ``score(plan, roster,
    declarer, partner, facts, before, first_row, components, extra)`` is ``score_lane`` without its lookups
    (``extra``: ``extra_of`` the announcements and kontras, or None); None as for ``scorer``."""
    return _score if BUILT and accel.KERNEL is not None else None


def scorer() -> Callable[..., Result | None] | None:
    """``score_lane`` when the C scorer is built and the accelerator is on, else None (score with the reference)."""
    return score_lane if BUILT and accel.KERNEL is not None else None
