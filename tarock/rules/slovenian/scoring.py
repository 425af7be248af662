"""Scoring of the ``slovenian`` ruleset: a replayed deal's facts -> a score breakdown.

``score_deal`` turns a ``DealFacts`` (what the card play established) and the
radelci each player holds into a ``ScoreResult``: one ``Line`` per component of
the score, in the breakdown order docs/rules.md fixes (game, difference, trula,
kings, pagat_ultimo, king_ultimo, valat, mondfang, klop, penalty, radelc), the
per-player totals those lines add up to, and the radelci after the hand.

The score sheet is not zero-sum: in Tri … Valat only the playing side
(declarer and partner) writes, each the full amount; opponents write 0 unless
a Mondfang or a renons penalty concerns them.  Klop is scored per player.
Every number comes from the tables below (docs/rules.md: the options and the rules' worked
examples).

Renons penalties (``options.penalty``, docs/penalties.md): ``slovenian_renons``
adds a penalty line per offender; ``austrian_renonce`` replaces the deal's
score by the offender's payments to every other player; ``jass_trick_forfeit``
scores facts ``tarock.rules.penalties`` already adjusted (else falls back to
``slovenian_renons`` and says why); ``annul`` writes 0 for everyone.

Cost (issue 11): ``score_deal`` runs once per replayed deal and must stay in
single-digit microseconds next to the C replay.  So what depends only on the
contract or on a bonus — values, labels, the sentences of the ``detail`` texts
— is worked out once, at import (``_RULES``, ``_BONUS_TEXTS``, ``_KLOP_BY_POINTS``),
from the same tables and formatting helpers that define the rules; lines are
emitted in breakdown order instead of being sorted; and the renons machinery is
entered only when the deal has offenders.  Nothing is cached across calls.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType

import msgspec

from tarock.facts import DECLARER, OPPONENTS, DealFacts, Side
from tarock.rules.slovenian.options import SlovenianOptions
from tarock.rules.slovenian.contracts import CONTRACTS

# --- the rules as data ------------------------------------------------------

CONTRACT_VALUES: Mapping[str, int] = MappingProxyType({c.name: c.value for c in CONTRACTS.values()})
"""Game value of each contract (the bidding ladder of docs/rules.md)."""

CONTRACT_LABELS: Mapping[str, str] = MappingProxyType({c.name: c.label for c in CONTRACTS.values()})
"""How a contract is named in a sentence."""

NORMAL_CONTRACTS = ("tri", "dva", "ena", "solo_tri", "solo_dva", "solo_ena")
"""Won with >= 36 card points; scored as game + difference + bonuses."""

NEGATIVE_CONTRACTS = ("berac", "odprti_berac")
"""Won when the declarer takes no trick."""

VALAT_CONTRACTS = ("barvni_valat", "valat")
"""Won when the declarer takes every trick."""

HIGHER_CONTRACTS = ("berac", "solo_brez", "odprti_berac", "barvni_valat", "valat")
"""Flat ± value × game kontra (× radelc): no difference, no bonuses."""

MONDFANG_CONTRACTS = NORMAL_CONTRACTS + ("solo_brez",)
"""Contracts in which a captured Mond costs its owner a Mondfang."""

RADELC_CONTRACTS = ("klop",) + HIGHER_CONTRACTS
"""Playing one of these gives every player a radelc (so does any valat line)."""

WIN_THRESHOLD = 36
"""Card points a side needs to win a normal contract."""

HALF = 35
"""The difference is counted from here."""

KLOP_FULL = 70
"""Klop: +70 for no trick, -70 for more than 35 points; also the Klop renons penalty."""

SESSION_END_PER_RADELC = -100
"""What each uncancelled radelc costs at the end of a session by default (``radelc_session_value``)."""


def session_end_per_radelc(options: SlovenianOptions) -> int:
    """What each uncancelled radelc costs at the end of a session: -100, or -40 under Palčka's
    ``radelc_session_value: 40``."""
    return -options.radelc_session_value

BONUS_VALUES: Mapping[str, tuple[int, int]] = MappingProxyType(
    {
        "trula": (10, 20),
        "kings": (10, 20),
        "pagat_ultimo": (25, 50),
        "king_ultimo": (10, 20),
        "valat": (250, 500),
    }
)
"""(silent, announced) value of each bonus; an announcement that fails costs the announced value."""

BONUS_LABELS: Mapping[str, str] = MappingProxyType(
    {
        "trula": "trula",
        "kings": "all kings",
        "pagat_ultimo": "pagat ultimo",
        "king_ultimo": "king ultimo",
        "valat": "valat",
    }
)

COMPONENTS = (
    "game",
    "difference",
    "trula",
    "kings",
    "pagat_ultimo",
    "king_ultimo",
    "valat",
    "mondfang",
    "klop",
    "penalty",
    "radelc",
)
"""Breakdown order of the lines (docs/rules.md, "Scoring, in short")."""

DOUBLED_BY_RADELC = ("game", "difference", "trula", "kings", "pagat_ultimo", "king_ultimo", "valat", "klop")
"""Components a radelc doubles: everything but Mondfang and the penalty (which doubles on its own)."""

KONTRA_NAMES: Mapping[int, str] = MappingProxyType({2: "kontra", 4: "re", 8: "sub", 16: "mord"})
"""The kontra levels of a chain and their names (no kontra: 1)."""

KONTRA_TARGETS = ("game", "pagat_ultimo", "king_ultimo", "valat", "mondfang")
"""The kontra chains scoring reads, each independent; trula and kings are never kontra'd."""

