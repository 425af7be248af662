"""Sessions: the list of sessions, and each session's running totals and radelci ledger deal by deal.

A session's deals are taken in ``SESSION_ORDER`` (``seq``, then file
order), as ingest scored them.  Running totals add the recomputed
scores of the deals the filters keep (a deal in error scores nothing and
leaves the total unchanged); ``radelci_after`` is each player's uncancelled
radelci after the deal.  Deals without a session are not listed.
"""

from __future__ import annotations

import polars as pl

from analysis.filters import NO_FILTERS, Filters, deal_where, partition_where
from analysis.sql import TRUE, Fragment, run
from analysis.store import Store

SESSION_ORDER = "d.seq, d.source_file, d.source_pos"
"""A session's deals in order: ``seq`` (deals without one after those with one), then file order, as
ingest scores them (``tarock.check.sessions``, docs/records.md "Sessions")."""

_SESSIONS = """
SELECT d.session, count(*) AS deals, list_sort(list_distinct(flatten(list(d.players)))) AS players,
       min(d.date) AS date_from, max(d.date) AS date_to,
       count(*) FILTER (WHERE d.n_renons > 0) AS renons_deals,
       count(*) FILTER (WHERE d.score_mismatch) AS disputed_deals,
       count(*) FILTER (WHERE d.status = 'error') AS error_deals
FROM deals d
WHERE d.session IS NOT NULL AND {where}
GROUP BY d.session
ORDER BY date_from NULLS LAST, d.session
"""

_RUNNING = """
SELECT d.session, d.seq, d.deal_id, d.date, d.contract, d.declarer, r.player, r.score,
       CAST(coalesce(sum(r.score) OVER (PARTITION BY d.session, r.player ORDER BY {order}
                                         ROWS UNBOUNDED PRECEDING), 0) AS BIGINT) AS total,
       r.radelci_after
FROM deals d JOIN stored.results r ON r.shard = d.shard AND r.source_file = d.source_file
                                   AND r.source_pos = d.source_pos AND {results_where}
WHERE d.session IS NOT NULL AND {where} AND {session}
ORDER BY d.session, {order}, r.seat_no
"""


def sessions(store: Store, filters: Filters = NO_FILTERS) -> pl.DataFrame:
    """One row per session: deals, players (sorted names), date range, and the deals with a renons,
    disputed or in error."""
    return run(store, _SESSIONS, where=deal_where(filters))


def running_totals(store: Store, filters: Filters = NO_FILTERS,
                   session: str | None = None) -> pl.DataFrame:
    """One row per deal and player, in session order: score, running total and radelci_after.

    ``session`` limits the answer to one session (all sessions otherwise).
    """
    only = TRUE if session is None else Fragment("d.session = $s_session", {"s_session": session})
    return run(store, _RUNNING, order=Fragment(SESSION_ORDER), where=deal_where(filters),
               results_where=partition_where(filters, "r"), session=only)
