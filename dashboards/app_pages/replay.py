"""Replay: pick a deal, then step through its deal, bidding, talon, stash, announcements and every trick,
with the hands drawn as cards, each finding on the step where it happened, and the score at the end.

With ``tables=A,B`` in the address (the What-if page's links), the score step also sets the deal's score and
breakdown under each of those rules tables side by side, rescored within its session by ``analysis.whatif``
(``tarock score --compare``'s code path), the stored score first."""

from __future__ import annotations

import orjson
import polars as pl
import streamlit as st

from dashboards import data, replay_losses, replay_nav, widgets
from dashboards.cards_html import deal_header_html, hands_html, notes_html, stash_html, talon_html, trick_html
from dashboards.data import Filters
from dashboards.labels import contract_label, plain
from dashboards.replay_model import DealReplay, Step
from dashboards.sidebar import current_filters

HALF_SENTENCE_PX = 180  # the width of a breakdown's Detail in one of the tables set side by side: it wraps there


def deal_label(row: dict[str, object]) -> str:
    """One search result as the picker shows it."""
    declarer = f" ({row['declarer']})" if row.get("declarer") else ""
    when = f" · {row['date']}" if row.get("date") else ""
    seq = "" if row.get("seq") is None else f" #{row['seq']}"
    session = f" · session {row['session']}{seq}" if row.get("session") else ""
    return f"{row['deal_id']}{when}{session} · {contract_label(str(row['contract']))}{declarer} · {row['status']}"


def pick_deal(filters: Filters) -> None:
    """The search fields and the deal picker (its choice goes to ``replay_nav``)."""
    with st.container(border=True):
        left, right = st.columns(2)
        prefix = left.text_input("Deal id starts with", key="q_id", placeholder="e.g. seed-session")
        session = right.text_input("Session", key="q_session", placeholder="exact session id")
        found = data.find_deals(filters, prefix.strip(), session.strip())
        labels = {row["deal_id"]: deal_label(row) for row in found.iter_rows(named=True)}
        current = st.session_state.get(replay_nav.DEAL)
        player = f", player {plain(filters.player)}" if filters.player else ""
        count = f"newest {len(labels):,} shown" if len(labels) == data.DEALS_LISTED else f"{len(labels):,} found"
        options = list(labels) if current is None or current in labels else [current, *labels]
        if current is not None and current not in labels:  # a deep link beyond the list: labelled all the same
            outside = data.deal_detail(current)
            if outside is not None:
                labels[current] = deal_label(outside.deal)
        st.session_state["replay_pick"] = current
        st.selectbox(f"Deal ({count}{player})", options, key="replay_pick",
                     placeholder="Choose a deal", format_func=lambda d: labels.get(d, d),
                     on_change=lambda: replay_nav.choose_deal(st.session_state["replay_pick"]))


def step_caption(rp: DealReplay, i: int) -> str:
    """A step as the slider names it: "Trick 3 · step 8 of 17", with a mark when it carries a finding."""
    flag = " ⚠" if rp.steps[i].findings else ""
    return f"{rp.steps[i].title}{flag} · step {i + 1} of {len(rp.steps)}"


def navigation(rp: DealReplay) -> Step:
    """Previous / next buttons around a slider over the steps, and buttons to the previous / next step
    that carries a finding (marked ⚠ on the slider); returns the step shown."""
    last = len(rp.steps) - 1
    replay_nav.resolve_step(len(rp.steps))
    at = st.session_state[replay_nav.STEP]
    back, slider, forward = st.columns([2, 11, 2], vertical_alignment="bottom")
    back.button("◀ Previous", key="prev", on_click=replay_nav.move, args=(-1, last), width="stretch",
                disabled=at == 0)
    forward.button("Next ▶", key="next", on_click=replay_nav.move, args=(1, last), width="stretch",
                   disabled=at == last)
    slider.select_slider("Step", options=list(range(last + 1)), key=replay_nav.STEP,
                         format_func=lambda i: step_caption(rp, i))
    marked = [s.index for s in rp.steps if s.findings]
    before = [i for i in marked if i < at]
    after = [i for i in marked if i > at]
    left, middle, right = st.columns([2, 11, 2], vertical_alignment="center")
    left.button("◀ Finding", key="prev_finding", on_click=replay_nav.jump, args=(before[-1] if before else at,),
                width="stretch", disabled=not before, help="The previous step with a finding.")
    right.button("Finding ▶", key="next_finding", on_click=replay_nav.jump, args=(after[0] if after else at,),
                 width="stretch", disabled=not after, help="The next step with a finding.")
    where = ", ".join(rp.steps[i].title for i in marked) or "none"
    middle.caption(f"Step {at + 1} of {last + 1}. Steps with a finding (⚠): {where}.")
    return rp.steps[at]


