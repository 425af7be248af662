"""Claim adjudication (docs/penalties.md, "Claims": is a record's ``claim`` sound?

A player who lays the hand down after ``after_trick`` tricks claims every
remaining trick for their side.  The claim is sound exactly when the other
side cannot take a trick by any legal play from that position
(``tarock.solver.search.can_opponents_take_a_trick``).  An unsound claim is the
misplay ``M_BAD_CLAIM``; under 8.11 all remaining cards then go to the
opponents of the claimer (a sound claim gives them to the claimer's side).

Deals that cannot be analysed (Klop, Königrufen, errors, a claim that does
not match the tricks played) are not adjudicated.
"""

from __future__ import annotations

from tarock.solver.position import AnalysisError, position_before
from tarock.findings import Finding
from tarock.replay_state import Replay
from tarock.solver.search import can_opponents_take_a_trick


def claimer_side(rp: Replay, seat: int) -> frozenset[int]:
    """The seats on the claimer's side: declarer and partner, or every other seat."""
    playing = frozenset(s for s in (rp.declarer, rp.partner) if s is not None)
    if seat in playing:
        return playing
    return frozenset(range(rp.deal.n_players)) - playing


def claim_is_sound(rp: Replay) -> bool | None:
    """True / False for a claim that can be adjudicated; None when there is none or it cannot be."""
    claim = rp.deal.claim
    if claim is None or rp.status == "error" or len(rp.tricks) != claim.after_trick:
        return None
    try:
        position = position_before(rp, claim.after_trick + 1)
    except AnalysisError:
        return None
    return not can_opponents_take_a_trick(position, claimer_side(rp, rp.deal.seat(claim.player)))


def claim_findings(rp: Replay) -> list[Finding]:
    """``[M_BAD_CLAIM]`` when the record's claim could have been beaten, else ``[]``."""
    if claim_is_sound(rp) is not False:
        return []
    claim = rp.deal.claim
    assert claim is not None
    message = (f"{claim.player} claimed the remaining tricks after trick {claim.after_trick}, "
               "but the other side could still take a trick; the remaining cards go to the other side")
    return [Finding("M_BAD_CLAIM", message, claim.after_trick + 1, None, claim.player, None)]
