"""A clean Königrufen deal checked in one kernel call and scored by the compiled Königrufen scorer.

The Königrufen counterpart of ``tarock.accel.lane`` (whose ``replay_slovenian`` the engine takes for a
Slovenian deal) for a caller that wants only the score of a deal it has reason to think clean: the simulator,
which checks every deal it writes (``tarock.sim.koenigrufen_sim``).  ``score_clean`` vouches for the deal the
way the reference replay (``tarock.engine.replay``) would find nothing in it, or declines (None):

- the deal, the king call, the talon exchange and every card by the kernel's ``lane``
  (``tarock/accel/_fastplay.c``, with a plan of the Königrufen contract's play rules,
  ``tarock.accel.projection.koenigrufen_lane_plan``): dealt without a fault, a king called, one talon group
  taken and a legal stash, every trick complete and played in turn from the hands with legal cards.  Where
  Königrufen asks more than that lane, the deal is declined: a king the declarer holds (``R_OWN_KING``), a
  talon half without the called king that lies in it, a colour game's taroks-first stash
  (``color_discard_restriction``);
- a concession (no card play) by the dealt cards' masks: twelve cards each, the talon's six, none twice, the
  called king in the talon;
- the bidding with the reference's ``check_bidding`` (remembered per auction), the contract's availability
  (``unavailable``, ``several_declarers``);
- the forehand games and the concession with the reference's own ``check_contract``, the announcements and
  kontras with its own ``announcements``, on the same ``Table`` the engine fills.

The score comes from ``tarock.accel.kr_scorer`` (``tarock/accel/_krscore.c``): the facts of
``replay.outcome`` and the lines of ``scoring.score_deal`` for a deal without offenders.  Options are taken
only when ``tarock.accel.declared.accepts`` them.  ``tests/accel/test_kr_score.py`` checks, deal by deal, that
a deal taken gets the reference's lines and totals and that one with any finding is declined.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import ModuleType
from typing import NamedTuple

from tarock import accel
from tarock.accel import bidding_memo, kr_scorer
from tarock.accel.declared import accepts
from tarock.accel.projection import koenigrufen_lane_plan
from tarock.cards import FULL_DECK, KINGS_MASK, mask_of
from tarock.deal import Deal
from tarock.options import KoenigrufenOptions
from tarock.replay_state import Replay, Table
from tarock.rules.koenigrufen.contracts import (
    CARDS_PER_HAND,
    CONTRACTS,
    N_PLAYERS,
    TALON_SIZE,
    Contract,
    check_bidding,
    leader,
    several_declarers,
    unavailable,
)
from tarock.rules.koenigrufen.replay import announcements, check_contract

Scored = tuple[bool | None, tuple[int, ...], tuple[tuple[int, int, int], ...]]
"""(won, each seat's total, the breakdown's (seat, component index, value) lines): ``kr_scorer``'s answer."""


class Plan(NamedTuple):
    """What a contract is checked and scored by under some options: made once per pair."""

    contract: Contract
    options: KoenigrufenOptions
    lane: object
    """The kernel's lane plan (``koenigrufen_lane_plan``)."""
    score: object
    """The compiled scorer's plan (``kr_scorer.plan_of``)."""
    playable: bool
    """The table plays the contract (``unavailable``) and the lane knows its stash rule: a colour game's
    taroks-first stash (``color_discard_restriction``) it does not."""
    several: bool
    """Several declarers may play it at once (``several_declarers``)."""


_BIRD_GAME = "besserrufer"
"""The game whose declarer must announce a bird (``tarock.rules.koenigrufen.replay._besserrufer_bird``): its
announcements are checked even when there are none."""

_PLANS: dict[tuple[str, int], tuple[KoenigrufenOptions, Plan | None]] = {}
_LIMIT = 4096


