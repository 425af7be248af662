"""The Replay page's "against best play" table: what each card of a trick cost its side against double-dummy
best play, and the cards that would have cost nothing.

The rows come from the store's ``card_analysis`` table (``tarock analyse --store``) or, for a trick the store
has not analysed, from an analysis run on the page at the viewer's request (``dashboards.analyse_now``), kept
in the viewer's session: from a middle trick on it takes well under a second, from the first tricks it can
take minutes and is stopped at ``analyse_now.LIMIT`` seconds (docs/solver.md, "Speed").
"""

from __future__ import annotations

import orjson
import polars as pl
import streamlit as st

from analysis.deals import DealDetail
from dashboards import analyse_now, widgets
from dashboards.analyse_now import Outcome
from ingest.card_analysis import POINT_CONTRACTS

_RUNS = "replay_analysed_here"
"""Session key: the analyses run on the page, ``{(deal_id, from_trick): Outcome}``."""

_ROWS: dict[str, pl.DataType | type[pl.DataType]] = {"trick": pl.Int32, "order": pl.Int32, "player": pl.String, "card": pl.String,
         "best_cards": pl.List(pl.String), "best_points": pl.Int32, "played_points": pl.Int32,
         "point_loss": pl.Int32, "solver_version": pl.String}


def trick_section(detail: DealDetail, stored: pl.DataFrame, trick_no: int) -> None:
    """The trick's table from the stored analysis, else from one run on the page, else the offer to run one
    (in the deals ``tarock analyse --store`` analyses: Slovenian, a contract played for card points)."""
    if not stored.filter(pl.col("trick") == trick_no).is_empty():
        trick_losses(stored, trick_no)
        return
    if detail.deal.get("ruleset") != "slovenian" or detail.deal.get("contract") not in POINT_CONTRACTS:
        return
    deal_id = str(detail.deal["deal_id"])
    runs: dict[tuple[str, int], Outcome] = st.session_state.setdefault(_RUNS, {})
    done = [(start, run) for (deal, start), run in runs.items() if deal == deal_id and start <= trick_no and run.rows]
    if done:
        start, run = min(done, key=lambda item: item[0])
        trick_losses(pl.DataFrame(list(run.rows), schema=_ROWS), trick_no)
        st.caption(f"Analysed on this page from trick {start} in {run.seconds:.1f} s, not stored: "
                   "`tarock analyse --store` keeps analyses in the store.")
        return
    declined = runs.get((deal_id, trick_no))
    if declined is not None and declined.error:
        st.info(f"The solver does not analyse this deal: {declined.error}.", icon=":material/info:")
        return
    if st.button(f"Analyse against best play from trick {trick_no}", key=f"analyse_from_{trick_no}",
                 icon=":material/psychology:",
                 help="Double dummy, every hand open: what each card from this trick on cost its side. From the "
                      f"middle of a deal on it takes well under a second; from its first tricks it can take "
                      f"minutes and is stopped after {analyse_now.LIMIT:g} s."):
        bar = st.progress(0.0, text=f"Analysing from trick {trick_no}…")

        def progress(done: int, total: int) -> None:
            bar.progress(done / total, text=f"Card {done} of {total}…")

        options = detail.deal.get("options_json")
        run = analyse_now.analyse(orjson.dumps(detail.record), str(options) if options else None, trick_no,
                                  progress=progress)
        bar.empty()
        runs[(deal_id, trick_no)] = run
        if run.stopped:
            st.warning(f"Stopped after {run.seconds:.0f} s: from this trick the search is too long to wait for. "
                       "Try a later trick, or `tarock analyse --store` for the whole deal.",
                       icon=":material/timer_off:")
            del runs[(deal_id, trick_no)]
            return
        st.rerun()


def trick_losses(losses: pl.DataFrame, trick_no: int) -> None:
    """The trick's cards against double-dummy best play: each card's point loss for its side and the cards
    that would have lost nothing; nothing when the trick was not analysed."""
    rows = losses.filter(pl.col("trick") == trick_no)
    if rows.is_empty():
        return
    st.markdown("**Against best play** (double dummy)")
    shown = pl.DataFrame([{"player": r["player"], "card": r["card"], "point_loss": r["point_loss"],
                           "better": ", ".join(c for c in r["best_cards"] if c != r["card"]) if r["point_loss"] else ""}
                          for r in rows.iter_rows(named=True)],
                         schema={"player": pl.String, "card": pl.String, "point_loss": pl.Int32, "better": pl.String})
    widgets.dataframe(shown, column_config={
        "player": "Player", "card": "Card",
        "point_loss": st.column_config.NumberColumn("Point loss", help="Card points the card cost its side."),
        "better": st.column_config.TextColumn("Better cards", help="The cards that would have lost nothing; blank "
                                                               "when the card played was best.")})
