"""The fast lane of a Slovenian replay: a deal recorded without a fault, replayed in a few calls.

Most records are clean: dealt right, bid right, the talon and stash legal, every card held and
legal.  For them the lane does the engine's whole work -- hands, bidding, king call, talon and
stash, announcements, trick play, card points and the facts scoring needs -- with the card play
on the compiled kernel (``tarock.accel``) and every check a few mask operations.  It gives up
(``None``) at the first sign of anything the reference engine would have a word about, and the
reference (``tarock.engine``) replays the deal from the start and writes the findings; so a lane
``Replay`` is exactly the reference's, which ``tests/test_fast_lane.py`` checks deal by deal.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from tarock.bidding import BiddingOutcome
from tarock.cards import KINGS_MASK, MOND, PAGAT, PLAIN_MASK, SKIS, TAROK_MASK, TRULA_MASK, counted_points
from tarock.deal import Deal
from tarock.facts import DECLARER, OPPONENTS, DealFacts, Side
from tarock.options import SlovenianOptions
from tarock.replay_state import Replay, Table
from tarock.slovenian import (
    CARDS_PER_HAND,
    CONTRACTS,
    Contract,
    check_bidding,
    emperor_mode,
    forced_pagat_applies,
    valid_king_call,
)
from tarock.slovenian_replay import announcements

_BIDDING: dict[tuple[Any, ...], BiddingOutcome] = {}
"""Bidding outcomes by (bids by seat, table size, options): the same auctions recur endlessly."""
_BIDDING_LIMIT = 1 << 16


def replay_slovenian(deal: Deal, options: SlovenianOptions, kernel: ModuleType) -> Replay | None:
    """The reference ``Replay`` of a clean Slovenian deal, or None when the deal is not one the lane
    can vouch for (the caller then runs the reference engine)."""
    if deal.hands is None or deal.talon is None or deal.events or deal.claim is not None \
            or deal.conceded is not None or deal.extra.get("sheet_only") is True:
        return None
    players = deal.players
    n = len(players)
    contract = CONTRACTS[deal.contract]
    if n not in CARDS_PER_HAND or (contract.four_players_only and n == 3):
        return None
    per_hand = CARDS_PER_HAND[n]
    declarer = _declarer(deal, contract)
    if declarer == -1:
        return None
    dealt = kernel.masks(deal.hands, deal.talon, per_hand)
    if dealt is None:
        return None
    hands, talon_mask = dealt
    if any(not h & TAROK_MASK for h in hands):
        return None
    declarers = () if declarer is None else (declarer,)
    if deal.bidding is not None and not _bidding_agrees(deal, contract, declarers, options):
        return None
    king = _king(deal, contract, hands, declarer)
    if king is None:
        return None
    called_king, partner, king_in_talon = king
    leader = declarer if contract.declarer_leads and declarer is not None else 0
    trumps = contract.trumps
    emperor = emperor_mode(contract, options)
    names = deal.trick_players
    seated = kernel.seats(deal.tricks, n, leader, trumps, emperor, names if any(names) else None, players)
    if seated is None:
        return None
    seats = seated[0]
    play_hands = list(hands)
    pick = stash = 0
    if contract.talon_group and declarer is not None:
        played_by = kernel.played_by(deal.tricks, seats, declarer)
        exchange = None if played_by is None else _exchange(deal, contract, hands[declarer], talon_mask, played_by)
        if exchange is None:
            return None
        pick, stash, play_hands[declarer] = exchange
    elif deal.talon_pick or deal.stash:
        return None
    out = Replay(deal, options, [], deal.contract, declarer, partner, list(hands), deal.talon, declarers=declarers)
    announced: tuple[tuple[str, Side], ...] = ()
    kontra: dict[Any, int] = {}
    if deal.announcements:
        table = Table(deal, out, options, contract, declarers, [], hands=list(hands), talon=deal.talon,
                      play_hands=play_hands, called_king=called_king, partner=partner,
                      king_in_talon=king_in_talon, pick=pick, stash=stash)
        announcements(table)
        if out.findings:
            return None
        announced = tuple((bonus, side) for bonus, side, _ in table.announced)
        kontra = table.kontra
    if len(deal.tricks) < per_hand and not (contract.is_beggar or contract.is_valat):
        return None  # only these contracts end before the last trick
    played = kernel.play(play_hands, deal.tricks, seats, leader, per_hand, trumps, contract.void_tarok,
                         contract.negative, contract.pagat_last, contract.pagat_scope, contract.pagat_emperor,
                         contract.tarok_lead_last, forced_pagat_applies(contract, options), emperor)
    if played is None:
        return None
    winners, piles = played
    trick_seats = [tuple(s) for s in seats]
    out.tricks = list(deal.tricks)
    out.trick_seats = trick_seats
    out.winners = winners
    if contract.is_klop:
        _klop(out, deal, winners, piles, options)
    else:
        assert declarer is not None
        if len(winners) < per_hand and _decided(contract, declarer, winners) is None:
            return None  # the record stops early, before the contract was decided
        _outcome(out, deal, contract, options, trick_seats, winners, piles,
                 (declarer, partner, called_king, king_in_talon, pick, stash, talon_mask), announced, kontra)
    return out


def _declarer(deal: Deal, contract: Contract) -> int | None:
    """The declarer's seat (None in Klop), or -1 when the record does not name it plainly."""
    given = deal.declarer
    if not contract.has_declarer:
        return None if given is None else -1
    if not isinstance(given, str):
        return -1
    return deal.players.index(given)


