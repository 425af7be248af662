"""Königrufen trick play on small hand-built positions: docs/koenigrufen.md's special rules.

Colour games (tarock a fifth suit, no tarock lead while holding a suit card),
negative games (must overtrump, the Pagat only as the last tarock), the
Kaiserstich (positive tarock games only, any order), and their options.
"""

from __future__ import annotations

from typing import Any

from tarock.cards import CODE_INDEX, CODES, mask_of
from tarock.game import Game, IllegalPlayError
from tarock.options import koenigrufen_options

P4 = ("Ana", "Boris", "Cilka", "David")


def game(contract: str, hands: list[tuple[str, ...]], leader: int = 0, **options: Any) -> Game:
    return Game(P4, [mask_of(CODE_INDEX[c] for c in h) for h in hands], contract, koenigrufen_options(options),
                leader)


def legal(g: Game) -> set[str]:
    return {CODES[c] for c in g.legal_cards()}


def play(g: Game, *cards: str) -> None:
    for card in cards:
        g.play(CODE_INDEX[card])


def judge(g: Game, card: str) -> tuple[str, str]:
    """The code and sentence of playing ``card`` now, or ("legal", "")."""
    try:
        g.verify_play(CODE_INDEX[card])
    except IllegalPlayError as exc:
        return exc.finding.code, exc.finding.message
    return "legal", ""


def code_of(g: Game, card: str) -> str:
    return judge(g, card)[0]


# --- colour games -------------------------------------------------------------------------------------


def test_colour_game_void_must_play_tarock_without_beating() -> None:
    # Farbendreier: hearts led; Boris has no heart: he must play tarock (docs/koenigrufen.md: void, play tarock),
    # any tarock — nothing obliges him to beat; a spade is R_MUST_TAROK.
    g = game("farbendreier", [("H4", "S8"), ("T5", "T20", "S7"), ("HK", "S9"), ("H3", "S10")])
    play(g, "H4")
    assert legal(g) == {"T5", "T20"}
    assert code_of(g, "S7") == "R_MUST_TAROK"


def test_colour_game_tarock_is_no_trump() -> None:
    # Hearts led: Boris's T20 does not take the trick; the highest heart (Cilka's king) does.
    g = game("farbendreier", [("H4", "S8"), ("T20", "S7"), ("HK", "S9"), ("H3", "S10")])
    play(g, "H4", "T20", "HK", "H3")
    assert g.winners == [2] and not g.findings


def test_colour_game_no_tarock_lead_while_holding_a_suit_card() -> None:
    # Ana holds a suit card: she may not lead tarock (R_LEAD_TAROK); without suit cards she may.
    g = game("farbensolo", [("T20", "S8"), ("T5", "S7"), ("T6", "S9"), ("T7", "S10")])
    assert legal(g) == {"S8"}
    assert code_of(g, "T20") == "R_LEAD_TAROK"
    g.play(CODE_INDEX["T20"])
    assert g.findings[0].code == "R_LEAD_TAROK" and g.findings[0].player == "Ana"
    assert "led the tarok T20 while holding the suit card S8" in g.findings[0].message
    g = game("farbensolo", [("T20", "T3"), ("T5", "S7"), ("T6", "S9"), ("T7", "S10")])
    assert legal(g) == {"T20", "T3"}


def test_colour_game_tarock_lead_is_followed_and_the_highest_tarock_wins() -> None:
    # A tarock lead must be followed with tarock (a suit card then is R_FOLLOW_SUIT); T20 wins it.
    g = game("farbensolo", [("T7",), ("T20", "S7"), ("T6", "S9"), ("S10", "S8")])
    play(g, "T7")
    assert legal(g) == {"T20"} and code_of(g, "S7") == "R_FOLLOW_SUIT"
    play(g, "T20", "T6", "S10")
    assert g.winners == [1]


def test_no_kaiserstich_in_colour_games() -> None:
    # Sküs, Mond and Pagat on a tarock lead in a Farbensolo: the Sküs wins (Kaiserstich only in
    # positive games with tarock as trump).
    g = game("farbensolo", [("T22",), ("T21",), ("T1",), ("T5",)])
    play(g, "T22", "T21", "T1", "T5")
    assert g.winners == [0]


# --- Kaiserstich ----------------------------------------------------------------------------------------


