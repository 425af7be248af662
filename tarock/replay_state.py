"""The state of one deal's replay, shared by the engine and the rulesets' replay phases.

``Replay`` is what a replay returns; ``Table`` is what the phases so far
established (contract, declarers, hands, king, talon, play) for the phases
after them.  The engine (``tarock.engine``) runs the phases every ruleset
shares; ``tarock.rules.slovenian.replay`` and ``tarock.rules.koenigrufen.replay`` add the
ones that differ (announcements, and the facts scoring needs).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, TypeVar

from tarock.cards import CODES
from tarock.deal import Deal
from tarock.facts import DECLARER, OPPONENTS, AnyFacts, Side
from tarock.findings import Finding, status_of
from tarock.game import Game
from tarock.options import KoenigrufenOptions, Options, SlovenianOptions
from tarock.rules.events import Demotions
from tarock.rules.koenigrufen.contracts import Contract as KoenigrufenContract
from tarock.rules.slovenian.contracts import Contract as SlovenianContract


@dataclass(slots=True)
class Replay:
    """Everything a replay established about one deal.

    ``facts`` is None when the deal has an ``error`` finding (it cannot be
    scored).  ``card_points`` is ``{"declarer_side": …, "opponents": …}``
    or, in Klop and Trischaken, one entry per player.  ``declarers`` lists
    every declarer (Königrufen's parallel negative games have several);
    ``declarer`` is the first.  A ``sheet_only`` record (a score sheet's
    hand) is not replayed: no card points, no facts, and ``won`` taken
    from the record (its ``won`` key, else the sign of the declarer's
    recorded figure).
    """

    deal: Deal
    options: Options | None
    findings: list[Finding]
    contract: str
    declarer: int | None = None
    partner: int | None = None
    hands: list[int] | None = None
    talon: tuple[int, ...] | None = None
    tricks: list[tuple[int, ...]] = field(default_factory=list)
    trick_seats: list[tuple[int, ...]] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    card_points: dict[str, int] | None = None
    facts: AnyFacts | None = None
    declarers: tuple[int, ...] = ()
    sheet_only: bool = False
    won: bool | None = None

    @property
    def status(self) -> str:
        return status_of(self.findings)

    def player(self, seat: int | None) -> str | None:
        return None if seat is None else self.deal.players[seat]

    def trick_leaders(self) -> list[int]:
        return [seats[0] for seats in self.trick_seats]


def report(out: Replay, code: str, message: str, player: str | None = None, card: int | None = None,
           trick: int | None = None, position: int | None = None) -> None:
    """Add a finding to a replay (``card`` an int, written as its code)."""
    out.findings.append(Finding(code, message, trick, position, player, None if card is None else CODES[card]))


class Abort(Exception):
    """The deal cannot be replayed further (an error that leaves nothing to check)."""


AnyContract = SlovenianContract | KoenigrufenContract
"""A contract of either ruleset."""

ContractT = TypeVar("ContractT", bound=AnyContract)
OptionsT = TypeVar("OptionsT", bound=Options)

@dataclass(slots=True)
class Table(Generic[ContractT, OptionsT]):
    """One deal being replayed: what the phases so far established.

    Generic in the ruleset's contract and options: the engine's shared phases take any ``Table``, a
    ruleset's own phases its ``SlovenianTable`` or ``KoenigrufenTable``.  ``hands`` are the hands as
    dealt, ``play_hands`` after the talon exchange; ``pick`` and ``stash`` are masks; ``announced``
    holds each announced bonus with the announcing side (and seat), ``kontra`` each kontra'd target's
    multiplier, ``pair_kontra`` those of Königrufen's negative games, where a kontra binds one opponent
    against one declarer, by (opponent seat, declarer seat); ``game`` is the card play, ``decided_at``
    the trick that decided the contract early, if one did; ``demotions`` the table events that demote
    cards in the play, if any.
    """

    deal: Deal
    out: Replay
    options: OptionsT
    contract: ContractT
    declarers: tuple[int, ...]
    seats: list[list[int]]
    hands: list[int] = field(default_factory=list)
    talon: tuple[int, ...] | None = None
    play_hands: list[int] = field(default_factory=list)
    called_king: int | None = None
    partner: int | None = None
    king_in_talon: bool = False
    conceded: bool = False
    pick: int = 0
    stash: int = 0
    announced: list[tuple[str, Side, int]] = field(default_factory=list)
    kontra: dict[str, int] = field(default_factory=dict)
    game: Game | None = None
    decided_at: int | None = None
    demotions: Demotions | None = None
    pair_kontra: dict[tuple[int, int], int] = field(default_factory=dict)

    @property
    def declarer(self) -> int | None:
        """The (first) declarer; None in Klop and Trischaken."""
        return self.declarers[0] if self.declarers else None

    @property
    def side_seats(self) -> frozenset[int]:
        """The declarer's side: the declarers and the partner."""
        return frozenset(self.declarers) | ({self.partner} if self.partner is not None else frozenset())

    def side_of(self, seat: int) -> Side:
        return DECLARER if seat in self.side_seats else OPPONENTS

    def report(self, code: str, message: str, player: str | None = None, card: int | None = None,
               trick: int | None = None, position: int | None = None) -> None:
        """Add a finding to the replay."""
        report(self.out, code, message, player, card, trick, position)

    def offenders(self) -> tuple[int, ...]:
        """Seats with a renons finding, in the order found (for the penalty policy)."""
        seats: list[int] = []
        for f in self.out.findings:
            if f.severity == "renons" and f.player is not None:
                s = self.deal.seat(f.player)
                if s not in seats:
                    seats.append(s)
        return tuple(seats)


SlovenianTable = Table[SlovenianContract, SlovenianOptions]
KoenigrufenTable = Table[KoenigrufenContract, KoenigrufenOptions]


def side_piles(piles: list[int], side_seats: frozenset[int] | set[int] | tuple[int, ...]) -> tuple[int, int]:
    """The tricks taken by the declarer's side and by the opponents, as two masks."""
    declarer_pile = 0
    opp_pile = 0
    for seat, pile in enumerate(piles):
        if seat in side_seats:
            declarer_pile |= pile
        else:
            opp_pile |= pile
    return declarer_pile, opp_pile


def holder_side(target: int, declarer_pile: int, opp_pile: int) -> Side | None:
    """The side whose pile holds every card of ``target`` (trula, four kings), if one does."""
    if declarer_pile & target == target:
        return DECLARER
    if opp_pile & target == target:
        return OPPONENTS
    return None


def claimed_rest(table: Table) -> tuple[int, Side | None]:
    """The cards a valid claim gives away (still in hands) and the side of the claimer."""
    deal, game = table.deal, table.game
    if deal.claim is None or game is None or len(game.tricks) != deal.claim.after_trick:
        return 0, None
    side = table.side_of(deal.seat(deal.claim.player))
    if any(f.code == "M_BAD_CLAIM" for f in table.out.findings):  # docs/penalties.md, "Claims": all to the opponents
        side = OPPONENTS if side == DECLARER else DECLARER
    return game.unplayed(), side
