"""Play-outs of one dealt Königrufen hand: how often the simulator's players win each game with it, and what it
scores (``tarock.sim.playouts``' method at a Königrufen table).

A play-out deals the unseen cards at random around the hand (``playouts.deal_around``: eleven-card hands of the
other three and the six-card talon; a hand without a tarok stands, as the simulator deals Königrufen) -- a deal
in which the hand wins the simulator's auction with the game (``koenigrufen_players.run_bidding``, the other
seats wishing as ``wish`` says; dealt again up to ``playouts.AUCTION_TRIES`` times) -- then plays it as a
simulated table does (``koenigrufen_sim.play_deal``): the king called, the game conceded when the king lies in
the talon and the declarer would give up, the talon half taken, the stash laid away, the cards played by
``KoenigrufenPlay``.  Nobody announces, but a Besserrufer's declarer their bird, which that game must have.
The compiled scorer (``tarock.accel.kr_lane.score_played``) scores each play-out, else the reference does.

The declarer sits in every seat in turn, except in forehand's own games (Rufer, Sechserdreier), always at
forehand.  ``estimate`` stops as ``playouts.sequential`` says; play-out ``i`` draws from
``random.Random(seed · 2³² + i)``.
"""

from __future__ import annotations

import random
from types import MappingProxyType

from tarock.accel.kr_lane import score_played
from tarock.cards import KINGS_MASK, N_CARDS, cards_of
from tarock.deal import EMPTY, Announcement, Deal
from tarock.engine import replay
from tarock.facts import KoenigrufenFacts
from tarock.options import DEFAULT_KOENIGRUFEN, KoenigrufenOptions
from tarock.rules.koenigrufen.contracts import BIRDS, CARDS_PER_HAND, CONTRACTS, Contract, counted_bonuses, unavailable
from tarock.rules.rulesets import score_facts
from tarock.sim.compiled import hand_values
from tarock.sim.koenigrufen_players import Bidding, Wish, run_bidding, wish
from tarock.sim.koenigrufen_sim import DealInPlay, play_deal
from tarock.sim.playouts import AUCTION_TRIES, CAP, HALF_WIDTH, PLAYERS, Estimate, deal_around, sequential

N_PLAYERS = 4


def biddable(hand: int, options: KoenigrufenOptions = DEFAULT_KOENIGRUFEN) -> tuple[Contract, ...]:
    """Every game ``hand`` may declare at a table playing ``options``, in ladder order: Trischaken is nobody's to
    declare, a hand with all four kings has no king to call (``E_KING``, tarock/engine.py), and a Besserrufer
    needs a bird in the hand to announce (``E_ANNOUNCE``, tarock/rules/koenigrufen/replay.py)."""
    four_kings = hand & KINGS_MASK == KINGS_MASK
    return tuple(sorted((c for c in CONTRACTS.values() if c.has_declarer and unavailable(c, options) is None
                         and not (four_kings and c.calls_king) and (c.name != "besserrufer" or _bird(hand, c, options))),
                        key=lambda c: c.rank))


def _bird(hand: int, contract: Contract, options: KoenigrufenOptions) -> bool:
    """Whether ``hand`` holds a bird that counts in ``contract`` (what ``koenigrufen_sim.play_deal`` announces)."""
    counted = counted_bonuses(contract, options)
    return any(hand >> card & 1 and bird in counted for bird, (card, _) in BIRDS.items())


def wishing(contract: Contract) -> Wish:
    """What a bidder set on ``contract`` says in the simulator's auction: forehand's Sechserdreier is its first
    word, a Rufer what forehand chooses when everyone passed, any other game a bid."""
    if contract.name == "sechserdreier":
        return Wish(None, True, True)
    if contract.name == "rufer":
        return Wish(None, False, True)
    return Wish(contract, False, True)


def auction(rng: random.Random, hands: list[int], contract: Contract, seat: int,
            options: KoenigrufenOptions) -> Bidding:
    """The simulator's auction of this deal, ``seat`` wishing for ``contract`` alone (the others' moods drawn
    from ``rng``, as ``koenigrufen_sim`` draws them)."""
    values = hand_values(hands)
    wishes = [wish(values[s], hands[s], s, options, rng) for s in range(N_PLAYERS)]
    wishes[seat] = wishing(contract)
    return run_bidding(wishes, options)


