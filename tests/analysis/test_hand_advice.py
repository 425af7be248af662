"""``tarock advise`` with play-outs beside the club's estimate (``analysis.hand_advice``), on the bundled 4-player
sample and on an empty store: every contract the table may declare gets a figure, an extreme hand reads the
play-outs, the shrinkage is the weighted mean it says it is, the store's hands like this one are counted as a
plain filter counts them, and ``--deal`` says what the player bid and how it went.
"""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import polars as pl
import pytest
from typer.testing import CliRunner

from analysis import hand_fit
from analysis.hand_advice import PRIOR_DEALS, _club
from analysis.hand_model import hand_features
from analysis.advise import parse_hand
from analysis.similar_hands import similar_record
from analysis.store import Store
from ingest.coordinator import run_ingest
from tarock.cli import app
from tarock.sim.koenigrufen_playouts import biddable as kr_biddable
from tarock.sim.playouts import biddable
from tests.support.sample_store import fitted_sample_store

STRONG = "T22 T21 T20 T19 T18 T17 T16 T15 HK DK SK CK"
"""The eight highest taroks and all four kings: before issue 37 the sample's model gave it Tri 79.6 %, below its
Ena, and no figure for any solo, Berač or Valat."""
MIDDLING = "T21 T20 T15 T12 T8 T5 HK H3 DQ S7 C9 CK"
"""Six taroks (two from XV up), two kings: a hand the sample holds many like."""
DECLARED_4P = [c.name for c in biddable(4)]


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("hand_advice")
    (base / "none").mkdir()
    run_ingest([base / "none"], base / "empty", "local:1")
    return {"sample": fitted_sample_store(base / "sample", "sample-4p.jsonl.gz", 100), "empty": base / "empty"}


def advise_json(store: Path, *args: str) -> dict[str, object]:
    result = CliRunner().invoke(app, ["advise", *args, "--store", str(store), "-f", "json"])
    assert result.exit_code == 0, result.output
    body: dict[str, object] = json.loads(result.output)
    return body


@pytest.mark.parametrize("which", ["sample", "empty"])
def test_every_contract_gets_a_figure(stores: dict[str, Path], which: str) -> None:
    body = advise_json(stores[which], *STRONG.split())
    rows = body["contracts"]
    assert isinstance(rows, list)
    assert sorted(row["contract"] for row in rows) == sorted(DECLARED_4P)
    for row in rows:
        assert row["playouts"]["playouts"] >= 100 and row["club"] is not None, row["contract"]
        assert 0 <= row["club"]["low"] <= row["club"]["win_probability"] <= row["club"]["high"] <= 1
    scores = [row["club"]["expected_score"] for row in rows]
    assert scores == sorted(scores, reverse=True)
    about = body["about"]
    assert isinstance(about, dict) and about["playouts"].startswith("Play-outs:") and about["club"].startswith("Club:")
    if which == "empty":  # nothing stored: no model, no hands like this one, the club's figure is the play-outs'
        for row in rows:
            assert row["model"]["win_probability"] is None and row["record"]["deals"] == 0
            assert row["club"]["weight"] == 0
            assert row["club"]["win_probability"] == row["playouts"]["win_probability"]


def test_a_three_player_hand_gets_the_eight_contracts_of_its_table(stores: dict[str, Path]) -> None:
    hand = "T21 T20 T19 T15 T12 T8 T5 T2 HK H3 DQ DK S7 C9 CK C10"  # sixteen cards: a 3-player hand
    rows = advise_json(stores["sample"], "--players", "3", *hand.split())["contracts"]
    assert isinstance(rows, list)
    # RULES.md: no solos at 3 players, Klop nobody's to declare; the 4-player fixture holds no 3-player deal, so
    # every figure is the play-outs'
    assert sorted(row["contract"] for row in rows) == sorted(c.name for c in biddable(3))
    assert all(row["club"]["weight"] == 0 and row["playouts"]["playouts"] >= 100 for row in rows)


def test_an_extreme_hand_reads_the_play_outs(stores: dict[str, Path]) -> None:
    rows = {row["contract"]: row for row in advise_json(stores["sample"], *STRONG.split())["contracts"]}  # type: ignore[union-attr]
    # no declarer of the sample held the eight top taroks with four kings, or anything within one tarok of it
    assert all(row["record"]["deals"] == 0 for row in rows.values())
    for name in ("tri", "dva", "ena", "solo_tri", "solo_dva", "solo_ena"):
        assert rows[name]["club"]["win_probability"] >= 0.95, name
    assert rows["tri"]["model"]["win_probability"] < rows["ena"]["model"]["win_probability"]  # the model alone errs


