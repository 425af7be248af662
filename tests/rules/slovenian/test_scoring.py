"""Scoring of the ``slovenian`` ruleset from hand-written DealFacts.

Every expected number is worked out by hand from the rules (docs/rules.md) in the
comment next to it — never copied from the code's output.  Besides the
numbers they pin every option's every branch, the sentence and the audit's
basis of every kind of line, the result's other fields and the facts the
scorer refuses.
"""

from __future__ import annotations

import inspect
from dataclasses import MISSING, fields, replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tarock.facts import DECLARER, OPPONENTS, DealFacts
from tarock.options import DEFAULT_SLOVENIAN, SlovenianOptions
from tarock.rules.choices import choices_of
from tarock.rules.sessions import SessionLedger
from tarock.rules.slovenian.scoring import (
    ANNOUNCEABLE,
    COMPONENTS,
    CONTRACT_VALUES,
    DIFF_ROUNDINGS,
    DOUBLED_BY_RADELC,
    KONTRA_NAMES,
    KONTRA_TARGETS,
    NORMAL_CONTRACTS,
    RADELC_SCOPES,
    SESSION_END_PER_RADELC,
    Line,
    ScoreResult,
    round_difference,
    score_deal,
)

P4 = ("Ana", "Boris", "Cilka", "David")
P3 = ("Ana", "Boris", "Cilka")
ANA, BORIS, CILKA, DAVID = range(4)
ZERO = {name: 0 for name in P4}
ONE = {name: 1 for name in P4}


def facts(
    contract: str, players: tuple[str, ...] = P4, options: dict[str, Any] | None = None, **kw: Any
) -> DealFacts:
    """DealFacts with the given options switched away from the defaults."""
    opts = replace(DEFAULT_SLOVENIAN, **(options or {}))
    return DealFacts(players=players, contract=contract, options=opts, **kw)


def points(declarer_side: int) -> tuple[int, int]:
    return (declarer_side, 70 - declarer_side)


def comp(result: ScoreResult, component: str) -> list[int]:
    """Values of the lines of one component."""
    return [line.value for line in result.lines if line.component == component]


# --- docs/rules.md, "The rules' worked examples" -----------------------------------------


def test_dva_with_43_points_scores_30_for_declarer_and_partner() -> None:
    # Dva 20; difference 43 - 35 = 8 -> rounds to 10; 20 + 10 = +30 for both, opponents 0.
    r = score_deal(facts("dva", declarer=DAVID, partner=ANA, card_points=points(43)))
    assert r.scores == {"Ana": 30, "Boris": 0, "Cilka": 0, "David": 30}
    assert comp(r, "game") == [20] and comp(r, "difference") == [10]
    assert r.won is True
    assert "card points 43, difference 8 rounded to 10" in r.lines[1].detail


def test_seed_hand_1_ena_won_by_10_with_partner() -> None:
    # Cilka plays Ena (30), calls Ana's king, wins by 10 (45 points): 30 + 10 = +40 each.
    r = score_deal(facts("ena", declarer=CILKA, partner=ANA, card_points=points(45)), ZERO)
    assert r.scores == {"Ana": 40, "Boris": 0, "Cilka": 40, "David": 0}
    assert r.radelci_after == ZERO  # nothing awarded: a normal contract without valat


def test_seed_hand_2_berac_won_then_everyone_gets_a_radelc() -> None:
    # Boris plays Berač (70) and takes no trick: +70 for Boris alone; afterwards every player +1 radelc.
    r = score_deal(facts("berac", declarer=BORIS, declarer_took_trick=False), ZERO)
    assert r.scores == {"Ana": 0, "Boris": 70, "Cilka": 0, "David": 0}
    assert r.radelci_after == ONE
    assert r.award_reason == "the Berač"


def test_seed_hand_3_solo_tri_with_radelc_and_announced_trula() -> None:
    # Solo tri 40, won by 15 (50 points), trula announced and made +20; Cilka's radelc doubles:
    # (40 + 15 + 20) × 2 = +150; one of her radelci is cancelled (1 -> 0), the others keep theirs.
    f = facts(
        "solo_tri",
        declarer=CILKA,
        card_points=points(50),
        trula_side=DECLARER,
        announced=(("trula", DECLARER),),
    )
    r = score_deal(f, ONE)
    assert r.scores == {"Ana": 0, "Boris": 0, "Cilka": 150, "David": 0}
    assert comp(r, "radelc") == [75]
    assert r.radelci_after == {"Ana": 1, "Boris": 1, "Cilka": 0, "David": 1}
    assert r.cancelled == ("Cilka",)


def test_seed_hand_4_dva_lost_with_radelc_and_failed_pagat_ultimo() -> None:
    # David plays Dva (20) with Ana, announces pagat ultimo (50); they lose the game with 33 points
    # (33 - 35 = -2 rounds to 0) and the Pagat: -(20 + 0 + 50) × 2 = -140 each; David's radelc stays.
    f = facts(
        "dva",
        declarer=DAVID,
        partner=ANA,
        card_points=points(33),
        pagat_last=(DECLARER, False),
        announced=(("pagat_ultimo", DECLARER),),
    )
    before = {"Ana": 1, "Boris": 1, "Cilka": 0, "David": 1}
    r = score_deal(f, before)
    assert r.scores == {"Ana": -140, "Boris": 0, "Cilka": 0, "David": -140}
    assert comp(r, "difference") == [0]
    assert r.radelci_after == before
    assert r.won is False


# --- win threshold, difference, game kontra -----------------------------------------


@pytest.mark.parametrize(
    "raw, expected",
    [
        (8, 10),
        (7, 5),
        (2, 0),
        (-2, 0),
        (-8, -10),
        (3, 5),
        (-3, -5),
        (0, 0),
        (35, 35),
        (-35, -35),
        (12, 10),
        (13, 15),
    ],
)
def test_difference_rounds_to_nearest_5(raw: int, expected: int) -> None:
    # docs/rules.md: 8 -> 10, 7 -> 5, 2 -> 0, -2 -> 0, -8 -> -10 (integers never tie).
    assert round_difference(raw, "nearest5") == expected
    assert round_difference(raw, "none") == raw


def test_36_points_win_35_lose() -> None:
    # Tri 10: 36 points win (36 - 35 = 1 -> 0): +10; 35 points lose (0 -> 0): -10.
    won = score_deal(facts("tri", declarer=ANA, partner=BORIS, card_points=points(36)))
    lost = score_deal(facts("tri", declarer=ANA, partner=BORIS, card_points=points(35)))
    assert won.scores["Ana"] == 10 and won.won is True
    assert lost.scores["Ana"] == -10 and lost.won is False


def test_lost_game_difference_is_negative() -> None:
    # Tri lost with 27 points: game -10, difference 27 - 35 = -8 -> -10; total -20.
    r = score_deal(facts("tri", declarer=ANA, partner=BORIS, card_points=points(27)))
    assert comp(r, "game") == [-10] and comp(r, "difference") == [-10]
    assert r.scores["Ana"] == r.scores["Boris"] == -20


def test_option_diff_rounding_none() -> None:
    # diff_rounding none: Dva with 43 points: 20 + 8 = 28; lost with 27: -20 - 8 = -28.
    won = score_deal(
        facts("dva", options={"diff_rounding": "none"}, declarer=ANA, partner=CILKA, card_points=points(43))
    )
    lost = score_deal(
        facts("dva", options={"diff_rounding": "none"}, declarer=ANA, partner=CILKA, card_points=points(27))
    )
    assert won.scores["Ana"] == 28
    assert lost.scores["Cilka"] == -28


def test_game_kontra_multiplies_game_and_difference() -> None:
    # Dva, 43 points, kontra on the game (×2): (20 + 10) × 2 = +60.
    r = score_deal(facts("dva", declarer=ANA, partner=CILKA, card_points=points(43), kontra={"game": 2}))
    assert comp(r, "game") == [40] and comp(r, "difference") == [20]
    assert r.scores["Ana"] == 60
    # Re (×4), lost with 30 points (-5): (-20 - 5) × 4 = -100.
    r = score_deal(facts("dva", declarer=ANA, partner=CILKA, card_points=points(30), kontra={"game": 4}))
    assert r.scores["Cilka"] == -100


def test_kontra_chains_are_independent() -> None:
    # Tri with 40 points (diff 5), game re ×4: (10 + 5) × 4 = 60; announced pagat ultimo made (50)
    # with its own kontra ×2: 100 — the game's re does not touch it. Total 160.
    f = facts(
        "tri",
        declarer=BORIS,
        partner=DAVID,
        card_points=points(40),
        pagat_last=(DECLARER, True),
        announced=(("pagat_ultimo", DECLARER),),
        kontra={"game": 4, "pagat_ultimo": 2},
    )
    r = score_deal(f)
    assert comp(r, "pagat_ultimo") == [100]
    assert r.scores["Boris"] == r.scores["David"] == 160


def test_trula_and_kings_are_never_kontrad() -> None:
    # Even if a kontra on trula slipped into the facts: announced trula made stays +20, kings silent +10;
    # the game kontra ×2 only touches game + difference: (10 + 5) × 2 + 20 + 10 = 60.
    f = facts(
        "tri",
        declarer=ANA,
        partner=BORIS,
        card_points=points(40),
        trula_side=DECLARER,
        kings_side=DECLARER,
        announced=(("trula", DECLARER),),
        kontra={"game": 2, "trula": 2, "kings": 2},
    )
    r = score_deal(f)
    assert comp(r, "trula") == [20] and comp(r, "kings") == [10]
    assert r.scores["Ana"] == 60