def score_tables(results: pl.DataFrame) -> None:
    """The recomputed score of every player and the breakdown lines behind it."""
    if results.is_empty() or results["score"].is_null().all():
        st.info("No recomputed score: the record has an error.")
        return
    st.markdown("**Scores**")
    signed = {c: pl.when(pl.col(c).is_null()).then(pl.lit("")).otherwise(pl.format("{}{}", pl.when(pl.col(c) > 0)
              .then(pl.lit("+")).otherwise(pl.lit("")), pl.col(c))) for c in ("recorded_score", "score_diff")}
    # blank means "not recorded": no figure, and no difference against a missing one (issue 23)
    shown = results.select("player", "role", "score", "recorded_score", "score_diff", "radelci_before",
                           "radelci_after").with_columns(
        recorded_score=signed["recorded_score"],
        score_diff=pl.when(pl.col("recorded_score").is_null()).then(pl.lit("")).otherwise(signed["score_diff"]),
        role=pl.col("role").fill_null(""))
    widgets.dataframe(shown, column_config={
        "player": "Player", "role": "Role",
        "score": st.column_config.NumberColumn("Recomputed", format="%+d"),
        "recorded_score": st.column_config.TextColumn("Recorded", help="Blank: not recorded."),
        "score_diff": st.column_config.TextColumn("Recorded − recomputed"),
        "radelci_before": st.column_config.NumberColumn("Radelci before", format="localized"),
        "radelci_after": st.column_config.NumberColumn("Radelci after", format="localized"),
    })
    lines: dict[tuple[str, str, tuple[str, ...], int], None] = {}
    for text in results["breakdown_json"].drop_nulls():
        for line in orjson.loads(text):
            lines[(line["component"], line["detail"], tuple(line["players"]), line["value"])] = None
    st.markdown("**Breakdown** (each listed player writes the value)")
    widgets.dataframe(pl.DataFrame([{"component": c, "detail": d, "players": ", ".join(p), "value": v}
                                    for c, d, p, v in lines], schema={"component": pl.String, "detail": pl.String,
                                                                      "players": pl.String, "value": pl.Int64}),
                      column_config={"component": "Line", "detail": widgets.sentence_column("Detail"),
                                     "players": "Players",
                                     "value": st.column_config.NumberColumn("Value each", format="%+d")},
                      wrap=True)


def _signed(value: int | None) -> str:
    return "error" if value is None else f"{value:+d}"


def under_tables(deal_id: str, ruleset: str, results: pl.DataFrame) -> None:
    """The deal under the address's rules tables side by side: each player's score (the stored one first) and
    each table's breakdown lines, those not written the same under every table marked ≠."""
    tables, notice = replay_nav.tables_asked(st.query_params.get(replay_nav.TABLES), ruleset)
    if notice:
        st.warning(plain(notice), icon=":material/link_off:")
    if not tables:
        return
    with st.spinner("Rescoring the deal's session …"):
        under = data.deal_under(deal_id, tables)
    if under is None:
        return
    st.subheader(f"Under {', '.join(tables)}")
    st.caption("The deal rescored from its stored record under each rules table, its session scored whole in "
               "stored order (as `tarock score --compare` does); the stored score is the one ingest computed "
               "under the record's own options.")
    stored = results.select("player", pl.col("score").alias("stored"))
    scores = under.scores.join(stored, on="player", how="left").select("player", "stored", *tables)
    widgets.dataframe(scores, column_config={
        "player": st.column_config.TextColumn("Player"),
        "stored": st.column_config.NumberColumn("Stored", format="%+d"),
        **{name: st.column_config.NumberColumn(name, format="%+d") for name in tables}})
    st.markdown("**Breakdown per table** (≠: a line not written the same under every table)")
    for name, column in zip(tables, st.columns(len(tables))):
        with column:
            st.markdown(f"**{plain(name)}** · " + ", ".join(
                f"{plain(p)} {_signed(v)}" for p, v in under.scores.select("player", name).rows()))
            lines = under.lines.filter(pl.col("table") == name)
            if under.scores[name].is_null().all():
                st.info("The deal is in error under this table: no score.")
                continue
            shown = lines.select(pl.when(pl.col("differs")).then(pl.lit("≠")).otherwise(pl.lit("")).alias("differs"),
                                 "component", "players", "value", "detail")
            widgets.dataframe(shown, column_config={
                "differs": st.column_config.TextColumn("≠"),
                "component": "Line", "players": "Players",
                "value": st.column_config.NumberColumn("Value each", format="%+d"),
                "detail": widgets.sentence_column("Detail", HALF_SENTENCE_PX)}, wrap=True)
    st.button("Show the stored score alone", key="drop_tables", on_click=replay_nav.drop_tables,
              icon=":material/close:")


filters = current_filters()
replay_nav.adopt_url()
st.title("Replay")
pick_deal(filters)
deal_id = st.session_state.get(replay_nav.DEAL)
if not deal_id:
    replay_nav.write_url(None, None)
    st.info("Choose a deal above: search by id or session; the sidebar filters (a player, dates) narrow the list.")
    st.stop()
detail = data.deal_detail(deal_id)
rp = data.deal_replay(deal_id)
if detail is None or rp is None:
    st.warning(f"The store has no deal with the id {plain(deal_id)}.")
    st.stop()

st.html(deal_header_html(rp, detail.deal))
step = navigation(rp)
replay_nav.write_url(deal_id, step.index)
st.subheader(step.title)
if step.trick or step.talon:
    table, notes = st.columns([3, 2], gap="large")
    with table:
        st.html(trick_html(step) if step.trick else talon_html(step))
    with notes:
        st.html(notes_html(step))
        if step.trick_no is not None:
            replay_losses.trick_section(detail, data.deal_losses(deal_id), step.trick_no)
else:
    st.html(notes_html(step))
if step.phase == "score":
    score_tables(detail.results)
    under_tables(deal_id, str(detail.deal["ruleset"]), detail.results)
st.html(hands_html(step))
if step.stash:
    st.html(stash_html(step))
st.caption("Cards already played are greyed out; blue rings mark the cards taken from the talon or laid away "
           "(and, in a renons trick, the card the rules asked for); the leader's row is outlined in green.")
