"""Ruleset ``koenigrufen`` (Austrian Königrufen, 4 players): the contract table and its pure functions.

Seeds 000 and 003 are the authority, docs/koenigrufen.md's "Decisions — ruleset
koenigrufen" and "koenigrufen details (settled)" settle the rest; each option
is a field of ``tarock.options.KoenigrufenOptions``.  The card play itself is
the shared engine's (``tarock.rules.play``): this module only says which of its
switches each contract turns on — tarock as a fifth suit in the colour games,
must-overtrump and the Pagat kept back in the negative games, the Kaiserstich
in positive tarock-trump games.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from tarock.rules.bidding import Biddable, BiddingOutcome, BiddingRules, run_bidding
from tarock.cards import PAGAT, TAROK_MASK, counted_thirds, raw_points
from tarock.options import KoenigrufenOptions
from tarock.rules.play import EMPEROR_ALWAYS, EMPEROR_NEVER

VALUE_TABLES = ("raiffeisen", "wien", "tirol", "sauwald")
"""The cups whose game values ``Contract.values`` lists, in this order (option ``values``)."""

HALF = "half"  # the talon is shown; the declarer takes one half (3 cards) and lays 3 away
SIX = "six"  # Sechserdreier: all six taken face down, six laid away
CLOSED = "closed"  # solo games: nobody looks at it; it goes to the opponents if they took a trick
NONE = "none"  # negative games: nobody takes it (it counts for the opponents)
GIFTS = "gifts"  # Trischaken: the talon goes to trick winners (option trischaken_talon)


@dataclass(frozen=True, slots=True)
class Contract:
    """One Königrufen game: its rank in the bidding, its value per cup table and how it is played."""

    name: str
    rank: int
    values: tuple[int, int, int, int]  # game value per VALUE_TABLES
    talon: str  # HALF, SIX, CLOSED, NONE or GIFTS
    calls_king: bool
    negative: bool  # must overtrump, the Pagat kept back, a fixed number of tricks (Trischaken: fewest points)
    tricks: int | None  # negative games: the exact number of tricks the declarer must take
    color: bool  # tarock is a fifth suit, not trump
    forehand_only: bool  # only forehand, after everyone else passed (Sechserdreier: forehand's first word)
    parallel: bool  # several players may play it at once (docs/koenigrufen.md: Piccolo, Zwiccolo, Triccolo)
    label: str

    @property
    def trumps(self) -> bool:
        return not self.color

    @property
    def is_trischaken(self) -> bool:
        return self.talon == GIFTS

    @property
    def has_declarer(self) -> bool:
        """Every game but Trischaken is declared (by one player, or several in a parallel game)."""
        return not self.is_trischaken

    @property
    def positive(self) -> bool:
        """Won on card points (≥ 35⅔), bonuses allowed."""
        return not self.negative

    @property
    def solo(self) -> bool:
        """Solorufer, Farbensolo, Solodreier: the talon stays closed; bonuses count double (except Valat)."""
        return self.talon == CLOSED

    @property
    def talon_group(self) -> int:
        """Cards the declarer takes from the talon (one group of the talon in dealt order); 0: none."""
        return {HALF: 3, SIX: 6}.get(self.talon, 0)

    @property
    def declarer_leads(self) -> bool:
        """The declarer leads the first trick in the declared negative games; forehand in all others."""
        return self.negative and self.has_declarer


def _c(name: str, rank: int, values: tuple[int, int, int, int], talon: str, *, king: bool = False,
       tricks: int | None = None, negative: bool = False, color: bool = False, forehand: bool = False,
       parallel: bool = False, label: str) -> Contract:
    return Contract(name, rank, values, talon, king, negative or tricks is not None, tricks, color, forehand,
                    parallel, label)


CONTRACTS: dict[str, Contract] = {
    c.name: c
    for c in (
        # values: Raiffeisen (R), Wien (W), Tirol (T), Sauwald (SW); docs/koenigrufen.md and the settled details
        _c("trischaken", 0, (1, 2, 2, 1), GIFTS, negative=True, forehand=True, label="Trischaken"),
        _c("rufer", 1, (1, 1, 1, 1), HALF, king=True, forehand=True, label="Rufer"),
        _c("piccolo", 2, (2, 2, 2, 2), NONE, tricks=1, parallel=True, label="Piccolo"),
        _c("zwiccolo", 3, (2, 2, 2, 2), NONE, tricks=2, parallel=True, label="Zwiccolo"),
        _c("triccolo", 4, (2, 2, 2, 2), NONE, tricks=3, parallel=True, label="Triccolo"),
        _c("bettel", 5, (2, 4, 4, 2), NONE, tricks=0, label="Bettel"),
        _c("solorufer", 6, (2, 2, 2, 2), CLOSED, king=True, label="Solorufer"),
        _c("besserrufer", 7, (1, 1, 1, 1), HALF, king=True, label="Besserrufer"),
        _c("farbendreier", 8, (3, 5, 5, 3), HALF, color=True, label="Farbendreier"),
        _c("sechserdreier", 9, (4, 4, 4, 4), SIX, forehand=True, label="Sechserdreier"),
        _c("dreier", 10, (4, 5, 5, 5), HALF, label="Dreier"),
        _c("farbensolo", 11, (6, 10, 10, 4), CLOSED, color=True, label="Farbensolo"),
        _c("piccolo_ouvert", 12, (6, 6, 8, 6), NONE, tricks=1, label="Piccolo ouvert"),
        _c("zwiccolo_ouvert", 13, (6, 6, 6, 6), NONE, tricks=2, label="Zwiccolo ouvert"),
        _c("bettel_ouvert", 14, (7, 8, 8, 7), NONE, tricks=0, label="Bettel ouvert"),
        _c("solodreier", 15, (8, 10, 10, 8), CLOSED, label="Solodreier"),
    )
}
"""The bidding ladder, lowest first (Besserrufer's value is the Rufer's 1; its bird is a bonus)."""

OPENING_ONLY = frozenset({"sechserdreier"})
"""Forehand may name these only as the first word of the bidding ("announced at once")."""

CARDS_PER_HAND = 12
N_PLAYERS = 4
TALON_SIZE = 6
WIN_THIRDS = 107
"""Counting 1/3: a side wins with 35 points and 2 Blatt, 35⅔ points = 107 thirds (the deck: 210)."""


# --- values and card points ----------------------------------------------------------------


def game_value(contract: Contract, options: KoenigrufenOptions) -> int:
    """The game value ``V`` of ``contract`` in the cup table ``options.values``."""
    return contract.values[VALUE_TABLES.index(options.values)]


def unavailable(contract: Contract, options: KoenigrufenOptions) -> str | None:
    """Why ``contract`` is not played under ``options`` (Triccolo and Zwiccolo are options), or None."""
    if contract.name == "triccolo" and not options.triccolo:
        return "is not played unless the option triccolo is on"
    if contract.name in ("zwiccolo", "zwiccolo_ouvert") and not options.zwiccolo:
        return "is not played unless the option zwiccolo is on"
    return None


def several_declarers(contract: Contract, options: KoenigrufenOptions) -> bool:
    """Whether several players may declare ``contract`` at once: the peer games (Piccolo, Zwiccolo, Triccolo)
    unless the option ``several_declarers`` is off."""
    return contract.parallel and options.several_declarers


def card_score(mask: int, options: KoenigrufenOptions) -> int:
    """A pile's card points in the counting's unit: thirds (counting 1/3) or raw points (1/1)."""
    return counted_thirds(mask) if options.counting == "1/3" else raw_points(mask)


def win_score(options: KoenigrufenOptions) -> int:
    """What a side's ``card_score`` must reach to win a positive game (or make a Bürgermeister)."""
    return WIN_THIRDS if options.counting == "1/3" else options.min_win_score or 0


