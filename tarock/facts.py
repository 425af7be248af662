"""What a replayed deal established, in the terms scoring needs.

The engine fills a ``DealFacts`` (``slovenian``) or a ``KoenigrufenFacts``
from the card play; ``tarock.rules.slovenian.scoring`` / ``tarock.rules.koenigrufen.scoring`` turn
it into a score breakdown.  Keeping this boundary plain data lets the
scoring rules be tested from hand-written facts, independently of card play.

Sides are ``"declarer"`` (declarer and partner) and ``"opponents"``; seats
are 0-based in playing order (0 = forehand, last = dealer).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Mapping

from tarock.options import DEFAULT_KOENIGRUFEN, DEFAULT_SLOVENIAN, KoenigrufenOptions, SlovenianOptions

Side = Literal["declarer", "opponents"]

DECLARER: Side = "declarer"
OPPONENTS: Side = "opponents"


@dataclass(frozen=True, slots=True)
class DealFacts:
    """The outcome of one deal's card play, as far as scoring is concerned.

    Attributes:
        players: names in playing order.
        contract: the contract played (``klop``, ``tri`` … ``valat``).
        declarer: the declarer's seat; None in Klop.
        partner: the partner's seat; None when there is none (3 players,
            a solo, own king called, called king in the talon).
        card_points: counted card points ``(declarer side, opponents)``;
            None in Klop.
        klop_points: counted card points per seat (Klop only).
        klop_tricks: tricks taken per seat (Klop only).
        declarer_took_trick: Berač / Odprti berač: the declarer took a trick.
        declarer_lost_trick: Valat / Barvni valat: the declarer's side lost a trick.
        valat_side: the side that took every trick, if one did (any contract
            but Klop; for the valat contracts it mirrors ``declarer_lost_trick``).
        trula_side / kings_side: the side whose pile (tricks, stash,
            talon share) holds all three trula cards / all four kings.
        pagat_last: the side of the player who played the Pagat to the last
            trick and whether the Pagat won it; None if the Pagat was not in
            the last trick.
        king_last: when the called king was in the last trick, the side that
            took that trick; else None.
        mondfang: seats of the Mond owners who pay a Mondfang (Mond captured
            in play, or left in the unchosen talon: the declarer's seat).
        announced: each announced bonus with the side that announced it.
        kontra: each kontra'd target's multiplier (2, 4, 8, 16).
        mond_holder: the seat that played with the Mond (None: it lay in the talon, or not known);
            set (and read by scoring) only under ``failed_mondfang_pays``.
        offenders: seats that committed a renons (for the penalty policy).
        decided_early: the trick (1-based) at which the contract was decided,
            if the contract was decided before the last trick.
        as_played: under ``jass_trick_forfeit``, when the forfeit was applied
            (``tarock.rules.penalties``): the facts of the hand as played; these
            facts are then the adjusted ones.
        penalty_note: under ``jass_trick_forfeit``: what was forfeited (when
            applied) or why the policy fell back to ``slovenian_renons``.
    """

    players: tuple[str, ...]
    contract: str
    declarer: int | None = None
    partner: int | None = None
    options: SlovenianOptions = DEFAULT_SLOVENIAN
    card_points: tuple[int, int] | None = None
    klop_points: tuple[int, ...] | None = None
    klop_tricks: tuple[int, ...] | None = None
    declarer_took_trick: bool = False
    declarer_lost_trick: bool = False
    valat_side: Side | None = None
    trula_side: Side | None = None
    kings_side: Side | None = None
    pagat_last: tuple[Side, bool] | None = None
    king_last: Side | None = None
    mondfang: tuple[int, ...] = ()
    announced: tuple[tuple[str, Side], ...] = ()
    kontra: Mapping[str, int] = field(default_factory=dict)
    offenders: tuple[int, ...] = ()
    decided_early: int | None = None
    as_played: DealFacts | None = None
    penalty_note: str | None = None
    mond_holder: int | None = None

    @property
    def n_players(self) -> int:
        return len(self.players)

    def side_of(self, seat: int) -> Side:
        """The side ``seat`` plays on (in Klop everyone is an opponent)."""
        if seat == self.declarer or (self.partner is not None and seat == self.partner):
            return DECLARER
        return OPPONENTS

    @property
    def playing_side(self) -> tuple[int, ...]:
        """The seats that write the deal's score: declarer and partner."""
        if self.declarer is None:
            return ()
        if self.partner is None:
            return (self.declarer,)
        return (self.declarer, self.partner)


@dataclass(frozen=True, slots=True)
class KoenigrufenFacts:
    """The outcome of one Königrufen deal, as far as scoring is concerned.

    Card scores are in the counting's unit (``tarock.rules.koenigrufen.contracts.card_score``:
    thirds under counting 1/3, raw points under 1/1).

    Attributes:
        players: names in playing order.
        contract: the game played (``rufer`` … ``solodreier``).
        declarers: the declarer's seat; several in a parallel negative game;
            none in Trischaken.
        partner: the called king's holder; None when there is none (a game
            without a call, the king in the talon, the declarer's own king).
        conceded: the declarer gave up before play (called king in the talon).
        card_scores: ``(declarer side, opponents)`` card scores (positive games).
        pile_scores: each seat's card score (Trischaken).
        tricks: tricks taken per seat.
        valat_side: the side that took every trick, if one did.
        trull_side / kings_side: the side whose pile holds the Trull / all
            four kings (talon shares and the stash included).
        birds: each bird (``pagat_ultimo`` … ``quapil``) played to its trick:
            the side of its player and whether it took that trick.
        king_last: the called king itself took the last trick.
        announced: each announced bonus with the announcing side.
        kontra: positive games: each kontra'd target's multiplier (2, 4, 8).
        pair_kontra: negative games: ``(opponent seat, declarer seat)`` ->
            multiplier; a kontra binds only the player who said it.
        offenders: seats that committed a renons (for the penalty policy).
        decided_early: the trick (1-based) that decided a negative game early.
    """

    players: tuple[str, ...]
    contract: str
    declarers: tuple[int, ...] = ()
    partner: int | None = None
    options: KoenigrufenOptions = DEFAULT_KOENIGRUFEN
    conceded: bool = False
    card_scores: tuple[int, int] | None = None
    pile_scores: tuple[int, ...] | None = None
    tricks: tuple[int, ...] = ()
    valat_side: Side | None = None
    trull_side: Side | None = None
    kings_side: Side | None = None
    birds: tuple[tuple[str, Side, bool], ...] = ()
    king_last: bool = False
    announced: tuple[tuple[str, Side], ...] = ()
    kontra: Mapping[str, int] = field(default_factory=dict)
    pair_kontra: Mapping[tuple[int, int], int] = field(default_factory=dict)
    offenders: tuple[int, ...] = ()
    decided_early: int | None = None

    @property
    def n_players(self) -> int:
        return len(self.players)

    @property
    def declarer(self) -> int | None:
        """The first declarer; None in Trischaken."""
        return self.declarers[0] if self.declarers else None

    @property
    def playing_side(self) -> tuple[int, ...]:
        """The declarers and the partner."""
        return self.declarers + (() if self.partner is None else (self.partner,))

    def side_of(self, seat: int) -> Side:
        return DECLARER if seat in self.playing_side else OPPONENTS


AnyFacts = DealFacts | KoenigrufenFacts
"""The facts of a deal of either ruleset."""
