"""The simulator's compiled players (``tarock/sim/_simplay.c``) against the Python players they project.

The Python players (``tarock.sim.players``, ``tarock.sim.koenigrufen_players``) are the reference.  The
compiled ones must choose the same card at every turn, value every hand to the same float, deal the same
hands and wish for the same contracts from the same draws of the generator: checked here
card by card on random deals of every contract of both rulesets (with declarers, partners and called kings
drawn at random, so positions the bidding rarely reaches are played too), and as a whole on simulated
sessions, whose output must be byte for byte what the reference path (``tarock.accel.reference()``, no C at
all) writes -- and what the code before the compiled players wrote (``RUNS``, ``CLEAN_RUNS``).
"""

from __future__ import annotations

import hashlib
import random
from pathlib import Path
from typing import Any

import pytest

from tarock import accel
from tarock.cards import KINGS, TAROK_MASK, mask_of
from tarock.options import DEFAULT_SLOVENIAN, koenigrufen_options
from tarock.rules.koenigrufen import contracts as kr
from tarock.rules.slovenian import contracts as sl
from tarock.sim import compiled
from tarock.sim.koenigrufen_players import KoenigrufenPlay
from tarock.sim import players, randomplay
from tarock.sim.players import CardPlay, acceptable_contracts, value_hand
from tarock.sim.randomplay import deal_cards
from tarock.sim.simulate import truth_path, write_simulation
from tarock.sim.table import Table

needs_compiled = pytest.mark.skipif(compiled.SIMPLAY is None, reason="the compiled players were not built")

NAMES = ("Ana", "Boris", "Cilka", "David")


def played(table: Table) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]], list[int], list[int]]:
    return table.tricks, table.trick_seats, table.winners, [table.tricks_taken(s) for s in range(table.n)]


def both_ways(make_players: Any, hands: list[int], contract: Any, options: Any, leader: int) -> None:
    """Play one deal with the compiled players and with the Python ones: the same tricks, seats, winners."""
    n = len(hands)
    fast = Table(NAMES[:n], hands, contract, options, leader)
    fast.play_with(make_players())
    with accel.reference():
        slow = Table(NAMES[:n], hands, contract, options, leader)
        slow.play_with(make_players())
    assert played(fast) == played(slow)
    assert len(fast.tricks) == sum(h.bit_count() for h in hands) // n  # every card played
    assert fast.hands == slow.hands == [0] * n


@needs_compiled
@pytest.mark.parametrize("n", [3, 4])
def test_slovenian_card_play_is_the_python_players_card_for_card(n: int) -> None:
    rng = random.Random(f"slovenian play {n}")
    contracts = [c for c in sl.CONTRACTS.values() if sl.allowed_contract(c, n)]
    for _ in range(1500):
        contract = rng.choice(contracts)
        dealt, _talon = deal_cards(rng, n)
        hands = [mask_of(h) for h in dealt]
        declarer = None if contract.is_klop else rng.randrange(n)
        king = partner = None
        if declarer is not None and contract.calls_king and n == 4:
            king = rng.choice(KINGS)
            partner = next((s for s in range(n) if s != declarer and hands[s] >> king & 1), None)
        pagat = rng.choice([None, rng.randrange(n)])
        leader = declarer if contract.declarer_leads and declarer is not None else 0
        both_ways(lambda: CardPlay(contract, n, declarer, partner, king, hands, pagat, leader),
                  hands, contract, DEFAULT_SLOVENIAN, leader)


@needs_compiled
@pytest.mark.parametrize("changed", [{}, {"emperor_trick": False, "pagat_restriction": False},
                                     {"color_discard_restriction": True, "quapil": True}])
def test_koenigrufen_card_play_is_the_python_players_card_for_card(changed: dict[str, Any]) -> None:
    options = koenigrufen_options(None, changed)
    rng = random.Random(f"koenigrufen play {sorted(changed.items())}")
    for _ in range(1200):
        contract = rng.choice(list(kr.CONTRACTS.values()))
        dealt, _talon = deal_cards(rng, 4, redeal_without_tarok=False)
        hands = [mask_of(h) for h in dealt]
        if not contract.has_declarer:
            declarers: tuple[int, ...] = ()
        elif contract.tricks is not None and rng.random() < 0.3:  # Piccolo-type games: several at once
            declarers = tuple(sorted(rng.sample(range(4), 2)))
        else:
            declarers = (rng.randrange(4),)
        king = partner = None
        if contract.calls_king and declarers:
            king = rng.choice(KINGS)
            partner = next((s for s in range(4) if s != declarers[0] and hands[s] >> king & 1), None)
        pagat = rng.choice([None, rng.randrange(4)])
        valat = rng.random() < 0.2
        leader = kr.leader(contract, declarers)
        both_ways(lambda: KoenigrufenPlay(contract, declarers, partner, king, hands, pagat, leader, valat),
                  hands, contract, options, leader)


