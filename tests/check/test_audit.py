"""Score audits: recorded vs recomputed, explained by the first breakdown line that accounts for it.

Each recorded figure is a plausible score-keeper's mistake worked out by hand.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tarock.check.audit import audit_scores
from tarock.deal import Recorded
from tarock.facts import DECLARER, OPPONENTS, DealFacts
from tarock.options import DEFAULT_SLOVENIAN
from tarock.rules.slovenian.scoring import ScoreResult, score_deal

P4 = ("Ana", "Boris", "Cilka", "David")
ANA, BORIS, CILKA, DAVID = range(4)
ONE = {name: 1 for name in P4}


def facts(contract: str, options: dict[str, Any] | None = None, **kw: Any) -> DealFacts:
    return DealFacts(P4, contract, options=replace(DEFAULT_SLOVENIAN, **(options or {})), **kw)


def ena_43() -> ScoreResult:
    """Cilka's Ena with Ana, 43 points: 30 + (8 -> 10) = +40 each."""
    return score_deal(facts("ena", declarer=CILKA, partner=ANA, card_points=(43, 27)))


def messages(recorded: Any, result: ScoreResult, players: tuple[str, ...] = P4) -> list[str]:
    return [f.message for f in audit_scores(recorded, result, players)]


def test_matching_record_has_no_findings() -> None:
    r = ena_43()
    assert audit_scores({"Ana": 40, "Cilka": 40}, r, P4) == []
    assert audit_scores(Recorded({"Ana": 40, "Cilka": 40, "Boris": 0}), r, P4) == []
    assert audit_scores({"scores": {"Ana": 40, "Cilka": 40}}, r, P4) == []


def test_difference_not_rounded_up() -> None:
    # The sheet wrote 30 (no difference): the difference 8 rounds to 10, not 0.
    findings = audit_scores({"Ana": 30, "Cilka": 30}, ena_43(), P4)
    assert [f.player for f in findings] == ["Ana", "Cilka"]
    assert {f.code for f in findings} == {"A_SCORE_MISMATCH"}
    assert findings[0].severity == "audit"
    assert findings[0].message == "recorded +30 for Ana, recomputed +40: the difference 8 rounds to 10, not 0"


def test_difference_unrounded_and_rounded_the_wrong_way() -> None:
    # 30 + 8 = 38: written unrounded.
    assert messages({"Ana": 38, "Cilka": 40}, ena_43()) == [
        "recorded +38 for Ana, recomputed +40: the difference 8 is rounded to 10; the record has it unrounded"
    ]
    # 42 points: difference 7 rounds to 5 (35), the sheet has 30 + 10 = 40.
    r = score_deal(facts("ena", declarer=CILKA, partner=ANA, card_points=(42, 28)))
    assert messages({"Ana": 35, "Cilka": 40}, r) == [
        "recorded +40 for Cilka, recomputed +35: the difference 7 rounds to 5, not 10"
    ]


def test_kontra_not_applied() -> None:
    # Dva 43 with kontra: (20 + 10) × 2 = 60. Game value not doubled: 20 + 20 = 40.
    r = score_deal(facts("dva", declarer=DAVID, partner=ANA, card_points=(43, 27), kontra={"game": 2}))
    assert messages({"Ana": 40, "David": 60}, r) == [
        "recorded +40 for Ana, recomputed +60: the kontra (×2) on the game is not applied"
    ]
    # Difference not doubled: 40 + 10 = 50.
    assert messages({"Ana": 60, "David": 50}, r) == [
        "recorded +50 for David, recomputed +60: the game kontra (×2) also multiplies the difference"
    ]


def test_radelc_doubling_missing_and_wrongly_applied() -> None:
    # Seed hand 3: +150 with the radelc; 75 on the sheet means the doubling is missing.
    f = facts(
        "solo_tri",
        declarer=CILKA,
        card_points=(50, 20),
        trula_side=DECLARER,
        announced=(("trula", DECLARER),),
    )
    r = score_deal(f, ONE)
    assert messages({"Cilka": 75}, r) == [
        "recorded +75 for Cilka, recomputed +150: "
        "the radelc doubling is missing (declarer holds 1, score doubled)"
    ]
    # Without radelci the hand is 75; a sheet with 150 doubled it for a radelc nobody holds.
    r = score_deal(f)
    assert messages({"Cilka": 150}, r) == [
        "recorded +150 for Cilka, recomputed +75: the hand is not doubled: Cilka holds no radelc"
    ]


def test_trula_announced_counted_as_silent() -> None:
    # Seed hand 3 with trula counted 10: (40 + 15 + 10) × 2 = 130.
    f = facts(
        "solo_tri",
        declarer=CILKA,
        card_points=(50, 20),
        trula_side=DECLARER,
        announced=(("trula", DECLARER),),
    )
    assert messages({"Cilka": 130}, score_deal(f, ONE)) == [
        "recorded +130 for Cilka, recomputed +150: an announced trula is worth 20, not 10"
    ]


def test_defenders_silent_trula_sign() -> None:
    # Ena 43 (+40) with the defenders' silent trula: 40 - 10 = 30. Sheet wrote +10 for it: 50.
    r = score_deal(facts("ena", declarer=CILKA, partner=ANA, card_points=(43, 27), trula_side=OPPONENTS))
    assert messages({"Ana": 50, "Cilka": 30}, r) == [
        "recorded +50 for Ana, recomputed +30: silent trula made by the opponents: -10, not +10"
    ]