ANNOUNCEABLE = (*BONUS_VALUES, "mondfang")
"""What an announcement scoring reads can name: each bonus, and a Mondfang (made against the Mond's owner)."""

DIFF_ROUNDINGS = ("nearest5", "none")
"""The values of ``options.diff_rounding`` ``round_difference`` implements."""

RADELC_SCOPES = ("declarer", "each_player")
"""The values of ``options.radelc_scope`` ``_radelc_holders`` implements."""

_EMPTY: Mapping[str, int] = MappingProxyType({})


# --- results ----------------------------------------------------------------


class Line(msgspec.Struct, frozen=True):
    """One component of a deal's score: what EACH listed player writes for it.

    A player's score is the sum of the values of the lines listing them.
    ``detail`` says it in plain words with the raw numbers.  ``basis`` keeps
    those numbers (raw difference, kontra, base value, sign …) for the audit,
    which tries plausible mis-scorings of a line.

    A frozen ``msgspec.Struct``: a deal builds several lines, and a Struct is
    built in about a quarter of the time of a frozen dataclass (whose
    generated ``__init__`` goes through ``object.__setattr__`` per field).
    Lines compare by every field, ``basis`` included; they are not hashable
    (``basis`` is a mapping).
    """

    players: tuple[str, ...]
    component: str
    detail: str
    value: int
    basis: Mapping[str, int] = _EMPTY


@dataclass(frozen=True, init=False)
class ScoreResult:
    """The scored deal.

    Attributes:
        lines: the breakdown, in ``COMPONENTS`` order.
        scores: every player's score for the deal (0 when they write nothing).
        radelci_before / radelci_after: uncancelled radelci per player.
        won: whether the declarer's side won; None in Klop and when annulled.
        unpenalised: the scores without the renons penalty, when one applied.
        policy: the penalty policy applied, or ``"none"``.
        contract, declarer: the contract and the declarer's name (None in Klop).
        cancelled: players one of whose radelci this deal cancelled.
        award_reason: why everyone received a radelc ("the Berač", "the Klop",
            "the valat"), or None when nobody did.
        ruleset: the ruleset that scored the deal (its audit explains the lines).
    """

    lines: tuple[Line, ...]
    scores: dict[str, int]
    radelci_before: dict[str, int]
    radelci_after: dict[str, int]
    won: bool | None
    unpenalised: dict[str, int] | None = None
    policy: str = "none"
    contract: str = ""
    declarer: str | None = None
    cancelled: tuple[str, ...] = ()
    award_reason: str | None = None
    ruleset: str = "slovenian"

    def __init__(
        self,
        lines: tuple[Line, ...],
        scores: dict[str, int],
        radelci_before: dict[str, int],
        radelci_after: dict[str, int],
        won: bool | None,
        unpenalised: dict[str, int] | None = None,
        policy: str = "none",
        contract: str = "",
        declarer: str | None = None,
        cancelled: tuple[str, ...] = (),
        award_reason: str | None = None,
        ruleset: str = "slovenian",
    ) -> None:
        # Hand-written for speed: the generated __init__ of a frozen dataclass calls
        # object.__setattr__ once per field (12 here, about 1 µs); one update of the instance
        # dict stores the same attributes, in field order, at a third of the cost.  The
        # parameters are the fields, in order, with their defaults (a test checks they stay so).
        self.__dict__.update(
            lines=lines,
            scores=scores,
            radelci_before=radelci_before,
            radelci_after=radelci_after,
            won=won,
            unpenalised=unpenalised,
            policy=policy,
            contract=contract,
            declarer=declarer,
            cancelled=cancelled,
            award_reason=award_reason,
            ruleset=ruleset,
        )

    def lines_of(self, player: str) -> tuple[Line, ...]:
        """The lines ``player`` writes, in breakdown order."""
        return tuple(line for line in self.lines if player in line.players)


@dataclass(slots=True)
class _Play:
    """The hand as played, before radelci and penalties."""

    lines: list[Line]
    won: bool | None
    valat_scored: bool = False
    names: tuple[str, ...] = ()
    """The playing side's names, declarer first: who writes the hand (none in Klop)."""


# --- small helpers ----------------------------------------------------------


def signed(n: int) -> str:
    """``+30``, ``-140``, ``0``: a score as a score sheet writes it."""
    return f"{n:+d}" if n else "0"


