"""Ruleset ``slovenian``: contract data and the pure rule functions of card play and bidding.

Everything here is data or a pure function of ints and masks, so the engine's
hot path is a handful of mask operations per card.  docs/rules.md's ``slovenian``
decisions are the specification; each option is a field of
``tarock.options.SlovenianOptions``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from tarock.rules.bidding import Biddable, BiddingOutcome, BiddingRules, run_bidding
from tarock.cards import FULL_DECK
from tarock.options import SlovenianOptions
from tarock.rules.play import (
    EMPEROR_ALWAYS,
    EMPEROR_NEVER,
    EMPEROR_TAROK_LEAD,
    MOND_SKIS,
    PAGAT_BIT,
    TRULA,
    legal_mask,
    violation,
)
from tarock.rules.play import trick_winner as _trick_winner

__all__ = [
    "CARDS_PER_HAND", "CONTRACTS", "MOND_SKIS", "PAGAT_BIT", "TALON_SIZE", "TRULA", "BiddingOutcome", "Contract",
    "allowed_contract", "check_bidding", "emperor_mode", "forced_pagat_applies", "legal_mask", "mondfang_applies",
    "speaking_order", "table_rules", "trick_winner", "valid_king_call", "violation",
]


@dataclass(frozen=True, slots=True)
class Contract:
    """One rung of the bidding ladder and how it is played."""

    name: str
    rank: int
    value: int
    talon_group: int  # cards per talon group the declarer picks from; 0: no talon exchange
    calls_king: bool  # 4 players only
    declarer_leads: bool
    negative: bool  # must beat, Pagat only as the last legal card
    trumps: bool  # False in Barvni valat: taroks are a plain suit
    bonuses: bool  # announcements of bonuses allowed
    forehand_only: bool  # Klop and Tri: only forehand, when all others passed
    four_players_only: bool
    label: str
    # the switches of the shared play rules (tarock.rules.play.FollowRules), derived from the flags above
    void_tarok: bool = field(init=False)  # void in the led suit: play a tarok (not in Barvni valat)
    pagat_last: bool = field(init=False)  # negative contracts: the Pagat only as the last legal card
    pagat_scope: int = field(init=False, default=FULL_DECK)  # ... and led only as the last card in hand
    pagat_emperor: bool = field(init=False, default=True)  # ... except with Škis and Mond in the trick
    tarok_lead_last: bool = field(init=False, default=False)  # no lead restriction in slovenian
    parallel: bool = field(init=False, default=False)  # one declarer at a time (cf. Königrufen's Piccolo)

    def __post_init__(self) -> None:
        object.__setattr__(self, "void_tarok", self.trumps)
        object.__setattr__(self, "pagat_last", self.negative)

    @property
    def has_declarer(self) -> bool:
        """Every contract but Klop is declared by one player."""
        return not self.is_klop

    @property
    def is_klop(self) -> bool:
        return self.name == "klop"

    @property
    def is_beggar(self) -> bool:
        return self.name in ("berac", "odprti_berac")

    @property
    def is_valat(self) -> bool:
        return self.name in ("valat", "barvni_valat")

    @property
    def normal(self) -> bool:
        """Tri … Solo ena: game value plus difference, bonuses allowed."""
        return self.bonuses

    @property
    def radelc_contract(self) -> bool:
        """Klop, Berač or higher: everyone gets a radelc afterwards."""
        return self.is_klop or self.rank >= CONTRACTS["berac"].rank


def _c(name: str, rank: int, value: int, group: int, king: bool, lead: bool, neg: bool,
       trumps: bool, bonuses: bool, fh: bool, four: bool, label: str) -> Contract:
    return Contract(name, rank, value, group, king, lead, neg, trumps, bonuses, fh, four, label)


CONTRACTS: dict[str, Contract] = {
    c.name: c
    for c in (
        _c("klop", 0, 0, 0, False, False, True, True, False, True, False, "Klop"),
        _c("tri", 1, 10, 3, True, False, False, True, True, True, False, "Tri"),
        _c("dva", 2, 20, 2, True, False, False, True, True, False, False, "Dva"),
        _c("ena", 3, 30, 1, True, False, False, True, True, False, False, "Ena"),
        _c("solo_tri", 4, 40, 3, False, False, False, True, True, False, True, "Solo tri"),
        _c("solo_dva", 5, 50, 2, False, False, False, True, True, False, True, "Solo dva"),
        _c("solo_ena", 6, 60, 1, False, False, False, True, True, False, True, "Solo ena"),
        _c("berac", 7, 70, 0, False, True, True, True, False, False, False, "Berač"),
        _c("solo_brez", 8, 80, 0, False, True, False, True, False, False, False, "Solo brez"),
        _c("odprti_berac", 9, 90, 0, False, True, True, True, False, False, False, "Odprti berač"),
        _c("barvni_valat", 10, 125, 0, False, True, False, False, False, False, False, "Barvni valat"),
        _c("valat", 11, 500, 0, False, True, False, True, False, False, False, "Valat"),
    )
}

CARDS_PER_HAND = {3: 16, 4: 12}
TALON_SIZE = 6


def allowed_contract(contract: Contract, n_players: int, options: SlovenianOptions | None = None) -> bool:
    """Whether ``contract`` exists in a game of ``n_players`` (under ``options``: ``barvni_valat_3p: false``,
    Palčka's rule, takes Barvni valat away from 3 players too)."""
    if n_players == 3 and (contract.four_players_only
                           or (contract.name == "barvni_valat" and options is not None
                               and not options.barvni_valat_3p)):
        return False
    return True


def forced_pagat_applies(contract: Contract, options: SlovenianOptions) -> bool:
    """Whether a Pagat holder must play it once Škis and Mond are in the trick."""
    if not contract.trumps:
        return False
    mode = options.forced_pagat
    return mode == "all" or (mode == "negative_only" and contract.negative)


def emperor_mode(contract: Contract, options: SlovenianOptions) -> int:
    """When the emperor trick applies: always in tarok-trump contracts, on a tarok lead in Barvni valat."""
    if not options.emperor_trick:
        return EMPEROR_NEVER
    return EMPEROR_ALWAYS if contract.trumps else EMPEROR_TAROK_LEAD


def mondfang_applies(contract: Contract) -> bool:
    """Whether a Mondfang can be paid in ``contract``: in Tri … Solo ena and in Solo brez."""
    return contract.normal or contract.name == "solo_brez"


@lru_cache(maxsize=64)
def table_rules(contract: Contract, options: SlovenianOptions) -> tuple[Contract, bool, int]:
    """What ``tarock.game.Game`` plays by: the follow rules (the contract itself), forced Pagat, emperor mode."""
    return contract, forced_pagat_applies(contract, options), emperor_mode(contract, options)


def trick_winner(cards: list[int] | tuple[int, ...], contract: Contract, options: SlovenianOptions) -> int:
    """The position (0-based) of the card that wins a complete trick."""
    return _trick_winner(cards, contract.trumps, emperor_mode(contract, options))


def valid_king_call(card: int) -> bool:
    """Kings only: K of hearts, diamonds, spades or clubs."""
    return card in (29, 37, 45, 53)


def speaking_order(n_players: int, options: SlovenianOptions) -> list[int]:
    """Seats in the order they first speak: forehand last by default."""
    if options.bidding_order == "forehand_first":
        return list(range(n_players))
    return list(range(1, n_players)) + [0]


@lru_cache(maxsize=8)
def _bidding_rules(n_players: int, options: SlovenianOptions) -> BiddingRules:
    """The slovenian ladder at a table of ``n_players``."""

    def unavailable(contract: Biddable) -> str | None:
        return None if allowed_contract(CONTRACTS[contract.name], n_players, options) \
            else "does not exist with 3 players"

    return BiddingRules(CONTRACTS, tuple(speaking_order(n_players, options)),
                        options.bidding_order == "forehand_first", "klop", unavailable)


def check_bidding(bids: list[tuple[int, str]], n_players: int, options: SlovenianOptions,
                  names: tuple[str, ...]) -> BiddingOutcome:
    """Replay the bids spoken, in order, and say who declares what (``tarock.rules.bidding.run_bidding``).

    Seats speak in ``speaking_order``; under ``forehand_first`` a forehand who
    passed keeps the Klop/Tri choice; Klop and Tri belong to forehand alone
    once all others have passed; everyone passing plays Klop.
    """
    return run_bidding(bids, names, _bidding_rules(n_players, options))
