"""FROZEN pre-optimisation slovenian scorer: the oracle of tests/rules/slovenian/test_scoring_equivalence.py.

A verbatim copy of ``tarock/rules/slovenian/scoring.py`` as it was before it was made cheaper per call
(issue 11).  Test code, not shipped: the equivalence test scores the same facts with
``tarock.rules.slovenian.scoring.score_deal`` and with this module and requires identical results.
Do not edit it to follow rule changes; a deliberate rule change retires it instead.

The original module docstring follows.

Scoring of the ``slovenian`` ruleset: a replayed deal's facts -> a score breakdown.

``score_deal`` turns a ``DealFacts`` (what the card play established) and the
radelci each player holds into a ``ScoreResult``: one ``Line`` per component of
the score, in the breakdown order RULES.md fixes (game, difference, trula,
kings, pagat_ultimo, king_ultimo, valat, mondfang, klop, penalty, radelc), the
per-player totals those lines add up to, and the radelci after the hand.

The score sheet is not zero-sum: in Tri … Valat only the playing side
(declarer and partner) writes, each the full amount; opponents write 0 unless
a Mondfang or a renons penalty concerns them.  Klop is scored per player.
Every number comes from the tables below (RULES.md, "Decisions — ruleset
slovenian" and "slovenian scoring details (settled)"; seed 004).

Renons penalties (``options.penalty``, docs/penalties.md): ``slovenian_renons``
adds a penalty line per offender; ``austrian_renonce`` replaces the deal's
score by the offender's payments to every other player; ``jass_trick_forfeit``
scores facts ``tarock.rules.penalties`` already adjusted (else falls back to
``slovenian_renons`` and says why); ``annul`` writes 0 for everyone.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Iterable, Mapping

from tarock.facts import DECLARER, DealFacts, Side
from tarock.rules.slovenian.contracts import CONTRACTS

# --- the rules as data ------------------------------------------------------

CONTRACT_VALUES: Mapping[str, int] = MappingProxyType({c.name: c.value for c in CONTRACTS.values()})
"""Game value of each contract (seed 004's bidding ladder)."""

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
"""What each uncancelled radelc costs at the end of a session."""

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
"""Breakdown order of the lines (RULES.md, "audit explanation")."""

DOUBLED_BY_RADELC = ("game", "difference", "trula", "kings", "pagat_ultimo", "king_ultimo", "valat", "klop")
"""Components a radelc doubles: everything but Mondfang and the penalty (which doubles on its own)."""

KONTRA_NAMES: Mapping[int, str] = MappingProxyType({2: "kontra", 4: "re", 8: "sub", 16: "mord"})

_EMPTY: Mapping[str, int] = MappingProxyType({})


# --- results ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Line:
    """One component of a deal's score: what EACH listed player writes for it.

    A player's score is the sum of the values of the lines listing them.
    ``detail`` says it in plain words with the raw numbers.  ``basis`` keeps
    those numbers (raw difference, kontra, base value, sign …) for the audit,
    which tries plausible mis-scorings of a line; it takes no part in equality.
    """

    players: tuple[str, ...]
    component: str
    detail: str
    value: int
    basis: Mapping[str, int] = field(default_factory=lambda: _EMPTY, compare=False, repr=False)


@dataclass(frozen=True)
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

    def lines_of(self, player: str) -> tuple[Line, ...]:
        """The lines ``player`` writes, in breakdown order."""
        return tuple(line for line in self.lines if player in line.players)


@dataclass(slots=True)
class _Play:
    """The hand as played, before radelci and penalties."""

    lines: list[Line]
    won: bool | None
    valat_scored: bool = False


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


def _announcers(facts: DealFacts, bonus: str) -> tuple[Side, ...]:
    """The sides that announced ``bonus``, each once, in announcement order."""
    sides: list[Side] = []
    for name, side in facts.announced:
        if name == bonus and side not in sides:
            sides.append(side)
    return tuple(sides)


def _names(facts: DealFacts, seats: Iterable[int]) -> tuple[str, ...]:
    return tuple(facts.players[s] for s in seats)


def _declarer_name(facts: DealFacts) -> str | None:
    return facts.players[facts.declarer] if facts.declarer is not None else None


def _basis(**numbers: int) -> Mapping[str, int]:
    return MappingProxyType(dict(numbers))


# --- normal contracts (Tri … Solo ena) ---------------------------------------


def _game_line(facts: DealFacts, names: tuple[str, ...], won: bool) -> Line:
    """± the contract's value × the game kontra (every contract but Klop)."""
    value = CONTRACT_VALUES[facts.contract]
    k = facts.kontra.get("game", 1)
    sign = 1 if won else -1
    return Line(
        names,
        "game",
        f"{CONTRACT_LABELS[facts.contract]} {'won' if won else 'lost'}: "
        f"{signed(sign * value)}{_kontra_text(k)}",
        sign * value * k,
        _basis(base=value, sign=sign, kontra=k),
    )


def _game_lines(facts: DealFacts, names: tuple[str, ...], points: int) -> tuple[bool, list[Line]]:
    """Game value and difference of a normal contract; both × the game kontra."""
    won = points >= WIN_THRESHOLD
    k = facts.kontra.get("game", 1)
    game = _game_line(facts, names, won)
    raw = points - HALF
    rounded = round_difference(raw, facts.options.diff_rounding)
    text = f"card points {points}, difference {raw}"
    if rounded != raw:
        text += f" rounded to {rounded}"
    if k > 1:
        text += f",{_kontra_text(k)}"
    difference = Line(
        names,
        "difference",
        text,
        rounded * k,
        _basis(points=points, raw=raw, rounded=rounded, kontra=k),
    )
    return won, [game, difference]


def _collection_lines(facts: DealFacts, names: tuple[str, ...], bonus: str) -> list[Line]:
    """Trula or all kings: silent 10 / announced 20 / announced and failed -20; never kontra'd.

    An announced bonus scores only the announcement, whoever ends up holding the cards.
    """
    holder = facts.trula_side if bonus == "trula" else facts.kings_side
    announcers = _announcers(facts, bonus)
    lines = [_bonus_line(names, bonus, side, holder == side, True, 1) for side in announcers]
    if not announcers and holder is not None:
        lines.append(_bonus_line(names, bonus, holder, True, False, 1))
    return lines


def _bonus_line(names: tuple[str, ...], bonus: str, side: Side, made: bool, announced: bool, k: int) -> Line:
    """One bonus line, from the declarer side's point of view: ``side`` made (or failed) it.

    Made by the declarer's side or failed by the opponents counts positive;
    ``k`` is the bonus's own kontra chain (the game's, for a silent valat).
    """
    silent_value, announced_value = BONUS_VALUES[bonus]
    base = announced_value if announced else silent_value
    sign = _side_sign(side) * (1 if made else -1)
    label = BONUS_LABELS[bonus]
    how = "made" if made else "failed"
    if announced:
        by = "" if side == DECLARER else " by the opponents"
        text = f"{label} announced{by} and {how}: {signed(sign * base)}{_kontra_text(k)}"
    else:
        text = f"silent {label} {how} by {_side_words(side)}: {signed(sign * base)}{_kontra_text(k)}"
    return Line(
        names, bonus, text, sign * base * k, _basis(base=base, sign=sign, announced=int(announced), kontra=k)
    )


def _pagat_lines(facts: DealFacts, names: tuple[str, ...]) -> list[Line]:
    """Pagat ultimo: the Pagat itself wins the last trick; own kontra chain."""
    k = facts.kontra.get("pagat_ultimo", 1)
    announcers = _announcers(facts, "pagat_ultimo")
    lines = [
        _bonus_line(names, "pagat_ultimo", side, facts.pagat_last == (side, True), True, k)
        for side in announcers
    ]
    if not announcers and facts.pagat_last is not None:
        side, pagat_won = facts.pagat_last
        if pagat_won or facts.options.silent_pagat_failure:
            lines.append(_bonus_line(names, "pagat_ultimo", side, pagat_won, False, 1))
    return lines


def _king_ultimo_lines(facts: DealFacts, names: tuple[str, ...]) -> list[Line]:
    """King ultimo: the called king in the last trick, taken by the announcer's side.

    Silently it only scores for the declarer's side, and only when made.
    """
    k = facts.kontra.get("king_ultimo", 1)
    announcers = _announcers(facts, "king_ultimo")
    lines = [_bonus_line(names, "king_ultimo", side, facts.king_last == side, True, k) for side in announcers]
    if not announcers and facts.king_last == DECLARER:
        lines.append(_bonus_line(names, "king_ultimo", DECLARER, True, False, 1))
    return lines


def _valat_line(facts: DealFacts, names: tuple[str, ...]) -> Line | None:
    """The valat bonus of a normal contract, or None when no valat line applies.

    Announced: ±500 × the valat chain; silent (either side): ±250 × the game kontra.
    """
    announcers = _announcers(facts, "valat")
    if announcers:
        side = announcers[0]
        return _bonus_line(names, "valat", side, facts.valat_side == side, True, facts.kontra.get("valat", 1))
    if facts.valat_side is None:
        return None
    return _bonus_line(names, "valat", facts.valat_side, True, False, facts.kontra.get("game", 1))


def _mondfang_lines(facts: DealFacts) -> list[Line]:
    """-21 (option 20) to each captured Mond's owner, ×2 if announced, × the Mondfang chain.

    The announcement doubles a Mondfang suffered by the side it was made
    against; an announced Mondfang that does not happen scores nothing.
    """
    if facts.contract not in MONDFANG_CONTRACTS:
        return []
    base = facts.options.mondfang_value
    k = facts.kontra.get("mondfang", 1)
    announcers = _announcers(facts, "mondfang")
    lines = []
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
                _basis(base=base, announced=int(announced), kontra=k),
            )
        )
    return lines