# --- bonuses ------------------------------------------------------------------------


def _tri(**kw: Any) -> DealFacts:
    """Tri by Ana with Boris, won with 38 points (difference 3 -> 5): game + difference = 15."""
    return facts("tri", declarer=ANA, partner=BORIS, card_points=points(38), **kw)


@pytest.mark.parametrize(
    "bonus, side_field, holder, announced, expected",
    [
        ("trula", "trula_side", DECLARER, (), 10),  # silent, declarer side: +10
        ("trula", "trula_side", OPPONENTS, (), -10),  # defenders' silent trula: -10 on the declarer's line
        ("trula", "trula_side", DECLARER, (("trula", DECLARER),), 20),  # announced and made
        ("trula", "trula_side", None, (("trula", DECLARER),), -20),  # announced and failed
        (
            "trula",
            "trula_side",
            OPPONENTS,
            (("trula", DECLARER),),
            -20,
        ),  # failed, opponents have it: only -20
        ("trula", "trula_side", None, (("trula", OPPONENTS),), 20),  # defenders announced and failed: +20
        ("trula", "trula_side", OPPONENTS, (("trula", OPPONENTS),), -20),  # defenders announced and made
        ("kings", "kings_side", DECLARER, (), 10),
        ("kings", "kings_side", OPPONENTS, (), -10),
        ("kings", "kings_side", DECLARER, (("kings", DECLARER),), 20),
        ("kings", "kings_side", None, (("kings", DECLARER),), -20),
        ("kings", "kings_side", None, (), None),  # nobody holds all four, nothing announced: no line
    ],
)
def test_trula_and_kings(
    bonus: str, side_field: str, holder: Any, announced: Any, expected: int | None
) -> None:
    r = score_deal(_tri(**{side_field: holder}, announced=announced))
    assert comp(r, bonus) == ([] if expected is None else [expected])
    assert r.scores["Ana"] == 15 + (expected or 0)
    assert r.scores["Cilka"] == 0


@pytest.mark.parametrize(
    "pagat_last, announced, options, expected",
    [
        ((DECLARER, True), (), {}, 25),  # silent, made by the declarer's side
        ((OPPONENTS, True), (), {}, -25),  # silent, made by the defenders
        ((DECLARER, False), (), {}, -25),  # silent failure by the declarer's side
        ((OPPONENTS, False), (), {}, 25),  # silent failure by the opponents: +25 for the declarer side
        ((DECLARER, False), (), {"silent_pagat_failure": False}, None),  # option off: no line
        ((OPPONENTS, False), (), {"silent_pagat_failure": False}, None),
        ((DECLARER, True), (("pagat_ultimo", DECLARER),), {}, 50),  # announced and made
        ((DECLARER, False), (("pagat_ultimo", DECLARER),), {}, -50),  # announced, Pagat lost the last trick
        (None, (("pagat_ultimo", DECLARER),), {}, -50),  # announced, Pagat not even in the last trick
        ((OPPONENTS, True), (("pagat_ultimo", OPPONENTS),), {}, -50),  # defenders announced and made
        ((OPPONENTS, False), (("pagat_ultimo", OPPONENTS),), {}, 50),  # defenders announced and failed
        (None, (), {}, None),
    ],
)
def test_pagat_ultimo(pagat_last: Any, announced: Any, options: dict[str, Any], expected: int | None) -> None:
    f = facts(
        "tri",
        options=options,
        declarer=ANA,
        partner=BORIS,
        card_points=points(38),
        pagat_last=pagat_last,
        announced=announced,
    )
    r = score_deal(f)
    assert comp(r, "pagat_ultimo") == ([] if expected is None else [expected])
    assert r.scores["Boris"] == 15 + (expected or 0)


def test_silent_pagat_failure_detail() -> None:
    r = score_deal(_tri(pagat_last=(OPPONENTS, False)))
    (line,) = [ln for ln in r.lines if ln.component == "pagat_ultimo"]
    assert line.detail == "silent pagat ultimo failed by the opponents: +25"


@pytest.mark.parametrize(
    "king_last, announced, kontra, expected",
    [
        (DECLARER, (), {}, 10),  # silent, called king in the last trick taken by the declarer's side
        (OPPONENTS, (), {}, None),  # silent failure: no line
        (None, (), {}, None),
        (DECLARER, (("king_ultimo", DECLARER),), {}, 20),
        (OPPONENTS, (("king_ultimo", DECLARER),), {}, -20),
        (None, (("king_ultimo", DECLARER),), {}, -20),
        (DECLARER, (("king_ultimo", DECLARER),), {"king_ultimo": 2}, 40),  # own chain: 20 × 2
        (OPPONENTS, (("king_ultimo", DECLARER),), {"king_ultimo": 4, "game": 2}, -80),  # -20 × 4
    ],
)
def test_king_ultimo(king_last: Any, announced: Any, kontra: dict[str, int], expected: int | None) -> None:
    r = score_deal(_tri(king_last=king_last, announced=announced, kontra=kontra))
    assert comp(r, "king_ultimo") == ([] if expected is None else [expected])
    game_k = kontra.get("game", 1)
    assert r.scores["Ana"] == 15 * game_k + (expected or 0)


# --- valat ----------------------------------------------------------------------------


def test_silent_valat_replaces_everything_including_mondfang() -> None:
    # Tri, declarer side takes every trick (70 points), silent trula, kings, pagat ultimo, and a
    # Mondfang on David: all replaced by the silent valat +250 for Ana and Boris; David writes 0.
    f = _tri(
        valat_side=DECLARER,
        trula_side=DECLARER,
        kings_side=DECLARER,
        pagat_last=(DECLARER, True),
        mondfang=(DAVID,),
    )
    r = score_deal(replace(f, card_points=(70, 0)), ZERO)
    assert [ln.component for ln in r.lines] == ["valat"]
    assert r.scores == {"Ana": 250, "Boris": 250, "Cilka": 0, "David": 0}
    assert r.radelci_after == ONE  # any valat line gives everyone a radelc
    assert r.won is True


def test_silent_valat_times_game_kontra() -> None:
    # Silent valat × the game kontra: 250 × 2 = 500.
    r = score_deal(replace(_tri(valat_side=DECLARER, kontra={"game": 2}), card_points=(70, 0)))
    assert r.scores["Ana"] == 500


def test_announced_valat_uses_its_own_chain() -> None:
    # Announced valat made: 500 × valat kontra 2 = 1000; the game re ×4 plays no part.
    f = replace(
        _tri(valat_side=DECLARER, announced=(("valat", DECLARER),), kontra={"game": 4, "valat": 2}),
        card_points=(70, 0),
    )
    assert score_deal(f).scores["Boris"] == 1000


def test_announced_valat_failed_is_minus_500_and_replaces_a_won_game() -> None:
    # Valat announced, the side takes 60 points but not every trick: -500, no game, no difference;
    # a radelc (declarer holds 1) doubles it: -1000; the game was "won" on points but the hand is lost,
    # so the radelc is not cancelled, and the valat line gives everyone another.
    f = replace(_tri(announced=(("valat", DECLARER),), trula_side=DECLARER), card_points=(60, 10))
    r = score_deal(f, {"Ana": 1})
    assert comp(r, "valat") == [-500]
    assert comp(r, "game") == [] and comp(r, "trula") == []
    assert r.scores["Ana"] == r.scores["Boris"] == -1000
    assert r.won is False
    assert r.radelci_after == {"Ana": 2, "Boris": 1, "Cilka": 1, "David": 1}


def test_defenders_silent_valat_is_minus_250() -> None:
    # The defenders take every trick: -250 for the declarer's side; the game line is not written.
    r = score_deal(replace(_tri(valat_side=OPPONENTS), card_points=(0, 70)))
    assert r.scores == {"Ana": -250, "Boris": -250, "Cilka": 0, "David": 0}
    assert r.won is False


def test_valat_won_with_radelc_cancels_it() -> None:
    # Silent valat +250 doubled by Ana's radelc: +500; won, so 1 -> 0, then +1 for the valat: 1.
    r = score_deal(replace(_tri(valat_side=DECLARER), card_points=(70, 0)), {"Ana": 1})
    assert r.scores["Ana"] == 500
    assert r.radelci_after == {"Ana": 1, "Boris": 1, "Cilka": 1, "David": 1}


# --- Mondfang -------------------------------------------------------------------------------


def test_mondfang_goes_to_the_monds_owner_only() -> None:
    # Dva won with 43 (+30). Declarer David's Mond captured: David -21 more (9), partner Ana stays +30.
    r = score_deal(facts("dva", declarer=DAVID, partner=ANA, card_points=points(43), mondfang=(DAVID,)))
    assert r.scores == {"Ana": 30, "Boris": 0, "Cilka": 0, "David": 9}


def test_mondfang_of_an_opponent_is_written_by_that_opponent() -> None:
    # Cilka (a defender) loses her Mond: she writes -21 although the opponents otherwise write nothing.
    r = score_deal(facts("dva", declarer=DAVID, partner=ANA, card_points=points(43), mondfang=(CILKA,)))
    assert r.scores == {"Ana": 30, "Boris": 0, "Cilka": -21, "David": 30}


def test_announced_mondfang_and_its_kontra_chain() -> None:
    # Defenders announce Mondfang and it happens to the declarer: -21 × 2 = -42; kontra'd (×2): -84.
    base: dict[str, Any] = {
        "declarer": DAVID,
        "partner": ANA,
        "card_points": points(43),
        "mondfang": (DAVID,),
        "announced": (("mondfang", OPPONENTS),),
    }
    assert comp(score_deal(facts("dva", **base)), "mondfang") == [-42]
    assert comp(score_deal(facts("dva", kontra={"mondfang": 2}, **base)), "mondfang") == [-84]


