"""What declaring a contract brings: average declarer score and card points, and how many games were close.

A game is *close* — decided by the difference — when the declarer side's
card points are within ``CLOSE_MARGIN`` (5) of the win threshold (36) on
either side: 31 to 35 lost, 36 to 40 won.  Moving at most 5 card points
(one king) between the sides would then have turned the result.  It applies
to the contracts decided by card points (Tri … Solo ena and Solo brez); for
the others ``close`` and ``close_share`` are null.  The difference *line*
is not used: it is rounded (to 5 by default) and multiplied by kontras, so
its size says little about how near the game was.
"""

from __future__ import annotations

import polars as pl

from analysis.filters import NO_FILTERS, Filters, deal_where, partition_where
from analysis.sql import param, run
from analysis.stats import rate
from analysis.store import Store
from analysis.vocabulary import contract_rank
from tarock.rules.slovenian.scoring import NORMAL_CONTRACTS, WIN_THRESHOLD

CLOSE_MARGIN = 5
"""Card points either side of the win threshold that make a game close."""

POINTS_CONTRACTS = (*NORMAL_CONTRACTS, "solo_brez")
"""Contracts won with ``WIN_THRESHOLD`` card points or more."""

_QUERY = """
SELECT d.contract AS contract,
       count(*) AS deals,
       count(*) FILTER (WHERE d.won) AS wins,
       avg(r.score) AS avg_score,
       avg(d.declarer_points) AS avg_card_points,
       CASE WHEN list_contains({points_contracts}, d.contract)
            THEN count(*) FILTER (WHERE d.declarer_points BETWEEN {low} AND {high}) END AS close
FROM deals d
LEFT JOIN stored.results r ON r.shard = d.shard AND r.source_file = d.source_file AND r.source_pos = d.source_pos
                   AND r.role = 'declarer' AND {results_where}
WHERE {where}
GROUP BY d.contract
ORDER BY {order}
"""


def outcomes(store: Store, filters: Filters = NO_FILTERS) -> pl.DataFrame:
    """Per declared contract: deals, wins, avg_score (the declarer's), avg_card_points (the declarer
    side's), close and close_share (see the module docstring)."""
    frame = run(
        store, _QUERY,
        points_contracts=param("o_points_contracts", list(POINTS_CONTRACTS)),
        low=param("o_low", WIN_THRESHOLD - CLOSE_MARGIN),
        high=param("o_high", WIN_THRESHOLD + CLOSE_MARGIN - 1),
        results_where=partition_where(filters, "r"),
        where=deal_where(filters, declared=True),
        order=contract_rank("d.contract"),
    )
    return frame.with_columns(rate("close", "deals").alias("close_share"))