def _score_normal(facts: DealFacts) -> _Play:
    """Tri … Solo ena: game, difference and bonuses, unless a valat replaces them all."""
    if facts.card_points is None:
        raise ValueError(f"a {facts.contract} needs card points")
    names = _names(facts, facts.playing_side)
    valat = _valat_line(facts, names)
    if valat is not None:
        return _Play([valat], won=valat.value > 0, valat_scored=True)
    won, lines = _game_lines(facts, names, facts.card_points[0])
    lines += _collection_lines(facts, names, "trula")
    lines += _collection_lines(facts, names, "kings")
    lines += _pagat_lines(facts, names)
    lines += _king_ultimo_lines(facts, names)
    lines += _mondfang_lines(facts)
    return _Play(lines, won=won)


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


def _score_higher(facts: DealFacts) -> _Play:
    """Flat ± value × game kontra for the declarer; Solo brez keeps its Mondfang lines."""
    won = _higher_won(facts)
    line = _game_line(facts, _names(facts, facts.playing_side), won)
    return _Play([line, *_mondfang_lines(facts)], won=won)


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


def _score_klop(facts: DealFacts) -> _Play:
    """Each player alone; if anyone is at ±70, only those players score."""
    if facts.klop_points is None or facts.klop_tricks is None:
        raise ValueError("a klop needs klop_points and klop_tricks")
    piles = zip(facts.players, facts.klop_points, facts.klop_tricks, strict=True)
    results = [(name, points, tricks, *_klop_result(points, tricks)) for name, points, tricks in piles]
    anyone_full = any(full for *_, full in results)
    lines = [
        Line((name,), "klop", text, value, _basis(points=points, tricks=tricks, base=value))
        for name, points, tricks, value, text, full in results
        if full or not anyone_full
    ]
    return _Play(lines, won=None)


