"""The bundled example records trigger exactly the findings their documentation promises."""

from __future__ import annotations


import pytest

from tarock.engine import replay
from tarock.formats.reader import read_records
from tests.support.paths import ROOT

EXAMPLES = ROOT / "data" / "examples"

# file -> (codes of the first record, player of the first finding); the second record is clean.
FINDINGS = {
    "e_announce.json": ({"E_ANNOUNCE"}, "Ana"),
    "e_bid.json": ({"E_BID"}, "Cilka"),
    "e_deck.json": ({"E_DECK"}, "Boris"),  # T5 is in both hands; reported at the second
    "e_king.json": ({"E_KING"}, "Cilka"),
    "e_not_in_hand.json": ({"E_NOT_IN_HAND"}, "Ana"),
    "e_sequence.json": ({"E_SEQUENCE"}, None),
    "e_talon.json": ({"E_TALON"}, "Cilka"),
    "r_follow_suit.json": ({"R_FOLLOW_SUIT"}, "Boris"),
    "r_lead_tarok.json": ({"R_LEAD_TAROK"}, "Ana"),  # Königrufen: Farbendreier, tarock led holding S8
    "r_own_king.json": ({"R_OWN_KING"}, "Ana"),  # Königrufen: Rufer, Ana calls the DK she holds
    "r_must_overtrump.json": ({"R_MUST_OVERTRUMP"}, "Boris"),
    "r_must_tarok.json": ({"R_MUST_TAROK"}, "Boris"),
    "r_out_of_turn.json": ({"R_OUT_OF_TURN"}, "Ana"),
    "r_pagat.json": ({"R_PAGAT"}, "Cilka"),
    "r_stash.json": ({"R_STASH"}, "Cilka"),
    "w_misdeal.json": ({"W_MISDEAL"}, "Ana"),
}


@pytest.mark.parametrize("name", sorted(FINDINGS))
def test_finding_example_pair(name: str) -> None:
    items = list(read_records(EXAMPLES / "findings" / name))
    assert len(items) == 2 and all(i.deal is not None for i in items)
    codes, player = FINDINGS[name]
    bad = replay(items[0].deal)  # type: ignore[arg-type]
    assert {f.code for f in bad.findings} == codes
    assert bad.findings[0].player == player
    good = replay(items[1].deal)  # type: ignore[arg-type]
    assert good.findings == [] and good.status == "ok"


def test_every_play_finding_code_has_an_example() -> None:
    covered = set().union(*(codes for codes, _ in FINDINGS.values())) | {"E_PARSE"}
    assert covered == {"E_PARSE", "E_DECK", "E_NOT_IN_HAND", "E_SEQUENCE", "E_BID", "E_TALON", "E_KING",
                       "R_STASH", "E_ANNOUNCE", "R_FOLLOW_SUIT", "R_MUST_TAROK", "R_MUST_OVERTRUMP",
                       "R_PAGAT", "R_OUT_OF_TURN", "W_MISDEAL", "R_LEAD_TAROK", "R_OWN_KING"}


def test_parse_example_lines() -> None:
    items = list(read_records(EXAMPLES / "findings" / "e_parse.jsonl"))
    assert [(i.line, i.finding.code if i.finding else None) for i in items] == [
        (1, "E_PARSE"), (2, "E_PARSE"), (3, None)]
    assert "XYZ" in items[0].finding.message  # type: ignore[union-attr]


@pytest.mark.parametrize("name, first, winner", [
    # Seed: HK, HN, T14 (Cilka void in hearts), H4: the tarok XIV wins.
    ("seed_hearts_trick.json", ["HK", "HN", "T14", "H4"], "Cilka"),
    # Seed: Pik 10 led, everyone follows, the queen (Boris) wins.
    ("seed_pik10_trick.json", ["S10", "SQ", "S7", "S8"], "Boris"),
    # Seed: negative game, Boris and Cilka must beat, David may play low; Cilka takes it.
    ("seed_negative_must_beat.json", ["T10", "T12", "T19", "T3"], "Cilka"),
    # Seed: Škis, Mond and Pagat in one trick: the Pagat wins.
    ("seed_emperor_trick.json", ["T22", "T21", "T1", "T9"], "Cilka"),
])
def test_seed_trick_examples(name: str, first: list[str], winner: str) -> None:
    (item,) = list(read_records(EXAMPLES / name))
    rp = replay(item.deal)  # type: ignore[arg-type]
    assert rp.findings == []
    from tarock.cards import CODES

    assert [CODES[c] for c in rp.tricks[0]] == first
    assert item.deal.players[rp.winners[0]] == winner  # type: ignore[union-attr]


def test_claim_examples() -> None:
    # Ana's side takes trick 12 in the full deal, so her claim after trick 11 is sound; Boris's is not.
    sound, unsound = (replay(i.deal) for i in read_records(EXAMPLES / "claims.json"))  # type: ignore[arg-type]
    assert sound.findings == []
    assert [(f.code, f.player, f.trick) for f in unsound.findings] == [("M_BAD_CLAIM", "Boris", 12)]
    assert unsound.status == "ok"  # a misplay, not a renons: the deal is still scored
    assert unsound.facts is not None
