"""Random legal Königrufen deals: every choice drawn at random from what the rules allow.

``random_record`` gives a complete ``tarock-record/1`` object that replays
without a finding: a random game (several declarers now and then in Piccolo,
Zwiccolo and Triccolo), a legal bidding, a king that is not the declarer's
own, the talon handled as the game says (with a concession now and then when
the called king lies in the talon), a legal stash, legal announcements and
kontras, and the card play drawn from ``Game.legal_cards()``; a decided
negative game stops at the deciding trick half of the time.  It is the load
for benchmarks and property tests (``random_setup`` stops before the card
play, for a caller that plays the cards itself); it guarantees legality, not
good play.  The session simulator's ``--ruleset koenigrufen`` plays with the
heuristics of ``tarock.sim.koenigrufen_players`` instead.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from tarock.cards import CODES, KINGS, mask_of
from tarock.facts import DECLARER, OPPONENTS, Side
from tarock.game import Game
from tarock.rules.koenigrufen.contracts import (
    BIRDS,
    CARDS_PER_HAND,
    CONTRACTS,
    HALF,
    N_PLAYERS,
    TALON_SIZE,
    Contract,
    counted_bonuses,
    decided,
    leader,
    unavailable,
)
from tarock.options import DEFAULT_KOENIGRUFEN, KoenigrufenOptions
from tarock.sim.randomplay import NAMES, deal_cards, legal_stash, random_tricks

ANNOUNCE_RATE = 0.15
"""The chance that a bonus is announced (a valat: a tenth of it), and that a kontra (re, sub) follows."""


@dataclass(frozen=True, slots=True)
class Setup:
    """A deal up to the card play: the record without ``tricks`` (a conceded one is complete), the
    hands the card play starts from, the game, its declarers and who leads."""

    record: dict[str, Any]
    play_hands: list[int]
    contract: Contract
    declarers: tuple[int, ...]
    leader: int


def random_record(rng: random.Random, contract: str | None = None,
                  options: KoenigrufenOptions = DEFAULT_KOENIGRUFEN, named: bool = False,
                  players: tuple[str, ...] = NAMES) -> dict[str, Any]:
    """A complete, legal Königrufen record (``players`` in playing order, forehand first)."""
    setup = random_setup(rng, contract, options, players)
    if "tricks" not in setup.record:
        setup.record["tricks"] = _play(rng, setup, options, named, players)
    return setup.record


def random_setup(rng: random.Random, contract: str | None = None,
                 options: KoenigrufenOptions = DEFAULT_KOENIGRUFEN,
                 players: tuple[str, ...] = NAMES) -> Setup:
    """Everything before the card play, drawn at random (a simulator plays the cards itself:
    ``Game(players, setup.play_hands, setup.contract, options, setup.leader)``)."""
    while True:
        setup = _attempt(rng, contract, options, players)
        if setup is not None:
            return setup


def _attempt(rng: random.Random, wanted: str | None, options: KoenigrufenOptions,
             players: tuple[str, ...]) -> Setup | None:
    """One try; None when the deal does not fit the game drawn (four kings in a Rufer, no bird for a
    Besserrufer), and the caller deals again."""
    dealt, talon = deal_cards(rng, N_PLAYERS, redeal_without_tarok=False)
    hands = [mask_of(h) for h in dealt]
    names = [c.name for c in CONTRACTS.values() if unavailable(c, options) is None]
    contract = CONTRACTS[wanted or rng.choice(names)]
    declarers = _declarers(rng, contract)
    record: dict[str, Any] = {
        "format": "tarock-record/1",
        "ruleset": "koenigrufen",
        "players": list(players),
        "hands": {p: [CODES[c] for c in h] for p, h in zip(players, dealt)},
        "talon": [CODES[c] for c in talon],
        "bidding": _bidding(contract, declarers, players),
        "contract": contract.name,
    }
    if options.changed():
        record["options"] = options.changed()
    if declarers:
        record["declarer"] = players[declarers[0]] if len(declarers) == 1 else [players[s] for s in declarers]
    bird = _compulsory_bird(rng, contract, options, hands, declarers)
    if bird is False:
        return None
    play_hands = list(hands)
    king = partner = None
    if contract.calls_king:
        declarer = declarers[0]
        free = [k for k in KINGS if not hands[declarer] >> k & 1]
        if not free:
            return None  # four kings: no king to call
        king = rng.choice(free)
        record["called_king"] = CODES[king]
        partner = next((s for s in range(N_PLAYERS) if hands[s] >> king & 1), None)
        if partner is None and contract.talon == HALF and rng.random() < 0.3:
            if isinstance(bird, str):
                record["announcements"] = [{"player": players[declarer], "bonus": bird}]
            record["conceded"] = True
            record["tricks"] = []
            return Setup(record, hands, contract, declarers, 0)
    if contract.talon_group:
        declarer = declarers[0]
        halves = [talon[i:i + contract.talon_group] for i in range(0, TALON_SIZE, contract.talon_group)]
        with_king = [h for h in halves if king in h]
        pick = with_king[0] if with_king else rng.choice(halves)
        after = hands[declarer] | mask_of(pick)
        keep = 1 << BIRDS[bird][0] if isinstance(bird, str) else 0
        stash = legal_stash(rng, after, len(pick), contract.color and options.color_discard_restriction, keep)
        if len(stash) < len(pick):
            return None
        play_hands[declarer] = after & ~mask_of(stash)
        record["talon_pick"] = [CODES[c] for c in pick]
        record["stash"] = [CODES[c] for c in stash]
    side = {s: DECLARER if s in declarers or s == partner else OPPONENTS for s in range(N_PLAYERS)}
    announcements = _announcements(rng, contract, options, play_hands, declarers, side, king, bird, players)
    if announcements:
        record["announcements"] = announcements
    return Setup(record, play_hands, contract, declarers, leader(contract, declarers))


def _declarers(rng: random.Random, contract: Contract) -> tuple[int, ...]:
    """Forehand in a forehand game, none in Trischaken, now and then two in a parallel game."""
    if not contract.has_declarer:
        return ()
    if contract.forehand_only:
        return (0,)
    if contract.parallel and rng.random() < 0.3:
        return tuple(sorted(rng.sample(range(N_PLAYERS), 2)))
    return (rng.randrange(N_PLAYERS),)


def _bidding(contract: Contract, declarers: tuple[int, ...], players: tuple[str, ...]) -> list[list[str]]:
    """A legal bidding that gives ``contract`` to ``declarers``: forehand speaks first; a forehand game
    comes after everyone passed, a Sechserdreier as forehand's first word."""
    if contract.forehand_only and contract.name != "sechserdreier":
        return [[p, "pass"] for p in players] + [[players[0], contract.name]]
    return [[p, contract.name if s in declarers or (not declarers and s == 0) else "pass"]
            for s, p in enumerate(players)]


