"""Contracts: win rates of the declared contracts broken down by seat, declarer or month, and their outcomes.

Each breakdown is a chart and the table behind it, downloadable as CSV.
The breakdown chosen is kept in the ``by`` query parameter.
"""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboards import charts, data, url_state, widgets
from dashboards.labels import contract_label, seat_order_caption
from dashboards.sidebar import current_filters

BREAKDOWNS = {"seat": "Seat", "declarer": "Declarer", "month": "Month"}
HEATMAP_DECLARERS = 25  # rows of the declarer chart (the busiest declarers); the table lists everyone

RATE_COLUMNS = {
    "Contract": st.column_config.TextColumn("Contract"),
    **widgets.rate_columns(),
}


def labelled(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` with the readable ``Contract`` first (and the raw name kept for the CSV)."""
    label = pl.col("contract").map_elements(contract_label, return_dtype=pl.String).alias("Contract")
    return frame.with_columns(label).select("Contract", pl.exclude("Contract"))


filters = current_filters()
st.title("Contracts")
st.caption("Declared contracts only: Klop, deals in error and annulled deals are not counted. "
           "Intervals are 95 % Wilson score intervals.")
if widgets.no_deals_note(data.deal_count(filters)):
    st.stop()

url_state.adopt({"by": url_state.one_of(BREAKDOWNS)})
st.session_state.setdefault("by", "seat")
by = st.segmented_control("Break down by", list(BREAKDOWNS), key="by", required=True) or "seat"
url_state.publish({"by": by})
st.caption({"seat": seat_order_caption(),
            "declarer": "One row per declarer and contract; the colour is the win rate, the number the deals.",
            "month": "The line is every contract together; the table splits it by contract."}[by])

rates = labelled(data.contract_win_rates(filters, ("contract", by)))
if rates.is_empty():
    st.info("No declared contract among these deals.")
    st.stop()

if by == "seat":
    st.altair_chart(charts.win_rate_chart(rates, color="seat"), width="stretch")
elif by == "declarer":
    busiest = (rates.group_by("declarer").agg(pl.col("deals").sum())
               .sort(["deals", "declarer"], descending=[True, False])["declarer"])
    if busiest.len() > HEATMAP_DECLARERS:
        st.caption(f"The chart shows the {HEATMAP_DECLARERS} declarers with the most deals; the table has all "
                   f"{busiest.len():,}.")
    shown = busiest.head(HEATMAP_DECLARERS)
    heat = rates.filter(pl.col("declarer").is_in(shown.implode()))
    st.altair_chart(charts.rate_heatmap(heat, "declarer", "Contract", shown.to_list()), width="stretch")
else:
    st.altair_chart(charts.win_rate_by_month(data.monthly_win_rates(rates)), width="stretch")
widgets.table(rates, f"win-rates-by-contract-and-{by}",
              column_config={**RATE_COLUMNS, by: st.column_config.TextColumn(BREAKDOWNS[by])},
              column_order=["Contract", by, "deals", "wins", "win_rate", "ci_low", "ci_high"])

st.subheader("What declaring brings")
st.caption("Average score of the declarer and card points of the declarer's side; a game is close when the "
           "declarer's side ends within 5 card points of the 36 that win it (contracts decided by card points).")
outcomes = labelled(data.contract_outcomes(filters))
widgets.table(outcomes, "contract-outcomes", column_config={
    "deals": st.column_config.NumberColumn("Deals", format="localized"),
    "wins": st.column_config.NumberColumn("Wins", format="localized"),
    "avg_score": st.column_config.NumberColumn("Avg declarer score", format="%.1f"),
    "avg_card_points": st.column_config.NumberColumn("Avg card points", format="%.1f"),
    "close": st.column_config.NumberColumn("Close games", format="localized"),
    "close_share": widgets.percent_column("Close share"),
}, column_order=["Contract", "deals", "wins", "avg_score", "avg_card_points", "close", "close_share"])