# --- radelci --------------------------------------------------------------------


def _doubled_base(lines: Iterable[Line], player: str) -> int:
    """What a radelc doubles for ``player``: their lines other than Mondfang and penalty."""
    return sum(ln.value for ln in lines if player in ln.players and ln.component in DOUBLED_BY_RADELC)


def _radelc_holders(facts: DealFacts, before: Mapping[str, int]) -> list[str]:
    """The playing-side players whose score a radelc doubles.

    ``radelc_scope`` ``declarer``: the whole playing side when the declarer
    holds one; ``each_player``: each playing-side player holding one.
    """
    names = _names(facts, facts.playing_side)
    if facts.options.radelc_scope == "each_player":
        return [n for n in names if before[n] >= 1]
    declarer = _declarer_name(facts)
    return list(names) if declarer is not None and before[declarer] >= 1 else []


def _radelc_lines(facts: DealFacts, play: _Play, before: Mapping[str, int]) -> tuple[list[Line], list[str]]:
    """The radelc doubling lines and the players one of whose radelci the hand cancels.

    Several radelci still double only once; a radelc is cancelled only when
    the declarer's side wins (under ``each_player``, each doubled player's).
    """
    if not facts.options.radelci:
        return [], []
    if facts.contract == "klop":
        return _klop_radelc_lines(facts, play, before)
    doubled = _radelc_holders(facts, before)
    if not doubled:
        return [], []
    if facts.options.radelc_scope == "each_player":
        text = "radelc: " + ", ".join(f"{n} holds {before[n]}" for n in doubled) + ", own score doubled"
        cancelled = doubled
    else:
        declarer = doubled[0]  # the playing side lists the declarer first
        text = f"radelc: declarer holds {before[declarer]}, score doubled"
        cancelled = [declarer]
    line = Line(tuple(doubled), "radelc", text, _doubled_base(play.lines, doubled[0]))
    return [line], (cancelled if play.won else [])