def play_out(hand: int, contract: Contract, rng: random.Random, seat: int,
             options: KoenigrufenOptions = DEFAULT_KOENIGRUFEN) -> tuple[bool, int]:
    """One play-out of ``contract`` declared by ``seat`` holding ``hand``: (whether the declarer's side won, the
    declarer's score).  When no deal's auction goes to ``seat`` (``AUCTION_TRIES``), the last deal is played
    with ``seat`` declaring and no bidding on record."""
    for _ in range(AUCTION_TRIES):
        masks, talon = deal_around(rng, hand, N_PLAYERS, seat, redeal_without_tarok=False)
        bidding = auction(rng, masks, contract, seat, options)
        if bidding.contract.name == contract.name and bidding.declarers == (seat,):
            bids: tuple[tuple[int, str], ...] | None = bidding.bids
            break
    else:
        bidding, bids = Bidding((), contract, (seat,)), None
    dealt = [list(cards_of(m)) for m in masks]
    deal = DealInPlay(PLAYERS[N_PLAYERS], list(masks), dealt, talon, hand_values(masks), bidding)
    play_deal(deal, rng, options, announcing=False)
    return _scored(deal, bids, seat, options)


def _scored(deal: DealInPlay, bids: tuple[tuple[int, str], ...] | None, seat: int,
            options: KoenigrufenOptions) -> tuple[bool, int]:
    """(won, the declarer's score) of a played-out deal: by the compiled scorer, else by the reference."""
    game = deal.game
    tricks, trick_seats = (list(game.tricks), list(game.trick_seats)) if game is not None else ([], [])
    stash = tuple(cards_of(deal.stash))
    contract = deal.bidding.contract

    def reference() -> Deal:
        players = deal.players
        return Deal(id="playout", id_given=True, ruleset="koenigrufen", players=players, contract=contract.name,
                    tricks=tuple(tricks), trick_players=(None,) * len(tricks),
                    options=MappingProxyType(dict(options.changed())),
                    hands=tuple(tuple(h) for h in deal.dealt), talon=tuple(deal.talon),
                    bidding=None if bids is None else tuple((players[s], bid) for s, bid in bids),
                    declarer=players[seat], called_king=deal.king,
                    talon_pick=deal.pick or None, stash=stash if deal.pick else None,
                    announcements=tuple(Announcement(str(a["player"]), bonus=str(a["bonus"]))
                                        for a in deal.announcements),
                    conceded=True if deal.conceded else None, extra=EMPTY)

    fast = score_played(contract.name, options, deal.players, deal.dealt, deal.talon, bids, (seat,), deal.king,
                        deal.pick or None, stash if deal.pick else None, tricks, trick_seats,
                        bool(deal.announcements), deal.conceded, reference)
    if fast is not None:
        return bool(fast[0]), fast[1][seat]
    facts = replay(reference()).facts
    if not isinstance(facts, KoenigrufenFacts):
        raise ValueError(f"a play-out of {contract.name} does not replay cleanly")
    result = score_facts(facts)
    return bool(result.won), result.scores[deal.players[seat]]


def seat_of(contract: Contract, i: int, seat: int | None) -> int:
    """The declarer's seat in play-out ``i``: ``seat`` when given, forehand in forehand's games, else every seat
    in turn."""
    if seat is not None:
        return seat
    return 0 if contract.forehand_only else i % N_PLAYERS


def estimate(hand: int, contract: Contract, seed: int = 0, cap: int = CAP, half_width: float = HALF_WIDTH,
             seat: int | None = None, options: KoenigrufenOptions = DEFAULT_KOENIGRUFEN) -> Estimate:
    """``contract`` played out with ``hand`` (``playouts.sequential``'s stopping rule), seeded by ``seed``."""
    if hand.bit_count() != CARDS_PER_HAND or hand >> N_CARDS:
        raise ValueError(f"a Königrufen hand has {CARDS_PER_HAND} cards")
    if contract not in biddable(hand, options):
        raise ValueError(f"{contract.label} is not declared with this hand at this table")
    return sequential(contract.name, lambda i: play_out(hand, contract, random.Random((seed << 32) + i),
                                                        seat_of(contract, i, seat), options), cap, half_width)


def estimates(hand: int, seed: int = 0, cap: int = CAP, half_width: float = HALF_WIDTH,
              options: KoenigrufenOptions = DEFAULT_KOENIGRUFEN) -> list[Estimate]:
    """``estimate`` of every game ``biddable`` at the table, in ladder order."""
    return [estimate(hand, contract, seed, cap, half_width, None, options) for contract in biddable(hand, options)]