def test_announced_mondfang_that_does_not_happen_scores_nothing() -> None:
    r = score_deal(
        facts(
            "dva", declarer=DAVID, partner=ANA, card_points=points(43), announced=(("mondfang", OPPONENTS),)
        )
    )
    assert comp(r, "mondfang") == []
    assert r.scores == {"Ana": 30, "Boris": 0, "Cilka": 0, "David": 30}


def test_option_mondfang_value_20() -> None:
    r = score_deal(
        facts(
            "dva",
            options={"mondfang_value": 20},
            declarer=DAVID,
            partner=ANA,
            card_points=points(43),
            mondfang=(DAVID,),
        )
    )
    assert comp(r, "mondfang") == [-20]


def test_mondfang_is_never_doubled_by_radelc() -> None:
    # Solo tri, 40 points (diff 5), Cilka holds a radelc: (40 + 5) × 2 = 90, then her Mondfang -21
    # undoubled: 69.
    r = score_deal(facts("solo_tri", declarer=CILKA, card_points=points(40), mondfang=(CILKA,)), {"Cilka": 1})
    assert comp(r, "mondfang") == [-21]
    assert comp(r, "radelc") == [45]
    assert r.scores["Cilka"] == 69


def test_solo_brez_keeps_mondfang_lines() -> None:
    # Solo brez 80, won with 40 points: +80 flat (no difference); the declarer's Mond captured: -21 -> 59.
    r = score_deal(facts("solo_brez", declarer=BORIS, card_points=points(40), mondfang=(BORIS,)), ZERO)
    assert comp(r, "game") == [80] and comp(r, "difference") == []
    assert r.scores["Boris"] == 59
    assert r.radelci_after == ONE  # Solo brez is above Berač: everyone gets one


@pytest.mark.parametrize("contract", ["berac", "odprti_berac", "barvni_valat", "valat"])
def test_no_mondfang_in_other_higher_contracts(contract: str) -> None:
    r = score_deal(facts(contract, declarer=ANA, mondfang=(BORIS,)))
    assert comp(r, "mondfang") == []
    assert r.scores["Boris"] == 0


# --- higher contracts --------------------------------------------------------------------


@pytest.mark.parametrize(
    "contract, flag, value, expected",
    [
        ("berac", "declarer_took_trick", False, 70),
        ("berac", "declarer_took_trick", True, -70),
        ("odprti_berac", "declarer_took_trick", False, 90),
        ("odprti_berac", "declarer_took_trick", True, -90),
        ("barvni_valat", "declarer_lost_trick", False, 125),
        ("barvni_valat", "declarer_lost_trick", True, -125),
        ("valat", "declarer_lost_trick", False, 500),
        ("valat", "declarer_lost_trick", True, -500),
    ],
)
def test_higher_contracts_are_flat(contract: str, flag: str, value: bool, expected: int) -> None:
    given: dict[str, Any] = {flag: value}
    r = score_deal(facts(contract, declarer=CILKA, **given), ZERO)
    assert r.scores == {"Ana": 0, "Boris": 0, "Cilka": expected, "David": 0}
    assert r.radelci_after == ONE
    assert r.won is (expected > 0)


def test_higher_contracts_ignore_bonuses_and_take_game_kontra() -> None:
    # Solo brez lost with 30 points, kontra ×2: -80 × 2 = -160; no difference, trula/pagat ignored.
    f = facts(
        "solo_brez",
        declarer=ANA,
        card_points=points(30),
        trula_side=DECLARER,
        pagat_last=(DECLARER, True),
        announced=(("trula", DECLARER),),
        kontra={"game": 2},
    )
    r = score_deal(f)
    assert [ln.component for ln in r.lines] == ["game"]
    assert r.scores["Ana"] == -160
    # Berač with kontra, declarer takes a trick and holds a radelc: -70 × 2 × 2 = -280; radelc stays,
    # then +1 for everyone after a Berač.
    r = score_deal(facts("berac", declarer=ANA, declarer_took_trick=True, kontra={"game": 2}), {"Ana": 1})
    assert r.scores["Ana"] == -280
    assert r.radelci_after == {"Ana": 2, "Boris": 1, "Cilka": 1, "David": 1}


# --- Klop ----------------------------------------------------------------------------------


def test_klop_everyone_minus_own_points() -> None:
    # Nobody empty, nobody over 35: each writes minus their points. Everyone gets a radelc.
    r = score_deal(facts("klop", klop_points=(10, 20, 25, 15), klop_tricks=(2, 4, 4, 2)), ZERO)
    assert r.scores == {"Ana": -10, "Boris": -20, "Cilka": -25, "David": -15}
    assert r.radelci_after == ONE
    assert r.won is None


def test_klop_two_empty_players_both_get_70_and_only_the_full_ones_score() -> None:
    # Ana and Boris take no trick: +70 each; Cilka has 40 > 35: -70; David (30 points) writes 0
    # because someone is at ±70.
    r = score_deal(facts("klop", klop_points=(0, 0, 40, 30), klop_tricks=(0, 0, 7, 5)))
    assert r.scores == {"Ana": 70, "Boris": 70, "Cilka": -70, "David": 0}


def test_klop_a_minus_70_player_only() -> None:
    # Boris has 40 points: -70; nobody else writes anything.
    r = score_deal(facts("klop", klop_points=(5, 40, 15, 10), klop_tricks=(2, 6, 2, 2)))
    assert r.scores == {"Ana": 0, "Boris": -70, "Cilka": 0, "David": 0}


def test_klop_three_players() -> None:
    # 3 players, 16 tricks: 20, 30, 20 points, nobody empty: -20, -30, -20.
    r = score_deal(facts("klop", players=P3, klop_points=(20, 30, 20), klop_tricks=(5, 6, 5)))
    assert r.scores == {"Ana": -20, "Boris": -30, "Cilka": -20}
    assert r.radelci_after == {"Ana": 1, "Boris": 1, "Cilka": 1}


def test_klop_radelc_doubles_and_plus_70_cancels() -> None:
    # Ana (1 radelc) takes no trick: +70 × 2 = +140 and her radelc is cancelled (1 -> 0, then +1 = 1).
    # Cilka has 48 > 35: -70 (no radelc). Boris (12 points) and David (10) write 0 because someone is at
    # ±70; their radelci stay (1 + 1 = 2 each). In a second Klop nobody is full: Boris (1 radelc) with 12
    # points writes -12 × 2 = -24.
    r = score_deal(
        facts("klop", klop_points=(0, 12, 48, 10), klop_tricks=(0, 3, 7, 2)),
        {"Ana": 1, "Boris": 1, "Cilka": 0, "David": 1},
    )
    assert r.scores == {"Ana": 140, "Boris": 0, "Cilka": -70, "David": 0}
    assert r.radelci_after == {"Ana": 1, "Boris": 2, "Cilka": 1, "David": 2}
    r = score_deal(
        facts("klop", klop_points=(10, 12, 28, 20), klop_tricks=(2, 3, 5, 2)),
        {"Ana": 0, "Boris": 1, "Cilka": 0, "David": 0},
    )
    assert r.scores == {"Ana": -10, "Boris": -24, "Cilka": -28, "David": -20}


def test_option_klop_radelc_double_off() -> None:
    # No doubling; a +70 still cancels the empty player's radelc (1 -> 0, + 1 = 1).
    r = score_deal(
        facts(
            "klop",
            options={"klop_radelc_double": False},
            klop_points=(0, 12, 48, 10),
            klop_tricks=(0, 3, 7, 2),
        ),
        {"Ana": 1},
    )
    assert r.scores == {"Ana": 70, "Boris": 0, "Cilka": -70, "David": 0}
    assert r.radelci_after == ONE


def test_option_klop_cancels_radelc_off() -> None:
    # Palčka's rule: a Klop +70 cancels no radelc. Ana (1 radelc) takes no trick: still +70 × 2 = +140
    # (klop_radelc_double stays on), but her radelc stays, and the Klop awards everyone one: 1 + 1 = 2.
    # Boris and David (1 each) and Cilka (0) get theirs as before: 2, 1, 2.
    r = score_deal(
        facts("klop", options={"klop_cancels_radelc": False}, klop_points=(0, 12, 48, 10),
              klop_tricks=(0, 3, 7, 2)),
        {"Ana": 1, "Boris": 1, "Cilka": 0, "David": 1},
    )
    assert r.scores == {"Ana": 140, "Boris": 0, "Cilka": -70, "David": 0}
    assert r.radelci_after == {"Ana": 2, "Boris": 2, "Cilka": 1, "David": 2}
    assert r.cancelled == ()


# --- radelci -----------------------------------------------------------------------------------


def test_several_radelci_double_only_once_and_one_is_cancelled() -> None:
    # Solo tri won with 50 (diff 15), Cilka holds 3: (40 + 15) × 2 = 110 (not ×8); 3 -> 2.
    r = score_deal(facts("solo_tri", declarer=CILKA, card_points=points(50)), {"Cilka": 3})
    assert r.scores["Cilka"] == 110
    assert r.radelci_after["Cilka"] == 2


