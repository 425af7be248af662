"""Players: one row per player (deals, contracts declared and won, scores, radelci, renons, strong hands dealt),
charts, a link to each player's deals in the Replay page; ratings with their uncertainty over time, a player's
calendar of results, roles and partners, and the accuracy of their play where the solver has analysed it."""

from __future__ import annotations

from functools import partial

import polars as pl
import streamlit as st

from dashboards import charts, data, url_state, widgets
from dashboards import player_sections
from dashboards.labels import plain
from dashboards.sidebar import current_filters

PLAYER_COLUMNS = {
    "player": st.column_config.TextColumn("Player"),
    "deals": st.column_config.NumberColumn("Deals", format="localized"),
    "declared": st.column_config.NumberColumn("Declared", format="localized"),
    "won": st.column_config.NumberColumn("Won", format="localized", help="Declared contracts won."),
    "win_rate": widgets.percent_column("Win rate", help="Won / declared."),
    "score_per_deal": st.column_config.NumberColumn("Score / deal", format="%.1f"),
    "total_score": st.column_config.NumberColumn("Total score", format="localized"),
    "radelci": st.column_config.NumberColumn("Radelci", format="localized",
                                             help="Radelci still open at the end of the player's sessions."),
    "renons": st.column_config.NumberColumn("Renons", format="localized"),
    "renons_rate": widgets.percent_column("Renons / deal"),
    "strong_share": widgets.percent_column(
        "Strong hands", help="Share of rated deals dealt a strong hand: at least 7 taroks (9 at three players) "
                             "or 2 kings. A hot streak on strong hands is the cards."),
}

CHART_PLAYERS = 20  # players in the charts (those with the most deals); the table lists everyone
FOLLOWED = "players_followed"  # the sidebar's player the pick last followed
GO_REPLAY = "players_go_replay"  # set by the button, acted on once the sidebar has the new player


def open_replay(name: str) -> None:
    """Make ``name`` the sidebar's player filter and ask for the Replay page (the button's callback).

    The sidebar's widget is drawn before this page on every run, so its value
    can only be changed before the next run starts: here.
    """
    st.session_state["player"] = name
    st.session_state[GO_REPLAY] = True


filters = current_filters()
data.ask_ahead(partial(data.player_table, filters), partial(data.strong_hands, filters),
               partial(data.player_ratings, filters), partial(data.partner_pairs, filters),
               partial(data.contract_win_rates, filters, ("declarer",)), partial(data.play_accuracy, filters))
st.title("Players")
if widgets.no_deals_note(data.deal_count(filters)):
    st.stop()

table = data.player_table(filters).join(data.strong_hands(filters).select("player", "strong_share"),
                                        on="player", how="left")
SCORES = ("score_per_deal", "total_score")
mixed = filters.ruleset is None and data.ruleset_count(filters) > 1
if mixed:  # Königrufen and Slovenian points are not on one scale: never added up or averaged together
    st.info("These deals mix Königrufen and Slovenian games, whose points are not on one scale: choose a ruleset "
            "in the sidebar to see scores.", icon=":material/rule:")
widgets.table(table, "players", column_config=PLAYER_COLUMNS,
              column_order=[c for c in PLAYER_COLUMNS if not (mixed and c in SCORES)])

st.subheader("A player's deals")
names = table["player"].to_list()
url_state.adopt({"pick": url_state.one_of(names)})
if filters.player != st.session_state.get(FOLLOWED):  # the sidebar's player changed: the pick follows it
    st.session_state["pick"] = filters.player if filters.player in names else None
st.session_state[FOLLOWED] = filters.player
chosen = st.selectbox("Player", names, index=None, placeholder="Choose a player", key="pick")
url_state.publish({"pick": chosen})
if chosen is not None:
    row = table.filter(pl.col("player") == chosen).row(0, named=True)
    st.button(f"Replay {plain(chosen)}'s {row['deals']:,} deals", icon=":material/playing_cards:",
              key="open_replay", on_click=open_replay, args=(chosen,))
if st.session_state.pop(GO_REPLAY, False):
    st.switch_page(widgets.REPLAY_PAGE)

busiest = table.sort(["deals", "player"], descending=[True, False]).head(CHART_PLAYERS)
order = busiest["player"].to_list()  # one sort for every chart: the busiest first
if table.height > CHART_PLAYERS:
    st.caption(f"The charts show the {CHART_PLAYERS} players with the most deals; the table has all "
               f"{table.height:,}.")
left, right = st.columns(2)
with left:
    st.subheader("Win rate as declarer")
    rates = data.contract_win_rates(filters, ("declarer",))
    rates = rates.filter(pl.col("declarer").is_in(busiest["player"].implode()))
    if rates.is_empty():
        st.info("Nobody declared a contract in these deals.")
    else:
        st.altair_chart(charts.win_rate_rows(rates, "declarer", order, chosen), width="stretch")
with right:
    st.subheader("Score per deal")
    if mixed:
        st.caption("Choose a ruleset in the sidebar: Königrufen and Slovenian scores are not averaged together.")
    else:
        st.altair_chart(charts.bar_chart(busiest.drop_nulls("score_per_deal"), "player", "score_per_deal",
                                         "average score per deal", fmt=".1f", order=order, highlight=chosen),
                        width="stretch")

st.subheader("Renons per deal played")
st.caption("Details by code and the renons themselves are on the Audit page.")
st.altair_chart(charts.bar_chart(busiest, "player", "renons_rate", "renons per deal played", fmt="%", order=order,
                                 highlight=chosen), width="stretch")

player_sections.show(filters, chosen, mixed)
