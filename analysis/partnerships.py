"""How players do in each role, and how pairs do together.

``roles``: per player, role and contract, the declared deals (those
``win_rates`` counts: a declarer, no error, a result) in which the player
was the declarer, the declarer's partner, or a defender (``results.role``
``opponent``): deals, wins (the player's own ``results.won``), the win rate
with its 95 % Wilson interval, and the mean score.

``partners``: per pair, the declared deals in which one declared and the
other was the partner (a called king's holder in Slovenian, the Rufer's
partner in Königrufen; a king called in one's own hand or in the talon
makes no pair): deals, wins, win rate with its interval, mean score of the
pair (both get the same score).  Only pairs with at least ``MIN_PAIR_DEALS``
deals are ranked (``rank`` 1 is the highest lower end of the interval:
good and sure of it); the others are listed with no rank, too few to say.

``matrix_players``: whom a partner matrix of ``partners``' pairs shows, the
players of the ranked pairs first, so no ranked pair is left out for lack of
deals with others.
"""

from __future__ import annotations

import polars as pl

from analysis import totals
from analysis.filters import NO_FILTERS, Filters, deal_where
from analysis.sql import TRUE, Fragment, run
from analysis.stats import with_rate
from analysis.store import Store
from analysis.vocabulary import contract_rank, rank

MIN_PAIR_DEALS = 10
"""Fewer deals than this together and a pair is not ranked: a Wilson interval over 9 deals spans ±30 %."""

ROLE_ORDER = ("declarer", "partner", "defender")

_ROLES = """
SELECT * FROM (
    SELECT r.player, CASE r.role WHEN 'opponent' THEN 'defender' ELSE r.role END AS role, d.contract,
           count(*) AS deals, count(*) FILTER (WHERE r.won) AS wins, avg(r.score) AS mean_score
    FROM stored.results r
    JOIN deals d ON d.shard = r.shard AND d.source_file = r.source_file AND d.source_pos = r.source_pos
    WHERE {where} AND r.role IN ('declarer', 'partner', 'opponent') AND r.won IS NOT NULL AND {only}
    GROUP BY 1, 2, 3
)
ORDER BY player, {role_rank}, {contract_rank}
"""

def roles(store: Store, filters: Filters = NO_FILTERS) -> pl.DataFrame:
    """Per player, role (declarer, partner, defender) and contract: deals, wins, win_rate, ci_low, ci_high,
    mean_score.  With a ``player`` filter, only that player's rows."""
    only = TRUE if filters.player is None else Fragment("r.player = $f_player", {"f_player": filters.player})
    frame = run(store, _ROLES, where=deal_where(filters, "d", declared=True), only=only,
                role_rank=rank("role", ROLE_ORDER, "p_roles"), contract_rank=contract_rank("contract"))
    return with_rate(frame, "wins", "deals", "win_rate")


def partners(store: Store, filters: Filters = NO_FILTERS, min_deals: int = MIN_PAIR_DEALS) -> pl.DataFrame:
    """Per pair (player_a < player_b): deals, wins, win_rate, ci_low, ci_high, mean_score, ranked (at
    least ``min_deals`` deals) and rank (1 best by ci_low; null when not ranked), ranked pairs first."""
    summed = totals.pair_sums(store, filters)
    return ranked_pairs(summed.with_columns((pl.col("score_sum") / pl.col("scored")).alias("mean_score"))
                        .drop("scored", "score_sum"), min_deals)


def ranked_pairs(pairs: pl.DataFrame, min_deals: int = MIN_PAIR_DEALS) -> pl.DataFrame:
    """``partners``' frame from one row per pair (player_a, player_b, deals, wins, mean_score): the win rate
    and its interval, ranked and rank, ranked pairs first (apart from the store, so a frame made by hand is
    ranked as the store's are)."""
    frame = with_rate(pairs, "wins", "deals", "win_rate")
    frame = frame.with_columns((pl.col("deals") >= min_deals).alias("ranked"))
    ranked = frame.filter(pl.col("ranked")).sort(["ci_low", "deals", "player_a", "player_b"],
                                                 descending=[True, True, False, False])
    ranked = ranked.with_columns(pl.int_range(1, ranked.height + 1, dtype=pl.Int64).alias("rank"))
    rest = frame.filter(~pl.col("ranked")).sort(["deals", "player_a", "player_b"], descending=[True, False, False])
    return pl.concat([ranked, rest.with_columns(pl.lit(None, pl.Int64).alias("rank"))])


def matrix_players(pairs: pl.DataFrame, limit: int) -> list[str]:
    """Up to ``limit`` players, sorted, for a partner matrix of ``pairs`` (``partners``' frame, in its order).

    Pairs are taken in ``partners``' order (ranked pairs best first, then the others by deals) and a pair's
    players join while they fit under ``limit``: every ranked pair is in the matrix whenever their players
    fit, and a ranked pair of two players with few deals overall is not pushed out by busier players'
    unranked pairs (as choosing the players with the most deals did)."""
    chosen: set[str] = set()
    for pair in pairs.select("player_a", "player_b").iter_rows():
        if len(chosen.union(pair)) <= limit:
            chosen.update(pair)
        if len(chosen) == limit:
            break
    return sorted(chosen)
