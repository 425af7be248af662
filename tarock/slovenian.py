"""Ruleset ``slovenian``: contract data and the pure rule functions of card play and bidding.

Everything here is data or a pure function of ints and masks, so the engine's
hot path is a handful of mask operations per card.  RULES.md's ``slovenian``
decisions are the specification; each option is a field of
``tarock.options.SlovenianOptions``.
"""

from __future__ import annotations

from dataclasses import dataclass

from tarock.cards import (
    ABOVE,
    CARD_SUIT,
    MOND,
    PAGAT,
    SKIS,
    SUIT_MASKS,
    TAROK,
    TAROK_MASK,
)
from tarock.options import SlovenianOptions

PAGAT_BIT = 1 << PAGAT
MOND_SKIS = (1 << MOND) | (1 << SKIS)
TRULA = MOND_SKIS | PAGAT_BIT


@dataclass(frozen=True, slots=True)
class Contract:
    """One rung of the bidding ladder and how it is played."""

    name: str
    rank: int
    value: int
    talon_group: int  # cards per talon group the declarer picks from; 0: no talon exchange
    calls_king: bool  # 4 players only
    declarer_leads: bool
    negative: bool  # must beat, Pagat only as the last legal card
    trumps: bool  # False in Barvni valat: taroks are a plain suit
    bonuses: bool  # announcements of bonuses allowed
    forehand_only: bool  # Klop and Tri: only forehand, when all others passed
    four_players_only: bool
    label: str

    @property
    def is_klop(self) -> bool:
        return self.name == "klop"

    @property
    def is_beggar(self) -> bool:
        return self.name in ("berac", "odprti_berac")

    @property
    def is_valat(self) -> bool:
        return self.name in ("valat", "barvni_valat")

    @property
    def normal(self) -> bool:
        """Tri … Solo ena: game value plus difference, bonuses allowed."""
        return self.bonuses

    @property
    def radelc_contract(self) -> bool:
        """Klop, Berač or higher: everyone gets a radelc afterwards."""
        return self.is_klop or self.rank >= CONTRACTS["berac"].rank


def _c(name: str, rank: int, value: int, group: int, king: bool, lead: bool, neg: bool,
       trumps: bool, bonuses: bool, fh: bool, four: bool, label: str) -> Contract:
    return Contract(name, rank, value, group, king, lead, neg, trumps, bonuses, fh, four, label)


CONTRACTS: dict[str, Contract] = {
    c.name: c
    for c in (
        _c("klop", 0, 0, 0, False, False, True, True, False, True, False, "Klop"),
        _c("tri", 1, 10, 3, True, False, False, True, True, True, False, "Tri"),
        _c("dva", 2, 20, 2, True, False, False, True, True, False, False, "Dva"),
        _c("ena", 3, 30, 1, True, False, False, True, True, False, False, "Ena"),
        _c("solo_tri", 4, 40, 3, False, False, False, True, True, False, True, "Solo tri"),
        _c("solo_dva", 5, 50, 2, False, False, False, True, True, False, True, "Solo dva"),
        _c("solo_ena", 6, 60, 1, False, False, False, True, True, False, True, "Solo ena"),
        _c("berac", 7, 70, 0, False, True, True, True, False, False, False, "Berač"),
        _c("solo_brez", 8, 80, 0, False, True, False, True, False, False, False, "Solo brez"),
        _c("odprti_berac", 9, 90, 0, False, True, True, True, False, False, False, "Odprti berač"),
        _c("barvni_valat", 10, 125, 0, False, True, False, False, False, False, False, "Barvni valat"),
        _c("valat", 11, 500, 0, False, True, False, True, False, False, False, "Valat"),
    )
}

CARDS_PER_HAND = {3: 16, 4: 12}
TALON_SIZE = 6


def allowed_contract(contract: Contract, n_players: int) -> bool:
    """Whether ``contract`` exists in a game of ``n_players``."""
    return not (contract.four_players_only and n_players == 3)


