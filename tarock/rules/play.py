"""Trick-play rules shared by the rulesets: which cards may be played, which rule a card breaks,
who wins a trick.

Both rulesets play by the same few rules, switched on and off per contract
(and per option): follow the led suit; void, play a tarok where taroks must be
played; in negative games beat the winning card and keep the Pagat back; in
Königrufen's colour games lead a tarok only when no suit card is left.  The
switches are plain attributes of a *rules* object (``FollowRules``): the
``slovenian`` ``Contract`` carries them itself, Königrufen builds a
``tarock.rules.koenigrufen.contracts.PlayRules`` per contract and options.  Every function is
a handful of mask operations: this is the engine's hot path.
"""

from __future__ import annotations

from typing import Protocol

from tarock.cards import ABOVE, CARD_SUIT, MOND, PAGAT, PLAIN_MASK, SKIS, SUIT_MASKS, TAROK, TAROK_MASK

PAGAT_BIT = 1 << PAGAT
MOND_SKIS = (1 << MOND) | (1 << SKIS)
TRULA = MOND_SKIS | PAGAT_BIT

EMPEROR_NEVER = 0
EMPEROR_ALWAYS = 1
EMPEROR_TAROK_LEAD = 2
"""When Škis + Mond + Pagat in one trick make the Pagat win: never, always, only on a tarok lead."""


class FollowRules(Protocol):
    """The switches of the play rules (read as attributes; a contract or a rules object).

    ``trumps``: taroks beat the plain suits.  ``void_tarok``: void in the led
    suit, a player holding a tarok must play one.  ``negative``: a player must
    beat the card winning the trick when able.  ``pagat_last``: the Pagat is
    kept back; it may be led only when it is the player's last card within
    ``pagat_scope`` (the whole hand, or the taroks) and followed only when it
    is the only card the player may play, except (``pagat_emperor``) when Škis
    and Mond are already in the trick.  ``tarok_lead_last``: a tarok may be
    led only by a player without suit cards.
    """

    @property
    def trumps(self) -> bool: ...
    @property
    def void_tarok(self) -> bool: ...
    @property
    def negative(self) -> bool: ...
    @property
    def pagat_last(self) -> bool: ...
    @property
    def pagat_scope(self) -> int: ...
    @property
    def pagat_emperor(self) -> bool: ...
    @property
    def tarok_lead_last(self) -> bool: ...


def legal_mask(hand: int, led: int, winner: int, trick_mask: int, rules: FollowRules, force_pagat: bool) -> int:
    """The cards of ``hand`` that may be played to the trick so far.

    ``led`` is the first card of the trick (-1 when leading), ``winner`` the
    card currently winning it, ``trick_mask`` the cards already in it;
    ``force_pagat``: a Pagat holder must play it once Škis and Mond are in the
    trick (when it is among the cards the player must choose from).
    """
    if led < 0:
        if rules.pagat_last and hand & PAGAT_BIT and hand & rules.pagat_scope != PAGAT_BIT:
            return hand & ~PAGAT_BIT
        if rules.tarok_lead_last and hand & PLAIN_MASK:
            return hand & PLAIN_MASK
        return hand
    obliged = hand & SUIT_MASKS[CARD_SUIT[led]]
    if not obliged:
        if rules.void_tarok and hand & TAROK_MASK:
            obliged = hand & TAROK_MASK
        else:
            return hand
    emperor_ready = trick_mask & MOND_SKIS == MOND_SKIS
    if emperor_ready and force_pagat and obliged & PAGAT_BIT:
        return PAGAT_BIT
    if rules.negative:
        beat = _beating(obliged, winner)
        if beat:
            obliged = beat
        if (rules.pagat_last and obliged & PAGAT_BIT and obliged != PAGAT_BIT
                and not (emperor_ready and rules.pagat_emperor)):
            obliged &= ~PAGAT_BIT
    return obliged


def _beating(obliged: int, winner: int) -> int:
    """The cards of ``obliged`` (all of one suit, or all taroks) that beat ``winner``."""
    low = obliged & -obliged
    suit = CARD_SUIT[low.bit_length() - 1]
    if CARD_SUIT[winner] == suit:
        return obliged & ABOVE[winner]
    if suit == TAROK:
        return obliged  # a tarok beats any suit card
    return 0  # following a suit that a tarok already rules: no obligation


def violation(card: int, hand: int, led: int, winner: int, trick_mask: int, rules: FollowRules,
              force_pagat: bool) -> str:
    """The renons code for playing ``card`` (held, but not legal): the first rule broken.

    Precedence (docs/architecture.md): ``R_FOLLOW_SUIT``, ``R_MUST_TAROK``, ``R_PAGAT``,
    ``R_MUST_OVERTRUMP``, ``R_LEAD_TAROK``.
    """
    if led < 0:  # a lead breaks either the Pagat rule or the colour games' tarok-lead rule
        return "R_PAGAT" if card == PAGAT and rules.pagat_last else "R_LEAD_TAROK"
    follow = hand & SUIT_MASKS[CARD_SUIT[led]]
    bit = 1 << card
    if follow:
        if not bit & follow:
            return "R_FOLLOW_SUIT"
        obliged = follow
    elif rules.void_tarok and hand & TAROK_MASK:
        if not bit & TAROK_MASK:
            return "R_MUST_TAROK"
        obliged = hand & TAROK_MASK
    else:
        obliged = hand
    emperor_ready = trick_mask & MOND_SKIS == MOND_SKIS
    if emperor_ready and force_pagat and obliged & PAGAT_BIT:
        return "R_PAGAT"
    if rules.pagat_last and card == PAGAT:
        return "R_PAGAT"
    return "R_MUST_OVERTRUMP"


def trick_winner(cards: list[int] | tuple[int, ...], trumps: bool, emperor: int) -> int:
    """The position (0-based) of the card that wins a complete trick.

    ``trumps``: taroks beat the plain suits (else the highest card of the led
    suit wins); ``emperor``: one of the ``EMPEROR_*`` modes (Škis + Mond +
    Pagat in one trick: the Pagat wins).
    """
    led = cards[0]
    led_suit = CARD_SUIT[led]
    best = 0
    best_card = led
    for pos in range(1, len(cards)):
        card = cards[pos]
        cs = CARD_SUIT[card]
        if trumps and cs == TAROK:
            if CARD_SUIT[best_card] != TAROK or card > best_card:
                best, best_card = pos, card
        elif cs == led_suit and CARD_SUIT[best_card] == led_suit and card > best_card:
            best, best_card = pos, card
    if (emperor and PAGAT in cards and MOND in cards and SKIS in cards
            and (emperor == EMPEROR_ALWAYS or led_suit == TAROK)):
        return list(cards).index(PAGAT)
    return best
