"""Play-outs of a dealt hand (``tarock.sim.playouts``): every contract of the table gets one, the deals dealt around
the hand are deals, the figures are the seed's, the extremes come out as a player expects, and a stronger hand
never plays worse (on a handful of pairs, on the same deals: ``paired``; bench/bench_playouts.py runs 200 and
more).
"""

from __future__ import annotations

import random

import pytest

from tarock import accel
from tarock.engine import replay
from tarock.facts import DealFacts
from tarock.formats.codec import deal_from_obj
from tarock.cards import CARD_POINTS, CARD_SUIT, N_CARDS, TAROK_MASK, mask_of, parse_card
from tarock.rules.slovenian.contracts import CONTRACTS
from tarock.rules.slovenian.scoring import score_deal
from tarock.sim.playouts import (
    CAP,
    HALF_WIDTH,
    MIN_PLAYOUTS,
    auction_won,
    biddable,
    deal_around,
    estimate,
    paired,
    play_dealt,
    play_out,
    random_pair,
    wilson,
)
from tarock.sim.simulate import simulate_sessions

STRONG = "T22 T21 T20 T19 T18 T17 T16 T15 HK DK SK CK"
"""The eight highest taroks and all four kings."""
WEAK = "T2 T3 H1 H2 H3 D1 D2 S7 S8 C7 C8 C9"
"""Two small taroks and no king, no queen: nothing that takes a trick but by luck."""
MIDDLING = "T21 T20 T15 T12 T8 T5 HK H3 DQ S7 C9 CK"
"""Six taroks with the Mond, two kings: a Tri or a Dva at most tables."""


def hand(text: str) -> int:
    return mask_of([parse_card(word) for word in text.split()])


def test_every_contract_a_table_may_declare() -> None:
    # RULES.md: Klop is nobody's to declare; the solos (Solo tri, dva, ena) are 4-player contracts only
    assert [c.name for c in biddable(4)] == ["tri", "dva", "ena", "solo_tri", "solo_dva", "solo_ena", "berac",
                                              "solo_brez", "odprti_berac", "barvni_valat", "valat"]
    assert [c.name for c in biddable(3)] == ["tri", "dva", "ena", "berac", "solo_brez", "odprti_berac",
                                              "barvni_valat", "valat"]


@pytest.mark.parametrize("n", [3, 4])
def test_the_unseen_cards_are_dealt_around_the_hand(n: int) -> None:
    rng = random.Random(5)
    per = {3: 16, 4: 12}[n]
    mine = mask_of(rng.sample(range(N_CARDS), per))
    for seat in range(n):
        hands, talon = deal_around(rng, mine, n, seat)
        assert hands[seat] == mine
        masks = [*hands, mask_of(talon)]
        assert sum(m.bit_count() for m in masks) == N_CARDS  # 54 cards, each once: disjoint and complete
        assert sum(masks) == (1 << N_CARDS) - 1
        assert len(talon) == 6 and all(h.bit_count() == per for h in hands)
        assert all(h & TAROK_MASK for s, h in enumerate(hands) if s != seat)  # a hand without a tarok is redealt


def test_the_same_seed_gives_the_same_figures_and_another_seed_other_deals() -> None:
    dva = CONTRACTS["dva"]
    first, again = estimate(hand(MIDDLING), 4, dva, seed=3), estimate(hand(MIDDLING), 4, dva, seed=3)
    assert first == again
    outcomes = [play_out(hand(MIDDLING), 4, dva, random.Random(i), 0) for i in range(40)]
    assert outcomes == [play_out(hand(MIDDLING), 4, dva, random.Random(i), 0) for i in range(40)]
    assert len(set(outcomes)) > 1  # forty deals of one middling hand do not all end alike


def test_the_reference_scores_a_play_out_as_the_compiled_scorer_does() -> None:
    middling = hand(MIDDLING)
    compiled = [play_out(middling, 4, c, random.Random(i), i % 4) for c in biddable(4) for i in range(8)]
    with accel.reference():
        reference = [play_out(middling, 4, c, random.Random(i), i % 4) for c in biddable(4) for i in range(8)]
    assert compiled == reference


def test_play_outs_stop_when_the_interval_is_narrow_enough() -> None:
    strong = estimate(hand(STRONG), 4, CONTRACTS["solo_tri"])
    assert strong.playouts == MIN_PLAYOUTS  # 100 wins of 100: the interval is 96.3–100 %, ±1.8 points
    middling = estimate(hand(MIDDLING), 4, CONTRACTS["tri"])
    low, high = middling.interval
    assert middling.playouts > MIN_PLAYOUTS
    assert (high - low) / 2 <= HALF_WIDTH or middling.playouts == CAP
    assert low <= middling.win_probability <= high


def test_wilson_at_the_ends_and_in_the_middle() -> None:
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    low, high = wilson(50, 100)  # 0.5 ± 1.96·sqrt(0.25/100 + 1.96²/40000)/(1 + 1.96²/100): 0.404 – 0.596
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)


def test_the_extremes() -> None:
    strong, weak = hand(STRONG), hand(WEAK)
    for name in ("tri", "dva", "ena", "solo_tri", "solo_dva", "solo_ena"):
        assert estimate(strong, 4, CONTRACTS[name]).win_probability >= 0.95, name
    for name in ("ena", "solo_tri", "solo_dva", "solo_ena"):
        assert estimate(weak, 4, CONTRACTS[name]).win_probability <= 0.25, name