def forced_pagat_applies(contract: Contract, options: SlovenianOptions) -> bool:
    """Whether a Pagat holder must play it once Škis and Mond are in the trick."""
    if not contract.trumps:
        return False
    mode = options.forced_pagat
    return mode == "all" or (mode == "negative_only" and contract.negative)


def legal_mask(hand: int, led: int, winner: int, trick_mask: int, contract: Contract,
               force_pagat: bool) -> int:
    """The cards of ``hand`` that may be played to the trick so far.

    ``led`` is the first card of the trick (-1 when leading), ``winner`` the
    card currently winning it, ``trick_mask`` the cards already in it.
    """
    negative = contract.negative
    if led < 0:
        if negative and hand & PAGAT_BIT and hand != PAGAT_BIT:
            return hand & ~PAGAT_BIT
        return hand
    obliged = hand & SUIT_MASKS[CARD_SUIT[led]]
    if not obliged:
        if contract.trumps and hand & TAROK_MASK:
            obliged = hand & TAROK_MASK
        else:
            return hand
    emperor_ready = trick_mask & MOND_SKIS == MOND_SKIS
    if emperor_ready and force_pagat and obliged & PAGAT_BIT:
        return PAGAT_BIT
    if negative:
        beat = _beating(obliged, winner)
        if beat:
            obliged = beat
        if obliged & PAGAT_BIT and obliged != PAGAT_BIT and not emperor_ready:
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


def violation(card: int, hand: int, led: int, winner: int, trick_mask: int, contract: Contract,
              force_pagat: bool) -> str:
    """The renons code for playing ``card`` (held, but not legal): the first rule broken."""
    if led < 0:
        return "R_PAGAT"  # the only restriction on a lead
    follow = hand & SUIT_MASKS[CARD_SUIT[led]]
    bit = 1 << card
    if follow:
        if not bit & follow:
            return "R_FOLLOW_SUIT"
        obliged = follow
    elif contract.trumps and hand & TAROK_MASK:
        if not bit & TAROK_MASK:
            return "R_MUST_TAROK"
        obliged = hand & TAROK_MASK
    else:
        obliged = hand
    emperor_ready = trick_mask & MOND_SKIS == MOND_SKIS
    if emperor_ready and force_pagat and obliged & PAGAT_BIT:
        return "R_PAGAT"
    if contract.negative and card == PAGAT:
        return "R_PAGAT"
    return "R_MUST_OVERTRUMP"


def trick_winner(cards: list[int] | tuple[int, ...], contract: Contract, options: SlovenianOptions) -> int:
    """The position (0-based) of the card that wins a complete trick."""
    led = cards[0]
    led_suit = CARD_SUIT[led]
    best = 0
    best_card = led
    trumps = contract.trumps
    mask = 0
    for pos in range(1, len(cards)):
        card = cards[pos]
        cs = CARD_SUIT[card]
        if trumps and cs == TAROK:
            if CARD_SUIT[best_card] != TAROK or card > best_card:
                best, best_card = pos, card
        elif cs == led_suit and CARD_SUIT[best_card] == led_suit and card > best_card:
            best, best_card = pos, card
    for card in cards:
        mask |= 1 << card
    if mask & TRULA == TRULA and options.emperor_trick and (trumps or led_suit == TAROK):
        return list(cards).index(PAGAT)
    return best


def valid_king_call(card: int) -> bool:
    """Kings only: K of hearts, diamonds, spades or clubs."""
    return card in (29, 37, 45, 53)


@dataclass(frozen=True, slots=True)
class BiddingOutcome:
    """Who won the bidding with what, and every illegal bid as (bid index, seat, sentence)."""

    declarer: int | None
    contract: str | None
    errors: tuple[tuple[int, int, str], ...]


def speaking_order(n_players: int, options: SlovenianOptions) -> list[int]:
    """Seats in the order they first speak: forehand last by default."""
    if options.bidding_order == "forehand_first":
        return list(range(n_players))
    return list(range(1, n_players)) + [0]