def test_declarer_radelc_doubles_the_partner_too() -> None:
    # Dva won with 43 (+30); declarer David holds one, partner Ana none: both write 60 (radelc_scope
    # declarer); David's radelc is cancelled.
    r = score_deal(facts("dva", declarer=DAVID, partner=ANA, card_points=points(43)), {"David": 1})
    assert r.scores == {"Ana": 60, "Boris": 0, "Cilka": 0, "David": 60}
    assert r.radelci_after == ZERO
    # A partner's own radelc does nothing under the default scope.
    r = score_deal(facts("dva", declarer=DAVID, partner=ANA, card_points=points(43)), {"Ana": 1})
    assert r.scores["Ana"] == 30 and r.radelci_after["Ana"] == 1


def test_option_radelc_scope_each_player() -> None:
    # each_player: the partner's own radelc doubles only the partner's score (60), the declarer without
    # one writes 30; the game is won so Ana's radelc is cancelled.
    r = score_deal(
        facts(
            "dva",
            options={"radelc_scope": "each_player"},
            declarer=DAVID,
            partner=ANA,
            card_points=points(43),
        ),
        {"Ana": 1},
    )
    assert r.scores == {"Ana": 60, "Boris": 0, "Cilka": 0, "David": 30}
    assert r.radelci_after == ZERO


def test_option_radelci_off() -> None:
    # No doubling (40 + 15 = 55), no cancelling, nothing awarded after a Berač.
    r = score_deal(facts("solo_tri", options={"radelci": False}, declarer=CILKA, card_points=points(50)), ONE)
    assert r.scores["Cilka"] == 55 and r.radelci_after == ONE
    r = score_deal(facts("berac", options={"radelci": False}, declarer=BORIS), ZERO)
    assert r.radelci_after == ZERO and r.award_reason is None


def test_three_players_no_partner() -> None:
    # 3 players, Ena by Boris alone with 48 (diff 13 -> 15): 30 + 15 = 45 for Boris only.
    r = score_deal(facts("ena", players=P3, declarer=BORIS, card_points=points(48)))
    assert r.scores == {"Ana": 0, "Boris": 45, "Cilka": 0}


# --- penalties -----------------------------------------------------------------------------------


def _dva(**kw: Any) -> DealFacts:
    """Dva by David with Ana, won with 43: +30 each."""
    return facts("dva", declarer=DAVID, partner=ANA, card_points=points(43), **kw)


def test_renons_by_an_opponent() -> None:
    # Boris revokes: he writes -(Dva 20); the hand is otherwise scored as played.
    r = score_deal(_dva(offenders=(BORIS,)))
    assert r.scores == {"Ana": 30, "Boris": -20, "Cilka": 0, "David": 30}
    assert r.unpenalised == {"Ana": 30, "Boris": 0, "Cilka": 0, "David": 30}
    assert r.policy == "slovenian_renons"


def test_renons_by_the_partner_is_paid_alone_once() -> None:
    # Ana revokes twice: one penalty, added to what she writes anyway: 30 - 20 = 10; David keeps 30.
    r = score_deal(_dva(offenders=(ANA, ANA)))
    assert r.scores == {"Ana": 10, "Boris": 0, "Cilka": 0, "David": 30}
    assert comp(r, "penalty") == [-20]


def test_renons_penalty_times_game_kontra_and_declarer_radelc() -> None:
    # Game kontra ×2 and the declarer's radelc: Boris pays -20 × 2 × 2 = -80, although he holds no radelc.
    # The playing side: (20 + 10) × 2 × 2 = 120.
    r = score_deal(_dva(offenders=(BORIS,), kontra={"game": 2}), {"David": 1})
    assert r.scores["Boris"] == -80
    assert r.scores["David"] == r.scores["Ana"] == 120
    assert r.radelci_after == ZERO  # radelci follow the play: the game was won


def test_renons_penalty_is_the_contract_value_even_in_a_valat() -> None:
    # Tri ends in a silent valat (+250 for Ana and Boris); Cilka's renons costs Tri's 10, not 250.
    f = facts(
        "tri", declarer=ANA, partner=BORIS, card_points=(70, 0), valat_side=DECLARER, offenders=(CILKA,)
    )
    r = score_deal(f)
    assert r.scores == {"Ana": 250, "Boris": 250, "Cilka": -10, "David": 0}
    # Valat contract: the value is 500.
    assert score_deal(facts("valat", declarer=ANA, offenders=(BORIS,))).scores["Boris"] == -500


def test_klop_renons_is_minus_70_and_not_a_70_result() -> None:
    # Klop: Ana revokes: -70 penalty on top of her -10; the others still write minus their points.
    r = score_deal(facts("klop", klop_points=(10, 20, 25, 15), klop_tricks=(2, 4, 4, 2), offenders=(ANA,)))
    assert r.scores == {"Ana": -80, "Boris": -20, "Cilka": -25, "David": -15}


def test_klop_renons_by_a_radelc_holder_is_doubled_as_part_of_the_klop_result() -> None:
    # Klop, Ana holds a radelc and revokes: her Klop result (-10) and the -70 penalty are one Klop result,
    # doubled by her radelc (klop_radelc_double): (-10 - 70) × 2 = -160 (radelc line -10, penalty -140).
    # Boris (no radelc) writes -20; Cilka (a radelc) -25 × 2 = -50; David -15.
    before = {"Ana": 1, "Boris": 0, "Cilka": 1, "David": 0}
    r = score_deal(facts("klop", klop_points=(10, 20, 25, 15), klop_tricks=(2, 4, 4, 2), offenders=(ANA,)),
                   before)
    assert r.scores == {"Ana": -160, "Boris": -20, "Cilka": -50, "David": -15}
    assert comp(r, "penalty") == [-140]
    # With klop_radelc_double off nothing is doubled: -10 - 70 = -80.
    r = score_deal(facts("klop", options={"klop_radelc_double": False}, klop_points=(10, 20, 25, 15),
                         klop_tricks=(2, 4, 4, 2), offenders=(ANA,)), before)
    assert r.scores["Ana"] == -80
    # An offender without a radelc pays the plain -70 whoever else holds one: Boris -20 - 70 = -90.
    r = score_deal(facts("klop", klop_points=(10, 20, 25, 15), klop_tricks=(2, 4, 4, 2), offenders=(BORIS,)),
                   before)
    assert r.scores["Boris"] == -90 and comp(r, "penalty") == [-70]


def test_penalty_record_as_played() -> None:
    r = score_deal(_dva(options={"penalty": "record_as_played"}, offenders=(BORIS,)))
    assert comp(r, "penalty") == []
    assert r.scores["Boris"] == 0 and r.unpenalised is None
    assert r.policy == "record_as_played"


def test_penalty_annul() -> None:
    # Annul: everyone 0, Mondfang too; no radelc awarded (Berač) or cancelled.
    r = score_deal(
        facts("berac", options={"penalty": "annul"}, declarer=BORIS, offenders=(ANA,)), {"Boris": 1}
    )
    assert r.scores == ZERO and r.lines == ()
    assert r.radelci_after == {"Ana": 0, "Boris": 1, "Cilka": 0, "David": 0}
    assert r.unpenalised == {"Ana": 0, "Boris": 140, "Cilka": 0, "David": 0}
    assert r.won is None and r.policy == "annul"
    r = score_deal(_dva(options={"penalty": "annul"}, offenders=(BORIS,), mondfang=(CILKA,)))
    assert r.scores == ZERO


def test_jass_trick_forfeit_without_replayed_tricks_falls_back_to_slovenian_renons() -> None:
    r = score_deal(_dva(options={"penalty": "jass_trick_forfeit"}, offenders=(BORIS,)))
    assert r.scores["Boris"] == -20
    (line,) = [ln for ln in r.lines if ln.component == "penalty"]
    assert "jass_trick_forfeit" in line.detail and "slovenian_renons" in line.detail
    assert r.policy == "slovenian_renons"


def test_jass_trick_forfeit_fallback_gives_the_reason() -> None:
    f = _dva(options={"penalty": "jass_trick_forfeit"}, offenders=(BORIS,), penalty_note="a stash renons")
    (line,) = [ln for ln in score_deal(f).lines if ln.component == "penalty"]
    assert "a stash renons" in line.detail


def test_jass_trick_forfeit_applied_scores_the_adjusted_facts() -> None:
    # As played: Dva won with 43 (+30 each).  Boris's renons forfeits tricks: the declarer's side
    # ends with 55 (diff 20): 20 + 20 = +40 each; Boris's penalty line is 0 and says what moved.
    played = _dva(options={"penalty": "jass_trick_forfeit"}, offenders=(BORIS,))
    f = replace(played, card_points=points(55), as_played=played, penalty_note="tricks 9-12 forfeited")
    r = score_deal(f)
    assert r.scores == {"Ana": 40, "Boris": 0, "Cilka": 0, "David": 40}
    assert r.unpenalised == {"Ana": 30, "Boris": 0, "Cilka": 0, "David": 30}
    assert r.policy == "jass_trick_forfeit"
    (line,) = [ln for ln in r.lines if ln.component == "penalty"]
    assert line.players == ("Boris",) and line.value == 0 and "tricks 9-12 forfeited" in line.detail


# --- austrian_renonce ---------------------------------------------------------------------------


def _austrian(f: DealFacts) -> DealFacts:
    return replace(f, options=replace(f.options, penalty="austrian_renonce"))


def test_austrian_renonce_by_an_opponent() -> None:
    # Dva (20) won as played; Boris's renonce ends the hand: he pays 20 to each of the other three:
    # Boris -60, Ana, Cilka, David +20.  Nothing of the play is written.
    r = score_deal(_austrian(_dva(offenders=(BORIS,))))
    assert r.scores == {"Ana": 20, "Boris": -60, "Cilka": 20, "David": 20}
    assert r.unpenalised == {"Ana": 30, "Boris": 0, "Cilka": 0, "David": 30}
    assert {ln.component for ln in r.lines} == {"penalty"}
    assert r.policy == "austrian_renonce"


