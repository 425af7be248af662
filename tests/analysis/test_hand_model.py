"""The hand model and ``tarock advise``: fitted on the bundled 4-player sample, asked about fixed hands.

The model must rank a strong hand above a weak one in Solo, beat the contract's base rate on held-out
deals where it has the most of them, be saved beside the store with what it was fitted on and be read
back from there, and refuse hands that are no hands.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analysis import hand_fit, hand_model
from analysis.advise import parse_hand
from analysis.store import Store
from tarock.cards import CODES, card_text, cards_of
from tarock.cli import app
from tests.support.sample_store import fitted_sample_store

STRONG = "T22 T21 T20 T19 T18 T17 T16 T15 HK DK SK CK"
"""Škis, Mond and the six taroks below Mond down to XV, and all four kings."""
WEAK = "T1 T2 T3 H4 H3 D4 D3 S7 S8 C7 C8 C9"
"""Three low taroks and the lowest cards of every suit: no king, nothing above a 4 or a 9."""
MIN_DEALS = 100
"""The sample has some 150 Solo tri deals left for fitting: below the command's default of 200."""


@pytest.fixture(scope="module")
def store_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return fitted_sample_store(tmp_path_factory.mktemp("hand_model"), "sample-4p.jsonl.gz", MIN_DEALS)


def test_features_of_a_typed_hand_counted_by_hand() -> None:
    cards = parse_hand([STRONG], "slovenian", 4)
    features = hand_model.hand_features(cards)
    # eight taroks, all from XV up; Škis and Mond 5 points each, the six others 1: 16; four kings, each the
    # only card of its suit: four singletons, no void; values 16 + 4 × 5 = 36, counted 36 - 8 = 28
    assert features == dict(taroks=8, high_taroks=8, tarok_points=16, pagat=0, mond=1, skis=1, kings=4, voids=0,
                            singletons=4, card_points=28)


def test_a_strong_hand_wins_solo_more_often_than_a_weak_one(store_dir: Path) -> None:
    model = hand_model.load(hand_model.model_dir(store_dir))
    assert model is not None and ("slovenian", 4, "solo_tri") in model.groups

    def solo(hand: str) -> dict[str, float]:
        rows = model.advise(hand_model.hand_features(parse_hand([hand], "slovenian", 4)), "slovenian", 4)
        return next(row for row in rows if row["contract"] == "solo_tri")

    strong, weak = solo(STRONG), solo(WEAK)
    assert strong["win_probability"] > weak["win_probability"]
    for row in (strong, weak):
        assert 0 <= row["low"] <= row["win_probability"] <= row["high"] <= 1


def test_the_model_beats_the_base_rate_where_it_has_most_held_out_deals(store_dir: Path) -> None:
    about = json.loads((hand_model.model_dir(store_dir) / "hand_model.json").read_text())
    assert about["fitted_on"] + about["held_out"] == about["deals"] and about["min_deals"] == MIN_DEALS
    biggest = max(about["evaluation"], key=lambda row: row["held_out"])
    assert biggest["contract"] == "dva" and biggest["brier"] < biggest["brier_base"]
    assert biggest["log_loss"] < biggest["log_loss_base"]


def test_reliability_bins_cover_the_held_out_deals(store_dir: Path) -> None:
    with Store(store_dir) as store:
        frame = hand_fit.training_frame(store)
    model = hand_model.load(hand_model.model_dir(store_dir))
    assert model is not None
    bins = hand_fit.reliability(model, frame.filter(frame["held_out"]))
    predicted = hand_fit.predict_frame(model, frame.filter(frame["held_out"]))["p"].drop_nulls()
    assert bins["deals"].sum() == len(predicted)
    for row in bins.to_dicts():
        assert row["low"] <= row["mean_predicted"] <= row["high"]


def test_advise_json_and_the_saved_model(store_dir: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["advise", *STRONG.split(), "--store", str(store_dir), "-f", "json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)["contracts"]
    assert {row["contract"] for row in rows} >= {"tri", "dva", "ena", "solo_tri", "valat"}
    for row in rows:
        assert set(row) == {"contract", "playouts", "record", "model", "club"}
        assert set(row["model"]) == {"contract", "win_probability", "low", "high", "expected_score", "deals"}
        if row["contract"] == "valat":  # a handful of Valats in the sample: the model has no estimate
            assert row["model"]["win_probability"] is None and row["model"]["expected_score"] is None
    rated = [row["model"] for row in rows if row["model"]["win_probability"] is not None]
    assert all(not math.isnan(row["win_probability"]) for row in rated)


def test_advise_a_stored_deals_hand(store_dir: Path) -> None:
    with Store(store_dir) as store:
        deal_id, player, mask = store.query(
            "SELECT d.deal_id, h.player, h.hand_mask FROM deals d JOIN hands h USING (content_hash) "
            "ORDER BY d.deal_id LIMIT 1").row(0)
    result = CliRunner().invoke(app, ["advise", "--deal", deal_id, "--player", player, "--store", str(store_dir)])
    assert result.exit_code == 0, result.output
    title = next(line for line in result.output.splitlines() if "Hand:" in line).split()
    assert title[1:] == [card_text(CODES[c]) for c in cards_of(mask)]  # the stored hand, in card order, as drawn
    assert "Dva" in result.output
    assert f"In deal {deal_id} {player} bid" in " ".join(result.output.split())


@pytest.mark.parametrize(("hand", "message"), [
    ("T1 T2", "has 12 cards, not 2"),
    ("T1 T1 T3 H4 H3 D4 D3 S7 S8 C7 C8 C9", "a card given twice: I"),
    ("T1 ZZ T3 H4 H3 D4 D3 S7 S8 C7 C8 C9", "unknown card 'ZZ': write a card as drawn (XXI, Škis, K♥, 10♠)"),
])
def test_advise_refuses_what_is_no_hand(store_dir: Path, hand: str, message: str) -> None:
    result = CliRunner().invoke(app, ["advise", *hand.split(), "--store", str(store_dir)])
    assert result.exit_code == 2 and message in " ".join(result.output.split())
    assert ".py" not in result.output  # an error names what to write, never a source file (issue 38)


def test_advise_reads_a_hand_written_as_the_cards_are_drawn(store_dir: Path) -> None:
    typed = CliRunner().invoke(app, ["advise", *"XXII XXI XX XIX XVIII XVII XVI XV K♥ K♦ K♠ K♣".split(),
                                     "--store", str(store_dir)])
    coded = CliRunner().invoke(app, ["advise", *"T22 T21 T20 T19 T18 T17 T16 T15 HK DK SK CK".split(),
                                     "--store", str(store_dir)])
    assert typed.exit_code == coded.exit_code == 0 and typed.output == coded.output
    assert "Hand: XV XVI XVII XVIII XIX XX XXI Škis K♥ K♦ K♠ K♣" in typed.output


def test_advise_says_when_the_model_was_fitted_as_a_reader_writes_it(store_dir: Path) -> None:
    # the text said "(2026-12-06T22:13:13+00:00)": an ISO stamp, not a time a club member reads (issue 38, point 6)
    result = CliRunner().invoke(app, ["advise", *STRONG.split(), "--store", str(store_dir)])
    said = " ".join(result.output.split())
    assert result.exit_code == 0
    assert re.search(r"\(on \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d UTC\); refit: --refit\.", said), said
    assert not re.search(r"\d{4}-\d\d-\d\dT\d\d:", said)