def test_mondfang_doubled_by_radelc() -> None:
    # Solo tri 40 points (diff 5) with a radelc: 90; Mondfang -21 undoubled: 69. Sheet: 90 - 42 = 48.
    r = score_deal(facts("solo_tri", declarer=CILKA, card_points=(40, 30), mondfang=(CILKA,)), {"Cilka": 1})
    assert messages({"Cilka": 48}, r) == [
        "recorded +48 for Cilka, recomputed +69: a Mondfang is never doubled by a radelc"
    ]


def test_penalty_missing() -> None:
    r = score_deal(facts("dva", declarer=DAVID, partner=ANA, card_points=(43, 27), offenders=(BORIS,)))
    assert messages({"Ana": 30, "David": 30}, r) == [
        "recorded 0 for Boris, recomputed -20: the renons penalty is missing: renons: -20 (Dva)"
    ]


def test_whole_sign_flipped_and_no_single_line() -> None:
    # Seed hand 4: -140 for David and Ana. +140 on the sheet: the sign of the whole score.
    f = facts(
        "dva", declarer=DAVID, partner=ANA, card_points=(33, 37), announced=(("pagat_ultimo", DECLARER),)
    )
    r = score_deal(f, {"David": 1})
    assert messages({"Ana": -140, "David": 140}, r) == [
        "recorded +140 for David, recomputed -140: the whole score has the wrong sign"
    ]
    # -135: nothing single explains a 5-point gap.
    assert messages({"Ana": -140, "David": -135}, r) == [
        "recorded -135 for David, recomputed -140: no single line explains it"
    ]


def test_missing_player_counts_as_zero() -> None:
    # Ana is not on the sheet: 0 against +40; no line alone is worth 40 (game 30, difference 10).
    assert messages({"Cilka": 40}, ena_43()) == [
        "recorded 0 for Ana, recomputed +40: no single line explains it"
    ]


def test_zero_sum_sheet_opponent() -> None:
    # A sheet that wrote the opponents' side too: only the playing side writes.
    assert messages({"Ana": 40, "Cilka": 40, "Boris": -40}, ena_43()) == [
        "recorded -40 for Boris, recomputed 0: "
        "Boris writes nothing: only the declarer's side writes in this Ena"
    ]


def test_annulled_hand() -> None:
    r = score_deal(
        facts(
            "dva",
            options={"penalty": "annul"},
            declarer=DAVID,
            partner=ANA,
            card_points=(43, 27),
            offenders=(BORIS,),
        )
    )
    assert messages({"Ana": 30, "David": 30}, r)[0] == (
        "recorded +30 for Ana, recomputed 0: the renons annuls the hand (penalty annul): everyone writes 0"
    )


def test_radelci_audit() -> None:
    # Hand 2 (Berač): everyone gets one; a sheet with Cilka at 0.
    berac = score_deal(facts("berac", declarer=BORIS), {n: 0 for n in P4})
    assert messages(Recorded({"Boris": 70}, radelci={"Ana": 1, "Boris": 1, "David": 1}), berac) == [
        "Cilka's radelci recorded 0, but the Berač gives everyone one"
    ]
    # Hand 3: Cilka won her Solo tri, so one of hers is cancelled (1 -> 0); the sheet kept it.
    f = facts(
        "solo_tri",
        declarer=CILKA,
        card_points=(50, 20),
        trula_side=DECLARER,
        announced=(("trula", DECLARER),),
    )
    solo = score_deal(f, ONE)
    assert messages({"scores": {"Cilka": 150}, "radelci": ONE}, solo) == [
        "Cilka's radelci recorded 1, but winning the Solo tri cancels one of Cilka's"
    ]
    # Hand 4: David lost, his radelc stays; the sheet struck it.
    f = facts(
        "dva", declarer=DAVID, partner=ANA, card_points=(33, 37), announced=(("pagat_ultimo", DECLARER),)
    )
    dva = score_deal(f, {"Ana": 1, "Boris": 1, "Cilka": 0, "David": 1})
    rec = {"scores": {"Ana": -140, "David": -140}, "radelci": {"Ana": 1, "Boris": 1, "David": 0}}
    found = audit_scores(rec, dva, P4)
    assert [(f.player, f.message) for f in found] == [
        (
            "David",
            "David's radelci recorded 0, but a radelc is cancelled only when the declarer's side wins, "
            "and the Dva was lost",
        )
    ]


def test_klop_radelc_audit() -> None:
    # Klop: Ana takes no trick with a radelc: +140 and her radelc is cancelled, then everyone +1: Ana 1.
    r = score_deal(facts("klop", klop_points=(0, 12, 48, 10), klop_tricks=(0, 3, 7, 2)), {"Ana": 1})
    rec = {"scores": {"Ana": 70, "Cilka": -70}, "radelci": {"Ana": 2, "Boris": 1, "Cilka": 1, "David": 1}}
    assert messages(rec, r) == [
        "recorded +70 for Ana, recomputed +140: "
        "the radelc doubling is missing (Ana holds 1, Klop result doubled)",
        "Ana's radelci recorded 2, but Ana's +70 in the Klop cancels one",
    ]
