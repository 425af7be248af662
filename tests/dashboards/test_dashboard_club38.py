"""Issue 38, "What a club reads": tables whose columns show their header and content whole, findings in plain
words, and the other points a club player reading the pages raised (AppTest on the fixture store of
``tests/support/dashboard_fixture.py``)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import orjson
import polars as pl
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from analysis.ratings import rebuild
from dashboards import widgets
from ingest.commands import ingest
from tests.dashboards.test_dashboard_apptest import html_text, open_page
from tests.support.dashboard_fixture import EXAMPLES
from tests.support.charts import chart_rows
from tests.support.paths import ROOT

CHAR_PX = 6
"""Fewer pixels than any character of the table font takes: a column narrower than this many per character of
its header cannot show the header whole."""
WRAPS_ABOVE_PX = 64
"""Streamlit's table wraps text cells only in rows taller than 4rem."""


def tables(at: AppTest) -> list[tuple[dict[str, Any], list[str], int, Any]]:
    """Each table the page drew: (its columns' settings, the columns shown in order, its row height, its data)."""
    drawn = []
    for frame in at.dataframe:
        columns = json.loads(frame.proto.columns)
        shown = list(frame.proto.column_order) or [c for c in columns if not columns[c].get("hidden")]
        drawn.append((columns, shown, frame.proto.row_height, frame.value))
    return drawn


def assert_whole(at: AppTest) -> None:
    """Every column shown is at least as wide as its header and its longest value; a column too narrow for its
    text (a sentence) wraps, in rows tall enough to."""
    for columns, shown, row_height, data in tables(at):
        for name in shown:
            width = columns[name].get("width")
            label = columns[name].get("label") or name
            assert isinstance(width, int), (label, width)  # "small" cut "Recomputed" and a date to "Da"
            texts = data[name].dtype == object if name in data else False  # numbers: as formatted, not as stored
            longest = max([len(label), *(len(str(v)) for v in data[name])]) if texts else len(label)
            if width < CHAR_PX * longest:
                assert row_height > WRAPS_ABOVE_PX, (label, width, longest)
                assert width >= CHAR_PX * max(map(len, label.split())), label


def test_audit_columns_show_headers_dates_and_sentences_whole(store: Path) -> None:
    at = open_page("Audit")
    assert_whole(at)
    disputes = tables(at)[0]
    assert disputes[0]["score"]["label"] == "Recomputed" and "score" in disputes[1]
    assert disputes[0]["date"]["width"] >= CHAR_PX * len("2026-01-01")
    assert disputes[2] > WRAPS_ABOVE_PX  # the Why wraps


def test_audit_names_the_rule_broken_in_plain_words(store: Path) -> None:
    at = open_page("Audit")
    by_code = tables(at)[1]
    assert by_code[3].set_index("code")["rule"].to_dict() == {"R_FOLLOW_SUIT": "did not follow suit",
                                                             "R_STASH": "illegal card laid away"}
    renons = tables(at)[3]
    assert renons[0]["rule"]["label"] == "Rule broken" and "rule" in renons[1] and "code" not in renons[1]
    assert renons[3].set_index("deal_id")["rule"].to_dict() == {"example-r_follow_suit": "did not follow suit",
                                                               "example-r_stash": "illegal card laid away"}
    assert at.selectbox(key="code").options == ["did not follow suit (R_FOLLOW_SUIT)",
                                                "illegal card laid away (R_STASH)"]
    panel = " ".join(m.value for m in at.markdown).replace("\\", "")
    assert "R_FOLLOW_SUIT (did not follow suit)" in panel  # the code is kept, under the table


def test_what_if_differences_show_what_differs_whole(store: Path) -> None:
    at = open_page("What-if", tables="slovenian,openspiel")
    assert_whole(at)
    differences = tables(at)[-1]
    assert differences[1] == ["deal_id", "player", "slovenian", "openspiel", "lines"]
    assert differences[2] > WRAPS_ABOVE_PX
    at = open_page("What-if", tables="slovenian,openspiel", session="seed-004")
    first = tables(at)[-1][3].iloc[0]
    panel = " ".join(m.value for m in at.markdown).replace("\\", "")
    # the contract, the date and the session, left out of the table, are in the panel under it
    assert "· session seed-004 #" in panel and "2026-01-0" in panel and first.deal_id in panel


def test_replay_breakdowns_wrap_their_detail(store: Path) -> None:
    at = open_page("Replay", deal="seed-session-hand-4", step="end", tables="slovenian,openspiel")
    assert_whole(at)