def plan_for(name: str, options: KoenigrufenOptions, kernel: ModuleType) -> Plan | None:
    """The contract's plan under ``options``, or None when the accelerator does not take them (cached by the
    options' identity, the options kept alive with it)."""
    key = (name, id(options))
    known = _PLANS.get(key)
    if known is not None and known[0] is options:
        return known[1]
    plan = None
    contract = CONTRACTS.get(name)
    if contract is not None and accepts(options):
        score = kr_scorer.plan_of(name, options)
        if score is not None:
            taroks_first = bool(contract.talon_group) and contract.color and options.color_discard_restriction
            plan = Plan(contract, options, koenigrufen_lane_plan(kernel, contract, options), score,
                        unavailable(contract, options) is None and not taroks_first,
                        several_declarers(contract, options))
    if len(_PLANS) >= _LIMIT:
        _PLANS.clear()
    _PLANS[key] = (options, plan)
    return plan


def _declarers(given: str | tuple[str, ...] | None, players: tuple[str, ...],
               contract: Contract) -> tuple[int, ...] | None:
    """The declarers' seats as the engine reads the record's ``declarer`` (several sorted), or None when it
    does not name them as its contract needs."""
    if not contract.has_declarer:
        return () if given is None else None
    if isinstance(given, str):
        return (players.index(given),) if given in players else None
    if isinstance(given, tuple) and given and all(p in players for p in given):
        return tuple(sorted(players.index(p) for p in given))
    return None


def _dealt_clean(hands: Sequence[Sequence[int]], talon: Sequence[int]) -> bool:
    """A conceded deal's cards: four hands of twelve, the talon's six, no card twice (the kernel's lane checks
    this for a deal with card play)."""
    seen = mask_of(talon)
    count = len(talon)
    if count != TALON_SIZE or len(hands) != N_PLAYERS:
        return False
    for hand in hands:
        if len(hand) != CARDS_PER_HAND:
            return False
        seen |= mask_of(hand)
        count += len(hand)
    return seen == FULL_DECK and count == FULL_DECK.bit_count()


def score_clean(deal: Deal, options: KoenigrufenOptions, trick_seats: list[tuple[int, ...]] | None = None
                ) -> Scored | None:
    """The score of a Königrufen deal in which the reference replay would find nothing, or None when the deal
    is not one this can vouch for (the caller then replays and scores it with the reference).
    ``trick_seats``, when given, must be the seats the kernel finds for each trick."""
    if deal.ruleset != "koenigrufen" or deal.hands is None or deal.talon is None or deal.events \
            or deal.claim is not None or deal.extra.get("sheet_only") is True \
            or (deal.bidding is not None and any(p not in deal.players for p, _ in deal.bidding)):
        return None
    contract = CONTRACTS.get(deal.contract)
    declarers = None if contract is None else _declarers(deal.declarer, deal.players, contract)
    if declarers is None:
        return None
    bids = None if deal.bidding is None else tuple([(deal.seat(p), b) for p, b in deal.bidding])
    return score_played(deal.contract, options, deal.players, deal.hands, deal.talon, bids, declarers,
                        deal.called_king, deal.talon_pick, deal.stash, deal.tricks, trick_seats,
                        bool(deal.announcements), deal.conceded is True, lambda: deal, deal.trick_players)