@pytest.mark.parametrize(("weaker", "stronger"), [
    (MIDDLING, MIDDLING.replace("T5", "T6")),  # a tarok raised to the next one not held
    (MIDDLING, MIDDLING.replace("T12", "T16")),
    (MIDDLING, MIDDLING.replace("S7", "T22")),  # the lowest spade turned into the Škis
    (WEAK, WEAK.replace("C7", "T4")),
    (WEAK, WEAK.replace("T3", "T17")),
])
def test_a_stronger_hand_never_plays_worse(weaker: str, stronger: str) -> None:
    for contract in biddable(4):
        a, b = paired(hand(weaker), hand(stronger), 4, contract, seed=11)
        # the hand stronger for the contract must not win less beyond its own interval: in Berač and Odprti
        # berač, where a higher card is one more trick to take, that is the weaker hand
        if contract.negative:
            assert a.interval[1] >= b.win_probability, contract.name
        else:
            assert b.interval[1] >= a.win_probability, contract.name


def test_paired_hands_share_their_deals() -> None:
    """The weaker hand's half of ``paired`` is that hand's own ``estimate`` (the same deals, the same figures);
    two hands that do not differ in exactly one card are refused."""
    weaker, stronger = hand(MIDDLING), hand(MIDDLING.replace("T5", "T6"))
    a, b = paired(weaker, stronger, 4, CONTRACTS["tri"], seed=4, cap=150, half_width=0.0)
    assert a == estimate(weaker, 4, CONTRACTS["tri"], seed=4, cap=150, half_width=0.0)
    assert a.playouts == b.playouts == 150
    with pytest.raises(ValueError, match="exactly one card"):
        paired(weaker, weaker, 4, CONTRACTS["tri"])
    with pytest.raises(ValueError, match="exactly one card"):
        paired(weaker, hand(MIDDLING.replace("T5", "T6").replace("S7", "S8")), 4, CONTRACTS["tri"])


def test_a_play_out_is_a_deal_whose_auction_the_declarer_wins() -> None:
    """Beside the strong hand nobody declares anything but Valat: its value (tarock.sim.players.value_hand) is 8
    taroks + 5 from XVI to XX + 3 for each of Škis and Mond + 3 for each of four kings + ½ for each of four
    singletons = 33, over Valat's 25 in any mood a deal draws, so it wishes up to Valat and outbids every lower
    contract; at Valat forehand keeps it by priority (an equal bid belongs to the earlier seat)."""
    rng = random.Random(2)
    strong = hand(STRONG)
    for _ in range(20):
        hands, _talon = deal_around(rng, strong, 4, 1)
        for contract in biddable(4):
            assert auction_won(rng, hands, contract, 0) == (contract.name == "valat"), contract.name


@pytest.mark.parametrize("n", [3, 4])
def test_a_play_out_of_a_simulated_deal_ends_as_the_simulator_played_it(n: int) -> None:
    """Given the very hands and talon of a simulated deal, ``play_dealt`` plays it as the session simulator did
    (the same talon group and stash, the same cards): the declarer's side wins exactly when the engine says the
    recorded deal was won.  Left out: deals with a king called (the simulator draws between equally long suits,
    a play-out from its own generator), and deals with a pagat ultimo announced (its holder then keeps the
    Pagat; a play-out announces nothing)."""
    compared = 0
    for record, _ in simulate_sessions(n, 37, 0, 12, 20, 0.0):
        announced = [a.get("bonus") for a in record.get("announcements", ())]
        if record.get("declarer") is None or "called_king" in record or "pagat_ultimo" in announced:
            continue
        players = record["players"]
        seat = players.index(record["declarer"])
        hands = [mask_of([parse_card(c) for c in record["hands"][p]]) for p in players]
        talon = [parse_card(c) for c in record["talon"]]
        facts = replay(deal_from_obj(record)).facts
        assert isinstance(facts, DealFacts)
        won, _score = play_dealt(hands, talon, CONTRACTS[record["contract"]], random.Random(0), seat)
        assert won == score_deal(facts).won, record["id"]
        compared += 1
    assert compared >= 30  # of 240 deals: at 3 players every declared one, at 4 the solos and higher


@pytest.mark.parametrize("n", [3, 4])
def test_a_random_pair_is_one_hand_made_stronger_without_losing_card_points(n: int) -> None:
    """``random_pair`` keeps the hand's size, trades exactly one card, and the card it gets is a tarok worth at
    least the card it gives: a tarok raised (never the Pagat, 5 points, to II … XX, 1 point each) or a pip card
    of a suit turned into a tarok."""
    rng = random.Random(8)
    per = {3: 16, 4: 12}[n]
    pagat_raises = suit_turns = 0
    for _ in range(400):
        weaker, stronger, _what = random_pair(rng, n)
        assert weaker.bit_count() == stronger.bit_count() == per
        given, taken = weaker & ~stronger, stronger & ~weaker
        assert given.bit_count() == taken.bit_count() == 1
        gave, got = given.bit_length() - 1, taken.bit_length() - 1
        assert got < 22  # the new card is a tarok
        assert CARD_POINTS[got] >= CARD_POINTS[gave]
        if gave < 22:
            assert got > gave  # a raise is to a higher tarok
            if gave == 0:
                assert got in (20, 21)  # the Pagat only to the Mond (T21) or the Škis (T22)
                pagat_raises += 1
        else:
            assert CARD_POINTS[gave] == 1  # a pip card, not a jack, knight, queen or king
            suit = [c for c in range(22, N_CARDS) if CARD_SUIT[c] == CARD_SUIT[gave]]
            assert not any(weaker >> c & 1 for c in suit if c < gave)  # the lowest card of its suit in the hand
            suit_turns += 1
    assert pagat_raises > 0 and suit_turns > 100  # both kinds of pair do come up
