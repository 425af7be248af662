"""Which card decided the game: every card of a deal against the contract's win condition, from trick 1.

A reviewer's first question about a lost game is not how many points a card cost but which card lost it.
That is a threshold question, far cheaper than an exact value: before each card of the played line the
answer is whether the declarer side can still reach its win condition with best play from there
(``tarock.solver.search.at_least``, one null-window search):

* Tri … Solo ena, Solo brez: at least ``WIN_THRESHOLD`` (36) counted card points in its pile
  (tarock/rules/slovenian/scoring.py);
* Berač, Odprti berač: no trick taken; Valat, Barvni valat: every trick taken (the contract's own goal,
  ``goal_of``).

A card *decides the game* (finding ``M_GAME_LOST``, severity ``misplay``) when its side could reach its aim
before it (the declarer side its contract, the defence the contract's defeat) and cannot after it: with best
play from then on the other side wins.  The finding names the cards of that hand that kept the game.  A card
that reached its side's aim gives the answer before it for free (the side could play it); where it missed, each
other legal card is searched instead of the position (``_before``).  Every search along the line runs on one
transposition table (the engine keeps it per game context), so each reuses what the later ones found.

Klop (no sides) and Königrufen (the solver plays Slovenian tarok only) are out of scope; a renons card is
judged by the penalty rules, not here, so an illegal card is never a misplay.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tarock.cards import CARD_SUIT, CODES, card_text
from tarock.deal import Deal
from tarock.engine import replay
from tarock.findings import Finding
from tarock.rules.rulesets import ruleset_label
from tarock.rules.slovenian.scoring import WIN_THRESHOLD
from tarock.solver.position import AnalysisError, position_before
from tarock.solver.search import POINTS, Position, SearchStopped, at_least, cpu_limit, play

GAME_LOST = "M_GAME_LOST"

DECISIVE_VERSION = "1"
"""The version of what a verdict says (the store's ``game_analysis.solver_version``): raise it when an answer or
a row's meaning could change, so the store judges its deals again."""


@dataclass(frozen=True, slots=True)
class CardVerdict:
    """One card of the played line against the win condition.

    ``declarer_could_win`` is whether the declarer side could reach its aim with best play from the position
    before the card; ``declarer_can_win`` the same after it.  ``declarer_side`` says whose card it was.  A
    card ``decided`` the game when it turned its own side's answer from yes to no; ``kept`` then lists the
    legal cards of that hand that would have kept the answer (codes, high to low).
    """

    trick: int
    order: int
    seat: int
    player: str
    card: int
    declarer_side: bool
    legal: bool
    declarer_could_win: bool
    declarer_can_win: bool
    kept: tuple[int, ...] = ()

    @property
    def decided(self) -> bool:
        """Whether this card lost its side the game it could have had (the defence: the defeat)."""
        if not self.legal:
            return False
        if self.declarer_side:
            return self.declarer_could_win and not self.declarer_can_win
        return not self.declarer_could_win and self.declarer_can_win


class OutOfScope(ValueError):
    """A deal whose game cannot be decided card by card here; the text says why."""


def wins(position: Position) -> bool:
    """Whether the declarer side reaches its contract's aim with best play from ``position``."""
    if position.objective == POINTS:
        return at_least(position, WIN_THRESHOLD)
    return at_least(position, 0)


Progress = Callable[[int, int], None]
"""``progress(done, total)``: called after each card judged."""


def verdicts(deal: Deal, options: Mapping[str, Any] | None = None, progress: Progress | None = None,
             limit: float | None = None) -> list[CardVerdict]:
    """Every card of ``deal``'s play from trick 1, judged against the win condition (``OutOfScope`` when the
    deal cannot be: Klop, Königrufen, a record with errors or tricks out of turn).

    ``options`` override the record's (a stored deal's effective options).  With a ``limit`` (CPU seconds) the
    verdicts are those of the whole tricks ``judge_line`` reached within it, from the last trick back."""
    if deal.ruleset != "slovenian":
        raise OutOfScope(f"the solver plays Slovenian tarok only, not {ruleset_label(deal.ruleset)}")
    rp = replay(deal, options)
    try:
        position = position_before(rp, 1)
    except AnalysisError as exc:
        raise OutOfScope(str(exc)) from None
    return judge_line(position, rp.tricks, rp.deal.players, progress=progress, limit=limit)


def judge_line(position: Position, tricks: Sequence[Sequence[int]], players: Sequence[str], first_trick: int = 1,
               progress: Progress | None = None, limit: float | None = None) -> list[CardVerdict]:
    """The verdicts of the cards ``tricks`` (played in turn from ``position``, the start of trick
    ``first_trick``), ``players`` naming the seats, in play order.

    The answers are found from the last position back to the first (``_before``), each on the table the later
    ones filled: only the positions whose card missed its side's aim are searched, and a whole deal costs about
    those of its first tricks, the later ones being small.  So a CPU
    ``limit`` (seconds) that stops the search keeps every trick judged before it: the verdicts then start at
    the earliest trick whose every card was judged (none when not even the last trick was).
    """
    line: list[tuple[int, int, Position]] = []  # (trick, order, the position before the card)
    for t, cards in enumerate(tricks, start=first_trick):
        for order, card in enumerate(cards):
            line.append((t, order, position))
            position = play(position, card)
    played = [card for cards in tricks for card in cards]
    out: list[CardVerdict] = []
    with cpu_limit(limit):
        try:
            after = wins(position)
            trick: list[CardVerdict] = []
            for (t, order, before_position), card in zip(reversed(line), reversed(played)):
                before, kept = _before(before_position, card, after)
                seat = before_position.turn
                trick.append(CardVerdict(t, order, seat, players[seat], card, seat in before_position.declarer_side,
                                         bool(before_position.legal() >> card & 1), before, after, kept))
                after = before
                if order == 0:  # the trick's lead: every card of the trick is judged
                    out[:0] = reversed(trick)
                    trick = []
                    if progress is not None:
                        progress(len(out), len(played))
        except SearchStopped:
            pass
    return out


def _before(position: Position, played: int, after: bool) -> tuple[bool, tuple[int, ...]]:
    """The declarer side's answer at ``position`` (``wins``), whose card ``played`` leads to the answer ``after``,
    and when that card decided the game the legal cards that would have kept it (taroks first, each suit high to
    low; else none).

    The answer is the best of the legal cards' answers for the side of the seat to move, so the card played settles
    it when it reaches that side's aim: the side could play it.  Otherwise the side reaches its aim exactly when
    another legal card does, and each one's answer is searched: those that reach it are the cards that kept the
    game.  Those are the null-window proofs a search of ``position`` itself would make (each card against the same
    threshold), and where the card decided the game that search is saved, its proof being the kept cards' again.
    An illegal card (a renons) is no move of the position: it is searched then."""
    ours = position.turn in position.declarer_side
    mask = position.legal()
    if not mask >> played & 1:
        return wins(position), ()
    if after == ours:
        return after, ()
    cards = sorted((c for c in range(54) if mask >> c & 1 and c != played), key=lambda c: (CARD_SUIT[c], -c))
    kept = tuple(c for c in cards if wins(play(position, c)) == ours)
    return (ours if kept else after), kept


def finding(verdict: CardVerdict) -> Finding:
    """The ``M_GAME_LOST`` finding of a card that decided the game, in one sentence a player reads."""
    return Finding(GAME_LOST, sentence(verdict.trick, verdict.player, CODES[verdict.card], verdict.declarer_side,
                                       [CODES[c] for c in verdict.kept]),
                   trick=verdict.trick, position=verdict.order, player=verdict.player, card=CODES[verdict.card])


def sentence(trick: int, player: str, card: str, declarer_side: bool, kept: Sequence[str]) -> str:
    """What a card that decided the game did, as the finding says it (``card`` and ``kept`` are codes)."""
    side, aim = ("the declarer's side", "its contract") if declarer_side else ("the defence", "the contract's defeat")
    better = ", ".join(card_text(c) for c in kept)
    return (f"Trick {trick}: {player} played {card_text(card)} and {side} could no longer force "
            f"{aim}; {better} would have kept it.")


def misplays(line: list[CardVerdict]) -> list[Finding]:
    """The ``M_GAME_LOST`` findings of a judged line, in play order."""
    return [finding(v) for v in line if v.decided]


def game_findings(deal: Deal, options: Mapping[str, Any] | None = None,
                  limit: float | None = None) -> list[Finding] | None:
    """The ``M_GAME_LOST`` findings of ``deal``'s whole play, or None when it is out of scope or the CPU ``limit``
    (seconds) stopped the search before trick 1 was judged."""
    try:
        line = verdicts(deal, options, limit=limit)
    except OutOfScope:
        return None
    if not line or line[0].trick != 1:
        return None
    return misplays(line)
