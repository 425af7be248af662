"""A deal as read from a record (`tarock-record/1`): immutable, typed, cards as ints.

A ``Deal`` holds exactly what the record says, normalised (canonical names,
cards as ints) but not yet judged: whether the bidding, the talon or the play
is legal is the engine's business.  ``tarock.formats.codec`` builds deals from JSON
and writes them back in canonical form.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

FORMAT = "tarock-record/1"

RULESETS = ("slovenian", "koenigrufen")

SLOVENIAN_CONTRACTS = (
    "klop",
    "tri",
    "dva",
    "ena",
    "solo_tri",
    "solo_dva",
    "solo_ena",
    "berac",
    "solo_brez",
    "odprti_berac",
    "barvni_valat",
    "valat",
)
"""The Slovenian bidding ladder, lowest first."""

KOENIGRUFEN_CONTRACTS = (
    "rufer",
    "trischaken",
    "sechserdreier",
    "piccolo",
    "zwiccolo",
    "triccolo",
    "bettel",
    "solorufer",
    "besserrufer",
    "farbendreier",
    "dreier",
    "farbensolo",
    "piccolo_ouvert",
    "zwiccolo_ouvert",
    "bettel_ouvert",
    "solodreier",
)

CONTRACTS: dict[str, tuple[str, ...]] = {
    "slovenian": SLOVENIAN_CONTRACTS,
    "koenigrufen": KOENIGRUFEN_CONTRACTS,
}

BONUSES: dict[str, tuple[str, ...]] = {
    "slovenian": ("trula", "kings", "pagat_ultimo", "king_ultimo", "valat", "mondfang"),
    "koenigrufen": (
        "pagat_ultimo",
        "uhu",
        "kakadu",
        "quapil",
        "king_ultimo",
        "trull",
        "vier_koenige",
        "valat",
    ),
}

KONTRA_LEVELS = (2, 4, 8, 16)

EMPTY: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Announcement:
    """A bonus announced (``bonus`` set) or a kontra on ``kontra`` at ``level``."""

    player: str
    bonus: str | None = None
    kontra: str | None = None
    level: int | None = None
    against: str | None = None


@dataclass(frozen=True, slots=True)
class Claim:
    """The player laid the hand down after ``after_trick`` tricks, claiming the rest."""

    player: str
    after_trick: int


@dataclass(frozen=True, slots=True)
class Event:
    """A table event the score keeper noted (``renons_called``, ``out_of_turn``, …)."""

    event: str
    player: str | None = None
    trick: int | None = None
    after_trick: int | None = None
    card: int | None = None


@dataclass(frozen=True, slots=True)
class Recorded:
    """What the score sheet said for this deal (not running totals)."""

    scores: Mapping[str, int]
    radelci: Mapping[str, int] | None = None


@dataclass(frozen=True, slots=True)
class Deal:
    """One deal of a record file, normalised.

    ``hands`` follow ``players`` (forehand first, dealer last); ``tricks``
    hold card ints in play order and ``trick_players`` the named player of
    each card, or ``None`` for a trick whose cards are not named.
    ``id`` is the record's id, or the content hash when it has none
    (``id_given`` tells which).
    """

    id: str
    id_given: bool
    ruleset: str
    players: tuple[str, ...]
    contract: str
    tricks: tuple[tuple[int, ...], ...]
    trick_players: tuple[tuple[str, ...] | None, ...]
    format: str = FORMAT
    session: str | None = None
    seq: int | None = None
    date: str | None = None
    options: Mapping[str, Any] = field(default_factory=lambda: EMPTY)
    hands: tuple[tuple[int, ...], ...] | None = None
    talon: tuple[int, ...] | None = None
    bidding: tuple[tuple[str, str], ...] | None = None
    declarer: str | tuple[str, ...] | None = None
    called_king: int | None = None
    talon_pick: tuple[int, ...] | None = None
    stash: tuple[int, ...] | None = None
    announcements: tuple[Announcement, ...] = ()
    conceded: bool | None = None
    claim: Claim | None = None
    events: tuple[Event, ...] = ()
    recorded: Recorded | None = None
    extra: Mapping[str, Any] = field(default_factory=lambda: EMPTY)

    @property
    def n_players(self) -> int:
        return len(self.players)

    def seat(self, player: str) -> int:
        """The seat (0 = forehand) of ``player``; ValueError if unknown."""
        return self.players.index(player)
