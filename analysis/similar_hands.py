"""The club's record for hands like this one: how the store's declarers fared per contract with a similar hand.

A stored declarer's dealt hand (the ``hands`` table) is *like* the asked one when it holds as many kings, and
as many taroks and as many taroks from XV up, give or take one each (``TOLERANCE``): the three counts a bidder
weighs first (docs/analysis.md, "What a hand is worth").  Per contract of the table (ruleset and players): the
deals, the wins and the declarer's mean score, over the deals ``analysis.win_rates`` counts (a declarer, no
error, a result).  A contract with no such deal is absent.
"""

from __future__ import annotations

import polars as pl

from analysis.filters import Filters, deal_where
from analysis.sql import Fragment, run, same_copy
from analysis.store import Store

TOLERANCE = 1
"""How far a stored hand's taroks and high taroks may be from the asked hand's for it to count as alike."""

_QUERY = f"""
SELECT d.contract, count(*) AS deals, count(*) FILTER (WHERE d.won) AS wins, avg(r.score) AS mean_score
FROM deals d JOIN stored.hands h ON {same_copy('h', 'd')} AND h.declarer
LEFT JOIN stored.results r ON {same_copy('r', 'd')} AND r.player = d.declarer
WHERE {{where}} AND {{alike}}
GROUP BY d.contract
ORDER BY d.contract
"""


def similar_record(store: Store, features: dict[str, float], ruleset: str, n_players: int) -> pl.DataFrame:
    """Per contract of ``ruleset`` at ``n_players``: ``deals``, ``wins`` and ``mean_score`` (the declarer's) of
    the stored declared deals whose declarer was dealt a hand like one of these ``features``
    (``analysis.hand_model.hand_features``)."""
    alike = Fragment("h.kings = $s_kings AND abs(h.taroks - $s_taroks) <= $s_tolerance "
                     "AND abs(h.high_taroks - $s_high) <= $s_tolerance",
                     {"s_kings": int(features["kings"]), "s_taroks": int(features["taroks"]),
                      "s_high": int(features["high_taroks"]), "s_tolerance": TOLERANCE})
    where = deal_where(Filters(ruleset=ruleset, players=n_players), declared=True)
    return run(store, _QUERY, where=where, alike=alike)
