"""Table events of docs/penalties.md ("Table events": out of turn, two cards, missing card): ``tarock.rules.events``.

The examples (data/examples/events.json) are the clean deal seed_pik10_trick.json (Tri by Ana, partner
Cilka with the called CK) with one event each.  As played, trick 12 is Boris DJ (led), Cilka CK, David HQ,
Ana T10: Ana's tarok X takes it.  Each event makes the T10 powerless in trick 12, so the highest card of the
led suit, Boris's DJ, takes it: the trick (DJ 2 + CK 5 + HQ 4 + T10 1, counted 12 - 4 * 2/3 = 9 1/3) moves
from Ana's side (26 -> 17) to the opponents (44 -> 53); the called king is now won in the last trick by
the opponents.
"""

from __future__ import annotations

import json
from dataclasses import replace

from tarock.rules import events
from tarock.cards import CODES, mask_of
from tarock.deal import Event
from tarock.engine import replay
from tarock.facts import DECLARER, OPPONENTS
from tarock.formats.codec import deal_from_obj
from tarock.formats.reader import read_records
from tarock.rules.slovenian.contracts import CONTRACTS
from tests.support.paths import ROOT

EXAMPLES = ROOT / "data" / "examples"


def card(code: str) -> int:
    return CODES.index(code)


def base_deal():  # type: ignore[no-untyped-def]
    (item,) = list(read_records(EXAMPLES / "seed_pik10_trick.json"))
    return item.deal


def test_each_event_example_moves_trick_12() -> None:
    plain = replay(base_deal())
    assert plain.card_points == {"declarer_side": 26, "opponents": 44}
    assert plain.winners[-1] == 0  # Ana's T10
    ids = []
    for item in read_records(EXAMPLES / "events.json"):
        rp = replay(item.deal)  # type: ignore[arg-type]
        ids.append(item.deal.id)  # type: ignore[union-attr]
        assert rp.findings == []  # the missing card is no E_SEQUENCE
        assert [CODES[c] for c in rp.tricks[-1]] == ["DJ", "CK", "HQ", "T10"]
        assert rp.winners[:-1] == plain.winners[:-1]
        assert rp.winners[-1] == 1  # Boris's DJ: the T10 cannot take
        assert rp.card_points == {"declarer_side": 17, "opponents": 53}
        assert rp.facts is not None and rp.facts.card_points == (17, 53)
        assert rp.facts.king_last == OPPONENTS and plain.facts is not None and plain.facts.king_last == DECLARER
    assert ids == ["example-event-out-of-turn", "example-event-two-cards", "example-event-missing-card"]


def test_a_record_without_events_has_no_plan_and_is_unchanged() -> None:
    deal = base_deal()
    assert events.plan(deal, CONTRACTS["tri"]) is None
    other = replace(deal, events=(Event("renons_called", after_trick=3),))
    assert events.plan(other, CONTRACTS["tri"]) is None
    a, b = replay(deal), replay(other)
    assert (a.winners, a.card_points, a.findings) == (b.winners, b.card_points, b.findings)


def test_events_do_not_apply_in_klop_or_berac() -> None:
    deal = replace(base_deal(), events=(Event("out_of_turn", player="Ana", trick=12),))
    assert events.plan(deal, CONTRACTS["klop"]) is None
    assert events.plan(deal, CONTRACTS["berac"]) is None
    assert events.plan(deal, CONTRACTS["tri"]) is not None


def test_out_of_turn_demotes_only_that_trick() -> None:
    # Ana out of turn in trick 1 (her S10, which does not take it anyway: Boris's SQ does): nothing changes.
    deal = replace(base_deal(), events=(Event("out_of_turn", player="Ana", trick=1),))
    assert replay(deal).winners == replay(base_deal()).winners


def test_two_cards_before_the_card_is_played_only() -> None:
    # The T10 was underneath in trick 12 itself? It is played there: powerless from trick 12 on -> Boris.
    deal = replace(base_deal(), events=(Event("two_cards", player="Ana", trick=12, card=card("T10")),))
    assert replay(deal).winners[-1] == 1
    d = events.plan(deal, CONTRACTS["tri"])
    assert d is not None
    # in trick 11 the same card would still take (the event is in trick 12)
    assert d.weak(11, (card("T10"),), (0,)) == 0 and d.weak(12, (card("T10"),), (0,)) == 1


def test_missing_card_without_the_event_is_still_a_sequence_error() -> None:
    obj = json.loads((EXAMPLES / "events.json").read_text())[2]
    del obj["events"]
    rp = replay(deal_from_obj(obj))
    assert "E_SEQUENCE" in [f.code for f in rp.findings]
    # an event naming a card the player did play does not complete the trick either
    obj["events"] = [{"event": "missing_card", "player": "Ana", "card": "T4"}]
    assert "E_SEQUENCE" in [f.code for f in replay(deal_from_obj(obj)).findings]


def test_resolve_by_hand() -> None:
    s10, sq, s7, s8 = (card(c) for c in ("S10", "SQ", "S7", "S8"))
    # Pik 10 led, SQ (position 1) powerless: the S10 is the highest spade left.
    assert events.resolve((s10, sq, s7, s8), 0b0010, True, 0) == 0
    # The led card powerless and nobody follows or trumps: the first card that can take (position 1).
    hk, d1, c7 = card("HK"), card("D1"), card("C7")
    assert events.resolve((hk, d1, c7), 0b001, True, 0) == 1
    # Škis, Mond, Pagat: the emperor trick needs all three able to take; Mond powerless -> Škis wins.
    t22, t21, t1 = card("T22"), card("T21"), card("T1")
    assert events.resolve((t22, t21, t1), 0, True, 1) == 2
    assert events.resolve((t22, t21, t1), 0b010, True, 1) == 0


def test_missing_card_goes_to_the_other_side() -> None:
    d = events.Demotions(missing=((1, card("DJ")),))  # Boris (an opponent) lost the DJ
    side = {0: DECLARER, 1: OPPONENTS, 2: DECLARER, 3: OPPONENTS}.__getitem__
    bit = mask_of((card("DJ"),))
    dp, op = events.move_missing(d, side, DECLARER, 0, bit)
    assert (dp, op) == (bit, 0)
    assert events.move_missing(None, side, DECLARER, 0, bit) == (0, bit)
