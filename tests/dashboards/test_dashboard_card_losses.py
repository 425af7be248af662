"""The Replay page shows each card's point loss and the better cards on its trick, once the deal is analysed.

The fixture store (tests/support/dashboard_fixture.py) is analysed into ``card_analysis`` from trick 11
(``tarock analyse --store``'s code, ingest/card_analysis.py).  In it, Ana's T2 in trick 11 of
``example-seed-pik10-trick`` costs her side 2 card points where T10 would have cost nothing; the table under
the trick must say so, in AppTest and in a real browser.  A trick that was not analysed shows no such table
but the offer to analyse it on the page (dashboards/replay_losses.py); taken, the table appears with what the
solver says of that trick.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from playwright.sync_api import Page, expect

from dashboards import analyse_now
from dashboards.replay_model import build_replay
from ingest.card_analysis import analyse_store, card_rows
from ingest.store import open_store
from tarock.cards import card_text
from tarock.formats.codec import loads
from tarock.solver.analyse import analyse_deal
from tests.dashboards.test_dashboard_apptest import open_page
from tests.dashboards.test_dashboard_browser import served, shoot, wait_for_app
from tests.support.dashboard_fixture import build_store

DEAL = "example-seed-pik10-trick"


@pytest.fixture(scope="module")
def fixture_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture store with its clean point deals analysed from trick 11."""
    store = build_store(tmp_path_factory.mktemp("losses"))
    analyse_store(store, executor="local:1", from_trick=11)
    return store


def trick_step(store: Path, deal_id: str, trick: int) -> int:
    """The Replay page's step number (from 1, as the page and its address say it) of ``trick`` of a stored deal."""
    con = open_store(store)
    record, options = con.execute("SELECT record, options_json FROM deals WHERE deal_id = ?", [deal_id]).fetchone()
    con.close()
    return next(s.index + 1 for s in build_replay(record, orjson.loads(options)).steps if s.trick_no == trick)


def test_the_analysed_trick_shows_each_cards_loss_and_the_better_card(store: Path) -> None:
    stored = open_store(store).execute(
        'SELECT player, card, point_loss, best_cards FROM card_analysis WHERE deal_id = ? AND trick = 11 '
        'ORDER BY "order"', [DEAL]).fetchall()
    assert ("Ana", "T2", 2, ["T10"]) in stored  # what the page must show, as the solver stored it
    at = open_page("Replay", deal=DEAL, step=str(trick_step(store, DEAL, 11)))
    assert at.subheader[0].value == "Trick 11"
    assert "**Against best play** (double dummy)" in [m.value for m in at.markdown]
    shown = at.dataframe[0].value
    assert shown.to_dict("records")[[r[0] for r in stored].index("Ana")] == {
        "player": "Ana", "card": "II", "point_loss": 2, "better": "X"}  # named as the cards above are drawn
    # a card that lost nothing names no better card (another card as good is no better)
    assert len(shown) == len(stored) and all(
        row["better"] == (", ".join(card_text(c) for c in best if c != card) if loss else "")
        for row, (_, card, loss, best) in zip(shown.to_dict("records"), stored))

    at = open_page("Replay", deal=DEAL, step=str(trick_step(store, DEAL, 10)))  # before trick 11: not analysed
    assert at.subheader[0].value == "Trick 10"
    assert "**Against best play** (double dummy)" not in [m.value for m in at.markdown]
    assert not at.dataframe


