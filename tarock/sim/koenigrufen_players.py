"""Heuristic Königrufen players: bidding over the ladder, king call, talon, stash, announcements, card play.

The same rules of thumb as the Slovenian players (``tarock.sim.players``),
over the Königrufen ladder (docs/koenigrufen.md): forehand mostly ends up in
a Rufer or, with a weak hand, a Trischaken; hands with few dangerous cards
try a Piccolo or a Bettel; strong ones a Solorufer, a Besserrufer (holding a
bird), a Dreier or — from forehand — a Sechserdreier; hands short in taroks
with long suits a colour game; the ouvert games and the Solodreier are rare.
Every choice is legal by construction (the engine checks every deal the
simulator writes); every choice not forced by the rules is a fixed preference
or drawn from the ``random.Random`` handed in.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from operator import attrgetter

from tarock.cards import KINGS_MASK, SKIS, MOND, TAROK_MASK, TRULA_MASK, mask_of
from tarock.options import KoenigrufenOptions
from tarock.rules.koenigrufen.contracts import (
    BIRDS,
    CONTRACTS,
    HALF,
    SIX,
    TALON_SIZE,
    Contract,
    counted_bonuses,
    several_declarers,
    unavailable,
)
from tarock.sim.players import (
    VALUE_KEY,
    CardPlay,
    TableView,
    HandValue,
    call_king,
    choose_stash,
    high_bit,
    highest,
    pick_talon,
)

HONOURS = KINGS_MASK | 1 << SKIS | 1 << MOND


@dataclass(frozen=True, slots=True)
class PlayView:
    """What ``CardPlay`` needs of a Königrufen game (``tarock.sim.players.PlayedGame``)."""

    trumps: bool
    negative: bool
    is_valat: bool


# -- bidding -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Wish:
    """What one player would play: the highest game of the ladder they would bid (None: passes), the
    Sechserdreier as forehand's first word, and (forehand) Rufer rather than Trischaken after all passed."""

    game: Contract | None
    opening: bool
    rufer: bool


def wish(value: HandValue, hand: int, seat: int, options: KoenigrufenOptions, rng: random.Random) -> Wish:
    """The game this hand would bid, from its strength, its Bettel risk and its colour losers."""
    mood = rng.gauss(0.0, 1.0)
    strength = value.strength + mood
    risk = value.risk - 0.3 * mood
    honours = (hand & HONOURS).bit_count()
    four_kings = hand & KINGS_MASK == KINGS_MASK
    names: list[str] = []
    if honours == 0:
        if risk <= 2.7:
            names.append("bettel")
        if risk <= 1.4:
            names.append("bettel_ouvert")
    if honours <= 1 and risk <= 3.0:
        names.append("piccolo")
        if risk <= 1.5:
            names.append("piccolo_ouvert")
    if honours <= 2 and 3.0 < risk <= 3.2:
        names.append("zwiccolo")
        if honours <= 1 and rng.random() < 0.1:
            names.append("zwiccolo_ouvert")
    if honours <= 3 and 3.2 < risk <= 3.3:
        names.append("triccolo")
    birds = bool(hand & (_BIRDS_WITH_QUAPIL if options.quapil else _BIRDS_WITHOUT_QUAPIL))
    if not four_kings:
        if strength >= 20.0:
            names.append("solorufer")
        if birds and strength >= 19.0 and rng.random() < 0.5:
            names.append("besserrufer")
    if strength >= 21.0:
        names.append("dreier")
    if strength >= 26.0:
        names.append("solodreier")
    if value.losers <= 4:
        names.append("farbendreier")
    if value.losers <= 2:
        names.append("farbensolo")
    available = _available(options)
    games = [game for name in names if (game := available.get(name)) is not None]
    top = max(games, key=_RANK) if games else None
    opening = seat == 0 and strength >= 21.0 and rng.random() < 0.4 \
        and (top is None or top.rank <= _DREIER_RANK)
    return Wish(top, opening, not four_kings and strength >= 9.0)


_RANK = attrgetter("rank")
_DREIER_RANK = CONTRACTS["dreier"].rank
_AVAILABLE: dict[int, tuple[KoenigrufenOptions, dict[str, Contract]]] = {}


def _available(options: KoenigrufenOptions) -> dict[str, Contract]:
    """The games the table plays (``unavailable``), by name: worked out once per options object (by its
    identity, the options kept alive with it)."""
    known = _AVAILABLE.get(id(options))
    if known is not None and known[0] is options:
        return known[1]
    games = {name: c for name, c in CONTRACTS.items() if unavailable(c, options) is None}
    if len(_AVAILABLE) >= 64:
        _AVAILABLE.clear()
    _AVAILABLE[id(options)] = (options, games)
    return games


