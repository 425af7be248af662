"""The replay viewer's steps (``dashboards.replay_model``) and their HTML (``dashboards.cards_html``),
without Streamlit: built from the example records, checked against what the records say."""

from __future__ import annotations

import orjson

from dashboards.cards_html import card_html, deal_header_html, hands_html, notes_html, trick_html
from dashboards.replay_model import FIRST_TRICK_STEP, PHASES, build_replay, display_order, step_for_finding
from tarock.cards import mask_of
from tarock.findings import Finding
from tarock.formats.codec import dumps
from tarock.formats.reader import read_records
from tests.support.paths import ROOT

EXAMPLES = ROOT / "data" / "examples"


def record(path: str, index: int = 0) -> str:
    """The canonical record (as ``deals.record`` stores it) of one example deal."""
    deals = [item.deal for item in read_records(EXAMPLES / path) if item.deal is not None]
    return dumps(deals[index])


def test_step_layout_is_fixed_so_links_need_no_replay() -> None:
    assert PHASES == ("deal", "bidding", "talon", "stash", "announcements")
    assert step_for_finding("R_FOLLOW_SUIT", 1) == FIRST_TRICK_STEP == 5
    assert step_for_finding("R_MUST_TAROK", 12) == 16
    assert step_for_finding("R_STASH", None) == 3
    assert step_for_finding("E_BID", None) == 1
    assert step_for_finding("A_SCORE_MISMATCH", None) is None  # the final step


def test_a_full_deal_has_a_step_per_phase_and_trick_and_a_score_step() -> None:
    rp = build_replay(record("seed_session.jsonl"))
    assert [s.phase for s in rp.steps] == [*PHASES, *["trick"] * 12, "score"]
    assert [s.index for s in rp.steps] == list(range(18))
    assert (rp.contract, rp.declarer, rp.partner, rp.status) == ("ena", "Cilka", "Ana", "ok")


def test_hands_are_held_in_order_and_greyed_out_as_they_are_played() -> None:
    rp = build_replay(record("seed_session.jsonl"))
    deal, trick1, trick2 = rp.steps[0], rp.steps[5], rp.steps[6]
    ana = deal.seats[0]
    # Ana's dealt hand, taroks high to low, then each suit from the king down
    assert ana.cards == ("T21", "T20", "T19", "T15", "T11", "T10", "T3", "SK", "SN", "SJ", "CK", "C10")
    assert not ana.gone
    # trick 1 is CK CN C7 C8: each card is greyed out in its player's hand from then on
    assert trick1.seats[0].gone == {"CK"} and trick1.seats[1].gone == {"CN"}
    assert trick2.seats[0].gone == {"CK", "SN"}
    assert [(p.player, p.card, p.leads, p.wins) for p in trick1.trick] == [
        ("Ana", "CK", True, True), ("Boris", "CN", False, False), ("Cilka", "C7", False, False),
        ("David", "C8", False, False)]
    assert (trick1.leader, trick1.winner) == ("Ana", "Ana")
    assert (trick2.leader, trick2.winner) == ("Ana", "David")  # T17 trumps the spades


def test_the_declarer_plays_from_the_hand_after_the_talon_exchange() -> None:
    rp = build_replay(record("seed_session.jsonl"))
    talon, stash, play = rp.steps[2], rp.steps[3], rp.steps[5]
    assert talon.talon == ("DJ", "DQ", "CQ", "T6", "T16", "C7") and talon.talon_group == 1
    assert talon.talon_taken == {"C7"}
    cilka = 2
    assert "C7" in stash.seats[cilka].cards and stash.seats[cilka].marked == {"H2"}  # H2 laid away
    assert "H2" not in play.seats[cilka].cards and "C7" in play.seats[cilka].cards


def test_a_renons_is_shown_on_its_trick_with_its_sentence() -> None:
    rp = build_replay(record("findings/r_follow_suit.json"))
    [finding] = rp.steps[5].findings
    assert finding.code == "R_FOLLOW_SUIT"
    assert finding.message == "Boris played T2 on a diamond lead while holding D1"
    assert [p.faulty for p in rp.steps[5].trick] == [False, True, False, False]
    assert not any(step.findings for step in rp.steps if step.index != 5)


def test_a_stash_renons_is_shown_on_the_stash_step() -> None:
    rp = build_replay(record("findings/r_stash.json"))
    assert [f.code for f in rp.steps[3].findings] == ["R_STASH"]


def test_audit_findings_and_a_deal_in_error_end_on_the_score_step() -> None:
    audit = Finding("A_SCORE_MISMATCH", "recorded +30 for Ana, recomputed +40", player="Ana")
    rp = build_replay(record("seed_session.jsonl"), audit=[audit])
    assert rp.steps[-1].findings == (audit,)
    broken = build_replay(record("findings/e_deck.json"))  # T5 dealt twice: nothing can be replayed
    assert broken.status == "error"
    assert [s.phase for s in broken.steps] == [*PHASES, "score"]
    assert [f.code for f in broken.steps[0].findings] == ["E_DECK"]


def test_display_order() -> None:
    assert display_order(mask_of([22, 0, 21, 53, 29, 38])) == ("T22", "T1", "HK", "H4", "S7", "CK")


def test_cards_are_drawn_with_symbols_and_numerals() -> None:
    assert ">XXI<" in card_html("T21") and ">Škis<" in card_html("T22") and ">I<" in card_html("T1")
    assert "tk-red" in card_html("HK") and ">♥<" in card_html("HK")
    assert "tk-black" in card_html("S10") and ">♠<" in card_html("S10") and ">10<" in card_html("S10")
    assert "tk-gone" in card_html("D1", gone=True)


def test_record_text_is_escaped() -> None:
    obj = orjson.loads(record("findings/r_follow_suit.json"))
    evil = '<img src=x onerror="alert(1)">'
    rename = {"Boris": evil}
    obj["players"] = [rename.get(p, p) for p in obj["players"]]
    obj["hands"] = {rename.get(p, p): cards for p, cards in obj["hands"].items()}
    obj["bidding"] = [[rename.get(p, p), bid] for p, bid in obj["bidding"]]
    rp = build_replay(orjson.dumps(obj))
    step = rp.steps[5]
    assert any(evil in f.message for f in step.findings)
    header = deal_header_html(rp, {"session": evil, "seq": 1, "source_file": evil, "source_line": 2})
    for html in (hands_html(step), trick_html(step), notes_html(step), header):
        assert evil not in html and "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in html


def test_klop_has_no_stash_step_and_links_follow_its_layout() -> None:
    rp = build_replay(record("findings/r_must_overtrump.json"))
    assert rp.contract == "klop"
    assert [s.phase for s in rp.steps[:5]] == ["deal", "bidding", "talon", "announcements", "trick"]
    assert "stash" not in [s.phase for s in rp.steps]
    assert [s.index for s in rp.steps] == list(range(len(rp.steps)))
    [marked] = [s for s in rp.steps if s.findings]
    assert marked.trick_no is not None
    # the Audit page's link arithmetic lands on the same step without replaying the deal
    assert step_for_finding("R_MUST_OVERTRUMP", marked.trick_no, "klop") == marked.index
    assert step_for_finding("R_STASH", None, "klop") is None  # no stash step: the final one
    assert step_for_finding("R_STASH", None, "dva") == 3
