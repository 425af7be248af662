"""Issue 23, the pages as a hand reviewer, a referee and an analyst read them (AppTest on the fixture
store of ``tests/support/dashboard_fixture.py``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.dashboards.test_dashboard_apptest import fixture_store, html_text, no_warm_up, open_page, store

__all__ = ["fixture_store", "no_warm_up", "store"]  # the fixtures, shared with the page tests


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
    at = open_page("Replay", deal="example-r_follow_suit", step="5")
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
    at = open_page("Replay", deal="example-r_stash", step="5")
    assert "Laid away" in html_text(at)


def test_overview_says_no_deal_in_these_dates(store: Path) -> None:
    at = open_page("Overview", **{"from": "1990-01-01", "to": "1990-01-02"})
    captions = " ".join(c.value for c in at.caption)
    assert "no deal in these dates" in captions and "no dates recorded" not in captions
