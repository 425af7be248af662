"""Hands: what a dealt hand is worth in each contract (play-outs beside the club's estimate), and where players'
bids sat against the hand model.

A hand is typed as card codes or picked from the store (a declarer's dealt hand); every contract the table may
declare comes with the simulator's play-outs of the hand and the club's estimate (the hand model shrunk toward
the play-outs where the store holds few hands like this one: ``analysis.hand_advice``), each with its 95 %
interval and expected score, ranked by the club's.  Below, per declarer, how often the contract they played stood
under, at or over the model's best one, and their deals with a link to the replay.  The limits are said on the
page: what each figure rests on, and that the play-outs assume the simulator's defence.
"""

from __future__ import annotations

import polars as pl
import streamlit as st

from analysis.bid_review import by_player
from dashboards import hands_data, widgets
from dashboards.labels import contract_label, plain
from dashboards.sidebar import current_filters
from tarock.cards import CODES, card_text
from tarock.deal import RULESETS
from tarock.words import moment

EXAMPLE = "T22 T21 T20 T19 T18 T17 T16 T15 HK DK SK CK"  # the typed hand the page starts with: a strong one

ADVICE_COLUMNS = {
    "Contract": st.column_config.TextColumn("Contract"),
    "po_win_probability": widgets.percent_column("Play-outs: win"),
    "po_low": widgets.percent_column("95 % low"),
    "po_high": widgets.percent_column("95 % high"),
    "po_expected_score": st.column_config.NumberColumn("Play-outs: score", format="%+.0f"),
    "po_playouts": st.column_config.NumberColumn("Play-outs", format="localized",
                                                 help="Deals played out for this contract."),
    "club_win_probability": widgets.percent_column("Club: win"),
    "club_low": widgets.percent_column("95 % low "),
    "club_high": widgets.percent_column("95 % high "),
    "club_expected_score": st.column_config.NumberColumn("Club: score", format="%+.0f"),
    "club_weight": widgets.percent_column("Store weight"),
    "like_deals": st.column_config.NumberColumn("Hands like this", format="localized",
                                                help="Stored declared deals of this contract with a hand like this "
                                                     "one (same kings, taroks and high taroks ±1)."),
    "like_wins": st.column_config.NumberColumn("… won", format="localized"),
}

filters = current_filters()
st.title("Hands")
model = hands_data.model()
about = model.about
st.caption(
    f"The model: one logistic regression per contract over the declarer's dealt hand (taroks, high taroks, "
    f"trula cards, kings, voids, singletons, card points), fitted on {about.get('fitted_on', 0):,} declared "
    f"deals of this store (on {moment(about.get('fitted_at', '?'))}; another {about.get('held_out', 0):,} held out to "
    f"check it). A contract with fewer than {about.get('min_deals', '?')} deals gets no model of its own: its "
    "club figure is then the record of hands like this one, or the play-outs alone. The model knows the dealt "
    "hand only: not the talon, not the partner, not how the cards were played (docs/analysis.md).")
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
advised = hands_data.advice(model, cards, ruleset, players)
advised = advised.with_columns(pl.col("contract").map_elements(contract_label, return_dtype=pl.String)
                               .alias("Contract"))
lines = hands_data.about_lines(model)
st.caption(lines["playouts"] + "  \n" + lines["club"])
widgets.table(advised, "hand-advice", ADVICE_COLUMNS, list(ADVICE_COLUMNS))

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
