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

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NamedTuple

from tarock.cards import CODES, card_text
from tarock.deal import Deal
from tarock.engine import Replay, replay
from tarock.formats.reader import read_many
from tarock.rules.rulesets import ruleset_label
from tarock.rules.slovenian.contracts import CONTRACTS
from tarock.solver.decisive import game_findings
from tarock.solver.position import AnalysisError, position_before
from tarock.solver.search import (
    POINTS,
    THIRDS,
    Position,
    SearchStopped,
    best_cards,
    counted,
    cpu_limit,
    play,
    value,
)
from tarock.words import plural

Progress = Callable[[int, int], None]
"""``progress(done, total)``: called after each card analysed (cards of the deal from the trick asked for)."""

DECK_POINTS = counted(sum(THIRDS))
"""The counted card points of the whole deck (70): the two sides' piles always add up to it."""


SOLVER_VERSION = "1"
"""The version of what an analysis says (the store's ``card_analysis.solver_version``): raise it when a value,
a best card or a row's meaning could change, so the store analyses its deals again."""


def analyse_deal(deal: Deal, from_trick: int, progress: Progress | None = None,
                 options: Mapping[str, Any] | None = None, limit: float | None = None) -> dict[str, Any]:
    """Best play from the position before trick ``from_trick`` and the point loss of every card played since.

    Returns ``{"id", "from_trick", "analysed_from", "best", "cards"}``: ``best`` is
    ``{"declarer_side": int}`` (counted card points with best play) in the
    point contracts, ``{"declarer_takes_trick": bool}`` in Berač and Odprti
    berač, and ``{"declarer_takes_all": bool, "declarer_side": int}`` in the
    valats; ``cards`` lists ``{"trick", "player", "card", "point_loss",
    "best_cards", "best_points", "played_points"}`` in play order (``_losses``).
    A deal that cannot be analysed gives ``{"id", "from_trick", "error"}``
    instead.  One pass: every position of the deal is searched with the same
    transposition table, so each card costs little once the first is solved.
    ``options`` override the record's (a stored deal's ``options_json``, as ingest judged it).

    With a ``limit`` (CPU seconds) the tricks are analysed from the last one back towards ``from_trick``, each
    on the table the later ones filled (about the cost of one pass forward), until the limit stops the search:
    ``analysed_from`` is then the earliest trick whose every card was analysed, ``best`` and ``cards`` start
    there.  A deal whose last trick was not reached gives an ``error``.  Without a limit ``analysed_from`` is
    ``from_trick``.
    """
    head = {"id": deal.id, "from_trick": from_trick}
    if deal.ruleset != "slovenian":
        return {**head, "error": f"the solver plays Slovenian tarok only, not {ruleset_label(deal.ruleset)}"}
    rp = replay(deal, options)
    try:
        start = position_before(rp, from_trick)
    except AnalysisError as exc:
        return {**head, "error": str(exc)}
    if limit is None:
        return {**head, "analysed_from": from_trick, "best": _best(start),
                "cards": _losses(rp, start, from_trick, progress)}
    return {**head, **_losses_back(rp, from_trick, limit, progress)}


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


def side_value(v: int, goal: str, declarer_side: bool) -> int:
    """A solver value as the side of the card sees it: its counted card points (the point goal; the other side
    has what the declarer side does not), or 1 when it reaches its aim (Berač, valats: the declarer side its
    contract, the others its defeat) and 0 when not."""
    if goal == POINTS:
        return v if declarer_side else DECK_POINTS - v
    return int((v == 0) == declarer_side)


def _losses(rp: Replay, position: Position, from_trick: int, progress: Progress | None) -> list[dict[str, Any]]:
    """Each card played from ``from_trick`` on, with what it cost its side and the cards that would not have."""
    out: list[dict[str, Any]] = []
    tick = _ticker(rp, from_trick, progress)
    before = value(position)
    for t in range(from_trick - 1, len(rp.tricks)):
        cards, position, before = _trick_losses(rp, t, position, before, tick)
        out.extend(cards)
    return out


def _losses_back(rp: Replay, from_trick: int, limit: float, progress: Progress | None) -> dict[str, Any]:
    """``analysed_from``, ``best`` and ``cards`` of the tricks analysed from the last one back towards
    ``from_trick`` within ``limit`` CPU seconds (an ``error`` when not even the last one was)."""
    tick = _ticker(rp, from_trick, progress)
    cards: list[dict[str, Any]] = []
    reached: tuple[int, dict[str, Any]] | None = None
    with cpu_limit(limit):
        try:
            for k in range(len(rp.tricks), from_trick - 1, -1):
                position = position_before(rp, k)
                trick, _, _ = _trick_losses(rp, k - 1, position, value(position), tick)
                reached = k, _best(position)
                cards = trick + cards
        except SearchStopped:
            pass
    if reached is None:
        return {"error": f"the CPU limit of {limit:g} s stopped the analysis before its last trick"}
    return {"analysed_from": reached[0], "best": reached[1], "cards": cards}


