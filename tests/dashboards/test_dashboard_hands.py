"""The Hands page on a store with enough deals for estimates: the bundled 4-player sample, its model fitted
with 100 deals a contract (``tests/analysis/test_hand_model.py`` says why) and saved beside the store; and
the Königrufen example session, too few deals for any estimate, whose ids come first.

AppTest checks what the page computes (the typed hand's contracts ranked by expected score, the refusal of
a hand that is none, the bids per declarer); a real headless chromium checks that it renders (screenshot
``hands-sample.png``).
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from streamlit.testing.v1 import AppTest

from analysis import hand_fit
from ingest.coordinator import run_ingest
from tests.dashboards.test_dashboard_browser import served, shoot, wait_for_app
from tests.support.paths import ROOT

APP = ROOT / "dashboards" / "app.py"
WEAK = "T1 T2 T3 H4 H3 D4 D3 S7 S8 C7 C8 C9"


@pytest.fixture(scope="module")
def sample_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("hands_page")
    (base / "in").mkdir()
    shutil.copy(ROOT / "data" / "sample" / "sample-4p.jsonl.gz", base / "in")
    shutil.copy(ROOT / "data" / "examples" / "koenigrufen_session.jsonl", base / "in")  # kr-session-1 …
    run_ingest([base / "in"], base / "store", "local:1")
    hand_fit.fit_store(base / "store", min_deals=100)
    return base / "store"


def open_hands(store: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("TAROCK_STORE", str(store))
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.switch_page("app_pages/hands.py")
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def test_a_typed_hand_ranked_by_expected_score(sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_hands(sample_store, monkeypatch)
    assert at.title[0].value == "Hands"
    advice = at.dataframe[0].value
    # every one of the eleven declared contracts has both figures, Valat too (a handful in the sample: no model)
    assert len(advice) == 11 and "Valat" in set(advice["Contract"])
    for column in ("po_win_probability", "po_playouts", "club_win_probability", "club_expected_score"):
        assert advice[column].notna().all(), column
    scores = [float(v) for v in advice["club_expected_score"]]
    assert scores == sorted(scores, reverse=True)
    # the page's example, the eight top taroks and four kings: no stored hand is like it, so the club's figure is
    # the play-outs' (store weight 0), and the play-outs win Tri with it nearly always
    tri = advice[advice["Contract"] == "Tri"].iloc[0]
    assert tri["like_deals"] == 0 and tri["club_weight"] == 0 and tri["club_win_probability"] >= 0.95
    caption = " ".join(c.value for c in at.caption)
    assert "fitted on" in caption and "Play-outs:" in caption and "Club:" in caption


def test_a_hand_that_is_no_hand_is_a_warning(sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_hands(sample_store, monkeypatch)
    at.text_input(key="hand_cards").set_value("T1 T2 T3").run()
    assert not at.exception
    assert "has 12 cards, not 3" in at.warning[0].value
    at.text_input(key="hand_cards").set_value(WEAK).run()
    assert not at.warning and at.dataframe[0].value.shape[0] == 11  # the eleven declared Slovenian contracts


def test_bids_against_the_model_per_declarer(sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_hands(sample_store, monkeypatch)
    per_player = at.dataframe[1].value
    for row in per_player.itertuples():
        assert row.under + row.as_model + row.over == row.deals  # every reviewed deal has one verdict
    chosen = at.selectbox(key="hand_declarer").value
    deals = at.dataframe[2].value
    assert len(deals) == int(per_player[per_player["declarer"] == chosen]["deals"].iloc[0])
    assert all(link.startswith("replay?deal=") for link in deals["replay"])


def test_the_stored_hand_opens_on_a_deal_the_model_rates(sample_store: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 38: the stored-hand tab opened on the first deal by id, a Königrufen deal of a table with no
    estimate at all; it opens on the first hand of a table the model rates."""
    at = open_hands(sample_store, monkeypatch)
    at.segmented_control(key="hand_source").set_value("A stored hand").run()
    assert not at.exception
    picker = at.selectbox(key="hand_pick")
    assert picker.options[0].startswith("kr-session-") and picker.options[picker.index].startswith("s2026-")
    assert not at.info  # no "No contract of this table has enough deals"
    assert at.dataframe[0].value["club_expected_score"].notna().all()  # a Slovenian hand: every contract rated


def test_the_model_says_when_it_was_fitted_and_the_deals_link_to_their_replay(
        sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 38: the caption showed the raw ISO time of the fit, the Replay column the raw address."""
    at = open_hands(sample_store, monkeypatch)
    caption = " ".join(c.value for c in at.caption)
    assert re.search(r"on \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d UTC", caption), caption
    assert not re.search(r"\d{4}-\d\d-\d\dT\d\d:", caption)
    replay = json.loads(at.dataframe[2].proto.columns)["replay"]
    assert replay["type_config"]["type"] == "link" and replay["type_config"]["display_text"] == "Open the replay"


@pytest.fixture(scope="module")
def sample_url(sample_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with served(sample_store, tmp_path_factory.mktemp("hands-browser")) as url:
        yield url


def test_the_hands_page_in_a_browser(page: Page, sample_url: str) -> None:
    page.goto(f"{sample_url}/hands")
    wait_for_app(page)
    expect(page.get_by_role("heading", name="Hands", exact=True)).to_be_visible()
    expect(page.get_by_text("Bids against the model")).to_be_visible()
    expect(page.get_by_test_id("stException")).to_have_count(0)
    # the contracts of the hand, the bids per declarer, one declarer's deals
    expect(page.get_by_test_id("stDataFrame")).to_have_count(3)
    expect(page.get_by_text("Open the replay of")).to_be_visible()
    shoot(page, "hands-sample")
