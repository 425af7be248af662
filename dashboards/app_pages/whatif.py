"""What-if: the deals the sidebar selects (and one session, or all) rescored under up to four rules tables of
one ruleset, side by side: each player's total per table, the contracts' win rates per table, and every deal
whose scores differ, with the breakdown lines that make the difference and a link to its replay.

Nothing is re-ingested: ``analysis.whatif`` rescores the stored records beside the store's current generation
(cached until the next ingest; docs/store.md, "What-if generations").  The ruleset, the session and the tables are kept in the query string (``wruleset``, ``session``,
``tables``, comma-separated).
"""

from __future__ import annotations

import altair as alt
import polars as pl
import streamlit as st

from analysis.whatif import MAX_TABLES
from dashboards import charts, data, url_state, widgets
from dashboards.labels import contract_label, plain
from dashboards.sidebar import current_filters
from tarock.deal import RULESETS
from tarock.words import plural
from tarock.rules.tables import builtin_tables


def tables_of(ruleset: str) -> list[str]:
    """The tables the page offers for ``ruleset``: its defaults (named after it), then its presets."""
    return [t.name for t in builtin_tables() if t.ruleset == ruleset]


def totals_chart(totals: pl.DataFrame, tables: list[str]) -> alt.Chart:
    """Each player's total per table, as bars side by side."""
    order = list(dict.fromkeys(totals["player"].to_list()))
    return alt.Chart(totals).mark_bar().encode(
        x=alt.X("player:N", sort=order, title=None, axis=alt.Axis(labelAngle=0)),
        xOffset=alt.XOffset("table:N", sort=tables),
        y=alt.Y("total:Q", title="total score", axis=alt.Axis(format="d")),
        color=alt.Color("table:N", sort=tables, scale=alt.Scale(scheme=charts.CATEGORY_SCHEME), title="table"),
        tooltip=[alt.Tooltip("player:N"), alt.Tooltip("table:N"), alt.Tooltip("total:Q", format="+d"),
                 alt.Tooltip("deals:Q")],
    ).properties(height=charts.HEIGHT)


filters = current_filters()
st.title("What-if")
st.caption("The deals the sidebar selects, rescored from their stored records under each table, session by "
           "session in stored order (as `tarock score --compare` does). A session is scored whole, so a date or "
           "player filter never changes a kept deal's score; a session's open radelci are not charged.")
if widgets.no_deals_note(data.deal_count(filters)):
    st.stop()

if filters.ruleset is None:
    url_state.adopt({"wruleset": url_state.one_of(RULESETS)})
    st.session_state.setdefault("wruleset", RULESETS[0])
    ruleset = st.segmented_control("Ruleset", RULESETS, key="wruleset", required=True) or RULESETS[0]
    url_state.publish({"wruleset": ruleset})
else:
    ruleset = filters.ruleset
offered = tables_of(ruleset)

sessions = data.session_list(filters)["session"].to_list()
url_state.adopt({"session": url_state.one_of(sessions)})
if st.session_state.get("session") not in sessions:
    st.session_state["session"] = None
session = st.selectbox("Session", sessions, index=None, placeholder="Every session", key="session")
url_state.publish({"session": session})


def _tables_text(text: str) -> list[str]:
    names = list(dict.fromkeys(text.split(",")))
    if not names or len(names) > MAX_TABLES or any(n not in offered for n in names):
        raise ValueError(text)
    return names


url_state.adopt({"tables": _tables_text})
if [t for t in st.session_state.get("tables") or [] if t not in offered]:
    del st.session_state["tables"]  # tables of another ruleset
usual = data.usual_tables(ruleset)
st.session_state.setdefault("tables", [usual.own, usual.nearest])
chosen = st.multiselect("Rules tables", offered, key="tables", max_selections=MAX_TABLES,
                        help=f"{ruleset}: each deal under the options it was played with (the ruleset's defaults "
                             "where a record names none); the others are named presets. At most four.")
if chosen == [usual.own, usual.nearest]:
    st.caption(plain(f"Opened on {usual.own}, the table most of the stored {ruleset} deals were played under, "
                     f"beside {usual.nearest}, the preset closest to it: it sets {plural(len(usual.differ), 'option')} "
                     f"differently ({', '.join(usual.differ)}). Pick others to compare."))
url_state.publish({"tables": ",".join(chosen) if chosen else None})
if len(chosen) < 2:
    st.info("Pick at least two rules tables to set side by side.")
    st.stop()

with st.spinner(f"Rescoring {data.deal_count(filters):,} deals' sessions under {', '.join(chosen)} (the first "
                "time only: the answer is kept until the store changes) …", show_time=True):
    result = data.what_if(tuple(chosen), filters, session)
