"""The fast lane of a Slovenian replay: a deal recorded without a fault, replayed in one kernel call.

Most records are clean: dealt right, bid right, the talon and stash legal, every card held and
legal.  For them the lane does the engine's whole work -- hands, bidding, king call, talon and
stash, announcements, trick play, card points and the facts scoring needs -- the deal, king,
exchange, play and facts in one call to the compiled kernel (``tarock.accel``), the bidding
(remembered per auction) and announcements in Python.  It gives up
(``None``) at the first sign of anything the reference engine would have a word about, and under options the
accelerator does not declare (``tarock.accel.declared``); the
reference (``tarock.engine``) then replays the deal from the start and writes the findings; so a lane
``Replay`` is exactly the reference's, which ``tests/accel/test_fast_lane.py`` checks deal by deal.

The kernel plays a contract by a plan made once per contract and options from the reference's own objects,
by name, and its facts are read by the names it gives them (``tarock.accel.projection``).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, NamedTuple

from tarock import accel
from tarock.accel import bidding_memo
from tarock.accel.declared import accepts_replay
from tarock.accel.projection import FactsAt, KlopFactsAt
from tarock.deal import Deal
from tarock.facts import DealFacts, Side
from tarock.options import SlovenianOptions
from tarock.replay_state import Replay, Table
from tarock.cards import MOND
from tarock.rules.slovenian.contracts import (
    CARDS_PER_HAND,
    CONTRACTS,
    Contract,
    allowed_contract,
    check_bidding,
)
from tarock.rules.slovenian.replay import announcements, leader



def replay_slovenian(deal: Deal, options: SlovenianOptions, kernel: ModuleType) -> Replay | None:
    """The reference ``Replay`` of a clean Slovenian deal, or None when the deal is not one the lane
    can vouch for, or its options are not all the accelerator's (the caller then runs the reference
    engine)."""
    if deal.hands is None or deal.talon is None or deal.events or deal.claim is not None \
            or deal.conceded is not None or deal.extra.get("sheet_only") is True:
        return None
    plan = plan_for(deal.contract, options)
    if plan is None:
        return None
    players = deal.players
    n = len(players)
    contract = plan.contract
    if n not in CARDS_PER_HAND or not allowed_contract(contract, n, options):
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
    lead = leader(contract, declarers, options, tuple(a.bonus for a in deal.announcements) if deal.announcements
                  else ())
    lane = kernel.lane(deal.hands, deal.talon, deal.tricks, names if any(names) else None, players, per_hand,
                       -1 if declarer is None else declarer, lead,
                       calls_king, deal.called_king, deal.talon_pick, deal.stash, plan.kernel_plan)
    if lane is None:
        return None
    hands, seats, winners, partner, king_in_talon, pick, stash, declarer_hand, facts = lane
    partner = None if partner < 0 else partner
    called_king = deal.called_king if calls_king else None
    out = Replay(deal, options, [], deal.contract, declarer, partner, hands, deal.talon, list(deal.tricks), seats,
                 winners, declarers=declarers)
    announced: tuple[tuple[str, Side], ...] = ()
    kontra: dict[Any, int] = {}
    play_hands = None  # the hands played from (the declarer's after the exchange), when something reads them
    if deal.announcements or options.failed_mondfang_pays:
        play_hands = list(hands)
        if declarer is not None:
            play_hands[declarer] = declarer_hand
    if deal.announcements:
        assert play_hands is not None
        table = Table(deal, out, options, contract, declarers, [], hands=list(hands), talon=deal.talon,
                      play_hands=play_hands, called_king=called_king, partner=partner,
                      king_in_talon=bool(king_in_talon), pick=pick, stash=stash)
        announcements(table)
        if out.findings:
            return None
        announced = tuple((bonus, side) for bonus, side, _ in table.announced)
        kontra = table.kontra
    if plan.klop:
        points = facts[_KLOP_POINTS]
        out.card_points = dict(zip(players, points))
        out.facts = DealFacts(players, "klop", options=options, klop_points=points,
                              klop_tricks=facts[_KLOP_TRICKS], kontra=dict(kontra))
        return out
    dp, op, decided = facts[_DECLARER_POINTS], facts[_OPPONENTS_POINTS], facts[_DECIDED]
    out.card_points = {"declarer_side": dp, "opponents": op}
    out.facts = DealFacts(
        players, contract.name, declarer, partner, options, (dp, op),
        declarer_took_trick=plan.beggar and decided > 0,
        declarer_lost_trick=plan.valat and facts[_LOST_TRICK] > 0,
        valat_side=_SIDES[facts[_VALAT_SIDE]], trula_side=_SIDES[facts[_TRULA_SIDE]],
        kings_side=_SIDES[facts[_KINGS_SIDE]], pagat_last=_PAGAT_LAST[facts[_PAGAT_LAST_AT]],
        king_last=_SIDES[facts[_KING_LAST]],
        # the kernel's Mondfang rules are the defaults'; Palčka's solo brez has none (replay.py's _mondfang)
        mondfang=() if contract.name == "solo_brez" and not options.solo_brez_mondfang else facts[_MONDFANG],
        announced=announced, kontra=dict(kontra),
        decided_early=decided if 0 < decided < per_hand else None,
        mond_holder=None if play_hands is None or not options.failed_mondfang_pays
        else next((seat for seat, hand in enumerate(play_hands) if hand >> MOND & 1), None),
    )
    return out


def _answers() -> tuple[tuple[Side | None, ...], tuple[tuple[Side, bool] | None, ...], FactsAt, KlopFactsAt]:
    """How to read the kernel's facts: by the names it gives them (``tarock.accel.ANSWERS``), or placeholders
    when it is not loaded (then the lane never runs)."""
    answers = accel.ANSWERS
    if answers is None:
        return (), (), FactsAt(*range(len(FactsAt._fields))), KlopFactsAt(0, 1)
    return answers.sides, answers.pagat_last, answers.facts, answers.klop_facts


_SIDES, _PAGAT_LAST, _FACTS_AT, _KLOP_AT = _answers()
"""The kernel's codes of a side and of the Pagat in the last trick, and where each fact stands in its facts
tuples (module globals: the lane reads them per deal)."""
_DECLARER_POINTS = _FACTS_AT.declarer_points
_OPPONENTS_POINTS = _FACTS_AT.opponents_points
_VALAT_SIDE = _FACTS_AT.valat_side
_TRULA_SIDE = _FACTS_AT.trula_side
_KINGS_SIDE = _FACTS_AT.kings_side
_PAGAT_LAST_AT = _FACTS_AT.pagat_last
_KING_LAST = _FACTS_AT.king_last
_MONDFANG = _FACTS_AT.mondfang
_LOST_TRICK = _FACTS_AT.lost_trick
_DECIDED = _FACTS_AT.decided
_KLOP_POINTS = _KLOP_AT.klop_points
_KLOP_TRICKS = _KLOP_AT.klop_tricks


class Plan(NamedTuple):
    """What the kernel plays a contract by under some options: worked out once per pair."""

    contract: Contract
    options: SlovenianOptions
    klop: bool
    beggar: bool
    valat: bool
    kernel_plan: object
    """The kernel's own plan (``tarock.accel.lane_plan``): what ``lane`` and ingest's bulk path play by."""


_PLANS: dict[tuple[str, int], tuple[SlovenianOptions, Plan | None]] = {}
"""Plans by (contract, the options' identity), with the options (kept alive, so the id stays theirs); None
where the accelerator does not take the options."""


def plan_for(name: str, options: SlovenianOptions) -> Plan | None:
    """The contract's plan under ``options``, or None when the accelerator's replay does not implement the
    options (``tarock.accel.declared.accepts_replay``).  Cached by the options' identity: few objects, kept
    alive here.
    Only while the kernel is loaded."""
    key = (name, id(options))
    known = _PLANS.get(key)
    if known is not None and known[0] is options:
        return known[1]
    plan = None
    if accepts_replay(options) and options.ruleset == "slovenian":
        c = CONTRACTS[name]
        plan = Plan(c, options, c.is_klop, c.is_beggar, c.is_valat, accel.lane_plan(c, options))
    if len(_PLANS) >= 4096:
        _PLANS.clear()
    _PLANS[key] = (options, plan)
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
    return bids_agree(tuple([(players.index(p), b) for p, b in bidding]), players, contract, declarers, options)


def bids_agree(bids: tuple[tuple[int, str], ...], players: tuple[str, ...], contract: Contract,
               declarers: tuple[int, ...], options: SlovenianOptions) -> bool:
    """``bidding_agrees`` of a bidding by seat, (seat, bid) in the order spoken: the simulator holds its bids
    so (``tarock.sim.lane_score``)."""
    return bidding_memo.bids_agree(check_bidding, bids, players, contract, declarers, options)


