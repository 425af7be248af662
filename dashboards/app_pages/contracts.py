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
            "month": "Every contract of a table together, month by month; the table below splits it by contract."
            }[by] + " One chart per ruleset and number of players.")

rates = labelled(data.contract_win_rates(filters, ("ruleset", "contract", by)))
if rates.is_empty():
    st.info("No declared contract among these deals.")
    st.stop()


def month_caption(months: pl.DataFrame) -> str:
    """What the month chart of one table shows: a line, or the single month whose point it is."""
    if months.height == 1:
        return (f"All these deals are from one month, {months['month'][0]}: the point is their win rate and the "
                "bar its 95 % interval; a line needs two months.")
    return "The line is every contract together, the band its 95 % interval."


for pool, part in charts.pools(rates):
    st.markdown(f"**{pool}**")
    if by == "seat":
        st.altair_chart(charts.win_rate_chart(part, color="seat"), width="stretch")
    elif by == "declarer":
        busiest = (part.group_by("declarer").agg(pl.col("deals").sum())
                   .sort(["deals", "declarer"], descending=[True, False])["declarer"])
        if busiest.len() > HEATMAP_DECLARERS:
            st.caption(f"The chart shows the {HEATMAP_DECLARERS} declarers with the most deals; the table has all "
                       f"{busiest.len():,}.")
        shown = busiest.head(HEATMAP_DECLARERS)
        heat = part.filter(pl.col("declarer").is_in(shown.implode()))
        st.altair_chart(charts.rate_heatmap(heat, "declarer", "Contract", shown.to_list()), width="stretch")
    else:
        months = charts.dated_months(data.monthly_win_rates(part))
        if months.is_empty():
            st.caption("No dated deal: no month to draw.")
            continue
        st.altair_chart(charts.win_rate_by_month(months), width="stretch")
        st.caption(month_caption(months))
widgets.table(charts.with_pool(rates), f"win-rates-by-contract-and-{by}",
    column_config={**RATE_COLUMNS, charts.POOL: st.column_config.TextColumn("Table"),
                   by: st.column_config.TextColumn(BREAKDOWNS[by])},
    column_order=[charts.POOL, "Contract", by, "deals", "wins", "win_rate", "ci_low", "ci_high"])

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