def check_bidding(bids: list[tuple[int, str]], n_players: int, options: SlovenianOptions,
                  names: tuple[str, ...]) -> BiddingOutcome:
    """Replay the bids spoken, in order, and say who declares what.

    Bidding goes in rounds; in each round every seat still in speaks once, in
    ``speaking_order``.  A pass is final (except that under
    ``forehand_first`` a forehand who passed keeps the Klop/Tri choice); a
    seat with higher priority (closer to forehand) may match the current
    bid, others must bid higher; Klop and Tri belong to forehand alone once
    all others have passed.  The winner may raise once more after all others
    passed (the final declaration).  A bid out of turn is reported and then
    taken as spoken.
    """
    order = speaking_order(n_players, options)
    passed: set[int] = set()
    spoken: set[int] = set()  # seats that have spoken in the current round
    holder: int | None = None
    best: Contract | None = None
    errors: list[tuple[int, int, str]] = []
    done = False

    def others_out() -> bool:
        return all(s in passed for s in range(1, n_players))

    def forehand_choice() -> bool:
        return holder is None and others_out() and options.bidding_order == "forehand_first"

    def expected() -> int | None:
        for s in order:
            if s not in spoken and (s not in passed or (s == 0 and forehand_choice())):
                return s
        return None

    for i, (seat, bid) in enumerate(bids):
        who = names[seat]
        if done:
            errors.append((i, seat, f"{who} bid {bid} after the bidding had ended"))
            continue
        turn = expected()
        if turn is None:
            spoken.clear()
            turn = expected()
        if turn is not None and seat != turn:
            errors.append((i, seat, f"{who} spoke out of turn: it was {names[turn]}'s turn to bid"))
        spoken.add(seat)
        error = _bid_error(seat, bid, passed, holder, best, n_players, names, forehand_choice() and seat == 0,
                           others_out())
        if error:
            errors.append((i, seat, error))
        elif bid == "pass":
            passed.add(seat)
        else:
            best, holder = CONTRACTS[bid], seat
            passed.discard(seat)
        active = [s for s in range(n_players) if s not in passed]
        final_declaration = i + 1 < len(bids) and bids[i + 1][0] == holder and bids[i + 1][1] != "pass"
        if holder is not None and active == [holder] and not final_declaration:
            done = True
        elif holder is None and not active and not forehand_choice():
            done = True
        elif holder is None and not active and bid == "pass" and seat == 0:
            done = True
    if holder is None:
        everyone_passed = len(passed) == n_players
        return BiddingOutcome(None, "klop" if everyone_passed else None, tuple(errors))
    return BiddingOutcome(holder, best.name if best else None, tuple(errors))


def _bid_error(seat: int, bid: str, passed: set[int], holder: int | None, best: Contract | None, n_players: int,
               names: tuple[str, ...], forehand_choice: bool, others_out: bool) -> str | None:
    """Why ``bid`` by ``seat`` is illegal now, or None."""
    who = names[seat]
    if seat in passed and not forehand_choice:
        return f"{who} bid {bid} after passing"
    if bid == "pass":
        return None
    contract = CONTRACTS[bid]
    if not allowed_contract(contract, n_players):
        return f"{who} bid {contract.label}, which does not exist with 3 players"
    if contract.forehand_only and not (seat == 0 and others_out):
        return f"{who} bid {contract.label}, which only forehand may choose after everyone else has passed"
    if best is not None and holder is not None and seat != holder and (
        contract.rank < best.rank or (contract.rank == best.rank and seat > holder)
    ):
        need = "at least match" if seat < holder else "bid higher than"
        return f"{who} bid {contract.label} but had to {need} {names[holder]}'s {best.label}"
    if best is not None and holder == seat and contract.rank <= best.rank:
        return f"{who} bid {contract.label} but had already bid {best.label}"
    return None
