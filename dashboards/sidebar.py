"""The sidebar filters every page shares, kept in the URL, and the ``Filters`` they make.

The widgets are drawn by the entrypoint before the page runs, so their
values (in ``st.session_state`` under the parameter names below) are known
to every page, and ``url_state`` keeps them in the query string: any page
with its filters is a link that can be shared or bookmarked
(``/contracts?ruleset=slovenian&players=4&from=2026-01-01&player=Ana``).
"""

from __future__ import annotations

from datetime import date

import streamlit as st

from dashboards import data, url_state
from dashboards.data import Filters
from tarock.rules.rulesets import ruleset_label

PLAYER_COUNTS = ("3", "4")
EARLIEST, LATEST = date(1900, 1, 1), date(2999, 12, 31)  # the date pickers' bounds (their default is ±10 years)


def sidebar_filters() -> None:
    """Draw the filter widgets in the sidebar (values from the URL when it names them)."""
    choices = data.filter_choices()
    url_state.adopt({
        "ruleset": url_state.one_of(choices.rulesets),
        "players": url_state.one_of(PLAYER_COUNTS),
        "from": _date_text,
        "to": _date_text,
        "player": url_state.one_of(choices.players),
    })
    with st.sidebar:
        st.subheader("Filters")
        st.selectbox("Ruleset", choices.rulesets, index=None, placeholder="Any ruleset", key="ruleset",
                     format_func=ruleset_label)
        st.segmented_control("Players at the table", PLAYER_COUNTS, key="players")
        # one under the other: side by side, the sidebar leaves each box too narrow to read a date (issue 23)
        st.date_input("From", value=None, min_value=EARLIEST, max_value=LATEST, key="from")
        st.date_input("To", value=None, min_value=EARLIEST, max_value=LATEST, key="to")
        st.selectbox("Player", choices.players, index=None, placeholder="Any player", key="player")
        if choices.first_date and choices.last_date:
            st.caption(f"Deals dated {choices.first_date} to {choices.last_date}.")
        st.caption(f"Store: `{data.store_path()}`")
    state = st.session_state
    url_state.publish({
        "ruleset": state.get("ruleset"),
        "players": state.get("players"),
        "from": _iso(state.get("from")),
        "to": _iso(state.get("to")),
        "player": state.get("player"),
    })


def current_filters() -> Filters:
    """The filters as the sidebar widgets set them."""
    state = st.session_state
    players = state.get("players")
    return Filters(
        ruleset=state.get("ruleset"),
        players=int(players) if players else None,
        date_from=_date(state.get("from")),
        date_to=_date(state.get("to")),
        player=state.get("player"),
    )


def _date(value: object) -> date | None:
    return value if isinstance(value, date) else None


def _iso(value: object) -> str | None:
    return value.isoformat() if isinstance(value, date) else None


def _date_text(text: str) -> date:
    value = date.fromisoformat(text)
    if not EARLIEST <= value <= LATEST:
        raise ValueError(text)
    return value
