"""The Players page's ratings, calendar, roles, partners, accuracy and strong hands: AppTest and a real browser.

The store is the dashboard fixture (``tests/support/dashboard_fixture.py``: ten deals of Ana, Boris,
Cilka and David) with its ratings built (``analysis.ratings.rebuild``, as ``tarock ingest`` does), as a
directory — no solver analysis — and exported to a DuckDB file whose ``card_analysis`` table (empty in the
export) gets hand-set point losses by SQL, as a store the solver has analysed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import duckdb
import orjson
import polars as pl
import pytest
from playwright.sync_api import Page, expect
from streamlit.testing.v1 import AppTest

from analysis.ratings import rebuild
from analysis.store import Store
from dashboards import data
from ingest.store import export_duckdb
from tests.dashboards.test_dashboard_browser import SCREENSHOTS, served, wait_for_app
from tests.support.dashboard_fixture import EXAMPLES, build_store
from tests.support.partner_pairs import club_pairs, petra_pairs
from tests.support.paths import ROOT

APP = ROOT / "dashboards" / "app.py"
LOSSES = [  # (deal, trick, order, player, card, best cards, best points, played points, point loss)
    ("seed-session-hand-1", 1, 0, "Ana", "SK", ["T21"], 9, 5, 4),
    ("seed-session-hand-1", 2, 1, "Ana", "C10", ["C10"], 3, 3, 0),
    ("seed-session-hand-2", 3, 2, "Boris", "T22", ["T3"], 12, 2, 10),
]


@pytest.fixture(scope="module")
def rated_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    store = build_store(tmp_path_factory.mktemp("players"))
    rebuild(store)
    return store


@pytest.fixture(scope="module")
def analysed_file(rated_store: Path) -> Path:
    file = rated_store.parent / "analysed.duckdb"
    export_duckdb(rated_store, file)
    with duckdb.connect(str(file)) as con:
        for row in LOSSES:
            con.execute("INSERT INTO card_analysis VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'test', 'slovenian', 4)",
                        list(row))
    return file


def players_page(store: Path, monkeypatch: pytest.MonkeyPatch, **query: str) -> AppTest:
    monkeypatch.setenv("TAROCK_STORE", str(store))
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params.update(query)
    at.switch_page("app_pages/players.py")
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def subheaders(at: AppTest) -> list[str]:
    return [h.value for h in at.subheader]


def frame_with(at: AppTest, column: str) -> object:
    """The first table on the page with ``column``."""
    return next(d.value for d in at.dataframe if column in d.value.columns)


def test_dealt_hands_are_counted_from_the_records(rated_store: Path) -> None:
    # seed deal 1 (data/examples/seed_session.jsonl): Ana holds T3 T10 T11 T15 T19 T20 T21 (7 taroks) and SK CK
    # (2 kings); Boris T5 T7 T8 T13 T14 T22 (6) and HK (1)
    with Store(rated_store) as store:
        rows = store.query("SELECT player, taroks, kings FROM ratings WHERE deal_id = 'seed-session-hand-1'")
    got = dict(zip(rows["player"], zip(rows["taroks"], rows["kings"])))
    assert got["Ana"] == (7, 2) and got["Boris"] == (6, 1)
    record = orjson.loads((EXAMPLES / "seed_session.jsonl").read_bytes().splitlines()[0])
    for player, hand in record["hands"].items():  # and every player's, counted from the record itself
        assert got[player] == (sum(c.startswith("T") for c in hand), sum(c.endswith("K") for c in hand))


def test_players_page_sections(rated_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = players_page(rated_store, monkeypatch, pick="Ana")
    assert {"Ratings", "Calendar of results", "Roles", "Partners", "Accuracy (double-dummy)"} <= set(subheaders(at))
    ratings = frame_with(at, "sigma")
    assert sorted(ratings["player"]) == ["Ana", "Boris", "Cilka", "David"]  # one Slovenian four-player pool
    assert list(ratings["ordinal"]) == sorted(ratings["ordinal"], reverse=True)
    # Ana's days: the seed deals are dated 2026-01-01..04, disputed-1 2026-01-01: 2, 1, 1, 1 deals
    days = frame_with(at, "worst_deal")
    assert dict(zip(days["date"].astype(str), days["deals"])) == {
        "2026-01-04": 1, "2026-01-03": 1, "2026-01-02": 1, "2026-01-01": 2}
    roles = frame_with(at, "role")
    assert set(roles["role"]) <= {"declarer", "partner", "defender"} and len(roles) > 0
    # the strong-hand share sits in the players' table, beside the results
    assert "strong_share" in frame_with(at, "renons").columns
    charts = at.get("vega_lite_chart")
    assert len(charts) >= 5  # win rates, score, renons, the rating bands, the calendar (and the partner matrix)
    infos = " ".join(i.value for i in at.info)
    assert "no double-dummy analysis yet" in infos


def test_players_page_accuracy_from_the_solver_table(analysed_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = players_page(analysed_file, monkeypatch)
    table = frame_with(at, "loss_per_card")
    # Ana: 4 + 0 over 2 cards of 1 deal; Boris: 10 over 1 card of 1 deal
    assert list(table["player"]) == ["Ana", "Boris"]
    assert list(table["loss_per_card"]) == [2.0, 10.0]
    assert list(table["perfect_share"]) == [50.0, 0.0]  # shown as percent
    losses = frame_with(at, "point_loss")
    assert list(losses["point_loss"]) == [10, 4]
    captions = " ".join(c.value for c in at.caption)
    assert "From the 2 of 10 deals the solver has analysed" in captions
    # the biggest loss (Boris, seed deal 2) is selected first: its replay link, at the deal's end
    links = [(link.proto.page, link.proto.query_string) for link in at.page_link]
    assert any(("replay" in page and "deal=seed-session-hand-2" in query and "step=end" in query)
               for page, query in links)


@pytest.mark.parametrize("pairs", [club_pairs(), petra_pairs()], ids=["top-pair", "petra"])
def test_the_partner_matrix_shows_every_ranked_pair(rated_store: Path, monkeypatch: pytest.MonkeyPatch,
                                                    pairs: pl.DataFrame) -> None:
    # the page's pairs are the hand-made clubs of tests/support/partner_pairs.py: the top-ranked pair Eva and
    # Franc has the fewest deals in pairs; Petra has 15 ranked partners.  The matrix used to draw the 12 players
    # with the most deals in pairs (no Eva, no Franc; Petra and 11 partners) under "1 of 79 pairs are ranked" and
    # "15 of 15 pairs are ranked".
    monkeypatch.setattr(data, "partner_pairs", lambda filters: pairs)
    at = players_page(rated_store, monkeypatch)
    [matrix] = [spec for spec in (json.loads(c.proto.spec) for c in at.get("vega_lite_chart"))
                if "partner" in json.dumps(spec)]
    drawn = set(matrix["layer"][0]["encoding"]["y"]["sort"])  # the matrix's rows (and columns): its players
    ranked = pairs.filter(pl.col("ranked")).select("player_a", "player_b").rows()
    assert all(a in drawn and b in drawn for a, b in ranked)
    players = len(set(pairs["player_a"]) | set(pairs["player_b"]))
    assert len(drawn) == players
    captions = " ".join(c.value for c in at.caption)
    assert (f"All {len(ranked)} ranked pairs are in the matrix. It has {players} players and {pairs.height} of the "
            f"{pairs.height} pairs.") in captions


@pytest.fixture(scope="module")
def players_url(analysed_file: Path) -> Iterator[str]:
    with served(analysed_file, analysed_file.parent) as url:
        yield url


def test_players_page_in_a_browser(page: Page, players_url: str) -> None:
    page.set_viewport_size({"width": 1400, "height": 5200})  # the whole page in one screenshot
    page.goto(players_url + "/players?pick=Ana")
    wait_for_app(page)
    for heading in ("Players", "Ratings", "Calendar of results", "Roles", "Partners", "Accuracy (double-dummy)"):
        expect(page.get_by_role("heading", name=heading, exact=True)).to_be_visible()
    expect(page.get_by_test_id("stException")).to_have_count(0)
    # every chart drew: the Vega views render to canvas or svg inside each chart element
    charts = page.get_by_test_id("stVegaLiteChart")
    expect(charts.first).to_be_visible()
    assert charts.count() >= 6
    expect(page.get_by_text("From the 2 of 10 deals the solver has analysed")).to_be_visible()
    expect(page.get_by_role("link", name="Best deal", exact=False).first).to_be_visible()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "players-insights.png"), full_page=True)


def test_an_upload_rebuilds_the_ratings(tmp_path: Path) -> None:
    """The Ingest page's upload rates the new deals as ``tarock ingest`` does: the seed session's four deals
    of four players are 16 rating rows."""
    from dashboards.uploads import ingest_uploads

    store = tmp_path / "store"
    result = ingest_uploads([("seed.jsonl", (EXAMPLES / "seed_session.jsonl").read_bytes())], str(store))
    assert result.summary is not None and result.summary.stored == 4
    with Store(store) as opened:
        assert opened.query("SELECT count(*) AS n FROM ratings")["n"][0] == 16
