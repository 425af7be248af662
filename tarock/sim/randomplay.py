"""Random legal deals: every choice drawn uniformly from what the rules allow.

The reference for property tests ("a game played from ``legal_cards()`` is
never flagged") and the load for benchmarks.  The session simulator plays
with heuristics instead; this module only guarantees legality.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from tarock.cards import CODES, KINGS, KINGS_MASK, PLAIN_MASK, TAROK_MASK, TRULA_MASK, cards_of, mask_of
from tarock.game import Game
from tarock.options import DEFAULT_SLOVENIAN, SlovenianOptions
from tarock.rules.slovenian.contracts import CARDS_PER_HAND, CONTRACTS, TALON_SIZE, allowed_contract
from tarock.sim.compiled import shuffle, shuffler

NAMES = ("Ana", "Boris", "Cilka", "David")


def deal_cards(rng: random.Random, n_players: int, redeal_without_tarok: bool = True
               ) -> tuple[list[list[int]], list[int]]:
    """Shuffle and deal hands (sorted) and the talon (in dealt order); redeal a hand without a tarok
    (a misdeal in ``slovenian``, not in Königrufen: ``redeal_without_tarok=False``).  The shuffle is
    ``tarock.sim.compiled.shuffle``: compiled where it can be, the same draws either way."""
    per = CARDS_PER_HAND[n_players]
    deck = list(range(54))
    while True:
        shuffle(rng, deck)
        talon = deck[:TALON_SIZE]
        hands = [sorted(deck[TALON_SIZE + i * per: TALON_SIZE + (i + 1) * per]) for i in range(n_players)]
        if not redeal_without_tarok or all(h[0] < 22 for h in hands):
            return hands, talon


def deal_masks(rng: random.Random, n_players: int, redeal_without_tarok: bool = True
               ) -> tuple[list[list[int]], list[int], list[int]]:
    """``deal_cards`` and each hand's mask, in one compiled call when it may be (``tarock.sim.compiled.shuffler``:
    ``_simplay.deal`` shuffles as ``shuffle`` does, the same draws either way)."""
    compiled = shuffler(rng)
    if compiled is None:
        hands, talon = deal_cards(rng, n_players, redeal_without_tarok)
        return hands, talon, [mask_of(h) for h in hands]
    dealt: tuple[list[list[int]], list[int], list[int]] = compiled.deal(
        rng, n_players, CARDS_PER_HAND[n_players], TALON_SIZE, redeal_without_tarok)
    return dealt


def legal_stash(rng: random.Random, hand: int, k: int, taroks_first: bool = False, keep: int = 0) -> list[int]:
    """``k`` cards that may be laid away, never a king or a trula card nor a card of ``keep``:
    suit cards first, then taroks (``taroks_first``, Königrufen's colour games: the other way round).
    Fewer than ``k`` when ``keep`` leaves too few."""
    suit = hand & PLAIN_MASK & ~KINGS_MASK & ~keep
    taroks = hand & TAROK_MASK & ~TRULA_MASK & ~keep
    chosen: list[int] = []
    for mask in ((taroks, suit) if taroks_first else (suit, taroks)):
        if len(chosen) < k:
            cards = list(cards_of(mask))
            rng.shuffle(cards)
            chosen += cards[: k - len(chosen)]
    return sorted(chosen)


def random_record(rng: random.Random, n_players: int = 4, contract: str | None = None,
                  options: SlovenianOptions = DEFAULT_SLOVENIAN, named: bool = False) -> dict[str, Any]:
    """A complete, legal ``tarock-record/1`` object with random choices throughout."""
    players = NAMES[:n_players]
    hands, talon = deal_cards(rng, n_players)
    names = [c for c in CONTRACTS if allowed_contract(CONTRACTS[c], n_players)]
    info = CONTRACTS[contract or rng.choice(names)]
    declarer = None if info.is_klop else rng.randrange(n_players)
    record: dict[str, Any] = {
        "format": "tarock-record/1",
        "ruleset": "slovenian",
        "players": list(players),
        "hands": {p: [CODES[c] for c in h] for p, h in zip(players, hands)},
        "talon": [CODES[c] for c in talon],
        "contract": info.name,
    }
    masks = [mask_of(h) for h in hands]
    if declarer is not None:
        record["declarer"] = players[declarer]
        if info.calls_king and n_players == 4:
            record["called_king"] = CODES[rng.choice(KINGS)]
        k = info.talon_group
        if k:
            group = rng.randrange(TALON_SIZE // k)
            pick = talon[group * k:(group + 1) * k]
            after = masks[declarer] | mask_of(pick)
            stash = legal_stash(rng, after, k)
            masks[declarer] = after & ~mask_of(stash)
            record["talon_pick"] = [CODES[c] for c in pick]
            record["stash"] = [CODES[c] for c in stash]
    leader = declarer if info.declarer_leads and declarer is not None else 0
    game = Game(players, masks, info, options, leader)
    record["tricks"] = random_tricks(rng, game, CARDS_PER_HAND[n_players], named)
    return record


def random_tricks(rng: random.Random, game: Game, n_tricks: int, named: bool,
                  stop: Callable[[int], bool] | None = None) -> list[list[str]]:
    """Play ``game`` with uniformly random legal cards; ``stop(t)`` after trick t (0-based) may end it early.

    Tricks come out as record text: codes, or ``"Name:CODE"`` when ``named``.
    """
    players = game.players
    tricks: list[list[str]] = []
    for t in range(n_tricks):
        trick: list[str] = []
        for _ in range(game.n):
            seat = game.turn
            card = rng.choice(game.legal_cards())
            game.play(card)
            trick.append(f"{players[seat]}:{CODES[card]}" if named else CODES[card])
        tricks.append(trick)
        if stop is not None and stop(t):
            break
    return tricks
