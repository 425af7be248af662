"""The Players page's lower half: ratings with their uncertainty, a player's calendar, roles and partners, and
the accuracy of play from the double-dummy analysis.

Drawn by ``app_pages/players.py`` after its table; every figure comes through
``dashboards.data``.  Where the store has no ratings or no solver analysis
for the selection, the section says so and how to get it, rather than
showing zeros.
"""

from __future__ import annotations

from dataclasses import replace

import polars as pl
import streamlit as st

from analysis.filters import Filters
from analysis.partnerships import MIN_PAIR_DEALS, matrix_players
from dashboards import data, player_charts, widgets
from dashboards.labels import contract_label, plain, pool_label
from tarock.cards import card_text

RATED_PLAYERS = 4
"""Players whose bands are drawn when none is chosen: the best rated."""
MATRIX_PLAYERS = 24
"""Most players in the partner matrix (``analysis.partnerships.matrix_players``: those of the ranked pairs first);
more cells than 24 × 24 are not read."""
PAIRS_LISTED = 500
"""Pairs in the partners' table: the ranked ones first (a club of 2,000 players has 100,000 pairs)."""

RATING_COLUMNS = {
    "player": st.column_config.TextColumn("Player"),
    "mu": st.column_config.NumberColumn("Rating", format="%.2f",
                                        help="The estimate of the player's skill, μ (the players' mean is 25)."),
    "sigma": st.column_config.NumberColumn("Give or take", format="%.2f",
                                           help="How unsure the rating still is, σ: few deals, a wide margin."),
    "ordinal": st.column_config.NumberColumn("Safe rating", format="%.2f",
                                             help="The rating less three times its margin (μ − 3σ): what the player "
                                                  "is surely worth; players are ranked by it."),
    "games": st.column_config.NumberColumn("Rated deals", format="localized"),
    "last_date": st.column_config.DateColumn("Last deal"),
}
ROLE_COLUMNS = {
    "role": st.column_config.TextColumn("Role"),
    "Contract": st.column_config.TextColumn("Contract"),
    **widgets.rate_columns("Won"),
    "mean_score": st.column_config.NumberColumn("Mean score", format="%.1f"),
}
PAIR_COLUMNS = {
    "rank": st.column_config.NumberColumn("Rank", help=f"Pairs with fewer than {MIN_PAIR_DEALS} deals together "
                                                       "are not ranked."),
    "player_a": st.column_config.TextColumn("Player"),
    "player_b": st.column_config.TextColumn("Partner"),
    **widgets.rate_columns("Won"),
    "mean_score": st.column_config.NumberColumn("Mean score", format="%.1f"),
}
ACCURACY_COLUMNS = {
    "player": st.column_config.TextColumn("Player"),
    "deals": st.column_config.NumberColumn("Analysed deals", format="localized"),
    "cards": st.column_config.NumberColumn("Cards", format="localized"),
    "loss_per_card": st.column_config.NumberColumn("Points lost / card", format="%.2f"),
    "loss_per_deal": st.column_config.NumberColumn("Points lost / deal", format="%.1f"),
    "perfect_share": widgets.percent_column("Cards losing nothing"),
}
LOSS_COLUMNS = {
    "deal_id": st.column_config.TextColumn("Deal"),
    "trick": st.column_config.NumberColumn("Trick"),
    "player": st.column_config.TextColumn("Player"),
    "Card": st.column_config.TextColumn("Played"),
    "Best": st.column_config.TextColumn("Best"),
    "point_loss": st.column_config.NumberColumn("Points lost"),
}
DAY_COLUMNS = {
    "date": st.column_config.DateColumn("Date"),
    "deals": st.column_config.NumberColumn("Deals", format="localized"),
    "net": st.column_config.NumberColumn("Net score", format="%+d"),
    "best_deal": st.column_config.TextColumn("Best deal"),
    "best": st.column_config.NumberColumn("Its score", format="%+d"),
    "worst_deal": st.column_config.TextColumn("Worst deal"),
    "worst": st.column_config.NumberColumn("Its score", format="%+d"),
}


def _replay_link(deal_id: str, label: str) -> None:
    """A link to the Replay page showing ``deal_id`` at its end (the score)."""
    st.page_link(widgets.REPLAY_PAGE, label=label, icon=":material/playing_cards:",
                 query_params=widgets.replay_query(deal_id, None))


def _picked(event: object, height: int) -> int:
    """The selected row of a single-row table (the first until one is chosen)."""
    rows = event.selection.rows if event is not None else []  # type: ignore[attr-defined]
    return rows[0] if rows and rows[0] < height else 0