def test_the_club_figure_is_the_stores_shrunk_toward_the_play_outs() -> None:
    model = {"win_probability": 0.8, "low": 0.7, "high": 0.9, "expected_score": 40.0}
    playout = {"win_probability": 0.6, "low": 0.5, "high": 0.7, "expected_score": 20.0, "playouts": 400}
    record = {"deals": PRIOR_DEALS, "wins": 30, "win_rate": 0.6, "low": 0.46, "high": 0.72, "mean_score": 10.0}
    # PRIOR_DEALS hands like this one: weight ½, half way between the model's figures and the play-outs'
    assert _club(model, record, playout) == pytest.approx(
        {"win_probability": 0.7, "low": 0.6, "high": 0.8, "expected_score": 30.0, "weight": 0.5})
    # no model for the contract: the record of those deals stands in for it, 3·PRIOR_DEALS of them weigh ¾
    no_model = dict.fromkeys(model) | {"deals": 0}
    record = record | {"deals": 3 * PRIOR_DEALS, "wins": 90}
    assert _club(no_model, record, playout) == pytest.approx(
        {"win_probability": 0.75 * 0.6 + 0.25 * 0.6, "low": 0.75 * 0.46 + 0.25 * 0.5,
         "high": 0.75 * 0.72 + 0.25 * 0.7, "expected_score": 0.75 * 10 + 0.25 * 20, "weight": 0.75})
    # nothing stored: the play-outs alone; no play-outs (Königrufen): the store alone; neither: no figure
    nothing = {"deals": 0, "wins": 0, "win_rate": None, "low": None, "high": None, "mean_score": None}
    assert _club(no_model, nothing, playout) == {"win_probability": 0.6, "low": 0.5, "high": 0.7,
                                                 "expected_score": 20.0, "weight": 0.0}
    assert _club(model, nothing, None) == model | {"weight": 1.0}
    assert _club(no_model, nothing, None) is None


def test_hands_like_this_one_counted_as_a_filter_counts_them(stores: dict[str, Path]) -> None:
    features = hand_features(parse_hand([MIDDLING], "slovenian", 4))
    with Store(stores["sample"]) as store:
        got = similar_record(store, features, "slovenian", 4)
        frame = hand_fit.training_frame(store)
    alike = frame.filter((pl.col("kings") == features["kings"]) & ((pl.col("taroks") - features["taroks"]).abs() <= 1)
                         & ((pl.col("high_taroks") - features["high_taroks"]).abs() <= 1))
    want = alike.group_by("contract").agg(deals=pl.len(), wins=pl.col("won").sum()).sort("contract")
    assert got.select("contract", "deals", "wins").rows() == want.select("contract", "deals", "wins").rows()
    assert got["deals"].sum() > 100  # a common hand: the sample holds many like it


def test_a_stored_deal_says_what_the_player_bid_and_how_it_went(stores: dict[str, Path]) -> None:
    with Store(stores["sample"]) as store:
        deal_id, record_text = store.query(
            "SELECT deal_id, record FROM deals WHERE declarer IS NOT NULL AND status = 'ok' AND won "
            "ORDER BY deal_id LIMIT 1").row(0)
    record = orjson.loads(record_text)
    declarer = record["declarer"]
    bids = [bid for player, bid in record["bidding"] if player == declarer]  # the record itself, not the store
    body = advise_json(stores["sample"], "--deal", deal_id, "--player", declarer)
    deal = body["deal"]
    assert isinstance(deal, dict)
    assert deal["bids"] == bids and deal["contract"] == record["contract"] and deal["won"] is True
    assert deal["score"] == record["recorded"]["scores"][declarer]  # a clean deal: the sheet says what we score
    assert f"{declarer} declared" in deal["said"] and ": won" in deal["said"]
    text = CliRunner().invoke(app, ["advise", "--deal", deal_id, "--player", declarer, "--store",
                                    str(stores["sample"])]).output
    assert deal["said"] in " ".join(text.split())


@pytest.fixture(scope="module")
def koenigrufen_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return fitted_sample_store(tmp_path_factory.mktemp("hand_advice_kr"), "sample-kr.jsonl.gz", 100)


@pytest.mark.parametrize("which", ["sample", "empty"])
def test_every_koenigrufen_game_the_hand_may_declare_gets_a_figure(
        stores: dict[str, Path], koenigrufen_store: Path, which: str) -> None:
    # before, every Königrufen game read "no estimate": the simulator played no Königrufen hand out
    store = koenigrufen_store if which == "sample" else stores["empty"]
    for hand in (MIDDLING, STRONG):
        rows = advise_json(store, "--ruleset", "koenigrufen", *hand.split())["contracts"]
        assert isinstance(rows, list)
        assert sorted(row["contract"] for row in rows) == sorted(c.name for c in kr_biddable(parse_mask(hand)))
        for row in rows:
            assert row["playouts"]["playouts"] >= 100 and row["club"] is not None, row["contract"]
            assert 0 <= row["club"]["low"] <= row["club"]["win_probability"] <= row["club"]["high"] <= 1
    # the four kings with eight top taroks: the Dreier is won, whatever the club's few deals say
    strong = {row["contract"]: row for row in advise_json(store, "--ruleset", "koenigrufen", *STRONG.split())[
        "contracts"]}  # type: ignore[union-attr]
    assert strong["dreier"]["club"]["win_probability"] >= 0.9


def parse_mask(text: str) -> int:
    """A hand's cards as a mask."""
    return sum(1 << card for card in parse_hand(text.split(), "koenigrufen", 4))