if not result.deals:
    st.info(f"No {ruleset} deal among these: pick another ruleset or widen the filters.")
    st.stop()

differing = result.differences["deal_id"].n_unique()
left, right = st.columns(2)
left.metric("Deals rescored", f"{result.deals:,}",
            help=None if result.scored == result.deals else
            f"{result.scored:,} scored: the selected deals' sessions whole, for their radelci.")
right.metric("Deals scoring differently", f"{differing:,}")

st.subheader("Totals per table")
st.caption("Each player's scores over the selected deals, summed, under each table.")
st.altair_chart(totals_chart(result.totals, list(result.tables)), width="stretch")
wide = result.totals.pivot("table", index="player", values="total").select("player", *result.tables)
widgets.table(wide, "whatif-totals", column_config={
    "player": st.column_config.TextColumn("Player"),
    **{name: st.column_config.NumberColumn(name, format="%+d") for name in result.tables}})

st.subheader("Contract win rates per table")
st.caption("Declared contracts only (a declarer, no error, a result), one chart per number of players; a table "
           "can change who wins through its options (the renons penalty, a rounding, …).")
rates = result.win_rates.with_columns(
    pl.col("contract").map_elements(contract_label, return_dtype=pl.String).alias("Contract"))
if rates.is_empty():
    st.info("No declared contract among these deals.")
else:
    for pool, part in charts.pools(rates.with_columns(pl.lit(ruleset).alias("ruleset"))):
        st.markdown(f"**{pool}**")
        st.altair_chart(charts.win_rate_chart(part, color="table", same_deals=True), width="stretch")
    mixed = rates["n_players"].n_unique() > 1
    widgets.table(rates.select("Contract", pl.exclude("Contract")), "whatif-win-rates", column_config={
        "Contract": st.column_config.TextColumn("Contract"),
        "n_players": st.column_config.NumberColumn("Players"),
        "table": st.column_config.TextColumn("Table"),
        **widgets.rate_columns(),
    }, column_order=["Contract", *(["n_players"] if mixed else []), "table", "deals", "wins", "win_rate", "ci_low",
                     "ci_high"])

st.subheader("Deals that score differently")
diffs = result.differences
if diffs.is_empty():
    st.success("Every selected deal scores the same under every table.")
    st.stop()
st.caption("One row per deal and player whose score or breakdown differs; the lines are those not written the "
           "same under every table.")
links = [widgets.replay_url(deal, None, result.tables) for deal in diffs["deal_id"]]
diffs = diffs.with_columns(pl.col("contract").map_elements(contract_label, return_dtype=pl.String),
                           pl.Series("replay", links, dtype=pl.String))
event = widgets.table(diffs, "whatif-differences", column_config={
    "deal_id": st.column_config.TextColumn("Deal"),
    "session": st.column_config.TextColumn("Session"),
    "seq": st.column_config.NumberColumn("#", format="localized"),
    "date": st.column_config.DateColumn("Date"),
    "contract": st.column_config.TextColumn("Contract"),
    "player": st.column_config.TextColumn("Player"),
    **{name: st.column_config.NumberColumn(name, format="%+d") for name in result.tables},
    "lines": widgets.sentence_column("What differs"),
    "replay": st.column_config.TextColumn("Replay"),
}, column_order=["deal_id", "player", *result.tables, "lines"], wrap=True,
    key="pick-whatif", on_select="rerun", selection_mode="single-row")
rows = event.selection.rows if event is not None else []
at = rows[0] if rows and rows[0] < diffs.height else 0
row = diffs.row(at, named=True)
with st.container(border=True, key="detail-whatif"):
    figures = " · ".join(f"{plain(name)} {'error' if row[name] is None else format(row[name], '+d')}"
                         for name in result.tables)
    played = " · ".join(plain(part) for part in (
        row["contract"], row["date"] and str(row["date"]),
        row["session"] and f"session {row['session']}" + (f" #{row['seq']}" if row["seq"] is not None else ""))
        if part)
    st.markdown(f"**{plain(row['deal_id'])}** · {plain(row['player'])} · {figures}  \n{played}")
    for line in (row["lines"] or "").split("; "):
        if line:
            st.markdown(f"- {plain(line)}")
    st.page_link(widgets.REPLAY_PAGE, label="Open the replay at its score, under these tables",
                 icon=":material/playing_cards:",
                 query_params=widgets.replay_query(row["deal_id"], None, result.tables))
if diffs.height > 1:
    st.caption("Select a row (the box at its left) to read its lines whole and open its replay.")