def ratings(filters: Filters, chosen: str | None) -> None:
    """The rating table of one pool and the chosen players' rating bands over time."""
    st.subheader("Ratings")
    current = data.player_ratings(filters)
    if current.is_empty():
        st.info("No ratings for these deals yet: they are built after every `tarock ingest`, or by "
                "`tarock ratings rebuild`.", icon=":material/leaderboard:")
        return
    pools = current.select("ruleset", "n_players").unique(maintain_order=True).rows()
    labels = [pool_label(ruleset, n) for ruleset, n in pools]
    sizes = [current.filter((pl.col("ruleset") == r) & (pl.col("n_players") == n))["games"].sum() for r, n in pools]
    largest = sizes.index(max(sizes))  # the pool most deals were rated in opens (issue 38: the smallest did)
    at = labels.index(st.radio("Players rated together", labels, index=largest, horizontal=True,
                               key="rating_pool")) if len(pools) > 1 else 0
    ruleset, n_players = pools[at]
    pool = current.filter((pl.col("ruleset") == ruleset) & (pl.col("n_players") == n_players))
    st.caption("Each deal is a match of the declarer's side against the opponents, a side as strong as its "
               "players' mean rating; Klop each player against the table. What one side gains the other loses, "
               "so the players' mean stays at 25. Players are ranked by their safe rating: the rating less three "
               "times its margin, what they are surely worth. Ratings of Slovenian and Königrufen, three and four "
               "players, are kept apart.")
    widgets.table(pool.drop("ruleset", "n_players"), "ratings", column_config=RATING_COLUMNS)
    names = pool["player"].to_list()
    default = [chosen] if chosen in names else names[:RATED_PLAYERS]
    shown = st.multiselect("Players to draw", names, default=default, key="rating_players", max_selections=8)
    if shown:
        history = data.rating_history(tuple(shown), replace(filters, ruleset=ruleset, players=n_players))
        st.altair_chart(player_charts.rating_bands(history), width="stretch")
        st.caption(f"The line is the rating, the band the rating give or take {player_charts.BAND_SIGMAS} times "
                   "its margin: a narrow band is a rating the deals have settled, a wide one a guess still.")


def calendar(filters: Filters, chosen: str | None) -> None:
    """The chosen player's net score per day as a contributions calendar, and the days as a table with replay
    links to each day's best and worst deal."""
    st.subheader("Calendar of results")
    if chosen is None:
        st.info("Choose a player above to see their calendar.", icon=":material/calendar_month:")
        return
    days = data.player_calendar(chosen, filters)
    if days.is_empty():
        st.info(f"{plain(chosen)} has no dated, scored deals in this selection.")
        return
    st.altair_chart(player_charts.calendar_heatmap(days), width="content")
    st.caption(f"{days.height:,} days, {int(days['deals'].sum()):,} deals, net {int(days['net'].sum()):+,}. "
               "Green days in plus, red in minus; hover a day for its best and worst deal, or select it below.")
    event = widgets.table(days.sort("date", descending=True), "calendar", column_config=DAY_COLUMNS,
                          key="pick-day", on_select="rerun", selection_mode="single-row")
    row = days.sort("date", descending=True).row(_picked(event, days.height), named=True)
    with st.container(border=True, key="detail-day"):
        st.markdown(f"**{row['date']}** · {row['deals']:,} deals · net {row['net']:+,}")
        left, right = st.columns(2)
        with left:
            _replay_link(row["best_deal"], f"Best deal {row['best_deal']} ({row['best']:+,})")
        with right:
            _replay_link(row["worst_deal"], f"Worst deal {row['worst_deal']} ({row['worst']:+,})")


def roles(filters: Filters, chosen: str | None, mixed: bool) -> None:
    """The chosen player's win rate and mean score as declarer, partner and defender, per contract."""
    st.subheader("Roles")
    if chosen is None:
        st.info("Choose a player above to see how they do as declarer, partner and defender.")
        return
    frame = data.player_roles(replace(filters, player=chosen))
    if frame.is_empty():
        st.info(f"{plain(chosen)} has no declared deals in this selection.")
        return
    frame = frame.with_columns(pl.col("contract").map_elements(contract_label, return_dtype=pl.String)
                               .alias("Contract"))
    order = [c for c in ROLE_COLUMNS if not (mixed and c == "mean_score")]
    widgets.table(frame, "roles", column_config=ROLE_COLUMNS, column_order=order)


def partners(filters: Filters) -> None:
    """The partner matrix and the ranked pairs."""
    st.subheader("Partners")
    pairs = data.partner_pairs(filters)
    if pairs.is_empty():
        st.info("No declarer played with a partner in these deals.")
        return
    players = matrix_players(pairs, MATRIX_PLAYERS)
    st.caption(f"Declarer and partner together (a called king's holder, the Rufer's partner). Pairs with fewer "
               f"than {MIN_PAIR_DEALS} deals are grey and unranked; the ranked ones are ranked by the lower end of "
               f"their 95 % interval. {matrix_caption(pairs, players)}")
    st.altair_chart(player_charts.partner_matrix(pairs, players), width="stretch")
    widgets.table(pairs.drop("ranked").head(PAIRS_LISTED), "partners", column_config=PAIR_COLUMNS,
                  column_order=list(PAIR_COLUMNS))
    if pairs.height > PAIRS_LISTED:
        st.caption(f"The table lists the first {PAIRS_LISTED:,} of {pairs.height:,} pairs (ranked pairs first); "
                   "narrow the filters, or pick a player in the sidebar, to see a player's pairs.")


