"""Renons penalties that change the card play's outcome: ``jass_trick_forfeit`` (docs/penalties.md.

``jass_trick_forfeit`` is a pure function over the replayed tricks: it takes the
facts of the hand as played and returns adjusted facts (``DealFacts.as_played``
keeps the original, ``DealFacts.penalty_note`` says what was forfeited), or the
unchanged facts with ``penalty_note`` saying why the policy falls back to
``slovenian_renons``.  The rules (docs/rules.md, "renons penalty" and
"``jass_trick_forfeit`` details"; docs/penalties.md):

* only each offender's first renons is judged; a stash renons, and any renons
  in Klop, Berač or Odprti berač, falls back to ``slovenian_renons`` (so does a
  renons by both sides, and a renons that is no revoke: a play out of turn);
* every trick from the renons trick through its discovery (the first
  ``renons_called`` event at or after it, else the last trick) goes to the
  non-offending side, taken by that side's highest card in it (Mondfang and
  Pagat ultimo follow that card);
* the *forgotten* card — the first card of the suit the offender failed to
  follow that they play later (must-tarok: the next tarok; a compulsory Pagat
  not played: the Pagat) — loses its power to take a trick (its trick is
  re-resolved without it) and its points go to the non-offending side;
* forfeiting every trick counts as a valat.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable, Sequence

from tarock.cards import (
    CARD_SUIT,
    CODES,
    KINGS_MASK,
    MOND,
    PAGAT,
    SKIS,
    SUIT_NAMES,
    TAROK,
    TRULA_MASK,
    counted_points,
)
from tarock.facts import DECLARER, OPPONENTS, DealFacts, Side
from tarock.findings import Finding
from tarock.rules.play import EMPEROR_ALWAYS

FALLBACK_CONTRACTS = ("klop", "berac", "odprti_berac")
"""Contracts in which a renons always falls back to ``slovenian_renons``."""

REVOKES = ("R_FOLLOW_SUIT", "R_MUST_TAROK", "R_PAGAT", "R_LEAD_TAROK")
"""Renons codes ``jass_trick_forfeit`` judges (a play breaking one of these rules)."""


@dataclass(frozen=True, slots=True)
class PlayedTricks:
    """The card play of one deal, as the penalty needs it.

    ``tricks`` / ``seats`` / ``winners`` as the replay played them (``winners``
    the seat that took each trick); ``declarer_extra`` / ``opponents_extra``
    the cards each side holds outside the tricks (stash, talon share, claimed
    rest); ``full``: every card was played; ``talon_mondfang``: the declarer
    pays a Mondfang for a Mond left in the unchosen talon; ``trumps`` and
    ``emperor`` as ``tarock.rules.play.trick_winner`` takes them.
    """

    tricks: tuple[tuple[int, ...], ...]
    seats: tuple[tuple[int, ...], ...]
    winners: tuple[int, ...]
    declarer_extra: int = 0
    opponents_extra: int = 0
    full: bool = True
    talon_mondfang: bool = False
    called_king: int | None = None
    trumps: bool = True
    emperor: int = 0
    renons_called: tuple[int, ...] = ()


def _fallback(facts: DealFacts, why: str) -> DealFacts:
    return replace(facts, penalty_note=why)


def _other(side: Side) -> Side:
    return OPPONENTS if side == DECLARER else DECLARER


def _first_renons(findings: Iterable[Finding], player: str) -> list[Finding]:
    """The offender's first renons play: every renons finding of that (trick, position)."""
    mine = [f for f in findings if f.severity == "renons" and f.player == player]
    if not mine:
        return []
    first = mine[0]
    return [f for f in mine if (f.trick, f.position) == (first.trick, first.position)]


def _forgotten_suit(code: str, led: int) -> tuple[int | None, bool]:
    """(suit of the forgotten card, or None; whether it is the Pagat itself)."""
    if code == "R_FOLLOW_SUIT":
        return CARD_SUIT[led], False
    if code == "R_MUST_TAROK":
        return TAROK, False
    if code == "R_PAGAT":
        return TAROK, True
    return None, False


def _taker(cards: Sequence[int], candidates: Sequence[int], play: PlayedTricks) -> int:
    """The position of the highest card among ``candidates`` (positions), the trick's led suit ruling."""
    led_suit = CARD_SUIT[cards[0]]
    chosen = [cards[p] for p in candidates]
    if (play.emperor and {PAGAT, MOND, SKIS} <= set(chosen)
            and (play.emperor == EMPEROR_ALWAYS or led_suit == TAROK)):
        return cards.index(PAGAT)

    def rank(pos: int) -> tuple[int, int]:
        card = cards[pos]
        suit = CARD_SUIT[card]
        if play.trumps and suit == TAROK:
            return 2, card
        return (1, card) if suit == led_suit else (0, card)

    return max(candidates, key=rank)


def _span(first: int, last: int) -> str:
    return f"trick {first}" if first == last else f"tricks {first}–{last}"


