"""Issue 23, the pages as a hand reviewer, a referee and an analyst read them (AppTest on the fixture
store of ``tests/support/dashboard_fixture.py``)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from tests.dashboards.test_dashboard_apptest import RENONS_SHOWN, html_text, open_page
from tests.dashboards.test_dashboard_club38 import chart_rows
from tests.support.dashboard_fixture import EXAMPLES


def test_replay_header_says_a_disputed_deal_is_disputed(store: Path) -> None:
    at = open_page("Replay", deal="disputed-1", step="0")
    shown = html_text(at)
    assert "disputed: the recorded score differs" in shown
    assert "✓ ok" not in shown


def test_replay_score_step_leaves_not_recorded_blank(store: Path) -> None:
    at = open_page("Replay", deal="disputed-1", step="end")
    scores = at.dataframe[0].value.set_index("player")
    for player, row in scores.iterrows():
        if row["recorded_score"] == "":
            assert row["score_diff"] == "", player  # no difference against a missing figure
    assert "None" not in scores.astype(str).to_string()
    assert (scores["recorded_score"] == "").any()  # disputed-1 records Ana and Cilka only


def test_replay_notes_name_cards_as_drawn_and_ring_the_held_back_card(store: Path) -> None:
    at = open_page("Replay", deal="example-r_follow_suit", step="6")
    shown = html_text(at)
    assert "holding 1♦" in shown and "holding D1" not in shown
    # Boris's 1♦ (D1), the card the rules asked for, is ringed in his hand
    assert re.search(r'class="tk-card tk-red tk-mark" title="[^"]*\(D1\)"', shown)


def test_replay_slider_counts_steps_and_jumps_between_findings(store: Path) -> None:
    at = open_page("Replay", deal="example-r_follow_suit", step="0")
    slider = at.select_slider(key="replay_step")
    n = len(slider.options)
    assert slider.options[0] == f"Deal · step 1 of {n}"
    assert slider.options[5] == f"Trick 1 ⚠ · step 6 of {n}"  # the renons trick carries a finding
    assert any(f"Step 1 of {n}" in c.value for c in at.caption)
    at.button(key="next_finding").click().run()
    assert at.subheader[0].value == "Trick 1"
    assert at.button(key="next_finding").disabled and at.button(key="prev_finding").disabled  # the only one


def test_replay_stash_stays_visible_after_the_stash_step(store: Path) -> None:
    at = open_page("Replay", deal="example-r_stash", step="6")
    assert "Laid away" in html_text(at)


def test_overview_says_no_deal_in_these_dates(store: Path) -> None:
    at = open_page("Overview", **{"from": "1990-01-01", "to": "1990-01-02"})
    captions = " ".join(c.value for c in at.caption)
    assert "no deal in these dates" in captions and "no dates recorded" not in captions


def no_missing_cells(at: AppTest) -> None:
    """Every table the page drew holds no missing value: a blank cell is an empty text, never "None"."""
    for frame in at.dataframe:
        shown = frame.value
        assert not shown.isna().any().any(), shown[shown.isna().any(axis=1)]
        assert "None" not in shown.astype(str).to_numpy().tolist()


@pytest.mark.parametrize("page,query", [("Overview", {}), ("Contracts", {"by": "seat"}),
                                        ("Contracts", {"by": "declarer"}), ("Contracts", {"by": "month"}),
                                        ("Players", {}), ("Audit", {})])
def test_tables_leave_not_recorded_blank_never_none(store: Path, page: str, query: dict[str, str]) -> None:
    # the data handed to st.dataframe: its canvas keeps most cells out of the DOM, so a browser scan misses them
    no_missing_cells(open_page(page, **query))


def test_contracts_close_games_blank_where_not_applicable(store: Path) -> None:
    at = open_page("Contracts")
    outcomes = at.dataframe[1].value.set_index("contract")
    # Berač is not decided by card points: no close games to count, so blank, not "None"
    assert outcomes.loc["berac", "close"] == "" and outcomes.loc["berac", "close_share"] == ""
    assert outcomes.loc["ena", "close_share"].endswith("%")


def test_ingest_results_leave_missing_cells_blank(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAROCK_STORE", str(tmp_path / "store"))
    at = open_page("Ingest")
    at.get("file_uploader")[0].set_value([  # type: ignore[attr-defined]
        ("seed.jsonl", (EXAMPLES / "seed_session.jsonl").read_bytes(), "application/json"),
        ("bad.jsonl", (EXAMPLES / "findings" / "e_parse.jsonl").read_bytes(), "application/json")]).run()
    at.button[0].click().run()
    assert not at.exception
    found = at.dataframe[0].value
    assert (found["code"] == "").any()  # a clean deal has no finding: blank, not None
    no_missing_cells(at)


def test_audit_explains_the_selected_row_whole_and_opens_the_replay_in_this_tab(store: Path) -> None:
    at = open_page("Audit")
    for table in at.dataframe:  # a link column opens a new tab: the panel's page link opens the replay here
        assert '"link"' not in table.proto.columns
    panel = " ".join(m.value for m in at.markdown).replace("\\", "")
    message = at.dataframe[0].value.message.iloc[0]
    assert len(message) > 50 and message in panel  # the "Why" whole, not cut at the column's width
    assert RENONS_SHOWN in panel  # the first renons, explained under its table, cards as drawn
    links = [(link.proto.page, link.proto.query_string, link.proto.external) for link in at.page_link]
    assert ("app_pages/replay.py" in links[0][0] or links[0][0].endswith("replay")) and not links[0][2]
    assert "deal=disputed-1" in links[0][1] and "step=end" in links[0][1]
    assert "deal=example-r_follow_suit" in links[1][1] and "step=6" in links[1][1]


def test_replay_deep_link_beyond_the_list_shows_the_deals_label(store: Path) -> None:
    # from 2026-01-02 lists seed deals 2-4 only; example-r_follow_suit (undated) is reached by its link
    at = open_page("Replay", deal="example-r_follow_suit", step="0", **{"from": "2026-01-02"})
    picker = at.selectbox(key="replay_pick")
    assert picker.value == "example-r_follow_suit"
    assert picker.options[0] == "example-r_follow_suit · Dva (Cilka) · renons"
    assert "(3 found)" in picker.label  # the count is still the list's


def test_replay_klop_has_no_stash_step(store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ingest.commands import ingest
    inputs = tmp_path / "in"
    inputs.mkdir()
    (inputs / "klop.json").write_bytes((EXAMPLES / "findings" / "r_must_overtrump.json").read_bytes())
    ingest([inputs], tmp_path / "store", executor="local:1", quiet=True)
    monkeypatch.setenv("TAROCK_STORE", str(tmp_path / "store"))
    at = open_page("Replay", deal="example-r_must_overtrump", step="0")
    steps = at.select_slider(key="replay_step").options
    assert not any(s.startswith("Stash") for s in steps)
    assert steps[3].startswith("Announcements") and steps[4].startswith("Trick 1")


def chart_specs(at: AppTest) -> list[dict[str, Any]]:
    return [json.loads(chart.proto.spec) for chart in at.get("vega_lite_chart")]


def test_contracts_seat_caption_follows_the_rules_bidding_order(store: Path) -> None:
    from tarock.rules.slovenian.options import SlovenianOptions
    at = open_page("Contracts", by="seat")
    captions = " ".join(c.value for c in at.caption)
    assert "the dealer speaks last" not in captions
    assert SlovenianOptions().bidding_order == "forehand_last"
    assert "second speaks first and forehand last" in captions  # speaking_order(4, default options)


def test_contracts_declarer_heatmap_labels_every_contract(store: Path) -> None:
    at = open_page("Contracts", by="declarer")
    [spec] = chart_specs(at)
    text = json.dumps(spec)
    assert '"labelOverlap": false' in text and '"labelAngle": -40' in text  # rotated, none dropped


def test_overview_chart_labels_each_contracts_deal_count(store: Path) -> None:
    at = open_page("Overview")
    [chart] = at.get("vega_lite_chart")
    # each contract's row is labelled with its deals, none dropped (issue 38: counts ran into each other)
    assert "Dva · 5 deals" in {row.get("row_label") for row in chart_rows(chart)}
    assert '"labelOverlap": false' in chart.proto.spec


def test_sidebar_dates_one_under_the_other(store: Path) -> None:
    at = open_page("Overview")
    assert len(at.sidebar.columns) == 0  # not squeezed into two half-width columns
    assert {d.key for d in at.sidebar.date_input} == {"from", "to"}


def test_players_charts_share_one_sort_whole_percent_ticks_and_follow_the_sidebar(store: Path) -> None:
    at = open_page("Players", player="Boris")
    assert at.selectbox(key="pick").value == "Boris"  # "A player's deals" follows the sidebar's player
    at = open_page("Players", pick="Boris")
    # the page's first three charts (win rates, scores, renons; the ratings, calendar and partner sections follow)
    specs = [json.dumps(spec) for spec in chart_specs(at)][:3]
    assert "average score per deal" in specs[1] and "renons per deal played" in specs[2]
    order = '["Ana", "Boris", "Cilka", "David"]'  # everybody has 10 deals: by name
    assert all(order in text for text in specs)  # one sort for the three charts
    assert all('"Boris"' in text and "#b0bec5" in text for text in specs)  # the chosen player stands out
    renons = specs[2]
    assert '"format": "%"' in renons and '"tickMinStep": 0.01' in renons  # whole percents, none repeated
    assert '".1%"' not in renons.split('"axis"')[1][:80]


def test_players_never_average_koenigrufen_and_slovenian_scores(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from ingest.commands import ingest
    inputs = tmp_path / "in"
    inputs.mkdir()
    for name in ("seed_session.jsonl", "koenigrufen_session.jsonl"):
        (inputs / name).write_bytes((EXAMPLES / name).read_bytes())
    ingest([inputs], tmp_path / "store", executor="local:1", quiet=True)
    monkeypatch.setenv("TAROCK_STORE", str(tmp_path / "store"))
    at = open_page("Players")
    assert any("not on one scale" in i.value for i in at.info)
    assert "score_per_deal" not in at.dataframe[0].proto.column_order
    specs = [json.dumps(spec) for spec in chart_specs(at)]
    assert not any("average score per deal" in text for text in specs)  # win rates and renons; no score chart
    assert any("renons per deal played" in text for text in specs)
    at = open_page("Players", ruleset="slovenian")
    assert not any("not on one scale" in i.value for i in at.info)
    assert "score_per_deal" in at.dataframe[0].proto.column_order