def shown_points(score: int, options: KoenigrufenOptions) -> int:
    """A ``card_score`` as whole points for reports: thirds rounded to the nearest point (1/1: as is)."""
    return (score + 1) // 3 if options.counting == "1/3" else score


def points_text(score: int, options: KoenigrufenOptions) -> str:
    """A ``card_score`` as a score keeper says it: ``35⅔`` (thirds) or ``54`` (1/1)."""
    if options.counting != "1/3":
        return str(score)
    whole, rest = divmod(score, 3)
    return f"{whole}{('', '⅓', '⅔')[rest]}"


# --- play -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayRules:
    """The switches of ``tarock.rules.play`` for one Königrufen game (``tarock.rules.play.FollowRules``)."""

    trumps: bool
    void_tarok: bool
    negative: bool
    pagat_last: bool
    pagat_scope: int
    pagat_emperor: bool
    tarok_lead_last: bool


@lru_cache(maxsize=128)
def table_rules(contract: Contract, options: KoenigrufenOptions) -> tuple[PlayRules, bool, int]:
    """What ``tarock.game.Game`` plays by: follow rules, forced Pagat (never), emperor mode.

    Void in the led suit a player must play tarock in every game (docs/koenigrufen.md),
    in the colour games without having to beat; a colour game forbids leading
    tarock while holding a suit card; a negative game (Trischaken too) makes
    every player beat the winning card and, with ``pagat_restriction``, keep
    the Pagat until it is the last tarock (leads included).  The Kaiserstich
    applies only in positive tarock-trump games (``emperor_trick``), in any
    card order.
    """
    rules = PlayRules(
        trumps=contract.trumps,
        void_tarok=True,
        negative=contract.negative,
        pagat_last=contract.negative and options.pagat_restriction,
        pagat_scope=TAROK_MASK,
        pagat_emperor=False,
        tarok_lead_last=contract.color,
    )
    emperor = EMPEROR_ALWAYS if options.emperor_trick and contract.positive and contract.trumps else EMPEROR_NEVER
    return rules, False, emperor


