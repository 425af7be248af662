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
from typing import Any, NamedTuple

from tarock.bidding import BiddingOutcome
from tarock.cards import KINGS_MASK, PLAIN_MASK, TAROK_MASK, TRULA_MASK
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
"""Bidding outcomes by (bids, players, options): a club's auctions recur endlessly."""
_BIDDING_LIMIT = 1 << 16


def replay_slovenian(deal: Deal, options: SlovenianOptions, kernel: ModuleType) -> Replay | None:
    """The reference ``Replay`` of a clean Slovenian deal, or None when the deal is not one the lane
    can vouch for (the caller then runs the reference engine)."""
    if deal.hands is None or deal.talon is None or deal.events or deal.claim is not None \
            or deal.conceded is not None or deal.extra.get("sheet_only") is True:
        return None
    players = deal.players
    n = len(players)
    plan = _plan(deal.contract, options)
    contract = plan.contract
    if n not in CARDS_PER_HAND or (contract.four_players_only and n == 3):
        return None
    per_hand = CARDS_PER_HAND[n]
    declarer = _declarer(deal, contract)
    if declarer == -1:
        return None
    dealt = kernel.masks(deal.hands, deal.talon, per_hand, TAROK_MASK)
    if dealt is None:
        return None
    hands, talon_mask = dealt
    declarers = () if declarer is None else (declarer,)
    if deal.bidding is not None and not _bidding_agrees(deal, contract, declarers, options):
        return None
    king = _king(deal, contract, hands, declarer)
    if king is None:
        return None
    called_king, partner, king_in_talon = king
    leader = declarer if contract.declarer_leads and declarer is not None else 0
    names = deal.trick_players
    seated = kernel.seats(deal.tricks, n, leader, contract.trumps, plan.emperor, names if any(names) else None,
                          players)
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
    if len(deal.tricks) < per_hand and not (plan.beggar or plan.valat):
        return None  # only these contracts end before the last trick
    played = kernel.play(play_hands, deal.tricks, seats, leader, per_hand, *plan.play_rules)
    if played is None:
        return None
    winners, piles = played
    out.tricks = list(deal.tricks)
    out.trick_seats = seats
    out.winners = winners
    if plan.klop:
        klop = kernel.klop(piles, winners, deal.talon)
        if klop is None:
            return None
        points, taken = klop
        out.card_points = dict(zip(players, points))
        out.facts = DealFacts(players, "klop", options=options, klop_points=points, klop_tricks=taken)
        return out
    assert declarer is not None
    facts = kernel.outcome(deal.tricks, seats, winners, piles, declarer, -1 if partner is None else partner,
                           -1 if called_king is None else called_king, king_in_talon, pick, stash, talon_mask,
                           per_hand, *plan.outcome_rules)
    if facts is None:
        return None
    dp, op, valat_side, trula_side, kings_side, pagat_last, king_last, mondfang, lost_trick, decided = facts
    if len(winners) < per_hand and not decided:
        return None  # the record stops early, before the contract was decided
    out.card_points = {"declarer_side": dp, "opponents": op}
    out.facts = DealFacts(
        players, contract.name, declarer, partner, options, (dp, op),
        declarer_took_trick=plan.beggar and decided > 0,
        declarer_lost_trick=plan.valat and lost_trick > 0,
        valat_side=_SIDES[valat_side], trula_side=_SIDES[trula_side], kings_side=_SIDES[kings_side],
        pagat_last=_PAGAT_LAST[pagat_last], king_last=_SIDES[king_last], mondfang=mondfang,
        announced=announced, kontra=dict(kontra),
        decided_early=decided if 0 < decided < per_hand else None,
    )
    return out


_SIDES: tuple[Side | None, ...] = (None, DECLARER, OPPONENTS)
_PAGAT_LAST: tuple[tuple[Side, bool] | None, ...] = (
    None, (DECLARER, False), (DECLARER, True), (OPPONENTS, False), (OPPONENTS, True))
"""The kernel's codes of a side and of the Pagat in the last trick (``tarock._fastplay.outcome``)."""


class _Plan(NamedTuple):
    """What the kernel plays a contract by under some options: worked out once per pair."""

    contract: Contract
    options: SlovenianOptions
    emperor: int
    klop: bool
    beggar: bool
    valat: bool
    play_rules: tuple[Any, ...]
    outcome_rules: tuple[Any, ...]


_PLANS: dict[tuple[str, int], _Plan] = {}


def _plan(name: str, options: SlovenianOptions) -> _Plan:
    """The contract's plan under ``options`` (cached by the options' identity: few objects, kept alive here)."""
    key = (name, id(options))
    plan = _PLANS.get(key)
    if plan is not None and plan.options is options:
        return plan
    c = CONTRACTS[name]
    emperor = emperor_mode(c, options)
    plan = _Plan(c, options, emperor, c.is_klop, c.is_beggar, c.is_valat,
                 (c.trumps, c.void_tarok, c.negative, c.pagat_last, c.pagat_scope, c.pagat_emperor, c.tarok_lead_last,
                  forced_pagat_applies(c, options), emperor),
                 (c.talon_group, c.is_beggar, c.is_valat, c.normal, c.normal or c.name == "solo_brez",
                  options.mondfang_any_side, TRULA_MASK, KINGS_MASK))
    if len(_PLANS) >= 4096:
        _PLANS.clear()
    _PLANS[key] = plan
    return plan


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
    key = (deal.bidding, deal.players, options)
    outcome = _BIDDING.get(key)
    if outcome is None:
        bids = [(deal.players.index(p), b) for p, b in deal.bidding or ()]
        outcome = check_bidding(bids, len(deal.players), options, deal.players)
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
