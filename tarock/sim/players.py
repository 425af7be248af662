"""Heuristic players for the session simulator: bidding, king call, talon, stash, announcements, card play.

Each decision is a small rule of thumb over card masks, the way a club player
decides at the table, so simulated records look like real play: strong hands
bid, very weak ones sometimes try a Berač, forehand often settles for Klop,
points are smeared onto a partner's trick and cheap cards win point-rich
tricks.  Every choice that is not forced by the rules is either a fixed
preference or drawn from the ``random.Random`` handed in, so the same
generator state always gives the same deal.  The players only ever choose
legal actions; ``tarock.sim.mistakes`` injects the mistakes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from collections.abc import Sequence
from typing import NamedTuple, Protocol

from tarock.cards import (
    ABOVE,
    CARD_POINTS,
    CARD_SUIT,
    KINGS,
    KINGS_MASK,
    MOND,
    PAGAT,
    PLAIN_MASK,
    SKIS,
    SUIT_MASKS,
    TAROK,
    TAROK_MASK,
    TRULA_MASK,
    mask_of,
    raw_points,
)
from tarock.options import DEFAULT_SLOVENIAN
from tarock.rules.slovenian.contracts import CONTRACTS, Contract, allowed_contract, speaking_order

PAGAT_BIT = 1 << PAGAT
MOND_BIT = 1 << MOND
SKIS_BIT = 1 << SKIS
HIGH_TAROKS = sum(1 << c for c in range(15, 20))  # XVI .. XX
QUEENS = tuple(k - 1 for k in KINGS)
COLOUR_TAROKS = 4
"""A Barvni valat is only considered with at most this many taroks."""
UNCOUNTED = 99
"""``HandValue.losers`` of a hand nobody would play a Barvni valat with."""
TAROK_RISK = tuple(2.0 * (c / 21) ** 2 for c in range(22))
"""Berač danger of each tarok: high ones are forced to take tricks (fitted on simulated Berač games)."""

RANK = tuple(c if c < 22 else (c - 22) % 8 for c in range(54))
"""A card's rank within its suit (a tarok's is its number - 1; pip cards from the lowest, 0 to 7)."""
VALUE_KEY = tuple(CARD_POINTS[c] * 32 + RANK[c] for c in range(54))
"""What a card is worth keeping: points, then rank.  The lowest is thrown away first (trula cards
come last among taroks); in negative games the highest that still loses is got rid of first."""
SMEAR_KEY = tuple(CARD_POINTS[c] * 32 - RANK[c] for c in range(54))
"""Smearing order: the card worth most, then the lowest (a king before a queen, a queen before a tarok)."""


def lowest(mask: int, key: tuple[int, ...]) -> int:
    """The card of a non-empty ``mask`` with the smallest ``key``."""
    best = -1
    best_key = 1 << 30
    while mask:
        low = mask & -mask
        card = low.bit_length() - 1
        if key[card] < best_key:
            best, best_key = card, key[card]
        mask ^= low
    return best


def highest(mask: int, key: tuple[int, ...]) -> int:
    """The card of a non-empty ``mask`` with the largest ``key``."""
    best = -1
    best_key = -(1 << 30)
    while mask:
        low = mask & -mask
        card = low.bit_length() - 1
        if key[card] > best_key:
            best, best_key = card, key[card]
        mask ^= low
    return best


def low_bit(mask: int) -> int:
    """The lowest card of a non-empty mask (the weakest, within one suit)."""
    return (mask & -mask).bit_length() - 1


def high_bit(mask: int) -> int:
    """The highest card of a non-empty mask (the strongest, within one suit)."""
    return mask.bit_length() - 1


# -- hand value and bidding ------------------------------------------------------


class HandValue(NamedTuple):
    """What a player sees in a dealt hand, as bidding rules of thumb use it.

    ``strength`` grows with taroks (high ones more), kings, guarded queens and
    short suits.  ``risk``, the danger of taking a trick in a Berač, grows
    with taroks (high ones most), with voids (a suit lead then forces a
    tarok) and with a suit whose lowest card is high.  ``losers`` estimates
    the tricks lost in a Barvni valat.  A named tuple: the compiled players
    hand its fields over as a tuple (``tarock.sim.compiled``), made into one
    at the cost of a tuple.
    """

    strength: float
    risk: float
    losers: int  # UNCOUNTED for a hand with more than COLOUR_TAROKS taroks: no Barvni valat then
    taroks: int
    honours: bool  # holds a king, the Škis or the Mond: no Berač then


def value_hand(hand: int) -> HandValue:
    """Rate a dealt hand (a mask) for bidding."""
    taroks = hand & TAROK_MASK
    n_taroks = taroks.bit_count()
    strength = n_taroks + (hand & HIGH_TAROKS).bit_count() + 3.0 * (hand & (MOND_BIT | SKIS_BIT)).bit_count()
    strength += 3.0 * (hand & KINGS_MASK).bit_count()
    risk = 0.4 * n_taroks
    while taroks:
        low = taroks & -taroks
        risk += TAROK_RISK[low.bit_length() - 1]
        taroks ^= low
    lowest_led = 0
    for suit in range(1, 5):
        cards = hand & SUIT_MASKS[suit]
        length = cards.bit_count()
        if length == 0:
            strength += 1.5
            risk += 2.3
            continue
        if length == 1:
            strength += 0.5
        elif hand >> QUEENS[suit - 1] & 1:
            strength += 1.0
        lowest_led = max(lowest_led, RANK[low_bit(cards)])
    risk += 0.2 * lowest_led
    losers = _losers(hand) if n_taroks <= COLOUR_TAROKS else UNCOUNTED
    return HandValue(strength, risk, losers, n_taroks, bool(hand & (KINGS_MASK | MOND_BIT | SKIS_BIT)))


def _losers(hand: int) -> int:
    """Tricks lost playing for all of them without trumps: per suit (taroks one too), the cards
    below the top run, unless the run clears the suit.

    A run of ``s`` top cards clears a suit whose ``o`` outside cards are
    spread over the other hands once ``s`` exceeds ``o / 3``.
    """
    total = 0
    for mask in SUIT_MASKS:
        mine = hand & mask
        if not mine:
            continue
        outside = mask & ~hand
        length = mine.bit_count()
        run = (mine & ABOVE[high_bit(outside)]).bit_count() if outside else length
        if run < length and run < (outside.bit_count() + 2) // 3 + 1:
            total += length - run
    return total


@dataclass(frozen=True, slots=True)
class BidStyle:
    """Thresholds of one table size: the hand strength each positive contract needs, and the rest."""

    positive: tuple[tuple[str, float], ...]
    berac_risk: float
    odprti_risk: float
    valat_strength: float
    valat_taroks: int
    colour_losers: int


STYLES: dict[int, BidStyle] = {
    4: BidStyle(
        positive=(("tri", 13.0), ("dva", 15.5), ("ena", 17.8), ("solo_tri", 19.5), ("solo_dva", 20.5),
                  ("solo_ena", 21.5), ("solo_brez", 24.5)),
        berac_risk=2.7, odprti_risk=1.4, valat_strength=25.0, valat_taroks=8, colour_losers=4,
    ),
    3: BidStyle(
        positive=(("tri", 15.0), ("dva", 18.0), ("ena", 20.0), ("solo_brez", 27.0)),
        berac_risk=3.0, odprti_risk=2.2, valat_strength=28.0, valat_taroks=10, colour_losers=5,
    ),
}


def acceptable_contracts(value: HandValue, seat: int, n: int, rng: random.Random) -> tuple[Contract, ...]:
    """The contracts this player would play, lowest first (empty: passes at once).

    A mood drawn per deal makes the same hand sometimes bolder, sometimes
    more careful; Tri belongs to forehand.
    """
    style = STYLES[n]
    mood = rng.gauss(0.0, 1.0)
    strength = value.strength + mood
    names = [name for name, need in style.positive if strength >= need and (name != FOREHAND_WISH or seat == 0)]
    if not value.honours:
        risk = value.risk - 0.3 * mood
        if risk <= style.berac_risk:
            names.append("berac")
        if risk <= style.odprti_risk:
            names.append("odprti_berac")
    if value.losers <= style.colour_losers:
        names.append("barvni_valat")
    if strength >= style.valat_strength and value.taroks >= style.valat_taroks:
        names.append("valat")
    return contracts_named(tuple(names))


FOREHAND_WISH = "tri"
"""The positive contract only forehand wishes for (``acceptable_contracts``)."""


def wish_order(n: int) -> tuple[str, ...]:
    """Every name ``acceptable_contracts`` may list at a table of ``n``, in the order it lists them."""
    return (*(name for name, _ in STYLES[n].positive), "berac", "odprti_berac", "barvni_valat", "valat")


def contracts_named(names: tuple[str, ...]) -> tuple[Contract, ...]:
    """The contracts of ``names``, lowest first: one tuple per set of names (a few dozen), so that
    ``run_bidding`` remembers auctions by their identity."""
    chosen = _ACCEPTABLE.get(names)
    if chosen is None:
        chosen = _ACCEPTABLE[names] = tuple(sorted((CONTRACTS[name] for name in names), key=lambda c: c.rank))
    return chosen


_ACCEPTABLE: dict[tuple[str, ...], tuple[Contract, ...]] = {}


@dataclass(frozen=True, slots=True)
class Bidding:
    """The bids spoken (seat, bid) and their outcome; ``declarer`` is None in Klop."""

    bids: tuple[tuple[int, str], ...]
    contract: Contract
    declarer: int | None


def _may_bid(contract: Contract, seat: int, n: int, best: Contract | None, holder: int | None,
             others_out: bool) -> bool:
    """Whether ``seat`` may bid ``contract`` now: higher than the holder, or equal with priority."""
    if not allowed_contract(contract, n):
        return False
    if contract.forehand_only and not (seat == 0 and others_out):
        return False
    if best is None or holder is None:
        return True
    return contract.rank > best.rank or (contract.rank == best.rank and seat < holder)


def run_bidding(wants: list[tuple[Contract, ...]], n: int) -> Bidding:
    """Play out the bidding (``bidding_order`` forehand_last): each player bids the lowest contract
    they would play that is still allowed, or passes for good.

    Forehand, when everyone else has passed, names the highest contract they
    would play, or Klop.  The winner raises to their highest in a final
    declaration when the others have dropped out below it.
    """
    key = (n, *map(id, wants))
    known = _AUCTIONS.get(key)
    if known is not None:  # the wishes it was worked out for are kept alive with it: the ids are theirs
        return known[1]
    bidding = _auction(wants, n)
    if len(_AUCTIONS) >= 1 << 16:
        _AUCTIONS.clear()
    _AUCTIONS[key] = (tuple(wants), bidding)
    return bidding


_AUCTIONS: dict[tuple[int, ...], tuple[tuple[tuple[Contract, ...], ...], Bidding]] = {}
"""Auctions by the table size and the identity of each seat's wishes: the same few wishes meet again and
again (``acceptable_contracts`` hands out one tuple per set)."""


def _auction(wants: list[tuple[Contract, ...]], n: int) -> Bidding:
    """``run_bidding``, worked out."""
    order = speaking_order(n, DEFAULT_SLOVENIAN)
    passed: set[int] = set()
    bids: list[tuple[int, str]] = []
    best: Contract | None = None
    holder: int | None = None
    turn = 0
    while True:
        active = [s for s in range(n) if s not in passed]
        if holder is not None and active == [holder]:
            top = wants[holder][-1] if wants[holder] else best
            if best is not None and top is not None and top.rank > best.rank:
                bids.append((holder, top.name))
                best = top
            break
        seat = order[turn % n]
        turn += 1
        if seat in passed:
            continue
        others_out = all(s in passed for s in range(1, n))
        if seat == 0 and others_out and holder is None:
            best = wants[0][-1] if wants[0] else CONTRACTS["klop"]
            holder = 0
            bids.append((0, best.name))
            break
        choices = [c for c in wants[seat] if _may_bid(c, seat, n, best, holder, others_out)]
        if not choices:
            passed.add(seat)
            bids.append((seat, "pass"))
            continue
        best, holder = choices[0], seat
        bids.append((seat, best.name))
    assert best is not None
    return Bidding(tuple(bids), best, None if best.is_klop else holder)


# -- king, talon, stash ------------------------------------------------------------


def call_king(hand: int, rng: random.Random) -> int:
    """A king the declarer does not hold, of the suit they hold most cards of (ties drawn).

    Holding all four, they call one of their own and play alone.
    """
    missing = [k for k in KINGS if not hand >> k & 1]
    if not missing:
        return rng.choice(KINGS)
    longest = max((hand & SUIT_MASKS[CARD_SUIT[k]]).bit_count() for k in missing)
    return rng.choice([k for k in missing if (hand & SUIT_MASKS[CARD_SUIT[k]]).bit_count() == longest])


def pick_talon(talon: list[int], group: int) -> tuple[int, ...]:
    """The talon group with the most card value (then the most taroks; the first on a tie)."""
    best: tuple[int, ...] = ()
    best_worth = (-1, -1)
    for i in range(0, len(talon), group):
        cards = tuple(talon[i:i + group])
        mask = mask_of(cards)
        worth = (raw_points(mask), (mask & TAROK_MASK).bit_count())
        if worth > best_worth:  # strictly: the first of equal groups stays
            best, best_worth = cards, worth
    return best


def choose_stash(hand: int, k: int, called_king: int | None) -> int:
    """``k`` cards to lay away, legally: suit cards (never kings) first, emptying the shortest suits
    with the most points (they count for the declarer), taroks (never trula cards) only when no
    other suit card is left, the lowest first.  The called suit is kept for a lead to the partner."""
    spare = hand & PLAIN_MASK & ~KINGS_MASK
    if spare.bit_count() <= k:
        chosen = spare
        taroks = hand & TAROK_MASK & ~TRULA_MASK
        while chosen.bit_count() < k:
            low = taroks & -taroks
            chosen |= low
            taroks ^= low
        return chosen
    called_suit = CARD_SUIT[called_king] if called_king is not None else -1

    def suit_order(suit: int) -> tuple[int, int, int]:
        return (bool(hand & KINGS_MASK & SUIT_MASKS[suit]), suit == called_suit,
                (spare & SUIT_MASKS[suit]).bit_count())

    chosen = 0
    for suit in sorted(range(1, 5), key=suit_order):
        cards = spare & SUIT_MASKS[suit]
        while cards and chosen.bit_count() < k:
            card = highest(cards, SMEAR_KEY)
            chosen |= 1 << card
            cards &= ~(1 << card)
    return chosen


# -- announcements -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Announcing:
    """The announcements and kontras of a deal in the order spoken, and who announced pagat ultimo."""

    items: tuple[dict[str, object], ...]
    pagat_ultimo: int | None


NO_ANNOUNCEMENTS = Announcing((), None)


def announce(rng: random.Random, contract: Contract, names: tuple[str, ...], declarer: int,
             partner: int | None, hands: list[int], values: list[HandValue]) -> Announcing:
    """Bonuses, then kontras, sometimes, in Tri … Solo ena (``hands`` after the talon exchange)."""
    if not contract.bonuses:
        return NO_ANNOUNCEMENTS
    side = (declarer,) if partner is None else (declarer, partner)
    defenders = [s for s in range(len(names)) if s not in side]
    items, pagat = _bonuses(rng, names, declarer, defenders, hands)
    items += _kontras(rng, names, declarer, defenders, values, pagat in side)
    return Announcing(tuple(items), pagat)


def _bonuses(rng: random.Random, names: tuple[str, ...], declarer: int, defenders: list[int],
             hands: list[int]) -> tuple[list[dict[str, object]], int | None]:
    """The declarer announces trula holding two or three of its cards, all kings holding three;
    a Pagat holder long in taroks announces pagat ultimo; a defender with the Škis now and then
    announces Mondfang.  Returns the announcements and the pagat ultimo announcer."""
    items: list[dict[str, object]] = []
    own = hands[declarer]
    if (own & TRULA_MASK).bit_count() >= 2 and rng.random() < (0.5 if own & TRULA_MASK == TRULA_MASK else 0.1):
        items.append({"player": names[declarer], "bonus": "trula"})
    if (own & KINGS_MASK).bit_count() >= 3 and rng.random() < 0.25:
        items.append({"player": names[declarer], "bonus": "kings"})
    pagat = next((s for s, hand in enumerate(hands) if hand & PAGAT_BIT), None)
    long_taroks = 7 if len(names) == 4 else 9
    if pagat is None or (hands[pagat] & TAROK_MASK).bit_count() < long_taroks or rng.random() >= 0.2:
        pagat = None
    else:
        items.append({"player": names[pagat], "bonus": "pagat_ultimo"})
    skis = next((s for s in defenders if hands[s] & SKIS_BIT), None)
    if skis is not None and rng.random() < 0.03:
        items.append({"player": names[skis], "bonus": "mondfang"})
    return items, pagat


def _kontras(rng: random.Random, names: tuple[str, ...], declarer: int, defenders: list[int],
             values: list[HandValue], side_pagat: bool) -> list[dict[str, object]]:
    """The strongest defender, holding a hand worth a Dva, sometimes kontras the game (×2) and a
    very strong declarer answers re (×4); a pagat ultimo of the declarer's side is sometimes
    kontra'd too."""
    items: list[dict[str, object]] = []
    need = dict(STYLES[len(names)].positive)
    strongest = max(defenders, key=lambda s: values[s].strength)
    if values[strongest].strength >= need["dva"] and rng.random() < 0.35:
        items.append({"player": names[strongest], "kontra": "game", "level": 2})
        if values[declarer].strength >= need["ena"] + 2.0 and rng.random() < 0.3:
            items.append({"player": names[declarer], "kontra": "game", "level": 4})
    if side_pagat and rng.random() < 0.15:
        items.append({"player": names[strongest], "kontra": "pagat_ultimo", "level": 2})
    return items