def score_played(contract_name: str, options: KoenigrufenOptions, players: tuple[str, ...],
                 hands: Sequence[Sequence[int]], talon: Sequence[int],
                 bids: tuple[tuple[int, str], ...] | None,
                 declarers: tuple[int, ...], king: int | None, pick: Sequence[int] | None,
                 stash: Sequence[int] | None, tricks: Sequence[tuple[int, ...]],
                 trick_seats: list[tuple[int, ...]] | None, announced: bool, conceded: bool,
                 deal_of: Callable[[], Deal], names: tuple[tuple[str, ...] | None, ...] | None = None
                 ) -> Scored | None:
    """``score_clean`` of a deal given as the ints the simulator holds (the record's fields as ints: each hand
    as dealt, the bids as (seat, bid), the declarers' seats (several sorted, as the engine reads them),
    ``pick`` and ``stash`` None when the record has none; ``names`` the tricks' named players, if any),
    without its ``Deal`` unless a check reads one: ``deal_of()`` makes it when the deal has announcements
    (``announced``), is conceded, is a Besserrufer (whose declarer must announce a bird), or has no
    bidding.  For any other deal the reference's ``check_contract`` and ``announcements`` have nothing to
    check: no announcement, no concession, and the forehand games given to forehand alone by the bidding's
    own rules (``tarock.rules.bidding``), which must agree."""
    kernel = accel.KERNEL
    score = kr_scorer.prepared()
    if kernel is None or score is None or len(players) != N_PLAYERS:
        return None
    plan = plan_for(contract_name, options, kernel)
    if plan is None:
        return None
    contract = plan.contract
    if not plan.playable or (len(declarers) > 1 and not plan.several) \
            or bool(declarers) != contract.has_declarer:
        return None
    if bids is not None and not bidding_memo.bids_agree(check_bidding, bids, players, contract, declarers, options):
        return None
    declarer = declarers[0] if declarers else None
    if contract.calls_king:
        assert declarer is not None
        if king is None or king in hands[declarer]:  # R_OWN_KING, or a king-less call: the reference says
            return None
    if conceded:
        if tricks or pick or stash or not _dealt_clean(hands, talon) or king is None \
                or not KINGS_MASK >> king & 1 or any(king in hand for hand in hands):
            return None
        dealt = [mask_of(hand) for hand in hands]
        seats: list[tuple[int, ...]] = []
        winners: list[int] = []
        partner, king_in_talon, pick_mask, stash_mask, play_hands = None, 1, 0, 0, dealt
    else:
        lane = kernel.lane(hands, talon, tricks, names if names and any(names) else None, players,
                           CARDS_PER_HAND, -1 if declarer is None else declarer, leader(contract, declarers),
                           contract.calls_king, king, pick, stash, plan.lane)
        if lane is None:
            return None
        dealt, seats, winners, lane_partner, king_in_talon, pick_mask, stash_mask, declarer_hand, _ = lane
        if (trick_seats is not None and seats != trick_seats) \
                or (king_in_talon and contract.talon_group and king is not None
                    and not pick_mask >> king & 1):
            return None  # E_TALON: the talon half holding the called king must be taken
        partner = None if lane_partner < 0 else lane_partner
        play_hands = list(dealt)
        if declarer is not None:
            play_hands[declarer] = declarer_hand
    a_codes: tuple[tuple[int, int], ...] = ()
    k_codes: tuple[tuple[int, int], ...] = ()
    pair_kontra: tuple[tuple[int, int, int], ...] = ()
    if announced or conceded or bids is None or contract.name == _BIRD_GAME:
        deal = deal_of()
        out = Replay(deal, options, [], deal.contract, declarer, partner, dealt, deal.talon,
                     list(deal.tricks), seats, winners, declarers=declarers)
        table: Table[Contract, KoenigrufenOptions] = Table(
            deal, out, options, contract, declarers, [], hands=list(dealt), talon=deal.talon,
            play_hands=play_hands, called_king=king if contract.calls_king else None, partner=partner,
            king_in_talon=bool(king_in_talon), pick=pick_mask, stash=stash_mask)
        check_contract(table)
        announcements(table)
        if out.findings or table.conceded != conceded:
            return None
        side = kr_scorer.side_code
        a_codes = tuple([(kr_scorer.bonus_code(bonus), side(by)) for bonus, by, _ in table.announced])
        k_codes = tuple([(kr_scorer.target_code(target), k) for target, k in table.kontra.items()])
        pair_kontra = tuple([(opponent, dcl, k) for (opponent, dcl), k in table.pair_kontra.items()])
    result = score(plan.score, tricks, seats, winners, declarers, -1 if partner is None else partner,
                   -1 if king is None else king, king_in_talon, talon, pick_mask, stash_mask, conceded,
                   a_codes, k_codes, pair_kontra)
    if result is None:
        return None
    won, scores, lines = result
    return (None if won < 0 else won == 1), scores, lines
