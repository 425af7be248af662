"""Small building blocks the pages share: tables with a CSV download, replay links, empty-store notes."""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import urlencode

import polars as pl
import streamlit as st

from dashboards.labels import PERCENT_PRINTF, percent
from dashboards.pages import uploads_enabled
from dashboards.replay_nav import step_number
from ingest.csv_out import frame_csv

REPLAY_PAGE = "app_pages/replay.py"


def replay_query(deal_id: str, step: int | None = 0, tables: Sequence[str] = ()) -> dict[str, str]:
    """The query parameters of the Replay page showing ``deal_id`` at the step of index ``step`` (from 0; None:
    the final step; the address numbers it from 1, as the page does), its score step under ``tables`` side by
    side when given."""
    query = {"deal": deal_id, "step": step_number(step)}
    if tables:
        query["tables"] = ",".join(tables)
    return query


def replay_url(deal_id: str, step: int | None = 0, tables: Sequence[str] = ()) -> str:
    """The relative address of ``replay_query``'s page."""
    return "replay?" + urlencode(replay_query(deal_id, step, tables), safe=",")


PERCENT = "percent"
"""The ``format`` of a column holding a rate in [0, 1]: ``shown`` writes it as ``labels.percent`` does."""
CONTENT_ROWS = 25
"""Tables of at most this many rows are as tall as their content (no inner scrolling hides a row)."""
CHAR_PX = 7
"""About the width of one character of a table's font, in pixels (Source Sans at 14 px; digits the widest)."""
PAD_PX = 26
"""A cell's padding and a header's sort mark, in pixels."""
MAX_FIT_PX = 260
"""The widest a column grows to fit its content; a longer text is a sentence column's (``sentence_column``)."""
SENTENCE_PX = 320
"""The width of a column of sentences (a finding's, a breakdown line's): its text wraps instead of being cut."""
WRAP_ROW_PX = 72
"""The row height of a table with a sentence column: Streamlit wraps text cells only in rows over 4rem (64 px);
72 px holds three lines."""
WRAPPED_ROWS_SHOWN = 10
"""How many of its tall rows a long table with a sentence column shows before it scrolls (Streamlit's default
height would show five)."""
HEADER_PX = 38
"""The height of a table's header row."""


def percent_column(label: str, help: str | None = None) -> Any:
    """The column of a rate in [0, 1], shown like every percentage of the dashboard ("62.5%")."""
    return st.column_config.NumberColumn(label, format=PERCENT, help=help)


def sentence_column(label: str, width: int = SENTENCE_PX, help: str | None = None) -> Any:
    """The column of a sentence, ``width`` pixels wide: a table holding one is drawn with ``wrap=True``, so the
    sentence wraps over three lines where a one-line cell would cut it (issue 38)."""
    return st.column_config.TextColumn(label, width=width, help=help)


def fitted_px(values: pl.Series, label: str, write: Callable[[Any], str] = str) -> int:
    """The pixels a column needs to show its ``label`` and every value (as ``write`` writes it) whole, at most
    ``MAX_FIT_PX``: a column of the width Streamlit guesses, or "small", cut "Recomputed" to "Recompute" and
    a date to "Da" (issue 38)."""
    kept = values.drop_nulls()
    if kept.is_empty():
        longest = 0
    elif kept.dtype == pl.String:
        longest = int(kept.str.len_chars().max() or 0)  # type: ignore[arg-type]
    elif kept.dtype.is_numeric():  # the longest written number is the smallest or the largest
        longest = max(len(write(kept.min())), len(write(kept.max())))
    else:
        longest = max(len(write(v)) for v in kept.head(CONTENT_ROWS))  # dates, times: all written alike
    return min(MAX_FIT_PX, CHAR_PX * max(len(label), longest) + PAD_PX)


def rate_columns(wins: str = "Wins") -> dict[str, Any]:
    """The columns of a win-rate table every page draws alike: deals, ``wins`` (its label), the rate and its
    95 % Wilson interval (``analysis.stats.with_rate``'s names)."""
    return {
        "deals": st.column_config.NumberColumn("Deals", format="localized"),
        "wins": st.column_config.NumberColumn(wins, format="localized"),
        "win_rate": percent_column("Win rate"),
        "ci_low": percent_column("95 % low"),
        "ci_high": percent_column("95 % high"),
    }


_PRINTF_DIGITS = re.compile(r"%[-+ 0#]*\d*\.(\d+)f")


def rounded(column: pl.Expr, fmt: str | None) -> pl.Expr:
    """A float ``column`` rounded to the digits its printf ``fmt`` shows, with no negative zero: -0.3 under
    ``%+.0f`` was written "-0" (issue 38); it is 0.  Other columns as they are."""
    digits = _PRINTF_DIGITS.search(fmt or "")
    if digits is None:
        return column
    half = 0.5 * 10 ** -int(digits[1])
    return pl.when(column.is_between(-half, half)).then(0.0).otherwise(column)