def _ticker(rp: Replay, from_trick: int, progress: Progress | None) -> Callable[[], None]:
    """What to call after each card analysed: ``progress(done, total)`` over the cards from ``from_trick``."""
    total = sum(len(cards) for cards in rp.tricks[from_trick - 1:])
    done = 0

    def tick() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)
    return tick


def _trick_losses(rp: Replay, t: int, position: Position, before: int, tick: Callable[[], None]
                  ) -> tuple[list[dict[str, Any]], Position, int]:
    """The cards of trick ``t`` (from 0) played from ``position`` (of value ``before``), each with what it cost
    its side and the cards that would not have; and the position and value after the trick.

    ``best_points`` is what the card's side makes with best play from the
    position before the card, ``played_points`` the same after it (best play
    after), ``point_loss`` their difference; ``best_cards`` every legal card
    achieving ``best_points`` (the played one among them when it was best).
    """
    names = rp.deal.players
    goal = position.objective
    out = []
    for card, seat in zip(rp.tricks[t], rp.trick_seats[t]):
        ours = seat in position.declarer_side
        best = best_cards(position, before)
        position = play(position, card)
        after = value(position, before)
        best_points, played_points = side_value(before, goal, ours), side_value(after, goal, ours)
        out.append({"trick": t + 1, "player": names[seat], "card": CODES[card],
                    "point_loss": best_points - played_points, "best_cards": [CODES[c] for c in best],
                    "best_points": best_points, "played_points": played_points})
        before = after
        tick()
    return out, position, before


# -- the command -----------------------------------------------------------------------------------
def analyse_command(paths: Iterable[str | Path], from_trick: int, fmt: str = "json",
                    progress: Progress | None = None, limit: float | None = None) -> Iterator[Any]:
    """``tarock analyse``: one report per deal of the record files under ``paths``.

    ``fmt == "json"`` yields the report dicts (a record that cannot be read
    yields ``{"id": None, "file", "line", "error"}``), each analysed deal's with ``misplays``: the cards that
    decided the game from trick 1 (``tarock.solver.decisive``, ``M_GAME_LOST`` findings; None when the
    ``limit`` stopped that search); ``"text"`` yields
    printable lines.  ``progress`` follows each deal's cards, ``limit`` is each
    deal's CPU seconds (``analyse_deal``).
    """
    for item in read_many(paths):
        if item.deal is None:
            report: dict[str, Any] = {"id": None, "file": item.file, "line": item.line,
                                      "error": item.finding.message if item.finding else "unreadable record"}
        else:
            report = analyse_deal(item.deal, from_trick, progress, limit=limit)
            if "error" not in report:
                found = game_findings(item.deal, limit=limit)
                report["misplays"] = None if found is None else [f.to_dict() for f in found]
        if fmt == "json":
            yield report
        else:
            yield from text_lines(report)


class Loss(NamedTuple):
    """One card's loss in a player's summary: what it lost, where, and the cards that would have lost nothing."""

    loss: int
    deal: str
    trick: int
    card: str
    better: tuple[str, ...]


@dataclass
class PlayerSummary:
    """What one player's cards cost over the analysed deals: point losses in the point contracts, games
    given away in the others (Berač, Odprti berač, the valats), and the biggest single losses."""

    cards: int = 0
    points_lost: int = 0
    point_cards: int = 0
    games_given_away: int = 0
    """Cards that decided the game (``M_GAME_LOST`` from trick 1 when the report has them; else, in Berač and
    the valats, the cards from the trick asked for that gave the game away)."""
    biggest: list[Loss] = field(default_factory=list)

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
        decided = report.get("misplays")
        for m in decided or ():
            out.setdefault(m["player"], PlayerSummary()).games_given_away += 1
        for c in report["cards"]:
            s = out.setdefault(c["player"], PlayerSummary())
            s.cards += 1
            loss = c["point_loss"]
            if points:
                s.point_cards += 1
                s.points_lost += max(loss, 0)
                if loss > 0:
                    better = tuple(code for code in c.get("best_cards", ()) if code != c["card"])
                    s.biggest.append(Loss(loss, str(report["id"]), c["trick"], c["card"], better))
                    s.biggest.sort(key=lambda b: -b.loss)
                    del s.biggest[keep:]
            elif loss > 0 and decided is None:
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
    start = report.get("analysed_from", report["from_trick"])
    cut = "" if start == report["from_trick"] else \
        f" (asked from trick {report['from_trick']}: the CPU limit stopped the tricks before {start})"
    yield f"{who}: from trick {start}{cut}, with best play {outcome}"
    points = "declarer_takes_trick" not in best and "declarer_takes_all" not in best
    for c in report["cards"]:
        loss = c["point_loss"]
        if loss:
            what = f"losing {plural(loss, 'card point')}" if points else "giving the game away"
            if loss < 0:
                what = "gaining by an illegal card"
            better = [card_text(code) for code in c.get("best_cards", ()) if code != c["card"]]
            if better:
                what += f" (better: {', '.join(better)})"
            yield f"  trick {c['trick']}: {c['player']} played {card_text(c['card'])}, {what}"
    for m in report.get("misplays") or ():
        yield f"  decided the game: {m['message']}"
