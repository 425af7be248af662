"""A clean simulated Slovenian deal checked by the kernel's lane and scored by the compiled scorer.

The simulator checks every deal it writes before writing it (``tarock.sim.simulate``).  On the usual path that is
``record_deal`` (the record's ``Deal``), ``tarock.engine.replay`` (the kernel's lane, then a ``Replay`` and
``DealFacts``) and ``SessionLedger.apply`` (the reference's ``ScoreResult`` with its breakdown lines) -- most of
a deal's time once the card play was compiled.  A deal the players made no mistake in goes here instead, the
way ``tarock check``'s fast path (``tarock.check.fast``) and ingest's bulk path (``ingest.bulk``) take a record:
without announcements (``score_clean``), the bidding by ``tarock.accel.lane.bids_agree`` and the deal, king,
exchange and every card by the kernel's ``lane`` (``tarock/accel/_fastplay.c``), from the ints the simulator
holds; with announcements (``score_announced``), the lane's replay of the ``Deal``
(``tarock.accel.lane.replay_slovenian``), whose Python checks the announcements and kontras (valid
announcements are the Python engine's to say).  Either declines anything the reference would have a word
about.  The score comes from the compiled scorer (``tarock.accel.scorer``), from the lane's raw facts and the
radelci the session's ledger holds.  That is the one check of the deal, as the replay was: None means the lane
or the scorer declined (or the accelerator is off), and the caller takes the usual path, which stops the run
on a finding.  A play-out of one hand (``tarock.sim.playouts``) is scored the same way without bidding, ledger
or radelci (``score_playout``); on None it scores with the reference.

``tests/sim/test_lane_score.py`` checks runs write the same bytes either way, and that a deal not played as
recorded, or with an invalid announcement, is declined.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tarock import accel
from tarock.accel.lane import Plan, bids_agree, plan_for, replay_slovenian
from tarock.accel.scorer import extra_of, plan_of, prepared, roster_of
from tarock.deal import Deal
from tarock.facts import DealFacts
from tarock.options import DEFAULT_SLOVENIAN
from tarock.rules.sessions import SessionLedger
from tarock.rules.slovenian.contracts import CARDS_PER_HAND, CONTRACTS, Contract
from tarock.rules.slovenian.replay import leader
from tarock.rules.slovenian.scoring import session_end_per_radelc

OPTIONS = DEFAULT_SLOVENIAN
"""The options the simulator plays Slovenian deals by."""
_END_PER_RADELC = session_end_per_radelc(OPTIONS)
_SCRATCH = bytearray()
"""Where the scorer appends the breakdown's triples (the simulator reads none of them)."""


def score_clean(contract: Contract, players: tuple[str, ...], dealt: list[list[int]], talon: list[int],
                pick: tuple[int, ...], stash: tuple[int, ...], called_king: int | None,
                tricks: list[tuple[int, ...]], trick_seats: list[tuple[int, ...]], declarer: int | None,
                bids: tuple[tuple[int, str], ...], ledger: SessionLedger) -> dict[str, Any] | None:
    """The ``recorded`` line of a clean deal without announcements (its scores and everyone's radelci after
    it), the ledger updated as ``SessionLedger.apply`` updates it; or None, the ledger untouched, when the
    kernel or the scorer declines the deal or is not running.

    The arguments are the record's, as ints: ``dealt`` each hand as written, ``pick`` and ``stash`` empty
    when the record has none, ``tricks`` and their seats as played, ``bids`` as (seat, bid) in the order
    spoken (the record's ``bidding`` names the seats).
    """
    played = _played(contract, players, dealt, talon, pick, stash, called_king, tricks, trick_seats, declarer, bids)
    if played is None:
        return None
    score, spec, roster, lane = played
    partner = lane[3]
    return _scored(score, spec[1], roster, players, declarer, None if partner < 0 else partner, lane[8], None,
                   ledger)


def score_playout(contract: Contract, players: tuple[str, ...], dealt: list[list[int]], talon: list[int],
                  pick: tuple[int, ...], stash: tuple[int, ...], called_king: int | None,
                  tricks: list[tuple[int, ...]], trick_seats: list[tuple[int, ...]],
                  declarer: int) -> tuple[bool, int] | None:
    """(whether the declarer's side won, the declarer's score) of a clean declared deal without announcements or
    bidding, no radelci held before it (``tarock.sim.playouts``); None when the kernel or the scorer declines
    it or is not running.  The arguments are ``score_clean``'s."""
    played = _played(contract, players, dealt, talon, pick, stash, called_king, tricks, trick_seats, declarer, None)
    if played is None:
        return None
    score, spec, roster, lane = played
    n = len(players)
    partner = lane[3]
    scored = score(spec[1], roster, declarer, None if partner < 0 else partner, lane[8], (0,) * n, 0, _SCRATCH,
                   None)
    _SCRATCH.clear()
    if scored is None or scored[0] is None:
        return None
    return bool(scored[0]), int(scored[1][declarer])


def _played(contract: Contract, players: tuple[str, ...], dealt: list[list[int]], talon: list[int],
            pick: tuple[int, ...], stash: tuple[int, ...], called_king: int | None, tricks: list[tuple[int, ...]],
            trick_seats: list[tuple[int, ...]], declarer: int | None,
            bids: tuple[tuple[int, str], ...] | None) -> tuple[Any, Spec, Any, tuple[Any, ...]] | None:
    """(the scorer, the contract's spec, the players' roster, the kernel's lane) of a deal both can take; None
    when the kernel or the scorer is not running or declines it, or its ``bids`` (None: not checked) do not give
    the contract."""
    kernel = accel.KERNEL
    score = prepared()
    if kernel is None or score is None:
        return None
    known = _SPECS.get((contract.name, len(players)))
    spec = known if known is not None else _spec(contract, len(players))
    roster = roster_of(players)
    if spec is None or roster is None:
        return None
    declarers = () if declarer is None else (declarer,)
    if bids is not None and not bids_agree(bids, players, spec[0].contract, declarers, OPTIONS):
        return None
    lane = _lane(kernel, spec, players, dealt, talon, pick, stash, called_king, tricks, trick_seats, declarer)
    return None if lane is None else (score, spec, roster, lane)


