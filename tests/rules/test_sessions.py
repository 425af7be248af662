"""Sessions: radelci and running totals carried across deals, by player name.

Expected numbers are worked out by hand from the rules' (docs/rules.md) four-hand example.
"""

from __future__ import annotations

from dataclasses import dataclass

from tarock.facts import DECLARER, DealFacts
from tarock.rules.sessions import SessionLedger, score_session

P4 = ("Ana", "Boris", "Cilka", "David")


def seed_hands() -> list[DealFacts]:
    """The seed's four hands (seats fixed: Ana, Boris, Cilka, David)."""
    return [
        # 1: Cilka plays Ena with Ana, wins by 10 (45 points).
        DealFacts(P4, "ena", declarer=2, partner=0, card_points=(45, 25)),
        # 2: Boris plays Berač and wins.
        DealFacts(P4, "berac", declarer=1),
        # 3: Cilka plays Solo tri, announces trula, makes it, wins by 15 (50 points).
        DealFacts(
            P4,
            "solo_tri",
            declarer=2,
            card_points=(50, 20),
            trula_side=DECLARER,
            announced=(("trula", DECLARER),),
        ),
        # 4: David plays Dva with Ana, announces pagat ultimo, loses both (33 points, diff -2 -> 0).
        DealFacts(
            P4,
            "dva",
            declarer=3,
            partner=0,
            card_points=(33, 37),
            pagat_last=None,
            announced=(("pagat_ultimo", DECLARER),),
        ),
    ]


def test_seed_four_hand_session() -> None:
    # Score sheet: hand 1 Ana +40 Cilka +40; hand 2 Boris +70 (then everyone 1 radelc); hand 3 Cilka
    # (40 + 15 + 20) × 2 = +150 (her radelc cancelled); hand 4 David and Ana -(20 + 50) × 2 = -140.
    # Totals: Ana 40 - 140 = -100, Boris 70, Cilka 40 + 150 = 190, David -140.
    # Radelci at the end: Ana 1, Boris 1, Cilka 0, David 1 -> session end -100, -100, 0, -100.
    report = score_session(enumerate(seed_hands()), P4)
    per_hand = [e.result.scores for e in report.entries if e.result is not None]
    assert per_hand == [
        {"Ana": 40, "Boris": 0, "Cilka": 40, "David": 0},
        {"Ana": 0, "Boris": 70, "Cilka": 0, "David": 0},
        {"Ana": 0, "Boris": 0, "Cilka": 150, "David": 0},
        {"Ana": -140, "Boris": 0, "Cilka": 0, "David": -140},
    ]
    assert [e.radelci for e in report.entries] == [
        {"Ana": 0, "Boris": 0, "Cilka": 0, "David": 0},
        {"Ana": 1, "Boris": 1, "Cilka": 1, "David": 1},
        {"Ana": 1, "Boris": 1, "Cilka": 0, "David": 1},
        {"Ana": 1, "Boris": 1, "Cilka": 0, "David": 1},
    ]
    assert report.totals == {"Ana": -100, "Boris": 70, "Cilka": 190, "David": -140}
    assert report.session_end == {"Ana": -100, "Boris": -100, "Cilka": 0, "David": -100}
    assert report.final == {"Ana": -200, "Boris": -30, "Cilka": 190, "David": -240}


def test_session_end_is_never_part_of_a_deals_scores() -> None:
    ledger = SessionLedger.for_players(P4)
    result = ledger.apply(DealFacts(P4, "berac", declarer=1))
    assert result is not None and result.scores["Ana"] == 0
    assert ledger.totals == {"Ana": 0, "Boris": 70, "Cilka": 0, "David": 0}
    assert ledger.close() == {"Ana": -100, "Boris": -100, "Cilka": -100, "David": -100}
    assert ledger.final_totals() == {"Ana": -100, "Boris": -30, "Cilka": -100, "David": -100}


def test_a_deal_in_error_leaves_the_ledger_unchanged() -> None:
    ledger = SessionLedger.for_players(P4)
    ledger.apply(DealFacts(P4, "berac", declarer=1))
    before = (dict(ledger.radelci), dict(ledger.totals))
    assert ledger.apply(None) is None
    assert (ledger.radelci, ledger.totals) == before
    assert ledger.skipped == 1 and ledger.scored == 1


def test_players_are_keyed_by_name_when_seats_rotate() -> None:
    # Hand 1 (dealer David): Boris plays Berač and wins: everyone gets a radelc.
    # Hand 2, the deal passes on: playing order Boris, Cilka, David, Ana. Ana (now seat 3) plays Solo tri
    # with 50 points: (40 + 15) × 2 = 110 with her radelc, which is cancelled.
    first = DealFacts(P4, "berac", declarer=1)
    rotated = ("Boris", "Cilka", "David", "Ana")
    second = DealFacts(rotated, "solo_tri", declarer=3, card_points=(50, 20))
    report = score_session([("a", first), ("b", second)])
    assert report.entries[1].result is not None
    assert report.entries[1].result.scores["Ana"] == 110
    assert report.entries[-1].radelci == {"Ana": 0, "Boris": 1, "Cilka": 1, "David": 1}
    assert report.totals == {"Ana": 110, "Boris": 70, "Cilka": 0, "David": 0}


def test_a_newcomer_joins_with_no_radelci() -> None:
    # After a Berač at a 3-player table, Eva joins a 4-player table: she holds none.
    three = ("Ana", "Boris", "Cilka")
    four = ("Ana", "Boris", "Cilka", "Eva")
    report = score_session(
        [
            (1, DealFacts(three, "berac", declarer=0)),
            (2, DealFacts(four, "solo_tri", declarer=3, card_points=(50, 20))),
        ]
    )
    # Eva's Solo tri is not doubled: 40 + 15 = 55; Ana, Boris, Cilka keep their radelc.
    assert report.totals["Eva"] == 55
    assert report.session_end == {"Ana": -100, "Boris": -100, "Cilka": -100, "Eva": 0}


@dataclass
class _Rec:
    name: str
    seq: int | None
