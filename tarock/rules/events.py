"""Table events (docs/penalties.md) that change the card play: out of turn (8.8), two cards (8.10), missing card (8.12).

Pure functions over a ``Deal``'s ``events`` (docs/records.md); the
replay consumes them through two small hooks (docs/penalties.md, "Table events"):

* ``plan(deal, contract)`` says which cards lose their power to take a trick
  (a ``Demotions``, or None when nothing is demoted, so a normal record takes
  the same path as before); ``tarock.game.Game`` re-resolves a trick holding a
  powerless card with ``resolve`` when the trick is finished, so its winner —
  and therefore the next leader — is the one the table got;
* ``move_missing`` gives each missing card's points to the non-faulting side.

Models chosen (the rules leave them open):

* ``out_of_turn`` (8.8): the card the player put in trick N is powerless in
  trick N and keeps its points.  In an unnamed record the cards stand in turn
  order, so it is the card the replay seats at that player; in a named record
  it is the card named for that player (the engine also reports it as
  ``R_OUT_OF_TURN``).  An ``R_OUT_OF_TURN`` play without an event is not
  demoted: a changed winner changes the next leader, and a record kept without
  8.8 would then show every later lead out of turn.  The partner's duty not to play the exposed suit is not checked.
* ``two_cards`` (8.10): the card underneath went back to the hand; whenever it
  is played, in trick N or later, it cannot take the trick.
* ``missing_card`` (8.12): the player never played the card, so the record's
  last trick is one card short of that player.  The replay puts the card in
  that trick as the player's (no ``E_SEQUENCE``), powerless; its points go to
  the other side whoever takes the trick, and it counts for no Pagat/king
  ultimo and no Mondfang.

Only ``slovenian`` contracts with two sides apply them: not Klop (no sides)
nor Berač / Odprti berač (a powerless card would help the offender, as the
Swiss rule notes for Misère).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tarock.cards import CARD_SUIT, MOND, PAGAT, SKIS, TAROK
from tarock.deal import Deal
from tarock.rules.play import EMPEROR_ALWAYS

KINDS = ("out_of_turn", "two_cards", "missing_card")
"""The event kinds that demote a card."""


@dataclass(frozen=True, slots=True)
class Demotions:
    """Which cards cannot take a trick.

    ``seats``: (trick number, seat) of each out-of-turn card; ``from_trick``:
    card -> the first trick (1-based) from which that card is powerless (two
    cards, missing card); ``missing``: (seat, card) of each missing card;
    ``out_of_turn``: every play the engine reports as ``R_OUT_OF_TURN`` is demoted too (off: see
    docs/penalties.md, "Table events", for why a record must name the play with an event).
    """

    seats: frozenset[tuple[int, int]] = frozenset()
    from_trick: tuple[tuple[int, int], ...] = ()
    missing: tuple[tuple[int, int], ...] = ()
    out_of_turn: bool = False

    def weak(self, trick: int, cards: Sequence[int], seats: Sequence[int]) -> int:
        """The positions (a bit mask) of trick ``trick`` (1-based) whose cards cannot take it."""
        mask = 0
        for pos, (card, seat) in enumerate(zip(cards, seats)):
            if (trick, seat) in self.seats or any(c == card and trick >= t for c, t in self.from_trick):
                mask |= 1 << pos
        return mask

    @property
    def missing_mask(self) -> int:
        m = 0
        for _, card in self.missing:
            m |= 1 << card
        return m


def applies(deal: Deal, contract: Any) -> bool:
    """Whether the events (and the ``R_OUT_OF_TURN`` demotion) apply to this deal's contract."""
    return (deal.ruleset == "slovenian" and getattr(contract, "has_declarer", False)
            and not contract.is_klop and not contract.is_beggar)


def plan(deal: Deal, contract: Any) -> Demotions | None:
    """The demotions of ``deal``'s events, or None when the contract applies none.

    A record without such events gets None: its replay is unchanged.
    """
    if not applies(deal, contract):
        return None
    seats: set[tuple[int, int]] = set()
    from_trick: list[tuple[int, int]] = []
    missing: list[tuple[int, int]] = []
    for e in deal.events:
        if e.event not in KINDS or e.player is None:
            continue
        seat = deal.seat(e.player)
        if e.event == "out_of_turn" and e.trick is not None:
            seats.add((e.trick, seat))
        elif e.event == "two_cards" and e.card is not None and e.trick is not None:
            from_trick.append((e.card, e.trick))
        elif e.event == "missing_card" and e.card is not None:
            from_trick.append((e.card, 1))
            missing.append((seat, e.card))
    if not (seats or from_trick):
        return None
    return Demotions(frozenset(seats), tuple(from_trick), tuple(missing))


def resolve(cards: Sequence[int], weak: int, trumps: bool, emperor: int) -> int:
    """The position of the card that takes a complete trick when the cards at ``weak`` (a position mask)
    cannot: the highest tarok (with ``trumps``), else the highest card of the led suit, else the first
    card played; Škis + Mond + Pagat (all able to take) make the Pagat win as ``tarock.rules.play.trick_winner``
    says.  When every card is powerless the trick goes as if none were."""
    candidates = [p for p in range(len(cards)) if not weak >> p & 1] or list(range(len(cards)))
    led = CARD_SUIT[cards[0]]
    chosen = {cards[p] for p in candidates}
    if emperor and {PAGAT, MOND, SKIS} <= chosen and (emperor == EMPEROR_ALWAYS or led == TAROK):
        return list(cards).index(PAGAT)

    def rank(pos: int) -> tuple[int, int]:
        card = cards[pos]
        suit = CARD_SUIT[card]
        if trumps and suit == TAROK:
            return 2, card
        return (1, card) if suit == led else (0, -pos)

    return max(candidates, key=rank)


def move_missing(demotions: Demotions | None, side_of: Any, declarer_side: Any,
                 declarer_pile: int, opp_pile: int) -> tuple[int, int]:
    """Piles with each missing card moved to the side that did not lose it (8.12)."""
    if demotions is None:
        return declarer_pile, opp_pile
    for seat, card in demotions.missing:
        bit = 1 << card
        if not (declarer_pile | opp_pile) & bit:
            continue  # the card was never put in a trick (the record did not match the event)
        declarer_pile &= ~bit
        opp_pile &= ~bit
        if side_of(seat) == declarer_side:
            opp_pile |= bit
        else:
            declarer_pile |= bit
    return declarer_pile, opp_pile