@needs_compiled
def test_a_hand_is_valued_to_the_same_float() -> None:
    rng = random.Random("hand values")
    for _ in range(20000):
        hand = mask_of(rng.sample(range(54), rng.choice((12, 16))))
        assert compiled.hand_value(hand) == value_hand(hand)
    with accel.reference():  # switched off with the kernel: the reference itself
        assert compiled.running() is None


def digest(out: Path) -> str:
    return hashlib.sha256(out.read_bytes() + b"|" + truth_path(out).read_bytes()).hexdigest()


RUNS: list[tuple[int, str, dict[str, Any] | None, str]] = [
    (4, "slovenian", None, "f4d000b4d139e1107e44eb98cc3cb8c48192b7048fab2e9e75e89c80ea46b27d"),
    (3, "slovenian", None, "a54a310f9eacdaa7cd37e7da2d505cb068143dda20ba2e520d0a8b893ed8d55d"),
    (4, "koenigrufen", None, "c05f61be0e5497b75abaa87c5c74722c7df13ca9c47991558e5b1da4f4936728"),
    (4, "koenigrufen", {"preset": "oberoesterreich", "emperor_trick": False},
     "85450c66e2a7a1fa51cd7cb8408ce7f6dd814c2fb42e1381a58e2f120aaf86a5"),
]
"""Runs of 12 sessions of 10 deals, seed 2026, mistakes 0.3, and the SHA-256 of their records, '|' and their
truth as written by the simulator at commit 943e939, before the compiled players and the Deal built without
re-reading (pure Python, from ``git archive 943e939``): the seed promises the same output."""


@pytest.mark.parametrize(("players", "ruleset", "options", "pinned"), RUNS)
def test_the_output_is_the_reference_paths_and_the_earlier_codes(tmp_path: Path, players: int, ruleset: str,
                                                                  options: dict[str, Any] | None,
                                                                  pinned: str) -> None:
    fast, slow = tmp_path / "fast.jsonl", tmp_path / "slow.jsonl"
    write_simulation(fast, players, 12, 10, 2026, 0.3, 1, ruleset, options)
    with accel.reference():
        write_simulation(slow, players, 12, 10, 2026, 0.3, 1, ruleset, options)
    assert fast.read_bytes() == slow.read_bytes()
    assert truth_path(fast).read_bytes() == truth_path(slow).read_bytes() != b""
    assert digest(fast) == digest(slow) == pinned


@needs_compiled
def test_the_compiled_shuffle_draws_what_the_python_shuffle_draws() -> None:
    assert compiled._SHUFFLES  # the probe at import agreed
    ours, theirs = random.Random("shuffles"), random.Random("shuffles")
    for size in [54] * 300 + list(range(1, 80)):
        a, b = list(range(size)), list(range(size))
        compiled.shuffle(ours, a)
        theirs.shuffle(b)
        assert a == b
    assert ours.getstate() == theirs.getstate()  # the same draws, not just the same decks
    assert ours.random() == theirs.random()


@needs_compiled
@pytest.mark.parametrize(("n", "redeal"), [(4, True), (3, True), (4, False)])
def test_the_compiled_deal_is_deal_cards(n: int, redeal: bool) -> None:
    ours, theirs = random.Random(f"deal {n}"), random.Random(f"deal {n}")
    misdeals = 0
    for _ in range(3000):
        hands, talon, masks = randomplay.deal_masks(ours, n, redeal)
        with accel.reference():  # the Python's deal_cards and shuffle
            want_hands, want_talon, want_masks = randomplay.deal_masks(theirs, n, redeal)
        assert (hands, talon, masks) == (want_hands, want_talon, want_masks)
        assert masks == [mask_of(h) for h in hands]
        misdeals += any(h[0] >= 22 for h in hands)  # only kept without the redeal
    assert ours.getstate() == theirs.getstate()  # the same draws, redeals included
    # a hand without a tarok (taroks are cards 0-21) comes once in some hundreds of deals at 4 players
    assert (misdeals > 0) == (not redeal and n == 4)