def test_a_trick_not_analysed_is_analysed_on_the_page(store: Path) -> None:
    con = open_store(store)
    record, options = con.execute("SELECT record, options_json FROM deals WHERE deal_id = ?", [DEAL]).fetchone()
    con.close()
    # what the solver says of trick 10's cards, asked here in the test's own process
    expected = [r for r in card_rows(analyse_deal(loads(record), 10, options=orjson.loads(options)))
                if r["trick"] == 10]
    at = open_page("Replay", deal=DEAL, step=str(trick_step(store, DEAL, 10)))
    offer = at.button(key="analyse_from_10")
    assert offer.label == "Analyse against best play from trick 10"
    at = offer.click().run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.subheader[0].value == "Trick 10"
    assert "**Against best play** (double dummy)" in [m.value for m in at.markdown]
    assert [(r["player"], r["card"], r["point_loss"]) for r in at.dataframe[0].value.to_dict("records")] == [
        (r["player"], card_text(r["card"]), r["point_loss"]) for r in expected]
    assert any(c.value.startswith("Analysed on this page from trick 10") for c in at.caption)
    assert not [b for b in at.button if b.key == "analyse_from_10"]  # the offer is gone once taken


@pytest.fixture(scope="module")
def app_url(fixture_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with served(fixture_store, tmp_path_factory.mktemp("losses-browser")) as url:
        yield url


def test_the_browser_shows_the_loss_on_its_trick(page: Page, app_url: str, fixture_store: Path) -> None:
    page.goto(f"{app_url}/replay?deal={DEAL}&step={trick_step(fixture_store, DEAL, 11)}")
    wait_for_app(page)
    expect(page.get_by_role("heading", name="Trick 11")).to_be_visible()
    expect(page.get_by_text("Against best play", exact=True)).to_be_visible()
    expect(page.get_by_test_id("stException")).to_have_count(0)
    # the table itself is drawn on a canvas (its cells are asserted with AppTest above): it is there, and it is
    # the only one on a trick step
    expect(page.get_by_test_id("stDataFrame")).to_have_count(1)
    expect(page.get_by_test_id("stDataFrame")).to_be_visible()
    shoot(page, "replay-losses")
    page.get_by_role("button", name="◀ Previous").click()
    expect(page.get_by_role("heading", name="Trick 10")).to_be_visible()
    wait_for_app(page)
    expect(page.get_by_text("Against best play", exact=True)).to_have_count(0)
    expect(page.get_by_test_id("stDataFrame")).to_have_count(0)
    # not analysed: the page offers to analyse it, and does
    page.get_by_role("button", name="Analyse against best play from trick 10").click()
    expect(page.get_by_text("Against best play", exact=True)).to_be_visible()
    expect(page.get_by_test_id("stDataFrame")).to_have_count(1)
    expect(page.get_by_text("Analysed on this page from trick 10")).to_be_visible()
    expect(page.get_by_test_id("stException")).to_have_count(0)
    shoot(page, "replay-losses-on-demand")


def test_an_analysis_the_limit_stops_shows_the_tricks_it_reached(store: Path, monkeypatch: pytest.MonkeyPatch
                                                                 ) -> None:
    # from trick 1 this deal's analysis takes longer than 5 CPU seconds; with 0.2 the tricks are analysed from
    # the last one back and the limit stops them somewhere after trick 1
    monkeypatch.setattr(analyse_now, "LIMIT", 0.2)
    at = open_page("Replay", deal=DEAL, step=str(trick_step(store, DEAL, 1)))
    at = at.button(key="analyse_from_1").click().run()
    assert not at.exception, [e.message for e in at.exception]
    assert not at.dataframe and not [b for b in at.button if b.key == "analyse_from_1"]
    said = at.info[0].value
    reached = int(re.search(r"it reached back to trick (\d+)", said).group(1))
    assert said.startswith("The analysis asked from trick 1 ran out of its 0.2 CPU seconds") and 1 < reached <= 12
    at = at.select_slider(key="replay_step").set_value(trick_step(store, DEAL, reached) - 1).run()  # an index
    assert at.subheader[0].value == f"Trick {reached}"
    assert len(at.dataframe[0].value) == 4  # the trick's four cards
    assert any(c.value.startswith(f"Analysed on this page from trick {reached} (asked from trick 1: its 0.2 CPU "
                                  "seconds ran out first)") for c in at.caption)
