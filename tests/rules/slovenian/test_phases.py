"""The phases before and around the play: bidding, king call, talon, stash, announcements,
inferred hands, contracts decided early, 3 players."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from tarock.engine import replay
from tarock.formats.codec import deal_from_obj
from tests.test_engine_properties import oracle_game
from tests.support.paths import ROOT

EXAMPLES = ROOT / "data" / "examples"


def base() -> dict[str, Any]:
    """A clean 4-player Dva: Cilka declares, calls HK (David holds it), takes DQ CK, lays away H3 HQ."""
    return copy.deepcopy(json.loads((EXAMPLES / "findings" / "e_bid.json").read_text())[1])


def codes(rec: dict[str, Any], **overrides: Any) -> list[tuple[str, str | None]]:
    rp = replay(deal_from_obj(rec), overrides or None)
    return [(f.code, f.player) for f in rp.findings]


def test_base_record_is_clean() -> None:
    rp = replay(deal_from_obj(base()))
    assert rp.findings == []
    assert rp.deal.players[rp.partner] == "David"  # type: ignore[index]


@pytest.mark.parametrize("bidding, expected", [
    # forehand_last: Boris, Cilka, David speak before Ana
    ([["Boris", "pass"], ["Cilka", "dva"], ["David", "pass"], ["Ana", "pass"]], []),
    # Boris bids Dva; Cilka (lower priority) may not match it
    ([["Boris", "dva"], ["Cilka", "dva"], ["David", "pass"], ["Ana", "pass"]], [("E_BID", "Cilka")]),
    # Cilka speaks first although Boris's turn
    ([["Cilka", "dva"], ["Boris", "pass"], ["David", "pass"], ["Ana", "pass"]], [("E_BID", "Cilka")]),
    # Tri is forehand's alone
    ([["Boris", "pass"], ["Cilka", "tri"], ["David", "pass"], ["Ana", "pass"]], [("E_BID", "Cilka")]),
    # Cilka bids Dva, Ana (forehand, higher priority) matches, Cilka raises to Ena: the record's Dva
    # is then not what the bidding gives
    ([["Boris", "pass"], ["Cilka", "dva"], ["David", "pass"], ["Ana", "dva"], ["Cilka", "ena"], ["Ana", "pass"]],
     [("E_BID", None)]),
    # a passed player may not come back
    ([["Boris", "pass"], ["Cilka", "dva"], ["David", "pass"], ["Ana", "pass"], ["Boris", "ena"]],
     [("E_BID", "Boris")]),
])
def test_bidding(bidding: list[list[str]], expected: list[tuple[str, str | None]]) -> None:
    rec = base()
    rec["bidding"] = bidding
    assert codes(rec) == expected


def test_bidding_forehand_first_option() -> None:
    rec = base()
    # forehand speaks first and may pass; the others then bid in seat order
    rec["bidding"] = [["Ana", "pass"], ["Boris", "pass"], ["Cilka", "dva"], ["David", "pass"]]
    assert codes(rec, bidding_order="forehand_first") == []
    # by default forehand speaks last: Ana speaking first is out of turn
    assert codes(rec)[0] == ("E_BID", "Ana")


def test_forehand_first_keeps_the_klop_choice_after_passing() -> None:
    rec = json.loads((EXAMPLES / "seed_negative_must_beat.json").read_text())
    rec["bidding"] = [["Ana", "pass"], ["Boris", "pass"], ["Cilka", "pass"], ["David", "pass"], ["Ana", "klop"]]
    assert codes(rec, bidding_order="forehand_first") == []
    # under forehand_last the same words have Ana speaking out of turn
    assert ("E_BID", "Ana") in codes(rec)


def test_declarer_taken_from_bidding_when_absent() -> None:
    rec = base()
    del rec["declarer"]
    rp = replay(deal_from_obj(rec))
    assert rp.findings == [] and rp.deal.players[rp.declarer] == "Cilka"  # type: ignore[index]


def test_king_calls() -> None:
    rec = base()
    rec["called_king"] = "HQ"
    assert codes(rec) == [("E_KING", "Cilka")]
    rec = base()
    del rec["called_king"]
    assert codes(rec) == [("E_KING", "Cilka")]
    # calling a king she holds herself is allowed in Slovenian Tarok: she plays alone
    rec = base()
    rec["called_king"] = "DK"  # in Cilka's hand
    rp = replay(deal_from_obj(rec))
    assert rp.findings == [] and rp.partner is None


def test_called_king_in_talon_means_no_partner() -> None:
    rec = base()
    rec["called_king"] = "CK"  # lies in the talon (and Cilka even takes it)
    rp = replay(deal_from_obj(rec))
    assert rp.findings == [] and rp.partner is None


def test_talon_pick_must_be_a_group() -> None:
    rec = base()
    rec["talon_pick"] = ["CK", "T11"]  # cards 2 and 3 of the talon: straddles two pairs
    rec["stash"] = ["H3", "HQ"]
    found = {c for c, _ in codes(rec)}
    assert "E_TALON" in found
    rec = base()
    rec["talon_pick"] = ["DQ", "C7"]  # C7 is David's, not in the talon
    assert ("E_TALON", "Cilka") in codes(rec)


def test_stash_rules() -> None:
    rec = base()
    rec["stash"] = ["H3"]  # one card laid away after taking two
    assert ("R_STASH", "Cilka") in codes(rec)
    # Cilka lays away the tarok T3 while she still holds plain suit cards (e.g. S8): renons
    rec = base()
    rec["stash"] = ["H3", "T3"]
    found = codes(rec)
    assert found[0] == ("R_STASH", "Cilka")
    rp = replay(deal_from_obj(rec))
    assert "laid away the tarok T3 while still holding the suit card" in rp.findings[0].message


def test_no_talon_exchange_in_berac() -> None:
    rec = base()
    rec["contract"] = "berac"
    rec["bidding"] = [["Boris", "pass"], ["Cilka", "berac"], ["David", "pass"], ["Ana", "pass"]]
    del rec["called_king"]
    found = {c for c, _ in codes(rec)}
    assert "E_TALON" in found


@pytest.mark.parametrize("announcements, expected", [
    ([{"player": "Cilka", "bonus": "trula"}], []),
    ([{"player": "David", "bonus": "kings"}], []),  # the partner announces for the side
    ([{"player": "Ana", "bonus": "valat"}], [("E_ANNOUNCE", "Ana")]),  # defenders do not announce valat
    ([{"player": "Cilka", "bonus": "mondfang"}], [("E_ANNOUNCE", "Cilka")]),  # Mondfang is the defenders'
    ([{"player": "Cilka", "bonus": "pagat_ultimo"}], [("E_ANNOUNCE", "Cilka")]),  # Ana holds the Pagat
    ([{"player": "Ana", "bonus": "pagat_ultimo"}], []),
    ([{"player": "Ana", "kontra": "game", "level": 2}], []),  # defenders say kontra on the game
    ([{"player": "Cilka", "kontra": "game", "level": 2}], [("E_ANNOUNCE", "Cilka")]),
    ([{"player": "Ana", "kontra": "game", "level": 2}, {"player": "David", "kontra": "game", "level": 4}], []),
    ([{"player": "Ana", "kontra": "game", "level": 4}], [("E_ANNOUNCE", "Ana")]),  # re before kontra
    ([{"player": "Cilka", "bonus": "trula"}, {"player": "Ana", "kontra": "trula", "level": 2}],
     [("E_ANNOUNCE", "Ana")]),  # trula cannot be kontra'd
    ([{"player": "Ana", "kontra": "pagat_ultimo", "level": 2}], [("E_ANNOUNCE", "Ana")]),  # not announced
])
def test_announcements(announcements: list[dict[str, Any]], expected: list[tuple[str, str]]) -> None:
    rec = base()
    rec["announcements"] = announcements
    assert codes(rec) == expected


def test_hands_inferred_from_the_play() -> None:
    rec = base()
    del rec["hands"]
    rp = replay(deal_from_obj(rec))
    assert rp.findings == []
    assert replay(deal_from_obj(base())).card_points == rp.card_points


def test_hands_absent_and_play_stopping_early_is_a_deck_error() -> None:
    rec = base()
    del rec["hands"]
    rec["tricks"] = rec["tricks"][:5]
    assert [c for c, _ in codes(rec)] == ["E_DECK"]


def test_record_stopping_early_without_reason() -> None:
    rec = base()
    rec["tricks"] = rec["tricks"][:11]
    assert codes(rec) == [("E_SEQUENCE", None)]


def berac_game(seed: int) -> tuple[dict[str, Any], int]:
    """A Berač the declarer loses at some trick, and the trick (1-based) where it was decided."""
    rng = random.Random(seed)
    while True:
        rec, _ = oracle_game(rng, 4, "berac")
        deal = deal_from_obj(rec)
        rp = replay(deal)
        taken = [i + 1 for i, w in enumerate(rp.winners) if w == rp.declarer]
        if taken and taken[0] < 12:
            return rec, taken[0]


def test_berac_decided_early_may_stop_at_the_deciding_trick() -> None:
    rec, decided = berac_game(3)
    rec["tricks"] = rec["tricks"][:decided]
    rp = replay(deal_from_obj(rec))
    assert rp.findings == []
    assert rp.facts is not None and rp.facts.declarer_took_trick
    assert rp.facts.decided_early == decided


def test_plays_after_the_decision_are_still_checked() -> None:
    # A Berač decided at trick d, with one illegal card injected in a later trick: still a renons.
    for seed in range(500):
        bad, expected = oracle_game(random.Random(f"after-{seed}"), 4, "berac", illegal_at=40)
        if expected is None:
            continue
        rp = replay(deal_from_obj(bad))
        taken = [i + 1 for i, w in enumerate(rp.winners) if w == rp.declarer]
        if not taken or taken[0] >= expected["trick"]:
            continue  # the declarer had not yet taken a trick when the card was played
        assert [(f.code, f.trick) for f in rp.findings] == [(expected["code"], expected["trick"])]
        return
    pytest.fail("no Berač with an illegal card after the deciding trick was generated")


def test_three_player_deal() -> None:
    rng = random.Random(5)
    rec, _ = oracle_game(rng, 3, "tri")
    rp = replay(deal_from_obj(rec))
    assert rp.findings == [] and rp.partner is None and len(rp.tricks) == 16
    bad = copy.deepcopy(rec)
    bad["contract"] = "solo_tri"
    assert [c for c, _ in codes(bad)][0] == "E_BID"  # no Solo tri with 3 players
    bad = copy.deepcopy(rec)
    bad["called_king"] = "HK"
    assert ("E_KING", None) in codes(bad)


def test_misdeal_is_a_warning_only() -> None:
    rp = replay(deal_from_obj(json.loads((EXAMPLES / "findings" / "w_misdeal.json").read_text())[0]))
    assert rp.status == "ok" and [f.code for f in rp.findings] == ["W_MISDEAL"]
    assert rp.facts is not None  # still scored