def _bidding_agrees(deal: Deal, contract: Contract, declarers: tuple[int, ...], options: SlovenianOptions) -> bool:
    """Whether the bidding is legal and ends in the contract and declarer the record plays."""
    bids = tuple((deal.players.index(p), b) for p, b in deal.bidding or ())
    key = (bids, len(deal.players), options)
    outcome = _BIDDING.get(key)
    if outcome is None:
        outcome = check_bidding(list(bids), len(deal.players), options, deal.players)
        if len(_BIDDING) >= _BIDDING_LIMIT:
            _BIDDING.clear()
        _BIDDING[key] = outcome
    if outcome.errors or outcome.contract != contract.name:
        return False
    return not contract.has_declarer or outcome.declarers == declarers


def _king(deal: Deal, contract: Contract, hands: list[int],
          declarer: int | None) -> tuple[int | None, int | None, bool] | None:
    """(called king, partner's seat, king in the talon), or None when the call is faulty."""
    king = deal.called_king
    if not (contract.calls_king and len(deal.players) == 4):
        return None if king is not None else (None, None, False)
    if king is None or not valid_king_call(king):
        return None
    for seat, hand in enumerate(hands):
        if hand >> king & 1:
            return king, None if seat == declarer else seat, False
    return king, None, True


def _exchange(deal: Deal, contract: Contract, hand: int, talon_mask: int,
              played: int) -> tuple[int, int, int] | None:
    """(talon pick, stash, the declarer's hand to play) of a legal talon exchange, else None;
    ``played``: the cards the record shows the declarer playing."""
    group = contract.talon_group
    talon = deal.talon
    assert talon is not None
    if deal.talon_pick is not None:
        pick = _mask(deal.talon_pick)
    else:
        pick = (played | _mask(deal.stash or ())) & ~hand & talon_mask
    if deal.talon_pick is not None and len(deal.talon_pick) != pick.bit_count():
        return None
    if pick & ~talon_mask or pick not in [_mask(talon[i:i + group]) for i in range(0, len(talon), group)]:
        return None
    after_pick = hand | pick
    if deal.stash is not None:
        stash = _mask(deal.stash)
        count = len(deal.stash)
    else:
        stash = after_pick & ~played
        count = stash.bit_count()
    if count != pick.bit_count() or stash.bit_count() != count or stash & ~after_pick \
            or stash & (KINGS_MASK | TRULA_MASK):
        return None
    if stash & TAROK_MASK and after_pick & PLAIN_MASK & ~KINGS_MASK & ~stash:
        return None
    return pick, stash, after_pick & ~stash


