"""Hands: what a dealt hand is worth in each contract (the hand model), and where players' bids sat against it.

A hand is typed as card codes or picked from the store (a declarer's dealt hand); the contracts come
ranked by expected score with the win probability and its 95 % interval.  Below, per declarer, how often
the contract they played stood under, at or over the model's best one, and their deals with a link to the
replay.  The limits are said on the page: the data the model was fitted on, and that contracts with few
deals get no estimate.
"""

from __future__ import annotations

import polars as pl
import streamlit as st

from analysis.bid_review import by_player
from dashboards import hands_data, widgets
from dashboards.labels import contract_label, moment, plain
from dashboards.sidebar import current_filters
from tarock.cards import CODES, card_text
from tarock.deal import RULESETS

EXAMPLE = "T22 T21 T20 T19 T18 T17 T16 T15 HK DK SK CK"  # the typed hand the page starts with: a strong one

ADVICE_COLUMNS = {
    "Contract": st.column_config.TextColumn("Contract"),
    "win_probability": widgets.percent_column("Win probability"),
    "low": widgets.percent_column("95 % low"),
    "high": widgets.percent_column("95 % high"),
    "expected_score": st.column_config.NumberColumn("Expected score", format="%+.0f"),
    "deals": st.column_config.NumberColumn("Deals fitted", format="localized",
                                           help="Deals of this contract the estimate rests on."),
}

filters = current_filters()
st.title("Hands")
model = hands_data.model()
about = model.about
st.caption(
    f"The model: one logistic regression per contract over the declarer's dealt hand (taroks, high taroks, "
    f"trula cards, kings, voids, singletons, card points), fitted on {about.get('fitted_on', 0):,} declared "
    f"deals of this store (on {moment(about.get('fitted_at', '?'))}; another {about.get('held_out', 0):,} held out to "
    f"check it). A contract with fewer than {about.get('min_deals', '?')} deals gets no estimate. It knows "
    "the dealt hand only: not the talon, not the partner, not how the cards were played. Intervals are the "
    "model's own 95 % intervals (docs/analysis.md).")
if hands_data.can_refit():
    st.button("Refit the model", on_click=hands_data.refit, icon=":material/refresh:")

st.subheader("What a hand is worth")
source = st.segmented_control("Hand", ["Type a hand", "A stored hand"], key="hand_source",
                              required=True) or "Type a hand"
try:
    if source == "Type a hand":
        left, middle, right = st.columns([4, 1, 1])
        text = left.text_input("Cards (as drawn: XXI, Škis, K♥, 10♠ …, or codes: T21, T22, HK, S10 …)", EXAMPLE, key="hand_cards")
        ruleset = middle.selectbox("Ruleset", RULESETS, key="hand_ruleset")
        players = int(right.selectbox("Players", ["4", "3"], key="hand_players") or 4)
        cards = hands_data.parse_hand([text], ruleset, players)
    else:
        stored = hands_data.stored_hands()
        if stored.is_empty():
            st.info("No stored deal with its hands yet.")
            st.stop()
        choices = [f"{row['deal_id']} · {row['player']}" for row in stored.iter_rows(named=True)]
        estimated = {(ruleset, players) for ruleset, players, _ in model.groups}
        first = next((i for i, row in enumerate(stored.iter_rows(named=True))
                      if (row["ruleset"], row["n_players"]) in estimated), 0)  # open on a hand the model rates
        picked = st.selectbox("Declarer's hand of a stored deal", range(len(choices)), index=first,
                              format_func=choices.__getitem__, key="hand_pick") or 0
        row = stored.row(picked, named=True)
        cards, ruleset, players = hands_data.stored_hand(row["deal_id"], row["player"])
        st.page_link(widgets.REPLAY_PAGE, label="Open this deal's replay", icon=":material/playing_cards:",
                     query_params=widgets.replay_query(row["deal_id"]))
except ValueError as exc:
    st.warning(plain(exc))
    st.stop()

st.markdown("**Hand:** " + plain(" ".join(card_text(CODES[c]) for c in sorted(cards))))
advised = pl.DataFrame(hands_data.advice(model, cards, ruleset, players))
advised = advised.with_columns(pl.col("contract").map_elements(contract_label, return_dtype=pl.String)
                               .alias("Contract"))
if advised["win_probability"].is_null().all():
    st.info("No contract of this table has enough deals in the store for an estimate.")
widgets.table(advised, "hand-advice", ADVICE_COLUMNS,
              ["Contract", "win_probability", "low", "high", "expected_score", "deals"])

st.subheader("Bids against the model")
st.caption("Per declarer, the contract played against the one with the best expected score for the dealt "
           "hand: under (a lower contract), as the model, or over (a higher one). Only deals whose contract "
           "has an estimate count; the model's best is a guess from the dealt hand, not a verdict.")
review = hands_data.bids(filters)
if review.is_empty():
    st.info("No deal among these has a contract with an estimate.")
    st.stop()
widgets.table(by_player(review), "bids-by-player", {
    "declarer": st.column_config.TextColumn("Declarer"),
    "deals": st.column_config.NumberColumn("Deals", format="localized"),
    "under": st.column_config.NumberColumn("Under", format="localized"),
    "as_model": st.column_config.NumberColumn("As model", format="localized"),
    "over": st.column_config.NumberColumn("Over", format="localized"),
    "mean_gain": st.column_config.NumberColumn("Points missed per deal", format="%.1f",
                                               help="How many points more, on average, the model expected the "
                                                    "best contract to score than the one played."),
})
names = sorted(review["declarer"].unique())
who = st.selectbox("A declarer's deals", names, key="hand_declarer") or names[0]
mine = review.filter(pl.col("declarer") == who).sort("gain", descending=True)
theirs = mine.with_columns(pl.col("contract").map_elements(contract_label, return_dtype=pl.String),
                           pl.col("best").map_elements(contract_label, return_dtype=pl.String),
                           pl.Series("replay", [widgets.replay_url(d) for d in mine["deal_id"]], dtype=pl.String))
event = widgets.table(theirs, "bids-of-declarer", {
    "deal_id": st.column_config.TextColumn("Deal"),
    "contract": st.column_config.TextColumn("Played"),
    "won": st.column_config.CheckboxColumn("Won"),
    "p": widgets.percent_column("Win probability"),
    "expected_score": st.column_config.NumberColumn("Expected score", format="%+.0f"),
    "best": st.column_config.TextColumn("Model's best"),
    "best_score": st.column_config.NumberColumn("Its expected score", format="%+.0f"),
    "verdict": st.column_config.TextColumn("Bid"),
    "replay": st.column_config.LinkColumn("Replay", display_text="Open the replay"),
}, ["deal_id", "contract", "won", "p", "expected_score", "best", "best_score", "verdict", "replay"],
    key="pick-bid", on_select="rerun", selection_mode="single-row")
rows = event.selection.rows if event is not None else []
chosen = theirs.row(rows[0] if rows and rows[0] < theirs.height else 0, named=True)
st.page_link(widgets.REPLAY_PAGE, label=f"Open the replay of {plain(chosen['deal_id'])}",
             icon=":material/playing_cards:", query_params=widgets.replay_query(chosen["deal_id"]))
st.caption("Select a row (the box at its left) to open that deal's replay.")