_BIRDS_WITH_QUAPIL = sum(1 << card for card, _ in BIRDS.values())
_BIRDS_WITHOUT_QUAPIL = sum(1 << card for name, (card, _) in BIRDS.items() if name != "quapil")
"""The birds' cards (``BIRDS``) a ``wish`` looks for, as masks: with the Quapil where it counts (``quapil``)."""


@dataclass(frozen=True, slots=True)
class Bidding:
    """The bids spoken (seat, bid), the game and its declarers (none in Trischaken)."""

    bids: tuple[tuple[int, str], ...]
    contract: Contract
    declarers: tuple[int, ...]


def run_bidding(wishes: list[Wish], options: KoenigrufenOptions) -> Bidding:
    """Bid in rounds, forehand first: each player names the game they wish for as soon as the rules let
    them (outbidding, holding with priority, or joining a Piccolo-type game), else passes for good.
    Forehand may open with a Sechserdreier; when everyone passed forehand chooses Rufer or Trischaken."""
    bids: list[tuple[int, str]] = []
    passed: set[int] = set()
    holders: list[int] = []
    best: Contract | None = None
    if wishes[0].opening:
        best, holders = CONTRACTS["sechserdreier"], [0]
        bids.append((0, best.name))
    first_round = True
    while True:
        for seat in range(4):
            if seat in passed or (first_round and seat == 0 and bids):
                continue
            if holders and sorted(s for s in range(4) if s not in passed) == sorted(holders):
                return Bidding(tuple(bids), best or CONTRACTS["rufer"], tuple(sorted(holders)))
            game = wishes[seat].game
            if game is not None and seat not in holders and _may_bid(game, seat, best, holders, options):
                if best is not None and game.rank == best.rank and several_declarers(game, options) \
                        and seat > holders[0]:
                    holders.append(seat)
                else:
                    holders = [seat]
                best = game
                bids.append((seat, game.name))
            else:
                passed.add(seat)
                bids.append((seat, "pass"))
        first_round = False
        if holders and sorted(s for s in range(4) if s not in passed) == sorted(holders):
            return Bidding(tuple(bids), best or CONTRACTS["rufer"], tuple(sorted(holders)))
        if not holders and len(passed) == 4:
            choice = CONTRACTS["rufer" if wishes[0].rufer else "trischaken"]
            bids.append((0, choice.name))
            return Bidding(tuple(bids), choice, (0,) if choice.has_declarer else ())


def _may_bid(game: Contract, seat: int, best: Contract | None, holders: list[int],
             options: KoenigrufenOptions) -> bool:
    if best is None or not holders:
        return True
    if game.rank > best.rank:
        return True
    return game.rank == best.rank and (seat < holders[0] or several_declarers(game, options))


# -- king, talon, stash ----------------------------------------------------------------------------


def choose_king(hand: int, rng: random.Random) -> int:
    """A king of the declarer's longest suit they lack; holding three, the fourth (the rules say so)."""
    return call_king(hand, rng)


def choose_half(talon: list[int], contract: Contract, king: int | None) -> tuple[int, ...]:
    """The talon cards taken: all six in a Sechserdreier; the half holding the called king when it lies
    there (the rules say so), else the half worth most."""
    if contract.talon == SIX:
        return tuple(talon)
    halves = [tuple(talon[i:i + 3]) for i in range(0, TALON_SIZE, 3)]
    if king is not None:
        for half in halves:
            if king in half:
                return half
    return pick_talon(talon, 3)


def kr_stash(hand: int, k: int, called_king: int | None, taroks_first: bool, keep: int = 0) -> int:
    """``k`` cards to lay away legally: never a king, a Trull card or a card of ``keep`` (a Besserrufer's
    bird); suit cards first, taroks only when no other suit card is left (``taroks_first``, a colour game
    under ``color_discard_restriction``: the lowest taroks first)."""
    if not taroks_first:
        return choose_stash(hand & ~keep, k, called_king)
    chosen = 0
    taroks = hand & TAROK_MASK & ~TRULA_MASK & ~keep
    while taroks and chosen.bit_count() < k:
        low = taroks & -taroks
        chosen |= low
        taroks ^= low
    if chosen.bit_count() < k:
        chosen |= choose_stash(hand & ~keep & ~chosen & ~TAROK_MASK, k - chosen.bit_count(), called_king)
    return chosen


def should_concede(value: HandValue, rng: random.Random) -> bool:
    """The called king lies in the talon: a weak Rufer is often conceded rather than played alone."""
    return value.strength < 16.0 and rng.random() < 0.6


def half_game(contract: Contract) -> bool:
    return contract.talon == HALF


# -- announcements -----------------------------------------------------------------------------


