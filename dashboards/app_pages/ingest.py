"""Ingest: upload record files; they are checked and stored like ``tarock ingest`` does, and what the store
now holds from them (every deal with its findings, and the rejected lines) is shown."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboards import data, widgets
from dashboards.labels import plain
from dashboards.launch import MAX_UPLOAD_MB
from dashboards.pages import uploads_enabled
from dashboards.uploads import UploadResult, ingest_uploads
from ingest.coordinator import GenerationMismatch
from ingest.layout import StoreBusy
from tarock.cards import cards_text

RESULT = "upload_result"  # session key of the last upload's outcome, shown until the next one


def run_upload() -> None:
    """Ingest the files in the uploader (the button's callback) and keep what the store now holds."""
    uploaded = st.session_state.get("uploads") or []
    try:
        result = ingest_uploads([(f.name, f.getvalue()) for f in uploaded], data.store_path())
    except (StoreBusy, GenerationMismatch) as exc:
        st.session_state[RESULT] = str(exc)
        return
    data.forget_store()
    st.session_state[RESULT] = (result, data.stored_from(list(result.stored_as.values())))


def show(result: UploadResult, deals_found: pl.DataFrame, rejects: pl.DataFrame) -> None:
    """The outcome of an upload: refusals, the run's counts, the deals stored and the lines rejected."""
    for refused in result.refused:
        st.error(plain(refused.reason), icon=":material/block:")
    summary = result.summary
    if summary is None:
        return
    st.success(f"Read {summary.read:,} items: stored {summary.stored:,} deals ({summary.ok:,} ok, "
               f"{summary.renons:,} with renons, {summary.error:,} in error), rejected {summary.rejected:,}.",
               icon=":material/task_alt:")
    if summary.deduplicated:
        st.info(f"{summary.deduplicated:,} of these deals were already in the store: they are kept once.")
    if summary.sessions_rescored:
        st.info(f"{summary.sessions_rescored:,} session(s) already in the store, or in several files, got these "
                "deals: each was scored again as a whole, in seq order.")
    for shard, message in summary.failed:
        st.error(plain(f"{shard} failed: {message}"))
    names = {path: name for name, path in result.stored_as.items()}
    st.markdown("**Deals stored, with their findings**")
    readable = [pl.col("source_file").replace(names), pl.col("message").map_elements(cards_text, return_dtype=pl.String)]
    widgets.dataframe(deals_found.with_columns(readable), column_config={
        "source_file": st.column_config.TextColumn("File"), "source_line": st.column_config.NumberColumn("Line"),
        "deal_id": st.column_config.TextColumn("Deal"), "status": st.column_config.TextColumn("Status"),
        "code": st.column_config.TextColumn("Finding"), "trick": st.column_config.NumberColumn("Trick"),
        "player": st.column_config.TextColumn("Player"),
        "message": widgets.sentence_column("What happened"),
    }, wrap=True)
    if not rejects.is_empty():
        st.markdown("**Rejected lines** (not records: stored as rejects, with the reason)")
        widgets.dataframe(rejects.with_columns(pl.col("file").replace(names)), column_config={
            "file": "File", "line": st.column_config.NumberColumn("Line"),
            "reason": widgets.sentence_column("Reason")}, wrap=True)


st.title("Ingest")
if not uploads_enabled():
    st.error("This dashboard is read-only: it is served beyond this machine without --allow-uploads, so "
             "nothing can be added to the store here. Use tarock ingest on the server.", icon=":material/lock:")
    st.stop()
st.caption(f"Add record files to the store `{data.store_path()}`: JSON (one record or a list), JSON Lines or the "
           f".trk text format, optionally gzipped, at most {MAX_UPLOAD_MB} MB each. Every deal is replayed, "
           "checked and scored as `tarock ingest` does; a file that holds no record is refused and stores nothing.")
# no ``type``: the widget would refuse another file with a red icon and no word; ``ingest_uploads`` says why
st.file_uploader("Record files", accept_multiple_files=True, key="uploads",
                 max_upload_size=MAX_UPLOAD_MB)
st.button("Ingest", type="primary", icon=":material/upload:", on_click=run_upload,
          disabled=not st.session_state.get("uploads"))

outcome = st.session_state.get(RESULT)
if isinstance(outcome, str):
    st.error(plain(outcome))
elif outcome is not None:
    upload, (found, rejected) = outcome
    show(upload, found, rejected)
