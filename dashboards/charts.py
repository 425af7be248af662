"""Altair charts of the dashboard: win rates with their 95 % Wilson intervals as error bars.

The frames come from ``analysis`` with ``win_rate``, ``ci_low`` and
``ci_high`` in [0, 1] and the counts ``deals`` / ``wins``; rows arrive in the
order reports use (the bidding ladder, seat order), which the charts keep.
A chart of contracts holds one table's (a ruleset and a number of players: ``pools``); the pages draw one
per table, since a Tri of three players and one of four, or a Königrufen Dreier, are different games.
"""

from __future__ import annotations

from typing import Any, Final

import altair as alt
import polars as pl

from dashboards.labels import PERCENT_D3, contract_label, pool_label

HEIGHT: Final = 320
ACCENT: Final = "#1565c0"
"""The colour of single-series marks."""
WHISKER: Final = "#5b6b7f"
"""The colour of single-series interval bars."""
CATEGORY_SCHEME: Final = "tableau10"
"""The colours of a split (seats, renons codes)."""
RATE_AXIS = alt.Scale(domain=[0, 1])


def _with_labels(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` with a readable ``Contract`` column when it has ``contract``."""
    if "contract" not in frame.columns:
        return frame
    return frame.with_columns(pl.col("contract").map_elements(contract_label, return_dtype=pl.String)
                              .alias("Contract"))


def _order(frame: pl.DataFrame, column: str) -> list[Any]:
    """The values of ``column`` in the order they first appear (the order ``analysis`` sorted them in)."""
    return list(dict.fromkeys(frame[column].to_list()))


def _tooltip(*fields: str) -> list[alt.Tooltip]:
    return [
        *(alt.Tooltip(f"{name}:N") for name in fields),
        alt.Tooltip("win_rate:Q", title="win rate", format=PERCENT_D3),
        alt.Tooltip("ci_low:Q", title="95 % CI low", format=PERCENT_D3),
        alt.Tooltip("ci_high:Q", title="95 % CI high", format=PERCENT_D3),
        alt.Tooltip("wins:Q"),
        alt.Tooltip("deals:Q"),
    ]


POOL = "pool"
"""The column ``pools`` adds: a table's ruleset and number of players in words ("Slovenian, 4 players")."""


def with_pool(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` (with ``ruleset`` and ``n_players``, analysis's ``ruleset`` grouping) with the ``POOL`` column."""
    return frame.with_columns(pl.struct("ruleset", "n_players").map_elements(
        lambda row: pool_label(row["ruleset"], row["n_players"]), return_dtype=pl.String).alias(POOL))


def pools(frame: pl.DataFrame) -> list[tuple[str, pl.DataFrame]]:
    """``frame`` (as ``with_pool`` takes it) cut into one frame per table, in the order they come, each named."""
    return [(str(name), part) for (name,), part in with_pool(frame).group_by(POOL, maintain_order=True)]


ROW_LABEL = "row_label"
"""The axis label of a row of ``win_rate_chart``: the category and its deals, "Solo tri · 1,234 deals"."""


def win_rate_chart(frame: pl.DataFrame, category: str = "Contract", color: str | None = None,
                   same_deals: bool = False) -> alt.LayerChart:
    """Win rate per ``category`` as a row each (points with 95 % Wilson error bars), ``color`` splitting each
    row into one line per value; the row's label says its deals: the lines' deals summed, or with
    ``same_deals`` (every line the same deals, as What-if's rules tables rescore them) counted once.

    ``category`` is a column of ``frame`` (``Contract`` is derived from ``contract``).  Rows, not columns:
    every label has a line of its own, so none is dropped and no count overlaps another (issue 38: half the
    contracts had no label and the "N deals" ran into each other).
    """
    data = _with_labels(frame).filter(pl.col("deals") > 0)
    counted = pl.col("deals").max() if same_deals else pl.col("deals").sum()
    totals = data.group_by(category, maintain_order=True).agg(counted.alias("row_deals"))
    data = data.join(totals, on=category, how="left").with_columns(
        pl.format("{} · {} deal{}", pl.col(category),
                  pl.col("row_deals").map_elements(lambda n: f"{n:,}", return_dtype=pl.String),
                  pl.when(pl.col("row_deals") == 1).then(pl.lit("")).otherwise(pl.lit("s"))).alias(ROW_LABEL))
    rows = _order(data, ROW_LABEL)
    base = alt.Chart(data).encode(
        y=alt.Y(f"{ROW_LABEL}:N", sort=rows, title=None, axis=alt.Axis(labelOverlap=False, labelLimit=300)),
        tooltip=_tooltip(category, *([color] if color else [])),
    )
    split: dict[str, Any] = {}
    if color is None:
        bars = base.mark_rule(strokeWidth=2, color=WHISKER)
        points = base.mark_point(filled=True, size=80, opacity=1, color=ACCENT)
        per_row = 26
    else:
        colors = alt.Scale(scheme=CATEGORY_SCHEME)
        split = {"color": alt.Color(f"{color}:N", sort=_order(data, color), scale=colors),
                 "yOffset": alt.YOffset(f"{color}:N", sort=_order(data, color))}
        bars = base.mark_rule(strokeWidth=2).encode(**split)
        points = base.mark_point(filled=True, size=60, opacity=1).encode(**split)
        per_row = 10 + 10 * data[color].n_unique()
    bars = bars.encode(x=alt.X("ci_low:Q", scale=RATE_AXIS, title="win rate (95 % interval)",
                               axis=alt.Axis(format="%")), x2="ci_high:Q")
    points = points.encode(x=alt.X("win_rate:Q", scale=RATE_AXIS))
    even = alt.Chart(pl.DataFrame({"x": [0.5]})).mark_rule(strokeDash=[4, 4], color="#9aa5b1").encode(x="x:Q")
    return alt.LayerChart(layer=[even, bars, points]).properties(height=70 + per_row * max(len(rows), 2))


def rate_heatmap(frame: pl.DataFrame, row: str, column: str, row_order: list[str]) -> alt.LayerChart:
    """Win rate of every ``row`` × ``column`` cell as colour, with the number of deals written in it.

    Rows follow ``row_order``; columns keep the order of ``frame`` (the bidding ladder).
    """
    data = _with_labels(frame).filter(pl.col("deals") > 0)
    base = alt.Chart(data).encode(
        x=alt.X(f"{column}:N", sort=_order(data, column), title=None,
                axis=alt.Axis(labelAngle=-40, labelAlign="left", orient="top", labelOverlap=False, labelLimit=160)),
        y=alt.Y(f"{row}:N", sort=row_order, title=None),
        tooltip=_tooltip(row, column),
    )
    cells = base.mark_rect().encode(color=alt.Color("win_rate:Q", title="win rate", legend=alt.Legend(format="%"),
                                                    scale=alt.Scale(domain=[0, 1], scheme="redyellowgreen")))
    legible = alt.condition("datum.win_rate < 0.2 || datum.win_rate > 0.8", alt.value("white"), alt.value("black"))
    text = base.mark_text(fontSize=11).encode(text=alt.Text("deals:Q", format=","), color=legible)
    return alt.LayerChart(layer=[cells, text]).properties(height=110 + 30 * len(row_order))


def dated_months(frame: pl.DataFrame) -> pl.DataFrame:
    """The rows of ``frame`` (per month) that have deals and a month: what ``win_rate_by_month`` draws."""
    return frame.filter((pl.col("deals") > 0) & pl.col("month").is_not_null())


def win_rate_by_month(frame: pl.DataFrame) -> alt.LayerChart:
    """Win rate per month as a line with a shaded 95 % interval band; a single month, which makes no line, as a
    point with its interval bar (issue 38: one dot stood under a caption about a line)."""
    data = dated_months(frame)
    base = alt.Chart(data).encode(x=alt.X("month:O", title=None, axis=alt.Axis(labelAngle=-45)),
                                  tooltip=_tooltip("month"))
    y = alt.Y("ci_low:Q", scale=RATE_AXIS, title="win rate (95 % interval)", axis=alt.Axis(format="%"))
    if data.height == 1:
        layers = [base.mark_rule(strokeWidth=2, color=WHISKER).encode(y=y, y2="ci_high:Q"),
                  base.mark_point(filled=True, size=80, opacity=1, color=ACCENT).encode(y="win_rate:Q")]
    else:
        layers = [base.mark_area(opacity=0.25, color=ACCENT).encode(y=y, y2="ci_high:Q"),
                  base.mark_line(point=True, color=ACCENT).encode(y="win_rate:Q")]
    return alt.LayerChart(layer=layers).properties(height=HEIGHT)


def bar_chart(frame: pl.DataFrame, category: str, value: str, title: str, fmt: str = "d",
              order: list[str] | None = None, highlight: str | None = None) -> alt.Chart:
    """A horizontal bar per ``category``: in ``order`` when given, else longest first; ``highlight`` names the
    bar drawn in the accent colour (the others grey).

    ``fmt`` is the d3 format of the values: ``d`` keeps counts' ticks whole, ``%`` (a rate in [0, 1]) gives
    whole-percent ticks, none repeated, and tooltips in the one percentage format (``labels.PERCENT_D3``).
    """
    if fmt == "d":
        axis, tip = alt.Axis(format=fmt, tickMinStep=1), fmt
    elif fmt == "%":
        axis, tip = alt.Axis(format="%", tickMinStep=0.01), PERCENT_D3
    else:
        axis, tip = alt.Axis(format=fmt), fmt
    colour: Any = alt.value(ACCENT) if highlight is None else alt.condition(
        alt.datum[category] == highlight, alt.value(ACCENT), alt.value("#b0bec5"))
    return alt.Chart(frame).mark_bar().encode(
        y=alt.Y(f"{category}:N", sort=order or "-x", title=None, axis=alt.Axis(labelLimit=220, labelOverlap=False)),
        x=alt.X(f"{value}:Q", title=title, axis=axis),
        color=colour,
        tooltip=[alt.Tooltip(f"{category}:N"), alt.Tooltip(f"{value}:Q", format=tip)],
    ).properties(height=_rows_height(frame, category))


def _rows_height(frame: pl.DataFrame, category: str) -> int:
    """The height of a chart with one row per value of ``category``: every label readable.

    Streamlit fits the whole chart, axis and title included, into this height.
    """
    return 70 + 28 * max(frame[category].n_unique(), 2)


def win_rate_rows(frame: pl.DataFrame, category: str, order: list[str] | None = None,
                  highlight: str | None = None) -> alt.LayerChart:
    """Win rate per ``category`` as a row each (points with 95 % Wilson bars): for long lists of names; rows in
    ``order`` when given, ``highlight`` drawn larger in the accent colour (the others grey)."""
    data = frame.filter(pl.col("deals") > 0)
    base = alt.Chart(data).encode(
        y=alt.Y(f"{category}:N", sort=order or _order(data, category), title=None,
                axis=alt.Axis(labelOverlap=False)),
        tooltip=_tooltip(category),
    )
    bars = base.mark_rule(strokeWidth=2, color=WHISKER).encode(
        x=alt.X("ci_low:Q", scale=RATE_AXIS, title="win rate (95 % interval)", axis=alt.Axis(format="%")),
        x2="ci_high:Q")
    colour: Any = alt.value(ACCENT) if highlight is None else alt.condition(
        alt.datum[category] == highlight, alt.value(ACCENT), alt.value("#b0bec5"))
    points = base.mark_point(filled=True, size=70, opacity=1).encode(x=alt.X("win_rate:Q", scale=RATE_AXIS),
                                                                      color=colour)
    even = alt.Chart(pl.DataFrame({"x": [0.5]})).mark_rule(strokeDash=[4, 4], color="#9aa5b1").encode(x="x:Q")
    return alt.LayerChart(layer=[even, bars, points]).properties(height=_rows_height(data, category))
