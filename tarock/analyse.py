"""Double-dummy analysis of a recorded deal: what each card cost its side against best play.

``analyse_deal(deal, K)`` replays the deal, takes the position before trick
K (every hand known, as in bridge's double-dummy "mistakes" reports) and
solves it and every later position of the play with ``tarock.solver``.  A
card's ``point_loss`` is the solver's value of the position before the card
minus the value after it, seen from the card's side:

* Tri … Solo ena, Solo brez: counted card points of the side's pile;
* Berač, Odprti berač, Valat, Barvni valat: 1 when the card gives the game
  away (its side could force the result before the card and cannot after
  it), else 0.

An optimal card loses 0; a renons card (illegal) may show a negative loss,
since the rules would not have allowed the gain.  Klop has no sides and is
reported as out of scope.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from tarock.cards import CODES, counted_thirds, mask_of
from tarock.deal import Deal
from tarock.engine import Replay, replay
from tarock.options import SlovenianOptions
from tarock.slovenian import CARDS_PER_HAND, CONTRACTS
from tarock.solver import POINTS, Position, breaks, play, value

KLOP_ERROR = "Klop has no sides; the solver does not apply"


class AnalysisError(ValueError):
    """A deal that cannot be analysed from the trick asked for; the text says why."""


def analyse_deal(deal: Deal, from_trick: int) -> dict[str, Any]:
    """Best play from the position before trick ``from_trick`` and the point loss of every card played since.

    Returns ``{"id", "from_trick", "best", "cards"}``: ``best`` is
    ``{"declarer_side": int}`` (counted card points with best play) in the
    point contracts, ``{"declarer_takes_trick": bool}`` in Berač and Odprti
    berač, and ``{"declarer_takes_all": bool, "declarer_side": int}`` in the
    valats; ``cards`` lists ``{"trick", "player", "card", "point_loss"}`` in
    play order.  A deal that cannot be analysed gives ``{"id",
    "from_trick", "error"}`` instead.  Solving time grows steeply with the
    number of tricks left (see docs/solver.md).
    """
    head = {"id": deal.id, "from_trick": from_trick}
    if deal.ruleset != "slovenian":
        return {**head, "error": f"the solver plays slovenian tarok only, not {deal.ruleset}"}
    rp = replay(deal)
    try:
        start = position_before(rp, from_trick)
    except AnalysisError as exc:
        return {**head, "error": str(exc)}
    return {**head, "best": _best(start), "cards": _losses(rp, start, from_trick)}


def _best(position: Position) -> dict[str, Any]:
    """The ``best`` object of the report for ``position``."""
    goal = position.objective
    v = value(position)
    if goal == POINTS:
        return {"declarer_side": v}
    if CONTRACTS[position.contract].is_beggar:
        return {"declarer_takes_trick": v < 0}
    points = value(replace(position, goal=POINTS, failed=False))
    return {"declarer_takes_all": v == 0, "declarer_side": points}


def _losses(rp: Replay, position: Position, from_trick: int) -> list[dict[str, Any]]:
    """Each card played from ``from_trick`` on, with what it cost its side."""
    names = rp.deal.players
    out = []
    before = value(position)
    for t in range(from_trick - 1, len(rp.tricks)):
        for card, seat in zip(rp.tricks[t], rp.trick_seats[t]):
            position = play(position, card)
            after = value(position, before)
            loss = before - after if seat in position.declarer_side else after - before
            out.append({"trick": t + 1, "player": names[seat], "card": CODES[card], "point_loss": loss})
            before = after
    return out


# -- the position before a trick ------------------------------------------------------------------
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

    Only when the king lay in the talon and the declarer took it (RULES.md,
    "Called king in talon"); otherwise (-1, 0).
    """
    king = rp.deal.called_king
    talon = mask_of(rp.talon or ())
    if king is None or rp.partner is not None or not talon >> king & 1 or not pick >> king & 1:
        return -1, 0
    return king, counted_thirds(talon & ~pick)


# -- the command -----------------------------------------------------------------------------------
def analyse_command(paths: Iterable[str | Path], from_trick: int, fmt: str = "json") -> Iterator[Any]:
    """``tarock analyse``: one report per deal of the record files under ``paths``.

    ``fmt == "json"`` yields the report dicts (a record that cannot be read
    yields ``{"id": None, "file", "line", "error"}``); ``"text"`` yields
    printable lines.
    """
    from tarock.records import read_many

    for item in read_many(paths):
        if item.deal is None:
            report: dict[str, Any] = {"id": None, "file": item.file, "line": item.line,
                                      "error": item.finding.message if item.finding else "unreadable record"}
        else:
            report = analyse_deal(item.deal, from_trick)
        if fmt == "json":
            yield report
        else:
            yield from text_lines(report)


def text_lines(report: dict[str, Any]) -> Iterator[str]:
    """A report as lines a player reads: the best result, then each card that lost something."""
    who = report["id"] or f"{report.get('file')}:{report.get('line')}"
    if "error" in report:
        yield f"{who}: {report['error']}"
        return
    best = report["best"]
    if "declarer_takes_trick" in best:
        outcome = "the declarer is forced to take a trick" if best["declarer_takes_trick"] else \
            "the declarer can avoid every trick"
    elif "declarer_takes_all" in best:
        outcome = ("the declarer can take every trick" if best["declarer_takes_all"] else
                   "the declarer cannot take every trick") + f" ({best['declarer_side']} card points)"
    else:
        outcome = f"the declarer side makes {best['declarer_side']} card points"
    yield f"{who}: from trick {report['from_trick']}, with best play {outcome}"
    points = "declarer_takes_trick" not in best and "declarer_takes_all" not in best
    for c in report["cards"]:
        loss = c["point_loss"]
        if loss:
            what = f"losing {loss} card points" if points else "giving the game away"
            if loss < 0:
                what = "gaining by an illegal card"
            yield f"  trick {c['trick']}: {c['player']} played {c['card']}, {what}"
