"""The Palčka app's rules (issue 18): each option of the preset ``palcka``, and the preset as a whole.

Every expected number is worked out by hand from docs/rules.md in the comment next to it, never copied
from the code's output.  Scoring rules are tested on hand-written DealFacts; the rules of the replay (who
leads, which contracts and kontras exist, when a Mondfang is paid) on records.
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import replace
from typing import Any

import pytest

from tarock.engine import replay
from tarock.facts import DECLARER, OPPONENTS, DealFacts
from tarock.formats.codec import deal_from_obj
from tarock.options import DEFAULT_SLOVENIAN, options_for
from tarock.rules.sessions import SessionLedger
from tarock.rules.slovenian.contracts import CONTRACTS, allowed_contract
from tarock.rules.slovenian.scoring import ScoreResult, renonce_amount, score_deal
from tarock.sim.randomplay import random_record
from tests.support.paths import ROOT

P4 = ("Ana", "Boris", "Cilka", "David")
ANA, BORIS, CILKA, DAVID = range(4)
EXAMPLES = ROOT / "data" / "examples"


def facts(contract: str, options: dict[str, Any] | None = None, **kw: Any) -> DealFacts:
    return DealFacts(players=P4, contract=contract, options=replace(DEFAULT_SLOVENIAN, **(options or {})), **kw)


def comp(result: ScoreResult, component: str) -> list[int]:
    return [line.value for line in result.lines if line.component == component]


def base() -> dict[str, Any]:
    """A clean 4-player Dva: Cilka declares, calls HK (David holds it); Ana is forehand."""
    return copy.deepcopy(json.loads((EXAMPLES / "findings" / "e_bid.json").read_text())[1])


def codes(rec: dict[str, Any], **overrides: Any) -> list[tuple[str, str | None]]:
    rp = replay(deal_from_obj(rec), overrides or None)
    return [(f.code, f.player) for f in rp.findings]


# --- silent_king_ultimo_failure ------------------------------------------------------------------------


def test_silent_king_ultimo_failure() -> None:
    # Dva won with 43: 20 + 10 = +30 for David and Ana.  The called king falls in the last trick and the
    # opponents take it.  Default: no line (+30).  Palčka: silent king ultimo failed, -10: +20 each.
    lost = facts("dva", declarer=DAVID, partner=ANA, card_points=(43, 27), king_last=OPPONENTS)
    assert score_deal(lost).scores == {"Ana": 30, "Boris": 0, "Cilka": 0, "David": 30}
    r = score_deal(replace(lost, options=replace(lost.options, silent_king_ultimo_failure=True)))
    assert comp(r, "king_ultimo") == [-10]
    assert r.scores == {"Ana": 20, "Boris": 0, "Cilka": 0, "David": 20}
    assert "silent king ultimo failed by the declarer's side: -10" in r.lines[-1].detail
    # Taken by the declarer's side it is +10 either way: 30 + 10 = 40.
    made = facts("dva", {"silent_king_ultimo_failure": True}, declarer=DAVID, partner=ANA, card_points=(43, 27),
                 king_last=DECLARER)
    assert score_deal(made).scores["David"] == 40
    # With a radelc (declarer David holds one) the -10 is doubled like every bonus: (30 - 10) × 2 = 40.
    assert score_deal(replace(lost, options=replace(lost.options, silent_king_ultimo_failure=True)),
                      {"David": 1}).scores["Ana"] == 40


# --- solo_brez_valat ------------------------------------------------------------------------------------


def test_solo_brez_valat() -> None:
    # Cilka plays Solo brez (80) and takes every trick.  Default: the game, +80.  Palčka: a valat,
    # +250 × the game kontra (here kontra ×2: +500), instead of the game.
    declarer_valat = facts("solo_brez", declarer=CILKA, card_points=(64, 6), valat_side=DECLARER,
                           kontra={"game": 2})
    assert score_deal(declarer_valat).scores["Cilka"] == 160  # 80 × 2
    on = replace(DEFAULT_SLOVENIAN, solo_brez_valat=True)
    r = score_deal(replace(declarer_valat, options=on))
    assert [(line.component, line.value) for line in r.lines] == [("valat", 500)]
    assert r.won is True and r.award_reason == "the Solo brez"
    # The opponents take every trick: -80 by default, -250 under Palčka's rule (no kontra).
    opponents_valat = facts("solo_brez", declarer=CILKA, card_points=(0, 70), valat_side=OPPONENTS)
    assert score_deal(opponents_valat).scores["Cilka"] == -80
    r = score_deal(replace(opponents_valat, options=on))
    assert r.scores == {"Ana": 0, "Boris": 0, "Cilka": -250, "David": 0} and r.won is False
    # No valat: the game as always, +80 for 40 points.
    assert score_deal(facts("solo_brez", {"solo_brez_valat": True}, declarer=CILKA,
                            card_points=(40, 30))).scores["Cilka"] == 80


# --- solo_brez_mondfang (a replay rule: the Mondfang's payers) -----------------------------------------


def _solo_brez_with_mondfang() -> dict[str, Any]:
    """A random Solo brez record in which a Mond is captured (default options)."""
    for seed in range(400):
        rec = random_record(random.Random(seed), 4, "solo_brez")
        rp = replay(deal_from_obj(rec))
        if rp.facts is not None and rp.facts.mondfang and not rp.findings:
            return rec
    raise AssertionError("no Solo brez with a Mondfang in 400 seeds")


def test_solo_brez_mondfang_off() -> None:
    # Default: a Mond captured in Solo brez costs its owner -21.  Palčka: no Mondfang in Solo brez, so
    # no payer and no line; the game line is the same.
    deal = deal_from_obj(_solo_brez_with_mondfang())
    default = replay(deal)
    assert default.facts is not None
    owner = default.facts.players[default.facts.mondfang[0]]
    assert comp(score_deal(default.facts), "mondfang") == [-21]
    off = replay(deal, {"solo_brez_mondfang": False})
    assert off.facts is not None and off.facts.mondfang == () and off.findings == []
    r = score_deal(off.facts)
    assert comp(r, "mondfang") == [] and r.scores[owner] == score_deal(default.facts).scores[owner] + 21


# --- failed_mondfang_pays -------------------------------------------------------------------------------


def test_failed_mondfang_pays_the_monds_holder() -> None:
    # Dva won with 43 (+30 for David and Ana).  Boris (an opponent) announced Mondfang; Ana holds the Mond
    # and nobody captures it.  Default: nothing.  Palčka: Ana receives 2 × 21 = +42: 30 + 42 = 72.
    kw: dict[str, Any] = dict(declarer=DAVID, partner=ANA, card_points=(43, 27),
                              announced=(("mondfang", OPPONENTS),), mond_holder=ANA)
    assert score_deal(facts("dva", **kw)).scores["Ana"] == 30
    r = score_deal(facts("dva", {"failed_mondfang_pays": True}, **kw))
    assert r.scores == {"Ana": 72, "Boris": 0, "Cilka": 0, "David": 30}
    assert comp(r, "mondfang") == [42]
    # × the Mondfang's kontra (×2 by Ana's side): +84; not doubled by a radelc: David holds one, so
    # (20 + 10) × 2 = 60 for both, and Ana 60 + 84 = 144.
    r = score_deal(facts("dva", {"failed_mondfang_pays": True}, kontra={"mondfang": 2}, **kw), {"David": 1})
    assert r.scores == {"Ana": 144, "Boris": 0, "Cilka": 0, "David": 60}
    # Made (Ana's Mond captured): -21 × 2 (announced) = -42 as always, no +42.
    made = score_deal(facts("dva", {"failed_mondfang_pays": True}, **{**kw, "mondfang": (ANA,)}))
    assert comp(made, "mondfang") == [-42]
    # The announcers held the Mond themselves, or it lay in the talon: nothing to pay.
    for holder in (BORIS, None):
        r = score_deal(facts("dva", {"failed_mondfang_pays": True}, **{**kw, "mond_holder": holder}))
        assert comp(r, "mondfang") == []


def test_failed_mondfang_replay_knows_the_holder() -> None:
    # The Dva record: Ana (an opponent of Cilka and David) announces Mondfang.  Under the option the facts
    # name the Mond's holder (whoever played it); without it they do not.
    rec = base()
    rec["announcements"] = [{"player": "Ana", "bonus": "mondfang"}]
    deal = deal_from_obj(rec)
    assert replay(deal).facts.mond_holder is None  # type: ignore[union-attr]
    rp = replay(deal, {"failed_mondfang_pays": True})
    assert rp.facts is not None and rp.facts.mond_holder is not None
    played_mond = [seats[cards.index(52)] for cards, seats in zip(rp.tricks, rp.trick_seats) if 52 in cards]
    assert played_mond == [rp.facts.mond_holder]


# --- valat_game_kontra ----------------------------------------------------------------------------------


def test_valat_game_kontra() -> None:
    # Solo tri, Cilka announces valat and makes it.  Game kontra ×2, no kontra on the valat.
    # Default: 500 × the valat's own chain (1) = 500.  Palčka: 500 × the game kontra = 1000.
    kw: dict[str, Any] = dict(declarer=CILKA, card_points=(70, 0), valat_side=DECLARER,
                              announced=(("valat", DECLARER),), kontra={"game": 2})
    assert score_deal(facts("solo_tri", **kw)).scores["Cilka"] == 500
    assert score_deal(facts("solo_tri", {"valat_game_kontra": True}, **kw)).scores["Cilka"] == 1000
    # austrian_renonce pays the announced valat at the same chain: 500 × 2.
    assert renonce_amount(facts("solo_tri", {"valat_game_kontra": True}, **kw))[0] == 1000


def test_valat_game_kontra_refuses_a_kontra_on_the_valat() -> None:
    # One chain: a kontra said on the valat itself is an E_ANNOUNCE under the option.
    rec = base()
    rec["announcements"] = [{"player": "Cilka", "bonus": "valat"}, {"player": "Ana", "kontra": "valat", "level": 2}]
    assert ("E_ANNOUNCE", "Ana") not in codes(rec)
    assert ("E_ANNOUNCE", "Ana") in codes(rec, valat_game_kontra=True)


# --- valat_announcer_leads ------------------------------------------------------------------------------


def test_valat_announcer_leads() -> None:
    # The Dva record with Cilka (the declarer, seat 2) announcing valat: forehand Ana (seat 0) leads
    # trick 1 by default; under Palčka's rule Cilka does (so the recorded trick 1 is read from her).
    rec = base()
    rec["announcements"] = [{"player": "Cilka", "bonus": "valat"}]
    assert replay(deal_from_obj(rec)).trick_seats[0][0] == ANA
    assert replay(deal_from_obj(rec), {"valat_announcer_leads": True}).trick_seats[0][0] == CILKA
    # Without a valat announcement forehand leads either way.
    assert replay(deal_from_obj(base()), {"valat_announcer_leads": True}).trick_seats[0][0] == ANA


# --- klop_kontra ----------------------------------------------------------------------------------------


def test_klop_kontra_doubles_the_klop_results() -> None:
    # Ana takes no trick (+70), Cilka has 48 points (-70); only the ±70 players score.  A kontra on the
    # Klop (×2) doubles each result: +140 and -140.
    kw: dict[str, Any] = dict(klop_points=(0, 12, 48, 10), klop_tricks=(0, 3, 7, 2))
    assert score_deal(facts("klop", **kw)).scores == {"Ana": 70, "Boris": 0, "Cilka": -70, "David": 0}
    r = score_deal(facts("klop", {"klop_kontra": True}, kontra={"game": 2}, **kw))
    assert r.scores == {"Ana": 140, "Boris": 0, "Cilka": -140, "David": 0}
    assert r.lines[0].detail.endswith("× kontra 2")
    # Ana holds a radelc (klop_radelc_double on): 140 × 2 = 280; her +70 still cancels it.
    r = score_deal(facts("klop", {"klop_kontra": True}, kontra={"game": 2}, **kw), {"Ana": 1})
    assert r.scores["Ana"] == 280 and r.cancelled == ("Ana",)


def _klop_record() -> dict[str, Any]:
    for seed in range(100):
        rec = random_record(random.Random(seed), 4, "klop")
        rp = replay(deal_from_obj(rec))
        if not rp.findings and rp.facts is not None:
            return rec
    raise AssertionError("no clean Klop in 100 seeds")


def test_klop_kontra_announcements() -> None:
    rec = _klop_record()
    rec["announcements"] = [{"player": "Boris", "kontra": "game", "level": 2}]
    # Default: no kontra in Klop.  Palčka: one kontra ×2 is allowed, by anyone, and doubles every line.
    assert codes(rec) == [("E_ANNOUNCE", "Boris")]
    assert codes(rec, klop_kontra=True) == []
    plain_facts = replay(deal_from_obj(_klop_record())).facts
    assert plain_facts is not None
    plain = score_deal(plain_facts).scores
    doubled = replay(deal_from_obj(rec), {"klop_kontra": True})
    assert doubled.facts is not None and doubled.facts.kontra == {"game": 2}
    assert score_deal(doubled.facts).scores == {name: 2 * v for name, v in plain.items()}
    # Only one: a second kontra, a re, or a kontra on anything but the Klop itself is refused.
    for extra in ({"player": "Cilka", "kontra": "game", "level": 2}, {"player": "Cilka", "kontra": "game", "level": 4}):
        rec["announcements"] = [{"player": "Boris", "kontra": "game", "level": 2}, extra]
        assert codes(rec, klop_kontra=True) == [("E_ANNOUNCE", "Cilka")]
    rec["announcements"] = [{"player": "Boris", "kontra": "valat", "level": 2}]
    assert codes(rec, klop_kontra=True) == [("E_ANNOUNCE", "Boris")]


# --- barvni_valat_3p ------------------------------------------------------------------------------------


def test_no_barvni_valat_with_3_players() -> None:
    # Palčka offers no Barvni valat with 3 players: a record that plays one is an E_BID ("Barvni valat is
    # not played with 3 players"); with 4 players it stays.
    off = replace(DEFAULT_SLOVENIAN, barvni_valat_3p=False)
    assert allowed_contract(CONTRACTS["barvni_valat"], 3) and not allowed_contract(CONTRACTS["barvni_valat"], 3, off)
    assert allowed_contract(CONTRACTS["barvni_valat"], 4, off)
    rec = random_record(random.Random(1), 3, "barvni_valat")
    rec.pop("bidding", None)
    assert all(f.code != "E_BID" for f in replay(deal_from_obj(rec)).findings)
    bid = [f for f in replay(deal_from_obj(rec), {"barvni_valat_3p": False}).findings if f.code == "E_BID"]
    assert [f.message for f in bid] == ["Barvni valat is not played with 3 players"]
    # The bidding refuses the bid too.
    rec["bidding"] = [["Boris", "barvni_valat"], ["Cilka", "pass"], ["Ana", "pass"]]
    rec["declarer"] = "Boris"
    messages = [f.message for f in replay(deal_from_obj(rec), {"barvni_valat_3p": False}).findings
                if f.code == "E_BID"]
    assert len(messages) == 2 and any("does not exist with 3 players" in m for m in messages)


# --- radelc_session_value -------------------------------------------------------------------------------


def test_radelc_session_value() -> None:
    # A won Berač gives everyone a radelc; nobody cancels one.  Session end: -100 each by default,
    # -40 each under Palčka's value.
    for value, end in ((100, -100), (40, -40)):
        ledger = SessionLedger()
        ledger.apply(facts("berac", {"radelc_session_value": value}, declarer=BORIS))
        assert ledger.close() == dict.fromkeys(P4, end)
        assert ledger.final_totals() == {"Ana": end, "Boris": 70 + end, "Cilka": end, "David": end}


# --- the preset -----------------------------------------------------------------------------------------


def test_preset_palcka() -> None:
    options = options_for("slovenian", {"preset": "palcka"})
    assert options.changed() == {
        "diff_rounding": "none", "mondfang_any_side": True, "klop_radelc_double": False,
        "klop_cancels_radelc": False, "silent_king_ultimo_failure": True, "solo_brez_valat": True,
        "solo_brez_mondfang": False, "failed_mondfang_pays": True, "valat_game_kontra": True,
        "valat_announcer_leads": True, "klop_kontra": True, "barvni_valat_3p": False, "radelc_session_value": 40,
    }
    # A record's own option beside the preset wins over it, and a command line's over both.
    assert options_for("slovenian", {"preset": "palcka", "klop_kontra": False}).klop_kontra is False
    both = options_for("slovenian", {"preset": "palcka", "klop_kontra": False},
                       {"klop_kontra": True, "radelc_session_value": 100})
    assert both.klop_kontra is True and both.radelc_session_value == 100 and both.diff_rounding == "none"
    assert options_for("slovenian", None, {"preset": "palcka"}) == options


def test_preset_palcka_on_the_seed_session() -> None:
    # The seed's four hands (docs/rules.md) under the preset, by hand:
    # 1. Ena, Cilka + Ana, 45 points: 30 + 10 (not rounded, still 10) = +40 each.
    # 2. Berač won by Boris: +70; everyone receives a radelc.
    # 3. Solo tri, Cilka (radelc), 49 points, announced trula: (40 + 14 + 20) × 2 = +148 (rounded it
    #    would be 15: 150); Cilka's radelc is cancelled.
    # 4. Dva, David + Ana (David's radelc), 34 points, announced Pagat ultimo lost:
    #    -(20 + 1 + 50) × 2 = -142 each (rounded: the difference 0, -140); the radelc stays.
    # Totals: Ana 40 - 142 = -102, Boris 70, Cilka 40 + 148 = 188, David -142.
    # Session end: Ana, Boris and David hold one radelc each: -40 each (not -100).
    ledger = SessionLedger()
    hands = []
    for line in (EXAMPLES / "seed_session.jsonl").read_text().splitlines():
        rp = replay(deal_from_obj(json.loads(line)), {"preset": "palcka"})
        assert rp.findings == [] and rp.facts is not None
        hands.append(ledger.apply(rp.facts))
    assert [r.scores for r in hands if r is not None] == [
        {"Ana": 40, "Boris": 0, "Cilka": 40, "David": 0},
        {"Ana": 0, "Boris": 70, "Cilka": 0, "David": 0},
        {"Ana": 0, "Boris": 0, "Cilka": 148, "David": 0},
        {"Ana": -142, "Boris": 0, "Cilka": 0, "David": -142},
    ]
    assert ledger.totals == {"Ana": -102, "Boris": 70, "Cilka": 188, "David": -142}
    assert ledger.close() == {"Ana": -40, "Boris": -40, "Cilka": 0, "David": -40}
    assert ledger.final_totals() == {"Ana": -142, "Boris": 30, "Cilka": 188, "David": -182}


def test_the_score_sheet_charges_the_presets_session_end() -> None:
    # `tarock score` under the preset: the same seed session (see the test above, worked by hand) ends with
    # -40 per open radelc (Ana, Boris, David one each), so the final row is -142, 30, 188, -182, and the
    # legend says -40.
    from tarock.check.sheet import build_sheets
    from tarock.check.sheet_render import legend
    from tarock.formats.reader import read_records

    sheets, bad = build_sheets(read_records(EXAMPLES / "seed_session.jsonl"), {"preset": "palcka"})
    assert not bad and len(sheets) == 1
    assert sheets[0].session_end == {"Ana": -40, "Boris": -40, "Cilka": 0, "David": -40}
    assert sheets[0].final == {"Ana": -142, "Boris": 30, "Cilka": 188, "David": -182}
    assert "Session end: -40 for each radelc" in legend(sheets).plain
    default, _ = build_sheets(read_records(EXAMPLES / "seed_session.jsonl"))
    assert "Session end: -100 for each radelc" in legend(default).plain