def _klop_radelc_lines(
    facts: DealFacts, play: _Play, before: Mapping[str, int]
) -> tuple[list[Line], list[str]]:
    """Klop: a player holding a radelc has their result doubled (option); a +70 cancels one."""
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
        if line.value == KLOP_FULL:
            cancelled.append(name)
    return lines, cancelled


def _award_reason(facts: DealFacts, play: _Play) -> str | None:
    """Why every player receives a radelc after this hand, if they do."""
    if not facts.options.radelci:
        return None
    if facts.contract in RADELC_CONTRACTS:
        return f"the {CONTRACT_LABELS[facts.contract]}"
    if play.valat_scored:
        return "the valat"
    return None


def _radelci_after(before: Mapping[str, int], cancelled: Iterable[str], award: bool) -> dict[str, int]:
    """The ledger after the hand: cancellations first, then everyone's award (awarded after scoring)."""
    after = dict(before)
    for name in cancelled:
        after[name] -= 1
    if award:
        after = {name: n + 1 for name, n in after.items()}
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


def _penalty_lines(facts: DealFacts, before: Mapping[str, int]) -> list[Line]:
    """``slovenian_renons``: each offender, once, writes -(contract value) (Klop -70).

    × the game kontra, × 2 when the declarer holds a radelc (opponents' penalties too).
    Also the fallback of ``jass_trick_forfeit`` when it does not apply (``facts.penalty_note``).
    """
    policy = facts.options.penalty
    base = CONTRACT_VALUES[facts.contract] or KLOP_FULL
    k = facts.kontra.get("game", 1)
    declarer = _declarer_name(facts)
    radelc = 2 if facts.options.radelci and declarer is not None and before[declarer] >= 1 else 1
    text = f"renons: -{base} ({CONTRACT_LABELS[facts.contract]}){_kontra_text(k)}"
    if radelc > 1:
        text += " × 2 (declarer's radelc)"
    if policy == "jass_trick_forfeit":
        why = facts.penalty_note or "the tricks were not replayed"
        text += f"; jass_trick_forfeit does not apply ({why}), scored as slovenian_renons"
    return [
        Line(
            (facts.players[s],),
            "penalty",
            text,
            -base * k * radelc,
            _basis(base=base, kontra=k, radelc=radelc),
        )
        for s in _unique(facts.offenders)
    ]


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
        k = facts.kontra.get("valat", 1)
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
                _basis(base=amount, payments=len(others)),
            )
        )
        lines.append(
            Line(others, "penalty", f"{what}: receives {amount} from {offender}", amount, _basis(base=amount))
        )
    return lines


