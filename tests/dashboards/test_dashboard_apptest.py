"""Every dashboard page, rendered by Streamlit's AppTest from the entrypoint on a small fixture store.

The expected figures are counted by hand from the fixture (``tests/support/dashboard_fixture.py``
lists its ten deals); the reasoning is next to each assertion.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import FileUploader

from tests.support.dashboard_fixture import EXAMPLES
from tests.support.paths import ROOT

APP = ROOT / "dashboards" / "app.py"
PAGES = {
    "Overview": "app_pages/overview.py",
    "Contracts": "app_pages/contracts.py",
    "Players": "app_pages/players.py",
    "Audit": "app_pages/audit.py",
    "Replay": "app_pages/replay.py",
    "What-if": "app_pages/whatif.py",
    "Hands": "app_pages/hands.py",
    "Ingest": "app_pages/ingest.py",
}
RENONS_SHOWN = "Boris played II on a diamond lead while holding 1♦"  # the replay names cards as drawn


def open_page(page: str, **query: str) -> AppTest:
    """The app opened at ``page`` with ``query`` in the URL, as a browser following a link gets it."""
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params.update(query)
    at.switch_page(PAGES[page])
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def html_text(at: AppTest) -> str:
    """Everything drawn with ``st.html`` (the cards, the trick, the notes and findings)."""
    return "\n".join(element.proto.body for element in at.get("html"))


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


@pytest.mark.parametrize("page", list(PAGES))
def test_every_page_renders(store: Path, page: str) -> None:
    at = open_page(page)
    assert at.title[0].value == page


def test_overview_metrics_and_chart(store: Path) -> None:
    at = open_page("Overview")
    assert metrics(at) == {
        "Deals": "10",  # 4 seed + 2 follow-suit + 2 stash + 1 from e_parse.jsonl + disputed-1
        "Sessions": "1",  # only the seed deals have a session (seed-004)
        "Players": "4",  # every record is played by Ana, Boris, Cilka and David
        "Renons rate": "20.0%",  # example-r_follow_suit and example-r_stash: 2 of 10
        "Disputed scores": "1",  # disputed-1
    }
    assert len(at.get("vega_lite_chart")) == 1


def test_sidebar_date_filter_from_the_url(store: Path) -> None:
    # from 2026-01-02: seed deals 2, 3 and 4 (disputed-1 is dated 2026-01-01; deals without a date drop out)
    at = open_page("Overview", **{"from": "2026-01-02"})
    assert metrics(at)["Deals"] == "3"
    assert str(at.date_input(key="from").value) == "2026-01-02"


def test_contracts_by_seat(store: Path) -> None:
    at = open_page("Contracts")
    rates = at.dataframe[0].value
    rows = {(r.contract, r.seat): (r.deals, r.wins) for r in rates.itertuples()}
    # The seat is the declarer's place in ``players`` (forehand first, dealer last).  Cilka sits third
    # in the example records and in seed deal 1 (and its copy disputed-1); the seed session rotates.
    assert rows == {
        ("tri", "forehand"): (1, 0),  # example-seed-pik10-trick, Ana, lost
        ("dva", "forehand"): (1, 0),  # seed deal 4, David, lost
        ("dva", "third"): (4, 2),  # follow-suit pair lost, stash pair won
        ("ena", "third"): (2, 2),  # seed deal 1 and disputed-1, both won
        ("solo_tri", "forehand"): (1, 1),  # seed deal 3, Cilka
        ("berac", "forehand"): (1, 1),  # seed deal 2, Boris
    }
    assert at.button_group(key="by").value == "seat"


@pytest.mark.parametrize("by", ["declarer", "month"])
def test_contracts_other_breakdowns(store: Path, by: str) -> None:
    at = open_page("Contracts", by=by)
    rates = at.dataframe[0].value
    if by == "declarer":  # Cilka declared 7 deals: 4 Dva (2 won), 2 Ena (won), 1 Solo tri (won)
        cilka = rates[rates.declarer == "Cilka"]
        assert (cilka.deals.sum(), cilka.wins.sum()) == (7, 5)
    else:  # the dated deals are the four seed deals and disputed-1, all declared, all in 2026-01
        assert set(rates.month) == {"2026-01", ""}  # blank: no date recorded
        assert rates[rates.month == "2026-01"].deals.sum() == 5


def test_players_table(store: Path) -> None:
    at = open_page("Players")
    table = at.dataframe[0].value.set_index("player")
    assert list(table.index) == ["Ana", "Boris", "Cilka", "David"]
    assert set(table.deals) == {10}  # everybody sat in all ten deals
    # declared: Cilka the 4 Dva + 2 Ena + Solo tri; Ana the Tri, Boris the Berač, David seed Dva
    assert table.declared.to_dict() == {"Ana": 1, "Boris": 1, "Cilka": 7, "David": 1}
    assert table.won.to_dict() == {"Ana": 0, "Boris": 1, "Cilka": 5, "David": 0}
    assert table.renons.to_dict() == {"Ana": 0, "Boris": 1, "Cilka": 1, "David": 0}


def test_players_click_through_to_their_deals(store: Path) -> None:
    at = open_page("Players")
    at.selectbox(key="pick").select("Boris").run()
    at.button(key="open_replay").click().run()
    assert at.title[0].value == "Replay"
    assert at.selectbox(key="player").value == "Boris"  # the sidebar filter now names Boris
    assert "(10 found, player Boris)" in at.selectbox(key="replay_pick").label


def test_audit_disputed_scores(store: Path) -> None:
    at = open_page("Audit")
    disputes = at.dataframe[0].value
    assert len(disputes) == 1  # disputed-1, for Ana only (Cilka's +40 was right)
    row = disputes.iloc[0]
    shown = (row.deal_id, row.player, row.recorded_score, row.score, row.score_diff)
    assert shown == ("disputed-1", "Ana", 30, 40, -10)
    assert row.message.startswith("recorded +30 for Ana, recomputed +40")
    assert row.replay == "replay?deal=disputed-1&step=end"  # the score step, where the message is shown


def test_audit_renons_counts_and_links(store: Path) -> None:
    at = open_page("Audit")
    by_code = at.dataframe[1].value.set_index("code").renons.to_dict()
    by_player = at.dataframe[2].value.set_index("player").renons.to_dict()
    assert by_code == {"R_FOLLOW_SUIT": 1, "R_STASH": 1}
    assert by_player == {"Boris": 1, "Cilka": 1}
    listed = at.dataframe[3].value.set_index("deal_id")
    # trick 1 is step 6 (deal, bidding, talon, stash, announcements come first); a stash renons is step 4
    assert listed.replay.to_dict() == {"example-r_follow_suit": "replay?deal=example-r_follow_suit&step=6",
                                       "example-r_stash": "replay?deal=example-r_stash&step=4"}
    assert listed["where"].to_dict() == {"example-r_follow_suit": "trick 1", "example-r_stash": "stash"}
    # cards named as the replay draws them (issue 38), in the sentence and the card column
    assert listed.loc["example-r_follow_suit", "message"] == RENONS_SHOWN
    assert listed.loc["example-r_follow_suit", "card"] == "II"
    at.selectbox(key="code").select("R_STASH").run()
    assert list(at.dataframe[3].value.deal_id) == ["example-r_stash"]


def test_audit_rejects(store: Path) -> None:
    at = open_page("Audit")
    rejects = at.dataframe[4].value
    assert rejects.rejects.sum() == 2  # the two broken lines of e_parse.jsonl


def test_replay_at_the_renons_trick_shows_its_sentence(store: Path) -> None:
    at = open_page("Replay", deal="example-r_follow_suit", step="6")
    assert at.subheader[0].value == "Trick 1"
    shown = html_text(at)
    assert "R_FOLLOW_SUIT" in shown and RENONS_SHOWN in shown
    assert "Ana leads; Boris wins the trick" in shown
    at.button(key="next").click().run()
    assert at.subheader[0].value == "Trick 2"
    assert RENONS_SHOWN not in html_text(at)
    assert at.query_params["step"] in ("7", ["7"])


def test_replay_address_and_page_say_the_same_step(store: Path) -> None:
    """Issue 38: ``step=3`` showed "step 4", and the Audit's ``step=end`` became ``step=N-1`` while the page
    said "step N of N".  The address numbers the steps as the page does, from 1."""
    at = open_page("Replay", deal="example-r_follow_suit", step="3")
    n = len(at.select_slider(key="replay_step").options)
    assert any(f"Step 3 of {n}" in c.value for c in at.caption)
    assert at.subheader[0].value == "Talon"  # deal, bidding, talon: the third step
    assert at.query_params["step"] in ("3", ["3"])
    at = open_page("Replay", deal="example-r_follow_suit", step="end")
    assert at.subheader[0].value == "Score"
    assert any(f"Step {n} of {n}" in c.value for c in at.caption)
    assert at.query_params["step"] in (str(n), [str(n)])
    at = open_page("Replay", deal="example-r_follow_suit", step="1")
    assert at.subheader[0].value == "Deal" and any(f"Step 1 of {n}" in c.value for c in at.caption)


def test_replay_stash_step_and_score_step(store: Path) -> None:
    at = open_page("Replay", deal="example-r_stash", step="4")
    assert at.subheader[0].value == "Stash"
    assert "Cilka laid away the king K♦; kings may not be laid away" in html_text(at)
    at = open_page("Replay", deal="disputed-1", step="end")
    assert at.subheader[0].value == "Score"
    assert "recorded +30 for Ana, recomputed +40" in html_text(at)
    scores = at.dataframe[0].value.set_index("player")
    assert scores.loc["Ana", ["score", "recorded_score", "score_diff"]].tolist() == [40, "+30", "-10"]


def test_replay_search_and_pick(store: Path) -> None:
    at = open_page("Replay")
    at.text_input(key="q_id").input("seed-session").run()
    picker = at.selectbox(key="replay_pick")
    # the options are shown as "id · date · session · contract (declarer) · status", newest first
    ids = [option.split(" · ")[0] for option in picker.options]
    assert ids == [f"seed-session-hand-{n}" for n in (4, 3, 2, 1)]
    picker.select("seed-session-hand-2").run()
    assert at.subheader[0].value == "Deal"
    assert "Berač" in html_text(at)


def test_ingest_upload_stores_records_and_refuses_other_files(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAROCK_STORE", str(tmp_path / "store"))
    at = open_page("Ingest")
    uploader = at.get("file_uploader")[0]
    assert isinstance(uploader, FileUploader)
    uploader.set_value([
        ("seed.jsonl", (EXAMPLES / "seed_session.jsonl").read_bytes(), "application/json"),
        ("photo.json", b"\x89PNG\r\n\x1a\n not a record", "application/json"),
    ]).run()
    at.button[0].click().run()
    assert not at.exception
    assert [e.value.replace("\\", "") for e in at.error] == [  # the message is Markdown-escaped
        "photo.json is not a record file: no tarock record could be read from it, so nothing was stored"]
    assert at.success[0].value.startswith("Read 4 items: stored 4 deals (4 ok")
    assert list(at.dataframe[0].value.deal_id) == [f"seed-session-hand-{n}" for n in (1, 2, 3, 4)]
    at.switch_page(PAGES["Overview"]).run()
    assert metrics(at)["Deals"] == "4"  # the refused file stored nothing
