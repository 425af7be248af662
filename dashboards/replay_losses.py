"""The Replay page's "against best play" table: what each card of a trick cost its side against double-dummy
best play, and the cards that would have cost nothing.

The rows come from the store's ``card_analysis`` table (``tarock analyse --store``) or, for a trick the store
has not analysed, from an analysis run on the page at the viewer's request (``dashboards.analyse_now``), kept
in the viewer's session: from a middle trick on it takes well under a second; from the first tricks a whole
deal can take minutes (docs/solver.md, "Speed"), so the tricks are analysed from the last one back for at most
``analyse_now.LIMIT`` CPU seconds, and the page says which trick it reached.
"""

from __future__ import annotations

import orjson
import polars as pl
import streamlit as st

from analysis.deals import DealDetail
from dashboards import analyse_now, widgets
from dashboards.analyse_now import Outcome
from ingest.card_analysis import POINT_CONTRACTS
from tarock.cards import card_text

_RUNS = "replay_analysed_here"
"""Session key: the analyses run on the page, ``{(deal_id, from_trick): Outcome}``."""

_ROWS: dict[str, pl.DataType | type[pl.DataType]] = {
    "trick": pl.Int32, "order": pl.Int32, "player": pl.String, "card": pl.String, "best_cards": pl.List(pl.String),
    "best_points": pl.Int32, "played_points": pl.Int32, "point_loss": pl.Int32, "solver_version": pl.String}
"""The schema of ``card_analysis``'s rows without their deal and partition (``ingest.card_analysis.card_rows``)."""


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
    asked = [(start, run) for (deal, start), run in runs.items() if deal == deal_id and start <= trick_no]
    reached = [(run.analysed_from, start, run) for start, run in asked
               if run.analysed_from is not None and run.analysed_from <= trick_no]
    if reached:
        first, start, run = min(reached, key=lambda item: item[0])
        trick_losses(pl.DataFrame(list(run.rows), schema=_ROWS), trick_no)
        cut = "" if first == start else \
            f" (asked from trick {start}: its {analyse_now.LIMIT:g} CPU seconds ran out first)"
        st.caption(f"Analysed on this page from trick {first}{cut} in {run.seconds:.1f} s, not stored: "
                   "`tarock analyse --store` keeps analyses in the store.")
        return
    short = [(run.analysed_from, start) for start, run in asked if run.analysed_from is not None]
    if short:
        first, start = min(short)
        st.info(f"The analysis asked from trick {start} ran out of its {analyse_now.LIMIT:g} CPU seconds before "
                f"this trick: it reached back to trick {first}. A whole deal can take minutes "
                "(`tarock analyse --limit`).", icon=":material/timer_off:")
        return
    declined = runs.get((deal_id, trick_no))
    if declined is not None and declined.error:
        st.info(f"The solver does not analyse this deal: {declined.error}.", icon=":material/info:")
        return
    if st.button(f"Analyse against best play from trick {trick_no}", key=f"analyse_from_{trick_no}",
                 icon=":material/psychology:",
                 help="Double dummy, every hand open: what each card from this trick on cost its side, the tricks "
                      f"analysed from the last one back for at most {analyse_now.LIMIT:g} CPU seconds. From the "
                      "middle of a deal on it takes well under a second."):
        bar = st.progress(0.0, text=f"Analysing from trick {trick_no}…")

        def progress(done: int, total: int) -> None:
            bar.progress(done / total, text=f"Card {done} of {total}…")

        options = detail.deal.get("options_json")
        run = analyse_now.analyse(orjson.dumps(detail.record), str(options) if options else None, trick_no,
                                  analyse_now.LIMIT, progress)
        bar.empty()
        if run.stopped:
            st.warning(f"Stopped after {run.seconds:.0f} s without an answer: the machine is busy. Try again, or "
                       "`tarock analyse --store`.", icon=":material/timer_off:")
            return
        runs[(deal_id, trick_no)] = run
        st.rerun()


def trick_losses(losses: pl.DataFrame, trick_no: int) -> None:
    """The trick's cards against double-dummy best play: each card's point loss for its side and the cards
    that would have lost nothing; nothing when the trick was not analysed."""
    rows = losses.filter(pl.col("trick") == trick_no)
    if rows.is_empty():
        return
    st.markdown("**Against best play** (double dummy)")
    shown = pl.DataFrame([{"player": r["player"], "card": card_text(r["card"]), "point_loss": r["point_loss"],
                           "better": ", ".join(card_text(c) for c in r["best_cards"] if c != r["card"])
                           if r["point_loss"] else ""}
                          for r in rows.iter_rows(named=True)],
                         schema={"player": pl.String, "card": pl.String, "point_loss": pl.Int32, "better": pl.String})
    widgets.dataframe(shown, column_config={
        "player": "Player", "card": "Card",
        "point_loss": st.column_config.NumberColumn("Point loss", help="Card points the card cost its side."),
        "better": st.column_config.TextColumn("Better cards", help="The cards that would have lost nothing; blank "
                                                               "when the card played was best.")})
