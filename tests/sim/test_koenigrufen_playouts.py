"""Play-outs of a dealt Königrufen hand (``tarock.sim.koenigrufen_playouts``): the games the hand may declare, a
play-out is a deal the declarer bid and the engine replays, the reference scores it as the compiled scorer does,
and the extremes come out as a player expects."""

from __future__ import annotations

import random

import pytest

from tarock import accel
from tarock.cards import mask_of, parse_card
from tarock.rules.koenigrufen.contracts import CONTRACTS
from tarock.sim import koenigrufen_playouts
from tarock.sim.koenigrufen_playouts import auction, biddable, estimate, play_out, wishing
from tarock.sim.playouts import deal_around

STRONG = "T22 T21 T20 T19 T18 T17 T16 T15 HK DK SK CK"
"""The eight highest taroks and all four kings."""
WEAK = "T2 T3 H1 H2 H3 D1 D2 S7 S8 C7 C8 C9"
"""Two small taroks, no honour, no king or queen: nothing that takes a trick but by luck."""
MIDDLING = "T21 T20 T15 T12 T8 T5 HK H3 DQ S7 C9 CK"
"""Six taroks with the Mond, two kings, no bird (I–IIII)."""


def hand(text: str) -> int:
    return mask_of([parse_card(word) for word in text.split()])


def names(text: str) -> list[str]:
    return [c.name for c in biddable(hand(text))]


def test_the_games_a_hand_may_declare() -> None:
    # Trischaken has no declarer; the default table plays no Triccolo (``unavailable``,
    # tarock/rules/koenigrufen/contracts.py).
    # The middling hand has no bird, so no Besserrufer (its declarer must announce one it holds).
    assert names(MIDDLING) == ["rufer", "piccolo", "zwiccolo", "bettel", "solorufer", "farbendreier",
                               "sechserdreier", "dreier", "farbensolo", "piccolo_ouvert", "zwiccolo_ouvert",
                               "bettel_ouvert", "solodreier"]
    # the weak hand holds the Uhu (II) and the Kakadu (III): a Besserrufer is its to declare
    assert "besserrufer" in names(WEAK)
    # all four kings: no king to call, so no Rufer, Solorufer or Besserrufer
    assert not {"rufer", "solorufer", "besserrufer"} & set(names(STRONG))
    assert "dreier" in names(STRONG) and "trischaken" not in names(STRONG)


def test_a_play_out_is_a_deal_the_declarer_won_the_auction_with() -> None:
    """For a game bid in the auction, the simulator's auction of the deal a play-out plays goes to the seat with
    that game (it is dealt again until it does, ``AUCTION_TRIES`` at most; these hands get there at once)."""
    middling = hand(MIDDLING)
    for name, seat in (("dreier", 2), ("solorufer", 1), ("sechserdreier", 0)):
        contract = CONTRACTS[name]
        rng = random.Random(4)
        hands, _ = deal_around(rng, middling, 4, seat, redeal_without_tarok=False)
        won = 0
        for _ in range(20):
            bidding = auction(rng, hands, contract, seat, koenigrufen_playouts.DEFAULT_KOENIGRUFEN)
            won += bidding.contract is contract and bidding.declarers == (seat,)
        assert won > 0, name
    assert wishing(CONTRACTS["rufer"]).game is None  # a Rufer is forehand's choice when all passed, not a bid


def test_the_reference_scores_a_play_out_as_the_compiled_scorer_does() -> None:
    for text in (MIDDLING, WEAK):
        mine = hand(text)
        games = biddable(mine)
        compiled = [play_out(mine, c, random.Random(i), 0 if c.forehand_only else i % 4) for c in games
                    for i in range(6)]
        with accel.reference():
            reference = [play_out(mine, c, random.Random(i), 0 if c.forehand_only else i % 4) for c in games
                         for i in range(6)]
        assert compiled == reference
        assert len(set(compiled)) > 2  # not one outcome for every game


def test_the_extremes() -> None:
    # eight top taroks and four kings take nearly every trick: the Dreier, Sechserdreier and Solodreier, played
    # alone, are won; a Piccolo (exactly one trick) never is
    strong = hand(STRONG)
    for name in ("dreier", "solodreier", "sechserdreier"):
        assert estimate(strong, CONTRACTS[name]).win_probability >= 0.95, name
    assert estimate(strong, CONTRACTS["piccolo"]).win_probability <= 0.05
    # two small taroks and low cards: a Dreier or Solodreier alone is lost; a Bettel (no trick) is won
    weak = hand(WEAK)
    for name in ("dreier", "solodreier"):
        assert estimate(weak, CONTRACTS[name]).win_probability <= 0.25, name
    assert estimate(weak, CONTRACTS["bettel"]).win_probability >= 0.75


def test_a_game_the_hand_may_not_declare_is_refused() -> None:
    with pytest.raises(ValueError, match="not declared with this hand"):
        estimate(hand(STRONG), CONTRACTS["rufer"])
    with pytest.raises(ValueError, match="12 cards"):
        estimate(hand(STRONG) & ~hand("CK"), CONTRACTS["dreier"])