# -- card play ---------------------------------------------------------------------


class PlayedGame(Protocol):
    """What the card play's rules of thumb need to know of the game (a Slovenian ``Contract``, or
    ``tarock.sim.koenigrufen_players.PlayView``)."""

    @property
    def trumps(self) -> bool: ...
    @property
    def negative(self) -> bool: ...
    @property
    def is_valat(self) -> bool: ...



def _pagat_keeper(contract: PlayedGame, hands: list[int], pagat_ultimo: int | None) -> int:
    """The seat that keeps its Pagat for the last trick (-1: nobody): in a game with taroks as
    trumps, the Pagat's holder who announced pagat ultimo or holds mostly taroks."""
    if not contract.trumps or contract.negative:
        return -1
    holder = next((s for s, hand in enumerate(hands) if hand & PAGAT_BIT), -1)
    if holder < 0:
        return -1
    long_in_taroks = 2 * (hands[holder] & TAROK_MASK).bit_count() > hands[holder].bit_count()
    return holder if holder == pagat_ultimo or long_in_taroks else -1


class TableView(Protocol):
    """What the card play's rules of thumb read of the table (``tarock.game.Game`` or
    ``tarock.sim.table.Table``): the hands and the unfinished trick's cards."""

    @property
    def hands(self) -> list[int]: ...
    @property
    def current_trick(self) -> Sequence[int]: ...
    def tricks_taken(self, seat: int) -> int: ...