def test_austrian_renonce_counts_announced_bonuses_and_kontras() -> None:
    # Game kontra ×2: 20 × 2 = 40; trula announced (20, never kontra'd); pagat ultimo announced
    # by the opponents and kontra'd: 50 × 2 = 100; silent bonuses (kings held) count nothing.
    # 40 + 20 + 100 = 160 to each other player; Ana (the partner) pays 3 × 160 = 480.
    f = _dva(
        offenders=(ANA, ANA),
        kontra={"game": 2, "pagat_ultimo": 2},
        announced=(("trula", DECLARER), ("pagat_ultimo", OPPONENTS)),
        kings_side=DECLARER,
    )
    r = score_deal(_austrian(f))
    assert r.scores == {"Ana": -480, "Boris": 160, "Cilka": 160, "David": 160}


def test_austrian_renonce_announced_valat_replaces_the_game() -> None:
    # 3 players, Tri by Ana, valat announced and kontra'd: 500 × 2 = 1000 to each of two players.
    f = facts("tri", players=P3, declarer=ANA, card_points=points(40), offenders=(CILKA,),
              announced=(("valat", DECLARER), ("trula", DECLARER)), kontra={"valat": 2})
    r = score_deal(_austrian(f))
    assert r.scores == {"Ana": 1000, "Boris": 1000, "Cilka": -2000}


def test_austrian_renonce_in_klop_two_offenders() -> None:
    # Klop: 70 to each other player.  Ana and Boris both offend: each pays 3 × 70 = 210 and receives
    # 70 from the other: -140; Cilka and David receive 70 twice: +140.  Everyone gets a radelc (Klop).
    f = facts("klop", klop_points=(10, 20, 25, 15), klop_tricks=(2, 4, 4, 2), offenders=(ANA, BORIS))
    r = score_deal(_austrian(f))
    assert r.scores == {"Ana": -140, "Boris": -140, "Cilka": 140, "David": 140}
    assert r.radelci_after == ONE


def test_austrian_renonce_is_not_doubled_by_a_radelc_and_cancels_none() -> None:
    # Berač (70) by Boris, who holds a radelc and would have won; Ana offends: she pays 70 to each
    # of three (-210).  Boris's radelc is not cancelled; everyone gets one for the Berač.
    f = facts("berac", declarer=BORIS, offenders=(ANA,))
    r = score_deal(_austrian(f), {"Boris": 1})
    assert r.scores == {"Ana": -210, "Boris": 70, "Cilka": 70, "David": 70}
    assert r.radelci_after == {"Ana": 1, "Boris": 2, "Cilka": 1, "David": 1}


def test_no_offenders_no_policy() -> None:
    r = score_deal(_dva())
    assert r.policy == "none" and r.unpenalised is None


# --- the sentences and the audit's basis of every kind of line ------------------------------------
# Each sentence is written out by hand from the line's rule and the breakdown format (value, then
# "× <kontra name> <level>" for a kontra'd line); each basis lists the numbers the audit re-checks,
# in the order they are recorded.


def line_of(result: ScoreResult, component: str, player: str | None = None) -> Line:
    """The one line of ``component`` (listing ``player``, when given)."""
    (line,) = [ln for ln in result.lines
               if ln.component == component and (player is None or player in ln.players)]
    return line


def basis(line: Line) -> list[tuple[str, int]]:
    return list(line.basis.items())


def test_game_and_difference_sentences_and_basis() -> None:
    # Dva (20) won with 43 under game kontra ×2: game +20 × 2 = 40; difference 8 rounds to 10, × 2 = 20.
    r = score_deal(facts("dva", declarer=DAVID, partner=ANA, card_points=points(43), kontra={"game": 2}))
    game, diff = line_of(r, "game"), line_of(r, "difference")
    assert (game.players, game.detail, game.value) == (("David", "Ana"), "Dva won: +20 × kontra 2", 40)
    assert basis(game) == [("base", 20), ("sign", 1), ("kontra", 2)]
    assert (diff.detail, diff.value) == ("card points 43, difference 8 rounded to 10, × kontra 2", 20)
    assert basis(diff) == [("points", 43), ("raw", 8), ("rounded", 10), ("kontra", 2)]
    # Tri lost with 30 under re ×4: -10 × 4 = -40; difference 30 - 35 = -5, already a multiple of 5 (no
    # "rounded"), × 4 = -20.
    r = score_deal(facts("tri", declarer=ANA, partner=BORIS, card_points=points(30), kontra={"game": 4}))
    assert (line_of(r, "game").detail, line_of(r, "game").value) == ("Tri lost: -10 × re 4", -40)
    assert basis(line_of(r, "game")) == [("base", 10), ("sign", -1), ("kontra", 4)]
    assert (line_of(r, "difference").detail, line_of(r, "difference").value) == (
        "card points 30, difference -5, × re 4", -20)
    # sub ×8 and mord ×16 are the chain's next names: Tri won with 36 (difference 1 -> 0).
    assert line_of(score_deal(_tri(kontra={"game": 8})), "game").detail == "Tri won: +10 × sub 8"
    r = score_deal(facts("tri", declarer=ANA, partner=BORIS, card_points=points(36), kontra={"game": 16}))
    assert (line_of(r, "game").detail, r.scores["Ana"]) == ("Tri won: +10 × mord 16", 160)
    # diff_rounding none: 43 -> 8 as it is, and the sentence does not mention rounding.
    r = score_deal(facts("dva", options={"diff_rounding": "none"}, declarer=DAVID, partner=ANA,
                         card_points=points(43)))
    diff = line_of(r, "difference")
    assert (diff.detail, diff.value) == ("card points 43, difference 8", 8)
    assert basis(line_of(r, "difference")) == [("points", 43), ("raw", 8), ("rounded", 8), ("kontra", 1)]


def test_bonus_sentences_and_basis() -> None:
    # Tri by Ana with Boris, 38 points.  Silent trula of the declarer's side +10; the defenders' silent
    # kings -10; king ultimo silent +10; pagat ultimo announced by the defenders and made: -50 × its
    # kontra 2 = -100.
    r = score_deal(_tri(trula_side=DECLARER, kings_side=OPPONENTS, king_last=DECLARER,
                        pagat_last=(OPPONENTS, True), announced=(("pagat_ultimo", OPPONENTS),),
                        kontra={"pagat_ultimo": 2}))
    assert line_of(r, "trula").detail == "silent trula made by the declarer's side: +10"
    assert basis(line_of(r, "trula")) == [("base", 10), ("sign", 1), ("announced", 0), ("kontra", 1)]
    assert line_of(r, "kings").detail == "silent all kings made by the opponents: -10"
    assert line_of(r, "king_ultimo").detail == "silent king ultimo made by the declarer's side: +10"
    pagat = line_of(r, "pagat_ultimo")
    assert (pagat.detail, pagat.value) == (
        "pagat ultimo announced by the opponents and made: -50 × kontra 2", -100)
    assert basis(pagat) == [("base", 50), ("sign", -1), ("announced", 1), ("kontra", 2)]
    # Announced by the declarer's side and failed: -20.
    r = score_deal(_tri(announced=(("trula", DECLARER),)))
    assert (line_of(r, "trula").detail, line_of(r, "trula").value) == ("trula announced and failed: -20", -20)
    assert basis(line_of(r, "trula")) == [("base", 20), ("sign", -1), ("announced", 1), ("kontra", 1)]
    # A silent valat takes the game kontra: +250 × 2; an announced one its own chain: -500 × re 4.
    r = score_deal(replace(_tri(valat_side=DECLARER, kontra={"game": 2}), card_points=(70, 0)))
    assert (line_of(r, "valat").detail, line_of(r, "valat").value) == (
        "silent valat made by the declarer's side: +250 × kontra 2", 500)
    assert basis(line_of(r, "valat")) == [("base", 250), ("sign", 1), ("announced", 0), ("kontra", 2)]
    r = score_deal(_tri(announced=(("valat", DECLARER),), kontra={"valat": 4}))
    valat = line_of(r, "valat")
    assert (valat.detail, valat.value) == ("valat announced and failed: -500 × re 4", -2000)


def test_mondfang_sentence_and_basis() -> None:
    # Defenders announce Mondfang; David's (the declarer's) Mond is captured; Mondfang kontra ×2:
    # -21 × 2 (announced) × 2 = -84.  Cilka's own Mond in another deal: -21 plain.
    r = score_deal(_dva(mondfang=(DAVID,), announced=(("mondfang", OPPONENTS),), kontra={"mondfang": 2}))
    line = line_of(r, "mondfang")
    assert (line.players, line.detail, line.value) == (
        ("David",), "Mondfang: David's Mond captured: -21 × 2 (announced) × kontra 2", -84)
    assert basis(line) == [("base", 21), ("announced", 1), ("kontra", 2)]
    line = line_of(score_deal(_dva(mondfang=(CILKA,))), "mondfang")
    assert (line.players, line.detail, line.value) == (
        ("Cilka",), "Mondfang: Cilka's Mond captured: -21", -21)
    assert basis(line) == [("base", 21), ("announced", 0), ("kontra", 1)]


