"""Headline figures for a dashboard: one row over the deals the filters keep.

Everything comes from the ``deals`` table alone, so it stays fast on a big
store: deal counts by status, sessions, distinct players, the renons rate
(share of deals with a renons finding), disputed scores (deals with an
``A_SCORE_MISMATCH``) and the date range.
"""

from __future__ import annotations

import polars as pl

from analysis.filters import NO_FILTERS, Filters, deal_where, needs_deals, partition_where
from analysis.sql import compose, run
from analysis.stats import rate
from analysis.store import Store

_OVERVIEW = """
SELECT count(*) AS deals,
       count(*) FILTER (WHERE d.status = 'ok') AS ok_deals,
       count(*) FILTER (WHERE d.status = 'renons') AS renons_deals,
       count(*) FILTER (WHERE d.status = 'error') AS error_deals,
       count(DISTINCT d.session) AS sessions,
       ({players}) AS players,
       count(*) FILTER (WHERE d.score_mismatch) AS disputed_deals,
       min(d.date) AS date_from, max(d.date) AS date_to
FROM deals d
WHERE {where}
"""
_SPAN = """
SELECT count(*) AS deals, min(d.date) AS date_from, max(d.date) AS date_to, count(DISTINCT d.ruleset) AS rulesets
FROM deals d
WHERE {where}
"""
_PLAYERS_OF_DEALS = ("SELECT count(DISTINCT name) FROM (SELECT unnest(d.players) AS name FROM deals d\n"
                     "WHERE {where})")
_PLAYERS_OF_RESULTS = "SELECT count(DISTINCT r.player) FROM stored.results r WHERE {where}"
"""The players count when no filter needs ``deals``: ``results`` has a row per deal and player (an ``error``
deal's too: docs/store.md), and its dictionary-coded ``player`` column reads several times faster than every
deal's list of names (issue 22)."""


def overview(store: Store, filters: Filters = NO_FILTERS) -> pl.DataFrame:
    """One row: deals, ok/renons/error deals, sessions, players, disputed_deals, date range, renons_rate."""
    where = deal_where(filters)
    if needs_deals(filters):
        players = compose(_PLAYERS_OF_DEALS, where=where)
    else:
        players = compose(_PLAYERS_OF_RESULTS, where=partition_where(filters, "r"))
    frame = run(store, _OVERVIEW, where=where, players=players)
    return frame.with_columns(rate("renons_deals", "deals").alias("renons_rate"))


def span(store: Store, filters: Filters = NO_FILTERS) -> pl.DataFrame:
    """One row: deals, date_from, date_to, rulesets (how many) -- ``overview``'s figures that a page asks before
    drawing (is there anything to show, which dates can the sidebar offer, are two rulesets' points mixed),
    from ``date`` and the partition column ``ruleset`` of ``deals``: a fraction of the whole overview's time on a
    big store (issue 22)."""
    return run(store, _SPAN, where=deal_where(filters))