def _mask(cards: tuple[int, ...]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _klop(out: Replay, deal: Deal, winners: list[int], piles: list[int], options: SlovenianOptions) -> None:
    """Klop: every player's pile (the talon's cards go one by one to the first tricks' winners)."""
    piles = list(piles)
    talon = deal.talon or ()
    for i, card in enumerate(talon[:len(winners)]):
        piles[winners[i]] |= 1 << card
    players = deal.players
    points = tuple(counted_points(p) for p in piles)
    out.card_points = dict(zip(players, points))
    out.facts = DealFacts(players, "klop", options=options, klop_points=points,
                          klop_tricks=tuple(winners.count(s) for s in range(len(players))))


def _outcome(out: Replay, deal: Deal, contract: Contract, options: SlovenianOptions,
             trick_seats: list[tuple[int, ...]], winners: list[int], piles: list[int],
             table: tuple[int, int | None, int | None, bool, int, int, int],
             announced: tuple[tuple[str, Side], ...], kontra: dict[Any, int]) -> None:
    """Card points and the facts of a contract with a declarer (``slovenian_replay.outcome``)."""
    declarer, partner, called_king, king_in_talon, pick, stash, talon_mask = table
    tricks = deal.tricks
    n = len(deal.players)
    ours = [s == declarer or s == partner for s in range(n)]
    declarer_pile = stash
    opp_pile = 0
    for seat in range(n):
        if ours[seat]:
            declarer_pile |= piles[seat]
        else:
            opp_pile |= piles[seat]
    unchosen = talon_mask & ~pick
    brought_home = False
    if king_in_talon and called_king is not None and pick >> called_king & 1:
        for cards, seats, w in zip(tricks, trick_seats, winners):
            if called_king in cards and w == declarer and seats[cards.index(called_king)] == declarer:
                brought_home = True
                break
    if contract.talon_group and brought_home:
        declarer_pile |= unchosen
    else:
        opp_pile |= unchosen
    dp = counted_points(declarer_pile)
    op = counted_points(opp_pile)
    out.card_points = {"declarer_side": dp, "opponents": op}
    side: list[Side] = [DECLARER if o else OPPONENTS for o in ours]
    lost_trick = not all(ours[w] for w in winners)
    valat_side: Side | None = None
    if not lost_trick:
        valat_side = DECLARER
    elif not any(ours[w] for w in winners):
        valat_side = OPPONENTS
    full = len(tricks) == CARDS_PER_HAND[n]
    if not full:
        valat_side = None
    last_cards, last_seats, last_w = tricks[-1], trick_seats[-1], winners[-1]
    pagat_last = None
    if full and PAGAT in last_cards:
        pos = last_cards.index(PAGAT)
        pagat_last = (side[last_seats[pos]], last_seats[pos] == last_w)
    king_last = side[last_w] if full and called_king is not None and called_king in last_cards else None
    decided = _decided(contract, declarer, winners)
    out.facts = DealFacts(
        deal.players, contract.name, declarer, partner, options, (dp, op),
        declarer_took_trick=contract.is_beggar and declarer in winners,
        declarer_lost_trick=contract.is_valat and lost_trick,
        valat_side=valat_side if not contract.is_valat else (None if lost_trick else DECLARER),
        trula_side=_holder(TRULA_MASK, declarer_pile, opp_pile),
        kings_side=_holder(KINGS_MASK, declarer_pile, opp_pile), pagat_last=pagat_last,
        king_last=king_last, mondfang=_mondfang(contract, options, tricks, trick_seats, winners, side, declarer,
                                                unchosen, brought_home),
        announced=announced, kontra=dict(kontra),
        decided_early=decided if decided is not None and decided < CARDS_PER_HAND[n] else None,
    )


def _decided(contract: Contract, declarer: int, winners: list[int]) -> int | None:
    """The trick that decided Berač / Odprti berač (the declarer took it) or a valat (the declarer lost
    it), if one did (``slovenian_replay.decider``)."""
    if contract.is_beggar:
        return next((t + 1 for t, w in enumerate(winners) if w == declarer), None)
    if contract.is_valat:
        return next((t + 1 for t, w in enumerate(winners) if w != declarer), None)
    return None


def _holder(target: int, declarer_pile: int, opp_pile: int) -> Side | None:
    if declarer_pile & target == target:
        return DECLARER
    if opp_pile & target == target:
        return OPPONENTS
    return None


def _mondfang(contract: Contract, options: SlovenianOptions, tricks: tuple[tuple[int, ...], ...],
              trick_seats: list[tuple[int, ...]], winners: list[int], side: list[Side], declarer: int,
              unchosen: int, brought_home: bool) -> tuple[int, ...]:
    """Seats paying a Mondfang: the Mond's owner when Škis or Pagat captured it, the declarer for a Mond
    left in the unchosen talon."""
    if not (contract.normal or contract.name == "solo_brez"):
        return ()
    payers: list[int] = []
    for cards, seats, w in zip(tricks, trick_seats, winners):
        if MOND in cards:
            owner = seats[cards.index(MOND)]
            win_card = cards[seats.index(w)]
            if win_card in (SKIS, PAGAT) and (options.mondfang_any_side or side[w] != side[owner]):
                payers.append(owner)
            break
    if contract.normal and unchosen >> MOND & 1 and not brought_home:
        payers.append(declarer)
    return tuple(payers)
