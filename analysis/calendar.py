"""A player's results per day: deals, net score, the best and the worst deal — a contributions calendar.

One row per date on which the player has scored deals in the selection:
``deals`` (their scored deals that day), ``net`` (the sum of their
recomputed scores), ``best_deal``/``best`` and ``worst_deal``/``worst``
(the deal with their highest and lowest score, ties broken by the smallest
deal id).  Deals without a date, in error or unscored are not in it.
Königrufen and Slovenian points are not on one scale: choose a ruleset
before adding days of both.
"""

from __future__ import annotations

import polars as pl

from analysis.filters import NO_FILTERS, Filters, deal_where
from analysis.sql import param, run
from analysis.store import Store

_DAYS = """
SELECT d.date, count(*) AS deals, CAST(sum(r.score) AS BIGINT) AS net,
       first(d.deal_id ORDER BY r.score DESC, d.deal_id) AS best_deal, max(r.score) AS best,
       first(d.deal_id ORDER BY r.score, d.deal_id) AS worst_deal, min(r.score) AS worst
FROM stored.results r
JOIN deals d ON d.shard = r.shard AND d.source_file = r.source_file AND d.source_pos = r.source_pos
WHERE r.player = {player} AND r.score IS NOT NULL AND d.date IS NOT NULL AND {where}
GROUP BY d.date
ORDER BY d.date
"""


def calendar(store: Store, player: str, filters: Filters = NO_FILTERS) -> pl.DataFrame:
    """The player's days: date, deals, net, best_deal, best, worst_deal, worst (see the module docstring)."""
    return run(store, _DAYS, player=param("c_player", player), where=deal_where(filters, "d"))
