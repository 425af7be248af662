"""The deck: codes, aliases, values and counting."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tarock.cards import (
    CARD_POINTS,
    CODES,
    FULL_DECK,
    N_CARDS,
    UnknownCardError,
    card_text,
    cards_text,
    code,
    counted_points,
    mask_of,
    parse_card,
    raw_points,
)


def test_deck_has_54_distinct_codes_and_106_raw_points() -> None:
    assert N_CARDS == 54 and len(set(CODES)) == 54
    # 22 taroks: 3 worth 5, 19 worth 1 -> 34; per suit K5 Q4 N3 J2 + 4 pips -> 18, four suits -> 72
    assert sum(CARD_POINTS) == 34 + 72 == 106


def test_seed_batch_examples() -> None:
    # Seed 004: King (5) + Queen (4) + Tarok VII (1) = 10 - 2 = 8; three 1-point cards = 1.
    assert counted_points(mask_of(parse_card(x) for x in ("HK", "HQ", "T7"))) == 8
    assert counted_points(mask_of(parse_card(x) for x in ("T2", "T3", "T4"))) == 1


def test_whole_deck_counts_70() -> None:
    assert counted_points(FULL_DECK) == 70


def seed_batches(cards: list[int]) -> int:
    """The seed's method, literally: batches of three minus 2, a rest of 1-2 cards minus 1."""
    total = 0
    for i in range(0, len(cards), 3):
        batch = cards[i:i + 3]
        total += sum(CARD_POINTS[c] for c in batch) - (2 if len(batch) == 3 else 1)
    return total


@given(st.randoms(use_true_random=False))
def test_thirds_counting_equals_seed_batches_for_any_pile(rng: random.Random) -> None:
    # Batches subtract 2 per full three and 1 for a rest of 1 or 2 cards: n=3k+1 -> 2k+1 = round(2n/3),
    # n=3k+2 -> 2k+1 = round(2n/3) as well, so the batch count is round(raw - 2n/3) for every size.
    deck = list(range(54))
    rng.shuffle(deck)
    pile = deck[: rng.randint(0, 54)]
    assert counted_points(mask_of(pile)) == seed_batches(pile)


@pytest.mark.parametrize("text, expected", [
    ("HK", "HK"), ("hk", "HK"), ("King of Hearts", "HK"), ("srce kralj", "HK"), ("Herz König", "HK"),
    ("Pagat", "T1"), ("I", "T1"), ("Mond", "T21"), ("XXI", "T21"), ("Škis", "T22"), ("Skis", "T22"),
    ("Sküs", "T22"), ("Excuse", "T22"), ("XXII", "T22"), ("Tarok XIV", "T14"), ("t14", "T14"),
    ("10 of Spades", "S10"), ("pik 10", "S10"), ("Pik Dama", "SQ"), ("Kreuz Bube", "CJ"),
    ("križ kaval", "CN"), ("4 of Hearts", "H4"), ("kara 1", "D1"), ("HKN", "HN"), ("SKI", "SK"),
])
def test_aliases(text: str, expected: str) -> None:
    assert code(parse_card(text)) == expected


@pytest.mark.parametrize("text", ["HX", "T23", "T0", "King of Cups", "", "S4", "H7"])
def test_unknown_card_reports_its_text(text: str) -> None:
    with pytest.raises(UnknownCardError) as info:
        parse_card(text)
    assert info.value.text == text


@pytest.mark.parametrize("card, drawn", [("T1", "I"), ("T4", "IV"), ("T14", "XIV"), ("T21", "XXI"), ("T22", "Škis"),
                                         ("HK", "K♥"), ("D1", "1♦"), ("S10", "10♠"), ("C8", "8♣"), ("CN", "N♣")])
def test_cards_are_written_for_people_as_drawn_and_read_back(card: str, drawn: str) -> None:
    """One notation for people (issue 38): the text a card's face shows, which the reader takes back too."""
    assert card_text(card) == drawn
    assert code(parse_card(drawn)) == card


def test_codes_in_a_sentence_are_written_as_drawn_and_other_words_kept() -> None:
    assert cards_text("Boris played T2 on a diamond lead while holding D1") == \
        "Boris played II on a diamond lead while holding 1♦"
    assert cards_text("S10, CK and T22; HKX and T23 are no cards") == "10♠, K♣ and Škis; HKX and T23 are no cards"


def test_raw_points_of_empty_and_single() -> None:
    assert raw_points(0) == 0
    assert counted_points(mask_of([parse_card("HK")])) == 4  # a lone king: 5 - 1 (rest of one card)