def test_a_figure_rounded_to_nothing_shows_0_never_minus_0() -> None:
    """Issue 38: the Hands page wrote an expected score of -0.3 as "-0"."""
    frame = pl.DataFrame({"score": [-0.3, -0.0, 2.6, -1.6], "rate": [0.5, -0.04, None, 1.0]})
    data, config = widgets.shown(frame, {"score": st.column_config.NumberColumn("Score", format="%+.0f"),
                                         "rate": st.column_config.NumberColumn("Rate", format="%.1f")})
    assert [config["score"]["type_config"]["format"] % v for v in data["score"]] == ["+0", "+0", "+3", "-2"]
    assert data["rate"].to_list() == ["0.5", "0.0", "", "1.0"]  # a missing value blank, -0.04 as 0.0


def _store_of(root: Path, monkeypatch: pytest.MonkeyPatch, *files: Path, options: dict[str, str] | None = None) -> Path:
    """A store of ``files`` (each record given ``options`` when set), as the app finds it."""
    inputs = root / "in"
    inputs.mkdir()
    for file in files:
        lines = [orjson.loads(line) for line in file.read_bytes().splitlines() if line.strip()]
        (inputs / file.name).write_bytes(b"\n".join(orjson.dumps({**r, "options": options} if options else r)
                                                   for r in lines))
    ingest([inputs], root / "store", executor="local:1", quiet=True)
    monkeypatch.setenv("TAROCK_STORE", str(root / "store"))
    return root / "store"


