"""Luck of the cards beside the results: how often a player was dealt a strong hand.

A hand is **strong** when, as dealt (the record's ``hands``, before any
talon exchange), it holds at least ``STRONG_TAROKS`` taroks — 7 of 12 cards
at a four-player table, 9 of 16 at three — or at least ``STRONG_KINGS``
kings.  An even deal gives about 4.9 (6.5) taroks and 0.9 (1.2) kings, so
both thresholds sit well above the average hand.  The counts come from the
``ratings`` table (``taroks``, ``kings``: from the ``hands`` table when the
ratings are brought up to date), so the share is over the player's rated
deals whose record lists the hands; a store whose ratings were never built
has none (``has_ratings``).
"""

from __future__ import annotations

import polars as pl

from analysis.filters import NO_FILTERS, Filters
from analysis.ratings import rated_where
from analysis.sql import TRUE, Fragment, param, run
from analysis.store import Store

STRONG_TAROKS = {3: 9, 4: 7}
"""Taroks that make a dealt hand strong, by players at the table."""
STRONG_KINGS = 2

_LUCK = """
SELECT g.player, count(*) AS deals,
       count(*) FILTER (WHERE g.taroks >= CASE g.n_players WHEN 3 THEN {t3} ELSE {t4} END
                        OR g.kings >= {kings}) AS strong,
       avg(g.taroks) AS mean_taroks, avg(g.kings) AS mean_kings
FROM ratings g
WHERE {where} AND {only} AND g.taroks IS NOT NULL
GROUP BY g.player
ORDER BY g.player
"""


def luck(store: Store, filters: Filters = NO_FILTERS) -> pl.DataFrame:
    """Per player: deals (rated, hands known), strong (strong hands dealt), strong_share, mean_taroks,
    mean_kings."""
    only = TRUE if filters.player is None else Fragment("g.player = $f_player", {"f_player": filters.player})
    frame = run(store, _LUCK, where=rated_where(filters), only=only, t3=param("l_t3", STRONG_TAROKS[3]),
                t4=param("l_t4", STRONG_TAROKS[4]), kings=param("l_kings", STRONG_KINGS))
    return frame.with_columns((pl.col("strong") / pl.col("deals")).alias("strong_share"))