def test_kaiserstich_in_any_card_order() -> None:
    # Dreier: the Pagat led, then Mond and Sküs: the Pagat takes the trick (docs/koenigrufen.md, any order).
    g = game("dreier", [("T1",), ("T21",), ("T5",), ("T22",)])
    play(g, "T1", "T21", "T5", "T22")
    assert g.winners == [0]


def test_kaiserstich_option_off() -> None:
    # emperor_trick false: the Sküs wins.
    g = game("dreier", [("T1",), ("T21",), ("T5",), ("T22",)], emperor_trick=False)
    play(g, "T1", "T21", "T5", "T22")
    assert g.winners == [3]


def test_no_kaiserstich_and_no_pagat_exception_in_negative_games() -> None:
    # Piccolo: Sküs and Mond are in the trick; Cilka holds T1 and T2: the Pagat is not her last tarock,
    # so T2 (docs/koenigrufen.md: Pagat only as the last tarock); the Sküs takes the trick.
    g = game("piccolo", [("T22", "H4"), ("T21", "H3"), ("T1", "T2"), ("T5", "H2")])
    play(g, "T22", "T21")
    assert legal(g) == {"T2"}
    assert code_of(g, "T1") == "R_PAGAT"
    play(g, "T2", "T5")
    assert g.winners == [0]


# --- negative games --------------------------------------------------------------------------------------


def test_negative_game_must_overtrump() -> None:
    # Bettel: T10 led; Boris must beat it with T12 (not T5); Cilka must beat T12 with T19; David holds
    # nothing above XIX: any tarock.
    g = game("bettel", [("T10", "H4"), ("T12", "T5"), ("T19", "T11"), ("T15", "T3")])
    play(g, "T10")
    assert legal(g) == {"T12"} and code_of(g, "T5") == "R_MUST_OVERTRUMP"
    play(g, "T12")
    assert legal(g) == {"T19"}
    play(g, "T19")
    assert legal(g) == {"T15", "T3"}


def test_trischaken_is_played_as_a_negative_game() -> None:
    g = game("trischaken", [("T10", "H4"), ("T12", "T5"), ("T19", "T11"), ("T15", "T3")])
    play(g, "T10")
    assert legal(g) == {"T12"}


def test_pagat_only_as_the_last_tarock_leads_included() -> None:
    # Piccolo: Ana leads holding T1, T5 and a heart: not the Pagat (R_PAGAT); holding T1 and suit cards
    # only, the Pagat is her last tarock and may be led.
    g = game("piccolo", [("T1", "T5", "H3"), ("T6", "H4", "H2"), ("T7", "H1", "S7"), ("T8", "HJ", "S8")])
    assert legal(g) == {"T5", "H3"} and code_of(g, "T1") == "R_PAGAT"
    g = game("piccolo", [("T1", "H3", "S9"), ("T6", "H4", "H2"), ("T7", "H1", "S7"), ("T8", "HJ", "S8")])
    assert legal(g) == {"T1", "H3", "S9"}


def test_pagat_held_back_when_following() -> None:
    # Bettel: T10 led; Boris holds T1 and T3, neither beats X: he must play T3, the Pagat waits.
    g = game("bettel", [("T10", "H4"), ("T1", "T3"), ("T11", "H3"), ("T12", "H2")])
    play(g, "T10")
    assert legal(g) == {"T3"}
    assert code_of(g, "T1") == "R_PAGAT"
    assert "may only be played as the last tarock" in judge(g, "T1")[1]


def test_pagat_restriction_option_off() -> None:
    # pagat_restriction false: the Pagat may be led, and played under T10 like any low tarock.
    g = game("piccolo", [("T1", "T5", "H3"), ("T6", "H4", "H2"), ("T7", "H1", "S7"), ("T8", "HJ", "S8")],
             pagat_restriction=False)
    assert legal(g) == {"T1", "T5", "H3"}
    g = game("bettel", [("T10", "H4"), ("T1", "T3"), ("T11", "H3"), ("T12", "H2")], pagat_restriction=False)
    play(g, "T10")
    assert legal(g) == {"T1", "T3"}


def test_positive_games_have_no_pagat_restriction() -> None:
    g = game("dreier", [("T1", "T5", "H3"), ("T6",), ("T7",), ("T8",)])
    assert legal(g) == {"T1", "T5", "H3"}