def test_klop_sentences_and_basis() -> None:
    # Ana takes no trick: +70; Cilka 48 > 35: -70; Boris and David write nothing (someone is at ±70).
    r = score_deal(facts("klop", klop_points=(0, 12, 48, 10), klop_tricks=(0, 3, 7, 2)))
    assert [(ln.players, ln.detail, ln.value) for ln in r.lines] == [
        (("Ana",), "Klop: no trick taken: +70", 70),
        (("Cilka",), "Klop: 48 card points, more than 35: -70", -70),
    ]
    assert basis(r.lines[0]) == [("points", 0), ("tricks", 0), ("base", 70)]
    assert basis(r.lines[1]) == [("points", 48), ("tricks", 7), ("base", -70)]
    # 35 points is not more than 35: -35; 36 is: -70 (and then only that player scores).
    r = score_deal(facts("klop", klop_points=(35, 12, 13, 10), klop_tricks=(5, 3, 4, 2)))
    assert (r.lines[0].detail, r.scores) == ("Klop: 35 card points: -35",
                                            {"Ana": -35, "Boris": -12, "Cilka": -13, "David": -10})
    assert basis(r.lines[1]) == [("points", 12), ("tricks", 3), ("base", -12)]
    r = score_deal(facts("klop", klop_points=(36, 12, 12, 10), klop_tricks=(5, 3, 4, 2)))
    assert r.scores == {"Ana": -70, "Boris": 0, "Cilka": 0, "David": 0}


def test_radelc_sentences() -> None:
    # radelc_scope declarer: David (declarer, 2 radelci) and Ana: (20 + 10) doubled: the radelc line adds
    # 30 to each; no basis.
    r = score_deal(_dva(), {"David": 2})
    line = line_of(r, "radelc")
    assert (line.players, line.detail, line.value) == (
        ("David", "Ana"), "radelc: declarer holds 2, score doubled", 30)
    assert line.basis == {}
    # Klop: Ana (1 radelc) takes no trick: her +70 doubled by a line of +70.
    r = score_deal(facts("klop", klop_points=(0, 12, 48, 10), klop_tricks=(0, 3, 7, 2)), {"Ana": 1})
    line = line_of(r, "radelc")
    assert (line.players, line.detail, line.value) == (
        ("Ana",), "radelc: Ana holds 1, Klop result doubled", 70)


def test_penalty_sentences_and_basis() -> None:
    # slovenian_renons: Boris pays -(Dva 20) × game kontra 2 × 2 for David's (the declarer's) radelc = -80.
    r = score_deal(_dva(offenders=(BORIS,), kontra={"game": 2}), {"David": 1})
    line = line_of(r, "penalty")
    assert (line.players, line.detail, line.value) == (
        ("Boris",), "renons: -20 (Dva) × kontra 2 × 2 (declarer's radelc)", -80)
    assert basis(line) == [("base", 20), ("kontra", 2), ("radelc", 2)]
    # Klop: -70, no kontra, no declarer (so no declarer's radelc).
    r = score_deal(facts("klop", klop_points=(10, 20, 25, 15), klop_tricks=(2, 4, 4, 2), offenders=(ANA,)))
    assert (line_of(r, "penalty").detail, basis(line_of(r, "penalty"))) == (
        "renons: -70 (Klop)", [("base", 70), ("kontra", 1), ("radelc", 1)])
    # jass_trick_forfeit without replayed tricks falls back, and says so and why.
    r = score_deal(_dva(options={"penalty": "jass_trick_forfeit"}, offenders=(BORIS,)))
    assert line_of(r, "penalty").detail == (
        "renons: -20 (Dva); jass_trick_forfeit does not apply (the tricks were not replayed), scored as "
        "slovenian_renons")
    # jass_trick_forfeit applied: a 0 line saying what moved.
    played = _dva(options={"penalty": "jass_trick_forfeit"}, offenders=(BORIS,))
    r = score_deal(replace(played, as_played=played, penalty_note="tricks 9-12 forfeited"))
    line = line_of(r, "penalty")
    assert (line.detail, line.value, basis(line)) == ("renons: tricks 9-12 forfeited", 0, [("base", 0)])


def test_renonce_sentences_and_basis() -> None:
    # austrian_renonce: Boris pays Dva's 20 to each of the three others: -60; each of them +20.
    r = score_deal(_austrian(_dva(offenders=(BORIS,))))
    pays, receives = r.lines
    what = "renonce by Boris, who pays every other player as if they had won (Dva 20 = 20)"
    assert (pays.players, pays.detail, pays.value) == (
        ("Boris",), f"{what}: pays 20 to each of Ana, Cilka, David: -60", -60)
    assert basis(pays) == [("base", 20), ("payments", 3)]
    assert (receives.players, receives.detail, receives.value) == (
        ("Ana", "Cilka", "David"), f"{what}: receives 20 from Boris", 20)
    assert basis(receives) == [("base", 20)]
    # 3 players, Tri (10) by Ana; all kings announced (20), king ultimo announced (20) under re ×4 (80),
    # Mondfang announced (never paid), silent trula (never paid): A = 10 + 20 + 80 = 110.  Cilka pays it
    # to each of two: -220.
    f = facts("tri", players=P3, declarer=ANA, card_points=points(40), trula_side=DECLARER,
              offenders=(CILKA,),
              announced=(("kings", DECLARER), ("king_ultimo", DECLARER), ("mondfang", OPPONENTS)),
              kontra={"king_ultimo": 4})
    r = score_deal(_austrian(f))
    assert r.scores == {"Ana": 110, "Boris": 110, "Cilka": -220}
    assert r.lines[0].detail == (
        "renonce by Cilka, who pays every other player as if they had won (Tri 10 + all kings announced 20 + "
        "king ultimo announced 20 × re 4 = 110): pays 110 to each of Ana, Boris: -220")


# --- every option, every branch ------------------------------------------------------------------------


def test_option_radelci_off_everywhere() -> None:
    # radelci false: a Klop doubles nothing, cancels nothing and awards nothing: Ana (holding 1) takes no
    # trick, +70 flat; Cilka -70; the ledger stays as it was.
    before = {"Ana": 1, "Boris": 0, "Cilka": 0, "David": 2}
    klop = facts("klop", options={"radelci": False}, klop_points=(0, 12, 48, 10), klop_tricks=(0, 3, 7, 2))
    r = score_deal(klop, before)
    assert r.scores == {"Ana": 70, "Boris": 0, "Cilka": -70, "David": 0}
    assert r.radelci_after == before and r.award_reason is None and r.cancelled == ()
    # A silent valat: +250 flat although the declarer holds one, and no radelc for anyone.
    valat = replace(_tri(options={"radelci": False}, valat_side=DECLARER), card_points=(70, 0))
    r = score_deal(valat, {"Ana": 1})
    assert r.scores["Ana"] == 250 and r.radelci_after == {"Ana": 1, "Boris": 0, "Cilka": 0, "David": 0}
    # A renons penalty is not doubled by the declarer's radelc: Boris -20; David and Ana +30 each.
    r = score_deal(_dva(options={"radelci": False}, offenders=(BORIS,)), {"David": 1})
    assert r.scores == {"Ana": 30, "Boris": -20, "Cilka": 0, "David": 30}
    # austrian_renonce in a Berač: the payments as always (Ana pays 70 to each of three), no radelc awarded.
    r = score_deal(facts("berac", options={"radelci": False, "penalty": "austrian_renonce"}, declarer=BORIS,
                         offenders=(ANA,)), {"Boris": 1})
    assert r.scores == {"Ana": -210, "Boris": 70, "Cilka": 70, "David": 70}
    assert r.radelci_after == {"Ana": 0, "Boris": 1, "Cilka": 0, "David": 0} and r.award_reason is None


def test_klop_minus_70_with_a_radelc_is_doubled_and_cancels_nothing() -> None:
    # Cilka (1 radelc) has 48 points: -70 × 2 = -140; only +70 cancels a radelc, so hers stays (1), and
    # the Klop gives everyone one more: Ana 1, Boris 1, Cilka 2, David 1.
    r = score_deal(facts("klop", klop_points=(0, 12, 48, 10), klop_tricks=(0, 3, 7, 2)), {"Cilka": 1})
    assert r.scores == {"Ana": 70, "Boris": 0, "Cilka": -140, "David": 0}
    assert r.radelci_after == {"Ana": 1, "Boris": 1, "Cilka": 2, "David": 1} and r.cancelled == ()
    assert r.award_reason == "the Klop"


def test_radelc_scope_each_player_both_hold() -> None:
    # each_player: David (declarer, 2) and Ana (partner, 1) both hold: one line lists both, each doubles
    # their own 30 -> 60; the game is won, so each loses one: David 1, Ana 0.
    r = score_deal(_dva(options={"radelc_scope": "each_player"}), {"David": 2, "Ana": 1})
    line = line_of(r, "radelc")
    assert (line.players, line.detail, line.value) == (
        ("David", "Ana"), "radelc: David holds 2, Ana holds 1, own score doubled", 30)
    assert r.scores == {"Ana": 60, "Boris": 0, "Cilka": 0, "David": 60}
    assert r.radelci_after == {"Ana": 0, "Boris": 0, "Cilka": 0, "David": 1}
    assert r.cancelled == ("David", "Ana")
    # Lost with 30 points: (-20 - 5) × 2 = -50 each, and a loss cancels nothing.
    r = score_deal(facts("dva", options={"radelc_scope": "each_player"}, declarer=DAVID, partner=ANA,
                         card_points=points(30)), {"David": 2, "Ana": 1})
    assert r.scores == {"Ana": -50, "Boris": 0, "Cilka": 0, "David": -50}
    assert r.radelci_after == {"Ana": 1, "Boris": 0, "Cilka": 0, "David": 2} and r.cancelled == ()
    # Only the declarer holds one: only the declarer's score doubles (60); Ana writes 30.
    r = score_deal(_dva(options={"radelc_scope": "each_player"}), {"David": 1})
    assert r.scores == {"Ana": 30, "Boris": 0, "Cilka": 0, "David": 60}
    assert line_of(r, "radelc").detail == "radelc: David holds 1, own score doubled"


