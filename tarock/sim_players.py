"""Heuristic players for the session simulator: bidding, king call, talon, stash, announcements, card play.

Each decision is a small rule of thumb over card masks, the way a club player
decides at the table, so simulated records look like real play: strong hands
bid, very weak ones sometimes try a Berač, forehand often settles for Klop,
points are smeared onto a partner's trick and cheap cards win point-rich
tricks.  Every choice that is not forced by the rules is either a fixed
preference or drawn from the ``random.Random`` handed in, so the same
generator state always gives the same deal.  The players only ever choose
legal actions; ``tarock.sim_mistakes`` injects the mistakes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

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
    beats,
    count,
    raw_points,
)
from tarock.game import Game
from tarock.options import DEFAULT_SLOVENIAN
from tarock.slovenian import CONTRACTS, Contract, allowed_contract, speaking_order

PAGAT_BIT = 1 << PAGAT
MOND_BIT = 1 << MOND
SKIS_BIT = 1 << SKIS
HIGH_TAROKS = sum(1 << c for c in range(15, 20))  # XVI .. XX
QUEENS = tuple(k - 1 for k in KINGS)

_RANK = tuple(c if c < 22 else (c - 22) % 8 for c in range(54))
LOW_KEY = tuple(CARD_POINTS[c] * 32 + _RANK[c] for c in range(54))
"""Throw-away order: the card worth least, then the lowest; trula cards come last among taroks."""
SMEAR_KEY = tuple(CARD_POINTS[c] * 32 - _RANK[c] for c in range(54))
"""Smearing order: the card worth most, then the lowest (a king before a queen, a queen before a tarok)."""
DUMP_KEY = tuple(CARD_POINTS[c] * 32 + _RANK[c] for c in range(54))
"""Negative games: get rid of the biggest, most dangerous card first."""


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


@dataclass(frozen=True, slots=True)
class HandValue:
    """What a player sees in a dealt hand, as bidding rules of thumb use it.

    ``strength`` grows with taroks (high ones more), kings, guarded queens and
    short suits; ``risk`` with high cards, which take tricks in a Berač;
    ``losers`` estimates the tricks lost when playing for every trick.
    """

    strength: float
    risk: float
    losers: int
    tarok_losers: int
    taroks: int
    honours: bool  # holds a king, the Škis or the Mond: no Berač then


def value_hand(hand: int) -> HandValue:
    """Rate a dealt hand (a mask) for bidding."""
    taroks = hand & TAROK_MASK
    strength = count(taroks) + count(hand & HIGH_TAROKS) + 3.0 * count(hand & (MOND_BIT | SKIS_BIT))
    strength += 3.0 * count(hand & KINGS_MASK)
    risk = 0.0
    for card in _cards(hand):
        risk += max(0, card - 6) * 0.5 if card < 22 else _RANK[card]
    for suit in range(1, 5):
        length = count(hand & SUIT_MASKS[suit])
        strength += 1.5 if length == 0 else 0.5 if length == 1 else 0.0
        if hand >> QUEENS[suit - 1] & 1 and length > 1:
            strength += 1.0
    losers, tarok_losers = _losers(hand)
    return HandValue(strength, risk, losers, tarok_losers, count(taroks),
                     bool(hand & (KINGS_MASK | MOND_BIT | SKIS_BIT)))


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _losers(hand: int) -> tuple[int, int]:
    """(all losers, tarok losers): per suit, the cards below the top run unless the run clears the suit.

    A run of ``s`` top cards clears a suit whose ``o`` outside cards are
    spread over three other hands once ``s`` exceeds ``o / 3``.
    """
    total = 0
    tarok_losers = 0
    for suit in range(5):
        mask = SUIT_MASKS[suit]
        mine = hand & mask
        if not mine:
            continue
        outside = mask & ~hand
        length = count(mine)
        run = count(mine & ABOVE[high_bit(outside)]) if outside else length
        lost = 0 if run == length or run >= (count(outside) + 2) // 3 + 1 else length - run
        total += lost
        if suit == TAROK:
            tarok_losers = lost
    return total, tarok_losers


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
        berac_risk=20.5, odprti_risk=15.5, valat_strength=25.0, valat_taroks=8, colour_losers=4,
    ),
    3: BidStyle(
        positive=(("tri", 15.0), ("dva", 18.0), ("ena", 20.0), ("solo_brez", 27.0)),
        berac_risk=31.5, odprti_risk=27.0, valat_strength=28.0, valat_taroks=10, colour_losers=5,
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
    names = [name for name, need in style.positive if strength >= need and (name != "tri" or seat == 0)]
    if not value.honours:
        risk = value.risk - 2.0 * mood
        if risk <= style.berac_risk:
            names.append("berac")
        if risk <= style.odprti_risk:
            names.append("odprti_berac")
    if value.losers <= style.colour_losers and value.taroks <= 4:
        names.append("barvni_valat")
    if strength >= style.valat_strength and value.taroks >= style.valat_taroks:
        names.append("valat")
    return tuple(sorted((CONTRACTS[name] for name in names), key=lambda c: c.rank))


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
    longest = max(count(hand & SUIT_MASKS[CARD_SUIT[k]]) for k in missing)
    return rng.choice([k for k in missing if count(hand & SUIT_MASKS[CARD_SUIT[k]]) == longest])


def pick_talon(talon: list[int], group: int) -> tuple[int, ...]:
    """The talon group with the most card value (then the most taroks; the first on a tie)."""
    groups = [tuple(talon[i:i + group]) for i in range(0, len(talon), group)]
    return max(groups, key=lambda g: (raw_points(_mask(g)), count(_mask(g) & TAROK_MASK)))


def _mask(cards: tuple[int, ...] | list[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def choose_stash(hand: int, k: int, called_king: int | None) -> int:
    """``k`` cards to lay away, legally: suit cards (never kings) first, emptying the shortest suits
    with the most points (they count for the declarer), taroks (never trula cards) only when no
    other suit card is left, the lowest first.  The called suit is kept for a lead to the partner."""
    spare = hand & PLAIN_MASK & ~KINGS_MASK
    if count(spare) <= k:
        chosen = spare
        taroks = hand & TAROK_MASK & ~TRULA_MASK
        while count(chosen) < k:
            low = taroks & -taroks
            chosen |= low
            taroks ^= low
        return chosen
    called_suit = CARD_SUIT[called_king] if called_king is not None else -1

    def suit_order(suit: int) -> tuple[int, int, int]:
        return (bool(hand & KINGS_MASK & SUIT_MASKS[suit]), suit == called_suit,
                count(spare & SUIT_MASKS[suit]))

    chosen = 0
    for suit in sorted(range(1, 5), key=suit_order):
        cards = spare & SUIT_MASKS[suit]
        while cards and count(chosen) < k:
            card = highest(cards, SMEAR_KEY)
            chosen |= 1 << card
            cards &= ~(1 << card)
    return chosen


# -- announcements -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Announcing:
    """The announcements and kontras of a deal, in the order spoken, and who keeps the Pagat to the end."""

    items: tuple[dict[str, object], ...]
    pagat_ultimo: int | None  # seat that announced pagat ultimo


def announce(rng: random.Random, contract: Contract, names: tuple[str, ...], declarer: int,
             partner: int | None, hands: list[int], values: list[HandValue]) -> Announcing:
    """Bonuses and kontras, sometimes, in Tri … Solo ena.

    The declarer's side announces trula or all kings when it holds most of
    those cards; a Pagat holder long in taroks announces pagat ultimo; a
    strong defender sometimes kontras the game (×2), and a strong declarer
    answers re (×4); a defender with the Škis now and then announces Mondfang.
    """
    if not contract.bonuses:
        return Announcing((), None)
    n = len(names)
    side = {declarer} if partner is None else {declarer, partner}
    items: list[dict[str, object]] = []
    own = hands[declarer]
    if count(own & TRULA_MASK) >= 2 and rng.random() < (0.5 if own & TRULA_MASK == TRULA_MASK else 0.1):
        items.append({"player": names[declarer], "bonus": "trula"})
    if count(own & KINGS_MASK) >= 3 and rng.random() < 0.25:
        items.append({"player": names[declarer], "bonus": "kings"})
    pagat = next(s for s in range(n) if hands[s] & PAGAT_BIT) if any(h & PAGAT_BIT for h in hands) else None
    long_taroks = 7 if n == 4 else 9
    announced_pagat = None
    if pagat is not None and count(hands[pagat] & TAROK_MASK) >= long_taroks and rng.random() < 0.35:
        items.append({"player": names[pagat], "bonus": "pagat_ultimo"})
        announced_pagat = pagat
    defenders = [s for s in range(n) if s not in side]
    skis = next((s for s in defenders if hands[s] & SKIS_BIT), None)
    if skis is not None and rng.random() < 0.03:
        items.append({"player": names[skis], "bonus": "mondfang"})
    strongest = max(defenders, key=lambda s: values[s].strength)
    if values[strongest].strength >= STYLES[n].positive[2][1] and rng.random() < 0.3:
        items.append({"player": names[strongest], "kontra": "game", "level": 2})
        if values[declarer].strength >= STYLES[n].positive[3][1] and rng.random() < 0.3:
            items.append({"player": names[declarer], "kontra": "game", "level": 4})
    if announced_pagat is not None and announced_pagat in side and rng.random() < 0.15:
        items.append({"player": names[strongest], "kontra": "pagat_ultimo", "level": 2})
    return Announcing(tuple(items), announced_pagat)


# -- card play ---------------------------------------------------------------------


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

    __slots__ = ("contract", "n", "declarer", "partner", "called_king", "revealed", "save_pagat", "seen",
                 "fresh", "leader")

    def __init__(self, contract: Contract, n: int, declarer: int | None, partner: int | None,
                 called_king: int | None, hands: list[int], pagat_ultimo: int | None, leader: int) -> None:
        self.contract = contract
        self.n = n
        self.declarer = declarer
        self.partner = partner
        self.called_king = called_king
        self.revealed = partner is None
        self.save_pagat = -1
        if contract.trumps and not contract.negative:
            holder = next((s for s in range(n) if hands[s] & PAGAT_BIT), -1)
            if holder >= 0 and (holder == pagat_ultimo or count(hands[holder] & TAROK_MASK) * 2 > count(hands[holder])):
                self.save_pagat = holder
        self.seen = 0
        self.fresh = PLAIN_MASK
        self.leader = leader

    def trick_done(self, cards: tuple[int, ...], winner: int) -> None:
        """Remember what was played and who leads next."""
        for card in cards:
            self.seen |= 1 << card
        if self.called_king is not None and self.called_king in cards:
            self.revealed = True
        for suit in range(1, 5):
            if self.seen & SUIT_MASKS[suit]:
                self.fresh &= ~SUIT_MASKS[suit]
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

    def choose(self, game: Game, seat: int, legal: int) -> int:
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
        return self._follow(trick, seat, legal, hand)

    # -- helpers
    def _winning(self, trick: tuple[int, ...]) -> tuple[int, int]:
        """(card, seat) currently winning the unfinished trick."""
        led_suit = CARD_SUIT[trick[0]]
        win, pos = trick[0], 0
        for i in range(1, len(trick)):
            if beats(trick[i], win, led_suit, self.contract.trumps):
                win, pos = trick[i], i
        return win, (self.leader + pos) % self.n

    def _beating(self, legal: int, win: int) -> int:
        """The cards of ``legal`` that beat the winning card ``win``."""
        if self.contract.trumps and CARD_SUIT[win] != TAROK:
            return legal & (ABOVE[win] | TAROK_MASK)
        return legal & ABOVE[win]

    # -- negative games
    def _negative(self, trick: tuple[int, ...], seat: int, legal: int) -> int:
        if not trick:
            return lowest(legal, LOW_KEY)
        win, win_seat = self._winning(trick)
        under = legal & ~self._beating(legal, win)
        last = len(trick) == self.n - 1
        if self.declarer is None or seat == self.declarer or win_seat == self.declarer:
            if under:
                return highest(under, DUMP_KEY)
            return highest(legal, DUMP_KEY) if last else lowest(legal, LOW_KEY)
        return lowest(legal, LOW_KEY)  # a defender ahead of the declarer: leave the trick for the declarer

    # -- positive games
    def _lead(self, seat: int, legal: int, hand: int) -> int:
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
        taroks = legal & TAROK_MASK if self.contract.trumps else 0
        if on_side and taroks and 2 * count(taroks) >= count(legal):
            top = high_bit(taroks)
            if top == MOND and not (self.seen | hand) & SKIS_BIT and taroks & ~MOND_BIT:
                top = high_bit(taroks & ~MOND_BIT)
            return top
        plain = legal & PLAIN_MASK
        return lowest(plain or legal, LOW_KEY)

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
        if self.contract.trumps and masters & TAROK_MASK:
            return high_bit(masters & TAROK_MASK)
        return high_bit(masters or legal)

    def _follow(self, trick: tuple[int, ...], seat: int, legal: int, hand: int) -> int:
        win, win_seat = self._winning(trick)
        last = len(trick) == self.n - 1
        if self.friend(seat, win_seat) and (last or (CARD_SUIT[win] == TAROK and win >= 18)):
            return highest(legal & ~TRULA_MASK or legal, SMEAR_KEY)
        beat = self._beating(legal, win)
        if beat and (last or any(CARD_POINTS[c] > 1 for c in trick)) and not self.friend(seat, win_seat):
            card = low_bit(beat)
            if card == PAGAT and not last and beat & ~PAGAT_BIT:
                card = low_bit(beat & ~PAGAT_BIT)
            if card != MOND or last or (self.seen | hand) & SKIS_BIT:
                return card
        return lowest(legal, LOW_KEY)
