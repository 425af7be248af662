"""Play-outs of one dealt hand: how often the simulator's players win each contract with it, and what it scores.

A bidder knows their own twelve (three players: sixteen) cards and nothing else.  A play-out deals the unseen
cards at random around them (the talon and the other hands; a hand without a tarok is dealt again, as the
simulator does) -- a deal in which the hand wins the auction with the contract, the other seats wishing as the
simulator's players wish (``deals_won``: the figure is the one a bidder needs, how often the contract is won
*when declared*; a real declarer's opponents let them have it, in Tri at 3 players by passing, weaker than
a random deal's) -- then plays the contract as a session of ``tarock.sim.simulate`` would: the declarer calls a king
(4 players, Tri … Ena: ``tarock.sim.players.call_king``), takes the talon group it likes best and lays away
(``pick_talon``, ``choose_stash``), and every seat plays its cards by ``tarock.sim.players.CardPlay`` -- compiled
where it may run (``tarock.sim.table.Table.play_with``).  Nobody announces a bonus or a kontra, so the score is
the contract's own (game, difference and the silent bonuses, by the project's scorer; radelci none before).

The declarer sits in every seat in turn (play-out ``i`` at seat ``i mod n``: a typed hand has no seat; the
lead of trick 1 is forehand's, so the seat matters), except in the forehand's own contracts (Tri), always at
forehand; ``seat`` fixes it.

``estimate`` plays a contract out sequentially and stops once the 95 % Wilson interval of the win rate is no
wider than ``HALF_WIDTH`` either side (from ``MIN_PLAYOUTS`` on, checked every ``BATCH``) or at ``cap``
play-outs.  Play-out ``i`` draws from its own generator, ``random.Random(seed · 2³² + i)``, and the unseen cards
are dealt by walking one shuffled deck past the hand's own cards: two hands that differ in one card get the
same deals but for that card and a neighbour or two (common random numbers), so comparing them needs few
play-outs, and the same seed always gives the same figures.  ``paired`` goes further for two hands one card
apart: the very same deals, the traded card swapped; ``random_pair`` draws such pairs, one plainly the stronger
(bench/bench_playouts.py compares hands with the two).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from tarock.cards import CARD_POINTS, CARD_SUIT, CODES, N_CARDS, TAROK, TAROK_MASK, mask_of
from tarock.deal import Deal
from tarock.options import DEFAULT_SLOVENIAN
from tarock.rules.slovenian.contracts import CARDS_PER_HAND, CONTRACTS, TALON_SIZE, Contract, allowed_contract
from tarock.sim.compiled import call_king, choose_stash, pick_talon, shuffle, wishes
from tarock.sim.lane_score import score_playout
from tarock.sim.players import CardPlay, contracts_named, run_bidding
from tarock.sim.table import Table

HALF_WIDTH = 0.05
"""A contract's play-outs stop once its 95 % interval reaches this far, at most, either side of the rate."""
MIN_PLAYOUTS = 100
"""No contract stops before this many play-outs: a rate of 35 wins in 35 already has a narrow Wilson interval,
but 35 deals miss the rare loss of a strong hand."""
BATCH = 50
"""The stopping rule is checked every this many play-outs."""
CAP = 400
"""The most play-outs of one contract: at a rate near one half, an interval of ±5 points needs about 385."""
AUCTION_TRIES = 50
"""How many deals a play-out tries for one whose auction the declarer wins (``deals_won``) before it plays the
last anyway: a hand nobody would let declare a contract still gets its figure."""
Z95 = 1.959963984540054
"""The 97.5 % quantile of the standard normal distribution (two-sided 95 %)."""

PLAYERS = {3: ("A", "B", "C"), 4: ("A", "B", "C", "D")}
"""The names a play-out's table is scored under (the scorer wants names; nobody reads them)."""


