"""Trick-play rules on small hand-built positions, including the seed's example tricks."""

from __future__ import annotations

import pytest

from tarock.cards import CODE_INDEX, mask_of
from tarock.game import Game, IllegalPlayError
from tarock.options import SlovenianOptions, slovenian_options

P4 = ("Ana", "Boris", "Cilka", "David")


def m(*codes: str) -> int:
    return mask_of(CODE_INDEX[c] for c in codes)


def c(code: str) -> int:
    return CODE_INDEX[code]


def game(contract: str, hands: list[tuple[str, ...]], leader: int = 0,
         options: SlovenianOptions | None = None) -> Game:
    return Game(P4, [m(*h) for h in hands], contract, options or slovenian_options(), leader)


def codes(g: Game) -> set[str]:
    from tarock.cards import CODES

    return {CODES[x] for x in g.legal_cards()}


def test_seed_hearts_trick_won_by_tarok_xiv() -> None:
    # Seed: Player 1 leads the King of Hearts (5), Player 2 follows with the Knight (3), Player 3 has no
    # hearts and must play a tarok: XIV wins; Player 4 follows with the 4 of hearts (1).
    g = game("tri", [("HK", "S7"), ("HN", "S8"), ("T14", "S9"), ("H4", "S10")])
    for card in ("HK", "HN", "T14", "H4"):
        g.play(c(card))
    assert g.winners == [2]  # Cilka, third seat, took it with T14
    assert not g.findings
    # raw trick points: 5 + 3 + 1 + 1
    assert sum((5, 3, 1, 1)) == 10


def test_seed_pik_10_trick_won_by_queen() -> None:
    # Seed: Player 1 leads Pik 10, everyone follows; the Queen (Player 2) is highest and wins.
    g = game("tri", [("S10", "H4"), ("SQ", "H3"), ("S7", "H2"), ("SJ", "H1")])
    for card in ("S10", "SQ", "S7", "SJ"):
        g.play(c(card))
    assert g.winners == [1]
    assert g.turn == 1  # the winner leads next


def test_seed_negative_must_beat_trick() -> None:
    # Seed: in a negative game players 2 and 3 must play higher taroks; player 4 holds nothing above
    # XIX and may play low; player 3 takes the trick.
    g = game("klop", [("T10", "H4"), ("T12", "T5"), ("T19", "T11"), ("T15", "T3")])
    g.play(c("T10"))
    assert codes(g) == {"T12"}  # T5 does not beat T10
    g.play(c("T12"))
    assert codes(g) == {"T19"}  # T11 does not beat T12
    g.play(c("T19"))
    assert codes(g) == {"T15", "T3"}  # nothing beats T19: free choice among taroks
    g.play(c("T3"))
    assert g.winners == [2] and not g.findings


def test_seed_emperor_trick_pagat_wins() -> None:
    g = game("tri", [("T22", "H4"), ("T21", "H3"), ("T1", "H2"), ("T5", "H1")])
    for card in ("T22", "T21", "T1", "T5"):
        g.play(c(card))
    assert g.winners == [2]  # the Pagat beats Škis and Mond together


def test_emperor_trick_off_skis_wins() -> None:
    g = game("tri", [("T22", "H4"), ("T21", "H3"), ("T1", "H2"), ("T5", "H1")],
             options=slovenian_options({"emperor_trick": False}))
    for card in ("T22", "T21", "T1", "T5"):
        g.play(c(card))
    assert g.winners == [0]


def test_forced_pagat_after_skis_and_mond() -> None:
    # Škis and Mond in the trick: Cilka holds T1 and T7 and must play the Pagat.
    g = game("tri", [("T22", "H4"), ("T21", "H3"), ("T1", "T7"), ("T5", "H1")])
    g.play(c("T22"))
    g.play(c("T21"))
    assert codes(g) == {"T1"}
    g.play(c("T7"))
    assert [f.code for f in g.findings] == ["R_PAGAT"]


def test_forced_pagat_only_negative_option() -> None:
    g = game("tri", [("T22", "H4"), ("T21", "H3"), ("T1", "T7"), ("T5", "H1")],
             options=slovenian_options({"forced_pagat": "negative_only"}))
    g.play(c("T22"))
    g.play(c("T21"))
    assert codes(g) == {"T1", "T7"}


def test_forced_pagat_not_when_pagat_not_legal() -> None:
    # Hearts led; Cilka holds a heart, so she must follow suit: the Pagat is not forced.
    g = game("tri", [("H4", "S7"), ("T22", "S8"), ("H1", "T1"), ("T21", "S9")])
    g.play(c("H4"))
    g.play(c("T22"))
    assert codes(g) == {"H1"}


def test_follow_suit_and_must_tarok_findings() -> None:
    g = game("tri", [("HK", "S7"), ("T7", "H3"), ("T14", "S9"), ("H4", "S10")])
    g.play(c("HK"))
    g.play(c("T7"))  # Boris holds H3: follow suit
    g.play(c("S9"))  # Cilka is void in hearts but holds T14: must tarok
    g.play(c("H4"))
    assert [(f.code, f.player, f.card, f.trick, f.position) for f in g.findings] == [
        ("R_FOLLOW_SUIT", "Boris", "T7", 1, 1),
        ("R_MUST_TAROK", "Cilka", "S9", 1, 2),
    ]
    assert g.findings[0].message == "Boris played T7 on a heart lead while holding H3"


