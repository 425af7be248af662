"""The ``hands`` table against a deal counted by hand, on both ingest paths.

The deal is ``data/examples/seed_hearts_trick.json`` (4 players, Ana plays Tri, calls the king of
clubs, which David holds, and takes H3 S7 T20 from the talon).  Every expected value below is counted
from the record's hands with the card values of docs/rules.md (trula cards and kings 5, queens 4,
knights 3, jacks 2, every other card 1) and the pile counting of ``tarock.cards.counted_points``
(values less ⅔ per card: a 12-card hand is its values less 8), not taken from the code.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import orjson
import pytest

from ingest import bulk
from ingest.bulk import BulkPath
from ingest.config import IngestOptions
from ingest.discover import discover
from ingest.store import attach_generation
from ingest.pipeline import process_shard
from ingest.shards import plan_shards
from tarock import accel
from tests.support.paths import ROOT

DEAL = ROOT / "data" / "examples" / "seed_hearts_trick.json"

# Bits of tarock/cards.py: tarok n is card n-1; hearts 22..29 in the order 4 3 2 1 J N Q K, diamonds 30..37
# the same, spades 38..45 in the order 7 8 9 10 J N Q K, clubs 46..53 the same.
# Ana: T2=1 T18=17 T19=18, H2=24 HQ=28 HK=29, D2=32 DN=35, S8=39 SJ=42 SN=43, C8=47.
ANA_MASK = sum(1 << bit for bit in (1, 17, 18, 24, 28, 29, 32, 35, 39, 42, 43, 47))

EXPECTED: dict[str, dict[str, Any]] = {
    # Ana: T2 T18 T19 | H2 HQ HK | D2 DN | S8 SJ SN | C8.  Three taroks, of them T18 and T19 from XV up; no
    # trula card, so 1 point each: 3.  One king (HK).  Clubs a singleton.  Values: taroks 3, H2 1 + HQ 4 +
    # HK 5, D2 1 + DN 3, S8 1 + SJ 2 + SN 3, C8 1 = 24, counted 24 - 8 = 16.  She declared: took H3 S7 T20,
    # values 3, counted 3 - 2 = 1; the called king CK is in David's hand: a partner's.
    "Ana": dict(seat_no=0, declarer=True, hand_mask=ANA_MASK, n_cards=12, taroks=3, high_taroks=2,
                tarok_points=3, pagat=False, mond=False, skis=False, trula_cards=0, kings=1, hearts=3,
                diamonds=2, spades=3, clubs=1, voids=0, singletons=1, card_points=16, talon_taken=3,
                talon_points=1, called_king_place="partner"),
    # Boris: T4 T10 T15 | HJ HN | D4 D3 DK | S9 SK | C7 CJ.  Three taroks (T15 from XV up), 3 points; kings
    # DK SK.  No suit of 0 or 1 card.  Values 3 + 5 + 7 + 6 + 3 = 24, counted 16.
    "Boris": dict(seat_no=1, declarer=False, n_cards=12, taroks=3, high_taroks=1, tarok_points=3, pagat=False,
                  mond=False, skis=False, trula_cards=0, kings=2, hearts=2, diamonds=3, spades=2, clubs=2,
                  voids=0, singletons=0, card_points=16, talon_taken=None, talon_points=None,
                  called_king_place=None),
    # Cilka: T1 T3 T5 T6 T8 T14 T17 T21 | DJ | S10 | C9 CN.  Eight taroks, T17 and T21 from XV up; Pagat and
    # Mond 5 each + six others 1 = 16.  No heart: one void; diamonds and spades singletons.  Values
    # 16 + 2 + 1 + 1 + 3 = 23, counted 15.
    "Cilka": dict(seat_no=2, declarer=False, n_cards=12, taroks=8, high_taroks=2, tarok_points=16, pagat=True,
                  mond=True, skis=False, trula_cards=2, kings=0, hearts=0, diamonds=1, spades=1, clubs=2,
                  voids=1, singletons=2, card_points=15, talon_taken=None, talon_points=None,
                  called_king_place=None),
    # David: T7 T9 T11 T13 T22 | H4 H1 | D1 DQ | SQ | C10 CK.  Five taroks, Škis from XV up; Škis 5 + four
    # others = 9.  King CK.  Spades a singleton.  Values 9 + 2 + 5 + 4 + 6 = 26, counted 18.
    "David": dict(seat_no=3, declarer=False, n_cards=12, taroks=5, high_taroks=1, tarok_points=9, pagat=False,
                  mond=False, skis=True, trula_cards=1, kings=1, hearts=2, diamonds=2, spades=1, clubs=2,
                  voids=0, singletons=1, card_points=18, talon_taken=None, talon_points=None,
                  called_king_place=None),
}
# the four hands (16 + 16 + 15 + 18 = 65) and the talon (H3 S7 T20 CQ T12 T16: values 9, counted 9 - 4 = 5)
# make the deck's 70: the counting is the deal's.


def _hands(tmp_path: Path) -> list[dict[str, Any]]:
    source = tmp_path / "in"
    source.mkdir()
    # one line of JSONL: the form the bulk path reads (a .json file is read whole, the usual way)
    (source / "deal.jsonl").write_bytes(orjson.dumps(orjson.loads(DEAL.read_bytes())) + b"\n")
    store = tmp_path / "store"
    options = IngestOptions.make({})
    for shard in plan_shards(discover([source]), options.generation, 100):
        process_shard(shard, str(store), options)
    # through the store's view: the files hold the masks, the view counts them (ingest.schema.COMPUTED_COLUMNS)
    con = duckdb.connect()
    attach_generation(con, store, options.generation, "g")
    rows: list[dict[str, Any]] = con.sql("SELECT * FROM g.hands ORDER BY seat_no").pl().to_dicts()
    return rows


@pytest.mark.parametrize("reference", [False, True], ids=["bulk path", "reference engine"])
def test_the_hands_of_a_deal_counted_by_hand(tmp_path: Path, reference: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if reference:
        with accel.reference():
            rows = _hands(tmp_path)
    else:
        if bulk.BULKROWS is None:
            pytest.skip("the bulk path's extension is not built (tests/accel/test_built.py says why)")
        added: list[bool] = []
        add = BulkPath.add
        monkeypatch.setattr(BulkPath, "add", lambda self, plain: added.append(add(self, plain)) or added[-1])
        rows = _hands(tmp_path)
        assert added == [True]  # the deal took the bulk path: its entry is the C extension's
    assert [row["player"] for row in rows] == ["Ana", "Boris", "Cilka", "David"]
    for row in rows:
        expected = EXPECTED[row["player"]]
        assert {key: row[key] for key in expected} == expected, row["player"]
        assert row["deal_id"] == "example-seed-hearts-trick"
        assert (row["ruleset"], row["n_players"]) == ("slovenian", 4)
