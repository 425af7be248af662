"""The position before a trick of a replayed deal: where the double-dummy solver starts.

Built from what the replay established (the hands after the talon exchange, the
tricks played, the declarer side's pile so far), so the analysis (``tarock.solver.analyse``)
and the claim check (``tarock.solver.claims``) start from the same position.
"""

from __future__ import annotations

from dataclasses import replace

from tarock.cards import counted_thirds, mask_of
from tarock.options import SlovenianOptions
from tarock.replay_state import Replay
from tarock.rules.slovenian.contracts import CARDS_PER_HAND, CONTRACTS
from tarock.solver.search import Position, breaks

KLOP_ERROR = "Klop has no sides; the solver does not apply"


class AnalysisError(ValueError):
    """A deal that cannot be analysed from the trick asked for; the text says why."""


def position_before(rp: Replay, trick: int) -> Position:
    """The position at the start of trick ``trick`` (1-based) of a replayed deal; AnalysisError if unknown.

    Built from what the replay established: the hands after the talon
    exchange less the cards played, the leader, and the declarer side's
    pile so far (its tricks, the stash, a talon brought home).  The tricks
    from ``trick`` on must have been played in turn, since the solver
    follows the rotation.
    """
    deal = rp.deal
    n = deal.n_players
    n_tricks = CARDS_PER_HAND.get(n, 0)
    if deal.contract == "klop":
        raise AnalysisError(KLOP_ERROR)
    if rp.status == "error" or rp.hands is None or rp.declarer is None or \
            not isinstance(rp.options, SlovenianOptions):
        raise AnalysisError("the record has errors; its play cannot be analysed")
    if not 1 <= trick <= n_tricks:
        raise AnalysisError(f"there is no trick {trick}: a deal has tricks 1 to {n_tricks}")
    done = trick - 1
    if done > len(rp.tricks):
        raise AnalysisError(f"the record stops after trick {len(rp.tricks)}, before trick {trick}")
    for t in range(done, len(rp.tricks)):
        if any(s != (rp.trick_seats[t][0] + i) % n for i, s in enumerate(rp.trick_seats[t])):
            raise AnalysisError(f"trick {t + 1} was not played in turn; the solver cannot follow it")
    side = frozenset(s for s in (rp.declarer, rp.partner) if s is not None)
    pick, stash = _pick_and_stash(rp)
    hands = _play_hands(rp, pick, stash)
    banked = counted_thirds(stash)
    king, home = _bring_home(rp, pick)
    failed = False
    start = Position(tuple(hands), _leader(rp), deal.contract, side, options=rp.options)
    for cards, seats, winner in zip(rp.tricks[:done], rp.trick_seats[:done], rp.winners[:done]):
        for card, seat in zip(cards, seats):
            hands[seat] &= ~(1 << card)
        ours = winner in side
        if ours:
            banked += counted_thirds(mask_of(cards))
        if king in cards:
            if ours and seats[cards.index(king)] == winner:
                banked += home
            king = -1
        failed = failed or breaks(start.objective, ours)
    if len({h.bit_count() for h in hands}) > 1:
        raise AnalysisError(f"the hands before trick {trick} cannot be rebuilt from the record")
    leader = rp.winners[done - 1] if done else start.leader
    return replace(start, hands=tuple(hands), leader=leader, banked=banked, bring_home=king,
                   bring_home_thirds=home if king >= 0 else 0, failed=failed)


def _leader(rp: Replay) -> int:
    """Who leads trick 1: the declarer in Berač and above, else forehand."""
    contract = CONTRACTS[rp.contract]
    return rp.declarer if contract.declarer_leads and rp.declarer is not None else 0


def _pick_and_stash(rp: Replay) -> tuple[int, int]:
    """The talon cards the declarer took and laid away: as recorded, else inferred as the engine does."""
    deal = rp.deal
    if not CONTRACTS[rp.contract].talon_group or rp.declarer is None or rp.hands is None:
        return 0, 0
    hand = rp.hands[rp.declarer]
    played = 0
    for cards, seats in zip(rp.tricks, rp.trick_seats):
        for card, seat in zip(cards, seats):
            if seat == rp.declarer:
                played |= 1 << card
    talon = mask_of(rp.talon or ())
    if deal.talon_pick is not None:
        pick = mask_of(deal.talon_pick)
    else:
        pick = (played | mask_of(deal.stash or ())) & ~hand & talon
    stash = mask_of(deal.stash) if deal.stash is not None else (hand | pick) & ~played
    return pick, stash


def _play_hands(rp: Replay, pick: int, stash: int) -> list[int]:
    """Each seat's hand when play starts (the declarer's after the talon exchange)."""
    assert rp.hands is not None and rp.declarer is not None
    hands = list(rp.hands)
    hands[rp.declarer] = (hands[rp.declarer] | pick) & ~stash
    return hands


def _bring_home(rp: Replay, pick: int) -> tuple[int, int]:
    """The called king that brings the unchosen talon home if the declarer wins a trick with it, and its worth.

    Only when the king lay in the talon and the declarer took it (docs/rules.md,
    "Called king in talon"); otherwise (-1, 0).
    """
    king = rp.deal.called_king
    talon = mask_of(rp.talon or ())
    if king is None or rp.partner is not None or not talon >> king & 1 or not pick >> king & 1:
        return -1, 0
    return king, counted_thirds(talon & ~pick)