@dataclass(frozen=True, slots=True)
class Estimate:
    """One contract's play-outs: how many, how many the declarer's side won, and the declarer's total score."""

    contract: str
    playouts: int
    wins: int
    score_total: int

    @property
    def win_probability(self) -> float:
        return self.wins / self.playouts

    @property
    def interval(self) -> tuple[float, float]:
        """The 95 % Wilson interval of the win rate."""
        return wilson(self.wins, self.playouts)

    @property
    def expected_score(self) -> float:
        """The declarer's mean score over the play-outs."""
        return self.score_total / self.playouts


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The 95 % Wilson score interval of ``k`` successes in ``n > 0`` trials, exactly 0 (1) at its end when
    ``k`` is 0 (``n``): the formula of ``analysis.stats``, for one pair of counts."""
    z2 = z * z
    centre = k + z2 / 2
    half = z * math.sqrt(k * (n - k) / n + z2 / 4)
    low = 0.0 if k <= 0 else (centre - half) / (n + z2)
    high = 1.0 if k >= n else (centre + half) / (n + z2)
    return low, high


def biddable(n_players: int) -> tuple[Contract, ...]:
    """Every contract a player may declare at a table of ``n_players`` under the simulator's options, in ladder
    order (Klop is nobody's to declare)."""
    return tuple(c for c in CONTRACTS.values()
                 if not c.is_klop and allowed_contract(c, n_players, DEFAULT_SLOVENIAN))


def deal_around(rng: random.Random, hand: int, n_players: int, seat: int, redeal_without_tarok: bool = True
                ) -> tuple[list[int], list[int]]:
    """The other hands and the talon dealt at random around ``hand`` (a mask) at ``seat``: (each seat's mask,
    the talon in dealt order).  One shuffle of the whole deck, walked past the hand's cards: the talon first, then
    the other seats in order; dealt again while another hand has no tarok (unless not ``redeal_without_tarok``:
    Königrufen deals stand)."""
    per = CARDS_PER_HAND[n_players]
    others = [s for s in range(n_players) if s != seat]
    while True:
        deck = list(range(N_CARDS))
        shuffle(rng, deck)
        unseen = [c for c in deck if not hand >> c & 1]
        talon = unseen[:TALON_SIZE]
        hands = [0] * n_players
        hands[seat] = hand
        for i, other in enumerate(others):
            mask = 0
            for card in unseen[TALON_SIZE + i * per:TALON_SIZE + (i + 1) * per]:
                mask |= 1 << card
            hands[other] = mask
        if not redeal_without_tarok or all(hands[s] & TAROK_MASK for s in others):
            return hands, talon


def auction_won(rng: random.Random, hands: list[int], contract: Contract, seat: int) -> bool:
    """Whether ``seat``, wishing for ``contract`` alone, declares it in the simulator's auction of this deal (the
    others wishing as the simulator's players wish: ``tarock.sim.compiled.wishes``, moods drawn from ``rng``)."""
    wants = list(wishes(rng, hands)[1])
    wants[seat] = contracts_named((contract.name,))
    bidding = run_bidding(wants, len(hands))
    return bidding.declarer == seat and bidding.contract.name == contract.name


def deals_won(rng: random.Random, hand: int, n_players: int, contract: Contract, seat: int,
              trade: int = 0) -> list[tuple[list[int], list[int]]]:
    """A deal around ``hand`` (``deal_around``) in which ``seat`` wins the auction with ``contract``
    (``auction_won``): dealt again until it does, ``AUCTION_TRIES`` times at most (then the last deal stands).
    With ``trade`` (two cards: one of the hand's, one it lacks) the deal's twin too, the two cards swapped, whose
    auction must go through as well."""
    for _ in range(AUCTION_TRIES):
        hands, talon = deal_around(rng, hand, n_players, seat)
        deals = [(hands, talon)]
        if trade:
            deals.append(([h ^ trade if h & trade else h for h in hands], [_traded(c, trade, hand) for c in talon]))
        state = rng.getstate()
        won = True
        for dealt, _ in deals:  # each auction from the same draws: the twin's moods are the deal's
            rng.setstate(state)
            won = auction_won(rng, dealt, contract, seat) and won
        if won:
            break
    return deals


def _traded(card: int, trade: int, hand: int) -> int:
    """A talon card of a deal around ``hand`` in its twin's: the card the hand trades in becomes the one it gives."""
    return (trade & hand).bit_length() - 1 if 1 << card & trade else card


def play_out(hand: int, n_players: int, contract: Contract, rng: random.Random, seat: int) -> tuple[bool, int]:
    """One play-out of ``contract`` declared by ``seat`` holding ``hand``: (whether the declarer's side won, the
    declarer's score)."""
    ((hands, talon),) = deals_won(rng, hand, n_players, contract, seat)
    return play_dealt(hands, talon, contract, rng, seat)


def play_dealt(hands: list[int], talon: list[int], contract: Contract, rng: random.Random,
               seat: int) -> tuple[bool, int]:
    """``play_out`` of a deal dealt: the king call, the talon and the stash, the card play, the score."""
    n_players = len(hands)
    hand = hands[seat]
    hands = list(hands)
    king = partner = None
    if contract.calls_king and n_players == 4:
        king = call_king(hand, rng)
        partner = next((s for s in range(n_players) if s != seat and hands[s] >> king & 1), None)
    pick: tuple[int, ...] = ()
    stash = 0
    if contract.talon_group:
        pick = pick_talon(talon, contract.talon_group)
        after = hand
        for card in pick:
            after |= 1 << card
        stash = choose_stash(after, len(pick), king)
        hands[seat] = after & ~stash
    dealt = [sorted(c for c in range(N_CARDS) if h >> c & 1) for h in hands]
    dealt[seat] = sorted(c for c in range(N_CARDS) if hand >> c & 1)
    leader = seat if contract.declarer_leads else 0
    players = PLAYERS[n_players]
    table = Table(players, hands, contract, DEFAULT_SLOVENIAN, leader)
    table.play_with(CardPlay(contract, n_players, seat, partner, king, hands, None, leader))
    stashed = tuple(c for c in range(N_CARDS) if stash >> c & 1)
    scored = score_playout(contract, players, dealt, talon, pick, stashed, king, table.tricks, table.trick_seats,
                           seat)
    if scored is None:
        scored = _reference_score(contract, players, dealt, talon, pick, stashed, king, table.tricks, seat)
    return scored


def _reference_score(contract: Contract, players: tuple[str, ...], dealt: list[list[int]], talon: list[int],
                     pick: tuple[int, ...], stash: tuple[int, ...], king: int | None,
                     tricks: list[tuple[int, ...]], seat: int) -> tuple[bool, int]:
    """``score_playout`` by the reference engine and scorer, for when the compiled ones do not run."""
    from tarock.engine import replay  # here: only a run without the accelerator scores this way
    from tarock.facts import DealFacts
    from tarock.rules.slovenian.scoring import score_deal

    deal = Deal(id="playout", id_given=True, ruleset="slovenian", players=players, contract=contract.name, tricks=tuple(tricks),
                trick_players=(None,) * len(tricks), hands=tuple(tuple(h) for h in dealt), talon=tuple(talon),
                declarer=players[seat], called_king=king, talon_pick=pick if pick else None,
                stash=stash if pick else None)
    facts = replay(deal).facts
    if not isinstance(facts, DealFacts):
        raise ValueError(f"a play-out of {contract.name} does not replay cleanly")
    result = score_deal(facts)
    return bool(result.won), result.scores[players[seat]]


def seat_of(contract: Contract, n_players: int, i: int, seat: int | None) -> int:
    """The declarer's seat in play-out ``i``: ``seat`` when given, forehand in a forehand's contract, else every
    seat in turn."""
    if seat is not None:
        return seat
    return 0 if contract.forehand_only else i % n_players


def estimate(hand: int, n_players: int, contract: Contract, seed: int = 0, cap: int = CAP,
             half_width: float = HALF_WIDTH, seat: int | None = None) -> Estimate:
    """``contract`` played out with ``hand`` until the 95 % interval of its win rate is within ``half_width``
    of it (from ``MIN_PLAYOUTS`` on, checked every ``BATCH``), or ``cap`` play-outs; seeded by ``seed``."""
    if n_players not in CARDS_PER_HAND or hand.bit_count() != CARDS_PER_HAND[n_players]:
        raise ValueError(f"a hand of {n_players} players has {CARDS_PER_HAND.get(n_players)} cards")
    if not allowed_contract(contract, n_players, DEFAULT_SLOVENIAN) or contract.is_klop:
        raise ValueError(f"{contract.label} is not declared at a table of {n_players}")
    return sequential(contract.name, lambda i: play_out(hand, n_players, contract, random.Random((seed << 32) + i),
                                                        seat_of(contract, n_players, i, seat)), cap, half_width)


def sequential(contract: str, play: Callable[[int], tuple[bool, int]], cap: int = CAP,
               half_width: float = HALF_WIDTH) -> Estimate:
    """The estimate of play-outs ``play(0)``, ``play(1)``, … (each: whether the declarer's side won, the
    declarer's score) until the 95 % interval of the win rate is within ``half_width`` of it (from
    ``MIN_PLAYOUTS`` on, checked every ``BATCH``), or ``cap`` play-outs."""
    wins = total = played = 0
    while played < cap:
        for i in range(played, min(played + BATCH, cap)):
            won, score = play(i)
            wins += won
            total += score
        played = min(played + BATCH, cap)
        if played >= MIN_PLAYOUTS:
            low, high = wilson(wins, played)
            if (high - low) / 2 <= half_width:
                break
    return Estimate(contract, played, wins, total)


def estimates(hand: int, n_players: int, seed: int = 0, cap: int = CAP,
              half_width: float = HALF_WIDTH) -> list[Estimate]:
    """``estimate`` of every contract ``biddable`` at the table, in ladder order."""
    return [estimate(hand, n_players, contract, seed, cap, half_width) for contract in biddable(n_players)]


def paired(weaker: int, stronger: int, n_players: int, contract: Contract, seed: int = 0, cap: int = CAP,
           half_width: float = HALF_WIDTH) -> tuple[Estimate, Estimate]:
    """``estimate`` of two hands that differ in one card, on the same deals: play-out ``i`` deals around
    ``weaker`` as ``estimate`` does, and ``stronger`` gets that very deal with its new card and the card it gave
    up trading places (common random numbers at their tightest: the two play-outs differ only where that card
    is played).  Stops when both intervals are narrow enough, or at ``cap``.  For comparing hands
    (bench/bench_playouts.py): a hand's own figures are ``estimate``'s."""
    given, taken = weaker & ~stronger, stronger & ~weaker
    if given.bit_count() != 1 or taken.bit_count() != 1 or stronger.bit_count() != weaker.bit_count():
        raise ValueError("the two hands must differ in exactly one card")
    swap = given | taken
    counts = [0, 0, 0, 0]  # wins and score totals of the weaker, then the stronger hand
    played = 0
    while played < cap:
        for i in range(played, min(played + BATCH, cap)):
            rng = random.Random((seed << 32) + i)
            seat = seat_of(contract, n_players, i, None)
            (hands, talon), (twin, twin_talon) = deals_won(rng, weaker, n_players, contract, seat, swap)
            state = rng.getstate()
            won, score = play_dealt(hands, talon, contract, rng, seat)
            counts[0] += won
            counts[1] += score
            rng.setstate(state)
            won, score = play_dealt(twin, twin_talon, contract, rng, seat)
            counts[2] += won
            counts[3] += score
        played = min(played + BATCH, cap)
        if played >= MIN_PLAYOUTS and all(
                (high - low) / 2 <= half_width for low, high in (wilson(counts[0], played), wilson(counts[2], played))):
            break
    return (Estimate(contract.name, played, counts[0], counts[1]),
            Estimate(contract.name, played, counts[2], counts[3]))


def random_pair(rng: random.Random, n_players: int) -> tuple[int, int, str]:
    """A random hand of a table of ``n_players`` and the same hand made plainly stronger by one card: (weaker,
    stronger, what changed, e.g. ``raise T5->T9``).  Half the time one of its taroks is raised to a higher one
    it does not hold, otherwise the lowest card of one of its suits, a pip card, is turned into a tarok it does
    not hold.  Neither loses card points, or the "stronger" hand would hand them to the opponents: the Pagat (5
    points) is raised only to the Mond or the Škis (5 each), never to II … XX (1 each) -- measured, hands that
    win Dva with the Pagat among their own tricks lose it with VIII in its place (docs/analysis.md); and a suit's
    lowest card is turned only when it is a pip card (1 point: a jack, knight, queen or king is worth more than
    most taroks, and a king takes a trick)."""
    per = CARDS_PER_HAND[n_players]
    while True:
        cards = rng.sample(range(N_CARDS), per)
        hand = mask_of(cards)
        unheld = [t for t in range(22) if not hand >> t & 1]
        if rng.random() < 0.5:
            raisable = [(t, u) for t in cards if CARD_SUIT[t] == TAROK for u in unheld
                        if u > t and CARD_POINTS[u] >= CARD_POINTS[t]]
            if not raisable:
                continue
            low, high = rng.choice(raisable)
            return hand, hand & ~(1 << low) | 1 << high, f"raise T{low + 1}->T{high + 1}"
        lowest: dict[int, int] = {}
        for c in cards:  # within a suit a lower int is a lower card
            if CARD_SUIT[c] != TAROK and c < lowest.get(CARD_SUIT[c], N_CARDS):
                lowest[CARD_SUIT[c]] = c
        pips = [c for c in lowest.values() if CARD_POINTS[c] == 1]
        if not pips or not unheld:
            continue
        low, tarok = rng.choice(sorted(pips)), rng.choice(unheld)
        return hand, hand & ~(1 << low) | 1 << tarok, f"suit card {CODES[low]}->T{tarok + 1}"

