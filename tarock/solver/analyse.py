"""Double-dummy analysis of a recorded deal: what each card cost its side against best play.

``analyse_deal(deal, K)`` replays the deal, takes the position before trick
K (every hand known, as in bridge's double-dummy "mistakes" reports) and
solves it and every later position of the play with ``tarock.solver.search``.  A
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
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from tarock.cards import CODES
from tarock.deal import Deal
from tarock.engine import Replay, replay
from tarock.formats.reader import read_many
from tarock.rules.slovenian.contracts import CONTRACTS
from tarock.solver.position import AnalysisError, position_before
from tarock.solver.search import POINTS, Position, play, value

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


# -- the command -----------------------------------------------------------------------------------
def analyse_command(paths: Iterable[str | Path], from_trick: int, fmt: str = "json") -> Iterator[Any]:
    """``tarock analyse``: one report per deal of the record files under ``paths``.

    ``fmt == "json"`` yields the report dicts (a record that cannot be read
    yields ``{"id": None, "file", "line", "error"}``); ``"text"`` yields
    printable lines.
    """
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


@dataclass
class PlayerSummary:
    """What one player's cards cost over the analysed deals: point losses in the point contracts, games
    given away in the others (Berač, Odprti berač, the valats), and the biggest single losses."""

    cards: int = 0
    points_lost: int = 0
    point_cards: int = 0
    games_given_away: int = 0
    biggest: list[tuple[int, str, int, str]] = field(default_factory=list)  # (loss, deal, trick, card)

    @property
    def mean_loss(self) -> float:
        """Card points lost per card played in the point contracts."""
        return self.points_lost / self.point_cards if self.point_cards else 0.0


def summarise(reports: Iterable[dict[str, Any]], keep: int = 3) -> dict[str, PlayerSummary]:
    """Per player, in order of first appearance: cards played, losses, and the ``keep`` biggest losses."""
    out: dict[str, PlayerSummary] = {}
    for report in reports:
        if "error" in report:
            continue
        points = "declarer_takes_trick" not in report["best"] and "declarer_takes_all" not in report["best"]
        for c in report["cards"]:
            s = out.setdefault(c["player"], PlayerSummary())
            s.cards += 1
            loss = c["point_loss"]
            if points:
                s.point_cards += 1
                s.points_lost += max(loss, 0)
                if loss > 0:
                    s.biggest.append((loss, str(report["id"]), c["trick"], c["card"]))
                    s.biggest.sort(key=lambda b: -b[0])
                    del s.biggest[keep:]
            elif loss > 0:
                s.games_given_away += 1
    return out


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
