"""Renons penalties over the replayed tricks: ``jass_trick_forfeit`` (tarock.rules.penalties).

Every expected number is worked out by hand in the comment next to it.
"""

from __future__ import annotations

import json
from dataclasses import replace

from tarock.cards import CODE_INDEX
from tarock.engine import replay
from tarock.facts import DECLARER, OPPONENTS, DealFacts
from tarock.findings import Finding
from tarock.options import DEFAULT_SLOVENIAN
from tarock.rules.penalties import PlayedTricks, jass_trick_forfeit
from tarock.rules.play import EMPEROR_ALWAYS
from tarock.formats.codec import deal_from_obj
from tarock.rules.slovenian.scoring import score_deal
from tests.support.paths import ROOT

P3 = ("Ana", "Boris", "Cilka")
ANA, BORIS, CILKA = range(3)
JASS = replace(DEFAULT_SLOVENIAN, penalty="jass_trick_forfeit")
EXAMPLES = ROOT / "data" / "examples"


def cards(*codes: str) -> tuple[int, ...]:
    return tuple(CODE_INDEX[c] for c in codes)


def mask(*codes: str) -> int:
    return sum(1 << c for c in cards(*codes))


def revoke(player: str, trick: int, position: int, code: str = "R_FOLLOW_SUIT") -> Finding:
    return Finding(code, f"{player} revoked", trick, position, player, None)


def tri(offenders: tuple[int, ...], contract: str = "tri", **kw) -> DealFacts:  # type: ignore[no-untyped-def]
    """Tri by Ana alone (3 players), as played: the opponents took everything."""
    kw.setdefault("card_points", (0, 70))
    return DealFacts(P3, contract, declarer=ANA, options=JASS, offenders=offenders, **kw)


# Three tricks of a record that stops early (the rest lies with the opponents):
#  1. Ana HK, Boris T5 (revoke: he holds hearts), Cilka H4   — Boris takes it with T5
#  2. Boris S7, Cilka SK, Ana S8                            — Cilka takes it
#  3. Boris HQ (his forgotten heart), Cilka H3, Ana C7       — Boris takes it
PLAY = PlayedTricks(
    tricks=(cards("HK", "T5", "H4"), cards("S7", "SK", "S8"), cards("HQ", "H3", "C7")),
    seats=((ANA, BORIS, CILKA), (BORIS, CILKA, ANA), (BORIS, CILKA, ANA)),
    winners=(BORIS, CILKA, BORIS),
    opponents_extra=((1 << 54) - 1) & ~mask("HK", "T5", "H4", "S7", "SK", "S8", "HQ", "H3", "C7"),
    full=False,
    trumps=True,
    emperor=EMPEROR_ALWAYS,
    renons_called=(2,),
)


def test_tricks_until_discovery_and_the_forgotten_card_go_to_the_other_side() -> None:
    # Called after trick 2: tricks 1-2 go to Ana (her HK and S8 are the only declarer-side cards in
    # them).  Trick 3: the forgotten HQ cannot take; of H3 and C7 on a heart lead Cilka's H3 takes
    # it, but the HQ's points go to Ana.  Ana's pile: HK 5, T5 1, H4 1, S7 1, SK 5, S8 1, HQ 4 =
    # 18 raw in 7 cards: 3·18 − 2·7 = 40 thirds → 13 points.
    f = jass_trick_forfeit(tri((BORIS,)), PLAY, [revoke("Boris", 1, 1)])
    assert f.card_points is not None and f.card_points[0] == 13
    assert f.valat_side is None
    assert f.as_played == tri((BORIS,))
    assert f.penalty_note is not None
    assert "tricks 1–2 go to the declarer's side" in f.penalty_note
    assert "forgotten HQ (trick 3)" in f.penalty_note
    # Scored: Tri lost with 13: -10, difference 13 - 35 = -22 → -20, and the trula (all three in the
    # opponents' extra cards) is a silent trula of the opponents: -10.  Ana -40; Boris's line is 0.
    r = score_deal(f)
    assert r.scores == {"Ana": -40, "Boris": 0, "Cilka": 0}
    assert r.policy == "jass_trick_forfeit"
    # The hand-written as-played facts: 0 points (diff -35 stays -35), no trula side: -45.
    assert r.unpenalised == {"Ana": -10 - 35, "Boris": 0, "Cilka": 0}