def test_ratings_open_on_the_pool_most_deals_were_rated_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 38: the pools came in name order and the first opened, six Königrufen deals before a Slovenian
    session of 46 (the bundled 3-player sample's first ones)."""
    sample = tmp_path / "sample-3p.jsonl"
    sample.write_bytes(b"\n".join(gzip.decompress((ROOT / "data/sample/sample-3p.jsonl.gz").read_bytes())
                                  .splitlines()[:46]))
    store = _store_of(tmp_path, monkeypatch, EXAMPLES / "koenigrufen_session.jsonl", sample)
    rebuild(store)
    at = open_page("Players")
    pools = at.radio(key="rating_pool")
    assert pools.options == ["Königrufen, 4 players", "Slovenian, 3 players"]
    assert pools.value == "Slovenian, 3 players"
    labels = [c["label"] for c in json.loads(next(d for d in at.dataframe if "sigma" in d.value.columns)
                                               .proto.columns).values() if "label" in c]
    assert "Safe rating" in labels and not [label for label in labels if "μ" in label or "σ" in label]


def test_what_if_opens_on_the_clubs_own_table_beside_the_nearest(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 38: What-if opened on the ruleset's defaults against the OpenSpiel preset whatever the club
    played; a club playing Palčka's rules sees those against the table nearest to them."""
    _store_of(tmp_path, monkeypatch, EXAMPLES / "seed_session.jsonl", options={"preset": "palcka"})
    at = open_page("What-if")
    # the ruleset's own table rescores each deal under its own options: beside palcka it would change nothing
    assert at.multiselect(key="tables").value == ["palcka", "openspiel"]
    caption = " ".join(c.value for c in at.caption).replace("\\", "")
    assert "Opened on palcka, the table most of the stored slovenian deals were played under" in caption
    assert "the preset closest to it: it sets " in caption and "diff_rounding" not in caption  # both set it
    assert at.metric[1].value != "0"  # deals score differently: the comparison says something


def test_plain_words_for_trick_points_and_missed_points(store: Path) -> None:
    shown = html_text(open_page("Replay", deal="example-r_follow_suit", step="6"))
    assert "raw card points" not in shown and "points before counting in threes" in shown


@pytest.fixture(scope="module")
def three_tables(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store of three tables: the seed session (Slovenian, 4 players, January), the Königrufen example session
    (one day in February) and the bundled 3-player sample's first 46 deals."""
    root = tmp_path_factory.mktemp("three-tables")
    inputs = root / "in"
    inputs.mkdir()
    for name in ("seed_session.jsonl", "koenigrufen_session.jsonl"):
        (inputs / name).write_bytes((EXAMPLES / name).read_bytes())
    (inputs / "sample-3p.jsonl").write_bytes(b"\n".join(
        gzip.decompress((ROOT / "data/sample/sample-3p.jsonl.gz").read_bytes()).splitlines()[:46]))
    ingest([inputs], root / "store", executor="local:1", quiet=True)
    return root / "store"


def pool_charts(at: AppTest) -> dict[str, list[dict[str, Any]]]:
    """The page's win-rate charts by the table each is headed with: its data rows (their dataset of rates)."""
    charts = at.get("vega_lite_chart")
    names = [m.value.strip("*") for m in at.markdown if m.value.startswith("**") and "players" in m.value]
    assert len(names) == len(charts), (names, len(charts))
    return {name: [r for r in chart_rows(chart) if "win_rate" in r] for name, chart in zip(names, charts)}


def test_overview_draws_each_table_apart_and_labels_every_contract(
        three_tables: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAROCK_STORE", str(three_tables))
    at = open_page("Overview")
    charts = pool_charts(at)
    assert set(charts) == {"Königrufen, 4 players", "Slovenian, 3 players", "Slovenian, 4 players"}
    for name, rows in charts.items():
        assert {r["pool"] for r in rows} == {name}  # a 3-player Tri is not a 4-player one
        assert all(r["row_label"] == f"{r['Contract']} · {r['deals']:,} deal{'s' * (r['deals'] != 1)}"
                   for r in rows)  # every contract's row says its deals
    for chart in at.get("vega_lite_chart"):
        spec = json.loads(chart.proto.spec)
        axis = next(layer["encoding"]["y"]["axis"] for layer in spec["layer"] if "y" in layer["encoding"]
                    and layer["encoding"]["y"].get("field") == "row_label")
        assert axis["labelOverlap"] is False  # every row labelled, none dropped to make room


def test_contracts_by_seat_draws_each_table_apart(three_tables: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 38: the seat chart put ~88 bars of three tables on one axis with six labels."""
    monkeypatch.setenv("TAROCK_STORE", str(three_tables))
    at = open_page("Contracts", by="seat")
    charts = pool_charts(at)
    assert {r["seat"] for r in charts["Slovenian, 3 players"]} <= {"forehand", "second", "dealer"}
    assert {r["seat"] for r in charts["Slovenian, 4 players"]} <= {"forehand", "second", "third", "dealer"}
    for chart in at.get("vega_lite_chart"):
        assert '"yOffset": {"field": "seat"' in chart.proto.spec  # seats side by side within a contract's row
    assert "Table" in json.loads(at.dataframe[0].proto.columns)["pool"]["label"]


def test_a_table_of_one_month_shows_its_point_and_says_so(three_tables: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 38: the Königrufen deals, all of one month, were one dot under a caption about a line."""
    monkeypatch.setenv("TAROCK_STORE", str(three_tables))
    at = open_page("Contracts", by="month")
    charts = at.get("vega_lite_chart")
    names = [m.value.strip("*") for m in at.markdown if m.value.startswith("**") and "players" in m.value]
    koenigrufen = json.loads(charts[names.index("Königrufen, 4 players")].proto.spec)
    assert [layer["mark"]["type"] for layer in koenigrufen["layer"]] == ["rule", "point"]  # no line of one point
    captions = [c.value for c in at.caption]
    assert "All these deals are from one month, 2026-02: the point is their win rate and the bar its 95 % " \
           "interval; a line needs two months." in captions


def test_the_ingest_page_says_in_words_why_a_house_table_is_not_stored(store: Path) -> None:
    """Issue 38: the uploader refused a ``.toml`` with a red icon and no text (its ``type`` filter)."""
    at = open_page("Ingest")
    uploader = at.get("file_uploader")[0]
    assert not uploader.proto.type  # no widget filter that refuses a file without a word
    uploader.set_value([("house.toml", (EXAMPLES / "house.toml").read_bytes(), "application/toml")]).run()
    at.button[0].click().run()
    assert not at.exception
    assert [e.value.replace("\\", "") for e in at.error] == [
        "house.toml is a rules table (a house table), not records: nothing was stored. Score record files under "
        "it with `tarock ingest --rules house.toml`, or set it beside other tables with `tarock score --compare`."]


def test_what_if_and_hands_answers_follow_an_ingest_beside_the_server(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The slow answers are cached under what the store holds, with no time limit (so a later visit is quick);
    deals a ``tarock ingest`` adds beside the running server key new answers at once, where a cache by the
    store's path alone showed the old ones until its time limit passed."""
    store = _store_of(tmp_path, monkeypatch, EXAMPLES / "seed_session.jsonl")
    at = open_page("What-if")
    assert at.metric[0].value == "4"
    hands = open_page("Hands")
    stored = hands.segmented_control(key="hand_source").set_value("A stored hand").run().selectbox(key="hand_pick")
    assert len(stored.options) == 4
    more = tmp_path / "more"
    more.mkdir()
    (more / "r_follow_suit.json").write_bytes((EXAMPLES / "findings" / "r_follow_suit.json").read_bytes())
    ingest([more], store, executor="local:1", quiet=True)  # as the command line does: no page is told
    assert open_page("What-if").metric[0].value == "6"  # the file's two deals
    hands = open_page("Hands")
    stored = hands.segmented_control(key="hand_source").set_value("A stored hand").run().selectbox(key="hand_pick")
    assert len(stored.options) == 6