@needs_compiled
@pytest.mark.parametrize("n", [3, 4])
def test_the_compiled_wishes_are_acceptable_contracts(n: int) -> None:
    ours, theirs, deals = random.Random(f"wish {n}"), random.Random(f"wish {n}"), random.Random(n)
    seen: set[tuple[str, ...]] = set()
    for _ in range(4000):
        hands, _ = deal_cards(deals, n)
        masks = [mask_of(h) for h in hands]
        values, wants = compiled.wishes(ours, masks)
        want_values = [value_hand(h) for h in masks]
        assert values == want_values
        assert wants == [acceptable_contracts(v, s, n, theirs) for s, v in enumerate(want_values)]
        seen.update(tuple(c.name for c in w) for w in wants)
    assert ours.getstate() == theirs.getstate()  # one mood drawn per seat, in seat order
    names = {name for wish in seen for name in wish}
    assert {"tri", "dva", "berac", "barvni_valat"} <= names  # the positive, negative and colour branches


CLEAN_RUNS: list[tuple[int, str, str]] = [
    (4, "slovenian", "fd18eb751f8c79dae43b6291c4518c6a390a63b5f34960f0609ee122e6ae74a7"),
    (3, "slovenian", "72091c6af6b2d27c4ba3a9f0398ecfdd1eddef9f3971a91db53044a290467254"),
    (4, "koenigrufen", "697d693485c141a90e9d71dc2f7ebdb7277abe9d9b47959acf2c964d7e00df2e"),
]
"""Runs of 30 sessions of 10 deals, seed 2026, no mistakes, and the SHA-256 of their records, '|' and their (empty)
truth as written at commit 3f85b13, before the compiled deal and wishes and the lane's check of a clean deal
(``git archive 3f85b13`` with its extensions built): most of these deals go the compiled way now."""


@pytest.mark.parametrize(("players", "ruleset", "pinned"), CLEAN_RUNS)
def test_a_clean_run_is_the_reference_paths_and_the_earlier_codes(tmp_path: Path, players: int, ruleset: str,
                                                                 pinned: str) -> None:
    fast, slow = tmp_path / "fast.jsonl", tmp_path / "slow.jsonl"
    write_simulation(fast, players, 30, 10, 2026, 0.0, 1, ruleset)
    with accel.reference():
        write_simulation(slow, players, 30, 10, 2026, 0.0, 1, ruleset)
    assert fast.read_bytes() == slow.read_bytes()
    assert digest(fast) == digest(slow) == pinned


@needs_compiled
def test_the_compiled_gauss_draws_what_random_gauss_draws() -> None:
    assert compiled._GAUSS  # the probe at import agreed: the wishes draw their moods in C
    simplay = compiled.SIMPLAY
    assert simplay is not None
    ours, theirs = random.Random("gauss"), random.Random("gauss")
    for i in range(20000):
        assert simplay.gauss(ours) == theirs.gauss(0.0, 1.0)
        if i % 7 == 0:  # other draws between, as a deal makes them: the kept second value survives them
            assert ours.random() == theirs.random()
    assert ours.getstate() == theirs.getstate()
    assert ours.gauss_next == theirs.gauss_next  # type: ignore[attr-defined]


@needs_compiled
def test_the_compiled_king_talon_and_stash_are_the_python_players() -> None:
    ours, theirs, deals = random.Random("kings"), random.Random("kings"), random.Random("talons")
    stashes = set()
    for _ in range(6000):
        n = deals.choice((3, 4))
        hands, talon = deal_cards(deals, n)
        hand = mask_of(hands[0])
        if deals.random() < 0.05:  # all four kings held: any of them, drawn
            hand |= sum(1 << k for k in KINGS)
        assert compiled.call_king(hand, ours) == players.call_king(hand, theirs)
        for group in (1, 2, 3):
            assert compiled.pick_talon(talon, group) == players.pick_talon(talon, group)
            after = hand | mask_of(players.pick_talon(talon, group))
            king = deals.choice((None, *KINGS))
            stash = compiled.choose_stash(after, group, king)
            assert stash == players.choose_stash(after, group, king)
            stashes.add(bool(stash & TAROK_MASK))
    assert ours.getstate() == theirs.getstate()  # the same draws for the ties
    assert stashes == {True, False}  # stashes of suit cards only, and with taroks (too few suit cards)