class CardPlay:
    """Chooses the cards of one deal for every seat with simple, deterministic rules of thumb.

    Positive games: win a trick with points as cheaply as possible, smear
    points onto a trick a known partner is winning, lead kings of suits not
    yet played, draw taroks when long in them, keep the Pagat for the last
    trick when strong in taroks; otherwise play low.  Negative games: duck
    under the winning card with the biggest card that still loses.  A player
    knows their partner once the called king has been played (the partner
    knows the declarer from the start).
    """

    __slots__ = ("called_king", "contract", "declarer", "fresh", "leader", "n", "partner", "revealed",
                 "save_pagat", "seen", "trumps")

    def __init__(self, contract: PlayedGame, n: int, declarer: int | None, partner: int | None,
                 called_king: int | None, hands: list[int], pagat_ultimo: int | None, leader: int) -> None:
        self.contract = contract
        self.trumps = contract.trumps
        self.n = n
        self.declarer = declarer
        self.partner = partner
        self.called_king = called_king
        self.revealed = partner is None
        self.save_pagat = _pagat_keeper(contract, hands, pagat_ultimo)
        self.seen = 0
        self.fresh = PLAIN_MASK
        self.leader = leader

    def state(self) -> tuple[int, ...]:
        """This player's state as the compiled players take it (``tarock/sim/_simplay.c``, ``play``): table
        size, the game's switches, the seats and the called king (-1 for none), what is known so far, and
        ``KoenigrufenPlay``'s declarers (a mask of seats) and trick target (0 here: none)."""
        return self._state(0, 0)

    def _state(self, declarers: int, target: int) -> tuple[int, ...]:
        none = -1
        return (self.n, self.trumps, self.contract.negative, self.contract.is_valat,
                none if self.declarer is None else self.declarer, none if self.partner is None else self.partner,
                none if self.called_king is None else self.called_king, self.save_pagat, self.revealed,
                self.leader, self.seen, self.fresh, declarers, target)

    def trick_done(self, cards: tuple[int, ...], winner: int) -> None:
        """Remember what was played and who leads next."""
        mask = 0
        for card in cards:
            mask |= 1 << card
        self.seen |= mask
        if self.called_king is not None and mask >> self.called_king & 1:
            self.revealed = True
        if self.fresh & mask:
            for suit_mask in SUIT_MASKS[1:]:
                if mask & suit_mask:
                    self.fresh &= ~suit_mask
        self.leader = winner

    def friend(self, seat: int, other: int) -> bool:
        """Whether ``seat`` knows ``other`` plays on its side."""
        if self.declarer is None or seat == other:
            return seat == other
        mine = seat == self.declarer or seat == self.partner
        theirs = other == self.declarer or other == self.partner
        if mine != theirs:
            return False
        return self.revealed or (seat == self.partner and other == self.declarer)

    def choose(self, game: TableView, seat: int, legal: int) -> int:
        """The card ``seat`` plays from the ``legal`` mask."""
        if not legal & (legal - 1):
            return low_bit(legal)
        if seat == self.save_pagat and legal & ~PAGAT_BIT:
            legal &= ~PAGAT_BIT
        trick = game.current_trick
        if self.contract.negative:
            return self._negative(trick, seat, legal)
        hand = game.hands[seat]
        if not trick:
            return self._lead(seat, legal, hand)
        if self.contract.is_valat:
            return self._valat_follow(trick, seat, legal)
        return self._follow(trick, seat, legal, hand)

    # -- helpers
    def _winning(self, trick: Sequence[int]) -> tuple[int, int]:
        """(card, seat) currently winning the unfinished trick.

        The winner is always of the led suit or a tarok, so a card beats it
        when it is higher in the winner's suit, or a tarok (taroks are the
        cards below 22) on a suit card when taroks are trumps.
        """
        trumps = self.trumps
        win, pos = trick[0], 0
        for i in range(1, len(trick)):
            card = trick[i]
            if (card > win and CARD_SUIT[card] == CARD_SUIT[win]) or (trumps and card < 22 <= win):
                win, pos = card, i
        return win, (self.leader + pos) % self.n

    def _beating(self, legal: int, win: int) -> int:
        """The cards of ``legal`` that beat the winning card ``win``."""
        if self.trumps and CARD_SUIT[win] != TAROK:
            return legal & (ABOVE[win] | TAROK_MASK)
        return legal & ABOVE[win]

    # -- negative games
    def _negative(self, trick: Sequence[int], seat: int, legal: int) -> int:
        """Klop and Berač: lead low; duck under the winning card with the biggest card that still
        loses, and when forced to win, win with the biggest card if last (else the smallest).  A
        Berač defender helps the declarer into tricks: ducks under the declarer's winning card,
        otherwise plays low so the declarer, still to play, must beat a low card."""
        if not trick:
            return lowest(legal, VALUE_KEY)
        win, win_seat = self._winning(trick)
        under = legal & ~self._beating(legal, win)
        last = len(trick) == self.n - 1
        if self.declarer is None or seat == self.declarer or win_seat == self.declarer:
            if under:
                return highest(under, VALUE_KEY)
            return highest(legal, VALUE_KEY) if last else lowest(legal, VALUE_KEY)
        return lowest(legal, VALUE_KEY)

    # -- positive games
    def _lead(self, seat: int, legal: int, hand: int) -> int:
        """A king of a suit nobody has played yet; the declarer, partner unknown, leads the called
        suit; the declarer's side, long in taroks, draws them from the top (the Mond only when the
        Škis is no threat); else the smallest suit card."""
        if self.contract.is_valat and seat == self.declarer:
            return self._valat_lead(legal, hand)
        kings = legal & KINGS_MASK & self.fresh
        if kings:
            return low_bit(kings)
        on_side = seat == self.declarer or seat == self.partner
        if seat == self.declarer and not self.revealed and self.called_king is not None:
            called_suit = legal & SUIT_MASKS[CARD_SUIT[self.called_king]]
            if called_suit:
                return low_bit(called_suit)
        taroks = legal & TAROK_MASK if self.trumps else 0
        if on_side and taroks and 2 * taroks.bit_count() >= legal.bit_count():
            top = high_bit(taroks)
            if top == MOND and not (self.seen | hand) & SKIS_BIT and taroks & ~MOND_BIT:
                top = high_bit(taroks & ~MOND_BIT)
            return top
        plain = legal & PLAIN_MASK
        return lowest(plain or legal, VALUE_KEY)

    def _valat_lead(self, legal: int, hand: int) -> int:
        """Playing for every trick: lead a card no outside card of its suit beats, taroks first."""
        outside = ~(self.seen | hand)
        masters = 0
        rest = legal
        while rest:
            low = rest & -rest
            card = low.bit_length() - 1
            if not ABOVE[card] & outside:
                masters |= low
            rest ^= low
        if self.trumps and masters & TAROK_MASK:
            return high_bit(masters & TAROK_MASK)
        return high_bit(masters or legal)

    def _valat_follow(self, trick: Sequence[int], seat: int, legal: int) -> int:
        """Every trick counts: the declarer wins it (as high as needed while others are still to
        play), a defender beats the declarer's card with the strongest card that can."""
        win, win_seat = self._winning(trick)
        beat = self._beating(legal, win)
        if beat and (seat == self.declarer or win_seat == self.declarer):
            return low_bit(beat) if len(trick) == self.n - 1 else high_bit(beat)
        return lowest(legal, VALUE_KEY)

    def _follow(self, trick: Sequence[int], seat: int, legal: int, hand: int) -> int:
        """Smear onto a known partner's safe trick; take a trick with points (or the last place's
        trick) with the smallest card that beats, keeping the Pagat out of danger and the Mond
        from the Škis; else throw the least valuable card."""
        win, win_seat = self._winning(trick)
        last = len(trick) == self.n - 1
        friend = self.friend(seat, win_seat)
        if friend and (last or (CARD_SUIT[win] == TAROK and win >= 18)):
            return highest(legal & ~TRULA_MASK or legal, SMEAR_KEY)
        beat = self._beating(legal, win)
        if beat and not friend and (last or any(CARD_POINTS[c] > 1 for c in trick)):
            card = low_bit(beat)
            if card == PAGAT and not last and beat & ~PAGAT_BIT:
                card = low_bit(beat & ~PAGAT_BIT)
            if card != MOND or last or (self.seen | hand) & SKIS_BIT:
                return card
        return lowest(legal, VALUE_KEY)