def leader(contract: Contract, declarers: tuple[int, ...]) -> int:
    """Who leads trick 1: the declarer in a declared negative game (with several, the one nearest
    forehand — docs/koenigrufen.md: "the player in forehand or the first game announcer"), else forehand."""
    return min(declarers) if contract.declarer_leads and declarers else 0


def decided(contract: Contract, taken: int, remaining: int) -> bool:
    """Whether a negative game's declarer with ``taken`` tricks and ``remaining`` to play has lost for sure."""
    target = contract.tricks
    return target is not None and (taken > target or taken + remaining < target)


# --- bidding ------------------------------------------------------------------------------------


@lru_cache(maxsize=8)
def _bidding_rules(options: KoenigrufenOptions) -> BiddingRules:
    """Forehand speaks first and may pass without losing the forehand games; Sechserdreier is
    forehand's first word or nothing; Piccolo, Zwiccolo and Triccolo are joined, not outbid (unless the
    option ``several_declarers`` is off)."""

    def why_not(contract: Biddable) -> str | None:
        return unavailable(CONTRACTS[contract.name], options)

    return BiddingRules(CONTRACTS, tuple(range(N_PLAYERS)), True, None, why_not, OPENING_ONLY,
                        frozenset(c.name for c in CONTRACTS.values() if several_declarers(c, options)))


def check_bidding(bids: list[tuple[int, str]], n_players: int, options: KoenigrufenOptions,
                  names: tuple[str, ...]) -> BiddingOutcome:
    """Replay the bids spoken, in order, and say who declares what (``tarock.rules.bidding.run_bidding``)."""
    return run_bidding(bids, names, _bidding_rules(options))


# --- bonuses ------------------------------------------------------------------------------------

BIRDS: dict[str, tuple[int, int]] = {
    "pagat_ultimo": (PAGAT, 12),
    "uhu": (PAGAT + 1, 11),
    "kakadu": (PAGAT + 2, 10),
    "quapil": (PAGAT + 3, 9),
}
"""Each bird bonus: its tarok (I, II, III, IIII) and the trick (1-based) it must take itself."""

BONUS_ORDER = ("trull", "vier_koenige", "pagat_ultimo", "uhu", "kakadu", "quapil", "king_ultimo", "valat")
"""Königrufen's bonuses in the order a score sheet lists them."""


def counted_bonuses(contract: Contract, options: KoenigrufenOptions) -> tuple[str, ...]:
    """The bonuses that count (announced or silent) in ``contract``.

    Negative games have none; colour games only Vier Könige (option
    ``kings_in_color_games``) and Valat; Quapil only with the option
    ``quapil``; König ultimo only when a king is called.
    """
    if contract.negative:
        return ()
    if contract.color:
        return ("vier_koenige", "valat") if options.kings_in_color_games else ("valat",)
    skip = {"quapil"} if not options.quapil else set()
    if not contract.calls_king:
        skip.add("king_ultimo")
    return tuple(b for b in BONUS_ORDER if b not in skip)