def announce(rng: random.Random, contract: Contract, options: KoenigrufenOptions, names: tuple[str, ...],
             declarers: tuple[int, ...], partner: int | None, king: int | None, hands: list[int],
             values: list[HandValue], bird: str | None) -> list[dict[str, object]]:
    """Bonuses, then kontras: the Besserrufer's bird first; Trull by a declarer holding two of its cards,
    Vier Könige holding three kings, a bird by its holder long in taroks, König ultimo by the called
    king's holder long in taroks, Valat by a very strong declarer; the strongest defender now and then
    says kontra, a strong declarer re."""
    items: list[dict[str, object]] = []
    if bird is not None:
        items.append({"player": names[declarers[0]], "bonus": bird})
    if contract.is_trischaken:
        return items
    if contract.negative:
        for opp in (s for s in range(4) if s not in declarers):
            if values[opp].strength >= 17.0 and rng.random() < 0.25:
                against = rng.choice(declarers)
                kontra: dict[str, object] = {"player": names[opp], "kontra": "game", "level": 2}
                if len(declarers) > 1:
                    kontra["against"] = names[against]
                items.append(kontra)
        return items
    counted = counted_bonuses(contract, options)
    declarer = declarers[0]
    side = {declarer} | ({partner} if partner is not None else set())
    own = hands[declarer]
    said = {str(a["bonus"]) for a in items}
    taroks = [(h & TAROK_MASK).bit_count() for h in hands]

    def say(seat: int, bonus: str) -> None:
        if bonus in counted and bonus not in said:
            items.append({"player": names[seat], "bonus": bonus})
            said.add(bonus)

    if (own & TRULA_MASK).bit_count() >= 2 and rng.random() < (0.4 if own & TRULA_MASK == TRULA_MASK else 0.08):
        say(declarer, "trull")
    if (own & KINGS_MASK).bit_count() >= 3 and rng.random() < 0.3:
        say(declarer, "vier_koenige")
    for bonus, (card, _) in BIRDS.items():
        holder = next((s for s in range(4) if hands[s] >> card & 1), None)
        if holder is None or holder not in side:
            continue
        if taroks[holder] >= _BIRD_TAROKS[bonus] and rng.random() < 0.35:
            say(holder, bonus)
    if king is not None and partner is not None and taroks[partner] >= 6 and rng.random() < 0.1:
        say(partner, "king_ultimo")
    if values[declarer].strength >= 27.0 and rng.random() < 0.4:
        say(declarer, "valat")
    defenders = [s for s in range(4) if s not in side]
    if defenders:
        strongest = max(defenders, key=lambda s: values[s].strength)
        if values[strongest].strength >= 17.0 and rng.random() < 0.3:
            items.append({"player": names[strongest], "kontra": "game", "level": 2})
            if values[declarer].strength >= 21.0 and rng.random() < 0.3:
                items.append({"player": names[declarer], "kontra": "game", "level": 4})
        for bonus in ("pagat_ultimo", "uhu"):
            if bonus in said and values[strongest].strength >= 15.0 and rng.random() < 0.1:
                items.append({"player": names[strongest], "kontra": bonus, "level": 2})
    return items


_BIRD_TAROKS = {"pagat_ultimo": 7, "uhu": 8, "kakadu": 9, "quapil": 9}
"""The taroks a bird's holder wants before announcing it."""


# -- card play ---------------------------------------------------------------------------------


class KoenigrufenPlay(CardPlay):
    """The Slovenian rules of thumb, and a Piccolo-type declarer who still needs tricks plays to win
    (the highest card when leading, the highest card that beats when following)."""

    __slots__ = ("declarers", "target")

    def __init__(self, contract: Contract, declarers: tuple[int, ...], partner: int | None, king: int | None,
                 hands: list[int], pagat_ultimo: int | None, leader: int, valat: bool) -> None:
        view = PlayView(contract.trumps, contract.negative, valat)
        super().__init__(view, 4, declarers[0] if declarers else None, partner, king, hands, pagat_ultimo, leader)
        self.declarers = declarers
        self.target = contract.tricks or 0

    def state(self) -> tuple[int, ...]:
        return self._state(sum(1 << s for s in self.declarers), self.target)

    def choose(self, game: TableView, seat: int, legal: int) -> int:
        if self.target and seat in self.declarers and legal & (legal - 1) \
                and game.tricks_taken(seat) < self.target:
            trick = game.current_trick
            if not trick:
                return highest(legal, VALUE_KEY) if legal & TAROK_MASK == 0 else high_bit(legal & TAROK_MASK)
            win, _ = self._winning(trick)
            beat = self._beating(legal, win)
            if beat:
                return high_bit(beat & TAROK_MASK) if beat & TAROK_MASK else high_bit(beat)
        return super().choose(game, seat, legal)


def pick_mask(cards: tuple[int, ...]) -> int:
    return mask_of(cards)