def _formatter(fmt: str | None) -> Callable[[Any], str]:
    """A Python function writing a value the way the column's ``format`` shows it."""
    if fmt == PERCENT:
        return percent
    if fmt == "localized":
        return lambda v: f"{v:,}"
    if fmt and "%" in fmt:
        return lambda v: fmt % v
    return str


def shown(frame: pl.DataFrame, column_config: dict[str, Any] | None = None) -> tuple[pl.DataFrame, dict[str, Any]]:
    """``frame`` and its column settings as a table draws them: blank means "not recorded" or "not
    applicable", never "None" (issue 23).

    A column with a missing value becomes text (each value written as its ``format`` says, a missing one
    blank); a rate column (``format="percent"``) is scaled to percent and written as ``labels.percent``
    writes it. A column given no width is as wide as its label and its longest value (``fitted_px``). The
    CSV download keeps ``frame`` as it is.
    """
    config: dict[str, Any] = {}
    columns: list[pl.Expr] = []
    for name in frame.columns:
        given = (column_config or {}).get(name)
        spec: dict[str, Any] = {"label": given} if isinstance(given, str) else dict(given or {})
        fmt = (spec.get("type_config") or {}).get("format")
        write = _formatter(fmt)
        link_text = (spec.get("type_config") or {}).get("display_text")
        width = spec.get("width") or fitted_px(frame[name] if link_text is None else pl.Series([link_text]),
                                               spec.get("label") or name, write)
        value = rounded(pl.col(name), fmt) if frame[name].dtype.is_float() else pl.col(name)
        if frame[name].null_count():
            with warnings.catch_warnings():  # polars would rather see ``fmt % col``: a printf format is not one
                warnings.simplefilter("ignore", pl.exceptions.PolarsInefficientMapWarning)
                text = (value.cast(pl.String) if write is str
                        else value.map_elements(write, return_dtype=pl.String, skip_nulls=True))
            columns.append(text.fill_null("").alias(name))
            config[name] = st.column_config.TextColumn(spec.get("label") or name, help=spec.get("help"),
                                                       width=width)
        elif fmt == PERCENT:
            columns.append(pl.col(name) * 100)
            config[name] = st.column_config.NumberColumn(spec.get("label") or name, help=spec.get("help"),
                                                         width=width, format=PERCENT_PRINTF)
        elif isinstance(given, dict):
            if frame[name].dtype.is_float():
                columns.append(value.alias(name))
            config[name] = {**given, "width": width}
        else:
            config[name] = {"label": spec.get("label") or name, "width": width}
    return (frame.with_columns(columns) if columns else frame), config


def dataframe(frame: pl.DataFrame, column_config: dict[str, Any] | None = None,
              column_order: list[str] | None = None, *, wrap: bool = False, **select: Any) -> Any:
    """``st.dataframe`` of ``frame`` as ``shown`` writes it, as tall as its content when it is short, its rows
    tall enough for a ``sentence_column`` to wrap when ``wrap``; ``select`` passes row selection (``key``,
    ``on_select``, ``selection_mode`` …) on."""
    data, config = shown(frame, column_config)
    height: int | str = "content" if frame.height <= CONTENT_ROWS else \
        WRAP_ROW_PX * WRAPPED_ROWS_SHOWN + HEADER_PX if wrap else "auto"
    return st.dataframe(data, hide_index=True, column_config=config, column_order=column_order, height=height,
                        row_height=WRAP_ROW_PX if wrap else None, **select)


def table(frame: pl.DataFrame, name: str, column_config: dict[str, Any] | None = None,
          column_order: list[str] | None = None, *, wrap: bool = False, **select: Any) -> Any:
    """A table (``dataframe``) and, under it, a button downloading the same rows as ``<name>.csv``
    (formula cells neutralised: ``ingest.csv_out``); returns what ``st.dataframe`` returns."""
    event = dataframe(frame, column_config, column_order, wrap=wrap, **select)
    st.download_button("Download CSV", frame_csv(frame), file_name=f"{name}.csv", mime="text/csv",
                       key=f"csv-{name}", icon=":material/download:")
    return event


def no_deals_note(count: int) -> bool:
    """Say so when the filters keep no deal; True when there is nothing to show."""
    if count:
        return False
    add = "add record files on the Ingest page" if uploads_enabled() else "add record files with tarock ingest"
    st.info(f"No deals match the filters (or the store is empty): widen the filters in the sidebar, or {add}.")
    return True
