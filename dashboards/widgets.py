"""Small building blocks the pages share: tables with a CSV download, replay links, empty-store notes."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import polars as pl
import streamlit as st

from dashboards.pages import uploads_enabled
from ingest.csv_out import frame_csv

REPLAY_PAGE = "app_pages/replay.py"


def replay_url(deal_id: str, step: int | None = 0) -> str:
    """The relative address of the Replay page showing ``deal_id`` at ``step`` (None: the final step)."""
    return "replay?" + urlencode({"deal": deal_id, "step": "end" if step is None else step})


def table(frame: pl.DataFrame, name: str, column_config: dict[str, Any] | None = None,
          column_order: list[str] | None = None) -> None:
    """A table and, under it, a button downloading the same rows as ``<name>.csv`` (formula cells
    neutralised: ``ingest.csv_out``)."""
    st.dataframe(frame, hide_index=True, column_config=column_config, column_order=column_order)
    st.download_button("Download CSV", frame_csv(frame), file_name=f"{name}.csv", mime="text/csv",
                       key=f"csv-{name}", icon=":material/download:")


def no_deals_note(count: int) -> bool:
    """Say so when the filters keep no deal; True when there is nothing to show."""
    if count:
        return False
    add = "add record files on the Ingest page" if uploads_enabled() else "add record files with tarock ingest"
    st.info(f"No deals match the filters (or the store is empty): widen the filters in the sidebar, or {add}.")
    return True