def _forfeit_lines(facts: DealFacts) -> list[Line]:
    """``jass_trick_forfeit`` applied (``facts.as_played`` set): the facts are already adjusted;
    a 0 line per offender says what was forfeited (``facts.penalty_note``)."""
    return [
        Line((facts.players[s],), "penalty", f"renons: {facts.penalty_note}", 0, _basis(base=0))
        for s in _unique(facts.offenders)
    ]


def _sum_scores(players: Iterable[str], lines: Iterable[Line]) -> dict[str, int]:
    scores = {name: 0 for name in players}
    for line in lines:
        for name in line.players:
            scores[name] += line.value
    return scores


def _ordered(lines: Iterable[Line]) -> tuple[Line, ...]:
    return tuple(sorted(lines, key=lambda ln: COMPONENTS.index(ln.component)))


# --- entry point ----------------------------------------------------------------


def score_deal(facts: DealFacts, radelci_before: Mapping[str, int] | None = None) -> ScoreResult:
    """Score one deal from its facts and the radelci the players hold (by name).

    Pure: the same facts and radelci always give the same result.  Raises
    ValueError for a contract this ruleset does not know or facts that lack
    what the contract needs (card points, Klop piles).
    """
    if facts.contract not in CONTRACT_VALUES:
        raise ValueError(f"unknown slovenian contract {facts.contract!r}")
    before = {name: int((radelci_before or {}).get(name, 0)) for name in facts.players}
    if facts.contract == "klop":
        play = _score_klop(facts)
    elif facts.contract in NORMAL_CONTRACTS:
        play = _score_normal(facts)
    else:
        play = _score_higher(facts)
    radelc, cancelled = _radelc_lines(facts, play, before)
    as_played = _sum_scores(facts.players, play.lines + radelc)
    policy = facts.options.penalty if facts.offenders else "none"
    if policy == "annul":
        return ScoreResult(
            lines=(),
            scores={name: 0 for name in facts.players},
            radelci_before=before,
            radelci_after=dict(before),
            won=None,
            unpenalised=as_played,
            policy="annul",
            contract=facts.contract,
            declarer=_declarer_name(facts),
        )
    award = _award_reason(facts, play)
    if policy == "austrian_renonce":
        # The hand ends at the renonce: only the payments are written; a radelc contract
        # still gives everyone a radelc, none is cancelled.
        award = f"the {CONTRACT_LABELS[facts.contract]}" if (
            facts.options.radelci and facts.contract in RADELC_CONTRACTS) else None
        lines = _ordered(_renonce_lines(facts))
        return ScoreResult(
            lines=lines,
            scores=_sum_scores(facts.players, lines),
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
        penalties = _penalty_lines(facts, before)
    lines = _ordered(play.lines + penalties + radelc)
    unpenalised = None
    if forfeited:
        assert facts.as_played is not None
        unpenalised = score_deal(replace(facts.as_played, offenders=()), before).scores
    elif penalties:
        unpenalised = as_played
    return ScoreResult(
        lines=lines,
        scores=_sum_scores(facts.players, lines),
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