def test_mondfang_any_side_is_the_replays_not_the_scorers() -> None:
    # mondfang_any_side decides (in the replay) whether a capture counts; the scorer charges whatever
    # Mondfang the facts list: Ana's own-side capture listed -> -21 under either value of the option.
    for any_side in (False, True):
        r = score_deal(_dva(options={"mondfang_any_side": any_side}, mondfang=(ANA,)))
        assert r.scores == {"Ana": 9, "Boris": 0, "Cilka": 0, "David": 30}


def test_the_declarers_own_renons_with_a_radelc() -> None:
    # David (declarer, 1 radelc) revokes: the hand 30, doubled by the radelc line (+30); his penalty
    # -20 × 2 (his radelc) = -40 is not doubled again: 30 + 30 - 40 = 20.  Ana: 60.  The game was won, so
    # his radelc is cancelled.
    r = score_deal(_dva(offenders=(DAVID,)), {"David": 1})
    assert r.scores == {"Ana": 60, "Boris": 0, "Cilka": 0, "David": 20}
    assert comp(r, "radelc") == [30] and comp(r, "penalty") == [-40]
    assert r.radelci_after == ZERO and r.unpenalised == {"Ana": 60, "Boris": 0, "Cilka": 0, "David": 60}


# --- announcements ------------------------------------------------------------------------------------


def test_both_sides_announce_the_same_bonus() -> None:
    # Trula announced by the declarer's side, then by the defenders; the declarer's side holds it: their
    # announcement made +20, the defenders' failed +20 (a failed defenders' announcement counts for the
    # declarer's side).  15 + 40 = 55.
    r = score_deal(_tri(trula_side=DECLARER, announced=(("trula", DECLARER), ("trula", OPPONENTS))))
    assert [(ln.detail, ln.value) for ln in r.lines if ln.component == "trula"] == [
        ("trula announced and made: +20", 20), ("trula announced by the opponents and failed: +20", 20)]
    assert r.scores["Ana"] == 55


def test_a_side_announcing_twice_counts_once() -> None:
    # Ana and Boris both announce kings for the declarer's side: one announcement, made: +20; 15 + 20 = 35.
    r = score_deal(_tri(kings_side=DECLARER, announced=(("kings", DECLARER), ("kings", DECLARER))))
    assert comp(r, "kings") == [20] and r.scores["Boris"] == 35


def test_announced_mondfang_doubles_only_against_the_side_it_was_made_against() -> None:
    # The defenders announce Mondfang but lose their own Mond (Cilka's): the announcement was made against
    # the declarer's side, so Cilka pays the plain -21.
    r = score_deal(_dva(mondfang=(CILKA,), announced=(("mondfang", OPPONENTS),)))
    assert comp(r, "mondfang") == [-21]
    # Solo brez keeps its Mondfang lines, announced ones included: Boris's Mond against the defenders'
    # announcement: -21 × 2 = -42; Solo brez won with 40: +80; 80 - 42 = 38.
    r = score_deal(facts("solo_brez", declarer=BORIS, card_points=points(40), mondfang=(BORIS,),
                         announced=(("mondfang", OPPONENTS),)))
    assert r.scores == {"Ana": 0, "Boris": 38, "Cilka": 0, "David": 0}


def test_valat_announced_by_the_opponents() -> None:
    # The defenders announce valat and take every trick: -500 for the declarer's side, the hand is lost
    # and everyone receives a radelc.
    f = replace(_tri(valat_side=OPPONENTS, announced=(("valat", OPPONENTS),)), card_points=(0, 70))
    r = score_deal(f, ZERO)
    assert [(ln.detail, ln.value) for ln in r.lines] == [
        ("valat announced by the opponents and made: -500", -500)]
    assert r.won is False and r.radelci_after == ONE and r.award_reason == "the valat"
    # They fail: +500 for the declarer's side, which wins the hand (a positive valat line) and so cancels
    # Ana's radelc before everyone gets one: Ana 1 - 1 + 1 = 1.
    r = score_deal(_tri(announced=(("valat", OPPONENTS),)), {"Ana": 1})
    assert [(ln.detail, ln.value) for ln in r.lines if ln.component == "valat"] == [
        ("valat announced by the opponents and failed: +500", 500)]
    assert r.scores["Ana"] == 1000 and r.won is True and r.radelci_after == ONE


# --- the result ----------------------------------------------------------------------------------------


def test_result_fields() -> None:
    # The ledger is read by name in playing order: a name not playing is ignored, a missing one holds 0.
    r = score_deal(_dva(), {"Eva": 3, "David": 1})
    assert list(r.radelci_before.items()) == [("Ana", 0), ("Boris", 0), ("Cilka", 0), ("David", 1)]
    assert list(r.scores) == list(P4) and list(r.radelci_after) == list(P4)
    assert (r.contract, r.declarer, r.won, r.policy, r.ruleset) == ("dva", "David", True, "none", "slovenian")
    assert r.cancelled == ("David",) and r.award_reason is None and r.unpenalised is None
    # No ledger at all: everyone holds 0.
    assert score_deal(_dva(), None).radelci_before == ZERO
    # Why everyone gets a radelc: the contract's label ("the <label>") for Klop and Berač and above, "the
    # valat" for a valat line in a normal contract.
    reasons = {c: score_deal(facts(c, declarer=ANA, card_points=points(40))).award_reason
               for c in ("berac", "solo_brez", "odprti_berac", "barvni_valat", "valat")}
    assert reasons == {"berac": "the Berač", "solo_brez": "the Solo brez", "odprti_berac": "the Odprti berač",
                       "barvni_valat": "the Barvni valat", "valat": "the Valat"}
    r = score_deal(facts("klop", klop_points=(10, 20, 25, 15), klop_tricks=(2, 4, 4, 2)))
    assert (r.award_reason, r.won, r.declarer, r.contract) == ("the Klop", None, None, "klop")


def test_facts_the_scorer_cannot_score_raise() -> None:
    players = ("Ana", "Boris", "Cilka")
    with pytest.raises(ValueError, match="unknown slovenian contract 'no_such_contract'"):
        score_deal(DealFacts(players, "no_such_contract", declarer=0))
    with pytest.raises(ValueError, match="a dva needs card points"):
        score_deal(DealFacts(players, "dva", declarer=0))
    with pytest.raises(ValueError, match="a dva needs card points"):  # checked before the seat is looked up
        score_deal(DealFacts(players, "dva", declarer=5))
    with pytest.raises(IndexError):
        score_deal(DealFacts(players, "dva", declarer=5, card_points=(40, 30)))
    with pytest.raises(ValueError, match="a solo_brez needs card points"):
        score_deal(DealFacts(players, "solo_brez", declarer=0))
    with pytest.raises(ValueError, match="a klop needs klop_points and klop_tricks"):
        score_deal(DealFacts(players, "klop"))
    with pytest.raises(ValueError):  # a pile short
        score_deal(DealFacts(players, "klop", klop_points=(10, 20), klop_tricks=(1, 2)))


def test_session_end_costs_100_per_uncancelled_radelc() -> None:
    # Boris wins a Berač (+70): everyone receives a radelc.  Cilka then wins Solo tri with 50 holding one:
    # (40 + 15) × 2 = 110 and her radelc is cancelled.  At the session's end every radelc still held
    # costs 100, on a line of its own: Ana -100, Boris 70 - 100 = -30, Cilka 110, David -100.
    ledger = SessionLedger.for_players(P4)
    ledger.apply(facts("berac", declarer=BORIS))
    ledger.apply(facts("solo_tri", declarer=CILKA, card_points=points(50)))
    assert SESSION_END_PER_RADELC == -100
    assert ledger.close() == {"Ana": -100, "Boris": -100, "Cilka": 0, "David": -100}
    assert ledger.final_totals() == {"Ana": -100, "Boris": -30, "Cilka": 110, "David": -100}


# --- the reference's named tables (the compiled scorer looks them up by name) ------------------------------


@pytest.mark.parametrize("target, f, component, without, with_kontra", [
    # game: Tri won with 38 (10 + 5), ×2 on game and difference.
    ("game", {}, "game", 10, 20),
    ("pagat_ultimo", {"pagat_last": (DECLARER, True), "announced": (("pagat_ultimo", DECLARER),)},
     "pagat_ultimo", 50, 100),
    ("king_ultimo", {"king_last": DECLARER, "announced": (("king_ultimo", DECLARER),)},
     "king_ultimo", 20, 40),
    ("mondfang", {"mondfang": (CILKA,)}, "mondfang", -21, -42),
])
def test_each_kontra_target_has_its_own_chain(target: str, f: dict[str, Any], component: str, without: int,
                                              with_kontra: int) -> None:
    assert target in KONTRA_TARGETS
    assert comp(score_deal(_tri(**f)), component) == [without]
    assert comp(score_deal(_tri(**f, kontra={target: 2})), component) == [with_kontra]


