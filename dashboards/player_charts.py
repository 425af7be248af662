"""Altair charts of the Players page: rating bands over time, a calendar of results, the partner matrix.

The frames come from ``analysis.ratings.history``, ``analysis.calendar``
and ``analysis.partnerships.partners``; the charts only shape them.
"""

from __future__ import annotations

import datetime as dt
from typing import Final

import altair as alt
import polars as pl

from dashboards.charts import CATEGORY_SCHEME, HEIGHT
from dashboards.labels import PERCENT_D3

BAND_SIGMAS: Final = 2
"""The band drawn around a rating: μ ± 2σ, where the player's skill lies with about 95 % belief."""
EMPTY_DAY: Final = "#ebedf0"
"""A calendar day without deals."""
WEEKDAYS: Final = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def rating_bands(history: pl.DataFrame) -> alt.LayerChart:
    """Each player's rating μ as a line inside its μ ± 2σ band: by date (the day's last rating) when every deal
    has one, else by the pool's deal number."""
    dated = history["date"].null_count() == 0
    x_field = "date" if dated else "deal_index"
    frame = history
    if dated:  # one point a day: the rating after the day's last deal
        frame = history.sort("deal_index").group_by("player", "date", maintain_order=True).last()
    frame = frame.with_columns((pl.col("mu") - BAND_SIGMAS * pl.col("sigma")).alias("low"),
                               (pl.col("mu") + BAND_SIGMAS * pl.col("sigma")).alias("high"))
    x = (alt.X("date:T", title=None) if dated else
         alt.X("deal_index:Q", title="deal number in the pool", axis=alt.Axis(format="d", tickMinStep=1)))
    colour = alt.Color("player:N", scale=alt.Scale(scheme=CATEGORY_SCHEME), title="player")
    tooltip = [alt.Tooltip("player:N"), alt.Tooltip(f"{x_field}:{'T' if dated else 'Q'}"),
               alt.Tooltip("games:Q", title="rated deals"), alt.Tooltip("mu:Q", title="μ", format=".2f"),
               alt.Tooltip("sigma:Q", title="σ", format=".2f"),
               alt.Tooltip("ordinal:Q", title="μ − 3σ", format=".2f")]
    base = alt.Chart(frame).encode(x=x, color=colour, tooltip=tooltip)
    band = base.mark_area(opacity=0.18).encode(
        y=alt.Y("low:Q", title=f"rating μ ± {BAND_SIGMAS}σ", scale=alt.Scale(zero=False)), y2="high:Q")
    line = base.mark_line(strokeWidth=2).encode(y="mu:Q")
    return alt.LayerChart(layer=[band, line]).properties(height=HEIGHT)


def calendar_frame(days: pl.DataFrame) -> pl.DataFrame:
    """Every day of the years ``days`` touches, with the day's figures (zero deals where none), its year, its week
    column (weeks start on Monday, week 0 holds 1 January) and weekday."""
    years = sorted({d.year for d in days["date"]})
    every = pl.concat([pl.DataFrame({"date": pl.date_range(dt.date(y, 1, 1), dt.date(y, 12, 31), eager=True)})
                       for y in years])
    # a day without deals counts 0 (Vega-Lite drops a mark whose colour field is null)
    full = every.join(days, on="date", how="left").with_columns(pl.col("deals").fill_null(0), pl.col("net").fill_null(0))
    jan1_weekday = pl.date(pl.col("date").dt.year(), 1, 1).dt.weekday() - 1  # 0 = Monday
    return full.with_columns(
        pl.col("date").dt.year().alias("year"),
        ((pl.col("date").dt.ordinal_day() - 1 + jan1_weekday) // 7).alias("week"),
        pl.col("date").dt.weekday().map_elements(lambda d: WEEKDAYS[d - 1], return_dtype=pl.String).alias("weekday"),
        pl.col("date").dt.strftime("%Y-%m-%d").alias("day"),
    )


def calendar_heatmap(days: pl.DataFrame) -> alt.FacetChart:
    """A contributions calendar: a square per day, one row of weeks per year, coloured by the net score (green
    in plus, red in minus, grey without deals); tooltips give the day's deals and its best and worst deal."""
    frame = calendar_frame(days)
    reach = max(1, int(days["net"].abs().max() or 1))  # type: ignore[arg-type]
    colour = alt.condition("datum.deals > 0", alt.Color(
        "net:Q", title="net score", scale=alt.Scale(scheme="redyellowgreen", domain=[-reach, reach])),
        alt.value(EMPTY_DAY))
    chart = alt.Chart(frame).mark_rect(cornerRadius=2, stroke="white", strokeWidth=1.5).encode(
        x=alt.X("week:O", title=None, axis=None),
        y=alt.Y("weekday:O", sort=list(WEEKDAYS), title=None),
        color=colour,
        tooltip=[alt.Tooltip("day:N", title="date"), alt.Tooltip("deals:Q"),
                 alt.Tooltip("net:Q", title="net score", format="+,"),
                 alt.Tooltip("best_deal:N", title="best deal"), alt.Tooltip("best:Q", title="its score", format="+,"),
                 alt.Tooltip("worst_deal:N", title="worst deal"),
                 alt.Tooltip("worst:Q", title="its score", format="+,")],
    ).properties(width=alt.Step(13), height=alt.Step(13))
    return chart.facet(row=alt.Row("year:O", title=None, header=alt.Header(labelAngle=0, labelFontWeight="bold")))


def partner_matrix(pairs: pl.DataFrame, players: list[str]) -> alt.LayerChart:
    """How each pair of ``players`` does together: the win rate as colour for ranked pairs (enough deals),
    grey for pairs too small to rank, the number of deals written in each cell; symmetric."""
    both = pl.concat([pairs, pairs.rename({"player_a": "player_b", "player_b": "player_a"})
                      .select(pairs.columns)])
    data = both.filter(pl.col("player_a").is_in(players) & pl.col("player_b").is_in(players))
    base = alt.Chart(data).encode(
        x=alt.X("player_b:N", sort=players, title=None, axis=alt.Axis(orient="top", labelAngle=-40)),
        y=alt.Y("player_a:N", sort=players, title=None),
        tooltip=[alt.Tooltip("player_a:N", title="player"), alt.Tooltip("player_b:N", title="partner"),
                 alt.Tooltip("deals:Q"), alt.Tooltip("wins:Q"),
                 alt.Tooltip("win_rate:Q", title="win rate", format=PERCENT_D3),
                 alt.Tooltip("ci_low:Q", title="95 % CI low", format=PERCENT_D3),
                 alt.Tooltip("ci_high:Q", title="95 % CI high", format=PERCENT_D3),
                 alt.Tooltip("mean_score:Q", title="mean score", format=".1f"),
                 alt.Tooltip("rank:Q", title="rank")])
    cells = base.mark_rect().encode(color=alt.condition(
        "datum.ranked", alt.Color("win_rate:Q", title="win rate", legend=alt.Legend(format="%"),
                                  scale=alt.Scale(domain=[0, 1], scheme="redyellowgreen")), alt.value(EMPTY_DAY)))
    text = base.mark_text(fontSize=11).encode(text=alt.Text("deals:Q", format=","))
    return alt.LayerChart(layer=[cells, text]).properties(height=90 + 28 * len(players))