def jass_trick_forfeit(facts: DealFacts, play: PlayedTricks, findings: Sequence[Finding]) -> DealFacts:
    """Adjust ``facts`` (the hand as played) for the offenders' revokes; see the module docstring."""
    if not facts.offenders:
        return facts
    if facts.contract in FALLBACK_CONTRACTS or facts.declarer is None:
        return _fallback(facts, f"a renons in {facts.contract.replace('_', ' ')}")
    side_of = facts.side_of
    offender_sides = {side_of(s) for s in facts.offenders}
    if len(offender_sides) > 1:
        return _fallback(facts, "both sides committed a renons")
    (guilty,) = offender_sides
    receiver = _other(guilty)
    n_tricks = len(play.tricks)
    forfeited: set[int] = set()  # 0-based trick indexes
    forgotten: list[tuple[int, int]] = []  # (trick index, position)
    notes: list[str] = []
    for seat in dict.fromkeys(facts.offenders):
        name = facts.players[seat]
        first = _first_renons(findings, name)
        if not first or first[0].trick is None:
            return _fallback(facts, f"{name}'s first renons is in the stash")
        judged = next((f for f in first if f.code in REVOKES), None)
        if judged is None:
            return _fallback(facts, f"{name}'s first renons ({first[0].code}) is no revoke")
        assert judged.trick is not None  # the same play as first[0]
        k = judged.trick - 1
        if k >= n_tricks:
            return _fallback(facts, f"{name}'s renons trick was not replayed")
        called = [t for t in play.renons_called if t >= k + 1]
        d = min(min(called), n_tricks) if called else n_tricks
        forfeited.update(range(k, d))
        note = f"{name}'s renons in trick {k + 1}: {_span(k + 1, d)} go to {_words(receiver)}"
        suit, pagat_only = _forgotten_suit(judged.code, play.tricks[k][0])
        hit = None
        if suit is not None:
            for t in range(k + 1, n_tricks):
                for pos, (card, s) in enumerate(zip(play.tricks[t], play.seats[t])):
                    if s == seat and (card == PAGAT if pagat_only else CARD_SUIT[card] == suit):
                        hit = (t, pos)
                        break
                if hit:
                    break
        if hit is not None:
            forgotten.append(hit)
            card = play.tricks[hit[0]][hit[1]]
            note += f"; the forgotten {CODES[card]} (trick {hit[0] + 1}) loses its power to take"
            note += f" and its points go to {_words(receiver)}"
        elif suit is not None:
            what = "Pagat" if pagat_only else f"{SUIT_NAMES[suit]} card"
            note += f"; {name} played no {what} later (no forgotten card)"
        notes.append(note)

    # Who takes each trick now: (seat, taking position).
    takers: list[tuple[int, int]] = []
    for t, (cards, seats, winner) in enumerate(zip(play.tricks, play.seats, play.winners)):
        powerless = {pos for tt, pos in forgotten if tt == t}
        if t in forfeited:
            candidates = [p for p, s in enumerate(seats) if side_of(s) == receiver and p not in powerless]
        elif powerless:
            candidates = [p for p in range(len(cards)) if p not in powerless]
        else:
            takers.append((winner, seats.index(winner)))
            continue
        if not candidates:
            candidates = [p for p in range(len(cards)) if p not in powerless] or list(range(len(cards)))
        pos = _taker(cards, candidates, play)
        takers.append((seats[pos], pos))

    declarer_pile, opp_pile = play.declarer_extra, play.opponents_extra
    for t, (cards, (seat, _)) in enumerate(zip(play.tricks, takers)):
        mask = sum(1 << c for c in cards)
        if side_of(seat) == DECLARER:
            declarer_pile |= mask
        else:
            opp_pile |= mask
    for t, pos in forgotten:  # the forgotten card's points go to the non-offending side
        bit = 1 << play.tricks[t][pos]
        declarer_pile &= ~bit
        opp_pile &= ~bit
        if receiver == DECLARER:
            declarer_pile |= bit
        else:
            opp_pile |= bit
    dp, op = counted_points(declarer_pile), counted_points(opp_pile)

    taker_sides = [side_of(seat) for seat, _ in takers]
    all_forfeited = n_tricks > 0 and len(forfeited) == n_tricks
    valat_side: Side | None = None
    if taker_sides and len(set(taker_sides)) == 1 and (play.full or all_forfeited):
        valat_side = taker_sides[0]
    if all_forfeited:
        notes.append(f"every trick is forfeited: a valat for {_words(receiver)}")
    lost_trick = any(s != DECLARER for s in taker_sides)
    is_valat = facts.contract in ("valat", "barvni_valat")

    pagat_last = king_last = None
    if play.full and n_tricks:
        cards, seats = play.tricks[-1], play.seats[-1]
        seat, pos = takers[-1]
        if PAGAT in cards:
            p = cards.index(PAGAT)
            pagat_last = (side_of(seats[p]), p == pos)
        if play.called_king is not None and play.called_king in cards:
            king_last = side_of(seat)

    mondfang: list[int] = []
    for t, (cards, seats) in enumerate(zip(play.tricks, play.seats)):
        if MOND in cards:
            owner = seats[cards.index(MOND)]
            seat, pos = takers[t]
            captured = cards[pos] in (SKIS, PAGAT)
            if captured and (facts.options.mondfang_any_side or side_of(seat) != side_of(owner)):
                mondfang.append(owner)
            break
    if play.talon_mondfang:
        mondfang.append(facts.declarer)
    if facts.contract not in ("tri", "dva", "ena", "solo_tri", "solo_dva", "solo_ena", "solo_brez"):
        mondfang = []

    return replace(
        facts,
        card_points=(dp, op),
        declarer_lost_trick=is_valat and lost_trick,
        valat_side=(None if lost_trick else DECLARER) if is_valat else valat_side,
        trula_side=_holder(TRULA_MASK, declarer_pile, opp_pile),
        kings_side=_holder(KINGS_MASK, declarer_pile, opp_pile),
        pagat_last=pagat_last,
        king_last=king_last,
        mondfang=tuple(mondfang),
        as_played=facts,
        penalty_note="jass_trick_forfeit: " + "; ".join(notes),
    )


def _words(side: Side) -> str:
    return "the declarer's side" if side == DECLARER else "the opponents"


def _holder(target: int, declarer_pile: int, opp_pile: int) -> Side | None:
    if declarer_pile & target == target:
        return DECLARER
    if opp_pile & target == target:
        return OPPONENTS
    return None