def matrix_caption(pairs: pl.DataFrame, players: list[str]) -> str:
    """What the partner matrix of ``players`` shows of ``pairs``, counted from the cells it draws, so the
    caption cannot claim a pair the matrix leaves out."""
    ranked = int(pairs["ranked"].sum())
    drawn = pairs.filter(pl.col("player_a").is_in(players) & pl.col("player_b").is_in(players))
    drawn_ranked = int(drawn["ranked"].sum())
    if ranked == 0:
        shown = "No pair has enough deals to be ranked."
    elif drawn_ranked == ranked:
        shown = f"All {ranked:,} ranked pairs are in the matrix."
    else:
        shown = (f"{drawn_ranked:,} of the {ranked:,} ranked pairs are in the matrix, the best first: more than "
                 f"{len(players)} players would not be readable.")
    return f"{shown} It has {len(players)} players and {drawn.height:,} of the {pairs.height:,} pairs."


def accuracy(filters: Filters) -> None:
    """Point loss per card and per deal from the solver's analysis, with the biggest losses and their replays."""
    st.subheader("Accuracy (double-dummy)")
    game_misplays(filters)
    found = data.play_accuracy(filters)
    if not found.available:
        st.info("This store has no double-dummy analysis yet, so nothing is said about accuracy: the solver's "
                "`card_analysis` table appears once deals are analysed.", icon=":material/psychology:")
        return
    if found.analysed == 0:
        st.info(f"None of the {found.deals:,} deals in this selection has been analysed by the solver yet.",
                icon=":material/psychology:")
        return
    st.caption(f"From the {found.analysed:,} of {found.deals:,} deals the solver has analysed: points each card "
               "gave away against the best card for the same side, with every card seen; a deal counts from the "
               "trick its analysis started at (`tarock analyse --from-trick`, or where `--limit` stopped it).")
    widgets.table(found.players, "accuracy", column_config=ACCURACY_COLUMNS)
    biggest = found.biggest.with_columns(
        pl.col("card").map_elements(card_text, return_dtype=pl.String).alias("Card"),
        pl.col("best_cards").map_elements(lambda cards: ", ".join(card_text(c) for c in cards),
                                          return_dtype=pl.String).alias("Best"))
    if biggest.is_empty():
        st.success("No analysed card lost a point.")
        return
    st.markdown("**Biggest losses**")
    event = widgets.table(biggest.drop("best_cards"), "biggest-losses", column_config=LOSS_COLUMNS,
                          column_order=list(LOSS_COLUMNS), key="pick-loss", on_select="rerun",
                          selection_mode="single-row")
    row = biggest.row(_picked(event, biggest.height), named=True)
    with st.container(border=True, key="detail-loss"):
        st.markdown(f"**{plain(row['deal_id'])}** · trick {row['trick']} · {plain(row['player'])} played "
                    f"{row['Card']} for {row['played_points']} points where {row['Best']} kept "
                    f"{row['best_points']}: {row['point_loss']} lost")
        _replay_link(row["deal_id"], "Open the replay")


MISPLAY_COLUMNS = {
    "player": st.column_config.TextColumn("Player"),
    "deals": st.column_config.NumberColumn("Deals judged", format="localized"),
    "misplays": st.column_config.NumberColumn("Misplays that decided a game", format="localized"),
    "per_100": st.column_config.NumberColumn("Per 100 deals", format="%.1f"),
    "deals_decided": st.column_config.NumberColumn("Deals they decided", format="localized"),
}


def game_misplays(filters: Filters) -> None:
    """Each player's cards that decided a game (``M_GAME_LOST``), per 100 deals judged: the plainest measure of
    accuracy, since a lost game is what a player feels."""
    decided = data.game_misplays(filters)
    if not decided.available or not decided.judged:
        return
    st.markdown("**Misplays that decided the game**")
    st.caption(f"From the {decided.judged:,} of {decided.deals:,} deals judged card by card from trick 1: a card "
               "decided the game when its side could force its aim before it and not after it (the Audit page "
               "lists each one).")
    widgets.table(decided.players, "misplays-by-player", column_config=MISPLAY_COLUMNS,
                  column_order=list(MISPLAY_COLUMNS))


def show(filters: Filters, chosen: str | None, mixed: bool) -> None:
    """Every section, in the page's order."""
    ratings(filters, chosen)
    calendar(filters, chosen)
    roles(filters, chosen, mixed)
    partners(filters)
    accuracy(filters)
