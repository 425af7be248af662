"""Audit: disputed scores (recorded vs recomputed, with the line that explains the difference), renons by
code and player, every renons with a link to the replay of its deal at the trick where it happened, and the
misplays that decided a game (the solver's verdicts, ``analysis.misplays``), each linked the same way."""

from __future__ import annotations

from functools import partial

import polars as pl
import streamlit as st

from dashboards import charts, data, url_state, widgets
from dashboards.labels import contract_label, plain
from dashboards.replay_model import phases, step_for_finding
from dashboards.sidebar import current_filters
from tarock.cards import card_text, cards_text
from tarock.findings import plain_name

COUNT_COLUMNS = {
    "rule": st.column_config.TextColumn("Rule broken"),
    "code": st.column_config.TextColumn("Code"),
    "player": st.column_config.TextColumn("Player"),
    "renons": st.column_config.NumberColumn("Renons", format="localized"),
    "deals": st.column_config.NumberColumn("Deals", format="localized", help="Deals with at least one of them."),
}
CHART_ROWS = 20  # bars in the renons-by-player chart


def with_rules(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` with a ``rule`` column beside its ``code``: the finding in plain words ("did not follow
    suit"), which fits a column where "R_FOLLOW_SUIT" was cut (issue 38)."""
    return frame.with_columns(pl.col("code").map_elements(plain_name, return_dtype=pl.String).alias("rule"))


def with_links(frame: pl.DataFrame, steps: list[int | None]) -> pl.DataFrame:
    """``frame`` with a readable contract, cards written as the replay draws them ("8♣", "XIV", in its ``card``
    column and its sentences) and a ``replay`` deep link per row, to the row's step."""
    links = [widgets.replay_url(deal, step) for deal, step in zip(frame["deal_id"], steps)]
    readable = [pl.col("contract").map_elements(contract_label, return_dtype=pl.String),
                pl.col("message").map_elements(cards_text, return_dtype=pl.String),
                pl.Series("replay", links, dtype=pl.String)]
    if "card" in frame.columns:
        readable.append(pl.col("card").map_elements(card_text, return_dtype=pl.String))
    return frame.with_columns(readable)


def facts(row: dict[str, object]) -> str:
    """What the table leaves to its CSV, for the panel under it: the finding's code, the contract, the date
    and the session (with the deal's number in it)."""
    parts = [f"{row['code']} ({row['rule']})" if row.get("code") else None, row.get("contract"),
             row.get("date") and str(row["date"]),
             row.get("session") and f"session {row['session']}" + (f" #{row['seq']}" if row.get("seq") else "")]
    return " · ".join(plain(part) for part in parts if part)


def explained(frame: pl.DataFrame, steps: list[int | None], name: str, column_config: dict[str, object],
              column_order: list[str], what: str) -> None:
    """A table whose rows each carry a sentence (``message``) and a replay link (``replay``): the sentence
    shown whole, with a link to the replay opening in this tab, for the row selected (the first one until a
    row is chosen); ``what`` names the sentence ("Why", "What happened")."""
    frame = with_links(frame, steps)
    event = widgets.table(frame, name, column_config, column_order, wrap=True, key=f"pick-{name}",
                          on_select="rerun", selection_mode="single-row")
    rows = event.selection.rows if event is not None else []
    at = rows[0] if rows and rows[0] < frame.height else 0
    row = frame.row(at, named=True)
    with st.container(border=True, key=f"detail-{name}"):
        who = f" · {plain(row['player'])}" if row.get("player") else ""
        where = f" · {plain(row['where'])}" if row.get("where") else ""
        st.markdown(f"**{plain(row['deal_id'])}**{who}{where}  \n{what}: {plain(row['message'])}  \n"
                    f"{facts(row)}")
        step = steps[at]
        st.page_link(widgets.REPLAY_PAGE, label="Open the replay there", icon=":material/playing_cards:",
                     query_params=widgets.replay_query(row["deal_id"], step))
    if frame.height > 1:
        st.caption("Select a row (the box at its left) to read its sentence whole and open its replay.")


filters = current_filters()
# the code the renons list will ask for: the address's when it names one (``url_state.adopt`` below), else the
# widget's; a guess the page's own widget overrules (it then asks its own, and this answer waits in the cache)
asked_code = st.query_params.get("code", st.session_state.get("code"))
data.ask_ahead(partial(data.disputes, filters), partial(data.findings, filters, "renons", asked_code),
               partial(data.renons_counts, filters, "code"), partial(data.renons_counts, filters, "player"),
               data.rejects)
st.title("Audit")
if widgets.no_deals_note(data.deal_count(filters)):
    st.stop()

st.subheader("Disputed scores")
disputed = data.disputes(filters)
if disputed.is_empty():
    st.success("Every recorded score matches the recomputed one.")
else:
    n = disputed["deal_id"].n_unique()
    st.caption(f"{n:,} deal{'s' * (n != 1)}: each row is a player whose score sheet differs from the score "
               "recomputed from the cards, with the line that explains it.")
    explained(disputed, [None] * disputed.height, "disputed-scores", {
        "deal_id": st.column_config.TextColumn("Deal"),
        "date": st.column_config.DateColumn("Date"),
        "session": st.column_config.TextColumn("Session"),
        "seq": st.column_config.NumberColumn("#", format="localized"),
        "contract": st.column_config.TextColumn("Contract"),
        "player": st.column_config.TextColumn("Player"),
        "recorded_score": st.column_config.NumberColumn("Recorded", format="%+d"),
        "score": st.column_config.NumberColumn("Recomputed", format="%+d"),
        "score_diff": st.column_config.NumberColumn("Difference", format="%+d"),
        "message": widgets.sentence_column("Why"),
    }, ["deal_id", "date", "player", "recorded_score", "score", "score_diff", "message"], "Why")
    st.caption("The contract and the session are under the table and in the CSV.")

st.subheader("Renons")
by_code, by_player = st.columns(2)
codes = with_rules(data.renons_counts(filters, "code"))
with by_code:
    st.markdown("**By rule broken**")
    if not codes.is_empty():
        st.altair_chart(charts.bar_chart(codes, "rule", "renons", "renons"), width="stretch")
    widgets.table(codes, "renons-by-code", column_config=COUNT_COLUMNS,
                  column_order=["rule", "code", "renons", "deals"])
with by_player:
    st.markdown("**By player**")
    players = data.renons_counts(filters, "player")
    if not players.is_empty():
        st.altair_chart(charts.bar_chart(players.head(CHART_ROWS), "player", "renons", "renons"), width="stretch")
        if players.height > CHART_ROWS:
            st.caption(f"The {CHART_ROWS} players with the most renons; the table has all {players.height:,}.")
    widgets.table(players, "renons-by-player", column_config=COUNT_COLUMNS)

st.subheader("Every renons, at its trick")
url_state.adopt({"code": url_state.one_of(codes["code"].to_list())})
code = st.selectbox("Rule broken", codes["code"].to_list(), index=None, placeholder="Any renons",
                    format_func=lambda c: f"{plain_name(c)} ({c})", key="code")
url_state.publish({"code": code})
listed = data.findings(filters, "renons", code)
if listed.is_empty():
    st.success("No renons in these deals.")
else:
    if listed.height == data.FINDINGS_LISTED:
        st.caption(f"The newest {data.FINDINGS_LISTED} are listed; narrow the filters to see others.")
    steps = [step_for_finding(c, t, k) for c, t, k in zip(listed["code"], listed["trick"], listed["contract"])]
    where = [f"trick {t}" if t is not None else phases(k)[s] if s is not None else "end"
             for t, s, k in zip(listed["trick"], steps, listed["contract"])]
    listed = with_rules(listed.with_columns(pl.Series("where", where, dtype=pl.String)))
    explained(listed, steps, "renons", {
        "deal_id": st.column_config.TextColumn("Deal"),
        "date": st.column_config.DateColumn("Date"),
        "session": st.column_config.TextColumn("Session"),
        "contract": st.column_config.TextColumn("Contract"),
        "code": st.column_config.TextColumn("Code"),
        "rule": st.column_config.TextColumn("Rule broken"),
        "where": st.column_config.TextColumn("Where"),
        "player": st.column_config.TextColumn("Player"),
        "card": st.column_config.TextColumn("Card"),
        "message": widgets.sentence_column("What happened"),
    }, ["deal_id", "where", "player", "rule", "card", "message"], "What happened")
    st.caption("The finding's code, the contract, the date and the session are under the table and in the CSV.")

st.subheader("Misplays that decided the game")
decided = data.game_misplays(filters)
if not decided.available:
    st.info("No deal has been judged card by card yet: `tarock analyse --store` asks, for every card from trick 1, "
            "whether it lost its side a game it could still have had.", icon=":material/psychology:")
elif decided.listed.is_empty():
    st.success(f"No card decided a game in the {decided.judged:,} deals judged.")
else:
    st.caption(f"{decided.judged:,} of {decided.deals:,} deals judged card by card from trick 1 by the solver: a card "
               "decided the game when its side could force its aim (the declarer's side its contract, the defence "
               "the contract's defeat) before it and no longer after it, whatever anyone played next. Klop, "
               "Königrufen and deals with a renons or an error are not judged.")
    misplay_steps = [step_for_finding("M_GAME_LOST", t, k)
                     for t, k in zip(decided.listed["trick"], decided.listed["contract"])]
    shown_misplays = decided.listed.with_columns(
        pl.format("trick {}", "trick").alias("where"),
        pl.col("kept").list.eval(pl.element().map_elements(card_text, return_dtype=pl.String)).list.join(", "),
        pl.when("declarer_side").then(pl.lit("declarer's side")).otherwise(pl.lit("defence")).alias("side"))
    explained(shown_misplays, misplay_steps, "misplays", {
        "deal_id": st.column_config.TextColumn("Deal"),
        "where": st.column_config.TextColumn("Where"),
        "player": st.column_config.TextColumn("Player"),
        "side": st.column_config.TextColumn("Side"),
        "card": st.column_config.TextColumn("Card"),
        "message": widgets.sentence_column("What happened"),
    }, ["deal_id", "where", "player", "side", "card", "message"], "What happened")
    st.caption("The contract, the date and the session are under the table and in the CSV.")
    widgets.table(decided.players, "misplays-by-player", column_config={
        "player": st.column_config.TextColumn("Player"),
        "deals": st.column_config.NumberColumn("Deals judged", format="localized"),
        "cards": st.column_config.NumberColumn("Cards judged", format="localized"),
        "misplays": st.column_config.NumberColumn("Misplays", format="localized"),
        "deals_decided": st.column_config.NumberColumn("Deals they decided", format="localized"),
        "per_100": st.column_config.NumberColumn("Per 100 deals", format="%.1f"),
    })

st.subheader("Rejected input")
rejected = data.rejects()
if rejected.is_empty():
    st.success("Every input line was a record.")
else:
    st.caption("Input that was not a record at all (bad JSON, unknown fields or cards); it belongs to no deal, "
               "so the filters do not apply.")
    widgets.table(rejected, "rejects", column_config={
        "reason": widgets.sentence_column("Reason"),
        "rejects": st.column_config.NumberColumn("Items", format="localized"),
        "files": st.column_config.NumberColumn("Files", format="localized"),
        "first": st.column_config.TextColumn("First one (file:line)"),
    }, wrap=True)