def _compulsory_bird(rng: random.Random, contract: Contract, options: KoenigrufenOptions, hands: list[int],
                     declarers: tuple[int, ...]) -> str | bool | None:
    """Besserrufer: a bird of the declarer's dealt hand to announce (False when there is none); else None."""
    if contract.name != "besserrufer":
        return None
    birds = [b for b, (card, _) in BIRDS.items()
             if hands[declarers[0]] >> card & 1 and b in counted_bonuses(contract, options)]
    return rng.choice(birds) if birds else False


def _announcements(rng: random.Random, contract: Contract, options: KoenigrufenOptions, hands: list[int],
                   declarers: tuple[int, ...], side: dict[int, Side], king: int | None,
                   bird: str | bool | None, players: tuple[str, ...]) -> list[dict[str, Any]]:
    """Random legal bonuses and kontras (the Besserrufer's bird first)."""
    out: list[dict[str, Any]] = []
    if isinstance(bird, str):
        out.append({"player": players[declarers[0]], "bonus": bird})
    if contract.is_trischaken:
        return out
    if contract.negative:
        for opp in (s for s in range(N_PLAYERS) if s not in declarers):
            if rng.random() < ANNOUNCE_RATE:
                declarer = rng.choice(declarers)
                out += _chain(rng, players[opp], players[declarer], "game", against=len(declarers) > 1)
        return out
    owners: dict[str, Side] = {"game": DECLARER}
    if isinstance(bird, str):
        owners[bird] = DECLARER
    for bonus in counted_bonuses(contract, options):
        if bonus in owners or rng.random() >= ANNOUNCE_RATE / (10 if bonus == "valat" else 1):
            continue
        if bonus in BIRDS:
            who = next((s for s in range(N_PLAYERS) if hands[s] >> BIRDS[bonus][0] & 1), None)
        elif bonus == "king_ultimo":
            who = next((s for s in range(N_PLAYERS) if king is not None and hands[s] >> king & 1), None)
        else:
            who = rng.randrange(N_PLAYERS)
        if who is not None:
            out.append({"player": players[who], "bonus": bonus})
            owners[bonus] = side[who]
    for target, owner in owners.items():
        if rng.random() < ANNOUNCE_RATE:
            kontra_by = rng.choice([s for s in range(N_PLAYERS) if side[s] != owner])
            re_by = rng.choice([s for s in range(N_PLAYERS) if side[s] == owner])
            out += _chain(rng, players[kontra_by], players[re_by], target)
    return out


def _chain(rng: random.Random, kontra_by: str, re_by: str, target: str, against: bool = False) -> list[dict[str, Any]]:
    """Kontra, then now and then re and sub: in a negative game between one opponent and one declarer."""
    chain = [{"player": kontra_by, "kontra": target, "level": 2}]
    if against:
        chain[0]["against"] = re_by
    if rng.random() < 0.3:
        chain.append({"player": re_by, "kontra": target, "level": 4})
        if against:
            chain[-1]["against"] = kontra_by
        if rng.random() < 0.3:
            chain.append({"player": kontra_by, "kontra": target, "level": 8})
            if against:
                chain[-1]["against"] = re_by
    return chain


def _play(rng: random.Random, setup: Setup, options: KoenigrufenOptions, named: bool,
          players: tuple[str, ...]) -> list[list[str]]:
    """Random legal card play; a negative game decided early stops there half of the time."""
    contract, declarers = setup.contract, setup.declarers
    game = Game(players, setup.play_hands, contract, options, setup.leader)
    stop_early = rng.random() < 0.5

    def stop(t: int) -> bool:
        remaining = CARDS_PER_HAND - t - 1
        return stop_early and bool(declarers) and remaining > 0 and all(
            decided(contract, game.tricks_taken(d), remaining) for d in declarers)

    return random_tricks(rng, game, CARDS_PER_HAND, named, stop)