def _lane(kernel: Any, spec: Spec, players: tuple[str, ...], dealt: list[list[int]], talon: list[int],
          pick: tuple[int, ...], stash: tuple[int, ...], called_king: int | None, tricks: list[tuple[int, ...]],
          trick_seats: list[tuple[int, ...]], declarer: int | None) -> tuple[Any, ...] | None:
    """The kernel's lane of a clean deal (its raw facts at ``[8]``, the partner's seat at ``[3]``), or None when
    it declines the deal or played its tricks from other seats than the table's."""
    plan, _, calls_king = spec
    declarers = () if declarer is None else (declarer,)
    lane: tuple[Any, ...] | None = kernel.lane(
        dealt, talon, tricks, None, players, CARDS_PER_HAND[len(players)], -1 if declarer is None else declarer,
        leader(plan.contract, declarers, OPTIONS, ()), calls_king, called_king, pick if pick else None,
        stash if pick else None, plan.kernel_plan)
    if lane is None or lane[1] != trick_seats:  # the seats the lane played the tricks from must be the table's
        return None
    return lane


def score_announced(deal: Deal, trick_seats: list[tuple[int, ...]], ledger: SessionLedger) -> dict[str, Any] | None:
    """``score_clean`` of a clean deal with announcements, given the record's ``Deal`` (``record_deal``): the
    lane's replay (``tarock.accel.lane.replay_slovenian``: the kernel's lane and the Python engine's check of
    the announcements and kontras, as ingest's bulk path takes such a deal) must find nothing, and the scorer
    reads the valid announcements and kontras it established.  None, the ledger untouched, when the lane
    declines the deal or the scorer does not take it."""
    kernel = accel.KERNEL
    score = prepared()
    if kernel is None or score is None:
        return None
    players = deal.players
    n = len(players)
    contract = CONTRACTS[deal.contract]
    known = _SPECS.get((contract.name, n))
    spec = known if known is not None else _spec(contract, n)
    roster = roster_of(players)
    if spec is None or roster is None:
        return None
    replayed = replay_slovenian(deal, OPTIONS, kernel)
    if replayed is None or replayed.findings or not isinstance(replayed.facts, DealFacts) \
            or replayed.trick_seats != trick_seats:
        return None
    facts = replayed.facts
    extra = extra_of(facts.announced, facts.kontra)
    if extra is None:
        return None
    plan, score_plan, calls_king = spec
    declarer, declarers = replayed.declarer, replayed.declarers
    # the lane again for its raw facts, which the scorer reads (the replay keeps only the DealFacts it made)
    lane = kernel.lane(deal.hands, deal.talon, deal.tricks, None, players, CARDS_PER_HAND[n],
                       -1 if declarer is None else declarer,
                       leader(plan.contract, declarers, OPTIONS, tuple(a.bonus for a in deal.announcements)),
                       calls_king, deal.called_king, deal.talon_pick, deal.stash, plan.kernel_plan)
    if lane is None:
        return None
    return _scored(score, score_plan, roster, players, declarer, replayed.partner, lane[8], extra, ledger)


def _scored(score: Callable[..., Any], score_plan: tuple[Any, ...], roster: tuple[bytes, ...],
            players: tuple[str, ...], declarer: int | None, partner: int | None, facts: tuple[Any, ...],
            extra: tuple[int, ...] | None, ledger: SessionLedger) -> dict[str, Any] | None:
    """The deal scored by the compiled scorer with the radelci the ledger holds, the ledger updated as
    ``SessionLedger.apply`` updates it, and the ``recorded`` line; None (the ledger untouched) when the scorer
    does not take the deal."""
    radelci = ledger.radelci
    before = tuple([radelci.get(p, 0) for p in players])
    scored = score(score_plan, roster, declarer, partner, facts, before, 0, _SCRATCH, extra)
    _SCRATCH.clear()
    if scored is None:
        return None
    _, scores, after, _ = scored
    ledger.join(players)  # what SessionLedger.apply does with the reference's result
    ledger.end_per_radelc = _END_PER_RADELC
    after_by_name = dict(zip(players, after))
    radelci.update(after_by_name)
    totals = ledger.totals
    for p, s in zip(players, scores):
        totals[p] += s
    ledger.scored += 1
    return {"scores": {p: s for p, s in zip(players, scores) if s}, "radelci": after_by_name}


Spec = tuple[Plan, tuple[Any, ...], bool]
"""What the lane and the scorer play a contract at a table size by: the lane's plan, the scorer's, whether a king
is called."""

_SPECS: dict[tuple[str, int], Spec | None] = {}


def _spec(contract: Contract, n: int) -> Spec | None:
    """The contract's ``Spec`` at ``n`` players, or None when the lane or the scorer does not take it."""
    plan = plan_for(contract.name, OPTIONS)
    score_plan = plan_of(contract.name, OPTIONS)
    spec = None
    if plan is not None and score_plan is not None:
        spec = (plan, score_plan, plan.contract.calls_king and n == 4)
    _SPECS[contract.name, n] = spec
    return spec