def test_the_named_tables() -> None:
    # Kontra chains: game, pagat ultimo, king ultimo, valat, Mondfang; trula and kings never (docs/rules.md).
    assert set(KONTRA_TARGETS) == {"game", "pagat_ultimo", "king_ultimo", "valat", "mondfang"}
    # An announced valat's own chain: 500 × 2 (the test of the game chain above leaves it untouched).
    f = replace(_tri(valat_side=DECLARER, announced=(("valat", DECLARER),), kontra={"valat": 2}),
                card_points=(70, 0))
    assert comp(score_deal(f), "valat") == [1000]
    # What can be announced: the bonuses and a Mondfang.
    assert set(ANNOUNCEABLE) == {"trula", "kings", "pagat_ultimo", "king_ultimo", "valat", "mondfang"}
    # The option values the scorer implements are every value the options declare.
    choices = choices_of(SlovenianOptions)
    assert set(DIFF_ROUNDINGS) == set(choices["diff_rounding"])
    assert set(RADELC_SCOPES) == set(choices["radelc_scope"])
    assert dict(KONTRA_NAMES) == {2: "kontra", 4: "re", 8: "sub", 16: "mord"}


# --- shape -------------------------------------------------------------------------------------


def test_lines_come_in_breakdown_order() -> None:
    f = _dva(
        trula_side=OPPONENTS,
        kings_side=DECLARER,
        pagat_last=(DECLARER, True),
        king_last=DECLARER,
        mondfang=(BORIS,),
        offenders=(CILKA,),
    )
    r = score_deal(f, {"David": 1})
    order = [ln.component for ln in r.lines]
    assert order == [
        "game",
        "difference",
        "trula",
        "kings",
        "pagat_ultimo",
        "king_ultimo",
        "mondfang",
        "penalty",
        "radelc",
    ]
    # (20 + 10 - 10 + 10 + 25 + 10) × 2 = 130 for David and Ana; Boris -21; Cilka -20 × 2 = -40.
    assert r.scores == {"Ana": 130, "Boris": -21, "Cilka": -40, "David": 130}


def test_line_and_result_types() -> None:
    # Line is a frozen msgspec Struct: its fields in breakdown-JSON order, then the basis, which defaults
    # to an empty read-only mapping.
    assert Line.__struct_fields__ == ("players", "component", "detail", "value", "basis")
    line = Line(("Ana",), "game", "Tri won: +10", 10)
    assert line.basis == {} and line == Line(("Ana",), "game", "Tri won: +10", 10)
    with pytest.raises(AttributeError):
        line.value = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        line.basis["kontra"] = 2  # type: ignore[index]
    # ScoreResult has a hand-written __init__ (speed): it takes exactly the fields, in order, with the
    # fields' defaults, as the generated one would.
    params = list(inspect.signature(ScoreResult.__init__).parameters.values())[1:]
    assert [p.name for p in params] == [f.name for f in fields(ScoreResult)]
    for p, f in zip(params, fields(ScoreResult), strict=True):
        assert p.default == (inspect.Parameter.empty if f.default is MISSING else f.default), f.name
    result = ScoreResult((line,), {"Ana": 10}, {"Ana": 0}, {"Ana": 0}, True)
    with pytest.raises(AttributeError):
        result.won = False  # type: ignore[misc]
    assert replace(result, policy="annul").policy == "annul" and result.ruleset == "slovenian"
    assert result.lines_of("Ana") == (line,) and result.lines_of("Boris") == ()


def test_unknown_contract_is_an_error() -> None:
    with pytest.raises(ValueError):
        score_deal(facts("rufer", declarer=ANA))


def test_contract_values_are_the_seeds() -> None:
    assert list(CONTRACT_VALUES.items()) == [
        ("klop", 0),
        ("tri", 10),
        ("dva", 20),
        ("ena", 30),
        ("solo_tri", 40),
        ("solo_dva", 50),
        ("solo_ena", 60),
        ("berac", 70),
        ("solo_brez", 80),
        ("odprti_berac", 90),
        ("barvni_valat", 125),
        ("valat", 500),
    ]


# --- properties over random facts -----------------------------------------------------------


SIDES = st.sampled_from([None, DECLARER, OPPONENTS])
REAL_SIDES = st.sampled_from([DECLARER, OPPONENTS])
BONUSES = ("trula", "kings", "pagat_ultimo", "king_ultimo", "valat", "mondfang")


@st.composite
def deal_facts(
    draw: st.DrawFn, contracts: tuple[str, ...] = tuple(CONTRACT_VALUES)
) -> tuple[DealFacts, dict[str, int]]:
    """Random, internally plausible facts of a slovenian deal, with random radelci."""
    players = P4 if draw(st.booleans()) else P3
    n = len(players)
    contract = draw(st.sampled_from(contracts))
    options = SlovenianOptions(
        diff_rounding=draw(st.sampled_from(["nearest5", "none"])),
        silent_pagat_failure=draw(st.booleans()),
        mondfang_value=draw(st.sampled_from([21, 20])),
        radelci=draw(st.booleans()),
        penalty=draw(
            st.sampled_from(
                ["slovenian_renons", "record_as_played", "annul", "jass_trick_forfeit", "austrian_renonce"]
            )
        ),
        radelc_scope=draw(st.sampled_from(["declarer", "each_player"])),
        klop_radelc_double=draw(st.booleans()),
    )
    radelci = {p: draw(st.integers(0, 3)) for p in players}
    offenders = tuple(draw(st.lists(st.integers(0, n - 1), max_size=2)))
    if contract == "klop":
        pts = draw(st.lists(st.integers(0, 70), min_size=n, max_size=n))
        tricks = tuple(0 if p == 0 and draw(st.booleans()) else draw(st.integers(1, 6)) for p in pts)
        f = DealFacts(
            players,
            contract,
            options=options,
            klop_points=tuple(pts),
            klop_tricks=tricks,
            offenders=offenders,
        )
        return f, radelci
    declarer = draw(st.integers(0, n - 1))
    partner = None
    if n == 4 and contract in ("tri", "dva", "ena") and draw(st.booleans()):
        partner = draw(st.integers(0, n - 1).filter(lambda s: s != declarer))
    announced = tuple(draw(st.lists(st.tuples(st.sampled_from(BONUSES), REAL_SIDES), max_size=3)))
    kontra = {
        t: draw(st.sampled_from([2, 4, 8, 16]))
        for t in draw(
            st.lists(
                st.sampled_from(["game", "pagat_ultimo", "king_ultimo", "valat", "mondfang"]),
                max_size=3,
                unique=True,
            )
        )
    }
    side_pts = draw(st.integers(0, 70))
    f = DealFacts(
        players,
        contract,
        declarer=declarer,
        partner=partner,
        options=options,
        card_points=(side_pts, 70 - side_pts),
        declarer_took_trick=draw(st.booleans()),
        declarer_lost_trick=draw(st.booleans()),
        valat_side=DECLARER
        if side_pts == 70 and draw(st.booleans())
        else OPPONENTS
        if side_pts == 0 and draw(st.booleans())
        else None,
        trula_side=draw(SIDES),
        kings_side=draw(SIDES),
        pagat_last=draw(st.none() | st.tuples(REAL_SIDES, st.booleans())),
        king_last=draw(SIDES),
        mondfang=tuple(draw(st.lists(st.integers(0, n - 1), max_size=2, unique=True))),
        announced=announced,
        kontra=kontra,
        offenders=offenders,
    )
    return f, radelci


@settings(max_examples=400, deadline=None)
@given(deal_facts())
def test_property_lines_sum_to_scores(case: tuple[DealFacts, dict[str, int]]) -> None:
    f, radelci = case
    r = score_deal(f, radelci)
    assert set(r.scores) == set(f.players)
    for name in f.players:
        assert r.scores[name] == sum(ln.value for ln in r.lines if name in ln.players)
    assert [COMPONENTS.index(ln.component) for ln in r.lines] == sorted(
        COMPONENTS.index(ln.component) for ln in r.lines
    )
    assert all(n >= 0 for n in r.radelci_after.values())


@settings(max_examples=400, deadline=None)
@given(deal_facts(("klop",)))
def test_property_klop_with_a_70_player_scores_nobody_else(case: tuple[DealFacts, dict[str, int]]) -> None:
    f, radelci = case
    assert f.klop_points is not None and f.klop_tricks is not None
    full = [t == 0 or p > 35 for p, t in zip(f.klop_points, f.klop_tricks, strict=True)]
    if not any(full):
        return
    r = score_deal(f, radelci)
    for seat, name in enumerate(f.players):
        if not full[seat]:
            assert all(ln.component == "penalty" for ln in r.lines if name in ln.players)


@settings(max_examples=400, deadline=None)
@given(deal_facts())
def test_property_radelc_lines_never_touch_mondfang(case: tuple[DealFacts, dict[str, int]]) -> None:
    f, radelci = case
    r = score_deal(f, radelci)
    for line in r.lines:
        if line.component != "radelc":
            continue
        for name in line.players:
            mine = [ln for ln in r.lines if name in ln.players]
            doubled = sum(ln.value for ln in mine if ln.component in DOUBLED_BY_RADELC)
            assert line.value == doubled
    # Taking the Mondfang away changes exactly the Mondfang lines.
    without = score_deal(replace(f, mondfang=()), radelci)
    assert [ln for ln in r.lines if ln.component != "mondfang"] == list(without.lines)


@settings(max_examples=400, deadline=None)
@given(deal_facts(tuple(c for c in CONTRACT_VALUES if c != "klop")))
def test_property_opponents_write_nothing_in_a_normal_contract(
    case: tuple[DealFacts, dict[str, int]],
) -> None:
    f, radelci = case
    r = score_deal(f, radelci)
    if r.policy == "austrian_renonce":
        return  # the renonce's payments reach every player
    for seat, name in enumerate(f.players):
        if seat in f.playing_side or seat in f.offenders:
            continue
        if seat in f.mondfang and f.contract in NORMAL_CONTRACTS + ("solo_brez",):
            continue
        assert r.scores[name] == 0