def test_without_a_call_every_trick_through_the_last_is_forfeited_and_is_a_valat() -> None:
    #  1. Ana S8, Boris T4 (revoke), Cilka S7  — Boris takes it
    #  2. Boris T22, Cilka T2, Ana T21         — Boris's Škis takes Ana's Mond (a Mondfang as played)
    # No renons_called: both tricks go to Ana; trick 2 is taken by her highest card, the Mond, so no
    # Mondfang.  Every trick forfeited: a valat for the declarer's side.  Boris plays no spade later.
    play = PlayedTricks(
        tricks=(cards("S8", "T4", "S7"), cards("T22", "T2", "T21")),
        seats=((ANA, BORIS, CILKA), (BORIS, CILKA, ANA)),
        winners=(BORIS, BORIS),
        full=False,
        emperor=EMPEROR_ALWAYS,
    )
    f = jass_trick_forfeit(tri((BORIS,), mondfang=(ANA,)), play, [revoke("Boris", 1, 1)])
    assert f.valat_side == DECLARER and f.mondfang == ()
    # S8, T4, S7, T22, T2, T21: 1+1+1+5+1+5 = 14 raw in 6 cards: 42 − 12 = 30 thirds → 10.
    assert f.card_points == (10, 0)
    assert f.penalty_note is not None and "played no spades card later" in f.penalty_note
    assert "a valat for the declarer's side" in f.penalty_note
    assert score_deal(f).scores == {"Ana": 250, "Boris": 0, "Cilka": 0}  # silent valat


def test_a_forfeited_trick_keeps_the_mondfang_when_the_receivers_skis_takes_it() -> None:
    # Ana (declarer) revokes in trick 1 (T3 on a heart lead); both tricks go to the opponents.
    #  1. Boris H4, Ana T3, Cilka H3   — Ana's T3 took it; now the opponents' highest: H3 (red pips:
    #     1 > 2 > 3 > 4), Cilka's.
    #  2. Ana T21, Boris T22, Cilka T2 — the Mond falls to Boris's Škis: Ana's Mondfang stays.
    play = PlayedTricks(
        tricks=(cards("H4", "T3", "H3"), cards("T21", "T22", "T2")),
        seats=((BORIS, ANA, CILKA), (ANA, BORIS, CILKA)),
        winners=(ANA, BORIS),
        full=False,
    )
    f = jass_trick_forfeit(tri((ANA,), card_points=(3, 67), mondfang=(ANA,)), play, [revoke("Ana", 1, 1)])
    assert f.mondfang == (ANA,) and f.valat_side == OPPONENTS
    # Opponents: H4 1, T3 1, H3 1, T21 5, T22 5, T2 1 = 14 raw in 6 cards → 10; Ana nothing.
    assert f.card_points == (0, 10)
    # A valat against the declarer: -250; Ana's Mondfang is replaced by the valat; her penalty line 0.
    assert score_deal(f).scores == {"Ana": -250, "Boris": 0, "Cilka": 0}


def test_fallbacks_say_why() -> None:
    klop = DealFacts(P3, "klop", options=JASS, klop_points=(10, 20, 40), klop_tricks=(2, 5, 9), offenders=(ANA,))
    assert jass_trick_forfeit(klop, PLAY, [revoke("Ana", 1, 0)]).penalty_note == "a renons in klop"
    stash = Finding("R_STASH", "Ana stashed a king", None, None, "Ana", None)
    f = jass_trick_forfeit(tri((ANA,)), PLAY, [stash])
    assert f.as_played is None and "stash" in (f.penalty_note or "")
    both = replace(tri((BORIS, ANA)))
    f = jass_trick_forfeit(both, PLAY, [revoke("Boris", 1, 1), revoke("Ana", 2, 2)])
    assert f.as_played is None and f.penalty_note == "both sides committed a renons"
    (line,) = [ln for ln in score_deal(f).lines if ln.players == ("Boris",)]
    assert "both sides" in line.detail and line.value == -10


def test_end_to_end_on_the_follow_suit_example() -> None:
    record = json.loads((EXAMPLES / "findings" / "r_follow_suit.json").read_text())
    deal = deal_from_obj(record[0] if isinstance(record, list) else record)
    plain = replay(deal)
    forfeit = replay(deal, {"penalty": "jass_trick_forfeit"})
    assert plain.facts is not None and forfeit.facts is not None
    assert isinstance(forfeit.facts, DealFacts)
    assert forfeit.facts.penalty_note is not None
    r = score_deal(forfeit.facts)
    assert any(ln.component == "penalty" and "jass_trick_forfeit" in ln.detail for ln in r.lines)