def test_tarok_lead_not_followed_is_follow_suit() -> None:
    g = game("tri", [("T10", "S7"), ("T2", "H3"), ("T14", "S9"), ("H4", "T3")])
    g.play(c("T10"))
    g.play(c("H3"))
    assert g.findings[0].code == "R_FOLLOW_SUIT"


def test_must_overtrump_in_klop_within_suit() -> None:
    # Klop, hearts led with the 3; Boris holds H1 (beats H3) and H4: must play H1.
    g = game("klop", [("H3", "S7"), ("H1", "H4"), ("HJ", "S9"), ("T5", "S10")])
    g.play(c("H3"))
    assert codes(g) == {"H1"}
    g.play(c("H4"))
    assert g.findings[0].code == "R_MUST_OVERTRUMP"


def test_no_beat_obligation_in_suit_once_a_tarok_rules() -> None:
    # Klop: hearts led, Boris trumps with T5; Cilka follows hearts and need not beat anything.
    g = game("klop", [("H3", "S7"), ("T5", "S8"), ("H1", "H4"), ("HJ", "S10")])
    g.play(c("H3"))
    g.play(c("T5"))
    assert codes(g) == {"H1", "H4"}


def test_void_in_negative_must_beat_highest_tarok() -> None:
    g = game("berac", [("H3", "S7"), ("T5", "S8"), ("T4", "T9"), ("HJ", "S10")])
    g.play(c("H3"))
    g.play(c("T5"))
    assert codes(g) == {"T9"}


def test_pagat_restrictions_in_negative_contracts() -> None:
    g = game("klop", [("T1", "T4"), ("T2", "H4"), ("T3", "S9"), ("T6", "S10")])
    assert codes(g) == {"T4"}  # the Pagat may not lead while other cards remain
    g.play(c("T1"))
    assert g.findings[0].code == "R_PAGAT"
    # a Pagat that is the last card may be led
    g2 = game("klop", [("T1",), ("T2",), ("T3",), ("T6",)])
    assert codes(g2) == {"T1"}


def test_pagat_not_played_as_an_escape_in_berac() -> None:
    # Berač: hearts led, Cilka void in hearts with T1 and T8: any tarok beats a heart, but the Pagat
    # may be played only as the last legal card, so T8.
    g = game("berac", [("H3", "S7"), ("H2", "S8"), ("T1", "T8"), ("H4", "S10")])
    g.play(c("H3"))
    g.play(c("H2"))
    assert codes(g) == {"T8"}


def test_barvni_valat_taroks_do_not_trump() -> None:
    g = game("barvni_valat", [("H3", "S7"), ("T22", "S8"), ("H1", "T1"), ("S9", "S10")])
    assert codes(g) == {"H3", "S7"}
    g.play(c("H3"))
    assert codes(g) == {"T22", "S8"}  # void in hearts: any card, no duty to play a tarok
    g.play(c("T22"))
    g.play(c("H1"))
    g.play(c("S9"))
    assert g.winners == [2]  # highest heart wins, the Škis does not


def test_out_of_turn_named_play() -> None:
    g = game("tri", [("HK", "S7"), ("HN", "S8"), ("HQ", "S9"), ("H4", "S10")])
    g.play(c("HK"), 0)
    g.play(c("HQ"), 2)  # Cilka plays before Boris
    g.play(c("HN"), 1)
    g.play(c("H4"), 3)
    assert [(f.code, f.player) for f in g.findings] == [("R_OUT_OF_TURN", "Cilka")]
    assert g.winners == [0]


def test_verify_play_raises_and_can_play() -> None:
    g = game("tri", [("HK", "S7"), ("HN", "T8"), ("HQ", "S9"), ("H4", "S10")])
    g.play(c("HK"))
    assert g.can_play(c("HN")) and not g.can_play(c("T8"))
    with pytest.raises(IllegalPlayError) as info:
        g.verify_play(c("T8"))
    assert info.value.finding.code == "R_FOLLOW_SUIT"
    assert not g.findings  # verifying records nothing


def test_card_not_in_hand() -> None:
    g = game("tri", [("HK", "S7"), ("HN", "S8"), ("HQ", "S9"), ("H4", "S10")])
    g.play(c("HK"))
    g.play(c("HQ"))  # Boris does not hold HQ: Cilka does
    assert [(f.code, f.message) for f in g.findings] == [("E_NOT_IN_HAND", "Boris played HQ, which Cilka held")]


def test_out_of_turn_lead_flags_only_the_card_played_out_of_turn() -> None:
    # Ana should lead; Boris leads instead. Ana then plays: it is her turn (she still owes her card),
    # so only Boris's card is out of turn.
    g = game("tri", [("HK", "S7"), ("HN", "S8"), ("HQ", "S9"), ("H4", "S10")])
    g.play(c("HN"), 1)
    g.play(c("HK"), 0)
    g.play(c("HQ"), 2)
    g.play(c("H4"), 3)
    assert [(f.code, f.player, f.position) for f in g.findings] == [("R_OUT_OF_TURN", "Boris", 0)]
    assert g.winners == [0]  # the heart king wins whoever led