def round_difference(raw: int, mode: str) -> int:
    """``points - 35`` rounded to the nearest 5 or kept as is (``diff_rounding`` ``none``).

    ``nearest5``: 8 -> 10, 7 -> 5, -2 -> 0, -8 -> -10 (an integer never ties).
    """
    if mode == "none":
        return raw
    return 5 * ((raw + 2) // 5)


def _kontra_text(k: int) -> str:
    """`` × kontra 2`` for a kontra'd line, empty otherwise."""
    return f" × {KONTRA_NAMES.get(k, 'kontra')} {k}" if k > 1 else ""


def _side_sign(side: Side) -> int:
    """+1 for the declarer's side, -1 for the opponents: the declarer-side line's sign."""
    return 1 if side == DECLARER else -1


def _side_words(side: Side) -> str:
    return "the declarer's side" if side == DECLARER else "the opponents"


def _announcers(announced: tuple[tuple[str, Side], ...]) -> Mapping[str, Sequence[Side]]:
    """Per bonus, the sides that announced it, each once, in announcement order."""
    by_bonus: dict[str, list[Side]] = {}
    for name, side in announced:
        sides = by_bonus.setdefault(name, [])
        if side not in sides:
            sides.append(side)
    return by_bonus


def _declarer_name(facts: DealFacts) -> str | None:
    return facts.players[facts.declarer] if facts.declarer is not None else None


def _playing_names(facts: DealFacts) -> tuple[str, ...]:
    """The names of ``facts.playing_side`` (declarer first, then the partner): who writes the hand."""
    declarer, partner = facts.declarer, facts.partner
    if declarer is None:
        return ()
    if partner is None:
        return (facts.players[declarer],)
    return (facts.players[declarer], facts.players[partner])


# --- per-contract constants and precomputed lines ---------------------------------

# A line's text, value and basis follow from a few facts (contract, won or lost, the kontra …);
# the ``*_parts`` functions below are the rules that work them out.  Most lines are not
# kontra'd, so their parts for kontra 1 are tabled once, at import, and looked up per deal; a
# kontra'd line is worked out by the same function.  Table entries' ``basis`` mappings are
# shared by every line built from them: read-only views of dicts nothing else holds, so no
# caller can change one.

Parts = tuple[str, int, Mapping[str, int]]
"""A line's ``detail``, ``value`` and ``basis``."""


def _game_parts(value: int, label: str, won: bool, k: int) -> Parts:
    """The game line: ± the contract's value × the game kontra ``k`` (every contract but Klop)."""
    sign = 1 if won else -1
    text = f"{label} {'won' if won else 'lost'}: {signed(sign * value)}{_kontra_text(k)}"
    return text, sign * value * k, MappingProxyType({"base": value, "sign": sign, "kontra": k})


@dataclass(frozen=True, slots=True)
class _Contract:
    """What scoring needs of one contract, its sentences included, worked out once at import."""

    name: str
    value: int
    label: str
    normal: bool
    """In ``NORMAL_CONTRACTS``: game, difference and bonuses."""
    mondfang: bool
    """In ``MONDFANG_CONTRACTS``."""
    award_reason: str | None
    """``"the Berač"`` for a contract in ``RADELC_CONTRACTS``, else None."""
    won: Parts
    """The game line won, without kontra: ``"Dva won: +20"``, 20, …"""
    lost: Parts
    """… and lost: ``"Dva lost: -20"``, -20, …"""
    penalty_base: int
    """``slovenian_renons``: what an offender pays, before kontra and radelc (Klop: 70)."""
    penalty_text: str
    """… and its sentence before kontra and radelc: ``"renons: -20 (Dva)"``."""


def _contract(name: str) -> _Contract:
    value, label = CONTRACT_VALUES[name], CONTRACT_LABELS[name]
    penalty_base = value or KLOP_FULL
    return _Contract(
        name=name,
        value=value,
        label=label,
        normal=name in NORMAL_CONTRACTS,
        mondfang=name in MONDFANG_CONTRACTS,
        award_reason=f"the {label}" if name in RADELC_CONTRACTS else None,
        won=_game_parts(value, label, True, 1),
        lost=_game_parts(value, label, False, 1),
        penalty_base=penalty_base,
        penalty_text=f"renons: -{penalty_base} ({label})",
    )


_RULES: Mapping[str, _Contract] = MappingProxyType({name: _contract(name) for name in CONTRACT_VALUES})
"""Every contract's ``_Contract``; a contract missing here is not a slovenian contract."""


def _difference_parts(points: int, rounding: str, k: int) -> Parts:
    """The difference ``points - 35`` (rounded per ``diff_rounding``) × the game kontra ``k``."""
    raw = points - HALF
    rounded = round_difference(raw, rounding)
    text = f"card points {points}, difference {raw}"
    if rounded != raw:
        text += f" rounded to {rounded}"
    if k > 1:
        text += f",{_kontra_text(k)}"
    basis = MappingProxyType({"points": points, "raw": raw, "rounded": rounded, "kontra": k})
    return text, rounded * k, basis


_DIFFERENCES: Mapping[tuple[int, str], Parts] = MappingProxyType(
    {
        (points, rounding): _difference_parts(points, rounding, 1)
        for points in range(KLOP_FULL + 1)
        for rounding in ("nearest5", "none")
    }
)
"""``_difference_parts`` without kontra, by (card points, ``diff_rounding``)."""


def _bonus_parts(bonus: str, by_declarer: bool, made: bool, announced: bool, k: int) -> Parts:
    """A bonus line from the declarer side's point of view: the declarer's side (``by_declarer``)
    or the opponents made (or failed) it.

    Made by the declarer's side or failed by the opponents counts positive;
    ``k`` is the bonus's own kontra chain (the game's, for a silent valat).
    """
    silent_value, announced_value = BONUS_VALUES[bonus]
    base = announced_value if announced else silent_value
    side: Side = DECLARER if by_declarer else OPPONENTS
    sign = _side_sign(side) * (1 if made else -1)
    label = BONUS_LABELS[bonus]
    how = "made" if made else "failed"
    if announced:
        by = "" if by_declarer else " by the opponents"
        text = f"{label} announced{by} and {how}: {signed(sign * base)}{_kontra_text(k)}"
    else:
        text = f"silent {label} {how} by {_side_words(side)}: {signed(sign * base)}{_kontra_text(k)}"
    basis = MappingProxyType({"base": base, "sign": sign, "announced": int(announced), "kontra": k})
    return text, sign * base * k, basis


_BONUSES: Mapping[tuple[str, bool, bool, bool], Parts] = MappingProxyType(
    {
        (bonus, by_declarer, made, announced): _bonus_parts(bonus, by_declarer, made, announced, 1)
        for bonus in BONUS_VALUES
        for by_declarer in (True, False)
        for made in (True, False)
        for announced in (True, False)
    }
)
"""``_bonus_parts`` without kontra, by (bonus, by the declarer's side, made, announced)."""


# --- normal contracts (Tri … Solo ena) ---------------------------------------


def _game_line(c: _Contract, names: tuple[str, ...], won: bool, k: int) -> Line:
    """± the contract's value × the game kontra ``k`` (every contract but Klop)."""
    if k == 1:
        text, value, basis = c.won if won else c.lost
    else:
        text, value, basis = _game_parts(c.value, c.label, won, k)
    return Line(names, "game", text, value, basis)


def _difference_line(names: tuple[str, ...], points: int, rounding: str, k: int) -> Line:
    """The difference line (``_difference_parts``)."""
    parts = _DIFFERENCES.get((points, rounding)) if k == 1 else None
    text, value, basis = parts or _difference_parts(points, rounding, k)
    return Line(names, "difference", text, value, basis)


def _bonus_line(names: tuple[str, ...], bonus: str, side: Side, made: bool, announced: bool, k: int) -> Line:
    """One bonus line (``_bonus_parts``): ``side`` made (or failed) ``bonus``; ``k``: its kontra."""
    if k == 1:
        text, value, basis = _BONUSES[bonus, side == DECLARER, bool(made), announced]
    else:
        text, value, basis = _bonus_parts(bonus, side == DECLARER, made, announced, k)
    return Line(names, bonus, text, value, basis)


def _collection_lines(
    lines: list[Line], names: tuple[str, ...], bonus: str, holder: Side | None, announcers: Sequence[Side]
) -> None:
    """Append trula or all kings: silent 10 / announced 20 / announced and failed -20; never kontra'd.

    An announced bonus scores only the announcement, whoever ends up holding the cards.
    """
    if announcers:
        for side in announcers:
            lines.append(_bonus_line(names, bonus, side, holder == side, True, 1))
    elif holder is not None:
        lines.append(_bonus_line(names, bonus, holder, True, False, 1))


def _pagat_lines(
    lines: list[Line], facts: DealFacts, names: tuple[str, ...], announcers: Sequence[Side], k: int
) -> None:
    """Append pagat ultimo: the Pagat itself wins the last trick; own kontra chain ``k``."""
    pagat_last = facts.pagat_last
    if announcers:
        for side in announcers:
            lines.append(_bonus_line(names, "pagat_ultimo", side, pagat_last == (side, True), True, k))
    elif pagat_last is not None:
        side, pagat_won = pagat_last
        if pagat_won or facts.options.silent_pagat_failure:
            lines.append(_bonus_line(names, "pagat_ultimo", side, pagat_won, False, 1))


def _king_ultimo_lines(
    lines: list[Line], facts: DealFacts, names: tuple[str, ...], announcers: Sequence[Side], k: int
) -> None:
    """Append king ultimo: the called king in the last trick, taken by the announcer's side.

    Silently it only scores for the declarer's side: +10 when made; -10 when the opponents take the
    last trick with the called king in it, under ``silent_king_ultimo_failure`` (Palčka's rule).
    """
    if announcers:
        for side in announcers:
            lines.append(_bonus_line(names, "king_ultimo", side, facts.king_last == side, True, k))
    elif facts.king_last == DECLARER:
        lines.append(_bonus_line(names, "king_ultimo", DECLARER, True, False, 1))
    elif facts.king_last == OPPONENTS and facts.options.silent_king_ultimo_failure:
        lines.append(_bonus_line(names, "king_ultimo", DECLARER, False, False, 1))


def valat_kontra(facts: DealFacts) -> int:
    """What an announced valat is multiplied by: its own kontra chain, or the game's under
    ``valat_game_kontra`` (Palčka's rule: one chain, so the valat cannot be kontra'd on its own)."""
    return facts.kontra.get("game" if facts.options.valat_game_kontra else "valat", 1)


def _valat_line(
    facts: DealFacts, names: tuple[str, ...], announcers: Sequence[Side], kontra: Mapping[str, int]
) -> Line | None:
    """The valat bonus of a normal contract, or None when no valat line applies.

    Announced: ±500 × the valat chain (``valat_kontra``); silent (either side): ±250 × the game kontra.
    """
    if announcers:
        side = announcers[0]
        return _bonus_line(names, "valat", side, facts.valat_side == side, True, valat_kontra(facts))
    if facts.valat_side is None:
        return None
    return _bonus_line(names, "valat", facts.valat_side, True, False, kontra.get("game", 1))


def _mondfang_lines(
    lines: list[Line], facts: DealFacts, announcers: Sequence[Side], kontra: Mapping[str, int]
) -> None:
    """Append -21 (option 20) to each captured Mond's owner, ×2 if announced, × the Mondfang chain.

    The announcement doubles a Mondfang suffered by the side it was made
    against; an announced Mondfang that does not happen scores nothing.
    Only for a contract in ``MONDFANG_CONTRACTS`` (the caller's check).
    """
    base = facts.options.mondfang_value
    k = kontra.get("mondfang", 1)
    for seat in facts.mondfang:
        owner = facts.players[seat]
        announced = any(side != facts.side_of(seat) for side in announcers)
        factor = 2 if announced else 1
        text = f"Mondfang: {owner}'s Mond captured: {signed(-base)}"
        if announced:
            text += " × 2 (announced)"
        lines.append(
            Line(
                (owner,),
                "mondfang",
                text + _kontra_text(k),
                -base * factor * k,
                MappingProxyType({"base": base, "announced": int(announced), "kontra": k}),
            )
        )


def _failed_mondfang_lines(
    lines: list[Line], facts: DealFacts, announcers: Sequence[Side], kontra: Mapping[str, int]
) -> None:
    """``failed_mondfang_pays`` (Palčka's rule): a Mondfang announced against the side holding the Mond,
    when nobody of that side pays one, pays the Mond's holder 2 × ``mondfang_value`` (+42) × the
    Mondfang chain.  Nothing when the Mond lay in the talon or the announcers held it themselves."""
    holder = facts.mond_holder
    if holder is None:
        return
    side = facts.side_of(holder)
    if not any(a != side for a in announcers) or any(facts.side_of(s) == side for s in facts.mondfang):
        return
    base = facts.options.mondfang_value
    k = kontra.get("mondfang", 1)
    name = facts.players[holder]
    text = f"Mondfang announced and failed: {name}'s Mond not captured: {signed(base)} × 2 (announced)"
    lines.append(
        Line((name,), "mondfang", text + _kontra_text(k), base * 2 * k,
             MappingProxyType({"base": base, "announced": 1, "sign": 1, "kontra": k}))
    )


def _score_normal(facts: DealFacts, c: _Contract) -> _Play:
    """Tri … Solo ena: game, difference and bonuses, unless a valat replaces them all.

    The lines come out in breakdown order (game, difference, trula, kings,
    pagat_ultimo, king_ultimo, mondfang; or the valat alone).
    """
    if facts.card_points is None:
        raise ValueError(f"a {facts.contract} needs card points")
    names = _playing_names(facts)
    announcers = _announcers(facts.announced)
    kontra = facts.kontra
    valat = _valat_line(facts, names, announcers.get("valat", ()), kontra)
    if valat is not None:
        return _Play([valat], won=valat.value > 0, valat_scored=True, names=names)
    k = kontra.get("game", 1)
    points = facts.card_points[0]
    won = points >= WIN_THRESHOLD
    lines = [_game_line(c, names, won, k), _difference_line(names, points, facts.options.diff_rounding, k)]
    _collection_lines(lines, names, "trula", facts.trula_side, announcers.get("trula", ()))
    _collection_lines(lines, names, "kings", facts.kings_side, announcers.get("kings", ()))
    _pagat_lines(lines, facts, names, announcers.get("pagat_ultimo", ()), kontra.get("pagat_ultimo", 1))
    _king_ultimo_lines(lines, facts, names, announcers.get("king_ultimo", ()), kontra.get("king_ultimo", 1))
    if facts.mondfang:
        _mondfang_lines(lines, facts, announcers.get("mondfang", ()), kontra)
    if facts.options.failed_mondfang_pays and "mondfang" in announcers:
        _failed_mondfang_lines(lines, facts, announcers["mondfang"], kontra)
    return _Play(lines, won=won, names=names)


# --- higher contracts (Berač … Valat) -----------------------------------------


def _higher_won(facts: DealFacts) -> bool:
    """Berač / Odprti berač: no trick taken; the valats: no trick lost; Solo brez: >= 36 points."""
    if facts.contract in NEGATIVE_CONTRACTS:
        return not facts.declarer_took_trick
    if facts.contract in VALAT_CONTRACTS:
        return not facts.declarer_lost_trick
    if facts.card_points is None:
        raise ValueError("a solo_brez needs card points")
    return facts.card_points[0] >= WIN_THRESHOLD


def _score_higher(facts: DealFacts, c: _Contract) -> _Play:
    """Flat ± value × game kontra for the declarer; Solo brez keeps its Mondfang lines.

    Under ``solo_brez_valat`` (Palčka's rule) a valat in Solo brez, by either side, replaces the game
    (and the Mondfang): ±250 × the game kontra, as a silent valat in a normal contract.
    """
    names = _playing_names(facts)
    kontra = facts.kontra
    if c.name == "solo_brez" and facts.options.solo_brez_valat and facts.valat_side is not None:
        valat = _bonus_line(names, "valat", facts.valat_side, True, False, kontra.get("game", 1))
        return _Play([valat], won=valat.value > 0, valat_scored=True, names=names)
    won = _higher_won(facts)
    lines = [_game_line(c, names, won, kontra.get("game", 1))]
    if c.mondfang and facts.mondfang:
        _mondfang_lines(lines, facts, _announcers(facts.announced).get("mondfang", ()), kontra)
    return _Play(lines, won=won, names=names)


# --- Klop ---------------------------------------------------------------------


def _klop_result(points: int, tricks: int) -> tuple[int, str, bool]:
    """One player's Klop result, why, and whether it is a ±70 ("full") result.

    No trick +70, more than 35 points -70, else minus the player's points.
    """
    if tricks == 0:
        return KLOP_FULL, "Klop: no trick taken: +70", True
    if points > HALF:
        return -KLOP_FULL, f"Klop: {points} card points, more than 35: -70", True
    return -points, f"Klop: {points} card points: {signed(-points)}", False


_KLOP_BY_POINTS: Mapping[int, tuple[int, str, bool]] = MappingProxyType(
    {points: _klop_result(points, 1) for points in range(KLOP_FULL + 1)}
)
"""``_klop_result`` of a player who took a trick, for every possible card-point count."""


def _score_klop(facts: DealFacts) -> _Play:
    """Each player alone; if anyone is at ±70, only those players score.

    A Klop kontra'd (``klop_kontra``, Palčka's rule: one kontra, ×2) doubles every player's result.
    """
    if facts.klop_points is None or facts.klop_tricks is None:
        raise ValueError("a klop needs klop_points and klop_tricks")
    results = []
    anyone_full = False
    for name, points, tricks in zip(facts.players, facts.klop_points, facts.klop_tricks, strict=True):
        result = (_KLOP_BY_POINTS.get(points) if tricks != 0 else None) or _klop_result(points, tricks)
        anyone_full = anyone_full or result[2]
        results.append((name, points, tricks, result))
    k = facts.kontra.get("game", 1)
    lines = []
    for name, points, tricks, (value, text, full) in results:
        if full or not anyone_full:
            if k == 1:
                basis = MappingProxyType({"points": points, "tricks": tricks, "base": value})
                lines.append(Line((name,), "klop", text, value, basis))
            else:
                basis = MappingProxyType({"points": points, "tricks": tricks, "base": value, "kontra": k})
                lines.append(Line((name,), "klop", text + _kontra_text(k), value * k, basis))
    return _Play(lines, won=None)


# --- radelci --------------------------------------------------------------------


def _doubled_base(lines: Iterable[Line], player: str) -> int:
    """What a radelc doubles for ``player``: their lines other than Mondfang and penalty."""
    total = 0
    for line in lines:
        if player in line.players and line.component in DOUBLED_BY_RADELC:
            total += line.value
    return total


def _radelc_holders(facts: DealFacts, names: tuple[str, ...], before: Mapping[str, int]) -> list[str]:
    """The playing-side players (``names``) whose score a radelc doubles.

    ``radelc_scope`` ``declarer``: the whole playing side when the declarer
    holds one; ``each_player``: each playing-side player holding one.
    """
    if facts.options.radelc_scope == "each_player":
        return [n for n in names if before[n] >= 1]
    declarer = _declarer_name(facts)
    return list(names) if declarer is not None and before[declarer] >= 1 else []


def _radelc_lines(facts: DealFacts, play: _Play, before: Mapping[str, int]) -> tuple[list[Line], list[str]]:
    """The radelc doubling lines and the players one of whose radelci the hand cancels.

    Several radelci still double only once; a radelc is cancelled only when
    the declarer's side wins (under ``each_player``, each doubled player's).
    Only with ``options.radelci`` (the caller's check).
    """
    if facts.contract == "klop":
        return _klop_radelc_lines(facts, play, before)
    doubled = _radelc_holders(facts, play.names, before)
    if not doubled:
        return [], []
    if facts.options.radelc_scope == "each_player":
        text = "radelc: " + ", ".join(f"{n} holds {before[n]}" for n in doubled) + ", own score doubled"
    else:
        text = f"radelc: declarer holds {before[doubled[0]]}, score doubled"  # the side lists the declarer first
    line = Line(tuple(doubled), "radelc", text, _doubled_base(play.lines, doubled[0]))
    return [line], (cancelled_by_win(play.names, before, facts.options) if play.won else [])


def cancelled_by_win(side: Sequence[str], before: Mapping[str, int], options: SlovenianOptions) -> list[str]:
    """The players of a playing side (``side``, the declarer first) one of whose radelci their won game
    cancels: under ``radelc_scope`` ``each_player`` each one holding a radelc (each had their score
    doubled), under ``declarer`` the declarer when holding one.  The score-sheet audit
    (``tarock.formats.sheet_csv``) asks the same."""
    if options.radelc_scope == "each_player":
        return [n for n in side if before.get(n, 0) >= 1]
    return [side[0]] if side and before.get(side[0], 0) >= 1 else []


def klop_cancels(value: int, options: SlovenianOptions) -> bool:
    """Whether a player's Klop result cancels one of their radelci: a +70 (doubled or not) does, unless
    ``klop_cancels_radelc`` is off.  The score-sheet audit (``tarock.formats.sheet_csv``) asks the same."""
    return value > 0 and options.klop_cancels_radelc


def _klop_radelc_lines(
    facts: DealFacts, play: _Play, before: Mapping[str, int]
) -> tuple[list[Line], list[str]]:
    """Klop: a player holding a radelc has their result doubled (``klop_radelc_double``); a +70 cancels one
    (``klop_cancels_radelc``)."""
    lines, cancelled = [], []
    for line in play.lines:
        (name,) = line.players
        if before[name] < 1:
            continue
        if facts.options.klop_radelc_double:
            lines.append(
                Line(
                    (name,), "radelc", f"radelc: {name} holds {before[name]}, Klop result doubled", line.value
                )
            )
        if klop_cancels(line.value, facts.options):
            cancelled.append(name)
    return lines, cancelled


def _award_reason(facts: DealFacts, c: _Contract, play: _Play) -> str | None:
    """Why every player receives a radelc after this hand, if they do."""
    if not facts.options.radelci:
        return None
    if c.award_reason is not None:
        return c.award_reason
    if play.valat_scored:
        return "the valat"
    return None


def _radelci_after(before: Mapping[str, int], cancelled: Iterable[str], award: bool) -> dict[str, int]:
    """The ledger after the hand: cancellations first, then everyone's award (awarded after scoring)."""
    after = dict(before)
    for name in cancelled:
        after[name] -= 1
    if award:
        return {name: n + 1 for name, n in after.items()}
    return after


# --- penalties ----------------------------------------------------------------

RENONCE_BONUSES = ("trula", "kings", "pagat_ultimo", "king_ultimo")
"""``austrian_renonce``: the announced bonuses each other player is paid as if won (at the
announced value × the bonus's own kontra chain).  An announced valat replaces the game and
them all (500 × the valat chain); an announced Mondfang is a loss of the Mond's owner, not a
bonus anyone wins, so it is not paid."""

def _unique(seats: Iterable[int]) -> list[int]:
    seen: list[int] = []
    for seat in seats:
        if seat not in seen:
            seen.append(seat)
    return seen


def _penalty_lines(facts: DealFacts, c: _Contract, before: Mapping[str, int]) -> list[Line]:
    """``slovenian_renons``: each offender, once, writes -(contract value) (Klop -70).

    × the game kontra, × 2 when the declarer holds a radelc (opponents' penalties too).  In Klop the -70
    is part of the offender's own Klop result, so it is doubled when the offender holds a radelc and
    ``klop_radelc_double`` is on.  Also the fallback of ``jass_trick_forfeit`` when it does not apply
    (``facts.penalty_note``).
    """
    policy = facts.options.penalty
    base = c.penalty_base
    k = facts.kontra.get("game", 1)
    declarer = _declarer_name(facts)
    radelc = 2 if facts.options.radelci and declarer is not None and before[declarer] >= 1 else 1
    text = c.penalty_text + _kontra_text(k)
    if radelc > 1:
        text += " × 2 (declarer's radelc)"
    if policy == "jass_trick_forfeit":
        why = facts.penalty_note or "the tricks were not replayed"
        text += f"; jass_trick_forfeit does not apply ({why}), scored as slovenian_renons"
    klop_double = facts.contract == "klop" and facts.options.radelci and facts.options.klop_radelc_double
    lines = []
    for s in _unique(facts.offenders):
        name = facts.players[s]
        own = 2 if klop_double and before[name] >= 1 else radelc
        detail = text + (f" × 2 ({name}'s radelc: part of the Klop result)" if own > radelc else "")
        lines.append(Line((name,), "penalty", detail, -base * k * own,
                          MappingProxyType({"base": base, "kontra": k, "radelc": own})))
    return lines


def renonce_amount(facts: DealFacts) -> tuple[int, str]:
    """``austrian_renonce``: what each other player is paid, and how it is made up.

    Klop: 70.  An announced valat: 500 × its valat chain.  Otherwise the
    contract's value × the game kontra plus every announced bonus of
    ``RENONCE_BONUSES`` at its announced value × its own kontra chain.
    No difference, no radelc.
    """
    if facts.contract == "klop":
        return KLOP_FULL, f"Klop {KLOP_FULL}"
    announced = {name for name, _ in facts.announced}
    if "valat" in announced:
        k = valat_kontra(facts)
        value = BONUS_VALUES["valat"][1]
        return value * k, f"valat announced {value}{_kontra_text(k)}"
    k = facts.kontra.get("game", 1)
    value = CONTRACT_VALUES[facts.contract]
    total = value * k
    parts = [f"{CONTRACT_LABELS[facts.contract]} {value}{_kontra_text(k)}"]
    for bonus in RENONCE_BONUSES:
        if bonus in announced:
            kb = facts.kontra.get(bonus, 1)
            bonus_value = BONUS_VALUES[bonus][1]
            total += bonus_value * kb
            parts.append(f"{BONUS_LABELS[bonus]} announced {bonus_value}{_kontra_text(kb)}")
    return total, " + ".join(parts)


def _renonce_lines(facts: DealFacts) -> list[Line]:
    """``austrian_renonce``: each offender, once, pays every other player ``renonce_amount``.

    The offender writes -(amount × the number of other players); each other
    player (another offender too) writes +amount.  These lines replace the
    deal's score.
    """
    amount, how = renonce_amount(facts)
    lines = []
    for s in _unique(facts.offenders):
        offender = facts.players[s]
        others = tuple(name for name in facts.players if name != offender)
        what = f"renonce by {offender}, who pays every other player as if they had won ({how} = {amount})"
        lines.append(
            Line(
                (offender,),
                "penalty",
                f"{what}: pays {amount} to each of {', '.join(others)}: {signed(-amount * len(others))}",
                -amount * len(others),
                MappingProxyType({"base": amount, "payments": len(others)}),
            )
        )
        lines.append(
            Line(others, "penalty", f"{what}: receives {amount} from {offender}", amount,
                 MappingProxyType({"base": amount}))
        )
    return lines


def _forfeit_lines(facts: DealFacts) -> list[Line]:
    """``jass_trick_forfeit`` applied (``facts.as_played`` set): the facts are already adjusted;
    a 0 line per offender says what was forfeited (``facts.penalty_note``)."""
    text = f"renons: {facts.penalty_note}"
    return [
        Line((facts.players[s],), "penalty", text, 0, MappingProxyType({"base": 0}))
        for s in _unique(facts.offenders)
    ]


def _sum_scores(players: Iterable[str], lines: Iterable[Line]) -> dict[str, int]:
    """Every player's score: the sum of the values of the lines listing them (0 if none does)."""
    scores = dict.fromkeys(players, 0)
    for line in lines:
        value = line.value
        for name in line.players:
            scores[name] += value
    return scores


def _ledger(players: tuple[str, ...], radelci_before: Mapping[str, int] | None) -> dict[str, int]:
    """The radelci each player holds before the hand, by name, in playing order (0 if not given)."""
    if not radelci_before:
        return dict.fromkeys(players, 0)
    get = radelci_before.get
    before = {}
    for name in players:  # a plain loop: a little cheaper than a comprehension for 3 or 4 players
        before[name] = int(get(name, 0))
    return before


# --- entry point ----------------------------------------------------------------


def score_deal(facts: DealFacts, radelci_before: Mapping[str, int] | None = None) -> ScoreResult:
    """Score one deal from its facts and the radelci the players hold (by name).

    Pure: the same facts and radelci always give the same result.  Raises
    ValueError for a contract this ruleset does not know or facts that lack
    what the contract needs (card points, Klop piles).

    Every step emits its lines in breakdown order (the hand's lines, then
    penalties, then radelc), so the breakdown is their concatenation, unsorted.
    """
    c = _RULES.get(facts.contract)
    if c is None:
        raise ValueError(f"unknown slovenian contract {facts.contract!r}")
    players = facts.players
    options = facts.options
    before = _ledger(players, radelci_before)
    if c.normal:
        play = _score_normal(facts, c)
    elif c.name == "klop":
        play = _score_klop(facts)
    else:
        play = _score_higher(facts, c)
    if options.radelci and any(before.values()):
        radelc, cancelled = _radelc_lines(facts, play, before)
    else:  # nobody holds a radelc (the usual case), or radelci are off: none doubles, none is cancelled
        radelc, cancelled = [], []
    award = _award_reason(facts, c, play)
    if not facts.offenders:
        # The usual hand: no renons, so no penalty policy applies.
        lines = tuple(play.lines + radelc) if radelc else tuple(play.lines)
        return ScoreResult(
            lines,
            _sum_scores(players, lines),
            before,
            _radelci_after(before, cancelled, award is not None),
            play.won,
            None,
            "none",
            c.name,
            _declarer_name(facts),
            tuple(cancelled),
            award,
        )
    return _score_with_offenders(facts, c, play, radelc, cancelled, award, before)


def _score_with_offenders(
    facts: DealFacts,
    c: _Contract,
    play: _Play,
    radelc: list[Line],
    cancelled: list[str],
    award: str | None,
    before: dict[str, int],
) -> ScoreResult:
    """``score_deal`` for a hand with a renons: ``options.penalty`` decides what is written.

    ``play``, ``radelc``, ``cancelled`` and ``award`` are the hand scored as
    played; ``unpenalised`` reports those scores whenever a penalty changes them.
    """
    players = facts.players
    policy = facts.options.penalty
    as_played = _sum_scores(players, play.lines + radelc)
    if policy == "annul":
        return ScoreResult(
            lines=(),
            scores=dict.fromkeys(players, 0),
            radelci_before=before,
            radelci_after=dict(before),
            won=None,
            unpenalised=as_played,
            policy="annul",
            contract=facts.contract,
            declarer=_declarer_name(facts),
        )
    if policy == "austrian_renonce":
        # The hand ends at the renonce: only the payments are written; a radelc contract
        # still gives everyone a radelc, none is cancelled.
        award = c.award_reason if facts.options.radelci else None
        lines = tuple(_renonce_lines(facts))
        return ScoreResult(
            lines=lines,
            scores=_sum_scores(players, lines),
            radelci_before=before,
            radelci_after=_radelci_after(before, [], award is not None),
            won=play.won,
            unpenalised=as_played,
            policy=policy,
            contract=facts.contract,
            declarer=_declarer_name(facts),
            award_reason=award,
        )
    forfeited = policy == "jass_trick_forfeit" and facts.as_played is not None
    if forfeited:
        penalties = _forfeit_lines(facts)
    elif policy in ("none", "record_as_played"):
        penalties = []
    else:
        penalties = _penalty_lines(facts, c, before)
    lines = tuple(play.lines + penalties + radelc)
    unpenalised = None
    if forfeited:
        assert facts.as_played is not None
        unpenalised = score_deal(replace(facts.as_played, offenders=()), before).scores
    elif penalties:
        unpenalised = as_played
    return ScoreResult(
        lines=lines,
        scores=_sum_scores(players, lines),
        radelci_before=before,
        radelci_after=_radelci_after(before, cancelled, award is not None),
        won=play.won,
        unpenalised=unpenalised,
        policy=policy if forfeited else ("slovenian_renons" if penalties else policy),
        contract=facts.contract,
        declarer=_declarer_name(facts),
        cancelled=tuple(cancelled),
        award_reason=award,
    )
