"""The fast lane of a Slovenian replay: a deal recorded without a fault, replayed in one kernel call.

Most records are clean: dealt right, bid right, the talon and stash legal, every card held and
legal.  For them the lane does the engine's whole work -- hands, bidding, king call, talon and
stash, announcements, trick play, card points and the facts scoring needs -- the deal, king,
exchange, play and facts in one call to the compiled kernel (``tarock.accel``), the bidding
(remembered per auction) and announcements in Python.  It gives up
(``None``) at the first sign of anything the reference engine would have a word about, and the
reference (``tarock.engine``) replays the deal from the start and writes the findings; so a lane
``Replay`` is exactly the reference's, which ``tests/accel/test_fast_lane.py`` checks deal by deal.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, NamedTuple

from tarock.rules.bidding import BiddingOutcome
from tarock.cards import KINGS_MASK, TAROK_MASK, TRULA_MASK
from tarock.deal import Deal
from tarock.facts import DECLARER, OPPONENTS, DealFacts, Side
from tarock.options import SlovenianOptions
from tarock.replay_state import Replay, Table
from tarock.rules.slovenian.contracts import (
    CARDS_PER_HAND,
    CONTRACTS,
    Contract,
    check_bidding,
    emperor_mode,
    forced_pagat_applies,
)
from tarock.rules.slovenian.replay import announcements

_BIDDING: dict[tuple[Any, ...], tuple[SlovenianOptions, BiddingOutcome]] = {}
"""Bidding outcomes by (bids, players, the options' identity), with the options: a club's auctions recur
endlessly."""
_BIDDING_LIMIT = 1 << 16


def replay_slovenian(deal: Deal, options: SlovenianOptions, kernel: ModuleType) -> Replay | None:
    """The reference ``Replay`` of a clean Slovenian deal, or None when the deal is not one the lane
    can vouch for (the caller then runs the reference engine)."""
    if deal.hands is None or deal.talon is None or deal.events or deal.claim is not None \
            or deal.conceded is not None or deal.extra.get("sheet_only") is True:
        return None
    players = deal.players
    n = len(players)
    plan = plan_for(deal.contract, options)
    contract = plan.contract
    if n not in CARDS_PER_HAND or (contract.four_players_only and n == 3):
        return None
    per_hand = CARDS_PER_HAND[n]
    declarer = _declarer(deal, contract)
    if declarer == -1:
        return None
    declarers = () if declarer is None else (declarer,)
    if deal.bidding is not None and not bidding_agrees(deal.bidding, players, contract, declarers, options):
        return None
    calls_king = contract.calls_king and n == 4
    names = deal.trick_players
    lane = kernel.lane(deal.hands, deal.talon, deal.tricks, names if any(names) else None, players, per_hand,
                       -1 if declarer is None else declarer,
                       declarer if contract.declarer_leads and declarer is not None else 0,
                       calls_king, deal.called_king, deal.talon_pick, deal.stash,
                       plan.klop, TAROK_MASK, plan.play_rules, plan.outcome_rules)
    if lane is None:
        return None
    hands, seats, winners, partner, king_in_talon, pick, stash, declarer_hand, facts = lane
    partner = None if partner < 0 else partner
    called_king = deal.called_king if calls_king else None
    out = Replay(deal, options, [], deal.contract, declarer, partner, hands, deal.talon, list(deal.tricks), seats,
                 winners, declarers=declarers)
    announced: tuple[tuple[str, Side], ...] = ()
    kontra: dict[Any, int] = {}
    if deal.announcements:
        play_hands = list(hands)
        if declarer is not None:
            play_hands[declarer] = declarer_hand
        table = Table(deal, out, options, contract, declarers, [], hands=list(hands), talon=deal.talon,
                      play_hands=play_hands, called_king=called_king, partner=partner,
                      king_in_talon=bool(king_in_talon), pick=pick, stash=stash)
        announcements(table)
        if out.findings:
            return None
        announced = tuple((bonus, side) for bonus, side, _ in table.announced)
        kontra = table.kontra
    if plan.klop:
        points, taken = facts
        out.card_points = dict(zip(players, points))
        out.facts = DealFacts(players, "klop", options=options, klop_points=points, klop_tricks=taken)
        return out
    dp, op, valat_side, trula_side, kings_side, pagat_last, king_last, mondfang, lost_trick, decided = facts
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
"""The kernel's codes of a side and of the Pagat in the last trick (``tarock.accel._fastplay.lane``)."""


class Plan(NamedTuple):
    """What the kernel plays a contract by under some options: worked out once per pair."""

    contract: Contract
    options: SlovenianOptions
    emperor: int
    klop: bool
    beggar: bool
    valat: bool
    play_rules: tuple[Any, ...]
    outcome_rules: tuple[Any, ...]


_PLANS: dict[tuple[str, int], Plan] = {}


def plan_for(name: str, options: SlovenianOptions) -> Plan:
    """The contract's plan under ``options`` (cached by the options' identity: few objects, kept alive here)."""
    key = (name, id(options))
    plan = _PLANS.get(key)
    if plan is not None and plan.options is options:
        return plan
    c = CONTRACTS[name]
    emperor = emperor_mode(c, options)
    plan = Plan(c, options, emperor, c.is_klop, c.is_beggar, c.is_valat,
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


def bidding_agrees(bidding: tuple[tuple[str, str], ...], players: tuple[str, ...], contract: Contract,
                   declarers: tuple[int, ...], options: SlovenianOptions) -> bool:
    """Whether the bidding (a record's, by player name) is legal and ends in the contract and declarer the
    record plays."""
    key = (bidding, players, id(options))  # options by identity: hashing one hashes every field
    known = _BIDDING.get(key)
    if known is not None and known[0] is options:
        outcome = known[1]
    else:
        bids = [(players.index(p), b) for p, b in bidding]
        outcome = check_bidding(bids, len(players), options, players)
        if len(_BIDDING) >= _BIDDING_LIMIT:
            _BIDDING.clear()
        _BIDDING[key] = (options, outcome)  # the options kept alive with it: their id stays theirs
    if outcome.errors or outcome.contract != contract.name:
        return False
    return not contract.has_declarer or outcome.declarers == declarers


